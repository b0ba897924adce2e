"""The battle map of both Earthdawn editions: a hex is 2 yards wide, and a distance given in yards covers
whole hexes, "rounded up to cover a full hex; if an effect has a range of 1 yard, it should cover 1 hex"
(ED4 p.372). The 1st Edition text gives no map scale; fracas plays it on the same map [choice, written down
in docs/rulesets/ed1.md].

Every conversion of a yard figure (a Movement Rate, a range, a charge distance) to hexes goes through
:func:`hexes`; every test of a hex distance against a yard figure through :func:`within`.
"""

from __future__ import annotations

HEX_YARDS = 2
"""Yards across one hex of the battle map (p.372)."""


def hexes(yards: int) -> int:
    """The hexes a distance of ``yards`` covers: yards / 2, rounded up (p.372; 1 yard is 1 hex, 5 are 3)."""
    return -(-int(yards) // HEX_YARDS) if yards > 0 else 0


def within(distance_hexes: int, yards: int) -> bool:
    """Is a target ``distance_hexes`` away within a reach, range or move of ``yards`` (p.372: the yards
    cover :func:`hexes` hexes, so a 25-yard short range reaches 13 hexes)?"""
    return distance_hexes <= hexes(yards)


def range_hexes(distance_hexes: int, altitude_a: int, altitude_b: int) -> int:
    """The distance of a ranged attack in hexes: across the map or up and down, the larger (ED4 p.398; the
    height in yards is covered as any yard figure is)."""
    return max(distance_hexes, hexes(abs(altitude_a - altitude_b)))


def inside_minimum(distance_hexes: int, minimum_yards: int) -> bool:
    """Is a target ``distance_hexes`` away within a weapon's minimum range, so that "he cannot attack with
    ranged combat" (p.392)? Within means up to and including the minimum, which covers :func:`hexes` hexes
    (a 2-yard minimum covers the adjacent hex); no minimum (0), never."""
    return minimum_yards > 0 and distance_hexes <= hexes(minimum_yards)


def covered_yards(yards: int) -> int:
    """The yards of the whole hexes a distance covers (``2 * hexes(yards)``), for code that measures a hex
    distance in yards (``2 * hexes apart``): a 25-yard range covers 26."""
    return HEX_YARDS * hexes(yards)
