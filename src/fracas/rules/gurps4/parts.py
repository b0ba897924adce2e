"""What the parts of the GURPS ruleset (turn, validate, defense, maneuvers, wait) call of one another,
declared once for the type checker: each part is a base class of
:class:`~fracas.rules.gurps4.ruleset.GurpsRuleset`, which has them all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.rules.base import Ruleset

if TYPE_CHECKING:
    from fracas.engine.commands import Command
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.gurps4.combat import Work
    from fracas.rules.gurps4.modifiers import Modifier
    from fracas.rules.gurps4.stats import Attack


class Parts(Ruleset):
    """The base of every part: the engine's Ruleset, and (for the type checker) the methods the parts call
    across."""

    if TYPE_CHECKING:

        def _follow_up(
            self,
            w: Work,
            a: Combatant,
            t: Combatant,
            atk: Attack,
            maneuver: str,
            args: dict[str, Any],
            attacks_left: int,
        ) -> None: ...

        def _end_turn(self, w: Work, c: Combatant) -> None: ...

        def _offer_defense(
            self,
            w: Work,
            a: Combatant,
            d: Combatant,
            atk: Attack,
            maneuver: str,
            loc: str,
            args: dict[str, Any],
            attacks_left: int,
        ) -> bool: ...

        def _resume(self, w: Work, resume: dict[str, Any]) -> None: ...

        @staticmethod
        def _tumbling_glider(a: Combatant) -> bool: ...

        def _wait_trigger(
            self, w: Work, mover: Combatant, before: dict[tuple[str, str], bool], resume: dict[str, Any]
        ) -> bool: ...

        def _wait_watch(self, w: Work, mover: Combatant) -> dict[tuple[str, str], bool]: ...

        def approach(
            self, state: FightState, a: Combatant, t: Combatant, atk: Attack | None, budget: int
        ) -> tuple[list[tuple[int, int]], int | None]: ...

        def movement_allowance(self, state: FightState, a: Combatant, maneuver: str) -> int: ...

        def defense_options(self, state: FightState) -> list[tuple[Command, int]]: ...

        @staticmethod
        def _feint_parts(state: FightState, a: Combatant, atk: Attack) -> tuple[int, list[Modifier]]: ...

        def _attack_now(
            self, w: Work, a: Combatant, t: Combatant, atk: Attack, maneuver: str, args: dict[str, Any]
        ) -> None: ...

        def _check_ready(self, a: Combatant, atk: Attack) -> None: ...

        def _strike(
            self,
            w: Work,
            a: Combatant,
            t: Combatant,
            atk: Attack,
            maneuver: str,
            args: dict[str, Any],
            attacks_left: int,
        ) -> None: ...
