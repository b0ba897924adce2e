"""The Earthdawn data files load, are consistent, and the lookups and stat constructors behave."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.errors import UsageError
from fracas.rules import earthdawn as ed
from fracas.rules.earthdawn import catalog
from fracas.rules.earthdawn import characteristics as ch
from fracas.rules.earthdawn.stats import Attack, EarthdawnStats


@pytest.mark.parametrize("edition", ["ed4", "ed1"])
def test_every_file_loads_and_every_template_builds(edition: str) -> None:
    cat = catalog.load_catalog(edition)
    assert cat.weapons and cat.armor and cat.shields and cat.races and cat.creatures and cat.characters
    templates = ed.list_templates(edition)
    assert len(templates) == len(cat.creatures) + len(cat.characters)
    for t in templates:
        s = ed.template(t.key, edition)
        assert s.edition == edition and s.kind == t.kind
        assert s.initiative_step >= 1
        assert s.death_rating > s.wound_threshold
        if s.unconsciousness_rating is not None:
            assert s.unconsciousness_rating <= s.death_rating
        assert s.attacks
        assert all(a.attack_step >= 1 and a.damage_step >= 0 for a in s.attacks)


def test_ed4_equipment_the_text_corroborates() -> None:
    assert ed.weapon("Battle axe").damage_step == 7  # ED4 p.377
    assert ed.shield("body_shield").shatter_threshold == 21  # ED4 p.385
    assert ed.armor("Wyvern skin").initiative_penalty == 3  # reference 4.2 [confirmed]


def test_reference_tables_spot_checks() -> None:
    # reference 4.1 / 4.2 rows
    w = ed.weapon("longbow")
    assert (w.damage_step, w.size, w.strength_min, w.short_range, w.long_range) == (
        4,
        5,
        11,
        (2, 40),
        (41, 80),
    )
    d = ed.weapon("dagger")
    assert d.kind == "melee" and d.thrown_short == (2, 10) and d.thrown_long == (11, 20)
    assert (ed.armor("chain mail").physical, ed.armor("chain mail").initiative_penalty) == (7, 3)
    s = ed.shield("crystal raider shield")
    assert (s.physical_defense, s.mystic_defense, s.initiative_penalty, s.shatter_threshold) == (2, 2, 2, 18)
    assert ed.weapon("battle-axe", "ed1").size == 4  # ED1 Goods and Services: battle-axe Size 4


def test_ed4_races_reference() -> None:
    assert catalog.race("windling").flying_movement == 16
    assert (catalog.race("troll").movement, catalog.race("troll").karma_modifier) == (14, 3)


def test_every_row_has_a_confidence_tag() -> None:
    for edition in ("ed4", "ed1"):
        cat = catalog.get_catalog(edition)
        rows = [*cat.weapons.values(), *cat.armor.values(), *cat.shields.values()]
        assert all(r.confidence in ("text", "confirmed", "single", "verify", "choice") for r in rows)


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(ed.UnknownName, match=r"unknown weapon 'vorpal sword' in ed4; known: .*battle-axe"):
        ed.weapon("vorpal sword")
    with pytest.raises(LookupError):
        ed.creature("dragon")
    with pytest.raises(UsageError, match="unknown edition"):
        ed.creature("dyre", "ed3")
    with pytest.raises(UsageError, match="unknown template"):
        ed.template("nobody")


def test_templates_are_fresh_objects() -> None:
    a = ed.character("mica")
    a.talents["Melee Weapons"] = 99
    assert ed.character("mica").talents["Melee Weapons"] != 99


def test_from_character_equipment_and_shield() -> None:
    attrs = {"dex": 15, "str": 13, "tou": 14, "per": 12, "wil": 10, "cha": 10}
    s = EarthdawnStats.from_character(
        "Guard", "ed4", "human", attrs, talents={"Melee Weapons": 3}, weapons=["spear"], armor="ring-mail",
        shield="footmans-shield", circle=2, catalog=catalog.get_catalog("ed4"),
    )  # fmt: skip
    # DEX 15: step 6, PD 9 + 2 (shield), PER 12: MD 7; init 6 - 2 (ring mail) - 1 (shield) = 3
    # PA 6; MA 10//5 + 0 = 2
    assert (s.physical_defense, s.mystic_defense, s.initiative_step) == (11, 7, 3)
    assert (s.physical_armor, s.mystic_armor) == (6, 2)
    assert s.attack("Spear").attack_step == 9 and s.attack("Spear").damage_step == 10
    assert s.attack("Spear (thrown)").attack_step == 6  # no Throwing Weapons rank
    assert s.attack("unarmed").damage_step == s.strength
    assert s.karma_max == 10 and s.karma_step == 4
    assert s.shield is not None and s.shield.shatter_threshold == 19


def test_from_character_karma_override_and_initiative_floor() -> None:
    attrs = {"dex": 3, "str": 13, "tou": 14, "per": 12, "wil": 10, "cha": 10}
    s = EarthdawnStats.from_character(
        "Slow",
        "ed4",
        "dwarf",
        attrs,
        armor="crystal-plate",
        shield="body-shield",
        circle=1,
        karma=7,
        catalog=catalog.get_catalog("ed4"),
    )
    assert s.initiative_step == 1  # 2 - 5 - 2, floored at Step 1 (ED4 p.371)
    assert s.karma_max == 7
    with pytest.raises(UsageError, match="unknown race"):
        EarthdawnStats.from_character("x", "ed4", "gnome", attrs, catalog=catalog.get_catalog("ed4"))


def test_from_creature_direct() -> None:
    c = EarthdawnStats.from_creature(
        "Wolf", "ed4", dexterity=7, strength=6, toughness=6, perception=6, willpower=5, charisma=5,
        initiative=9, physical_defense=10, mystic_defense=8, social_defense=8, physical_armor=3,
        mystic_armor=1, wound_threshold=9, unconsciousness=None, death=35, knockdown=6, recovery_tests=2,
        movement=16, attacks=[Attack("Bite", "natural", 11, 12)],
    )  # fmt: skip
    assert c.recovery_step == 6 and c.full_movement == 32 and c.immune_to_stun
    assert c.attack("bite").damage_step == 12
    with pytest.raises(UsageError, match="has no attack 'claws'"):
        c.attack("claws")


def test_creature_ranged_attack_ranges() -> None:
    xbow = ed.creature("ork-scorcher").attack("Light crossbow")
    assert xbow.short_range == (2, 32) and xbow.long_range == (33, 64)
    assert xbow.range_band(64) == "long" and xbow.range_band(65) is None


def test_the_data_doc_names_every_template_and_every_text_override() -> None:
    doc = (catalog.RULES_DIR.parents[2] / "docs" / "rulesets" / "earthdawn-data.md").read_text()
    for edition in ("ed4", "ed1"):
        for t in ed.list_templates(edition):
            assert t.name.split()[0].lower() in doc.lower(), t.name
        for key, row in catalog.get_catalog(edition).creatures.items():
            for fld in row.text_values:
                label = fld.replace("_", " ")
                assert any(label in line.lower() and row.name.split()[0].lower() in line.lower()
                           for line in doc.splitlines()), (key, fld)  # fmt: skip


@settings(max_examples=200)
@given(
    edition=st.sampled_from(["ed4", "ed1"]),
    race=st.sampled_from(["dwarf", "elf", "human", "obsidiman", "ork", "troll", "tskrang", "windling"]),
    values=st.lists(st.integers(min_value=1, max_value=30), min_size=6, max_size=6),
    armor=st.sampled_from([None, "leather", "hide", "chain-mail"]),
    shield=st.sampled_from([None, "buckler"]),
    circle=st.one_of(st.none(), st.integers(min_value=1, max_value=15)),
)
def test_any_character_is_consistent(
    edition: str, race: str, values: list[int], armor: str | None, shield: str | None, circle: int | None
) -> None:
    attrs = dict(zip(ch.ATTRIBUTES, values, strict=True))
    s = EarthdawnStats.from_character("x", edition, race, attrs, armor=armor, shield=shield, circle=circle,
                                      weapons=["dagger"], catalog=catalog.get_catalog(edition))  # fmt: skip
    a = s.armor
    sh = s.shield
    dex_step = ch.attribute_step(attrs["dexterity"])
    penalty = (a.initiative_penalty if a else 0) + (sh.initiative_penalty if sh else 0)
    assert s.initiative_step == max(1, dex_step - penalty)
    assert s.physical_armor == (a.physical if a else 0)
    assert s.dexterity == dex_step and s.knockdown_step == ch.attribute_step(attrs["strength"])
    assert s.recovery_step == ch.attribute_step(attrs["toughness"])
    assert s.unconsciousness_rating is not None and s.unconsciousness_rating < s.death_rating
    if attrs["toughness"] >= 2:  # ED4 Toughness 1: WT 3 above UR 2, as the formulas give
        assert s.wound_threshold < s.unconsciousness_rating
    assert (s.karma_max > 0) == (circle is not None)
    assert s.full_movement == 2 * s.movement
    assert s.attack("Dagger").damage_step == s.strength + catalog.weapon("dagger", edition).damage_step
