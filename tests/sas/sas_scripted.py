"""Spells & Swords fights played with scripted dice, for the rules-reading tests (tests/sas)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fight_helpers import duel
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

SAS = get_ruleset("sas")


def scripted_fight(
    left: dict | list[dict],
    right: dict | list[dict],
    initiative: Iterable[int] = (20, 1),
    map_: dict | None = None,
    **top: Any,
) -> Fight:
    """Side left against side right (a combatant entry or a list each), advanced to the first decision;
    ``initiative`` the two sides' 1D20s (left 20, right 1: left first). The Brawl Rule is off unless
    ``options`` are given; ``top`` are the encounter's other keys (settings...)."""
    top.setdefault("options", {"brawl-rule": False})
    if map_:
        top["map"] = map_
    return duel("sas", left, right, initiative, names=("left", "right"), **top)


def fighters(brawls: bool = False, **top: Any) -> Fight:
    """Fighter a (side left, first: 1D20s 20 and 1) next to fighter b (side right); the Brawl Rule on when
    ``brawls`` (or as ``options`` say)."""
    if brawls:
        top.setdefault("options", {})
    a, b = {"template": "fighter", "id": "a", "at": [0, 0]}, {"template": "fighter", "id": "b", "at": [1, 0]}
    return scripted_fight(a, b, **top)


def turn(fight: Fight, cmd: Command, faces: list[int]) -> list[ev.Event]:
    """``cmd`` on its actor's turn with exactly ``faces`` (every one used); then on to the next decision."""
    dice = ScriptedDice(faces)
    fight.dice = dice
    events = fight.submit(cmd)
    fight.dice = ScriptedDice([])
    fight.advance_until_decision()
    return events


def goblin(gid: str, at: tuple[int, int], weapon: str | None = None) -> dict:
    """A goblin at ``at``, with ``weapon`` instead of his own when given."""
    out: dict = {"template": "goblin", "id": gid, "at": list(at)}
    if weapon:
        out["stats"] = {"weapons": [weapon]}
    return out


def noted(events: list[ev.Event], words: str) -> bool:
    return any(isinstance(e, ev.Note) and words in e.text for e in events)


def attacks(events: list[ev.Event]) -> list[ev.Rolled]:
    return [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]


def mods(attack: ev.Rolled) -> dict[str, int]:
    return {m[1]: m[0] for m in attack.modifiers}
