"""Paths on the hex map, for every ruleset: the hexes a mover cannot enter, the shortest way round them, a
walk toward a goal and a walk away from threats.

Every search here takes its neighbours in :data:`~fracas.engine.hexgrid.DIRECTIONS` order, so ties go the
same way every time and a seeded fight replays identically; what differs between rulesets (how far a
search may look, how far from the goal it stops, how a walk away breaks its ties) is a parameter.

- :func:`blocked`, :func:`blocked_view`, :class:`Taken`: the map's blocked hexes and every hex another
  combatant who is neither dead nor fled stands on.
- :func:`route`: a shortest path (breadth first; of all shortest paths, the one whose directions come first
  in DIRECTIONS order) within an area bounded around the goal (``margin``), around the start (``reach``) or
  by length (``max_len``).
- :func:`greedy`, :func:`towards`: steps that each bring the mover nearer; when none does before it is done,
  a shortest way round (:func:`route`).
- :func:`away`: steps that each take the mover farthest from the nearest threat.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import DIRECTIONS, Hex, ring

if TYPE_CHECKING:
    from fracas.engine.state import FightState

GRID_FROM = 24
"""Fights with more combatants than this look around the actor's hex (the state's occupancy index, rings of
hexes outward) instead of at every combatant: the same answers, without O(combatants) per decision."""


# ----- the hexes a mover cannot enter ------------------------------------------------------------------


def map_blocked(state: FightState) -> set[Hex]:
    """The map's blocked hexes (``extra["map"]["blocked"]``)."""
    return {(h[0], h[1]) for h in state.extra.get("map", {}).get("blocked", ())}


def blocked(state: FightState, mover: str) -> set[Hex]:
    """The hexes ``mover`` cannot enter: blocked on the map or taken by another combatant who is neither dead
    nor fled (the fallen take up their hex)."""
    return map_blocked(state) | state.occupied(mover)


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


# ----- the shortest way round ---------------------------------------------------------------------------

ROUTE_MARGIN = 6
""":func:`route`'s default area: hexes at most this much farther from the goal than the start is ..."""
ROUTE_REACH = 40
"""... and at most this many hexes from the start (the batch kernels size their work arrays by it)."""

_FAR = 1 << 30
"""No bound (farther than any search goes)."""


def route(
    start: Hex,
    goal: Hex,
    blocked: Any,
    stop_at: int = 1,
    max_len: int | None = None,
    *,
    margin: int | None = ROUTE_MARGIN,
    reach: int | None = ROUTE_REACH,
) -> list[Hex] | None:
    """A shortest path of free hexes from ``start`` to the first hex at most ``stop_at`` from ``goal``,
    ``start`` excluded; ``[]`` if ``start`` is already there, None if no such hex can be reached.

    Breadth first from ``start``, each hex's neighbours in :data:`DIRECTIONS` order, so ties go the same
    way every time: of all shortest paths, the one whose directions, read as a string of direction numbers,
    come first. Only hexes within ``distance(start, goal) + margin`` of the goal and ``reach`` of the start
    are searched (None: no such bound; the map has no edge, so one of ``margin``, ``reach``, ``max_len`` is
    needed). ``blocked`` only needs ``in``. With ``max_len``, None also when the path would be longer:
    hexes from which the goal is out of reach in the hexes left are not searched, which leaves the search
    tree of the others, and so the path found, as it is without ``max_len``."""
    if margin is None and reach is None and max_len is None:
        raise ValueError("route needs a bound: margin, reach or max_len")
    gq, gr = goal
    sq, sr = start
    dq, dr = sq - gq, sr - gr
    d0 = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
    if d0 <= stop_at:
        return []
    if stop_at == 1 and all((gq + q, gr + r) in blocked for q, r in DIRECTIONS):
        return None  # every hex next to the goal is taken
    if max_len is not None and d0 - stop_at > max_len:
        return None
    if reach is not None and d0 - stop_at > reach:
        # every hex within ``stop_at`` of the goal is farther than ``reach`` from the start, where the
        # search below never looks: it would walk the whole reach only to find nothing
        return None
    if max_len is None:
        if _walled_off(start, goal, blocked, stop_at, d0, margin, reach):
            return None
        # A shortest path no longer than L is found by the search bounded by max_len=L, the same path (see
        # above); the bounded search looks only at hexes on some way of at most L hexes, far fewer than the
        # whole search area when the way round is short. So: the straight distance first, then a little
        # more each time, and the search without bound only when the way is longer still.
        for slack in _ROUTE_SLACKS:
            found = _route(start, goal, blocked, stop_at, d0 - stop_at + slack, d0, margin, reach)
            if found is not None:
                return found
    return _route(start, goal, blocked, stop_at, max_len, d0, margin, reach)


_POCKET = 8
""":func:`_walled_off` looks at no more free hexes than this."""


def _walled_off(
    start: Hex, goal: Hex, blocked: Any, stop_at: int, d0: int, margin: int | None, reach: int | None
) -> bool:
    """True when the free hexes within ``stop_at`` of the goal, with every free hex joined to them inside the
    search area of :func:`route`, are at most :data:`_POCKET` hexes none of which is next to ``start``: then
    the search would walk its whole area only to find nothing (a foe whose one open side is a closed pocket).
    False when that is not so or not known after looking at that many hexes."""
    gq, gr = goal
    sq, sr = start
    far = _FAR if margin is None else d0 + margin
    near = _FAR if reach is None else reach
    seen: set[Hex] = set()
    queue: list[Hex] = []

    def inside(q: int, r: int) -> bool:
        dq, dr = q - gq, r - gr
        if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > far:
            return False
        dq, dr = q - sq, r - sr
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 <= near

    for radius in range(stop_at + 1):
        for h in ring(goal, radius):
            if h not in blocked and inside(*h):
                seen.add(h)
                queue.append(h)
    for h in queue:  # grows as it goes
        if len(seen) > _POCKET:
            return False
        hq, hr = h
        for q, r in DIRECTIONS:
            n = (hq + q, hr + r)
            if n == start:
                return False
            if n not in seen and n not in blocked and inside(hq + q, hr + r):
                seen.add(n)
                queue.append(n)
    return True


_ROUTE_SLACKS = (0, 2, 6, 14)
"""The extra hexes over the straight distance :func:`route` first allows itself, in turn."""


def _route(
    start: Hex,
    goal: Hex,
    blocked: Any,
    stop_at: int,
    max_len: int | None,
    d0: int,
    margin: int | None,
    reach: int | None,
) -> list[Hex] | None:
    """The search of :func:`route` once its quick answers are ruled out (``d0``: the start's distance from
    the goal)."""
    gq, gr = goal
    sq, sr = start
    area = _FAR if margin is None else d0 + margin
    far = area
    near = _FAR if reach is None else reach
    # the reach is checked unless every hex within ``far`` of the goal is within it
    check_reach = reach is not None and d0 + far > near
    # Each hex is weighed once: ``parent`` holds the hexes reached (with the hex they were reached from) and,
    # as None, those turned down (too far, out of reach, blocked); none of these reasons goes away later in
    # the search (``far`` only shrinks as the depth grows), so a hex turned down from one neighbour would be
    # turned down from every other one.
    parent: dict[Hex, Hex | None] = {start: start}
    depth: dict[Hex, int] = {start: 0}
    queue = [start]
    qi = 0
    while qi < len(queue):
        h = queue[qi]
        hq, hr = h
        qi += 1
        if max_len is not None:
            # a neighbour at distance nd from the goal needs depth + 1 + nd - stop_at <= max_len
            far = min(area, max_len + stop_at - depth[h] - 1)
        for q, r in DIRECTIONS:
            nq = hq + q
            nr = hr + r
            n = (nq, nr)
            if n in parent:
                continue
            dq = nq - gq
            dr = nr - gr
            nd = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            if nd > far:
                parent[n] = None
                continue
            if check_reach:
                dq = nq - sq
                dr = nr - sr
                if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > near:
                    parent[n] = None
                    continue
            if n in blocked:
                parent[n] = None
                continue
            parent[n] = h
            if max_len is not None:
                depth[n] = depth[h] + 1
            if nd <= stop_at:
                path = [n]
                while h != start:  # h: the hex n was reached from
                    path.append(h)
                    h = parent[h]  # type: ignore[assignment]
                path.reverse()
                return path
            queue.append(n)
    return None


# ----- walks --------------------------------------------------------------------------------------------


def greedy(start: Hex, goal: Hex, steps: int, blocked: Container[Hex], stop_at: int) -> tuple[list[Hex], int]:
    """Up to ``steps`` hexes toward ``goal``, each the first neighbour (in DIRECTIONS order) that is not
    blocked and nearer ``goal`` than where it stands (a step brings it at most one hex nearer, so the first
    nearer is a nearest), stopping within ``stop_at`` or when no neighbour is nearer; and the distance left.
    Every such step is a step of a shortest path. The distances are kept as offsets from ``goal`` and worked
    out inline: this runs for every move of every figure."""
    q, r = start
    a, b = q - goal[0], r - goal[1]
    left = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2
    path: list[Hex] = []
    for _ in range(steps):
        if left <= stop_at:
            break
        best = None
        best_d = left
        ba = bb = 0
        for dq, dr in DIRECTIONS:
            x, y = a + dq, b + dr
            d = ((x if x > 0 else -x) + (y if y > 0 else -y) + (x + y if x + y > 0 else -x - y)) // 2
            if d >= best_d:  # only a nearer hex is taken: asked before the (dearer) blocked test
                continue
            n = (q + dq, r + dr)
            if n in blocked:
                continue
            best, best_d, ba, bb = n, d, x, y
            break  # a step brings it at most one hex nearer: no later direction is strictly nearer
        if best is None:
            break
        path.append(best)
        q, r = best
        a, b, left = ba, bb, best_d
    return path, left


def towards(
    start: Hex,
    goal: Hex,
    steps: int,
    blocked: Container[Hex],
    stop_at: int = 1,
    *,
    arrive: bool = False,
    margin: int | None = ROUTE_MARGIN,
    reach: int | None = ROUTE_REACH,
) -> list[Hex]:
    """At most ``steps`` hexes from ``start`` toward ``goal``, ending ``stop_at`` away: the :func:`greedy`
    steps; when no neighbour is nearer (friends or foes in the way) before the path is done, the first
    ``steps`` hexes of a shortest way round (:func:`route` from ``start`` with ``margin`` and ``reach``)
    instead, or the greedy hexes if the goal cannot be reached. ``arrive``: the caller only uses a path
    that gets there within ``steps`` (an attack after moving), so a longer way round is not searched for
    (the greedy hexes are given instead; the same choices)."""
    if type(blocked) is Taken:
        blocked = blocked.but_own_hex(start)  # what it says of ``start`` changes no step and no route
    path, left = greedy(start, goal, steps, blocked, stop_at)
    if len(path) >= steps or left <= stop_at:
        return path
    found = route(start, goal, blocked, stop_at, steps if arrive else None, margin=margin, reach=reach)
    return path if found is None else found[:steps]


def away(
    start: Hex,
    threats: Sequence[Hex],
    steps: int,
    blocked: Container[Hex],
    *,
    gain: bool = True,
    tie: Callable[[Hex], Any] | None = None,
) -> list[Hex]:
    """At most ``steps`` hexes from ``start``, each the neighbour (not blocked, not already on the path)
    farthest from the nearest of ``threats`` (0 when there is none), the first in DIRECTIONS order among
    equals, or among those the one ``tie`` ranks highest. ``gain``: only a step that gets farther from the
    nearest threat than where it stands is taken (else the walk ends); without it the best neighbour is
    taken even if it is nearer."""
    path: list[Hex] = []
    here = start
    for _ in range(steps):
        best = None
        best_key: Any = None
        floor = _nearest(here, threats) if gain else -1
        for dq, dr in DIRECTIONS:
            n = (here[0] + dq, here[1] + dr)
            if n in blocked or n in path:
                continue
            d = _nearest(n, threats)
            if d <= floor:
                continue
            key = d if tie is None else (d, tie(n))
            if best_key is None or key > best_key:
                best, best_key = n, key
        if best is None:
            break
        path.append(best)
        here = best
    return path


def _nearest(h: Hex, threats: Sequence[Hex]) -> int:
    """The distance from ``h`` to the nearest of ``threats``, 0 when there is none (hex distance written
    out: this runs per step per threat)."""
    q, r = h
    best = -1
    for tq, tr in threats:
        a, b = q - tq, r - tr
        s = a + b
        d = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (s if s >= 0 else -s)) // 2
        if best < 0 or d < best:
            best = d
    return best if best >= 0 else 0
