"""Falls in the ED4 chapter: a rider falling off his mount (p.395: Step 5 damage, knocked down), a rider
throwing himself off it onto an opponent (p.395), a flier knocked out of the sky (p.398: the falling damage
table) and, with the optional Long Falls rule, falling over several rounds (p.398). :func:`aftermath` is
what every command may lead to: whoever was knocked down on a mount or in the air falls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine import taken
from fracas.engine.hexgrid import Hex, neighbours
from fracas.rules.earthdawn.combat import Scratch, damage_events, recovery_events, rolled_event, run_test
from fracas.rules.ed4 import aerial, mounted
from fracas.rules.ed4.features.readers import mount_of, rider_of

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import FightState
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def long_falls(rs: Ed4Ruleset, state: FightState, dice: DiceSource, sc: Scratch, rnd: int) -> None:
    speed = int(state.extra.get("settings", {}).get("fall_yards_per_round", 20))
    for c in state.combatants.values():
        if "falling" in c.conditions and c.status != "dead":
            drop = aerial.fall_per_round(c.altitude, speed)
            fall(rs, state, sc, dice, c.id, drop, aerial.LONG_FALLS, final=c.altitude - drop <= 0)
            now = sc.get(c.id)
            if (
                now.status == "unconscious"
                and "falling" in now.conditions
                and not now.marks.get("fall_roused")
            ):
                # unconscious and falling: a Recovery test after one round of uncontrolled descent, as
                # if roused by another character (p.398); conscious, it may then "stand up"
                sc.emit(ev.Marked(c.id, "fall_roused", rnd, aerial.LONG_FALLS))
                recovery_events(sc, rs.edition, dice, c.id, "after a round of uncontrolled descent")


def aftermath(rs: Ed4Ruleset, state: FightState, events: list[ev.Event], dice: DiceSource) -> list[ev.Event]:
    downs = [e.target for e in events if isinstance(e, ev.ConditionAdded) and e.name == "knocked-down"]
    if not downs:
        return events
    sc = Scratch(state)
    for e in events:
        sc.emit(e)
    start = len(sc.events)
    for cid in downs:
        c = sc.get(cid)
        rider = rider_of(state, state.combatants[cid])
        if rider is not None:
            # the mount fails a Knockdown test: the rider is knocked down as he falls off (p.395)
            unseat(rs, state, sc, dice, rider.id, c.altitude)
        elif mount_of(state, state.combatants[cid]) is not None:
            unseat(rs, state, sc, dice, cid, c.altitude)
        elif c.altitude > 0:
            knocked_out_of_sky(rs, state, sc, dice, cid)
    return events + sc.events[start:]


def _landing(state: FightState, sc: Scratch, rider_id: str, beside: Hex | None) -> tuple[Hex, ...]:
    """Where a rider who leaves his mount by a fall or a leap comes down: the first hex next to ``beside``
    (his own hex, his target's) that he could enter, neither blocked on the map nor taken by another (p.395
    names no hex; the rider lands where he could have stepped); none if there is no such hex. Taken as the
    command left them (``sc``): an attacker who stepped next to the mount holds his new hex, not the old."""
    if beside is None:
        return ()
    blocked = set(taken.map_blocked(state))
    for cid in state.combatants:
        c = sc.get(cid)
        if cid != rider_id and c.pos is not None and c.status not in ("dead", "fled"):
            blocked.add(c.pos)
    spot = next((h for h in neighbours(beside) if h not in blocked), None)
    return () if spot is None else (spot,)


def unseat(
    rs: Ed4Ruleset, state: FightState, sc: Scratch, dice: DiceSource, rider_id: str, altitude: int
) -> None:
    r = sc.get(rider_id)
    if not r.marks.get("mount"):
        return
    path = _landing(state, sc, rider_id, r.pos)
    sc.emit(
        ev.Marked(rider_id, "mount", None, mounted.FALL),
        ev.Moved(rider_id, path, "fall", None, 0, mounted.FALL),
        ev.Note(f"{r.name} falls off the mount", rider_id, mounted.FALL),
    )
    if "knocked-down" not in r.conditions:
        sc.emit(ev.ConditionAdded(rider_id, "knocked-down", None, 3, "fall", mounted.FALL))
    step = aerial.falling_step(altitude) if altitude > 2 else mounted.FALL_STEP
    fall_damage(
        rs,
        sc,
        dice,
        rider_id,
        step or mounted.FALL_STEP,
        mounted.FALL if altitude <= 2 else aerial.FLYING_MOUNTS,
    )


def knocked_out_of_sky(rs: Ed4Ruleset, state: FightState, sc: Scratch, dice: DiceSource, cid: str) -> None:
    c = sc.get(cid)
    if state.options.get("long-falls"):
        sc.emit(
            ev.ConditionAdded(cid, "falling", None, c.altitude, "knocked out of the sky", aerial.LONG_FALLS)
        )
        sc.emit(ev.Note(f"{c.name} plummets from {c.altitude} yards", cid, aerial.LONG_FALLS))
        return
    fall(rs, state, sc, dice, cid, c.altitude, aerial.KNOCKED_OUT, final=True)


def fall(
    rs: Ed4Ruleset,
    state: FightState,
    sc: Scratch,
    dice: DiceSource,
    cid: str,
    drop: int,
    rule: str,
    final: bool,
) -> None:
    c = sc.get(cid)
    new_alt = max(0, c.altitude - drop)
    total_fall = c.marks.get("fallen", 0) + drop
    sc.emit(ev.Moved(cid, (), "fall", None, new_alt, rule))
    if not final and new_alt > 0:
        sc.emit(ev.Marked(cid, "fallen", total_fall, rule))
        return
    sc.emit(ev.Marked(cid, "fallen", None, rule))
    if "falling" in c.conditions:
        sc.emit(ev.ConditionRemoved(cid, "falling", "hits the ground", rule))
    step = aerial.falling_step(total_fall)
    sc.emit(ev.Note(f"{c.name} falls {total_fall} yards to the ground", cid, rule))
    if step:
        fall_damage(rs, sc, dice, cid, step, rule)


def fall_damage(rs: Ed4Ruleset, sc: Scratch, dice: DiceSource, cid: str, step: int, rule: str) -> None:
    res = run_test(dice, rs.edition, step, (), None, None, sc.get(cid).name, "Falling damage")
    sc.emit(rolled_event(cid, f"Falling damage (Step {step})", res, rule, cid))
    if sc.get(cid).status != "dead":
        damage_events(
            sc,
            rs.edition,
            dice,
            cid,
            res.total,
            0,
            None,
            damage_type="falling",
            round_no=sc.state.round,
        )


def leap_off(
    rs: Ed4Ruleset, state: FightState, sc: Scratch, dice: DiceSource, rider_id: str, target_id: str
) -> None:
    r = sc.get(rider_id)
    t = sc.get(target_id)
    sc.emit(
        ev.Marked(rider_id, "mount", None, mounted.JUMP_OFF),
        ev.Moved(rider_id, _landing(state, sc, rider_id, t.pos), "leap", None, 0, mounted.JUMP_OFF),
        ev.Note(f"{r.name} throws himself off the mount onto {t.name}", rider_id, mounted.JUMP_OFF),
    )
    fall_damage(rs, sc, dice, rider_id, mounted.FALL_STEP, mounted.JUMP_OFF)
