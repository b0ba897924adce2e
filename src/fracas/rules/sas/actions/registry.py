"""Every action of the COMBAT ROUND ACTIONS LIST and its record, gathered from the modules that hold them:
what ``SasRuleset.resolve`` and ``validate`` look an action up in."""

from __future__ import annotations

from fracas.rules.sas.actions import Action, charge, disengage, magic, mass, mounted, move, other
from fracas.rules.sas.actions import attack as attack_actions

ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        *attack_actions.ACTIONS,
        *charge.ACTIONS,
        *mass.ACTIONS,
        *move.ACTIONS,
        *magic.ACTIONS,
        *disengage.ACTIONS,
        *mounted.ACTIONS,
        *other.ACTIONS,
    )
}
