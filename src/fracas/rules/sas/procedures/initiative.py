"""Spells & Swords SURPRISE and INITIATIVE: who attacks first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


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
