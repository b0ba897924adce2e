"""GURPS 4e aerial combat: every rule of the rules text 002 (Basic Set p.B398).

Altitude is in yards above the ground; the hex grid (1 yard a hex) is the horizontal plane.
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4.core import SuccessRoll, step_yards, success_roll
from fracas.rules.gurps4.modifiers import P_AERIAL, Modifier, mod

R = "gurps4/aerial"

HUMAN_FLYER_HEXES = 2
DIAGONAL_COST = 1.5
DIVE_MOVE_BONUS = 10
DIVE_TOP_SPEED_FACTOR = 2
STALL_FRACTION = 0.25
STALL_RECOVERY_DX = -4
BREATHING_TROUBLE_FT = 6000
NEEDS_OXYGEN_FT = 20000
HOVER_RETREAT_BONUS = 1
NO_HOVER = ("cannot_hover", "controlled_gliding", "gliding")
Atmosphere = Literal["normal", "thin", "trace", "vacuum"]


def flyer_hexes(humanoid: bool = True) -> int:
    """Humans fly horizontally: two-hex figures on the tactical map (B398)."""
    return HUMAN_FLYER_HEXES if humanoid else 1


def move_cost(horizontal_yards: int, vertical_yards: int) -> float:
    """Vertical movement costs as horizontal; a yard up-and-across at 45 degrees costs 1.5 (B398)."""
    h, v = abs(horizontal_yards), abs(vertical_yards)
    both = min(h, v)
    return both * DIAGONAL_COST + (max(h, v) - both)


def across_within(budget: float, vertical_yards: int) -> int:
    """The most yards across that a move of ``vertical_yards`` up or down leaves room for within ``budget``
    yards of movement at :func:`move_cost` (0 if not even one): the largest ``h`` with
    ``move_cost(h, vertical_yards) <= budget``. The cost grows with ``h`` by 1/2 a yard while ``h`` is below
    the vertical (a diagonal yard replaces a vertical one), by 1 beyond, so the answer is worked out, not
    searched yard by yard (a test checks it against the search)."""
    v = abs(vertical_yards)
    if v == 0:
        return max(0, math.floor(budget))
    flat = math.floor(budget - (DIAGONAL_COST - 1) * v)  # h >= v: cost = h + v / 2
    if flat >= v:
        return flat
    # h <= v: cost = v + h / 2
    return max(0, min(v, math.floor((budget - v) / (DIAGONAL_COST - 1))))


def air_step(air_move: int) -> int:
    """Steps and retreats use basic air Move: Move/10 rounded up, at least 1 yard (B398, B368)."""
    return step_yards(air_move)


def dive(air_move: int, top_airspeed: int, maneuver: str) -> tuple[int, int]:
    """Diving and doing nothing else (a Move maneuver): +10 to air Move, double top airspeed (B398)."""
    if maneuver != "move":
        raise IllegalCommand(
            "a dive is a turn spent diving and doing nothing else (Move)", f"{R}/dive {P_AERIAL}"
        )
    return air_move + DIVE_MOVE_BONUS, top_airspeed * DIVE_TOP_SPEED_FACTOR


def stalls(limitation: str | None, maneuver: str, yards_moved: int, top_airspeed: int) -> bool:
    """Cannot Hover / (Controlled) Gliding: Move or Move and Attack at 1/4 top airspeed or more, or
    stall (B398)."""
    if limitation not in NO_HOVER:
        return False
    if maneuver not in ("move", "move_and_attack"):
        return True
    return yards_moved < top_airspeed * STALL_FRACTION


def stall_recovery(dx: int, dice: DiceSource) -> SuccessRoll:
    """Turn the fall into a dive: DX-4 each turn (B398)."""
    return success_roll(
        "DX (recover from stall)",
        dx,
        [mod(STALL_RECOVERY_DX, "stall recovery", f"{R}/stall", P_AERIAL)],
        dice,
    )


def ceiling_problem(
    altitude_ft: float,
    doesnt_breathe: bool = False,
    oxygen: bool = False,
    winged: bool = False,
    atmosphere: Atmosphere = "normal",
) -> str | None:
    """Flight ceiling on Earth (B398): trouble breathing past 6,000 ft; past 20,000 ft an oxygen mask or
    Doesn't Breathe; wings do not fly in a trace atmosphere or vacuum. Effects are Atmospheric Pressure
    (B429), which this version does not implement: it reports the problem only."""
    if winged and atmosphere in ("trace", "vacuum"):
        return "wings cannot fly in a trace atmosphere or vacuum"
    if atmosphere != "normal":
        raise RuleNotImplemented(
            "flight ceilings on worlds with other air pressure (Atmospheric Pressure B429)"
        )
    if doesnt_breathe:
        return None
    if altitude_ft > NEEDS_OXYGEN_FT and not oxygen:
        return "past 20,000 ft: needs an oxygen mask or Doesn't Breathe"
    if altitude_ft > BREATHING_TROUBLE_FT and not oxygen:
        return "past 6,000 ft: trouble breathing"
    return None


def flight_modifiers() -> list[Modifier]:
    """No penalty to attack or defense rolls in flight (B398)."""
    return []


def different_levels_apply(attacker_flying: bool, defender_flying: bool) -> bool:
    """Flyer against a ground foe: Combat at Different Levels (B402); two flyers: ignore relative height
    as long as they are close enough to engage (B398)."""
    return attacker_flying != defender_flying


def melee_distance(horizontal_yards: int, height_yards: int) -> int:
    """Distance for reach between a flyer and a foe: the 1.5-per-diagonal-yard rule of B398 rounded down."""
    return int(move_cost(horizontal_yards, height_yards))


def in_reach(horizontal_yards: int, height_yards: int, reach: tuple[int, ...], both_flying: bool) -> bool:
    """Can a melee weapon of this reach touch a foe this far away in three dimensions? Between two flyers
    only the horizontal distance counts when the height is within it (B398); otherwise the 1.5-per-diagonal
    distance. Close combat is not modelled: reach C (0) counts as 1 yard (docs/rulesets/gurps4.md)."""
    d = max(horizontal_yards, height_yards) if both_flying else melee_distance(horizontal_yards, height_yards)
    return max(d, 1) in {max(r, 1) for r in reach}


def vertical_retreat_allowed(flying: bool) -> bool:
    """A flyer may retreat vertically, out of the plane of the attack (B398)."""
    return flying


def hover_retreat_bonus(can_hover: bool, room_up_or_down: bool) -> Modifier | None:
    """A hovering flyer with room to move one step up or down: +1 more when retreating (B398)."""
    if can_hover and room_up_or_down:
        return mod(HOVER_RETREAT_BONUS, "flyer retreats up or down", f"{R}/retreat", P_AERIAL)
    return None


@cache
def _acrobatic() -> dict[str, object]:
    return tomllib.loads(
        resources.files("fracas.rules.gurps4")
        .joinpath("data/acrobatic_dodge.toml")
        .read_text(encoding="utf-8")
    )


def acrobatic_dodge(aerobatics: int, dice: DiceSource) -> tuple[SuccessRoll, Modifier]:
    """In flight an Acrobatic Dodge (B375) rolls Aerobatics (B398); the Dodge modifier comes from
    data/acrobatic_dodge.toml (marked unverified there)."""
    t = _acrobatic()
    r = success_roll("Aerobatics (Acrobatic Dodge)", aerobatics, [], dice)
    value = int(t["success_bonus"] if r.success else t["failure_penalty"])  # type: ignore[call-overload]
    note = " (values unverified: data/acrobatic_dodge.toml)" if t.get("unverified") else ""
    return r, mod(value, "Acrobatic Dodge" + note, f"{R}/acrobatic-dodge", "B375")
