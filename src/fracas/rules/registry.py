"""The rulesets fracas knows, loaded on first use."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from fracas.errors import RuleNotImplemented, UsageError

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset

RULESETS: dict[str, tuple[str, str]] = {
    "ed4": ("fracas.rules.ed4.ruleset", "Earthdawn 4th Edition"),
    "ed1": ("fracas.rules.ed1.ruleset", "Earthdawn 1st Edition"),
    "gurps4": ("fracas.rules.gurps4.ruleset", "GURPS 4th Edition (mounted and aerial combat)"),
    "sas": ("fracas.rules.sas.ruleset", "Spells & Swords"),
}


@cache
def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id ("ed4", "ed1", "gurps4", "sas")."""
    if ruleset_id not in RULESETS:
        raise UsageError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}")
    module_name, title = RULESETS[ruleset_id]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise RuleNotImplemented(f"the {title} ruleset ({ruleset_id}) is not available yet") from None
        raise
    return module.RULESET
