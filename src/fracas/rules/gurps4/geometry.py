"""Where figures are: separation, range and reach in the air and on the ground (B398), height for Combat at
Different Levels (B402), and the paths a figure moves along."""

from __future__ import annotations

import functools
import heapq
import math

from fracas.engine import events as ev
from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, neighbours, step_towards
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import aerial, data, mounted
from fracas.rules.gurps4.figure import S, Work, flying, look, rider_of
from fracas.rules.gurps4.stats import Attack, GurpsStats


def separation(a: Combatant, b: Combatant) -> tuple[int, int]:
    """(horizontal yards, vertical yards) between two figures."""
    if a.pos is None or b.pos is None:
        return 0, 0
    return distance(a.pos, b.pos), abs(a.altitude - b.altitude)


def range_yards(a: Combatant, b: Combatant) -> int:
    h, v = separation(a, b)
    if v == 0:  # on one level the cost is the hex distance (the tactics ask this of every foe, every turn)
        return h if h > 1 else 1
    return max(1, int(aerial.move_cost(h, v)))


def in_reach(a: Combatant, b: Combatant, attack: Attack) -> bool:
    h, v = separation(a, b)
    if h == 0 and v == 0:
        return False
    return aerial.in_reach(h, v, attack.reach, both_flying=flying(a) and flying(b))


def max_range(attacker: GurpsStats, attack: Attack) -> float:
    r = data.weapons()[attack.weapon].ranged
    assert r is not None
    return r.max * attacker.st if r.mult else r.max


def height_ft(defender: Combatant, attacker: Combatant, state: FightState) -> float:
    """How far the defender is above the attacker, in feet: a rider 3 ft above a foe on foot (B397); a
    flyer against a ground foe by altitude (3 ft a yard; B398, B402); two flyers: none (B398)."""
    if flying(defender) and flying(attacker):
        return 0.0
    feet = (defender.altitude - attacker.altitude) * 3.0
    if not S(defender).mount and not S(attacker).mount:
        feet += mounted.rider_height_ft(bool(defender.marks.get("mount")), bool(attacker.marks.get("mount")))
    return feet


def blockers(state: FightState, mover: Combatant) -> set[Hex]:
    """Hexes the mover cannot enter: figures at about its altitude (flyers pass over others, B398)."""
    out: set[Hex] = {tuple(h) for h in state.extra.get("map", {}).get("blocked", [])}  # type: ignore[misc]
    partners = {mover.id, mover.marks.get("mount"), mover.marks.get("rider")}
    for c in look(state):
        if c.id in partners or c.pos is None or c.status in ("dead", "fled", "riderless"):
            continue
        if abs(c.altitude - mover.altitude) < 2:
            out.add(c.pos)
    return out


def path_towards(
    state: FightState, mover: Combatant, dest: Hex, steps: int, stop_at: int = 0, away: bool = False
) -> list[Hex]:
    """A hex path of at most ``steps`` toward ``dest`` (shortest way around figures and blocked hexes,
    stopping ``stop_at`` away), or straight away from it when ``away``."""
    if mover.pos is None or steps <= 0:
        return []
    blocked = blockers(state, mover)
    here = mover.pos
    if away:
        path: list[Hex] = []
        for _ in range(steps):
            options = [n for n in neighbours(here) if n not in blocked]
            if not options:
                break
            nxt = max(options, key=lambda n: (distance(n, dest), -abs(n[0]) - abs(n[1])))
            if distance(nxt, dest) <= distance(here, dest):
                break
            path.append(nxt)
            here = nxt
        return path
    if distance(here, dest) <= stop_at:
        return []
    greedy, left = greedy_path(here, dest, blocked, steps, stop_at)
    if len(greedy) == steps or left <= stop_at:
        return greedy
    # stuck behind someone: breadth-first search in a bounded area, then the first ``steps`` hexes
    full = bfs_path(here, dest, blocked, stop_at, steps)
    if full is None:  # no way through: get as close as the greedy step allows
        path = []
        for _ in range(steps):
            nxt = step_towards(here, dest, blocked)
            if nxt == here or distance(here, dest) <= stop_at:
                break
            path.append(nxt)
            here = nxt
        return path
    return full


def greedy_path(
    here: Hex, dest: Hex, blocked: set[Hex] | frozenset[Hex], steps: int, stop_at: int
) -> tuple[list[Hex], int]:
    """Up to ``steps`` hexes toward ``dest``, each the first neighbour (in
    :data:`~fracas.engine.hexgrid.DIRECTIONS` order) that is not blocked and nearest ``dest`` if nearer than
    where it stands (:func:`~fracas.engine.hexgrid.step_towards`), stopping within ``stop_at`` or when no
    neighbour is nearer; and the distance left. The distances are kept as offsets from ``dest`` and worked
    out inline: this runs for every move of every figure."""
    q, r = here
    a, b = q - dest[0], r - dest[1]
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


BFS_MARGIN = 8
"""The breadth-first search of :func:`bfs_path` looks at hexes at most this much farther from the start than
the goal is."""


DISC_KEPT = 256
"""Search areas up to this ``limit`` are kept once built (at most 64 of them, 265 kB each at most)."""


def _disc(limit: int) -> bytes:
    """The search area of :func:`bfs_path` for ``limit``: a square grid of side ``2 * (limit + 1) + 1``
    centred on the start, 0 for a hex at most ``limit`` from the centre, 1 outside (one spare hex all round,
    so that a neighbour of any hex inside is still on the grid). Keyed on an int, so shared safely; a
    larger one (a chase across a wide field) is built each time rather than held."""
    return _kept_disc(limit) if limit <= DISC_KEPT else _build_disc(limit)


def _build_disc(limit: int) -> bytes:
    half = limit + 1
    side = 2 * half + 1
    cells = bytearray(b"\x01") * (side * side)
    for dq in range(-limit, limit + 1):
        lo, hi = max(-limit, -dq - limit), min(limit, -dq + limit)
        row = (dq + half) * side + half
        cells[row + lo : row + hi + 1] = bytes(hi - lo + 1)
    return bytes(cells)


_kept_disc = functools.lru_cache(maxsize=64)(_build_disc)


def bfs_path(
    here: Hex, dest: Hex, blocked: set[Hex] | frozenset[Hex], stop_at: int, steps: int | None = None
) -> list[Hex] | None:
    """The first ``steps`` hexes (all if None) of the path that a breadth-first search from ``here`` finds to
    a hex within ``stop_at`` of ``dest`` (not ``here``), avoiding ``blocked`` and staying within
    ``distance(here, dest) + BFS_MARGIN`` of ``here``; None if there is none.

    The search meant: hexes taken in the order found, each one's neighbours in
    :data:`~fracas.engine.hexgrid.DIRECTIONS` order, the first hex found within ``stop_at`` ends it, and the
    path runs back through the hex each was first found from. That order puts the hexes of each ring of
    the search in the order of their first-found paths read as strings of direction numbers, so the path it
    returns is, of all shortest paths to a goal, the one whose directions come first in that order. So it
    is found here directly: the length of the shortest paths by an A* search, then the first of them by a
    depth-first search in direction order that cuts every branch which cannot arrive in time. On an open
    field with a long way to go the flood looks at tens of thousands of hexes, these at a few hundred. A
    test checks the result against the plain search."""
    limit = distance(here, dest) + BFS_MARGIN
    half = limit + 1
    side = 2 * half + 1
    hq, hr = here
    # the area as a flat grid (index (dq + half) * side + dr + half from here), 0: free, 1: out of the
    # area or blocked, 2: free and a goal
    grid = bytearray(_disc(limit))
    for bq, br in blocked:
        dq, dr = bq - hq, br - hr
        if -half <= dq <= half and -half <= dr <= half:
            grid[(dq + half) * side + dr + half] = 1
    gq, gr = dest[0] - hq, dest[1] - hr
    goals = 0
    for dq in range(max(gq - stop_at, -half), min(gq + stop_at, half) + 1):
        a = dq - gq
        for dr in range(
            max(gr - stop_at, gr - stop_at - a, -half), min(gr + stop_at, gr + stop_at - a, half) + 1
        ):
            i = (dq + half) * side + dr + half
            if grid[i] == 0:
                grid[i] = 2
                goals += 1
    if not goals:
        return None
    grid[half * side + half] = 1  # the start is where the search begins, never a step or a goal
    length = _to_goal(grid, side, half, 0, 0, gq, gr, stop_at, 4 * side * side)
    if length is None:
        return None
    path = _first_shortest(grid, side, half, gq, gr, stop_at, length)
    return [(hq + q, hr + r) for q, r in (path if steps is None else path[:steps])]


def _first_shortest(
    grid: bytearray, side: int, half: int, gq: int, gr: int, stop_at: int, length: int
) -> list[tuple[int, int]]:
    """Of the paths of ``length`` steps (the fewest there are) from the grid's centre to a goal cell (see
    :func:`bfs_path`), the one whose directions come first: a depth-first search trying directions in
    order, cutting a branch once its steps so far plus the hex distance left exceed ``length``, and
    remembering cells from which a way of so many steps was not found. Any walk of ``length`` steps is a
    shortest path, so it never meets a goal early or goes round in a circle."""
    path = [(0, 0)]
    tried = [0]  # for each cell of the path, the next direction to try from it
    failed: dict[int, int] = {}  # cell -> the most steps left with which no way from it was found
    while path:
        g = len(path) - 1
        q, r = path[-1]
        d = tried[-1]
        if d == 6:
            i = (q + half) * side + r + half
            left = length - g
            if failed.get(i, -1) < left:
                failed[i] = left
            path.pop()
            tried.pop()
            continue
        tried[-1] = d + 1
        dq, dr = DIRECTIONS[d]
        nq, nr = q + dq, r + dr
        j = (nq + half) * side + nr + half
        cell = grid[j]
        if cell == 1:
            continue
        if cell == 2:  # reached at ``length`` steps exactly, the fewest there are
            path.append((nq, nr))
            return path[1:]
        a, b = nq - gq, nr - gr
        h = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2 - stop_at
        left = length - g - 1
        if h > left or failed.get(j, -1) >= left:
            continue
        path.append((nq, nr))
        tried.append(0)
    raise AssertionError("path search lost its way")  # pragma: no cover - a way of ``length`` exists


def _to_goal(
    grid: bytearray, side: int, half: int, q0: int, r0: int, gq: int, gr: int, stop_at: int, bound: int
) -> int | None:
    """The fewest steps from (q0, r0) to a goal cell of ``grid`` (see :func:`bfs_path`; coordinates from the
    grid's centre), if at most ``bound``; None otherwise. A* with the hex distance to ``dest`` less
    ``stop_at`` as its estimate (never too high, one step changes it by at most one), deepest first among
    equals so that on open ground it runs straight to the goal."""
    i0 = (q0 + half) * side + r0 + half
    if grid[i0] == 2:
        return 0
    a, b = q0 - gq, r0 - gr
    h = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2 - stop_at
    if h > bound:
        return None
    best = {i0: 0}
    heap = [(h if h > 0 else 0, 0, q0, r0)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        _, ng, q, r = pop(heap)
        g = -ng
        i = (q + half) * side + r + half
        if best[i] < g:
            continue
        if grid[i] == 2:
            return g
        g1 = g + 1
        for dq, dr in DIRECTIONS:
            nq, nr = q + dq, r + dr
            j = (nq + half) * side + nr + half
            if grid[j] == 1:
                continue
            old = best.get(j)
            if old is not None and old <= g1:
                continue
            a, b = nq - gq, nr - gr
            h = (
                (a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)
            ) // 2 - stop_at
            f = g1 + (h if h > 0 else 0)
            if f > bound:
                continue
            best[j] = g1
            push(heap, (f, -g1, nq, nr))
    return None


def move_figure(
    w: Work, mover: Combatant, path: list[Hex], altitude: int | None, mode: str, rule: str
) -> int:
    """Move a figure (and whoever rides it) along ``path``; returns the yards it cost."""
    if not path and altitude is None:
        return 0
    dz = abs((altitude if altitude is not None else mover.altitude) - mover.altitude)
    cost = math.ceil(aerial.move_cost(len(path), dz))
    w.emit(ev.Moved(mover.id, tuple(path), mode, None, altitude, rule))
    rider = rider_of(w.state, mover)
    if rider is not None:
        w.emit(ev.Moved(rider.id, tuple(path), "ride", None, altitude, rule))
        passenger = w.state.combatants.get(mover.marks.get("passenger") or "")
        if passenger is not None:
            w.emit(ev.Moved(passenger.id, tuple(path), "ride", None, altitude, rule))
    w.mark(mover, "moved", int(mover.marks.get("moved", 0)) + cost)
    return cost


def free_hex_near(state: FightState, c: Combatant, away_from: Hex | None = None) -> Hex | None:
    if c.pos is None:
        return None
    occupied = {
        o.pos
        for o in state.combatants.values()
        if o.id != c.id and o.pos is not None and o.status not in ("dead", "fled")
    }
    blocked = occupied | {tuple(h) for h in state.extra.get("map", {}).get("blocked", [])}  # type: ignore[misc]
    options = [n for n in neighbours(c.pos) if n not in blocked]
    if not options:
        return None
    if away_from is not None:
        options.sort(key=lambda n: -distance(n, away_from))
    return options[0]
