"""The engine's path search (``pathing``) against plain searches written out here with the same bounds and
the same order of neighbours: ``route`` gives the same path or the same None, whatever shortcut it takes
(goals out of reach, walled-in goals, ``max_len``, the searches bounded to a little more than the straight
distance first), in every area the rulesets ask for (around the goal and the start, around the start only,
by length only); its path is a shortest one, enters no blocked hex, and is the same whatever container holds
the blocked hexes. ``greedy``, ``towards`` and ``away`` against the walks they stand for.
``hexgrid.direction_to`` against its definition (the direction whose hex as far away is nearest the target,
the first such)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.hexgrid import DIRECTIONS, direction_to, distance, neighbours, ring
from fracas.engine.pathing import ROUTE_MARGIN, ROUTE_REACH, away, greedy, route, towards

Hex = tuple[int, int]


def _plain_route(start: Hex, goal: Hex, blocked: set[Hex], stop_at: int = 1) -> list[Hex] | None:
    d0 = distance(start, goal)
    if d0 <= stop_at:
        return []
    far = d0 + ROUTE_MARGIN
    parent = {start: start}
    queue = [start]
    for h in queue:
        for dq, dr in DIRECTIONS:
            n = (h[0] + dq, h[1] + dr)
            if n in parent or n in blocked:
                continue
            if distance(n, goal) > far or distance(n, start) > ROUTE_REACH:
                continue
            parent[n] = h
            if distance(n, goal) <= stop_at:
                path = [n]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(n)
    return None


@pytest.mark.parametrize("seed", range(30))
def test_route_is_a_plain_breadth_first_search(seed: int) -> None:
    rng = random.Random(seed)
    start = (0, 0)
    span = ROUTE_REACH + 8
    for _ in range(12):
        goal = (rng.randrange(-span, span + 1), rng.randrange(-span, span + 1))
        density = rng.choice([0.0, 0.15, 0.3, 0.45])
        blocked = {
            (q, r)
            for q in range(-12, 13)
            for r in range(-12, 13)
            if rng.random() < density and (q, r) != start
        }
        blocked.add(goal)  # the goal stands on his hex
        stop_at = rng.choice([1, 1, 2])
        assert route(start, goal, blocked, stop_at) == _plain_route(start, goal, blocked, stop_at)


def test_a_goal_beyond_the_reach_is_not_searched_for() -> None:
    start = (0, 0)
    near = (ROUTE_REACH + 1, 0)  # a neighbour of the goal is ROUTE_REACH away: found
    assert route(start, near, {near}) == _plain_route(start, near, {near})
    assert route(start, near, {near}) is not None
    beyond = (ROUTE_REACH + 2, 0)
    assert route(start, beyond, {beyond}) is None
    assert _plain_route(start, beyond, {beyond}) is None


def test_direction_to_is_the_nearest_direction() -> None:
    rng = random.Random(7)
    for _ in range(20000):
        a = (rng.randrange(-20, 21), rng.randrange(-20, 21))
        b = (rng.randrange(-20, 21), rng.randrange(-20, 21))
        n = distance(a, b)
        far = [distance((a[0] + dq * n, a[1] + dr * n), b) for dq, dr in DIRECTIONS]
        assert direction_to(a, b) == (far.index(min(far)) if a != b else 0)


@pytest.mark.parametrize("seed", range(40))
def test_route_round_a_walled_pocket(seed: int) -> None:
    """A foe whose open sides give onto a closed pocket (a wall of bodies around him, with gaps now and
    then, the start inside or outside it): the same answer as the plain search, found without it walking
    its whole area when the pocket is closed."""
    rng = random.Random(seed)
    goal = (rng.randrange(-5, 6), rng.randrange(-5, 6))
    wall_at = rng.choice([2, 2, 3])
    blocked = {goal}
    for radius in range(1, wall_at + 1):
        for h in ring(goal, radius):
            keep_open = 0.08 if radius == wall_at else 0.5  # the wall has few gaps, the inside many
            if rng.random() > keep_open:
                blocked.add(h)
    inside = [h for r in range(1, wall_at) for h in ring(goal, r) if h not in blocked]
    outside = [h for h in ring(goal, rng.randrange(wall_at + 1, 12))]
    for start in rng.sample(outside, 3) + rng.sample(inside, min(2, len(inside))):
        blocked.discard(start)
        stop_at = rng.choice([1, 1, 2])
        assert route(start, goal, blocked, stop_at) == _plain_route(start, goal, blocked, stop_at)


# ----- every area, by hypothesis ------------------------------------------------------------------------


def _plain_bfs(
    start: Hex,
    goal: Hex,
    blocked: frozenset[Hex],
    stop_at: int,
    margin: int | None,
    reach: int | None,
    max_len: int | None,
) -> list[Hex] | None:
    """A breadth-first search as first written: a queue of hexes, neighbours in DIRECTIONS order, each hex
    taken the first time it is found, the first hex found within ``stop_at`` of the goal ends it; hexes out
    of the area (``margin`` around the goal, ``reach`` around the start) are not entered."""
    d0 = distance(start, goal)
    if d0 <= stop_at:
        return []
    parent: dict[Hex, Hex] = {start: start}
    depth = {start: 0}
    queue = [start]
    for h in queue:
        if max_len is not None and depth[h] >= max_len:
            continue
        for n in neighbours(h):
            if n in parent or n in blocked:
                continue
            if margin is not None and distance(n, goal) > d0 + margin:
                continue
            if reach is not None and distance(n, start) > reach:
                continue
            parent[n] = h
            depth[n] = depth[h] + 1
            if distance(n, goal) <= stop_at:
                path = [n]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(n)
    return None


def _shortest_length(start: Hex, goal: Hex, blocked: frozenset[Hex], stop_at: int, reach: int) -> int | None:
    """The fewest steps to a free hex within ``stop_at`` of the goal and ``reach`` of the start (a flood
    that keeps no parents: lengths only)."""
    seen = {start}
    frontier = {start}
    for steps in range(1, 4 * reach + 4):
        frontier = {
            n
            for h in frontier
            for n in neighbours(h)
            if n not in seen and n not in blocked and distance(n, start) <= reach
        }
        if not frontier:
            return None
        if any(distance(n, goal) <= stop_at for n in frontier):
            return steps
        seen |= frontier
    return None


coord = st.integers(-7, 7)
hexes = st.tuples(coord, coord)
areas = st.sampled_from(
    [
        ("goal and start", ROUTE_MARGIN, ROUTE_REACH),
        ("start only", None, 8),  # GURPS and the map's click-to-move: the distance + 8 around the start
        ("goal only", 3, None),
        ("length only", None, None),
    ]
)


@settings(max_examples=500, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    stop_at=st.integers(0, 3),
    blocked=st.frozensets(hexes, max_size=120),
    area=areas,
    max_len=st.none() | st.integers(0, 20),
)
def test_route_is_the_plain_search_in_every_area(
    start: Hex,
    goal: Hex,
    stop_at: int,
    blocked: frozenset[Hex],
    area: tuple[str, int | None, int | None],
    max_len: int | None,
):
    _, margin, reach = area
    if reach is not None and margin is None:
        reach += distance(start, goal)
    if margin is None and reach is None and max_len is None:
        max_len = 12
    blocked = blocked - {start}
    got = route(start, goal, blocked, stop_at, max_len, margin=margin, reach=reach)
    assert got == _plain_bfs(start, goal, blocked, stop_at, margin, reach, max_len)


@settings(max_examples=400, deadline=None)
@given(start=hexes, goal=hexes, stop_at=st.integers(0, 2), blocked=st.frozensets(hexes, max_size=100))
def test_route_is_shortest_and_enters_no_blocked_hex(
    start: Hex, goal: Hex, stop_at: int, blocked: frozenset[Hex]
):
    blocked = blocked - {start}
    reach = distance(start, goal) + 8
    got = route(start, goal, blocked, stop_at, margin=None, reach=reach)
    fewest = 0 if distance(start, goal) <= stop_at else _shortest_length(start, goal, blocked, stop_at, reach)
    if got is None:
        assert fewest is None
        return
    assert len(got) == fewest
    assert not blocked & set(got)
    assert all(distance(a, b) == 1 for a, b in zip([start, *got], got, strict=False))
    assert not got or distance(got[-1], goal) <= stop_at


class _Only:
    """A container that answers ``in`` and nothing else (as the occupancy view does)."""

    def __init__(self, cells: set[Hex]) -> None:
        self.cells = cells

    def __contains__(self, h: object) -> bool:
        return h in self.cells


@settings(max_examples=300, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    cells=st.lists(hexes, max_size=80),
    seed=st.integers(0, 1000),
    area=areas,
)
def test_route_ties_do_not_depend_on_how_blocked_hexes_are_held(
    start: Hex, goal: Hex, cells: list[Hex], seed: int, area: tuple[str, int | None, int | None]
):
    """The same hexes in a set, a frozenset built in another order, or a container that only answers
    ``in``: the same path (ties go by DIRECTIONS, never by the order of a set)."""
    _, margin, reach = area
    max_len = 15 if margin is None and reach is None else None
    cells = [h for h in cells if h != start]
    shuffled = list(cells)
    random.Random(seed).shuffle(shuffled)
    answers = [
        route(start, goal, held, 1, max_len, margin=margin, reach=reach)
        for held in (set(cells), frozenset(shuffled), _Only(set(shuffled)))
    ]
    assert answers[0] == answers[1] == answers[2]


def test_route_needs_a_bound() -> None:
    with pytest.raises(ValueError, match="bound"):
        route((0, 0), (5, 0), set(), 1, margin=None, reach=None)


def _wall(q: int, r0: int, r1: int) -> frozenset[Hex]:
    return frozenset((q, r) for r in range(r0, r1 + 1))


def test_route_round_a_wall_within_the_start_area() -> None:
    wall = _wall(3, -4, 4)
    path = route((0, 0), (6, 0), wall, 0, margin=None, reach=6 + 8)
    assert path is not None and path[-1] == (6, 0) and not wall & set(path)
    assert path == _plain_bfs((0, 0), (6, 0), wall, 0, None, 14, None)
    long_wall = _wall(3, -20, 20)  # no way round within the area
    assert route((0, 0), (6, 0), long_wall, 0, margin=None, reach=14) is None


def test_route_long_chase_behind_a_friend() -> None:
    """A rider chasing a foe 150 yards off straight along a hex axis, a friend in the hex in front."""
    here, dest = (-15, 10), (-14, 165)
    blocked = frozenset({(-15, 11), (-14, 10), (-16, 12)})
    reach = distance(here, dest) + 8
    got = route(here, dest, blocked, 1, margin=None, reach=reach)
    assert got is not None and got == _plain_bfs(here, dest, blocked, 1, None, reach, None)


def _plain_greedy(
    start: Hex, goal: Hex, blocked: frozenset[Hex], steps: int, stop_at: int
) -> tuple[list[Hex], int]:
    """The greedy walk as first written: each step to the neighbour nearest the goal if it is nearer than
    where it stands, the first such in DIRECTIONS order."""
    path: list[Hex] = []
    probe = start
    for _ in range(steps):
        if distance(probe, goal) <= stop_at:
            break
        nxt = probe
        for n in neighbours(probe):
            if n not in blocked and distance(n, goal) < distance(nxt, goal):
                nxt = n
        if nxt == probe:
            break
        path.append(nxt)
        probe = nxt
    return path, distance(probe, goal)


@settings(max_examples=500, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    stop_at=st.integers(0, 3),
    steps=st.integers(0, 12),
    blocked=st.frozensets(hexes, max_size=60),
)
def test_greedy_is_the_plain_walk(start: Hex, goal: Hex, stop_at: int, steps: int, blocked: frozenset[Hex]):
    blocked = blocked - {start}
    assert greedy(start, goal, steps, blocked, stop_at) == _plain_greedy(start, goal, blocked, steps, stop_at)


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    stop_at=st.integers(0, 2),
    steps=st.integers(0, 12),
    blocked=st.frozensets(hexes, max_size=80),
    arrive=st.booleans(),
)
def test_towards_walks_greedily_then_takes_the_way_round(
    start: Hex, goal: Hex, stop_at: int, steps: int, blocked: frozenset[Hex], arrive: bool
):
    blocked = blocked - {start}
    got = towards(start, goal, steps, blocked, stop_at, arrive=arrive)
    walked, left = _plain_greedy(start, goal, blocked, steps, stop_at)
    if len(walked) == steps or left <= stop_at:
        assert got == walked
        return
    way = route(start, goal, blocked, stop_at, steps if arrive else None)
    assert got == (walked if way is None else way[:steps])
    assert len(got) <= steps and not blocked & set(got)


def _plain_away(start: Hex, threats: list[Hex], steps: int, blocked: frozenset[Hex], gain: bool) -> list[Hex]:
    """The walk away as first written: each step to the first neighbour (DIRECTIONS order) that is free, not
    on the path, and farthest from the nearest threat; with ``gain`` only if farther than where it stands."""
    path: list[Hex] = []
    here = start
    for _ in range(steps):

        def near(h: Hex) -> int:
            return min((distance(h, t) for t in threats), default=0)

        options = [n for n in neighbours(here) if n not in blocked and n not in path]
        if gain:
            options = [n for n in options if near(n) > near(here)]
        if not options:
            break
        here = max(options, key=near)  # the first of the farthest
        path.append(here)
    return path


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    threats=st.lists(hexes, max_size=4),
    steps=st.integers(0, 8),
    blocked=st.frozensets(hexes, max_size=60),
    gain=st.booleans(),
)
def test_away_is_the_plain_walk(
    start: Hex, threats: list[Hex], steps: int, blocked: frozenset[Hex], gain: bool
):
    blocked = blocked - {start}
    got = away(start, threats, steps, blocked, gain=gain)
    assert got == _plain_away(start, threats, steps, blocked, gain)
    if gain and threats:
        far = [min(distance(h, t) for t in threats) for h in [start, *got]]
        assert far == sorted(set(far))  # every step gets farther


def test_away_breaks_ties_as_asked() -> None:
    """From (0, 0) away from (-1, 0): (1, 0), (1, -1) and (0, 1) are as far; the first in DIRECTIONS
    order unless a tie-break ranks another higher."""
    assert away((0, 0), [(-1, 0)], 1, set()) == [(1, 0)]
    assert away((0, 0), [(-1, 0)], 1, set(), tie=lambda h: h[1]) == [(0, 1)]


def _plain_by_length(start: Hex, goal: Hex, limit: int, blocked: set[Hex], stop_at: int) -> list[Hex] | None:
    """A depth-limited breadth-first search as first written for the ED1 tactic (a way within one move)."""
    if distance(start, goal) <= stop_at:
        return []
    prev: dict[Hex, Hex] = {start: start}
    frontier = [start]
    for depth in range(1, limit + 1):
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n in prev or n in blocked or distance(n, goal) - stop_at > limit - depth:
                    continue
                prev[n] = h
                if distance(n, goal) <= stop_at:
                    path = [n]
                    while prev[path[-1]] != start:
                        path.append(prev[path[-1]])
                    return path[::-1]
                nxt.append(n)
        frontier = nxt
    return None


@pytest.mark.parametrize("seed", range(40))
def test_route_by_length_only_is_a_plain_depth_limited_search(seed: int) -> None:
    rng = random.Random(seed)
    start = (0, 0)
    found = 0
    for _ in range(10):
        goal = (rng.randrange(-9, 10), rng.randrange(-9, 10))
        density = rng.choice([0.0, 0.2, 0.35, 0.5])
        blocked = {
            (q, r)
            for q in range(-10, 11)
            for r in range(-10, 11)
            if rng.random() < density and (q, r) != start
        }
        blocked.add(goal)
        limit = rng.randrange(1, 14)
        stop_at = rng.choice([1, 1, 2])
        got = route(start, goal, blocked, stop_at, limit, margin=None, reach=None)
        assert got == _plain_by_length(start, goal, limit, blocked, stop_at)
        found += bool(got)
    assert found
