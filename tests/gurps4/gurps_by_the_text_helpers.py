"""Helpers for the GURPS cases written from the rules texts: build a fight from combatant entries, play
commands with every die forced, and read final values from the events (public API only)."""

from __future__ import annotations

from typing import Any

from fight_helpers import encounter_state, fight, two_sides
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

R = get_ruleset("gurps4")


def new_fight(
    side_a: list[dict[str, Any]],
    side_b: list[dict[str, Any]],
    faces: list[int] | tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
) -> Fight:
    """A gurps4 fight between two sides, with the given dice faces scripted."""
    top = {"options": options} if options else {}
    return fight(encounter_state("gurps4", two_sides(side_a, side_b), source="<by the text>", **top), faces)


def script(fight: Fight, *faces: int) -> None:
    """Force the next dice: the faces, in order; nothing else may be rolled."""
    fight.dice = ScriptedDice(list(faces))


def all_used(fight: Fight) -> bool:
    return fight.dice.remaining == 0


def decision(fight: Fight, actor: str | None = None, kind: str | None = None) -> Decision:
    d = fight.advance_until_decision()
    assert d is not None, "the fight ended"
    if actor is not None:
        assert d.actor == actor, f"expected {actor} to decide, got {d}"
    if kind is not None:
        assert d.kind == kind, f"expected a {kind} decision, got {d}"
    return d


def act(fight: Fight, actor: str, action: str, target: str | None = None, **args: Any) -> list[ev.Event]:
    """The actor's next decision is this command (checked to be the actor's turn)."""
    decision(fight, actor)
    return fight.submit(Command(actor, action, target, dict(args)))


def defend(fight: Fight, actor: str, defense: str = "none", **args: Any) -> list[ev.Event]:
    decision(fight, actor, "react")
    return fight.submit(Command(actor, "defend", None, {"defense": defense, **args}))


def offered(fight: Fight, actor: str | None = None) -> list[Command]:
    d = decision(fight, actor)
    return list(R.choices(fight.state, d))


def defense_labels(fight: Fight, actor: str) -> dict[str, Command]:
    """The defenses offered to the actor now, by label ('dodge (9)' ...)."""
    d = decision(fight, actor, "react")
    return {c.label: c for c in R.choices(fight.state, d)}


def defense_value(fight: Fight, actor: str, defense: str, retreat: bool = False, **match: Any) -> int:
    """The number the offered defense is rolled against, read from the choice's label."""
    d = decision(fight, actor, "react")
    for c in R.choices(fight.state, d):
        a = c.args
        if a.get("defense") != defense or bool(a.get("retreat", False)) != retreat:
            continue
        if bool(a.get("acrobatic", False)) != bool(match.get("acrobatic", False)):
            continue
        if any(a.get(k) != v for k, v in match.items()):
            continue
        return int(c.label.rsplit("(", 1)[1].rstrip(")"))
    raise AssertionError(f"{defense} (retreat={retreat}) not offered to {actor}")


def rolls(events: list[ev.Event], test: str = "", actor: str | None = None) -> list[ev.Rolled]:
    """The Rolled events whose test name contains `test` (and by `actor`)."""
    return [
        e
        for e in events
        if isinstance(e, ev.Rolled) and test.lower() in e.test.lower() and (actor is None or e.actor == actor)
    ]


def one_roll(events: list[ev.Event], test: str = "", actor: str | None = None) -> ev.Rolled:
    found = rolls(events, test, actor)
    assert len(found) == 1, f"expected one roll '{test}', got {[r.test for r in rolls(events)]}"
    return found[0]


def injury(fight: Fight, cid: str) -> int:
    return int(fight.state.combatants[cid].counters.get("injury", 0))


def status(fight: Fight, cid: str) -> str:
    return str(fight.state.combatants[cid].status)


def dump(fight: Fight, events: list[ev.Event]) -> str:
    """The events narrated, for assertion messages."""
    return "\n".join(str(ev.to_json(e)) for e in events)
