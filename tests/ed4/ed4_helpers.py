"""Helpers for the ED4 tests: fights from small encounter mappings (tests/fight_helpers.py plays them)."""

from __future__ import annotations

from typing import Any

from fight_helpers import encounter_state, two_sides
from fracas.rules.registry import get_ruleset

RULESET = get_ruleset("ed4")


# Every attribute at 12: the stat blocks of the tests' plain fighters start from it
ATTRIBUTES_12 = {
    "dexterity": 12,
    "strength": 12,
    "toughness": 12,
    "perception": 12,
    "willpower": 12,
    "charisma": 12,
}

# A plain swordsman: all attributes 12, a Step 10 sword of Damage 10 and Size 3 (the wired tests' duels)
BLOCK = {**ATTRIBUTES_12, "attacks": [{"name": "Sword", "step": 10, "damage": 10, "size": 3}]}


def build(sides: list[dict[str, Any]], options: dict[str, Any] | None = None, **extra: Any) -> Any:
    return encounter_state("ed4", sides, name="test", options=options or {}, **extra)


def pair(a: dict[str, Any], b: dict[str, Any], options: dict[str, Any] | None = None, **extra: Any) -> Any:
    """Combatant ``a`` at (0, 0) on side A next to ``b`` at (1, 0) on side B (ids "a" and "b")."""
    return build(two_sides({"id": "a", "at": [0, 0], **a}, {"id": "b", "at": [1, 0], **b}), options, **extra)
