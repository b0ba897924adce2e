"""The gurps4 roll-under odds agree with ``fracas odds "3d6" --under N`` (the dice helper's exact odds)."""

from __future__ import annotations

import itertools
import json

import pytest

from fracas.cli import main
from fracas.rules.gurps4 import core

ROLLS = [sum(f) for f in itertools.product(range(1, 7), repeat=3)]


@pytest.mark.parametrize("n", range(-2, 24))
def test_success_and_critical_odds_match_fracas_odds(n: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "3d6", "--under", str(n), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert core.success_odds(n) == pytest.approx(out["p_success"], abs=1e-12)
    crit_s = sum(core.critical_success(r, n) for r in ROLLS) / 216
    crit_f = sum(core.critical_failure(r, n) for r in ROLLS) / 216
    assert crit_s == pytest.approx(out["p_critical_success"], abs=1e-12)
    assert crit_f == pytest.approx(out["p_critical_failure"], abs=1e-12)
