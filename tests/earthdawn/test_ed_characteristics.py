"""ED4 derived characteristics (reference/earthdawn.md section 2.1) and the ED4 text's own numbers.

ED4 text = /work/shared/rules/000_4b24aca42c3b6366.txt (pages as the text's own cross-references give them).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.errors import UsageError
from fracas.rules.earthdawn import characteristics as ch

values = st.integers(min_value=1, max_value=ch.MAX_ATTRIBUTE_VALUE)


@pytest.mark.parametrize(
    ("value", "step"),
    [(1, 2), (3, 2), (4, 3), (6, 3), (7, 4), (9, 4), (10, 5), (12, 5), (13, 6), (15, 6), (16, 7), (18, 7),
     (19, 8), (21, 8)],
)  # fmt: skip
def test_attribute_step_reference_check_values(value: int, step: int) -> None:
    # reference 2.1: 1-3 -> 2, 4-6 -> 3, 7-9 -> 4, 10-12 -> 5, 13-15 -> 6, 16-18 -> 7, 19-21 -> 8
    assert ch.attribute_step(value) == step


@pytest.mark.parametrize(("value", "defense"), [(1, 2), (2, 2), (3, 3), (4, 3), (13, 8), (14, 8), (15, 9)])
def test_defense_reference_check_values(value: int, defense: int) -> None:
    assert ch.defense_rating(value) == defense


@pytest.mark.parametrize(("wil", "ma"), [(4, 0), (5, 1), (9, 1), (10, 2), (15, 3)])
def test_natural_mystic_armor_reference(wil: int, ma: int) -> None:
    assert ch.natural_mystic_armor(wil) == ma


def test_health_ratings_reference_check_values() -> None:
    # reference 2.1: TOU 10 -> WT 7, UR 20, DR 25; TOU 15 -> WT 10; TOU 25 -> DR 60
    assert ch.wound_threshold(10) == 7
    assert ch.wound_threshold(15) == 10
    assert ch.unconsciousness_rating(10) == 20
    assert ch.death_rating(10) == 25
    assert ch.death_rating(25) == 60


@pytest.mark.parametrize(("tou", "tests"), [(1, 1), (6, 1), (7, 2), (12, 2), (13, 3), (18, 3), (19, 4)])
def test_recovery_tests_reference(tou: int, tests: int) -> None:
    assert ch.recovery_tests_per_day(tou) == tests


def test_carrying_capacity_reference() -> None:
    assert ch.carrying_capacity(10) == 80
    assert ch.carrying_capacity(15) == 155


def test_tomas_wound_threshold_8_from_toughness_11_or_12() -> None:
    # ED4 p.378: "Tomas the Wizard has a Wound Threshold of 8"; the formula gives 8 for exactly TOU 11-12
    assert [t for t in range(1, 40) if ch.wound_threshold(t) == 8] == [11, 12]


def test_thrak_strength_step_7_and_knockdown_on_strength() -> None:
    # ED4 p.377: Strength Step 7 (STR 16-18); p.378: knockdown is tested on the Strength Step
    assert [v for v in range(1, 40) if ch.attribute_step(v) == 7] == [16, 17, 18]
    assert ch.knockdown_step(17) == ch.attribute_step(17)


def test_mica_physical_defense_10() -> None:
    # ED4 p.388: Mica's Physical Defense is 10 -> Dexterity 17 or 18
    assert [v for v in range(1, 40) if ch.defense_rating(v) == 10] == [17, 18]


def test_recovery_step_is_toughness_step() -> None:
    # ED4 p.380: the Recovery test step "is based on the character's Toughness Step"
    assert ch.recovery_step(21) == ch.attribute_step(21) == 8


def test_initiative_step_armor_and_shield_never_below_one() -> None:
    # ED4 p.371: armor and shields lower the Initiative Step; never voluntarily below Step 1
    assert ch.initiative_step(7, 1, 2) == 4
    assert ch.initiative_step(3, 5, 2) == 1
    with pytest.raises(UsageError):
        ch.initiative_step(7, -1)


def test_ed4_karma() -> None:
    assert ch.ED4_KARMA_STEP == 4
    assert ch.ed4_karma_max(5, 3) == 15
    with pytest.raises(UsageError):
        ch.ed4_karma_max(5, 0)


def test_wound_penalties() -> None:
    # ED4 p.381: -1 per Wound (2 Wounds -> -2, 4 -> -4); ED1 [verify]: the first Wound is free
    assert ch.ed4_wound_penalty(2) == 2
    assert ch.ed4_wound_penalty(4) == 4
    assert [ch.ed1_wound_penalty(w) for w in range(5)] == [0, 0, 1, 2, 3]
    with pytest.raises(UsageError):
        ch.ed1_wound_penalty(-1)


@pytest.mark.parametrize("bad", [0, -3, ch.MAX_ATTRIBUTE_VALUE + 1])
def test_attribute_values_out_of_range_refused(bad: int) -> None:
    with pytest.raises(UsageError, match="between 1 and"):
        ch.attribute_step(bad)


def test_normalize_attributes() -> None:
    got = ch.normalize_attributes({"DEX": 1, "str": 2, "toughness": 3, "per": 4, "wil": 5, "cha": 6})
    assert got == {
        "dexterity": 1,
        "strength": 2,
        "toughness": 3,
        "perception": 4,
        "willpower": 5,
        "charisma": 6,
    }
    with pytest.raises(UsageError, match="missing attribute values: charisma"):
        ch.normalize_attributes({"dex": 1, "str": 2, "tou": 3, "per": 4, "wil": 5})
    with pytest.raises(UsageError, match="unknown attribute 'luck'"):
        ch.normalize_attributes({"luck": 3})


@given(values)
def test_ed4_formulas_properties(v: int) -> None:
    # one step more every three values; Defense = (v+1)//2 + 1; the Death Rating exceeds the
    # Unconsciousness Rating by the Toughness step; one Recovery test more every six points of Toughness
    if v + 3 <= ch.MAX_ATTRIBUTE_VALUE:
        assert ch.attribute_step(v + 3) == ch.attribute_step(v) + 1
    assert ch.defense_rating(v) == (v + 1) // 2 + 1
    assert ch.death_rating(v) - ch.unconsciousness_rating(v) == ch.attribute_step(v)
    assert (ch.recovery_tests_per_day(v) - 1) * 6 < v <= ch.recovery_tests_per_day(v) * 6
    assert ch.wound_threshold(v) <= ch.unconsciousness_rating(v) or v == 1
