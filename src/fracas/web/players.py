"""What the players may read in the log: an allow-list, event type by event type.

Each line the players see is written here from the event's fields, never passed on as the ruleset worded it
for the game master: a ruleset's text holds Difficulty Numbers, monster modifiers, monster totals and the
names of sides still in hiding. What is not listed here is not shown. The rules:

- a combatant hidden at the time (or still hidden) is not named; a side all of whose combatants are hidden
  is not named either (its rolls, its place in the side order, its turn);
- of a monster: its name, what it does and the outcome, never its dice, total, modifiers, counters or
  Strain; of a player character: the dice and the total, except a roll against a monster (its total holds
  the monster's defensive modifiers, e.g. Spells & Swords' Dodge and shield);
- never a Difficulty Number, never a seed (the server's dice are drawn from it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.narrate import counter_words, faces_text, narrate

if TYPE_CHECKING:
    from fracas.engine.state import FightState
    from fracas.store.book import Line


def involved(event: ev.Event, state: FightState) -> set[str]:
    """The combatants an event names (actor, target, source; the acting order)."""
    ids: set[str] = set()
    for name in ("actor", "target", "source"):
        v = getattr(event, name, None)
        if isinstance(v, str):
            ids.add(v)
    if isinstance(event, ev.OrderSet):
        ids.update(event.order)
    return {i for i in ids if i in state.combatants}


def hidden_sides(state: FightState, visible: set[str]) -> set[str]:
    """Sides none of whose combatants the players can see (a side with no combatant at all stays named)."""
    members: dict[str, list[str]] = {}
    for c in state.combatants.values():
        members.setdefault(c.side, []).append(c.id)
    return {side for side, ids in members.items() if not any(i in visible for i in ids)}


def secret_words(state: FightState, visible: set[str]) -> list[str]:
    """Words that must not appear in anything the players read: the names of the combatants they cannot see
    and of the sides none of whose combatants they see (a name a visible combatant shares, two "Ork
    Scorcher"s say, is no secret). Ids are not words of the log: the views leave hidden ones out."""
    shown = [c.name for c in state.combatants.values() if c.id in visible and c.name]
    words = []
    for c in state.combatants.values():
        if c.id in visible:
            continue
        if c.name and not any(c.name in name for name in shown):
            words.append(c.name)
    return words + sorted(hidden_sides(state, visible))


def player_sides(state: FightState) -> set[str]:
    return {c.side for c in state.combatants.values() if c.player}


def line_for_players(
    line: Line, state: FightState, visible: set[str], secret: list[str], title: str = ""
) -> str | None:
    """The players' version of one log line (None: nothing for them). ``visible``: the combatants they could
    see when it happened; ``secret``: words that must not appear (hidden names and sides) -- in the line
    without the fight's own ``title``, which the game master chose and the players' page shows anyway."""
    text = _line(line, state, visible)
    if text is None:
        return None
    probe = text.replace(title, "") if title else text
    return None if any(w and w in probe for w in secret) else text


def _n(state: FightState, cid: str | None) -> str:
    c = state.combatants.get(cid or "")
    return c.name if c else "?"


def _pc(state: FightState, cid: str | None) -> bool:
    c = state.combatants.get(cid or "")
    return bool(c and c.player)


def _outcome(e: ev.Rolled) -> str:
    return f" -> {e.outcome}" if e.outcome else ""


def _line(line: Line, state: FightState, visible: set[str]) -> str | None:
    e = line.event
    who = involved(e, state)
    if who - visible:
        return _unseen(e, state, visible)
    if isinstance(e, _TURN_EVENTS):
        return _turn_line(e, state, visible)
    if isinstance(e, _HARM_EVENTS):
        return _harm_line(e, state)
    n = lambda cid: _n(state, cid)  # noqa: E731
    if type(e).__name__ == "HiddenSet":  # Spells & Swords: hiding and being seen (fold.py)
        target = getattr(e, "target", None)
        if getattr(e, "hidden", True):
            return f"  {n(target)} hides." if _pc(state, target) else None
        return f"  {n(target)} is seen."
    gm = getattr(e, "gm_line", None)
    if callable(gm):
        return gm(state, True)
    return None


_TURN_EVENTS = (
    ev.FightStarted,
    ev.RoundStarted,
    ev.FightEnded,
    ev.Declared,
    ev.InitiativeRolled,
    ev.OrderSet,
    ev.TurnStarted,
    ev.Rolled,
    ev.Moved,
)
_HARM_EVENTS = (
    ev.Damaged,
    ev.Wounded,
    ev.CounterChanged,
    ev.ConditionAdded,
    ev.ConditionRemoved,
    ev.StatusChanged,
    ev.Note,
)


def _turn_line(e: ev.Event, state: FightState, visible: set[str]) -> str | None:
    """The course of the fight and its rounds: start, end, declarations, Initiative, turns, rolls, moves."""
    n = lambda cid: _n(state, cid)  # noqa: E731
    match e:
        case ev.FightStarted():
            return f"== {e.name or 'The fight'} begins"
        case ev.RoundStarted():
            return f"-- Round {e.round} --"
        case ev.FightEnded():
            if e.winner and e.winner in hidden_sides(state, visible):
                return f"== The fight ends after {e.rounds} round{'s' if e.rounds != 1 else ''}."
            return (narrate(e, state, None) or "").strip("\n") or None
        case ev.Declared():
            if not _pc(state, e.actor):
                return f"{n(e.actor)} declares."
            opts = f" with {', '.join(e.options)}" if e.options else ""
            tgt = f" against {n(e.target)}" if e.target else ""
            return f"{n(e.actor)} declares {e.action.replace('-', ' ')}{tgt}{opts}."
        case ev.InitiativeRolled():
            if not _pc(state, e.actor):
                return f"{n(e.actor)} rolls Initiative."
            dice = f" ({faces_text(e.roll)})" if e.roll else ""
            return f"{n(e.actor)}: Initiative {e.value}{dice}"
        case ev.OrderSet():
            return "Order: " + ", ".join(n(c) for c in e.order if c in visible)
        case ev.TurnStarted():
            return f"{n(e.actor)} acts."
        case ev.Rolled():
            return _rolled(e, state, visible)
        case ev.Moved():
            if not e.path:
                return None
            to = e.path[-1]
            return f"  {n(e.actor)} {e.mode}s to ({to[0]}, {to[1]})"
    return None


def _harm_line(e: ev.Event, state: FightState) -> str | None:
    """What befalls a combatant: damage, Wounds, counters, conditions, status, notes (a monster's numbers
    left out)."""
    n = lambda cid: _n(state, cid)  # noqa: E731
    match e:
        case ev.Damaged():
            if e.damage_type == "strain":  # Earthdawn Strain: the price of a talent, not a blow (p.226)
                return f"  {n(e.target)} takes {e.amount} Strain" if _pc(state, e.target) else None
            src = f" from {n(e.source)}" if e.source and e.source != e.target else ""
            return f"  {n(e.target)} takes {e.amount} {_counter(e.counter, e.amount)}{src}"
        case ev.Wounded():
            k = e.wounds
            return f"  {n(e.target)} takes " + ("a Wound" if k == 1 else f"{k} Wounds")
        case ev.CounterChanged():
            if not _pc(state, e.target):
                return None
            return f"  {n(e.target)} {counter_words(e.counter, e.delta)}"
        case ev.ConditionAdded():
            until = ""
            if e.until_round is not None and _pc(state, e.target):
                until = f" until the end of round {e.until_round}"
            return f"  {n(e.target)} is {e.name}{until}"
        case ev.ConditionRemoved():
            return f"  {n(e.target)} is no longer {e.name}"
        case ev.StatusChanged():
            return (narrate(e, state, None) or "").strip("\n").split(" [", 1)[0] or None
        case ev.Note():
            if e.actor is not None and not _pc(state, e.actor):
                return None
            monsters = [c.name for c in state.combatants.values() if not c.player and c.name]
            if any(m in e.text for m in monsters):  # a note about a monster may hold its numbers
                return None
            return f"  {e.text}"
    return None


def _counter(counter: str, amount: int) -> str:
    if counter == "markers":
        return "Wound Marker" + ("" if amount == 1 else "s")
    return counter.replace("_", " ")


def _rolled(e: ev.Rolled, state: FightState, visible: set[str]) -> str | None:
    tgt = f" vs {_n(state, e.target)}" if e.target else ""
    if e.actor in state.sides and e.actor not in state.combatants:  # a side's roll (Surprise, Initiative)
        if e.actor in hidden_sides(state, visible):
            return None
        if e.actor not in player_sides(state):
            return f"  {e.actor}: {e.test}{_outcome(e)}"
        return f"  {e.actor}: {e.test}, {faces_text(e.roll)} = {e.total}{_outcome(e)}"
    # a test's name may carry its numbers in brackets ("damage (couched lance: mount ST 25 ...)", GURPS)
    test = e.test.split(" (", 1)[0]
    if not _pc(state, e.actor):
        return f"{_n(state, e.actor)}: {test}{tgt}{_outcome(e)}"
    what = e.expr or (f"step {e.step}" if e.step is not None else "")
    dice = f", {what} ({faces_text(e.roll)})" if e.roll else ""
    if e.target and not _pc(state, e.target):
        return f"{_n(state, e.actor)}: {test}{tgt}{dice}{_outcome(e)}"
    extra = ""
    if e.extra and e.step is not None:  # Earthdawn's extra successes
        extra = f", {e.extra} extra success{'es' if e.extra != 1 else ''}"
    return f"{_n(state, e.actor)}: {e.test}{tgt}{dice} = {e.total}{_outcome(e)}{extra}"


def _unseen(e: ev.Event, state: FightState, visible: set[str]) -> str | None:
    """An attack or damage from a combatant the players cannot see, on one they can: "an unseen attacker"
    (nothing of the attacker: no name, no test, no dice). Anything else about it is left out."""
    target = getattr(e, "target", None)
    if not isinstance(target, str) or target not in visible:
        return None
    name = state.combatants[target].name
    if isinstance(e, ev.Damaged) and e.source not in visible and e.damage_type != "strain":
        return f"  {name} takes {e.amount} {_counter(e.counter, e.amount)} from an unseen attacker"
    if isinstance(e, ev.Rolled) and e.actor not in visible:
        return f"An unseen attacker attacks {name}{_outcome(e)}"
    return None
