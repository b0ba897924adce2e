"""Helpers for the ED1 tests: fights from small encounter mappings (tests/fight_helpers.py plays them), the
declarations before Initiative."""

from __future__ import annotations

from typing import Any

from fight_helpers import encounter_state
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ED1 = get_ruleset("ed1")
TEXT = "001_694a1556573a8dc9.txt"


def build(
    sides: list[dict[str, Any]], options: dict[str, Any] | None = None, ruleset: str = "ed1", **extra: Any
) -> Any:
    return encounter_state(ruleset, sides, name="test", options=options or {}, **extra)


def declare(f: Fight, plan: dict[str, Command]) -> None:
    """Submit the declarations of ``plan`` (actor -> declare command); tactics declare for the others."""
    for _ in range(100):
        d = f.advance_until_decision()
        if d is None or d.kind != "declare":
            return
        f.submit(plan.get(d.actor) or f.auto_command(d))
    raise AssertionError("declarations never ended")


def decl(actor: str, what: str, target: str | None = None, **args: Any) -> Command:
    """A declaration before Initiative: the general action ``what`` (and its target, options)."""
    return Command(actor, "declare", target, {"action": what, **args})
