"""DISENGAGE: Fighting Withdrawal and Flee, and the flight of a Rout (an automatic turn)."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, situation
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import move_on_path, move_spaces, path_away
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.readers import adjacent_foes, dist
from fracas.rules.sas.rules import rule
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


def _check_disengage(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """DISENGAGE: from an adjacent foe, withdrawal or flee."""
    adj = adjacent_foes(state, c)
    if not adj:
        raise IllegalCommand("Disengage is for leaving HTH: no foe is adjacent", rule("disengage"))
    if target is not None and (target.side == c.side or dist(c, target) > 1):
        raise IllegalCommand("Disengage from an adjacent foe", rule("disengage"))
    if cmd.args.get("mode", "withdrawal") not in ("withdrawal", "flee"):
        raise IllegalCommand("disengage mode is withdrawal or flee (a Rout is not chosen)", rule("disengage"))


ACTIONS = (Action("disengage", _disengage, _check_disengage),)
