"""One strike of the ED4 chapter, whatever command makes it (an attack, a charge, a swoop, a reserved
strike at a charging rider or a swooper): what the options in force make of it (p.382-385), its Attack
test, its Damage test and the damage dealt (p.377-379), and the strikes whose outcome is not plain damage:
grappling (p.392), entangling (p.391), Attacking to Knockdown (p.383), Shattering a Shield (p.385), a
Called Shot at a held weapon (p.384)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.combat import Scratch, TestContext, damage_events, rolled_event, run_test
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import close, mounted
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.falling import fall_damage, leap_off
from fracas.rules.ed4.features.readers import (
    entangling,
    held_weapon,
    in_force,
    mount_of,
    weapon_key,
    weapon_of,
)

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def option_strike(
    state: FightState, me: Combatant, a: AttackProfile, command: Command
) -> tuple[bool, bool, Command]:
    """What the options in force make of one strike, whatever command makes it (an attack, a charge, a
    swoop, a reserved strike at a charging rider or a swooper): (special, single, command).

    ``special``: the strike goes through :func:`special_attack` (grappling, an entangling weapon,
    Attacking to Knockdown, Shattering a Shield, a Called Shot at a weapon); ``single``: one Attack test
    only, whatever the creature's Actions. ``command`` carries ``stun`` when Attacking to Stun is in
    force for a close attack (p.383): every close combat Attack test of the round deals Stun damage.
    """
    mine = in_force(state, me)
    single = bool(
        command.args.get("grapple")
        or (a.close and opt.SHATTER in mine)
        or (opt.CALLED_SHOT in mine and command.args.get("called") == "weapon")
    )
    special = single or (a.close and opt.KNOCKDOWN in mine) or entangling(me, a)
    if opt.STUN in mine and a.close and not command.args.get("stun"):
        command = dataclasses.replace(command, args={**command.args, "stun": True})
    return special, single, command


def attack_test(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    t: Combatant,
    a: AttackProfile,
    command: Command | None,
    reserved: bool,
    label: str = "Attack",
) -> tuple[Any, TestContext]:
    yards = distance(me.pos, t.pos) * 2 if me.pos is not None and t.pos is not None else 0
    ctx = TestContext(
        state, sc, "attack", me, t, a, command, a.against, {"yards": yards, "reserved": reserved}
    )
    smods = rs.step_mods(ctx)
    tp: CombatProfile = t.stats
    defense = {"physical": tp.physical_defense, "mystic": tp.mystic_defense}.get(a.against, tp.social_defense)
    dmods = rs.defense_mods(ctx)
    dn = max(1, defense + sum(m.value for m in dmods))
    karma = bool(command is not None and command.args.get("karma")) and a.karma and me.count("karma") > 0
    if karma:
        sc.emit(ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", rs.ref("karma")))
    p: CombatProfile = me.stats
    against = {"physical": "Physical Defense", "mystic": "Mystic Defense"}.get(a.against, "Social Defense")
    res = run_test(
        dice,
        rs.edition,
        a.step,
        smods,
        dn,
        p.karma_step if karma else None,
        me.name,
        f"{a.name} {label}",
        against,
    )
    sc.emit(
        rolled_event(me.id, f"{a.name} {label}", res, rs.ref("attack"), t.id, against, dmods, rs.ref("karma"))
    )
    return res, ctx


def damage_test(
    rs: Ed4Ruleset,
    sc: Scratch,
    dice: DiceSource,
    ctx: TestContext,
    step: int,
    extra_mods: list[Modifier],
    name: str,
    rule: str,
) -> Any:
    ctx.test = "damage"
    mods = rs.step_mods(ctx) + extra_mods
    res = run_test(dice, rs.edition, step, mods, None, None, ctx.actor.name, name)
    sc.emit(rolled_event(ctx.actor.id, name, res, rule, ctx.target.id if ctx.target else None))
    return res


def knockdown_option(
    rs: Ed4Ruleset, state: FightState, sc: Scratch, dice: DiceSource, t: Combatant, by: str, dn: int
) -> bool:
    """Attacking to Knockdown's test (p.383): ``t`` makes a Knockdown test against ``dn`` (at least 1) and is
    knocked down by ``by`` on a failure. True when he fell."""
    kmods = rs.step_mods(TestContext(state, sc, "knockdown", t))
    kres = run_test(
        dice, rs.edition, t.stats.knockdown_step, kmods, max(dn, 1), None, t.name, "Knockdown", "Knockdown DN"
    )
    sc.emit(rolled_event(t.id, "Knockdown", kres, opt.rule(opt.KNOCKDOWN), by, "Knockdown DN"))
    if kres.success:
        return False
    sc.emit(ev.ConditionAdded(t.id, "knocked-down", None, 3, by, opt.rule(opt.KNOCKDOWN)))
    return True


def special_attack(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    t: Combatant,
    a: AttackProfile,
    command: Command,
    reserved: bool,
) -> Any:
    """Attacks whose outcome is not plain damage: grappling (p.392), entangling (p.391), Attacking to
    Knockdown (p.383), Shattering a Shield (p.385), a Called Shot at a held item (p.384). Returns the
    Attack test's result (None when a rider leaping off to grapple is knocked out by the fall)."""
    mine = in_force(state, me)
    leap = bool(command.args.get("grapple")) and mount_of(state, state.combatants[me.id]) is not None
    if leap:
        # throwing himself off his mount to grapple: Step 5/D8 to the rider (p.395)
        leap_off(rs, state, sc, dice, me.id, t.id)
        me = sc.get(me.id)
        if me.status != "active":
            return
    res, ctx = attack_test(rs, state, sc, dice, me, t, a, command, reserved)
    if not res.success:
        return res
    r = rs.ref
    if command.args.get("grapple"):
        if leap and close.grapples(res.success, res.extra):
            fall_damage(rs, sc, dice, t.id, mounted.FALL_STEP, mounted.JUMP_OFF)
        if close.grapples(res.success, res.extra):
            sc.emit(
                ev.ConditionAdded(t.id, "grappled", state.round + 1, a.step, me.id, close.GRAPPLING_RULE),
                ev.Marked(me.id, "holding", t.id, close.GRAPPLING_RULE),
                ev.Note(f"{me.name} grapples {t.name}", me.id, close.GRAPPLING_RULE),
            )
        else:
            sc.emit(
                ev.Note(
                    f"{me.name} hits but gets no hold (grappling needs an extra success)",
                    me.id,
                    close.GRAPPLING_RULE,
                )
            )
        return res
    extra = res.extra if a.against == "physical" else 0
    if a.close and opt.SHATTER in mine:
        dres = damage_test(
            rs,
            sc,
            dice,
            ctx,
            a.damage,
            opt.shatter_step_mods(a.size),
            f"{a.name} Damage vs Shatter Threshold",
            opt.rule(opt.SHATTER),
        )
        thr = t.stats.shield_shatter or 0
        magical = bool(t.marks.get("magical_shield"))
        if magical:
            sc.emit(
                ev.Note(f"{t.name}'s shield is magical: 10 more to break it", me.id, opt.rule(opt.SHATTER))
            )
        if opt.shield_shatters(dres.total, thr, magical):
            sc.emit(
                ev.Marked(t.id, "shield_shattered", True, opt.rule(opt.SHATTER)),
                ev.Note(
                    f"{t.name}'s shield shatters ({dres.total} against {opt.shatter_dn(thr, magical)})",
                    me.id,
                    opt.rule(opt.SHATTER),
                ),
            )
        else:
            sc.emit(
                ev.Note(
                    f"{t.name}'s shield holds ({dres.total} against {opt.shatter_dn(thr, magical)})",
                    me.id,
                    opt.rule(opt.SHATTER),
                )
            )
        return res
    mods = []
    if entangling(me, a):
        left = entangle(sc, me, t, a, extra)
        if left is None:
            return res  # a net only entangles: no Damage test [choice, data/entangling.toml]
        extra = left
    if extra:
        mods.append(
            Modifier(
                extra * 2,
                f"{extra} extra success{'es' if extra > 1 else ''}",
                r("attack.extra-successes"),
            )
        )
    if opt.CALLED_SHOT in mine and command.args.get("called") == "weapon":
        weapon, two_handed = held_weapon(t)
        dn, hold = opt.called_shot_hold(a.damage, two_handed)
        # a Strength test of the holder's: his Wounds, Harried, Knocked Down... count (p.381, p.388)
        hold = rs.step_mods(TestContext(state, sc, "strength", sc.get(t.id))) + hold
        tr = run_test(
            dice,
            rs.edition,
            t.stats.str_step,
            hold,
            dn,
            None,
            t.name,
            "Strength (hold on)",
            "Damage Step",
        )
        sc.emit(rolled_event(t.id, "Strength (hold on)", tr, opt.rule(opt.CALLED_SHOT), me.id, "Damage Step"))
        if not tr.success and weapon:
            lost = list(t.marks.get("lost_weapons") or ())
            lost += [
                x.name
                for x in t.stats.attacks
                if weapon_of(x.name) == weapon_of(weapon) and x.name not in lost
            ]  # its thrown use too
            sc.emit(
                ev.Marked(t.id, "lost_weapons", lost, opt.rule(opt.CALLED_SHOT)),
                ev.Note(f"{t.name} loses the {weapon}", t.id, opt.rule(opt.CALLED_SHOT)),
            )
        return res
    dres = damage_test(rs, sc, dice, ctx, a.damage, mods, f"{a.name} Damage", r("damage"))
    armor = rs.armor_of(t, a)
    if a.close and opt.KNOCKDOWN in mine:
        if "knocked-down" in t.conditions or t.status != "active":
            return res
        knockdown_option(rs, state, sc, dice, t, me.id, opt.knockdown_attack_dn(dres.total, armor))
        return res
    deal(rs, state, sc, dice, me, t, a, dres.total, armor, command)
    return res


def entangle(sc: Scratch, me: Combatant, t: Combatant, a: AttackProfile, extra: int) -> int | None:
    """An entangling weapon strikes ``t`` with ``extra`` extra successes (p.391): one entangles him (not
    again if he is entangled already), and the extra successes spent on it add no damage. Returns the
    extra successes left for the Damage test, or None when the weapon makes no Damage test (a net
    [choice, data/entangling.toml])."""
    key = weapon_key(me, a)
    if close.entangles(extra, True) and "entangled" not in t.conditions:
        dn = close.entangle_dn(key, a.damage)
        sc.emit(
            ev.ConditionAdded(t.id, "entangled", None, dn, me.id, close.ENTANGLING_RULE),
            ev.Marked(t.id, "entangled_by", [me.id, a.name], close.ENTANGLING_RULE),
            ev.Note(f"{t.name} is entangled (DN {dn} to break free)", me.id, close.ENTANGLING_RULE),
        )
        extra = close.entangled_damage_extra(extra)
    return None if close.entangles_only(key) else extra


def deal(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    t: Combatant,
    a: AttackProfile,
    raw: int,
    armor: int,
    command: Command | None,
) -> None:
    def kd_mods(tt: Combatant, new_wounds: int) -> list[Modifier]:
        return rs.step_mods(TestContext(state, sc, "knockdown", tt, extra={"new_wounds": new_wounds}))

    stun = a.stun or bool(command and command.args.get("stun"))
    damage_events(
        sc,
        rs.edition,
        dice,
        t.id,
        raw,
        armor,
        me.id,
        stun=stun,
        damage_type=a.armor if a.armor != "none" else "unarmored",
        knockdown_mods=kd_mods,
        round_no=state.round,
    )
