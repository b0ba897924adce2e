"""ED4 combat cases written from the rules text alone (000_4b24aca42c3b6366.txt, Player's Guide p.371-398).

Each case quotes the sentence it checks, forces every die and asserts on the final values. The class of each
case is in its name: A timing and duration, B stacking, C final values, D geometry and counting, E what a
creature cannot do, F offered equals legal, G voluntary versus involuntary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ed_by_the_text_helpers import (
    ED4,
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
from fracas.errors import EncounterFileError, IllegalCommand

R, duel, faces, start, who = ED4.ruleset, ED4.duel, ED4.faces, ED4.start, ED4.who


def axe(damage: int, step: int = 10) -> list[dict]:
    return [{"name": "Axe", "kind": "melee", "step": step, "damage": damage}]


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


# ----- G: voluntary versus involuntary ----------------------------------------------------------------


def test_G_armor_and_shield_never_lower_the_initiative_step_below_1():
    """p.371: "Talents, spells, armor, and shields can modify the Initiative Step ... A character's
    Initiative Step cannot voluntarily be lowered below Step 1." Maloren (Dexterity step 5) in plate mail
    (-4) with a body shield (-2) tests at Step 1 - a roll, not a forced last place: 4+4+1-2 = 7 beats the
    foe's 3."""
    hero = {
        "id": "maloren",
        "template": "maloren",
        "player": True,
        "at": [0, 0],
        "equipment": {"armor": "plate-mail", "shield": "body-shield"},
    }
    f = start([hero], [who("foe", [1, 0])], [4, 4, 1, 3], roll_initiative=True)
    d = f.advance_until_decision()
    ini = initiative(f, "maloren", 1)
    assert (ini.step, ini.value) == (1, 7)
    assert order(f, 1) == ("maloren", "foe")
    assert d.actor == "maloren"


def test_G_tail_attack_declared_at_initiative_step_2_tests_at_step_1():
    """p.371: "A character's Initiative Step cannot voluntarily be lowered below Step 1"; p.386 Tail Attack:
    "suffers a -2 penalty to all tests that round". Silar at Initiative step 2 declares it: he tests at Step 1
    (d4-2: 4+3-2 = 5), not at 0, and acts before the foe's 3."""
    hero = {
        "id": "silar",
        "template": "silar",
        "player": True,
        "at": [0, 0],
        "equipment": {"armor": "plate-mail", "shield": "footmans-shield"},
        "combat_options": ["tail-attack"],
    }
    f = start([hero], [who("foe", [1, 0])], [], roll_initiative=True)
    assert c(f, "silar").stats.initiative_step == 2
    until(f, "silar", "declare")
    f.submit(Command("silar", "declare", None, {"action": "act", "options": ["tail-attack"]}))
    until(f, "silar", faces=[4, 3, 3])
    ini = initiative(f, "silar", 1)
    assert (ini.step, ini.value) == (1, 5)
    assert order(f, 1)[0] == "silar"


def test_G_wounds_below_step_1_act_last_with_initiative_1():
    """p.371: "A character whose Initiative Step is involuntarily reduced below Step 1-for example, through
    Wounds or magic-acts last in the round, with an effective Initiative of 1." The hero (a player, step 1)
    wounded in round 1 acts after a foe who rolled 1 in round 2, though a player wins ties (p.371)."""
    hero = who("hero", [0, 0], player=True, initiative=1)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(8))
    slow = who("slow", [6, 0], initiative=2, tactic="hold")
    f = start([hero], [striker, slow], [3, 5, 2], roll_initiative=True)
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(8, 8))
    assert c(f, "hero").counters["wounds"] == 1
    until(f, "striker", faces=[5, 2])
    ini = initiative(f, "hero", 2)
    assert ini.value == 1
    assert initiative(f, "slow", 2).value == 1
    assert order(f, 2)[-1] == "hero"


# ----- D: geometry and counting -----------------------------------------------------------------------


def test_D_movement_rate_5_yards_is_3_hexes():
    """p.372: "we recommend that a hex be 2 yards wide ... It is usually best to round up to cover a full
    hex"; p.373: "Each round, a character can freely move a distance up to his Movement Rate." Movement Rate
    5 yards: 2.5 hexes, rounded up to 3."""
    f = duel(who("hero", [0, 0], initiative=7, movement=5), who("foe", [9, 0]))
    d = until(f, "hero")
    cmd = Command("hero", "move", None, {"path": [[1, 0], [2, 0], [3, 0]]})
    R.validate(f.state, cmd)
    play(f, cmd, [])
    assert c(f, "hero").pos == (3, 0)
    assert d.kind == "act"


def test_D_movement_rate_1_yard_still_moves_1_hex():
    """p.372: "It is usually best to round up to cover a full hex; if an effect has a range of 1 yard, it
    should cover 1 hex." Movement Rate 1 yard: 1 hex."""
    f = duel(who("hero", [0, 0], initiative=7, movement=1), who("foe", [9, 0]))
    until(f, "hero")
    cmd = Command("hero", "move", None, {"path": [[1, 0]]})
    R.validate(f.state, cmd)
    play(f, cmd, [])
    assert c(f, "hero").pos == (1, 0)


def test_D_movement_rate_10_yards_is_5_hexes_not_6():
    """p.372: "Any distance specified can be easily halved to determine the distance on the hex grid";
    p.373: "move a distance up to his Movement Rate." Movement Rate 10: 5 hexes, and a 6th is refused."""
    f = duel(who("hero", [0, 0], initiative=7, movement=10), who("foe", [12, 0]))
    until(f, "hero")
    six = Command("hero", "move", None, {"path": [[i, 0] for i in range(1, 7)]})
    with pytest.raises(IllegalCommand):
        R.validate(f.state, six)
    play(f, Command("hero", "move", None, {"path": [[i, 0] for i in range(1, 6)]}), [])
    assert c(f, "hero").pos == (5, 0)


def test_D_running_doubles_the_movement_rate():
    """p.373: "A character may spend his Standard action to move, allowing him to move up to double his
    Movement Rate." Movement Rate 10: 10 hexes running, an 11th refused."""
    f = duel(who("hero", [0, 0], initiative=7, movement=10), who("foe", [-12, 0]))
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "run", None, {"path": [[i, 0] for i in range(1, 12)]}))
    play(f, Command("hero", "run", None, {"path": [[i, 0] for i in range(1, 11)]}), [])
    assert c(f, "hero").pos == (10, 0)


def bow(short: int, long: int, minimum: int = 2) -> list[dict]:
    return [{"name": "Bow", "kind": "missile", "step": 13, "damage": 10, "range": [minimum, short, long]}]


def test_D_short_range_25_yards_covers_13_hexes():
    """p.372: "Any distance specified can be easily halved to determine the distance on the hex grid. It is
    usually best to round up to cover a full hex"; p.390: "Short: There are no modifiers at short range".
    A short range of 25 yards covers 13 hexes: a target 13 hexes away is at short range, step 13 unchanged."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=bow(25, 50)), who("foe", [13, 0], wound_threshold=30))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(13, 9) + faces(10, 6))
    assert one_roll(out, "Attack").step == 13
    assert one_roll(out, "Damage").step == 10


def test_D_one_hex_beyond_the_short_range_is_long_range():
    """p.390: "Long: The character suffers a -2 penalty to his Attack and Damage tests." A short range of
    25 yards (13 hexes): a target 14 hexes (28 yards) away is at long range, step 13 -> 11, damage 10 -> 8."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=bow(25, 50)), who("foe", [14, 0], wound_threshold=30))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(11, 9) + faces(8, 6))
    assert one_roll(out, "Attack").step == 11
    assert one_roll(out, "Damage").step == 8


def test_D_maximum_range_boundary_is_inside_and_one_hex_more_is_refused():
    """p.392: "missile and thrown weapons cannot be used to attack a target beyond their maximum range."
    Long range 40 yards = 20 hexes: a target at exactly 20 hexes may be shot (at -2), one at 21 may not."""
    f = start(
        [who("hero", [0, 0], initiative=7, attacks=bow(20, 40))],
        [who("foe", [20, 0], wound_threshold=30), who("far", [0, 21], wound_threshold=30)],
        [],
    )
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "far", {}))
    out = play(f, Command("hero", "attack", "foe", {}), faces(11, 9) + faces(8, 6))
    assert one_roll(out, "Attack").step == 11


def test_D_within_the_minimum_range_no_ranged_attack():
    """p.392: "If an attacker is within the minimum range given for his ranged weapon, he cannot attack with
    ranged combat." Minimum range 10 yards; the foe stands 2 hexes (4 yards) away: refused."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=bow(30, 60, minimum=10)), who("foe", [2, 0]))
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "foe", {}))


def test_D_close_combat_reaches_the_adjacent_hex_only():
    """p.391: "Close combat is any type of physical combat that occurs within reach of the combatants. This
    is usually a 2 yard distance between opponents" - a sword cannot reach a foe 2 hexes (4 yards) away
    without moving; next to him it can."""
    f = duel(who("hero", [0, 0], initiative=7, movement=2), who("foe", [2, 0]))
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "foe", {}))
    out = play(f, Command("hero", "attack", "foe", {"path": [[1, 0]]}), faces(10, 9) + faces(8, 5))
    assert one_roll(out, "Attack").success


def test_D_four_close_attackers_make_harried_three_do_not():
    """p.391: "Any time four or more attackers set upon a character at the same time, he is considered
    Harried"; p.388: "A harried character suffers a -2 penalty to his Action tests as well as his Physical
    and Mystic Defense ratings." Three foes around: step 10; a fourth: step 8."""
    ring = [[1, 0], [0, 1], [-1, 1], [-1, 0]]
    for n, step in ((3, 10), (4, 8)):
        foes = [who(f"foe{i}", ring[i], initiative=4, tactic="hold") for i in range(n)]
        f = start([who("hero", [0, 0], initiative=7)], foes, [])
        until(f, "hero")
        out = play(f, Command("hero", "attack", "foe0", {}), faces(step, 3))
        assert one_roll(out, "Attack").step == step


def test_D_rider_and_mount_share_one_position():
    """p.395: "For the purpose of movement, a rider and his mount are treated as one character as long as
    the rider controls the mount. While mounted, a mount's Movement Rate is used instead of the rider's." The
    rider stands on his horse's hex and, when he moves, both end on the same hex."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    rider = {"template": "kira", "id": "kira", "options": {"rides": "horse", "familiar": True}}
    f = start([horse, rider], [who("foe", [0, 12], initiative=1, tactic="hold")], [])
    assert c(f, "kira").pos == c(f, "horse").pos == (0, 0)
    until(f, "kira")
    play(f, Command("kira", "move", None, {"path": [[i, 0] for i in range(1, 4)]}), [])
    assert c(f, "kira").pos == c(f, "horse").pos == (3, 0)


# ----- E: what a character cannot do -------------------------------------------------------------------


def knocked_down_hero(**hero_kw):
    """The striker (step 7) knocks the hero down (13 damage against WT 8, Knockdown 4 against DN 5)."""
    hero = who("hero", [0, 0], **({"initiative": 4} | hero_kw))
    striker = who("striker", [1, 0], initiative=7, attacks=axe(14))
    f = start([hero], [striker], [])
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    assert "knocked-down" in c(f, "hero").conditions
    return f


def test_E_knocked_down_cannot_move_but_crawls_one_hex():
    """p.389: "A character cannot move until he stands up. If he chooses to remain on the ground, a character
    may crawl at a Movement Rate of 2." Movement Rate 2 yards is 1 hex: two hexes are refused, one is not."""
    f = knocked_down_hero(movement=12)
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "move", None, {"path": [[-1, 0], [-2, 0]]}))
    play(f, Command("hero", "move", None, {"path": [[-1, 0]]}), [])
    assert c(f, "hero").pos == (-1, 0)
    assert "knocked-down" in c(f, "hero").conditions


def test_F_knocked_down_crawler_tactic_finishes_its_turn():
    """p.389: "If he chooses to remain on the ground, a character may crawl at a Movement Rate of 2." After
    crawling a hex, the character's tactic is asked again and its command is legal and ends the turn."""
    f = knocked_down_hero(movement=12)
    until(f, "hero")
    play(f, Command("hero", "move", None, {"path": [[-1, 0]], "end": False}), [])
    for _ in range(5):
        d = f.advance_until_decision()
        assert d is not None
        if d.actor != "hero" or f.state.round > 1:
            break
        cmd = f.auto_command(d)
        R.validate(f.state, cmd)
        f.dice = ScriptedDice([5] * 12)
        f.submit(cmd)
    else:
        raise AssertionError("the crawler's tactic never ended its turn")
    assert any(isinstance(e, ev.TurnEnded) and e.actor == "hero" for e in f.log)


def test_E_standing_up_spends_the_standard_action():
    """p.389: "Standing is a simple matter, but uses the character's Standard action to get back on his
    feet" - after standing he may not attack in that round; the -3 is gone at once (his PD is 8 again)."""
    f = knocked_down_hero()
    d = until(f, "hero")
    assert "stand-up" in {cmd.action for cmd in R.choices(f.state, d)}
    play(f, Command("hero", "stand-up", None, {"end": False}), [])
    assert "knocked-down" not in c(f, "hero").conditions
    d = f.advance_until_decision()
    if d is not None and d.actor == "hero" and f.state.round == 1:
        assert "attack" not in {cmd.action for cmd in R.choices(f.state, d)}
        with pytest.raises(IllegalCommand):
            R.validate(f.state, Command("hero", "attack", "striker", {}))


def test_E_surprised_character_takes_no_action_and_defends_at_minus_3_for_that_round():
    """p.390: "Surprised characters cannot take any actions during the combat round in which they are
    surprised. They also suffer a -3 penalty to their Physical and Mystic Defense during the same round ...
    The effects of surprise last until the end of the combat round." Perception 4 fails against the
    hidden foe's Dexterity step 5: the hero is not asked to act in round 1, is hit at DN 5, and at DN 8 in
    round 2."""
    f = start([who("hero", [0, 0], initiative=7)], [who("foe", [1, 0], hidden=True, wound_threshold=30)], [4])
    d = f.advance_until_decision()
    assert (d.actor, d.kind, f.state.round) == ("foe", "act", 1)  # the hero's Initiative 7 came first
    out = play(f, Command("foe", "attack", "hero", {}), faces(10, 4))
    assert one_roll(out, "Attack").dn == 5
    until(f, "foe")
    assert f.state.round == 2
    out = play(f, Command("foe", "attack", "hero", {}), faces(10, 4))
    assert one_roll(out, "Attack").dn == 8


def test_E_tail_attack_is_refused_to_a_non_tskrang():
    """p.386 (table p.382): "Tail Attack [t'skrang only]" - "This combat option is only available to
    t'skrang." A human declaring it is refused when the encounter is loaded."""
    with pytest.raises(EncounterFileError):
        start(
            [{"id": "tomas", "template": "tomas", "at": [0, 0], "combat_options": ["tail-attack"]}],
            [who("f")],
            [],
        )


def test_E_aggressive_attack_and_defensive_stance_never_together():
    """p.382: "A character cannot use the Aggressive Attack and Defensive Stance options in the same
    round." """
    hero = who("hero", [0, 0], combat_options=["aggressive-attack", "defensive-stance"])
    with pytest.raises(EncounterFileError):
        start([hero], [who("foe", [1, 0])], [])


def test_E_only_jump_up_while_knocked_down():
    """p.382: "A character who is knocked down cannot use a combat option until he is standing"; p.389:
    "with the exception of Jump Up". Knocked down in round 1, in round 2 he may declare Jump Up but not
    Aggressive Attack."""
    hero = who("hero", [0, 0], initiative=4, combat_options=["jump-up"])
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(14))], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act"}))
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    d = until(f, "hero", "declare")
    assert f.state.round == 2
    offered = {tuple(cmd.args.get("options", ())) for cmd in R.choices(f.state, d)}
    assert ("jump-up",) in offered and ("aggressive-attack",) not in offered
    with pytest.raises(IllegalCommand):
        R.validate(
            f.state, Command("hero", "declare", None, {"action": "act", "options": ["aggressive-attack"]})
        )


# ----- C: combat options ----------------------------------------------------------------------------------


def test_C_jump_up_costs_2_strain_and_a_dexterity_6_test():
    """p.384: "The character takes 2 Strain and makes a Dexterity (6) test ... but does not suffer the -3
    penalty for being knocked down. If successful, the character leaps to his feet and may use a Standard
    action". Dexterity step 5 (Dexterity 12, no armor), -1 for the Wound that felled him (p.381): step 4;
    6+1 = 7 stands him up and his attack follows."""
    hero = who(
        "hero",
        [0, 0],
        initiative=5,
        combat_options=["jump-up"],
        wound_threshold=20,
        unconsciousness=40,
        death=50,
    )
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(19))], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act"}))
    until(f, "striker")
    # 25 damage against WT 20: Knockdown (5), 4 fails
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 25) + faces(5, 4))
    assert "knocked-down" in c(f, "hero").conditions
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["jump-up"]}))
    until(f, "hero")
    before = c(f, "hero").counters["damage"]
    out = play(f, Command("hero", "jump-up", None, {"end": False}), [6, 1])
    jump = one_roll(out, "")
    assert (jump.step, jump.dn, jump.total, jump.success) == (4, 6, 7, True)
    assert c(f, "hero").counters["damage"] == before + 2
    assert "knocked-down" not in c(f, "hero").conditions
    out = play(f, Command("hero", "attack", "striker", {}), faces(9, 3))
    assert one_roll(out, "Attack").step == 9  # 10, -1 Wound; no -3 once on his feet


def test_C_attacking_to_knockdown_thrak_and_the_dyre():
    """p.383: "The attacker rolls a Damage test to set the Difficulty Number for the Knockdown test, modified
    for armor. Regardless of the outcome, the character's opponent takes no damage." Thrak's Damage test 21,
    the dyre's 8 Physical Armor: Knockdown (13); no damage."""
    hero = who("thrak", [0, 0], initiative=7, attacks=axe(19), combat_options=["attack-to-knockdown"])
    f = duel(hero, who("dyre", [1, 0], physical_armor=8, knockdown=5))
    until(f, "thrak", "declare")
    f.submit(Command("thrak", "declare", None, {"action": "act", "options": ["attack-to-knockdown"]}))
    until(f, "thrak")
    out = play(f, Command("thrak", "attack", "dyre", {}), faces(10, 9) + faces(19, 21) + faces(5, 6))
    kd = one_roll(out, "Knockdown")
    assert (kd.dn, kd.success) == (13, False)
    assert "knocked-down" in c(f, "dyre").conditions
    assert c(f, "dyre").counters.get("damage", 0) == 0
    assert not [d for d in damaged(out, "dyre") if d.amount]


def test_C_stun_damage_cannot_kill():
    """p.383: "any damage inflicted to his opponent is recorded as Stun damage. Although it is added to the
    character's Current Damage total, Stun damage cannot kill him. If the Stun damage sends a character's
    Current Damage higher than his Unconsciousness or Death Rating, the character falls to the ground
    unconscious." 29 Stun damage against Death Rating 25: unconscious, not dead."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(19), combat_options=["attack-to-stun"])
    foe = who("foe", [1, 0], wound_threshold=40)
    f = start([hero], [foe, who("other", [9, 0], initiative=1, tactic="hold")], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["attack-to-stun"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 29))
    assert statuses(out, "foe") == ["unconscious"]
    assert c(f, "foe").status == "unconscious"


def test_A_stun_wound_makes_harried_for_the_rest_of_the_round_only():
    """p.383: "Stun damage does not cause Wounds. If a character would normally take a Wound from the damage
    inflicted, he is considered Harried for the rest of the round". 9 Stun damage against WT 8: no Wound;
    the ally's attack in that round is against PD 8 - 2 = 6; in round 2, against 8."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["attack-to-stun"])
    ally = who("ally", [2, -1], initiative=6)
    f = start([hero, ally], [who("foe", [1, 0], initiative=2, tactic="hold")], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["attack-to-stun"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(8, 9))
    assert c(f, "foe").counters.get("wounds", 0) == 0
    assert [d.counter for d in damaged(out, "foe")] == ["stun"]
    until(f, "ally")
    out = play(f, Command("ally", "attack", "foe", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 6
    until(f, "ally")
    assert f.state.round == 2
    out = play(f, Command("ally", "attack", "foe", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 8


def test_C_splitting_movement_costs_1_strain_and_harries_the_mover():
    """p.386: "Use of the Splitting Movement combat option causes the character 1 Strain. A character who
    uses this option is Harried ... during the round." Move, attack at step 10 - 2 = 8, move away."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["split-movement"])
    f = duel(hero, who("foe", [3, 0], tactic="hold"))
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["split-movement"]}))
    until(f, "hero")
    out = play(
        f, Command("hero", "attack", "foe", {"path": [[1, 0], [2, 0]], "after": [[1, 0]]}), faces(8, 3)
    )
    assert one_roll(out, "Attack").step == 8
    assert c(f, "hero").pos == (1, 0)
    assert [d.amount for d in damaged(f.log, "hero") if d.damage_type == "strain"] == [1]


def test_C_improvised_weapon_attack_minus_2():
    """p.392: "Because of the unbalanced nature of the weapon, the character suffers a -2 penalty to his
    Attack tests when wielding the item." Step 10 -> 8."""
    f = duel()
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {"improvised": True}), faces(8, 3))
    assert one_roll(out, "Attack").step == 8


def test_C_firing_into_close_combat_adds_one_per_character_in_the_way():
    """p.392: "The number of characters or creatures between the attacker and his target is added to the
    target's Physical Defense." One ally between the archer and a foe of PD 8
    engaged with him: DN 9; 9 hits."""
    archer = who("archer", [0, 0], initiative=7, attacks=bow(30, 60))
    ally = who("ally", [3, 0], initiative=6, tactic="hold")
    f = start([archer, ally], [who("foe", [4, 0], tactic="hold", wound_threshold=30)], [])
    until(f, "archer")
    out = play(f, Command("archer", "attack", "foe", {}), faces(13, 9) + faces(10, 5))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (9, True)
    assert [d.target for d in out if isinstance(d, ev.Damaged)] == ["foe"]


# ----- A and G: time -------------------------------------------------------------------------------------


def rounds_until_recovery(f, last_round: int) -> list[int]:
    """Play with everyone ending his turn (every die a 2) until `last_round`; the rounds of Recovery tests."""
    f.dice = ScriptedDice([2] * 400)
    while f.state.round <= last_round:
        d = f.advance_until_decision()
        if d is None:
            break
        if d.kind == "declare":
            f.submit(Command(d.actor, "declare", None, {"action": "act"}))
        else:
            f.submit(Command(d.actor, "end", None, {}))
    found, current = [], 0
    for e in f.log:
        if isinstance(e, ev.RoundStarted):
            current = e.round
        if isinstance(e, ev.Rolled) and "recovery" in e.test.lower():
            found.append(current)
    return found


def test_G_unconscious_recovery_test_one_minute_later_is_10_rounds():
    """p.380: "If he has one available, an unconscious character may make a Recovery test one minute after he
    falls unconscious"; p.371: "Each combat round equals roughly six seconds" - knocked out in round 1, his
    Recovery test comes in round 11, ten rounds later, and not before."""
    hero = who("hero", [0, 0], initiative=4)
    ally = who("ally", [0, 8], initiative=3, tactic="hold", movement=11)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(19), wound_threshold=40)
    f = start([hero, ally], [striker], [])
    until(f, "striker")
    out = play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 21))
    assert statuses(out, "hero") == ["unconscious"]
    assert rounds_until_recovery(f, 12) == [11]


def test_A_reserved_action_adds_2_to_the_difficulty_herekar():
    """p.375: "Characters taking a reserved action add +2 to the Difficulty Number of all actions performed
    on their turn" - Herekar "attacks the cadaver man, adding +2 to the undead's Physical Defense": PD 8,
    DN 10; the cadaver man's own attack on Tairin waits until Herekar has acted."""
    herekar = who("herekar", [0, 0], initiative=7)
    tairin = who("tairin", [0, 1], initiative=6, tactic="hold")
    f = start([herekar, tairin], [who("cadaver", [1, 0], initiative=5)], [])
    until(f, "herekar")
    play(f, Command("herekar", "reserve", None, {"trigger": {"on": "attack", "target": "tairin"}}), [])
    until(f, "cadaver")
    play(f, Command("cadaver", "attack", "tairin", {}), [])
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("herekar", "react")
    out = play(f, Command("herekar", "attack", "cadaver", {}), faces(10, 10) + faces(8, 5))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (10, True)
    assert c(f, "cadaver").counters["damage"] == 5


def test_A_delaying_into_the_next_round_is_one_above_the_highest():
    """p.376: "If he does not act during the current round, a character may delay his action into the
    following round. His Initiative for the next round is automatically 1 higher than the highest Initiative
    rolled for the new round." The foe rolls 6 in round 2; the hero, still delaying, has 7 and rolls
    nothing."""
    f = start(
        [who("hero", [0, 0], player=True, initiative=7)], [who("foe", [3, 0])], [9, 3], roll_initiative=True
    )
    until(f, "hero")
    play(f, Command("hero", "delay", None, {}), [])
    f.dice = ScriptedDice([6])
    for _ in range(10):
        d = f.advance_until_decision()
        if f.state.round > 1:
            break
        f.submit(Command(d.actor, "wait" if d.kind == "delayed" else "end", None, {}))
    assert f.state.round == 2
    assert initiative(f, "hero", 2).value == 7
    assert initiative(f, "foe", 2).value == 6
    assert order(f, 2)[0] == "hero"


# ----- B: stacking -----------------------------------------------------------------------------------


def test_B_defensive_stance_and_partial_cover_both_count():
    """p.384: Defensive Stance "adds +3 to his Physical and Mystic Defense for all attacks directed against
    him that round"; p.387: "Partial cover gives a +2 bonus to Physical and Mystic Defense." Both: PD 8 + 5,
    the foe's 12 misses."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["defensive-stance"])
    f = duel(hero, map_={"cover": [[0, 0]]})
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["defensive-stance"]}))
    until(f, "hero")
    play(f, Command("hero", "end", None, {}), [])
    until(f, "foe")
    out = play(f, Command("foe", "attack", "hero", {}), faces(10, 12))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (13, False)


def test_B_aggressive_attack_and_a_wound_on_the_damage_step():
    """p.382: Aggressive Attack, "The character gains a +3 bonus to his close combat Attack and Damage tests";
    p.381: "For each Wound, a character suffers a cumulative -1 penalty to all tests". One Wound: attack
    10 + 3 - 1 = 12, damage 8 + 3 - 1 = 10."""
    hero = who("hero", [0, 0], initiative=5, combat_options=["aggressive-attack"])
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(8), wound_threshold=30)], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["aggressive-attack"]}))
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 5) + faces(8, 8))
    assert c(f, "hero").counters["wounds"] == 1
    until(f, "hero")
    out = play(f, Command("hero", "attack", "striker", {}), faces(12, 9) + faces(10, 5))
    assert one_roll(out, "Attack").step == 12
    assert one_roll(out, "Damage").step == 10


def test_B_long_range_and_a_wound_silar():
    """p.390: "Silar has a Missile Weapons Step of 13. When firing at this distance, his Missile Weapons Step
    is 11 ... His crossbow normally inflicts Step 10 damage. However, at long range he suffers a -2 penalty
    and rolls Step 8"; p.381: -1 per Wound on all tests. Wounded once, at 60 yards: steps 10 and 7."""
    silar = who("silar", [0, 0], initiative=5, attacks=bow(40, 80))
    striker = who("striker", [1, 0], initiative=7, attacks=axe(8), tactic="hold")
    bandit = who("bandit", [0, 30], initiative=1, tactic="hold", wound_threshold=30)
    f = start([silar], [striker, bandit], [])
    until(f, "striker")
    play(f, Command("striker", "attack", "silar", {}), faces(10, 9) + faces(8, 8))
    until(f, "silar")
    out = play(f, Command("silar", "attack", "bandit", {}), faces(10, 9) + faces(7, 5))
    assert one_roll(out, "Attack").step == 10
    assert one_roll(out, "Damage").step == 7


def test_B_splitting_movement_and_four_attackers_are_two_harried_effects():
    """p.388: "A harried character suffers a further -1 penalty to his tests and Defense ratings for each
    additional harried effect he incurs after the first"; p.386 Splitting Movement: "A character who uses this
    option is Harried". Four foes around him and Splitting Movement: step 10 - 2 - 1 = 7."""
    ring = [[1, 0], [0, 1], [-1, 1], [-1, 0]]
    foes = [who(f"foe{i}", ring[i], initiative=4, tactic="hold") for i in range(4)]
    hero = who("hero", [0, 0], initiative=7, combat_options=["split-movement"])
    f = start([hero], foes, [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["split-movement"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe0", {}), faces(7, 3))
    assert one_roll(out, "Attack").step == 7


# ----- F: offered equals legal ------------------------------------------------------------------------


def test_F_revive_is_not_offered_where_it_is_refused():
    """p.380: "Another character can use a Standard action to try and revive him, allowing the unconscious
    character to make the test immediately." Whoever may revive is fracas's call; what it offers a ghoul next
    to its unconscious fellow must pass validation."""
    numbers = {"physical_defense": 8, "physical_armor": 0, "wound_threshold": 30, "unconsciousness": 10}
    ghouls = [
        {"template": "ghoul", "id": "ghoul-1", "at": [1, 0], "stats": numbers},
        {"template": "ghoul", "id": "ghoul-2", "at": [2, 0], "stats": {"initiative": 1}},
    ]
    hero = who("hero", [0, 0], initiative=9, attacks=axe(14))
    f = start([hero], ghouls, [])
    until(f, "hero")
    play(f, Command("hero", "attack", "ghoul-1", {}), faces(10, 8) + faces(14, 15))
    assert c(f, "ghoul-1").status == "unconscious"
    d = until(f, "ghoul-2")
    for cmd in R.choices(f.state, d):
        R.validate(f.state, cmd)


EXAMPLES = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "examples" / "ed4").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_F_every_offered_command_is_legal_in_the_bundled_fights(path):
    """p.371-398 as a whole: whatever fracas offers a combatant (R.choices) is a command the rules allow
    (R.validate) and that resolves - checked at the first 30 decisions of each bundled ED4 fight (seed 2)."""
    assert offered_are_legal(path, 2, 30) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).stem)
def test_F_every_tactic_command_is_legal_to_the_end(path):
    """p.371: "Starting with the highest Initiative test result, characters perform their declared actions,
    one at a time, until all characters' actions have been resolved" - every command a tactic chooses
    (fight.auto_command) passes validation, round after round, to the end of the fight (seeds 1-3)."""
    import yaml

    from fracas.dice.source import RandomDice
    from fracas.engine import encounter
    from fracas.engine.play import Fight

    data = yaml.safe_load(Path(path).read_text())
    for seed in (1, 2, 3):
        _spec, state = encounter.load_data(data, path)
        fight = Fight(R, state, RandomDice(seed))
        fight.log = None
        final = fight.run_checked()
        assert final is not None


def test_F_cavalry_charge_simulates_300_fights():
    """p.394-398 (mounted combat): `fracas sim examples/ed4/cavalry-charge.yaml -n 300 --seed 1` plays three
    hundred charges, riders and mounts, to the end without an error."""
    exe = shutil.which("fracas") or str(Path(sys.executable).with_name("fracas"))
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [exe, "sim", "examples/ed4/cavalry-charge.yaml", "-n", "300", "--seed", "1"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=500,
        env=os.environ | {"PYTHONPATH": str(root / "src")},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "error" not in done.stderr.lower()


# ----- more of p.379-398 --------------------------------------------------------------------------------


def knocked_out_hero():
    """The striker (step 7) knocks the hero out: 21 damage against Unconsciousness Rating 20, one Wound.
    An ally (a Namegiver with a sword) stands next to him."""
    hero = who("hero", [0, 0], initiative=4)
    ally = who("ally", [0, 1], initiative=3)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(19), wound_threshold=40, tactic="hold")
    f = start([hero, ally], [striker], [])
    until(f, "striker")
    out = play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 21))
    assert statuses(out, "hero") == ["unconscious"] and c(f, "hero").counters["wounds"] == 1
    return f


def test_C_revived_recovery_test_less_the_wounds():
    """p.380: "Another character can use a Standard action to try and revive him, allowing the unconscious
    character to make the test immediately"; "the test result is reduced by the number of Wounds he has" -
    Toughness step 5, a 6 less 1 Wound: 5 points, 21 -> 16 damage, below 20: he comes to."""
    f = knocked_out_hero()
    until(f, "ally")
    out = play(f, Command("ally", "revive", "hero", {}), faces(5, 6))
    assert one_roll(out, "Recovery").total == 6
    assert c(f, "hero").counters["damage"] == 16
    assert c(f, "hero").status == "active"


def test_C_a_recovery_test_recovers_at_least_1_then_he_must_wait_an_hour():
    """p.381: "Regardless of modifiers, the minimum damage a character recovers from a Recovery test is 1";
    p.380: "If the unconscious character does not recover enough Damage points to regain consciousness, he
    must wait another hour before he can make another Recovery test." A 1 less 1 Wound still recovers 1
    (21 -> 20, still unconscious); a second revival in that fight is refused."""
    f = knocked_out_hero()
    until(f, "ally")
    play(f, Command("ally", "revive", "hero", {}), faces(5, 1))
    assert c(f, "hero").counters["damage"] == 20
    assert c(f, "hero").status == "unconscious"
    until(f, "ally")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("ally", "revive", "hero", {}))


def test_B_an_unconscious_character_is_blindsided_and_knocked_down():
    """p.380: "Unconscious characters ... are considered both Blindsided and Knocked Down" - PD 8 - 2 - 3 = 3:
    the striker's 3 hits him in round 2."""
    f = knocked_out_hero()
    until(f, "striker")
    assert f.state.round == 2
    out = play(f, Command("striker", "attack", "hero", {}), faces(10, 3) + faces(19, 4))
    att = one_roll(out, "Attack")
    assert (att.dn, att.success) == (3, True)


def test_E_na_unconsciousness_is_immune_to_stun_damage():
    """p.383: "Creatures who have an Unconsciousness Rating of "NA" are immune to Stun damage." Attacking to
    Stun, the hero hits a cadaver man (Unconsciousness NA): it takes no damage at all."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["attack-to-stun"])
    f = duel(
        hero, {"template": "cadaver-man", "id": "cadaver", "at": [1, 0], "stats": {"physical_defense": 8}}
    )
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["attack-to-stun"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "cadaver", {}), faces(10, 9) + faces(8, 9))
    assert one_roll(out, "Attack").success
    assert c(f, "cadaver").counters.get("damage", 0) == 0
    assert c(f, "cadaver").counters.get("stun", 0) == 0


def test_C_aggressive_attack_costs_1_strain_without_any_attack():
    """p.382: "The character always takes at least 1 Strain, even if he doesn't end up making any Attack tests
    during the round." Declared, then his turn ends with no attack: 1 Strain."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["aggressive-attack"])
    f = duel(hero)
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["aggressive-attack"]}))
    until(f, "hero")
    play(f, Command("hero", "end", None, {}), [])
    assert c(f, "hero").counters["damage"] == 1
    assert [d.damage_type for d in damaged(f.log, "hero")] == ["strain"]


def test_B_defensive_stance_minus_3_and_a_wound_but_not_on_knockdown():
    """p.384: Defensive Stance: "The character suffers a -3 penalty to his tests that round, except for
    Knockdown tests"; p.381 -1 per Wound. Hit (PD 8 + 3 = 11) for 13, he tests Knockdown at his full step 5
    and stands; his attack is at 10 - 3 - 1 = 6 and his damage at 8 - 3 - 1 = 4."""
    hero = who("hero", [0, 0], initiative=5, combat_options=["defensive-stance"], wound_threshold=8)
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(14), wound_threshold=30)], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["defensive-stance"]}))
    until(f, "striker")
    out = play(f, Command("striker", "attack", "hero", {}), faces(10, 11) + faces(14, 13) + faces(5, 5))
    assert one_roll(out, "Attack").dn == 11
    kd = one_roll(out, "Knockdown")
    assert (kd.step, kd.dn, kd.success) == (5, 5, True)
    until(f, "hero")
    out = play(f, Command("hero", "attack", "striker", {}), faces(6, 9) + faces(4, 3))
    assert one_roll(out, "Attack").step == 6
    assert one_roll(out, "Damage").step == 4


def test_B_harried_and_blindsided_mica_and_the_ghouls():
    """p.388: "Mica is surrounded by five ghouls ... his Physical Defense is lowered from 10 to 8. The ghouls
    behind him make their attacks against a Physical Defense of 6 because of the blindside status." Mica
    facing east; three ghouls in front, two behind him."""
    mica = {"template": "mica", "id": "mica", "at": [0, 0], "facing": 0, "tactic": "hold"}
    spots = {"g1": [1, 0], "g2": [1, -1], "g3": [0, 1], "g4": [-1, 0], "g5": [0, -1]}
    ghouls = [who(g, at, initiative=9 - i, tactic="hold") for i, (g, at) in enumerate(spots.items())]
    f = start([mica], ghouls, [])
    until(f, "g1")
    out = play(f, Command("g1", "attack", "mica", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 8
    until(f, "g4")
    out = play(f, Command("g4", "attack", "mica", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 6


def test_C_partial_darkness_minus_2_unless_low_light_vision():
    """p.387: "A character in partial darkness suffers a -2 penalty to any sight-based tests ... Characters
    with Low-Light Vision are not affected by partial darkness". Attack step 10 -> 8; with Low-Light Vision
    10."""
    for senses, step in (([], 8), (["low-light-vision"], 10)):
        hero = who("hero", [0, 0], initiative=7, options={"senses": senses} if senses else {})
        f = duel(hero, map_={"light": "partial-darkness"})
        until(f, "hero")
        out = play(f, Command("hero", "attack", "foe", {}), faces(step, 3))
        assert one_roll(out, "Attack").step == step


def test_C_throwing_at_an_area_is_against_dn_7():
    """p.393: "If throwing an object at a specific target area, the Difficulty Number is 7." A 7 lands the
    flask where it was thrown."""
    flask = [{"name": "Flask", "kind": "thrown", "step": 10, "damage": 6, "range": [2, 10, 20]}]
    f = duel(who("hero", [0, 0], initiative=7, attacks=flask), who("foe", [6, 0]))
    until(f, "hero")
    out = play(f, Command("hero", "throw-at", None, {"attack": "Flask", "at": [3, 0]}), faces(10, 7))
    att = one_roll(out, "")
    assert (att.dn, att.success) == (7, True)


def test_C_grappling_needs_an_extra_success_and_does_no_damage():
    """p.392: "To successfully grapple, he must score an extra success on the test. Grappling attacks do not
    cause damage, so the attacker does not make a Damage test." 12 against PD 8 is one success: no hold;
    13 is an extra success: held, no Damage test, and the grappled foe cannot move."""
    fists = [{"name": "Unarmed", "kind": "unarmed", "step": 10, "damage": 5}]
    for total, held in ((12, False), (13, True)):
        f = duel(who("hero", [0, 0], initiative=7, attacks=fists))
        until(f, "hero")
        out = play(f, Command("hero", "attack", "foe", {"grapple": True}), faces(10, total))
        assert not rolls(out, "Damage")
        assert c(f, "foe").counters.get("damage", 0) == 0
        assert ("grappled" in c(f, "foe").conditions) is held
        if held:
            until(f, "foe")
            with pytest.raises(IllegalCommand):
                R.validate(f.state, Command("foe", "move", None, {"path": [[2, 0]]}))


def test_C_shattering_a_shield_herekar():
    """p.385: "the character makes a Damage test against the shield's Shatter Threshold ..., adding his
    weapon's size as a bonus to the test ... Regardless of the Attack test result, the bearer takes no damage"
    (Herekar: 23 against a body shield's 21). Herekar's broadsword (Damage step 12, Size 3) tests at step 15;
    21 breaks the body shield (Shatter Threshold 21); the bearer's PD loses the shield's +3."""
    herekar = {"template": "herekar", "id": "herekar", "at": [0, 0], "combat_options": ["shatter-shield"]}
    ally = who("ally", [0, 1], initiative=1)
    bandit = {"template": "bandit", "id": "bandit", "at": [1, 0], "equipment": {"shield": "body-shield"}}
    f = start([herekar, ally], [bandit], [])
    pd = c(f, "bandit").stats.physical_defense
    until(f, "herekar", "declare")
    f.submit(Command("herekar", "declare", None, {"action": "act", "options": ["shatter-shield"]}))
    until(f, "herekar")
    sword = c(f, "herekar").stats.attacks[0]
    out = play(
        f, Command("herekar", "attack", "bandit", {}), faces(sword.step, pd) + faces(sword.damage + 3, 21)
    )
    assert c(f, "bandit").counters.get("damage", 0) == 0
    assert not [d for d in damaged(out, "bandit") if d.amount]
    until(f, "ally")
    out = play(f, Command("ally", "attack", "bandit", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == pd - 3


def test_C_charging_attack_adds_the_mounts_strength_step():
    """p.396: "A successful attack during a charging attack adds the mount's Strength Step to the Damage Step
    due to the high momentum of the impact." Kira's short sword (damage 9) from a war horse (Strength step 8)
    charging 9 hexes (18 yards, more than its 16): Damage step 17."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    kira = {"template": "kira", "id": "kira", "options": {"rides": "horse", "familiar": True}}
    f = start([horse, kira], [who("foe", [10, 0], initiative=1, tactic="hold", wound_threshold=40)], [])
    until(f, "kira")
    path = [[i, 0] for i in range(1, 10)]
    sword = c(f, "kira").stats.attacks[0]
    out = play(
        f,
        Command("kira", "charge", "foe", {"attack": sword.name, "path": path}),
        faces(sword.step, 12) + faces(17, 10) + faces(5, 6),
    )
    assert one_roll(out, "Damage").step == 17
    assert c(f, "kira").pos == c(f, "horse").pos == (9, 0)


def test_A_a_mount_knocked_down_throws_its_rider_at_once():
    """p.395: "If the mount fails a Knockdown test, the rider is automatically knocked down as he falls off
    his mount. This fall ... cause[s] Step 5/D8 damage". The horse (WT 13, armor 1) takes 18: Knockdown (5)
    on its step 12, fails with a 4; Kira lies knocked down and takes the d8 (6) at once."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    kira = {"template": "kira", "id": "kira", "options": {"rides": "horse", "familiar": True}}
    striker = who("striker", [1, 0], initiative=9, attacks=axe(19))
    f = start([horse, kira], [striker], [])
    until(f, "striker")
    out = play(
        f,
        Command("striker", "attack", "horse", {}),
        faces(10, 9) + faces(19, 18 + 1) + faces(12, 4) + faces(5, 6),
    )
    assert "knocked-down" in c(f, "horse").conditions
    assert "knocked-down" in c(f, "kira").conditions
    assert [d.raw for d in damaged(out, "kira")] == [6]


def test_C_setting_against_a_charge_strikes_with_the_mounts_strength():
    """p.385: "The defender takes a Reserved Action, and strikes the moment the attacker rides into range. The
    defender makes an Attack test as normal, but replaces his Strength Step with that of the mount to
    determine the Damage." Ulm's spear (Strength 7 + 4) against a rider on a war horse (Strength 8): his
    strike comes first, at DN 8 + 2 (reserved), with Damage step 4 + 8 = 12."""
    ulm = {
        "template": "ulm",
        "id": "ulm",
        "at": [0, 0],
        "equipment": {"weapons": ["spear"]},
        "combat_options": ["set-against-charge"],
    }
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [10, 0],
    }
    orc = {"template": "ork-scorcher", "id": "orc", "options": {"rides": "horse", "familiar": True}}
    f = start([ulm], [horse, orc], [])
    until(f, "ulm", "declare")
    f.submit(Command("ulm", "declare", None, {"action": "act", "options": ["set-against-charge"]}))
    until(f, "ulm")
    play(f, Command("ulm", "reserve", None, {"trigger": {"on": "attack", "target": None}}), [])
    until(f, "orc")
    charge = {"attack": "Charge (mounted)", "path": [[i, 0] for i in range(9, 0, -1)]}
    out = play(f, Command("orc", "charge", "ulm", charge), faces(10, 10) + faces(12, 9) + faces(7, 2))
    first = rolls(out)[0]
    assert (first.actor, first.dn, first.success) == ("ulm", 10, True)
    assert one_roll(out, "Spear Damage").step == 12
    assert [d.amount for d in damaged(out, "orc")] == [9 - 5]


def test_D_heavy_impairment_leaves_a_movement_of_1_yard_one_hex():
    """p.389: "Heavy: ... could reduce a character's Movement Rate by 10 ... None of these modifiers will
    reduce a character's Movement Rate below 1"; p.372: "if an effect has a range of 1 yard, it should cover 1
    hex". Movement Rate 10 in heavy brush: 1 yard, still 1 hex."""
    hero = who("hero", [0, 0], initiative=7, movement=10)
    f = duel(hero, who("foe", [-9, 0]), map_={"extra": {"impaired": "heavy"}})
    until(f, "hero")
    play(f, Command("hero", "move", None, {"path": [[1, 0]]}), [])
    assert c(f, "hero").pos == (1, 0)


def test_D_light_impairment_takes_5_yards_off():
    """p.389: "Light: Light brush, narrow alleyways, cramped rooms ... could reduce a character's Movement
    Rate by 5". Movement Rate 12 in light brush: 7 yards, at least 3 hexes and never 5."""
    hero = who("hero", [0, 0], initiative=7, movement=12)
    f = duel(hero, who("foe", [-9, 0]), map_={"extra": {"impaired": "light"}})
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "move", None, {"path": [[i, 0] for i in range(1, 6)]}))
    play(f, Command("hero", "move", None, {"path": [[i, 0] for i in range(1, 4)]}), [])
    assert c(f, "hero").pos == (3, 0)


def test_C_surprise_dn_is_the_lowest_dexterity_step_encountered():
    """p.390: the Perception test's Difficulty Number "is usually equal to the lowest Dexterity Step among the
    characters or creatures encountered". Two hidden foes of Dexterity step 5 and 3: DN 3; a 3 is no surprise
    and the hero acts in round 1."""
    foes = [
        who("quick", [1, 0], hidden=True, tactic="hold"),
        who("slow", [0, 1], hidden=True, tactic="hold", dexterity=6, initiative=3),
    ]
    f = start([who("hero", [0, 0], initiative=7)], foes, [3])
    d = f.advance_until_decision()
    test = one_roll(f.log, "Perception")
    assert (test.dn, test.success) == (3, True)
    assert (d.actor, d.kind) == ("hero", "act")


def test_E_after_jumping_up_no_other_movement_that_round():
    """p.384 Jump Up: "If successful, the character leaps to his feet and may use a Standard action, but he
    may not perform any other movement that round." Once up, a move is refused; his attack is not."""
    hero = who("hero", [0, 0], initiative=5, combat_options=["jump-up"], wound_threshold=20)
    hero["stats"].update(unconsciousness=40, death=50)
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(19))], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act"}))
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 25) + faces(5, 4))
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["jump-up"]}))
    until(f, "hero")
    play(f, Command("hero", "jump-up", None, {"end": False}), [6, 1])
    assert "knocked-down" not in c(f, "hero").conditions
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "move", None, {"path": [[-1, 0]]}))
    R.validate(f.state, Command("hero", "attack", "striker", {}))


def test_C_tail_attack_unarmed_test_and_strength_damage_at_minus_2():
    """p.386: "The character makes an Unarmed Combat test, and suffers a -2 penalty to all tests that round.
    The character makes a Damage test using his Strength Step." Silar: Unarmed step 9 -> 7, Strength step 5
    -> 3; his dagger attack that round at 7 -> 5."""
    silar = {"template": "silar", "id": "silar", "at": [0, 0], "combat_options": ["tail-attack"]}
    f = start([silar], [who("foe", [1, 0], initiative=1, wound_threshold=30, physical_defense=4)], [])
    until(f, "silar", "declare")
    f.submit(Command("silar", "declare", None, {"action": "act", "options": ["tail-attack"]}))
    until(f, "silar")
    out = play(f, Command("silar", "tail-attack", "foe", {"end": False}), faces(7, 5) + faces(3, 3))
    assert one_roll(out, "Attack").step == 7
    assert one_roll(out, "Damage").step == 3
    out = play(f, Command("silar", "attack", "foe", {"attack": "Dagger"}), faces(5, 2))
    assert one_roll(out, "Attack").step == 5


def test_C_called_shot_at_a_weapon_minus_3_one_strain_and_a_strength_test():
    """p.384: "The character suffers a -3 penalty to his close or ranged combat Attack test ... The
    concentration required causes the character 1 Strain per Attack test ... If attempting to hit a weapon
    or other object, the target must make a successful Strength test against the Damage Step of the attack to
    hold on to the item." Step 10 -> 7; the bandit (Strength step 6) tests against 8 and keeps his sword
    with an 8."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["called-shot"])
    f = duel(hero, {"template": "bandit", "id": "bandit", "at": [1, 0], "tactic": "hold"})
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["called-shot"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "bandit", {"called": "weapon"}), faces(7, 9) + faces(6, 8))
    assert one_roll(out, "Attack").step == 7
    hold = [r for r in rolls(out) if r.actor == "bandit"]
    assert [(r.step, r.dn, r.success) for r in hold] == [(6, 8, True)]
    assert [d.amount for d in damaged(f.log, "hero") if d.damage_type == "strain"] == [1]


def test_C_an_entangling_extra_success_adds_no_damage():
    """p.391: "If the attacker scores an extra success on his Attack test with an entangling weapon, he
    entangles his target. Extra successes used for this do not increase damage." Kira's whip: 15 against PD 8
    is one extra success - the bandit is entangled and the Damage step stays 8."""
    kira = {"template": "kira", "id": "kira", "at": [0, 0], "equipment": {"weapons": ["whip"]}}
    bandit = {
        "template": "bandit",
        "id": "bandit",
        "at": [1, 0],
        "tactic": "hold",
        "stats": {"wound_threshold": 30},
    }
    f = start([kira], [bandit], [])
    until(f, "kira")
    out = play(f, Command("kira", "attack", "bandit", {"attack": "Whip"}), faces(11, 13) + faces(8, 6))
    assert one_roll(out, "Attack").extra == 1
    assert one_roll(out, "Damage").step == 8
    assert "entangled" in c(f, "bandit").conditions


def test_E_a_rider_who_moved_on_his_mount_cannot_walk_after_dismounting():
    """p.395: "A character cannot use his own movement in a round in which he uses the mount's movement, even
    if he dismounts; it is assumed he has already moved". Kira rides 3 hexes, dismounts, and may not walk."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    kira = {"template": "kira", "id": "kira", "options": {"rides": "horse", "familiar": True}}
    f = start([horse, kira], [who("foe", [0, 12], initiative=1, tactic="hold")], [])
    until(f, "kira")
    play(f, Command("kira", "move", None, {"path": [[1, 0], [2, 0], [3, 0]], "end": False}), [])
    play(f, Command("kira", "dismount", None, {"to": [4, 0], "end": False}), [])
    assert c(f, "kira").pos == (4, 0)
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("kira", "move", None, {"path": [[5, 0]]}))


def test_B_aggressive_attack_strain_for_each_close_attack_test():
    """p.382: "Each close combat Attack test made by the character causes him 1 Strain"; p.386 Tail Attack:
    an additional attack. Silar, aggressive, with his tail and his dagger: 2 Strain."""
    silar = {
        "template": "silar",
        "id": "silar",
        "at": [0, 0],
        "combat_options": ["tail-attack", "aggressive-attack"],
    }
    f = start([silar], [who("foe", [1, 0], initiative=1, physical_defense=30)], [])
    until(f, "silar", "declare")
    f.submit(
        Command("silar", "declare", None, {"action": "act", "options": ["tail-attack", "aggressive-attack"]})
    )
    until(f, "silar")
    play(f, Command("silar", "tail-attack", "foe", {"end": False}), faces(10, 5))
    play(f, Command("silar", "attack", "foe", {"attack": "Dagger"}), faces(8, 5))
    assert [d.amount for d in damaged(f.log, "silar") if d.damage_type == "strain"] in ([1, 1], [2])


def test_A_harried_ends_when_fewer_than_four_attackers_remain():
    """p.391: "Any time four or more attackers set upon a character at the same time, he is considered
    Harried (p. 388). The character remains Harried until fewer than four attackers surround him." Four foes
    round the hero; he kills one (attack at step 10 - 2 = 8); the next foe attacks him at PD 8, not 6."""
    ring = [[1, 0], [0, 1], [-1, 1], [-1, 0]]
    foes = [
        who(f"foe{i}", ring[i], initiative=4 - i, tactic="hold", death=5, unconsciousness=4) for i in range(4)
    ]
    f = start([who("hero", [0, 0], initiative=7, wound_threshold=30)], foes, [])
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe0", {}), faces(8, 8) + faces(8, 6))
    assert statuses(out, "foe0") == ["dead"]
    until(f, "foe1")
    out = play(f, Command("foe1", "attack", "hero", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 8


def test_C_stun_damage_may_still_knock_down():
    """p.383: "Stun damage does not cause Wounds. If a character would normally take a Wound from the damage
    inflicted, he is considered Harried for the rest of the round, and he may still be knocked down based on
    the Damage test result." 13 Stun damage against WT 8: no Wound, a Knockdown (5) test - at step 5 - 2, the
    Harried it causes counting on it (the documented reading) - failed with a 3: down."""
    hero = who("hero", [0, 0], initiative=7, attacks=axe(14), combat_options=["attack-to-stun"])
    f = duel(hero, who("foe", [1, 0], knockdown=5))
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["attack-to-stun"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(14, 13) + faces(3, 3))
    assert c(f, "foe").counters.get("wounds", 0) == 0
    kd = one_roll(out, "Knockdown")
    assert (kd.step, kd.dn, kd.success) == (3, 5, False)
    assert "knocked-down" in c(f, "foe").conditions


def test_C_the_wound_of_a_killing_blow_is_recorded():
    """p.379: "If the damage that causes a Wound renders the character unconscious or dead, the player should
    still record the Wound." 25 damage against Death Rating 25 and WT 8: dead, with 1 Wound."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=axe(19)), who("foe", [1, 0], knockdown=12))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 9) + faces(19, 25))
    assert statuses(out, "foe")[-1] == "dead"
    assert c(f, "foe").counters["wounds"] == 1


def test_D_a_player_character_wins_an_initiative_tie():
    """p.371: "If a player character ties with a gamemaster character or creature, the player character should
    get to take his actions first". Both roll 5; the player acts first though his step (5) is lower than the
    creature's (7)."""
    hero = who("hero", [0, 0], player=True, initiative=5)
    f = start([hero], [who("foe", [1, 0], initiative=7)], [5, 5], roll_initiative=True)
    d = f.advance_until_decision()
    assert (initiative(f, "hero", 1).value, initiative(f, "foe", 1).value) == (5, 5)
    assert order(f, 1) == ("hero", "foe")
    assert d.actor == "hero"


def test_D_one_initiative_test_for_a_group_and_one_for_the_captain():
    """p.372: "it makes more sense to roll one test for a group of six identical ork scorchers ... if the
    group consists of five ork scorchers accompanied by a captain, the gamemaster may choose to make one test
    for the five ork scorchers and a separate test for their captain." Five scorchers share a 4; the captain
    rolls 6."""
    orks = {"template": "ork-scorcher", "count": 5, "at": [[4, 0], [4, 1], [5, 0], [5, 1], [6, 0]]}
    captain = {"template": "ork-scorcher", "id": "captain", "at": [6, 1], "stats": {"initiative": 6}}
    f = start(
        [who("hero", [0, 0], player=True, initiative=7)], [orks, captain], [3, 4, 6], roll_initiative=True
    )
    f.advance_until_decision()
    values = {initiative(f, f"ork-scorcher-{i}", 1).value for i in range(1, 6)}
    assert values == {4}
    assert initiative(f, "captain", 1).value == 6


def test_G_take_the_initiative_gamemaster_characters_use_their_step():
    """p.372 (optional rule): "the gamemaster may speed up the combat round by choosing not to make Initiative
    tests for gamemaster creatures or characters; he simply uses the Initiative Step as the test result."
    The creature (step 7) has 7 without a roll; the player still rolls his (4)."""
    hero = who("hero", [0, 0], player=True, initiative=5)
    f = start([hero], [who("foe", [1, 0], initiative=7)], [4], options={"take-the-initiative": True})
    f.advance_until_decision()
    assert initiative(f, "foe", 1).value == 7 and initiative(f, "foe", 1).roll is None
    assert initiative(f, "hero", 1).value == 4


def test_C_after_a_charge_a_failed_strength_test_loses_the_sword():
    """p.396: "After a successful charging attack, the rider makes a Strength test against the target's
    Toughness Step. If the test fails ... A rider using a shorter melee weapon like a sword or mace loses his
    weapon." Kira (Strength step 5) rolls 4 against the foe's Toughness step 5: her short sword is gone."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    kira = {"template": "kira", "id": "kira", "options": {"rides": "horse", "familiar": True}}
    f = start([horse, kira], [who("foe", [10, 0], initiative=1, tactic="hold", wound_threshold=40)], [])
    until(f, "kira")
    path = [[i, 0] for i in range(1, 10)]
    out = play(
        f,
        Command("kira", "charge", "foe", {"attack": "Short sword", "path": path}),
        faces(11, 12) + faces(17, 10) + faces(5, 4),
    )
    strength = rolls(out)[-1]
    assert (strength.actor, strength.step, strength.dn, strength.success) == ("kira", 5, 5, False)
    until(f, "kira")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("kira", "attack", "foe", {"attack": "Short sword"}))


def test_C_after_a_charge_a_failed_strength_test_throws_a_spearman_off():
    """p.396: "If the test fails, a rider using a spear or lance-type weapon is thrown from his mount,
    suffering Step 5/D8 of damage and becoming knocked down." Kira charging with a spear rolls 4 against
    Toughness step 5: she is knocked down off her horse and takes the d8 (5)."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "combat"},
        "at": [0, 0],
    }
    kira = {
        "template": "kira",
        "id": "kira",
        "options": {"rides": "horse", "familiar": True},
        "equipment": {"weapons": ["spear"]},
    }
    f = start([horse, kira], [who("foe", [10, 0], initiative=1, tactic="hold", wound_threshold=40)], [])
    until(f, "kira")
    spear = next(a for a in c(f, "kira").stats.attacks if a.name == "Spear")
    path = [[i, 0] for i in range(1, 10)]
    out = play(
        f,
        Command("kira", "charge", "foe", {"attack": "Spear", "path": path}),
        faces(spear.step, 12) + faces(spear.damage + 8, 12) + faces(5, 4) + faces(5, 5),
    )
    assert "knocked-down" in c(f, "kira").conditions
    assert [d.raw for d in damaged(out, "kira")] == [5]


def test_B_intercepting_a_swoop_reserved_and_harried_griffin():
    """p.398: "Characters who wish to attack swooping creatures or characters in close combat must have a
    higher Initiative than their opponent that round and use a reserved action ... to intercept the
    attacker"; the swooper "must use the splitting movement combat option" (Harried, -2, p.386); p.375: +2 to
    the DN of a reserved action. The hero (7) reserved, the griffin (5) swoops in: his strike comes first, at
    PD 8 - 2 + 2 = 8."""
    griffin = who(
        "griffin",
        [6, 0],
        altitude=6,
        options={"flying": True},
        initiative=5,
        combat_options=["split-movement"],
        movement=18,
        wound_threshold=30,
    )
    f = start([who("hero", [0, 0], initiative=7)], [griffin], [])
    until(f, "griffin", "declare")
    f.submit(Command("griffin", "declare", None, {"action": "act", "options": ["split-movement"]}))
    until(f, "hero")
    play(f, Command("hero", "reserve", None, {"trigger": {"on": "attack", "target": None}}), [])
    until(f, "griffin")
    swoop = {"path": [[5, 0], [4, 0], [3, 0], [2, 0], [1, 0]], "after": [[2, 0], [3, 0]]}
    out = play(f, Command("griffin", "swoop", "hero", swoop), faces(10, 8) + faces(8, 5) + faces(8, 3))
    first = rolls(out)[0]
    assert (first.actor, first.dn, first.success) == ("hero", 8, True)
    assert rolls(out)[-1].actor == "griffin"
    assert c(f, "griffin").counters["damage"] == 1 + 5  # its Splitting Movement Strain and the hero's 5


def test_E_mounting_spends_the_standard_action():
    """p.395: "Mounting an animal takes a Standard action and requires the animal to be a trained mount." Once
    on her trained horse, Kira may not attack the foe next to it in that round."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "tactic": "hold",
        "options": {"training": "trained"},
        "at": [1, 0],
    }
    kira = {"template": "kira", "id": "kira", "at": [0, 0]}
    f = start([horse, kira], [who("foe", [2, 0], initiative=1, tactic="hold")], [])
    until(f, "kira")
    play(f, Command("kira", "mount", "horse", {"end": False}), [])
    assert c(f, "kira").pos == c(f, "horse").pos
    d = f.advance_until_decision()
    if d is not None and d.actor == "kira" and f.state.round == 1:
        with pytest.raises(IllegalCommand):
            R.validate(f.state, Command("kira", "attack", "foe", {}))


def spell(step: int = 10, effect: int = 9) -> list[dict]:
    return [
        {
            "name": "Dart",
            "kind": "spell",
            "step": step,
            "damage": effect,
            "against": "mystic",
            "armor": "mystic",
            "range": [0, 30, 60],
        }
    ]


def test_C_a_spell_is_cast_against_mystic_defense_and_reduced_by_mystic_armor():
    """p.377: "For attacks made with spells, the Difficulty Number is usually the target's Mystic Defense";
    p.379: "Generally, Physical Armor protects against sources of physical damage, while Mystic Armor protects
    against astral or psychic damage." Mystic Defense 6 (PD 12); an Effect of 9 less Mystic Armor 2 (not the
    Physical Armor 5): 7."""
    foe = who("foe", [3, 0], physical_defense=12, mystic_defense=6, physical_armor=5, mystic_armor=2)
    f = duel(who("hero", [0, 0], initiative=7, attacks=spell()), foe)
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 8) + faces(9, 9))
    att = rolls(out)[0]
    assert (att.dn, att.success) == (6, True)
    assert [(d.raw, d.armor, d.amount) for d in damaged(out, "foe")] == [(9, 2, 7)]


def test_B_aggressive_attack_lowers_mystic_defense_too():
    """p.382: Aggressive Attack: "suffers a -3 penalty to his Physical and Mystic Defense that round." The
    foe, aggressive, is the target of a spell against Mystic Defense 8 - 3 = 5."""
    foe = who("foe", [3, 0], initiative=9, combat_options=["aggressive-attack"], tactic="hold")
    f = duel(who("hero", [0, 0], initiative=7, attacks=spell()), foe)
    until(f, "foe", "declare")
    f.submit(Command("foe", "declare", None, {"action": "act", "options": ["aggressive-attack"]}))
    until(f, "hero")
    out = play(f, Command("hero", "attack", "foe", {}), faces(10, 4))
    assert (rolls(out)[0].dn, rolls(out)[0].success) == (5, False)


def test_C_a_miss_into_close_combat_strikes_ulm_silars_example():
    """p.392: "The target has a Physical Defense of 9, but there are four other characters ... in the way,
    increasing the Difficulty Number of the Attack test to 13. Silar makes a Missile Weapons test, with a
    result of 9; he misses ... The closest character is an enemy character with a Physical Defense of 10, so
    the bolt does not hit him. The next character is Silar's companion Ulm, with a Physical Defense of 8.
    Silar's bolt strikes Ulm"."""
    silar = who("silar", [0, 0], initiative=7, attacks=bow(40, 80))
    ulm = who("ulm", [3, 0], initiative=2, tactic="hold", physical_defense=8, wound_threshold=30)
    foes = [
        who("target", [6, 0], initiative=1, tactic="hold", physical_defense=9),
        who("enemy", [2, 0], initiative=1, tactic="hold", physical_defense=10),
        who("x1", [4, 0], initiative=1, tactic="hold", physical_defense=12),
        who("x2", [5, 0], initiative=1, tactic="hold", physical_defense=12),
    ]
    f = start([silar, ulm], foes, [])
    until(f, "silar")
    out = play(f, Command("silar", "attack", "target", {}), faces(13, 9) + faces(10, 6))
    att = rolls(out)[0]
    assert (att.total, att.dn, att.success) == (9, 13, False)
    assert [(d.target, d.amount) for d in out if isinstance(d, ev.Damaged)] == [("ulm", 6)]


def test_C_a_missed_throw_scatters_brighton():
    """p.393: "the gamemaster rolls a D6 and consults the Scatter Diagram ... the gamemaster subtracts the
    Attack test result from the Difficulty Number; the difference becomes a Step used by the gamemaster to
    make a test, the result of which is the distance in feet" - Brighton "rolls a 6 ... against his target's
    Physical Defense of 9 ... a scatter direction of 5. He makes a Step 3 test (9-6=3) ... with a result of
    5." """
    flask = [{"name": "Flask", "kind": "thrown", "step": 10, "damage": 6, "range": [2, 10, 20]}]
    f = duel(who("brighton", [0, 0], initiative=7, attacks=flask), who("foe", [4, 0], physical_defense=9))
    until(f, "brighton")
    out = play(f, Command("brighton", "attack", "foe", {}), faces(10, 6) + [5] + [4, 1])
    att = rolls(out)[0]
    assert (att.total, att.dn, att.success) == (6, 9, False)
    scatter = rolls(out)[-1]
    assert (scatter.step, scatter.total) == (3, 5)
    assert not damaged(out, "foe")


def test_D_no_bow_shot_at_the_adjacent_hex():
    """p.392: "Ranged combat is any type of physical combat that occurs beyond the reach of the combatants.
    Normally, this is reserved for weapons that project a missile, or are thrown, toward a target more than 2
    yards away ... If an attacker is within the minimum range given for his ranged weapon, he cannot attack
    with ranged combat." A bow with a minimum range of 2 yards against the foe 2 yards away: refused."""
    f = duel(who("hero", [0, 0], initiative=7, attacks=bow(30, 60, minimum=2)))
    until(f, "hero")
    with pytest.raises(IllegalCommand):
        R.validate(f.state, Command("hero", "attack", "foe", {}))


def test_E_no_recovery_test_left_no_revival():
    """p.380: "If he has one available, an unconscious character may make a Recovery test one minute after he
    falls unconscious." With no Recovery test left for the day (Recovery tests 0), the ally's attempt to
    revive him rolls nothing and he stays unconscious."""
    hero = who("hero", [0, 0], initiative=4, recovery_tests=0)
    ally = who("ally", [0, 1], initiative=3)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(19), wound_threshold=40, tactic="hold")
    f = start([hero, ally], [striker], [])
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 21))
    until(f, "ally")
    try:
        out = play(f, Command("ally", "revive", "hero", {}), [])
    except IllegalCommand:
        out = []
    assert not rolls(out, "Recovery")
    assert c(f, "hero").status == "unconscious"


def test_A_a_trained_mount_acts_on_its_riders_initiative():
    """p.395: "The rider and his mount each have their own actions. If trained, the mount acts on the rider's
    Initiative." Kira (a player) rolls 5 on her Initiative; her war horse (step 8) rolls nothing of its own
    and acts on her 5, ahead of the foe's 4: the dice are Kira's d12 and the foe's d6, nothing else."""
    horse = {
        "template": "war-horse",
        "id": "horse",
        "options": {"training": "combat"},
        "at": [0, 0],
        "tactic": "hold",
    }
    kira = {"template": "kira", "id": "kira", "player": True, "options": {"rides": "horse", "familiar": True}}
    f = start([horse, kira], [who("foe", [5, 0], initiative=4)], [5, 4], roll_initiative=True)
    f.advance_until_decision()
    assert f.dice.remaining == 0
    assert initiative(f, "kira", 1).value == 5
    assert initiative(f, "horse", 1).value == 5
    assert order(f, 1).index("horse") < order(f, 1).index("foe")


def test_E_after_a_failed_jump_up_he_may_still_stand_with_his_standard_action():
    """p.384 Jump Up: "If the test fails, the character may still get to his feet using a Standard action."
    A 2 on the Dexterity (6) test: still down; standing up is offered and stands him up."""
    hero = who("hero", [0, 0], initiative=5, combat_options=["jump-up"], wound_threshold=20)
    hero["stats"].update(unconsciousness=40, death=50)
    f = start([hero], [who("striker", [1, 0], initiative=7, attacks=axe(19))], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act"}))
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(19, 25) + faces(5, 4))
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["jump-up"]}))
    until(f, "hero")
    out = play(f, Command("hero", "jump-up", None, {"end": False}), [2])
    assert rolls(out)[0].success is False
    assert "knocked-down" in c(f, "hero").conditions
    d = f.advance_until_decision()
    assert (d.actor, f.state.round) == ("hero", 2)
    assert "stand-up" in {cmd.action for cmd in R.choices(f.state, d)}
    play(f, Command("hero", "stand-up", None, {}), [])
    assert "knocked-down" not in c(f, "hero").conditions


def test_C_defensive_stance_only_against_attacks_he_is_aware_of():
    """p.384: Defensive Stance: "the character only receives this bonus against attacks he is aware of";
    p.386: "When a character cannot see his attacker ... he is considered Blindsided." The hero in Defensive
    Stance (PD 8 + 3) is engaged by a foe in front; the foe behind him attacks at PD 8 - 2 = 6, not 9."""
    hero = who("hero", [0, 0], initiative=5, facing=0, combat_options=["defensive-stance"], tactic="hold")
    front = who("front", [1, 0], initiative=9, tactic="hold")
    behind = who("behind", [-1, 0], initiative=8, tactic="hold")
    f = start([hero], [front, behind], [])
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["defensive-stance"]}))
    until(f, "front")
    out = play(f, Command("front", "attack", "hero", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 11
    until(f, "behind")
    out = play(f, Command("behind", "attack", "hero", {}), faces(10, 3))
    assert one_roll(out, "Attack").dn == 6


def test_D_splitting_movement_shares_one_movement_rate():
    """p.386: Splitting Movement: "A character uses part of his movement to approach a target, make an attack,
    then uses the rest of his movement to move away." Movement Rate 10 (5 hexes): 3 in and 2 out is allowed,
    3 in and 3 out is not."""
    hero = who("hero", [0, 0], initiative=7, combat_options=["split-movement"], movement=10)
    f = duel(hero, who("foe", [4, 0], tactic="hold"))
    until(f, "hero", "declare")
    f.submit(Command("hero", "declare", None, {"action": "act", "options": ["split-movement"]}))
    until(f, "hero")
    path = [[1, 0], [2, 0], [3, 0]]
    with pytest.raises(IllegalCommand):
        R.validate(
            f.state, Command("hero", "attack", "foe", {"path": path, "after": [[3, 1], [2, 1], [1, 1]]})
        )
    play(f, Command("hero", "attack", "foe", {"path": path, "after": [[3, 1], [2, 1]]}), faces(8, 3))
    assert c(f, "hero").pos == (2, 1)


def test_D_after_standing_up_a_movement_rate_of_5_moves_3_hexes():
    """p.389: "Standing is a simple matter, but uses the character's Standard action"; p.373: "Movement may be
    done before or after your character's Simple and Standard actions"; p.372: round up to cover a full hex.
    Knocked down, Movement Rate 5: he stands and walks 3 hexes."""
    f = knocked_down_hero(movement=5)
    until(f, "hero")
    play(f, Command("hero", "stand-up", None, {"path": [[-1, 0], [-2, 0], [-3, 0]]}), [])
    assert c(f, "hero").pos == (-3, 0)
    assert "knocked-down" not in c(f, "hero").conditions


def test_F_a_knocked_down_characters_tactic_stands_him_up_legally():
    """p.389: "Standing is a simple matter, but uses the character's Standard action to get back on his feet";
    the tactic's command for a knocked-down character (Movement Rate 3) whose foe ran off to 5 hexes away
    passes validation and resolves."""
    hero = who("hero", [0, 0], initiative=4, movement=3)
    striker = who("striker", [1, 0], initiative=7, attacks=axe(14), tactic="hold")
    far = who("far", [-4, 0], initiative=6, tactic="hold")
    f = start([hero], [striker, far], [])
    until(f, "striker")
    play(f, Command("striker", "attack", "hero", {}), faces(10, 9) + faces(14, 13) + faces(5, 4))
    until(f, "striker")
    play(f, Command("striker", "run", None, {"path": [[2, -1], [3, -1], [4, -1], [5, -1]]}), [])
    d = until(f, "hero")
    cmd = f.auto_command(d)
    R.validate(f.state, cmd)
    f.dice = ScriptedDice([4] * 10)
    f.submit(cmd)
