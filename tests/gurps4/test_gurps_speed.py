"""Speed-ups that must change nothing: the defenses on offer that an attack works out on its scratch copy
are carried over to the real state's ``derived`` (gurps4/defense.py ``carry_defense_options``), and the engine
trusts the GURPS tactics' commands without validating them again (``tactics_legal``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import to_json
from fracas.engine.play import Fight
from fracas.rules.gurps4.defense import DEFENSES_KEY, _defense_options, defense_options
from fracas.rules.gurps4.figure import ATTACK_KEY
from fracas.rules.gurps4.ruleset import GurpsRuleset
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples/gurps4").glob("*.yaml"), key=lambda p: p.name)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_carried_defense_options_are_fresh(path: Path) -> None:
    state = encounter.load(path)[1]
    rs = get_ruleset(state.ruleset)
    asked = carried = 0
    for seed in (1, 2, 3):
        fight = Fight(rs, state.clone(), RandomDice(seed), log=None, seed=seed)
        while not fight.state.ended:
            s = fight.state
            att = s.extra.get(ATTACK_KEY)
            if att and not s.ended:
                asked += 1
                kept = s.derived.get(DEFENSES_KEY)
                if kept is not None and kept[0] == s.events_applied and kept[1] is att:
                    carried += 1
                assert defense_options(s) == _defense_options(s, att)
            fight.step()
    assert asked > 0
    assert carried > 0  # the carried options are there when the defense is asked for


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_trusted_tactics_play_as_checked(path: Path) -> None:
    """The engine skips validating the GURPS tactics' commands (``tactics_legal``): playing with every
    command validated gives the same events."""
    state = encounter.load(path)[1]
    rs = get_ruleset(state.ruleset)
    assert rs.tactics_legal
    for seed in (1, 2):
        trusted = Fight(rs, state.clone(), RandomDice(seed), seed=seed)
        trusted.run()
        checked = Fight(rs, state.clone(), RandomDice(seed), seed=seed)
        checked.run_checked()
        assert [to_json(e) for e in trusted.log or ()] == [to_json(e) for e in checked.log or ()]


class _EndCheckedEveryStep(GurpsRuleset):
    out_by_status_only = False


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_end_checked_on_status_changes_only_plays_the_same(path: Path) -> None:
    """``out_by_status_only``: the engine looks for the end of the fight only after a status change (and at
    the start and end of a round); looking after every step ends every fight at the same event."""
    state = encounter.load(path)[1]
    for seed in (1, 2):
        fast = Fight(get_ruleset(state.ruleset), state.clone(), RandomDice(seed), seed=seed)
        fast.run()
        slow = Fight(_EndCheckedEveryStep(), state.clone(), RandomDice(seed), seed=seed)
        slow.run()
        assert [to_json(e) for e in fast.log or ()] == [to_json(e) for e in slow.log or ()]
