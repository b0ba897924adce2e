"""The narrated log: each event in words a game master would use. Rulesets may word their own events."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState


def _name(state: FightState, cid: str | None) -> str:
    if cid is None:
        return "?"
    c = state.combatants.get(cid)
    return c.name if c else cid


def modifiers_text(mods: tuple[tuple[Any, ...], ...]) -> str:
    return "; ".join(f"{int(v):+d} {why} [{rule}]" for v, why, rule in mods)


def faces_text(roll: dict[str, Any] | None) -> str:
    if not roll:
        return ""
    parts = []
    for d in roll.get("dice", ()):
        sides, faces = abs(int(d[0])), [int(f) for f in d[1:]]
        parts.append(f"d{sides}:" + ("+".join(map(str, faces)) + "!" if len(faces) > 1 else str(faces[0])))
    text = " ".join(parts)
    mod = roll.get("modifier", 0)
    if mod:
        text += f" {mod:+d}"
    return text


# How a counter's change reads; anything else reads "<counter> +N".
_COUNTER_WORDS: dict[str, tuple[str, str]] = {
    # counter: (wording when it goes up, wording when it goes down); {n} is the size of the change
    "karma": ("regains {n} Karma", "spends {n} Karma"),
    "strain": ("takes {n} Strain", "recovers {n} Strain"),
    "recovery_used": ("uses {n} Recovery test{s}", "regains {n} Recovery test{s}"),
    "damage": ("takes {n} damage", "heals {n} damage"),
    "stun": ("takes {n} Stun damage", "recovers {n} Stun damage"),
    "wounds": ("takes {n} Wound{s}", "heals {n} Wound{s}"),
}

_STATUS_WORDS = {
    "fled": "flees!",
    "dead": "is dead!",
    "unconscious": "falls unconscious!",
    "surrendered": "surrenders!",
}


def counter_words(counter: str, delta: int) -> str:
    """``recovery_used``, +1 -> "uses 1 Recovery test"; an unknown counter reads "name +N"."""
    words = _COUNTER_WORDS.get(counter)
    if words is None:
        return f"{counter.replace('_', ' ')} {'+' if delta >= 0 else ''}{delta}"
    n = abs(delta)
    return words[0 if delta >= 0 else 1].format(n=n, s="" if n == 1 else "s")


def _rolled_line(event: ev.Rolled, n: Callable[[str | None], str]) -> str:
    """A roll: the test, its dice and total, what it is against, its outcome, extra successes, modifiers."""
    what = f"step {event.step}" if event.step is not None else event.expr
    tgt = f" vs {n(event.target)}" if event.target else ""
    against = ""
    if event.dn is not None and event.under:  # roll under: "12, needs 10 or less", not "12 <= DN 10"
        of = f" ({event.against})" if event.against else ""
        against = f", needs {event.dn} or less{of}"
    elif event.dn is not None:
        label = f"{event.against} " if event.against else "DN "
        against = f" vs {label}{event.dn}"
    outcome = f" -> {event.outcome}" if event.outcome else ""
    extra = f", {event.extra} extra success{'es' if event.extra != 1 else ''}" if event.extra else ""
    mods = f" [{modifiers_text(event.modifiers)}]" if event.modifiers else ""
    return (
        f"  {n(event.actor)}: {event.test}{tgt}, {what} ({faces_text(event.roll)}) = {event.total}"
        f"{against}{outcome}{extra}{mods}"
    )


def _wounded_line(event: ev.Wounded, state: FightState, n: Callable[[str | None], str]) -> str:
    """Wounds taken, with the count now ("takes a Wound", never "1 wounds")."""
    c = state.combatants.get(event.target)
    now = c.count(event.counter) if c else "?"
    k = event.wounds
    what = f"{k} {event.counter.replace('_', ' ')}"
    if event.counter == "wounds":  # "takes a Wound", never "1 wounds"
        what = "a Wound" if k == 1 else f"{k} Wounds"
    return f"  {n(event.target)} takes {what} (now {now}) [{event.rule}]"


def _status_line(event: ev.StatusChanged, n: Callable[[str | None], str]) -> str:
    """A combatant's status: back in the fight, or out of it in the words of ``_STATUS_WORDS``."""
    if event.status == "active":
        return f"  {n(event.target)} is back in the fight."
    said = _STATUS_WORDS.get(event.status, f"is {event.status}!")
    return f"  {n(event.target)} {said}" + (f" [{event.rule}]" if event.rule else "")


def _moved_line(event: ev.Moved, n: Callable[[str | None], str]) -> str | None:
    """A move: where it ends (None for a move of no step)."""
    if not event.path:
        return None
    to = event.path[-1]
    return f"  {n(event.actor)} {event.mode}s to ({to[0]}, {to[1]})" + (
        f" [{event.rule}]" if event.rule else ""
    )


def narrate(event: ev.Event, state: FightState, ruleset: Ruleset | None = None) -> str | None:
    """A line for ``event`` (None: nothing worth a line)."""
    if ruleset is not None:
        line = ruleset.narrate(event, state)
        if line is not None:
            return line or None
    n = lambda cid: _name(state, cid)  # noqa: E731
    match event:
        case ev.FightStarted():
            return f"== {event.name or 'The fight'} begins ({event.ruleset}" + (
                f", seed {event.seed})" if event.seed is not None else ")"
            )
        case ev.RoundStarted():
            return f"\n-- Round {event.round} --"
        case ev.Declared():
            opts = f" with {', '.join(event.options)}" if event.options else ""
            tgt = f" against {n(event.target)}" if event.target else ""
            return f"{n(event.actor)} declares {event.action}{tgt}{opts}."
        case ev.InitiativeRolled():
            detail = f" (step {event.step}: {faces_text(event.roll)})" if event.step is not None else ""
            mods = f"; {modifiers_text(event.modifiers)}" if event.modifiers else ""
            return f"{n(event.actor)} Initiative {event.value}{detail}{mods}"
        case ev.OrderSet():
            return "Order: " + ", ".join(
                f"{n(c)} ({state.initiative[c]})" if c in state.initiative else n(c) for c in event.order
            )
        case ev.TurnStarted():
            return None
        case ev.Rolled():
            return _rolled_line(event, n)
        case ev.Moved():
            return _moved_line(event, n)
        case ev.Damaged():
            armor = f" after {event.armor} armor" if event.armor else ""
            raw = f" ({event.raw} rolled{armor})" if event.raw is not None else ""
            src = f" from {n(event.source)}" if event.source else ""
            return f"  {n(event.target)} takes {event.amount} {event.counter}{src}{raw}"
        case ev.Wounded():
            return _wounded_line(event, state, n)
        case ev.CounterChanged():
            # the why is event data (in the golden digests): its count of one Wound is worded here
            why = event.why.replace(" 1 Wounds ", " 1 Wound ") if event.why else ""
            return f"  {n(event.target)} {counter_words(event.counter, event.delta)}" + (
                f" ({why})" if why else ""
            )
        case ev.ConditionAdded():
            until = f" until the end of round {event.until_round}" if event.until_round is not None else ""
            return f"  {n(event.target)} is {event.name}{until} [{event.rule}]"
        case ev.ConditionRemoved():
            return f"  {n(event.target)} is no longer {event.name}" + (f" ({event.why})" if event.why else "")
        case ev.StatusChanged():
            return _status_line(event, n)
        case ev.Note():
            return f"  {event.text}" + (f" [{event.rule}]" if event.rule else "")
        case ev.FightEnded():
            who = f"Victory for {event.winner}" if event.winner else "No winner"  # any side name reads right
            return (
                f"\n== {who} after {event.rounds} round{'s' if event.rounds != 1 else ''} ({event.reason})."
            )
    return None
