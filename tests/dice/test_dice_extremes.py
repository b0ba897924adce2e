"""Extreme totals come from the notation, not from probabilities that underflow; --ruleset is case-blind."""

from __future__ import annotations

import json

import pytest

from fracas.cli import main
from fracas.dice.exact import distribution


@pytest.mark.parametrize(
    ("expr", "lo", "hi"), [("100d1000", 100, 100000), ("2d6+3", 5, 15), ("1000d6", 1000, 6000)]
)
def test_min_and_max_of_many_dice(expr: str, lo: int, hi: int) -> None:
    d = distribution(expr)
    assert (d.min, d.max) == (lo, hi)


def test_ruleset_names_ignore_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "step 13", "--dn", "9", "--ruleset", "ED1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "ed1"
