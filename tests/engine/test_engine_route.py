"""``hexgrid.route`` (the tactics' way round taken hexes) against a plain breadth-first search written out
here with the same bounds and the same order of neighbours: the same path or the same None, whatever
shortcut the search takes (goals out of reach, walled-in goals, ``max_len``, the searches bounded to a little
more than the straight distance first); ``hexgrid.direction_to``
against its definition (the direction whose hex as far away is nearest the target, the first such)."""

from __future__ import annotations

import random

import pytest

from fracas.engine.hexgrid import (
    DIRECTIONS,
    ROUTE_MARGIN,
    ROUTE_REACH,
    direction_to,
    distance,
    ring,
    route,
)

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
