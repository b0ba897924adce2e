"""The maneuvers that do not strike (B364-366): Aim, Evaluate, Move, All-Out Defense, Ready, Change
Posture, Concentrate and Do Nothing. (Attack, All-Out Attack, Move and Attack and Feint are in attack.py,
Wait in wait.py.)"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import aerial, core
from fracas.rules.gurps4.attack import wait_interrupts
from fracas.rules.gurps4.figure import S, Work, flying, look, mount_of, move_now
from fracas.rules.gurps4.geometry import max_range, move_figure, path_towards, range_yards
from fracas.rules.gurps4.turn import end_turn
from fracas.rules.gurps4.validate import (
    Maneuver,
    attack_of,
    ceiling_refusal,
    check_ready,
    movement_allowance,
    target_of,
    tumbling_glider,
)
from fracas.rules.gurps4.wait import wait_watch


class Aim(Maneuver):
    """Aim (B364): ``target``, ``args.weapon`` (a ranged weapon, ready); each further turn at the same foe
    with the same weapon adds to the bonus."""

    name = "aim"
    rule = "gurps4/core/maneuver/aim B364"

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        for atk in S(a).attacks():
            if atk.ranged:
                yield Command(a.id, "aim", t.id, {"weapon": atk.name})

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        t = target_of(state, a, command)
        atk = attack_of(a, command.args.get("weapon"))
        if not atk.ranged:
            raise IllegalCommand(f"{atk.name} is not a ranged weapon", "gurps4/core/maneuver/aim B364")
        check_ready(a, atk)
        if range_yards(a, t) > max_range(S(a), atk):
            raise IllegalCommand(f"{t.name} is beyond {atk.name}'s range", "gurps4/core/speed-range B550")

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        old = a.marks.get("aim")
        weapon = command.args["weapon"]
        turns = int(old[2]) + 1 if old and old[0] == command.target and old[1] == weapon else 1
        aimed = S(a).attack(weapon)
        assert aimed is not None  # validated
        w.mark(a, "aim", (command.target, aimed.weapon, turns), "gurps4/core/maneuver/aim B364")
        end_turn(w, a)


class Evaluate(Maneuver):
    """Evaluate (B364): ``target``; +1 a turn to the next attack on it, at most +3."""

    name = "evaluate"
    rule = "gurps4/core/maneuver/evaluate B364"

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        return [Command(a.id, "evaluate", t.id)]

    def validate(self, state: FightState, command: Command) -> None:
        target_of(state, state.combatants[command.actor], command)

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        old = a.marks.get("evaluate")
        turns = int(old[1]) + 1 if old and old[0] == command.target else 1
        # emitted even at the +3 cap, so that the log shows the maneuver
        w.emit(
            ev.Marked(a.id, "evaluate", (command.target, min(3, turns)), "gurps4/core/maneuver/evaluate B364")
        )
        end_turn(w, a)


class Move(Maneuver):
    """Move (B364): ``args.to`` [q, r], optional ``altitude`` (flyers), ``dive`` (true: +10 air Move
    descending), ``stop_at`` (yards short of the destination). A flyer that cannot hover is offered a glide
    straight on at its full air Move (B398)."""

    name = "move"
    rule = "gurps4/core/maneuver/move B364"

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        if t.pos is not None:
            yield Command(a.id, "move", None, {"to": list(t.pos), "altitude": t.altitude})

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        a = actor
        if flying(a) and S(a).flight_limitation in aerial.NO_HOVER and a.pos is not None:
            ahead = [a.pos[0] + move_now(a, air=True), a.pos[1]]
            yield Command(a.id, "move", None, {"to": ahead, "altitude": a.altitude})

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        args = command.args
        st = S(a)
        posture = a.marks.get("posture", "standing")
        if mount_of(state, a) is not None:
            raise IllegalCommand(
                "a rider moves by moving his mount (the mount's turn)", "gurps4/mounted B396"
            )
        if posture not in ("standing", "crouching") and not tumbling_glider(a):
            raise IllegalCommand(f"{a.name} is {posture}: change posture first", "gurps4/core/posture B551")
        to = args.get("to")
        if not (isinstance(to, list | tuple) and len(to) == 2 and all(isinstance(v, int) for v in to)):
            raise IllegalCommand("move needs args.to = [q, r]", "gurps4/core/maneuver/move B364")
        if not isinstance(args.get("stop_at", 0), int) or not 0 <= args.get("stop_at", 0) <= 20:
            raise IllegalCommand("args.stop_at: yards short of the destination, 0..20")
        alt = args.get("altitude")
        if alt is not None and alt != a.altitude and not st.flies:
            raise IllegalCommand(f"{a.name} cannot fly", "gurps4/aerial/movement B398")
        if alt is not None and alt < 0:
            raise IllegalCommand("altitude is at least 0", "gurps4/aerial/movement B398")
        problem = ceiling_refusal(int(alt or 0), st.flight == "winged") if st.flies else None
        if problem:
            raise IllegalCommand(problem, "gurps4/aerial/ceiling B398")
        if args.get("dive") and (not st.flies or alt is None or alt >= a.altitude):
            raise IllegalCommand("a dive is a flyer's descending Move", "gurps4/aerial/dive B398")

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        if tumbling_glider(a):
            w.mark(a, "posture", "standing", "gurps4/aerial/stall B398")
            w.note(f"{a.name} rights itself as it glides on", a.id, "gurps4/aerial/stall B398")
        before = wait_watch(w, a)
        _move(w, a, command.args)
        if wait_interrupts(w, a, before, {"kind": "move", "actor": a.id}):
            return
        end_turn(w, a)


def _move(w: Work, a: Combatant, args: dict[str, Any]) -> None:
    st = S(a)
    dest = (int(args["to"][0]), int(args["to"][1]))
    alt = args.get("altitude")
    budget = movement_allowance(w.state, a, "move")
    if st.flies and (a.altitude > 0 or (alt or 0) > 0):
        air = move_now(a, air=True)
        budget = core.maneuver_move("move", air)
        if args.get("dive"):
            budget, _ = aerial.dive(air, air, "move")
    vertical = 0
    new_alt = None
    if alt is not None and st.flies and alt != a.altitude:
        vertical = min(abs(alt - a.altitude), budget)
        new_alt = a.altitude + (vertical if alt > a.altitude else -vertical)
    horizontal = aerial.across_within(budget, vertical)
    stop = 1 if any(c.pos == dest and c.id != a.id for c in look(w.state)) else 0
    stop = max(stop, int(args.get("stop_at", 0)))
    path = path_towards(w.state, a, dest, horizontal, stop_at=stop)
    move_figure(
        w,
        a,
        path,
        new_alt,
        "move",
        "gurps4/core/maneuver/move B364" if not st.flies else "gurps4/aerial/height B398",
    )


class AllOutDefense(Maneuver):
    """All-Out Defense (B366): ``args.variant`` (increased_dodge | increased_parry | increased_block |
    double), a variant that raises a defense the figure has."""

    name = "all_out_defense"
    rule = "gurps4/core/maneuver/all-out-defense B366"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        for v in ("increased_dodge", "increased_parry", "increased_block", "double"):
            yield Command(actor.id, "all_out_defense", None, {"variant": v})

    def maneuver_of(self, command: Command) -> str:
        return f"all_out_defense_{command.args.get('variant', 'increased_dodge')}"

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        v = command.args.get("variant", "increased_dodge")
        st = S(a)
        core.maneuver(f"all_out_defense_{v}")
        if st.mount and v != "increased_dodge":
            # a mount's only defense is Dodge (B397): All-Out Defense can raise nothing else
            raise IllegalCommand(
                f"{a.name} defends by Dodge only: All-Out Defense (Increased Dodge)",
                "gurps4/mounted/mount-defense B397",
            )
        if v == "increased_block" and not st.shield:
            raise IllegalCommand(f"{a.name} has no shield to block with", "gurps4/core/active-defense B375")

    def resolve(self, w: Work, command: Command) -> None:
        end_turn(w, w.c(command.actor))


class Ready(Maneuver):
    """Ready (B366): optional ``args.weapon`` (take it in hand); without one, a turn toward what needs
    readying (a weapon unreadied, a reload, an unreadied shield)."""

    name = "ready"
    rule = "gurps4/core/maneuver/ready B366"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        out = [Command(actor.id, "ready", None, {"weapon": wpn}) for wpn in S(actor).weapons]
        return [*out, Command(actor.id, "ready")]

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        args = command.args
        want = args.get("weapon")
        if want is not None:
            if want not in S(a).weapons or want in a.marks.get("broken", ()):
                raise IllegalCommand(
                    f"{a.name} has no usable {want!r} to ready", "gurps4/core/maneuver/ready B366"
                )
            if want == a.marks.get("wielding") and not a.marks.get("unready"):
                raise IllegalCommand(f"{a.name} already holds {want}", "gurps4/core/maneuver/ready B366")
            return
        if not (a.marks.get("reload") or a.marks.get("unready") or a.marks.get("shield_unready")):
            raise IllegalCommand(f"{a.name} has nothing to ready", "gurps4/core/maneuver/ready B366")

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        args = command.args
        if args.get("weapon"):
            w.mark(a, "wielding", args["weapon"], "gurps4/core/maneuver/ready B366")
            w.mark(a, "unready", None)
            w.mark(a, "reload", None)
        elif a.marks.get("shield_unready") and not a.marks.get("unready"):
            w.mark(a, "shield_unready", None, "gurps4/core/maneuver/ready B366")
        else:
            for key in ("unready", "reload"):
                if a.marks.get(key):
                    w.mark(a, key, (int(a.marks[key]) - 1) or None, "gurps4/core/maneuver/ready B366")
                    break
        end_turn(w, a)


class ChangePosture(Maneuver):
    """Change Posture (B364, B551): ``args.posture``; a rider stays seated."""

    name = "change_posture"
    rule = "gurps4/core/posture B551"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        return [Command(actor.id, "change_posture", None, {"posture": "standing"})]

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        posture = a.marks.get("posture", "standing")
        p = command.args.get("posture", "standing")
        core.posture(p)
        if p == posture:
            raise IllegalCommand(f"{a.name} is already {p}", "gurps4/core/posture B551")
        if mount_of(state, a) is not None:
            raise IllegalCommand("a rider stays seated", "gurps4/core/posture B551")

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        w.mark(a, "posture", command.args.get("posture", "standing"), "gurps4/core/posture B551")
        end_turn(w, a)


class Concentrate(Maneuver):
    """Concentrate (B366): nothing else this turn (no mental ability needs it in this version)."""

    name = "concentrate"
    rule = "gurps4/core/maneuver B363"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        return [Command(actor.id, "concentrate")]

    def validate(self, state: FightState, command: Command) -> None:
        return None

    def resolve(self, w: Work, command: Command) -> None:
        end_turn(w, w.c(command.actor))


class DoNothing(Maneuver):
    """Do Nothing (B364): the only maneuver of a stunned figure."""

    name = "do_nothing"
    rule = "gurps4/core/maneuver B363"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        return [Command(actor.id, "do_nothing")]

    def validate(self, state: FightState, command: Command) -> None:
        return None

    def resolve(self, w: Work, command: Command) -> None:
        end_turn(w, w.c(command.actor))
