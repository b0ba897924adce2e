"""One Spells & Swords attack (ATTACKING): its situation read off the map (ATTACK TABLE MODIFIERS), the
Brawl Rule, the attack and damage rolls, poison, a fumble's Friendly Fire, Catch Missile; what it does
is held until the side has attacked, or applied at once for an attack out of order.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.hexgrid import Hex, direction_to
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.fold import EventBuilder, HiddenSet, next_value, rolled, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.attack import (
    RANGE_BANDS,
    AttackResult,
    Situation,
    attack_modifiers,
    range_band,
    resolve_attack,
)
from fracas.rules.sas.procedures.brawl import brawl_applies, brawl_roll, two_hand_substitute
from fracas.rules.sas.procedures.damage import resolve_damage
from fracas.rules.sas.procedures.rolls import Effect, action_check, roll_expr
from fracas.rules.sas.procedures.wounds import roll_fumble
from fracas.rules.sas.readers import dist, hands_left, underwater
from fracas.rules.sas.round import deaths, roll_save, save_bonus
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.spells import shield_spell
from fracas.rules.sas.tables import tables

_FOE_BONUS = ("foe_attack", "foe_damage")


def foe_bonus_view(dfn: Fighter, used: Any, attacker: str) -> tuple[Fighter, bool]:
    """MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": the monster as
    ``attacker`` sees it (without the bonus if he has had it: ``used``, the monster's foe_bonus_used mark),
    and whether this attack has the bonus."""
    if not any(k in dfn.next for k in _FOE_BONUS):
        return dfn, False
    if attacker not in (used or ()):
        return dfn, True
    dfn = dfn.copy()
    for k in _FOE_BONUS:
        dfn.next.pop(k, None)
    return dfn, False


def situation(state: FightState, c: Combatant, target: Combatant, action: str, **kw: Any) -> Situation:
    t = tables()
    d = dist(c, target)
    wid = kw.pop("weapon", None) or c.marks.get("weapon") or c.stats.weapons[0]
    weapon = t.weapons[wid]
    ranged = (weapon.ranged or weapon.band is not None) and d > 1  # a spear or dagger may be thrown
    pos = kw.pop("from_pos", c.pos)
    # where those who moved in this batch now stand (the attacker, a horde's members): ``state`` still
    # has them where their turn began
    moved: dict[str, Hex | None] = {**kw.pop("moved", {}), c.id: pos}
    behind = flank = False
    if pos is not None and target.pos is not None and not ranged:
        rel = (direction_to(target.pos, pos) - target.facing) % 6
        behind = rel == 3 or target.has("fleeing") or target.has("routed")
        flank = rel in (2, 4)
    # ATTACK TABLE MODIFIERS, Defender Surrounded "On at least 2 Sides (2-4+ Foes)": the sides of him
    # that foes hold as the attack is made (an attacker who has just Closed, Charged or Sneaked up among
    # them counted where he now stands), each space once: a rider and his steed, or two foes in one
    # space, are one side
    sides_held: set[tuple[int, int]] = set()
    if target.pos is not None:
        tq, tr = target.pos
        for o in state.combatants.values():
            if o.side == target.side or o.status != "active":
                continue
            at = moved.get(o.id, o.pos)
            if at is None:
                continue
            a, b = at[0] - tq, at[1] - tr  # within one space (hex distance <= 1)
            if -1 <= a <= 1 and -1 <= b <= 1 and -1 <= a + b <= 1:
                sides_held.add((a, b))
    adjacent = len(sides_held)
    cover = None
    terrain = state.extra.get("map", {})
    spot = tuple(target.pos) if target.pos is not None else None
    if ranged and spot is not None:
        # ATTACK TABLE MODIFIERS: Good Cover "Behind Parapet" (map.extra.good_cover) or Partial Cover
        # "Behind Low Wall" (map.cover)
        if spot in {tuple(h) for h in terrain.get("good_cover", [])}:
            cover = "good"
        elif spot in {tuple(h) for h in terrain.get("cover", [])}:
            cover = "partial"
    light = terrain.get("light", "bright")
    first_round_surprise = state.round == 1 and state.extra.get("surprise_side") == c.side

    def on(key: str) -> bool:
        hexes = terrain.get(key)  # (most maps have none of these: no set is built then)
        return bool(hexes) and pos is not None and tuple(pos) in {tuple(h) for h in hexes}

    kw.setdefault("height", c.altitude > target.altitude or (on("high") and not ranged))
    kw.setdefault("difficult_ground", on("difficult"))
    kw.setdefault("tight", on("tight"))
    kw.setdefault("encumbered", c.has("encumbered"))
    if ranged and spot is not None:
        if spot in {tuple(h) for h in terrain.get("good_concealment", [])}:
            kw.setdefault("concealment", "good")  # "Jungle Surroundings"
        elif spot in {tuple(h) for h in terrain.get("concealment", [])}:
            kw.setdefault("concealment", "partial")  # "Tall Grass"
    return Situation(
        ranged=ranged,
        distance_m=d * settings_of(state).meters_per_space if ranged else None,
        surprise=first_round_surprise,
        hidden=c.hidden,
        behind=behind and not ranged,
        flank=flank,
        adjacent_foes=adjacent,
        reduced_visibility=light != "bright",
        defender_moved=ranged and target.marks.get("moved_round") == _last_turn_round(state, target),
        action=action if action in t.combat.actions else None,
        underwater=underwater(state),
        pursuing_rout=target.has("routed") and not ranged,
        cover=cover,
        weapon=wid,
        **kw,
    )


def _last_turn_round(state: FightState, target: Combatant) -> int:
    """The round of the target's last turn (ATTACK TABLE MODIFIERS, Defender Moved on last Action): this
    round when he has ended a turn in it (``acted``: his side acted before, or he before a side-mate
    shooting him by Friendly Fire), else the round before."""
    return state.round if target.id in state.acted else state.round - 1


def _brawl_rule(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    att: Fighter,
    dfn: Fighter,
    sit: Situation,
    dice: DiceSource,
) -> Situation:
    """THE BRAWL RULE: when it applies, 1D20 under 10 turns the attack into a Random Brawl Attack (1D60; a
    row that needs two free hands gives way to its substitute). The situation the attack is made in."""
    weapon = tables().weapons[sit.weapon or att.wielded]
    if not (
        state.options.get("brawl-rule", True)
        and brawl_applies(att, dfn, sit.ranged)
        and not sit.horde
        and not sit.dog_pile
        and sit.brawl is None
        and not sit.disarm
        and not att.mounted_on
        and not dfn.mounted_on
    ):
        return sit
    bd = brawl_roll(dice, settings_of(state))
    b.events.append(
        ev.Rolled(
            c.id,
            "Brawl Rule",
            bd.trigger,
            {"dice": [[-20, bd.trigger]], "total": bd.trigger},
            expr="1d20",
            dn=10,
            under=True,
            outcome="Random Brawl Attack" if bd.brawl else "weapon attack",
            rule=rule("brawl-rule"),
        )
    )
    if bd.brawl:
        row = bd.row
        if row is not None:
            free = (
                hands_left(c)[0]
                - (0 if att.wielded == "unarmed" else weapon.hands)
                - (1 if att.stats.shield != "none" else 0)
            )
            sub = two_hand_substitute(row, free)
            if sub is not row and sub is not None:
                b.note(
                    f"{row.label} needs two free hands: {sub.label} instead",
                    c.id,
                    rule("random-brawl"),
                )
            row = sub
        label = row.label if row is not None else "an unmodified Brawl Attack (row not in the data)"
        b.events.append(
            ev.Rolled(
                c.id,
                "Random Brawl Attacks",
                bd.face or 0,
                {"dice": [[-60, bd.face or 0]], "total": bd.face or 0},
                expr="1d60",
                outcome=label,
                rule=bd.rule,
            )
        )
        sit = dataclasses.replace(sit, brawl=row, brawl_plain=row is None)
    return sit


def attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant,
    sit: Situation,
    dice: DiceSource,
    action: str,
    immediate: bool = False,
    friendly: bool = True,
) -> AttackResult | None:
    """One attack roll and, if it hits, its damage roll; what they do is held until the side has
    attacked (``immediate`` for out-of-order attacks)."""
    if next_value(c, "miss_attack", state.round):
        b.note(
            f"{c.name} misses this attack (Dazed, winded or lost track).",
            c.id,
            rule("light-wounds", "dazed"),
        )
        b.consume_next(c.id, "miss_attack")
        b.set_mark(c.id, "last_attack_round", state.round)
        return None
    att = view(state, c)
    dfn = view(state, target)
    # MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": each foe's next
    # attack on the monster, once (the marks lapse at the end of the next round as before)
    dfn, foe_bonus = foe_bonus_view(dfn, b.mark(target.id, "foe_bonus_used"), c.id)
    effects: list[Effect] = []
    # THE BRAWL RULE, rolled before the attack roll
    sit = _brawl_rule(b, state, c, att, dfn, sit, dice)
    # Shield Spell reaction
    if state.options.get("auto-reactions", True) and "shield" in target.stats.spells:
        sit = shield_spell(b, state, target, sit, dice)
    if dfn.stats.shield == "small":
        used = target.marks.get("shield_used")
        key = (state.round, state.extra.get("side_index", 0))
        n = used[2] + 1 if used and (used[0], used[1]) == key else 1
        b.set_mark(target.id, "shield_used", (*key, n))
    r = resolve_attack(att, dfn, sit, dice)
    b.events.append(rolled(c.id, "Attack", r.roll, target.id))
    if foe_bonus:
        used = b.mark(target.id, "foe_bonus_used") or ()
        b.set_mark(target.id, "foe_bonus_used", (*used, c.id), rule("monster-fumbles"))
    if next_value(c, "attack", state.round):
        b.consume_next(c.id, "attack")
    effects += r.effects
    b.set_mark(c.id, "last_attack_round", state.round)
    if c.hidden:
        b.events.append(HiddenSet(c.id, False, rule("surprise")))
    victim = target
    if r.hit:
        if r.other_grappler:
            pile = target.marks.get("pile", {}).get("members", ())
            others = [state.combatants[m] for m in pile if m != c.id and m in state.combatants]
            if others:
                victim = others[0]
                b.note(
                    f"The blow lands on {victim.name}, the other grappler!",
                    c.id,
                    rule("attack-modifiers", "defender-grappled"),
                )
        dr = resolve_damage(att, dfn if victim is target else view(state, victim), sit, dice, r.critical)
        if dr.roll is not None:
            b.events.append(rolled(c.id, "Damage", dr.roll, victim.id))
        effects += dr.effects
        if c.marks.get("poisoned") and not sit.brawl and dr.roll is not None:
            b.set_mark(c.id, "poisoned", None)
            vf = view(state, victim)
            if not roll_save(b, vf, save_bonus(victim, "poison"), dice, "Save vs Poison"):
                rounds = roll_expr(settings_of(state).poison_rounds, dice, "poison")
                effects.append(
                    Effect(
                        "condition",
                        victim.id,
                        name="sickened",
                        rounds=rounds,
                        why="Poison",
                        rule=setting("poison_rounds"),
                    )
                )
    elif sit.ranged and not r.fumble:
        _catch_missile(b, state, target, dice)
    if r.fumble:
        fr = roll_fumble(att, dice, ranged=sit.ranged)
        b.events.append(rolled(c.id, "Fumble", fr.roll))
        effects += [e for e in fr.effects if e.kind != "friendly-fire"]
        if any(e.kind == "friendly-fire" for e in fr.effects) and friendly:
            _friendly_fire(b, state, c, att, sit, dice, fr.roll.rule, immediate)
    if immediate:
        b.effects(effects)
        deaths(b, state, dice)
    else:
        b.queue(effects)
    return r


def _friendly_fire(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    att: Fighter,
    sit: Situation,
    dice: DiceSource,
    why: str,
    immediate: bool,
) -> None:
    """FUMBLE TABLE Friendly Fire: the fumbler attacks an ally in reach (adjacent, or any for a shot),
    one drawn at random; no ally near, no attack."""
    allies = []
    near = 1 if not sit.ranged else 99
    for o in state.on_side(c.side):
        if o.id == c.id or o.status != "active" or dist(o, c) > near:
            continue
        osit = _friendly_fire_situation(state, c, att, o, sit)
        if osit is not None:
            allies.append((o, osit))
    if allies:
        ally, osit = allies[dice.roll(len(allies), "friendly fire") - 1]
        b.note(f"Friendly Fire: {c.name} attacks {ally.name}!", c.id, why)
        attack(
            b,
            state,
            c,
            ally,
            osit,
            dice,
            "attack",
            immediate,
            friendly=False,
        )
    else:
        b.note("Friendly Fire, but no ally is near.", c.id, why)


def _friendly_fire_situation(
    state: FightState, c: Combatant, att: Fighter, ally: Combatant, sit: Situation
) -> Situation | None:
    """The ally's own place for a Friendly Fire attack (FUMBLE TABLE): its cover, range, size, flank; None
    when the weapon cannot attack it from where it stands (a bow beyond its range band, or in HTH
    range). [choice: the table is silent on range; only an ally the attack could hit is hit]"""
    try:
        osit = dataclasses.replace(
            situation(state, c, ally, "attack", weapon=sit.weapon or att.wielded),
            surprise=False,
            hidden=False,
            brawl=None,
            brawl_plain=False,
        )
        attack_modifiers(att, view(state, ally), osit)
    except IllegalCommand:
        return None
    return osit


def _catch_missile(b: EventBuilder, state: FightState, target: Combatant, dice: DiceSource) -> None:
    if target.stats.skill("catch-missile") < 1 or b.mark(target.id, "reacted_round") == state.round:
        return
    if not state.options.get("auto-reactions", True) or b.status(target.id) != "active":
        return
    chk = action_check(view(state, target), "catch-missile", dice)
    b.events.append(rolled(target.id, "Catch Missile", chk))
    b.set_mark(target.id, "reacted_round", state.round, rule("reactions", "catch-missile"))
    if chk.success:
        b.note(
            f"{target.name} snatches the missile out of thin air!",
            target.id,
            rule("reactions", "catch-missile"),
        )


def thrown(b: EventBuilder, c: Combatant, wid: str) -> None:
    spare = [w for w in c.stats.weapons if w != wid]
    b.set_mark(c.id, "weapon", spare[0] if spare else "unarmed")
    if wid == "bomb":
        b.set_mark(c.id, "fuse_lit", None)


def check_range(state: FightState, c: Combatant, target: Combatant, weapon: Any) -> None:
    d = dist(c, target)
    if d <= 1:
        raise IllegalCommand(
            "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
        )
    band = range_band(d * settings_of(state).meters_per_space, underwater(state))
    limit = weapon.band or "short"
    if band == "beyond" or RANGE_BANDS.index(band) > RANGE_BANDS.index(limit):
        raise IllegalCommand(
            f"{target.name} is beyond {weapon.label} range ({limit})",
            rule("attack-modifiers", f"range-{limit}"),
        )
