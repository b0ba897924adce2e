"""ED4 ranged combat (``000_4b24aca42c3b6366.txt`` p.392-393): ranges, firing into close combat,
improvised throws, throwing at an area, scatter.

Pure functions; dice come from a :class:`~fracas.dice.source.DiceSource`. Wiring in
:mod:`fracas.rules.ed4.features`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import DIRECTIONS, Hex
from fracas.rules.base import Modifier

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.rules.earthdawn.combat import Edition

RANGED_RULE = "ed4/combat/ranged p.392"
INTO_CLOSE_RULE = "ed4/combat/ranged-into-close-combat p.392"
AREA_RULE = "ed4/combat/throw-at-area p.393"
SCATTER_RULE = "ed4/combat/scatter p.393"
PICK_UP_RULE = "ed4/combat/pick-up-thrown-weapon p.392"
AREA_DN = 7
FEET_PER_YARD = 3


def may_fire(yards: int, minimum: int, long: int) -> str | None:
    """None if a ranged attack at ``yards`` is allowed, else why not (p.392: not beyond the maximum range,
    not within the minimum range)."""
    if yards > long:
        return f"beyond the maximum range ({long} yards)"
    if minimum and yards <= minimum:  # "within the minimum range": up to and including it
        return f"within the minimum range ({minimum} yards)"
    return None


def intervening_mods(count: int) -> list[Modifier]:
    """+1 to the target's Physical Defense per character between the attacker and the target (p.392)."""
    if count <= 0:
        return []
    return [Modifier(count, f"{count} character{'s' if count > 1 else ''} in the way", INTO_CLOSE_RULE)]


def stray_hit(result: int, intervening_defenses: Sequence[tuple[str, int]]) -> str | None:
    """After a miss, the test result against each intervening character's Physical Defense, closest first;
    the first it reaches is struck instead (p.392). Silar's 9: PD 10 no, Ulm's PD 8 yes -> Ulm."""
    for cid, defense in intervening_defenses:
        if result >= defense:
            return cid
    return None


def area_dn() -> int:
    """Throwing an object at a target area: DN 7 (p.393)."""
    return AREA_DN


@dataclass(frozen=True, slots=True)
class Scatter:
    """Where a missed throw lands (p.393): the D6 direction of the Scatter Diagram, the Step rolled for the
    distance (DN - result) and the distance in feet; ``test`` is the distance test as rolled."""

    direction: int
    step: int
    feet: int
    test: Any = None


def scatter_step(dn: int, result: int) -> int:
    """The Step of the scatter distance test: DN minus the Attack test result (p.393; Brighton 9 - 6 = 3)."""
    return max(1, dn - result)


def scatter(dn: int, result: int, dice: DiceSource, edition: Edition) -> Scatter:
    """Roll a scatter (p.393): D6 for the direction, then a test at Step (DN - result) for the feet."""
    from fracas.rules.earthdawn.combat import run_test

    direction = dice.roll(6, "scatter direction")
    step = scatter_step(dn, result)
    res = run_test(dice, edition, step)
    return Scatter(direction, step, res.total, res)


def scatter_hex(target: Hex, direction: int, feet: int, hex_yards: int = 2) -> Hex:
    """The hex where a scattered object lands. Scatter Diagram direction 1..6 is taken as hex direction
    0..5 [choice: the diagram is not in the text]; feet are turned into hexes (3 feet a yard, 2 yards a
    hex, rounded to the nearest hex)."""
    hexes = round(feet / FEET_PER_YARD / hex_yards)
    dq, dr = DIRECTIONS[(direction - 1) % 6]
    return (target[0] + dq * hexes, target[1] + dr * hexes)


# ----- a thrown weapon after the throw ------------------------------------------------------------------

PICK_UP_REACH_HEXES = 1
"""[choice] The text says nothing of fetching a thrown weapon (its list of Simple actions, p.373, is not in
it): here the thrower picks it up as a Simple action standing in the hex where it landed or next to it (a
hex is 2 yards, within reach). Where it lands: the target's hex for an attack, hit or miss; the hex it
reached for a throw at an area (after any scatter)."""


def can_pick_up(me_at: tuple[int, int] | None, lies_at: tuple[int, int] | None) -> bool:
    """Is the weapon lying at ``lies_at`` within reach of a thrower at ``me_at``
    (:data:`PICK_UP_REACH_HEXES`)? Without positions (no map) the pick-up is allowed."""
    if me_at is None or lies_at is None:
        return True
    dq, dr = lies_at[0] - me_at[0], lies_at[1] - me_at[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= PICK_UP_REACH_HEXES
