"""Spellcasting in the ED4 chapter (p.393): weaving a spell's threads (``weave``, Thread Weaving tests
against the weaving difficulty) and casting it (``cast``: a Spellcasting test against the target's Mystic
Defense, then the spell's effect), with the spells of data/spells.toml."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.actions import STANDARD, Action
from fracas.rules.earthdawn.battle_map import within
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import spells
from fracas.rules.ed4.features.readers import rank
from fracas.rules.ed4.features.strike import deal

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def _spell_step(me: Combatant, spell: spells.SpellData) -> int:
    p: CombatProfile = me.stats
    for a in p.attacks:
        if a.kind == "spell" and a.name.lower() == spell.name.lower():
            return a.step
    best = [a.step for a in p.attacks if a.kind == "spell"]
    if best:
        return max(best)
    rk = rank(me, "Spellcasting")
    if rk:
        return p.per_step + rk
    raise IllegalCommand(f"{me.name} cannot cast spells", spells.SPELL_RULE)


def _known_spell(rs: Ed4Ruleset, state: FightState, command: Command) -> tuple[Combatant, spells.SpellData]:
    me = rs._v_active(state, command)
    name = str(command.args.get("spell", ""))
    try:
        spell = spells.get_spell(name)
    except Exception as exc:  # RuleNotImplemented
        raise IllegalCommand(str(exc), spells.SPELL_RULE) from None
    _spell_step(me, spell)
    return me, spell


def _v_weave(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me, spell = _known_spell(rs, state, command)
    woven = (me.marks.get("woven") or {}).get(spell.name, 0)
    if woven >= spell.threads:
        raise IllegalCommand(f"{spell.name} has all its threads woven", spells.WEAVING_RULE)


def _r_weave(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    spell = spells.get_spell(str(command.args["spell"]))
    mods = rs.step_mods(TestContext(state, sc, "spellcasting", me))
    res = run_test(
        dice,
        rs.edition,
        _spell_step(me, spell),
        mods,
        spell.weaving,
        None,
        me.name,
        f"Thread Weaving ({spell.name})",
        "weaving difficulty",
    )
    sc.emit(
        rolled_event(
            me.id,
            f"Thread Weaving ({spell.name})",
            res,
            spells.WEAVING_RULE,
            against="weaving difficulty",
        )
    )
    if res.success:
        woven = dict(me.marks.get("woven") or {})
        woven[spell.name] = woven.get(spell.name, 0) + 1
        sc.emit(ev.Marked(me.id, "woven", woven, spells.WEAVING_RULE))
    rs._end_or_mark(state, command, sc, True)


def _v_cast(rs: Ed4Ruleset, state: FightState, command: Command) -> None:
    me, spell = _known_spell(rs, state, command)
    woven = (me.marks.get("woven") or {}).get(spell.name, 0)
    if woven < spell.threads:
        raise IllegalCommand(
            f"{spell.name} needs {spell.threads} thread(s) woven first ({woven} now)", spells.WEAVING_RULE
        )
    t = rs._target(state, command)
    if spell.kind == "attack" and t.side == me.side:
        raise IllegalCommand(f"{spell.name} is cast at an opponent", spells.SPELL_RULE)
    if me.pos is not None and t.pos is not None:
        apart = distance(me.pos, t.pos)
        yards = apart * 2
        if not within(apart, max(spell.range, 1)):
            raise IllegalCommand(
                f"{t.name} is {yards} yards away; {spell.name} reaches {spell.range}", spells.SPELL_RULE
            )


def _r_cast(rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
    me = sc.get(command.actor)
    spell = spells.get_spell(str(command.args["spell"]))
    t = sc.get(command.target or "")
    if spell.threads:
        woven = dict(me.marks.get("woven") or {})
        woven.pop(spell.name, None)
        sc.emit(ev.Marked(me.id, "woven", woven, spells.WEAVING_RULE))
    a = AttackProfile(
        spell.name,
        "spell",
        _spell_step(me, spell),
        me.stats.wil_step + spell.effect,
        "mystic",
        spell.armor,
    )
    ctx = TestContext(state, sc, "spellcasting", me, t, a, command, "mystic", {})
    smods = rs.step_mods(ctx)
    dmods = rs.defense_mods(ctx) if t.side != me.side else []
    dn = max(1, t.stats.mystic_defense + sum(m.value for m in dmods))
    res = run_test(
        dice,
        rs.edition,
        a.step,
        smods,
        dn,
        None,
        me.name,
        f"{spell.name} Spellcasting",
        "Mystic Defense",
    )
    sc.emit(
        rolled_event(
            me.id, f"{spell.name} Spellcasting", res, spells.SPELL_RULE, t.id, "Mystic Defense", dmods
        )
    )
    if not res.success:
        rs._end_or_mark(state, command, sc, True)
        return
    out = spells.outcome(spell, res.extra)
    if spell.kind == "weapon-buff":
        sc.emit(
            ev.ConditionAdded(
                t.id,
                "flame-weapon",
                state.round + out.buff_rounds - 1,
                out.buff_steps,
                me.id,
                spells.SPELL_RULE,
            ),
            ev.Note(
                f"{t.name}'s weapon burns: +{out.buff_steps} damage steps for {out.buff_rounds} rounds",
                me.id,
                spells.SPELL_RULE,
            ),
        )
    else:
        if out.armor_reduction:
            sc.emit(
                ev.ConditionAdded(
                    t.id,
                    "armor-reduced",
                    state.round + out.armor_rounds - 1,
                    out.armor_reduction,
                    me.id,
                    spells.SPELL_EXTRA_RULE,
                )
            )
        step, emods = spells.effect_step(me.stats.wil_step, spell)
        ctx.test = "effect"
        mods = emods + list(out.effect_mods) + rs.step_mods(ctx)
        eres = run_test(dice, rs.edition, step, mods, None, None, me.name, f"{spell.name} Effect")
        sc.emit(rolled_event(me.id, f"{spell.name} Effect", eres, spells.EFFECT_RULE, t.id))
        deal(rs, state, sc, dice, me, t, a, eres.total, rs.armor_of(t, a), command)
    rs._end_or_mark(state, command, sc, True)


def actions(rs: Ed4Ruleset) -> tuple[Action, ...]:
    """The commands of this file, registered by the ruleset."""
    return (
        Action("weave", STANDARD, partial(_v_weave, rs), partial(_r_weave, rs), spells.WEAVING_RULE),
        Action("cast", STANDARD, partial(_v_cast, rs), partial(_r_cast, rs), spells.SPELL_RULE),
    )
