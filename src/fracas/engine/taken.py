"""The hexes a mover cannot enter, for every ruleset: the map's blocked hexes and every hex another combatant
who is neither dead nor fled stands on (the fallen take up their hex), as a set or, in big fights, as a view
of the state's occupancy index. The path searches (:mod:`fracas.engine.pathing`) go round them."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

from fracas.engine.hexgrid import Hex

if TYPE_CHECKING:
    from fracas.engine.state import FightState

GRID_FROM = 24
"""Fights with more combatants than this look around the actor's hex (the state's occupancy index, rings of
hexes outward) instead of at every combatant: the same answers, without O(combatants) per decision."""


_NO_HEXES: frozenset[Hex] = frozenset()


def map_blocked(state: FightState) -> frozenset[Hex]:
    """The map's blocked hexes (``extra["map"]["blocked"]``), worked out once per fight (kept in
    ``FightState.derived``) and again only if the map's list is another object or another length."""
    cells = state.extra.get("map", {}).get("blocked")
    if not cells:
        return _NO_HEXES
    hit = state.derived.get("map.blocked")
    if hit is not None and hit[0] is cells and hit[1] == len(cells):
        return hit[2]  # type: ignore[no-any-return]
    out = frozenset((h[0], h[1]) for h in cells)
    state.derived["map.blocked"] = (cells, len(cells), out)
    return out


def blocked(state: FightState, mover: str) -> set[Hex]:
    """The hexes ``mover`` cannot enter: blocked on the map or taken by another combatant who is neither dead
    nor fled (the fallen take up their hex)."""
    return state.occupied(mover) | map_blocked(state)


def blocked_view(state: FightState, mover: str) -> Container[Hex]:
    """:func:`blocked` for ``in`` tests only: a :class:`Taken` view of the occupancy index in fights of more
    than :data:`GRID_FROM` combatants (all on the map), else the set."""
    if len(state.combatants) > GRID_FROM and not state.grid().unplaced:
        return Taken(state, mover)
    return blocked(state, mover)


class Taken:
    """The hexes a combatant cannot enter (the map's blocked hexes, ``extra["map"]["blocked"]``, and every
    hex another combatant who is not dead or fled stands on), as a container for ``in``: the same answers as
    a set built from every combatant, read from the state's occupancy index (:meth:`FightState.grid`).

    :meth:`but_own_hex` gives the same answers for every hex but the mover's own as a plain dict when the map
    blocks nothing (for searches that never ask about the hex they start from)."""

    __slots__ = ("blocked", "standing", "cs", "me")

    def __init__(self, state: FightState, me_id: str) -> None:
        self.blocked = map_blocked(state)
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
