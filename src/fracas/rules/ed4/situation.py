"""ED4 situation modifiers (``000_4b24aca42c3b6366.txt`` p.386-390, the Situation Modifiers Table).

Pure functions from positions, light, senses and conditions to :class:`~fracas.rules.base.Modifier`
lists; numbers from ``data/situations.toml``. The ruleset registers them as modifier providers
(:mod:`fracas.rules.ed4.features`).

Choices where the text leaves it to the gamemaster (docs/rulesets/ed4.md):

- Blindsided by position: the three hexes behind a character (relative directions 2, 3, 4 of his facing)
  are his rear; an attack from the rear blindsides him when he is also engaged by an enemy in front of him
  (the clarification p.387: he keeps an earlier attacker in his front arc, so he cannot turn to both) or is
  Harried; an unengaged character simply turns to face a new attacker.
- Harried from numbers counts the active enemies adjacent to the defender (close combat reaches one hex).
- "Sight-based tests" are Attack, Spellcasting and Perception tests.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from fracas.rules.base import Modifier

REAR = frozenset({2, 3, 4})
"""Directions, relative to the facing, of the hexes behind a character [choice, p.391 diagram]."""

SIGHT_TESTS = frozenset({"attack", "spellcasting", "perception"})


class SituationData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    page: str = Field(pattern=r"^p\.\d+$")
    action: int = 0
    defense: int = 0
    further: int = 0
    attackers: int = 0
    movement: int = 0
    crawl: int = 0
    no_attack: bool = False
    no_tests: bool = False


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")
    edition: str
    situations: dict[str, SituationData]


@cache
def table() -> dict[str, SituationData]:
    text = resources.files("fracas.rules.ed4").joinpath("data/situations.toml").read_text("utf-8")
    return dict(_File.model_validate(tomllib.loads(text)).situations)


_RULE_NAMES = {
    "blindsided": "blindsided",
    "cover-partial": "cover",
    "cover-full": "cover",
    "darkness-partial": "darkness",
    "darkness-full": "darkness",
    "harried": "harried",
    "impaired-light": "impaired-movement",
    "impaired-heavy": "impaired-movement",
    "knocked-down": "knocked-down",
    "range-short": "range",
    "range-long": "range",
    "surprised": "surprised",
}


def rule(situation: str) -> str:
    """``ed4/situation/<name> p.<page>`` for a row of the table."""
    return f"ed4/situation/{_RULE_NAMES[situation]} {table()[situation].page}"


# ----- Blindsided ---------------------------------------------------------------------------------------


def relative_direction(facing: int, direction: int) -> int:
    """Where ``direction`` (0..5, from the defender towards the attacker) lies relative to ``facing``."""
    return (direction - facing) % 6


def in_rear(facing: int, direction: int) -> bool:
    return relative_direction(facing, direction) in REAR


def blindsided_mods(name: str = "") -> list[Modifier]:
    """-2 to Physical and Mystic Defense against the attack (p.386)."""
    d = table()["blindsided"]
    return [Modifier(d.defense, f"{name + ' ' if name else ''}Blindsided", rule("blindsided"))]


def is_blindsided(
    facing: int,
    attacker_direction: int,
    engaged_directions: Iterable[int],
    *,
    harried: bool = False,
    can_see_attacker: bool = True,
    attacker_can_see: bool = True,
) -> bool:
    """Is an attack from ``attacker_direction`` a Blindsided attack? (p.386-387 and the clarification)

    The attacker must see his target. A defender who cannot see the attacker is Blindsided. An attack from
    the rear blindsides a defender who is Harried or engaged by another enemy in his front arc (he must
    keep that one in front); otherwise he turns to face the new attacker.
    """
    if not attacker_can_see:
        return False
    if not can_see_attacker:
        return True
    if not in_rear(facing, attacker_direction):
        return False
    if harried:
        return True
    return any(not in_rear(facing, d) for d in engaged_directions)


# ----- Cover --------------------------------------------------------------------------------------------


def cover_mods(cover: str | None, name: str = "") -> list[Modifier]:
    """Partial cover +2 to Physical and Mystic Defense (p.387); full cover: no attack (see cover_blocks)."""
    if cover != "partial":
        return []
    d = table()["cover-partial"]
    return [Modifier(d.defense, f"{name + ' ' if name else ''}partial cover", rule("cover-partial"))]


def cover_blocks(cover: str | None) -> bool:
    """Full cover: the character cannot be attacked without special abilities (p.387)."""
    return cover == "full"


# ----- Darkness, Blindness, Dazzled ---------------------------------------------------------------------


def effective_darkness(light: str, senses: Iterable[str] = ()) -> str:
    """The darkness a character suffers: "none", "partial" or "full" (p.387).

    ``light``: "bright", "partial-darkness", "full-darkness". Low-Light Vision ignores partial darkness and
    treats full as partial; Heat Sight ignores both (mundane darkness only).
    """
    s = set(senses)
    level = {"bright": 0, "partial-darkness": 1, "full-darkness": 2}[light]
    if "heat-sight" in s:
        level = 0
    elif "low-light-vision" in s:
        level = max(0, level - 1)
    return ("none", "partial", "full")[level]


def sight_mods(
    test: str, light: str, senses: Iterable[str] = (), blinded: bool = False, dazzled: bool = False
) -> list[Modifier]:
    """-2 (partial) or -4 (full) to sight-based tests (p.387). Blindness counts as full darkness and being
    Dazzled as partial (p.388); the worst of darkness, blindness and dazzle applies."""
    if test not in SIGHT_TESTS:
        return []
    level = {"none": 0, "partial": 1, "full": 2}[effective_darkness(light, senses)]
    why = "darkness"
    if blinded and level < 2:
        level, why = 2, "Blindness"
    if dazzled and level < 1:
        level, why = 1, "Dazzled"
    if level == 0:
        return []
    key = "darkness-partial" if level == 1 else "darkness-full"
    what = ("partial " if level == 1 else "full ") + why if why == "darkness" else why
    return [Modifier(table()[key].action, what, rule(key))]


# ----- Harried ------------------------------------------------------------------------------------------


def harried_by_numbers(close_attackers: int) -> bool:
    """Four or more close combat attackers make a character Harried (p.388, p.391)."""
    return close_attackers >= table()["harried"].attackers


def harried_penalty(instances: int) -> int:
    """-2 for being Harried, and a further -1 for each harried effect after the first (p.388): two
    instances (the windling rider, p.394) give -3."""
    if instances <= 0:
        return 0
    d = table()["harried"]
    return d.action + d.further * (instances - 1)


def harried_mods(instances: int, name: str = "", sources: str = "") -> list[Modifier]:
    """The Harried modifier (same value for Action tests and for Defenses, p.388)."""
    v = harried_penalty(instances)
    if not v:
        return []
    what = "Harried" if instances == 1 else f"Harried x{instances}"
    if sources:
        what += f" ({sources})"
    return [Modifier(v, f"{name + ' ' if name else ''}{what}", rule("harried"))]


# ----- Impaired Movement --------------------------------------------------------------------------------


def impaired_movement(movement: int, level: str | None) -> int:
    """Movement Rate in light (-5) or heavy (-10) impairment, never below 1 (p.389)."""
    if level not in ("light", "heavy"):
        return movement
    return max(1, movement + table()[f"impaired-{level}"].movement)


def impaired_mods(level: str | None, movement_test: bool) -> list[Modifier]:
    """-2 / -4 to movement-based tests (p.389)."""
    if level not in ("light", "heavy") or not movement_test:
        return []
    key = f"impaired-{level}"
    return [Modifier(table()[key].action, f"{level} impaired movement", rule(key))]


# ----- Knocked Down, Range, Surprised -------------------------------------------------------------------


def knocked_down_mods(name: str = "", defense: bool = False) -> list[Modifier]:
    """-3 to Action tests, -3 to Physical and Mystic Defense while knocked down (p.389)."""
    d = table()["knocked-down"]
    return [
        Modifier(
            d.defense if defense else d.action,
            f"{name + ' ' if name else ''}Knocked Down",
            rule("knocked-down"),
        )
    ]


def crawl_movement() -> int:
    """A knocked-down character may crawl at Movement Rate 2 (p.389)."""
    return table()["knocked-down"].crawl


def range_band(yards: int, short: int, long: int, minimum: int = 0) -> str | None:
    """ "short", "long", or None (inside the minimum range or beyond the maximum, no attack; p.392)."""
    if yards < minimum or yards > long:
        return None
    return "short" if yards <= short else "long"


def range_mods(band: str | None) -> list[Modifier]:
    """Long range: -2 to Attack and Damage tests (p.390; Silar 13 -> 11 and Step 10 -> 8)."""
    if band != "long":
        return []
    return [Modifier(table()["range-long"].action, "long range", rule("range-long"))]


def surprise_dn(dexterity_steps: Iterable[int]) -> int:
    """The DN of the Perception test against surprise: the lowest Dexterity step among those encountered
    (p.390)."""
    return min(dexterity_steps)


def surprised_mods(name: str = "") -> list[Modifier]:
    """-3 to Physical and Mystic Defense for the round of surprise (p.390)."""
    return [
        Modifier(table()["surprised"].defense, f"{name + ' ' if name else ''}Surprised", rule("surprised"))
    ]
