"""One exit-code contract for every command: 0 done, 2 refused (anything the person can fix), 130
interrupted (Ctrl-C, SIGTERM, SIGHUP), 1 only for a bug; signals end ``sim`` and ``sweep`` with their
workers and the report of the fights so far (docs/encounter-format.md, "Exit codes")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fracas.cli import main
from fracas.engine import bounds

ROOT = Path(__file__).resolve().parent.parent
MICA = str(ROOT / "examples/ed4/mica-and-the-ghouls.yaml")
HORDE = str(ROOT / "examples/sas/goblin-horde.yaml")


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", MICA, "-n", str(10**12)],
        ["sim", MICA, "-n", "10", "--max-rounds", str(10**12)],
        ["sim", MICA, "-n", "10", "--workers", "1000"],
        ["sim", MICA, "-n", "10", "--seed", str(10**30)],
        ["sweep", MICA, "--vary", "ghoul.count=1..1000000", "-n", "10"],
        ["sweep", MICA, "--vary", "ghoul.count=1..40", "--vary", "mica.stats.karma=0..40", "-n", "10"],
        ["sweep", MICA, "--vary", "ghoul.count=1..2", "-n", str(10**12)],
        ["sweep", MICA, "--vary", "ghoul.count=1..2", "--vary", "mica.stats.karma=0..499", "-n", "10000000"],
        ["fight", MICA, "--seed", str(2**63)],
        ["fight", MICA, "--max-rounds", str(10**12)],
        ["roll", "3d6", "--seed", str(10**30)],
        ["odds", "step 14", "--dn", str(10**30)],
        ["odds", "step 14", "--dn", "9223372036854775807"],
        ["odds", "3d6", "--under", str(10**20)],
        ["fight", str(ROOT)],
        ["validate", str(ROOT / "examples")],
        ["sim", MICA, "-n", "5", "--engine", "reference", "--scheduler", "garbage"],
        ["sim", MICA, "-n", "5", "--engine", "garbage"],
    ],
)
def test_refused_with_exit_2_naming_the_problem(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err


def test_the_limits_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", MICA, "-n", str(10**12)]) == 2
    assert str(bounds.MAX_RUNS) in capsys.readouterr().err
    assert main(["sweep", MICA, "--vary", "ghoul.count=1..1000000", "-n", "10"]) == 2
    assert f"{bounds.MAX_GRID_POINTS:,}" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["sim", MICA, "-n", "3", "--workers", "1", "--engine", "reference", "--report", "/dev/full"])
        == 2
    )
    assert "--report /dev/full: cannot be written" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    psutil = pytest.importorskip("psutil")
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(pids: list[int]) -> list[int]:
    psutil = pytest.importorskip("psutil")
    out = []
    for p in pids:
        try:
            if psutil.Process(p).status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def _start(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    code = "import sys; from fracas.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
@pytest.mark.parametrize("command", ["sim", "sweep"])
def test_a_signal_stops_the_run_ends_its_workers_and_reports(sig: int, command: str, tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    args = [command, MICA, "-n", "1000000", "--workers", "2", "--engine", "reference", "--seed", "1"]
    args += ["--json"]
    args += ["--report", str(report)]
    if command == "sweep":
        args += ["--vary", "ghoul.count=1,2"]
    proc = _start(args)
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(6)  # some chunks of fights finish
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["interrupted"] is True
    assert report.exists()
    time.sleep(0.5)
    assert _alive(workers) == [], "worker processes left behind"


def test_sigterm_before_the_first_fight_finishes_is_130() -> None:
    proc = _start(["sim", HORDE, "-n", "400", "--workers", "2", "--engine", "reference", "--seed", "1"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not _children(proc.pid):
        time.sleep(0.05)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "internal error" not in err
    time.sleep(0.5)
    assert _alive(workers) == []


def test_workers_die_with_a_killed_parent() -> None:
    proc = _start(["sim", HORDE, "-n", "400", "--workers", "2", "--engine", "reference", "--seed", "1"])
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = _children(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(workers):
        time.sleep(0.2)
    assert _alive(workers) == []
