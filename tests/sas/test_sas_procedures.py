"""Spells & Swords procedures with the text's numbers (004_0d1ac50b56c23caf.txt, section in each test)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.rules.sas.model import Fighter, build_stats, fighter
from fracas.rules.sas.procedures.attack import Situation, attack_modifiers, defense_modifiers, resolve_attack
from fracas.rules.sas.procedures.brawl import brawl_applies, brawl_effects, brawl_roll, two_hand_substitute
from fracas.rules.sas.procedures.damage import damage_modifiers, resolve_damage
from fracas.rules.sas.procedures.healing import (
    death_check,
    heal_break,
    heal_days,
    regenerate,
    regenerate_parts,
    wound_heals_in,
)
from fracas.rules.sas.procedures.initiative import side_initiative, surprise
from fracas.rules.sas.procedures.mass import dog_pile_bonus, horde_bonus, large_creature, save_vs_crush
from fracas.rules.sas.procedures.movement import (
    can_charge,
    mount_swift,
    movement,
    stand_up,
    zone_of_control_blocks,
)
from fracas.rules.sas.procedures.rolls import action_check, roll_penalties, saving_throw, skill_check
from fracas.rules.sas.procedures.wounds import choke, knocked_back, knocked_down, roll_fumble, shock
from fracas.rules.sas.tables import tables


def plain(fid: str = "x", **kw: object) -> Fighter:
    base: dict[str, object] = {"kind": "human", "size": "human", "movement": 6, "weapons": ["long-sword"]}
    base.update(kw)
    return Fighter(fid, build_stats("", base))


# ---- SURPRISE ------------------------------------------------------------------------------------------
def test_surprise_lowest_stealth_highest_alertness_11_or_more() -> None:
    """SURPRISE: 1D20 + the lowest Stealth of the attackers - the highest Alertness of the defenders, 11+."""
    attackers = [plain("a1", stealth=3), plain("a2", stealth=1)]
    defenders = [plain("d1", alertness=0), plain("d2", alertness=2)]
    r = surprise(attackers, defenders, ScriptedDice([12]))
    assert [m.value for m in r.mods] == [1, -2]
    assert r.total == 11 and r.surprise
    r = surprise(attackers, defenders, ScriptedDice([11]))
    assert r.total == 10 and not r.surprise


def test_surprise_distracted_defenders_plus_5() -> None:
    d = plain("d")
    d.conditions["distracted"] = 3
    r = surprise([plain("a")], [d], ScriptedDice([6]))
    assert r.total == 11 and r.surprise


def test_surprise_bonus_is_plus_2() -> None:
    c = tables().combat
    assert (c.num("surprise", "target"), c.num("surprise", "attack_bonus")) == (11, 2)


# ---- INITIATIVE ----------------------------------------------------------------------------------------
def test_side_initiative_high_roll_first_lowest_bonus() -> None:
    """INITIATIVE: each side 1D20 + its lowest Initiative bonus; the high roll attacks first."""
    party = [plain("p1", initiative=2), plain("p2", armor="heavy")]  # heavy armor: Initiative -1
    goblins = [plain("g1", initiative=1), plain("g2", initiative=1)]
    r = side_initiative({"party": party, "goblins": goblins}, ScriptedDice([12, 10, 3, 5]))
    assert r.rolls[:2] == (("party", 12, -1, 11), ("goblins", 10, 1, 11))  # a tie: rolled again
    assert r.order == ("goblins", "party")
    r = side_initiative({"party": party, "goblins": goblins}, ScriptedDice([14, 10]))
    assert r.order == ("party", "goblins")
    r = side_initiative({"party": party, "goblins": goblins}, ScriptedDice([10, 10]))
    assert r.order == ("goblins", "party")


def test_side_initiative_ties_roll_again() -> None:
    party, goblins = [plain("p")], [plain("g")]
    r = side_initiative({"party": party, "goblins": goblins}, ScriptedDice([10, 10, 3, 15]))
    assert r.order == ("goblins", "party") and len(r.rolls) == 4


def test_three_sides() -> None:
    sides = {"a": [plain("a")], "b": [plain("b")], "c": [plain("c")]}
    assert side_initiative(sides, ScriptedDice([5, 15, 10])).order == ("b", "c", "a")


# ---- skill checks and saves (reference 2.4, 2.5) -------------------------------------------------------
@pytest.mark.parametrize(
    ("difficulty", "target"), [("easy", 5), ("moderate", 10), ("hard", 15), ("heroic", 20)]
)
def test_skill_check_targets(difficulty: str, target: int) -> None:
    assert skill_check(difficulty, [], ScriptedDice([target])).success
    assert not skill_check(difficulty, [], ScriptedDice([target - 1])).success if target > 1 else True


def test_natural_1_and_20() -> None:
    from fracas.rules.base import Modifier

    assert not skill_check("easy", [Modifier(10, "x", "y")], ScriptedDice([1])).success
    assert skill_check("heroic", [Modifier(-10, "x", "y")], ScriptedDice([20])).success
    assert saving_throw([], ScriptedDice([13])).success and not saving_throw([], ScriptedDice([12])).success


def test_stand_up_easy_swift_minus_2_per_adjacent_foe() -> None:
    c = stand_up(plain("x", swift=1), 2, ScriptedDice([7]), slippery=True)
    assert [m.value for m in c.mods] == [1, -4, -2] and c.total == 2 and not c.success


def test_lookout_hard_alertness_and_rally_leadership() -> None:
    c = action_check(plain("x", alertness=3), "lookout", ScriptedDice([12]))
    assert c.target == 15 and c.success
    c = action_check(plain("x", skills={"leadership": 2}), "rally", ScriptedDice([12]))
    assert c.target == 15 and not c.success
    c = action_check(plain("x", skills={"search": 1}), "pick-up", ScriptedDice([6]), adjacent_foes=1)
    assert c.target == 5 and c.total == 5 and c.success
    c = action_check(plain("x", skills={"catch-missile": 1}), "catch-missile", ScriptedDice([14]))
    assert c.target == 15 and c.success


# ---- Brawl Rule and Random Brawl Attacks (reference 1.2) -----------------------------------------------
BRAWL_TEXT = {  # face: (attack, damage, two hands)
    1: (-2, 1, False), 11: (2, -1, False), 14: (1, 0, True), 15: (0, 1, True), 16: (1, 0, False),
    17: (-1, 0, False), 18: (0, 1, False), 20: (-1, 1, False), 23: (0, 1, False), 7: (0, 0, True),
}  # fmt: skip


@pytest.mark.parametrize("face", range(1, 24))
def test_random_brawl_rows(face: int) -> None:
    d = brawl_roll(ScriptedDice([10, face]), tables().settings)
    assert d.brawl and d.row is not None and d.row.low == face
    att, dmg, two = BRAWL_TEXT.get(face, (0, 0, False))
    assert (d.row.attack, d.row.damage, d.row.two_hands) == (att, dmg, two)
    # every row's on-hit effect resolves (enough faces for any nested roll)
    effects = brawl_effects(plain("a"), plain("d"), d.row, ScriptedDice([1] * 10))
    assert isinstance(effects, list)


BRAWL_EFFECT = {2: {("next", "initiative")}, 3: {("broken", "leg")}, 4: {("hurt", "arm")},
                5: {("condition", "knocked-down"), ("condition", "distracted")},
                6: {("condition", "partial-blindness"), ("permanent", "eye")},
                7: {("condition", "blinded"), ("permanent", "eyes")}, 8: {("condition", "stunned")},
                10: {("broken", "foot")}, 12: {("condition", "stunned")}, 13: {("next", "miss_attack")},
                15: {("condition", "immobilized")}, 17: {("drop-weapon", "")},
                19: {("condition", "partial-immobilization")}, 20: {("permanent", "finger-or-ear")},
                21: {("stat", "appearance")}, 22: {("condition", "partial-blindness")}}  # fmt: skip


@pytest.mark.parametrize("face", sorted(BRAWL_EFFECT))
def test_random_brawl_effects(face: int) -> None:
    row = tables().brawl.find(face)
    assert row is not None
    effects = brawl_effects(plain("a"), plain("d"), row, ScriptedDice([1] * 6))
    assert {(e.kind, e.name) for e in effects if e.target == "d"} == BRAWL_EFFECT[face]


def test_brawl_trigger_1_to_10_and_missing_rows() -> None:
    assert not brawl_roll(ScriptedDice([11]), tables().settings).brawl
    for face in (24, 42, 60):
        d = brawl_roll(ScriptedDice([1, face]), tables().settings)
        assert d.brawl and d.row is None and d.plain  # unmodified brawl attack, Damage -3
        sit = Situation(brawl_plain=True)
        assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), sit)) == -3


def test_brawl_only_humanoids_melee() -> None:
    assert brawl_applies(plain("a"), plain("d", kind="humanoid"), ranged=False)
    assert not brawl_applies(plain("a"), plain("d", kind="beast"), ranged=False)
    assert not brawl_applies(plain("a"), plain("d"), ranged=True)


def test_two_hand_rows_substituted() -> None:
    row = tables().brawl.find(14)
    assert row is not None
    sub = two_hand_substitute(row, hands_free=1)
    assert sub is not None and sub.low == 13


# ---- death, healing, regeneration ------------------------------------------------------------------------
def test_wounded_condition_more_than_half() -> None:
    x = plain("x")  # Wound Level 4
    x.markers = 2
    assert not x.wounded
    x.markers = 3
    assert x.wounded and [m.value for m in roll_penalties(x)] == [-1]


def test_death_by_a_thousand_cuts() -> None:
    hero, goblin = fighter("h", "fighter"), fighter("g", "goblin")
    hero.markers, goblin.markers = hero.stats.wound_level, 3
    (e,) = death_check(hero, ScriptedDice([3, 4]))
    assert e.kind == "dying" and e.rounds == 7
    (e,) = death_check(goblin, ScriptedDice([]))
    assert e.kind == "dead"
    goblin.markers = 2
    assert death_check(goblin, ScriptedDice([])) == []


def test_healing_rates() -> None:
    x = plain("x")
    x.markers = 10
    (e,) = heal_days(x, 1, ScriptedDice([2]))
    assert e.value == -2
    (e,) = heal_days(x, 1, ScriptedDice([1, 2]), full_rest=True, herbalist=True)
    assert e.value == -6


def test_regeneration_never_burns() -> None:
    troll = plain("t", regenerates=True)
    troll.markers, troll.burn_markers = 3, 2
    assert [e.value for e in regenerate(troll)] == [-1]
    troll.markers = 2
    assert regenerate(troll) == []


def test_break_heals_in_6_to_8_weeks_25_percent_permanent() -> None:
    effects = heal_break(plain("x"), "leg", ScriptedDice([3, 25]))
    assert effects[0].value == 8 and effects[1].kind == "permanent"
    assert len(heal_break(plain("x"), "leg", ScriptedDice([1, 26]))) == 1


# ---- conditions -----------------------------------------------------------------------------------------
def test_shock_save_or_knocked_out_hours() -> None:
    effects = shock(plain("x"), ScriptedDice([2, 16]))  # the save is at -3 too
    assert [(e.name, e.rounds) for e in effects] == [("shock", 2)]
    effects = shock(plain("x"), ScriptedDice([1, 5, 3]))
    assert ("knocked-out", 3 * 360) in [(e.name, e.rounds) for e in effects]


def test_choke_save_vs_death() -> None:
    assert [e.name for e in choke(plain("x"), ScriptedDice([14]))] == ["choke"]
    out = choke(plain("x"), ScriptedDice([5, 4]))
    assert ("knocked-out", 24) in [(e.name, e.rounds) for e in out]
    ko = plain("x")
    ko.conditions["knocked-out"] = 10
    assert [e.kind for e in choke(ko, ScriptedDice([3]))] == ["dead"]


def test_knocked_down_50_percent_drop_and_knocked_back() -> None:
    assert len(knocked_down(plain("x"), ScriptedDice([50]))) == 2
    assert len(knocked_down(plain("x"), ScriptedDice([51]))) == 1
    assert knocked_back(plain("x"), ScriptedDice([2]))[0].value == 2


# ---- special combat ---------------------------------------------------------------------------------------
def test_zone_of_control_and_size_exception() -> None:
    ogre, human, goblin = plain("o", size="giant"), plain("h"), plain("g", size="small")
    assert zone_of_control_blocks(human, [goblin])
    assert not zone_of_control_blocks(ogre, [human])  # 11 - 7 = 4 >= 3
    assert not zone_of_control_blocks(plain("l", size="big"), [human])  # 10 - 7 = 3: exempt
    assert zone_of_control_blocks(plain("l", size="tall"), [plain("s", size="short")])  # 8 - 6 = 2


def test_charge_rules() -> None:
    x = plain("x")
    assert can_charge(x, 0) is None
    assert can_charge(x, 1) is not None
    assert can_charge(x, 0, hidden=True) is not None
    x.conditions["fatigued"] = 2
    assert can_charge(x, 0) == "Fatigued"
    y = plain("y")
    y.hurt.append("knee")
    assert can_charge(y, 0) is not None
    c = tables().combat.charge
    assert (c.attack, c.swift, c.damage, c.defense) == (1, 2, 2, -4)  # type: ignore[attr-defined]


def test_mounted_needs_ride_2() -> None:
    rider = plain("r", skills={"ride": 2})
    rider.mounted_on = "horse"
    foe = plain("f")
    assert sum(m.value for m in attack_modifiers(rider, foe, Situation()) if "mounted" in m.rule) == 1
    rider.mount_moving = True
    assert sum(m.value for m in damage_modifiers(rider, foe, Situation()) if "mounted" in m.rule) == 2
    novice = plain("n", skills={"ride": 1})
    novice.mounted_on = "horse"
    assert not [m for m in attack_modifiers(novice, foe, Situation()) if "mounted" in m.rule]
    assert mount_swift(rider) == 2


def test_underwater_movement_and_dodge() -> None:
    knight = plain("k", armor="medium", helmet=True, shield="medium", dodge=1)  # Swift -2 from kit
    fish = plain("f", aquatic=True)
    # MR 6 + Swift(-2 -2 armor -1 shield) = 1, halved -> 0, minimum 1
    assert movement(knight, underwater=True) == 1
    assert movement(fish, underwater=True) == 6
    mods = defense_modifiers(knight, Situation(underwater=True))
    assert mods == []  # Dodge 1 - 1 underwater armor


def test_dog_pile_and_horde() -> None:
    assert [dog_pile_bonus(n) for n in (1, 2, 3, 12)] == [0, 1, 1, 6]
    assert [horde_bonus(n) for n in (1, 2, 5, 30)] == [0, 1, 2, 15]
    r = resolve_damage(plain("a"), plain("d"), Situation(dog_pile=6), ScriptedDice([]))
    assert [(e.kind, e.name) for e in r.effects] == [("condition", "immobilized")]


def test_large_creature_save_vs_crush() -> None:
    assert large_creature(plain("o", size="giant"), plain("h"))
    assert not large_creature(plain("o", size="tall"), plain("h"))
    c = save_vs_crush(plain("h", swift=1, dodge=2), ScriptedDice([10]))
    assert c.rolls[-1].total == 13 and c.success


def test_disengage_numbers() -> None:
    d = tables().combat.disengage
    assert (d.withdrawal_speed, d.withdrawal_attack, d.withdrawal_defense) == (0.5, -2, 1)  # type: ignore[attr-defined]
    assert (d.rout_swift, d.rout_pursuer_attack) == (2, 2)  # type: ignore[attr-defined]


def test_minions_option() -> None:
    from fracas.rules.sas.procedures.damage import minion_check

    g = fighter("g", "goblin")
    assert minion_check(g, "superficial")[0].kind == "dead"
    orc = plain("o", minion=2)
    assert minion_check(orc, "superficial") == []
    assert minion_check(orc, "light")[0].kind == "dead"


# ---- the data itself -------------------------------------------------------------------------------------
def test_bestiary_builds_and_sizes_match_reference() -> None:
    t = tables()
    for cid in t.bestiary:
        build_stats(cid)
    expect = {"goblin": 3, "kobold": 3, "ogre": 10, "warhorse": 7, "pony": 4, "warg": 7, "aboleth": 6}
    assert {k: build_stats(k).wound_level for k in expect} == expect
    assert build_stats("fighter").wound_level == 5  # Human 4 + Toughness 1
    assert [s.wound_level for s in t.sizes.sizes] == [
        1,
        1,
        2,
        3,
        3,
        4,
        4,
        5,
        6,
        7,
        10,
        15,
        20,
        30,
        40,
        50,
        100,
        200,
    ]


def test_bad_template_is_an_encounter_error() -> None:
    from fracas.errors import EncounterFileError

    with pytest.raises(EncounterFileError, match="allowed"):
        build_stats("dragon-king")
    with pytest.raises(EncounterFileError, match="size"):
        build_stats("", {"kind": "human", "size": "mega", "movement": 6})


@given(st.integers(0, 2**32))
def test_any_attack_and_damage_sequence_is_legal(seed: int) -> None:
    dice = RandomDice(seed)
    a, d = fighter("a", "fighter"), fighter("d", "goblin")
    r = resolve_attack(a, d, Situation(), dice)
    assert r.hit == (r.roll.total >= 10 and r.roll.face != 1)
    if r.hit:
        dmg = resolve_damage(a, d, Situation(), dice, r.critical)
        assert dmg.markers in (0, 1, 2, 3)


def test_knocked_down_by_a_fumble_may_drop_the_weapon() -> None:
    effects = roll_fumble(plain("x"), ScriptedDice([4, 50])).effects
    assert {e.kind for e in effects} == {"condition", "next", "drop-weapon"}


def test_regenerating_parts_and_wound_healing_times() -> None:
    troll = plain("t", regenerates=True)
    troll.hurt.append("arm")
    troll.broken.append("leg")
    assert regenerate_parts(troll, ScriptedDice([4, 10, 10, 10])) == [
        ("arm", "hurt", 4),
        ("leg", "broken", 30),
    ]
    assert regenerate_parts(plain("h"), ScriptedDice([])) == []
    assert wound_heals_in("light", ScriptedDice([3])) == (3, "days")
    assert wound_heals_in("major", ScriptedDice([2])) == (2, "weeks")
