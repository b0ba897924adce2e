"""ED1 combat cases written from the rules text alone (001_694a1556573a8dc9.txt, "EDRulebook: 12 Combat").

The text has no page numbers: each case cites its section ("ch.12 Initiative"). Each case quotes the sentence
it checks, forces every die and asserts on the final values. The class of each case is in its name: A timing
and duration, B stacking, C final values, D geometry and counting, E what a character cannot do, F offered
equals legal, G voluntary versus involuntary and time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ed_by_the_text_helpers import (
    ED1,
    c,
    damaged,
    initiative,
    offered_are_legal,
    one_roll,
    order,
    play,
    rolls,
    statuses,
    until,
)

from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand

R, duel, faces, start, who = ED1.ruleset, ED1.duel, ED1.faces, ED1.start, ED1.who


def axe(damage: int, step: int = 10) -> list[dict]:
    return [{"name": "Axe", "kind": "melee", "step": step, "damage": damage}]


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
    until(f, "hero", faces=[])
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
    until(f, "foe", faces=[2, 7])
    assert order(f, 1) == ("hero", "foe")
    assert order(f, 2) == ("foe", "hero")
    assert (initiative(f, "hero", 2).value, initiative(f, "foe", 2).value) == (2, 7)


# ----- D: movement -----------------------------------------------------------------------------------


def test_D_combat_movement_with_an_attack():
    """ch.12 Movement: "If the character wants to perform any other action during that round (attack an
    opponent, cast a spell, and so on), he can move up to a number of yards equal to his Combat Movement."
    Combat Movement 10 yards: 5 hexes then the attack; 6 hexes and an attack are refused."""
    f = duel(foe=who("foe", [6, 0]))
    until(f, "hero", plan=ATTACK_FOE)
    with pytest.raises(IllegalCommand):
        R.validate(
            f.state, Command("hero", "attack", "foe", {"path": [[i, 0] for i in range(1, 6)] + [[5, 1]]})
        )
    out = play(
        f, Command("hero", "attack", "foe", {"path": [[i, 0] for i in range(1, 6)]}), faces(10, 8) + [3, 2]
    )
    assert one_roll(out, "Attack").success
    assert c(f, "hero").pos == (5, 0)


def test_D_full_movement_when_only_moving():
    """ch.12 Movement: "If movement is the only action your character takes during a Combat Round, a
    character can move up to a number of yards equal to his Full Movement." Full Movement 20 yards: 10
    hexes; 11 are refused."""
    f = duel(foe=who("foe", [-3, 0]))
    until(f, "hero", plan={"hero": ("run", None)})
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "run", None, {"path": [[i, 0] for i in range(1, 12)]}))
    play(f, Command("hero", "run", None, {"path": [[i, 0] for i in range(1, 11)]}), [])
    assert c(f, "hero").pos == (10, 0)


def test_D_movement_all_at_once_not_split_around_the_attack():
    """ch.12 Movement: "his movement must take place all at once, either before or after his other action
    ... a character cannot move half the distance of his Combat Movement, attack an opponent, and then use
    the rest of his Combat Movement trying to get away." Moving in, attacking and moving out is refused."""
    f = duel(foe=who("foe", [3, 0]))
    until(f, "hero", plan=ATTACK_FOE)
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "foe", {"path": [[1, 0], [2, 0]], "after": [[1, 0]]}))


def test_D_splitting_movement_when_the_table_adopts_it():
    """ch.12 Movement: "See Combat Options for an optional rule called Splitting Movement. This special rule
    DOES allow characters to move, attack, and then move again." With the option on: in 2, strike, out 1."""
    f = start(
        [who("hero", [0, 0], initiative=7)], [who("foe", [3, 0])], [6, 3], options={"split-movement": True}
    )
    until(f, "hero", plan=ATTACK_FOE)
    out = play(
        f,
        Command("hero", "attack", "foe", {"path": [[1, 0], [2, 0]], "after": [[1, 0]]}),
        faces(10, 8) + faces(8, 3),
    )
    assert one_roll(out, "Attack").success
    assert c(f, "hero").pos == (1, 0)


def test_D_attack_then_move_away():
    """ch.12 Movement: "a character can move and then attack, or vice versa" - an attack from where he stands,
    then the Combat Movement away (5 hexes)."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    out = play(
        f,
        Command("hero", "attack", "foe", {"after": [[-i, 0] for i in range(1, 6)]}),
        faces(10, 8) + faces(8, 3),
    )
    assert one_roll(out, "Attack").success
    assert c(f, "hero").pos == (-5, 0)


def test_D_close_combat_needs_the_adjacent_hex():
    """ch.12 Movement: "a character can move and then attack" - a sword does not reach a foe 3 hexes away
    without moving (close combat reaches the adjacent hex, rule ed1/combat/close)."""
    f = duel(foe=who("foe", [3, 0]))
    until(f, "hero", plan=ATTACK_FOE)
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "foe", {}))


# ----- E: what a character cannot do -------------------------------------------------------------------


def test_E_only_one_talent_that_requires_an_action_per_round():
    """ch.12 Talent Tests: "During a Combat Round, a character can use only one talent that requires an
    action." After his attack, a second attack in the same round is refused."""
    f = duel(foe=who("foe", [1, 0], wound_threshold=30))
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "attack", "foe", {"end": False}), faces(10, 8) + faces(8, 3))
    d = f.advance_until_decision()
    if d is not None and d.actor == "hero":
        assert "attack" not in {cmd.action for cmd in R.choices(f.state, d)}
        with pytest.raises(IllegalCommand):
            R.validate(f.state, Command("hero", "attack", "foe", {}))


def test_E_acting_later_means_reserving_no_delayed_action():
    """ch.12 Combat Round: "Characters may voluntarily reduce their Initiative in order to perform their
    actions later in a round." ED1 has no ED4-style delayed action: it is neither offered nor accepted."""
    f = duel()
    d = until(f, "hero", plan=ATTACK_FOE)
    assert "delay" not in {cmd.action for cmd in R.choices(f.state, d)}
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "delay", None, {}))


def test_E_a_reserved_initiative_must_be_lower():
    """ch.12 Reserved Actions: "A player using this option simply chooses a new, lower Initiative number and
    announces it." At Initiative 6, reserving to 6 or 9 is refused; to 5 it is accepted."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    for n in (6, 9):
        with pytest.raises(IllegalCommand):
            R.validate(f.state, Command("hero", "reserve", None, {"initiative": n}))
    R.validate(f.state, Command("hero", "reserve", None, {"initiative": 5}))


def test_G_a_reserved_initiative_is_not_lowered_below_1():
    """ch.12 Reserved Actions: "A player may voluntarily lower his or her character's Initiative in the Combat
    Round in order to act later" - a voluntary lowering gives an Initiative number; 0 is none: refused."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "reserve", None, {"initiative": 0}))
    R.validate(f.state, Command("hero", "reserve", None, {"initiative": 1}))


def test_A_a_reserved_action_comes_at_its_new_initiative():
    """ch.12 Reserved Actions: "A player may voluntarily lower his or her character's Initiative in the Combat
    Round in order to act later in the round." At 6 he reserves to 2: the foe (3) acts before him."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "reserve", None, {"initiative": 2}), [])
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("foe", "act")
    play(f, Command("foe", "end", None, {}), [])
    d = f.advance_until_decision()
    assert (d.actor, d.kind, f.state.round) == ("hero", "act", 1)


def test_A_knocked_out_before_his_turn_he_does_not_act():
    """ch.12 Resolving Actions: "Resolve each character's actions fully before the next character acts" - the
    foe (Initiative 3) knocked unconscious by the hero (6) at once is not asked to act in that round."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(19, step=10))
    foe = who("foe", [1, 0], wound_threshold=30)
    f = start([hero], [foe, who("other", [9, 0], initiative=1, tactic="hold")], [6, 3, 1])
    until(f, "hero", plan=ATTACK_FOE)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 20))
    assert statuses(out, "foe") == ["unconscious"]
    asked = []
    while True:
        d = f.advance_until_decision()
        if d is None or f.state.round > 1:
            break
        asked.append(d.actor)
        play(f, Command(d.actor, "end", None, {}), [])
    assert "foe" not in asked


def test_E_surrender_leaves_the_fight_at_once():
    """ch.12 Special Actions: special actions "can also include unusual actions such as surrendering to an
    opponent"; "Special actions do not require an action to perform" - declared at the start of the round,
    the foe is out before Initiative and never acts."""
    f = start([who("hero", [0, 0], initiative=7)], [who("foe", [1, 0]), who("other", [9, 0])], [6, 2])
    until(f, "hero", plan={"hero": ("attack", "foe"), "foe": ("other", None, ["surrender"])})
    assert c(f, "foe").status != "active"
    assert "foe" not in order(f, 1)
    assert not any(isinstance(e, ev.TurnStarted) and e.actor == "foe" for e in f.log)


def test_E_a_charging_rider_is_attacked_only_with_a_reserved_action():
    """ch.12 Reserved Actions: "Reserving actions is the only way that characters can make attacks against
    opponents using charging or swooping attacks." Thom (Initiative 3) may not attack the ork rider who
    declared a charge (2); reserved to 1, he strikes him after the charge at DN + 2."""
    thom = {"template": "thom-hammerblade", "id": "thom", "player": True, "at": [0, 0]}
    rider = {"template": "ork-rider", "id": "rider", "at": [3, 0]}
    f = start([thom], [rider], [3, 2])
    plan = {"thom": ("attack", "rider"), "rider": ("attack", "thom", ["charge"])}
    until(f, "thom", plan=plan)
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("thom", "attack", "rider", {"path": [[1, 0], [2, 0]]}))
    play(f, Command("thom", "reserve", None, {"initiative": 1}), [])
    until(f, "rider", plan=plan)
    spear = c(f, "rider").stats.attacks[0]
    play(
        f,
        Command("rider", "attack", "thom", {"charge": True, "path": [[2, 0], [1, 0]]}),
        faces(spear.step, 5),
    )
    until(f, "thom", plan=plan)
    sword = c(f, "thom").stats.attacks[0]
    out = play(f, Command("thom", "attack", "rider", {}), faces(sword.step, 3))
    assert one_roll(out, "Attack").dn == c(f, "rider").stats.physical_defense + 2


# ----- B: stacking -----------------------------------------------------------------------------------


def test_B_reserved_penalty_and_long_range_both_count():
    """ch.12 Reserved Actions: "Reserved actions suffer the same Difficulty Number penalty as changed
    actions" (+2); long range: -2 to the Attack test (rule ed1/situation/range). A bow shot at long range
    from a reserved action: step 13 -> 11 against DN 8 + 2 = 10."""
    bow = [{"name": "Bow", "kind": "missile", "step": 13, "damage": 8, "range": [2, 20, 40]}]
    f = duel(who("hero", [0, 0], initiative=7, attacks=bow), who("foe", [15, 0], wound_threshold=30))
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "reserve", None, {"initiative": 2}), [])
    until(f, "hero", faces=[])
    out = play(f, Command("hero", "attack", "foe", {}), faces(11, 10) + faces(6, 3))
    att = one_roll(out, "Attack")
    assert (att.step, att.dn, att.success) == (11, 10, True)


def test_B_changed_target_and_a_knocked_down_target_both_count():
    """ch.12 Changing Declared Action: "increases the Difficulty Number by +2"; a knocked-down target has
    -3 to its Defenses (rule ed1/situation/knocked-down). Knocked down by the ally, the foe (PD 8) is
    attacked by the hero, who had declared another target: DN 8 - 3 + 2 = 7."""
    ally = who("ally", [2, -1], initiative=9, attacks=axe(14))
    hero = who("hero", [0, 0], initiative=7)
    foes = [who("foe", [1, 0]), who("other", [-1, 0], initiative=4)]
    f = start([ally, hero], foes, [4, 3, 6, 3, 2])
    plan = {"ally": ("attack", "foe"), "hero": ("attack", "other")}
    until(f, "ally", plan=plan)
    play(f, Command("ally", "attack", "foe", {}), faces(9, 9) + faces(14, 13) + faces(5, 4))
    assert "knocked-down" in c(f, "foe").conditions
    until(f, "hero", plan=plan)
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 7


# ----- A, E, G: declarations, time, what the tactics may know --------------------------------------------


def test_A_declarations_come_before_the_initiative_tests():
    """ch.12 Combat Round: "1. Declare Actions ... 2. Determine Initiative" - every Declared event of round 1
    comes before its first Initiative test."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    kinds = [type(e).__name__ for e in f.log]
    assert kinds.index("InitiativeRolled") > max(i for i, k in enumerate(kinds) if k == "Declared")


def test_A_the_change_penalty_is_for_that_round_only():
    """ch.12 Changing Declared Action: "The rule permits a character to attempt the new action, but increases
    the Difficulty Number by +2." Changed in round 1 (DN 10); in round 2, declared on the same foe, DN 8."""
    f = start(
        [who("hero", [0, 0], initiative=7)],
        [who("foe", [1, 0], wound_threshold=30), who("other", [0, 1])],
        [6, 3, 2],
    )
    until(f, "hero", plan={"hero": ("attack", "other")})
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 10
    until(f, "foe")
    play(f, Command("foe", "end", None, {}), [])
    until(f, "hero", faces=[6, 3, 2], plan=ATTACK_FOE)
    assert f.state.round == 2
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 8


def test_C_karma_announced_at_the_turn_is_rolled_with_the_test():
    """ch.12 Resolving Actions: "The character makes the appropriate test, announcing the result after rolling
    all necessary dice, including any Karma dice or Bonus dice." Thom's Broadsword step 11 (d10+d8) with his
    Karma die (d6): 5 + 4 + 3 = 12, one Karma Point spent."""
    thom = {"template": "thom-hammerblade", "id": "thom", "player": True, "at": [0, 0]}
    f = start([thom], [who("foe", [1, 0], wound_threshold=40)], [3, 2])
    until(f, "thom", plan={"thom": ("attack", "foe")})
    karma = c(f, "thom").stats.karma
    sword = c(f, "thom").stats.attacks[0]
    out = play(
        f,
        Command("thom", "attack", "foe", {"attack": sword.name, "karma": True}),
        [5, 4, 3] + faces(sword.damage, 5),
    )
    att = one_roll(out, "Attack")
    assert [d[0] for d in att.roll["dice"]] == [10, 8, 6]
    assert att.total == 12
    spent = sum(e.delta for e in f.log if isinstance(e, ev.CounterChanged) and e.counter == "karma")
    assert spent == -1
    assert karma >= 1


def test_C_a_simple_action_leaves_the_talent_action():
    """ch.12 Actions: "In a single round he can move, perform a simple action, and use one talent that
    requires an action." After a simple action (drawing a weapon), his declared attack is still made."""
    f = duel()
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "simple", None, {"what": "draws a dagger"}), [])
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("hero", "act")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 8) + faces(8, 3))
    assert one_roll(out, "Attack").success


def test_E_no_attack_after_running_at_full_movement():
    """ch.12 Movement: "If movement is the only action your character takes during a Combat Round, a
    character can move up to a number of yards equal to his Full Movement." Having run 8 hexes (16 yards,
    beyond his 10-yard Combat Movement), he may not attack the foe he ends next to."""
    f = duel(foe=who("foe", [9, 0]))
    until(f, "hero", plan={"hero": ("run", None)})
    play(f, Command("hero", "run", None, {"path": [[i, 0] for i in range(1, 9)], "end": False}), [])
    d = f.advance_until_decision()
    if d is not None and d.actor == "hero" and f.state.round == 1:
        assert "attack" not in {cmd.action for cmd in R.choices(f.state, d)}
        with pytest.raises(IllegalCommand):
            R.validate(f.state, Command("hero", "attack", "foe", {}))


def test_E_an_unconscious_character_declares_nothing_and_rolls_no_initiative():
    """ch.12 Combat Round: "All characters declare the general type of action they intend to perform" - a
    character knocked unconscious in round 1 is not asked to declare in round 2 and gets no Initiative."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(19))
    foe = who("foe", [1, 0], wound_threshold=30)
    f = start([hero], [foe, who("other", [9, 0], initiative=1, tactic="hold")], [6, 3, 1])
    until(f, "hero", plan=ATTACK_FOE)
    play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 20))
    f.dice = ScriptedDice([5, 1])
    asked = []
    while True:
        d = f.advance_until_decision()
        if d is None or (f.state.round == 2 and d.kind == "act"):
            break
        asked.append((f.state.round, d.actor, d.kind))
        f.submit(
            Command(d.actor, "declare", None, {"action": "other"})
            if d.kind == "declare"
            else Command(d.actor, "end", None, {})
        )
    assert (2, "foe", "declare") not in asked
    assert "foe" not in order(f, 2)


def offline_rounds(f, last_round: int) -> list[int]:
    """Everyone declares 'other' and ends his turn, every die a 2, to `last_round`: the Recovery rounds."""
    f.dice = ScriptedDice([2] * 400)
    while f.state.round <= last_round:
        d = f.advance_until_decision()
        if d is None:
            break
        f.submit(
            Command(d.actor, "declare", None, {"action": "other"})
            if d.kind == "declare"
            else Command(d.actor, "end", None, {})
        )
    found, current = [], 0
    for e in f.log:
        if isinstance(e, ev.RoundStarted):
            current = e.round
        if isinstance(e, ev.Rolled) and "recovery" in e.test.lower():
            found.append(current)
    return found


def test_G_unconscious_recovery_one_minute_is_6_rounds_of_ten_seconds():
    """ch.12 Combat Round: "Each Combat Round equals roughly ten seconds of game time"; the unconscious
    character's Recovery test comes one minute after he falls (rule ed1/recovery/unconscious, the shared
    Earthdawn rule). Knocked out in round 1, his test is in round 7 - six ten-second rounds - not round 11."""
    hero = who("hero", [0, 0], initiative=4)
    ally = who("ally", [0, 8], initiative=3, tactic="hold", movement=11)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(19), wound_threshold=40)
    f = start([hero, ally], [striker], [2, 2, 2])
    until(f, "striker", plan={"striker": ("attack", "hero")})
    out = play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 21))
    assert statuses(out, "hero") == ["unconscious"]
    assert offline_rounds(f, 12) == [7]


def test_E_a_players_tactic_does_not_hunt_a_hidden_monster():
    """ch.12 Combat Round: "All characters declare the general type of action they intend to perform in the
    upcoming round, such as attacking" - a character cannot intend to attack a monster he does not know is
    there. A `hidden: true` monster 6 hexes away is neither declared on nor approached by the player's
    tactic."""
    hero = who("hero", [0, 0], player=True, initiative=7)
    monster = who("monster", [6, 0], hidden=True, tactic="hold")
    orc = who("orc", [0, -12], tactic="hold")
    f = start([hero], [monster, orc], [])
    f.dice = ScriptedDice([3] * 40)
    for _ in range(6):
        d = f.advance_until_decision()
        cmd = f.auto_command(d)
        if d.actor == "hero":
            assert cmd.target != "monster", cmd
        f.submit(cmd)
        if d.actor == "hero" and d.kind == "act":
            break
    q, r = c(f, "hero").pos
    assert max(abs(q - 6), abs(r), abs(q - 6 + r)) >= 6  # no nearer the monster than at the start


# ----- F: offered equals legal ------------------------------------------------------------------------


EXAMPLES = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "examples" / "ed1").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_F_every_offered_command_is_legal_in_the_bundled_fights(path):
    """ch.12 Resolving Actions: "all characters attempt to perform their declared actions, one at a time" -
    whatever fracas offers (declarations and actions, R.choices) passes R.validate and resolves, at the first
    40 decisions of each bundled ED1 fight (seeds 1 and 2)."""
    for seed in (1, 2):
        assert offered_are_legal(path, seed, 40) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_F_every_tactic_command_is_legal_to_the_end(path):
    """ch.12 Combat Round: "4. Begin New Combat Round: If any combatants remain after all characters resolve
    all their actions, begin a new Combat Round." Every command the tactics choose passes validation to the
    end of the fight (seeds 1-3)."""
    import yaml

    from fracas.dice.source import RandomDice
    from fracas.engine import encounter
    from fracas.engine.play import Fight

    data = yaml.safe_load(Path(path).read_text())
    for seed in (1, 2, 3):
        _spec, state = encounter.load_data(data, path)
        fight = Fight(R, state, RandomDice(seed))
        fight.log = None
        assert fight.run_checked() is not None


def test_E_a_declared_retreat_runs_at_full_movement_and_escapes():
    """ch.12 Special Actions: special actions "can also include unusual actions such as surrendering to an
    opponent or retreating"; ch.12 Movement: "If movement is the only action your character takes during a
    Combat Round, a character can move up to a number of yards equal to his Full Movement." The foe declares a
    retreat: his tactic runs his Full Movement (20 yards, 10 hexes) away and, beyond the hero's reach (Full
    Movement 8 yards), he is gone."""
    hero = who("hero", [0, 0], initiative=7, movement=4, full_movement=8)
    foe = who("foe", [3, 0], movement=10, full_movement=20)
    f = start([hero], [foe, who("other", [3, 3], tactic="hold")], [6, 3, 2])
    d = until(f, "foe", plan={"hero": ("attack", "foe"), "foe": ("run", None, ["retreat"])})
    cmd = f.auto_command(d)
    assert (cmd.action, len(cmd.args["path"])) == ("run", 10)
    play(f, cmd, [])
    assert c(f, "foe").status == "fled"


def test_D_without_group_initiative_each_ork_rolls():
    """ch.12 Initiative: "We recommend that the gamemaster make one Initiative Test for groups of similar
    characters" - a recommendation: with the option off, each of three identical orks tests (5, 3, 2)."""
    orks = {"template": "ork-raider", "count": 3, "at": [[3, 0], [3, 1], [4, 0]]}
    f = start([who("hero", [0, 0], initiative=7)], [orks], [6, 5, 3, 2], options={"group-initiative": False})
    until(f, "hero")
    assert [initiative(f, f"ork-raider-{i}", 1).value for i in (1, 2, 3)] == [5, 3, 2]
