"""Paths on the hex map, for every ruleset: the shortest way round the hexes a mover cannot enter
(:mod:`fracas.engine.taken`), a walk toward a goal, a walk away from threats, a way toward a goal that may be
out of reach.

Every search here takes its neighbours in :data:`~fracas.engine.hexgrid.DIRECTIONS` order, so ties go the
same way every time and a seeded fight replays identically; what differs between rulesets (how far a
search may look, how far from the goal it stops, how a walk away breaks its ties) is a parameter.

- :func:`route`: a shortest path (breadth first; of all shortest paths, the one whose directions come first
  in DIRECTIONS order) within an area bounded around the goal (``margin``), around the start (``reach``) or
  by length (``max_len``).
- :func:`greedy`, :func:`towards`: steps that each bring the mover nearer; when none does before it is done,
  a shortest way round (:func:`route`).
- :func:`away`: steps that each take the mover farthest from the nearest threat.
- :func:`approach`: a short path to the reachable hex nearest a goal that may be out of reach (a weighted
  A* search bounded in effort), with :func:`reaches` (can a hex near the goal be reached at all?) and
  :func:`free_ring` (how near a crowded goal one can stand).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Container, Sequence
from typing import Any

from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, ring
from fracas.engine.taken import Taken

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


# ----- toward a goal that may be out of reach -------------------------------------------------------------

APPROACH_WEIGHT = 2
""":func:`approach` weighs the distance left this many times a step taken (fast, near-shortest) ..."""
APPROACH_EFFORT = 1500
"""... and pushes at most this many hexes on its heap (the effort it may spend)."""

_APPROACHES: dict[tuple[Hex, Hex, int, frozenset[Hex], int, int, int], tuple[Hex, ...]] = {}


def approach(
    start: Hex,
    goal: Hex,
    steps: int,
    blocked: set[Hex] | frozenset[Hex],
    stop_at: int = 1,
    *,
    weight: int = APPROACH_WEIGHT,
    effort: int = APPROACH_EFFORT,
) -> list[Hex]:
    """A short path (at most ``steps``, around blocked hexes) to the reachable hex nearest the goal (within
    ``stop_at`` of it; of a crowded goal, the first ring around it from ``stop_at`` out with a free hex,
    :func:`free_ring`): a weighted A* search (f = steps + ``weight`` x distance left), bounded in
    ``effort``; ties go to the first found (the heap orders (f, distance left, order pushed), neighbours in
    DIRECTIONS order), so it is deterministic. Pure in its arguments, so answers are remembered (a tactic
    validates a move, then the engine validates and resolves it again)."""
    key = (start, goal, steps, frozenset(blocked), stop_at, weight, effort)
    hit = _APPROACHES.get(key)
    if hit is None:
        if len(_APPROACHES) > 4096:
            _APPROACHES.clear()
        hit = _APPROACHES[key] = tuple(_search_path(start, goal, steps, key[3], stop_at, weight, effort))
    return list(hit)


def _window(start: Hex, spaces: int) -> tuple[int, int, int, int]:
    """The square of cells the searches below work on: ``spaces + 1`` hexes each way from ``start``, so every
    hex within ``spaces`` steps and each of its neighbours lies inside and no step wraps round an edge. A hex
    (q, r) is cell ``(q - oq) * side + (r - or_)``. Returns (side, oq, or_, start's cell)."""
    half = spaces + 1
    side = 2 * half + 1
    return side, start[0] - half, start[1] - half, half * side + half


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(side: int) -> tuple[tuple[int, int, int], ...]:
    """(dq, dr, cell offset) of the six steps, in DIRECTIONS order (the searches' tie-breaks follow it);
    remembered per window side (a pure function of an int: a few dozen sides in all)."""
    hit = _STEPS.get(side)
    if hit is None:
        hit = _STEPS[side] = tuple((dq, dr, dq * side + dr) for dq, dr in DIRECTIONS)
    return hit


def reaches(start: Hex, goal: Hex, want: int, spaces: int, blocked: Container[Hex]) -> bool:
    """Whether a free hex within ``want`` of ``goal`` (not ``start``) lies within ``spaces`` steps of
    ``start`` around blocked hexes.

    A breadth-first flood from both ends at once: from ``start`` and from the free hexes near the goal,
    each time one layer more on the side with the smaller frontier, until the two meet (yes), one side runs
    out of hexes (no: a goblin at the back of a jam asks about a foe whose free hexes are walled in by the
    goblins in front, and the flood from the goal ends at once instead of filling the field behind) or the
    two depths add up to ``spaces`` (no). A hex is not followed when the hex distance to the other end, a
    lower bound on any path, says the rest of the budget cannot get there. Runs on a flat grid of cells
    (``_window``), each hex looked up in ``blocked`` once; the answer is the plain flood's (a test checks)."""
    if spaces <= 0:
        return False
    side, oq, or_, here = _window(start, spaces)
    sq, sr = start[0] - oq, start[1] - or_
    gq, gr = goal[0] - oq, goal[1] - or_  # the goal in cell coordinates (it may lie outside the square)
    free = bytearray(side * side)  # per cell: 0 not looked at, 1 blocked, 2 free
    mine = bytearray(side * side)  # per cell: 1 reached from the start, 2 reached from the goal
    mine[here] = 1
    free[here] = 2
    # the goal's end: the free hexes within ``want`` of it that the budget can reach at all
    back: list[int] = []
    for dq in range(-want, want + 1):
        for dr in range(max(-want, -dq - want), min(want, -dq + want) + 1):
            q, r = gq + dq, gr + dr
            a, b = q - sq, r - sr
            h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
            if h > spaces or h == 0:
                continue
            i = q * side + r
            if (q + oq, r + or_) in blocked:
                free[i] = 1
                continue
            free[i] = 2
            mine[i] = 2
            back.append(i)
    fore = [here]
    steps = _steps(side)
    depth_f = depth_b = 0
    while fore and back and depth_f + depth_b < spaces:
        forward = len(fore) <= len(back)
        # this layer's side, the other end's cell, and the most its hexes may lie from the other end: what
        # is left of the budget (plus ``want`` toward the goal, whose free hexes near it all count)
        if forward:
            depth_f += 1
            frontier, own, other, tq, tr, reach = fore, 1, 2, gq, gr, spaces - depth_f + want
        else:
            depth_b += 1
            frontier, own, other, tq, tr, reach = back, 2, 1, sq, sr, spaces - depth_b
        nxt: list[int] = []
        for i in frontier:
            q, r = divmod(i, side)
            for dq, dr, off in steps:
                n = i + off
                m = mine[n]
                if m == own:
                    continue
                if m == other:
                    return True  # the floods meet: depth_f + depth_b <= spaces steps in all
                st = free[n]
                nq, nr = q + dq, r + dr
                if st == 0:
                    st = free[n] = 1 if (nq + oq, nr + or_) in blocked else 2
                if st == 1:
                    continue
                a, b = nq - tq, nr - tr
                h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
                if h > reach:
                    continue  # too far from the other end for the steps left
                mine[n] = own
                nxt.append(n)
        if forward:
            fore = nxt
        else:
            back = nxt
    return False


def _gets_closer(start: Hex, goal: Hex, spaces: int, blocked: Container[Hex]) -> bool:
    """Whether some free hex nearer ``goal`` than ``start`` is lies within ``spaces`` steps of ``start``
    around blocked hexes: a breadth-first flood on a flat grid of cells (``_window``) that stops at the first
    such hex and does not follow steps from which the rest of the budget cannot get nearer (the hex distance
    is a lower bound on any path). The path search can only end nearer the goal than it began if this is so:
    when it is not, its answer is "stay" (no path), found here without the search (a goblin at the back of a
    jam)."""
    if spaces <= 0:
        return False
    side, oq, or_, here = _window(start, spaces)
    gq, gr = goal[0] - oq, goal[1] - or_
    closer = distance(start, goal) - 1  # a hex at most this far from the goal is nearer than the start
    seen = bytearray(side * side)  # per cell: 1 blocked or already in the flood
    seen[here] = 1
    steps = _steps(side)
    frontier = [here]
    left = spaces
    while frontier and left > 0:
        left -= 1  # what is left of the budget after this step
        nxt: list[int] = []
        for i in frontier:
            q, r = divmod(i, side)
            for dq, dr, off in steps:
                n = i + off
                if seen[n]:
                    continue
                nq, nr = q + dq, r + dr
                seen[n] = 1
                if (nq + oq, nr + or_) in blocked:
                    continue
                a, b = nq - gq, nr - gr
                h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
                if h <= closer:
                    return True
                if h - closer <= left:
                    nxt.append(n)
        frontier = nxt
    return False


# the hexes of each ring 0-5 around (0, 0), as offsets (``free_ring`` adds them to a goal)
_RINGS: tuple[tuple[Hex, ...], ...] = tuple(tuple(ring((0, 0), w)) for w in range(6))


def free_ring(goal: Hex, start: Hex, want: int, blocked: Container[Hex]) -> int:
    """The first ring around ``goal`` from ``want`` out that has a hex not in ``blocked`` (``start`` counts
    as free), at most 6: where a search for a crowded goal aims. The hexes of a ring are looked at in any
    order (the answer is whether one is free), each offset added in place instead of a ring generator
    (a jammed goal has its first few rings all taken, asked once per search)."""
    gq, gr = goal
    while want < 6:
        for dq, dr in _RINGS[want]:
            h = (gq + dq, gr + dr)
            if h == start or h not in blocked:
                return want
        want += 1
    return want


def _search_path(
    start: Hex, goal: Hex, spaces: int, blocked: Container[Hex], stop_at: int, weight: int, effort: int
) -> list[Hex]:
    """The weighted A* search of :func:`approach`. It runs on a flat grid of cells (``_window``) instead of
    tuples in dicts; the heap order (f, h, tick) and so the path are those of the search on tuples (a test
    checks them against it)."""
    # a crowded goal: aim for the nearest ring around it that has a free hex
    want = free_ring(goal, start, stop_at, blocked)
    if distance(start, goal) <= want or spaces <= 0:
        return []
    if not _gets_closer(start, goal, spaces, blocked):
        return []  # nothing reachable is nearer the goal: the search would keep the start as its best
    side, oq, or_, here0 = _window(start, spaces)
    gq, gr = goal[0] - oq, goal[1] - or_
    size = side * side
    free = bytearray(size)  # per cell: 0 not looked at, 1 blocked, 2 free
    unreached = spaces + 1  # more than any step count the search keeps
    cost = [unreached] * size
    prev = [-1] * size
    cost[here0] = 0
    h0 = distance(start, goal)
    heap = [(weight * h0, h0, 0, here0)]
    best = here0
    best_h, best_g = h0, 0  # the best hex so far: (its distance to the ring wanted, its steps)
    tick = 0
    steps = _steps(side)
    push, pop = heapq.heappush, heapq.heappop
    while heap and tick < effort:
        _, h_here, _, i = pop(heap)
        g = cost[i]
        if h_here <= want:
            best = i
            break
        if g >= spaces:
            continue
        g1 = g + 1
        q, r = divmod(i, side)
        for dq, dr, off in steps:
            n = i + off
            st = free[n]
            nq, nr = q + dq, r + dr
            if st == 0:
                st = free[n] = 1 if (nq + oq, nr + or_) in blocked else 2
            if st == 1 or cost[n] <= g1:
                continue
            cost[n] = g1
            prev[n] = i
            a, b = nq - gq, nr - gr
            h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
            hk = h if h > want else want
            if hk < best_h or (hk == best_h and g1 < best_g):
                best, best_h, best_g = n, hk, g1
            tick += 1
            push(heap, (g1 + weight * h, h, tick, n))
    path: list[Hex] = []
    node = best
    while node != here0:
        q, r = divmod(node, side)
        path.append((q + oq, r + or_))
        node = prev[node]
    return path[::-1]
