"""Spells & Swords damage: DAMAGE, DAMAGE TABLE and DAMAGE TABLE MODIFIER LIST, INSTANT DEATH, Minions
(reference 2.6)."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.attack import Situation, weapon_of, weapon_used
from fracas.rules.sas.procedures.brawl import brawl_effects
from fracas.rules.sas.procedures.movement import mounted_ok
from fracas.rules.sas.procedures.rolls import Effect, TableRoll, roll_penalties
from fracas.rules.sas.procedures.wounds import light_wound, major_wound, major_wound_prone, roll_fumble, shock
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import Weapon, tables


def _weapon_class(sit: Situation, weapon: Weapon) -> list[Modifier]:
    """DAMAGE TABLE MODIFIER LIST: the weapon class's line, or the Unarmed Strikes, Grappling line for a
    brawl or Dog Pile (with a Random Brawl Attacks row's own Damage)."""
    t = tables()
    out: list[Modifier] = []
    if sit.brawl is not None or sit.brawl_plain or sit.dog_pile:
        wc = t.damage.weapon_classes["brawl"]
        out.append(Modifier(wc.value, wc.label, rule("damage-modifiers", "brawl")))
        if sit.brawl is not None and sit.brawl.damage:
            out.append(Modifier(sit.brawl.damage, sit.brawl.label, rule("random-brawl", sit.brawl.id)))
    else:
        wc = t.damage.weapon_classes[weapon.weapon_class]
        if wc.value:
            out.append(
                Modifier(
                    wc.value, f"{wc.label} ({weapon.label})", rule("damage-modifiers", weapon.weapon_class)
                )
            )
    return out


def damage_modifiers(att: Fighter, dfn: Fighter, sit: Situation, critical: bool = False) -> list[Modifier]:
    """Every modifier of one damage roll: the attacker's Damage bonus, the weapon class, the Critical Hit
    +4, actions and special-combat rules, the attacker's roll penalties, minus the target's Armor."""
    t = tables()
    mods: list[Modifier] = []
    wid = weapon_of(att, sit)
    weapon = t.weapons[wid]
    if att.stats.damage:
        mods.append(Modifier(att.stats.damage, "Damage bonus", rule("damage")))
    mods += _weapon_class(sit, weapon)
    if critical:
        mods.append(
            Modifier(
                t.attack.row("critical-hit").damage_bonus,
                "Critical Hit",
                rule("attack-table", "critical-hit"),
            )
        )
    if sit.action:
        act = t.combat.actions[sit.action]
        if act.damage:
            mods.append(Modifier(act.damage, act.label, rule("actions", sit.action)))
        if sit.action == "charge":
            mods.append(Modifier(t.combat.num("charge", "damage"), "Charge", rule("charge")))
    nxt = att.next.get("damage", 0)
    if nxt:
        mods.append(Modifier(nxt, "effect on the next damage roll", rule("actions")))
    foe = dfn.next.get("foe_damage", 0)
    if foe:
        mods.append(Modifier(foe, "Monster Fumble: foes Damage +2", rule("monster-fumbles")))
    if sit.dual_wield and att.stats.skill("dual-wield") < 1:
        mods.append(
            Modifier(
                t.combat.num("dual_wield", "unskilled_damage"),
                "Dual Wield without the skill",
                rule("dual-wield"),
            )
        )
    if mounted_ok(att):  # MOUNTED COMBAT names no kind of attack: a shot or throw from the saddle too
        if not dfn.mounted_on:
            mods.append(
                Modifier(
                    t.combat.num("mounted", "vs_unmounted_damage"), "Mounted vs unmounted", rule("mounted")
                )
            )
        if att.mount_moving:
            mods.append(
                Modifier(t.combat.num("mounted", "moving_damage"), "Mount moving (momentum)", rule("mounted"))
            )
    if sit.underwater and not weapon.thrust and weapon_used(sit):
        mods.append(
            Modifier(
                t.combat.num("underwater", "ineffective_damage"),
                f"{weapon.label} underwater",
                rule("underwater"),
            )
        )
    if sit.horde:
        per = t.combat.num("horde", "per_attackers")
        mods.append(
            Modifier(
                sit.horde // per * t.combat.num("horde", "damage"),
                f"Horde Attack of {sit.horde}",
                rule("horde-attack"),
            )
        )
    if sit.burn:
        mods.append(
            Modifier(t.conditions.conditions["burn"].damage_next_turn, "Burn (again next turn)", rule("burn"))
        )
    if sit.wall:
        mods.append(
            Modifier(
                t.conditions.conditions["knocked-back"].wall_damage,
                "Thrown against a wall",
                rule("knocked-back"),
            )
        )
    mods += roll_penalties(att, "damage") if not sit.burn else []
    if (att.has("knocked-down") or att.has("prone")) and not sit.burn:
        # KNOCKED DOWN "Prone Characters get a -2 to all Combat related Rolls": the Damage roll is one (the
        # Attack roll's is the ATTACK TABLE's Attacker Prone line)
        kd = t.conditions.conditions["knocked-down"]
        mods.append(Modifier(kd.combat_rolls, "Attacker Prone", rule("knocked-down")))
    armor = dfn.stats.armor
    if sit.shock and dfn.stats.metal_armor:
        armor = 0
        mods.append(Modifier(0, "Metal armor gives no bonus against Shock", rule("shock")))
    if armor:
        mods.append(
            Modifier(
                -armor,
                f"target's Armor ({dfn.stats.armor_class})",
                rule("damage-modifiers", dfn.stats.armor_class),
            )
        )
    return mods


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class DamageResult:
    attacker: str
    defender: str
    roll: TableRoll | None
    wound: str
    markers: int
    effects: tuple[Effect, ...]


def resolve_damage(
    att: Fighter, dfn: Fighter, sit: Situation, dice: DiceSource, critical: bool = False
) -> DamageResult:
    """DAMAGE TABLE: 1D20 + Damage bonuses - the target's Armor: Superficial (1 marker; 5-7 the foe also
    rolls 1D6 on the Fumble Table), Light (2; 11-13 Light Wound Table), Heavy (3; 17-18 Major Wound Table),
    19+ Instant Death. No-damage weapons and Disarm attacks roll nothing; entangling weapons entangle."""
    t = tables()
    wid = weapon_of(att, sit)
    weapon = t.weapons[wid]
    effects: list[Effect] = []
    no_damage = (
        sit.disarm
        or (sit.brawl is not None and sit.brawl.no_damage)
        or (
            sit.brawl is None
            and not sit.brawl_plain
            and not sit.dog_pile
            and t.damage.weapon_classes[weapon.weapon_class].no_damage
        )
    )
    if weapon.entangle and sit.brawl is None and not sit.brawl_plain:
        effects.append(
            Effect("condition", dfn.id, name=weapon.entangle, why=weapon.label, rule=rule("entangle"))
        )
    if sit.disarm:
        effects.append(Effect("drop-weapon", dfn.id, why="Disarmed", rule=rule("disarmed")))
    if sit.dog_pile:
        # Dog Pile: a single Grapple Attack; the held defender is Immobilized (no damage roll)
        effects.append(Effect("condition", dfn.id, name="immobilized", why="Dog Pile", rule=rule("dog-pile")))
        return DamageResult(att.id, dfn.id, None, "none", 0, tuple(effects))
    if sit.brawl is not None:
        effects += brawl_effects(att, dfn, sit.brawl, dice)
    if no_damage:
        return DamageResult(att.id, dfn.id, None, "none", 0, tuple(effects))
    mods = damage_modifiers(att, dfn, sit, critical)
    face = dice.roll(20, f"damage {att.id} -> {dfn.id}")
    tot = face + total(mods)
    row = t.damage.lookup(tot)
    rid = rule("damage-table", row.id)
    roll = TableRoll("damage", 20, face, tuple(mods), tot, row.id, row.label, rid)
    if tot < row.low and att.in_force.damage_below_one == "no-wound":
        nothing = TableRoll(
            "damage", 20, face, tuple(mods), tot, "none", "No Wound", setting("damage_below_one")
        )
        return DamageResult(att.id, dfn.id, nothing, "none", 0, tuple(effects))
    if row.instant_death:
        effects.append(Effect("dead", dfn.id, why="Instant Death", rule=rule("instant-death")))
        return DamageResult(att.id, dfn.id, roll, row.wound, 0, tuple(effects))
    effects.append(
        Effect(
            "burn-markers" if sit.burn else "markers",
            dfn.id,
            row.markers,
            why=row.label,
            rule=rid,
            source=att.id,
        )
    )
    if sit.shock:
        effects += shock(dfn, dice)
    if row.foe_fumble_die:
        fr = roll_fumble(dfn, dice, die=row.foe_fumble_die)
        effects.append(
            Effect(
                "fumble",
                dfn.id,
                name=fr.roll.row,
                why=f"{fr.roll.label} (d{fr.roll.die}:{fr.roll.face})",
                rule=fr.roll.rule,
            )
        )
        effects += fr.effects
    if row.wound_table == "light":
        effects += light_wound(dfn, dice).effects
    elif row.wound_table == "major":
        effects += major_wound(dfn, weapon.cut if weapon_used(sit) else "blunt", dice).effects
    elif row.wound == "heavy":  # 14-16 "Major Wound", no table to roll: prone all the same
        effects += major_wound_prone(dfn, dice)
    if att.in_force.minions and dfn.stats.minion:
        effects += minion_check(dfn, row.wound)
    return DamageResult(att.id, dfn.id, roll, row.wound, row.markers, tuple(effects))


def minion_check(dfn: Fighter, wound: str) -> list[Effect]:
    """Minions (reference 2.6, optional): level 1 dies to any hit; 2 to two hits or a Light Wound; 3 to three
    hits or a Heavy Wound."""
    level = dfn.stats.minion
    hits = dfn.hits_taken + 1
    severe = {2: ("light", "heavy"), 3: ("heavy",)}.get(level, ())
    if hits >= level or wound in severe:
        return [Effect("dead", dfn.id, why=f"Minion level {level}", rule=rule("minions"))]
    return []
