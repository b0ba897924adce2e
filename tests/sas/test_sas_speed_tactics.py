"""The S&S tactics' short cuts choose what the plain tactics chose (no event changes): skipping closing
attacks on a foe with no room next to him, a Trample by one not Large enough and a Dog Pile on one not
larger (validate refuses them), and weighing a Horde Attack from the modifiers instead of the printed
odds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.commands import Command, Decision
from fracas.engine.play import Fight
from fracas.engine.state import FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import ATTACK_ACTIONS
from fracas.rules.sas.ruleset import RULESET

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sas"
CLOSING = ("close-to-attack", "sneak-attack", "charge", "horde", "dog-pile", "trample", "leap-attack")


class _Plain:
    """The ruleset with only what the plain tactics used: ``validate``, ``choices`` and ``odds`` (the tactic
    finds no ``no_room_next_to``, ``large_against``, ``smaller_than`` or ``attack_modifiers_now`` on it, so
    it takes the long way)."""

    def __init__(self, ruleset: Any) -> None:
        self._rs = ruleset

    def validate(self, state: FightState, cmd: Command) -> None:
        self._rs.validate(state, cmd)

    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        return self._rs.choices(state, decision)  # type: ignore[no-any-return]

    def odds(self, state: FightState, cmd: Command) -> str | None:
        return self._rs.odds(state, cmd)  # type: ignore[no-any-return]


def _decisions(name: str, seed: int, limit: int) -> Any:
    _, state = encounter.load(EXAMPLES / f"{name}.yaml")
    fight = Fight(RULESET, state, RandomDice(seed), log=None)
    for _ in range(limit):
        decision = fight.advance_until_decision()
        if decision is None:
            return
        yield fight, decision
        fight.submit(fight.auto_command(decision))


@pytest.mark.parametrize(
    ("name", "seeds", "limit"),
    [
        ("goblin-horde", (1,), 160),
        ("ambush", (2,), 120),
        ("cavalry-charge", (1,), 120),
        ("dog-pile", (1, 2, 3, 4, 5), 60),
    ],
)
def test_tactic_choices_are_the_plain_ones(name: str, seeds: tuple[int, ...], limit: int) -> None:
    plain = _Plain(RULESET)
    seen = 0
    for seed in seeds:
        for fight, decision in _decisions(name, seed, limit):
            tactic = fight.controllers[fight.state.combatants[decision.actor].tactic]
            fast = tactic.choose(fight.state, decision, RULESET)
            slow = tactic.choose(fight.state, decision, plain)  # type: ignore[arg-type]
            assert (fast.action, fast.target, fast.args) == (slow.action, slow.target, slow.args)
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("name", ["goblin-horde", "ambush", "cavalry-charge"])
def test_no_room_next_to_means_every_closing_attack_is_refused(name: str) -> None:
    crowded = 0
    for fight, decision in _decisions(name, 3, 80):
        state = fight.state
        c = state.combatants[decision.actor]
        for f in state.combatants.values():
            if f.side == c.side or f.status != "active" or not RULESET.no_room_next_to(state, c, f):
                continue
            crowded += 1
            for action in CLOSING:
                assert action in ATTACK_ACTIONS
                with pytest.raises(IllegalCommand):
                    RULESET.validate(state, Command(c.id, action, f.id))
    if name == "goblin-horde":
        assert crowded > 0  # the pass is two spaces wide: the goblins behind find no room


def test_encounter_settings_follow_the_state_they_are_read_for() -> None:
    """``settings_of`` works the settings out once per state and again when they change: a changed settings
    dict (in place too), other options or another state get their own; the data file's are never changed."""
    from fracas.rules.sas.settings import settings_of
    from fracas.rules.sas.tables import tables

    own = tables().settings
    state = FightState("sas", "x", {}, [])
    assert settings_of(state) is own
    state.extra["settings"] = {"fatigue_rounds": own.fatigue_rounds + 3}
    s = settings_of(state)
    assert s.fatigue_rounds == own.fatigue_rounds + 3
    assert settings_of(state) is s  # remembered
    assert tables().settings is own
    state.extra["settings"]["fatigue_rounds"] = own.fatigue_rounds + 5  # changed in place: seen
    assert settings_of(state).fatigue_rounds == own.fatigue_rounds + 5
    state.options["minions"] = not own.minions
    s = settings_of(state)
    assert (s.minions, s.fatigue_rounds) == (not own.minions, own.fatigue_rounds + 5)
    other = FightState("sas", "y", {}, [])
    assert settings_of(other) is own
