"""Every TurnStarted of an Earthdawn fight names the Initiative its actor rolled that round (the first actor
of each round was given none: its "initiative" was null in --json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "name", ["ed4/mica-and-the-ghouls.yaml", "ed4/cavalry-charge.yaml", "ed1/thom-hammerblade.yaml"]
)
@pytest.mark.parametrize("seed", [1, 2])
def test_turn_started_carries_the_rolled_initiative(name: str, seed: int) -> None:
    spec, state = encounter.load(EXAMPLES / name)
    fight = Fight(get_ruleset(spec.ruleset), state, RandomDice(seed), seed=seed)
    fight.run()
    rolled: dict[str, int] = {}
    firsts = 0
    for e in fight.log or []:
        if isinstance(e, ev.RoundStarted):
            rolled = {}
        elif isinstance(e, ev.InitiativeRolled):
            rolled[e.actor] = e.value
        elif isinstance(e, ev.OrderSet):
            firsts += 1
        elif isinstance(e, ev.TurnStarted) and e.actor in rolled:
            assert e.initiative == rolled[e.actor], (e, rolled)
    assert firsts >= 1
