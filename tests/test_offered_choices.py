"""Offered equals legal, for every ruleset: at every decision of random fights of the bundled examples, every
command the ruleset offers passes ``validate`` and resolves, and the combatant's own tactic always finds a
command that does (a tactic that cannot finish its turn stops the fight at the table and in ``fracas sim``).

The fights are random twice over: the dice come from a seed hypothesis draws, and at each decision either the
tactic's command or one of the offered commands, picked by that seed, is played, so that fights wander into
states the tactics alone never reach (a crawl after a knockdown, an odd target, a rider left on foot).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.errors import FracasError
from fracas.rules.registry import get_ruleset

EXAMPLES = sorted(Path(__file__).resolve().parent.parent.glob("examples/*/*.yaml"))
MAX_DECISIONS = 120  # per fight: enough for several rounds of every example
CHECKED_PER_DECISION = 8  # offered commands validated at one decision (all of them when fewer)


def _play(path: Path, seed: int) -> None:
    _, state = encounter.load(path)
    ruleset = get_ruleset(state.ruleset)
    pick = random.Random(seed)
    fight = Fight(ruleset, state, RandomDice(seed))
    for _ in range(MAX_DECISIONS):
        decision = fight.advance_until_decision()
        if decision is None:
            return
        where = f"{path.name} seed {seed} round {fight.state.round}: {decision.actor} ({decision.kind})"
        offered = ruleset.choices(fight.state, decision)
        many = len(offered) > CHECKED_PER_DECISION
        sample = pick.sample(offered, CHECKED_PER_DECISION) if many else offered
        for command in sample:
            try:
                ruleset.validate(fight.state, command)
            except FracasError as exc:
                pytest.fail(f"{where}: offered {command.describe()}, then refused: {exc}")
        try:
            own = fight.auto_command(decision)
            ruleset.validate(fight.state, own)
        except FracasError as exc:
            pytest.fail(f"{where}: the tactic cannot finish its turn: {exc}")
        command = own if not offered or pick.random() < 0.5 else pick.choice(offered)
        try:
            fight.submit(command)
        except FracasError as exc:
            pytest.fail(f"{where}: {command.describe()} validated, then failed to resolve: {exc}")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
@settings(max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_every_offered_command_is_legal_and_every_tactic_finishes(path: Path, seed: int) -> None:
    _play(path, seed)
