"""Which path a simulation takes: announced before it starts, recorded in the JSON, per point of a sweep."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from fracas.sim import cli as sim_cli
from fracas.sim.runner import SerialBackend, path_text, scenario_from_data, simulate_many

ROOT = Path(__file__).resolve().parents[2]
THOM = ROOT / "examples" / "ed1" / "thom-hammerblade.yaml"
# An ED4 brawl with a combatant under the ``hold`` tactic: no kernel plays it.
HOLD = {
    "version": 1,
    "ruleset": "ed4",
    "name": "a bandit holds",
    "max_rounds": 5,
    "sides": [
        {"name": "A", "combatants": [{"template": "thrak", "id": "a", "at": [0, 0]}]},
        {"name": "B", "combatants": [{"template": "bandit", "id": "b", "tactic": "hold", "at": [2, 0]}]},
    ],
}

# A Spells & Swords duel, adjacent: the S&S duel kernel plays it; with two goblin bosses it does not.
SAS_DUEL = {
    "version": 1,
    "ruleset": "sas",
    "name": "fighter against goblin boss",
    "max_rounds": 30,
    "sides": [
        {"name": "A", "combatants": [{"template": "fighter", "id": "a", "at": [0, 0]}]},
        {"name": "B", "combatants": [{"template": "goblin-boss", "id": "b", "at": [1, 0]}]},
    ],
}


def _main(args: list[str], capsys: Any) -> tuple[int, str, str]:
    from fracas.cli import main

    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_path_text() -> None:
    assert path_text("kernel:ed4-group", "") == "kernel ed4-group"
    assert path_text("reference", "no batch kernel for the ed1 ruleset") == (
        "engine: no batch kernel for the ed1 ruleset"
    )


def _hold_file(tmp_path: Path) -> Path:
    f = tmp_path / "hold.yaml"
    f.write_text(yaml.safe_dump(HOLD))
    return f


def test_sim_json_says_the_engine_and_why_on_stderr(tmp_path: Path, capsys: Any) -> None:
    args = ["sim", str(_hold_file(tmp_path)), "-n", "3", "--seed", "1", "--json", "--workers", "1"]
    code, out, err = _main(args, capsys)
    data = json.loads(out)
    assert code == 0 and data["engine"] == "reference"
    assert "tactic hold" in data["kernel_fallback_reason"]
    assert err.splitlines()[0] == "engine: " + data["kernel_fallback_reason"]


def test_sim_terminal_report_starts_with_the_path(tmp_path: Path, capsys: Any) -> None:
    hold = str(_hold_file(tmp_path))
    code, out, _ = _main(["sim", hold, "-n", "2", "--seed", "1", "--workers", "1"], capsys)
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("engine: ") and "tactic hold" in first
    code, out, _ = _main(
        ["sim", hold, "-n", "2", "--seed", "1", "--workers", "1", "--engine", "reference"], capsys
    )
    assert code == 0 and out.splitlines()[0] == "engine: --engine reference"


def test_sim_on_a_kernel_says_so_and_has_no_fallback_reason(tmp_path: Path, capsys: Any) -> None:
    f = tmp_path / "duel.yaml"
    f.write_text(yaml.safe_dump(SAS_DUEL))
    code, out, err = _main(["sim", str(f), "-n", "200", "--seed", "1", "--json", "--workers", "1"], capsys)
    data = json.loads(out)
    assert code == 0 and data["engine"] == "kernel:sas-duel" and data["kernel_fallback_reason"] is None
    assert err.splitlines()[0] == "kernel sas-duel"


def test_sweep_takes_the_kernel_at_every_point_that_qualifies(tmp_path: Path, capsys: Any) -> None:
    """b.tactic=default,hold: the duel point plays on the kernel, the point where the goblin boss holds on
    the engine (no kernel plays ``hold`` in a duel; two against one would now take sas-group); each
    point's JSON says which and why, and stderr says it before the fights start."""
    f = tmp_path / "duel.yaml"
    f.write_text(yaml.safe_dump(SAS_DUEL))
    args = ["sweep", str(f), "--vary", "b.tactic=default,hold", "-n", "10", "--seed", "2", "--json"]
    code, out, err = _main([*args, "--workers", "1"], capsys)
    data = json.loads(out)
    assert code == 0
    one, two = data["points"]
    assert one["engine"] == "kernel:sas-duel" and one["kernel_fallback_reason"] is None
    assert two["engine"] == "reference" and two["kernel_fallback_reason"]
    first = err.splitlines()[0]
    assert first.startswith("kernel sas-duel: 1 point; engine: ") and first.endswith(": 1 point")


def test_sweep_progress_counts_fights_not_points(monkeypatch: Any) -> None:
    """The progress callback is told fights done out of fights in all: runs times points."""
    points = []
    for count in (1, 2):
        data = json.loads(json.dumps(SAS_DUEL))
        data["sides"][1]["combatants"][0]["count"] = count
        points.append(scenario_from_data(data, f"count={count}"))
    seen: list[tuple[int, int]] = []
    simulate_many(points, 7, 3, "auto", SerialBackend(), lambda done, total: seen.append((done, total)))
    assert {total for _, total in seen} == {14}
    assert seen[-1] == (14, 14) and [d for d, _ in seen] == sorted(d for d, _ in seen)

    # and the command's bar is made for that many fights (shown only on a terminal: the spy sees its size)
    totals: list[int] = []
    real = sim_cli._progress

    def spy(label: str, total: int, quiet: bool = False, tip: str = "") -> Any:
        totals.append(total)
        return real(label, total, quiet, tip)

    monkeypatch.setattr(sim_cli, "_progress", spy)
    from fracas.cli import main

    args = ["sweep", str(THOM), "--vary", "thom.stats.karma=1,2,3", "-n", "2", "--seed", "1", "--json"]
    args += ["--workers", "1"]
    assert main(args) == 0
    assert totals == [6]
