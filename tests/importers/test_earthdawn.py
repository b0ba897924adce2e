"""Earthdawn Character Editor XML and Foundry ed4e actors -> ed4 stat blocks; attack = rank + DEX step,
damage = STR step + weapon (ED4 p.377); the report shows each sum."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.engine.encounter import load, load_data
from fracas.importers import CharacterFileError, import_file


def _fights(entry: dict) -> None:
    load_data(
        {
            "version": 1,
            "ruleset": "ed4",
            "sides": [
                {"name": "A", "combatants": [{**entry, "at": [0, 0]}]},
                {"name": "B", "combatants": [{"template": "ghoul", "at": [4, 0]}]},
            ],
        }
    )


def _attack(entry: dict, name: str) -> dict:
    return next(a for a in entry["stats"]["attacks"] if a["name"] == name)


def test_ecte_current_warrior(files: Path) -> None:
    got = import_file(files / "ecte/warrior-current.xml", "ed4")
    s = got.entry["stats"]
    assert got.ruleset == "ed4" and got.report.format == "ecte"
    assert (s["dex_step"], s["str_step"], s["physical_defense"], s["physical_armor"], s["mystic_armor"]) == (
        7,
        7,
        10,
        5,
        2,
    )
    assert (s["wound_threshold"], s["unconsciousness"], s["death"], s["karma"], s["movement"]) == (
        11,
        40,
        46,
        10,
        12,
    )
    sword = _attack(got.entry, "Broadsword")
    assert (sword["step"], sword["damage"]) == (12, 12)  # Melee Weapons 5 + DEX 7; STR 7 + Broadsword 5
    assert any("Melee Weapons rank 5" in c.how and "Dexterity step 7" in c.how for c in got.report.computed)
    assert any("Avoid Blow" in d.what for d in got.report.unusable)  # said, not silently dropped
    assert not any(a["name"] == "Dagger" for a in s["attacks"])  # used="no"
    _fights(got.entry)


def test_ecte_older_layout_archer(files: Path) -> None:
    got = import_file(files / "ecte/archer-older.xml")
    s = got.entry["stats"]
    assert "older layout" in got.report.version
    bow = _attack(got.entry, "Elven Warbow")
    assert bow["kind"] == "missile" and bow["range"] == [40, 120]
    assert (bow["step"], bow["damage"]) == (12, 9)  # the talent's rank 4 beats the skill's 2
    assert s["mystic_armor"] == 1 and s["movement"] == 14  # PROTECTION @mysticamor, MOVEMENT @ground_full
    _fights(got.entry)


def test_ecte_tskrang_has_a_tail(files: Path) -> None:
    got = import_file(files / "ecte/tskrang-current.xml")
    tail = _attack(got.entry, "Tail")
    assert (tail["kind"], tail["step"], tail["damage"]) == (
        "natural",
        9,
        6,
    )  # DEX 7 + Unarmed 2; STR 6 (p.386)
    spear = _attack(got.entry, "Spear")
    assert spear["kind"] == "thrown" and spear["step"] == 7  # no Throwing Weapons: rank 0
    _fights(got.entry)


def test_foundry_character_is_derived_like_the_system(files: Path) -> None:
    got = import_file(files / "foundry/warrior-character.json", "ed4")
    s = got.entry["stats"]
    assert s["dexterity"] == 16  # initialValue 15 + timesIncreased 1
    assert s["physical_defense"] == 10 and s["mystic_defense"] == 8  # + the shield's defenseBonus
    assert s["physical_armor"] == 5 and s["initiative"] == 6  # DEX step 7 - armor initiativePenalty 1
    assert s["unconsciousness"] == 46 and s["death"] == 55  # Warrior durability 7 x circle 2
    sword = _attack(got.entry, "Broadsword")
    assert (sword["step"], sword["damage"]) == (11, 13)  # Melee Weapons 4 + DEX 7; 5 + forge 1 + STR 7
    assert not any(a["name"] == "Crossbow" for a in s["attacks"])  # carried, not in hand
    _fights(got.entry)


def test_foundry_tail_and_npc(files: Path) -> None:
    t = import_file(files / "foundry/tskrang-character.json")
    assert _attack(t.entry, "Tail")["step"] == 9
    n = import_file(files / "foundry/archer-npc.json")
    s = n.entry["stats"]
    assert s["dex_step"] == 7 and s["death"] == 38 and s["initiative"] == 7
    assert _attack(n.entry, "Longbow")["range"] == [60, 120]
    _fights(n.entry)


@pytest.mark.parametrize("folder", ["ecte", "foundry"])
def test_parties_of_from_entries_fight(files: Path, folder: str, run) -> None:  # type: ignore[no-untyped-def]
    enc = files / folder / "party-from-files.yaml"
    _, state = load(enc)
    assert len(state.combatants) >= 5
    code, out, err = run("fight", enc, "--seed", "3", "--json")
    assert code == 0, err
    assert [json.loads(line) for line in out.splitlines() if line.strip()]


def test_wrong_ruleset_and_foreign_foundry_system(files: Path, tmp_path: Path) -> None:
    with pytest.raises(CharacterFileError, match="gurps4"):
        import_file(files / "ecte/warrior-current.xml", "gurps4")
    p = tmp_path / "dnd.json"
    p.write_text(
        json.dumps({"name": "x", "type": "character", "system": {}, "_stats": {"systemId": "dnd5e"}})
    )
    with pytest.raises(CharacterFileError, match="dnd5e"):
        import_file(p)
    x = tmp_path / "x.xml"
    x.write_text("<EDCHARACTER name='a'><ATTRIBUTE name='DEX' step='x'/></EDCHARACTER>")
    with pytest.raises(CharacterFileError, match=r"ATTRIBUTE\[1\]/@step"):
        import_file(x)


def test_ecte_german_names(files: Path, tmp_path: Path) -> None:
    text = (files / "ecte/warrior-current.xml").read_text()
    text = text.replace('name="Melee Weapons"', 'name="Nahkampfwaffen"').replace(
        'name="Avoid Blow"', 'name="Ausweichen"'
    )
    p = tmp_path / "krieger.xml"
    p.write_text(text)
    got = import_file(p)
    assert _attack(got.entry, "Broadsword")["step"] == 12  # Nahkampfwaffen 5 + DEX 7
    assert any("Ausweichen" in d.what for d in got.report.unusable)


def test_foundry_export_of_the_system_before_0_8_2(files: Path) -> None:
    """The old earthdawn4e system stored its numbers flat (dexterityStep, physicaldefense, deathThreshold,
    ...; the system's own migration maps them): read as stored, like an npc's."""
    got = import_file(files / "foundry/guard-legacy.json", "ed4")
    s = got.entry["stats"]
    assert (s["dex_step"], s["physical_defense"], s["death"], s["unconsciousness"], s["initiative"]) == (
        6,
        9,
        40,
        32,
        6,
    )
    assert _attack(got.entry, "Spear") == {"name": "Spear", "kind": "melee", "step": 10, "damage": 10}
    assert "before 0.8.2" in got.report.version
    _fights(got.entry)
