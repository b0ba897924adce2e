"""`fracas serve` start-up pieces and `fracas fights` (list, export, import, delete) on the ED4 example."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from fracas.cli import main
from fracas.engine.encounter import read_file
from fracas.store import FightService, Store
from fracas.web.cli import BUNDLED_EXAMPLES, bundled_example, ensure_example

ROOT = Path(__file__).resolve().parents[2]
REPO_EXAMPLE = ROOT / "examples" / "ed4" / "mica-and-the-ghouls.yaml"


def test_the_copy_bundled_in_the_package_is_a_valid_encounter() -> None:
    from fracas.engine.encounter import load

    spec, state = load(BUNDLED_EXAMPLES[1])
    assert spec.ruleset == "ed4" and spec.name == "Mica and the ghouls" and len(state.combatants) >= 2
    if REPO_EXAMPLE.exists():
        assert bundled_example() == REPO_EXAMPLE


def test_a_fresh_database_starts_with_the_example_and_keeps_it(tmp_path: Path) -> None:
    service = FightService(Store(tmp_path / "fresh.sqlite3"))
    first = ensure_example(service)
    assert first is not None and first.record.name == "Mica and the ghouls" and first.record.ruleset == "ed4"
    again = ensure_example(service)
    assert again.record.id == first.record.id and len(service.store.fights()) == 1


def test_serve_refuses_a_port_that_is_not_one(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--port", "70000", "--db", str(tmp_path / "x.sqlite3"), "--no-browser"]) == 2
    assert "not a port" in capsys.readouterr().err


def test_fights_list_export_import_delete_and_resume(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "cli.sqlite3")
    service = FightService(Store(db))
    example = REPO_EXAMPLE if REPO_EXAMPLE.exists() else bundled_example()
    fid = service.create(read_file(example), seed=2).record.id
    service.store.close()
    assert main(["fights", "list", "--db", db]) == 0
    assert fid in capsys.readouterr().out

    assert main(["fight", "--resume", fid, "--db", db]) == 0
    out = capsys.readouterr().out
    assert f"Resuming Mica and the ghouls ({fid})" in out and "Victory for " in out
    assert "ended after round" in FightService(Store(db)).store.get(fid).status

    dump = tmp_path / "fight.json"
    assert main(["fights", "export", fid, "--db", db, "--out", str(dump)]) == 0
    data = json.loads(dump.read_text())
    assert data["format"] == "fracas-fight" and data["fight"]["id"] == fid
    other = str(tmp_path / "other.sqlite3")
    capsys.readouterr()
    assert main(["fights", "import", str(dump), "--db", other]) == 0
    assert f"imported {fid}" in capsys.readouterr().out
    imported = FightService(Store(other)).book(fid).state.snapshot()
    assert imported == FightService(Store(db)).book(fid).state.snapshot()

    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["fights", "import", str(bad), "--db", other]) == 2
    assert main(["fights", "export", "no-such-fight", "--db", db]) == 2
    assert main(["fights", "delete", fid, "--db", db]) == 0
    assert Store(db).fights() == []
    assert main(["fight", "--resume", fid, "--db", db]) == 2


def test_a_database_path_in_a_missing_directory_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--db", "/proc/nope/x.db", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
    assert "/proc/nope" in err and "does not exist" in err and len(err.strip().splitlines()) == 1
    missing = tmp_path / "nodir"
    assert main(["fights", "list", "--db", str(missing / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and len(err.strip().splitlines()) == 1
    assert not missing.exists()  # nothing made behind the user's back
    assert main(["fights", "list", "--db", str(tmp_path)]) == 2  # a directory is not a database file
    assert "is a directory" in capsys.readouterr().err


def test_the_fights_help_shows_no_markup(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    for args in (["fights", "--help"], ["fights", "list", "--help"], ["serve", "--help"]):
        with contextlib.suppress(SystemExit):
            main(args)
        out = capsys.readouterr().out
        assert "``" not in out and "fracas" in out, args
