"""Damage, DR and injury (B377-381), HP thresholds (B419), knockback (B378), hit locations, SM and range
(B398-400, B550-552; reference/gurps.md 1.5-1.9). Pure."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.dice import DamageDice, roll_3d6, roll_damage_dice
from fracas.rules.gurps4.modifiers import Modifier, mod, total
from fracas.rules.gurps4.rolls import SuccessRoll, success_roll

# --------------------------------------------------------------------------------------------------
# Damage, DR and injury (B377-381)

R_DAMAGE = "gurps4/core/damage"


@dataclass(frozen=True, slots=True)
class DamageRoll:
    dice: DamageDice
    faces: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    damage_type: str
    basic: int


def roll_damage(
    dice: DamageDice, damage_type: str, source: DiceSource, modifiers: Iterable[Modifier] = ()
) -> DamageRoll:
    """Basic damage: the roll plus adds and modifiers; at least 0 crushing, 1 otherwise (B378)."""
    mods = tuple(modifiers)
    faces, raw = roll_damage_dice(dice, source, f"damage {dice}")
    floor = data.wounding()[damage_type].min_basic
    return DamageRoll(dice, faces, mods, damage_type, max(floor, raw + total(mods)))


@dataclass(frozen=True, slots=True)
class Injury:
    basic: int
    dr: int
    penetrating: int
    multiplier: float
    injury: int
    location: str
    crippled: bool = False
    blunt_trauma: int = 0
    notes: tuple[str, ...] = ()


def wounding_multiplier(damage_type: str, location: data.HitLocation | None) -> float:
    """The wounding modifier of a damage type at a hit location (B379, B398-400)."""
    mult = data.wounding()[damage_type].multiplier
    if location is not None:
        if damage_type in location.multiplier:
            mult = location.multiplier[damage_type]
        if damage_type in location.cap:
            mult = min(mult, location.cap[damage_type])
    return mult


def injury_from(
    basic: int,
    damage_type: str,
    hp: int,
    dr: int = 0,
    location: str = "torso",
    body: str = "humanoid",
    armor_divisor: float = 1,
    flexible_armor: bool = False,
    minimum_one: bool = True,
) -> Injury:
    """Penetrating damage = basic - DR (divided by the armor divisor), times the wounding modifier of the
    type at the location, rounded down; crippling caps the injury (B378-381, B420; reference 1.5-1.6).

    ``minimum_one``: any penetrating damage does at least 1 HP of injury (B379; reference marks it
    UNVERIFIED, so it is an option of the ruleset, on by default).
    """
    loc = data.hit_locations(body)[location]
    if loc.only_types and damage_type not in loc.only_types:
        raise IllegalCommand(
            f"{damage_type} damage cannot target the {location}", f"{R_DAMAGE}/hit-location B399"
        )
    eff_dr = (
        math.floor((dr + loc.extra_dr) / armor_divisor)
        if armor_divisor >= 1
        else math.floor(max(1, dr + loc.extra_dr) / armor_divisor)
    )
    pen = max(0, basic - eff_dr)
    mult = wounding_multiplier(damage_type, loc)
    inj = math.floor(pen * mult)
    notes = []
    if pen > 0 and inj == 0 and minimum_one:
        inj = 1
        notes.append("at least 1 HP of injury when damage penetrates (B379)")
    crippled = False
    if loc.cripple_divisor and inj > hp / loc.cripple_divisor:
        crippled = True
        cap = math.floor(hp / loc.cripple_divisor) + 1
        if inj > cap:
            notes.append(f"crippled: injury past {cap} is lost (B420)")
            inj = cap
    blunt = 0
    if pen == 0 and flexible_armor and basic > 0:
        blunt = (
            basic // 5
            if damage_type == "cr"
            else basic // 10
            if damage_type in ("cut", "imp", "pi-", "pi", "pi+", "pi++")
            else 0
        )
        if blunt:
            notes.append(f"blunt trauma {blunt} through flexible armor (B379)")
    return Injury(basic, eff_dr, pen, mult, inj + blunt, location, crippled, blunt, tuple(notes))


def shock_penalty(injury: int, hp: int, high_pain_threshold: bool = False) -> int:
    """Shock: -1 per HP of injury (per HP/10 at HP 20+), at most -4, next turn only (B419)."""
    if high_pain_threshold or injury <= 0:
        return 0
    return -min(4, injury // max(1, hp // 10))


def is_major_wound(injury: int, hp: int, crippled: bool = False) -> bool:
    """More than HP/2 from one blow, or any crippling injury (B420)."""
    return crippled or injury > hp / 2


def knockdown_needed(injury: Injury, hp: int, shock: int, body: str = "humanoid") -> bool:
    """HT roll after a major wound, or a head/vitals hit that causes shock (B420)."""
    loc = data.hit_locations(body).get(injury.location)
    head = bool(loc and loc.shock_knockdown)
    return is_major_wound(injury.injury, hp, injury.crippled) or (head and shock < 0)


KnockdownOutcome = Literal["fine", "stunned", "unconscious"]


@dataclass(frozen=True, slots=True)
class Knockdown:
    roll: SuccessRoll
    outcome: KnockdownOutcome


def knockdown_roll(
    ht: int, location: str, major: bool, dice: DiceSource, body: str = "humanoid"
) -> Knockdown:
    """HT roll: failure = stunned, prone, drops what it holds; failure by 5+ or critical = unconscious
    (B420). -5 for a major wound to face/vitals, -10 to skull/eye."""
    loc = data.hit_locations(body)[location]
    mods = []
    if major and loc.knockdown_major:
        mods.append(
            mod(loc.knockdown_major, f"major wound to the {location}", "gurps4/core/knockdown", "B420")
        )
    r = success_roll("HT (knockdown and stun)", ht, mods, dice)
    if r.success:
        return Knockdown(r, "fine")
    return Knockdown(r, "unconscious" if r.margin <= -5 or r.critical else "stunned")


def stun_recovery(ht: int, dice: DiceSource) -> SuccessRoll:
    """A stunned figure rolls HT at the end of each turn to recover (B420)."""
    return success_roll("HT (recover from stun)", ht, [], dice)


# --------------------------------------------------------------------------------------------------
# HP thresholds (B419): reeling, consciousness, death checks


def reeling(current_hp: int, hp: int) -> bool:
    """Below 1/3 HP: halve Move and Dodge, rounding up (B419)."""
    return current_hp < hp / 3


def consciousness_check_needed(current_hp: int) -> bool:
    return current_hp <= 0


def consciousness_roll(ht: int, current_hp: int, hp: int, dice: DiceSource) -> SuccessRoll:
    """At 0 HP or less: HT roll each turn at -1 per full multiple of HP below zero, or fall unconscious."""
    mods = []
    multiples = (-current_hp) // hp if current_hp < 0 else 0
    if multiples:
        mods.append(mod(-multiples, f"{multiples}x HP below zero", "gurps4/core/hp-thresholds", "B419"))
    return success_roll("HT (stay conscious)", ht, mods, dice)


def death_checks_crossed(old_hp: int, new_hp: int, hp: int) -> list[int]:
    """Multiples k (1..4) of -k x HP crossed going from ``old_hp`` to ``new_hp`` (B419)."""
    return [k for k in range(1, 5) if old_hp > -k * hp >= new_hp]


DeathOutcome = Literal["alive", "mortal_wound", "dead"]


def death_check(ht: int, dice: DiceSource) -> tuple[SuccessRoll, DeathOutcome]:
    """HT roll or die; failing by 1 or 2 is a mortal wound instead (B419, reference 1.6)."""
    r = success_roll("HT (death check)", ht, [], dice)
    if r.success:
        return r, "alive"
    return r, "mortal_wound" if r.margin >= -2 and not r.critical else "dead"


def automatically_dead(current_hp: int, hp: int) -> bool:
    """-5 x HP: dead (B419)."""
    return current_hp <= -5 * hp


# --------------------------------------------------------------------------------------------------
# Knockback (B378)


def knockback_yards(basic: int, damage_type: str, st: int, penetrated: bool) -> int:
    """Crushing, or cutting that fails to penetrate: basic damage / (ST - 2) yards, rounded down; ST below
    3 counts 1 (B378; reference 1.7)."""
    if not (damage_type == "cr" or (damage_type == "cut" and not penetrated)):
        return 0
    return basic // max(1, st - 2) if st >= 3 else basic


def knockback_fall_roll(
    best_of_dx_acrobatics_judo: int, yards: int, dice: DiceSource, extra: Iterable[Modifier] = ()
) -> SuccessRoll:
    """Knocked back: roll the best of DX, Acrobatics or Judo at -(yards-1) or fall down (B378); ``extra``:
    what else changes the roll (shock on the figure's own turn, B419)."""
    mods = [mod(-(yards - 1), f"knockback {yards} yd", "gurps4/core/knockback", "B378")] if yards > 1 else []
    mods += list(extra)
    return success_roll("DX (stay standing after knockback)", best_of_dx_acrobatics_judo, mods, dice)


# --------------------------------------------------------------------------------------------------
# Hit locations, SM, range (B398-400, B550-552)


def random_hit_location(dice: DiceSource, body: str = "humanoid") -> tuple[int, str]:
    """Roll 3d on the hit location table (B552)."""
    roll = sum(roll_3d6(dice, "hit location"))
    for name, loc in data.hit_locations(body).items():
        if roll in loc.roll:
            return roll, name
    raise AssertionError("hit location table covers 3..18")  # checked at load


def location_penalty(location: str, body: str = "humanoid", shield_side: bool = False) -> Modifier | None:
    """The to-hit penalty for aiming at a location (B398-399); shield arm -4, shield hand -8."""
    loc = data.hit_locations(body)[location]
    v = loc.penalty_shield if shield_side and loc.penalty_shield is not None else loc.penalty
    return (
        mod(v, f"aimed at the {location.replace('_', ' ')}", "gurps4/core/hit-location", "B398")
        if v
        else None
    )


def size_modifier(longest_yards: float) -> int:
    """SM from the longest dimension (B19, B550): the first row that covers it; the series is x10 per 6."""
    series = [(y, sm) for y, sm in data.size_table().size_modifier]
    k = 0
    while True:
        for y, sm in series:
            if longest_yards <= y * 10**k + 1e-9:
                return sm + 6 * k
        k += 1


def speed_range_penalty(yards: float) -> int:
    """Speed/Range penalty (B550): 2 yd 0, 3 -1, 5 -2, 7 -3, 10 -4, 15 -5, 20 -6, ... (x10 per 6 steps)."""
    rows = data.size_table().speed_range
    for y, pen in rows:
        if yards <= y:
            return pen
    base = [(2, 0), (3, -1), (5, -2), (7, -3), (10, -4), (15, -5)]
    k = 1
    while True:
        for y, pen in base:
            if yards <= y * 10**k:
                return pen - 6 * k
        k += 1


def posture(name: str) -> data.Posture:
    table = data.postures()
    if name not in table:
        raise IllegalCommand(
            f"unknown posture {name!r}; known: {', '.join(table)}", "gurps4/core/posture B551"
        )
    return table[name]
