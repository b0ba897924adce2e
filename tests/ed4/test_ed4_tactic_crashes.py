"""Bundled ED4 examples whose tactics once sent a command the ruleset refuses, stopping the fight mid-way
(every bundled example must end). Each fight is replayed with its seed as ``fracas fight`` plays it,
every command validated; found by the acceptance pass and by scripts/hunt_tactic_crashes.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import BLOCK, RULESET, build

from fight_helpers import cmd
from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.engine.state import Condition
from fracas.rules.ed4 import options as o
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def play_validated(example: str, seed: int) -> Fight:
    """The fight of ``example`` with ``seed``, every tactic's command validated before it is resolved."""
    spec, state = encounter.load(EXAMPLES / example)
    fight = Fight(get_ruleset(spec.ruleset), state, RandomDice(seed), seed=seed)
    fight.run_checked()
    return fight


# Jump Up (p.384): Mica jumps up in round 2, is knocked down again (unconscious) and revived; in round 3 the
# veteran tactic tried Jump Up again without asking the ruleset.
# (Seeds found again with scripts/hunt_tactic_crashes.py's replay when the default tactic learned to walk
# round taken hexes: Jump Up tried in two rounds of each fight.)
JUMP_UP_AGAIN = [
    ("ed4/ambush-in-the-dark.yaml", 8969812381627468467),
    ("ed4/cavalry-charge.yaml", 2),  # since trained mounts roll no Initiative of their own (p.395)
]


@pytest.mark.parametrize(("example", "seed"), JUMP_UP_AGAIN)
def test_veteran_asks_before_jumping_up_again_p384(example: str, seed: int) -> None:
    fight = play_validated(example, seed)
    assert fight.state.ended
    tries = [e for e in fight.log if type(e).__name__ == "Marked" and e.key == "jump_tried"]
    assert tries  # the fight does reach a Jump Up


def test_jump_up_bars_movement_and_a_second_jump_that_round_only_p384() -> None:
    """Jump Up: "he may not perform any other movement that round" (p.384). A character who jumped up in an
    earlier round and was knocked down again may Jump Up again, and moves again after standing."""
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "tactic": "person", "stats": BLOCK}]},
            {"name": "B", "combatants": [{"id": "b", "at": [3, 0], "tactic": "hold", "stats": BLOCK}]},
        ]
    )
    state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    f = start(state, [3, 3])
    declare(f, "a", o.JUMP_UP)
    act(f, "a", [7])
    a = f.state.combatants["a"]
    now = f.state.round
    a.marks["jumped_up"] = a.marks["jump_tried"] = now - 1  # jumped up last round, since knocked down again
    assert RULESET._is_legal(f.state, cmd("a", "jump-up", end=False))
    a.marks["jumped_up"] = a.marks["jump_tried"] = now
    assert not RULESET._is_legal(f.state, cmd("a", "jump-up", end=False))
    del a.conditions["knocked-down"]
    assert RULESET.movement_hexes(f.state, a) == 0  # jumped up this round
    a.marks["jumped_up"] = now - 1
    assert RULESET.movement_hexes(f.state, a) > 0  # a later round: he moves again
