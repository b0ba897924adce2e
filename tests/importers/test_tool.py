"""fracas as a tool: python -m fracas, -h, completion, extras, --json, - for standard input, the schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from fracas import cli
from fracas.engine.schema import encounter_schema, schema_text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def test_python_dash_m_and_dash_h() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "fracas", "-h"], capture_output=True, text=True, check=True
    ).stdout
    assert "Usage: fracas" in out and "--install-completion" in out and "import" in out


def test_show_completion(run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("--show-completion", "bash")
    assert code == 0 and "_FRACAS_COMPLETE" in out


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch, run) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numba" else real(name, *a)
    )
    code, _, err = run("sim", "examples/ed4/mica-and-the-ghouls.yaml", "-n", "10")
    assert code == 2 and "pip install 'fracas[sim]'" in err and "numba" in err
    assert cli.missing_extra("fight") is None


def test_the_committed_schema_is_the_generated_one() -> None:
    assert (ROOT / "encounter.schema.json").read_text() == schema_text(), (
        "run: fracas schema > encounter.schema.json"
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_examples_name_the_schema_and_follow_it(example: Path) -> None:
    text = example.read_text()
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../../encounter.schema.json"
    jsonschema.validate(yaml.safe_load(text), encounter_schema())


def test_the_schema_takes_from_entries_and_refuses_unknown_fields(files: Path) -> None:
    schema = encounter_schema()
    jsonschema.validate(yaml.safe_load((files / "gcs/joust-from-files.yaml").read_text()), schema)
    bad = {"ruleset": "ed4", "sides": [{"name": "A", "combatants": [{"templat": "x"}]}] * 2}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_validate_json_and_stdin(run, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import io

    text = (ROOT / "examples/ed4/mica-and-the-ghouls.yaml").read_text()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run("validate", "-", "--json")
    got = json.loads(out)
    assert code == 0 and got["ok"] and got["ruleset"] == "ed4" and got["sides"][0]["name"] == "Heroes"
    monkeypatch.setattr(sys, "stdin", io.StringIO("version: 1\nruleset: ed4\n"))
    code, out, _ = run("validate", "-", "--json")
    got = json.loads(out)
    assert code == 2 and not got["ok"] and any("sides" in e for e in got["errors"])


def test_validation_errors_give_line_and_column(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "bad.yaml"
    p.write_text(
        "version: 1\nruleset: ed4\nsides:\n  - name: Heroes\n    combatants:\n      - {template: micah}\n"
        "  - name: Ghouls\n    combatants:\n      - {template: ghoul, stats: {wound_threshold: -1}}\n"
    )
    code, _, err = run("validate", p)
    assert code == 2
    assert "sides.0.combatants.0.template: unknown template 'micah'" in err and "(line 6, column 20)" in err
    assert "sides.1.combatants.0.stats.wound_threshold" in err and "(line 9, column" in err


def test_fights_list_json(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run("fights", "list", "--json", "--db", tmp_path / "f.sqlite3")
    assert code == 0 and json.loads(out)["fights"] == []


def test_import_reads_standard_input(files: Path, run, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import io

    raw = (files / "gcs/knight-v5.gcs").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    code, out, _ = run("import", "-", "--json")
    assert code == 0 and json.loads(out)["combatants"][0]["name"] == "Sir Giles"


HEAVY = ("fastapi", "uvicorn", "jinja2", "starlette", "numba", "matplotlib", "dask", "distributed")


def test_the_core_commands_load_no_extra() -> None:
    """fight, validate, import and odds run without the [web] and [sim] extras: they import none of them (a
    fresh venv with `pip install fracas` alone says `fracas sim needs the [sim] extra`)."""
    code = (
        "import sys, contextlib, io\n"
        "from fracas.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['validate', 'tests/importers/files/gcs/joust-from-files.yaml']) == 0\n"
        "    assert main(['fight', 'examples/ed4/mica-and-the-ghouls.yaml', '--seed', '1', '--json']) == 0\n"
        "    assert main(['import', 'tests/importers/files/ecte/warrior-current.xml', '--json']) == 0\n"
        "    assert main(['odds', 'step 14', '--dn', '9']) == 0\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_pyproject_keeps_the_heavy_parts_in_extras() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"]).lower()
    assert not any(h in core for h in HEAVY)
    extras = project["optional-dependencies"]
    assert {"web", "sim", "all", "dev"} <= set(extras)
    assert any("fastapi" in d for d in extras["web"]) and any("numba" in d for d in extras["sim"])


def test_fights_import_reads_standard_input(tmp_path: Path, run, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from fracas.engine.encounter import read_file
    from fracas.store import FightService, Store

    example = ROOT / "examples/ed4/mica-and-the-ghouls.yaml"
    source_db = tmp_path / "a.sqlite3"
    service = FightService(Store(source_db))
    book = service.create(read_file(example), source=str(example))
    exported = json.dumps(service.export(book.record.id))
    monkeypatch.setattr(sys, "stdin", io.StringIO(exported))
    code, out, err = run("fights", "import", "-", "--db", tmp_path / "b.sqlite3")
    assert code == 0, err
    assert "imported" in out
    code, out, _ = run("fights", "list", "--json", "--db", tmp_path / "b.sqlite3")
    assert [f["name"] for f in json.loads(out)["fights"]] == ["Mica and the ghouls"]
