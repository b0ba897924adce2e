"""Wait (B366; reference 1.3): the trigger (a foe moving into reach), the waiter's attack before the mover
goes on, and the mover's turn resumed after it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import core, mounted
from fracas.rules.gurps4.combat import (
    S,
    Work,
    attack_roll_parts,
    in_reach,
    look,
    look_at,
    max_range,
    range_yards,
    rider_of,
)
from fracas.rules.gurps4.parts import Parts
from fracas.rules.gurps4.stats import Attack

if TYPE_CHECKING:
    pass

WAIT_RULE = "gurps4/core/maneuver/wait B366"


class Waiting(Parts):
    """The part of :class:`~fracas.rules.gurps4.ruleset.GurpsRuleset` in this module."""

    # ----- Wait (B366) ------------------------------------------------------------------------------
    def _wait_watch(self, w: Work, mover: Combatant) -> dict[tuple[str, str], bool]:
        """Before a move: for each waiting foe and each figure that moves (the mover, its rider and
        passenger), whether that figure is already within the waiter's reach."""
        out: dict[tuple[str, str], bool] = {}
        moving = self._carried(w, mover)
        for waiter in look(w.state):  # read only
            plan = waiter.marks.get("waiting")
            if not plan or not waiter.active:
                continue
            atk = S(waiter).attack(plan["weapon"])
            for m in moving:
                if m.side != waiter.side and atk is not None:
                    out[(waiter.id, m.id)] = self._wait_in_reach(waiter, m, atk)
        return out

    def _carried(self, w: Work, mover: Combatant) -> list[Combatant]:
        moving = [mover]
        rider = rider_of(w.state, mover)
        if rider is not None:
            moving.append(rider)
            passenger = w.state.combatants.get(mover.marks.get("passenger") or "")
            if passenger is not None:
                moving.append(passenger)
        return moving

    @staticmethod
    def _wait_in_reach(waiter: Combatant, m: Combatant, atk: Attack) -> bool:
        if atk.ranged:
            return range_yards(waiter, m) <= max_range(S(waiter), atk)
        return in_reach(waiter, m, atk)

    def _wait_trigger(
        self, w: Work, mover: Combatant, before: dict[tuple[str, str], bool], resume: dict[str, Any]
    ) -> bool:
        """After a move: the first waiting foe whose trigger fired (its foe moved and ended within reach;
        for a melee weapon, came into reach) makes its Attack now, before the mover goes on (B366).
        Returns True when the mover's turn continues after that attack (``resume``)."""
        moving = {m.id: m for m in self._carried(w, mover)}
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
                now = self._wait_in_reach(waiter, t, atk)
                if not now or (before[(waiter.id, tid)] and not atk.ranged):
                    continue
                try:
                    self._check_ready(waiter, atk)
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
                self._strike(w, waiter, t, atk, "attack", args, 0)
                return True
        return False

    def _resume(self, w: Work, resume: dict[str, Any]) -> None:
        """The mover's turn goes on after a Wait's attack: its own attack if it still can, else it ends."""
        a = w.c(resume["actor"])
        if a.id != w.state.current or a.id in w.state.acted:
            return
        if resume["kind"] == "attack" and a.active and not a.has("stunned"):
            t = w.c(resume["target"])
            args = dict(resume["args"])
            atk = S(a).attack(args["weapon"])
            maneuver = args.get("maneuver", "attack")
            if atk is not None and t.active and in_reach(a, t, atk):
                try:  # the Wait's attack may have changed what the mover can do (knocked down: B551, B344)
                    self._check_resumed_attack(w.state, a, t, atk, maneuver, args)
                except IllegalCommand as e:
                    w.note(f"{a.name}'s attack on {t.name} does not happen: {e}", a.id, WAIT_RULE)
                    self._end_turn(w, a)
                    return
                self._attack_now(w, a, t, atk, maneuver, args)
                return
            w.note(f"{a.name}'s attack on {t.name} does not happen", a.id, WAIT_RULE)
        self._end_turn(w, a)

    @staticmethod
    def _check_resumed_attack(
        state: FightState, a: Combatant, t: Combatant, atk: Attack, maneuver: str, args: dict[str, Any]
    ) -> None:
        """Whether the attack a mover began before a Wait's attack interrupted it can still be made."""
        posture = a.marks.get("posture", "standing")
        if posture in ("lying", "crawling", "sitting") and maneuver != "attack":
            raise IllegalCommand(f"{a.name} is {posture}", "gurps4/core/posture B551")
        base, mods, cap = attack_roll_parts(state, a, t, atk, maneuver, args)
        eff, _ = core.effective_value(base, mods, cap)
        if eff < 3:
            raise IllegalCommand(f"effective {eff}, below 3", "gurps4/core/success-roll B344")
