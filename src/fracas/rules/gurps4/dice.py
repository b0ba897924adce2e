"""GURPS dice: 3d6 rolls and damage dice such as ``2d+3`` (p.B9, B269: dice and adds).

Rules code takes a :class:`~fracas.dice.source.DiceSource`; it never calls ``random``.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.expr import Const, Dice, parse
from fracas.dice.source import DiceSource
from fracas.errors import UsageError


@dataclass(frozen=True, slots=True)
class DamageDice:
    """``dice`` six-sided dice plus ``adds`` (may be negative): GURPS damage notation ``2d+3``."""

    dice: int
    adds: int = 0

    def __str__(self) -> str:
        return f"{self.dice}d" + (f"{self.adds:+d}" if self.adds else "")

    def plus(self, adds: int) -> DamageDice:
        return DamageDice(self.dice, self.adds + adds)

    def per_die(self, n: int) -> DamageDice:
        """``+n per die`` (for example thr+1/die for a horse's trample)."""
        return DamageDice(self.dice, self.adds + n * self.dice)

    @property
    def minimum(self) -> int:
        return self.dice + self.adds

    @property
    def maximum(self) -> int:
        return 6 * self.dice + self.adds


def parse_dice(text: str) -> DamageDice:
    """``"2d+3"`` -> DamageDice(2, 3); ``"1d-2"``, ``"4d"``: read by the project's one dice-notation parser
    (:func:`fracas.dice.expr.parse`), which must find GURPS dice ("Nd", six-sided, not exploding) and at most
    one number added or taken off after them."""
    bad = UsageError(f"{text!r} is not GURPS damage dice (like 2d+3, 1d-2, 4d)")
    try:
        terms = parse(text).terms if isinstance(text, str) else ()
    except UsageError:
        raise bad from None
    first, rest = (terms[0], terms[1:]) if terms else (None, ())
    if not isinstance(first, Dice) or not first.gurps or first.explode or len(rest) > 1:
        raise bad
    adds = rest[0] if rest else Const(0)
    if not isinstance(adds, Const):
        raise bad
    return DamageDice(first.count, adds.value)


def roll_3d6(source: DiceSource, why: str = "3d6") -> tuple[int, int, int]:
    """Three six-sided dice, faces kept for the record."""
    return (source.roll(6, why), source.roll(6, why), source.roll(6, why))


def roll_damage_dice(
    dice: DamageDice, source: DiceSource, why: str = "damage"
) -> tuple[tuple[int, ...], int]:
    """The faces and the raw total (dice + adds, not yet floored)."""
    faces = tuple(source.roll(6, why) for _ in range(dice.dice))
    return faces, sum(faces) + dice.adds
