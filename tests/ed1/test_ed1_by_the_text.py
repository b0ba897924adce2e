"""ED1 combat cases written from the rules text alone (001_694a1556573a8dc9.txt, "EDRulebook: 12 Combat").

The text has no page numbers: each case cites its section ("ch.12 Initiative"). Each case quotes the sentence
it checks, forces every die and asserts on the final values. The class of each case is in its name: A timing
and duration, B stacking, C final values, D geometry and counting, E what a character cannot do, F offered
equals legal, G voluntary versus involuntary and time.
"""

from __future__ import annotations

from ed1_by_the_text_helpers import (
    c,
    damaged,
    faces,
    initiative,
    one_roll,
    order,
    play,
    rolls,
    start,
    until,
    who,
)

from fracas.engine import events as ev
from fracas.engine.commands import Command


def axe(damage: int, step: int = 10) -> list[dict]:
    return [{"name": "Axe", "kind": "melee", "step": step, "damage": damage}]


def duel(hero: dict | None = None, foe: dict | None = None, init: tuple[int, int] = (6, 3)):
    """Hero (creature Initiative step 7, d12) next to a foe (step 5, d8); `init`: their Initiative faces."""
    hero = hero or who("hero", [0, 0], initiative=7)
    foe = foe or who("foe", [1, 0])
    return start([hero], [foe], list(init))


ATTACK_FOE = {"hero": ("attack", "foe")}


# ----- C: final values -------------------------------------------------------------------------------


def test_C_result_equal_to_the_difficulty_number_succeeds():
    """ch.12 Combat Round (3. Resolve Actions): "If the dice result is equal to or higher than the Difficulty
    Number of the test, the action succeeds." 8 against Physical Defense 8 hits; 5 damage is taken."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 8) + faces(8, 5))
    att = one_roll(out, "Attack")
    assert (att.total, att.dn, att.success) == (8, 8, True)
    assert c(f, "foe").counters["damage"] == 5


def test_C_result_one_under_the_difficulty_number_fails():
    """ch.12 Combat Round: "If the dice result is equal to or higher than the Difficulty Number of the test,
    the action succeeds." 7 against Physical Defense 8 misses: no Damage test, no damage."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 7))
    assert one_roll(out, "Attack").success is False
    assert not rolls(out, "Damage")
    assert c(f, "foe").counters.get("damage", 0) == 0


def test_C_step_10_is_d10_plus_d6():
    """ch.12 Resolving Actions: "The character makes the appropriate test ... after rolling all necessary
    dice"; the ED1 Step/Action Dice Table (reference 1.2): step 10 is d10+d6, not ED4's 2d8."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), [9, 5] + faces(8, 5))
    att = one_roll(out, "Attack")
    assert [d[0] for d in att.roll["dice"]] == [10, 6]
    assert att.total == 14


def test_C_step_14_is_d20_plus_d4():
    """ED1 Step/Action Dice Table (reference 1.2): "a d20 appears at step 14" - step 14 is d20+d4."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=axe(8, step=14)))
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), [10, 3] + faces(8, 5))
    att = one_roll(out, "Attack")
    assert [d[0] for d in att.roll["dice"]] == [20, 4]
    assert att.total == 13


def test_C_damage_less_armor_no_wound_under_the_threshold():
    """ch.12 Combat Round: players make "an Attack Test followed by a Damage Test"; the Physical Armor is
    subtracted (rule ed1/damage/armor) and a Wound needs the Wound Threshold: 10 - 3 = 7 < WT 8: no Wound."""
    f = duel(foe=who("foe", [1, 0], physical_armor=3))
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(8, 10))
    assert [(d.raw, d.armor, d.amount) for d in damaged(out, "foe")] == [(10, 3, 7)]
    assert c(f, "foe").counters["damage"] == 7
    assert not [e for e in out if isinstance(e, ev.Wounded)]


def test_C_changing_the_declared_target_thom_hammerblade():
    """ch.12 Changing Declared Action: "Thom changes his action to an attack against his companion's
    backstabbing opponent. When Thom makes his Attack Test, he adds +2 to the Difficulty Number, which is
    the Physical Defense of the target." Declared on the raider, he attacks the backstabber: DN 8 + 2."""
    hero = who("thom", [0, 0], initiative=7)
    f = start([hero], [who("raider", [1, 0]), who("backstabber", [0, 1], initiative=4)], [6, 3, 2])
    until(f, "thom", plan={"thom": ("attack", "raider")})
    out = play(f, Command("thom", "attack", "backstabber", {}), faces(10, 9))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (10, False)


def test_C_the_declared_attack_has_no_penalty():
    """ch.12 Combat Round: "If a character wants to change his action from what he declared at the beginning
    of the round, he must increase the Difficulty Number of the new action by +2." The declared attack on the
    declared target: DN 8, no +2."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 8) + faces(8, 3))
    assert one_roll(out, "Attack").dn == 8


def test_C_changing_from_a_declared_move_to_an_attack():
    """ch.12 Changing Declared Action: "This rule applies anytime a player changes his character's action
    after declaring it." Declared a move, he attacks: DN 8 + 2 = 10."""
    f = duel()
    until(f, "hero", plan={"hero": ("move", None)})
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 10) + faces(8, 3))
    assert one_roll(out, "Attack").dn == 10


def test_C_reserved_action_adds_2_to_the_difficulty_number():
    """ch.12 Reserved Actions: "Reserved actions suffer the same Difficulty Number penalty as changed
    actions." Initiative 6 lowered to 2; his declared attack then is against DN 8 + 2 = 10."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "reserve", None, {"initiative": 2}), [])
    until(f, "hero", faces_=[])
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 10) + faces(8, 3))
    assert one_roll(out, "Attack").dn == 10


def test_C_no_extra_damage_for_a_high_result():
    """ED1 grades a test by its success level (reference 1.5), not by extra successes: an Extraordinary 20
    against DN 8 does not raise the Damage step (8), unlike ED4's +2 per extra success."""
    f = duel(foe=who("foe", [1, 0], wound_threshold=30))
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), [9, 6, 5] + faces(8, 5))
    assert one_roll(out, "Attack").total == 20
    assert one_roll(out, "Damage").step == 8


def test_C_excellent_attack_defeats_armor():
    """ED1 Success Level Table (reference 1.5): against DN 8, 16-19 is Excellent; "armour-defeating hits on
    Excellent or Extraordinary": the foe's Physical Armor 4 does not count, 9 damage is 9."""
    f = duel(foe=who("foe", [1, 0], physical_armor=4, wound_threshold=30))
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), [10, 1, 5] + faces(8, 9))
    assert one_roll(out, "Attack").outcome.lower().startswith("excellent")
    assert [d.amount for d in damaged(out, "foe")] == [9]


def test_C_average_attack_is_reduced_by_armor():
    """ED1 Success Level Table (reference 1.5): against DN 8, 8-12 is Average: armor counts, 9 - 4 = 5."""
    f = duel(foe=who("foe", [1, 0], physical_armor=4, wound_threshold=30))
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 10) + faces(8, 9))
    assert [d.amount for d in damaged(out, "foe")] == [5]


def test_C_spells_are_tested_against_spell_defense():
    """ch.12 Difficulty Number: "Tests made for combat talents use either the target's Physical Defense
    Rating or Spell Defense Rating as the Difficulty Number." A spell against Spell Defense 11 (PD 6)."""
    spell = [
        {"name": "Dart", "kind": "spell", "step": 10, "damage": 8, "against": "mystic", "range": [0, 30, 60]}
    ]
    f = duel(
        who("hero", [0, 0], initiative=7, attacks=spell),
        who("foe", [3, 0], physical_defense=6, mystic_defense=11),
    )
    until(f, "hero", plan={"hero": ("spell", "foe")})
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 10))
    att = one_roll(out, "")
    assert (att.dn, att.success) == (11, False)


# ----- Initiative ------------------------------------------------------------------------------------


def test_C_characters_roll_their_dexterity_dice_for_initiative():
    """ch.12 Combat Round (2. Determine Initiative): "The Initiative dice for player characters and gamemaster
    characters is their Dexterity dice." Dexterity 16 is step 7 (d12) on the Attribute Table."""
    hero = {
        "id": "hero",
        "player": True,
        "at": [0, 0],
        "stats": {
            "kind": "character",
            "dexterity": 16,
            "strength": 12,
            "toughness": 12,
            "perception": 10,
            "willpower": 10,
            "charisma": 10,
            "movement": 20,
            "full_movement": 40,
            "attacks": [{"name": "Sword", "kind": "melee", "step": 10, "damage": 8}],
        },
    }
    f = start([hero], [who("foe", [1, 0])], [9, 3])
    until(f, "hero", plan=ATTACK_FOE)
    ini = initiative(f, "hero", 1)
    assert (ini.step, ini.value) == (7, 9)


def test_C_creatures_roll_the_initiative_step_of_their_description():
    """ch.12 Combat Round: "The Initiative dice for creatures is listed with the individual descriptions" - a
    creature with Initiative step 9 (Dexterity 12, step 5) rolls d8+d6."""
    f = start([who("hero", [0, 0], initiative=7)], [who("foe", [1, 0], initiative=9)], [6, 5, 4])
    until(f, "hero", plan=ATTACK_FOE)
    ini = initiative(f, "foe", 1)
    assert (ini.step, ini.value) == (9, 9)


def test_G_armor_reduces_a_characters_initiative():
    """ch.12 Combat Round: "Note that some talents can increase a character's Initiative, while armor and
    shields can reduce a character's Initiative." Thom Hammerblade's Dexterity dice less his armor and shield
    penalties give the step he rolls."""
    f = start(
        [{"id": "thom", "template": "thom-hammerblade", "player": True, "at": [0, 0]}],
        [who("foe", [1, 0])],
        [],
    )
    p = c(f, "thom").stats
    assert p.initiative_step == max(1, p.dex_step - p.armor_penalty - p.shield_penalty)
    assert p.armor_penalty + p.shield_penalty > 0 or p.initiative_step == p.dex_step


def test_D_one_initiative_test_for_identical_orks_and_one_for_the_veteran():
    """ch.12 Initiative: "if the group consists of five orks and an ork veteran with a different Initiative
    step, make one Initiative Test for the five orks and then a separate test for the ork veteran." Three
    identical orks share one roll (5); the veteran rolls his own (2)."""
    orks = {"template": "ork-raider", "count": 3, "at": [[3, 0], [3, 1], [4, 0]]}
    vet = {"template": "ork-raider", "id": "veteran", "at": [4, 1], "stats": {"initiative": 3}}
    f = start([who("hero", [0, 0], initiative=7)], [orks, vet], [6, 5, 2])
    until(f, "hero")
    values = {cid: initiative(f, cid, 1).value for cid in ("ork-raider-1", "ork-raider-2", "ork-raider-3")}
    assert set(values.values()) == {5}
    assert initiative(f, "veteran", 1).value == 2


def test_D_a_player_character_wins_a_tie():
    """ch.12 Initiative: "If a player character ties his Initiative with a creature or gamemaster character,
    the player character always takes his action first." Both roll 4; the player acts first though listed
    second."""
    f = start([who("hero", [0, 0], player=True, initiative=5)], [who("foe", [1, 0], initiative=7)], [4, 4])
    d = until(f, "hero", plan=ATTACK_FOE)
    assert order(f, 1)[0] == "hero"
    assert d.actor == "hero"


def test_A_initiative_is_tested_again_each_round():
    """ch.12 Initiative: "At the start of each Combat Round, each player and the gamemaster makes an
    Initiative Test" - the order of round 2 follows round 2's rolls (foe 7 over hero 2), not round 1's."""
    f = duel(init=(6, 3))
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "end", None, {}), [])
    until(f, "foe")
    play(f, Command("foe", "end", None, {}), [])
    until(f, "foe", faces_=[2, 7])
    assert order(f, 1) == ("hero", "foe")
    assert order(f, 2) == ("foe", "hero")
    assert (initiative(f, "hero", 2).value, initiative(f, "foe", 2).value) == (2, 7)
