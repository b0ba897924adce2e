"""The encounter's ``settings:`` and optional rules in force while the S&S rules run (rules/sas/tables.py
``Settings``; docs/rulesets/sas.md)."""

from __future__ import annotations

import threading
from typing import Any

from fracas.engine.state import FightState
from fracas.rules.sas.tables import Settings, settings_in_force, tables

_SETTINGS: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Settings, Settings]] = {}
# the settings in force for (tables' settings, the encounter's settings dict, its minions and morale options),
# keyed on the objects' ids: each entry holds the objects themselves (so the ids stay theirs) and a copy of
# the encounter's settings to see that they did not change
_IN_FORCE: dict[tuple[int, int, Any, Any], tuple[Settings, dict[str, Any], dict[str, Any], Settings]] = {}
_NO_SETTINGS: dict[str, Any] = {}
_UNSET = object()
_ENTERED = threading.local()
"""``state``: the state whose settings ``encounter_settings`` has in force on this thread (None: none)."""


class encounter_settings:  # noqa: N801 - used as ``with encounter_settings(state) as settings:``
    """The encounter's ``settings:`` and optional rules in force while the rules run (restored after), on
    this thread only (``tables.settings_in_force``): other threads keep theirs.

    A plain context manager class (not a generator): the rules enter it tens of thousands of times a fight,
    so what it puts in force is remembered per (settings, encounter settings, options) and found again by
    identity.
    """

    __slots__ = ("_state", "_before", "_entered", "_outer", "_active")

    def __init__(self, state: FightState) -> None:
        self._state = state
        self._before: Settings | None = None
        self._entered = False
        self._outer: FightState | None = None
        self._active = False

    def __enter__(self) -> Settings:
        state = self._state
        t = tables()
        outer = getattr(_ENTERED, "state", None)
        if outer is state:
            # entered again for the state whose settings are in force on this thread (a tactic's validate
            # calls inside its own scope): they stay in force, nothing to look up or restore
            return t.settings
        self._outer = outer
        _ENTERED.state = state
        self._active = True
        base = t.settings
        mine = state.extra.get("settings") or _NO_SETTINGS
        opts = state.options
        key = (
            id(base),
            id(mine),
            bool(opts["minions"]) if "minions" in opts else _UNSET,
            bool(opts["morale"]) if "morale" in opts else _UNSET,
        )
        known = _IN_FORCE.get(key)
        if known is not None and known[0] is base and known[1] is mine and known[2] == mine:
            settings = known[3]
        else:
            settings = self._settings(base, mine, opts)
            if len(_IN_FORCE) > 64:
                _IN_FORCE.clear()
            _IN_FORCE[key] = (base, mine, dict(mine), settings)
        if settings is base:
            return base
        self._before = settings_in_force(settings)
        self._entered = True
        return settings

    @staticmethod
    def _settings(base: Settings, mine: dict[str, Any], opts: dict[str, Any]) -> Settings:
        over = dict(mine)
        if "minions" in opts:
            over["minions"] = bool(opts["minions"])
        if "morale" in opts:
            over["morale"] = bool(opts["morale"])
        if not over:
            return base
        key = (id(base), tuple(sorted((k, repr(v)) for k, v in over.items())))
        hit = _SETTINGS.get(key)
        if hit is None or hit[0] is not base:
            if len(_SETTINGS) > 64:
                _SETTINGS.clear()
            hit = _SETTINGS[key] = (base, base.model_copy(update=over))
        return hit[1]

    def __exit__(self, *exc: object) -> None:
        if self._active:
            _ENTERED.state = self._outer
            self._outer = None
            self._active = False
        if self._entered:
            settings_in_force(self._before)
            self._before = None
            self._entered = False
