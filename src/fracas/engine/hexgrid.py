"""Hexes in axial coordinates (q, r): distance, neighbours, straight lines, facing.

A hex is 2 yards in Earthdawn, 1 yard in GURPS, one space in Spells & Swords (DESIGN.md "Space"); the
ruleset converts. Directions are numbered 0..5 counter-clockwise starting east.
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from typing import Any

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def distance(a: Hex, b: Hex) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def _round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both ends included."""
    n = distance(a, b)
    if n == 0:
        return [a]
    # A tiny nudge keeps the line off hex edges so that it is deterministic.
    aq, ar = a[0] + 1e-6, a[1] + 1e-6
    bq, br = b[0] + 1e-6, b[1] + 1e-6
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def between(a: Hex, b: Hex) -> list[Hex]:
    """The hexes strictly between ``a`` and ``b`` on the straight line, nearest ``a`` first."""
    return line(a, b)[1:-1]


def direction_to(a: Hex, b: Hex) -> int:
    """The direction (0..5) whose step from ``a`` points most nearly at ``b``."""
    if a == b:
        return 0
    # b - a, and the hex ``n`` steps along each direction from ``a`` (n = the distance), taken from it:
    # hexgrid.distance written out, the first direction with the least distance wins
    bq = b[0] - a[0]
    br = b[1] - a[1]
    n = (abs(bq) + abs(br) + abs(bq + br)) >> 1
    best, best_d = 0, -1
    for i, (dq, dr) in enumerate(DIRECTIONS):
        x = dq * n - bq
        y = dr * n - br
        d = (abs(x) + abs(y) + abs(x + y)) >> 1
        if best_d < 0 or d < best_d:
            best, best_d = i, d
    return best


def step_towards(a: Hex, b: Hex, blocked: Container[Hex] = frozenset()) -> Hex:
    """One hex from ``a`` that brings it closest to ``b`` without entering a blocked hex (stays if none)."""
    best, best_d = a, distance(a, b)
    for n in neighbours(a):
        if n in blocked:
            continue
        d = distance(n, b)
        if d < best_d:
            best, best_d = n, d
    return best


def ring(centre: Hex, radius: int) -> Iterator[Hex]:
    if radius == 0:
        yield centre
        return
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    for i in range(6):
        for _ in range(radius):
            yield (q, r)
            q, r = q + DIRECTIONS[i][0], r + DIRECTIONS[i][1]


ROUTE_MARGIN = 6
""":func:`route` looks at hexes at most this much farther from the goal than the start is."""
ROUTE_REACH = 40
"""... and at most this many hexes from the start (the batch kernels size their work arrays by it)."""


def route(
    start: Hex, goal: Hex, blocked: Any, stop_at: int = 1, max_len: int | None = None
) -> list[Hex] | None:
    """A shortest path of free hexes from ``start`` to the first hex at most ``stop_at`` from ``goal``,
    ``start`` excluded; ``[]`` if ``start`` is already there, None if no such hex can be reached.

    Breadth first from ``start``, each hex's neighbours in :data:`DIRECTIONS` order, so ties go the same
    way every time. Only hexes within ``distance(start, goal) + ROUTE_MARGIN`` of the goal and
    ``ROUTE_REACH`` of the start are searched (the map has no edge: this bounds the search when the goal
    is walled in). ``blocked`` only needs ``in``. With ``max_len``, None also when the path would be longer:
    hexes from which the goal is out of reach in the hexes left are not searched, which leaves the search
    tree of the others, and so the path found, as it is without ``max_len``."""
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
    if d0 - stop_at > ROUTE_REACH:
        # every hex within ``stop_at`` of the goal is farther than ROUTE_REACH from the start, where the
        # search below never looks: it would walk the whole reach only to find nothing
        return None
    if max_len is None:
        if _walled_off(start, goal, blocked, stop_at, d0):
            return None
        # A shortest path no longer than L is found by the search bounded by max_len=L, the same path (see
        # above); the bounded search looks only at hexes on some way of at most L hexes, far fewer than the
        # whole search area when the way round is short. So: the straight distance first, then a little
        # more each time, and the search without bound only when the way is longer still.
        for slack in _ROUTE_SLACKS:
            found = _route(start, goal, blocked, stop_at, d0 - stop_at + slack, d0)
            if found is not None:
                return found
    return _route(start, goal, blocked, stop_at, max_len, d0)


_POCKET = 8
""":func:`_walled_off` looks at no more free hexes than this."""


def _walled_off(start: Hex, goal: Hex, blocked: Any, stop_at: int, d0: int) -> bool:
    """True when the free hexes within ``stop_at`` of the goal, with every free hex joined to them inside the
    search area of :func:`route`, are at most :data:`_POCKET` hexes none of which is next to ``start``: then
    the search would walk its whole area only to find nothing (a foe whose one open side is a closed pocket).
    False when that is not so or not known after looking at that many hexes."""
    gq, gr = goal
    sq, sr = start
    far = d0 + ROUTE_MARGIN
    seen: set[Hex] = set()
    queue: list[Hex] = []

    def inside(q: int, r: int) -> bool:
        dq, dr = q - gq, r - gr
        if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > far:
            return False
        dq, dr = q - sq, r - sr
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 <= ROUTE_REACH

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
    start: Hex, goal: Hex, blocked: Any, stop_at: int, max_len: int | None, d0: int
) -> list[Hex] | None:
    """The search of :func:`route` once its quick answers are ruled out (``d0``: the start's distance from
    the goal)."""
    gq, gr = goal
    sq, sr = start
    far = d0 + ROUTE_MARGIN
    check_reach = d0 + far > ROUTE_REACH  # else every hex within ``far`` of the goal is within reach
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
            far = min(d0 + ROUTE_MARGIN, max_len + stop_at - depth[h] - 1)
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
                if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > ROUTE_REACH:
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
