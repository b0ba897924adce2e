"""Policies that choose commands for automated combatants.

A tactic is any object with ``choose(state, decision, ruleset) -> Command``. Each ruleset names its own
tactics in :meth:`Ruleset.tactics` ("default" at least); an encounter file picks one per combatant with
``tactic:``. Tactics must be deterministic functions of the state (the dice belong to the rules), so that a
seeded fight replays identically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from fracas.engine.commands import Command, Decision
    from fracas.engine.state import FightState
    from fracas.rules.base import Ruleset


class Tactic(Protocol):
    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command: ...


class FirstChoice:
    """Takes the first legal command the ruleset lists (a baseline for tests)."""

    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command:
        return ruleset.choices(state, decision)[0]
