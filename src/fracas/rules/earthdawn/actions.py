"""The Earthdawn actions other than the attack (ED4 p.373-376, p.380): movement, a doubled move, standing up,
reviving, sustained, Simple, reserved and delayed actions, each an :class:`Action` with its ``validate`` and
``resolve``, and the movement they share (a path checked hex by hex, the Movement Rate left this round)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine import taken
from fracas.engine.commands import Command
from fracas.engine.hexgrid import direction_to, distance
from fracas.errors import IllegalCommand
from fracas.rules.actions import Registry
from fracas.rules.earthdawn.battle_map import hexes
from fracas.rules.earthdawn.combat import Scratch, recovery_events
from fracas.rules.earthdawn.providers import EarthdawnProviders

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile

STANDARD = "standard"
SIMPLE = "simple"


@dataclass(frozen=True, slots=True)
class Action:
    """A command type: ``kind`` "standard" (uses the Standard action), "simple" or "turn" (ends/shapes the
    turn); ``validate(state, command)`` raises IllegalCommand; ``resolve(state, command, dice, sc)`` emits
    into the scratch."""

    name: str
    kind: str
    validate: Callable[[FightState, Command], None]
    resolve: Callable[[FightState, Command, DiceSource, Scratch], None]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class CombatOption:
    """A combat option a declaration may name (the ED4 chapter registers them; ``check`` raises
    IllegalCommand)."""

    name: str
    rule: str
    check: Callable[[FightState, Command], None] | None = None


class EarthdawnActions(EarthdawnProviders):
    """The actions of the core (:meth:`~fracas.rules.earthdawn.ruleset.EarthdawnRuleset._install_core`
    registers them) and the movement they share."""

    actions: Registry[Action]
    combat_options: dict[str, CombatOption]

    def movement_hexes(self, state: FightState, c: Combatant) -> int:
        """Hexes of free movement in a round: the Movement Rate in yards, 2 yards a hex, rounded up to cover a
        full hex (p.372)."""
        p: CombatProfile = c.stats
        if "knocked-down" in c.conditions:
            return 1  # crawling at Movement Rate 2 (p.389)
        return hexes(p.movement)

    # ----- geometry ---------------------------------------------------------------------------------------
    def _check_path(
        self, state: FightState, me: Combatant, path: Any, limit: int, rule: str, start: Any = None
    ) -> list[tuple[int, int]]:
        if not path:
            return []
        try:
            cells = [(int(h[0]), int(h[1])) for h in path]
        except (TypeError, ValueError, IndexError):
            raise IllegalCommand(f"a path is a list of [q, r] hexes, found {path!r}") from None
        if len(cells) > limit:
            raise IllegalCommand(
                f"{me.name} can move {limit} hex{'es' if limit != 1 else ''} now (2 yards each), "
                f"not {len(cells)}",
                rule,
            )
        blocked = taken.blocked_view(state, me.id)
        prev = start if start is not None else me.pos
        for h in cells:
            if prev is None or distance(prev, h) != 1:
                raise IllegalCommand(f"the path must go hex by hex; {list(h)} is not next to {prev}", rule)
            if h in blocked:
                raise IllegalCommand(f"hex {list(h)} is blocked or taken", rule)
            prev = h
        return cells

    def moved_this_round(self, state: FightState, c: Combatant) -> int:
        m = c.marks.get("moved")
        return m[1] if m is not None and m[0] == state.round else 0

    # ----- actions: validate ------------------------------------------------------------------------------
    def _v_none(self, state: FightState, command: Command) -> None:
        return None

    def _v_active(self, state: FightState, command: Command) -> Combatant:
        me = state.combatants[command.actor]
        if me.status != "active":
            raise IllegalCommand(f"{me.name} is {me.status} and cannot act", self.ref("damage.unconscious"))
        return me

    # the rule by which a combatant leaves the fight (status fled): ED4's run away, a doubled move (p.373)
    FLED_RULE = "movement.double"

    def _target(self, state: FightState, command: Command) -> Combatant:
        """The command's target; one who fled has left the fight and is nobody's target (attack, spell,
        charge, swoop, revival, mount)."""
        t = state.combatants.get(command.target or "")
        if t is None:
            raise IllegalCommand(f"no target {command.target!r}")
        if t.status == "fled":
            raise IllegalCommand(f"{t.name} has left the fight", self.ref(self.FLED_RULE))
        return t

    def _v_move(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        left = self.movement_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement"))

    def _v_run(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" in me.conditions:
            raise IllegalCommand(f"{me.name} must stand up first", self.ref("situation.knocked-down"))
        left = 2 * self.movement_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement.double"))

    def _v_stand_up(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" not in me.conditions:
            raise IllegalCommand(f"{me.name} is not knocked down", self.ref("situation.knocked-down"))
        p: CombatProfile = me.stats
        # the walk after standing up is what is left of the round's Movement Rate (p.373: one a round)
        left = max(hexes(p.movement) - self.moved_this_round(state, me), 0)
        self._check_path(state, me, command.args.get("path"), left, self.ref("movement"))

    def _v_revive(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        t = self._target(state, command)
        if t.status != "unconscious":
            raise IllegalCommand(f"{t.name} is not unconscious", self.ref("recovery.unconscious"))
        if not can_rouse(me):
            raise IllegalCommand(
                f"{me.name} is a creature, not a Namegiver character: only another character can try to "
                "revive an unconscious character",
                self.ref("recovery.unconscious"),
            )
        if me.pos and t.pos and distance(me.pos, t.pos) != 1:
            raise IllegalCommand(f"{me.name} must stand next to {t.name}", self.ref("recovery.unconscious"))
        if t.counters.get("recovery_used", 0) >= t.stats.recovery_tests:
            raise IllegalCommand(f"{t.name} has no Recovery test left", self.ref("recovery"))

    def _v_reserve(self, state: FightState, command: Command) -> None:
        self._v_active(state, command)
        trig = command.args.get("trigger") or {"on": "attack"}
        if not isinstance(trig, dict) or trig.get("on", "attack") not in ("attack", "action"):
            raise IllegalCommand(
                "a reserved action names its trigger: {on: attack|action, target: id, by: id}",
                self.ref("actions.reserved"),
            )

    # ----- actions: resolve -------------------------------------------------------------------------------
    def _end_or_mark(self, state: FightState, command: Command, sc: Scratch, standard: bool) -> None:
        if command.args.get("end", True):
            sc.emit(ev.TurnEnded(command.actor))
        elif standard:
            sc.emit(ev.Marked(command.actor, "std", state.round, self.ref("actions.standard")))

    def _emit_move(
        self,
        state: FightState,
        command: Command,
        sc: Scratch,
        path: list[tuple[int, int]],
        mode: str,
        rule: str,
    ) -> None:
        if not path:
            return
        me = sc.get(command.actor)
        moved = self.moved_this_round(state, me) + len(path)
        sc.emit(ev.Moved(command.actor, tuple(path), mode, heading(me.pos, path), None, rule))
        if not command.args.get("end", True) or command.action == "move":
            sc.emit(ev.Marked(command.actor, "moved", [state.round, moved], rule))

    def _r_move(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        path = [tuple(h) for h in command.args.get("path") or ()]
        me = state.combatants[command.actor]
        mode = "crawl" if "knocked-down" in me.conditions else "move"
        self._emit_move(state, command, sc, path, mode, self.ref("movement"))  # type: ignore[arg-type]
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(command.actor))

    def _r_run(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        path = [tuple(h) for h in command.args.get("path") or ()]
        self._emit_move(state, command, sc, path, "run", self.ref("movement.double"))  # type: ignore[arg-type]
        self._flee_check(state, command, sc)
        self._end_or_mark(state, command, sc, True)

    def _flee_check(self, state: FightState, command: Command, sc: Scratch) -> None:
        """A retreating character escapes when no enemy could reach him with a doubled move next round."""
        if not command.args.get("flee"):
            return
        me = sc.get(command.actor)
        if me.pos is None:
            return
        for c in state.combatants.values():
            reach = 2 * self.movement_hexes(state, c) + 1
            if (
                c.side != me.side
                and c.status == "active"
                and c.pos is not None
                and distance(c.pos, me.pos) <= reach
            ):
                return
        sc.emit(ev.StatusChanged(me.id, "fled", self.ref("movement.double")))

    def _r_stand_up(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        sc.emit(
            ev.ConditionRemoved(
                command.actor, "knocked-down", "stands up", self.ref("situation.knocked-down")
            )
        )
        path = [tuple(h) for h in command.args.get("path") or ()]
        self._emit_move(state, command, sc, path, "move", self.ref("movement"))  # type: ignore[arg-type]
        self._end_or_mark(state, command, sc, True)

    def _r_revive(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        recovery_events(
            sc, self.edition, dice, command.target or "", f"revived by {state.combatants[command.actor].name}"
        )
        self._end_or_mark(state, command, sc, True)

    def _r_sustain(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = state.combatants[command.actor]
        task = str(command.args.get("task", "a sustained action"))
        need = int(command.args.get("rounds", 2))
        cur = me.marks.get("sustained")
        done = (cur["done"] if cur and cur["task"] == task else 0) + 1
        if done >= need:
            sc.emit(
                ev.Marked(me.id, "sustained", None, self.ref("actions.sustained")),
                ev.Note(f"{me.name} completes {task} ({need} rounds)", me.id, self.ref("actions.sustained")),
            )
        else:
            sc.emit(
                ev.Marked(
                    me.id,
                    "sustained",
                    {"task": task, "done": done, "of": need},
                    self.ref("actions.sustained"),
                ),
                ev.Note(
                    f"{me.name} works on {task} ({done} of {need} rounds)",
                    me.id,
                    self.ref("actions.sustained"),
                ),
            )
        self._end_or_mark(state, command, sc, True)

    def _r_simple(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        what = str(command.args.get("what", "a simple action"))
        sc.emit(
            ev.Note(
                f"{state.combatants[command.actor].name}: {what}", command.actor, self.ref("actions.simple")
            )
        )
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(command.actor))

    def _r_end(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        sc.emit(ev.TurnEnded(command.actor))

    def _r_reserve(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        trig = dict(command.args.get("trigger") or {"on": "attack"})
        trig.setdefault("on", "attack")
        reserved = dict(state.extra.get("reserved", {}))
        reserved[command.actor] = trig
        who = state.combatants.get(trig.get("target") or "")
        if who is not None and who.id == command.actor:
            what = "an attack on itself"
        elif who is not None:
            what = f"an attack on {who.name}" if trig["on"] == "attack" else f"{who.name}'s action"
        else:
            what = "any attack on its side" if trig["on"] == "attack" else "any action"
        sc.emit(
            ev.ExtraSet("reserved", reserved),
            ev.Note(
                f"{state.combatants[command.actor].name} reserves its action for {what}",
                command.actor,
                self.ref("actions.reserved"),
            ),
        )

    def _r_delay(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        delayers = [*state.extra.get("delayers", ()), command.actor]
        sc.emit(
            ev.ExtraSet("delayers", delayers),
            ev.ExtraSet("delay_asked", {"at": state.turn, "ids": [command.actor]}),
            ev.Note(
                f"{state.combatants[command.actor].name} delays its action",
                command.actor,
                self.ref("actions.delayed"),
            ),
        )


def heading(start: tuple[int, int] | None, path: Iterable[Any]) -> int | None:
    """The facing after moving along ``path`` from ``start``: the direction of the last step (a combatant
    faces where it goes; ED4 Blindsided p.386-387 reads facing), None if it did not move."""
    cells = [(int(h[0]), int(h[1])) for h in path]
    if not cells:
        return None
    prev = cells[-2] if len(cells) > 1 else start
    if prev is None or tuple(prev) == cells[-1]:
        return None
    return direction_to((int(prev[0]), int(prev[1])), cells[-1])


def can_rouse(c: Any) -> bool:
    """Whether a combatant may use a Standard action to revive an unconscious character: "Another
    character can use a Standard action to try and revive him" (ED4 p.380), a Namegiver character, not a
    mount or beast. [choice] The stat blocks name no Namegiver flag: a ``character`` is one, and so is a
    creature-format block that fights with weapons (melee, missile, thrown, unarmed or spell attacks, as an
    ork scorcher does); a creature whose every attack is a natural one (a horse, a griffin) is not."""
    p = c.stats
    if getattr(p, "kind", "creature") == "character":
        return True
    return any(a.kind != "natural" for a in p.attacks)
