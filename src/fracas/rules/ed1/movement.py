"""Movement by the 1st Edition (ch.12§Movement): Combat Movement when the character also acts, Full Movement
when moving is all he does; movement all at once, before or after the action (Splitting Movement only as the
optional rule); a retreat that takes a character out of the fight (ch.12§Special-Actions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.battle_map import hexes
from fracas.rules.earthdawn.combat import Scratch
from fracas.rules.earthdawn.ruleset import EarthdawnRuleset

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState


class Ed1Movement(EarthdawnRuleset):
    """The shared round with ED1 movement."""

    def full_hexes(self, state: FightState, c: Combatant) -> int:
        """Hexes of Full Movement (moving is all the character does), 2 yards a hex, rounded up (p.372)."""
        p = c.stats
        if "knocked-down" in c.conditions:
            return 1
        return hexes(int(getattr(p, "full_movement", 2 * p.movement)))

    def _v_move_ed1(self, state: FightState, command: Command) -> None:
        self._v_move(state, command)
        self._all_at_once(state, command)

    def _v_run_ed1(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" in me.conditions:
            raise IllegalCommand(f"{me.name} must stand up first", self.ref("situation.knocked-down"))
        left = self.full_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement.full"))

    def _v_stand_up(self, state: FightState, command: Command) -> None:
        """Standing up is the round's action (the shared Knocked Down rule); a path with it is the movement
        after that action: within what is left of the Combat Movement, and not after crawling before it
        (ch.12§Movement: all at once, unless Splitting Movement). The shared check limits the path to what
        is left of the round's movement."""
        me = state.combatants.get(command.actor)
        if (
            me is not None
            and "knocked-down" in me.conditions
            and command.args.get("path")
            and self.moved_this_round(state, me)
            and not state.options.get("split-movement", False)
        ):
            raise IllegalCommand(
                f"{me.name} moved before standing up: movement takes place all at once, before or after the "
                "action (Splitting Movement is an optional rule, off)",
                self.ref("movement.all-at-once"),
            )
        super()._v_stand_up(state, command)

    def _flee_check(self, state: FightState, command: Command, sc: Scratch) -> None:
        """A retreating character (special action retreat, ch.12§Special-Actions; a run with flee: true)
        escapes when no active enemy could reach him next round at that enemy's Full Movement (ch.12§Movement;
        the shared rule reads the ED4 doubled Movement Rate instead) [choice: the text does not say when a
        retreat takes a character out of the fight]."""
        if not command.args.get("flee"):
            return
        me = sc.get(command.actor)
        if me.pos is None:
            return
        for c in state.combatants.values():
            if (
                c.side != me.side
                and c.status == "active"
                and c.pos is not None
                and distance(c.pos, me.pos) <= self.full_hexes(state, c) + 1
            ):
                return
        sc.emit(ev.StatusChanged(me.id, "fled", self.ref("special.retreat")))

    def _all_at_once(self, state: FightState, command: Command) -> None:
        """Movement after the action is refused when the character moved before it (ch.12§Movement),
        unless the optional rule Splitting Movement is on."""
        if not command.args.get("path") or state.options.get("split-movement", False):
            return
        me = state.combatants[command.actor]
        act = me.marks.get("ed1_action")
        if act is not None and act[0] == state.round and act[1] > 0:
            raise IllegalCommand(
                f"{me.name} moved before his action: movement takes place all at once, before or after "
                "the action (Splitting Movement is an optional rule, off)",
                self.ref("movement.all-at-once"),
            )

    def _end_or_mark(self, state: FightState, command: Command, sc: Scratch, standard: bool) -> None:
        if standard and not command.args.get("end", True):
            # the hexes moved before the action: earlier moves and an attack's own path, not the movement
            # after it (an attack's ``after``, a stand-up's path), which may go on at once
            before = self.moved_this_round(state, state.combatants[command.actor])
            if command.action == "attack":
                before += len(command.args.get("path") or ())
            sc.emit(
                ev.Marked(
                    command.actor, "ed1_action", [state.round, before], self.ref("movement.all-at-once")
                )
            )
        super()._end_or_mark(state, command, sc, standard)
