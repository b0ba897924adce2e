"""ED4 combat cases written from the rules text alone (000_4b24aca42c3b6366.txt, Player's Guide p.371-398).

Each case quotes the sentence it checks, forces every die and asserts on the final values. The class of each
case is in its name: A timing and duration, B stacking, C final values, D geometry and counting, E what a
creature cannot do, F offered equals legal, G voluntary versus involuntary.
"""

from __future__ import annotations

from ed4_by_the_text_helpers import (
    c,
    damaged,
    faces,
    initiative,
    one_roll,
    play,
    rolls,
    start,
    statuses,
    until,
    who,
)

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand  # noqa: F401  (the error validate raises)


def axe(damage: int, step: int = 10) -> list[dict]:
    return [{"name": "Axe", "kind": "melee", "step": step, "damage": damage}]


def duel(hero: dict | None = None, foe: dict | None = None, **kw):
    """Hero (Initiative step 7) next to a foe (step 5); nobody rolls Initiative."""
    hero = hero or who("hero", [0, 0], initiative=7)
    foe = foe or who("foe", [1, 0])
    return start([hero], [foe], [], **kw)


# ----- C: final values -------------------------------------------------------------------------------


def test_C_attack_result_equal_to_defense_hits():
    """p.377: "The Attack test result is compared to the Difficulty Number. If the test succeeds, the attack
    hits" - a test succeeds when the result equals the DN: 8 against Physical Defense 8 hits."""
    f = duel()
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 8) + faces(8, 5))
    att = one_roll(out, "Attack")
    assert (att.step, att.total, att.dn, att.success) == (10, 8, 8, True)
    assert [d.amount for d in damaged(out, "foe")] == [5]
    assert c(f, "foe").counters["damage"] == 5


def test_C_extra_successes_add_two_damage_steps_each_silar():
    """p.377: "Silar fires a bolt at an attacking griffin, with test result of 18. The griffin's Physical
    Defense is 7, so Silar scores three successes! ... Silar's crossbow goes from Step 10 to Step 14
    damage." """
    hero = who(
        "silar",
        [0, 0],
        initiative=7,
        attacks=[{"name": "Crossbow", "kind": "missile", "step": 13, "damage": 10, "range": [2, 40, 80]}],
    )
    f = duel(hero, who("griffin", [5, 0], physical_defense=7, wound_threshold=30))
    until(f, "silar")
    out = play(f, Command("silar", "attack", "griffin", {}), faces(13, 18) + faces(14, 13))
    att = one_roll(out, "Attack")
    assert (att.total, att.dn, att.extra) == (18, 7, 2)
    assert one_roll(out, "Damage").step == 14


def test_C_armor_is_subtracted_from_the_damage_test():
    """p.379: "The character subtracts the appropriate Armor rating from the result of the Damage test. The
    modified result is the number of points added to the character's current damage." 10 - 3 = 7."""
    f = duel(foe=who("foe", [1, 0], physical_armor=3, wound_threshold=15))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(8, 10))
    assert [(d.raw, d.armor, d.amount) for d in damaged(out, "foe")] == [(10, 3, 7)]
    assert c(f, "foe").counters["damage"] == 7


def test_C_damage_equal_to_wound_threshold_is_a_wound():
    """p.379: "If the damage from a single attack equals or exceeds a character's Wound Threshold, he takes a
    Wound." 8 damage against Wound Threshold 8."""
    f = duel()
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(8, 8))
    assert [e.wounds for e in out if isinstance(e, ev.Wounded)] == [1]
    assert c(f, "foe").counters["wounds"] == 1


def test_C_damage_one_under_wound_threshold_is_no_wound():
    """p.379: "If the damage from a single attack equals or exceeds a character's Wound Threshold, he takes a
    Wound." 7 damage against Wound Threshold 8: none."""
    f = duel()
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(8, 7))
    assert not [e for e in out if isinstance(e, ev.Wounded)]
    assert c(f, "foe").counters.get("wounds", 0) == 0


def test_C_knockdown_dn_is_damage_minus_wound_threshold():
    """p.379: "If the damage dealt exceeds a character's Wound Threshold by five or more, he could be knocked
    down. The player makes a Strength test against a Difficulty Number equal to the difference between his
    Wound Threshold and the damage dealt." Tomas: WT 8, 15 damage, Knockdown (7), rolls 5: knocked down."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(14))
    f = duel(hero, who("tomas", [1, 0], knockdown=5))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "tomas", {}), faces(10, 9) + faces(14, 15) + faces(5, 5))
    assert [d.amount for d in damaged(out, "tomas")] == [15]
    kd = one_roll(out, "Knockdown")
    assert (kd.dn, kd.step, kd.total, kd.success) == (7, 5, 5, False)
    assert "knocked-down" in c(f, "tomas").conditions


def test_C_damage_four_over_wound_threshold_makes_no_knockdown_test():
    """p.379: "If the damage dealt exceeds a character's Wound Threshold by five or more, he could be knocked
    down." 12 damage against Wound Threshold 8 is four over: no Knockdown test."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(14))
    f = duel(hero)
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(14, 12))
    assert not rolls(out, "Knockdown")
    assert "knocked-down" not in c(f, "foe").conditions


def test_C_damage_five_over_wound_threshold_makes_a_knockdown_test_dn_5():
    """p.379: "exceeds a character's Wound Threshold by five or more ... a Difficulty Number equal to the
    difference" - 13 damage against Wound Threshold 8: Knockdown (5); a 5 keeps him standing."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(14))
    f = duel(hero)
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(14, 13) + faces(5, 5))
    kd = one_roll(out, "Knockdown")
    assert (kd.dn, kd.success) == (5, True)
    assert "knocked-down" not in c(f, "foe").conditions


def test_C_battle_axe_damage_step_is_strength_plus_weapon_thrak():
    """p.378: "A battle-axe has a Damage Step of 7 ... Thrak has a Strength Step of 7. When he hits an
    opponent with his axe, he makes a Step 14 Damage test (7+ 7 = 14)"."""
    hero = {"id": "thrak", "template": "thrak", "at": [0, 0], "equipment": {"weapons": ["battle-axe"]}}
    f = start([hero], [who("foe", [1, 0], initiative=1, wound_threshold=30, physical_defense=2)], [])
    until(f, "thrak")
    axe = next(a for a in c(f, "thrak").stats.attacks if a.name.lower() == "battle-axe")
    assert axe.damage == 14
    out = play(f, Command("thrak", "attack", "foe", {"attack": axe.name}), faces(axe.step, 6) + faces(14, 10))
    assert one_roll(out, "Damage").step == 14


# ----- A: timing -------------------------------------------------------------------------------------


def test_A_unconscious_at_once_and_takes_no_action_that_round():
    """p.379-380: "After a character takes damage from an attack, the player checks the character's Current
    Damage to see if he is unconscious ... Unconscious characters may take no actions other than making
    Recovery tests" - at the Unconsciousness Rating (20) exactly, in the attack's own events, and the foe,
    later in the order, is never asked to act."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(19))
    foe = who("foe", [1, 0], wound_threshold=30)
    f = start([hero], [foe, who("other", [9, 0], initiative=1, tactic="hold")], [])
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 20))
    assert statuses(out, "foe") == ["unconscious"]
    assert c(f, "foe").status == "unconscious"
    asked = []
    while True:
        d = f.advance_until_decision()
        if f.state.round > 1 or d is None:
            break
        asked.append(d.actor)
        play(f, Command(d.actor, "end", None, {}), [])
    assert "foe" not in asked and asked == ["other"]


def test_A_death_at_once_at_the_death_rating():
    """p.380: "A character whose Current Damage equals or exceeds his Death Rating immediately falls to the
    ground." Damage 25 against Death Rating 25: dead in the attack's own events."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(19))
    f = duel(hero, who("foe", [1, 0], wound_threshold=30))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 25))
    assert statuses(out, "foe")[-1] == "dead"
    idx_dead = next(i for i, e in enumerate(out) if isinstance(e, ev.StatusChanged) and e.status == "dead")
    assert not any(isinstance(e, ev.TurnEnded) for e in out[:idx_dead])


def test_A_knocked_down_lowers_defense_for_the_next_attacker_in_the_same_round():
    """p.389: "A character who is knocked down ... subtracts -3 from his Physical and Mystic Defense ...
    These penalties remain in effect until the character stands up." Knocked down by the first hero, the foe
    (PD 8) is attacked by the second at DN 5 in the same round."""
    h1 = who("hero", [0, 0], initiative=7, attacks=axe(14))
    h2 = who("ally", [2, -1], initiative=6)
    f = start([h1, h2], [who("foe", [1, 0])], [])
    until(f, "hero")
    play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    assert "knocked-down" in c(f, "foe").conditions
    until(f, "ally", faces=[])
    out = play(f, Command("ally", "attack", "foe", {}), faces(10, 5) + faces(8, 4))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (5, True)


def test_A_knocked_down_penalty_reaches_the_next_initiative_test():
    """p.389 (Mica): "Until he stands up, he not only suffers a -3 penalty to his tests-including his next
    Initiative test" - the foe (Initiative step 5) knocked down (and wounded) in round 1 tests Initiative
    at step 1: -3 and the Wound's -1 (p.381 "a cumulative -1 penalty to all tests")."""
    h1 = who("hero", [0, 0], player=True, initiative=7, attacks=axe(14))
    f = start([h1], [who("foe", [1, 0])], [7, 3], roll_initiative=True)
    until(f, "hero")
    play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    until(f, "foe", faces=[])
    play(f, Command("foe", "end", None, {}), [])
    until(f, "hero", faces=[5, 2])
    ini = initiative(f, "foe", 2)
    assert ini.step == 1  # 5, -1 for the Wound of that hit, -3 knocked down
    assert -3 in [m[0] for m in ini.modifiers]


def test_A_aggressive_attack_defense_penalty_lasts_that_round_only():
    """p.382: Aggressive Attack: the character "suffers a -3 penalty to his Physical and Mystic Defense that
    round." Declared in round 1: the foe attacks him at DN 5 in round 1; in round 2, not declared, DN 8."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["aggressive-attack"])
    f = duel(hero)
    d = until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["aggressive-attack"]}))
    until(f, "hero")
    play(f, Command("hero", "end", None, {}), [])
    until(f, "foe")
    out = play(f, Command("foe", "attack", "hero", {}), faces(10, 4) + [])
    assert one_roll(out, "Attack").dn == 5
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act"}))
    until(f, "hero")
    play(f, Command("hero", "end", None, {}), [])
    until(f, "foe")
    out = play(f, Command("foe", "attack", "hero", {}), faces(10, 4))
    assert one_roll(out, "Attack").dn == 8
    assert d.kind == "declare"


# ----- B: stacking -----------------------------------------------------------------------------------


def test_B_wound_and_knocked_down_both_lower_the_attack_step():
    """p.381: "For each Wound, a character suffers a cumulative -1 penalty to all tests"; p.389: knocked down,
    "The character suffers a -3 penalty to his Action tests" - one Wound and knocked down: step 10 -> 6."""
    f = start([who("hero", [0, 0], initiative=4)], [who("foe", [1, 0], initiative=7, attacks=axe(14))], [])
    until(f, "foe")
    play(f, Command("foe", "attack", "hero", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    assert c(f, "hero").counters["wounds"] == 1 and "knocked-down" in c(f, "hero").conditions
    until(f, "hero", faces=[])
    out = play(f, Command("hero", "attack", "foe", {}), faces(6, 3))
    assert one_roll(out, "Attack").step == 6
