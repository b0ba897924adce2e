"""How a ruleset dispatches a command: each action name maps to one :class:`Action` object that offers its
commands, validates one and resolves it; a :class:`Registry` keeps a ruleset's actions in the order they are
offered (that order is the order of the choices a person sees and a tactic weighs).

An action holds no per-fight data: everything it reads comes in through its arguments (the state, the
command, the scratch copy the ruleset resolves on), so one action object serves every fight at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from fracas.errors import IllegalCommand

if TYPE_CHECKING:
    from fracas.engine.commands import Command
    from fracas.engine.state import Combatant, FightState

W = TypeVar("W")
"""What a ruleset resolves on: its scratch copy of the state with the dice and the events so far."""


class Action(ABC, Generic[W]):
    """One action (a maneuver, an action of the round): ``name`` is the command's ``action``."""

    name: ClassVar[str]
    rule: ClassVar[str] = ""
    """The rule that defines the action (its id and page)."""

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        """The commands of this action the actor is offered now, legal or not (the ruleset keeps the ones
        :meth:`validate` accepts)."""
        return ()

    @abstractmethod
    def validate(self, state: FightState, command: Command) -> None:
        """Raise :class:`~fracas.errors.IllegalCommand` naming the rule if ``command`` is not allowed now."""

    @abstractmethod
    def resolve(self, work: W, command: Command) -> None:
        """Emit the events of a legal ``command`` into ``work``."""


class Named(Protocol):
    """What a registry holds: anything with a ``name`` (an :class:`Action`, a ruleset's own action record)."""

    @property
    def name(self) -> str: ...


A = TypeVar("A", bound=Named)


class Registry(Generic[A]):
    """A ruleset's actions by name, in the order they are offered; a name is registered once."""

    __slots__ = ("_actions",)

    def __init__(self, actions: Iterable[A] = ()) -> None:
        self._actions: dict[str, A] = {}
        for action in actions:
            self.add(action)

    def add(self, action: A) -> None:
        if action.name in self._actions:
            raise ValueError(f"the action {action.name!r} is registered twice")
        self._actions[action.name] = action

    def get(self, name: str) -> A | None:
        return self._actions.get(name)

    def __getitem__(self, name: str) -> A:
        return self._actions[name]

    def __contains__(self, name: object) -> bool:
        return name in self._actions

    def __iter__(self) -> Iterator[A]:
        return iter(self._actions.values())

    def names(self) -> tuple[str, ...]:
        return tuple(self._actions)

    def unknown(self, name: str, rule: str = "", known: Iterable[str] | None = None) -> IllegalCommand:
        """The refusal of a name that is not registered, listing the known ones (``known``, or all)."""
        listed = ", ".join(self.names() if known is None else known)
        return IllegalCommand(f"unknown action {name!r}; known: {listed}", rule)
