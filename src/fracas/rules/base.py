"""What every ruleset provides to the engine (DESIGN.md "The flow of one action").

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
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fracas.engine.events import fast_frozen_init

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.commands import Command, Decision
    from fracas.engine.encounter import CombatantSpec, EncounterSpec
    from fracas.engine.events import Event
    from fracas.engine.state import Combatant, FightState
    from fracas.engine.tactics import Tactic


@fast_frozen_init  # built for every test of every fight: the events' faster __init__
@dataclass(frozen=True, slots=True)
class Modifier:
    """One number that changed a test, and why: ``Modifier(-2, "Harried", "ed4/situation/harried p.388")``."""

    value: int
    why: str
    rule: str

    def to_json(self) -> list[Any]:
        return [self.value, self.why, self.rule]

    def __str__(self) -> str:
        return f"{self.value:+d} {self.why} ({self.rule})"


def total(mods: Sequence[Modifier]) -> int:
    return sum(m.value for m in mods)


def mods_json(mods: Sequence[Modifier]) -> tuple[tuple[Any, ...], ...]:
    """Modifiers in the plain form events carry: ((value, why, rule), ...)."""
    return tuple((m.value, m.why, m.rule) for m in mods)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a rules text as this project implements it (for ``fracas rules ID``).

    ``status`` is "implemented", "gm-call" (left to the game master, ``note`` says why) or "optional"
    (implemented, off or on by default as ``note`` says).
    """

    id: str
    title: str
    page: str
    status: str = "implemented"
    note: str = ""


@dataclass(frozen=True, slots=True)
class OptionalRule:
    """An optional rule of the book that an encounter file may switch on or off."""

    id: str
    title: str
    default: bool
    page: str = ""
    note: str = ""


@dataclass(slots=True)
class RulesetInfo:
    id: str
    name: str
    source: str
    hex_yards: float
    extra: dict[str, Any] = field(default_factory=dict)


class Ruleset(ABC):
    """A ruleset: stat blocks, the order of play, the resolution of each command, narration."""

    id: str = ""
    name: str = ""
    source: str = ""  # the rules text file, e.g. "000_4b24aca42c3b6366.txt"
    hex_yards: float = 1.0

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
