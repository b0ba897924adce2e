"""Bundled ED4 examples whose tactics once sent a command the ruleset refuses, stopping the fight mid-way
(issue 3: every bundled example must end). Each fight is replayed with its seed as ``fracas fight`` plays it,
every command validated; found by the acceptance pass and by scripts/hunt_tactic_crashes.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def play_validated(example: str, seed: int) -> Fight:
    """The fight of ``example`` with ``seed``, every tactic's command validated before it is resolved."""
    spec, state = encounter.load(EXAMPLES / example)
    fight = Fight(get_ruleset(spec.ruleset), state, RandomDice(seed), seed=seed)
    while not fight.state.ended:
        decision = fight.advance_until_decision()
        if decision is None:
            break
        fight.submit(fight.auto_command(decision))
    return fight


# Jump Up (p.384): Mica jumps up in round 2, is knocked down again (unconscious) and revived; in round 3 the
# veteran tactic tried Jump Up again without asking the ruleset.
JUMP_UP_AGAIN = [
    ("ed4/ambush-in-the-dark.yaml", 5306519589038473548),
    ("ed4/cavalry-charge.yaml", 2056938456290281986),
]


@pytest.mark.parametrize(("example", "seed"), JUMP_UP_AGAIN)
def test_veteran_asks_before_jumping_up_again_p384(example: str, seed: int) -> None:
    fight = play_validated(example, seed)
    assert fight.state.ended
    tries = [e for e in fight.log if type(e).__name__ == "Marked" and e.key == "jump_tried"]
    assert tries  # the fight does reach a Jump Up
