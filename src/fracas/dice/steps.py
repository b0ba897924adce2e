"""Earthdawn steps: the Step/Action Dice tables of the 4th and 1st Editions, read from data files.

The tables are ``data/steps_ed4.toml`` and ``data/steps_ed1.toml`` (steps 1-100), checked against
REFERENCE.md (reference/earthdawn.md sections 1.1 and 1.2) by ``tests/dice/test_dice_steps.py``.
Earthdawn dice always explode (bonus dice). A step below 1 has no dice: the engines never ask for one
(ED4 p.373 keeps Initiative at Step 1 at least), so :func:`step_dice` refuses it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fracas.dice.roll import Roll, roll_dice
from fracas.dice.source import DiceSource
from fracas.errors import UsageError

EDITIONS = ("ed4", "ed1")
MAX_STEP = 100
STEP_MINIMUM = 1
"""The lowest total of a test on an Earthdawn step (both editions). The rules texts we hold are silent;
reference/earthdawn.md 1.4 (single source: fvtt-earthdawn4e ``EdRoll.total``, its issue #496) floors step
tests at 1. It only changes steps 1 and 2 (d4-2, d4-1). Plain dice expressions ("d4-2") are not floored."""

_TERM = re.compile(r"(\d*)d(\d+)")


@dataclass(frozen=True, slots=True)
class StepDice:
    """The dice of one step: die sizes (largest first) and a modifier to the total (-2, -1 at steps 1-2)."""

    step: int
    dice: tuple[int, ...]
    modifier: int
    edition: str

    @property
    def notation(self) -> str:
        return _format(self.dice, self.modifier)


def _format(dice: tuple[int, ...], modifier: int) -> str:
    parts = []
    for sides in sorted(set(dice), reverse=True):
        n = dice.count(sides)
        parts.append(f"{n if n > 1 else ''}d{sides}")
    text = "+".join(parts)
    return text + (f"{modifier:+d}" if modifier else "")


def _parse_row(text: str) -> tuple[tuple[int, ...], int]:
    modifier = 0
    m = re.fullmatch(r"(.*?)([+-]\d+)?", text.replace(" ", ""))
    assert m is not None
    body, mod = m.group(1), m.group(2)
    if mod:
        modifier = int(mod)
    dice: list[int] = []
    for term in body.split("+"):
        t = _TERM.fullmatch(term)
        if t is None:
            raise ValueError(f"bad step table row {text!r}")
        dice += [int(t.group(2))] * int(t.group(1) or 1)
    return tuple(sorted(dice, reverse=True)), modifier


@cache
def step_table(edition: str = "ed4") -> dict[int, StepDice]:
    """The whole table of one edition, step -> :class:`StepDice`."""
    if edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")
    raw = tomllib.loads(resources.files("fracas.dice").joinpath(f"data/steps_{edition}.toml").read_text())
    if raw.get("edition") != edition:
        raise ValueError(f"steps_{edition}.toml names edition {raw.get('edition')!r}")
    table = {}
    for key, text in raw["steps"].items():
        dice, mod = _parse_row(text)
        table[int(key)] = StepDice(int(key), dice, mod, edition)
    return table


def step_dice(step: int, edition: str = "ed4") -> StepDice:
    """The dice of ``step`` in ``edition`` ("ed4" or "ed1")."""
    table = step_table(edition)
    if step not in table:
        raise UsageError(f"step {step} is not in the {edition} Step table (1 to {MAX_STEP})")
    return table[step]


def roll_step(step: int, source: DiceSource, edition: str = "ed4", why: str = "") -> Roll:
    """Roll a step test: every die explodes; steps 1 and 2 subtract from the total, which is at least
    :data:`STEP_MINIMUM` (recorded as the roll's ``floor``)."""
    sd = step_dice(step, edition)
    return roll_dice(sd.dice, source, sd.modifier, explode=True, floor=STEP_MINIMUM, why=why)
