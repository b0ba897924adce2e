"""Wait (B366; reference 1.3): the maneuver, its trigger (a foe moving into reach) and the waiter's attack
that it sets off before the mover goes on (made by :func:`~fracas.rules.gurps4.attack.wait_interrupts`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import core, mounted
from fracas.rules.gurps4.attack_roll import attack_roll_parts
from fracas.rules.gurps4.figure import S, Work, look, look_at, rider_of
from fracas.rules.gurps4.geometry import in_reach, max_range, range_yards
from fracas.rules.gurps4.stats import Attack
from fracas.rules.gurps4.turn import end_turn
from fracas.rules.gurps4.validate import Maneuver, attack_of, check_ready

WAIT_RULE = "gurps4/core/maneuver/wait B366"

WaitAttack = tuple[Combatant, Combatant, Attack, dict[str, Any]]
"""The attack a triggered Wait makes: the waiter, its foe, the weapon's attack and the attack's args."""


class Wait(Maneuver):
    """Wait (B366): optional ``target`` (the foe to wait for; any foe if none), ``args.weapon`` (the
    response: an Attack with it), optional ``location``, ``deceptive``. It lasts until the waiter's next
    turn."""

    name = "wait"
    rule = WAIT_RULE

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        for atk in S(a).attacks():
            yield Command(a.id, "wait", t.id, {"weapon": atk.name})

    def validate(self, state: FightState, command: Command) -> None:
        """Reference 1.3: "becomes an attack ... when triggered": the response is an Attack with a ready
        weapon; the trigger is the foe (``target``, or any foe) moving into its reach."""
        a = state.combatants[command.actor]
        args = command.args
        if command.target is not None:
            t = state.combatants.get(command.target)
            if t is None or t.side == a.side or not t.active:
                foes = ", ".join(e.id for e in state.combatants.values() if e.side != a.side and e.active)
                raise IllegalCommand(
                    f"{a.name} can wait only for an active foe (one of {foes}), not {command.target!r}",
                    WAIT_RULE,
                )
        atk = attack_of(a, args.get("weapon"))
        if S(a).mount:
            mounted.mount_can_attack(S(a).war_trained)
            if not atk.natural:
                raise IllegalCommand(
                    "a mount attacks with its natural attacks", "gurps4/mounted/mount-attacks B396"
                )
        check_ready(a, atk)
        loc = args.get("location", "torso")
        if not isinstance(loc, str):
            raise IllegalCommand("args.location: a hit location name", "gurps4/core/hit-location B398")
        if not isinstance(args.get("deceptive", 0), int) or int(args.get("deceptive", 0)) < 0:
            raise IllegalCommand(
                "args.deceptive: levels of Deceptive Attack, 0 or more", "gurps4/core/deceptive-attack B369"
            )

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        args = command.args
        plan = {"weapon": args["weapon"], "for": command.target}
        plan.update({k: args[k] for k in ("location", "deceptive") if k in args})
        w.mark(a, "waiting", plan, WAIT_RULE)
        what = f"{command.target and w.c(command.target).name or 'any foe'} to come within reach"
        w.note(f"{a.name} waits with {args['weapon']} for {what}", a.id, WAIT_RULE)
        end_turn(w, a)


def wait_watch(w: Work, mover: Combatant) -> dict[tuple[str, str], bool]:
    """Before a move: for each waiting foe and each figure that moves (the mover, its rider and
    passenger), whether that figure is already within the waiter's reach."""
    out: dict[tuple[str, str], bool] = {}
    moving = carried(w, mover)
    for waiter in look(w.state):  # read only
        plan = waiter.marks.get("waiting")
        if not plan or not waiter.active:
            continue
        atk = S(waiter).attack(plan["weapon"])
        for m in moving:
            if m.side != waiter.side and atk is not None:
                out[(waiter.id, m.id)] = wait_in_reach(waiter, m, atk)
    return out


def carried(w: Work, mover: Combatant) -> list[Combatant]:
    moving = [mover]
    rider = rider_of(w.state, mover)
    if rider is not None:
        moving.append(rider)
        passenger = w.state.combatants.get(mover.marks.get("passenger") or "")
        if passenger is not None:
            moving.append(passenger)
    return moving


def wait_in_reach(waiter: Combatant, m: Combatant, atk: Attack) -> bool:
    if atk.ranged:
        return range_yards(waiter, m) <= max_range(S(waiter), atk)
    return in_reach(waiter, m, atk)


def triggered(
    w: Work, mover: Combatant, before: dict[tuple[str, str], bool], resume: dict[str, Any]
) -> WaitAttack | None:
    """After a move: the first waiting foe whose trigger fired (its foe moved and ended within reach;
    for a melee weapon, came into reach) makes its Attack now, before the mover goes on (B366): that attack
    (its args carry ``resume``, how the mover's turn goes on after it), or None."""
    moving = {m.id: m for m in carried(w, mover)}
    for waiter_id in list(w.state.order):
        if not look_at(w.state, waiter_id).marks.get("waiting"):  # most wait for nobody: no copy
            continue
        waiter = w.state.combatants[waiter_id]
        plan = waiter.marks.get("waiting")
        if not plan or not waiter.active or waiter.has("stunned"):
            continue
        atk = S(waiter).attack(plan["weapon"])
        if atk is None:
            continue
        targets = [plan["for"]] if plan.get("for") else list(moving)
        for tid in targets:
            t = moving.get(tid)
            if t is None or t.side == waiter.side or not t.active or (waiter.id, tid) not in before:
                continue
            now = wait_in_reach(waiter, t, atk)
            if not now or (before[(waiter.id, tid)] and not atk.ranged):
                continue
            try:
                check_ready(waiter, atk)
                if S(waiter).mount and atk.name == "trample":
                    mounted.trample_allowed(S(waiter).sm, S(t).sm, t.marks.get("posture") == "lying")
            except IllegalCommand as e:
                w.mark(waiter, "waiting", None, WAIT_RULE)
                w.note(f"{waiter.name}'s Wait lapses: {e}", waiter.id, WAIT_RULE)
                continue
            args: dict[str, Any] = {k: plan[k] for k in ("location", "deceptive") if k in plan}
            base, mods, cap = attack_roll_parts(w.state, waiter, t, atk, "attack", args)
            eff, _ = core.effective_value(base, mods, cap)
            w.mark(waiter, "waiting", None, WAIT_RULE)
            if eff < 3:
                w.note(
                    f"{waiter.name}'s Wait is triggered by {t.name}, but {atk.name} at effective {eff} "
                    "cannot be attempted (below 3)",
                    waiter.id,
                    "gurps4/core/success-roll B344",
                )
                continue
            w.note(
                f"{waiter.name}'s Wait is triggered: {t.name} comes within reach of {atk.name}",
                waiter.id,
                WAIT_RULE,
            )
            w.mark(waiter, "attacked_last_turn", True)
            args["resume"] = resume
            return waiter, t, atk, args
    return None
