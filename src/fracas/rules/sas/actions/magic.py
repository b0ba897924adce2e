"""Cast Spell (reference/spells-and-swords.md 5.1), and the Counterspell it may meet (REACTIONS)."""

from __future__ import annotations

import dataclasses

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, situation
from fracas.rules.sas.fold import EventBuilder, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.rolls import Effect, roll_expr, roll_penalties
from fracas.rules.sas.procedures.wounds import knocked_down
from fracas.rules.sas.readers import dist
from fracas.rules.sas.round import roll_save, save_bonus
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.spells import spell_check
from fracas.rules.sas.tables import tables


def _last_check_total(b: EventBuilder, actor: str) -> int:
    """The total of ``actor``'s latest Spell Check in this batch."""
    for e in reversed(b.events):
        if isinstance(e, ev.Rolled) and e.actor == actor and e.test.startswith("Spell Check"):
            return int(e.total)
    return 0


def _cast_spell(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    t = tables()
    spell_id = cmd.args["spell"]
    spell = t.magic.spells[spell_id]
    if not spell_check(b, state, c, dice, spell.label, spell_id):
        return
    # Counterspell reaction by a caster of the target's side
    if state.options.get("auto-reactions", True):
        for o in state.on_side(target.side):
            if o.side == c.side or "counterspell" not in o.stats.spells or b.status(o.id) != "active":
                continue
            if "counterspell" in (b.mark(o.id, "spells_lost") or ()):  # fizzled today (reference 5.1)
                continue
            if (
                b.mark(o.id, "reacted_round") == state.round
                or b.counter(o.id, "pp_used") >= o.stats.power_points  # what this command spent counts
            ):
                continue
            if dist(o, c) > settings_of(state).spell_range_spaces:
                continue
            b.set_mark(o.id, "reacted_round", state.round, rule("reactions", "counterspell"))
            cast_total = _last_check_total(b, c.id)
            if spell_check(b, state, o, dice, "Counterspell", "counterspell"):
                if settings_of(state).counterspell_opposed and _last_check_total(b, o.id) < cast_total:
                    # setting counterspell_opposed: the counter must match the caster's Spell Check
                    b.note(
                        f"{o.name}'s Counterspell is weaker than the {spell.label}.",
                        o.id,
                        setting("counterspell_opposed"),
                    )
                    continue
                b.note(f"{o.name} counters the {spell.label}!", o.id, rule("reactions", "counterspell"))
                return
    rid = setting(f"spells.{spell_id}")
    if spell.attack_roll:
        sit = situation(state, c, target, "attack", weapon="lightning-bolt", shock=True)
        if dist(c, target) <= 1:
            sit = dataclasses.replace(sit, ranged=False)
        attack(b, state, c, target, sit, dice, "attack")
        return
    immune = (
        not target.stats.humanoid
        and target.stats.kind == "undead"
        and spell.condition in ("knocked-out", "blinded", "immobilized")
    )
    if immune:
        b.note(f"{target.name} is immune to {spell.label}", c.id, rid)
        return
    if spell.save:
        tf = view(state, target)
        mods = save_bonus(target, "spells", *t.saves.spell.get(spell_id, ()))
        if roll_save(b, tf, mods + roll_penalties(tf, "save"), dice, f"Save vs {spell.label}"):
            return
    if spell.condition == "knocked-down":
        b.effects(knocked_down(view(state, target), dice, spell.label))
    elif spell.condition:
        rounds = roll_expr(spell.duration, dice, spell.label) if spell.duration else None
        b.effects(
            [Effect("condition", target.id, name=spell.condition, rounds=rounds, why=spell.label, rule=rid)]
        )


def _check_cast_spell(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Cast Spell (reference 5.1): a spell he knows, not lost today, a Power Point, a seen foe in range."""
    t = tables()
    spell = cmd.args.get("spell")
    if not isinstance(spell, str) or spell not in c.stats.spells:
        raise IllegalCommand(
            f"{c.name} does not know {spell!r}; known: {', '.join(c.stats.spells) or 'none'}",
            rule("spell-check"),
        )
    if t.magic.spells[spell].reaction:
        raise IllegalCommand(f"{spell} is a reaction, cast during a foe's turn", rule("reactions"))
    if spell in c.marks.get("spells_lost", ()):
        raise IllegalCommand(
            f"{c.name} has lost the use of {t.magic.spells[spell].label} for the day (Fizzle)",
            rule("spell-check", "fizzle"),
        )
    if c.count("pp_used") + 1 > c.stats.power_points:
        raise IllegalCommand(f"{c.name} has no Power Points left", rule("spell-check"))
    if target is None or dist(c, target) > settings_of(state).spell_range_spaces or target.hidden:
        raise IllegalCommand("the spell needs a seen target in range", setting("spell_range_spaces"))
    if target.id == c.id:
        # every cast spell of magic.toml (a setting: no spell list is public) is cast at a foe: a
        # Bolt is an attack (ATTACKING "An Attacker picks his target"), the others a condition the
        # target saves against; a side-mate in range may be aimed at (docs: Game master's calls)
        attack = t.magic.spells[spell].attack_roll
        raise IllegalCommand(
            f"{c.name} cannot cast {t.magic.spells[spell].label} at himself: it is cast at a foe",
            rule("attacking") if attack else rule("spell-check"),
        )


ACTIONS = (Action("cast-spell", _cast_spell, _check_cast_spell),)
