"""The turns a Spells & Swords combatant does not choose: Confusion (CONFUSION TABLE), a lost action
(a fumble, Dazed), a Rout (DISENGAGE) and a steed carrying its rider.
"""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.hexgrid import DIRECTIONS, Hex
from fracas.engine.state import Combatant, FightState
from fracas.engine.taken import map_blocked
from fracas.rules.sas.actions.disengage import flee
from fracas.rules.sas.attack import attack
from fracas.rules.sas.fold import EventBuilder, rolled, view
from fracas.rules.sas.procedures.attack import Situation
from fracas.rules.sas.procedures.movement import movement
from fracas.rules.sas.procedures.rolls import Effect
from fracas.rules.sas.procedures.wounds import confusion_roll
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.readers import dist, underwater
from fracas.rules.sas.round import auto_turn
from fracas.rules.sas.rules import rule


def automatic_turn(state: FightState, c: Combatant, dice: DiceSource) -> list[ev.Event]:
    kind = auto_turn(state, c)
    b = EventBuilder(state)
    if kind == "miss-action":
        b.note(f"{c.name} loses this action.", c.id, rule("fumbles"))
        b.consume_next(c.id, "miss_action")
    elif kind == "confusion":
        r = confusion_roll(view(state, c), dice)
        b.events.append(rolled(c.id, "Confusion Table", r))
        _confused(b, state, c, r.row, dice)
    elif kind == "rout":
        flee(b, state, c, speed=2.0, rid=rule("disengage", "rout"), dice=dice)
    elif kind == "mount":
        b.note(f"{c.name} carries its rider.", c.id, rule("mounted"))
    return b.finish() + [ev.TurnEnded(c.id)]


def _confused(b: EventBuilder, state: FightState, c: Combatant, row: str, dice: DiceSource) -> None:
    rid = rule("confusion-table", row)
    if row == "go-prone":
        b.add_condition(c.id, "knocked-down", None, 0, "Confusion", rid)
    elif row in ("wander-half", "wander-full"):
        f = view(state, c)
        spaces = movement(f, underwater(state), 0.5 if row == "wander-half" else 1.0)
        d = dice.roll(6, "random direction") - 1
        path = _walk_direction(state, c, d, spaces)
        if path:
            b.events.append(ev.Moved(c.id, tuple(path), "wander", rule=rid))
            # a move on his turn, if not of his choosing: it draws the reactions to a move (REACTIONS)
            reactions_to_move(b, state, c, path, dice, charging=False)
    elif row == "drop-items":
        b.effects([Effect("drop-weapon", c.id, why="Confusion", rule=rid)])
    elif row == "attack-random":
        near = [
            o for o in state.combatants.values() if o.id != c.id and o.status == "active" and dist(o, c) == 1
        ]
        if near:
            target = near[dice.roll(len(near), "random adjacent target") - 1]
            attack(b, state, c, target, Situation(), dice, "attack")
    else:
        b.note(f"{c.name} is confused ({row}).", c.id, rid)


def _walk_direction(state: FightState, c: Combatant, d: int, spaces: int) -> list[Hex]:
    if c.pos is None:
        return []
    occupied = state.occupied(c.id) | map_blocked(state)
    path, here = [], c.pos
    for _ in range(spaces):
        nxt = (here[0] + DIRECTIONS[d][0], here[1] + DIRECTIONS[d][1])
        if nxt in occupied:
            break
        path.append(nxt)
        here = nxt
    return path
