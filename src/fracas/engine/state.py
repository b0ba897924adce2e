"""The state of a fight: a fold of its events (DESIGN.md "Events are the source of truth").

Only events change a :class:`FightState` (through :meth:`FightState.apply`); rulesets read it. Static
numbers of a combatant (its stat block, already derived) live in ``stats``, which the ruleset defines and
nothing changes during a fight; everything that changes is in ``counters``, ``conditions``, ``marks``,
``pos``, ``status``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import Hex

if TYPE_CHECKING:
    from fracas.engine.events import Event


@dataclass(slots=True)
class Condition:
    """A condition on a combatant. ``until_round``: it ends at the end of that round (None: until removed)."""

    name: str
    until_round: int | None = None
    value: int = 0
    source: str = ""
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "until_round": self.until_round,
            "value": self.value,
            "source": self.source,
            "rule": self.rule,
        }


@dataclass(slots=True)
class Combatant:
    id: str
    name: str
    side: str
    stats: Any
    player: bool = False
    tactic: str = "default"
    hidden: bool = False
    template: str = ""
    pos: Hex | None = None
    facing: int = 0
    altitude: int = 0
    status: str = "active"
    counters: dict[str, int] = field(default_factory=dict)
    conditions: dict[str, Condition] = field(default_factory=dict)
    marks: dict[str, Any] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.status == "active"

    def count(self, name: str) -> int:
        return self.counters.get(name, 0)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def clone(self) -> Combatant:
        """An independent copy. Conditions are shared: nothing changes a :class:`Condition` in place (events
        replace or remove them), so copying the dict is enough."""
        n = _new_combatant(Combatant)
        n.id = self.id
        n.name = self.name
        n.side = self.side
        n.stats = self.stats
        n.player = self.player
        n.tactic = self.tactic
        n.hidden = self.hidden
        n.template = self.template
        n.pos = self.pos
        n.facing = self.facing
        n.altitude = self.altitude
        n.status = self.status
        n.counters = self.counters.copy()
        n.conditions = self.conditions.copy()
        n.marks = self.marks.copy()
        return n


_new_combatant = object.__new__


_GONE = ("dead", "fled")
"""Statuses whose combatants no longer take up their hex (they block no one's way)."""


BLOCK_SHIFT = 3
"""The occupancy index's blocks are 2**BLOCK_SHIFT (8) hexes a side: a hex in a block k blocks away (the
larger of the two block offsets) from another hex's block is at least 8(k - 1) + 1 hexes from it."""


def _take_out(lists: dict[Any, list[str]], key: Any, cid: str) -> bool:
    """Removes ``cid`` from the list under ``key`` (and the key with its last id); False if it was not
    there."""
    ids = lists.get(key)
    if ids is None or cid not in ids:
        return False
    ids.remove(cid)
    if not ids:
        del lists[key]
    return True


class Grid:
    """Who stands where: hex -> ids of the combatants on it (any status), for queries near one hex that must
    not look at every combatant (nearest enemy, blocked hexes) in big fights.

    :meth:`FightState.grid` builds it on first use; ``Moved`` events keep ``at`` and ``standing`` up to date,
    ``StatusChanged`` events ``standing``. Code that changes ``pos`` or ``status`` without an event during a
    fight (none does in the engine or ED4; set-up code before the first query may) calls
    :meth:`FightState.drop_grid`. ``unplaced`` counts combatants without a position; ``standing`` counts, on
    each hex, the combatants there who take it up (neither dead nor fled); ``rank`` is each combatant's place
    in the roster (the order of ``FightState.combatants``), for putting a few found near a hex in the order a
    scan of everyone would find them; ``blocks`` holds, for each side, the ids of its combatants in each block
    of BLOCK x BLOCK hexes (key ``(q >> BLOCK_SHIFT, r >> BLOCK_SHIFT)``), for finding the nearest enemies
    when they are far.
    """

    __slots__ = ("at", "size", "unplaced", "rank", "standing", "blocks", "side")

    def __init__(self, combatants: dict[str, Combatant]) -> None:
        at: dict[Hex, list[str]] = {}
        standing: dict[Hex, int] = {}
        blocks: dict[str, dict[Hex, list[str]]] = {}
        side: dict[str, str] = {}
        unplaced = 0
        for cid, c in combatants.items():
            pos = c.pos
            side[cid] = c.side
            if pos is None:
                unplaced += 1
            else:
                at.setdefault(pos, []).append(cid)
                if c.status not in _GONE:
                    standing[pos] = standing.get(pos, 0) + 1
                key = (pos[0] >> BLOCK_SHIFT, pos[1] >> BLOCK_SHIFT)
                blocks.setdefault(c.side, {}).setdefault(key, []).append(cid)
        self.at = at
        self.blocks = blocks
        self.side = side
        self.standing = standing
        self.size = len(combatants)
        self.unplaced = unplaced
        self.rank = {cid: i for i, cid in enumerate(combatants)}

    def move(self, cid: str, old: Hex | None, new: Hex | None, status: str = "active") -> None:
        """``cid`` (of ``status``) goes from ``old`` to ``new`` (None: off the map)."""
        at = self.at
        stands = status not in _GONE
        standing = self.standing
        if old is not None:
            if _take_out(at, old, cid) and stands:
                n = standing[old] - 1
                if n:
                    standing[old] = n
                else:
                    del standing[old]
        else:
            self.unplaced -= 1
        if new is not None:
            at.setdefault(new, []).append(cid)
            if stands:
                standing[new] = standing.get(new, 0) + 1
        else:
            self.unplaced += 1
        was = (old[0] >> BLOCK_SHIFT, old[1] >> BLOCK_SHIFT) if old is not None else None
        now = (new[0] >> BLOCK_SHIFT, new[1] >> BLOCK_SHIFT) if new is not None else None
        if was != now:
            mine = self.blocks.setdefault(self.side[cid], {})
            if was is not None:
                _take_out(mine, was, cid)
            if now is not None:
                mine.setdefault(now, []).append(cid)

    def restatus(self, pos: Hex | None, old: str, new: str) -> None:
        """A combatant on ``pos`` goes from status ``old`` to ``new``."""
        if pos is None:
            return
        was, now = old not in _GONE, new not in _GONE
        if was == now:
            return
        standing = self.standing
        if now:
            standing[pos] = standing.get(pos, 0) + 1
        else:
            n = standing[pos] - 1
            if n:
                standing[pos] = n
            else:
                del standing[pos]


@dataclass(slots=True)
class FightState:
    ruleset: str
    name: str
    combatants: dict[str, Combatant]
    sides: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    max_rounds: int = 100
    round: int = 0
    phase: str = "start"
    order: list[str] = field(default_factory=list)
    turn: int = -1
    initiative: dict[str, int] = field(default_factory=dict)
    declarations: dict[str, dict[str, Any]] = field(default_factory=dict)
    acted: set[str] = field(default_factory=set)
    ended: bool = False
    winner: str | None = None
    end_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    events_applied: int = 0
    _grid: Grid | None = field(default=None, init=False, repr=False, compare=False)
    _places: tuple[list[str], int, dict[str, int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    derived: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What a ruleset works out once per fight and keeps (the map's walls as a set), here so that it lives
    and dies with the fight: a clone starts without it. Each entry keeps what tells it is still good: the
    object it was worked out from (still the one in the state), or, for what events change, the
    ``events_applied`` it is good for (the ruleset keeps it over the events it returns; any other applied
    event makes it stale)."""

    def apply(self, event: Event) -> None:
        event.apply(self)
        self.events_applied += 1

    def apply_all(self, events: list[Event]) -> None:
        for e in events:
            e.apply(self)
        self.events_applied += len(events)

    # ----- reading ---------------------------------------------------------------------------------
    def get(self, cid: str) -> Combatant:
        return self.combatants[cid]

    @property
    def current(self) -> str | None:
        return self.order[self.turn] if 0 <= self.turn < len(self.order) else None

    def on_side(self, side: str) -> list[Combatant]:
        return [c for c in self.combatants.values() if c.side == side]

    def occupied(self, except_id: str | None = None) -> set[Hex]:
        return {
            c.pos
            for c in self.combatants.values()
            if c.pos is not None and c.id != except_id and c.status not in ("dead", "fled")
        }

    def at(self, h: Hex) -> list[Combatant]:
        return [c for c in self.combatants.values() if c.pos == h]

    def place_in_order(self, cid: str) -> int:
        """``order.index(cid)`` (its first place), -1 when it has none, without a scan per turn: a map of the
        places, built again when ``order`` is another list or has grown (events replace it or append to it;
        nothing else changes it)."""
        order = self.order
        p = self._places
        if p is None or p[0] is not order or p[1] != len(order):
            places: dict[str, int] = {}
            for i, x in enumerate(order):
                if x not in places:
                    places[x] = i
            p = self._places = (order, len(order), places)
        return p[2].get(cid, -1)

    def grid(self) -> Grid:
        """The occupancy index (:class:`Grid`), built on first use and kept by ``Moved`` events."""
        g = self._grid
        if g is None or g.size != len(self.combatants):
            g = self._grid = Grid(self.combatants)
        return g

    def drop_grid(self) -> None:
        """Forget the occupancy index (after changing positions without events)."""
        self._grid = None

    def clone(self) -> FightState:
        """An independent copy (stat blocks shared: nothing changes them)."""
        return FightState(
            self.ruleset,
            self.name,
            {k: c.clone() for k, c in self.combatants.items()},
            self.sides,
            dict(self.options),
            self.max_rounds,
            self.round,
            self.phase,
            list(self.order),
            self.turn,
            dict(self.initiative),
            {k: dict(v) for k, v in self.declarations.items()},
            set(self.acted),
            self.ended,
            self.winner,
            self.end_reason,
            _copy_extra(self.extra),
            self.events_applied,
        )

    def snapshot(self) -> dict[str, Any]:
        """A plain picture of everything that changes in a fight (for replay checks and views)."""
        return {
            "round": self.round,
            "phase": self.phase,
            "order": list(self.order),
            "turn": self.turn,
            "initiative": dict(self.initiative),
            "ended": self.ended,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "extra": _plain(self.extra),
            "combatants": {
                c.id: {
                    "status": c.status,
                    "pos": list(c.pos) if c.pos is not None else None,
                    "facing": c.facing,
                    "altitude": c.altitude,
                    "counters": dict(sorted(c.counters.items())),
                    "conditions": {k: v.to_json() for k, v in sorted(c.conditions.items())},
                    "marks": _plain(c.marks),
                }
                for c in self.combatants.values()
            },
        }


def _copy_extra(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_extra(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_extra(v) for v in value]
    if isinstance(value, set):
        return set(value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, set):
        return sorted(_plain(v) for v in value)
    return value
