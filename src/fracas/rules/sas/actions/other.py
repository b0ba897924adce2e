"""The actions of the COMBAT ROUND ACTIONS LIST that are neither attacks nor plain moves: Disengage
(Fighting Withdrawal, Flee), Hide, Lookout, Change Facing, Stand Up, Pick up Dropped Item, Mount and
Dismount, Battle Cry, Rally, Set to Receive Charge, Overwatch, Feint, Defensive Stance, Light Fuse,
Apply Poison, Rummage, Quaff, Stop Bleed, Intimidate, Taunt and doing nothing.
"""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.sas.actions import Action
from fracas.rules.sas.fold import EventBuilder, HiddenSet, rolled, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.procedures.movement import stand_up
from fracas.rules.sas.procedures.rolls import Effect, action_check, roll_expr, roll_penalties, skill_check
from fracas.rules.sas.readers import adjacent_foes, dist, hands_left
from fracas.rules.sas.round import roll_save, rout, save_bonus
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


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


def _check_change_facing(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Change Facing: not Surprised; a Free Action once a turn."""
    if state.round == 1 and state.extra.get("surprise_side") not in (None, c.side):
        raise IllegalCommand("Cannot change Facing if Surprised", rule("actions", "change-facing"))
    if c.marks.get("free_action_round") == state.round:
        # a Free Action once a turn (docs/rulesets/sas.md): a turn always comes to its action
        raise IllegalCommand(
            f"{c.name} has changed facing this turn already: now the turn's action",
            rule("actions", "change-facing"),
        )


def _check_stand_up(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Stand Up: when prone."""
    if not c.has("knocked-down"):
        raise IllegalCommand(f"{c.name} is not prone", rule("actions", "stand-up"))


def _check_pick_up(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Pick up Dropped Item: something dropped, hands to hold it."""
    t = tables()
    if not c.marks.get("dropped"):
        raise IllegalCommand(f"{c.name} has dropped nothing", rule("actions", "pick-up"))
    hands, why, hand_rule = hands_left(c)
    dropped = c.marks["dropped"]
    if hands < 2 and dropped in t.weapons and t.weapons[dropped].hands > 1:
        raise IllegalCommand(f"{c.name} {why}: the {dropped} needs two hands", hand_rule)


def _check_rally(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """Rally: a routed side-mate in range."""
    if not [
        o
        for o in state.on_side(c.side)
        if o.has("routed") and dist(o, c) <= settings_of(state).rally_range_spaces
    ]:
        raise IllegalCommand("no Panicked (routed) unit in range", rule("actions", "rally"))


def _check_set_to_receive_charge(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Set to Receive Charge: a spear or pole-arm."""
    t = tables()
    if not t.weapons[f.wielded].pole:
        raise IllegalCommand(
            "Set to Receive Charge requires a Spear or Pole-Arm",
            rule("actions", "set-to-receive-charge"),
        )


def _check_overwatch(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Go into Overwatch: a ranged weapon."""
    t = tables()
    if not t.weapons[f.wielded].ranged:
        raise IllegalCommand("Go into Overwatch requires a Ranged Weapon", rule("actions", "overwatch"))


def _check_foe_in_reach(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Feint, Intimidate, Taunt: a foe in reach."""
    a = cmd.action
    if target is None or target.side == c.side or target.status != "active":
        raise IllegalCommand(f"{a} targets a foe", rule("actions", a))
    reach = 1 if a == "feint" else settings_of(state).intimidate_range_spaces
    if dist(c, target) > reach:
        raise IllegalCommand(f"{target.name} is too far for {a}", rule("actions", a))


def _check_quaff(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """Quaff: a potion left."""
    if c.count("potions") <= 0:
        raise IllegalCommand(f"{c.name} has no potion", rule("actions", "quaff"))


def _check_stop_bleed(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Stop Bleed: a bleeding wound within reach."""
    who = target or c
    if who.count("bleeds") <= 0 or dist(c, who) > 1:
        raise IllegalCommand("Stop Bleed needs a bleeding wound within reach", rule("actions", "stop-bleed"))


def _check_hide(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """Hide: not engaged in HTH."""
    adj = adjacent_foes(state, c)
    if adj:
        raise IllegalCommand("cannot Hide while engaged in HTH", rule("actions", "hide"))


def _check_light_fuse(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Light Fuse: a Gunpowder Bomb."""
    if "bomb" not in c.stats.weapons:
        raise IllegalCommand("Light Fuse needs a Gunpowder Bomb", rule("actions", "light-fuse"))


ACTIONS = (
    Action("hide", _hide, _check_hide),
    Action("lookout", _lookout),
    Action("change-facing", _change_facing, _check_change_facing),
    Action("stand-up", _stand_up, _check_stand_up),
    Action("pick-up", _pick_up, _check_pick_up),
    Action("battle-cry", battle_cry),
    Action("rally", _rally, _check_rally),
    Action("set-to-receive-charge", _set_to_receive_charge, _check_set_to_receive_charge),
    Action("overwatch", _overwatch, _check_overwatch),
    Action("feint", _feint, _check_foe_in_reach),
    Action("defensive-stance", _defensive_stance),
    Action("light-fuse", _light_fuse, _check_light_fuse),
    Action("apply-poison", _apply_poison),
    Action("rummage", _rummage),
    Action("quaff", _quaff, _check_quaff),
    Action("stop-bleed", _stop_bleed, _check_stop_bleed),
    Action("intimidate", _intimidate, _check_foe_in_reach),
    Action("taunt", _taunt, _check_foe_in_reach),
    Action("nothing", _nothing),
)
