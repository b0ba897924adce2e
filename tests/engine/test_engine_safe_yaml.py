"""Encounter text is read with bounded cost: duplicate keys, alias bombs, deep nesting and huge files are
refused at ``validate`` with exit code 2, fast, naming the limit (docs/encounter-format.md, "Limits")."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fracas.cli import main
from fracas.engine import safe_yaml
from fracas.errors import EncounterFileError

MICA = Path(__file__).resolve().parents[2] / "examples/ed4/mica-and-the-ghouls.yaml"


def _laughs(levels: int, under: str) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    body = "".join(f"    {ln}\n" for ln in lines)
    return f"version: 1\nruleset: ed4\n{under}:\n  extra:\n{body}sides: []\n"


@pytest.mark.parametrize("under", ["map", "settings"])
def test_an_alias_bomb_is_refused_fast(
    tmp_path: Path, under: str, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "laughs.yaml"
    f.write_text(_laughs(9, under))
    start = time.perf_counter()
    assert main(["validate", str(f)]) == 2
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err
    assert "aliases are expanded" in err and str(safe_yaml.MAX_NODES) in err


def test_a_key_given_twice_is_refused_naming_it_and_its_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = MICA.read_text()
    f = tmp_path / "twice.yaml"
    f.write_text(text + "sides: []\n")
    first = 1 + text.splitlines().index("sides:")
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert "'sides' is given twice" in err and f"line {first} " in err


def test_a_key_twice_in_a_nested_flow_mapping(tmp_path: Path) -> None:
    with pytest.raises(EncounterFileError, match="'at' is given twice"):
        safe_yaml.loads("sides: [{combatants: [{at: [0, 0], at: [1, 1]}]}]\n", "x.yaml")


@pytest.mark.parametrize(
    "text", ["sides: " + "[" * 600 + "]" * 600, "a:\n" + "".join("  " * i + "- \n" for i in range(1, 60))]
)
def test_deep_nesting_is_refused_without_a_traceback(text: str) -> None:
    with pytest.raises(EncounterFileError, match=f"more than {safe_yaml.MAX_DEPTH} levels"):
        safe_yaml.loads(text, "deep.yaml")


def test_deep_toml_is_refused() -> None:
    with pytest.raises(EncounterFileError, match="nested too deep|not valid TOML"):
        safe_yaml.loads("a = " + "[" * 5000 + "]" * 5000, "deep.toml", toml=True)


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(EncounterFileError, match="recursive alias"):
        safe_yaml.loads("a: &a [1, *a]\n", "rec.yaml")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "huge.yaml"
    f.write_text("# " + "x" * safe_yaml.MAX_BYTES + "\n")
    assert main(["validate", str(f)]) == 2
    assert f"the limit is {safe_yaml.MAX_BYTES}" in capsys.readouterr().err


def test_aliases_and_merge_keys_within_the_limits_still_work() -> None:
    data = safe_yaml.loads("base: &b {x: 1}\nother: {<<: *b, y: 2}\nlist: [*b, *b]\n", "ok.yaml")
    assert data == {"base": {"x": 1}, "other": {"x": 1, "y": 2}, "list": [{"x": 1}, {"x": 1}]}
