"""ED4 aerial combat (``000_4b24aca42c3b6366.txt`` p.398). Pure functions; wiring in
:mod:`fracas.rules.ed4.features`.

Altitude (``Combatant.altitude``) is in yards above the ground [choice]. Close combat reaches 2 yards
(p.391), so a flier more than 2 yards above or below cannot be struck in close combat.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

AERIAL = "ed4/combat/aerial p.398"
FLYING = "ed4/aerial/flying-movement p.398"
SWOOP = "ed4/aerial/swooping-attack p.398"
FLYING_MOUNTS = "ed4/aerial/flying-mounts p.398"
KNOCKED_OUT = "ed4/aerial/knocked-out-of-the-sky p.398"
LONG_FALLS = "ed4/aerial/long-falls p.398"
REACH_YARDS = 2


class _Falling(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: str
    confidence: str
    rows: list[tuple[int, int]] = Field(min_length=1)


@cache
def falling_rows() -> list[tuple[int, int]]:
    text = resources.files("fracas.rules.ed4").joinpath("data/falling.toml").read_text("utf-8")
    rows = _Falling.model_validate(tomllib.loads(text)).rows
    if [r[0] for r in rows] != sorted(r[0] for r in rows):
        raise ValueError("falling.toml: rows must grow in distance")
    return list(rows)


def falling_step(yards: int) -> int | None:
    """The Step of falling damage for a fall of ``yards`` (None: no fall). Table data/falling.toml."""
    if yards <= 0:
        return None
    for limit, step in falling_rows():
        if yards <= limit:
            return step
    return falling_rows()[-1][1]


def vertical_move_cost(from_altitude: int, to_altitude: int) -> int:
    """Fliers move vertically as freely as horizontally, as part of their movement (p.398) [choice: the
    change of altitude costs no hexes]."""
    return 0


def in_close_reach(altitude_a: int, altitude_b: int) -> bool:
    """Close combat reaches 2 yards (p.391), up and down as well as across."""
    return abs(altitude_a - altitude_b) <= REACH_YARDS


def range_yards(horizontal_yards: int, altitude_a: int, altitude_b: int) -> int:
    """Distance for ranged attacks between different heights [choice: the larger of the two distances]."""
    return max(horizontal_yards, abs(altitude_a - altitude_b))


def may_intercept_swoop(defender_initiative: int | None, swooper_initiative: int | None) -> bool:
    """Attacking a swooping attacker in close combat needs a higher Initiative result than his and a
    reserved action (p.398)."""
    return (
        defender_initiative is not None
        and swooper_initiative is not None
        and (defender_initiative > swooper_initiative)
    )


def long_fall_recovery_dn() -> int:
    """Long Falls (optional, p.398): a falling flier may spend its Standard action on a Dexterity (6) test to
    stop falling."""
    return 6


def fall_per_round(altitude: int, speed: int) -> int:
    """Long Falls: yards fallen this round [choice: the text gives no rate; the encounter's
    settings.fall_yards_per_round, default 20]."""
    return min(altitude, max(1, speed))
