"""Bad command-line input is refused up front, in one line, with exit code 2 and nothing played."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.cli import main

MICA = str(Path(__file__).resolve().parent.parent / "examples/ed4/mica-and-the-ghouls.yaml")


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", MICA, "-n", "10", "--seed", "-1"],
        ["sweep", MICA, "--vary", "ghoul.count=1..2", "-n", "10", "--seed", "-1"],
        ["fight", MICA, "--seed", "-1"],
        ["fight", MICA, "--max-rounds", "0"],
        ["sim", MICA, "-n", "10", "--max-rounds", "0"],
        ["sim", MICA, "-n", "0"],
        ["sim", MICA, "-n", "10", "--workers", "0"],
        ["roll", "3d6", "--seed", "-3"],
    ],
)
def test_out_of_range_numbers_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_an_unwritable_report_is_refused_before_any_fight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "missing-folder" / "r.html"
    assert main(["sim", MICA, "-n", "50", "--report", str(target)]) == 2
    err = capsys.readouterr().err
    assert "missing-folder" in err and "does not exist" in err
    assert main(["sweep", MICA, "--vary", "ghoul.count=1..2", "-n", "5", "--plot", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str, mica_at: str) -> str:
    """``fracas validate`` on Mica against a ghoul with these options and Mica's ``at``: exit 2, stderr."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        f"version: 1\nruleset: ed4\nname: x\n{options}sides:\n"
        f"  - name: A\n    combatants:\n      - template: mica\n        at: {mica_at}\n"
        "  - name: B\n    combatants:\n      - template: ghoul\n        at: [3, 0]\n"
    )
    assert main(["validate", str(bad)]) == 2
    return capsys.readouterr().err


def test_brackets_in_an_error_are_printed_not_read_as_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "[q, r]" in _refused(tmp_path, capsys, "", "[0]")


def test_an_optional_rule_is_switched_by_true_or_false_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _refused(tmp_path, capsys, "options:\n  wound-penalties: maybe\n", "[0, 0]")
    assert "options.wound-penalties" in err and "'maybe'" in err


def test_rules_piped_keeps_each_rule_id_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "ed4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ids = [ln.split("\t")[0] for ln in lines if ln.startswith("ed4/")]
    assert "ed4/option/aggressive-attack" in ids and "ed4/combat/ranged-into-close-combat" in ids
    assert all(" " not in i for i in ids)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "the file is empty"),
        ("version: 1\nruleset: ed4\n  name: [x\n", "not valid YAML: line 3, column 7"),
        (
            "version: 1\nruleset: ed4\nname: x\nmax_rounds: lots\nsides: []\n",
            "max_rounds: expected a whole number",
        ),
    ],
)
def test_encounter_file_errors_read_plainly(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "e.yaml"
    f.write_text(text)
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Input should" not in err and "<unicode string>" not in err
