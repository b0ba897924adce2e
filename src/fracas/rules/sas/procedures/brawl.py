"""Spells & Swords THE BRAWL RULE and the Random Brawl Attacks table (reference 1.1, 1.2)."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.errors import RuleNotImplemented
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Effect, percent, roll_expr, to_rounds
from fracas.rules.sas.procedures.wounds import break_part, choke, hurt_part
from fracas.rules.sas.rows import BrawlRow
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import Settings, tables


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


def brawl_roll(dice: DiceSource, settings: Settings) -> BrawlDecision:
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
    while row is None and settings.brawl_missing_rows == "reroll":
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
    out: list[Effect] = []
    d = dfn.id
    e = row.effect
    if e is None:
        return out
    if e in _BODY_EFFECTS:
        return _body_effects(att, dfn, row, dice)
    if e == "initiative-penalty":
        if percent(row.percent, dice, "basic punch", att.in_force):
            out.append(Effect("next", d, row.initiative, "initiative", why=row.label, rule=rid))
    elif e == "prone-distracted":
        n = roll_expr(row.duration or "1d6", dice, row.label)
        out.append(Effect("condition", d, name="knocked-down", why=row.label, rule=rid))
        out.append(Effect("condition", d, name="distracted", rounds=n, why=row.label, rule=rid))
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
        both = row.duration or "1d3"
        out.append(
            Effect(
                "condition",
                att.id,
                name="stunned",
                rounds=roll_expr(both, dice, row.label),
                why=row.label,
                rule=rid,
            )
        )
        out.append(
            Effect(
                "condition",
                d,
                name="stunned",
                rounds=roll_expr(both, dice, row.label),
                why=row.label,
                rule=rid,
            )
        )
    elif e == "no-attack-next":
        out.append(Effect("next", d, 1, "miss_attack", why=row.label, rule=rid))
    elif e in ("subdued", "subdued-choke"):
        out.append(
            Effect(
                "condition",
                d,
                name=att.in_force.subdued_condition,
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
    else:
        raise RuleNotImplemented(f"Random Brawl Attack effect {e!r} ({rid})")
    return out


_BODY_EFFECTS = frozenset(
    (
        "appearance",
        "blinded",
        "broken-part",
        "hurt-or-broken-part",
        "hurt-part",
        "lose-finger-or-ear",
        "partial-blindness",
        "partial-blindness-timed",
    )
)
"""The Random Brawl Attacks effects on a part of the body, an eye or the looks (``_body_effects``)."""


def _body_effects(att: Fighter, dfn: Fighter, row: BrawlRow, dice: DiceSource) -> list[Effect]:
    """A Random Brawl Attacks row's effect on a part of the body, an eye or the looks (reference 1.2)."""
    rid = rule("random-brawl", row.id)
    out: list[Effect] = []
    d = dfn.id
    e = row.effect
    if e == "broken-part":
        out += break_part(dfn, row.part or "leg", dice)
        if row.part == "head":
            out.append(Effect("mute", d, why="Broken jaw", rule=rid))
    elif e == "hurt-part":
        out += hurt_part(dfn, row.part or "arm", dice)
    elif e == "hurt-or-broken-part":
        part = row.part or "foot"
        out += (
            break_part(dfn, part, dice)
            if percent(row.percent, dice, "broken?", att.in_force)
            else hurt_part(dfn, part, dice)
        )
    elif e == "partial-blindness":
        out.append(Effect("condition", d, name="partial-blindness", why=row.label, rule=rid))
        if percent(row.percent, dice, "permanent?", att.in_force):
            out.append(Effect("permanent", d, name="eye", why=row.label, rule=rid))
    elif e == "blinded":
        out.append(Effect("condition", d, name="blinded", why=row.label, rule=rid))
        out.append(Effect("permanent", d, name="eyes", why=row.label, rule=rid))
    elif e == "lose-finger-or-ear":
        if percent(row.percent, dice, "finger or ear", att.in_force):
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
                rounds=to_rounds(minutes, "minutes", att.in_force),
                why=row.label,
                rule=rid,
            )
        )
    return out
