"""Every action of the COMBAT ROUND ACTIONS LIST and its record, gathered from the modules that hold them
into the rulesets' one kind of registry (rules/actions.py), in the order of ``ALL_ACTIONS``: what
``SasRuleset.resolve`` and ``validate`` look an action up in."""

from __future__ import annotations

from fracas.rules.actions import Registry
from fracas.rules.sas.actions import ALL_ACTIONS, Action, charge, disengage, magic, mass, mounted, move, other
from fracas.rules.sas.actions import attack as attack_actions

ACTIONS: Registry[Action] = Registry(
    sorted(
        (
            *attack_actions.ACTIONS,
            *charge.ACTIONS,
            *mass.ACTIONS,
            *move.ACTIONS,
            *magic.ACTIONS,
            *disengage.ACTIONS,
            *mounted.ACTIONS,
            *other.ACTIONS,
        ),
        key=lambda a: ALL_ACTIONS.index(a.name),
    )
)
