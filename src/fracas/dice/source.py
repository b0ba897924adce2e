"""Where die faces come from (DESIGN.md "Dice come from a source").

Rules code never calls ``random`` itself: it asks a :class:`DiceSource` for one face at a time, so that
a fight can be rolled by the computer, replayed from recorded faces, or rolled on the table by a person
who types the faces in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


class DiceError(ValueError):
    """A face that cannot come from the die asked for, or a script that ran out."""


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can produce the face of one die with ``sides`` faces (1..sides)."""

    def roll(self, sides: int, why: str = "") -> int: ...


class RandomDice:
    """Seeded pseudo-random faces. The same seed gives the same faces in the same order."""

    __slots__ = ("seed", "_rng", "_random")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._random = self._rng.random

    def roll(self, sides: int, why: str = "") -> int:
        # int(random()*n)+1 is several times faster than randint and uniform for n << 2**53.
        return int(self._random() * sides) + 1


@dataclass(slots=True)
class ScriptedDice:
    """Faces given in advance, for tests and replays. Checks each face against the die asked for."""

    faces: list[int]
    position: int = 0

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.position = 0

    def roll(self, sides: int, why: str = "") -> int:
        if self.position >= len(self.faces):
            raise DiceError(
                f"scripted dice ran out after {len(self.faces)} faces (asked for a d{sides}"
                + (f" for {why}" if why else "")
                + ")"
            )
        face = self.faces[self.position]
        if not 1 <= face <= sides:
            raise DiceError(f"scripted face {face} at position {self.position} cannot come from a d{sides}")
        self.position += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.position


AskFace = Callable[[int, str], int]


@dataclass(slots=True)
class AskedDice:
    """Faces of a physical roll, asked of a person one die at a time through ``ask(sides, why)``.

    ``ask`` is whatever the front end offers (a terminal prompt, a web form). A face outside 1..sides is
    refused with :class:`DiceError` so the person can be asked again; nothing is recorded for it.
    """

    ask: AskFace
    history: list[tuple[int, int]] = field(default_factory=list)

    def roll(self, sides: int, why: str = "") -> int:
        face = int(self.ask(sides, why))
        if not 1 <= face <= sides:
            raise DiceError(f"a d{sides} shows 1 to {sides}, not {face}")
        self.history.append((sides, face))
        return face


@dataclass(slots=True)
class RecordingDice:
    """Wraps a source and records every face it hands out (sides, face), for replay."""

    inner: DiceSource
    record: list[tuple[int, int]] = field(default_factory=list)

    def roll(self, sides: int, why: str = "") -> int:
        face = self.inner.roll(sides, why)
        self.record.append((sides, face))
        return face
