"""The actions of the COMBAT ROUND ACTIONS LIST that are neither attacks nor plain moves: Disengage
(Fighting Withdrawal, Flee), Hide, Lookout, Change Facing, Stand Up, Pick up Dropped Item, Mount and
Dismount, Battle Cry, Rally, Set to Receive Charge, Overwatch, Feint, Defensive Stance, Light Fuse,
Apply Poison, Rummage, Quaff, Stop Bleed, Intimidate, Taunt and doing nothing.
"""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import neighbours
from fracas.engine.state import Combatant, FightState
from fracas.engine.taken import map_blocked
from fracas.rules.base import Modifier
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, situation
from fracas.rules.sas.fold import EventBuilder, HiddenSet, rolled, view
from fracas.rules.sas.movement import move_on_path, move_spaces, path_away
from fracas.rules.sas.procedures.movement import stand_up
from fracas.rules.sas.procedures.rolls import Effect, action_check, roll_expr, roll_penalties, skill_check
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.readers import adjacent_foes, dist, hands_left
from fracas.rules.sas.round import roll_save, rout, save_bonus
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


def _disengage(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    t = tables()
    mode = cmd.args.get("mode", "withdrawal")
    if mode == "flee":
        flee(
            b,
            state,
            c,
            speed=t.combat.num("disengage", "flee_speed"),
            rid=rule("disengage", "flee"),
            dice=dice,
            fleeing=True,
        )
        return
    rid = rule("disengage", "fighting-withdrawal")
    if target is not None and dist(c, target) <= 1 and target.side != c.side:
        attack(
            b,
            state,
            c,
            target,
            situation(state, c, target, "attack", withdrawal=True),
            dice,
            "attack",
        )
    spaces = move_spaces(state, c, t.combat.num("disengage", "withdrawal_speed"))
    path = path_away(state, c, spaces)
    face = target.pos if target is not None else None
    move_on_path(b, state, c, path, "withdraw", rid, face_to=face)
    b.add_condition(
        c.id,
        "withdrawal",
        None,
        t.combat.num("disengage", "withdrawal_defense"),
        "Fighting Withdrawal",
        rid,
    )
    # his Defense +1 is on him as he moves ("Get Defense +1 while Doing this"): a reaction sees it
    reactions_to_move(b, state, c, path, dice, charging=False)


def flee(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    speed: float,
    rid: str,
    dice: DiceSource,
    fleeing: bool = False,
) -> None:
    """DISENGAGE: Flee ("Move away from Foe at full speed with your back to foe": ``fleeing``) or Rout
    ("Run away from Danger at Swift +2"). Either is a move on his turn, so it draws the reactions to a
    move (REACTIONS: Fire from Overwatch; "Go into Overwatch - ... Attack First after Foe Moves on his
    Turn"), which see his back turned."""
    spaces = move_spaces(state, c, speed)
    path = path_away(state, c, spaces)
    move_on_path(b, state, c, path, "flee", rid)
    if fleeing:
        b.add_condition(c.id, "fleeing", None, 0, "Flee: back to the foe", rule("disengage", "flee"))
    reactions_to_move(b, state, c, path, dice, charging=False)


def _hide(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    f = view(state, c)
    mods = [Modifier(f.stats.stealth, "Stealth", rule("actions", "hide"))] if f.stats.stealth else []
    chk = skill_check(settings_of(state).hide_check, mods + roll_penalties(f, "check"), dice, "Hide")
    b.events.append(rolled(c.id, "Hide (Stealth check)", chk))
    if chk.success:
        b.events.append(HiddenSet(c.id, True, rule("actions", "hide")))


def _lookout(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    chk = action_check(view(state, c), "lookout", dice)
    b.events.append(rolled(c.id, "Lookout", chk))
    if chk.success:
        for o in state.combatants.values():
            if o.side != c.side and o.hidden:
                b.events.append(HiddenSet(o.id, False, rule("actions", "lookout")))
                b.note(f"{c.name} spots {o.name} and sounds the warning!", c.id, rule("actions", "lookout"))


def _change_facing(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    facing = int(cmd.args.get("facing", c.facing)) % 6
    b.events.append(ev.Moved(c.id, (), "turn", facing, rule=rule("actions", "change-facing")))


def _stand_up(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    slippery = bool(state.extra.get("map", {}).get("slippery"))
    chk = stand_up(view(state, c), len(adjacent_foes(state, c)), dice, slippery)
    b.events.append(rolled(c.id, "Stand Up", chk))
    if chk.success:
        b.remove_condition(c.id, "knocked-down", "stands up", rule("actions", "stand-up"))


def _pick_up(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    chk = action_check(view(state, c), "pick-up", dice, len(adjacent_foes(state, c)))
    b.events.append(rolled(c.id, "Pick up Dropped Item", chk))
    if chk.success:
        b.set_mark(c.id, "weapon", c.marks["dropped"])
        b.set_mark(c.id, "dropped", None)
        hands, why, hand_rule = hands_left(c)
        if hands < 2 and c.stats.shield != "none" and not c.marks.get("shield_dropped"):
            # one hand left: he takes up the weapon in the hand that held the shield (docs: Game master's
            # calls)
            b.set_mark(c.id, "shield_dropped", True, hand_rule)
            b.note(
                f"{c.name} {why}: sets the shield aside to take up the {c.marks['dropped']}",
                c.id,
                hand_rule,
            )


def _mount(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None and target.pos is not None
    b.events.append(ev.Moved(c.id, (target.pos,), "mount", rule=rule("actions", "mount")))
    b.set_mark(c.id, "mounted_on", target.id)
    b.set_mark(target.id, "ridden_by", c.id)
    if c.stats.skill("ride") < tables().combat.num("mounted", "min_ride"):
        b.note(f"{c.name} rides with Ride below +2: no mounted combat bonuses", c.id, rule("mounted"))


def _dismount(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    mid = c.marks["mounted_on"]
    assert c.pos is not None
    free = [n for n in neighbours(c.pos) if n not in state.occupied() and n not in map_blocked(state)]
    if free:
        b.events.append(ev.Moved(c.id, (free[0],), "dismount", rule=rule("actions", "mount")))
    b.set_mark(c.id, "mounted_on", None)
    b.set_mark(mid, "ridden_by", None)


def battle_cry(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    """COMBAT ROUND ACTIONS LIST: "Battle Cry - Effects last 1D2 +1 Rounds". Counted as every "N Rounds"
    of the text is (docs/rulesets/sas.md, Durations): raised in round r, it lasts to the end of round r+N
    (N whole rounds after the one it is raised in, which it also covers: a cry raised with a Charge counts
    on the charge's own attack)."""
    a = tables().combat.actions["battle-cry"]
    n = roll_expr(a.duration or "1d2+1", dice, "battle cry")
    b.add_condition(
        c.id,
        "battle-cry",
        state.round + n,
        0,
        f"Battle Cry ({n} rounds)",
        rule("actions", "battle-cry"),
    )


def _rally(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    chk = action_check(view(state, c), "rally", dice)
    b.events.append(rolled(c.id, "Rally", chk))
    if chk.success:
        for o in state.on_side(c.side):
            if (
                o.has("routed")
                and dist(o, c) <= settings_of(state).rally_range_spaces
                and o.status == "active"
            ):
                b.remove_condition(o.id, "routed", "rallied", rule("actions", "rally"))
                b.set_mark(o.id, "routed_round", None)


def _set_to_receive_charge(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.set_mark(c.id, "set", "receive-charge", rule("actions", "set-to-receive-charge"))


def _overwatch(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.set_mark(c.id, "set", "overwatch", rule("actions", "overwatch"))


def _feint(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    a = tables().combat.actions["feint"]
    b.add_condition(c.id, "feint", None, a.defense, "Feint", rule("actions", "feint"))
    b.set_next(c.id, "attack", a.attack_next, None, rule("actions", "feint"))  # to the next attack


def _defensive_stance(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.add_condition(
        c.id,
        "stance",
        None,
        tables().combat.actions["defensive-stance"].defense,
        "Defensive Stance",
        rule("actions", "defensive-stance"),
    )


def _light_fuse(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.set_mark(c.id, "fuse_lit", True, rule("actions", "light-fuse"))
    b.set_mark(c.id, "weapon", "bomb")


def _apply_poison(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.set_mark(c.id, "poisoned", True, rule("actions", "apply-poison"))


def _rummage(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.note(f"{c.name} rummages for {cmd.args.get('item', 'an item')}.", c.id, rule("actions", "rummage"))


def _quaff(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    b.add_counter(c.id, "potions", -1, "Quaff", rule("actions", "quaff"))
    n = roll_expr(settings_of(state).potion_heal, dice, "potion")
    b.effects([Effect("markers", c.id, -n, why="Healing potion", rule=setting("potion_heal"))])
    if b.mark(c.id, "dying_round") is not None and b.counter(c.id, "markers") < c.stats.wound_level:
        b.set_mark(c.id, "dying_round", None)
        if b.status(c.id) == "dying":
            b.set_status(c.id, "active")


def _stop_bleed(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    who = target or c
    b.effects([Effect("stop-bleed", who.id, why="Bandages", rule=rule("actions", "stop-bleed"))])


def _intimidate(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    f = view(state, c)
    skill = f.stats.skill("intimidate")
    mods = [Modifier(skill, "Intimidate", rule("actions", "intimidate"))] if skill else []
    chk = skill_check(
        settings_of(state).intimidate_check, mods + roll_penalties(f, "check"), dice, "Intimidate"
    )
    b.events.append(rolled(c.id, "Intimidate", chk, target.id))
    if not chk.success:
        return
    tf = view(state, target)
    if not roll_save(b, tf, save_bonus(target, "fear") + roll_penalties(tf, "save"), dice, "Save vs Fear"):
        rout(b, state, target)


def _taunt(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    f = view(state, c)
    skill = f.stats.skill("taunt")
    mods = [Modifier(skill, "Taunt", rule("actions", "taunt"))] if skill else []
    chk = skill_check(settings_of(state).taunt_check, mods + roll_penalties(f, "check"), dice, "Taunt")
    b.events.append(rolled(c.id, "Taunt", chk, target.id))
    if chk.success:
        b.add_condition(
            target.id, "taunted", state.round + 1, 0, f"taunted by {c.name}", rule("actions", "taunt")
        )
        b.set_mark(target.id, "taunted_by", c.id)


def _nothing(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    return


ACTIONS = (
    Action("disengage", _disengage),
    Action("hide", _hide),
    Action("lookout", _lookout),
    Action("change-facing", _change_facing),
    Action("stand-up", _stand_up),
    Action("pick-up", _pick_up),
    Action("mount", _mount),
    Action("dismount", _dismount),
    Action("battle-cry", battle_cry),
    Action("rally", _rally),
    Action("set-to-receive-charge", _set_to_receive_charge),
    Action("overwatch", _overwatch),
    Action("feint", _feint),
    Action("defensive-stance", _defensive_stance),
    Action("light-fuse", _light_fuse),
    Action("apply-poison", _apply_poison),
    Action("rummage", _rummage),
    Action("quaff", _quaff),
    Action("stop-bleed", _stop_bleed),
    Action("intimidate", _intimidate),
    Action("taunt", _taunt),
    Action("nothing", _nothing),
)
