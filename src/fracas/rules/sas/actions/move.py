"""Walk, Run and Sneak (COMBAT ROUND ACTIONS LIST)."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine.commands import Command
from fracas.engine.hexgrid import Hex
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import move_on_path, move_spaces, path_away, path_to
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of


def _goal(state: FightState, cmd: Command) -> Hex | None:
    if "to" in cmd.args:
        q, r = cmd.args["to"]
        return (int(q), int(r))
    if "toward" in cmd.args:
        o = state.combatants.get(cmd.args["toward"])
        return o.pos if o else None
    return None


def _walk(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
    speed: float = 1.0,
    mode: str = "walk",
) -> None:
    spaces = move_spaces(state, c, speed)
    if "away" in cmd.args:
        path = path_away(state, c, spaces)
    else:
        goal = _goal(state, cmd)
        if goal is None:
            raise IllegalCommand(f"{mode}: nowhere to go", rule("actions", mode))
        path = path_to(state, c, goal, spaces, stop_adjacent="toward" in cmd.args)
    move_on_path(b, state, c, path, mode, rule("actions", mode))
    reactions_to_move(b, state, c, path, dice, charging=False)


def _run(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    _walk(b, state, c, target, cmd, dice, 2.0, "run")
    b.add_condition(
        c.id, "fatigued", state.round + settings_of(state).fatigue_rounds, 0, "Run", rule("actions", "run")
    )


def _sneak(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    _walk(b, state, c, target, cmd, dice, 0.5, "sneak")


def _check_move(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """Sneak is made Hidden; a move says where to."""
    a = cmd.action
    if a == "sneak" and not c.hidden:
        raise IllegalCommand("Sneak is moving while Hidden", rule("actions", "sneak"))
    if "to" not in cmd.args and "toward" not in cmd.args and "away" not in cmd.args:
        raise IllegalCommand(f"{a} needs args to: [q, r], toward: <id> or away: <id>", rule("actions", a))


ACTIONS = (
    Action("walk", _walk, _check_move),
    Action("run", _run, _check_move),
    Action("sneak", _sneak, _check_move),
)
