"""Spells & Swords wounds and fumbles: FUMBLES and MONSTER FUMBLES, LIGHT WOUNDS, MAJOR WOUNDS, BLEEDING,
BODY PART HURT/BROKEN and the RANDOM BODY PART TABLE, the CONFUSION TABLE, and the HARMFULL CONDITIONS that
roll (SHOCK, CHOKE, KNOCKED DOWN, KNOCKED OUT, KNOCKED BACK). One module: a fumble can injure its maker (a
Light Wound) and a Light Wound can make its victim fumble."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.events import fast_frozen_init
from fracas.rules.base import Modifier, total
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import (
    Effect,
    TableRoll,
    percent,
    roll_expr,
    roll_penalties,
    save,
    save_bonuses,
    to_rounds,
)
from fracas.rules.sas.rows import EffectRow, FumbleRow
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.tables import tables


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
        out += knock_out(f, to_rounds(hours, "hours", f.in_force), "Skull Crack", rule("body-part-broken"))
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
    return [Effect("regrow", f.id, to_rounds(minutes, "minutes", f.in_force), part, why=kind, rule=rid)]


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
        broken = percent(row.broken_percent, dice, "broken?", f.in_force)
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
    leg = percent(f.in_force.lost_limb_leg_percent, dice, "leg or arm", f.in_force)
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
            rounds=to_rounds(minutes, row.death_unit or "minutes", f.in_force),
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
            f,
            to_rounds(roll_expr(row.duration or "1d2", dice, "skull crack"), "hours", f.in_force),
            row.label,
            rid,
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
    if not f.in_force.major_wound_prone:
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
            to_rounds(roll_expr(c.save_fail_duration or "1d4", dice, "shock"), "hours", f.in_force),
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
    return out + knock_out(f, to_rounds(minutes, "minutes", f.in_force), "Choke", rule("choke"))


def knocked_down(f: Fighter, dice: DiceSource, why: str = "Knocked Down") -> list[Effect]:
    """KNOCKED DOWN: prone, and a 50% chance to drop whatever is held."""
    c = tables().conditions.conditions["knocked-down"]
    out = [Effect("condition", f.id, name="knocked-down", why=why, rule=rule("knocked-down"))]
    if percent(c.drop_percent, dice, "drop?", f.in_force):
        out.append(Effect("drop-weapon", f.id, why=why, rule=rule("knocked-down")))
    return out


def knocked_back(f: Fighter, dice: DiceSource) -> list[Effect]:
    """KNOCKED BACK 1D2 spaces."""
    spaces = roll_expr(tables().conditions.conditions["knocked-back"].spaces or "1d2", dice, "knocked back")
    return [Effect("knocked-back", f.id, spaces, why="Knocked Back", rule=rule("knocked-back"))]
