"""A fighter whose only weapon is below effective skill 3 may not attack (B344: "below 3 only defense rolls
may be attempted") and an encounter that gives him one still plays to the end (it used to stop half-way on
the refused roll)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

FILE = Path(__file__).resolve().parents[2] / "examples/gurps4/fight-on-foot.yaml"


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("stats", [{"skills": {"Broadsword": 1}}, {"dx": 2, "skills": {"Broadsword": -5}}])
def test_below_effective_3_the_fight_still_ends(seed: int, stats: dict) -> None:
    data = yaml.safe_load(FILE.read_text())
    data["sides"][0]["combatants"][0]["stats"] = stats
    _, state = encounter.load_data(data, "low.yaml")
    f = Fight(get_ruleset("gurps4"), state, RandomDice(seed))
    f.log = None
    f.run()
    assert f.state.ended
