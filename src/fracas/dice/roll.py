"""A rolled result that keeps every face: each die, every explosion, the modifier and the total.

A :class:`Roll` is what goes into a ``Rolled``/test event, so a fight can be replayed and shown die by die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fracas.dice.source import DiceSource

MAX_EXPLOSIONS = 1000  # a cap per die, as avrae/d20 caps dice per roll; unreachable with fair dice


@dataclass(frozen=True, slots=True)
class RolledDie:
    """One die as rolled: ``faces`` holds the first face and, when it exploded, each bonus roll after it."""

    sides: int
    faces: tuple[int, ...]
    explodes: bool = True

    @property
    def total(self) -> int:
        return sum(self.faces)

    def to_json(self) -> list[int]:
        return [self.sides, *self.faces] if self.explodes else [-self.sides, *self.faces]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> RolledDie:
        sides = int(data[0])
        return cls(abs(sides), tuple(int(f) for f in data[1:]), sides > 0)


@dataclass(frozen=True, slots=True)
class Roll:
    """Every die of one roll, the constant added to it and the total (never below ``floor``)."""

    dice: tuple[RolledDie, ...]
    modifier: int = 0
    floor: int | None = None

    @property
    def raw(self) -> int:
        return sum(d.total for d in self.dice) + self.modifier

    @property
    def total(self) -> int:
        raw = self.raw
        return raw if self.floor is None or raw >= self.floor else self.floor

    @property
    def all_ones(self) -> bool:
        """Every die's first face shows 1 (the Earthdawn Rule of One looks at this)."""
        return bool(self.dice) and all(d.faces[0] == 1 for d in self.dice)

    def faces_text(self) -> str:
        parts = []
        for d in self.dice:
            if len(d.faces) == 1:
                parts.append(f"d{d.sides}:{d.faces[0]}")
            else:
                parts.append(f"d{d.sides}:" + "+".join(str(f) for f in d.faces) + "!")
        text = " ".join(parts)
        if self.modifier:
            text += f" {self.modifier:+d}"
        return text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dice": [d.to_json() for d in self.dice], "total": self.total}
        if self.modifier:
            out["modifier"] = self.modifier
        if self.floor is not None:
            out["floor"] = self.floor
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roll:
        return cls(
            tuple(RolledDie.from_json(d) for d in data["dice"]),
            int(data.get("modifier", 0)),
            data.get("floor"),
        )


def roll_die(sides: int, source: DiceSource, explode: bool = True, why: str = "") -> RolledDie:
    """Roll one die; if ``explode``, roll again and add each time it shows its maximum."""
    face = source.roll(sides, why)
    if not explode or face != sides or sides == 1:
        return RolledDie(sides, (face,), explode)
    faces = [face]
    while face == sides and len(faces) <= MAX_EXPLOSIONS:
        face = source.roll(sides, why)
        faces.append(face)
    return RolledDie(sides, tuple(faces), explode)


def roll_dice(
    sides: Sequence[int],
    source: DiceSource,
    modifier: int = 0,
    explode: bool = True,
    floor: int | None = None,
    why: str = "",
) -> Roll:
    """Roll a pool of dice (one entry per die, its number of sides) plus a constant."""
    return Roll(tuple(roll_die(s, source, explode, why) for s in sides), modifier, floor)
