"""Offered equals legal, and every tactic finishes its turn: in the bundled ED4 and ED1 fights, at every
decision, each command ``choices`` offers passes ``validate``, and the command the combatant's tactic
chooses is accepted (a person is never offered what the rules refuse; a tactic never stalls a fight)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples/ed4").glob("*.yaml")) + sorted((ROOT / "examples/ed1").glob("*.yaml"))


def play_checking_offers(path: Path, seed: int, max_decisions: int = 400) -> None:
    spec, state = encounter.load(path)
    rules = get_ruleset(state.ruleset)
    f = Fight(rules, state, RandomDice(seed), seed=seed)
    for _ in range(max_decisions):
        d = f.advance_until_decision()
        if d is None:
            return
        for c in rules.choices(f.state, d):
            try:
                rules.validate(f.state, c)
            except IllegalCommand as err:  # pragma: no cover - the failure message
                raise AssertionError(f"round {f.state.round}: offered {c}, refused: {err}") from err
        cmd = f.auto_command(d)
        try:
            f.submit(cmd)
        except IllegalCommand as err:  # pragma: no cover - the failure message
            raise AssertionError(f"round {f.state.round}: the tactic chose {cmd}, refused: {err}") from err


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_offered_choice_is_legal_and_the_tactic_finishes(path: Path, seed: int) -> None:
    play_checking_offers(path, seed)


def play_as_a_random_person(path: Path, seed: int, max_decisions: int = 400) -> None:
    """At each decision a person picks one of the offered commands at random (it must be accepted), or,
    one time in two, lets the tactic play (its command must be accepted too: a tactic finishes any turn a
    person began, after a crawl, a move, a failed Jump Up...)."""
    import random

    spec, state = encounter.load(path)
    rules = get_ruleset(state.ruleset)
    f = Fight(rules, state, RandomDice(seed), seed=seed)
    pick = random.Random(seed)
    for _ in range(max_decisions):
        d = f.advance_until_decision()
        if d is None:
            return
        offered = rules.choices(f.state, d)
        cmd = pick.choice(offered) if offered and pick.random() < 0.5 else f.auto_command(d)
        try:
            f.submit(cmd)
        except IllegalCommand as err:  # pragma: no cover - the failure message
            raise AssertionError(f"round {f.state.round}: {cmd} refused: {err}") from err


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_a_person_then_the_tactic_always_finish_the_turn(path: Path, seed: int) -> None:
    play_as_a_random_person(path, seed)
