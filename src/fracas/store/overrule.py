"""The game master overrules: an override as the events that carry it out.

A table's game master may break any rule (a wrong roll fixed, a monster that arrives, a fight ended early):
each override is the ordinary events that say what changed (CounterChanged, ConditionAdded, StatusChanged,
Moved, OrderSet, FightEnded...) or the game master's own (HiddenChanged, CombatantAdded, CombatantRemoved),
after a Note "GM: ..." that says who did it. So the state stays a fold of the log, an override is undone like
any action, and the engine carries on from the new state. The counters, conditions and statuses offered are
whatever the combatant's state holds (any ruleset): nothing here knows a ruleset.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.errors import FracasError

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState

KINDS = (
    "damage",
    "heal",
    "set",
    "condition",
    "uncondition",
    "status",
    "reveal",
    "hide",
    "move",
    "add",
    "remove",
    "order",
    "end-round",
    "end-fight",
)
"""The overrides, by the name the API and the terminal take (docs/web.md, "Overruling")."""
STATUSES = ("active", "unconscious", "dead", "fled", "surrendered")
MAX_AMOUNT = 100_000
MAX_WORD = 80
_WORD = re.compile(r"^[A-Za-z0-9 _.'-]{1,80}$")


class OverrideRefused(FracasError):
    """An override that cannot be carried out as asked (the message says why); nothing changed."""

    exit_code = 2


def _who(state: FightState, body: dict[str, Any]) -> Combatant:
    cid = body.get("target")
    c = state.combatants.get(cid) if isinstance(cid, str) else None
    if c is None:
        raise OverrideRefused(f"no combatant {cid!r} in this fight")
    return c


def _int(body: dict[str, Any], key: str, low: int = -MAX_AMOUNT, high: int = MAX_AMOUNT) -> int:
    v = body.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise OverrideRefused(f"{key} must be a whole number from {low} to {high}")
    return v


def _word(body: dict[str, Any], key: str) -> str:
    v = body.get(key)
    if not isinstance(v, str) or not _WORD.match(v.strip()):
        raise OverrideRefused(f"{key} must be a name of 1 to {MAX_WORD} letters, digits, spaces or _.'-")
    return v.strip()


def _hex(body: dict[str, Any], key: str = "to") -> tuple[int, int]:
    v = body.get(key)
    if (
        not isinstance(v, list | tuple)
        or len(v) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) or abs(x) > 10_000 for x in v)
    ):
        raise OverrideRefused(f"{key} must be a hex [q, r]")
    return (v[0], v[1])


def override_events(state: FightState, body: dict[str, Any]) -> tuple[str, list[ev.Event]]:
    """What ``body`` (``{"kind": ..., ...}``) says, in words (for the log's "GM: ..." and the undo button),
    and the events that carry it out. :class:`OverrideRefused` when it cannot be done as asked."""
    kind = body.get("kind")
    if kind not in KINDS:
        raise OverrideRefused(f"kind must be one of {', '.join(KINDS)}")
    if state.ended and kind != "end-fight":
        raise OverrideRefused("the fight is over: undo its end first")
    what, events = _events(state, str(kind), body)
    return what, [ev.Note(f"GM: {what}", rule="gm"), *events]


def _counter_events(state: FightState, kind: str, body: dict[str, Any]) -> tuple[str, list[ev.Event]]:
    """Damage, healing or a value set on one of a combatant's counters."""
    c = _who(state, body)
    counter = _word(body, "counter")
    now = c.count(counter)
    if kind == "set":
        value = _int(body, "value")
        return f"{c.name}'s {counter} set to {value} (was {now})", [
            ev.CounterChanged(c.id, counter, value - now, why="set by the game master", rule="gm")
        ]
    amount = _int(body, "amount", 1)
    delta = amount if kind == "damage" else -amount
    words = f"{amount} {counter} to {c.name}" if kind == "damage" else f"{c.name} heals {amount} {counter}"
    return words, [ev.CounterChanged(c.id, counter, delta, why="the game master", rule="gm")]


def _condition_events(state: FightState, body: dict[str, Any]) -> tuple[str, list[ev.Event]]:
    """A condition put on a combatant, for some rounds or until taken off."""
    c = _who(state, body)
    name = _word(body, "name")
    rounds = body.get("rounds")
    until = None
    if rounds is not None:
        until = state.round + _int(body, "rounds", 1, 1000) - 1
    more = f" for {rounds} round{'s' if rounds != 1 else ''}" if rounds else ""
    return f"{c.name} is {name}{more}", [
        ev.ConditionAdded(c.id, name, until, _int(body, "value") if "value" in body else 0, "gm", "gm")
    ]


def _events(state: FightState, kind: str, body: dict[str, Any]) -> tuple[str, list[ev.Event]]:
    if kind in ("damage", "heal", "set"):
        return _counter_events(state, kind, body)
    if kind == "condition":
        return _condition_events(state, body)
    if kind == "uncondition":
        c = _who(state, body)
        name = _word(body, "name")
        if name not in c.conditions:
            raise OverrideRefused(f"{c.name} is not {name}")
        return f"{c.name} is no longer {name}", [ev.ConditionRemoved(c.id, name, why="the game master")]
    if kind == "status":
        c = _who(state, body)
        status = _word(body, "status")
        if status not in STATUSES:
            raise OverrideRefused(f"status must be one of {', '.join(STATUSES)}")
        return f"{c.name} is {status}", [ev.StatusChanged(c.id, status, rule="gm")]
    if kind in ("reveal", "hide"):
        c = _who(state, body)
        return f"{c.name} {'revealed' if kind == 'reveal' else 'hidden'}", [
            ev.HiddenChanged(c.id, kind == "hide")
        ]
    if kind == "move":
        c = _who(state, body)
        to = _hex(body)
        taken = [o.name for o in state.combatants.values() if o.id != c.id and o.pos == to and o.active]
        if taken:
            raise OverrideRefused(f"({to[0]}, {to[1]}) is taken by {taken[0]}")
        return f"{c.name} set at ({to[0]}, {to[1]})", [ev.Moved(c.id, (to,), mode="move", rule="gm")]
    if kind == "remove":
        c = _who(state, body)
        return f"{c.name} leaves the fight", [ev.CombatantRemoved(c.id)]
    if kind == "add":
        return _add(state, body)
    if kind == "order":
        order = body.get("order")
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(state.order) or not state.order:
            raise OverrideRefused("order must list the combatants of this round's order, each once")
        names = ", ".join(state.combatants[c].name for c in order if c in state.combatants)
        return f"order this round: {names}", [ev.OrderSet(tuple(order), rule="gm")]
    if kind == "end-round":
        if state.round < 1 or state.phase in ("round-end", "start"):
            raise OverrideRefused("no round is under way")
        left = [ev.TurnEnded(c) for c in state.order if c not in state.acted and c in state.combatants]
        return f"round {state.round} ends", [*left, ev.RoundEnded(state.round)]
    # end-fight
    winner = body.get("winner")
    if winner is not None and winner not in state.sides:
        raise OverrideRefused(f"winner must be one of the sides ({', '.join(state.sides)}) or null")
    if state.ended:
        raise OverrideRefused("the fight is already over")
    who = f": victory for {winner}" if winner else ""
    return f"the fight ends{who}", [ev.FightEnded(winner, state.round, "the game master ended it")]


def _add(state: FightState, body: dict[str, Any]) -> tuple[str, list[ev.Event]]:
    """A combatant from a template or a stat block (an encounter file's entry, one copy), at a hex."""
    side = body.get("side")
    entry = body.get("entry")
    if not isinstance(side, str) or not side.strip() or len(side) > MAX_WORD:
        raise OverrideRefused(f"side must be a side's name (at most {MAX_WORD} characters)")
    if not isinstance(entry, dict) or not (entry.get("template") or entry.get("stats")):
        raise OverrideRefused("entry must be an encounter file's combatant entry: a template or stats")
    entry = {k: v for k, v in entry.items() if k != "count"}
    base = str(entry.get("id") or entry.get("template") or entry.get("name") or "combatant")
    base = re.sub(r"[^A-Za-z0-9_.-]+", "-", base).strip("-")[:40] or "combatant"
    cid, k = base, 1
    while cid in state.combatants:
        k += 1
        cid = f"{base}-{k}"
    entry["id"] = cid
    if "at" in entry:
        entry["at"] = list(_hex(entry, "at"))
        if any(c.pos == tuple(entry["at"]) and c.active for c in state.combatants.values()):
            raise OverrideRefused(f"({entry['at'][0]}, {entry['at'][1]}) is taken")
    event = ev.CombatantAdded(side.strip(), entry)
    trial = state.clone()
    try:
        trial.apply(event)
    except FracasError as exc:
        raise OverrideRefused(str(exc)) from None
    except (ValueError, TypeError, KeyError) as exc:  # a malformed entry (pydantic's ValidationError too)
        first = str(exc).splitlines()[:3]
        raise OverrideRefused("the entry is not a valid combatant: " + " ".join(first)) from None
    name = trial.combatants[cid].name
    where = f" at ({entry['at'][0]}, {entry['at'][1]})" if "at" in entry else ""
    return f"{name} joins {side.strip()}{where}", [event]


WORDS_HELP = (
    "gm damage|heal ID COUNTER N; gm set ID COUNTER N; gm condition ID NAME [ROUNDS]; "
    "gm uncondition ID NAME; gm status ID STATUS; gm reveal|hide|remove ID; gm move ID Q R; "
    "gm add SIDE TEMPLATE Q R [NAME]; "
    "gm order ID ID ...; gm end-round; gm end-fight [SIDE]"
)


def from_words(text: str) -> dict[str, Any]:
    """An override typed at the terminal's prompt (``fracas fight --step``): ``gm damage mica damage 4``."""
    words = text.split()
    if words[:1] == ["gm"]:
        words = words[1:]
    if not words:
        raise OverrideRefused(WORDS_HELP)
    kind, rest = words[0], words[1:]

    def num(w: str) -> int:
        try:
            return int(w)
        except ValueError:
            raise OverrideRefused(f"{w!r} is not a whole number ({WORDS_HELP})") from None

    try:
        if kind in ("damage", "heal"):
            return {"kind": kind, "target": rest[0], "counter": rest[1], "amount": num(rest[2])}
        if kind == "set":
            return {"kind": kind, "target": rest[0], "counter": rest[1], "value": num(rest[2])}
        if kind == "condition":
            out = {"kind": kind, "target": rest[0], "name": rest[1]}
            return {**out, "rounds": num(rest[2])} if len(rest) > 2 else out
        if kind == "uncondition":
            return {"kind": kind, "target": rest[0], "name": rest[1]}
        if kind == "status":
            return {"kind": kind, "target": rest[0], "status": rest[1]}
        if kind in ("reveal", "hide", "remove"):
            return {"kind": kind, "target": rest[0]}
        if kind == "move":
            return {"kind": kind, "target": rest[0], "to": [num(rest[1]), num(rest[2])]}
        if kind == "add":
            entry: dict[str, Any] = {"template": rest[1], "at": [num(rest[2]), num(rest[3])]}
            if len(rest) > 4:
                entry["name"] = " ".join(rest[4:])
            return {"kind": kind, "side": rest[0], "entry": entry}
        if kind == "order":
            return {"kind": kind, "order": rest}
        if kind == "end-round":
            return {"kind": kind}
        if kind == "end-fight":
            return {"kind": kind, "winner": rest[0] if rest else None}
    except IndexError:
        pass
    raise OverrideRefused(WORDS_HELP)


def _ask(console: Any, prompt: str, interactive: bool) -> str:
    import sys

    return str(console.input(prompt)) if interactive else sys.stdin.readline()


def overrule_at_prompt(console: Any, prompt: str, interactive: bool, state: FightState, apply: Any) -> str:
    """``fracas fight FILE --step``: overrides typed at the prompt (``gm ...``) are applied to the fight in
    memory (``apply``: the Fight's, which narrates them); returns the first answer that is not one."""
    while True:
        answer = _ask(console, prompt, interactive)
        if not answer.strip().startswith("gm"):
            return answer
        try:
            _, events = override_events(state, from_words(answer))
        except FracasError as exc:
            console.print(str(exc), markup=False)
            continue
        apply(events)


def overrule_saved_at_prompt(
    console: Any, prompt: str, interactive: bool, service: Any, fight_id: str, shown: int
) -> tuple[str, Any, int]:
    """``fracas fight --resume ID --step``: each override typed at the prompt is saved as one batch, as the
    browser's would be; returns the first other answer, the book and how many of its lines are shown."""
    book = service.book(fight_id)
    while True:
        answer = _ask(console, prompt, interactive)
        if not answer.strip().startswith("gm"):
            return answer, book, shown
        try:
            body = from_words(answer)
            book, _ = service.act(fight_id, lambda b, body=body: b.plan_override(body))
        except FracasError as exc:
            console.print(str(exc), markup=False)
            continue
        for line in book.lines[shown:]:
            console.print(line.text, markup=False)
        shown = len(book.lines)
