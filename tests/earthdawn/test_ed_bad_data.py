"""A bad data file is refused with the file, the entry, the field, what was found and what is allowed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fracas.errors import EncounterFileError
from fracas.rules.earthdawn.catalog import RULES_DIR, load_catalog


@pytest.fixture
def ed4_dir(tmp_path: Path) -> Path:
    d = tmp_path / "ed4"
    shutil.copytree(RULES_DIR / "ed4" / "data", d)
    return d


@pytest.fixture
def ed1_dir(tmp_path: Path) -> Path:
    d = tmp_path / "ed1"
    shutil.copytree(RULES_DIR / "ed1" / "data", d)
    return d


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _refused(edition: str, d: Path) -> str:
    with pytest.raises(EncounterFileError) as info:
        load_catalog(edition, d)
    return str(info.value)


def test_negative_damage_step(ed4_dir: Path) -> None:
    _edit(ed4_dir / "weapons.toml", 'name = "Broadsword", kind = "melee", damage_step = 5',
          'name = "Broadsword", kind = "melee", damage_step = -5')  # fmt: skip
    msg = _refused("ed4", ed4_dir)
    assert "weapons.toml" in msg
    assert "entry 'weapons.broadsword'" in msg
    assert "field 'damage_step'" in msg
    assert "found -5" in msg
    assert "greater than or equal to 0" in msg


def test_unknown_weapon_kind(ed4_dir: Path) -> None:
    _edit(ed4_dir / "weapons.toml", 'name = "Sling", kind = "missile"', 'name = "Sling", kind = "catapult"')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'weapons.sling', field 'kind': found 'catapult'" in msg
    assert "'melee', 'missile' or 'thrown'" in msg


def test_missing_field(ed4_dir: Path) -> None:
    _edit(
        ed4_dir / "armor.toml", "physical = 7, mystic = 0, initiative_penalty = 3", "physical = 7, mystic = 0"
    )
    msg = _refused("ed4", ed4_dir)
    assert (
        "entry 'armor.chain-mail', field 'initiative_penalty': found nothing (the field is required)" in msg
    )


def test_unknown_field(ed4_dir: Path) -> None:
    _edit(ed4_dir / "shields.toml", "shatter_threshold = 21,", "shatter_threshold = 21, weight = 15,")
    msg = _refused("ed4", ed4_dir)
    assert "entry 'shields.body-shield', field 'weight': found unknown field with value 15" in msg


def test_ranged_weapon_without_range(ed4_dir: Path) -> None:
    _edit(ed4_dir / "weapons.toml", "short_range = 30, long_range = 60, ", "")
    msg = _refused("ed4", ed4_dir)
    assert "entry 'weapons.short-bow'" in msg and "needs short_range and long_range" in msg


def test_creature_bad_step_and_ratings(ed4_dir: Path) -> None:
    _edit(ed4_dir / "creatures.toml", "initiative = 4\n", "initiative = 0\n")
    msg = _refused("ed4", ed4_dir)
    assert "entry 'creatures.dyre', field 'initiative': found 0" in msg
    assert "greater than or equal to 1" in msg


def test_creature_unconsciousness_text(ed4_dir: Path) -> None:
    _edit(ed4_dir / "creatures.toml", 'unconsciousness = "NA"  # [ref]', 'unconsciousness = "none"  # [ref]')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'creatures.cadaver-man', field 'unconsciousness': found 'none'; allowed: " in msg
    assert "valid integer" in msg and "or Input should be 'NA'" in msg


def test_creature_unconsciousness_above_death(ed4_dir: Path) -> None:
    _edit(ed4_dir / "creatures.toml", "unconsciousness = 59", "unconsciousness = 80")
    msg = _refused("ed4", ed4_dir)
    assert "entry 'creatures.dyre'" in msg and "unconsciousness 80 is above death 72" in msg


def test_creature_choice_names_a_field(ed4_dir: Path) -> None:
    _edit(ed4_dir / "creatures.toml", 'choices = ["flying_movement", "size"]', 'choices = ["wingspan"]')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'creatures.griffin', field 'choices': found ['wingspan']" in msg
    assert "allowed: 'wingspan' is not a field; allowed: actions, attacks" in msg


def test_bad_attack_kind(ed4_dir: Path) -> None:
    _edit(ed4_dir / "creatures.toml", '{ name = "Gore", kind = "natural"', '{ name = "Gore", kind = "horn"')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'creatures.dyre', field 'attacks.0.kind': found 'horn'" in msg


def test_character_refers_to_missing_weapon(ed4_dir: Path) -> None:
    _edit(ed4_dir / "characters.toml", 'weapons = ["battle-axe"]', 'weapons = ["great-axe"]')
    msg = _refused("ed4", ed4_dir)
    assert "characters.toml: entry 'characters.thrak', field 'weapons.0': found 'great-axe'" in msg
    assert "allowed:" in msg and "battle-axe" in msg


def test_character_bad_race_and_attribute(ed4_dir: Path) -> None:
    _edit(ed4_dir / "characters.toml", 'race = "elf"', 'race = "halfling"')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'characters.kira', field 'race': found 'halfling'; allowed: dwarf, elf" in msg


def test_character_missing_attribute(ed4_dir: Path) -> None:
    old = "attributes = { dex = 12, str = 10, tou = 11, per = 16, wil = 15, cha = 11 }"
    _edit(ed4_dir / "characters.toml", old, old.replace(", cha = 11", ""))
    msg = _refused("ed4", ed4_dir)
    assert (
        "entry 'characters.tomas', field 'attributes'" in msg and "missing attribute values: charisma" in msg
    )


def test_wrong_edition_in_file(ed4_dir: Path) -> None:
    _edit(ed4_dir / "armor.toml", 'edition = "ed4"', 'edition = "ed1"')
    msg = _refused("ed4", ed4_dir)
    assert "armor.toml: top level, field 'edition': found 'ed1'; allowed: Input should be 'ed4'" in msg


def test_bad_key(ed4_dir: Path) -> None:
    _edit(ed4_dir / "armor.toml", "padded-cloth = {", '"Padded Cloth" = {')
    msg = _refused("ed4", ed4_dir)
    assert "entry 'armor.Padded Cloth': found key 'Padded Cloth'" in msg and "'padded-cloth'" in msg


def test_toml_syntax_error(ed4_dir: Path) -> None:
    _edit(ed4_dir / "races.toml", "[races]", "[races")
    msg = _refused("ed4", ed4_dir)
    assert "races.toml: not valid TOML" in msg


def test_missing_file(ed4_dir: Path) -> None:
    (ed4_dir / "shields.toml").unlink()
    assert "shields.toml: data file missing" in _refused("ed4", ed4_dir)


def test_ed1_attribute_table_must_cover_1_to_30(ed1_dir: Path) -> None:
    path = ed1_dir / "attributes.toml"
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("17 = ")]
    path.write_text("\n".join(lines) + "\n")
    msg = _refused("ed1", ed1_dir)
    assert "attributes.toml: entry 'values'" in msg and "allowed: exactly the values 1-30" in msg


def test_ed1_attribute_table_bad_value(ed1_dir: Path) -> None:
    _edit(ed1_dir / "attributes.toml", "1 = { step = 2,", "1 = { step = 0,")
    msg = _refused("ed1", ed1_dir)
    assert "entry 'values.1', field 'step': found 0" in msg


def test_nothing_half_loaded(ed4_dir: Path) -> None:
    # a bad character file refuses the whole edition, even though weapons etc. were fine
    _edit(ed4_dir / "characters.toml", 'armor = "leather"', 'armor = "mithril"')
    with pytest.raises(EncounterFileError):
        load_catalog("ed4", ed4_dir)
    assert load_catalog("ed4").armor  # the bundled data is untouched
