"""Between the engine's state and the pure procedures: a :class:`Fighter` view of a combatant, and the
engine events that carry a procedure's :class:`Effect` s.

Where a Spells & Swords combatant keeps things in the engine's :class:`~fracas.engine.state.Combatant`:

- ``counters``: markers, burn_markers, bleeds, pp_used, strength_loss, appearance_loss, potions,
  save_rerolls (a Human's rerolls of a failed save used today).
- ``conditions``: condition ids of conditions.toml (and stance/feint/charging/withdrawal/staggered/routed/
  battle-cry/taunted) with ``until_round``; ``value`` carries a Defense change where there is one.
- ``marks``: hurt, broken, permanent (tuples of body parts), weapon (in hand), dropped, broken_weapons,
  shield_dropped, next ({key: (value, until_round)}), bleed_death_round, dying_round, mounted_on, ridden_by,
  last_attack_round, moved_round, set (receive-charge / overwatch), shield_used ((round, side, n)),
  pile ({"members": [...], "bonus": n}), taunted_by, lost_leg, lost_arm, mute, fuse_lit, poisoned,
  routed_round, reacted_round, first_strike_round, foe_bonus_used (foes who had a Monster Fumble 4-5 bonus).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from fracas.engine import events as ev
from fracas.engine.state import Combatant, Condition, FightState
from fracas.rules.base import mods_json
from fracas.rules.sas.effects import EffectKind
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Check, Effect, TableRoll
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables

_EFFECT_FIELDS = tuple(f.name for f in dataclasses.fields(Effect))

# conditions that carry a Defense change in their value (Staggered's -1 is a "next" mark: its label only)
DEFENSE_CONDITIONS = ("stance", "feint", "charging", "withdrawal", "staggered")
# ... and those that last until the owner's next side turn. Not Staggered: FUMBLE TABLE 6 "Cannot Move next
# Round" lasts through the next round, to its own end (rounds=1)
TURN_SCOPED = ("stance", "feint", "charging", "withdrawal", "fleeing")
# "next" marks that last until the fighter's next attack takes them, however many rounds that is
ATTACK_SCOPED = ("miss_attack", "attack")
DEFENSE_LABELS = {
    "stance": "Defensive Stance",
    "feint": "Feint",
    "charging": "Charge",
    "withdrawal": "Fighting Withdrawal",
    "staggered": "Staggered",
}


@dataclass(frozen=True, slots=True)
class HiddenSet(ev.Event):
    """A combatant becomes hidden (Hide, Sneak) or is seen (attacks, Lookout, a failed Surprise)."""

    target: str
    hidden: bool
    rule: str = ""

    def apply(self, state: FightState) -> None:
        state.combatants[self.target].hidden = self.hidden


def next_value(c: Combatant, key: str, round_: int) -> int:
    entry = c.marks.get("next", {}).get(key)
    if entry is None:
        return 0
    value, until = entry
    return int(value) if until is None or until >= round_ else 0


# views remembered while one decision is weighed (the state does not change then): see ``views_held``. They
# are kept on the state they are of (``FightState.derived``), never on a module: the web server plays several
# fights at once in its thread pool
_HELD = "sas.held"  # the memo (state, its views by combatant, other readings) while ``views_held`` runs
_HANDED = "sas.handed"  # (command, events applied, memo) a tactic left for its command's resolution


class views_held:  # noqa: N801 - used as ``with views_held(state):``
    """While the block runs, ``view(state, c)`` builds each combatant's picture once and hands the same
    :class:`Fighter` back after (a tactic validates several proposals against one unchanged state; a
    command's resolution reads the actor and his foe many times). Only for code that neither changes
    ``state`` nor the fighters it is given.

    With ``command``: the memo a tactic handed over with that very command object (:func:`hand_over`) is
    taken up again when the state is the same and no event has been applied since (the engine resolves a
    tactic's command at once): the views and free hexes found while it was chosen serve its resolution.

    A plain context manager class (not a generator): the rules enter it once or twice per step."""

    __slots__ = ("_state", "_memo", "_saved")

    def __init__(self, state: FightState, command: object = None) -> None:
        self._state = state
        handed = state.derived.get(_HANDED)
        if (
            command is not None
            and handed is not None
            and handed[0] is command
            and handed[1] == state.events_applied
        ):
            self._memo = handed[2]
        else:
            self._memo = (state, {}, {})  # the state, its views by combatant, other readings (free hexes)
        self._saved = None

    def __enter__(self) -> None:
        derived = self._state.derived
        self._saved = derived.get(_HELD)
        derived.pop(_HANDED, None)  # taken up (or stale): never twice
        derived[_HELD] = self._memo

    def __exit__(self, *exc: object) -> None:
        self._state.derived[_HELD] = self._saved
        self._saved = None


def hand_over(state: FightState, command: object) -> None:
    """Leave the memo of ``state`` (``views_held``) for the resolution of ``command``, the very object a
    tactic returns; ``views_held(state, command)`` takes it up if nothing happened in between."""
    h = state.derived.get(_HELD)
    if h is not None:
        state.derived[_HANDED] = (command, state.events_applied, h)


def held(state: FightState, *cs: Combatant) -> dict[Any, Any] | None:
    """A memo for other readings of ``state`` (free hexes) while ``views_held(state)`` runs, else None.
    Also None when one of ``cs`` is not the state's own combatant (a copy moved or struck in a command's
    resolution: its readings are not those remembered under its id)."""
    h = state.derived.get(_HELD)
    if h is None:
        return None
    if cs:
        combatants = state.combatants
        for c in cs:
            if combatants.get(c.id) is not c:
                return None
    return h[2]  # type: ignore[no-any-return]


def view(state: FightState, c: Combatant) -> Fighter:
    """The pure procedures' picture of a combatant now."""
    h = state.derived.get(_HELD)
    if h is not None:
        views: dict[int, tuple[Combatant, Fighter]] = h[1]
        hit = views.get(id(c))
        if hit is not None and hit[0] is c:
            return hit[1]
        f = _view(state, c)
        views[id(c)] = (c, f)
        return f
    return _view(state, c)


# ``_view`` fills a Fighter's slots one by one (no __init__ argument matching: the rules build a view per
# combatant and command); these are the fields it sets, checked against the class when this module loads
_FIGHTER_FIELDS = (
    "id",
    "stats",
    "side",
    "markers",
    "burn_markers",
    "conditions",
    "hurt",
    "broken",
    "permanent",
    "bleeds",
    "next",
    "strength_loss",
    "appearance_loss",
    "dead",
    "dying_rounds",
    "weapon",
    "offhand",
    "shield_used",
    "mounted_on",
    "mount_moving",
    "hits_taken",
    "defense_why",
    "lost",
    "save_rerolls",
    "settings",
)
if tuple(f.name for f in dataclasses.fields(Fighter)) != _FIGHTER_FIELDS:  # pragma: no cover
    raise RuntimeError("fold._view sets the Fighter fields it knows: update _FIGHTER_FIELDS and _view")
_new_fighter = object.__new__


def _view(state: FightState, c: Combatant) -> Fighter:
    # built from the dicts read once, every slot set directly (the rules build thousands of views a fight)
    stats = c.stats
    marks = c.marks
    counters = c.counters
    rnd = state.round
    if marks.get("shield_dropped") and stats.shield != "none":
        stats = dataclasses.replace(stats, shield="none")
    loss = counters.get("strength_loss", 0)
    if loss:
        stats = dataclasses.replace(stats, strength=stats.strength - loss)
    conds = c.conditions
    nxt: dict[str, int] = {}
    defense_why = ""
    if conds:
        conditions = {
            k: (cond.until_round - rnd if cond.until_round is not None else None) for k, cond in conds.items()
        }
    else:
        conditions = {}
    pending = marks.get("next")
    if pending:
        for key, (value, until) in pending.items():  # next_value, read in place
            if until is None or until >= rnd:
                v = int(value)
                if v:
                    nxt[key] = v
    if conds:
        present = [n for n in DEFENSE_CONDITIONS if n in conds]
        if present:
            # every Defense change counts (a Stagger's -1 and a Defensive Stance's +4 make +3): they add
            defense = sum(conds[n].value for n in present) + nxt.get("defense", 0)
            if defense:
                nxt["defense"] = defense
                defense_why = ", ".join(DEFENSE_LABELS[n] for n in present)
    if marks.get("lost_leg"):
        nxt["move"] = nxt.get("move", 0) - 4
    dying = marks.get("dying_round")
    used = marks.get("shield_used")
    f = _new_fighter(Fighter)
    f.id = c.id
    f.stats = stats
    f.side = c.side
    f.markers = counters.get("markers", 0)
    f.burn_markers = counters.get("burn_markers", 0)
    f.conditions = conditions
    f.hurt = list(marks.get("hurt", ()))
    f.broken = list(marks.get("broken", ()))
    f.permanent = list(marks.get("permanent", ()))
    f.bleeds = counters.get("bleeds", 0)
    f.next = nxt
    f.strength_loss = 0
    f.appearance_loss = 0
    f.dead = c.status == "dead"
    f.dying_rounds = None if dying is None else dying - rnd
    f.weapon = marks.get("weapon")
    f.offhand = None
    # a shield's blocks count per side turn: (round, side index, blocks)
    f.shield_used = used[2] if used and (used[0], used[1]) == (rnd, state.extra.get("side_index", 0)) else 0
    f.mounted_on = marks.get("mounted_on")
    f.mount_moving = marks.get("moved_round") == rnd
    f.hits_taken = counters.get("hits", 0)
    f.defense_why = defense_why
    f.lost = _LOST[bool(marks.get("lost_leg")), bool(marks.get("lost_arm"))]
    f.save_rerolls = counters.get("save_rerolls", 0)
    f.settings = settings_of(state)
    return f


def _natural(weapon: str) -> bool:
    w = tables().weapons.get(weapon)
    return w is not None and w.hands == 0


_LOST = {(False, False): (), (True, False): ("leg",), (False, True): ("arm",), (True, True): ("leg", "arm")}


_BODY_AND_GEAR = frozenset(
    (
        "hurt",
        "broken",
        "permanent",
        "drop-weapon",
        "drop-shield",
        "weapon-breaks",
        "regrow",
        "lost-limb",
        "mute",
    )
)
"""The effect kinds ``EventBuilder._fold_body_and_gear`` folds."""


class EventBuilder:
    """Turns effects into engine events, accumulating changes to the same mark within one batch."""

    def __init__(self, state: FightState) -> None:
        self.state = state
        self.events: list[ev.Event] = []
        self._marks: dict[tuple[str, str], Any] = {}
        self._counters: dict[tuple[str, str], int] = {}
        self._status: dict[str, str] = {}
        self._conditions: dict[tuple[str, str], bool] = {}
        self.queued: list[dict[str, Any]] = []

    def queue(self, effects: list[Effect] | tuple[Effect, ...]) -> None:
        """Hold effects until the side has attacked (they go to ``extra["pending"]``)."""
        # an Effect's fields are plain values (str, int, None): a flat dict is what dataclasses.asdict would
        # give, without its recursive deep copy
        self.queued += [{k: getattr(e, k) for k in _EFFECT_FIELDS} for e in effects]

    def finish(self) -> list[ev.Event]:
        """The events, with the held effects appended to the fight's pending list."""
        if self.queued:
            pending = tuple(self.state.extra.get("pending", ())) + tuple(self.queued)
            self.queued = []
            self.events.append(ev.ExtraSet("pending", pending))
        return self.events

    # current values, seen through the changes already made in this batch
    def mark(self, cid: str, key: str, default: Any = None) -> Any:
        if (cid, key) in self._marks:
            return self._marks[(cid, key)]
        return self.state.combatants[cid].marks.get(key, default)

    def counter(self, cid: str, key: str) -> int:
        return self.state.combatants[cid].count(key) + self._counters.get((cid, key), 0)

    def status(self, cid: str) -> str:
        return self._status.get(cid, self.state.combatants[cid].status)

    def has(self, cid: str, name: str) -> bool:
        if (cid, name) in self._conditions:
            return self._conditions[(cid, name)]
        return name in self.state.combatants[cid].conditions

    def conditions(self, cid: str) -> dict[str, Condition]:
        """The combatant's conditions as this batch's events leave them (added ones with their new
        ``until_round``, removed ones gone)."""
        out = dict(self.state.combatants[cid].conditions)
        for e in self.events:
            if isinstance(e, ev.ConditionAdded) and e.target == cid:
                out[e.name] = Condition(e.name, e.until_round, e.value, e.source, e.rule)
            elif isinstance(e, ev.ConditionRemoved) and e.target == cid:
                out.pop(e.name, None)
        return out

    def set_mark(self, cid: str, key: str, value: Any, rule: str = "") -> None:
        self._marks[(cid, key)] = value
        self.events.append(ev.Marked(cid, key, value, rule))

    def add_counter(self, cid: str, key: str, delta: int, why: str = "", rule: str = "") -> None:
        if not delta:
            return
        self._counters[(cid, key)] = self._counters.get((cid, key), 0) + delta
        self.events.append(ev.CounterChanged(cid, key, delta, why, rule))

    def set_status(self, cid: str, status: str, rule: str = "") -> None:
        if self.status(cid) == status or self.status(cid) == "dead":
            return
        self._status[cid] = status
        self.events.append(ev.StatusChanged(cid, status, rule))

    def add_condition(
        self, cid: str, name: str, until: int | None, value: int = 0, why: str = "", rule: str = ""
    ) -> None:
        current = self.state.combatants[cid].conditions.get(name)
        # keep the longer of the two durations
        longer = current is not None and (
            current.until_round is None or (until is not None and current.until_round >= until)
        )
        if (
            current is not None
            and (cid, name) not in self._conditions
            and longer
            and value in (0, current.value)
        ):
            return
        self._conditions[(cid, name)] = True
        self.events.append(ev.ConditionAdded(cid, name, until, value, why, rule))

    def remove_condition(self, cid: str, name: str, why: str = "", rule: str = "") -> None:
        if not self.has(cid, name):
            return
        self._conditions[(cid, name)] = False
        self.events.append(ev.ConditionRemoved(cid, name, why, rule))

    def set_next(self, cid: str, key: str, value: int, until: int | None, rule: str = "") -> None:
        nxt = dict(self.mark(cid, "next", {}))
        old = nxt.get(key)
        total = value + (old[0] if old and (old[1] is None or old[1] >= self.state.round) else 0)
        if total:
            nxt[key] = (total, until)
        else:
            nxt.pop(key, None)
        self.set_mark(cid, "next", nxt, rule)

    def consume_next(self, cid: str, key: str) -> None:
        nxt = dict(self.mark(cid, "next", {}))
        if key in nxt:
            nxt.pop(key)
            self.set_mark(cid, "next", nxt)

    def note(self, text: str, actor: str | None = None, rule: str = "") -> None:
        self.events.append(ev.Note(text, actor, rule))

    # ---------------------------------------------------------------------------------------------
    def effects(self, effects: list[Effect] | tuple[Effect, ...]) -> None:
        """Events for each effect, in order (see :class:`~fracas.rules.sas.procedures.Effect`)."""
        rnd = self.state.round
        for e in effects:
            t = e.target
            if t not in self.state.combatants or self.status(t) == "dead":
                continue
            k = e.kind
            if k == "markers":
                self._fold_markers(t, e)
            elif k in _BODY_AND_GEAR:
                self._fold_body_and_gear(t, e, rnd)
            elif k == "burn-markers":
                self.add_counter(t, "markers", e.value, e.why, e.rule)
                self.add_counter(t, "burn_markers", e.value, e.why, e.rule)
            elif k == "condition":
                until = None if e.rounds is None else rnd + e.rounds
                self.add_condition(t, e.name, until, 0, e.why, e.rule)
                if e.name == "knocked-out":
                    self.set_status(t, "unconscious", e.rule)
            elif k == "remove-condition":
                self.remove_condition(t, e.name, e.why, e.rule)
            elif k == "bleed":
                self.add_counter(t, "bleeds", e.value, e.why, e.rule)
                death = rnd + (e.rounds or 10**6)
                old = self.mark(t, "bleed_death_round")
                self.set_mark(t, "bleed_death_round", death if old is None else min(old, death), e.rule)
            elif k == "stop-bleed":
                self.add_counter(t, "bleeds", -self.counter(t, "bleeds"), e.why, e.rule)
                self.set_mark(t, "bleed_death_round", None, e.rule)
            elif k == "dead":
                self._fold_dead(t, e)
            elif k == "dying":
                self._fold_dying(t, e, rnd)
            elif k == "next":
                self._fold_next(t, e, rnd)
            elif k == "stat":
                if e.name in ("strength", "appearance"):
                    self.add_counter(t, f"{e.name}_loss", -e.value, e.why, e.rule)
            elif k == "save-reroll":
                self.add_counter(t, "save_rerolls", e.value or 1, e.why, e.rule)
            elif k == "fumble":
                self.note(f"{self.state.combatants[t].name} fumbles: {e.why}", t, e.rule)
            elif k in ("friendly-fire", "knocked-back", "scatter", "remove-broken"):
                # positional or attack follow-ups are resolved by the ruleset where they arise
                pass
            else:  # pragma: no cover - every kind of EffectKind is listed above
                raise ValueError(f"effect {EffectKind.of(k).text!r} is not folded")

    def _fold_body_and_gear(self, t: str, e: Effect, rnd: int) -> None:
        """What befalls his body and gear, kept in marks: hurt, broken and lost parts, a part that regrows,
        muteness, a weapon or shield dropped or broken."""
        k = e.kind
        if k in ("hurt", "broken", "permanent"):
            self.set_mark(t, k, (*self.mark(t, k, ()), e.name), e.rule)
        elif k == "drop-weapon":
            self._fold_drop_weapon(t, e)
        elif k == "drop-shield":
            self.set_mark(t, "shield_dropped", True, e.rule)
        elif k == "weapon-breaks":
            self._fold_weapon_breaks(t, e)
        elif k == "regrow":  # (part, "hurt"/"broken", the round at whose end it is whole)
            entry = (e.name, e.why, rnd + e.value)
            self.set_mark(t, "regrowing", (*self.mark(t, "regrowing", ()), entry), e.rule)
        elif k == "lost-limb":
            self.set_mark(t, f"lost_{e.name}", True, e.rule)
        elif k == "mute":
            self.set_mark(t, "mute", True, e.rule)

    def _fold_markers(self, t: str, e: Effect) -> None:
        """Wound Markers given (a Damaged event) or healed (Burn Markers healed with them)."""
        if e.value < 0:
            heal = min(-e.value, self.counter(t, "markers"))
            self.add_counter(t, "markers", -heal, e.why, e.rule)
            burn = self.counter(t, "burn_markers")
            if burn > self.counter(t, "markers"):
                self.add_counter(t, "burn_markers", self.counter(t, "markers") - burn, e.why, e.rule)
        else:
            # a Damaged event on the "markers" track, so the simulator tallies markers dealt and taken
            self._counters[(t, "markers")] = self._counters.get((t, "markers"), 0) + e.value
            self.events.append(
                ev.Damaged(t, e.value, e.source or None, "markers", damage_type=e.why, rule=e.rule)
            )
            self.add_counter(t, "hits", 1)

    def _fold_dead(self, t: str, e: Effect) -> None:
        """Dead: the cause, then the death."""
        if e.why and self.status(t) != "dead":
            self.note(f"{self.state.combatants[t].name}: {e.why}", t, e.rule)
        self.set_status(t, "dead", e.rule)

    def _fold_dying(self, t: str, e: Effect, rnd: int) -> None:
        """Dying: the round he dies at, once."""
        if self.mark(t, "dying_round") is None:
            self.set_mark(t, "dying_round", rnd + (e.rounds or 1), e.rule)
            if not settings_of(self.state).dying_heroes_fight:
                self.set_status(t, "dying", e.rule)
            self.note(f"{self.state.combatants[t].name} {e.why}", t, e.rule)

    def _fold_next(self, t: str, e: Effect, rnd: int) -> None:
        """An effect on his next attack, Defense or round."""
        if e.name in ("foe_attack", "foe_damage") and self.mark(t, "foe_bonus_used"):
            # a new Monster Fumble 4-5 after a foe has had the last one's bonus: the new bonus, for
            # every foe again (what is left of the old one is not added to it)
            self.consume_next(t, "foe_attack")
            self.consume_next(t, "foe_damage")
            self.set_mark(t, "foe_bonus_used", None, e.rule)
        # "next Attack" waits for the attack (LIGHT WOUND TABLE 4 Dazed "Miss next Attack", Feint
        # "Attack +2 on your next Attack", MONSTER FUMBLES 2-3); others last to the next round's end
        scoped = None if e.name in ATTACK_SCOPED else rnd + 1
        # a duration of its own (Weapons Locked: "next round") wins
        until = scoped if e.rounds is None else rnd + e.rounds
        self.set_next(t, e.name, e.value, until, e.rule)

    def _fold_drop_weapon(self, t: str, e: Effect) -> None:
        """He drops the weapon in hand (not a natural weapon)."""
        held = self.mark(t, "weapon") or self.state.combatants[t].stats.weapons[0]
        # a natural weapon (a bite, claws, hooves: no hands) is not held, so never dropped (KNOCKED
        # DOWN "Drop whatever he is holding"; FUMBLE TABLE 1 "Drop Weapon or Item")
        if held != "unarmed" and not _natural(held):
            self.set_mark(t, "dropped", held, e.rule)
            self.set_mark(t, "weapon", "unarmed", e.rule)
            self.note(f"{self.state.combatants[t].name} drops the {held} ({e.why})", t, e.rule)

    def _fold_weapon_breaks(self, t: str, e: Effect) -> None:
        """The weapon in hand breaks (not a natural weapon); he takes up a spare one."""
        held = self.mark(t, "weapon") or self.state.combatants[t].stats.weapons[0]
        # FUMBLE TABLE 2 "Weapon or Shield or Item Breaks": a natural weapon (claws, a bite) is part
        # of the creature, not a weapon that breaks
        if held != "unarmed" and not _natural(held):
            broken = (*self.mark(t, "broken_weapons", ()), held)
            self.set_mark(t, "broken_weapons", broken, e.rule)
            spare = [w for w in self.state.combatants[t].stats.weapons if w not in broken]
            self.set_mark(t, "weapon", spare[0] if spare else "unarmed", e.rule)
            self.note(f"{self.state.combatants[t].name}'s {held} breaks", t, e.rule)


def rolled(actor: str, test: str, r: TableRoll | Check, target: str | None = None) -> ev.Rolled:
    if isinstance(r, Check):
        roll = {"dice": [[-20, r.face]], "total": r.total}
        return ev.Rolled(
            actor,
            test,
            r.total,
            roll,
            expr="1d20",
            target=target,
            dn=r.target,
            outcome="success" if r.success else "failure",
            success=r.success,
            modifiers=mods_json(r.mods),
            rule=r.rule,
        )
    roll = {"dice": [[-r.die, r.face]], "total": r.total}
    return ev.Rolled(
        actor,
        test,
        r.total,
        roll,
        expr=f"1d{r.die}",
        target=target,
        outcome=r.label,
        modifiers=mods_json(r.mods),
        rule=r.rule,
    )


def effects_from(data: Any) -> list[Effect]:
    return [Effect(**dict(d)) for d in data]
