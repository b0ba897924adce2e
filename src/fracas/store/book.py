"""A saved fight brought back to life: its state is the fold of the log; each action is planned on a copy.

:class:`FightBook` replays a fight from its encounter and log (undone batches left out) and *plans* what each
action would append, without changing anything: a planned batch is written to the store first (one
transaction) and only then taken into the book. So an action that is refused -- an illegal command, a die face
that cannot be, too few or too many typed faces -- leaves the fight exactly as it was.

Batches: everything one action produced. A command batch holds the command's events and then the automatic
events that follow without dice (end of turn, next turn), up to the next decision; an automatic step that
rolls dice (Initiative, say) waits for the game master, who rolls it on the server or types the faces in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fracas.dice.source import AskedDice, DiceError, RandomDice
from fracas.engine import encounter, pathing, taken
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.engine.narrate import narrate
from fracas.engine.play import Fight, TooManySteps
from fracas.errors import FracasError, IllegalCommand, UsageError
from fracas.rules.registry import get_ruleset
from fracas.store.fights import MARKERS, PLAY, BatchRow, FightRecord, LogRow
from fracas.store.words import describe

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

MAX_TYPED_FACES = 500
MAX_ROUND_STEPS = 20_000


class Refused(FracasError):
    """An action that cannot be taken as asked (the message says why); nothing was changed."""

    exit_code = 2


class FacesNeeded(FracasError):
    """The typed-in faces ran out: one more die is needed (``sides``, ``why``). Nothing was changed."""

    exit_code = 2

    def __init__(self, sides: int, why: str, used: int) -> None:
        what = f" for {why}" if why else ""
        super().__init__(f"one more face needed: roll a d{sides}{what} ({used} typed so far)")
        self.sides = sides
        self.why = why
        self.used = used
        self.context = ""  # what is being rolled for, when the caller knows (the tactic's choice)
        self.asked: list[tuple[int, str, int]] = []  # the dice typed so far: (sides, why, face)

    @property
    def explodes(self) -> bool:
        """The die asked for is the previous die rolled again: it showed its maximum (an exploding die)."""
        if not self.asked:
            return False
        sides, why, face = self.asked[-1]
        return face == sides and sides == self.sides and why == self.why


class _DiceNeeded(Exception):
    def __init__(self, sides: int, why: str) -> None:
        super().__init__(sides, why)
        self.sides = sides
        self.why = why


class _NoDice:
    """A source that refuses every die: tells whether an automatic step rolls dice."""

    def roll(self, sides: int, why: str = "") -> int:
        raise _DiceNeeded(sides, why)


NO_DICE = _NoDice()


def concealed(c: Any, seen: set[str] | frozenset[str] = frozenset()) -> bool:
    """Hidden from the players: ``hidden`` in the encounter, not revealed by the rules since (a ruleset marks
    a hidden combatant ``revealed`` once it is seen, e.g. an ED4 ambusher that attacked, p.388) and not
    ``seen`` acting (attacking or attacked, :func:`_note_seen`)."""
    return bool(c.hidden) and not c.marks.get("revealed") and c.id not in seen


def _note_seen(e: Any, state: FightState, seen: set[str]) -> None:
    """A hidden combatant that attacks another, or is attacked, is seen from then on (a roll against a
    target, or damage from a source)."""
    a = e.actor if isinstance(e, ev.Rolled) else e.source
    t = e.target
    if not a or not t or a == t or a not in state.combatants or t not in state.combatants:
        return
    for cid in (a, t):
        if state.combatants[cid].hidden:
            seen.add(cid)


class TypedDice:
    """The faces of a physical roll typed in by a person, handed out in order (the engine's AskedDice).

    A face that the die cannot show is refused (:class:`Refused`); when they run out, :class:`FacesNeeded`
    says which die comes next; :meth:`check_all_used` refuses leftovers.
    """

    def __init__(self, faces: list[int]) -> None:
        if len(faces) > MAX_TYPED_FACES:
            raise Refused(f"{len(faces)} faces typed; at most {MAX_TYPED_FACES}")
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int):
                raise Refused(f"a face is a whole number, not {f!r}")
        self.faces = list(faces)
        self.used = 0
        self.asked: list[tuple[int, str]] = []
        self._asked = AskedDice(self._next)

    def _next(self, sides: int, why: str) -> int:
        if self.used >= len(self.faces):
            need = FacesNeeded(sides, why, self.used)
            need.asked = [(s, w, f) for (s, w), f in zip(self.asked, self.faces, strict=False)]
            raise need
        face = self.faces[self.used]
        self.used += 1
        self.asked.append((sides, why))
        return face

    def roll(self, sides: int, why: str = "") -> int:
        try:
            return self._asked.roll(sides, why)
        except DiceError as exc:
            what = f" ({why})" if why else ""
            raise Refused(f"face {self.used} of the typed roll{what}: {exc}") from None

    def check_all_used(self) -> None:
        if self.used < len(self.faces):
            raise Refused(
                f"{len(self.faces)} faces typed but the roll used {self.used}: "
                f"type exactly the faces rolled ({', '.join(f'd{s}' for s, _ in self.asked) or 'none'})"
            )


@dataclass(slots=True)
class Line:
    """One line of the narrated log, with the event it comes from."""

    batch: int
    event: ev.Event
    text: str
    hidden: frozenset[str] = frozenset()  # who was hidden right after this event (the players' view)


@dataclass(slots=True)
class Plan:
    """What an action would append: a batch of events (or one marker) and the state after it."""

    kind: str
    what: str
    events: list[ev.Event] = field(default_factory=list)
    marker: tuple[str, int] | None = None
    state: FightState | None = None
    seq: int = 0  # where the log ended once this plan was written
    command: Command | None = None  # a person's command (a tactic's is found again by the tactic)
    faces: list[int] | None = None  # the faces typed in (None: the server's dice for this batch)
    override: dict[str, Any] | None = None  # a game master's override, as posted (store/overrule.py)

    def rows(self) -> list[tuple[str, dict[str, Any]]]:
        if self.marker is not None:
            return [(self.marker[0], {"batch": self.marker[1]})]
        events = [(e.kind, ev.to_json(e)) for e in self.events]
        if self.command is None and self.faces is None and self.override is None:
            return events
        play: dict[str, Any] = {
            "command": None if self.command is None else self.command.to_json(),
            "faces": self.faces,
        }
        if self.override is not None:
            play["override"] = self.override
        return [(PLAY, play), *events]


def batch_seed(seed: int, batch: int) -> int:
    """The seed of the server's dice for one batch: the same fight and batch roll the same."""
    digest = hashlib.blake2b(f"{seed}:{batch}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class FightBook:
    """One saved fight in memory: the encounter, the log, the active batches and the current state."""

    def __init__(self, record: FightRecord, batches: list[BatchRow], rows: list[LogRow]) -> None:
        self.record = record
        self.spec, self.initial = encounter.load_data(record.encounter, f"fight {record.id}")
        self.ruleset: Ruleset = get_ruleset(self.spec.ruleset)
        self.batch_info: dict[int, BatchRow] = {b.batch: b for b in batches}
        self.events: dict[int, list[ev.Event]] = {}
        self.active: list[int] = []
        self.redo: list[int] = []
        self.seq = 0
        self.last_batch = 0
        for row in rows:
            if row.seq != self.seq + 1:
                raise UsageError(f"fight {record.id}: the log jumps from {self.seq} to {row.seq}")
            self.seq = row.seq
            self._take_row(row)
        self.last_batch = max([0, *self.batch_info, *self.events])
        self.lines: list[Line] = []
        self.seen: set[str] = set()  # hidden combatants the players have seen act (attack or be attacked)
        self.state = self._fold()

    # ----- reading the log ---------------------------------------------------------------------------
    def _take_row(self, row: LogRow) -> None:
        if row.type == PLAY:  # how the batch was played: read by the replay check, not folded
            return
        if row.type in MARKERS:
            self._marker(row.type, int(row.data["batch"]))
            self.events.setdefault(row.batch, [])
            return
        try:
            event = ev.from_json({**row.data, "type": row.type})
        except (ValueError, TypeError, KeyError) as exc:
            raise UsageError(f"fight {self.record.id}: log row {row.seq} is not an event: {exc}") from None
        if row.batch not in self.events:
            self.events[row.batch] = []
            self.active.append(row.batch)
            self.redo.clear()
        self.events[row.batch].append(event)

    def _marker(self, kind: str, batch: int) -> None:
        if kind == "Undo":
            if not self.active or self.active[-1] != batch:
                raise UsageError(f"fight {self.record.id}: Undo of batch {batch}, which is not the last one")
            self.active.pop()
            self.redo.append(batch)
        else:
            if not self.redo or self.redo[-1] != batch:
                raise UsageError(f"fight {self.record.id}: Redo of batch {batch}, which was not undone last")
            self.redo.pop()
            self.active.append(batch)

    def _fold(self) -> FightState:
        state = self.initial.clone()
        lines: list[Line] = []
        self.seen = set()
        for b in self.active:
            lines.extend(self._narrated(state, b, self.events[b]))
        self.lines = lines
        return state

    def _narrated(self, state: FightState, batch: int, events: list[ev.Event]) -> list[Line]:
        """Apply ``events`` to ``state`` one by one, narrating each right after it happened."""
        out = []
        seen = self.seen
        hidden = frozenset(c.id for c in state.combatants.values() if concealed(c, seen))
        for e in events:
            state.apply(e)
            if isinstance(e, ev.Rolled | ev.Damaged):
                _note_seen(e, state, seen)
            elif isinstance(e, ev.HiddenChanged) and e.hidden:  # the game master hides it again
                seen.discard(e.target)
            text = narrate(e, state, self.ruleset)
            if text:
                now = frozenset(c.id for c in state.combatants.values() if concealed(c, seen))
                hidden = hidden if now == hidden else now
                out.append(Line(batch, e, text.strip("\n"), hidden))
        return out

    @property
    def undoable(self) -> list[int]:
        """Batches that undo may take back (the fight's start cannot be undone)."""
        return [b for b in self.active if self.batch_kind(b) != "start"]

    def batch_kind(self, batch: int) -> str:
        info = self.batch_info.get(batch)
        return info.kind if info else ""

    def decision(self) -> Decision | None:
        if self.state.ended or self.state.phase == "start":
            return None
        return self.ruleset.pending(self.state)

    def waiting_for_dice(self) -> tuple[int, str] | None:
        """If no one decides and the next automatic step rolls dice: (sides, why) of its first die."""
        if self.state.ended or self.decision() is not None or self.state.phase == "start":
            return None
        try:
            self.ruleset.advance(self.state, NO_DICE)
        except _DiceNeeded as need:
            return need.sides, need.why
        return None

    def rolls_dice(self, command: Command) -> bool:
        """Whether resolving ``command`` now would roll any die (resolve is pure: tried with no dice)."""
        try:
            self.ruleset.resolve(self.state, command, NO_DICE)
        except _DiceNeeded:
            return True
        except Exception:  # an error shows when the command is given; offer both ways meanwhile
            return True
        return False

    def choices(self) -> list[Command]:
        d = self.decision()
        return [] if d is None else self.ruleset.choices(self.state, d)

    def status_text(self) -> str:
        s = self.state
        if s.ended:
            who = f"{s.winner} won" if s.winner else "no winner"
            return f"ended after round {s.round}: {who}"
        if s.round == 0:
            return "not started"
        return f"round {s.round}"

    # ----- planning actions -------------------------------------------------------------------------
    def _fight(self, dice: DiceSource) -> Fight:
        return Fight(self.ruleset, self.state.clone(), dice, log=[], seed=self.record.seed)

    def server_dice(self) -> RandomDice:
        return RandomDice(batch_seed(self.record.seed, self.last_batch + 1))

    def _dice(self, faces: list[int] | None) -> DiceSource:
        return self.server_dice() if faces is None else TypedDice(faces)

    @staticmethod
    def _settle(fight: Fight) -> None:
        """Apply the automatic steps that roll no dice, up to the next decision, dice or the end."""
        if fight.state.phase == "start":
            fight.start()
        for _ in range(MAX_ROUND_STEPS):
            if fight.state.ended or fight.ruleset.pending(fight.state) is not None:
                return
            try:
                events = fight.ruleset.advance(fight.state, NO_DICE)
            except _DiceNeeded:
                return
            if not events:
                raise TooManySteps("the ruleset produced no events and asks for no decision")
            fight.apply(events)
        raise TooManySteps(f"no decision after {MAX_ROUND_STEPS} automatic steps")

    def _finish(
        self, fight: Fight, dice: DiceSource, kind: str, what: str, command: Command | None = None
    ) -> Plan:
        faces = None
        if isinstance(dice, TypedDice):
            dice.check_all_used()
            faces = list(dice.faces)
        self._settle(fight)
        return Plan(kind, what, list(fight.log or []), state=fight.state, command=command, faces=faces)

    def plan_start(self) -> Plan:
        if self.active:
            raise Refused("the fight has already started")
        fight = self._fight(NO_DICE)
        self._settle(fight)
        return Plan("start", "the fight begins", list(fight.log or []), state=fight.state)

    def _name(self, cid: str | None) -> str:
        c = self.state.combatants.get(cid or "")
        return c.name if c else str(cid)

    def find_choice(self, posted: dict[str, Any]) -> Command:
        """The legal command equal to ``posted`` (a command as JSON), or :class:`Refused` saying why."""
        decision = self.decision()
        if decision is None:
            over = ": the fight is over" if self.state.ended else ""
            raise Refused("nobody has to decide anything now" + over)
        wanted = _plain_command(posted)
        listed = self.ruleset.choices(self.state, decision)
        for c in listed:
            if _plain_command(c.to_json()) == wanted:
                return c
        # The same action with other movement (a hex picked on the map): the rules judge the path.
        moving = _without_movement(wanted)
        if moving != wanted:
            for c in listed:
                if _without_movement(_plain_command(c.to_json())) == moving:
                    return Command.from_json(_checked_movement(wanted))
        raise Refused(
            f"that is not one of the actions {self._name(decision.actor)} may take now; reload the page"
        )

    def path_to(self, actor: str, to: list[int]) -> list[list[int]]:
        """The shortest path of free hexes from ``actor``'s hex to ``to`` (a hex picked on the map)."""
        me = self.state.combatants.get(actor)
        if me is None or me.pos is None:
            raise Refused(f"{self._name(actor)} is not on the map")
        if len(to) != 2 or any(abs(x) >= 10_000 for x in to):
            raise Refused("a hex is [q, r]")
        goal = (to[0], to[1])
        start = me.pos
        if goal == start:
            return []
        blocked = taken.blocked(self.state, me.id)
        if goal in blocked:
            raise Refused(f"({goal[0]}, {goal[1]}) is taken or blocked: pick a free hex")
        # detours around what stands in the way, not across the world
        path = pathing.route(start, goal, blocked, 0, margin=None, reach=distance(start, goal) + 8)
        if path is None:
            raise Refused(f"no way to ({goal[0]}, {goal[1]}) past what blocks it")
        return [[q, r] for q, r in path]

    def plan_command(self, command: Command, faces: list[int] | None = None) -> Plan:
        """A person's command for the deciding combatant, rolled on the server or with typed faces."""
        dice = self._dice(faces)
        fight = self._fight(dice)
        try:
            fight.submit(command)
        except IllegalCommand as exc:
            raise Refused(str(exc)) from None
        what = f"{self._name(command.actor)}: {describe(command, self.state)}"
        return self._finish(fight, dice, "command", what, command)

    def plan_tactic(self, faces: list[int] | None = None) -> Plan:
        """Let the deciding combatant's tactic choose its command."""
        decision = self.decision()
        if decision is None:
            raise Refused("nobody has to decide anything now")
        dice = self._dice(faces)
        fight = self._fight(dice)
        command = fight.auto_command(decision)
        what = f"{self._name(command.actor)} (tactic): {describe(command, self.state)}"
        try:
            fight.submit(command)
        except FacesNeeded as need:
            need.context = what
            raise
        return self._finish(fight, dice, "tactic", what)

    def plan_advance(self, faces: list[int] | None = None) -> Plan:
        """The automatic step that rolls dice (Initiative...), rolled on the server or with typed faces."""
        need = self.waiting_for_dice()
        if need is None:
            raise Refused("no automatic step is waiting for dice now")
        dice = self._dice(faces)
        fight = self._fight(dice)
        fight.apply(self.ruleset.advance(fight.state, dice))
        return self._finish(fight, dice, "advance", f"automatic step ({need[1] or 'dice'})")

    def plan_round(self) -> Plan:
        """Tactics play everyone (server dice) until the round ends or the fight does."""
        if self.state.ended:
            raise Refused("the fight is over")
        fight = self._fight(self.server_dice())
        # at a round's end (Earthdawn stops there, before the next round's Initiative) the rest of the round
        # is the whole next one: one press plays one round, never just the start of the next
        target = max(fight.state.round, 1) + (1 if fight.state.phase == "round-end" else 0)
        for steps in range(MAX_ROUND_STEPS):
            s = fight.state
            if s.ended or (steps and ((s.phase == "round-end" and s.round >= target) or s.round > target)):
                break
            fight.step()
        else:
            raise TooManySteps(f"the round did not end within {MAX_ROUND_STEPS} steps")
        self._settle(fight)
        what = f"tactics play the rest of round {target}"
        return Plan("round", what, list(fight.log or []), state=fight.state)

    def plan_override(self, body: dict[str, Any]) -> Plan:
        """The game master overrules (:mod:`fracas.store.overrule`): the override's events, then the
        automatic steps without dice that follow from the new state (a round ended starts the next)."""
        from fracas.store.overrule import OverrideRefused, override_events

        if self.state.phase == "start":
            raise Refused("the fight has not started")
        try:
            what, events = override_events(self.state, body)
        except OverrideRefused as exc:
            raise Refused(str(exc)) from None
        fight = self._fight(NO_DICE)
        try:
            fight.apply(events)
            self._settle(fight)
            # the rules must be able to go on: who decides now, and what may he do
            decision = None if fight.state.ended else fight.ruleset.pending(fight.state)
            if decision is not None:
                fight.ruleset.choices(fight.state, decision)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, FracasError) as exc:
            raise Refused(
                f"the rules cannot carry on from that ({type(exc).__name__}: {exc}): "
                "finish what is under way first (an attack being resolved, a ride)"
            ) from None
        plain = json.loads(json.dumps(body, default=str))  # kept in the log: the replay check plays it again
        return Plan("gm", f"GM: {what}", list(fight.log or []), state=fight.state, override=plain)

    def plan_undo(self) -> Plan:
        if not self.undoable:
            raise Refused("nothing to undo")
        b = self.active[-1]
        return Plan("undo", f"undo: {self._what(b)}", marker=("Undo", b))

    def plan_redo(self) -> Plan:
        if not self.redo:
            raise Refused("nothing to redo")
        b = self.redo[-1]
        return Plan("redo", f"redo: {self._what(b)}", marker=("Redo", b))

    def _what(self, batch: int) -> str:
        info = self.batch_info.get(batch)
        return info.what if info else f"batch {batch}"

    # ----- taking a written plan in ------------------------------------------------------------------
    def take(self, plan: Plan, batch: int, seq: int, created: float) -> None:
        """Take in a plan that the store has just written as ``batch`` ending at ``seq``."""
        self.batch_info[batch] = BatchRow(batch, plan.kind, plan.what, created)
        self.last_batch = batch
        self.seq = seq
        self.events[batch] = list(plan.events)
        if plan.marker is not None:
            self._marker(*plan.marker)
            self.state = self._fold()
            return
        self.active.append(batch)
        self.redo.clear()
        self.lines.extend(self._narrated(self.state.clone(), batch, plan.events))
        assert plan.state is not None
        self.state = plan.state


def _plain_command(data: dict[str, Any]) -> dict[str, Any]:
    """A command as comparable JSON (tuples and lists alike)."""
    import json

    try:
        c = Command.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise Refused("a command needs at least an actor and an action") from None
    out = c.to_json()
    out.pop("label", None)
    return json.loads(json.dumps(out, sort_keys=True, default=str))


Planner = Callable[[FightBook], Plan]


MOVEMENT_ARGS = ("path", "after")
"""Command arguments that only say where a combatant moves: a game master may choose them on the map."""


def _without_movement(cmd: dict[str, Any]) -> dict[str, Any]:
    args = {k: v for k, v in (cmd.get("args") or {}).items() if k not in MOVEMENT_ARGS}
    return {**cmd, "args": args}


def _checked_movement(cmd: dict[str, Any]) -> dict[str, Any]:
    """``cmd`` with each movement argument checked to be a list of hexes ``[q, r]`` (at most 200)."""
    for key in MOVEMENT_ARGS:
        value = (cmd.get("args") or {}).get(key)
        if value is None:
            continue
        ok = isinstance(value, list) and len(value) <= 200
        ok = ok and all(
            isinstance(h, list)
            and len(h) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 10_000 for x in h)
            for h in value
        )
        if not ok:
            raise Refused(f"{key} must be a list of hexes [q, r]")
    return cmd
