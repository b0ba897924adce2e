"""``fracas roll`` and ``fracas odds``: the command lines of docs/dice.md, their JSON and exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from fracas.cli import main

ISSUE_COMMANDS = [
    ["roll", "step 14"],
    ["roll", "step 14", "--ruleset", "ed1"],
    ["roll", "3d6", "--seed", "7"],
    ["roll", "2d+3"],
    ["roll", "1d20"],
    ["roll", "1d8"],
    ["roll", "2d6"],
    ["roll", "d12!"],
    ["odds", "step 14", "--dn", "9"],
    ["odds", "3d6", "--under", "12"],
    ["odds", "step 14", "--table"],
    ["odds", "step 14", "--dn", "9", "--ruleset", "ed1"],
]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args", ISSUE_COMMANDS, ids=" ".join)
def test_issue_commands_run(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert out.strip() and not err
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert out.count("\n") == 1 and obj["expression"]


def test_roll_json_fields_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "roll", "step 14", "--seed", "3", "--json")
    obj = json.loads(out)
    assert set(obj) == {
        "expression",
        "ruleset",
        "dice_notation",
        "minimum",
        "seed",
        "dice",
        "modifier",
        "total",
        "rule_of_one",
    }
    assert obj["dice_notation"] == "2d12!" and obj["seed"] == 3 and obj["minimum"] == 1
    assert all(set(d) == {"sides", "faces", "explodes"} for d in obj["dice"])
    assert obj["total"] == max(1, sum(sum(d["faces"]) for d in obj["dice"]) + obj["modifier"])
    _, again, _ = run(capsys, "roll", "step 14", "--seed", "3", "--json")
    assert again == out
    # --times: the first of the rolls is the single roll with the same seed
    _, many, _ = run(capsys, "roll", "step 14", "--seed", "3", "--times", "50", "--json")
    m = json.loads(many)
    assert m["times"] == 50 and len(m["totals"]) == 50 and len(m["rolls"]) == 50
    assert m["totals"][0] == obj["total"]
    assert set(m["summary"]) == {"mean", "sd", "min", "max", "rule_of_one_count"}


def test_roll_times_human_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2d6", "--times", "1000", "--seed", "1")
    assert code == 0 and "mean" in out and "x 1000" in out


def test_odds_ed4_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "step 14", "--dn", "9", "--json")
    obj = json.loads(out)
    assert obj["p_success"] == pytest.approx(1 - 28 / 144)
    assert obj["p_rule_of_one"] == pytest.approx(1 / 144)
    assert obj["rule_of_one_min_dice"] == 2
    assert obj["extra_successes"][0] == {"extra": 0, "p": pytest.approx(48 / 144)}
    assert sum(e["p"] for e in obj["extra_successes"]) == pytest.approx(obj["p_success"])
    assert obj["max"] is None and obj["tail_mass"] <= 1e-12 and obj["exact_up_to"] > 40


def test_odds_ed1_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "step 14", "--dn", "9", "--ruleset", "ed1", "--json")
    obj = json.loads(out)
    assert obj["dice_notation"] == "d20!+d4!"
    assert list(obj["success_levels"]) == [
        "Pathetic",
        "Poor",
        "Average",
        "Good",
        "Excellent",
        "Extraordinary",
        "Rule of One",
    ]
    _, out, _ = run(capsys, "odds", "step 14", "--dn", "20", "--ruleset", "ed1", "--json")
    obj = json.loads(out)
    assert obj["success_levels"] is None and "DN 2-13" in obj["note"]


def test_odds_gurps_and_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "3d6", "--under", "12", "--json")
    obj = json.loads(out)
    assert obj["p_success"] == pytest.approx(160 / 216)
    assert obj["critical_success_max"] == 4 and obj["critical_failure_min"] == 17
    _, out, _ = run(capsys, "odds", "step 14", "--table", "--json")
    table = json.loads(out)["table"]
    assert [row["dn"] for row in table] == list(range(2, 41))
    assert table[7] == {"dn": 9, "p": pytest.approx(1 - 28 / 144)}


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "2d6x"],
        ["odds", "step 0", "--dn", "9"],
        ["roll", "step 14", "--ruleset", "ed9"],
        ["roll", "step 14", "--ruleset", "gurps4"],
        ["odds", "2d6", "--under", "7"],
        ["roll", "d6", "--times", "0"],
        ["roll"],
        ["odds", "3d6", "--dn", "x"],
    ],
    ids=" ".join,
)
def test_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert "Traceback" not in err + out
    if args[0] != "roll" or len(args) > 1:
        assert len([ln for ln in err.splitlines() if "rror" in ln]) == 1


def test_bad_notation_message_points_at_the_character(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "roll", "2d6x")
    assert code == 2 and not out
    assert err.count("\n") == 1
    assert "column 4 ('x')" in err and "accepted:" in err


def test_console_script_exit_code() -> None:
    exe = shutil.which("fracas")
    cmd = [exe] if exe else [sys.executable, "-m", "fracas.cli"]
    bad = subprocess.run([*cmd, "roll", "2d6x"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1
    good = subprocess.run(
        [*cmd, "odds", "step 14", "--dn", "9", "--json"], capture_output=True, text=True, timeout=120
    )
    assert good.returncode == 0 and json.loads(good.stdout)["dn"] == 9


def test_ask_for_physical_dice(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    # a face out of range or not a number is asked again; the 12 explodes and its bonus roll is asked too
    monkeypatch.setattr("sys.stdin", io.StringIO("13\nx\n12\n3\n5\n"))
    code, out, err = run(capsys, "roll", "step 14", "--ask", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert [d["faces"] for d in obj["dice"]] == [[12, 3], [5]] and obj["total"] == 20 and obj["seed"] is None
    assert "shows 1 to 12" in err
