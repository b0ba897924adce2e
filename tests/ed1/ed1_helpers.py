"""Helpers for the ED1 tests: build fights from small encounter mappings, play them with scripted dice."""

from __future__ import annotations

from typing import Any

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ED1 = get_ruleset("ed1")
TEXT = "001_694a1556573a8dc9.txt"


def build(
    sides: list[dict[str, Any]], options: dict[str, Any] | None = None, ruleset: str = "ed1", **extra: Any
) -> Any:
    data = {
        "version": 1,
        "ruleset": ruleset,
        "name": "test",
        "sides": sides,
        "options": options or {},
        **extra,
    }
    return encounter.load_data(data, "<test>")[1]


def fight(state: Any, faces: list[int], ruleset: Any = ED1) -> Fight:
    return Fight(ruleset, state, ScriptedDice(faces))


def cmd(actor: str, action: str, target: str | None = None, **args: Any) -> Command:
    return Command(actor, action, target, args)


def declare(f: Fight, plan: dict[str, Command]) -> None:
    """Submit the declarations of ``plan`` (actor -> declare command); tactics declare for the others."""
    for _ in range(100):
        d = f.advance_until_decision()
        if d is None or d.kind != "declare":
            return
        f.submit(plan.get(d.actor) or f.auto_command(d))
    raise AssertionError("declarations never ended")


def until(f: Fight, actor: str, kind: str = "act") -> None:
    """Let tactics decide until ``actor`` must decide ``kind``."""
    for _ in range(1000):
        d = f.advance_until_decision()
        assert d is not None, "the fight ended first"
        if d.actor == actor and d.kind == kind:
            return
        f.submit(f.auto_command(d))
    raise AssertionError("never reached")


def rolled(events: list[ev.Event] | None, test: str) -> list[ev.Rolled]:
    return [e for e in events or () if isinstance(e, ev.Rolled) and e.test.endswith(test)]


def of(events: list[ev.Event] | None, kind: type) -> list[Any]:
    return [e for e in events or () if isinstance(e, kind)]


def decl(actor: str, what: str, target: str | None = None, **args: Any) -> Command:
    """A declaration before Initiative: the general action ``what`` (and its target, options)."""
    return Command(actor, "declare", target, {"action": what, **args})
