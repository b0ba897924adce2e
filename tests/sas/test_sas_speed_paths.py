"""The S&S engine's speed-ups give the answers of the plain computations they replace (no event changes)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, ring
from fracas.rules.sas.ruleset import _reaches


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
    blocked = blocked - {start}
    reached = _plain_flood(start, spaces, blocked)
    plain = any(h in reached for w in range(want + 1) for h in ring(goal, w))
    assert _reaches(start, goal, want, spaces, blocked) == plain


def test_reaches_goes_round_a_wall():
    # a wall of blocked hexes across the straight line: 2 steps are not enough, going round is
    wall = frozenset({(1, -1), (1, 0), (1, 1), (1, -2), (0, 1)})
    assert distance((0, 0), (3, 0)) == 3
    assert not _reaches((0, 0), (3, 0), 1, 2, wall)
    assert _reaches((0, 0), (3, 0), 1, 5, wall)
    assert not _reaches((0, 0), (3, 0), 1, 1, frozenset())
