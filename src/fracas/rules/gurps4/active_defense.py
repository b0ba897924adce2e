"""Active defenses (B374-377, B390-391, B402; reference/gurps.md 1.4): Dodge, Parry and Block scores, when a
defense is allowed, and every modifier to it. Pure."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.modifiers import Modifier, mod, total
from fracas.rules.gurps4.rolls import R_MANEUVER, SuccessRoll, maneuver, success_roll

# --------------------------------------------------------------------------------------------------
# Active defenses (B374-377)

R_DEFENSE = "gurps4/core/active-defense"
DefenseKind = Literal["dodge", "parry", "block"]


def dodge_score(
    basic_speed: float,
    encumbrance: int = 0,
    combat_reflexes: bool = False,
    reeling: bool = False,
) -> tuple[int, tuple[Modifier, ...]]:
    """Dodge = floor(Basic Speed) + 3, +1 Combat Reflexes, - encumbrance; halved below 1/3 HP (B374, B419)."""
    base = math.floor(basic_speed) + 3
    mods = []
    if combat_reflexes:
        mods.append(mod(1, "Combat Reflexes", f"{R_DEFENSE}/combat-reflexes", "B43"))
    if encumbrance:
        mods.append(mod(-encumbrance, f"encumbrance level {encumbrance}", f"{R_DEFENSE}/dodge", "B374"))
    value = base + total(mods)
    if reeling:
        half = math.ceil(value / 2)
        mods.append(mod(half - value, "below 1/3 HP: Dodge halved", "gurps4/core/hp-thresholds", "B419"))
        value = half
    return value, tuple(mods)


def parry_score(
    skill: int, weapon_parry: int = 0, combat_reflexes: bool = False
) -> tuple[int, tuple[Modifier, ...]]:
    """Parry = floor(skill/2) + 3 + the weapon's Parry modifier, +1 Combat Reflexes (B376)."""
    mods = []
    if weapon_parry:
        mods.append(mod(weapon_parry, "weapon's Parry", f"{R_DEFENSE}/parry", "B376"))
    if combat_reflexes:
        mods.append(mod(1, "Combat Reflexes", f"{R_DEFENSE}/combat-reflexes", "B43"))
    return skill // 2 + 3 + total(mods), tuple(mods)


def block_score(skill: int, combat_reflexes: bool = False) -> tuple[int, tuple[Modifier, ...]]:
    """Block = floor(Shield skill/2) + 3, +1 Combat Reflexes (B375)."""
    mods = []
    if combat_reflexes:
        mods.append(mod(1, "Combat Reflexes", f"{R_DEFENSE}/combat-reflexes", "B43"))
    return skill // 2 + 3 + total(mods), tuple(mods)


@dataclass(frozen=True, slots=True)
class DefenseSituation:
    """Everything about one defense that changes its value (B374-377, B390-391, B402)."""

    kind: DefenseKind
    maneuver: str = "do_nothing"  # the defender's current maneuver
    retreat: bool = False
    retreat_bonus_parry: int = 1  # +3 with a fencing weapon, Boxing, Judo or Karate
    posture: str = "standing"
    stunned: bool = False
    shield_db: int = 0
    direction: Literal["front", "side", "rear"] = "front"
    peripheral_vision: bool = False
    deceptive: int = 0  # the attacker's Deceptive Attack penalty (-2 per -1 to the defense)
    feint: int = 0  # what a won feint takes off
    earlier_parries: int = 0  # parries already made this turn with the same weapon
    fencing: bool = False
    height_above_attacker_ft: float = 0.0
    ranged_attack: bool = False
    dodge_and_drop: bool = False
    all_out_defense_bonus: int = 0
    extra: tuple[Modifier, ...] = field(default_factory=tuple)


def defense_allowed(s: DefenseSituation, unbalanced_parry_used: bool = False) -> None:
    """Raise IllegalCommand if the situation forbids this defense (B366, B377, B390)."""
    spec = maneuver(s.maneuver)
    if spec.defense == "none":
        raise IllegalCommand(f"no active defense after {s.maneuver}", f"{R_MANEUVER}/all-out-attack B365")
    if spec.defense == "dodge_block" and s.kind == "parry":
        raise IllegalCommand("no Parry after Move and Attack", f"{R_MANEUVER}/move-and-attack B365")
    if s.direction == "rear" and not s.peripheral_vision:
        raise IllegalCommand("no active defense against an attack from behind", f"{R_DEFENSE}/direction B391")
    if s.retreat:
        if not spec.retreat:
            raise IllegalCommand(f"no retreat after {s.maneuver}", f"{R_DEFENSE}/retreat B377")
        if s.posture in ("sitting", "kneeling") or s.stunned:
            raise IllegalCommand(
                f"no retreat while {'stunned' if s.stunned else s.posture}", f"{R_DEFENSE}/retreat B377"
            )
        if s.ranged_attack:
            raise IllegalCommand("retreat works against melee attacks only", f"{R_DEFENSE}/retreat B377")
    if s.dodge_and_drop and (s.kind != "dodge" or not s.ranged_attack):
        raise IllegalCommand(
            "Dodge and Drop is a Dodge against ranged attacks", f"{R_DEFENSE}/dodge-and-drop B377"
        )


def height_defense_modifier(height_above_ft: float) -> int:
    """Combat at Different Levels (B402): +1/+2/+3 to the higher fighter at 3/4/5+ ft, the same
    negative to the lower (reference 2, "Combat at Different Levels")."""
    h = abs(height_above_ft)
    if h < 3:
        return 0
    v = min(3, int(h) - 2)
    return v if height_above_ft > 0 else -v


def defense_modifiers(s: DefenseSituation) -> list[Modifier]:
    """The modifiers to an active defense, in the book's order, each with its rule (B374-377, B390-391)."""
    mods: list[Modifier] = []
    if s.retreat:
        if s.kind == "dodge" or (s.kind == "parry" and s.fencing):
            bonus = 3
        elif s.kind == "parry":
            bonus = s.retreat_bonus_parry
        else:
            bonus = 1
        mods.append(mod(bonus, "retreat", f"{R_DEFENSE}/retreat", "B377"))
    if s.dodge_and_drop:
        mods.append(mod(3, "Dodge and Drop", f"{R_DEFENSE}/dodge-and-drop", "B377"))
    if s.all_out_defense_bonus:
        mods.append(
            mod(
                s.all_out_defense_bonus,
                "All-Out Defense (Increased)",
                f"{R_MANEUVER}/all-out-defense",
                "B366",
            )
        )
    if s.shield_db and s.direction != "rear":
        mods.append(mod(s.shield_db, "shield Defense Bonus", f"{R_DEFENSE}/shield-db", "B287"))
    posture = data.postures()[s.posture]
    if posture.defense:
        mods.append(mod(posture.defense, f"{s.posture}", "gurps4/core/posture", "B551"))
    if s.stunned:
        mods.append(mod(-4, "stunned", "gurps4/core/stun", "B420"))
    if s.direction == "side" and not s.peripheral_vision:
        mods.append(mod(-2, "attack from the side", f"{R_DEFENSE}/direction", "B390"))
    if s.direction == "rear" and s.peripheral_vision:
        mods.append(mod(-2, "attack from behind (Peripheral Vision)", f"{R_DEFENSE}/direction", "B391"))
    if s.deceptive:
        mods.append(mod(-(s.deceptive // 2), "Deceptive Attack", f"{R_DEFENSE}/deceptive-attack", "B369"))
    if s.feint:
        mods.append(mod(-s.feint, "feinted", f"{R_MANEUVER}/feint", "B365"))
    if s.kind == "parry" and s.earlier_parries:
        per = -2 if s.fencing else -4
        mods.append(
            mod(
                per * s.earlier_parries,
                f"parry number {s.earlier_parries + 1} this turn",
                f"{R_DEFENSE}/multiple-parries",
                "B376",
            )
        )
    h = height_defense_modifier(s.height_above_attacker_ft)
    if h:
        mods.append(
            mod(
                h,
                f"{abs(s.height_above_attacker_ft):g} ft {'above' if h > 0 else 'below'} the attacker",
                "gurps4/core/different-levels",
                "B402",
            )
        )
    mods.extend(s.extra)
    return mods


def defense_roll(
    what: str,
    base: int,
    base_mods: Iterable[Modifier],
    situation: DefenseSituation,
    dice: DiceSource,
) -> SuccessRoll:
    """Roll an active defense (B374): allowed? then 3d6 against the defense with all modifiers."""
    defense_allowed(situation)
    mods = list(base_mods)
    return success_roll(what, base - total(mods), [*mods, *defense_modifiers(situation)], dice, "defense")
