"""The plain and Continued attacks (ATTACKING; COMBAT ROUND ACTIONS LIST: Attack, Hack and Slash,
Mighty Blow, Aimed Shot, Defensive Stance Attack), with Dual Wield and Disarm.
"""

from __future__ import annotations

from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, check_range, situation, thrown
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.readers import dist, dual_weapons
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


def _attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    disarm = bool(cmd.args.get("disarm"))
    kw: dict[str, Any] = {"weapon": cmd.args.get("weapon"), "disarm": disarm}
    if cmd.args.get("hard_maneuver"):
        kw["hard_maneuver"] = True
    if cmd.args.get("weapon"):
        b.set_mark(c.id, "weapon", cmd.args["weapon"])
    if cmd.args.get("dual"):
        t = tables()
        hands = dual_weapons(c, t)
        sit = situation(state, c, target, cmd.action, weapon=hands[0], dual_wield=True)
        attack(b, state, c, target, sit, dice, cmd.action)
        second = state.combatants.get(cmd.args.get("target2") or target.id, target)
        sit2 = situation(state, c, second, cmd.action, weapon=hands[1], dual_wield=True)
        attack(b, state, c, second, sit2, dice, cmd.action)
        return
    sit = situation(state, c, target, cmd.action, **kw)
    attack(b, state, c, target, sit, dice, cmd.action)
    if sit.ranged and (
        tables().weapons[sit.weapon or "unarmed"].thrown
        or not tables().weapons[sit.weapon or "unarmed"].ranged
    ):
        thrown(b, c, sit.weapon or "unarmed")


def _continued_attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    attack(b, state, c, target, situation(state, c, target, cmd.action), dice, cmd.action)


def _defensive_stance_attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    attack(b, state, c, target, situation(state, c, target, cmd.action), dice, cmd.action)
    b.add_condition(
        c.id,
        "stance",
        None,
        tables().combat.actions["defensive-stance-attack"].defense,
        "Defensive Stance",
        rule("actions", cmd.action),
    )


def _check_attack(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Attack: a ranged weapon at range (a bomb lit), else an adjacent foe; Disarm, Dual Wield."""
    assert target is not None
    t = tables()
    wid = cmd.args.get("weapon") or f.wielded
    weapon = t.weapons[wid]
    d = dist(c, target)
    if weapon.ranged or (weapon.band is not None and d > 1):
        if d <= 1:
            raise IllegalCommand(
                "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
            )
        check_range(state, c, target, weapon)
        if wid == "bomb" and not c.marks.get("fuse_lit"):
            raise IllegalCommand("Light Fuse first", rule("actions", "light-fuse"))
    elif d > 1:
        raise IllegalCommand(
            f"{target.name} is not adjacent: Close to Attack or Charge",
            rule("actions", "close-to-attack"),
        )
    if cmd.args.get("disarm"):
        held = target.marks.get("weapon") or target.stats.weapons[0]
        if t.weapons[held].hands == 0:  # unarmed, or a bite, claws, hooves: nothing held to lose
            raise IllegalCommand(f"{target.name} holds no weapon to lose", rule("disarmed"))
    if cmd.args.get("dual"):
        hands = dual_weapons(c, t)
        if len(hands) < 2:
            raise IllegalCommand("Dual Wield needs a one-handed weapon in each hand", rule("dual-wield"))


def _check_aimed_shot(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Aimed Shot: a target in the weapon's range."""
    assert target is not None
    weapon = tables().weapons[cmd.args.get("weapon") or f.wielded]
    check_range(state, c, target, weapon)


ACTIONS = (
    Action("attack", _attack, _check_attack),
    Action("hack-and-slash", _continued_attack),
    Action("mighty-blow", _continued_attack),
    Action("defensive-stance-attack", _defensive_stance_attack),
    Action("aimed-shot", _continued_attack, _check_aimed_shot),
)
