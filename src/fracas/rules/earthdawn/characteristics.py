"""Earthdawn characteristics derived from attribute values, for both editions.

Attribute *values* (Dexterity 15, Toughness 11, ...) become *steps* and the derived characteristics the
combat rules use. Each function cites where its numbers come from; the facts the rules texts lack are
in ``/work/shared/rules/reference/earthdawn.md`` (called "reference" below).

ED4 (reference §2.1, closed formulas, **[confirmed]**; checked against the ED4 combat chapter
``000_4b24aca42c3b6366.txt`` wherever it prints a number: Tomas' Wound Threshold 8, Thrak's Strength
Step 7, Mica's Physical Defense 10, Silar's Missile Weapons Step 13, ...):

====================  =========================================================
attribute step         ``ceil(value / 3) + 1``
Physical/Mystic/       ``ceil(value / 2) + 1`` of Dexterity / Perception / Charisma
Social Defense
Mystic Armor           ``floor(Willpower / 5)`` (plus worn armor)
Wound Threshold        ``ceil(Toughness / 2) + 2``
Unconsciousness        ``2 * Toughness``
Death Rating           ``2 * Toughness + Toughness step``
Recovery tests / day   ``ceil(Toughness / 6)``; Recovery step = Toughness step
Knockdown step         Strength step
Initiative step        Dexterity step - armor and shield initiative penalties, never
                       below Step 1 (ED4 p.371: it cannot be lowered voluntarily below 1)
Karma                  die at step 4; maximum = race karma modifier x circle
Movement               by Namegiver race (``ed4/data/races.toml``)
====================  =========================================================

ED1 (reference §2.2): the Attribute Table for values 1-30 is data (``ed1/data/attributes.toml``,
**[confirmed for ED3, verify for ED1]**); :func:`ed1_formula_row` gives the closed formulas the table
follows, and a test checks one against the other. ED1 movement (Full/Combat, **[single, verify]**),
karma per race (**[single]**) and the wound penalty (**[verify]**) are here too.

Every function is pure and takes plain integers; nothing here rolls dice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from fracas.errors import UsageError

ATTRIBUTES = ("dexterity", "strength", "toughness", "perception", "willpower", "charisma")
"""The six Earthdawn attributes, in the order the books print them (DEX STR TOU PER WIL CHA)."""

ABBREVIATIONS = {
    "dex": "dexterity",
    "str": "strength",
    "tou": "toughness",
    "per": "perception",
    "wil": "willpower",
    "cha": "charisma",
}

MAX_ATTRIBUTE_VALUE = 60
"""Upper bound accepted for an attribute value (the ED1 table stops at 30; the ED4 formulas go on)."""


def _check_value(value: int, what: str = "attribute value") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number, found {value!r}")
    if not 1 <= value <= MAX_ATTRIBUTE_VALUE:
        raise UsageError(f"{what} must be between 1 and {MAX_ATTRIBUTE_VALUE}, found {value}")
    return value


# --------------------------------------------------------------------------------------------------
# ED4 (reference §2.1)
# --------------------------------------------------------------------------------------------------


def attribute_step(value: int) -> int:
    """Attribute value -> step, both editions: ``ceil(value/3) + 1`` (1-3 -> 2, 4-6 -> 3, ... 19-21 -> 8).

    Reference §2.1 (ED4, [confirmed]) and §2.2 (the ED1 Attribute Table uses the same mapping).
    """
    _check_value(value)
    return -(-value // 3) + 1


def defense_rating(value: int) -> int:
    """ED4 Physical, Mystic or Social Defense from Dexterity, Perception or Charisma: ``ceil(value/2) + 1``.

    Reference §2.1 [confirmed] (1-2 -> 2, 3-4 -> 3, ... 15 -> 9). Shields add their bonuses on top
    (:class:`fracas.rules.earthdawn.stats.EarthdawnStats` does that). Checked against the ED4 text:
    Mica's Physical Defense 10 (p.388), Ulm's 8 (p.392).
    """
    _check_value(value)
    return -(-value // 2) + 1


def natural_mystic_armor(willpower: int) -> int:
    """ED4 natural Mystic Armor: ``floor(Willpower/5)`` (5 -> 1, 10 -> 2, 15 -> 3). Reference §2.1."""
    _check_value(willpower, "Willpower value")
    return willpower // 5


def wound_threshold(toughness: int) -> int:
    """ED4 Wound Threshold: ``ceil(Toughness/2) + 2`` (10 -> 7, 15 -> 10). Reference §2.1.

    ED4 text p.378: Tomas the Wizard has Wound Threshold 8 (Toughness 11 or 12).
    """
    _check_value(toughness, "Toughness value")
    return -(-toughness // 2) + 2


def unconsciousness_rating(toughness: int) -> int:
    """ED4 Unconsciousness Rating: ``2 x Toughness`` (10 -> 20), before Durability. Reference §2.1."""
    _check_value(toughness, "Toughness value")
    return 2 * toughness


def death_rating(toughness: int) -> int:
    """ED4 Death Rating: ``2 x Toughness + Toughness step`` (10 -> 25, 25 -> 60), before Durability.

    Reference §2.1. (fvtt also adds +1 per Discipline circle; that is not applied here, see the data doc.)
    """
    _check_value(toughness, "Toughness value")
    return 2 * toughness + attribute_step(toughness)


def recovery_tests_per_day(toughness: int) -> int:
    """ED4 Recovery tests per day: ``ceil(Toughness/6)`` (1-6 -> 1, 7-12 -> 2). Reference §2.1."""
    _check_value(toughness, "Toughness value")
    return -(-toughness // 6)


def recovery_step(toughness: int) -> int:
    """Recovery test step = Toughness step (ED4 text p.380: "based on the character's Toughness Step")."""
    return attribute_step(toughness)


def knockdown_step(strength: int) -> int:
    """Knockdown test step = Strength step (ED4 text p.378: Tomas makes it "using his Strength Step")."""
    return attribute_step(strength)


def initiative_step(dexterity_step: int, armor_penalty: int = 0, shield_penalty: int = 0) -> int:
    """Initiative step: Dexterity step minus the armor and shield Initiative penalties, at least Step 1.

    ED4 text p.371 ("armor, and shields can modify the Initiative Step"; it "cannot voluntarily be
    lowered below Step 1"; wearing armor is voluntary) and ED1 text (Initiative dice are the Dexterity
    dice; "armor and shields can reduce a character's Initiative"). Reference §2.1.
    """
    if armor_penalty < 0 or shield_penalty < 0:
        raise UsageError("initiative penalties are given as positive numbers")
    return max(1, dexterity_step - armor_penalty - shield_penalty)


ED4_KARMA_STEP = 4
"""ED4 karma die: step 4 (d6) for every race (reference §2.1, fvtt ``karma.step = 4``) [single]."""


def ed4_karma_max(karma_modifier: int, circle: int) -> int:
    """ED4 maximum Karma: race karma modifier x highest circle (reference §2.1; modifiers in races.toml)."""
    if circle < 1:
        raise UsageError(f"circle must be 1 or more, found {circle}")
    return karma_modifier * circle


def carrying_capacity(strength: int) -> int:
    """ED4 carrying capacity in pounds (reference §2.1, fvtt formula; STR 10 -> 80, 15 -> 155)."""
    _check_value(strength, "Strength value")
    s5 = -(-strength // 5)
    return int(Fraction(-25, 2) * s5 * s5 + 5 * s5 * strength + Fraction(25, 2) * s5 + 5)


# --------------------------------------------------------------------------------------------------
# ED1 (reference §2.2)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ed1AttributeRow:
    """One row of the ED1 Attribute Table (reference §2.2): what an attribute value gives.

    ``defense`` is Physical Defense (from DEX), Spell Defense (PER) or Social Defense (CHA); ``death``,
    ``unconsciousness``, ``wound_threshold`` and ``recovery_tests`` are read for Toughness and
    ``mystic_armor`` for Willpower. ``combat_movement``/``full_movement`` (yards per round) are read for
    the race-adjusted Dexterity ([single, verify], see :func:`ed1_movement`).
    """

    value: int
    step: int
    defense: int
    death: int
    unconsciousness: int
    wound_threshold: int
    recovery_tests: int
    mystic_armor: int
    combat_movement: int
    full_movement: int


def _ceil(x: Fraction) -> int:
    return math.ceil(x)


def ed1_combat_movement(value: int) -> int:
    """ED1 Combat Movement for a (race-adjusted) Dexterity value: v+5 below 6, 2v for 6-20, 3v-20 above.

    Reference §2.2, from ``DrMabulle/earthdawn-droid: CharacterUtils.java`` [single, verify].
    """
    if value < 6:
        return value + 5
    if value <= 20:
        return 2 * value
    return 3 * value - 20


def ed1_formula_row(value: int) -> Ed1AttributeRow:
    """The ED1 Attribute Table row computed from the closed formulas of reference §2.2.

    The table itself is data (``ed1/data/attributes.toml``); these formulas exist so that a test can
    check every row of the data file against them.
    """
    _check_value(value)
    v = value
    defense = _ceil(Fraction(v, 2) + Fraction(3, 2) - Fraction((v + 1) // 7, 2))
    death = v + 18 + v // 3
    uncon = v + 9 + v // 3 + (v - 1) // 10
    wt = _ceil(Fraction(v, 2) + Fraction(5, 2) - Fraction((v + 1) // 22, 2) - Fraction(v // 27, 2))
    mystic = _ceil(Fraction(max(v - 10, 0), 3))
    recovery = 0 if v <= 2 else (v + 4) // 6
    combat = ed1_combat_movement(v)
    return Ed1AttributeRow(
        value=v,
        step=attribute_step(v),
        defense=defense,
        death=death,
        unconsciousness=uncon,
        wound_threshold=wt,
        recovery_tests=recovery,
        mystic_armor=mystic,
        combat_movement=combat,
        full_movement=2 * combat,
    )


def ed1_wound_penalty(wounds: int) -> int:
    """ED1 penalty to step numbers for Wounds: ``max(0, wounds - 1)`` (the first Wound is free).

    Reference §2.2, **[verify]** (an ED1-table character sheet and ``DrMabulle/earthdawn-droid`` agree;
    ED3 sheets start at the first Wound). Returned as a positive number to subtract.
    """
    if wounds < 0:
        raise UsageError(f"wounds must be 0 or more, found {wounds}")
    return max(0, wounds - 1)


def ed4_wound_penalty(wounds: int) -> int:
    """ED4 Wound penalty: -1 per Wound to all tests except Recovery tests (ED4 text p.381).

    Returned as a positive number to subtract; the combat rules decide when it applies.
    """
    if wounds < 0:
        raise UsageError(f"wounds must be 0 or more, found {wounds}")
    return wounds


def normalize_attributes(values: dict[str, int]) -> dict[str, int]:
    """Accept ``{"dex": 15, ...}`` or ``{"dexterity": 15, ...}``; return full names, all six required."""
    out: dict[str, int] = {}
    for key, value in values.items():
        name = ABBREVIATIONS.get(key.lower(), key.lower())
        if name not in ATTRIBUTES:
            raise UsageError(f"unknown attribute {key!r}; allowed: {', '.join(ATTRIBUTES)}")
        out[name] = _check_value(value, f"{name.capitalize()} value")
    missing = [a for a in ATTRIBUTES if a not in out]
    if missing:
        raise UsageError(f"missing attribute values: {', '.join(missing)}")
    return out
