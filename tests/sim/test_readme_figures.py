"""benchmarks/check_readme.py reads the README's speed figures it re-measures (the timing itself is not run
here: it is noisy, and CI does not run it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _check_readme() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_readme", ROOT / "benchmarks" / "check_readme.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


cr = _check_readme()


def test_figures_leave_remarks_out_and_read_millions() -> None:
    assert cr.figures("1,200-1,700/s / 650-900/s (target 10,000)") == [(1200, 1700), (650, 900)]
    assert cr.figures("3.8 million per CPU-second") == [(3.8e6, 3.8e6)]
    assert cr.figures("1.3-1.8 s wall in the README's `.venv` (0.27 s of it (nested 3); target 2 s)") == [
        (1.3, 1.8)
    ]
    assert cr.figures("7-8 / 42-52 / 39-45; 19-22 / 54-59 / 74-95")[3:] == [(19, 22), (54, 59), (74, 95)]


def test_a_figure_more_than_twice_away_fails() -> None:
    check = cr.Check("row", ["a", "b"], lambda s: [])
    ok, slow = cr.compare(check, "100-200 / 50", [401.0, 24.0])
    assert ok.factor == 401 / 200 and not ok.ok
    assert slow.factor == 50 / 24 and not slow.ok
    within = cr.compare(check, "100-200 / 50", [399.0, 26.0])
    assert all(r.ok for r in within)
    assert not cr.compare(check, None, [])[0].ok  # a row no longer in the README fails
    assert [r.ok for r in cr.compare(check, "100", [100.0, 60.0])] == [True, True]  # one figure for both


def test_every_checked_row_is_in_the_readme_with_its_figures() -> None:
    rows = cr.speed_rows((ROOT / "README.md").read_text(encoding="utf-8"))
    for check in cr.CHECKS:
        cell = cr._find(rows, check.row)
        assert cell is not None, f"README.md has no speed row starting {check.row!r}"
        got = cr.figures(cell)
        assert len(got) in (1, len(check.labels)), f"{check.row}: {got} for {check.labels}"
