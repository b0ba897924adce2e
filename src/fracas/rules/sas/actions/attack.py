"""The plain and Continued attacks (ATTACKING; COMBAT ROUND ACTIONS LIST: Attack, Hack and Slash,
Mighty Blow, Aimed Shot, Defensive Stance Attack), with Dual Wield and Disarm.
"""

from __future__ import annotations

from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, situation, thrown
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.readers import dual_weapons
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


ACTIONS = (
    Action("attack", _attack),
    Action("hack-and-slash", _continued_attack),
    Action("mighty-blow", _continued_attack),
    Action("defensive-stance-attack", _defensive_stance_attack),
    Action("aimed-shot", _continued_attack),
)
