"""Spells & Swords attacks: ATTACKING, ATTACK TABLE and ATTACK TABLE MODIFIERS (range bands, the
situation of one attack, the defender's Defense)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.movement import mounted_ok
from fracas.rules.sas.procedures.rolls import Effect, TableRoll, no_dodge, percent, roll_penalties
from fracas.rules.sas.rows import BrawlRow
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import Weapon, tables

RANGE_BANDS = ("close", "short", "medium", "long", "far")


def range_band(distance_m: float, underwater: bool = False) -> str:
    """The ATTACK TABLE MODIFIERS range band of a distance in meters ("hth" below Close). Underwater the
    bands are halved (UNDERWATER COMBAT: the range of all ranged weapons is halved)."""
    t = tables()
    d = distance_m * (2 if underwater else 1)
    if d < t.attack.modifiers["range-close"].min_m:
        return "hth"
    for band in RANGE_BANDS:
        m = t.attack.modifiers[f"range-{band}"]
        if d <= m.max_m + (0 if band == "far" else 0.999):
            return band
    return "beyond"


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Situation:
    """What the attack table needs beyond the two fighters. ``action`` is an actions.toml id."""

    ranged: bool = False
    distance_m: float | None = None
    surprise: bool = False
    hidden: bool = False
    behind: bool = False
    flank: bool = False
    adjacent_foes: int = 1
    height: bool = False
    difficult_ground: bool = False
    tight: bool = False
    reduced_visibility: bool = False
    encumbered: bool = False
    hard_maneuver: bool = False
    cover: str | None = None
    concealment: str | None = None
    defender_moved: bool = False
    action: str | None = None
    dual_wield: bool = False
    underwater: bool = False
    horde: int = 0
    dog_pile: int = 0
    brawl: BrawlRow | None = None
    brawl_plain: bool = False
    disarm: bool = False
    withdrawal: bool = False
    pursuing_rout: bool = False
    defender_grappled: bool = False
    shield_spell: bool = False
    burn: bool = False
    shock: bool = False
    wall: bool = False
    weapon: str | None = None


def weapon_of(f: Fighter, sit: Situation) -> str:
    """The weapon the attack is made with: the situation's, else the one in hand."""
    return sit.weapon or f.wielded


def weapon_used(sit: Situation) -> bool:
    """Whether the attack is made with the weapon in hand: not a Random Brawl Attack (a row, or a face with no
    row: "Unarmed Strikes, Grappling", DAMAGE TABLE MODIFIER LIST) nor a Dog Pile's Grapple Attack. What
    UNDERWATER COMBAT says of weapons ("Blunt, Swinging, Cutting ... Weapons are ineffective") is the
    weapon's: a brawl or grapple does not take its penalty."""
    return sit.brawl is None and not sit.brawl_plain and not sit.dog_pile


def attack_modifiers(att: Fighter, dfn: Fighter, sit: Situation) -> list[Modifier]:
    """Every modifier of one attack roll, in the order of the text: the attacker's bonuses, its state, the
    ATTACK TABLE MODIFIERS lines that apply, the special-combat rules, then the defender's Defense."""
    t = tables()
    A = t.attack.modifiers
    mods: list[Modifier] = []
    wid = weapon_of(att, sit)
    weapon = t.weapons[wid]

    def line(key: str) -> None:
        m = A[key]
        mods.append(Modifier(m.value, m.label, rule("attack-modifiers", key)))

    if sit.ranged and not weapon.ranged and weapon.band is None:
        raise IllegalCommand(f"{weapon.label} is not a ranged weapon", rule("attack-modifiers"))
    _attacker_bonuses(mods, att, sit, wid, weapon)
    _positions(line, mods, att, dfn, sit)
    if sit.ranged:
        _range(line, sit, weapon)
    _defender_state(line, mods, att, dfn, sit)
    _circumstances(line, att, dfn, sit, weapon)
    _special_combat(mods, att, dfn, sit, weapon)
    # the defender's Defense
    mods += defense_modifiers(dfn, sit)
    return mods


_Line = Callable[[str], None]
"""Adds one ATTACK TABLE MODIFIERS line (by its key) to the attack's modifiers."""


def _attacker_bonuses(mods: list[Modifier], att: Fighter, sit: Situation, wid: str, weapon: Weapon) -> None:
    """The attacker's Attack bonus, his skill with the weapon, a Random Brawl row's, his roll penalties."""
    if att.stats.attack:
        mods.append(Modifier(att.stats.attack, "Attack bonus", rule("attacking")))
    if sit.brawl is None and not sit.brawl_plain and att.stats.bonus_with(wid):
        mods.append(
            Modifier(
                att.stats.bonus_with(wid),
                f"{weapon.label} skill",
                rule("weapon-skill"),
            )
        )
    if sit.brawl is not None and sit.brawl.attack:
        mods.append(Modifier(sit.brawl.attack, sit.brawl.label, rule("random-brawl", sit.brawl.id)))
    mods += roll_penalties(att, "attack")


def _positions(line: _Line, mods: list[Modifier], att: Fighter, dfn: Fighter, sit: Situation) -> None:
    """The attacker's state (prone, blinded), surprise, behind or flank, the size of the two."""
    t = tables()
    A = t.attack.modifiers
    # attacker state lines
    if att.has("knocked-down") or att.has("prone"):
        line("attacker-prone")
    if att.has("blinded"):
        line("attacker-blinded")
    if sit.surprise or sit.hidden:
        line("surprise")
    if sit.behind or sit.pursuing_rout:
        if sit.pursuing_rout:
            mods.append(
                Modifier(
                    t.combat.num("disengage", "rout_pursuer_attack"),
                    "Pursuing a Rout",
                    rule("disengage", "rout"),
                )
            )
        else:
            line("behind")
    elif sit.flank:
        line("flank")
    diff = dfn.stats.size_index - att.stats.size_index
    if diff <= -A["defender-smaller"].size_classes:
        line("defender-smaller")
    elif diff >= A["defender-larger"].size_classes:
        line("defender-larger")


def _range(line: _Line, sit: Situation, weapon: Weapon) -> None:
    """A ranged attack's band: refused at HTH range and beyond the weapon's reach."""
    A = tables().attack.modifiers
    if sit.distance_m is None:
        raise IllegalCommand("a ranged attack needs a distance", rule("attack-modifiers"))
    band = range_band(sit.distance_m, sit.underwater)
    if band == "hth":
        raise IllegalCommand(
            "too close to use a ranged weapon (HTH range)", rule("attack-modifiers", "range-hth")
        )
    max_band = weapon.band or "short"
    if band == "beyond" or RANGE_BANDS.index(band) > RANGE_BANDS.index(max_band):
        raise IllegalCommand(
            f"{weapon.label} does not reach {sit.distance_m:g} m",
            rule("attack-modifiers", f"range-{max_band}"),
        )
    if A[f"range-{band}"].value:
        line(f"range-{band}")


def _defender_state(line: _Line, mods: list[Modifier], att: Fighter, dfn: Fighter, sit: Situation) -> None:
    """The defender's state (prone, blinded, surrounded, immobilized, Knocked Out, Confusion, Choke)."""
    t = tables()
    A = t.attack.modifiers
    # defender state lines
    if dfn.has("knocked-down") or dfn.has("prone"):
        line("defender-prone")
    if dfn.has("blinded"):
        line("defender-blinded")
    if sit.adjacent_foes >= A["defender-surrounded"].min_foes and not sit.ranged:
        line("defender-surrounded")
    if dfn.has("immobilized") or dfn.has("knocked-out"):
        if dfn.has("immobilized"):
            line("defender-immobilized")
        else:
            c = t.conditions.conditions["knocked-out"]
            mods.append(Modifier(c.to_be_hit, c.label, rule("knocked-out")))
    elif dfn.has("partial-immobilization"):
        line("defender-partially-immobilized")
    if att.has("partial-immobilization"):
        line("attacker-partially-immobilized")
    for name in ("confusion", "choke"):
        if dfn.has(name):
            c = t.conditions.conditions[name]
            mods.append(Modifier(c.to_be_hit, c.label, rule(name)))


def _circumstances(line: _Line, att: Fighter, dfn: Fighter, sit: Situation, weapon: Weapon) -> None:
    """The circumstance lines: longer weapon, height, ground, visibility, fatigue, cover, shields."""
    t = tables()
    A = t.attack.modifiers
    plain_weapon = sit.brawl is None and not sit.brawl_plain and att.wielded != "unarmed"
    if not sit.ranged and plain_weapon and weapon.reach > t.weapons[dfn.wielded].reach:
        line("longer-weapon")
    if sit.height:
        line("height")
    if sit.difficult_ground:
        line("difficult-ground")
    if sit.tight:
        line("tight-position")
    if sit.reduced_visibility:
        line("reduced-visibility")
    if att.has("fatigued"):
        line("attacker-fatigued")
    if sit.encumbered:
        line("attacker-encumbered")
    if sit.ranged:
        if sit.cover:
            line(f"{sit.cover}-cover")
        if sit.concealment:
            line(f"{sit.concealment}-concealment")
        if sit.defender_moved:
            line("defender-moved")
    if sit.hard_maneuver:
        line("hard-maneuver")
    # shields: a Small Shield defends against one attack per turn
    if dfn.stats.shield != "none" and not dfn.has("routed"):
        key = f"{dfn.stats.shield}-shield"
        limit = A[key].max_attacks_per_turn
        if not limit or dfn.shield_used < limit:
            line(key)


def _special_combat(mods: list[Modifier], att: Fighter, dfn: Fighter, sit: Situation, weapon: Weapon) -> None:
    """The action's bonus and the special-combat rules: effects on the next attack, Fighting Withdrawal,
    Dual Wield, mounted, underwater, Horde Attack, Dog Pile, Disarm."""
    t = tables()
    # actions
    if sit.action:
        act = t.combat.actions[sit.action]
        if act.attack:
            mods.append(Modifier(act.attack, act.label, rule("actions", sit.action)))
        if sit.action == "charge":
            mods.append(Modifier(t.combat.num("charge", "attack"), "Charge", rule("charge")))
    nxt = att.next.get("attack", 0)
    if nxt:
        mods.append(
            Modifier(
                nxt, "effect on the next attack (Feint, Weapons Locked, Monster Fumble)", rule("actions")
            )
        )
    foe_bonus = dfn.next.get("foe_attack", 0)
    if foe_bonus:
        mods.append(Modifier(foe_bonus, "Monster Fumble: foes +2", rule("monster-fumbles")))
    if sit.withdrawal:
        mods.append(
            Modifier(
                t.combat.num("disengage", "withdrawal_attack"),
                "Fighting Withdrawal",
                rule("disengage", "fighting-withdrawal"),
            )
        )
    if sit.dual_wield and att.stats.skill("dual-wield") < 1:
        mods.append(
            Modifier(
                t.combat.num("dual_wield", "unskilled_attack"),
                "Dual Wield without the skill",
                rule("dual-wield"),
            )
        )
    if mounted_ok(att) and not dfn.mounted_on:  # MOUNTED COMBAT names no kind of attack: shots too
        mods.append(
            Modifier(t.combat.num("mounted", "vs_unmounted_attack"), "Mounted vs unmounted", rule("mounted"))
        )
    if sit.underwater and not weapon.thrust and weapon_used(sit):
        mods.append(
            Modifier(
                t.combat.num("underwater", "ineffective_attack"),
                f"{weapon.label} underwater",
                rule("underwater"),
            )
        )
    if sit.horde:
        per = t.combat.num("horde", "per_attackers")
        mods.append(
            Modifier(
                sit.horde // per * t.combat.num("horde", "attack"),
                f"Horde Attack of {sit.horde}",
                rule("horde-attack"),
            )
        )
    if sit.dog_pile:
        per = t.combat.num("dog_pile", "per_attackers")
        mods.append(
            Modifier(
                sit.dog_pile // per * t.combat.num("dog_pile", "bonus"),
                f"Dog Pile of {sit.dog_pile}",
                rule("dog-pile"),
            )
        )
        if att.in_force.grapple_brawl_bonus:
            mods.append(Modifier(att.in_force.grapple_brawl_bonus, "Grapple", setting("grapple_brawl_bonus")))
    if sit.disarm:
        mods.append(
            Modifier(t.conditions.conditions["disarmed"].disarm_attack, "Disarm attack", rule("disarmed"))
        )


def defense_modifiers(dfn: Fighter, sit: Situation) -> list[Modifier]:
    """The target's Defense bonuses the attacker subtracts (ATTACKING): Defense, Dodge unless a condition
    takes it away, stances and Feint for the foe's next attack, charging (Defense -4), Shield Spell."""
    t = tables()
    mods: list[Modifier] = []
    if dfn.stats.defense:
        mods.append(Modifier(-dfn.stats.defense, "target's Defense", rule("attacking")))
    dodge = dfn.stats.dodge
    if sit.underwater and dfn.stats.armor_class != "none":
        dodge += t.combat.num("underwater", "armor_dodge")
    if dodge and no_dodge(dfn) is None:
        mods.append(Modifier(-dodge, "target's Dodge", rule("attacking")))
    d = dfn.next.get("defense", 0)
    if d:
        mods.append(
            Modifier(
                -d,
                f"target's Defense this round ({dfn.defense_why or 'stance'})",
                rule("actions"),
            )
        )
    if sit.shield_spell:
        mods.append(
            Modifier(-dfn.in_force.shield_spell_defense, "Shield Spell", setting("shield_spell_defense"))
        )
    return mods


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class AttackResult:
    attacker: str
    defender: str
    roll: TableRoll
    hit: bool
    fumble: bool
    critical: bool
    damage_bonus: int
    other_grappler: bool
    effects: tuple[Effect, ...]


def resolve_attack(att: Fighter, dfn: Fighter, sit: Situation, dice: DiceSource) -> AttackResult:
    """ATTACK TABLE: 1D20 + Attack bonuses - the target's Defense bonuses. A natural 1 is an Auto Fumble;
    9 locks weapons (the foe gets Attack -2 next round); 10-19 hits; 20+ is a Critical Hit (+4 Damage).
    A hit on a defender being grappled has a 50% chance to strike the other grappler."""
    t = tables()
    mods = attack_modifiers(att, dfn, sit)
    face = dice.roll(20, f"attack {att.id} -> {dfn.id}")
    tot = face + total(mods)
    row = t.attack.lookup(tot, natural=face)
    if face == 20 and att.in_force.natural_20_critical:
        row = t.attack.row("critical-hit")
    roll = TableRoll("attack", 20, face, tuple(mods), tot, row.id, row.label, rule("attack-table", row.id))
    effects: list[Effect] = []
    if row.foe_attack_next_round:
        effects.append(
            Effect(
                "next",
                dfn.id,
                row.foe_attack_next_round,
                "attack",
                rounds=1,  # "next round" (on the foe's next attack, and lapsing with it)
                why="Weapons Locked",
                rule=rule("attack-table", row.id),
            )
        )
    other = False
    if row.hit and sit.defender_grappled:
        other = percent(
            t.attack.modifiers["defender-grappled"].other_grappler_percent,
            dice,
            "other grappler",
            att.in_force,
        )
    if sit.action == "leap-attack" and not row.hit and not row.fumble:
        # Leap Attack: "If attacker misses he fumbles"
        row = t.attack.row("fumble")
        roll = TableRoll(
            "attack",
            20,
            face,
            tuple(mods),
            tot,
            "fumble",
            "Leap Attack missed: Fumble",
            rule("actions", "leap-attack"),
        )
    return AttackResult(
        att.id,
        dfn.id,
        roll,
        row.hit,
        row.fumble,
        row.id == "critical-hit",
        row.damage_bonus,
        other,
        tuple(effects),
    )
