"""Spells & Swords procedures: pure functions of fighters, a situation and a :class:`DiceSource`.

Each returns a frozen result carrying its die faces, its modifiers (``Modifier(value, why, rule)``, the rule
id naming the section of 004_0d1ac50b56c23caf.txt, see :mod:`fracas.rules.sas.rules`) and the
:class:`Effect` s it causes. Nothing here changes a fighter: :func:`apply` does that, and the engine's
ruleset turns effects into events.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter, Stats
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import BrawlRow, EffectRow, FumbleRow, Tables, tables

# ---------------------------------------------------------------------------------------------------------
# dice and durations

_EXPR = re.compile(r"(\d+)d(\d+)([+-]\d+)?|(\d+)")


def roll_expr(expr: str, dice: DiceSource, why: str = "") -> int:
    """Roll "NdS+M" (or a plain number) with ``dice``."""
    m = _EXPR.fullmatch(expr.replace(" ", ""))
    if m is None:
        raise ValueError(f"bad dice expression {expr!r}")
    if m.group(4):
        return int(m.group(4))
    n, sides, mod = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    return sum(dice.roll(sides, why) for _ in range(n)) + mod


UNIT_ROUNDS = {"rounds": 1, "minutes": 6, "hours": 360, "days": 8640, "weeks": 60480}


def to_rounds(amount: int, unit: str, t: Tables | None = None) -> int:
    """Combat rounds in ``amount`` ``unit`` ("A Combat round is about 10 Seconds": 6 per minute)."""
    per_minute = (t or tables()).settings.rounds_per_minute
    if unit == "rounds":
        return amount
    minutes = {"minutes": 1, "hours": 60, "days": 1440, "weeks": 10080}[unit]
    return amount * minutes * per_minute


def percent(chance: int, dice: DiceSource, why: str = "") -> bool:
    """A "N%" chance: 1D100 (setting percent_die) at or under N."""
    die = tables().settings.percent_die
    return dice.roll(die, why) <= chance * die // 100


# ---------------------------------------------------------------------------------------------------------
# effects


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Effect:
    """Something that happens to a fighter. ``kind`` is one of:

    markers (value), burn-markers (value), condition (name, rounds or None), remove-condition (name),
    hurt (name=part), broken (name=part), permanent (name), bleed (value=bleeds, rounds=time to death or
    None), stop-bleed, dead, dying (rounds), drop-weapon, drop-shield, weapon-breaks, next (name=key, value),
    stat (name=strength/appearance/move, value), friendly-fire, knocked-back (value=spaces), scatter,
    fumble (nested: the fumble result's own effects follow it), lost-limb (name=leg/arm), mute, save-reroll
    (a Human's reroll of the day used): the texts of
    :class:`~fracas.rules.sas.effects.EffectKind`, whose numbers the duel kernel queues.
    """

    kind: str
    target: str
    value: int = 0
    name: str = ""
    rounds: int | None = None
    why: str = ""
    rule: str = ""
    source: str = ""

    def text(self) -> str:
        bits = [self.kind]
        if self.name:
            bits.append(self.name)
        if self.value:
            bits.append(f"{self.value:+d}")
        if self.rounds is not None:
            bits.append(f"{self.rounds} rounds")
        return " ".join(bits)


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class TableRoll:
    """One roll on one table: its die, face, modifiers, total and the row read."""

    table: str
    die: int
    face: int
    mods: tuple[Modifier, ...]
    total: int
    row: str
    label: str
    rule: str


# ---------------------------------------------------------------------------------------------------------
# skill checks and saves (reference 2.4, 2.5)


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Check:
    face: int
    mods: tuple[Modifier, ...]
    total: int
    target: int
    success: bool
    what: str
    rule: str


def _check(face: int, mods: Sequence[Modifier], target: int, what: str, rid: str) -> Check:
    tot = face + total(mods)
    success = face == 20 or (face != 1 and tot >= target)
    return Check(face, tuple(mods), tot, target, success, what, rid)


def skill_check(
    difficulty: str, mods: Sequence[Modifier], dice: DiceSource, what: str = "skill check"
) -> Check:
    """A skill check: 1D20 + skill levels vs Easy 5 / Moderate 10 / Hard 15 / Heroic 20; natural 1 fails,
    natural 20 succeeds (reference 2.4)."""
    target = tables().combat.num("skill_check", difficulty)
    return _check(dice.roll(20, what), mods, target, what, rule("skill-check", difficulty))


def saving_throw(mods: Sequence[Modifier], dice: DiceSource, what: str = "save") -> Check:
    """A saving throw: 1D20 + bonuses, 13 or more (reference 2.5); natural 1 fails, 20 succeeds."""
    return _check(dice.roll(20, what), mods, tables().combat.num("save", "target"), what, rule("save"))


def save_bonuses(stats: Stats, against: Sequence[str]) -> list[Modifier]:
    """reference 2.5 Saving throws: the bonuses of a save against these threats ("death", "fear", "spells",
    ...): the race's +4 and the calling's +4 when they list one of them (both count), and a Monster's total
    Armor bonus "to all saves"."""
    sv = tables().saves
    out: list[Modifier] = []
    for source, who, lists in (("race", stats.race, sv.race), ("calling", stats.calling, sv.calling)):
        threats = lists.get(who or "", ())
        hit = next((a for a in against if a in threats), None)
        if hit is not None:
            out.append(Modifier(sv.bonus, f"{who} vs {hit}", rule("save", f"{source}-{who}")))
    if not stats.humanoid and stats.armor:
        out.append(Modifier(stats.armor, "Monster: Armor bonus to saves", rule("save")))
    return out


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class Save:
    """A saving throw as made: its rolls (a Human's failed first roll, then the reroll), whether it is made,
    and the effects of making it (the day's reroll used)."""

    rolls: tuple[Check, ...]
    success: bool
    effects: tuple[Effect, ...] = ()


def save(f: Fighter, mods: Sequence[Modifier], dice: DiceSource, what: str) -> Save:
    """The fighter's saving throw ``what`` with ``mods`` (:func:`saving_throw`); reference 2.5 "Humans -
    reroll 1 failed Saving Throw per day": a Human (race human) rerolls the first save he fails (a fight lies
    within one day; ``Fighter.save_rerolls`` counts the rerolls used)."""
    first = saving_throw(mods, dice, what)
    sv = tables().saves
    if first.success or f.stats.race not in sv.reroll_races or f.save_rerolls >= sv.rerolls_per_day:
        return Save((first,), first.success)
    again = saving_throw(mods, dice, f"{what} (reroll)")
    used = Effect(
        "save-reroll", f.id, 1, why="Human: reroll 1 failed Saving Throw per day", rule=rule("save")
    )
    return Save((first, again), again.success, (used,))


# ---------------------------------------------------------------------------------------------------------
# penalties a fighter carries


_PENALTY_CONDITIONS = {
    "exhausted": "spell-check",
    "stunned": "stunned",
    "chill": "chill",
    "hypothermia": "chill",
    "shock": "shock",
    "sickened": "sickened",
    "choke": "choke",
    "dizzy": "bleeding",
}


def roll_penalties(f: Fighter, kind: str = "all") -> list[Modifier]:
    """Modifiers of the fighter's own state to its rolls. ``kind``: "attack", "damage", "check", "save",
    "sight" (checks needing sight). Conditions that are also ATTACK TABLE MODIFIERS lines (prone, blinded,
    fatigued, partially immobilized) are left to :func:`attack_modifiers` so that they count once."""
    t = tables()
    out: list[Modifier] = []
    if f.wounded:
        out.append(Modifier(t.damage.wounded.all_rolls, "Wounded", rule("wounded")))
    if f.conditions:  # (most fighters have none: the table is not walked then)
        for name, rid in _PENALTY_CONDITIONS.items():
            if name in f.conditions:
                c = t.conditions.conditions[name]
                if c.all_rolls:
                    out.append(Modifier(c.all_rolls, c.label, rule(rid)))
    if kind in ("sight",):
        for name in ("blinded", "partial-blindness"):
            if f.has(name):
                out.append(
                    Modifier(
                        t.conditions.conditions[name].sight_rolls,
                        t.conditions.conditions[name].label,
                        rule(name),
                    )
                )
    if kind == "attack" and f.has("partial-blindness"):
        out.append(Modifier(-1, "Partial Blindness (sight)", rule("partial-blindness")))
    for part in f.hurt:
        out.append(Modifier(t.wounds.hurt.all_rolls, f"Hurt {part}", rule("body-part-hurt")))
        if kind == "attack" and part in t.wounds.hurt.limb_parts:
            out.append(
                Modifier(t.wounds.hurt.limb_rolls, f"Hurt {part} (weapon hand)", rule("body-part-hurt"))
            )
    for part in f.broken:
        out.append(Modifier(t.wounds.broken.all_rolls, f"Broken {part}", rule("body-part-broken")))
    for part in f.permanent:
        eff = t.wounds.permanent.effects.get(part)
        if eff is None:
            continue
        if eff.all_rolls:
            out.append(Modifier(eff.all_rolls, f"Lame {part}", rule("permanent-injuries")))
        if kind == "attack" and eff.hand_rolls:
            out.append(Modifier(eff.hand_rolls, f"Lame {part}", rule("permanent-injuries")))
    if kind == "attack" and f.has("battle-cry"):
        out.append(Modifier(t.settings.battle_cry_attack, "Battle Cry", setting("battle_cry_attack")))
    return out


def no_dodge(f: Fighter) -> str | None:
    """The condition that takes away the Dodge bonus, if any (Confusion, Knocked Out, Immobilized,
    Partial Immobilization)."""
    for name in ("knocked-out", "immobilized", "partial-immobilization", "confusion"):
        if f.has(name):
            return name
    return None


# ---------------------------------------------------------------------------------------------------------
# surprise and initiative


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class SurpriseRoll:
    face: int
    mods: tuple[Modifier, ...]
    total: int
    surprise: bool


def surprise(attackers: Sequence[Fighter], defenders: Sequence[Fighter], dice: DiceSource) -> SurpriseRoll:
    """SURPRISE: 1D20 + the lowest Stealth bonus of the attacking group - the highest Alertness bonus of the
    group attacked; 11 or more gives the attackers Surprise. Defenders all Distracted: +5 (DISTRACTED)."""
    t = tables()
    low = min(a.stats.stealth for a in attackers)
    high = max(d.stats.alertness for d in defenders)
    mods = [
        Modifier(low, "lowest Stealth of the attackers", rule("surprise")),
        Modifier(-high, "highest Alertness of the defenders", rule("surprise")),
    ]
    if defenders and all(d.has("distracted") for d in defenders):
        mods.append(
            Modifier(t.conditions.conditions["distracted"].ambush_bonus, "Distracted", rule("distracted"))
        )
    face = dice.roll(20, "surprise")
    tot = face + total(mods)
    return SurpriseRoll(face, tuple(mods), tot, tot >= t.combat.num("surprise", "target"))


def initiative_bonus(f: Fighter) -> int:
    """A combatant's Initiative bonus (armor penalties included in its stats) and any fumble penalty."""
    return f.stats.initiative + f.next.get("initiative", 0)


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    rolls: tuple[tuple[str, int, int, int], ...]  # (side, face, lowest bonus, total), every roll in order
    order: tuple[str, ...]


def side_initiative(sides: dict[str, Sequence[Fighter]], dice: DiceSource) -> InitiativeRoll:
    """INITIATIVE: each side rolls 1D20 + its lowest Initiative bonus; the high roll attacks first and the
    order continues for the rest of the combat. Sides that tie roll again among themselves (a choice)."""
    rolls: list[tuple[str, int, int, int]] = []

    def rank(names: list[str]) -> list[str]:
        if len(names) == 1:
            return names
        totals: dict[str, int] = {}
        for side in names:
            low = min(initiative_bonus(f) for f in sides[side])
            face = dice.roll(20, f"initiative {side}")
            totals[side] = face + low
            rolls.append((side, face, low, face + low))
        out: list[str] = []
        for value in sorted(set(totals.values()), reverse=True):
            tied = [s for s in names if totals[s] == value]
            out += rank(tied) if len(tied) > 1 else tied
        return out

    order = rank(list(sides))
    return InitiativeRoll(tuple(rolls), tuple(order))


# ---------------------------------------------------------------------------------------------------------
# attacks


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


def _weapon(f: Fighter, sit: Situation) -> str:
    return sit.weapon or f.wielded


def _weapon_used(sit: Situation) -> bool:
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
    wid = _weapon(att, sit)
    weapon = t.weapons[wid]

    def line(key: str) -> None:
        m = A[key]
        mods.append(Modifier(m.value, m.label, rule("attack-modifiers", key)))

    if sit.ranged and not weapon.ranged and weapon.band is None:
        raise IllegalCommand(f"{weapon.label} is not a ranged weapon", rule("attack-modifiers"))
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
    # range
    if sit.ranged:
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
    if sit.underwater and not weapon.thrust and _weapon_used(sit):
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
        if t.settings.grapple_brawl_bonus:
            mods.append(Modifier(t.settings.grapple_brawl_bonus, "Grapple", setting("grapple_brawl_bonus")))
    if sit.disarm:
        mods.append(
            Modifier(t.conditions.conditions["disarmed"].disarm_attack, "Disarm attack", rule("disarmed"))
        )
    # the defender's Defense
    mods += defense_modifiers(dfn, sit)
    return mods


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
            Modifier(-t.settings.shield_spell_defense, "Shield Spell", setting("shield_spell_defense"))
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
    if face == 20 and t.settings.natural_20_critical:
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
            t.attack.modifiers["defender-grappled"].other_grappler_percent, dice, "other grappler"
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


# ---------------------------------------------------------------------------------------------------------
# fumbles


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class FumbleResult:
    roll: TableRoll
    effects: tuple[Effect, ...]


def fumble_table_for(f: Fighter, ranged: bool | None = None) -> str:
    """Which fumble table a fighter rolls on: HTH or ranged for Humans, Demi-Humans and Humanoids (the
    weapon in hand decides), MONSTER FUMBLES for every other creature."""
    if not f.stats.humanoid:
        return "monster"
    if ranged is None:
        ranged = tables().weapons[f.wielded].ranged
    return "ranged" if ranged else "hth"


def roll_fumble(
    f: Fighter, dice: DiceSource, ranged: bool | None = None, die: int | None = None, modifier: int = 0
) -> FumbleResult:
    """Roll on the fighter's fumble table (:func:`fumble_table_for`). ``die`` replaces the table's die
    ("Foe Rolls 1D6 on Fumble Table", LIGHT WOUND TABLE 3); ``modifier`` shifts the face (ALTERNATE WOUND
    TABLE RESULTS: "a roll (at -2)"), read as the nearest row."""
    t = tables()
    which = fumble_table_for(f, ranged)
    table = getattr(t.fumbles, which)
    rid = {"hth": "fumble-hth", "ranged": "fumble-ranged", "monster": "monster-fumbles"}[which]
    sides = die or table.die
    face = dice.roll(sides, f"fumble {f.id}")
    tot = max(1, min(table.die, face + modifier))
    row = table.lookup(tot)
    mods = (Modifier(modifier, "fumble roll modifier", rule("alternate-wound-results")),) if modifier else ()
    roll = TableRoll(f"fumble-{which}", sides, face, mods, tot, row.id, row.label, rule(rid, row.id))
    return FumbleResult(roll, tuple(_fumble_effects(f, which, row, dice, rule(rid, row.id))))


def _fumble_effects(f: Fighter, which: str, row: FumbleRow, dice: DiceSource, rid: str) -> list[Effect]:
    out: list[Effect] = []
    me = f.id
    if row.initiative_next_round:
        out.append(Effect("next", me, row.initiative_next_round, "initiative", why=row.label, rule=rid))
    if which == "monster":
        if row.id == "miss-next-action":
            out.append(Effect("next", me, 1, "miss_action", why=row.label, rule=rid))
        elif row.id == "miss-next-attack":
            out.append(Effect("next", me, 1, "miss_attack", why=row.label, rule=rid))
        elif row.attack_next:
            out.append(Effect("next", me, row.attack_next, "attack", why=row.label, rule=rid))
        elif row.foe_attack_next:
            out.append(Effect("next", me, row.foe_attack_next, "foe_attack", why=row.label, rule=rid))
        elif row.foe_damage_next:
            out.append(Effect("next", me, row.foe_damage_next, "foe_damage", why=row.label, rule=rid))
        elif row.id == "knocked-down":
            out += knocked_down(f, dice, row.label)
        return out
    if row.id == "drop-weapon":
        out.append(Effect("drop-weapon", me, why=row.label, rule=rid))
    elif row.id == "weapon-breaks":
        out.append(Effect("weapon-breaks", me, why=row.label, rule=rid))
    elif row.id == "body-part-hurt":
        part = roll_body_part(dice)
        out += hurt_part(f, part.row, dice)
    elif row.id == "knocked-down":
        out += knocked_down(f, dice, row.label)
    elif row.id == "disorientated":
        out.append(Effect("next", me, 1, "miss_action", why=row.label, rule=rid))
    elif row.id == "stagger":
        out.append(Effect("condition", me, name="staggered", rounds=1, why=row.label, rule=rid))
        out.append(Effect("next", me, row.defense_next_round, "defense", why=row.label, rule=rid))
    elif row.id == "friendly-fire":
        out.append(Effect("friendly-fire", me, why=row.label, rule=rid))
    elif row.id == "injure-self":
        out += light_wound(f, dice).effects
    return out


# ---------------------------------------------------------------------------------------------------------
# damage


def damage_modifiers(att: Fighter, dfn: Fighter, sit: Situation, critical: bool = False) -> list[Modifier]:
    """Every modifier of one damage roll: the attacker's Damage bonus, the weapon class, the Critical Hit
    +4, actions and special-combat rules, the attacker's roll penalties, minus the target's Armor."""
    t = tables()
    mods: list[Modifier] = []
    wid = _weapon(att, sit)
    weapon = t.weapons[wid]
    if att.stats.damage:
        mods.append(Modifier(att.stats.damage, "Damage bonus", rule("damage")))
    if sit.brawl is not None or sit.brawl_plain or sit.dog_pile:
        wc = t.damage.weapon_classes["brawl"]
        mods.append(Modifier(wc.value, wc.label, rule("damage-modifiers", "brawl")))
        if sit.brawl is not None and sit.brawl.damage:
            mods.append(Modifier(sit.brawl.damage, sit.brawl.label, rule("random-brawl", sit.brawl.id)))
    else:
        wc = t.damage.weapon_classes[weapon.weapon_class]
        if wc.value:
            mods.append(
                Modifier(
                    wc.value, f"{wc.label} ({weapon.label})", rule("damage-modifiers", weapon.weapon_class)
                )
            )
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
    if sit.underwater and not weapon.thrust and _weapon_used(sit):
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
    wid = _weapon(att, sit)
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
    if tot < row.low and t.settings.damage_below_one == "no-wound":
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
        effects += major_wound(dfn, weapon.cut if _weapon_used(sit) else "blunt", dice).effects
    elif row.wound == "heavy":  # 14-16 "Major Wound", no table to roll: prone all the same
        effects += major_wound_prone(dfn, dice)
    if t.settings.minions and dfn.stats.minion:
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


# ---------------------------------------------------------------------------------------------------------
# wound tables, body parts, bleeding


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class TableResult:
    roll: TableRoll
    effects: tuple[Effect, ...]


def _table_roll(
    name: str, table_die: int, face: int, row: EffectRow, rid: str, mods: tuple[Modifier, ...] = ()
) -> TableRoll:
    return TableRoll(name, table_die, face, mods, face + total(mods), row.id, row.label, rid)


def roll_body_part(dice: DiceSource) -> TableRoll:
    """RANDOM BODY PART TABLE 1D10."""
    t = tables().wounds.body_parts
    face = dice.roll(t.die, "body part")
    row = t.lookup(face)
    return _table_roll("body-part", t.die, face, row, rule("random-body-part", row.id))


def hurt_part(f: Fighter, part: str, dice: DiceSource) -> list[Effect]:
    """BODY PART HURT: -1 to all rolls per hurt part (arm/hand another -1 for rolls using it), legs, knees,
    groin and feet Move -2; a hurt Head is also Stunned for 1D4 rounds."""
    h = tables().wounds.hurt
    out = [Effect("hurt", f.id, name=part, why=f"Hurt {part}", rule=rule("body-part-hurt"))]
    if part in h.stunned_parts and h.stunned_duration:
        out.append(
            Effect(
                "condition",
                f.id,
                name="stunned",
                rounds=roll_expr(h.stunned_duration, dice, "stunned"),
                why="Hurt head",
                rule=rule("body-part-hurt"),
            )
        )
    return out + _regrows(f, part, "hurt", dice)


def break_part(f: Fighter, part: str, dice: DiceSource) -> list[Effect]:
    """BODY PART BROKEN: -2 to all rolls per broken part, legs, knees and feet Move -4; a broken Head is a
    Skull Crack (Knocked Out 1D2 hours), a broken Neck Instant Death, a broken Arm or Hand unusable."""
    w = tables().wounds
    b = w.broken
    out = [Effect("broken", f.id, name=part, why=f"Broken {part}", rule=rule("body-part-broken"))]
    if part in b.instant_death_parts:
        out.append(Effect("dead", f.id, why="Broken neck", rule=rule("body-part-broken")))
    elif part in b.skull_crack_parts:
        row = w.major.row("skull-crack")
        hours = roll_expr(row.duration or "1d2", dice, "skull crack")
        out += knock_out(f, to_rounds(hours, "hours"), "Skull Crack", rule("body-part-broken"))
    elif part in b.unusable_parts:
        out.append(Effect("drop-weapon", f.id, why=f"Broken {part}: unusable", rule=rule("body-part-broken")))
    if part in b.instant_death_parts:
        return out
    return out + _regrows(f, part, "broken", dice)


def _regrows(f: Fighter, part: str, kind: str, dice: DiceSource) -> list[Effect]:
    """REGENERATION "Hurt Body Parts regenerate in 1D6 Minutes. Broken Body Parts regenerate in 3D20
    Minutes", for a unit that Regenerates: the time is rolled as the part is hurt or broken, and the part is
    whole at the end of the round that time runs out in (a minute is 6 rounds, setting rounds_per_minute;
    effect ``regrow``: value the rounds)."""
    if not f.stats.regenerates or f.dead:
        return []
    w = tables().wounds
    minutes = roll_expr((w.hurt if kind == "hurt" else w.broken).regenerate, dice, "regenerate")
    rid = rule("regeneration", "parts")
    return [Effect("regrow", f.id, to_rounds(minutes, "minutes"), part, why=kind, rule=rid)]


def knock_out(f: Fighter, rounds: int, why: str, rid: str) -> list[Effect]:
    """KNOCKED OUT (and LIGHT WOUND TABLE 1: "Unconscious And Prone and Drop Weapon")."""
    return [
        Effect("condition", f.id, name="knocked-out", rounds=rounds, why=why, rule=rid),
        Effect("condition", f.id, name="knocked-down", why=why, rule=rid),
        Effect("drop-weapon", f.id, why=why, rule=rid),
    ]


def light_wound(f: Fighter, dice: DiceSource) -> TableResult:
    """LIGHT WOUND TABLE 1D6."""
    t = tables()
    table = t.wounds.light
    face = dice.roll(table.die, "light wound")
    row = table.lookup(face)
    rid = rule("light-wounds", row.id)
    out: list[Effect] = []
    me = f.id
    if row.id == "knocked-out":
        out += knock_out(f, roll_expr(row.duration or "2d6", dice, "knocked out"), row.label, rid)
    elif row.id == "body-part":
        broken = percent(row.broken_percent, dice, "broken?")
        part = roll_body_part(dice).row
        out += break_part(f, part, dice) if broken else hurt_part(f, part, dice)
    elif row.id == "fumble":
        fr = roll_fumble(f, dice, die=row.fumble_die)
        out.append(Effect("fumble", me, name=fr.roll.row, why=fr.roll.label, rule=fr.roll.rule))
        out += fr.effects
    elif row.id == "dazed":
        out.append(Effect("next", me, 1, "miss_attack", why=row.label, rule=rid))
    elif row.id == "stun":
        out.append(
            Effect(
                "condition",
                me,
                name="stunned",
                rounds=roll_expr(row.duration or "1d6", dice, "stun"),
                why=row.label,
                rule=rid,
            )
        )
    elif row.id == "bad-scar":
        out.append(Effect("stat", me, row.appearance, "appearance", why=row.label, rule=rid))
    return TableResult(_table_roll("light-wound", table.die, face, row, rid), tuple(out))


def _lost_limb(f: Fighter, dice: DiceSource, rid: str) -> list[Effect]:
    leg = percent(tables().settings.lost_limb_leg_percent, dice, "leg or arm")
    if leg:
        return [
            Effect(
                "lost-limb",
                f.id,
                tables().wounds.major.row("lost-limb").move,
                "leg",
                why="Lost leg",
                rule=rid,
            )
        ]
    return [
        Effect("lost-limb", f.id, 0, "arm", why="Lost arm or hand", rule=rid),
        Effect("drop-weapon", f.id, why="Lost arm or hand", rule=rid),
    ]


def _bleed(f: Fighter, dice: DiceSource, rid: str) -> list[Effect]:
    row = tables().wounds.major.row("bleed")
    minutes = roll_expr(row.death_in or "2d10", dice, "bleed to death")
    return [
        Effect(
            "bleed",
            f.id,
            1,
            rounds=to_rounds(minutes, row.death_unit or "minutes"),
            why=f"Bleed: dies in {minutes} minutes",
            rule=rid,
        )
    ]


def major_wound(f: Fighter, cut: str, dice: DiceSource) -> TableResult:
    """MAJOR WOUND TABLE 1D8 (``cut``: "blunt", "cut" or "impale" for row 6+). Most Major Wounds knock the
    victim prone and make it miss its next action (setting major_wound_prone)."""
    t = tables()
    table = t.wounds.major
    face = dice.roll(table.die, "major wound")
    row = table.lookup(face)
    rid = rule("major-wounds", row.id)
    out: list[Effect] = []
    me = f.id
    if row.id == "broken-body-part":
        out += break_part(f, roll_body_part(dice).row, dice)
    elif row.id == "lose-eye":
        out.append(Effect("condition", me, name="partial-blindness", why=row.label, rule=rid))
        out.append(Effect("permanent", me, name="eye", why=row.label, rule=rid))
    elif row.id == "skull-crack":
        out += knock_out(
            f, to_rounds(roll_expr(row.duration or "1d2", dice, "skull crack"), "hours"), row.label, rid
        )
    elif row.id == "lost-limb":
        out += _lost_limb(f, dice, rid)
    elif row.id == "bleed":
        out += _bleed(f, dice, rid)
    elif row.id == "by-weapon":
        if cut == "blunt":
            out += break_part(f, roll_body_part(dice).row, dice)
        elif cut == "cut":
            out += _lost_limb(f, dice, rid)
        else:
            out += _bleed(f, dice, rid)
    out += major_wound_prone(f, dice)
    return TableResult(_table_roll("major-wound", table.die, face, row, rid), tuple(out))


def major_wound_prone(f: Fighter, dice: DiceSource) -> list[Effect]:
    """MAJOR WOUNDS "Most Major Wounds will Cause the victim to be knocked Prone and miss their next Action
    per GM" (setting major_wound_prone): every Major Wound, the DAMAGE TABLE's 14-16 ("Major Wound") as well
    as a roll on the Major Wound Table (17-18)."""
    if not tables().settings.major_wound_prone:
        return []
    return [
        *knocked_down(f, dice, "Major Wound"),
        Effect("next", f.id, 1, "miss_action", why="Major Wound", rule=setting("major_wound_prone")),
    ]


def bleed_roll(f: Fighter, dice: DiceSource) -> TableResult:
    """BLEED TABLE 1D6, rolled once at the start of every round a fighter begins with one or more Bleeds."""
    table = tables().wounds.bleed
    face = dice.roll(table.die, "bleed")
    row = table.lookup(face)
    rid = rule("bleeding", row.id)
    out: list[Effect] = []
    me = f.id
    if row.id == "life-blood":
        out.append(Effect("markers", me, row.markers, why=row.label, rule=rid))
    elif row.id == "pass-out":
        out.append(
            Effect(
                "condition",
                me,
                name="knocked-out",
                rounds=roll_expr(row.duration or "2d6", dice, "pass out"),
                why=row.label,
                rule=rid,
            )
        )
        out.append(Effect("condition", me, name="knocked-down", why=row.label, rule=rid))
    elif row.id == "hazy":
        fr = roll_fumble(f, dice)
        out.append(Effect("fumble", me, name=fr.roll.row, why=fr.roll.label, rule=fr.roll.rule))
        out += fr.effects
    elif row.id == "dizzy":
        # "Get -2 to all Rolls next Round", rolled "At the beginning of every Round": the round beginning is
        # the bleeder's next (0 more rounds: to the end of this one), not this one and the one after
        out.append(Effect("condition", me, name="dizzy", rounds=0, why=row.label, rule=rid))
    elif row.id == "weakened":
        out.append(Effect("stat", me, row.strength, "strength", why=row.label, rule=rid))
    return TableResult(_table_roll("bleed", table.die, face, row, rid), tuple(out))


def confusion_roll(f: Fighter, dice: DiceSource) -> TableRoll:
    """CONFUSION TABLE 1D10, rolled every round a fighter is Confused; the row says what it does instead."""
    table = tables().conditions.confusion_table
    face = dice.roll(table.die, "confusion")
    row = table.lookup(face)
    return _table_roll("confusion", table.die, face, row, rule("confusion-table", row.id))


# ---------------------------------------------------------------------------------------------------------
# death, healing, regeneration


def death_check(f: Fighter, dice: DiceSource, heroic: bool | None = None) -> list[Effect]:
    """DEATH BY A THOUSAND CUTS: at or above the Wound Level in markers a Heroic character dies in 2D6
    rounds unless healed; Non-Heroic foes and creatures die at once."""
    if f.dead or f.dying_rounds is not None or f.markers < f.stats.wound_level:
        return []
    t = tables()
    if heroic if heroic is not None else f.stats.heroic:
        rounds = roll_expr(t.wounds.death.heroic_dies_in, dice, "dies in")
        return [
            Effect(
                "dying",
                f.id,
                rounds=rounds,
                why=f"dies in {rounds} rounds unless healed",
                rule=rule("death-by-a-thousand-cuts"),
            )
        ]
    return [Effect("dead", f.id, why="Wound Level reached", rule=rule("death-by-a-thousand-cuts"))]


def heal_days(
    f: Fighter, days: int, dice: DiceSource, full_rest: bool = False, herbalist: bool = False
) -> list[Effect]:
    """HEALING: 1D2 markers a day, another 1D2 at full rest; a Herbalist doubles the rate."""
    h = tables().wounds.healing
    healed = 0
    for _ in range(days):
        n = roll_expr(h.per_day, dice, "healing")
        if full_rest:
            n += roll_expr(h.full_rest_extra, dice, "rest")
        healed += n * (h.herbalist_factor if herbalist else 1)
    healed = min(healed, f.markers)
    return (
        [Effect("markers", f.id, -healed, why=f"{days} days of healing", rule=rule("healing"))]
        if healed
        else []
    )


def heal_break(f: Fighter, part: str, dice: DiceSource) -> list[Effect]:
    """A Broken part heals in 6-8 weeks (setting broken_heal); 25% of breaks never heal right
    (PERMANENT INJURIES)."""
    t = tables()
    weeks = roll_expr(t.settings.broken_heal, dice, "weeks")
    out = [Effect("remove-broken", f.id, weeks, part, why=f"healed in {weeks} weeks", rule=rule("healing"))]
    if percent(t.wounds.permanent.percent, dice, "permanent?"):
        out.append(Effect("permanent", f.id, name=part, why=f"Lame {part}", rule=rule("permanent-injuries")))
    return out


def regenerate_parts(f: Fighter, dice: DiceSource) -> list[tuple[str, str, int]]:
    """REGENERATION of body parts: (part, "hurt"/"broken", minutes) for each, Hurt in 1D6 minutes, Broken in
    3D20 minutes."""
    if not f.stats.regenerates:
        return []
    w = tables().wounds
    out = [(p, "hurt", roll_expr(w.hurt.regenerate, dice, "regenerate")) for p in f.hurt]
    return out + [(p, "broken", roll_expr(w.broken.regenerate, dice, "regenerate")) for p in f.broken]


def wound_heals_in(kind: str, dice: DiceSource) -> tuple[int, str]:
    """LIGHT WOUNDS heal on their own in 1D4 days, MAJOR WOUNDS in 1D4 weeks: (amount, unit)."""
    table = tables().wounds.light if kind == "light" else tables().wounds.major
    return roll_expr(table.heal or "1d4", dice, "heals in"), table.heal_unit or "days"


def regenerate(f: Fighter) -> list[Effect]:
    """REGENERATION: 1 Wound Counter off at the end of each of the unit's rounds; burns never regenerate."""
    if not f.stats.regenerates or f.dead:
        return []
    healable = f.markers - f.burn_markers
    if healable <= 0:
        return []
    return [
        Effect(
            "markers",
            f.id,
            -tables().wounds.regeneration.markers_per_round,
            why="Regeneration",
            rule=rule("regeneration"),
        )
    ]


# ---------------------------------------------------------------------------------------------------------
# conditions with rolls


def shock(f: Fighter, dice: DiceSource) -> list[Effect]:
    """SHOCK: -3 to all rolls for 1D2 rounds; Save or be Knocked Out for 1D4 hours."""
    c = tables().conditions.conditions["shock"]
    out = [
        Effect(
            "condition",
            f.id,
            name="shock",
            rounds=roll_expr(c.duration or "1d2", dice, "shock"),
            why=c.label,
            rule=rule("shock"),
        )
    ]
    made = save(
        f,
        save_bonuses(f.stats, ("shock",))
        + roll_penalties(f, "save")
        + [Modifier(-3, "Shock", rule("shock"))],
        dice,
        "save vs shock",
    )
    out += made.effects
    if not made.success:
        out += knock_out(
            f,
            to_rounds(roll_expr(c.save_fail_duration or "1d4", dice, "shock"), "hours"),
            "Shock",
            rule("shock"),
        )
    return out


def choke(f: Fighter, dice: DiceSource) -> list[Effect]:
    """CHOKE: Save vs Death or be Knocked Out for 1D10 minutes; once knocked out, save again or choke to
    death."""
    c = tables().conditions.conditions["choke"]
    if f.has("knocked-out"):
        again = save(
            f, save_bonuses(f.stats, ("death",)) + roll_penalties(f, "save"), dice, "save vs death (choking)"
        )
        dead = [] if again.success else [Effect("dead", f.id, why="Choked to death", rule=rule("choke"))]
        return [*again.effects, *dead]
    made = save(
        f,
        save_bonuses(f.stats, ("death",))
        + roll_penalties(f, "save")
        + [Modifier(c.all_rolls, "Choking", rule("choke"))],
        dice,
        "save vs death (choke)",
    )
    out = [*made.effects, Effect("condition", f.id, name="choke", why=c.label, rule=rule("choke"))]
    if made.success:
        return out
    minutes = roll_expr(c.save_fail_duration or "1d10", dice, "choke")
    return out + knock_out(f, to_rounds(minutes, "minutes"), "Choke", rule("choke"))


def knocked_down(f: Fighter, dice: DiceSource, why: str = "Knocked Down") -> list[Effect]:
    """KNOCKED DOWN: prone, and a 50% chance to drop whatever is held."""
    c = tables().conditions.conditions["knocked-down"]
    out = [Effect("condition", f.id, name="knocked-down", why=why, rule=rule("knocked-down"))]
    if percent(c.drop_percent, dice, "drop?"):
        out.append(Effect("drop-weapon", f.id, why=why, rule=rule("knocked-down")))
    return out


def knocked_back(f: Fighter, dice: DiceSource) -> list[Effect]:
    """KNOCKED BACK 1D2 spaces."""
    spaces = roll_expr(tables().conditions.conditions["knocked-back"].spaces or "1d2", dice, "knocked back")
    return [Effect("knocked-back", f.id, spaces, why="Knocked Back", rule=rule("knocked-back"))]


# ---------------------------------------------------------------------------------------------------------
# brawl


@fast_frozen_init
@dataclass(frozen=True, slots=True)
class BrawlDecision:
    trigger: int
    brawl: bool
    face: int | None = None
    row: BrawlRow | None = None
    plain: bool = False
    rule: str = ""


def brawl_applies(att: Fighter, dfn: Fighter, ranged: bool) -> bool:
    """THE BRAWL RULE applies only to melee attacks of Humans, Demi-Humans and Humanoids on each other."""
    return not ranged and att.stats.humanoid and dfn.stats.humanoid


def brawl_roll(dice: DiceSource) -> BrawlDecision:
    """Roll 1D20 before the attack: 1-10 the melee attack becomes a Random Brawl Attack, rolled on 1D60.
    A face the data lacks (rows 24-60) is an unmodified brawl attack (Damage -3), setting brawl_missing_rows;
    "reroll" rolls the 1D60 again until it finds a row. Rows needing two free hands are kept: the engine
    substitutes (reference 1.1: the GM substitutes the result above or below)."""
    t = tables()
    b = t.brawl
    trig = dice.roll(b.trigger_die, "brawl?")
    if trig > b.trigger_high:
        return BrawlDecision(trig, False, rule=rule("brawl-rule"))
    face = dice.roll(b.die, "random brawl attack")
    row = b.find(face)
    while row is None and t.settings.brawl_missing_rows == "reroll":
        face = dice.roll(b.die, "random brawl attack (reroll)")
        row = b.find(face)
    if row is None:
        return BrawlDecision(trig, True, face, None, True, setting("brawl_missing_rows"))
    return BrawlDecision(trig, True, face, row, False, rule("random-brawl", row.id))


def two_hand_substitute(row: BrawlRow, hands_free: int) -> BrawlRow | None:
    """A 2H row for an attacker without two free hands: the nearest row below (then above) it can make."""
    if not row.two_hands or hands_free >= 2:
        return row
    rows = tables().brawl.rows
    i = rows.index(row)
    for j in [*range(i - 1, -1, -1), *range(i + 1, len(rows))]:
        if not rows[j].two_hands:
            return rows[j]
    return None


def brawl_effects(att: Fighter, dfn: Fighter, row: BrawlRow, dice: DiceSource) -> list[Effect]:
    """The on-hit effect of a Random Brawl Attacks row (reference 1.2)."""
    rid = rule("random-brawl", row.id)
    t = tables()
    out: list[Effect] = []
    d = dfn.id
    e = row.effect
    if e is None:
        return out
    if e == "initiative-penalty":
        if percent(row.percent, dice, "basic punch"):
            out.append(Effect("next", d, row.initiative, "initiative", why=row.label, rule=rid))
    elif e == "broken-part":
        out += break_part(dfn, row.part or "leg", dice)
        if row.part == "head":
            out.append(Effect("mute", d, why="Broken jaw", rule=rid))
    elif e == "hurt-part":
        out += hurt_part(dfn, row.part or "arm", dice)
    elif e == "hurt-or-broken-part":
        part = row.part or "foot"
        out += (
            break_part(dfn, part, dice)
            if percent(row.percent, dice, "broken?")
            else hurt_part(dfn, part, dice)
        )
    elif e == "prone-distracted":
        n = roll_expr(row.duration or "1d6", dice, row.label)
        out.append(Effect("condition", d, name="knocked-down", why=row.label, rule=rid))
        out.append(Effect("condition", d, name="distracted", rounds=n, why=row.label, rule=rid))
    elif e == "partial-blindness":
        out.append(Effect("condition", d, name="partial-blindness", why=row.label, rule=rid))
        if percent(row.percent, dice, "permanent?"):
            out.append(Effect("permanent", d, name="eye", why=row.label, rule=rid))
    elif e == "blinded":
        out.append(Effect("condition", d, name="blinded", why=row.label, rule=rid))
        out.append(Effect("permanent", d, name="eyes", why=row.label, rule=rid))
    elif e == "stunned":
        out.append(
            Effect(
                "condition",
                d,
                name="stunned",
                rounds=roll_expr(row.duration or "1d4", dice, row.label),
                why=row.label,
                rule=rid,
            )
        )
    elif e == "both-stunned":
        n = row.duration or "1d3"
        out.append(
            Effect(
                "condition",
                att.id,
                name="stunned",
                rounds=roll_expr(n, dice, row.label),
                why=row.label,
                rule=rid,
            )
        )
        out.append(
            Effect(
                "condition", d, name="stunned", rounds=roll_expr(n, dice, row.label), why=row.label, rule=rid
            )
        )
    elif e == "no-attack-next":
        out.append(Effect("next", d, 1, "miss_attack", why=row.label, rule=rid))
    elif e in ("subdued", "subdued-choke"):
        out.append(
            Effect(
                "condition",
                d,
                name=t.settings.subdued_condition,
                why=f"{row.label}: Subdued",
                rule=setting("subdued_condition"),
            )
        )
        if e == "subdued-choke":
            out += choke(dfn, dice)
    elif e == "disarmed":
        out.append(Effect("drop-weapon", d, why=row.label, rule=rid))
    elif e == "grabbed":
        out.append(Effect("condition", d, name="partial-immobilization", why=row.label, rule=rid))
    elif e == "lose-finger-or-ear":
        if percent(row.percent, dice, "finger or ear"):
            out.append(Effect("permanent", d, name="finger-or-ear", why=row.label, rule=rid))
    elif e == "appearance":
        out.append(Effect("stat", d, row.appearance, "appearance", why=row.label, rule=rid))
    elif e == "partial-blindness-timed":
        minutes = roll_expr(row.duration or "1d10", dice, row.label)
        out.append(
            Effect(
                "condition",
                d,
                name="partial-blindness",
                rounds=to_rounds(minutes, "minutes"),
                why=row.label,
                rule=rid,
            )
        )
    else:
        raise RuleNotImplemented(f"Random Brawl Attack effect {e!r} ({rid})")
    return out


# ---------------------------------------------------------------------------------------------------------
# special combat


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
    s = t.settings
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
    s = tables().settings
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
    t = tables()
    mods = [Modifier(f.stats.strength, "Strength", setting("break_check"))]
    if f.stats.skill("escape-artist"):
        mods.append(Modifier(f.stats.skill("escape-artist"), "Escape Artist", rule("immobilized")))
    if pile_bonus:
        mods.append(Modifier(-pile_bonus, "the pile's Brawl bonus", rule("dog-pile")))
    return skill_check(t.settings.break_check, mods + roll_penalties(f, "check"), dice, "break free")


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


def action_check(
    f: Fighter, action: str, dice: DiceSource, adjacent_foes: int = 0, extra: Sequence[Modifier] = ()
) -> Check:
    """A skill check an action of the list asks for (Lookout, Rally, Pick up, Catch Missile, Hide...)."""
    t = tables()
    a = t.combat.actions.get(action) or t.combat.reactions[action]
    kind = "reactions" if action in t.combat.reactions else "actions"
    difficulty = a.check or getattr(t.settings, f"{action.replace('-', '_')}_check", "moderate")
    mods: list[Modifier] = []
    if a.skill and f.stats.skill(a.skill):
        mods.append(Modifier(f.stats.skill(a.skill), a.skill.title(), rule(kind, action)))
    if a.per_adjacent_foe and adjacent_foes:
        mods.append(
            Modifier(a.per_adjacent_foe * adjacent_foes, f"{adjacent_foes} adjacent foes", rule(kind, action))
        )
    sight = "sight" if action in ("lookout", "catch-missile", "pick-up") else "check"
    return skill_check(difficulty, mods + list(extra) + roll_penalties(f, sight), dice, a.label)


def apply(fighters: dict[str, Fighter], effects: Iterable[Effect]) -> None:
    """Fold effects into fighters (for tests and the simulator; the engine folds events instead)."""
    for e in effects:
        f = fighters.get(e.target)
        if f is None:
            continue
        k = e.kind
        if k == "markers":
            f.markers = max(0, f.markers + e.value)
            f.burn_markers = min(f.burn_markers, f.markers)
            if e.value > 0:
                f.hits_taken += 1
        elif k == "burn-markers":
            f.markers += e.value
            f.burn_markers += e.value
        elif k == "condition":
            f.conditions[e.name] = e.rounds
        elif k == "remove-condition":
            f.conditions.pop(e.name, None)
        elif k == "hurt":
            f.hurt.append(e.name)
        elif k == "broken":
            f.broken.append(e.name)
        elif k == "remove-broken":
            if e.name in f.broken:
                f.broken.remove(e.name)
        elif k == "permanent":
            f.permanent.append(e.name)
        elif k == "bleed":
            f.bleeds += e.value
            f.next["bleed_death"] = min(f.next.get("bleed_death", 10**6), e.rounds or 10**6)
        elif k == "stop-bleed":
            f.bleeds = 0
            f.next.pop("bleed_death", None)
        elif k == "dead":
            f.dead = True
        elif k == "dying":
            f.dying_rounds = e.rounds
        elif k == "next":
            f.next[e.name] = f.next.get(e.name, 0) + e.value
        elif k == "stat":
            if e.name == "strength":
                f.strength_loss -= e.value
            elif e.name == "appearance":
                f.appearance_loss -= e.value
        elif k == "drop-weapon":
            held = tables().weapons.get(f.wielded)
            if held is None or held.hands:  # a natural weapon is never dropped
                f.weapon = "unarmed"
        elif k == "lost-limb":
            f.lost = (*f.lost, e.name)
            if e.name == "leg":
                f.next["move"] = f.next.get("move", 0) + e.value
