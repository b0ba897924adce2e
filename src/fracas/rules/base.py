"""What a ruleset's rules are made of: a :class:`Modifier` (a number that changed a test, and the rule that
says so), a :class:`Rule` and an :class:`OptionalRule` (the rows of a rules catalog, ``fracas rules ID``).

The contract between the engine and a ruleset is :mod:`fracas.engine.contract`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fracas.engine.events import fast_frozen_init


@fast_frozen_init  # built for every test of every fight: the events' faster __init__
@dataclass(frozen=True, slots=True)
class Modifier:
    """One number that changed a test, and why: ``Modifier(-2, "Harried", "ed4/situation/harried p.388")``."""

    value: int
    why: str
    rule: str

    def to_json(self) -> list[Any]:
        return [self.value, self.why, self.rule]

    def __str__(self) -> str:
        return f"{self.value:+d} {self.why} ({self.rule})"


def total(mods: Sequence[Modifier]) -> int:
    return sum(m.value for m in mods)


def mods_json(mods: Sequence[Modifier]) -> tuple[tuple[Any, ...], ...]:
    """Modifiers in the plain form events carry: ((value, why, rule), ...)."""
    return tuple((m.value, m.why, m.rule) for m in mods)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a rules text as this project implements it (for ``fracas rules ID``).

    ``status`` is "implemented", "gm-call" (left to the game master, ``note`` says why) or "optional"
    (implemented, off or on by default as ``note`` says).
    """

    id: str
    title: str
    page: str
    status: str = "implemented"
    note: str = ""


@dataclass(frozen=True, slots=True)
class OptionalRule:
    """An optional rule of the book that an encounter file may switch on or off."""

    id: str
    title: str
    default: bool
    page: str = ""
    note: str = ""
