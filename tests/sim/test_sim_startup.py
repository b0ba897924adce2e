"""What ``fracas sim`` loads and how it leaves the garbage collector (its start-up cost)."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import subprocess
import sys
from pathlib import Path

from fracas.cli import main

MICA = str(Path(__file__).resolve().parents[2] / "examples/ed4/mica-and-the-ghouls.yaml")
ARGS = ["sim", MICA, "-n", "50", "--seed", "1", "--json", "--workers", "1"]


def _sim() -> dict[str, object]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(ARGS) == 0
    data: dict[str, object] = json.loads(out.getvalue())
    return data


def test_the_collector_is_left_as_it_was() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    _sim()
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    gc.disable()
    try:
        _sim()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_numbers_do_not_depend_on_the_collector() -> None:
    first = _sim()
    gc.disable()
    try:
        second = _sim()
    finally:
        gc.enable()
    first.pop("timing")
    second.pop("timing")
    assert first == second


def test_sim_json_loads_neither_plots_nor_other_commands() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from fracas.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({ARGS!r}) == 0\n"
        "names = ['matplotlib', 'fracas.sim.plots', 'rich.table', 'fracas.dice.cli', 'fracas.engine.cli',\n"
        "         'fracas.web.cli', 'fastapi', 'jinja2']\n"
        "print([n for n in names if n in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
