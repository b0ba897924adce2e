"""Policies that choose commands for automated combatants.

A tactic is any object with ``choose(state, decision, ruleset) -> Command``. Each ruleset names its own
tactics in :meth:`Ruleset.tactics` ("default" at least); an encounter file picks one per combatant with
``tactic:``. Tactics must be deterministic functions of the state (the dice belong to the rules), so that a
seeded fight replays identically.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Protocol

from fracas.engine.hexgrid import Hex

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


GRID_FROM = 24
"""Fights with more combatants than this look around the actor's hex (the state's occupancy index, rings of
hexes outward) instead of at every combatant: the same answers, without O(combatants) per decision."""


class Taken:
    """The hexes a combatant cannot enter (the map's blocked hexes, ``extra["map"]["blocked"]``, and every
    hex another combatant who is not dead or fled stands on), as a container for ``in``: the same answers as
    a set built from every combatant, read from the state's occupancy index (:meth:`FightState.grid`).

    :meth:`but_own_hex` gives the same answers for every hex but the mover's own as a plain dict when the map
    blocks nothing (for searches that never ask about the hex they start from)."""

    __slots__ = ("blocked", "standing", "cs", "me")

    def __init__(self, state: FightState, me_id: str) -> None:
        self.blocked = {tuple(h) for h in state.extra.get("map", {}).get("blocked", ())}
        self.standing = state.grid().standing
        self.cs = state.combatants
        self.me = me_id

    def __contains__(self, h: object) -> bool:
        n = self.standing.get(h)  # type: ignore[call-overload]
        if n:
            if n > 1:
                return True
            me = self.cs[self.me]
            if me.pos != h or me.status in ("dead", "fled"):
                return True  # the one standing there is not the mover
        return h in self.blocked

    def but_own_hex(self, start: Hex) -> Container[Hex]:
        """A container answering as this one for every hex but ``start`` when ``start`` is the mover's hex and
        the map blocks nothing (there it may say taken by the mover himself); else this one."""
        if self.blocked or self.cs[self.me].pos != start:
            return self
        return self.standing
