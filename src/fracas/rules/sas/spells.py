"""Spell Check and Spell Failure (reference/spells-and-swords.md 5.1), and the Shield Spell an attack
meets (REACTIONS).
"""

from __future__ import annotations

import dataclasses

from fracas.dice.source import DiceSource
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import Modifier
from fracas.rules.sas.fold import EventBuilder, rolled, view
from fracas.rules.sas.procedures.attack import Situation
from fracas.rules.sas.procedures.rolls import Effect, TableRoll, roll_expr, roll_penalties, to_rounds
from fracas.rules.sas.procedures.wounds import knock_out
from fracas.rules.sas.round import deaths
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


def shield_spell(
    b: EventBuilder, state: FightState, target: Combatant, sit: Situation, dice: DiceSource
) -> Situation:
    if target.has("shield-spell") or b.has(target.id, "shield-spell"):
        return dataclasses.replace(sit, shield_spell=True)
    if (
        b.mark(target.id, "reacted_round") == state.round
        # the Power Points left now: what this command has spent counts (reference 5.1: 1 PP a spell)
        or b.counter(target.id, "pp_used") >= target.stats.power_points
        or "shield" in (b.mark(target.id, "spells_lost") or ())  # fizzled today (reference 5.1)
    ):
        return sit
    if b.status(target.id) != "active":
        return sit
    ok = spell_check(b, state, target, dice, "Shield Spell", "shield")
    b.set_mark(target.id, "reacted_round", state.round, rule("reactions", "shield-spell"))
    if ok:
        b.add_condition(
            target.id, "shield-spell", state.round, 0, "Shield Spell", rule("reactions", "shield-spell")
        )
        return dataclasses.replace(sit, shield_spell=True)
    return sit


def spell_check(
    b: EventBuilder, state: FightState, c: Combatant, dice: DiceSource, what: str, spell: str
) -> bool:
    """Spell Check (reference 5.1): 1 PP, 1D20 with the caster's penalties; failing: Spell Failure. A
    Fizzle, and a Spellburn ("as Fizzle"), lose "the use of that spell for the day" (mark spells_lost:
    a fight is within one day)."""
    t = tables()
    b.add_counter(c.id, "pp_used", t.magic.power_points, what, rule("spell-check"))
    f = view(state, c)
    mods = roll_penalties(f, "check")
    if c.has("confusion"):
        mods.append(Modifier(-4, "Caster Confused", rule("spell-check")))
    face = dice.roll(20, f"spell check {what}")
    tot = face + sum(m.value for m in mods)
    row = t.magic.lookup(tot, natural=face)
    if face == 20:
        row = t.magic.row("success")
    troll = TableRoll(
        "spell-check", 20, face, tuple(mods), tot, row.id, row.label, rule("spell-check", row.id)
    )
    b.events.append(rolled(c.id, f"Spell Check ({what})", troll))
    if row.fatigue:
        rounds = settings_of(state).exhaustion_rounds
        until = None if not rounds else state.round + rounds
        b.add_condition(c.id, "exhausted", until, 0, "Spell Check: Exhaustion", rule("spell-check", row.id))
    if row.knocked_out:
        hours = roll_expr(row.knocked_out, dice, "knocked out")
        b.effects(
            knock_out(
                view(state, c),
                to_rounds(hours, "hours", settings_of(state)),
                "Spell Check",
                rule("spell-check", row.id),
            )
        )
    if not row.success:
        face2 = dice.roll(20, "spell failure")
        frow = t.magic.failure.lookup(face2)
        b.events.append(
            rolled(
                c.id,
                "Spell Failure",
                TableRoll(
                    "spell-failure",
                    20,
                    face2,
                    (),
                    face2,
                    frow.id,
                    frow.label,
                    rule("spell-check", frow.id),
                ),
            )
        )
        if frow.id in ("fizzle", "spellburn"):
            lost = b.mark(c.id, "spells_lost") or ()
            if spell not in lost:
                b.set_mark(c.id, "spells_lost", (*lost, spell), rule("spell-check", frow.id))
        if frow.markers:
            b.effects(
                [Effect("markers", c.id, frow.markers, why="Spellburn", rule=rule("spell-check", frow.id))]
            )
            deaths(b, state, dice)  # the markers land now (DEATH BY A THOUSAND CUTS)
    return row.success
