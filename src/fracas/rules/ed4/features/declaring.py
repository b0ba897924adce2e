"""Combat options in the ED4 chapter (p.382-386): declaring them before Initiative (p.371, p.382), what
they restrict on every command (Splitting Movement, a grappled or ridden combatant's movement, the reserved
strike's arguments), the Strain paid and the facing turned after each command, and the two options that are
actions of their own: Jump Up (p.384) and Tail Attack (p.386).

:func:`wrap_action` wraps every action of the round, the core's and the chapter's."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import Action
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test, strain_events
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import close, mounted, situation
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.attack import resolve_attack, validate_attack
from fracas.rules.ed4.features.readers import (
    SURPRISE_RULE,
    adjacent_enemies,
    declared,
    direction,
    impaired,
    in_force,
    mount_of,
    race,
    rank,
    rider_of,
)
from fracas.rules.ed4.features.strain import attack_tests_strain, pay_round_strain
from fracas.rules.ed4.features.strike import attack_test, damage_test, deal
from fracas.rules.ed4.features.thrown import mark_thrown

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset

STRIKE_ARGS = ("attack", "called")
"""Arguments a reserve command may carry for the strike the engine makes for it (p.385, p.398)."""


def check_options(state: FightState, command: Command) -> None:
    """A declaration's combat options checked (each option's ``CombatOption.check``): none while surprised
    (p.390), and none of the combinations the options forbid (:func:`.options.check_declaration`)."""
    me = state.combatants[command.actor]
    opts = list(command.args.get("options", ()) or ())
    if opts and "surprised" in me.conditions:
        raise IllegalCommand(f"{me.name} is surprised and takes no actions this round", SURPRISE_RULE)
    opt.check_declaration(
        opts, knocked_down="knocked-down" in me.conditions, tskrang=race(me).replace("'", "") == "tskrang"
    )


def _v_declare_late(state: FightState, command: Command) -> None:
    raise IllegalCommand(
        "combat options are declared before the Initiative test, not during the round", opt.DECLARE_RULE
    )


def _r_none(state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    return None


def wrap_action(rs: Ed4Ruleset, action: Action) -> Action:
    """``action`` with the chapter around it: the options' restrictions checked before its own validation
    (:func:`_v_common`); the round's Strain paid before it resolves, the per-test Strain, facing and thrown
    weapons after (:func:`_after_action`); ``attack`` resolves through :func:`.attack.resolve_attack`."""

    def validate(state: FightState, command: Command) -> None:
        _v_common(rs, state, command, action)
        action.validate(state, command)
        if command.action == "reserve":
            _v_reserve_strike(rs, state, command)

    def resolve(state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        before = len(sc.events)
        pay_round_strain(rs, state, command, sc)
        if command.action == "attack":
            resolve_attack(rs, state, command, dice, sc, action)
        elif command.action == "reserve" and any(k in command.args for k in STRIKE_ARGS):
            # the reserved strike's own arguments ride on the trigger (the only thing kept)
            trig = dict(command.args.get("trigger") or {"on": "attack"})
            trig["strike"] = {k: command.args[k] for k in STRIKE_ARGS if k in command.args}
            action.resolve(
                state, dataclasses.replace(command, args={**command.args, "trigger": trig}), dice, sc
            )
        else:
            action.resolve(state, command, dice, sc)
        _after_action(rs, state, command, sc, before)

    return Action(action.name, action.kind, validate, resolve, action.rule)


def _v_reserve_strike(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    """A reserve command may name the attack its strike at a charging rider or a swooper will use and a
    Called Shot at a weapon (``attack``, ``called: weapon``; p.375, p.384, p.385, p.398): checked when
    reserving, since the strike itself is made by the engine, with no command of its own."""
    me = state.combatants[command.actor]
    rule = rs.ref("actions.reserved")
    name = command.args.get("attack")
    if name is not None:
        a = me.stats.attack(str(name))
        if a is None or a.name != name or not a.close:
            raise IllegalCommand(f"reserve: {me.name} has no close combat attack {name!r}", rule)
    called = command.args.get("called")
    if called is not None:
        if called != "weapon":
            raise IllegalCommand("reserve: called may only be 'weapon'", opt.rule(opt.CALLED_SHOT))
        if opt.CALLED_SHOT not in in_force(state, me):
            raise IllegalCommand(
                f"reserve: {me.name} has not declared Called Shot", opt.rule(opt.CALLED_SHOT)
            )


def _v_common(rs: Ed4Ruleset, state: FightState, command: Command, action: Action) -> None:
    me = state.combatants.get(command.actor)
    if me is None:
        return
    mine = declared(state, me.id)
    for o in command.args.get("options", ()) or ():
        if o not in mine:
            raise IllegalCommand(f"{o} was not declared before Initiative", opt.DECLARE_RULE)
    if "grappled" in me.conditions and command.action in ("move", "run", "charge", "swoop"):
        raise IllegalCommand(f"{me.name} is grappled and cannot move", close.GRAPPLING_RULE)
    if rider_of(state, me) is not None and command.action in ("move", "run") and command.args.get("path"):
        raise IllegalCommand(f"{me.name}'s rider controls its movement", mounted.MOVEMENT)
    if command.action == "attack":
        validate_attack(state, command, me)
    before = bool(command.args.get("path")) or rs.moved_this_round(state, me) > 0
    if command.args.get("after") and before and opt.SPLIT not in mine:
        raise IllegalCommand(
            "moving both before and after the action needs the Splitting Movement option",
            opt.rule(opt.SPLIT),
        )
    if command.action == "stand-up" and command.args.get("path"):
        # crawl, stand up (the Standard action), walk on: a move/action/move combination (p.386), which
        # the knocked down cannot declare (p.382); the walk is what is left of his Movement Rate
        if rs.moved_this_round(state, me) and opt.SPLIT not in mine:
            raise IllegalCommand(
                f"{me.name} crawled this round: moving again after standing up is moving both before and "
                "after the Standard action, which needs the Splitting Movement option",
                opt.rule(opt.SPLIT),
            )
        left = rs.standing_hexes(state, me)
        if len(command.args["path"]) > left:
            raise IllegalCommand(
                f"{me.name} can move {left} hex{'es' if left != 1 else ''} after standing up, "
                f"not {len(command.args['path'])}",
                situation.rule("knocked-down"),
            )
    if command.action == "move" and command.args.get("path") and me.marks.get("std") == state.round:
        moved = rs.moved_this_round(state, me)
        if moved and opt.SPLIT not in mine:
            raise IllegalCommand(
                "moving both before and after the Standard action needs the Splitting Movement option",
                opt.rule(opt.SPLIT),
            )


def _after_action(rs: Ed4Ruleset, state: FightState, command: Command, sc: Scratch, before: int) -> None:
    me_id = command.actor
    me = sc.get(me_id)
    mine = declared(state, me_id)
    new = sc.events[before:]
    tests = [e for e in new if isinstance(e, ev.Rolled) and e.actor == me_id and e.test.endswith("Attack")]
    count = me.marks.get("attack_tests")
    close_before = count[2] if count and count[0] == state.round and len(count) > 2 else 0
    close_tests = 0
    if tests:
        close_tests = sum(1 for e in tests if e.target and _close_test(state, me_id, e))
        attack_tests_strain(rs, state, sc, me_id, len(tests), close_tests)
        for e in tests:
            face(state, sc, me_id, e.target)
        mark_thrown(me, tests, sc)
    ended = any(isinstance(e, ev.TurnEnded) and e.actor == me_id for e in new)
    if (
        ended
        and opt.AGGRESSIVE in mine
        and close_before + close_tests == 0
        and sc.get(me_id).status == "active"
    ):
        # at least 1 Strain in the round, even with no close combat Attack test (p.382)
        for amount, why, rule in opt.round_strain([opt.AGGRESSIVE], 0):
            strain_events(sc, rs.edition, me_id, amount, why, rule)
    # a rider's movement is the mount's (p.395): the mount goes where he goes
    m = mount_of(state, state.combatants[me_id])
    if m is not None:
        for e in new:
            if isinstance(e, ev.Moved) and e.actor == me_id and e.path and e.mode in ("move", "run"):
                sc.emit(ev.Moved(m.id, e.path, "ridden", e.facing, e.altitude, mounted.MOVEMENT))
        if command.action == "run":
            sc.emit(ev.Marked(m.id, "std", state.round, mounted.SPLIT))


def _close_test(state: FightState, me_id: str, e: ev.Rolled) -> bool:
    p: CombatProfile = state.combatants[me_id].stats
    name = e.test[: -len(" Attack")]
    a = p.attack(name)
    return a is None or a.close


def face(state: FightState, sc: Scratch, me_id: str, target_id: str | None) -> None:
    me = sc.get(me_id)
    t = sc.get(target_id) if target_id in state.combatants else None
    if t is None or me.pos is None or t.pos is None or me.pos == t.pos:
        return
    f = direction(me.pos, t.pos)
    if me.facing != f:
        sc.emit(ev.Moved(me_id, (), "turn", f, None, situation.rule("blindsided")))
    if distance(me.pos, t.pos) == 1 and t.status == "active":
        # in a duel the attacker is the only one who can stand next to the target
        others = []
        if len(state.combatants) > 2:
            others = [o for o in adjacent_enemies(state, sc, t) if o.id != me_id]
        back = direction(t.pos, me.pos)
        if not others and t.facing != back:
            sc.emit(ev.Moved(t.id, (), "turn", back, None, situation.rule("blindsided")))


def _v_jump_up(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if opt.JUMP_UP not in declared(state, me.id):
        raise IllegalCommand("Jump Up must be declared before Initiative", opt.DECLARE_RULE)
    if "knocked-down" not in me.conditions:
        raise IllegalCommand(f"{me.name} is not knocked down", opt.rule(opt.JUMP_UP))
    if state.round in (me.marks.get("jumped_up"), me.marks.get("jump_tried")):
        raise IllegalCommand("Jump Up once a round", opt.rule(opt.JUMP_UP))


def _r_jump_up(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    rule = opt.rule(opt.JUMP_UP)
    strain_events(sc, rs.edition, me.id, 2, "Jump Up", rule)
    sc.emit(ev.Marked(me.id, "jump_tried", state.round, rule))
    if sc.get(me.id).status != "active":
        return
    p: CombatProfile = me.stats
    # "the Initiative Penalty of any armor he is wearing" (p.384): the armor's, not the shield's; a stat
    # block without its armor's numbers: what its Initiative step lacks of its Dexterity step [choice]
    src = getattr(p, "source", None)
    if src is not None and hasattr(src, "armor"):
        penalty = src.armor.initiative_penalty if src.armor is not None else 0
    else:
        penalty = max(0, p.dex_step - p.initiative_step)
    mods = rs.step_mods(TestContext(state, sc, "jump-up", me)) + opt.jump_up_mods(penalty)
    mods += situation.impaired_mods(impaired(state, me), True)
    res = run_test(
        dice, rs.edition, p.dex_step, mods, opt.jump_up_dn(), None, me.name, "Jump Up (Dexterity)", "DN"
    )
    sc.emit(rolled_event(me.id, "Jump Up (Dexterity)", res, rule))
    if res.success:
        sc.emit(
            ev.ConditionRemoved(me.id, "knocked-down", "jumps up", rule),
            ev.Marked(me.id, "jumped_up", state.round, rule),
        )
    if command.args.get("end", False):
        sc.emit(ev.TurnEnded(me.id))


def _v_tail(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    if opt.TAIL not in declared(state, me.id):
        raise IllegalCommand("Tail Attack must be declared before Initiative", opt.DECLARE_RULE)
    if opt.TAIL not in in_force(state, me):
        raise IllegalCommand(
            f"{me.name} is knocked down: no combat option until he is standing (p.389)",
            opt.KNOCKED_DOWN_RULE,
        )
    if me.marks.get("tail") == state.round:
        raise IllegalCommand("one tail attack a round", opt.rule(opt.TAIL))
    t = rs._target(state, command)
    if me.pos and t.pos and distance(me.pos, t.pos) != 1:
        raise IllegalCommand("the tail reaches an adjacent opponent only", opt.rule(opt.TAIL))


def tail_profile(me: Combatant) -> AttackProfile:
    p: CombatProfile = me.stats
    step, dmg = opt.tail_attack_steps(p.dex_step, rank(me, "Unarmed Combat"), p.str_step)
    return AttackProfile("Tail", "unarmed", step, dmg)


def _r_tail(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    a = tail_profile(me)
    sc.emit(ev.Marked(me.id, "tail", state.round, opt.rule(opt.TAIL)))
    res, ctx = attack_test(rs, state, sc, dice, me, sc.get(command.target or ""), a, command, False)
    if res.success:
        mods = (
            [Modifier(res.extra * 2, f"{res.extra} extra successes", rs.ref("attack.extra-successes"))]
            if res.extra
            else []
        )
        dres = damage_test(rs, sc, dice, ctx, a.damage, mods, "Tail Damage", opt.rule(opt.TAIL))
        t = sc.get(command.target or "")
        deal(rs, state, sc, dice, me, t, a, dres.total, rs.armor_of(t, a), command)
    if command.args.get("end", False):
        sc.emit(ev.TurnEnded(me.id))


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action("declare", "turn", _v_declare_late, _r_none, opt.DECLARE_RULE),
        Action("jump-up", "simple", partial(_v_jump_up, rs), partial(_r_jump_up, rs), opt.rule(opt.JUMP_UP)),
        Action("tail-attack", "simple", partial(_v_tail, rs), partial(_r_tail, rs), opt.rule(opt.TAIL)),
    )
