"""The GURPS 4th Edition combat core the mounted and aerial rules stand on.

Pure procedures: numbers and a :class:`~fracas.dice.source.DiceSource` in, frozen results out. The facts
come from REFERENCE.md -> reference/gurps.md (the Basic Set pages it cites are in each rule id's page);
the rules text 002 (pp.B396-398) builds on them. Every modifier is a
:class:`~fracas.rules.gurps4.modifiers.Modifier` naming its rule.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.dice import DamageDice, parse_dice, roll_3d6, roll_damage_dice
from fracas.rules.gurps4.modifiers import Modifier, mod, total

RollKind = Literal["skill", "melee", "ranged", "defense"]

# --------------------------------------------------------------------------------------------------
# Success rolls (B343-348)

R_SUCCESS = "gurps4/core/success-roll"
R_CRITICAL = "gurps4/core/critical"


def critical_success(roll: int, effective: int) -> bool:
    """3-4 always; 5 at effective 15+; 6 at effective 16+ (B347-348)."""
    return roll <= 4 or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16)


def critical_failure(roll: int, effective: int, kind: RollKind = "skill") -> bool:
    """18 always; 17 at effective 15 or less; 10+ over effective except ranged attacks (B348, B382)."""
    if roll == 18 or (roll == 17 and effective <= 15):
        return True
    return kind != "ranged" and roll >= effective + 10


def can_attempt(effective: int, kind: RollKind) -> bool:
    """Below effective 3 only defense rolls may be attempted (B344). Here the limit stops attacks; rolls
    the rules force on a figure (HT to stay conscious, Riding to stay on) are still rolled: 3-4 succeed."""
    return kind not in ("melee", "ranged") or effective >= 3


@dataclass(frozen=True, slots=True)
class SuccessRoll:
    """A 3d6 roll against an effective skill or attribute, with every modifier that made it."""

    what: str
    base: int
    modifiers: tuple[Modifier, ...]
    effective: int
    faces: tuple[int, ...]
    kind: str
    success: bool
    critical: bool

    @property
    def roll(self) -> int:
        return sum(self.faces)

    @property
    def margin(self) -> int:
        """Margin of success (positive) or of failure (negative): effective - roll."""
        return self.effective - self.roll

    @property
    def critical_success(self) -> bool:
        return self.success and self.critical

    @property
    def critical_failure(self) -> bool:
        return not self.success and self.critical

    def describe(self) -> str:
        mods = " ".join(str(m) for m in self.modifiers)
        verdict = ("critical " if self.critical else "") + ("success" if self.success else "failure")
        return (
            f"{self.what} {self.base}{(' ' + mods) if mods else ''} = {self.effective}; "
            f"rolled {self.roll} ({'+'.join(map(str, self.faces))}): {verdict} by {abs(self.margin)}"
        )


def effective_value(
    base: int, modifiers: Iterable[Modifier], cap: tuple[int, Modifier] | None = None
) -> tuple[int, tuple[Modifier, ...]]:
    """Base plus modifiers; a ``cap`` (value, explaining modifier) applies last (B365: Move and Attack)."""
    mods = list(modifiers)
    eff = base + total(mods)
    if cap is not None and eff > cap[0]:
        m = cap[1]
        mods.append(Modifier(cap[0] - eff, m.why, m.rule))
        eff = cap[0]
    return eff, tuple(mods)


def maneuver_words(name: str) -> str:
    """A maneuver's id as the Basic Set writes it: ``all_out_attack_determined`` reads "All-Out Attack
    (Determined)" (B324, B365), ``move_and_attack`` "Move and Attack"."""
    words = name.replace("-", "_").split("_")
    if words[:2] == ["all", "out"]:
        head = "All-Out " + " ".join(w.title() for w in words[2:3])
        return head + (f" ({' '.join(w.title() for w in words[3:])})" if words[3:] else "")
    return " ".join(w if i and w in ("and", "or") else w.title() for i, w in enumerate(words))


def weapon_words(key: str) -> str:
    """A weapon's attack id in words: ``spear:thrust_two_handed`` reads "spear thrust, two-handed",
    ``composite_bow`` "composite bow"."""
    head, _, mode = key.partition(":")
    text = head.replace("_", " ")
    if mode:
        parts = mode.split("_")
        grip = "-".join(parts[1:]) if parts[1:] == ["two", "handed"] or parts[1:] == ["one", "handed"] else ""
        text += " " + (f"{parts[0]}, {grip}" if grip else " ".join(parts))
    return text


_ID = re.compile(r"\b[a-z]+(?:[_:][a-z]+)+\b")


def ids_in_words(text: str) -> str:
    """A roll's name with the weapon ids in it in words: "composite_bow (Bow)" reads "composite bow (Bow)"."""
    return _ID.sub(lambda m: weapon_words(m.group(0)), text)


def judge(roll: int, effective: int, kind: RollKind = "skill") -> tuple[bool, bool]:
    """(success, critical) of a 3d6 total against an effective skill (B343-348)."""
    if critical_success(roll, effective):
        return True, True
    crit_fail = critical_failure(roll, effective, kind)
    if roll >= 17 or roll > effective:
        return False, crit_fail
    return True, False


def success_roll(
    what: str,
    base: int,
    modifiers: Iterable[Modifier],
    dice: DiceSource,
    kind: RollKind = "skill",
    cap: tuple[int, Modifier] | None = None,
) -> SuccessRoll:
    """Roll 3d6 against ``base`` + ``modifiers``: success at or under the effective value (B343)."""
    eff, mods = effective_value(base, modifiers, cap)
    if not can_attempt(eff, kind):
        raise IllegalCommand(
            f"{what} at effective {eff}: below 3 only defense rolls may be attempted", f"{R_SUCCESS} B344"
        )
    faces = roll_3d6(dice, what)
    ok, crit = judge(sum(faces), eff, kind)
    return SuccessRoll(what, base, mods, eff, faces, kind, ok, crit)


def success_odds(effective: int, kind: RollKind = "skill") -> float:
    """Exact chance of success on 3d6 against ``effective`` (all 216 outcomes enumerated)."""
    wins = 0
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                wins += judge(a + b + c, effective, kind)[0]
    return wins / 216


# --------------------------------------------------------------------------------------------------
# Quick Contests (B348-349)


@dataclass(frozen=True, slots=True)
class Contest:
    """Who won a Quick Contest (``"a"``, ``"b"`` or None for a tie) and by how much."""

    a: SuccessRoll
    b: SuccessRoll
    winner: str | None
    margin: int


def quick_contest(a: SuccessRoll, b: SuccessRoll, resistance: bool = False) -> Contest:
    """Success beats failure; else the better margin wins; ties are ties (B348). Criticals do not decide.

    ``resistance``: ``a`` is the active side and must succeed to win; ``b`` wins ties (B349).
    """
    if a.success != b.success:
        winner = "a" if a.success else "b"
        margin = abs(a.margin) + abs(b.margin)
    elif a.margin == b.margin:
        winner, margin = None, 0
    else:
        winner = "a" if a.margin > b.margin else "b"
        margin = abs(a.margin - b.margin)
    if resistance and winner != "a":
        winner = "b"
    if resistance and winner == "a" and not a.success:
        winner = "b"
    return Contest(a, b, winner, margin)


# --------------------------------------------------------------------------------------------------
# Turn order (B363): Basic Speed, then DX; a full tie is settled by a die roll


def turn_order(fighters: Sequence[tuple[str, float, int]], dice: DiceSource) -> list[str]:
    """Names in acting order from (name, Basic Speed, DX). Full ties roll 1d each (highest first)."""
    tie_roll: dict[str, int] = {}
    keys = [(speed, dx) for _, speed, dx in fighters]
    for name, speed, dx in fighters:
        if keys.count((speed, dx)) > 1:
            tie_roll[name] = dice.roll(6, f"turn order tie for {name}")
    order = sorted(fighters, key=lambda f: (-f[1], -f[2], -tie_roll.get(f[0], 0)))
    return [f[0] for f in order]


# --------------------------------------------------------------------------------------------------
# Damage by ST (B16)


def thrust_swing(st: int) -> tuple[DamageDice, DamageDice]:
    """Basic thrust and swing damage for ST, from data/damage_by_st.toml (B16)."""
    table = data.damage_table()
    if st > 100:
        thr, sw = table[100]
        extra = (st - 100) // 10
        return DamageDice(thr.dice + extra, thr.adds), DamageDice(sw.dice + extra, sw.adds)
    if st < 1:
        raise RuleNotImplemented("damage for ST below 1 (B16)")
    if st not in table:
        raise RuleNotImplemented(
            f"thrust/swing for ST {st}: not in data/damage_by_st.toml; add the row from p.B16"
        )
    return table[st]


def weapon_damage(st: int, damage: str) -> DamageDice:
    """``thr+3``/``sw-1`` at ST, or fixed dice (``4d``) (B269)."""
    for base, idx in (("thr", 0), ("sw", 1)):
        if damage.startswith(base):
            rest = damage[len(base) :]
            return thrust_swing(st)[idx].plus(int(rest) if rest else 0)
    return parse_dice(damage)


# --------------------------------------------------------------------------------------------------
# Maneuvers (B363-366)

R_MANEUVER = "gurps4/core/maneuver"


def maneuver(name: str) -> data.ManeuverSpec:
    table = data.maneuvers()
    if name not in table:
        raise IllegalCommand(f"unknown maneuver {name!r}; known: {', '.join(table)}", f"{R_MANEUVER} B363")
    return table[name]


def step_yards(move: int) -> int:
    """A step is Move/10 rounded up, at least 1 yard (B368; reference 1.3)."""
    return max(1, math.ceil(move / 10))


def maneuver_move(name: str, move: int) -> int:
    """Yards a maneuver lets a figure move with this (air or ground) Move."""
    kind = maneuver(name).movement
    return {"none": 0, "step": step_yards(move), "half": move // 2 if move > 1 else move, "full": move}[kind]


def attack_modifiers(
    name: str, ranged: bool = False, bulk: int = 0
) -> tuple[list[Modifier], tuple[int, Modifier] | None]:
    """Skill modifiers (and a cap applied last) that the attacker's maneuver gives (B365-366)."""
    spec = maneuver(name)
    mods: list[Modifier] = []
    cap = None
    if name == "move_and_attack":
        if ranged:
            v = min(-2, bulk)
            mods.append(
                mod(
                    v,
                    "Move and Attack, ranged: -2 or the weapon's Bulk",
                    f"{R_MANEUVER}/move-and-attack",
                    "B365",
                )
            )
        else:
            mods.append(mod(-4, "Move and Attack, melee", f"{R_MANEUVER}/move-and-attack", "B365"))
            cap = (
                9,
                mod(
                    0,
                    "Move and Attack: melee skill capped at 9 after all modifiers",
                    f"{R_MANEUVER}/move-and-attack",
                    "B365",
                ),
            )
    elif ranged and spec.skill_bonus_ranged:
        mods.append(mod(spec.skill_bonus_ranged, f"{name.replace('_', ' ')}", f"{R_MANEUVER}/{name}", "B365"))
    elif not ranged and spec.skill_bonus_melee:
        mods.append(mod(spec.skill_bonus_melee, f"{name.replace('_', ' ')}", f"{R_MANEUVER}/{name}", "B365"))
    if spec.attacks == 0:
        raise IllegalCommand(f"the {name} maneuver allows no attack", f"{R_MANEUVER} B363")
    return mods, cap


def strong_attack_bonus(dice: DamageDice) -> Modifier:
    """All-Out Attack (Strong): +2 damage or +1 per die, whichever is better (B365)."""
    return mod(max(2, dice.dice), "All-Out Attack (Strong)", f"{R_MANEUVER}/all_out_attack_strong", "B365")


def evaluate_bonus(turns: int) -> Modifier | None:
    """Evaluate: +1 per turn spent, at most +3 (B364)."""
    if turns <= 0:
        return None
    return mod(min(3, turns), f"Evaluate x{turns}", f"{R_MANEUVER}/evaluate", "B364")


def aim_bonus(acc: int, turns: int, braced: bool = False) -> list[Modifier]:
    """Aim: +Acc after 1 turn, +1 more after 2, +2 after 3 or more; +1 if braced (B364)."""
    if turns <= 0:
        return []
    mods = [mod(acc, "Aim: weapon Acc", f"{R_MANEUVER}/aim", "B364")]
    if turns >= 2:
        mods.append(mod(min(2, turns - 1), f"Aim for {turns} turns", f"{R_MANEUVER}/aim", "B364"))
    if braced:
        mods.append(mod(1, "braced", f"{R_MANEUVER}/aim", "B364"))
    return mods


def feint_penalty(contest: Contest) -> int:
    """What the feinter's win takes off the foe's next defense (B365): the margin of success if the foe
    failed, the margin of victory if both succeeded, nothing otherwise."""
    if contest.winner != "a" or not contest.a.success:
        return 0
    return contest.a.margin if not contest.b.success else contest.margin


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
