"""Hexes in axial coordinates (q, r): distance, neighbours, straight lines, facing.

A hex is 2 yards in Earthdawn, 1 yard in GURPS, one space in Spells & Swords (DESIGN.md "Space"); the
ruleset converts. Directions are numbered 0..5 counter-clockwise starting east.
"""

from __future__ import annotations

from collections.abc import Iterator

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


def ring(centre: Hex, radius: int) -> Iterator[Hex]:
    if radius == 0:
        yield centre
        return
    q, r = centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius
    for i in range(6):
        for _ in range(radius):
            yield (q, r)
            q, r = q + DIRECTIONS[i][0], r + DIRECTIONS[i][1]
