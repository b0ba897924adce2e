"""Standard input is never read whole: past its limit (an encounter 1 MB, an exported fight or a character
file 20 MB) the command stops with exit 2 after reading one byte more than the limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], data: bytes, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "FRACAS_DB": str(tmp_path / "f.sqlite3")}
    return subprocess.run(
        [sys.executable, "-m", "fracas", *args], input=data, capture_output=True, env=env, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "size"),
    [
        (["validate", "-"], 1_000_001),
        (["fight", "-"], 1_000_001),
        (["fights", "import", "-"], 20_000_001),
        (["import", "-", "--ruleset", "gurps4"], 20_000_001),
    ],
    ids=["validate", "fight", "fights-import", "import"],
)
def test_standard_input_past_its_limit_is_refused(args: list[str], size: int, tmp_path: Path) -> None:
    run = _run(args, b"#" * size, tmp_path)
    err = run.stderr.decode()
    assert run.returncode == 2, err
    assert "limit" in err and "Traceback" not in err


def test_a_file_past_its_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "fight.json"
    big.write_bytes(b" " * 20_000_001)
    run = _run(["fights", "import", str(big)], b"", tmp_path)
    assert run.returncode == 2 and "limit" in run.stderr.decode()
