"""Spells & Swords rolls every procedure shares: dice expressions and durations, the :class:`Effect` a
procedure returns, skill checks and saving throws (reference 2.4, 2.5, COMBAT ROUND ACTIONS LIST checks)
and the penalties a fighter carries to its rolls (WOUNDED CONDITION, HARMFULL CONDITIONS, BODY PART
HURT/BROKEN, PERMANENT INJURIES)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from fracas.dice.expr import Dice, Expr, Step, parse
from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.errors import UsageError
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter, Stats
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import Settings, tables


@lru_cache(maxsize=256)
def sas_dice(text: str) -> Expr:
    """Spells & Swords dice notation ("1D6", "2d10", "1d3+5", a plain "1") read by the project's one
    dice-notation parser (:func:`fracas.dice.expr.parse`): dice of any number of sides and numbers added or
    taken off. The text's dice never explode and it has no steps nor GURPS "2d": those are refused.
    Whitespace of any kind may stand between the terms, as the encounter file's ``settings:`` allow it."""
    bad = UsageError(f"{text!r} is not Spells & Swords dice (like 1D6, 2d10, 1d3+5 or a number)")
    try:
        expr = parse(" ".join(text.split()) if isinstance(text, str) else text)
    except UsageError:
        raise bad from None
    if any(isinstance(x, Step) or (isinstance(x, Dice) and (x.explode or x.gurps)) for x in expr.terms):
        raise bad
    return expr


def roll_expr(expr: str, dice: DiceSource, why: str = "") -> int:
    """Roll S&S dice notation (:func:`sas_dice`) with ``dice``: each die in the order written, one face
    asked of ``dice`` per die, plus the numbers; a plain number rolls nothing."""
    return sas_dice(expr).roll(dice, why).total


UNIT_ROUNDS = {"rounds": 1, "minutes": 6, "hours": 360, "days": 8640, "weeks": 60480}


def to_rounds(amount: int, unit: str, settings: Settings) -> int:
    """Combat rounds in ``amount`` ``unit`` ("A Combat round is about 10 Seconds": 6 per minute, setting
    rounds_per_minute of the encounter's ``settings``)."""
    per_minute = settings.rounds_per_minute
    if unit == "rounds":
        return amount
    minutes = {"minutes": 1, "hours": 60, "days": 1440, "weeks": 10080}[unit]
    return amount * minutes * per_minute


def percent(chance: int, dice: DiceSource, why: str, settings: Settings) -> bool:
    """A "N%" chance: 1D100 (setting percent_die of the encounter's ``settings``) at or under N."""
    die = settings.percent_die
    return dice.roll(die, why) <= chance * die // 100


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
        out.append(Modifier(f.in_force.battle_cry_attack, "Battle Cry", setting("battle_cry_attack")))
    return out


def no_dodge(f: Fighter) -> str | None:
    """The condition that takes away the Dodge bonus, if any (Confusion, Knocked Out, Immobilized,
    Partial Immobilization)."""
    for name in ("knocked-out", "immobilized", "partial-immobilization", "confusion"):
        if f.has(name):
            return name
    return None


def action_check(
    f: Fighter, action: str, dice: DiceSource, adjacent_foes: int = 0, extra: Sequence[Modifier] = ()
) -> Check:
    """A skill check an action of the list asks for (Lookout, Rally, Pick up, Catch Missile, Hide...)."""
    t = tables()
    a = t.combat.actions.get(action) or t.combat.reactions[action]
    kind = "reactions" if action in t.combat.reactions else "actions"
    difficulty = a.check or str(getattr(f.in_force, f"{action.replace('-', '_')}_check", "moderate"))
    mods: list[Modifier] = []
    if a.skill and f.stats.skill(a.skill):
        mods.append(Modifier(f.stats.skill(a.skill), a.skill.title(), rule(kind, action)))
    if a.per_adjacent_foe and adjacent_foes:
        mods.append(
            Modifier(a.per_adjacent_foe * adjacent_foes, f"{adjacent_foes} adjacent foes", rule(kind, action))
        )
    sight = "sight" if action in ("lookout", "catch-missile", "pick-up") else "check"
    return skill_check(difficulty, mods + list(extra) + roll_penalties(f, sight), dice, a.label)
