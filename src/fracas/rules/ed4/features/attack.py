"""The ``attack`` command under the ED4 chapter: when the chapter refuses an attack the core allows (full
cover p.387, a lost or thrown weapon p.384/p.392, out of close reach p.397, a charge attack, Shattering a
Shield p.385, grappling p.392), and its resolution: an unfamiliar mount taken into combat (p.395), the
strikes the options shape (:mod:`.strike`), a missed shot into close combat striking someone in the way
(p.392) and a missed throw scattering (p.393)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import Action
from fracas.rules.earthdawn.combat import Scratch, TestContext, extra_successes, rolled_event
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import aerial, close, mounted, ranged, situation
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.readers import (
    SURPRISE_RULE,
    cover,
    declared,
    entangling,
    intervening,
    weapon_of,
)
from fracas.rules.ed4.features.riding import into_combat
from fracas.rules.ed4.features.strike import damage_test, deal, entangle, option_strike, special_attack

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def validate_attack(state: FightState, command: Command, me: Combatant) -> None:
    t = state.combatants.get(command.target or "")
    if t is None:
        return
    p: CombatProfile = me.stats
    a = p.attack(command.args.get("attack"))
    if a is None:
        return
    if a.name.lower().startswith("charge"):
        raise IllegalCommand(
            f"{a.name} is a charging attack: use the charge command (mount's Strength added then)",
            mounted.CHARGE,
        )
    lost = me.marks.get("lost_weapons") or ()
    if a.name in lost:
        raise IllegalCommand(f"{me.name} has lost the {a.name}", opt.rule(opt.CALLED_SHOT))
    if a.name in (me.marks.get("thrown_away") or ()):
        raise IllegalCommand(
            f"{me.name} has thrown the {weapon_of(a.name)}: it is gone until picked up",
            ranged.RANGED_RULE,
        )
    if situation.cover_blocks(cover(state, t)):
        raise IllegalCommand(
            f"{t.name} is in full cover and cannot be attacked", situation.rule("cover-full")
        )
    mine = declared(state, me.id)
    if opt.SHATTER in mine and a.close:
        if not opt.can_shatter(a.size):
            raise IllegalCommand(
                f"the {a.name} (Size {a.size}) is too small to shatter a shield", opt.rule(opt.SHATTER)
            )
        if t.stats.shield_shatter is None or t.marks.get("shield_shattered"):
            raise IllegalCommand(f"{t.name} has no shield to shatter", opt.rule(opt.SHATTER))
    if command.args.get("grapple") and a.kind not in ("unarmed", "natural"):
        raise IllegalCommand("grappling is an Unarmed Combat attack", close.GRAPPLING_RULE)
    if (
        a.close
        and me.pos is not None
        and t.pos is not None
        and not aerial.in_close_reach(me.altitude, t.altitude)
    ):
        raise IllegalCommand(
            f"{t.name} is {abs(me.altitude - t.altitude)} yards above or below: out of close reach",
            aerial.AERIAL,
        )


def may_refuse_attack(state: FightState, me: Combatant, t: Combatant) -> bool:
    """Whether the chapter could refuse an attack on ``t`` that the core allows (:func:`.declaring._v_common`,
    :func:`validate_attack`): only then do the tactics validate their plans (validating costs time).
    Conservative: any sign of a refusal reason says yes."""
    return bool(
        me.altitude != t.altitude
        or me.marks.get("lost_weapons")
        or me.marks.get("thrown_away")
        or me.marks.get("rider")
        or "grappled" in me.conditions
        or state.extra.get("map", {}).get("full_cover")
        or opt.SHATTER in declared(state, me.id)
        or any(a.name.lower().startswith("charge") for a in me.stats.attacks)
    )


def resolve_attack(
    rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch, core: Action
) -> None:
    me = state.combatants[command.actor]
    p: CombatProfile = me.stats
    a = p.attack(command.args.get("attack"))
    assert a is not None
    if me.hidden and not me.marks.get("revealed"):
        sc.emit(ev.Marked(me.id, "revealed", True, SURPRISE_RULE))
    mid = me.marks.get("mount")
    if mid and mid in state.combatants and not into_combat(rs, state, sc, dice, me, state.combatants[mid]):
        rs._end_or_mark(state, command, sc, True)
        return
    special, single, command = option_strike(state, me, a, command)
    if not special:
        before = len(sc.events)
        core.resolve(state, command, dice, sc)
        if not a.close and a.kind != "spell":
            victim = stray(rs, state, sc, dice, me, command, a, before)
            if a.kind == "thrown":
                scatter_throw(rs, state, sc, dice, me, command, a, before, victim)
        return
    path = [tuple(h) for h in command.args.get("path") or ()]
    rs._emit_move(state, command, sc, path, "move", rs.ref("movement"))
    # a creature with several Actions makes that many attacks until the target falls (as the core does)
    n = 1 if single or a.kind == "spell" else p.actions
    for i in range(n):
        t = sc.get(command.target or "")
        if t.status == "dead" or (i and t.status != "active") or sc.get(me.id).status != "active":
            break
        before = len(sc.events)
        special_attack(rs, state, sc, dice, sc.get(me.id), t, a, command, bool(sc.flags.get("reserved")))
        if not a.close and a.kind != "spell":
            # a missed throw of a net or bola is a missed shot like any other: it may strike someone in
            # the way (p.392) and, thrown, it scatters (p.393)
            victim = stray(rs, state, sc, dice, me, command, a, before)
            if a.kind == "thrown":
                scatter_throw(rs, state, sc, dice, me, command, a, before, victim)
    after = [tuple(h) for h in command.args.get("after") or ()]
    if after and sc.get(me.id).status == "active":
        rs._emit_move(state, command, sc, after, "move", rs.ref("movement"))
    rs._end_or_mark(state, command, sc, True)


def scatter_throw(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    command: Command,
    a: AttackProfile,
    before: int,
    victim: str | None,
) -> None:
    """A thrown object that misses its target scatters (p.393, the Brighton example): D6 for the
    direction, a test at Step (DN - result) for the feet from the target. It lands there (where the
    weapon then lies); one that strikes someone in the way lies at his feet."""
    t = state.combatants.get(command.target or "")
    if t is None:
        return
    miss = next(
        (
            e
            for e in reversed(sc.events[before:])
            if isinstance(e, ev.Rolled) and e.actor == me.id and e.test.endswith("Attack")
        ),
        None,
    )
    if miss is None or miss.success is not False:
        return
    landed = sc.flags.setdefault("landed", {})
    if victim is not None:
        landed[a.name] = sc.get(victim).pos
        return
    at = sc.get(t.id).pos
    if at is None or miss.dn is None:
        return
    s = ranged.scatter(miss.dn, miss.total, dice, rs.edition)
    where = ranged.scatter_hex(at, s.direction, s.feet)
    landed[a.name] = where
    sc.emit(
        rolled_event(me.id, f"Scatter distance (Step {s.step})", s.test, ranged.SCATTER_RULE),
        ev.Note(
            f"the {weapon_of(a.name)} scatters {s.feet} feet in direction {s.direction}, to {list(where)}",
            me.id,
            ranged.SCATTER_RULE,
        ),
    )


def stray(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    me: Combatant,
    command: Command,
    a: AttackProfile,
    before: int,
) -> str | None:
    """A missed shot into close combat may strike someone in the way, closest first (p.392). Returns
    the id of the one struck, if any."""
    t = state.combatants.get(command.target or "")
    if t is None:
        return None
    for e in sc.events[before:]:
        if isinstance(e, ev.Rolled) and e.actor == me.id and e.test.endswith("Attack") and e.success is False:
            if e.outcome.startswith("Rule of One"):
                continue
            inter = intervening(state, sc.get(me.id), t)
            if not inter:
                return None
            hit = ranged.stray_hit(e.total, [(c.id, c.stats.physical_defense) for c in inter])
            if hit is None:
                sc.emit(ev.Note("the missed shot strikes nobody in the way", me.id, ranged.INTO_CLOSE_RULE))
                return None
            victim = sc.get(hit)
            sc.emit(ev.Note(f"the missed shot strikes {victim.name} instead", me.id, ranged.INTO_CLOSE_RULE))
            extra = extra_successes(e.total, victim.stats.physical_defense)
            if entangling(me, a):
                # a thrown net or bola strikes him as it would its target (p.391-392)
                left = entangle(sc, sc.get(me.id), victim, a, extra)
                if left is None:
                    return victim.id
                extra = left
            ctx = TestContext(state, sc, "damage", sc.get(me.id), victim, a, command, a.against, {"yards": 0})
            mods = (
                [Modifier(extra * 2, f"{extra} extra successes", rs.ref("attack.extra-successes"))]
                if extra
                else []
            )
            dres = damage_test(rs, sc, dice, ctx, a.damage, mods, f"{a.name} Damage", ranged.INTO_CLOSE_RULE)
            deal(rs, state, sc, dice, sc.get(me.id), victim, a, dres.total, rs.armor_of(victim, a), command)
            return victim.id
    return None
