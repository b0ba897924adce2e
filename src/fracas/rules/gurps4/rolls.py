"""The GURPS core's rolls and maneuvers (B343-366; reference/gurps.md 1.1-1.3): success rolls and their
criticals, Quick Contests, turn order, damage by ST, and what each maneuver allows and adds. Pure: numbers
and a DiceSource in, frozen results out."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.dice import DamageDice, parse_dice, roll_3d6
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
