"""The round loop: ask the ruleset what happens next, get a command from the right controller, apply events.

:class:`Fight` is what the CLI, the web view and the simulator drive. It owns the state, the dice source and
the event log; it never decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fracas.engine.commands import Command, Decision
from fracas.engine.events import Event, FightEnded, FightStarted
from fracas.engine.state import FightState
from fracas.errors import FracasError, IllegalCommand

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.contract import Ruleset, Tactic

Listener = Callable[[list[Event], FightState], None]


class TooManySteps(FracasError):
    """A fight that stopped advancing (a ruleset bug): raised instead of looping for ever."""


@dataclass(slots=True)
class Fight:
    ruleset: Ruleset
    state: FightState
    dice: DiceSource
    log: list[Event] | None = field(default_factory=list)
    listeners: list[Listener] = field(default_factory=list)
    controllers: dict[str, Tactic] = field(default_factory=dict)
    seed: int | None = None

    _status_only: bool = field(default=False, init=False, repr=False)
    _trusted: bool = field(default=False, init=False, repr=False)
    _witnesses: tuple[str, ...] = field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.controllers:
            self.controllers = self.ruleset.tactics()
        self._status_only = self.ruleset.out_by_status_only
        self._trusted = self.ruleset.tactics_legal

    # ----- applying -------------------------------------------------------------------------------
    def apply(self, events: list[Event]) -> list[Event]:
        state = self.state
        for e in events:
            e.apply(state)
        state.events_applied += len(events)
        if not state.ended and state.phase != "start" and self._may_end(events):
            end = self._check_end()
            if end is not None:
                end.apply(state)
                events = [*events, end]
        if self.log is not None:
            self.log.extend(events)
        if self.listeners:
            for listener in self.listeners:
                listener(events, state)
        return events

    def _may_end(self, events: list[Event]) -> bool:
        """Whether the end check (O(combatants)) is needed after ``events``. A ruleset whose ``is_out`` reads
        only ``status`` (changed only by StatusChanged) says so with ``out_by_status_only = True``; then the
        check runs only after a status change, at the start and at the end of a round."""
        if not self._status_only:
            return True
        if self.state.phase in ("started", "round-end"):
            return True
        for e in events:  # noqa: SIM110 - a loop is cheaper than any() over a generator here
            if e.changes_status:  # StatusChanged and its subclasses
                return True
        return False

    def _check_end(self) -> FightEnded | None:
        """The fight ends when at most one side has anyone not out (or at the round limit). One combatant
        still in per side is enough to know two sides are: those found last time are asked first, then the
        roster until a second side turns up."""
        state = self.state
        is_out = self.ruleset.is_out
        cs = state.combatants
        found: dict[str, str] = {}
        for cid in self._witnesses:
            c = cs.get(cid)
            if c is not None and c.side not in found and not is_out(c):
                found[c.side] = cid
        if len(found) < 2:
            for c in cs.values():
                if c.side not in found and not is_out(c):
                    found[c.side] = c.id
                    if len(found) == 2:
                        break
            self._witnesses = tuple(found.values())
        standing = found
        if len(standing) <= 1:
            winner = next(iter(standing)) if standing else None
            return FightEnded(winner, state.round, "last side standing" if winner else "nobody left standing")
        if state.phase == "round-end" and state.round >= state.max_rounds:
            return FightEnded(None, state.round, f"round limit ({state.max_rounds}) reached: a draw")
        return None

    # ----- driving --------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        if self.state.phase != "start":
            return []
        return self.apply([FightStarted(self.state.ruleset, self.state.name, self.seed)])

    def pending(self) -> Decision | None:
        if self.state.ended:
            return None
        return self.ruleset.pending(self.state)

    def submit(self, command: Command) -> list[Event]:
        """A command from a person (or a tactic): validated, resolved, applied. Illegal: nothing changes."""
        if self.state.ended:
            raise IllegalCommand("the fight is over")
        return self._submit(command, self.ruleset.pending(self.state))

    def _submit(self, command: Command, decision: Decision | None) -> list[Event]:
        if decision is None or decision.actor != command.actor:
            who = decision.actor if decision else "nobody"
            raise IllegalCommand(f"it is not {command.actor}'s decision now (waiting for {who})")
        self.ruleset.validate(self.state, command)
        return self.apply(self.ruleset.resolve(self.state, command, self.dice))

    def auto_command(self, decision: Decision) -> Command:
        actor = self.state.combatants[decision.actor]
        tactic = self.controllers.get(actor.tactic)
        if tactic is None:
            known = ", ".join(sorted(self.controllers))
            raise IllegalCommand(f"{actor.id}: unknown tactic {actor.tactic!r}; known: {known}")
        return tactic.choose(self.state, decision, self.ruleset)

    def step(self) -> list[Event]:
        """One unit of play: the automatic events, or one command chosen by the actor's tactic.

        A tactic that builds only legal commands (``legal_by_construction``) under a ruleset that vouches
        for that (``tactics_legal``) skips the second check: ``validate`` would accept its command anyway.
        """
        state = self.state
        if state.phase == "start":
            return self.start()
        if state.ended:
            return []
        ruleset = self.ruleset
        decision = ruleset.pending(state)
        if decision is None:
            return self.apply(ruleset.advance(state, self.dice))
        # the tactic reads the state only: the decision still stands when its command is submitted
        actor = state.combatants[decision.actor]
        tactic = self.controllers.get(actor.tactic)
        if tactic is None or not self._trusted or not getattr(tactic, "legal_by_construction", False):
            return self._submit(self.auto_command(decision), decision)
        command = tactic.choose(state, decision, ruleset)
        if command.actor != decision.actor:
            return self._submit(command, decision)  # refused there, as any command out of turn
        return self.apply(ruleset.resolve(state, command, self.dice))

    def advance_until_decision(self, max_steps: int = 100_000) -> Decision | None:
        """Apply automatic events until someone must decide (or the fight ends)."""
        if self.state.phase == "start":
            self.start()
        for _ in range(max_steps):
            if self.state.ended:
                return None
            decision = self.ruleset.pending(self.state)
            if decision is not None:
                return decision
            events = self.apply(self.ruleset.advance(self.state, self.dice))
            if not events:
                raise TooManySteps("the ruleset produced no events and asks for no decision")
        raise TooManySteps(f"no decision after {max_steps} automatic steps")

    def run_checked(self) -> FightState:
        """Play to the end like :meth:`run`, but every tactic's command goes through ``validate`` even when
        the ruleset trusts its tactics (the tactic-crash hunts and their regression tests)."""
        while not self.state.ended:
            decision = self.advance_until_decision()
            if decision is None:
                break
            self.submit(self.auto_command(decision))
        return self.state

    def run(self, max_steps: int = 1_000_000) -> FightState:
        """Play to the end with every combatant under its tactic."""
        for _ in range(max_steps):
            if self.state.ended:
                return self.state
            if not self.step() and not self.state.ended:
                raise TooManySteps("the fight stopped advancing")
        raise TooManySteps(f"the fight did not end within {max_steps} steps")


def replay(ruleset: Ruleset, initial: FightState, events: list[Event]) -> FightState:
    """The state after ``events``, folded onto a copy of ``initial``."""
    state = initial.clone()
    for e in events:
        e.apply(state)
    state.events_applied += len(events)
    return state
