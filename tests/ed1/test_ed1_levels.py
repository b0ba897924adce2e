"""ED1 success levels in play (reference/earthdawn.md 1.5, Success Level Table DN 2-13 [verify]) and the
ED1 stat blocks of encounter files (the Attribute Table, reference 2.2)."""

from __future__ import annotations

import pytest

from fracas.dice.exact import ed1_success_levels
from fracas.errors import EncounterFileError
from fracas.rules.ed1.profile import Ed1Profile, override_ed1, profile_from_ed1_block
from fracas.rules.ed1.round import level_outcome

# DN 7 row of the table: Pathetic 1-2, Poor 3-6, Average 7-10, Good 11-14, Excellent 15-18, Extraordinary 19+
DN7 = [(1, "Pathetic"), (2, "Pathetic"), (3, "Poor"), (6, "Poor"), (7, "Average"), (10, "Average")]
DN7 += [
    (11, "Good"),
    (14, "Good"),
    (15, "Excellent"),
    (18, "Excellent"),
    (19, "Extraordinary"),
    (40, "Extraordinary"),
]


@pytest.mark.parametrize(("total", "level"), DN7)
def test_dn_7_row_reference_1_5(total: int, level: str) -> None:
    outcome, got = level_outcome(total, 7, total >= 7, False)
    assert got == level
    assert outcome.endswith("success" if total >= 7 else "failure")


def test_every_dn_held_average_starts_at_the_dn() -> None:
    for dn in ed1_success_levels():
        assert level_outcome(dn, dn, True, False)[1] == "Average"
        assert level_outcome(dn - 1, dn, False, False)[1] in ("Poor", "Pathetic")


def test_above_dn_13_only_success_or_failure() -> None:
    assert max(ed1_success_levels()) == 13
    assert level_outcome(30, 14, True, False) == ("success (success level unknown above DN 13)", None)
    assert level_outcome(3, 20, False, False)[1] is None


def test_rule_of_one_fails_whatever_the_level() -> None:
    assert level_outcome(2, 2, False, True) == ("Rule of One: failure", None)


BLOCK = {
    "kind": "creature",
    "dexterity": 13,
    "strength": 16,
    "toughness": 14,
    "perception": 9,
    "willpower": 10,
    "charisma": 8,
    "movement": 28,
    "attacks": [{"name": "Axe", "step": 9, "damage": 14}],
}


def test_stat_block_values_read_through_the_ed1_attribute_table() -> None:
    p = profile_from_ed1_block(BLOCK, "Ork", "sides.0.combatants.0")
    assert isinstance(p, Ed1Profile)
    # Attribute Table (reference 2.2): DEX 13 step 6 Defense 7; TOU 14 WT 10, Uncon. 28, Death 36, 3 tests
    assert (p.dex_step, p.physical_defense, p.initiative_step) == (6, 7, 6)
    assert (p.wound_threshold, p.unconsciousness, p.death, p.recovery_tests) == (10, 28, 36, 3)
    assert (p.movement, p.full_movement) == (28, 56)
    assert p.knockdown_step == p.str_step == 7


def test_bad_stat_blocks_name_the_field() -> None:
    with pytest.raises(EncounterFileError, match=r"where\.stats\.dexterity: the ED1 Attribute Table holds"):
        profile_from_ed1_block(dict(BLOCK, dexterity=40), "x", "where")
    with pytest.raises(EncounterFileError, match=r"where\.stats\.wings: unknown field"):
        profile_from_ed1_block(dict(BLOCK, wings=2), "x", "where")
    p = profile_from_ed1_block(BLOCK, "x", "where")
    with pytest.raises(EncounterFileError, match=r"where\.stats\.strength: cannot override"):
        override_ed1(p, {"strength": 3}, "where")
    assert override_ed1(p, {"spell_defense": 12, "full_movement": 70}, "where").mystic_defense == 12


@pytest.mark.parametrize(
    ("total", "level"), [(1, "Average"), (4, "Average"), (5, "Good"), (7, "Excellent"), (9, "Extraordinary")]
)
def test_dn_1_is_graded_on_the_lowest_row_held(total: int, level: str) -> None:
    """A Defense lowered to DN 1 (Knocked Down, an unconscious target) has no row in the table held (DN 2-13):
    it is graded on the DN 2 row, a success never below Average [choice, docs]; it used to be reported as a
    level "unknown above DN 13", and no Excellent hit could defeat armor there."""
    assert level_outcome(total, 1, True, False) == (f"{level} success", level)
