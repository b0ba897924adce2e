"""Spells & Swords DEATH BY A THOUSAND CUTS, HEALING and REGENERATION."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Effect, percent, roll_expr
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


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
    weeks = roll_expr(f.in_force.broken_heal, dice, "weeks")
    out = [Effect("remove-broken", f.id, weeks, part, why=f"healed in {weeks} weeks", rule=rule("healing"))]
    if percent(t.wounds.permanent.percent, dice, "permanent?", f.in_force):
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
