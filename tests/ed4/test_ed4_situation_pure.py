"""ED4 situation modifiers, pure layer (000_4b24aca42c3b6366.txt p.386-390)."""

from __future__ import annotations

from fracas.dice.source import ScriptedDice
from fracas.rules.base import total
from fracas.rules.ed4 import situation as s


def test_table_matches_the_situation_modifiers_table_p386() -> None:
    t = s.table()
    rows = {k: (v.action, v.defense) for k, v in t.items()}
    assert rows == {
        "blindsided": (0, -2),
        "cover-partial": (0, 2),
        "cover-full": (0, 0),
        "darkness-partial": (-2, 0),
        "darkness-full": (-4, 0),
        "harried": (-2, -2),
        "impaired-light": (-2, 0),
        "impaired-heavy": (-4, 0),
        "knocked-down": (-3, -3),
        "range-short": (0, 0),
        "range-long": (-2, 0),
        "surprised": (0, -3),
    }
    assert t["cover-full"].no_attack and t["surprised"].no_tests


def test_mica_harried_pd_10_to_8_and_6_from_behind_p388() -> None:
    assert s.harried_by_numbers(5)
    assert not s.harried_by_numbers(3)
    pd = 10 + total(s.harried_mods(1))
    assert pd == 8
    # facing 0; a ghoul straight behind (direction 3) while others engage him in front: Blindsided.
    assert s.is_blindsided(0, 3, [0, 1, 5], harried=True)
    assert pd + total(s.blindsided_mods()) == 6
    # the ghoul in front is not
    assert not s.is_blindsided(0, 0, [1, 3], harried=True)


def test_blindsided_clarification_unengaged_character_turns() -> None:
    assert not s.is_blindsided(0, 3, [])  # nobody in front: he turns to the newcomer
    assert s.is_blindsided(0, 3, [0])
    assert not s.is_blindsided(0, 3, [0], attacker_can_see=False)  # the attacker must see his target
    assert s.is_blindsided(0, 0, [], can_see_attacker=False)


def test_further_harried_effects_and_the_windling_rider_p388_p394() -> None:
    assert s.harried_penalty(1) == -2
    assert s.harried_penalty(2) == -3
    assert s.harried_penalty(3) == -4


def test_darkness_and_senses_p387() -> None:
    assert total(s.sight_mods("attack", "partial-darkness")) == -2
    assert total(s.sight_mods("attack", "full-darkness")) == -4
    assert s.sight_mods("attack", "partial-darkness", ["low-light-vision"]) == []
    assert total(s.sight_mods("attack", "full-darkness", ["low-light-vision"])) == -2
    assert s.sight_mods("attack", "full-darkness", ["heat-sight"]) == []
    assert s.sight_mods("damage", "full-darkness") == []
    assert total(s.sight_mods("attack", "bright", blinded=True)) == -4
    assert total(s.sight_mods("attack", "bright", dazzled=True)) == -2


def test_cover_p387() -> None:
    assert total(s.cover_mods("partial")) == 2  # Tomas behind the tree
    assert s.cover_blocks("full") and not s.cover_blocks("partial")


def test_impaired_movement_never_below_1_p389() -> None:
    assert s.impaired_movement(12, "light") == 7
    assert s.impaired_movement(12, "heavy") == 2
    assert s.impaired_movement(6, "heavy") == 1
    assert s.impaired_movement(12, None) == 12
    assert total(s.impaired_mods("heavy", True)) == -4


def test_silar_long_range_13_to_11_and_step_10_to_8_p390() -> None:
    band = s.range_band(60, 40, 80, 2)
    assert band == "long"
    assert 13 + total(s.range_mods(band)) == 11
    assert 10 + total(s.range_mods(band)) == 8
    assert s.range_band(30, 40, 80) == "short" and s.range_mods("short") == []
    assert s.range_band(90, 40, 80) is None
    assert s.range_band(1, 40, 80, 2) is None


def test_surprise_dn_is_the_lowest_dexterity_step_p390() -> None:
    assert s.surprise_dn([6, 4, 7]) == 4
    assert total(s.surprised_mods()) == -3
    assert total(s.knocked_down_mods(defense=True)) == -3
    assert s.crawl_movement() == 2


def test_rules_name_pages() -> None:
    assert s.rule("harried") == "ed4/situation/harried p.388"
    assert s.rule("range-long") == "ed4/situation/range p.390"
    assert ScriptedDice  # imported for symmetry with other test files
