"""Path searches the Earthdawn code shares: the hexes a combatant cannot enter, a path toward a goal and one
away from a threat. The ED4 tactics walk them; the round offers a person their paths as suggestions
(:meth:`~fracas.rules.earthdawn.commands.EarthdawnCommands._moving_choices`)."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import DIRECTIONS, distance, neighbours
from fracas.engine.pathing import GRID_FROM, Taken, route

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState


def _blocked(state: FightState, me: Combatant) -> set[tuple[int, int]]:
    blocked = {tuple(h) for h in state.extra.get("map", {}).get("blocked", ())}
    for c in state.combatants.values():
        if c.pos is not None and c.id != me.id and c.status not in ("dead", "fled"):
            blocked.add(c.pos)
    return blocked  # type: ignore[return-value]


def blocked_for(state: FightState, me: Combatant) -> Any:
    """:func:`_blocked` for ``in`` tests only: a :class:`Taken` view in big fights, else the set."""
    if len(state.combatants) > GRID_FROM and not state.grid().unplaced:
        return Taken(state, me.id)
    return _blocked(state, me)


def path_towards(
    start: tuple[int, int],
    goal: tuple[int, int],
    limit: int,
    blocked: Container[tuple[int, int]],
    stop_at: int = 1,
    arrive: bool = False,
) -> list[tuple[int, int]]:
    """Hex path from ``start`` toward ``goal``, at most ``limit`` hexes, ending ``stop_at`` away.

    First greedily: each step goes to the first neighbour (in ``hexgrid.DIRECTIONS`` order) not blocked
    that is strictly nearest the goal (distances computed in place, hexgrid.distance); every such step is
    a step of a shortest path. When no neighbour is nearer (friends or foes in the way) before the path is
    done, the first ``limit`` hexes of :func:`hexgrid.route` instead: a shortest way round the blocked
    hexes (breadth first, ties in DIRECTIONS order); the greedy hexes if the goal cannot be reached.
    ``arrive``: the caller only uses a path that gets there within ``limit`` (an attack after moving), so
    a longer way round is not searched for (the greedy hexes are given instead; the same choices)."""
    if type(blocked) is Taken:
        blocked = blocked.but_own_hex(start)  # what it says of ``start`` changes no step and no route
    path: list[tuple[int, int]] = []
    hq, hr = start
    gq, gr = goal
    dq = hq - gq
    dr = hr - gr
    d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    while len(path) < limit and d > stop_at:
        best = None
        best_d = d
        for sq, sr in DIRECTIONS:
            n = (hq + sq, hr + sr)
            if n in blocked:
                continue
            dq = n[0] - gq
            dr = n[1] - gr
            nd = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if nd < best_d:
                best, best_d = n, nd
        if best is None:
            found = route(start, goal, blocked, stop_at, limit if arrive else None)
            return path if found is None else found[:limit]
        path.append(best)
        hq, hr = best
        d = best_d
    return path


def path_away(
    start: tuple[int, int], threat: tuple[int, int], limit: int, blocked: Container[tuple[int, int]]
) -> list[tuple[int, int]]:
    path: list[tuple[int, int]] = []
    here = start
    for _ in range(limit):
        best, best_d = None, distance(here, threat)
        for n in neighbours(here):
            if n in blocked or n in path:
                continue
            nd = distance(n, threat)
            if nd > best_d:
                best, best_d = n, nd
        if best is None:
            break
        path.append(best)
        here = best
    return path
