"""The settings in force in one Spells & Swords encounter: the data file's (data/settings.toml), with the
encounter file's ``settings:`` and the ``minions`` and ``morale`` optional rules over them
(docs/rulesets/sas.md). They travel with the state: every rule that reads one asks ``settings_of(state)``,
and a fighter's view carries them to the pure procedures (``Fighter.settings``, set by ``fold.view``), so
two encounters played at once, on one thread or two, never see each other's."""

from __future__ import annotations

from typing import Any

from fracas.engine.state import FightState
from fracas.rules.sas.tables import Settings, tables

_NO_SETTINGS: dict[str, Any] = {}
_UNSET = object()
_KEY = "sas.settings"
"""``FightState.derived`` key: (the encounter's settings dict, a copy of it, the minions and morale options,
the settings they make)."""


def settings_of(state: FightState) -> Settings:
    """The settings in force in ``state``'s encounter, worked out once per state (``FightState.derived``)
    and again only when its ``settings:`` (changed in place too) or its minions and morale options change.
    The rules read them tens of thousands of times a fight: the check is by identity first."""
    mine = state.extra.get("settings") or _NO_SETTINGS
    opts = state.options
    minions = bool(opts["minions"]) if "minions" in opts else _UNSET
    morale = bool(opts["morale"]) if "morale" in opts else _UNSET
    known = state.derived.get(_KEY)
    if (
        known is not None
        and known[0] is mine
        and known[2] is minions
        and known[3] is morale
        and known[1] == mine
    ):
        return known[4]  # type: ignore[no-any-return]
    settings = _settings(tables().settings, mine, minions, morale)
    state.derived[_KEY] = (mine, dict(mine), minions, morale, settings)
    return settings


def _settings(base: Settings, mine: dict[str, Any], minions: object, morale: object) -> Settings:
    over = dict(mine)
    if minions is not _UNSET:
        over["minions"] = minions
    if morale is not _UNSET:
        over["morale"] = morale
    if not over:
        return base
    return base.model_copy(update=over)
