"""Spells & Swords moving in a fight: ZONE OF CONTROL RULE, CHARGE RULES, MOUNTED COMBAT, a fighter's
spaces of movement and the Stand Up action."""

from __future__ import annotations

from collections.abc import Iterable

from fracas.dice.source import DiceSource
from fracas.rules.base import Modifier
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Check, roll_penalties, skill_check
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


def zone_of_control_blocks(f: Fighter, adjacent_foes: Iterable[Fighter]) -> bool:
    """ZONE OF CONTROL RULE: engaged in HTH a fighter cannot move except to Disengage, unless it is 3+
    size classes bigger than its opponent (every adjacent one)."""
    exempt = tables().combat.num("zone_of_control", "exempt_size_classes")
    foes = [g for g in adjacent_foes if not g.out]
    return any(f.stats.size_index - g.stats.size_index < exempt for g in foes)


def can_charge(f: Fighter, adjacent_foes: int, hidden: bool = False) -> str | None:
    """CHARGE RULES: None if the fighter may charge, else the reason it may not (Fatigued, Encumbered, a
    Hurt or Broken Leg, Knee or Foot, and so a lost leg (MAJOR WOUND TABLE 4 Lost Limb, Move -4); adjacent to
    a foe; not with an Ambush or Surprise attack)."""
    if f.has("fatigued"):
        return "Fatigued"
    if f.has("encumbered"):
        return "Encumbered"
    if "leg" in f.lost:
        return "has lost a leg"
    for part in ("leg", "knee", "foot"):
        if part in f.hurt or part in f.broken:
            return f"{part} hurt or broken"
    if adjacent_foes:
        return "already adjacent to a foe"
    if hidden:
        return "charges cannot be combined with Ambushes or Surprise Attacks"
    return None


def mounted_ok(f: Fighter) -> bool:
    """MOUNTED COMBAT requires Ride +2 or greater: a rider below that gets none of its bonuses."""
    return bool(f.mounted_on) and f.stats.skill("ride") >= tables().combat.num("mounted", "min_ride")


def mount_swift(rider: Fighter) -> int:
    """MOUNTED COMBAT: the mount gets Swift +1 (and Save vs Fear +1) per level of the rider's Ride."""
    return rider.stats.skill("ride") * tables().combat.num("mounted", "swift_per_ride")


def movement(f: Fighter, underwater: bool = False, speed: float = 1.0, charge: bool = False) -> int:
    """Spaces a fighter may move: Movement Rating + Swift (setting swift_movement per level), times the
    action's speed, halved when Blinded or Chilled, underwater for non-aquatic bipeds (with armor Swift -2
    and shields Swift -1), minus hurt/broken leg penalties; Charge adds Swift +2, a Rout Swift +2."""
    t = tables()
    s = f.in_force
    swift = f.stats.swift
    if charge:
        swift += t.combat.num("charge", "swift")
    if f.has("routed"):
        swift += t.combat.num("disengage", "rout_swift")
    if underwater and not f.stats.aquatic:
        if f.stats.armor_class != "none":
            swift += t.combat.num("underwater", "armor_swift")
        if f.stats.shield != "none":
            swift += t.combat.num("underwater", "shield_swift")
    base = f.stats.movement + swift * s.swift_movement
    for part in f.hurt:
        if part in t.wounds.hurt.move_parts:
            base += t.wounds.hurt.move
    for part in f.broken:
        if part in t.wounds.broken.move_parts:
            base += t.wounds.broken.move
    base += f.next.get("move", 0)
    spaces = base * speed
    if f.has("blinded") or f.has("chill"):
        spaces /= 2
    if underwater and not f.stats.aquatic:
        spaces *= t.combat.num("underwater", "biped_speed")
    if f.has("immobilized") or f.has("knocked-out") or f.has("staggered"):
        return 0
    return max(int(spaces), 0 if speed == 0 else 1)


def stand_up(f: Fighter, adjacent_foes: int, dice: DiceSource, slippery: bool = False) -> Check:
    """Stand Up: an Easy check modified by Swift, -2 per adjacent foe and for slippery ground."""
    a = tables().combat.actions["stand-up"]
    mods = [Modifier(f.stats.swift, "Swift", rule("actions", "stand-up"))]
    if adjacent_foes:
        mods.append(
            Modifier(
                a.per_adjacent_foe * adjacent_foes,
                f"{adjacent_foes} adjacent foes",
                rule("actions", "stand-up"),
            )
        )
    if slippery:
        mods.append(Modifier(a.slippery_ground, "Slippery ground", rule("actions", "stand-up")))
    return skill_check(
        a.check or "easy", [m for m in mods if m.value] + roll_penalties(f, "check"), dice, "stand up"
    )
