"""Spells & Swords fights played with scripted dice, for the rules-reading tests (tests/sas)."""

from __future__ import annotations

from typing import Any

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

SAS = get_ruleset("sas")


def scripted_fight(
    left: list[dict], right: list[dict], initiative: list[int], map_: dict | None = None
) -> Fight:
    """Two sides (brawls off); ``initiative`` the two sides' 1D20s."""
    data: dict[str, Any] = {
        "version": 1,
        "ruleset": "sas",
        "options": {"brawl-rule": False},
        "sides": [{"name": "left", "combatants": left}, {"name": "right", "combatants": right}],
    }
    if map_:
        data["map"] = map_
    _, state = encounter.load_data(data)
    fight = Fight(SAS, state, ScriptedDice(initiative))
    fight.advance_until_decision()
    return fight


def turn(fight: Fight, cmd: Command, faces: list[int]) -> list[ev.Event]:
    """``cmd`` on its actor's turn with exactly ``faces`` (every one used); then on to the next decision."""
    dice = ScriptedDice(faces)
    fight.dice = dice
    events = fight.submit(cmd)
    fight.dice = ScriptedDice([])
    fight.advance_until_decision()
    return events


def attacks(events: list[ev.Event]) -> list[ev.Rolled]:
    return [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]


def mods(attack: ev.Rolled) -> dict[str, int]:
    return {m[1]: m[0] for m in attack.modifiers}
