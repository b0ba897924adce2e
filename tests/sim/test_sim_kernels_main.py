"""``python -m fracas.sim.kernels``: every bundled kernel has a warm-up encounter that it accepts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from fracas.sim import kernels
from fracas.sim.kernels import __main__ as warm


def test_every_bundled_kernel_module_has_a_warm_up() -> None:
    # one warm-up per kernel module, named as its kernel (compile_kernel checks the name it gets)
    modules = {m for mods in kernels._BUILTINS.values() for m in mods}
    assert len(modules) == len(warm.WARM_UPS)
    assert {w["ruleset"] for w in warm.WARM_UPS.values()} == set(kernels._BUILTINS)


@pytest.mark.parametrize("name", sorted(warm.WARM_UPS))
def test_each_warm_up_gets_its_own_kernel(name: str) -> None:
    got, seconds = warm.compile_kernel(name)
    assert got == name and seconds > 0


def test_unknown_names_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["ed4-duel", "nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_the_module_runs_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fracas.sim.kernels", "ed4-duel"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "ed4-duel: ready" in done.stdout
