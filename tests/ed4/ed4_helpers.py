"""Helpers for the ED4 tests: build fights from small encounter mappings, play them with scripted dice."""

from __future__ import annotations

from typing import Any

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
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
    data = {"version": 1, "ruleset": "ed4", "name": "test", "sides": sides, "options": options or {}, **extra}
    return encounter.load_data(data, "<test>")[1]


def fight(state: Any, faces: list[int]) -> Fight:
    return Fight(RULESET, state, ScriptedDice(faces))


def auto(f: Fight, until_actor: str, kind: str = "act") -> None:
    """Let tactics decide until ``until_actor`` must decide ``kind``."""
    for _ in range(1000):
        d = f.advance_until_decision()
        assert d is not None, "the fight ended first"
        if d.actor == until_actor and d.kind == kind:
            return
        f.submit(f.auto_command(d))
    raise AssertionError("never reached")


def rolled(events: list[ev.Event], test: str) -> list[ev.Rolled]:
    return [e for e in events if isinstance(e, ev.Rolled) and e.test.endswith(test)]


def cmd(actor: str, action: str, target: str | None = None, **args: Any) -> Command:
    return Command(actor, action, target, args)
