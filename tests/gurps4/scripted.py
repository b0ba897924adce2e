"""Scripted GURPS fights for the rules tests: an encounter from a few lines, every die forced."""

from __future__ import annotations

from typing import Any

from fight_helpers import encounter_state, fight, two_sides
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.gurps4.defense import defense_options
from fracas.rules.registry import get_ruleset

RS = get_ruleset("gurps4")


def fight_of(
    sides: list[dict[str, Any]], options: dict[str, Any] | None = None, faces: list[int] | None = None
) -> Fight:
    """A fight of these sides, its dice ``faces`` (none unless given)."""
    return fight(encounter_state("gurps4", sides, name="rules", options=options or {}), faces or [])


def duel(a: dict[str, Any], b: dict[str, Any]) -> Fight:
    """Side A's one combatant against side B's, advanced to the first decision."""
    f = fight_of(two_sides(a, b))
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


def foot_turn(f: Fight) -> None:
    """Everyone before the spearman does nothing; his turn is next."""
    while (d := f.advance_until_decision()) is not None and d.actor != "foot":
        f.submit(Command(d.actor, "do_nothing"))


def flyer_data(altitude: int) -> dict:
    """An encounter: a winged warrior (a) flying `altitude` yards up, a spearman (b) five hexes away."""
    return {
        "version": 1,
        "ruleset": "gurps4",
        "name": "ceiling",
        "sides": [
            {"name": "A", "combatants": [{"template": "winged_warrior", "id": "a", "at": [0, 0],
                                          "altitude": altitude}]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "b", "at": [5, 0]}]},
        ],
    }  # fmt: skip
