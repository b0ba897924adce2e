"""The tuned path search of the GURPS ruleset (combat.bfs_path) against the plain breadth-first search it
replaced: same hexes, same order, same tie-breaks, so the same events."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, neighbours, step_towards
from fracas.rules.gurps4 import aerial
from fracas.rules.gurps4.combat import BFS_MARGIN, DISC_KEPT, bfs_path, greedy_path


def _plain_bfs(here: Hex, dest: Hex, blocked: frozenset[Hex], stop_at: int) -> list[Hex] | None:
    """The search as it was first written (tuples in a dict, neighbours in DIRECTIONS order)."""
    limit = distance(here, dest) + BFS_MARGIN
    came: dict[Hex, Hex | None] = {here: None}
    frontier = [here]
    goal = None
    while frontier and goal is None:
        nxt_frontier = []
        for h in frontier:
            for n in neighbours(h):
                if n in came or n in blocked or distance(n, here) > limit:
                    continue
                came[n] = h
                if distance(n, dest) <= stop_at:
                    goal = n
                    break
                nxt_frontier.append(n)
            if goal is not None:
                break
        frontier = nxt_frontier
    if goal is None:
        return None
    full = []
    node: Hex | None = goal
    while node is not None and node != here:
        full.append(node)
        node = came[node]
    full.reverse()
    return full


coord = st.integers(-7, 7)
hexes = st.tuples(coord, coord)


@settings(max_examples=400, deadline=None)
@given(
    here=hexes,
    dest=hexes,
    stop_at=st.integers(0, 3),
    blocked=st.frozensets(hexes, max_size=120),
    steps=st.none() | st.integers(1, 12),
)
def test_bfs_path_is_the_plain_search(
    here: Hex, dest: Hex, stop_at: int, blocked: frozenset[Hex], steps: int | None
):
    blocked = blocked - {here}
    if distance(here, dest) <= stop_at:  # path_towards never searches then
        return
    plain = _plain_bfs(here, dest, blocked, stop_at)
    assert bfs_path(here, dest, blocked, stop_at, steps) == (plain if plain is None else plain[:steps])


@settings(max_examples=300, deadline=None)
@given(
    here=hexes,
    dest=st.tuples(st.integers(-40, 40), st.integers(-40, 40)),
    stop_at=st.integers(0, 2),
    blocked=st.frozensets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), max_size=40),
    walls=st.lists(st.tuples(hexes, st.integers(0, 5), st.integers(2, 25)), max_size=4),
)
def test_bfs_path_is_the_plain_search_far_and_round_walls(
    here: Hex, dest: Hex, stop_at: int, blocked: frozenset[Hex], walls: list[tuple[Hex, int, int]]
):
    """Longer ways, a few figures near the start and straight walls (which may close the way or force it
    out to the edge of the searched area)."""
    cells = set(blocked)
    for (q, r), d, n in walls:
        dq, dr = DIRECTIONS[d]
        cells.update((q + dq * k, r + dr * k) for k in range(n))
    cells.discard(here)
    if distance(here, dest) <= stop_at:
        return
    assert bfs_path(here, dest, frozenset(cells), stop_at, 8) == (
        None if (p := _plain_bfs(here, dest, frozenset(cells), stop_at)) is None else p[:8]
    )


def _wall(q: int, r0: int, r1: int) -> frozenset[Hex]:
    return frozenset((q, r) for r in range(r0, r1 + 1))


def test_bfs_path_goes_round_a_wall():
    wall = _wall(3, -4, 4)
    path = bfs_path((0, 0), (6, 0), wall, 0)
    assert path is not None and path[-1] == (6, 0)
    assert not wall & set(path)
    assert path == _plain_bfs((0, 0), (6, 0), wall, 0)


def test_bfs_path_gives_up_beyond_its_area():
    """A wall longer than the search margin: no way round within the area, so no path (the caller then
    steps greedily)."""
    wall = _wall(3, -20, 20)
    assert bfs_path((0, 0), (6, 0), wall, 0) is None
    assert _plain_bfs((0, 0), (6, 0), wall, 0) is None


def test_bfs_path_long_chase_behind_a_friend():
    """A rider chasing a foe 150 yards off straight along a hex axis, a friend in the hex in front: the case
    that made the search slow (the whole area is looked at)."""
    here, dest = (-15, 10), (-14, 165)
    blocked = frozenset({(-15, 11), (-14, 10), (-16, 12)})
    assert bfs_path(here, dest, blocked, 1) == _plain_bfs(here, dest, blocked, 1)
    plain = _plain_bfs(here, dest, blocked, 1)
    assert plain is not None and bfs_path(here, dest, blocked, 1, 8) == plain[:8]


def _plain_greedy(
    here: Hex, dest: Hex, blocked: frozenset[Hex], steps: int, stop_at: int
) -> tuple[list[Hex], int]:
    """The greedy walk of path_towards as it was first written (step_towards, distance)."""
    path: list[Hex] = []
    probe = here
    for _ in range(steps):
        if distance(probe, dest) <= stop_at:
            break
        nxt = step_towards(probe, dest, blocked)
        if nxt == probe:
            break
        path.append(nxt)
        probe = nxt
    return path, distance(probe, dest)


@settings(max_examples=500, deadline=None)
@given(
    here=hexes,
    dest=hexes,
    stop_at=st.integers(0, 3),
    steps=st.integers(1, 12),
    blocked=st.frozensets(hexes, max_size=60),
)
def test_greedy_path_is_the_plain_walk(
    here: Hex, dest: Hex, stop_at: int, steps: int, blocked: frozenset[Hex]
):
    blocked = blocked - {here}
    assert greedy_path(here, dest, blocked, steps, stop_at) == _plain_greedy(
        here, dest, blocked, steps, stop_at
    )


@settings(max_examples=500, deadline=None)
@given(
    budget=st.integers(-3, 80) | st.integers(-6, 160).map(lambda x: x / 2),
    vertical=st.integers(-40, 40),
)
def test_across_within_is_the_yard_by_yard_search(budget: float, vertical: int):
    horizontal = 0
    while aerial.move_cost(horizontal + 1, vertical) <= budget:
        horizontal += 1
    assert aerial.across_within(budget, vertical) == horizontal


def test_bfs_path_beyond_the_kept_areas():
    """A goal so far off that its search area is built each time (DISC_KEPT), not kept."""
    here, dest = (0, 0), (0, DISC_KEPT + 4)
    blocked = frozenset({(0, 1), (1, 0)})
    plain = _plain_bfs(here, dest, blocked, 1)
    assert plain is not None and bfs_path(here, dest, blocked, 1, 8) == plain[:8]
