"""Thrown weapons in the ED4 chapter (p.392-393): a thrown weapon leaves the hand and lies where it landed
until picked up (``pick-up``, a Simple action [choice]); throwing at an area (``throw-at``, p.393, the
Brighton example) and the scatter of a miss."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.actions import STANDARD, Action
from fracas.rules.earthdawn.battle_map import within
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import ranged
from fracas.rules.ed4.features.readers import lying_in_reach, weapon_of

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def mark_thrown(me: Combatant, tests: list[ev.Rolled], sc: Scratch) -> None:
    """A thrown weapon leaves the thrower's hand (ranged combat, p.392): after the throw it is gone, its
    thrown and its close combat attack alike, until picked up (``pick-up``, a Simple action [choice]:
    :data:`.ranged.PICK_UP_REACH_HEXES`). It lies where the target stood (``marks["thrown_to"]``)."""
    p: CombatProfile = me.stats
    for e in tests:
        a = p.attack(e.test[: -len(" Attack")])
        if a is None or a.kind != "thrown":
            continue
        landed = sc.flags.get("landed") or {}
        if a.name in landed:
            drop(sc, me.id, a, landed[a.name])
            continue
        t = sc.get(e.target) if e.target in sc.state.combatants else None
        drop(sc, me.id, a, t.pos if t is not None else None)


def drop(sc: Scratch, me_id: str, a: AttackProfile, where: tuple[int, int] | None) -> None:
    """The thrown weapon of attack ``a`` leaves ``me_id``'s hand and lies at ``where`` (p.392)."""
    me = sc.get(me_id)
    p: CombatProfile = me.stats
    before = list(me.marks.get("thrown_away") or ())
    gone = list(before)
    weapon = weapon_of(a.name)
    for x in p.attacks:
        if weapon_of(x.name) == weapon and x.kind in ("thrown", "melee") and x.name not in gone:
            gone.append(x.name)
    if gone != before:
        sc.emit(ev.Marked(me_id, "thrown_away", gone, ranged.RANGED_RULE))
    lying = dict(me.marks.get("thrown_to") or {})
    lying[weapon] = list(where) if where is not None else None
    sc.emit(ev.Marked(me_id, "thrown_to", lying, ranged.PICK_UP_RULE))


def _v_pick_up(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    lying = me.marks.get("thrown_to") or {}
    if not lying:
        raise IllegalCommand(f"{me.name} has thrown nothing to pick up", ranged.PICK_UP_RULE)
    want = command.args.get("weapon")
    if want is not None and want not in lying:
        raise IllegalCommand(
            f"{me.name} has no thrown {want!r} lying about; thrown: {', '.join(sorted(lying))}",
            ranged.PICK_UP_RULE,
        )
    reach = lying_in_reach(me, state)
    if (want if want is not None else (reach[0] if reach else None)) not in reach:
        where = lying[want] if want is not None else next(iter(lying.values()))
        raise IllegalCommand(
            f"the {want or next(iter(lying))} lies at {where}: {me.name} must stand on that hex or "
            "next to it to pick it up",
            ranged.PICK_UP_RULE,
        )


def _r_pick_up(state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    weapon = command.args.get("weapon") or lying_in_reach(me, state)[0]
    lying = dict(me.marks.get("thrown_to") or {})
    lying.pop(weapon, None)
    gone = [x for x in me.marks.get("thrown_away") or () if weapon_of(x) != weapon]
    sc.emit(
        ev.Marked(me.id, "thrown_away", gone or None, ranged.PICK_UP_RULE),
        ev.Marked(me.id, "thrown_to", lying or None, ranged.PICK_UP_RULE),
        ev.Note(f"{me.name} picks up the {weapon}", me.id, ranged.PICK_UP_RULE),
    )
    if command.args.get("end", False):
        sc.emit(ev.TurnEnded(me.id))


def _v_throw_at(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me = rs._v_active(state, command)
    at = command.args.get("at")
    if not (isinstance(at, list | tuple) and len(at) == 2):
        raise IllegalCommand("throw-at needs at: [q, r]", ranged.AREA_RULE)
    p: CombatProfile = me.stats
    a = p.attack(command.args.get("attack"))
    if a is None or a.kind not in ("thrown",) and not command.args.get("improvised"):
        raise IllegalCommand("throw a throwing weapon, or an object with improvised: true", ranged.AREA_RULE)
    if me.pos is not None:
        apart = distance(me.pos, (int(at[0]), int(at[1])))
        yards = apart * 2
        longest = int(command.args.get("range", a.long or 10))
        if not within(apart, longest):
            raise IllegalCommand(f"the area is {yards} yards away, beyond {longest}", ranged.RANGED_RULE)


def _r_throw_at(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    a = me.stats.attack(command.args.get("attack"))
    at = (int(command.args["at"][0]), int(command.args["at"][1]))
    ctx = TestContext(state, sc, "attack", me, None, a, command)
    mods = rs.step_mods(ctx)
    dn_mods = list(rs._reserved_dn(ctx))
    res = run_test(
        dice,
        rs.edition,
        a.step,
        mods,
        ranged.area_dn() + sum(m.value for m in dn_mods),
        None,
        me.name,
        f"{a.name} thrown at an area",
        "DN",
    )
    sc.emit(rolled_event(me.id, f"{a.name} thrown at an area", res, ranged.AREA_RULE, dn_mods=dn_mods))
    where = at
    if not res.success:
        s = ranged.scatter(res.dn or ranged.area_dn(), res.total, dice, rs.edition)
        where = ranged.scatter_hex(at, s.direction, s.feet)
        sc.emit(
            rolled_event(me.id, f"Scatter distance (Step {s.step})", s.test, ranged.SCATTER_RULE),
            ev.Note(
                f"it scatters {s.feet} feet in direction {s.direction}, to {list(where)}",
                me.id,
                ranged.SCATTER_RULE,
            ),
        )
    sc.emit(
        ev.Note(
            f"the {a.name} lands on {list(where)}; what it does there is the gamemaster's call",
            me.id,
            ranged.AREA_RULE,
        )
    )
    if a.kind == "thrown" and not command.args.get("improvised"):
        drop(sc, me.id, a, where)  # the throwing weapon lies where it landed (p.392)
    rs._end_or_mark(state, command, sc, True)


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action("throw-at", STANDARD, partial(_v_throw_at, rs), partial(_r_throw_at, rs), ranged.AREA_RULE),
        Action("pick-up", "simple", partial(_v_pick_up, rs), _r_pick_up, ranged.PICK_UP_RULE),
    )
