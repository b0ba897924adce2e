"""The COMBAT ROUND ACTIONS LIST of Spells & Swords: the action ids, and the record by which each
module of this package registers the actions it resolves (``ACTIONS``; actions/registry.py gathers them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fracas.dice.source import DiceSource
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import Fighter

MOVE_ACTIONS = ("walk", "run", "sneak")
ATTACK_ACTIONS = (
    "attack",
    "hack-and-slash",
    "mighty-blow",
    "defensive-stance-attack",
    "aimed-shot",
    "close-to-attack",
    "charge",
    "hurling-charge",
    "sneak-attack",
    "leap-attack",
    "horde",
    "dog-pile",
    "trample",
)
CONTINUED = ("hack-and-slash", "mighty-blow", "defensive-stance-attack", "aimed-shot")
OTHER_ACTIONS = (
    "disengage",
    "hide",
    "lookout",
    "change-facing",
    "stand-up",
    "pick-up",
    "mount",
    "dismount",
    "battle-cry",
    "cast-spell",
    "rally",
    "set-to-receive-charge",
    "overwatch",
    "feint",
    "defensive-stance",
    "light-fuse",
    "apply-poison",
    "rummage",
    "quaff",
    "stop-bleed",
    "intimidate",
    "taunt",
    "break-free",
    "nothing",
)
ALL_ACTIONS = (*ATTACK_ACTIONS, *MOVE_ACTIONS, *OTHER_ACTIONS)
# the sets validate asks about, built once (it runs for every proposal a tactic weighs)
MOVING = frozenset((*MOVE_ACTIONS, "charge", "hurling-charge", "sneak-attack", "close-to-attack", "trample"))
PRONE_MOVES = frozenset(
    (*MOVE_ACTIONS, "charge", "hurling-charge", "close-to-attack", "sneak-attack", "leap-attack")
)
PREVIEW_MOVES = frozenset(("charge", "hurling-charge", "close-to-attack", "sneak-attack", "leap-attack"))
CRY_ACTIONS = ("charge", "hurling-charge")  # CHARGE RULES: a charge "may be combined with a Battle Cry"
RIDER_MOVES = frozenset((*MOVE_ACTIONS, "charge", "close-to-attack", "hurling-charge"))
PATHED_CLOSING = frozenset(("close-to-attack", "sneak-attack", "charge", "horde", "dog-pile"))

Resolver = Callable[[EventBuilder, FightState, Combatant, Combatant | None, Command, DiceSource], None]
"""Resolves one command of an action: its events go to the batch ``b`` (``b, state, actor, target, command,
dice``)."""


Validator = Callable[[FightState, Combatant, Fighter, Combatant | None, Command], None]
"""Raises IllegalCommand when the action's own conditions do not hold (``state, actor, actor's view, target,
command``), after the checks every action and every attack pass (sas/validate.py)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the COMBAT ROUND ACTIONS LIST: what resolves it, and its own checks (every id of
    ``ALL_ACTIONS`` has one, registered by the module that holds the action; actions/registry.py gathers
    them)."""

    name: str
    resolve: Resolver
    validate: Validator | None = None
