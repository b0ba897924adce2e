"""MOUNTED COMBAT: Mount and Dismount (COMBAT ROUND ACTIONS LIST)."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import neighbours
from fracas.engine.state import Combatant, FightState
from fracas.engine.taken import map_blocked
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.readers import dist
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


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


def _check_mount(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """Mount: a free steed of his side, adjacent."""
    if target is None or not target.stats.mount or target.side != c.side or target.marks.get("ridden_by"):
        raise IllegalCommand("Mount needs a free steed of your side", rule("actions", "mount"))
    if dist(c, target) > 1 or c.marks.get("mounted_on"):
        raise IllegalCommand(
            "the steed must be adjacent and you not already mounted", rule("actions", "mount")
        )


def _check_dismount(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Dismount: when mounted."""
    if not c.marks.get("mounted_on"):
        raise IllegalCommand(f"{c.name} is not mounted", rule("actions", "mount"))


ACTIONS = (
    Action("mount", _mount, _check_mount),
    Action("dismount", _dismount, _check_dismount),
)
