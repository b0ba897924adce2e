"""The commands of an Earthdawn round (ED4 p.371-376): what a character is offered, how a command is judged
and resolved at each kind of decision (declaring, acting, a reserved action's trigger, a delayed action)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine import pathing, taken
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.actions import STANDARD
from fracas.rules.earthdawn.combat import Scratch
from fracas.rules.earthdawn.round import EarthdawnRound

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile


class EarthdawnCommands(EarthdawnRound):
    """``choices``, ``validate`` and ``resolve``: each command goes to its :class:`Action`; a reserved action
    interrupts what triggers it (p.375); a delaying character acts between turns (p.376)."""

    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        """What the actor may do now: every command :meth:`offered` lists that ``validate`` accepts, so a
        person (the CLI, the browser) is never offered a choice the rules then refuse."""
        legal = self._is_legal
        return [c for c in self.offered(state, decision) if legal(state, c)]

    def offered(self, state: FightState, decision: Decision) -> list[Command]:
        """The candidate commands of a decision, legal or not (the editions add theirs); :meth:`choices`
        keeps the legal ones."""
        me = state.combatants[decision.actor]
        kind = decision.kind
        if kind == "declare":
            return [Command(me.id, "declare", args={"action": "act"}, label="Declare no combat option")]
        if kind == "delayed":
            last = decision.prompt == "end of round"
            return [
                Command(me.id, "act-now", label="act now"),
                Command(me.id, "wait", label="delay into the next round" if last else "keep waiting"),
            ]
        out: list[Command] = []
        p: CombatProfile = me.stats
        if kind == "react":
            intr = state.extra["interrupt"]
            foe = state.combatants[intr["actor"]]
            for a in p.attacks:
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name})
                if self._is_legal(state, cmd):
                    out.append(cmd)
            out.append(Command(me.id, "pass", label="let it happen (keep the reserved action)"))
            return out
        for foe in state.combatants.values():
            if foe.side == me.side or foe.status != "active":
                continue
            for a in p.attacks:
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name})
                if self._is_legal(state, cmd):
                    out.append(cmd)
        if "knocked-down" in me.conditions:
            out.append(Command(me.id, "stand-up"))
        for ally in state.combatants.values():
            near = me.pos is not None and ally.pos is not None and distance(me.pos, ally.pos) == 1
            if ally.side == me.side and ally.status == "unconscious" and near:
                out.append(Command(me.id, "revive", ally.id))
        out += self._moving_choices(state, me, out)
        out += [
            Command(me.id, "reserve", args={"trigger": {"on": "attack", "target": None}}),
            Command(me.id, "delay"),
            Command(me.id, "end"),
        ]
        return out

    def _moving_choices(self, state: FightState, me: Combatant, listed: list[Command]) -> list[Command]:
        """A person's choices that move (p.373): Karma variants of the attacks listed (p.109), close attacks
        on a foe out of reach with a path toward it, a move and a run toward the nearest foe. The path is a
        suggestion (the default tactic's); a game master may send another, which ``validate`` judges."""
        from fracas.engine.hexgrid import neighbours

        p: CombatProfile = me.stats
        out: list[Command] = []
        if me.counters.get("karma", 0) > 0:
            for c in listed:
                if c.action == "attack" and not c.args.get("karma"):
                    k = Command(c.actor, c.action, c.target, {**c.args, "karma": True})
                    if self._is_legal(state, k):
                        out.append(k)
        if me.pos is None:
            return out
        left = max(self.movement_hexes(state, me) - self.moved_this_round(state, me), 0)
        blocked = taken.blocked(state, me.id)
        foes = [
            f
            for f in state.combatants.values()
            if f.side != me.side and f.status == "active" and f.pos is not None
        ]
        foes.sort(key=lambda f: (distance(me.pos, f.pos), f.id))  # type: ignore[arg-type]
        for foe in foes:
            d = distance(me.pos, foe.pos)  # type: ignore[arg-type]
            if d <= 1 or d - 1 > left:
                continue
            path = pathing.towards(me.pos, foe.pos, left, blocked)  # type: ignore[arg-type]
            if not path or distance(path[-1], foe.pos) != 1:  # type: ignore[arg-type]
                continue
            for a in p.attacks:
                if not a.close:
                    continue
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name, "path": [list(h) for h in path]})
                if self._is_legal(state, cmd):
                    out.append(cmd)
                    if a.karma and me.counters.get("karma", 0) > 0:
                        k = Command(me.id, "attack", foe.id, {**cmd.args, "karma": True})
                        if self._is_legal(state, k):
                            out.append(k)
        goal = foes[0].pos if foes else None
        run_left = 2 * self.movement_hexes(state, me) - self.moved_this_round(state, me)
        for action, limit in (("move", left), ("run", run_left)):
            if limit <= 0:
                continue
            path = pathing.towards(me.pos, goal, limit, blocked) if goal is not None else []
            if not path:
                free = [h for h in neighbours(me.pos) if h not in blocked]
                path = free[:1]
            if not path:
                continue
            cmd = Command(me.id, action, args={"path": [list(h) for h in path]})
            if self._is_legal(state, cmd):
                out.append(cmd)
        return out

    def _is_legal(self, state: FightState, cmd: Command) -> bool:
        try:
            self.validate(state, cmd)
        except IllegalCommand:
            return False
        return True

    def validate(self, state: FightState, command: Command) -> None:
        decision = self.pending(state)  # through any subclass's pending (the chapter adds decisions)
        kind = decision.kind if decision is not None and decision.actor == command.actor else "act"
        name = command.action
        if command.actor not in state.combatants:
            raise IllegalCommand(f"no combatant {command.actor!r}")
        if kind == "declare":
            if name != "declare":
                raise IllegalCommand(
                    "declare the round's general action and combat options first", self.ref("round.declare")
                )
            for opt in command.args.get("options", ()) or ():
                spec = self.combat_options.get(opt)
                if spec is None:
                    known = ", ".join(sorted(self.combat_options)) or "none implemented yet"
                    raise IllegalCommand(
                        f"unknown combat option {opt!r}; known: {known}", self.ref("round.declare")
                    )
                if spec.check is not None:
                    spec.check(state, command)
            return
        if kind == "delayed":
            if name not in ("act-now", "wait"):
                raise IllegalCommand(
                    "a delaying character either acts now or keeps waiting", self.ref("actions.delayed")
                )
            return
        if kind == "react":
            if name == "pass":
                return
            action = self.actions.get(name)
            if action is None or action.kind != STANDARD:
                raise IllegalCommand(
                    "a reserved action is a Standard action (or pass)", self.ref("actions.reserved")
                )
            action.validate(state, command)
            return
        action = self.actions.get(name)
        if action is None:
            raise self.actions.unknown(name, known=sorted(self.actions.names()))
        me = state.combatants[command.actor]
        if action.kind == STANDARD and me.marks.get("std") == state.round:
            raise IllegalCommand(
                "the Standard action of this round is used already", self.ref("actions.standard")
            )
        action.validate(state, command)

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        sc = Scratch(state)
        decision = self.pending(state)
        kind = decision.kind if decision is not None and decision.actor == command.actor else "act"
        name = command.action
        me = command.actor
        if kind == "declare":
            a = command.args
            sc.emit(
                ev.Declared(
                    me,
                    str(a.get("action", "act")),
                    tuple(a.get("options", ()) or ()),
                    command.target,
                    {k: v for k, v in a.items() if k not in ("action", "options")},
                )
            )
            return sc.events
        if kind == "delayed":
            self._resolve_delayed(state, command, sc)
            return sc.events
        if kind == "react":
            intr = state.extra["interrupt"]
            if name == "pass":
                sc.emit(
                    ev.Marked(
                        me, "passed", [intr["actor"], state.round, state.turn], self.ref("actions.reserved")
                    ),
                    ev.ExtraSet("interrupt", None),
                )
                return sc.events
            reserved = dict(state.extra.get("reserved", {}))
            reserved.pop(me, None)
            order = [c for c in state.order if c != me]
            order.insert(order.index(intr["actor"]), me)
            sc.emit(
                ev.ExtraSet("interrupt", None),
                ev.ExtraSet("reserved", reserved or None),
                ev.OrderSet(tuple(order), self.ref("actions.reserved")),
                ev.TurnStarted(me, state.initiative.get(me)),
            )
            sc.flags["reserved"] = True
            self.actions[name].resolve(state, command, dice, sc)
            if not any(isinstance(e, ev.TurnEnded) for e in sc.events):
                sc.emit(ev.TurnEnded(me))
            return sc.events
        action = self.actions[name]
        # A reserved action's trigger interrupts before the command happens (p.375).
        if (action.kind == STANDARD or name == "move") and state.extra.get("reserved"):
            trig = self._triggered(state, command)
            if trig is not None:
                sc.emit(
                    ev.Note(
                        f"{state.combatants[trig].name} interrupts {state.combatants[me].name} "
                        "with a reserved action",
                        trig,
                        self.ref("actions.reserved"),
                    ),
                    ev.ExtraSet(
                        "interrupt", {"by": trig, "actor": me, "target": command.target, "action": name}
                    ),
                )
                return sc.events
        action.resolve(state, command, dice, sc)
        return sc.events

    def _triggered(self, state: FightState, command: Command) -> str | None:
        reserved = state.extra.get("reserved")
        if not reserved:
            return None
        me = state.combatants[command.actor]
        for rid, trig in reserved.items():
            r = state.combatants[rid]
            if r.side == me.side or r.status != "active":
                continue
            passed = r.marks.get("passed")
            if passed is not None and list(passed) == [me.id, state.round, state.turn]:
                continue
            on = trig.get("on", "attack")
            if on == "action":
                pass
            elif on == "attack":
                if command.action != "attack":
                    continue
                tgt = trig.get("target")
                victim = state.combatants.get(command.target or "")
                if victim is None:
                    continue
                if tgt is None and victim.side != r.side:
                    continue
                if tgt is not None and tgt != victim.id:
                    continue
            else:
                continue
            by = trig.get("by")
            if by is not None and by != me.id:
                continue
            return rid
        return None

    def _resolve_delayed(self, state: FightState, command: Command, sc: Scratch) -> None:
        me = command.actor
        delayers = [d for d in state.extra.get("delayers", ()) if d != me]
        last = self._next_index(state) is None
        if command.action == "act-now":
            cur = state.current
            order = [c for c in state.order if c != me]
            pos = order.index(cur) + 1 if cur in order else len(order)
            order.insert(pos, me)
            sc.emit(
                ev.ExtraSet("delayers", delayers or None),
                ev.OrderSet(tuple(order), self.ref("actions.delayed")),
                ev.TurnStarted(me, state.initiative.get(me)),
            )
            return
        if last:
            sc.emit(
                ev.ExtraSet("delayers", delayers or None),
                ev.Marked(me, "delay_into", state.round + 1, self.ref("actions.delayed.next-round")),
                ev.Note(
                    f"{state.combatants[me].name} delays into the next round",
                    me,
                    self.ref("actions.delayed.next-round"),
                ),
            )
            return
        asked = state.extra.get("delay_asked")
        ids = list(asked["ids"]) if asked and asked["at"] == state.turn else []
        sc.emit(ev.ExtraSet("delay_asked", {"at": state.turn, "ids": [*ids, me]}))
