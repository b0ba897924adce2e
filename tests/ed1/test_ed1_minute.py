"""ED1's minute: "Each Combat Round equals roughly ten seconds of game time" (001_694a1556573a8dc9.txt,
ch.12§Combat-Round), so the unconscious character's Recovery test "one minute after he falls unconscious"
(the shared rule, ED4 p.380) comes 6 rounds after he fell, not ED4's 10 six-second rounds."""

from __future__ import annotations

from typing import Any

import pytest
from ed1_helpers import ED1, build

from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

BLOCK = {
    "kind": "character",
    "dexterity": 12,
    "strength": 12,
    "toughness": 12,
    "perception": 10,
    "willpower": 10,
    "charisma": 10,
    "movement": 6,
    "attacks": [{"name": "Axe", "step": 10, "damage": 10}],
}


def _round_of_the_minute_test(ruleset: Any, name: str) -> int:
    state = build(
        [
            {"name": "A", "combatants": [{"id": "down", "at": [0, 0], "stats": BLOCK, "tactic": "hold"},
                                         {"id": "friend", "at": [0, 5], "stats": BLOCK, "tactic": "hold"}]},
            {"name": "B", "combatants": [{"id": "foe", "at": [30, 0], "stats": BLOCK, "tactic": "hold"}]},
        ],
        ruleset=name,
        max_rounds=20,
    )  # fmt: skip
    down = state.combatants["down"]
    down.status = "unconscious"
    down.marks["unconscious_since"] = 1
    down.counters["damage"] = down.stats.unconsciousness
    f = Fight(ruleset, state, RandomDice(5))
    rnd = 0
    for _ in range(5000):
        for e in f.step():
            if isinstance(e, ev.RoundStarted):
                rnd = e.round
            if isinstance(e, ev.Marked) and e.target == "down" and e.key == "recovery_tried":
                return rnd
        if f.state.ended:
            break
    raise AssertionError("no Recovery test one minute after falling")


@pytest.mark.parametrize(("name", "rounds"), [("ed1", 6), ("ed4", 10)])
def test_the_recovery_test_one_minute_after_falling_unconscious(name: str, rounds: int) -> None:
    ruleset = ED1 if name == "ed1" else get_ruleset("ed4")
    assert _round_of_the_minute_test(ruleset, name) == 1 + rounds
