"""Grappling and entangling in the ED4 chapter (p.391-392): breaking free of a hold or an entangling
weapon (``break-free``; a blade cuts free and ruins the weapon), keeping the hold (``hold``), letting go
(``release``), and the hold lost when the grappler does anything else with his Standard action or is no
longer next to the grappled (:func:`holds_kept`, after every command, looking only at who may be grappled:
:func:`may_be_grappled`). The grapple itself is a strike
(:func:`fracas.rules.ed4.features.strike.special_attack`)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.actions import STANDARD, Action
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.ed4 import close
from fracas.rules.ed4.features.readers import ONE_HANDED_LIMIT, race, weapon_of

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


_GRAPPLED = "ed4.grappled"
"""``FightState.derived`` key: ``[n, ids]``, every combatant who may be grappled (a superset of those who are)
when ``state.events_applied`` is ``n``."""


def may_be_grappled(state: FightState, events: list[ev.Event]) -> list[str]:
    """Who may be grappled once ``events`` (the command's, not applied yet) are, in roster order: the
    grappled of the state and whom ``events`` grapple. Only a command grapples (a grappling strike, ``hold``:
    p.392), so the ids are kept from one command to the next (:func:`grapples_seen`) rather than found by a
    look at every combatant per command; they are looked for again when events were applied that
    :func:`grapples_seen` has not seen (``FightState.events_applied`` tells: a fight resumed from its log,
    events applied by hand)."""
    kept = state.derived.get(_GRAPPLED)
    if kept is not None and kept[0] == state.events_applied:
        ids: set[str] = kept[1]
        if ids:
            cs = state.combatants
            ids.difference_update([cid for cid in ids if "grappled" not in cs[cid].conditions])
    else:
        ids = {cid for cid, c in state.combatants.items() if "grappled" in c.conditions}
        state.derived[_GRAPPLED] = [state.events_applied, ids]
    _grappled_by(events, ids)
    if not ids:
        return []
    rank = state.grid().rank
    return sorted(ids, key=rank.__getitem__)


def grapples_seen(state: FightState, events: list[ev.Event]) -> None:
    """Keep :func:`may_be_grappled`'s ids over ``events``, the round's or a command's, about to be applied."""
    kept = state.derived.get(_GRAPPLED)
    if kept is not None and kept[0] == state.events_applied:
        _grappled_by(events, kept[1])
        kept[0] += len(events)


def _grappled_by(events: list[ev.Event], ids: set[str]) -> None:
    for e in events:
        if type(e) is ev.ConditionAdded and e.name == "grappled":  # no subclasses: the cheaper test
            ids.add(e.target)


def holds_kept(
    rs: Ed4Ruleset, state: FightState, command: Command, events: list[ev.Event], held: list[str]
) -> list[ev.Event]:
    """A grapple lasts while the attacker keeps it: "he can maintain the hold by declaring that he is
    doing so as his standard action during consecutive rounds" (p.392). It ends when he spends his
    Standard action on anything else (a new grapple excepted), when he is no longer next to the
    grappled character, or when he falls unconscious, dies or flees. ``held``: who may be grappled
    (:func:`may_be_grappled`), in roster order."""
    sc = Scratch(state)
    for e in events:
        sc.emit(e)
    start = len(sc.events)
    action = rs.actions.get(command.action)
    other_standard = (
        action is not None
        and action.kind == STANDARD
        and command.action not in ("hold", "break-free")
        and not any(
            isinstance(e, ev.Marked) and e.key == "holding" and e.target == command.actor for e in events
        )
    )
    for cid in held:
        g = sc.get(cid)
        cond = g.conditions.get("grappled")
        if cond is None or cond.source not in state.combatants:
            continue
        holder = sc.get(cond.source)
        lost = (
            holder.status != "active"
            or holder.marks.get("holding") != cid
            or holder.pos is None
            or g.pos is None
            or distance(holder.pos, g.pos) != 1
            or (holder.id == command.actor and other_standard)
        )
        if lost:
            sc.emit(
                ev.ConditionRemoved(cid, "grappled", f"{holder.name} no longer holds", close.GRAPPLING_RULE)
            )
            if holder.marks.get("holding") == cid:
                sc.emit(ev.Marked(holder.id, "holding", None, close.GRAPPLING_RULE))
    return events + sc.events[start:]


def _v_break_free(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if "grappled" not in me.conditions and "entangled" not in me.conditions:
        raise IllegalCommand(f"{me.name} is neither grappled nor entangled", close.GRAPPLING_RULE)


def _r_break_free(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    p: CombatProfile = me.stats
    unarmed = next((x.step for x in p.attacks if x.kind == "unarmed"), 0)
    if "grappled" in me.conditions:
        cond = me.conditions["grappled"]
        step, dn = close.break_free_grapple(unarmed, p.str_step, cond.value)
        mods = rs.step_mods(TestContext(state, sc, "strength", me))
        res = run_test(dice, rs.edition, step, mods, dn, None, me.name, "Break free (grapple)", "hold's step")
        sc.emit(
            rolled_event(
                me.id,
                "Break free (grapple)",
                res,
                close.GRAPPLING_RULE,
                cond.source,
                "hold's Unarmed Combat Step",
            )
        )
        if res.success:
            sc.emit(ev.ConditionRemoved(me.id, "grappled", "breaks free", close.GRAPPLING_RULE))
            if cond.source in state.combatants:
                sc.emit(ev.Marked(cond.source, "holding", None, close.GRAPPLING_RULE))
    else:
        cond = me.conditions["entangled"]
        away = set(me.marks.get("thrown_away") or ()) | set(me.marks.get("lost_weapons") or ())
        blade = next(
            (
                x.damage - p.str_step
                for x in p.attacks
                if x.kind == "melee"
                and x.name not in away
                and close.is_one_handed_blade(x.name, x.size, ONE_HANDED_LIMIT.get(race(me), 3))
            ),
            None,
        )
        step, extra, ruins = close.break_free_entangle(p.str_step, p.dex_step, blade)
        mods = rs.step_mods(TestContext(state, sc, "break-free", me)) + extra
        res = run_test(
            dice,
            rs.edition,
            step,
            mods,
            cond.value,
            None,
            me.name,
            "Break free (entangled)",
            "weapon's DN",
        )
        sc.emit(
            rolled_event(me.id, "Break free (entangled)", res, close.ENTANGLING_RULE, against="weapon's DN")
        )
        if res.success:
            by = me.marks.get("entangled_by")
            sc.emit(
                ev.ConditionRemoved(
                    me.id, "entangled", "cuts free" if ruins else "breaks free", close.ENTANGLING_RULE
                ),
                ev.Marked(me.id, "entangled_by", None, close.ENTANGLING_RULE),
            )
            if ruins and by:
                _ruin_entangler(state, sc, by)
    rs._end_or_mark(state, command, sc, True)


def _ruin_entangler(state: FightState, sc: Scratch, by: list[str]) -> None:
    """Cutting free with a blade ruins the entangling weapon (p.391): a whip in its wielder's hand is
    lost to him; a thrown net or bola can no longer be picked up. ``by``: [wielder id, attack name]."""
    if by[0] not in state.combatants:
        return
    owner = sc.get(by[0])
    name = str(by[1])
    sc.emit(ev.Note(f"the {weapon_of(name)} is ruined", owner.id, close.ENTANGLING_RULE))
    a = owner.stats.attack(name)
    if a is not None and a.kind == "thrown":
        lying = dict(owner.marks.get("thrown_to") or {})
        if lying.pop(weapon_of(name), 0) != 0:
            sc.emit(ev.Marked(owner.id, "thrown_to", lying or None, close.ENTANGLING_RULE))
        return
    gone = [x.name for x in owner.stats.attacks if weapon_of(x.name) == weapon_of(name)]
    lost = list(owner.marks.get("lost_weapons") or ())
    lost += [g for g in gone if g not in lost]
    sc.emit(ev.Marked(owner.id, "lost_weapons", lost, close.ENTANGLING_RULE))


def _v_hold(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    held = state.combatants.get(me.marks.get("holding") or "")
    if held is None or "grappled" not in held.conditions:
        raise IllegalCommand(f"{me.name} holds nobody", close.GRAPPLING_RULE)


def _r_hold(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    held = sc.get(me.marks["holding"])
    cond = held.conditions["grappled"]
    sc.emit(
        ev.ConditionAdded(held.id, "grappled", state.round + 1, cond.value, me.id, close.GRAPPLING_RULE),
        ev.Note(f"{me.name} keeps hold of {held.name}", me.id, close.GRAPPLING_RULE),
    )
    rs._end_or_mark(state, command, sc, True)


def _v_release(state: FightState, command: Command) -> None:
    me = state.combatants[command.actor]
    if not me.marks.get("holding"):
        raise IllegalCommand(f"{me.name} holds nobody", close.GRAPPLING_RULE)


def _r_release(state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    held = me.marks["holding"]
    sc.emit(ev.Marked(me.id, "holding", None, close.GRAPPLING_RULE))
    if "grappled" in sc.get(held).conditions:
        sc.emit(ev.ConditionRemoved(held, "grappled", "let go", close.GRAPPLING_RULE))


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action(
            "break-free",
            STANDARD,
            partial(_v_break_free, rs),
            partial(_r_break_free, rs),
            close.GRAPPLING_RULE,
        ),
        Action("hold", STANDARD, partial(_v_hold, rs), partial(_r_hold, rs), close.GRAPPLING_RULE),
        Action("release", "simple", _v_release, _r_release, close.GRAPPLING_RULE),
    )
