"""Damage and injury (B377-381, B419-420; text 002 p.B397): the damage dice, the hit, and every consequence of
injury (shock, knockdown and stun, crippling, death checks, knockback, a rider unseated)."""

from __future__ import annotations

from fracas.engine import events as ev
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import mods_json
from fracas.rules.gurps4 import core, data, mounted
from fracas.rules.gurps4.dice import DamageDice, parse_dice, roll_3d6
from fracas.rules.gurps4.figure import S, Work, flying, hp_now, mount_of, rider_of, shock_now
from fracas.rules.gurps4.geometry import path_towards
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.riding import mount_loses_control, riding_base, spook, stay_on, unhorse
from fracas.rules.gurps4.stats import Attack, GurpsStats

# ---------------------------------------------------------------------------------------- damage


def damage_dice(
    state: FightState, a: Combatant, attack: Attack
) -> tuple[DamageDice, str, list[Modifier], bool]:
    """(dice, damage type, damage modifiers, couched) of an attack."""
    st = S(a)
    mods: list[Modifier] = []
    mount = mount_of(state, a)
    dtype = attack.damage_type
    couched = False
    if attack.natural and st.mount:
        dice = parse_dice(attack.damage)
        hb = mounted.horseshoe_bonus(attack.name, st.iron_horseshoes)
        if hb:
            mods.append(hb)
    elif (
        attack.couchable
        and mount is not None
        and int(mount.marks.get("moved_last_turn", 0)) > 0
        and st.saddle_and_stirrups
    ):
        dice = mounted.couched_lance_dice(S(mount).st, int(mount.marks["moved_last_turn"]))
        couched = True
    else:
        dice = core.weapon_damage(st.st, attack.damage)
    if mount is not None and not attack.ranged and not attack.natural:
        _, dm = mounted.velocity_modifiers(int(mount.marks.get("moved_last_turn", 0)))
        if couched and not state.options.get("velocity_with_couched_lance", True):
            dm = []
        mods += dm
    return dice, dtype, mods, couched


def couched_why(state: FightState, rider: Combatant) -> str:
    """`` (couched lance: mount ST 25 x 8 yd / 100 = 2 dice, +3)`` (B397)."""
    m = mount_of(state, rider)
    if m is None:
        return ""
    st, yards = S(m).st, int(m.marks.get("moved_last_turn", 0))
    return (
        f" (couched lance: mount ST {st} x {yards} yd moved last turn / 100 = {st * yards // 100} dice, +3)"
    )


CRIT_EFFECTS = {
    3: "triple",
    18: "triple",
    4: "dr_half",
    17: "dr_half",
    5: "double",
    16: "double",
    6: "max",
    15: "max",
    7: "major",
    13: "major",
    14: "major",
    8: "double_shock",
    12: "drop",
}


def apply_hit(
    w: Work,
    a: Combatant,
    t: Combatant,
    attack: Attack,
    location: str,
    maneuver: str,
    critical: bool,
) -> None:
    """Roll damage and apply injury and every consequence (B377-381, B419-420; text 002 p.B397)."""
    dice, dtype, dmods, couched = damage_dice(w.state, a, attack)
    if maneuver == "all_out_attack_strong":
        dmods.append(core.strong_attack_bonus(dice))
    crit = None
    if critical and w.option("critical_hit_table"):
        faces = roll_3d6(w.dice, "Critical Hit Table")
        crit = CRIT_EFFECTS.get(sum(faces))
        w.note(
            f"Critical Hit Table: {sum(faces)} ({'+'.join(map(str, faces))}): {crit or 'normal damage'}",
            a.id,
            "gurps4/core/critical-hit B556",
        )
    dr_ = core.roll_damage(dice, dtype, w.dice, dmods)
    basic = dr_.basic
    if crit == "max":
        basic = max(data.wounding()[dtype].min_basic, dice.maximum + sum(m.value for m in dmods))
    elif crit == "double":
        basic *= 2
    elif crit == "triple":
        basic *= 3
    w.emit(
        ev.Rolled(
            a.id,
            f"damage{couched_why(w.state, a) if couched else ''}",
            basic,
            {"dice": [[-6, f] for f in dr_.faces], "total": basic, "modifier": dice.adds},
            expr=f"{dice} {dtype}",
            target=t.id,
            outcome=dtype,
            modifiers=mods_json(dmods),
            rule="gurps4/mounted/couched-lance B397" if couched else "gurps4/core/damage B378",
        )
    )
    if attack.jousting:
        basic, snapped = mounted.jousting_lance(basic)
        if snapped:
            w.note(
                f"{a.name}'s jousting lance snaps: damage limited to {basic}",
                a.id,
                "gurps4/mounted/jousting-lance B397",
            )
            broken = tuple(a.marks.get("broken", ())) + (attack.weapon,)
            w.mark(a, "broken", broken, "gurps4/mounted/jousting-lance B397")
            if a.marks.get("wielding") == attack.weapon:
                w.mark(a, "wielding", None, "gurps4/mounted/jousting-lance B397")
    ts = S(t)
    dr = ts.dr_at(location, dtype)
    if crit == "dr_half":
        dr = dr // 2
    inj = core.injury_from(
        basic,
        dtype,
        ts.hp,
        dr,
        location,
        ts.body,
        flexible_armor=location in ts.flexible,
        minimum_one=bool(w.option("minimum_injury_one")),
    )
    before = hp_now(t)
    if inj.injury:
        w.emit(
            ev.Damaged(
                t.id,
                inj.injury,
                a.id,
                "injury",
                basic,
                inj.dr,
                dtype,
                f"gurps4/core/damage/dr B378-379 (x{inj.multiplier:g} {dtype} at {location})",
            )
        )
    else:
        w.note(f"{t.name}'s DR {inj.dr} stops the blow", t.id, "gurps4/core/damage/dr B378")
    for n in inj.notes:
        w.note(n, t.id, "gurps4/core/damage/dr B379")
    after_injury(w, a, t, inj, basic, dtype, before, crit)
    if crit == "drop" and t.active and not S(t).mount and t.marks.get("wielding"):
        w.note(
            f"{t.name} drops {t.marks['wielding']} (Critical Hit Table 12)",
            t.id,
            "gurps4/core/critical-hit B556",
        )
        w.mark(t, "unready", 1, "gurps4/core/critical-hit B556")


def after_injury(
    w: Work,
    a: Combatant,
    t: Combatant,
    inj: core.Injury,
    basic: int,
    dtype: str,
    before: int,
    crit: str | None,
) -> None:
    ts = S(t)
    now = hp_now(t)
    rider = rider_of(w.state, t)
    _shock(w, a, t, inj, ts, crit)
    if inj.injury and t.active and t.marks.get("aim"):
        # hurt while aiming: a Will roll or the Aim is lost (B364; reference 1.3)
        r = core.success_roll("Will (keep the Aim)", ts.will, [], w.dice)
        w.rolled(t.id, r, rule="gurps4/core/maneuver/aim B364")
        if not r.success:
            w.mark(t, "aim", None, "gurps4/core/maneuver/aim B364")
    if rider is not None and rider.active:
        # "If the mount is hit": any hit, also one its DR stops (no shock then), calls for the rider's Riding
        # minus the mount's shock, or it spooks (002 p.B397)
        base, rmods = riding_base(w.state, rider)
        # "minus the shock penalty suffered by the mount": all of it, this hit's and the turn's before (B419)
        suffered = t.conditions["shock"].value if "shock" in t.conditions else 0
        r = mounted.mount_hit_spook_roll(base, suffered, rmods, w.dice)
        w.rolled(rider.id, r, rule="gurps4/mounted/results B397")
        if not r.success:
            spook(w, t, "hit")
    if inj.crippled:
        w.mark(
            t, "crippled", tuple(t.marks.get("crippled", ())) + (inj.location,), "gurps4/core/crippling B420"
        )
    fallen = _knockdown(w, a, t, inj, ts, crit)
    if inj.crippled and ts.mount and inj.location in ("foreleg", "hind_leg", "foot") and not fallen:
        # after the knockdown roll the crippling calls for at once (B420): the crippled mount falls (B397)
        mount_loses_control(w, t, mounted.crippled_mount_falls(), "crippled mount falls")
    # death checks (B419)
    for k_ in core.death_checks_crossed(before, now, ts.hp):
        if not t.active and t.status != "unconscious":
            break
        r, outcome = core.death_check(ts.ht, w.dice)
        w.rolled(t.id, r, rule=f"gurps4/core/hp-thresholds B419 (-{k_}xHP)")
        if outcome != "alive":
            knocked_out(
                w, t, "dead" if outcome == "dead" else "mortally wounded", "gurps4/core/hp-thresholds B419"
            )
            break
    if core.automatically_dead(now, ts.hp) and t.status != "dead":
        knocked_out(w, t, "dead", "gurps4/core/hp-thresholds B419")
    _knockback(w, a, t, ts, inj, basic, dtype, rider)


def _shock(w: Work, a: Combatant, t: Combatant, inj: core.Injury, ts: GurpsStats, crit: str | None) -> None:
    """Shock (B419), doubled on critical hit 8 (max -8)."""
    shock = 0
    if inj.injury:
        shock = core.shock_penalty(inj.injury, ts.hp, ts.high_pain_threshold)
        cap = -4
        if crit == "double_shock":
            shock, cap = shock * 2, -8
        if shock:
            old = t.conditions["shock"].value if "shock" in t.conditions else 0
            # several hits add up, to the cap; a cap already passed (double shock, -8) is not undone
            total = max(min(cap, old), old + shock)
            w.emit(ev.ConditionAdded(t.id, "shock", None, total, a.id, "gurps4/core/shock B419"))


def _knockdown(
    w: Work, a: Combatant, t: Combatant, inj: core.Injury, ts: GurpsStats, crit: str | None
) -> bool:
    """The knockdown roll a major wound calls for (or a hit ``core.knockdown_needed`` names, B420): stunned
    (prone, drops what he holds; a rider may fall) or unconscious. True when he is a mount and fell."""
    fallen = False
    major = core.is_major_wound(inj.injury, ts.hp, inj.crippled) or (crit == "major" and inj.penetrating > 0)
    this_shock = core.shock_penalty(inj.injury, ts.hp, ts.high_pain_threshold)
    if t.active and (major or core.knockdown_needed(inj, ts.hp, this_shock, ts.body)):
        k = core.knockdown_roll(ts.ht, inj.location, major, w.dice, ts.body)
        w.rolled(t.id, k.roll, rule="gurps4/core/knockdown B420")
        if k.outcome == "stunned":
            w.emit(ev.ConditionAdded(t.id, "stunned", None, 0, a.id, "gurps4/core/knockdown B420"))
            w.mark(t, "stun_recovered", None)  # stunned again before the turn the last stun was to end
            if mount_of(w.state, t) is None and not flying(t):  # a rider who stays on, a flyer: not prone
                w.mark(t, "posture", "lying", "gurps4/core/knockdown B420")
            if not ts.mount and t.marks.get("wielding") and not t.marks.get("unready"):
                # ... and drops anything held (B420, reference 1.6): one Ready to take it up again
                w.note(
                    f"{t.name} drops {t.marks['wielding']} (failed knockdown roll)",
                    t.id,
                    "gurps4/core/knockdown B420",
                )
                w.mark(t, "unready", 1, "gurps4/core/knockdown B420")
            if ts.mount:
                mount_loses_control(w, t, mounted.crippled_mount_falls(), "knocked down")
                fallen = True
            elif mount_of(w.state, t) is not None:
                stay_on(
                    w,
                    t,
                    [mod(mounted.STUNNED_RIDER_RIDING, "stunned rider", "gurps4/mounted/results", "B397")],
                    "stunned: stay on",
                )
        elif k.outcome == "unconscious":
            knocked_out(w, t, "unconscious", "gurps4/core/knockdown B420")
    return fallen


def _knockback(
    w: Work,
    a: Combatant,
    t: Combatant,
    ts: GurpsStats,
    inj: core.Injury,
    basic: int,
    dtype: str,
    rider: Combatant | None,
) -> None:
    """Knockback (B378); riders are unseated (B397)."""
    yards = core.knockback_yards(basic, dtype, ts.st, inj.penetrating > 0)
    if yards and t.active:
        if mount_of(w.state, t) is not None:
            if not S(t).saddle_and_stirrups:
                unhorse(w, t, f"knockback {yards} yd without saddle and stirrups")
            else:
                stay_on(
                    w,
                    t,
                    [
                        mod(
                            mounted.KNOCKBACK_RIDING_PER_YARD * yards,
                            f"knockback {yards} yd",
                            "gurps4/mounted/results",
                            "B397",
                        )
                    ],
                    "knockback: stay on",
                )
        elif not ts.mount or rider is None:
            path = path_towards(w.state, t, a.pos or (0, 0), yards, away=True) if a.pos else []
            if path:
                w.emit(ev.Moved(t.id, tuple(path), "knockback", None, None, "gurps4/core/knockback B378"))
            r = core.knockback_fall_roll(ts.dx, yards, w.dice, shock_now(t))
            w.rolled(t.id, r, rule="gurps4/core/knockback B378")
            if not r.success:
                w.mark(t, "posture", "lying", "gurps4/core/knockback B378")


def knocked_out(w: Work, t: Combatant, status: str, rule: str) -> None:
    if t.status == status:
        return
    w.emit(ev.StatusChanged(t.id, status, rule))
    mount = mount_of(w.state, t)
    if mount is not None:
        if S(t).saddle == "war_saddle" and status == "unconscious":
            face = w.dice.roll(6, "war saddle: 50% to stay seated while unconscious")
            w.note(
                f"war saddle: d6 {face} ({'stays seated' if face <= 3 else 'falls'}; 50%)",
                t.id,
                "gurps4/gear/war-saddle B289",
            )
            if face <= 3:
                if mount.active and mount.marks.get("rider") == t.id and w.option("riderless_mounts_leave"):
                    w.emit(
                        ev.StatusChanged(mount.id, "riderless", "gurps4/mounted (GM's call: no one rides it)")
                    )
                return
        unhorse(w, t, status)
    if S(t).mount:
        for cid in (t.marks.get("passenger"), t.marks.get("rider")):
            if cid:
                unhorse(w, w.c(cid), f"the mount is {status}")
