"""Encounter equipment is checked item by item: every unknown weapon, armor or shield is named at its own
path (sides.N.combatants.M.equipment.weapons.K), in one error. ``fracas odds --dn`` takes 1 or more."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.cli import main

FILE = """version: 1
ruleset: ed4
name: equipment
sides:
  - name: Heroes
    combatants:
      - template: mica
        at: [0, 0]
        equipment: {EQUIPMENT}
  - name: Foes
    combatants:
      - template: ghoul
        at: [2, 0]
"""


def _validate(tmp_path: Path, equipment: str) -> int:
    f = tmp_path / "e.yaml"
    f.write_text(FILE.replace("{EQUIPMENT}", equipment))
    return main(["validate", str(f)])


def test_every_unknown_item_at_its_own_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _validate(tmp_path, "{weapons: [broadsword, lightsaber], armor: plate, shield: tower}") == 2
    err = capsys.readouterr().err
    base = "sides.0.combatants.0.equipment"
    assert f"{base}.weapons.1: unknown weapon 'lightsaber' in ed4" in err
    assert f"{base}.armor: unknown armor 'plate' in ed4" in err
    assert f"{base}.shield: unknown shield 'tower' in ed4" in err
    assert "weapons.0" not in err and ".template:" not in err


def test_known_equipment_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _validate(tmp_path, "{weapons: [spear], armor: chain-mail, shield: footmans-shield}") == 0
    assert _validate(tmp_path, "{weapons: broadsword}") == 0  # one weapon may be given as a name


def test_a_number_for_a_name_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _validate(tmp_path, "{weapons: [7]}") == 2
    assert "equipment.weapons.0: expected a name, found 7" in capsys.readouterr().err


def test_odds_refuses_a_difficulty_number_below_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "step 14", "--dn", "-5"]) == 2
    assert main(["odds", "step 14", "--dn", "0"]) == 2
    assert main(["odds", "step 14", "--dn", "1"]) == 0


def test_every_line_of_a_stats_error_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(FILE.replace("equipment: {EQUIPMENT}", "stats: {karma: -3, bogus: 2}"))
    assert main(["validate", str(f)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all(str(f) in line for line in lines)
    assert "stats.karma" in lines[0] and "stats.bogus" in lines[1]
