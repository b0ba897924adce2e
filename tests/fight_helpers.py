"""Fights for the tests of every ruleset: an encounter from a few lines of data, played with scripted dice.

The one implementation the test folders share (pytest's `pythonpath`, pyproject.toml, puts this folder on
the path): a folder's own helpers (tests/ed4/ed4_helpers.py, tests/sas/sas_scripted.py...) bind these to
their ruleset and add what only it needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset


def encounter_state(ruleset: str, sides: list[dict[str, Any]], *, source: str = "<test>", **top: Any) -> Any:
    """The state of an encounter of ``ruleset`` with these ``sides``; ``top`` are its other keys as written
    (name, options, map, settings, max_rounds)."""
    data = {"version": 1, "ruleset": ruleset, "sides": sides, **top}
    return encounter.load_data(data, source)[1]


def two_sides(a: dict | list[dict], b: dict | list[dict], names: tuple[str, str] = ("A", "B")) -> list[dict]:
    """Side ``names[0]`` of ``a`` (one combatant entry or a list of them) and side ``names[1]`` of ``b``."""
    return [
        {"name": names[0], "combatants": a if isinstance(a, list) else [a]},
        {"name": names[1], "combatants": b if isinstance(b, list) else [b]},
    ]


def fight(state: Any, faces: Iterable[int] = (), ruleset: Any = None, advance: bool = False) -> Fight:
    """A fight of ``state`` whose dice are exactly ``faces`` (its own ruleset unless ``ruleset``), advanced
    to its first decision when ``advance``."""
    out = Fight(ruleset or get_ruleset(state.ruleset), state, ScriptedDice(list(faces)))
    if advance:
        out.advance_until_decision()
    return out


def seeded(state: Any, seed: int, ruleset: Any = None) -> Fight:
    """A fight of ``state`` on random dice from ``seed`` (recorded in its FightStarted), its own ruleset
    unless ``ruleset``."""
    return Fight(ruleset or get_ruleset(state.ruleset), state, RandomDice(seed), seed=seed)


def duel(
    ruleset: str,
    a: dict | list[dict],
    b: dict | list[dict],
    faces: Iterable[int] = (),
    names: tuple[str, str] = ("A", "B"),
    **top: Any,
) -> Fight:
    """``a`` against ``b`` (as `two_sides` takes them), the dice ``faces``, advanced to the first decision."""
    return fight(encounter_state(ruleset, two_sides(a, b, names), **top), faces, advance=True)


def cmd(actor: str, action: str, target: str | None = None, **args: Any) -> Command:
    return Command(actor, action, target, args)


def auto(f: Fight, actor: str, kind: str = "act") -> None:
    """Let tactics decide until ``actor`` must decide ``kind``."""
    for _ in range(1000):
        d = f.advance_until_decision()
        assert d is not None, "the fight ended first"
        if d.actor == actor and d.kind == kind:
            return
        f.submit(f.auto_command(d))
    raise AssertionError("never reached")


def rolled(events: list[ev.Event] | None, test: str) -> list[ev.Rolled]:
    """The rolls of the tests whose name ends with ``test``."""
    return [e for e in events or () if isinstance(e, ev.Rolled) and e.test.endswith(test)]


def of(events: list[ev.Event] | None, kind: type) -> list[Any]:
    return [e for e in events or () if isinstance(e, kind)]
