"""The attack roll (B365-369, B397): the skill and every modifier that makes it, each explained."""

from __future__ import annotations

from typing import Any

from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import core, data, mounted
from fracas.rules.gurps4.figure import S, mount_of, move_now, shock_now
from fracas.rules.gurps4.geometry import range_yards
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.riding import riding_skill
from fracas.rules.gurps4.stats import Attack

# ---------------------------------------------------------------------------------------- attack skill


def weapon_skill(a: Combatant, attack: Attack) -> int:
    st = S(a)
    if attack.natural and st.mount:
        return st.skills.get(attack.skill_name, st.dx)
    if attack.natural and attack.skill_name == "Brawling":
        return max(st.skills.get("Brawling", st.dx), st.dx)
    return st.skill(attack.skill_name)


def _ranged_modifiers(
    a: Combatant, t: Combatant, attack: Attack, mount: Combatant | None, args: dict[str, Any]
) -> list[Modifier]:
    """A ranged attack's own modifiers: Aim (the turns a moving mount lets count, B397), the Speed/Range
    Table (B550), a target lying down (B551)."""
    out: list[Modifier] = []
    rng = data.weapons()[attack.weapon].ranged
    assert rng is not None
    aim = a.marks.get("aim")
    if aim and aim[0] == t.id and aim[1] == attack.weapon:
        turns = int(aim[2])
        if mount is not None:
            turns = mounted.aim_turns_that_count(
                turns, int(mount.marks.get("moved_last_turn", 0)), move_now(mount)
            )
        out += core.aim_bonus(rng.acc, turns)
    pen = core.speed_range_penalty(range_yards(a, t))
    if pen:
        out.append(mod(pen, f"range {range_yards(a, t)} yd", "gurps4/core/speed-range", "B550"))
    tp = core.posture(t.marks.get("posture", "standing")).target
    loc = args.get("location", "torso")
    if tp and loc in ("torso", "groin", "right_leg", "left_leg", "foreleg", "hind_leg"):
        out.append(mod(tp, f"target {t.marks.get('posture')}", "gurps4/core/posture", "B551"))
    return out


def attack_roll_parts(
    state: FightState, a: Combatant, t: Combatant, attack: Attack, maneuver: str, args: dict[str, Any]
) -> tuple[int, list[Modifier], tuple[int, Modifier] | None]:
    """Base skill, modifiers and cap of one attack, every one explained."""
    st = S(a)
    base = weapon_skill(a, attack)
    bulk = data.weapons()[attack.weapon].ranged.bulk if attack.ranged else 0  # type: ignore[union-attr]
    mods, cap = core.attack_modifiers(maneuver, ranged=attack.ranged, bulk=bulk)
    mount = mount_of(state, a)
    if mount is not None and not attack.natural:
        # the lower of the weapon skill and Riding is the skill every modifier then adds to (002 p.B397:
        # "uses melee weapons at the lower of his Melee Weapon skill or Riding skill"; ranged the same): the
        # maneuver's +4, shock and the rest change the lower skill, not a sum capped at Riding
        _, m = mounted.mounted_skill(base, riding_skill(state, a))
        mods = [*m, *mods]
    if attack.skill_modifier:
        mods.append(mod(attack.skill_modifier, attack.name, "gurps4/core/damage", "B271"))
    if st.st < attack.min_st:
        mods.append(
            mod(
                st.st - attack.min_st,
                f"ST {st.st} below the weapon's minimum {attack.min_st}",
                "gurps4/core/minimum-st",
                "B270",
            )
        )
    mods += shock_now(a)
    posture = core.posture(a.marks.get("posture", "standing"))
    if not attack.ranged and posture.melee:
        mods.append(mod(posture.melee, a.marks.get("posture", ""), "gurps4/core/posture", "B551"))
    if st.shield and data.armor_file().shields[st.shield].attack_penalty:
        mods.append(
            mod(
                data.armor_file().shields[st.shield].attack_penalty,
                "large shield",
                "gurps4/core/shield",
                "B287",
            )
        )
    if mount is not None and not attack.natural:
        p = mounted.rider_after_mount_attack(bool(mount.marks.get("attacked_last_turn")))
        if p:
            mods.append(p)
        if not attack.ranged:
            hit, _ = mounted.velocity_modifiers(int(mount.marks.get("moved_last_turn", 0)))
            if attack.couchable and not state.options.get("velocity_with_couched_lance", True):
                hit = []
            mods += hit
        trick_name = args.get("trick")
        if trick_name:
            mods.append(mounted.trick(trick_name)[0])
    ev_mark = a.marks.get("evaluate")
    if ev_mark and ev_mark[0] == t.id and not attack.ranged:
        b = core.evaluate_bonus(int(ev_mark[1]))
        if b:
            mods.append(b)
    if attack.ranged:
        mods += _ranged_modifiers(a, t, attack, mount, args)
    if S(t).sm:
        mods.append(mod(S(t).sm, f"target's SM {S(t).sm:+d}", "gurps4/core/size-modifier", "B19"))
    loc = args.get("location", "torso")
    if loc != "torso":
        lp = core.location_penalty(loc, S(t).body)
        if lp:
            mods.append(lp)
    dec = int(args.get("deceptive", 0))
    if dec:
        mods.append(
            mod(-2 * dec, f"Deceptive Attack (-{dec} to the defense)", "gurps4/core/deceptive-attack", "B369")
        )
    return base, mods, cap
