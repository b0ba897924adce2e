"""A figure as the rules read it now (its stats; HP, Dodge, Move and shock as they stand; whom it rides) and
the scratch copy of the state that resolving works on (:class:`Work`), so that ``Ruleset.resolve`` stays
pure: it returns the events, the engine applies them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import mods_json
from fracas.rules.gurps4 import core
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.stats import GurpsStats

ATTACK_KEY = "gurps_attack"
ATTACK_MANEUVERS = (
    "attack",
    "all_out_attack_determined",
    "all_out_attack_strong",
    "all_out_attack_double",
    "all_out_attack_feint",
    "move_and_attack",
)
RIDER_REACH_HEIGHT_NOTE = "gurps4/mounted/height B397"


def S(c: Combatant) -> GurpsStats:
    return c.stats  # type: ignore[no-any-return]


class _CopyOnRead(dict):  # type: ignore[type-arg]
    """Combatants of a scratch state, each copied the first time it is read (the originals stay intact)."""

    def __init__(self, base: dict[str, Combatant]) -> None:
        super().__init__(base)
        self._fresh: set[str] = set()

    def __getitem__(self, key: str) -> Combatant:
        c = dict.__getitem__(self, key)
        if key not in self._fresh:
            c = c.clone()
            dict.__setitem__(self, key, c)
            self._fresh.add(key)
        return c  # type: ignore[no-any-return]

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        if key not in self:
            return default
        return self[key]

    def values(self) -> list[Combatant]:  # type: ignore[override]
        return [self[k] for k in self.keys()]

    def items(self) -> list[tuple[str, Combatant]]:  # type: ignore[override]
        return [(k, self[k]) for k in self.keys()]


def look(state: FightState) -> Iterable[Combatant]:
    """The combatants of ``state`` to read only, without the copies :class:`_CopyOnRead` makes on reading:
    a combatant not yet copied is the original, unchanged by the events so far (an event changes one through
    ``state.combatants[id]``, which copies it first). A scan that reads every figure to find a few uses it;
    whatever it means to change or to keep reading after an event it takes again from ``state.combatants``."""
    return dict.values(state.combatants)


def look_at(state: FightState, cid: str) -> Combatant:
    """One combatant of ``state`` to read only (see :func:`look`)."""
    return dict.__getitem__(state.combatants, cid)  # type: ignore[no-any-return]


def scratch(state: FightState) -> FightState:
    """A copy of ``state`` for working out events: combatants copied on first read, the rest shallow (events
    replace what they change in ``extra``, ``order``, ``acted``; they never change it in place)."""
    return FightState(
        state.ruleset,
        state.name,
        _CopyOnRead(state.combatants),
        state.sides,
        state.options,
        state.max_rounds,
        state.round,
        state.phase,
        list(state.order),
        state.turn,
        dict(state.initiative),
        {k: dict(v) for k, v in state.declarations.items()},
        set(state.acted),
        state.ended,
        state.winner,
        state.end_reason,
        dict(state.extra),
        state.events_applied,
    )


@dataclass(slots=True)
class Work:
    """A scratch copy of the state and the events produced so far (each applied to the copy at once)."""

    state: FightState
    dice: DiceSource
    events: list[ev.Event] = field(default_factory=list)

    def emit(self, *events: ev.Event) -> None:
        for e in events:
            self.events.append(e)
            e.apply(self.state)

    def c(self, cid: str) -> Combatant:
        return self.state.combatants[cid]

    def option(self, name: str) -> Any:
        return self.state.options.get(name)

    def setting(self, name: str, default: Any = None) -> Any:
        return self.state.extra.get("settings", {}).get(name, default)

    def mark(self, c: Combatant, key: str, value: Any, rule: str = "") -> None:
        if c.marks.get(key) != value:
            self.emit(ev.Marked(c.id, key, value, rule))

    def note(self, text: str, actor: str | None = None, rule: str = "") -> None:
        self.emit(ev.Note(text, actor, rule))

    def rolled(self, actor: str, r: core.SuccessRoll, target: str | None = None, rule: str = "") -> None:
        outcome = ("critical " if r.critical else "") + ("success" if r.success else "failure")
        self.emit(
            ev.Rolled(
                actor=actor,
                test=r.what,
                total=r.roll,
                roll={"dice": [[-6, f] for f in r.faces], "total": r.roll},
                expr="3d6",
                target=target,
                against="effective",
                dn=r.effective,
                under=True,
                outcome=outcome,
                success=r.success,
                extra=r.margin,
                modifiers=mods_json(r.modifiers),
                rule=rule,
            )
        )


# ---------------------------------------------------------------------------------------- geometry


def hp_now(c: Combatant) -> int:
    return S(c).hp - c.count("injury")


R_REELING = "gurps4/core/hp-thresholds"


def dodge_now(c: Combatant) -> tuple[int, tuple[Modifier, ...]]:
    """The Dodge a figure defends with (B374) and what changed it: below 1/3 HP it is halved, rounding up
    (B419). The value is the halved one; the modifier shows the halving on the roll."""
    st = S(c)
    value = st.dodge()
    if not core.reeling(hp_now(c), st.hp):
        return value, ()
    half = -(-value // 2)
    return half, (mod(half - value, "below 1/3 HP: Dodge halved", R_REELING, "B419"),)


def shock_now(c: Combatant) -> list[Modifier]:
    """This turn's shock (B419; reference 1.6: "to DX and IQ (and skills) on the next turn only"): the
    penalty every DX, IQ or skill roll of the figure takes on the turn after it was hurt (its attacks, its
    feints, its Riding rolls, a DX roll to stay standing). Not active defenses, nor HT, Will or ST rolls."""
    shock = c.marks.get("shock_now", 0)
    return [mod(shock, "shock", "gurps4/core/shock", "B419")] if shock else []


def move_now(c: Combatant, air: bool = False) -> int:
    """The Basic Move (``air``: air Move) a figure moves with: below 1/3 HP halved, rounding up (B419)."""
    st = S(c)
    move = st.air_move if air else st.basic_move
    if core.reeling(hp_now(c), st.hp):
        move = -(-move // 2)
    return move


def mount_of(state: FightState, c: Combatant) -> Combatant | None:
    mid = c.marks.get("mount")
    return state.combatants.get(mid) if mid else None


def rider_of(state: FightState, c: Combatant) -> Combatant | None:
    rid = c.marks.get("rider")
    return state.combatants.get(rid) if rid else None


def flying(c: Combatant) -> bool:
    return S(c).flies and c.altitude > 0
