"""The engine's contract: what a ruleset provides to the engine, and what a tactic is.

The engine owns the bookkeeping (rounds, turns, sides, positions, conditions with durations, the event log);
a ruleset owns the rules. The engine asks the ruleset, over and over:

- :meth:`Ruleset.pending` -- does someone have to decide something now (declare, act, react)? If so, the
  combatant's controller (a person or a tactic) picks a :class:`~fracas.engine.commands.Command` among
  :meth:`Ruleset.choices`, the ruleset :meth:`~Ruleset.validate`\\ s it and :meth:`~Ruleset.resolve`\\ s it
  into events;
- otherwise :meth:`Ruleset.advance` produces the automatic events (start a round, roll Initiative, end a
  turn, end the round).

``resolve`` and ``advance`` are pure: they read the state and the dice, and return events; the engine
applies the events to the state (the state is a fold of the events).

A ruleset declares what the engine may rely on as class attributes (``out_by_status_only``,
``tactics_legal``, ``combat_options``): the engine reads them, it never probes for them.

A tactic (:class:`Tactic`) chooses commands for an automated combatant: ``choose(state, decision,
ruleset) -> Command``. Each ruleset names its own tactics in :meth:`Ruleset.tactics` ("default" at least);
an encounter file picks one per combatant with ``tactic:``. Tactics must be deterministic functions of the
state (the dice belong to the rules), so that a seeded fight replays identically. A tactic may say it is
``legal_by_construction`` (a class attribute): under a ruleset whose ``tactics_legal`` vouches for it, the
engine does not validate its commands twice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.commands import Command, Decision
    from fracas.engine.encounter import CombatantSpec, EncounterSpec
    from fracas.engine.events import Event
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.base import OptionalRule, Rule


class Ruleset(ABC):
    """A ruleset: stat blocks, the order of play, the resolution of each command, narration."""

    id: str = ""
    name: str = ""
    source: str = ""  # the rules text file, e.g. "000_4b24aca42c3b6366.txt"
    hex_yards: float = 1.0

    # ----- what the engine may rely on (declared here, never probed) ------------------------------------
    out_by_status_only: bool = False
    """``is_out`` reads ``status`` only (changed only by StatusChanged): the engine checks for the end of the
    fight after a status change and at the start and end of a round, not after every step."""
    tactics_legal: bool = False
    """The ruleset's own tactics that are ``legal_by_construction`` hand back only commands ``validate``
    accepts against the same state: the engine does not validate them again (``Fight.step``)."""
    combat_options: Mapping[str, Any] = MappingProxyType({})
    """The combat options a declaration may name (Earthdawn); none: an encounter file may name none."""

    # ----- the book ---------------------------------------------------------------------------------
    @abstractmethod
    def rules(self) -> list[Rule]:
        """Every rule of the text: implemented (with its id and page) or a game master's call (why)."""

    def optional_rules(self) -> list[OptionalRule]:
        return []

    def options(self, spec_options: dict[str, Any]) -> dict[str, Any]:
        """The encounter's optional-rule switches with the book's defaults filled in; unknown ids refused."""
        from fracas.errors import EncounterFileError

        known = {o.id: o for o in self.optional_rules()}
        out: dict[str, Any] = {o.id: o.default for o in known.values()}
        for key, value in spec_options.items():
            if key not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise EncounterFileError(f"options.{key}: unknown optional rule {key!r}; allowed: {allowed}")
            default = known[key].default
            if isinstance(default, bool) and not isinstance(value, bool):
                raise EncounterFileError(
                    f"options.{key}: expected true or false (the optional rule is on or off), found {value!r}"
                )
            out[key] = value
        return out

    # ----- building a fight ------------------------------------------------------------------------
    @abstractmethod
    def templates(self) -> list[str]:
        """Names of the bundled stat blocks an encounter file may use as ``template``."""

    @abstractmethod
    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        """Build the combatant(s) of one encounter-file entry. ``where`` is the field path for errors."""

    def prepare(self, state: FightState, spec: EncounterSpec) -> None:  # noqa: B027 - optional hook
        """Ruleset-specific set-up of a freshly built state (e.g. mounts paired with riders)."""

    # ----- play -------------------------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: FightState) -> Decision | None:
        """Who must decide what now, or None when the rules advance on their own."""

    @abstractmethod
    def advance(self, state: FightState, dice: DiceSource) -> list[Event]:
        """The automatic events when nobody has to decide anything (round start, Initiative, round end)."""

    @abstractmethod
    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        """The commands the deciding combatant may give now (each legal)."""

    @abstractmethod
    def validate(self, state: FightState, command: Command) -> None:
        """Raise :class:`fracas.errors.IllegalCommand` naming the rule if ``command`` is not allowed."""

    @abstractmethod
    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[Event]:
        """The events a legal command produces. Pure: reads ``state``, never changes it."""

    @abstractmethod
    def tactics(self) -> dict[str, Tactic]:
        """Named policies for automated combatants; "default" must be there."""

    # ----- showing ----------------------------------------------------------------------------------
    def narrate(self, event: Event, state: FightState) -> str | None:
        """A line for the narrated log, or None to use the engine's generic wording."""
        return None

    def card(self, combatant: Combatant) -> dict[str, Any]:
        """What a combatant's card shows (damage against its ratings, Wounds, Strain...)."""
        return {}

    def odds(self, state: FightState, command: Command) -> str | None:
        """The exact odds of a command before it is rolled, in words, if the ruleset can give them."""
        return None

    def is_out(self, combatant: Combatant) -> bool:
        """Out of the fight (unconscious, dead, fled...): no longer keeps its side in the fight."""
        return combatant.status != "active"


class Tactic(Protocol):
    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command: ...


class FirstChoice:
    """Takes the first legal command the ruleset lists (a baseline for tests)."""

    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command:
        return ruleset.choices(state, decision)[0]
