"""Every row of every Spells & Swords table, forced with scripted dice and checked against the text.

The expected values below are typed from /work/shared/rules/004_0d1ac50b56c23caf.txt (section named in each
test), independently of data/*.toml, so a wrong number in the data fails here.
"""

from __future__ import annotations

import pytest

from fracas.dice.source import ScriptedDice
from fracas.rules.sas.model import Fighter, build_stats
from fracas.rules.sas.procedures.attack import Situation, attack_modifiers, range_band, resolve_attack
from fracas.rules.sas.procedures.damage import damage_modifiers, resolve_damage
from fracas.rules.sas.procedures.movement import movement
from fracas.rules.sas.procedures.rolls import roll_penalties
from fracas.rules.sas.procedures.wounds import (
    bleed_roll,
    break_part,
    confusion_roll,
    hurt_part,
    light_wound,
    major_wound,
    roll_body_part,
    roll_fumble,
)
from fracas.rules.sas.tables import tables


def plain(fid: str = "x", **kw: object) -> Fighter:
    base: dict[str, object] = {
        "kind": "human",
        "size": "human",
        "movement": 6,
        "label": fid,
        "weapons": ["long-sword"],
    }
    base.update(kw)
    return Fighter(fid, build_stats("", base))


def monster(fid: str = "m", **kw: object) -> Fighter:
    return plain(fid, kind="monster", **kw)


# ---- ATTACK TABLE -------------------------------------------------------------------------------------
ATTACK = {1: "auto-fumble", 2: "fumble", 3: "fumble", 9: "weapons-locked", 20: "critical-hit"}
ATTACK.update({f: "miss" for f in range(4, 9)})
ATTACK.update({f: "hit" for f in range(10, 20)})


@pytest.mark.parametrize("face", range(1, 21))
def test_attack_table_every_face(face: int) -> None:
    r = resolve_attack(plain("a"), plain("d"), Situation(), ScriptedDice([face]))
    assert r.roll.row == ATTACK[face]
    assert r.hit == (face >= 10)
    assert r.fumble == (face <= 3)
    assert r.critical == (face == 20)
    assert r.damage_bonus == (4 if face == 20 else 0)


def test_weapons_locked_gives_foe_attack_minus_2() -> None:
    r = resolve_attack(plain("a"), plain("d"), Situation(), ScriptedDice([9]))
    assert [(e.kind, e.target, e.name, e.value) for e in r.effects] == [("next", "d", "attack", -2)]


def test_natural_one_is_auto_fumble_whatever_the_bonus() -> None:
    r = resolve_attack(plain("a", attack=15), plain("d"), Situation(), ScriptedDice([1]))
    assert r.roll.row == "auto-fumble" and r.roll.total == 16


def test_modified_total_reads_the_table() -> None:
    # 18 + 2 = 20+: critical; 11 - 8 = 3: fumble; 2 - 5 = -3 (not a natural 1): fumble
    assert resolve_attack(plain("a", attack=2), plain("d"), Situation(), ScriptedDice([18])).critical
    r = resolve_attack(plain("a"), plain("d", defense=8), Situation(), ScriptedDice([11]))
    assert r.roll.row == "fumble"
    r = resolve_attack(plain("a"), plain("d", defense=5), Situation(), ScriptedDice([2]))
    assert r.roll.row == "fumble"


# ---- ATTACK TABLE MODIFIERS -------------------------------------------------------------------------
MODS_TEXT = {
    "attacker-prone": -2, "defender-prone": 2, "attacker-blinded": -6, "defender-blinded": 6, "surprise": 2,
    "behind": 2, "flank": 1, "defender-smaller": -1, "defender-larger": 1, "range-hth": 0, "range-close": 1,
    "range-short": 0, "range-medium": 0, "range-long": 0, "range-far": -1, "defender-surrounded": 1,
    "defender-immobilized": 3, "defender-partially-immobilized": 1, "attacker-partially-immobilized": -2,
    "defender-grappled": 0, "longer-weapon": 1, "height": 1, "difficult-ground": -2, "tight-position": -2,
    "reduced-visibility": -2, "attacker-fatigued": -1, "attacker-encumbered": -1, "good-cover": -4,
    "partial-cover": -2, "good-concealment": -3, "partial-concealment": -1, "defender-moved": -1,
    "hard-maneuver": -2, "small-shield": -1, "medium-shield": -1, "large-shield": -2,
}  # fmt: skip


def test_attack_modifier_lines_match_text() -> None:
    mods = tables().attack.modifiers
    assert {k: m.value for k, m in mods.items()} == MODS_TEXT
    assert list(mods) == list(MODS_TEXT)  # the text's order
    assert {k for k, m in mods.items() if m.ranged_only} == {
        "good-cover", "partial-cover", "good-concealment", "partial-concealment", "defender-moved"
    }  # fmt: skip
    bands = {k: (m.min_m, m.max_m) for k, m in mods.items() if m.max_m}
    assert bands == {
        "range-close": (2, 5), "range-short": (5, 20), "range-medium": (21, 50), "range-long": (51, 150),
        "range-far": (151, 400),
    }  # fmt: skip
    assert mods["defender-grappled"].other_grappler_percent == 50
    assert mods["small-shield"].max_attacks_per_turn == 1
    assert (mods["medium-shield"].swift, mods["large-shield"].swift) == (-1, -2)


def _keys(att: Fighter, dfn: Fighter, sit: Situation) -> dict[str, int]:
    out = {}
    for m in attack_modifiers(att, dfn, sit):
        key = m.rule.split(" ")[0].removeprefix("sas/")
        out[key] = out.get(key, 0) + m.value
    return out


@pytest.mark.parametrize(
    ("setup", "key", "value"),
    [
        (lambda a, d: a.conditions.update({"knocked-down": None}), "attack-modifiers/attacker-prone", -2),
        (lambda a, d: d.conditions.update({"knocked-down": None}), "attack-modifiers/defender-prone", 2),
        (lambda a, d: a.conditions.update({"blinded": None}), "attack-modifiers/attacker-blinded", -6),
        (lambda a, d: d.conditions.update({"blinded": None}), "attack-modifiers/defender-blinded", 6),
        (lambda a, d: d.conditions.update({"immobilized": None}), "attack-modifiers/defender-immobilized", 3),
        (lambda a, d: d.conditions.update({"partial-immobilization": None}),
         "attack-modifiers/defender-partially-immobilized", 1),
        (lambda a, d: a.conditions.update({"partial-immobilization": None}),
         "attack-modifiers/attacker-partially-immobilized", -2),
        (lambda a, d: a.conditions.update({"fatigued": None}), "attack-modifiers/attacker-fatigued", -1),
        (lambda a, d: d.conditions.update({"confusion": None}), "confusion", 2),
        (lambda a, d: d.conditions.update({"knocked-out": None}), "knocked-out", 3),
        (lambda a, d: d.conditions.update({"choke": None}), "choke", 1),
        (lambda a, d: a.conditions.update({"stunned": None}), "stunned", -2),
        (lambda a, d: a.conditions.update({"shock": None}), "shock", -3),
        (lambda a, d: a.conditions.update({"sickened": None}), "sickened", -2),
        (lambda a, d: a.conditions.update({"chill": None}), "chill", -1),
        (lambda a, d: a.conditions.update({"partial-blindness": None}), "partial-blindness", -1),
    ],
)  # fmt: skip
def test_condition_lines(setup, key: str, value: int) -> None:  # type: ignore[no-untyped-def]
    a, d = plain("a"), plain("d")
    setup(a, d)
    assert _keys(a, d, Situation())[key] == value


def BOW30(**kw: object) -> Situation:  # noqa: N802
    return Situation(ranged=True, distance_m=30, weapon="short-bow", **kw)  # type: ignore[arg-type]


BOW3 = Situation(ranged=True, distance_m=3, weapon="short-bow")


@pytest.mark.parametrize(
    ("sit", "key", "value"),
    [
        (Situation(surprise=True), "attack-modifiers/surprise", 2),
        (Situation(hidden=True), "attack-modifiers/surprise", 2),
        (Situation(behind=True), "attack-modifiers/behind", 2),
        (Situation(flank=True), "attack-modifiers/flank", 1),
        (Situation(adjacent_foes=2), "attack-modifiers/defender-surrounded", 1),
        (Situation(height=True), "attack-modifiers/height", 1),
        (Situation(difficult_ground=True), "attack-modifiers/difficult-ground", -2),
        (Situation(tight=True), "attack-modifiers/tight-position", -2),
        (Situation(reduced_visibility=True), "attack-modifiers/reduced-visibility", -2),
        (Situation(encumbered=True), "attack-modifiers/attacker-encumbered", -1),
        (Situation(hard_maneuver=True), "attack-modifiers/hard-maneuver", -2),
        (BOW3, "attack-modifiers/range-close", 1),
        (BOW30(cover="good"), "attack-modifiers/good-cover", -4),
        (BOW30(cover="partial"), "attack-modifiers/partial-cover", -2),
        (BOW30(concealment="good"), "attack-modifiers/good-concealment", -3),
        (BOW30(concealment="partial"), "attack-modifiers/partial-concealment", -1),
        (BOW30(defender_moved=True), "attack-modifiers/defender-moved", -1),
        (Situation(action="hack-and-slash"), "actions/hack-and-slash", 1),
        (BOW30(action="aimed-shot"), "actions/aimed-shot", 1),
        (Situation(action="leap-attack"), "actions/leap-attack", 1),
        (Situation(action="charge"), "charge", 1),
        (Situation(withdrawal=True), "disengage/fighting-withdrawal", -2),
        (Situation(pursuing_rout=True), "disengage/rout", 2),
        (Situation(dual_wield=True), "dual-wield", -2),
        (Situation(underwater=True, weapon="long-sword"), "underwater", -3),
        (Situation(horde=7), "horde-attack", 3),
        (Situation(dog_pile=12), "dog-pile", 6),
        (Situation(disarm=True), "disarmed", -4),
    ],
)  # fmt: skip
def test_situation_lines(sit: Situation, key: str, value: int) -> None:
    a = plain("a", weapons=["long-sword", "short-bow"])
    assert _keys(a, plain("d"), sit)[key] == value


def test_far_range_and_hth_range() -> None:
    a = plain("a", weapons=["light-crossbow"])
    a2 = Fighter(
        "c", build_stats("", {"kind": "human", "size": "human", "movement": 6, "weapons": ["long-bow"]})
    )
    assert range_band(160) == "far" and range_band(100) == "long" and range_band(1) == "hth"
    assert range_band(30, underwater=True) == "long"  # ranges halved underwater
    with pytest.raises(Exception, match="HTH"):
        attack_modifiers(a, plain("d"), Situation(ranged=True, distance_m=1))
    with pytest.raises(Exception, match="does not reach"):
        attack_modifiers(a2, plain("d"), Situation(ranged=True, distance_m=200))


def test_size_classes_two_or_more() -> None:
    goblin, human, ogre = plain("g", size="small"), plain("h"), plain("o", size="giant")
    assert _keys(human, goblin, Situation())["attack-modifiers/defender-smaller"] == -1
    assert _keys(human, ogre, Situation())["attack-modifiers/defender-larger"] == 1
    assert "attack-modifiers/defender-smaller" not in _keys(human, plain("s", size="short"), Situation())


def test_small_shield_one_attack_per_turn() -> None:
    d = plain("d", shield="small")
    assert _keys(plain("a"), d, Situation())["attack-modifiers/small-shield"] == -1
    d.shield_used = 1
    assert "attack-modifiers/small-shield" not in _keys(plain("a"), d, Situation())


def test_defense_and_dodge_lost_when_immobilized() -> None:
    d = plain("d", defense=1, dodge=2)
    assert _keys(plain("a"), d, Situation())["attacking"] == -3
    d.conditions["immobilized"] = None
    assert _keys(plain("a"), d, Situation())["attacking"] == -1


def test_other_grappler_50_percent() -> None:
    r = resolve_attack(plain("a"), plain("d"), Situation(defender_grappled=True), ScriptedDice([12, 50]))
    assert r.other_grappler
    r = resolve_attack(plain("a"), plain("d"), Situation(defender_grappled=True), ScriptedDice([12, 51]))
    assert not r.other_grappler


def test_leap_attack_miss_fumbles() -> None:
    r = resolve_attack(plain("a"), plain("d"), Situation(action="leap-attack"), ScriptedDice([5]))
    assert r.fumble and not r.hit


# ---- FUMBLE TABLES ------------------------------------------------------------------------------------
HTH = {1: "drop-weapon", 2: "weapon-breaks", 3: "body-part-hurt", 4: "knocked-down", 5: "disorientated",
       6: "stagger", 7: "friendly-fire", 8: "injure-self"}  # fmt: skip


@pytest.mark.parametrize("face", range(1, 9))
def test_fumble_hth(face: int) -> None:
    # body part: Leg; knocked down: 1D100 51, no drop (KNOCKED DOWN 50%); injure self: Light Wound 6 (scar)
    extra = {3: [4], 4: [51], 8: [6]}.get(face, [])
    r = roll_fumble(plain("x"), ScriptedDice([face, *extra]))
    assert r.roll.row == HTH[face] and r.roll.die == 8
    kinds = {(e.kind, e.name, e.value) for e in r.effects}
    expected = {
        1: {("drop-weapon", "", 0)},
        2: {("weapon-breaks", "", 0)},
        3: {("hurt", "leg", 0)},
        4: {("condition", "knocked-down", 0), ("next", "initiative", -1)},
        5: {("next", "miss_action", 1)},
        6: {("condition", "staggered", 0), ("next", "defense", -1)},
        7: {("friendly-fire", "", 0)},
        8: {("stat", "appearance", -1)},
    }[face]
    assert kinds == expected


RANGED = {1: "drop-weapon", 2: "drop-weapon", 3: "drop-weapon", 4: "weapon-breaks", 5: "weapon-breaks",
          6: "friendly-fire"}  # fmt: skip


@pytest.mark.parametrize("face", range(1, 7))
def test_fumble_ranged(face: int) -> None:
    r = roll_fumble(plain("x", weapons=["short-bow"]), ScriptedDice([face]))
    assert r.roll.row == RANGED[face] and r.roll.die == 6
    assert any(e.name == "initiative" and e.value == -1 for e in r.effects) == (face <= 5)


MONSTER = {1: ("miss_action", 1), 2: ("miss_attack", 1), 3: ("attack", -2), 4: ("foe_attack", 2),
           5: ("foe_damage", 2), 6: ("knocked-down", 0)}  # fmt: skip


@pytest.mark.parametrize("face", range(1, 7))
def test_monster_fumbles(face: int) -> None:
    r = roll_fumble(monster(), ScriptedDice([face, 51]))
    assert r.roll.table == "fumble-monster"
    (e,) = r.effects
    assert (e.name, e.value) == MONSTER[face]


def test_monster_fumble_bonuses_reach_foes() -> None:
    m = monster()
    m.next.update({"foe_attack": 2, "foe_damage": 2})
    assert _keys(plain("a"), m, Situation())["monster-fumbles"] == 2
    dm = damage_modifiers(plain("a"), m, Situation())
    assert [x.value for x in dm if "monster-fumbles" in x.rule] == [2]


# ---- DAMAGE TABLE --------------------------------------------------------------------------------------
DAMAGE = {**{f: ("superficial", 1) for f in range(1, 8)}, **{f: ("light", 2) for f in range(8, 14)},
          **{f: ("heavy", 3) for f in range(14, 19)}, 19: ("mortal", 0), 20: ("mortal", 0)}  # fmt: skip


@pytest.mark.parametrize("face", range(1, 21))
def test_damage_table_every_face(face: int) -> None:
    # 14-16 and 17-18 (a Major Wound) knock down: the 50% drop die (51: kept), MAJOR WOUNDS
    follow = {5: [2], 6: [2], 7: [2], 11: [6], 12: [6], 13: [6], 17: [2, 51], 18: [2, 51]}.get(face, [51])
    d = plain("d")
    r = resolve_damage(plain("a"), d, Situation(), ScriptedDice([face, *follow]))
    assert (r.wound, r.markers) == DAMAGE[face]
    kinds = [e.kind for e in r.effects]
    if face >= 19:
        assert kinds == ["dead"]
    else:
        assert kinds[0] == "markers" and r.effects[0].value == DAMAGE[face][1]
    if 5 <= face <= 7:
        assert "fumble" in kinds and r.effects[1].name == "weapon-breaks"  # foe rolled 1D6 -> 2
    if 11 <= face <= 13:
        assert ("stat", "appearance") in [(e.kind, e.name) for e in r.effects]  # Light Wound 6
    if face in (17, 18):
        assert ("condition", "partial-blindness") in [(e.kind, e.name) for e in r.effects]  # Major 2
    if 14 <= face <= 18:
        assert ("condition", "knocked-down") in [(e.kind, e.name) for e in r.effects]


def test_damage_foe_fumble_is_a_d6() -> None:
    r = resolve_damage(plain("a"), plain("d"), Situation(), ScriptedDice([6, 6]))
    fum = [e for e in r.effects if e.kind == "fumble"]
    assert fum and fum[0].name == "stagger"


def test_damage_below_one_is_superficial() -> None:
    r = resolve_damage(
        plain("a"), plain("d", armor="super-heavy", helmet=True), Situation(), ScriptedDice([3])
    )
    assert r.roll is not None and r.roll.total == -3 and r.markers == 1


WEAPONS_TEXT = {"large": 2, "ordinary": 0, "lesser": -1, "light": -2, "brawl": -3, "no-damage": 0}
ARMOR_TEXT = {  # armor, initiative, swift, stealth
    "none": (0, 0, 0, 0), "very-light": (1, 0, 0, 0), "light": (2, 0, -1, 0), "medium": (3, 0, -1, -1),
    "heavy": (4, -1, -1, -1), "very-heavy": (5, -1, -1, -2), "super-heavy": (6, -1, -2, -4),
}  # fmt: skip


def test_damage_modifier_list_matches_text() -> None:
    t = tables().damage
    assert {k: w.value for k, w in t.weapon_classes.items()} == WEAPONS_TEXT
    assert [k for k, w in t.weapon_classes.items() if w.no_damage] == ["no-damage"]
    assert {k: (a.armor, a.initiative, a.swift, a.stealth) for k, a in t.armor_classes.items()} == ARMOR_TEXT
    assert t.helmet.alertness == -2


@pytest.mark.parametrize(("armor", "helmet", "value"), [
    ("none", False, 0), ("none", True, 1), ("very-light", False, 1), ("very-light", True, 1),
    ("light", False, 1), ("light", True, 2), ("medium", False, 2), ("super-heavy", False, 5),
    ("super-heavy", True, 6),
])  # fmt: skip
def test_helmet_rule(armor: str, helmet: bool, value: int) -> None:
    s = build_stats("", {"kind": "human", "size": "human", "movement": 6, "armor": armor, "helmet": helmet})
    assert s.armor == value
    assert s.alertness == (-2 if helmet else 0)


def test_armor_side_effects_in_stats() -> None:
    s = build_stats(
        "", {"kind": "human", "size": "human", "movement": 6, "armor": "super-heavy", "shield": "large"}
    )
    assert (s.initiative, s.swift, s.stealth) == (-1, -4, -4)


def test_damage_modifiers_each() -> None:
    d = plain("d", armor="heavy", helmet=True)
    a = plain("a", damage=2, weapons=["great-sword"])
    mods = damage_modifiers(a, d, Situation(action="mighty-blow"), critical=True)
    assert [m.value for m in mods] == [2, 2, 4, 1, -4]
    assert (
        sum(m.value for m in damage_modifiers(plain("a", weapons=["dagger"]), plain("d"), Situation())) == -1
    )
    assert (
        sum(m.value for m in damage_modifiers(plain("a", weapons=["torch"]), plain("d"), Situation())) == -2
    )
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(brawl_plain=True))) == -3
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(action="charge"))) == 2
    assert (
        sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(action="hurling-charge")))
        == 1
    )
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(dual_wield=True))) == -1
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(horde=5))) == 2
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(burn=True))) == -1
    assert sum(m.value for m in damage_modifiers(plain("a"), plain("d"), Situation(wall=True))) == -1


def test_no_damage_weapon_entangles() -> None:
    r = resolve_damage(plain("a", weapons=["net"]), plain("d"), Situation(), ScriptedDice([]))
    assert r.roll is None and [(e.kind, e.name) for e in r.effects] == [
        ("condition", "partial-immobilization")
    ]


def test_shock_ignores_metal_armor() -> None:
    d = plain("d", armor="medium", helmet=True)
    mods = damage_modifiers(plain("a"), d, Situation(shock=True))
    assert sum(m.value for m in mods) == 0


# ---- WOUND TABLES ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("faces", "expect"), [
    ([1, 3, 4], {("condition", "knocked-out", 7), ("condition", "knocked-down", None),
                 ("drop-weapon", "", None)}),
    ([2, 26, 1], {("hurt", "hand", None)}),
    ([2, 25, 4], {("broken", "leg", None)}),
    ([3, 1], {("fumble", "drop-weapon", None), ("drop-weapon", "", None)}),
    ([4], {("next", "miss_attack", None)}),
    ([5, 4], {("condition", "stunned", 4)}),
    ([6], {("stat", "appearance", None)}),
])  # fmt: skip
def test_light_wound_table(faces: list[int], expect: set[tuple[str, str, int | None]]) -> None:
    r = light_wound(plain("x"), ScriptedDice(faces))
    assert r.roll.row == tables().wounds.light.rows[faces[0] - 1].id
    assert {(e.kind, e.name, e.rounds) for e in r.effects} == expect


def test_light_wound_fumble_is_1d6_on_hth_table() -> None:
    with pytest.raises(Exception, match="d6"):
        light_wound(plain("x"), ScriptedDice([3, 7]))


@pytest.mark.parametrize(("faces", "cut", "expect"), [
    ([1, 9, 51], "cut", {("broken", "chest")}),
    ([2, 51], "cut", {("condition", "partial-blindness"), ("permanent", "eye")}),
    ([3, 2, 51], "cut", {("condition", "knocked-out"), ("condition", "knocked-down"), ("drop-weapon", "")}),
    ([4, 10, 51], "cut", {("lost-limb", "leg")}),
    ([4, 90, 51], "cut", {("lost-limb", "arm"), ("drop-weapon", "")}),
    ([5, 10, 10, 51], "cut", {("bleed", "")}),
    ([6, 4, 51], "blunt", {("broken", "leg")}),
    ([7, 60, 51], "cut", {("lost-limb", "arm"), ("drop-weapon", "")}),
    ([8, 1, 1, 51], "impale", {("bleed", "")}),
])  # fmt: skip
def test_major_wound_table(faces: list[int], cut: str, expect: set[tuple[str, str]]) -> None:
    r = major_wound(plain("x"), cut, ScriptedDice(faces))
    got = {(e.kind, e.name) for e in r.effects} - {("condition", "knocked-down"), ("next", "miss_action")}
    assert got | (expect & {("condition", "knocked-down")}) == expect
    # Most Major Wounds knock prone and cost the next action (setting major_wound_prone)
    assert ("next", "miss_action") in {(e.kind, e.name) for e in r.effects}


def test_skull_crack_hours_and_bleed_minutes() -> None:
    r = major_wound(plain("x"), "cut", ScriptedDice([3, 2, 51]))
    assert r.effects[0].rounds == 2 * 360
    r = major_wound(plain("x"), "cut", ScriptedDice([5, 3, 4, 51]))
    assert r.effects[0].rounds == 7 * 6


@pytest.mark.parametrize(("faces", "expect"), [
    ([1], ("markers", "", 1, None)),
    ([2, 3, 3], ("condition", "knocked-out", 0, 6)),
    ([3, 1], ("fumble", "drop-weapon", 0, None)),
    ([4], ("condition", "dizzy", 0, 0)),  # the round beginning only (see test_sas_conditions)
    ([5], ("stat", "strength", -1, None)),
    ([6], ("stat", "strength", -1, None)),
])  # fmt: skip
def test_bleed_table(faces: list[int], expect: tuple[str, str, int, int | None]) -> None:
    r = bleed_roll(plain("x"), ScriptedDice(faces))
    e = r.effects[0]
    assert (e.kind, e.name, e.value, e.rounds) == expect


def test_bleed_hazy_uses_the_full_fumble_die() -> None:
    r = bleed_roll(plain("x"), ScriptedDice([3, 8, 6]))  # HTH 1D8 -> 8 injure self -> scar
    assert r.effects[0].name == "injure-self"


CONFUSION = ["stand", "go-prone", "wander-half", "drop-items", "yell", "attack-random", "laugh-cry",
             "jump-point", "wander-full", "play"]  # fmt: skip
PARTS = ["hand", "foot", "arm", "leg", "knee", "head", "neck", "groin", "chest", "guts"]


@pytest.mark.parametrize("face", range(1, 11))
def test_confusion_and_body_part_tables(face: int) -> None:
    assert confusion_roll(plain("x"), ScriptedDice([face])).row == CONFUSION[face - 1]
    assert roll_body_part(ScriptedDice([face])).row == PARTS[face - 1]


@pytest.mark.parametrize("part", PARTS)
def test_hurt_and_broken_parts(part: str) -> None:
    x = plain("x")
    hurt = hurt_part(x, part, ScriptedDice([3]))
    assert (hurt[0].kind, hurt[0].name) == ("hurt", part)
    assert any(e.name == "stunned" and e.rounds == 3 for e in hurt) == (part == "head")
    broken = break_part(x, part, ScriptedDice([1]))
    kinds = {e.kind for e in broken}
    assert ("dead" in kinds) == (part == "neck")
    assert any(e.name == "knocked-out" for e in broken) == (part == "head")
    assert ("drop-weapon" in kinds) == (part in ("arm", "hand", "head"))
    # penalties: -1 per hurt part, -2 per broken part
    y = plain("y")
    y.hurt.append(part)
    assert sum(m.value for m in roll_penalties(y, "check")) == -1
    y.broken.append(part)
    assert sum(m.value for m in roll_penalties(y, "check")) == -3


def test_body_part_movement() -> None:
    x = plain("x")
    base = movement(x)
    for part, hurt, broken in [
        ("leg", -2, -4),
        ("knee", -2, -4),
        ("foot", -2, -4),
        ("groin", -2, 0),
        ("arm", 0, 0),
    ]:
        y = plain("y")
        y.hurt.append(part)
        assert movement(y) - base == hurt, part
        z = plain("z")
        z.broken.append(part)
        assert movement(z) - base == broken, part


def test_permanent_injuries_table() -> None:
    p = tables().wounds.permanent
    assert p.percent == 25
    eff = {k: {f: v for f, v in e.model_dump().items() if v} for k, e in p.effects.items()}
    assert eff == {
        "head": {"all_rolls": -1}, "leg": {"swift": -1}, "knee": {"swift": -1}, "foot": {"swift": -1},
        "arm": {"strength": -1}, "neck": {"strength": -1}, "groin": {"dodge": -1}, "hand": {"hand_rolls": -2},
        "chest": {"toughness": -1}, "guts": {"toughness": -1},
    }  # fmt: skip
