"""Scripted GURPS fights for the rules tests: an encounter from a few lines, every die forced."""

from __future__ import annotations

from typing import Any

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.gurps4.defense import defense_options
from fracas.rules.registry import get_ruleset

RS = get_ruleset("gurps4")


def fight_of(sides: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Fight:
    data = {"version": 1, "ruleset": "gurps4", "name": "rules", "sides": sides, "options": options or {}}
    _, state = encounter.load_data(data, "<test>")
    return Fight(RS, state, ScriptedDice([]))


def duel(a: dict[str, Any], b: dict[str, Any]) -> Fight:
    """Side A's one combatant against side B's, advanced to the first decision."""
    f = fight_of([{"name": "A", "combatants": [a]}, {"name": "B", "combatants": [b]}])
    f.advance_until_decision()
    return f


def play(f: Fight, dice: list[int], command: Command) -> list[ev.Event]:
    """Submit ``command`` with these faces, then advance to the next decision (more faces may follow)."""
    f.dice = ScriptedDice(dice)
    events = f.submit(command)
    f.advance_until_decision()
    return events


def rolls(events: list[ev.Event], actor: str | None = None) -> list[ev.Rolled]:
    return [e for e in events if isinstance(e, ev.Rolled) and e.under and actor in (None, e.actor)]


def offered(f: Fight) -> dict[str, int]:
    """The defenses on offer to the defender now: label without the value -> effective value."""
    return {cmd.describe().rsplit(" (", 1)[0]: v for cmd, v in defense_options(f.state)}
