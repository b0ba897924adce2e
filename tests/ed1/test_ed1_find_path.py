"""The ED1 tactic's path to a foe within this turn's move (``tactics.find_path``) against a plain
breadth-first search written out here (neighbours in hexgrid.DIRECTIONS order, depth-limited): the same
path or the same None on random fields, whatever shortcut the search takes."""

from __future__ import annotations

import random

import pytest

from fracas.engine.hexgrid import distance, neighbours
from fracas.rules.ed1.tactics import find_path

Hex = tuple[int, int]


def _plain(start: Hex, goal: Hex, limit: int, blocked: set[Hex], stop_at: int = 1) -> list[Hex] | None:
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
def test_find_path_is_a_plain_depth_limited_search(seed: int) -> None:
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
        got = find_path(start, goal, limit, blocked, stop_at)
        assert got == _plain(start, goal, limit, blocked, stop_at)
        found += bool(got)
    assert found
