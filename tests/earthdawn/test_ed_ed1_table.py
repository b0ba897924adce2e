"""The ED1 Attribute Table (ed1/data/attributes.toml) against its formulas (reference/earthdawn.md 2.2),
ED1 movement, karma per race and the ED1 character constructor."""

from __future__ import annotations

import pytest

from fracas.rules.earthdawn import catalog
from fracas.rules.earthdawn import characteristics as ch
from fracas.rules.earthdawn.stats import EarthdawnStats


@pytest.mark.parametrize("value", range(1, 31))
def test_every_row_matches_the_formulas(value: int) -> None:
    assert catalog.ed1_attribute_row(value) == ch.ed1_formula_row(value)


def test_transcribed_values_spot_checks() -> None:
    # values read off the reference table, including the compressed 26-30 row
    r = catalog.ed1_attribute_row
    assert (r(1).death, r(1).unconsciousness, r(1).wound_threshold) == (19, 10, 3)
    assert r(21).unconsciousness == 39  # the (T-1)//10 term adds 2 here
    assert r(22).wound_threshold == 13  # the (T+1)//22 term
    assert r(27).wound_threshold == 15  # the T//27 term
    assert (r(30).step, r(30).defense, r(30).death, r(30).mystic_armor) == (11, 15, 58, 7)
    assert r(14).mystic_armor == 2
    assert r(2).recovery_tests == 0  # [verify]: ED1 may print 0.5


def test_table_outside_1_to_30_refused() -> None:
    with pytest.raises(Exception, match="values 1-30"):
        catalog.ed1_attribute_row(31)


@pytest.mark.parametrize(
    ("dex", "combat"), [(1, 6), (5, 10), (6, 12), (10, 20), (20, 40), (21, 43), (25, 55)]
)
def test_ed1_combat_movement_formula(dex: int, combat: int) -> None:
    # reference 2.2 [single, verify]: v+5 (v<6), 2v (6-20), 3v-20 (>=21); Full = 2 x Combat
    assert ch.ed1_combat_movement(dex) == combat
    assert catalog.ed1_attribute_row(dex).full_movement == 2 * combat


@pytest.mark.parametrize(
    ("race", "step", "max_karma"),
    [("dwarf", 4, 25), ("elf", 4, 25), ("human", 5, 40), ("obsidiman", 3, 20), ("ork", 5, 40),
     ("troll", 3, 20), ("T'skrang", 4, 25), ("windling", 6, 60)],
)  # fmt: skip
def test_ed1_karma_per_race(race: str, step: int, max_karma: int) -> None:
    row = catalog.race(race, "ed1")
    assert (row.karma_step, row.max_karma) == (step, max_karma)


def test_ed1_character_uses_the_table_not_the_ed4_formulas() -> None:
    attrs = {"dex": 14, "str": 16, "tou": 21, "per": 12, "wil": 17, "cha": 9}
    ed1 = EarthdawnStats.from_character(
        "x", "ed1", "human", attrs, circle=1, catalog=catalog.get_catalog("ed1")
    )
    ed4 = EarthdawnStats.from_character(
        "x", "ed4", "human", attrs, circle=1, catalog=catalog.get_catalog("ed4")
    )
    # ED1 table: DEX 14 -> 8, TOU 21 -> death 46, uncon 39, WT 13, WIL 17 -> MA 3
    assert (ed1.physical_defense, ed1.death_rating, ed1.unconsciousness_rating) == (8, 46, 39)
    assert (ed1.wound_threshold, ed1.mystic_armor, ed1.recovery_tests_per_day) == (13, 3, 4)
    # ED4 formulas differ: DR = 2 x 21 + 8, WT = 11 + 2, MA = 17 // 5
    assert (ed4.death_rating, ed4.unconsciousness_rating, ed4.wound_threshold, ed4.mystic_armor) == (
        50,
        42,
        13,
        3,
    )
    # ED1 movement: human (adjustment 0) DEX 14 -> Combat 28, Full 56; ED4 human Movement 12
    assert (ed1.movement, ed1.full_movement) == (28, 56)
    assert (ed4.movement, ed4.full_movement) == (12, 24)
    # karma: ED1 human d8 (step 5), max 40; ED4 step 4, 5 x circle 1
    assert (ed1.karma_step, ed1.karma_max) == (5, 40)
    assert (ed4.karma_step, ed4.karma_max) == (4, 5)
    assert ed1.spell_defense == ed1.mystic_defense == 7


def test_ed1_movement_race_adjustment() -> None:
    attrs = {"dex": 14, "str": 10, "tou": 10, "per": 10, "wil": 10, "cha": 10}
    dwarf = EarthdawnStats.from_character("d", "ed1", "dwarf", attrs, catalog=catalog.get_catalog("ed1"))
    elf = EarthdawnStats.from_character("e", "ed1", "elf", attrs, catalog=catalog.get_catalog("ed1"))
    assert dwarf.movement == ch.ed1_combat_movement(12)  # dwarf -2
    assert elf.movement == ch.ed1_combat_movement(15)  # elf +1
