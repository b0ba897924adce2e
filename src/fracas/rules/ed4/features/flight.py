"""Aerial combat in the ED4 chapter (p.397-398): the swooping attack (``swoop``: in, strike, out, with
Splitting Movement; defenders with a reserved action and a higher Initiative intercept it) and recovering
from a long fall (``recover-flight``, the optional Long Falls rule). The falls themselves:
:mod:`.falling`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import STANDARD, Action, heading
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.ed4 import aerial
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.readers import declared
from fracas.rules.ed4.features.strain import strike_strain
from fracas.rules.ed4.features.strike import attack_test, damage_test, deal, option_strike, special_attack

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import FightState
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def _v_swoop(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if opt.SPLIT not in declared(state, me.id):
        raise IllegalCommand("a swooping attack needs the Splitting Movement option", aerial.SWOOP)
    if me.altitude <= 0 and not me.marks.get("flying"):
        raise IllegalCommand(f"{me.name} is not flying", aerial.SWOOP)
    t = rs._target(state, command)
    a = me.stats.attack(command.args.get("attack"))
    if a is None or not a.close:
        raise IllegalCommand("a swooping attack is a close combat attack", aerial.SWOOP)
    left = rs.movement_hexes(state, me) - rs.moved_this_round(state, me)
    inn = rs._check_path(state, me, command.args.get("path"), max(left, 0), aerial.SWOOP)
    where = inn[-1] if inn else me.pos
    if where is None or t.pos is None or distance(where, t.pos) != 1:
        raise IllegalCommand(f"the swoop must pass next to {t.name}", aerial.SWOOP)
    out = command.args.get("after") or []
    if len(inn) + len(out) > left:
        raise IllegalCommand(f"{me.name} flies {left} hexes this round", aerial.SWOOP)


def _r_swoop(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    t = sc.get(command.target or "")
    a = me.stats.attack(command.args.get("attack"))
    up = int(command.args.get("altitude", me.altitude))
    inn = tuple((int(h[0]), int(h[1])) for h in command.args.get("path") or ())
    sc.emit(ev.Moved(me.id, inn, "swoop", heading(me.pos, inn), t.altitude, aerial.SWOOP))
    # interception: a defender with a reserved action and a higher Initiative strikes as it comes (p.398)
    reserved = dict(state.extra.get("reserved") or {})
    for rid in list(reserved):
        d = sc.get(rid)
        if d.side == me.side or d.status != "active" or d.pos is None or me.pos is None:
            continue
        if not aerial.may_intercept_swoop(state.initiative.get(rid), state.initiative.get(me.id)):
            continue
        want = dict(reserved[rid].get("strike") or {}) if isinstance(reserved[rid], dict) else {}
        lost = (*(d.marks.get("lost_weapons") or ()), *(d.marks.get("thrown_away") or ()))
        da = next((x for x in d.stats.attacks if x.close and x.name == want.get("attack")), None)
        da = da if da is not None and da.name not in lost else None
        da = da or next((x for x in d.stats.attacks if x.close), None)
        if da is None or distance(d.pos, sc.get(me.id).pos) != 1:
            continue
        reserved.pop(rid)
        sc.emit(
            ev.ExtraSet("reserved", reserved or None),
            ev.Note(f"{d.name} intercepts the swoop", rid, aerial.SWOOP),
        )
        extra = {k: v for k, v in want.items() if k != "attack"}
        strike = Command(d.id, "attack", me.id, {**extra, "attack": da.name})
        special, _, strike = option_strike(state, d, da, strike)
        before = len(sc.events)
        if special:
            special_attack(rs, state, sc, dice, d, sc.get(me.id), da, strike, True)
            strike_strain(rs, state, sc, d.id, before)
            continue
        res, ctx = attack_test(rs, state, sc, dice, d, sc.get(me.id), da, None, True, "Attack (intercepting)")
        if res.success:
            mods = (
                [Modifier(res.extra * 2, f"{res.extra} extra successes", rs.ref("attack.extra-successes"))]
                if res.extra
                else []
            )
            dres = damage_test(rs, sc, dice, ctx, da.damage, mods, f"{da.name} Damage", aerial.SWOOP)
            flier = sc.get(me.id)
            deal(rs, state, sc, dice, d, flier, da, dres.total, rs.armor_of(flier, da), strike)
        strike_strain(rs, state, sc, d.id, before)
    me = sc.get(me.id)
    if me.status == "active" and "knocked-down" not in me.conditions:
        n = me.stats.actions
        for i in range(n):
            tt = sc.get(t.id)
            if tt.status == "dead" or (i and tt.status != "active"):
                break
            # the flier's options work on the swoop's strikes as on any attack (p.382-385)
            special, single, cmd = option_strike(state, me, a, command)
            if special:
                special_attack(rs, state, sc, dice, me, tt, a, cmd, False)
                if single:
                    break
                continue
            res, ctx = attack_test(rs, state, sc, dice, me, tt, a, cmd, False)
            if res.success:
                mods = (
                    [
                        Modifier(
                            res.extra * 2,
                            f"{res.extra} extra successes",
                            rs.ref("attack.extra-successes"),
                        )
                    ]
                    if res.extra
                    else []
                )
                dres = damage_test(rs, sc, dice, ctx, a.damage, mods, f"{a.name} Damage", rs.ref("damage"))
                deal(rs, state, sc, dice, me, tt, a, dres.total, rs.armor_of(tt, a), cmd)
        out = tuple((int(h[0]), int(h[1])) for h in command.args.get("after") or ())
        if sc.get(me.id).status == "active" and "knocked-down" not in sc.get(me.id).conditions:
            sc.emit(ev.Moved(me.id, out, "swoop", heading(sc.get(me.id).pos, out), up, aerial.SWOOP))
    rs._end_or_mark(state, command, sc, True)


def _v_recover_flight(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if "falling" not in me.conditions:
        raise IllegalCommand(f"{me.name} is not falling", aerial.LONG_FALLS)


def _r_recover_flight(
    rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch
) -> None:
    me = sc.get(command.actor)
    mods = rs.step_mods(TestContext(state, sc, "recover-flight", me))
    res = run_test(
        dice,
        rs.edition,
        me.stats.dex_step,
        mods,
        aerial.long_fall_recovery_dn(),
        None,
        me.name,
        "Dexterity (stop falling)",
        "DN",
    )
    sc.emit(rolled_event(me.id, "Dexterity (stop falling)", res, aerial.LONG_FALLS))
    if res.success:
        sc.emit(
            ev.ConditionRemoved(me.id, "falling", "rights itself", aerial.LONG_FALLS),
            ev.ConditionRemoved(me.id, "knocked-down", "rights itself", aerial.LONG_FALLS),
            ev.Marked(me.id, "fallen", None, aerial.LONG_FALLS),
        )
    rs._end_or_mark(state, command, sc, True)


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action("swoop", STANDARD, partial(_v_swoop, rs), partial(_r_swoop, rs), aerial.SWOOP),
        Action(
            "recover-flight",
            STANDARD,
            partial(_v_recover_flight, rs),
            partial(_r_recover_flight, rs),
            aerial.LONG_FALLS,
        ),
    )
