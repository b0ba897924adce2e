"""What happened: immutable events, the source of truth of a fight (DESIGN.md).

Every event is a frozen dataclass of plain values (str, int, bool, None, tuples, dicts of those) so it
serialises to one JSON object (:func:`to_json`) and back (:func:`from_json`). ``apply`` is the only code that
changes a :class:`~fracas.engine.state.FightState`. Rulesets may define their own events by subclassing
:class:`Event`; the subclass registers itself under its class name.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from fracas.engine.state import Condition

if TYPE_CHECKING:
    from fracas.engine.state import FightState

REGISTRY: dict[str, type[Event]] = {}

_MISSING = dataclasses.MISSING
_T = TypeVar("_T")


def _fast_init(cls: type) -> None:
    """Give a frozen slots event class an ``__init__`` that stores each field through its slot descriptor.

    The dataclass ``__init__`` of a frozen class calls ``object.__setattr__`` once per field, looked up each
    time; this one has the descriptors' ``__set__`` bound once, about a third cheaper. Same signature, same
    defaults, same values; classes with default factories, keyword-only fields, InitVars or
    ``__post_init__`` keep the dataclass one."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(
        f.default_factory is not _MISSING or f.kw_only or not f.init for f in fields
    ):
        return
    if any(isinstance(v, dataclasses.InitVar) for v in getattr(cls, "__annotations__", {}).values()):
        return
    ns: dict[str, Any] = {}
    params = []
    body = []
    for f in fields:
        if f.default is _MISSING:
            params.append(f.name)
        else:
            ns[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        slot = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if slot is None or not hasattr(slot, "__set__"):
            return
        ns[f"_s_{f.name}"] = slot.__set__
        body.append(f"    _s_{f.name}(self, {f.name})")
    src = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(src, ns)  # noqa: S102 - the source is built from the class's own field names
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]


def fast_frozen_init(cls: type[_T]) -> type[_T]:
    """Class decorator (above ``@dataclass(frozen=True, slots=True)``): the same faster ``__init__`` events
    get (:func:`_fast_init`), for a ruleset's own frozen slots records built many times a fight."""
    _fast_init(cls)
    return cls


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "Event"
    changes_status: ClassVar[bool] = False
    """True for :class:`StatusChanged` (and its subclasses): the engine's end check looks for it."""
    changes_combatant: ClassVar[bool] = False
    """True for the events that change only combatants (Damaged, Wounded, CounterChanged, Condition*,
    StatusChanged, Marked, Moved, and their subclasses): a command's scratch view applies them at once."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # No super() call: slots dataclasses are rebuilt as new classes, which breaks zero-argument super.
        # slots dataclasses create a second class object; registering by name keeps the final one.
        cls.kind = cls.__name__
        REGISTRY[cls.__name__] = cls
        if "__slots__" in cls.__dict__ and "__dataclass_fields__" in cls.__dict__:
            _fast_init(cls)

    def apply(self, state: FightState) -> None:
        """Change ``state`` as this event says. Narration-only events change nothing."""


def to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.kind}
    for f in dataclasses.fields(event):
        out[f.name] = _thaw(getattr(event, f.name))
    return out


def stream_digest(events: Iterable[Event], length: int = 24) -> str:
    """A short fingerprint of an event stream: the SHA-256 of each event's JSON (keys sorted), a line each,
    cut to ``length`` hex digits. Equal digests mean the same events in the same order, every face,
    modifier and hex included (the golden tests compare fights this way)."""
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps(to_json(e), sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()[:length]


def from_json(data: dict[str, Any]) -> Event:
    cls = REGISTRY.get(data.get("type", ""))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    kwargs = {f.name: _freeze(data[f.name]) for f in dataclasses.fields(cls) if f.name in data}
    return cls(**kwargs)


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    return value


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


# ----- the fight as a whole ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FightStarted(Event):
    ruleset: str
    name: str
    seed: int | None = None

    def apply(self, state: FightState) -> None:
        state.phase = "started"


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int

    def apply(self, state: FightState) -> None:
        state.round = self.round
        state.phase = "declare"
        state.order = []
        state.turn = -1
        state.initiative = {}
        state.declarations = {}
        state.acted = set()


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    phase: str

    def apply(self, state: FightState) -> None:
        state.phase = self.phase


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A combatant's declaration before Initiative (action and options), as the ruleset defines it."""

    actor: str
    action: str
    options: tuple[str, ...] = ()
    target: str | None = None
    args: dict[str, Any] = dataclasses.field(default_factory=dict)

    def apply(self, state: FightState) -> None:
        state.declarations[self.actor] = {
            "action": self.action,
            "options": self.options,
            "target": self.target,
            **self.args,
        }


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    actor: str
    value: int
    step: int | None = None
    roll: dict[str, Any] | None = None
    modifiers: tuple[tuple[Any, ...], ...] = ()
    rule: str = ""

    def apply(self, state: FightState) -> None:
        state.initiative[self.actor] = self.value


@dataclass(frozen=True, slots=True)
class OrderSet(Event):
    """The acting order of the round (or of the rest of it, after a change)."""

    order: tuple[str, ...]
    rule: str = ""

    def apply(self, state: FightState) -> None:
        current = state.current
        state.order = list(self.order)
        state.turn = state.order.index(current) if current in state.order else -1
        state.phase = "act"


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    actor: str
    initiative: int | None = None

    def apply(self, state: FightState) -> None:
        i = state.place_in_order(self.actor)
        if i >= 0:
            state.turn = i
        else:
            state.order.append(self.actor)
            state.turn = len(state.order) - 1


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    actor: str

    def apply(self, state: FightState) -> None:
        state.acted.add(self.actor)


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int

    def apply(self, state: FightState) -> None:
        state.phase = "round-end"


@dataclass(frozen=True, slots=True)
class FightEnded(Event):
    winner: str | None
    rounds: int
    reason: str

    def apply(self, state: FightState) -> None:
        state.ended = True
        state.winner = self.winner
        state.end_reason = self.reason
        state.phase = "ended"


# ----- tests and what they do --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A test: what was rolled (every face), against what, with every modifier and its rule.

    ``step`` is the Earthdawn step or ``expr`` the dice notation; ``total`` the result; ``dn`` the
    Difficulty Number or, for roll-under systems, the target number (``under`` True). ``outcome`` is a short
    word ("success", "failure", "critical success", "hit", "Rule of One"...), ``extra`` extra successes or the
    ruleset's degree (margin, success level).
    """

    actor: str
    test: str
    total: int
    roll: dict[str, Any]
    step: int | None = None
    expr: str = ""
    target: str | None = None
    against: str = ""
    dn: int | None = None
    under: bool = False
    outcome: str = ""
    success: bool | None = None
    extra: int = 0
    modifiers: tuple[tuple[Any, ...], ...] = ()
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Moved(Event):
    changes_combatant: ClassVar[bool] = True
    actor: str
    path: tuple[tuple[int, int], ...]
    mode: str = "move"
    facing: int | None = None
    altitude: int | None = None
    rule: str = ""

    def apply(self, state: FightState) -> None:
        c = state.combatants[self.actor]
        if self.path:
            new = tuple(self.path[-1])
            grid = getattr(state, "_grid", None)  # a FightState's occupancy index (a scratch view has none)
            if grid is not None:
                grid.move(self.actor, c.pos, new, c.status)  # type: ignore[arg-type]
            c.pos = new  # type: ignore[assignment]
        if self.facing is not None:
            c.facing = self.facing
        if self.altitude is not None:
            c.altitude = self.altitude


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    """Damage that got through armor. ``counter`` is the track it adds to ("damage", "stun", "hp"...)."""

    changes_combatant: ClassVar[bool] = True

    target: str
    amount: int
    source: str | None = None
    counter: str = "damage"
    raw: int | None = None
    armor: int = 0
    damage_type: str = ""
    rule: str = ""

    def apply(self, state: FightState) -> None:
        counters = state.combatants[self.target].counters
        counters[self.counter] = counters.get(self.counter, 0) + self.amount
        if self.damage_type == "strain":  # Strain taken, already in ``counter``: a tally for the card
            counters["strain"] = counters.get("strain", 0) + self.amount


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    changes_combatant: ClassVar[bool] = True
    target: str
    wounds: int = 1
    counter: str = "wounds"
    rule: str = ""

    def apply(self, state: FightState) -> None:
        c = state.combatants[self.target]
        c.counters[self.counter] = c.counters.get(self.counter, 0) + self.wounds


@dataclass(frozen=True, slots=True)
class CounterChanged(Event):
    """Any other tracked number: Strain taken, Karma spent, Recovery tests used, damage healed..."""

    changes_combatant: ClassVar[bool] = True

    target: str
    counter: str
    delta: int
    why: str = ""
    rule: str = ""

    def apply(self, state: FightState) -> None:
        c = state.combatants[self.target]
        c.counters[self.counter] = c.counters.get(self.counter, 0) + self.delta


@dataclass(frozen=True, slots=True)
class ConditionAdded(Event):
    changes_combatant: ClassVar[bool] = True
    target: str
    name: str
    until_round: int | None = None
    value: int = 0
    source: str = ""
    rule: str = ""

    def apply(self, state: FightState) -> None:
        state.combatants[self.target].conditions[self.name] = Condition(
            self.name, self.until_round, self.value, self.source, self.rule
        )


@dataclass(frozen=True, slots=True)
class ConditionRemoved(Event):
    changes_combatant: ClassVar[bool] = True
    target: str
    name: str
    why: str = ""
    rule: str = ""

    def apply(self, state: FightState) -> None:
        state.combatants[self.target].conditions.pop(self.name, None)


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    """Active, unconscious, dead, fled, surrendered... ``is_out`` of the ruleset reads it."""

    changes_status: ClassVar[bool] = True
    changes_combatant: ClassVar[bool] = True

    target: str
    status: str
    rule: str = ""

    def apply(self, state: FightState) -> None:
        c = state.combatants[self.target]
        grid = getattr(state, "_grid", None)  # a FightState's occupancy index (a scratch view has none)
        if grid is not None:
            grid.restatus(c.pos, c.status, self.status)
        c.status = self.status


@dataclass(frozen=True, slots=True)
class Marked(Event):
    """A ruleset's own per-combatant fact (mounted on, grappled by, weapon lost...). None removes it."""

    changes_combatant: ClassVar[bool] = True

    target: str
    key: str
    value: Any = None
    rule: str = ""

    def apply(self, state: FightState) -> None:
        marks = state.combatants[self.target].marks
        if self.value is None:
            marks.pop(self.key, None)
        else:
            marks[self.key] = self.value


@dataclass(frozen=True, slots=True)
class ExtraSet(Event):
    """A ruleset's own fight-wide fact (reserved actions, side order...). None removes it."""

    key: str
    value: Any = None

    def apply(self, state: FightState) -> None:
        if self.value is None:
            state.extra.pop(self.key, None)
        else:
            state.extra[self.key] = self.value


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Something for the log that changes nothing (a declared reserved action, a refusal, a GM call)."""

    text: str
    actor: str | None = None
    rule: str = ""


# ----- the game master's overrides ---------------------------------------------------------------------
# A game master may break any rule (docs/web.md, "Overruling"): these events change what no rule changes.
# The other overrides are the ordinary events (CounterChanged, ConditionAdded, StatusChanged, Moved, OrderSet,
# FightEnded) after a Note "GM: ..." that says who did it.


@dataclass(frozen=True, slots=True)
class HiddenChanged(Event):
    """The game master hides a combatant from the players, or reveals it."""

    changes_combatant: ClassVar[bool] = True
    target: str
    hidden: bool

    def apply(self, state: FightState) -> None:
        c = state.combatants[self.target]
        c.hidden = self.hidden
        if self.hidden:
            c.marks.pop("revealed", None)


@dataclass(frozen=True, slots=True)
class CombatantAdded(Event):
    """A combatant joins mid-fight: ``entry`` is an encounter file's combatant entry (a template or a stat
    block, one copy, with its ``id`` and ``at``), built by the fight's ruleset as the file's would be."""

    side: str
    entry: dict[str, Any]

    def apply(self, state: FightState) -> None:
        from fracas.engine.encounter import CombatantSpec
        from fracas.rules.registry import get_ruleset

        spec = CombatantSpec.model_validate(_thaw(self.entry))
        for c in get_ruleset(state.ruleset).make_combatants(spec, self.side, "entry"):
            state.combatants[c.id] = c
        if self.side not in state.sides:
            state.sides = (*state.sides, self.side)
        state.drop_grid()


@dataclass(frozen=True, slots=True)
class CombatantRemoved(Event):
    """A combatant leaves the fight altogether (not killed: gone from the roster and the order)."""

    target: str

    def apply(self, state: FightState) -> None:
        current = state.current
        state.combatants.pop(self.target, None)
        if self.target in state.order:
            state.order = [c for c in state.order if c != self.target]
            if current == self.target:
                state.turn = min(state.turn, len(state.order)) - 1
            else:
                state.turn = state.order.index(current) if current in state.order else -1
        state.initiative.pop(self.target, None)
        state.declarations.pop(self.target, None)
        state.acted.discard(self.target)
        state.drop_grid()
