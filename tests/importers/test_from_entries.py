"""Encounter entries `{from: FILE}`: read from character files relative to the encounter, overrides on top."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fracas.engine.encounter import load


def test_from_entries_fight_and_validate(files: Path, run) -> None:  # type: ignore[no-untyped-def]
    enc = files / "gcs/joust-from-files.yaml"
    code, out, err = run("validate", enc)
    assert code == 0, err
    code, out, err = run("fight", enc, "--seed", "2", "--json")
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert any("Sir Giles" in json.dumps(e) for e in events)


def test_from_entries_sim(files: Path, run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run("sim", files / "gcs/joust-from-files.yaml", "-n", "50", "--seed", "1", "--json")
    assert code == 0, err
    assert json.loads(out)


def test_overrides_on_top_and_paths_relative_to_the_encounter(files: Path, tmp_path: Path) -> None:
    chars = tmp_path / "characters"
    chars.mkdir()
    shutil.copy(files / "gcs/knight-v5.gcs", chars / "giles.gcs")
    enc = tmp_path / "fight.yaml"
    enc.write_text(
        "version: 1\nruleset: gurps4\nsides:\n"
        "  - name: A\n    combatants:\n"
        "      - {from: characters/giles.gcs, id: giles, at: [0, 0],"
        " stats: {hp: 20, skills: {Broadsword: 16}},"
        " equipment: {armor: [leather_armor]}}\n"
        "  - name: B\n    combatants:\n      - {template: spearman, at: [5, 0]}\n"
    )
    _, state = load(enc)
    st = state.combatants["giles"].stats
    assert st.hp == 20 and st.skills["Broadsword"] == 16 and st.skills["Lance"] == 14
    assert st.armor == ("leather_armor",)


def test_a_missing_character_file_names_the_entry(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    enc = tmp_path / "fight.yaml"
    enc.write_text(
        "version: 1\nruleset: gurps4\nsides:\n"
        "  - name: A\n    combatants:\n      - {from: nobody.gcs}\n"
        "  - name: B\n    combatants:\n      - {template: spearman}\n"
    )
    code, _, err = run("validate", enc)
    assert code == 2
    assert "sides.0.combatants.0.from" in err and "nobody.gcs: no such file" in err


@pytest.mark.parametrize("folder", ["ecte", "foundry"])
def test_earthdawn_parties_of_from_entries_simulate(files: Path, folder: str, run) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(
        "sim",
        files / folder / "party-from-files.yaml",
        "-n",
        "50",
        "--seed",
        "1",
        "--engine",
        "reference",
        "--json",
    )
    assert code == 0, err
    got = json.loads(out)
    assert got["runs"] == 50 and got["ruleset"] == "ed4"
