"""The engine's way toward a goal that may be out of reach (``pathing.approach``, the S&S movement's search)
and its quick answers (``reaches``, ``_gets_closer``, ``free_ring``) against the plain computations they
replace: the same paths, the same answers."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, ring
from fracas.engine.pathing import _gets_closer, _search_path, free_ring, reaches


def _plain_flood(start: Hex, spaces: int, blocked: frozenset[Hex]) -> frozenset[Hex]:
    """Every free hex within ``spaces`` steps of ``start`` (not ``start``): the flood replaced."""
    seen = {start}
    frontier = [start]
    for _ in range(spaces):
        nxt: list[Hex] = []
        for q, r in frontier:
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n not in seen and n not in blocked:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(start)
    return frozenset(seen)


coord = st.integers(-6, 6)
hexes = st.tuples(coord, coord)


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    want=st.integers(0, 3),
    spaces=st.integers(0, 10),
    blocked=st.frozensets(hexes, max_size=70),
)
def test_reaches_is_the_plain_flood(start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]):
    _check_reaches(start, goal, want, spaces, blocked - {start})


def _check_reaches(start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]) -> None:
    """reaches answers what the plain flood from ``start`` says: some hex within ``want`` of ``goal``."""
    reached = _plain_flood(start, spaces, blocked)
    plain = any(h in reached for w in range(want + 1) for h in ring(goal, w))
    assert reaches(start, goal, want, spaces, blocked) == plain


def test_reaches_goes_round_a_wall():
    # a wall of blocked hexes across the straight line: 2 steps are not enough, going round is
    wall = frozenset({(1, -1), (1, 0), (1, 1), (1, -2), (0, 1)})
    assert distance((0, 0), (3, 0)) == 3
    assert not reaches((0, 0), (3, 0), 1, 2, wall)
    assert reaches((0, 0), (3, 0), 1, 5, wall)
    assert not reaches((0, 0), (3, 0), 1, 1, frozenset())


def _plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
) -> list[Hex]:
    """The weighted A* search as it was written before it was tuned (tuples for keys, ``abs``)."""
    want = 1 if stop_adjacent else 0
    while want < 6 and all(h in blocked and h != start for h in ring(goal, want)):
        want += 1
    if distance(start, goal) <= want or spaces <= 0:
        return []
    gq, gr = goal
    prev: dict[Hex, Hex | None] = {start: None}
    cost = {start: 0}
    h0 = distance(start, goal)
    heap = [(2 * h0, h0, 0, start)]
    best, best_key = start, (h0, 0)
    tick = 0
    while heap and tick < 1500:
        _, h_here, _, here = heapq.heappop(heap)
        g = cost[here]
        if h_here <= want:
            best = here
            break
        if g >= spaces:
            continue
        g1 = g + 1
        q, r = here
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n in blocked:
                continue
            old = cost.get(n)
            if old is not None and old <= g1:
                continue
            cost[n] = g1
            prev[n] = here
            a, b = n[0] - gq, n[1] - gr
            h = (abs(a) + abs(b) + abs(a + b)) // 2
            k = (h if h > want else want, g1)
            if k < best_key:
                best, best_key = n, k
            tick += 1
            heapq.heappush(heap, (g1 + 2 * h, h, tick, n))
    path: list[Hex] = []
    node: Hex | None = best
    while node is not None and node != start:
        path.append(node)
        node = prev[node]
    return path[::-1]


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    spaces=st.integers(0, 14),
    blocked=st.frozensets(hexes, max_size=80),
    stop_adjacent=st.booleans(),
)
def test_search_path_is_the_plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
):
    blocked = blocked - {start}
    assert _search_path(start, goal, spaces, blocked, int(stop_adjacent), 2, 1500) == _plain_search(
        start, goal, spaces, blocked, stop_adjacent
    )


far = st.tuples(st.integers(-15, 15), st.integers(-15, 15))


@settings(max_examples=200, deadline=None)
@given(
    start=far,
    goal=far,
    spaces=st.integers(0, 30),
    blocked=st.frozensets(far, max_size=300),
    stop_adjacent=st.booleans(),
)
def test_search_path_on_a_wide_field_is_the_plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
):
    """The flat grid of cells is sized by ``spaces``: long moves (a charging horse), goals far outside it."""
    blocked = blocked - {start}
    assert _search_path(start, goal, spaces, blocked, int(stop_adjacent), 2, 1500) == _plain_search(
        start, goal, spaces, blocked, stop_adjacent
    )


@settings(max_examples=300, deadline=None)
@given(
    start=far,
    goal=far,
    want=st.integers(0, 6),
    spaces=st.integers(0, 25),
    blocked=st.frozensets(far, max_size=500),
)
def test_reaches_on_a_wide_field_is_the_plain_flood(
    start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]
):
    """The flood from both ends: walled-in goals (the goal's end runs out), long moves, crowded rings."""
    _check_reaches(start, goal, want, spaces, blocked - {start})


def test_reaches_says_no_at_once_for_a_walled_in_goal():
    # the goal's free hexes are walled in: no way from a start outside, however long the move
    wall = frozenset(ring((0, 0), 2))
    assert not reaches((6, 0), (0, 0), 1, 25, wall)
    assert reaches((1, 0), (0, 0), 0, 1, wall)


@settings(max_examples=300, deadline=None)
@given(start=far, goal=far, spaces=st.integers(0, 25), blocked=st.frozensets(far, max_size=500))
def test_gets_closer_is_the_plain_flood(start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex]):
    blocked = blocked - {start}
    reached = _plain_flood(start, spaces, blocked)
    plain = any(distance(h, goal) < distance(start, goal) for h in reached)
    assert _gets_closer(start, goal, spaces, blocked) == plain


def test_search_path_stays_when_nothing_nearer_is_reachable():
    # a ring of blocked hexes round the goal, the start just outside it: every free hex it can reach is
    # as far from the goal as it is or farther
    start, goal = (0, 0), (6, 0)
    wall = frozenset(ring(goal, 5))
    assert not _gets_closer(start, goal, 6, wall)
    assert _search_path(start, goal, 6, wall, 1, 2, 1500) == [] == _plain_search(start, goal, 6, wall, True)


@settings(max_examples=300, deadline=None)
@given(goal=hexes, start=hexes, want=st.integers(0, 6), blocked=st.frozensets(hexes, max_size=120))
def test_free_ring_is_the_ring_generator(goal: Hex, start: Hex, want: int, blocked: frozenset[Hex]):
    plain = want
    while plain < 6 and all(h in blocked and h != start for h in ring(goal, plain)):
        plain += 1
    assert free_ring(goal, start, want, blocked) == plain
