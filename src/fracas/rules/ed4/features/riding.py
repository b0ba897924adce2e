"""Mounted combat in the ED4 chapter (p.395-397): mounting (``mount``) and dismounting (``dismount``), the
mount acting on its rider's Initiative (p.395), Trick Riding tests for an untrained or unfamiliar mount
(p.395-396), the mount's movement as the rider's (``gallop``, p.395), charging (``charge``, p.396) and
Setting Against a Charge (p.385) with the charged defender's reserved strike."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine import taken
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance, line
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import STANDARD, Action, heading
from fracas.rules.earthdawn.battle_map import covered_yards, hexes
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import aerial, mounted
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.falling import unseat
from fracas.rules.ed4.features.readers import declared, mount_of, mount_rate, rank, rider_of
from fracas.rules.ed4.features.strain import strike_strain
from fracas.rules.ed4.features.strike import (
    attack_test,
    damage_test,
    deal,
    knockdown_option,
    option_strike,
    special_attack,
)

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def mounts_on_riders(state: FightState, events: list[ev.Event]) -> list[ev.Event]:
    """A trained mount acts on its rider's Initiative (p.395): its test result becomes the rider's and
    it acts right after him."""
    inits = {e.actor: e for e in events if isinstance(e, ev.InitiativeRolled)}
    changed = False
    out: list[ev.Event] = []
    for e in events:
        if isinstance(e, ev.InitiativeRolled):
            m = state.combatants[e.actor]
            r = rider_of(state, m)
            if (
                r is not None
                and r.id in inits
                and mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat"))
            ):
                e = ev.InitiativeRolled(
                    e.actor, inits[r.id].value, e.step, None, e.modifiers, mounted.SEQUENCE
                )
                changed = True
        out.append(e)
    if not changed:
        return events
    final = []
    for e in out:
        if isinstance(e, ev.OrderSet):
            order = list(e.order)
            for mid in list(order):
                m = state.combatants[mid]
                r = rider_of(state, m)
                if (
                    r is not None
                    and r.id in order
                    and mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat"))
                ):
                    order.remove(mid)
                    order.insert(order.index(r.id) + 1, mid)
            e = ev.OrderSet(tuple(order), e.rule)
            final.append(e)
            continue
        if isinstance(e, ev.TurnStarted) and final and isinstance(final[-1], ev.OrderSet):
            first = final[-1].order[0]
            rolled = [x.value for x in final if isinstance(x, ev.InitiativeRolled) and x.actor == first]
            e = ev.TurnStarted(first, rolled[-1] if rolled else None)
        final.append(e)
    return final


def initiative_leader(state: FightState, c: Combatant) -> str | None:
    """The mount "acts on the rider's Initiative" if trained (p.395): a trained mount with its rider
    on its back makes no Initiative test; :func:`mounts_on_riders` places it after him."""
    r = rider_of(state, c)
    if r is not None and mounted.mount_acts_on_rider_initiative(c.marks.get("training", "combat")):
        return r.id
    return None


def _v_mount(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    m = rs._target(state, command)
    if m.side != me.side or "training" not in m.marks:
        raise IllegalCommand(f"{m.name} is not a mount of {me.name}'s side", mounted.MOUNTING)
    if rider_of(state, m) is not None or me.marks.get("mount"):
        raise IllegalCommand("one rider to a mount", mounted.MOUNTING)
    if me.pos and m.pos and distance(me.pos, m.pos) != 1:
        raise IllegalCommand(f"{me.name} must stand next to {m.name}", mounted.MOUNTING)


def _r_mount(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    m = sc.get(command.target or "")
    needs = mounted.needs_trick_riding_to_mount(m.marks.get("training", "combat"))
    if needs and not _trick_riding(rs, state, sc, dice, me, m, "mount", mounted.MOUNTING):
        rs._end_or_mark(state, command, sc, True)
        return
    sc.emit(
        ev.Moved(me.id, (m.pos,), "mount", None, m.altitude, mounted.MOUNTING),
        ev.Marked(me.id, "mount", m.id, mounted.MOUNTING),
        ev.Marked(m.id, "rider", me.id, mounted.MOUNTING),
        ev.Note(f"{me.name} mounts {m.name}", me.id, mounted.MOUNTING),
    )
    _rider_initiative(state, sc, me.id, m)
    rs._end_or_mark(state, command, sc, True)


def _rider_initiative(state: FightState, sc: Scratch, rider_id: str, m: Combatant) -> None:
    """A trained mount without a rider at the start of the round takes its rider's Initiative once
    mounted (p.395): if it has not acted yet it acts right after him; the actions it used stay used."""
    if not mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat")):
        return
    if rider_id not in state.initiative or m.id in state.acted or m.id not in state.order:
        return
    order = [c for c in state.order if c != m.id]
    order.insert(order.index(rider_id) + 1, m.id)
    sc.emit(ev.InitiativeRolled(m.id, state.initiative[rider_id], None, None, (), mounted.SEQUENCE))
    if order != list(state.order):
        sc.emit(ev.OrderSet(tuple(order), mounted.SEQUENCE))


def _v_dismount(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if mount_of(state, me) is None:
        raise IllegalCommand(f"{me.name} is not mounted", mounted.DISMOUNTING)
    to = command.args.get("to")
    if not (isinstance(to, list | tuple) and len(to) == 2) or me.pos is None:
        raise IllegalCommand("dismount needs to: [q, r], a free hex next to the mount", mounted.DISMOUNTING)
    h = (int(to[0]), int(to[1]))
    if distance(h, me.pos) != 1 or h in taken.blocked_view(state, me.id):
        raise IllegalCommand(f"hex {list(h)} is not a free hex next to the mount", mounted.DISMOUNTING)


def _r_dismount(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    to = (int(command.args["to"][0]), int(command.args["to"][1]))
    m = mount_of(state, state.combatants[me.id])
    charged = me.marks.get("charged")
    rode = (
        rs.moved_this_round(state, me) > 0
        or (charged is not None and charged[0] == state.round)
        or (m is not None and rs.moved_this_round(state, m) > 0)
    )
    sc.emit(
        ev.Marked(me.id, "mount", None, mounted.DISMOUNTING),
        ev.Moved(me.id, (to,), "dismount", None, 0, mounted.DISMOUNTING),
    )
    if rode:
        # he used the mount's movement this round: none of his own, even on foot (p.395)
        sc.emit(ev.Marked(me.id, "moved", [state.round, 10**6], mounted.MOVEMENT))
    if command.args.get("end", False):
        sc.emit(ev.TurnEnded(me.id))


def _charge_geometry(
    rs: Ed4Ruleset, state: FightState, command: Command
) -> tuple[Combatant, Combatant, Combatant, list[tuple[int, int]], AttackProfile]:
    me = rs._v_active(state, command)
    m = mount_of(state, me)
    if m is None:
        raise IllegalCommand(f"{me.name} is not mounted", mounted.CHARGE)
    t = rs._target(state, command)
    a = me.stats.attack(command.args.get("attack"))
    if a is None or not a.close:
        raise IllegalCommand("a charging attack is a close combat attack", mounted.CHARGE)
    path = [(int(h[0]), int(h[1])) for h in command.args.get("path") or ()]
    if not path or me.pos is None or t.pos is None:
        raise IllegalCommand("a charge needs path: the hexes the mount runs", mounted.CHARGE)
    if path != line(me.pos, path[-1])[1:]:
        raise IllegalCommand("a charging mount runs in a straight line", mounted.CHARGE)
    if distance(path[-1], t.pos) != 1:
        raise IllegalCommand(f"the charge must end next to {t.name}", mounted.CHARGE)
    blocked = taken.blocked_view(state, me.id)  # the path leaves the rider's (and mount's) own hex
    if any(h in blocked for h in path):
        raise IllegalCommand("the charge path is blocked", mounted.CHARGE)
    rate = mount_rate(m)
    if not mounted.charge_eligible(covered_yards(rate), len(path) * 2):
        raise IllegalCommand(
            f"a charge moves more than the mount's Movement Rate {rate}, at most twice it; "
            f"this path is {len(path) * 2} yards",
            mounted.CHARGE,
        )
    if m.marks.get("std") == state.round:
        raise IllegalCommand(f"{m.name} has used its Standard action", mounted.CHARGE)
    return me, m, t, path, a


def _v_charge(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me, m, t, path, a = _charge_geometry(rs, state, command)
    after = command.args.get("after")
    if after:
        if opt.SPLIT not in declared(state, me.id):
            raise IllegalCommand("moving after the charge needs Splitting Movement", opt.rule(opt.SPLIT))
        cells = [(int(h[0]), int(h[1])) for h in after]
        if cells != line(path[-1], cells[-1])[1:]:
            raise IllegalCommand("after a charge the mount goes on in a straight line", mounted.CHARGE)
        if (len(path) + len(cells)) * 2 > 2 * covered_yards(mount_rate(m)):
            raise IllegalCommand(
                "the whole charge is at most twice the mount's Movement Rate", mounted.CHARGE
            )


def _trick_riding(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    m: Combatant,
    why: str,
    rule: str,
) -> bool:  # noqa: PLR0913
    """A Trick Riding test (Dexterity + rank, the rider's Action-test modifiers) against the mount's
    Social Defense (p.395-396: to mount an untrained mount, to take an unfamiliar one into combat, to
    charge on one not combat-trained); True if it succeeds."""
    res = run_test(
        dice,
        rs.edition,
        me.stats.dex_step + rank(me, "Trick Riding"),
        rs.step_mods(TestContext(state, sc, "dexterity", me)),
        m.stats.social_defense,
        None,
        me.name,
        f"Trick Riding ({why})",
        "Social Defense",
    )
    sc.emit(rolled_event(me.id, f"Trick Riding ({why})", res, rule, m.id, "Social Defense"))
    return bool(res.success)


def into_combat(
    rs: Ed4Ruleset, state: FightState, sc: Scratch, dice: DiceSource, me: Combatant, m: Combatant
) -> bool:
    """p.395: a rider not familiar with his mount must succeed at a Trick Riding test against the mount's
    Social Defense to take it into (but not away from) combat. [choice, docs/rulesets/ed4.md] Tested
    before his first attack from its back in the fight (attack or charge); passed, it holds for the
    fight; failed, the mount will not go in: that attack is not made (its action spent), and he may try
    again on a later action. Moving, dismounting or riding away are never tested."""
    if not mounted.needs_trick_riding_into_combat(
        bool(me.marks.get("familiar", True)), me.marks.get("into-combat") == m.id
    ):
        return True
    if _trick_riding(rs, state, sc, dice, me, m, "into combat", mounted.FAMILIAR):
        sc.emit(ev.Marked(me.id, "into-combat", m.id, mounted.FAMILIAR))
        return True
    sc.emit(ev.Note(f"{m.name} will not go into combat: {me.name} makes no attack", me.id, mounted.FAMILIAR))
    return False


def _r_charge(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me, m, t, path, a = _charge_geometry(rs, state, command)
    if not into_combat(rs, state, sc, dice, me, m):
        sc.emit(ev.Marked(m.id, "std", state.round, mounted.FAMILIAR))
        rs._end_or_mark(state, command, sc, True)
        return
    # a flying mount comes down (or up) within close reach of its target: vertical movement is free
    # (p.398)
    alt = None if aerial.in_close_reach(m.altitude, t.altitude) else t.altitude
    sc.emit(
        ev.Marked(m.id, "std", state.round, mounted.CHARGE),
        ev.Marked(me.id, "charged", [state.round, t.id], mounted.CHARGE),
        ev.Moved(me.id, tuple(path), "charge", heading(me.pos, path), alt, mounted.CHARGE),
        ev.Moved(m.id, tuple(path), "charge", heading(m.pos, path), alt, mounted.CHARGE),
        ev.Note(f"{me.name} charges {t.name} ({len(path) * 2} yards)", me.id, mounted.CHARGE),
    )
    charging = True
    if mounted.needs_trick_riding_to_charge(m.marks.get("training", "combat")):
        charging = _trick_riding(rs, state, sc, dice, me, m, "charge", mounted.CHARGE)
    before = len(sc.events)
    _set_against(rs, state, sc, dice, me, m, t)
    strike_strain(rs, state, sc, t.id, before)
    rider = sc.get(me.id)
    if rider.status == "active" and rider.marks.get("mount") and "knocked-down" not in rider.conditions:
        cmd = dataclasses.replace(command, args={**command.args, "charging": charging})
        # the rider's options work on the charge's strike as on any attack (Attacking to Stun or to
        # Knockdown, Shattering a Shield, a Called Shot at a weapon, an entangling weapon; p.382-385)
        special, _, cmd = option_strike(state, rider, a, cmd)
        if special:
            res = special_attack(rs, state, sc, dice, rider, sc.get(t.id), a, cmd, False)
        else:
            res, ctx = attack_test(rs, state, sc, dice, rider, sc.get(t.id), a, cmd, False)
        if res is not None and res.success and not special:
            mods = (
                [Modifier(res.extra * 2, f"{res.extra} extra successes", rs.ref("attack.extra-successes"))]
                if res.extra
                else []
            )
            dres = damage_test(
                rs,
                sc,
                dice,
                ctx,
                a.damage,
                mods,
                f"{a.name} Damage (charging)" if charging else f"{a.name} Damage",
                mounted.CHARGE,
            )
            tt = sc.get(t.id)
            deal(rs, state, sc, dice, rider, tt, a, dres.total, rs.armor_of(tt, a), cmd)
        rider = sc.get(me.id)
        if res is not None and res.success and charging:
            sres = run_test(
                dice,
                rs.edition,
                rider.stats.str_step,
                rs.step_mods(TestContext(state, sc, "strength", rider)),
                t.stats.tou_step,
                None,
                rider.name,
                "Strength (after the charge)",
                "Toughness Step",
            )
            sc.emit(
                rolled_event(
                    me.id,
                    "Strength (after the charge)",
                    sres,
                    mounted.CHARGE_AFTER,
                    t.id,
                    "Toughness Step",
                )
            )
            after = mounted.charge_aftermath(bool(sres.success), a.name if a.kind == "melee" else None)
            if after.thrown_off:
                unseat(rs, state, sc, dice, me.id, 0)
            elif after.weapon_lost:
                lost = [*(rider.marks.get("lost_weapons") or ()), a.name]
                sc.emit(
                    ev.Marked(me.id, "lost_weapons", lost, mounted.CHARGE_AFTER),
                    ev.Note(f"{me.name} loses the {a.name}", me.id, mounted.CHARGE_AFTER),
                )
    rider = sc.get(me.id)
    after = [(int(h[0]), int(h[1])) for h in command.args.get("after") or ()]
    if after and rider.status == "active" and rider.marks.get("mount"):
        face = heading(rider.pos, after)
        sc.emit(
            ev.Moved(me.id, tuple(after), "charge", face, None, mounted.CHARGE),
            ev.Moved(m.id, tuple(after), "charge", face, None, mounted.CHARGE),
        )
    if rider.marks.get("mount"):
        sc.emit(ev.Marked(me.id, "moved", [state.round, 10**6], mounted.MOVEMENT))
    rs._end_or_mark(state, command, sc, True)


def _set_against(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    rider: Combatant,
    m: Combatant,
    t: Combatant,
) -> None:
    """The charged defender's reserved action strikes as the rider arrives (p.375: often the only way to
    attack a charging rider). If he declared Setting Against a Charge and holds a long weapon (p.385), his
    damage uses the mount's Strength Step and an extra success makes the rider test Knockdown against the
    damage; with Attacking to Knockdown the blow only knocks (p.385: the options combine)."""
    reserved = dict(state.extra.get("reserved") or {})
    trig = reserved.get(t.id)
    if trig is None or t.status != "active" or (trig.get("target") not in (None, t.id)):
        return
    if trig.get("by") not in (None, rider.id):
        return
    setting = opt.SET_AGAINST_CHARGE in declared(state, t.id)
    close_attacks = [
        x
        for x in t.stats.attacks
        if x.close
        and x.name not in (t.marks.get("lost_weapons") or ())
        and x.name not in (t.marks.get("thrown_away") or ())
    ]
    long = next((x for x in close_attacks if mounted.is_lance(x.name) or x.size >= 4), None)
    a = long if setting and long is not None else (close_attacks[0] if close_attacks else None)
    want = dict(trig.get("strike") or {})
    # the attack named when reserving, if he still holds it (p.375, p.384)
    a = next((x for x in close_attacks if x.name == want.get("attack")), a)
    if a is None:
        return
    setting = setting and a is long
    reserved.pop(t.id)
    rule = mounted.SET_AGAINST if setting else rs.ref("actions.reserved")
    sc.emit(
        ev.ExtraSet("reserved", reserved or None),
        ev.Note(
            f"{t.name} {'sets against the charge' if setting else 'strikes the charging rider first'}",
            t.id,
            rule,
        ),
    )
    # Attacking to Stun declared: the blow deals Stun damage (p.383); Shattering a Shield or an entangling
    # weapon: the strike is one of theirs (p.385, p.391), with the mount's Strength in no Damage test
    # (shattering deals no damage; an entangling weapon is no long weapon to set against a charge)
    extra = {k: v for k, v in want.items() if k != "attack"}
    special, _, strike = option_strike(
        state, t, a, Command(t.id, "attack", rider.id, {**extra, "attack": a.name})
    )
    if special and opt.KNOCKDOWN not in declared(state, t.id):
        special_attack(rs, state, sc, dice, sc.get(t.id), sc.get(rider.id), a, strike, True)
        return
    label = "Attack (set against the charge)" if setting else "Attack (reserved)"
    res, ctx = attack_test(rs, state, sc, dice, sc.get(t.id), sc.get(rider.id), a, None, True, label)
    if not res.success:
        return
    step = (
        mounted.set_against_charge_damage(a.damage, t.stats.str_step, m.stats.str_step)
        if setting
        else a.damage
    )
    mods = (
        [Modifier(res.extra * 2, f"{res.extra} extra successes", rs.ref("attack.extra-successes"))]
        if res.extra
        else []
    )
    what = f"{a.name} Damage (mount's Strength)" if setting else f"{a.name} Damage"
    dres = damage_test(rs, sc, dice, ctx, step, mods, what, rule)
    armor = rs.armor_of(rider, a)
    r = sc.get(rider.id)
    if opt.KNOCKDOWN in declared(state, t.id):
        dn = opt.knockdown_attack_dn(dres.total, armor)
        if (
            "knocked-down" not in r.conditions
            and r.status == "active"
            and knockdown_option(rs, state, sc, dice, r, t.id, dn)
        ):
            unseat(rs, state, sc, dice, rider.id, 0)
        return
    deal(rs, state, sc, dice, sc.get(t.id), r, a, dres.total, armor, strike)
    r = sc.get(rider.id)
    if setting and res.extra and r.status == "active" and r.marks.get("mount"):
        kmods = rs.step_mods(TestContext(state, sc, "knockdown", r))
        kres = run_test(
            dice,
            rs.edition,
            r.stats.knockdown_step,
            kmods,
            max(1, mounted.unseat_dn(dres.total, armor)),
            None,
            r.name,
            "Knockdown (stay mounted)",
            "Damage less armor",
        )
        sc.emit(
            rolled_event(
                rider.id, "Knockdown (stay mounted)", kres, mounted.SET_AGAINST, t.id, "Damage less armor"
            )
        )
        if not kres.success:
            unseat(rs, state, sc, dice, rider.id, 0)


def _v_gallop(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    m = mount_of(state, me)
    if m is None:
        raise IllegalCommand(f"{me.name} is not mounted", mounted.SPLIT)
    if m.marks.get("std") == state.round and not m.marks.get("galloping") == state.round:
        raise IllegalCommand(f"{m.name} has used its Standard action", mounted.SPLIT)
    left = 2 * hexes(m.stats.movement) - rs.moved_this_round(state, me)
    rs._check_path(state, me, command.args.get("path"), max(left, 0), mounted.SPLIT)
    if (
        me.marks.get("std") == state.round
        and rs.moved_this_round(state, me)
        and opt.SPLIT not in declared(state, me.id)
    ):
        raise IllegalCommand(
            "moving both before and after the Standard action needs the Splitting Movement option",
            opt.rule(opt.SPLIT),
        )


def _r_gallop(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    m = mount_of(state, state.combatants[me.id])
    assert m is not None
    path = tuple((int(h[0]), int(h[1])) for h in command.args.get("path") or ())
    moved = rs.moved_this_round(state, me) + len(path)
    sc.emit(
        ev.Marked(m.id, "std", state.round, mounted.SPLIT),
        ev.Marked(m.id, "galloping", state.round, mounted.SPLIT),
        ev.Moved(me.id, path, "gallop", heading(me.pos, path), None, mounted.SPLIT),
        ev.Moved(m.id, path, "gallop", heading(me.pos, path), None, mounted.SPLIT),
        ev.Marked(me.id, "moved", [state.round, moved], mounted.MOVEMENT),
    )
    if command.args.get("end", False):
        sc.emit(ev.TurnEnded(me.id))


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action("mount", STANDARD, partial(_v_mount, rs), partial(_r_mount, rs), mounted.MOUNTING),
        Action("dismount", "simple", partial(_v_dismount, rs), partial(_r_dismount, rs), mounted.DISMOUNTING),
        Action("charge", STANDARD, partial(_v_charge, rs), partial(_r_charge, rs), mounted.CHARGE),
        Action("gallop", "simple", partial(_v_gallop, rs), partial(_r_gallop, rs), mounted.SPLIT),
    )
