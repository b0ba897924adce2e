"""The Spells & Swords round (COMBAT ROUNDS): the side order by SURPRISE or side INITIATIVE, each side's
turn begun and ended (its held attacks applied then: "All combatants on the same side make their Attacks
Simultaneously"), Bleeding at the start of a round, Morale, DEATH BY A THOUSAND CUTS, REGENERATION and
the end of the round (durations run out, a Rout ends in flight).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import Modifier, mods_json
from fracas.rules.sas.fold import TURN_SCOPED, EventBuilder, HiddenSet, effects_from, next_value, rolled, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.healing import death_check
from fracas.rules.sas.procedures.initiative import side_initiative
from fracas.rules.sas.procedures.initiative import surprise as surprise_roll
from fracas.rules.sas.procedures.rolls import Effect, roll_penalties, save, save_bonuses
from fracas.rules.sas.procedures.wounds import bleed_roll
from fracas.rules.sas.readers import adjacent_foes
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


def auto_turn(state: FightState, c: Combatant) -> str | None:
    if c.has("confusion"):
        return "confusion"
    if next_value(c, "miss_action", state.round):
        return "miss-action"
    if c.has("routed"):
        return "rout"
    rider = state.combatants.get(c.marks.get("ridden_by") or "")
    if rider is not None and rider.status == "active" and not adjacent_foes(state, c):
        return "mount"
    return None


def next_actor(state: FightState) -> str | None:
    for cid in state.order:
        if cid not in state.acted and state.combatants[cid].status == "active":
            return cid
    return None


def round_start(state: FightState, dice: DiceSource) -> list[ev.Event]:
    out: list[ev.Event] = []
    b = EventBuilder(state)
    if "side_order" not in state.extra or (state.options.get("reroll-initiative") and state.round > 1):
        out += initiative(state, dice, surprise=state.round == 1)
    # BLEEDING: at the beginning of every round with one or more Bleeds, roll once on the Bleed Table
    for c in state.combatants.values():
        if c.count("bleeds") > 0 and c.status in ("active", "unconscious"):
            r = bleed_roll(view(state, c), dice)
            b.events.append(rolled(c.id, "Bleed Table", r.roll))
            b.effects(r.effects)
    # a Bleed's Wound Marker lands now: DEATH BY A THOUSAND CUTS "Non-Heroic Foes and Creatures will just
    # die immediately" (before anyone acts this round)
    deaths(b, state, dice)
    out += b.events
    out += morale(state, dice)
    out += [ev.ExtraSet("side_index", 0), ev.PhaseChanged("side-start")]
    return out


def initiative(state: FightState, dice: DiceSource, surprise: bool = True) -> list[ev.Event]:
    """SURPRISE (a side all hidden) or else side INITIATIVE; the order is kept for the whole combat."""
    out: list[ev.Event] = []
    sides = {s: [view(state, c) for c in state.on_side(s) if c.status == "active"] for s in state.sides}
    sides = {s: m for s, m in sides.items() if m}
    hidden = [s for s in sides if all(state.combatants[f.id].hidden for f in sides[s])] if surprise else []
    surprise_side = None
    if len(hidden) == 1:
        s = hidden[0]
        defenders = [f for o, m in sides.items() if o != s for f in m]
        r = surprise_roll(sides[s], defenders, dice)
        out.append(
            ev.Rolled(
                s,
                "Surprise",
                r.total,
                {"dice": [[-20, r.face]], "total": r.total},
                expr="1d20",
                dn=11,
                outcome="Surprise!" if r.surprise else "no surprise",
                success=r.surprise,
                modifiers=mods_json(r.mods),
                rule=rule("surprise"),
            )
        )
        if r.surprise:
            surprise_side = s
        else:
            for f in sides[s]:
                out.append(HiddenSet(f.id, False, rule("surprise")))
    rest = {s: m for s, m in sides.items() if s != surprise_side}
    order: list[str] = [surprise_side] if surprise_side else []
    if len(rest) > 1:
        ini = side_initiative(rest, dice)
        for side, face, low, tot in ini.rolls:
            out.append(
                ev.Rolled(
                    side,
                    "Side Initiative",
                    tot,
                    {"dice": [[-20, face]], "total": tot},
                    expr="1d20",
                    modifiers=((low, "lowest Initiative bonus of the side", rule("initiative")),),
                    rule=rule("initiative"),
                )
            )
        order += list(ini.order)
    else:
        order += list(rest)
    order += [s for s in state.sides if s not in order]
    out.append(ev.ExtraSet("side_order", tuple(order)))
    out.append(ev.ExtraSet("surprise_side", surprise_side))
    out.append(ev.Note("Side order for the whole combat: " + ", ".join(order), rule=rule("initiative")))
    return out


def morale(state: FightState, dice: DiceSource) -> list[ev.Event]:
    """Setting ``morale`` (off by default): each non-player member of a side that has lost half its
    number saves vs Morale (13+, the side's best Leadership added) or Routs (DISENGAGE)."""
    s = settings_of(state)
    if not s.morale or state.round < 2:
        return []
    b = EventBuilder(state)
    for side in state.sides:
        members = state.on_side(side)
        standing = [c for c in members if c.status == "active"]
        if not standing or len(standing) * 2 > len(members):
            continue
        lead = max((c.stats.skill("leadership") for c in standing), default=0) if s.morale_leadership else 0
        for c in standing:
            if c.player or c.has("routed"):
                continue
            mods = (
                [Modifier(lead, "best Leadership on the side", setting("morale_leadership"))] if lead else []
            )
            mods += save_bonus(c, "morale")
            rider = state.combatants.get(c.marks.get("ridden_by") or "")
            if rider is not None and rider.stats.skill("ride"):
                per = tables().combat.num("mounted", "fear_save_per_ride")
                mods.append(Modifier(per * rider.stats.skill("ride"), "rider's Ride", rule("mounted")))
            f = view(state, c)
            if not roll_save(b, f, mods + roll_penalties(f, "save"), dice, "Save vs Morale"):
                rout(b, state, c)
    return b.events


def roll_save(b: EventBuilder, f: Fighter, mods: list[Modifier], dice: DiceSource, test: str) -> bool:
    """``f`` makes saving throw ``test`` (procedures.save: a Human's reroll); its rolls and effects go to
    ``b``. True when it is made."""
    made = save(f, mods, dice, test.lower())
    for chk in made.rolls:
        b.events.append(rolled(f.id, test, chk))
    b.effects(made.effects)
    return made.success


def save_bonus(c: Combatant, *against: str) -> list[Modifier]:
    """The bonuses of a save against these threats (reference 2.5: race, calling, a Monster's Armor)."""
    return save_bonuses(c.stats, against)


def rout(b: EventBuilder, state: FightState, c: Combatant) -> None:
    b.add_condition(c.id, "routed", None, 0, "failed Fear or Morale save", rule("disengage", "rout"))
    b.set_mark(c.id, "routed_round", state.round, rule("disengage", "rout"))
    b.effects([Effect("drop-weapon", c.id, why="Rout", rule=rule("disengage", "rout"))])
    b.set_mark(c.id, "shield_dropped", True, rule("disengage", "rout"))


def side_start(state: FightState) -> list[ev.Event]:
    order = state.extra.get("side_order", state.sides)
    idx = state.extra.get("side_index", 0)
    side = order[idx]
    out: list[ev.Event] = []
    members = [c for c in state.on_side(side)]
    for c in members:
        for name in TURN_SCOPED:
            if name in c.conditions:
                out.append(ev.ConditionRemoved(c.id, name, "until the side's next turn", rule("actions")))
    ids = tuple(c.id for c in members if c.status == "active")
    out.append(ev.Note(f"Side {side} attacks.", rule=rule("combat-rounds")))
    out.append(ev.OrderSet(ids, rule("combat-rounds")))
    if ids:
        out.append(ev.TurnStarted(ids[0]))
    return out


def side_end(state: FightState, dice: DiceSource) -> list[ev.Event]:
    """Damage after the whole side has attacked: apply what its attacks did, then check deaths."""
    b = EventBuilder(state)
    pending = effects_from(state.extra.get("pending", ()))
    if pending:
        b.note("The side's attacks take effect.", rule=rule("initiative"))
        b.effects(pending)
    deaths(b, state, dice)
    fallen_steeds(b, state)
    order = state.extra.get("side_order", state.sides)
    idx = state.extra.get("side_index", 0)
    side = order[idx]
    # REGENERATION: at the end of every one of their rounds
    for c in state.on_side(side):
        if c.stats.regenerates and b.status(c.id) in ("active", "dying", "unconscious"):
            markers = b.counter(c.id, "markers")
            if markers > b.counter(c.id, "burn_markers"):
                b.add_counter(c.id, "markers", -1, "Regeneration", rule("regeneration"))
                if b.mark(c.id, "dying_round") is not None and markers - 1 < c.stats.wound_level:
                    b.set_mark(c.id, "dying_round", None)
                    if b.status(c.id) == "dying":
                        b.set_status(c.id, "active" if not b.has(c.id, "knocked-out") else "unconscious")
    out = b.events + [ev.ExtraSet("pending", ())]
    if idx + 1 < len(order):
        return out + [ev.ExtraSet("side_index", idx + 1), ev.PhaseChanged("side-start")]
    return out + round_end(state, b) + [ev.RoundEnded(state.round)]


def fallen_steeds(b: EventBuilder, state: FightState) -> None:
    """A rider whose steed is down falls off, prone (the text is silent: docs/rulesets/sas.md)."""
    for c in state.combatants.values():
        mid = b.mark(c.id, "mounted_on")
        if not mid or b.status(mid) == "active":
            continue
        b.set_mark(c.id, "mounted_on", None, rule("mounted"))
        b.set_mark(mid, "ridden_by", None, rule("mounted"))
        if b.status(c.id) == "active":
            b.add_condition(c.id, "knocked-down", None, 0, "thrown from the steed", rule("mounted"))
            b.note(f"{c.name} falls from {state.combatants[mid].name}!", c.id, rule("mounted"))


def deaths(b: EventBuilder, state: FightState, dice: DiceSource) -> None:
    """DEATH BY A THOUSAND CUTS for everyone whose markers reached the Wound Level."""
    for c in state.combatants.values():
        if b.status(c.id) in ("dead", "dying", "fled"):
            continue
        markers = b.counter(c.id, "markers")
        minion = c.stats.minion
        if settings_of(state).minions and minion and b.counter(c.id, "hits") >= minion:
            b.effects([Effect("dead", c.id, why=f"Minion level {minion}", rule=rule("minions"))])
            continue
        if markers < c.stats.wound_level:
            continue  # below the Wound Level death_check finds nothing: no view built for it
        # a copy with this batch's markers: the view itself may be held for the rest of the command
        f = dataclasses.replace(view(state, c), markers=markers)
        b.effects(death_check(f, dice, heroic=c.stats.heroic and settings_of(state).heroic_player_characters))


def round_end(state: FightState, b0: EventBuilder) -> list[ev.Event]:
    """The end of the round: deaths from wounds and bleeding, then durations run out. Read through the
    last side's batch ``b0`` (its held effects are not yet in ``state``): a condition it renewed lasts to
    its new end, one it removed is not removed twice."""
    b = EventBuilder(state)
    b._status.update(b0._status)
    b._marks.update(b0._marks)
    b._counters.update(b0._counters)
    b._conditions.update(b0._conditions)
    rnd = state.round
    s = settings_of(state)
    for c in state.combatants.values():
        status = b.status(c.id)
        if status == "dead":
            continue
        dying = b.mark(c.id, "dying_round")
        if dying is not None and dying <= rnd:
            b.effects([Effect("dead", c.id, why="died of wounds", rule=rule("death-by-a-thousand-cuts"))])
            continue
        bleed = b.mark(c.id, "bleed_death_round")
        if bleed is not None and bleed <= rnd and b.counter(c.id, "bleeds") > 0:
            b.effects([Effect("dead", c.id, why="bled to death", rule=rule("major-wounds", "bleed"))])
            continue
        regrowing = b.mark(c.id, "regrowing")
        if regrowing:
            regrow(b, c, regrowing, rnd)
        for name, cond in list(b0.conditions(c.id).items()):
            if cond.until_round is not None and cond.until_round <= rnd:
                b.remove_condition(c.id, name, "its time is up", cond.rule)
                if name == "knocked-out" and status == "unconscious":
                    b.set_status(c.id, "active", rule("knocked-out"))
        routed = b.mark(c.id, "routed_round")
        if routed is not None and status == "active" and rnd - routed + 1 >= s.rout_rounds:
            b.set_status(c.id, "fled", rule("disengage", "rout"))
    return b.events


def regrow(b: EventBuilder, c: Combatant, regrowing: tuple[Any, ...], rnd: int) -> None:
    """REGENERATION of body parts: each hurt or broken part whose time (rolled when it was hurt or
    broken, procedures._regrows) runs out this round is whole again at its end."""
    left = []
    for part, kind, due in regrowing:
        if due > rnd:
            left.append((part, kind, due))
            continue
        parts = list(b.mark(c.id, kind, ()))
        if part in parts:
            parts.remove(part)
            b.set_mark(c.id, kind, tuple(parts), rule("regeneration", "parts"))
            b.note(f"{c.name}'s {kind} {part} regenerates.", c.id, rule("regeneration", "parts"))
    b.set_mark(c.id, "regrowing", tuple(left) or None, rule("regeneration", "parts"))
