"""Spells & Swords many on one and big on small: LARGE CREATURE ATTACKS, DOG PILE, HORDE ATTACK and
breaking free of a grapple or pile."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.rules.base import Modifier
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Check, Save, roll_penalties, save, save_bonuses, skill_check
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import tables


def save_vs_crush(f: Fighter, dice: DiceSource) -> Save:
    """LARGE CREATURE ATTACKS: Save vs Crush using Swift and Dodge bonuses; success moves the fighter out of
    the way."""
    mods = [
        Modifier(f.stats.swift, "Swift", rule("large-creature-attacks")),
        Modifier(f.stats.dodge, "Dodge", rule("large-creature-attacks")),
    ]
    return save(
        f,
        [m for m in mods if m.value] + save_bonuses(f.stats, ("crush",)) + roll_penalties(f, "save"),
        dice,
        "save vs crush",
    )


def large_creature(att: Fighter, dfn: Fighter) -> bool:
    """A Large creature (setting large_creature_min_size) this many size classes bigger (setting
    large_creature_sizes) makes Large Creature Attacks."""
    s = att.in_force
    big = att.stats.size_index >= s.large_creature_min_size
    return big and att.stats.size_index - dfn.stats.size_index >= s.large_creature_sizes


def dog_pile_bonus(attackers: int) -> int:
    """DOG PILE: Brawl +1 for every 2 attackers on the pile."""
    c = tables().combat
    return attackers // c.num("dog_pile", "per_attackers") * c.num("dog_pile", "bonus")


def horde_bonus(attackers: int) -> int:
    """HORDE ATTACK: Attack +1 and Damage +1 per 2 attackers."""
    c = tables().combat
    return attackers // c.num("horde", "per_attackers") * c.num("horde", "attack")


def break_free(f: Fighter, pile_bonus: int, dice: DiceSource) -> Check:
    """Breaking a grapple or Dog Pile (setting break_check): Strength check minus the pile's Brawl bonus."""
    mods = [Modifier(f.stats.strength, "Strength", setting("break_check"))]
    if f.stats.skill("escape-artist"):
        mods.append(Modifier(f.stats.skill("escape-artist"), "Escape Artist", rule("immobilized")))
    if pile_bonus:
        mods.append(Modifier(-pile_bonus, "the pile's Brawl bonus", rule("dog-pile")))
    return skill_check(f.in_force.break_check, mods + roll_penalties(f, "check"), dice, "break free")
