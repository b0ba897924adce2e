"""Resolving a maneuver (B363-366): the act, a Move, a Feint, an Attack and its strikes (the roll, a miss
that strikes someone else on a mount, the defense offered, the follow-up blows)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.combat import (
    S,
    Work,
    apply_hit,
    attack_roll_parts,
    in_reach,
    look,
    mount_loses_control,
    mount_of,
    move_figure,
    move_now,
    path_towards,
    rider_of,
    riding_base,
    riding_skill,
    shock_now,
    spook,
)
from fracas.rules.gurps4.modifiers import Modifier
from fracas.rules.gurps4.parts import Parts
from fracas.rules.gurps4.stats import Attack
from fracas.rules.gurps4.wait import WAIT_RULE

if TYPE_CHECKING:
    pass


class Maneuvers(Parts):
    """The part of :class:`~fracas.rules.gurps4.ruleset.GurpsRuleset` in this module."""

    def _act(self, w: Work, cmd: Command) -> None:
        a = w.c(cmd.actor)
        action, args = cmd.action, cmd.args
        maneuver = {"all_out_defense": f"all_out_defense_{args.get('variant', 'increased_dodge')}"}.get(
            action, action
        )
        if action == "attack":
            maneuver = args.get("maneuver", "attack")
        w.mark(a, "maneuver", maneuver)
        if action == "change_posture":
            w.mark(a, "posture", args.get("posture", "standing"), "gurps4/core/posture B551")
        elif action == "ready" and args.get("weapon"):
            w.mark(a, "wielding", args["weapon"], "gurps4/core/maneuver/ready B366")
            w.mark(a, "unready", None)
            w.mark(a, "reload", None)
        elif action == "ready" and a.marks.get("shield_unready") and not a.marks.get("unready"):
            w.mark(a, "shield_unready", None, "gurps4/core/maneuver/ready B366")
        elif action == "ready":
            for key in ("unready", "reload"):
                if a.marks.get(key):
                    w.mark(a, key, (int(a.marks[key]) - 1) or None, "gurps4/core/maneuver/ready B366")
                    break
        elif action == "wait":
            plan = {"weapon": args["weapon"], "for": cmd.target}
            plan.update({k: args[k] for k in ("location", "deceptive") if k in args})
            w.mark(a, "waiting", plan, WAIT_RULE)
            what = f"{cmd.target and w.c(cmd.target).name or 'any foe'} to come within reach"
            w.note(f"{a.name} waits with {args['weapon']} for {what}", a.id, WAIT_RULE)
        elif action == "move":
            if self._tumbling_glider(a):
                w.mark(a, "posture", "standing", "gurps4/aerial/stall B398")
                w.note(f"{a.name} rights itself as it glides on", a.id, "gurps4/aerial/stall B398")
            before = self._wait_watch(w, a)
            self._move(w, a, args)
            if self._wait_trigger(w, a, before, {"kind": "move", "actor": a.id}):
                return
        elif action == "aim":
            old = a.marks.get("aim")
            turns = int(old[2]) + 1 if old and old[0] == cmd.target and old[1] == args["weapon"] else 1
            aimed = S(a).attack(args["weapon"])
            assert aimed is not None  # validated
            w.mark(a, "aim", (cmd.target, aimed.weapon, turns), "gurps4/core/maneuver/aim B364")
        elif action == "evaluate":
            old = a.marks.get("evaluate")
            turns = int(old[1]) + 1 if old and old[0] == cmd.target else 1
            # emitted even at the +3 cap, so that the log shows the maneuver
            w.emit(
                ev.Marked(a.id, "evaluate", (cmd.target, min(3, turns)), "gurps4/core/maneuver/evaluate B364")
            )
        elif action == "feint":
            self._feint(w, a, w.c(cmd.target or ""), args)
        elif action == "attack":
            self._attack(w, a, cmd)
            return
        self._end_turn(w, a)

    def _move(self, w: Work, a: Combatant, args: dict[str, Any]) -> None:
        st = S(a)
        dest = (int(args["to"][0]), int(args["to"][1]))
        alt = args.get("altitude")
        budget = self.movement_allowance(w.state, a, "move")
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

    @staticmethod
    def _feint_parts(state: FightState, a: Combatant, atk: Attack) -> tuple[int, list[Modifier]]:
        """The feinter's melee skill (B365) and what changes it: on a mount the lower of it and Riding
        (002 p.B397), and this turn's shock (B419)."""
        base = S(a).skill(atk.skill_name)
        mods: list[Modifier] = []
        if mount_of(state, a) is not None:
            mods += mounted.mounted_skill(base, riding_skill(state, a))[1]
        mods += shock_now(a)
        return base, mods

    def _feint(self, w: Work, a: Combatant, t: Combatant, args: dict[str, Any]) -> None:
        atk = S(a).attack(args["weapon"])
        assert atk is not None
        base, mods = self._feint_parts(w.state, a, atk)
        mine = core.success_roll(f"{atk.skill_name} (feint)", base, mods, w.dice, "melee")
        best = max(
            [S(t).dx]
            + [S(t).skill(x.skill_name) for x in S(t).attacks() if not x.ranged and not x.natural]
            + ([S(t).skill("Shield")] if S(t).shield else [])
        )
        theirs = core.success_roll("resist feint", best, shock_now(t), w.dice)
        w.rolled(a.id, mine, t.id, "gurps4/core/maneuver/feint B365")
        w.rolled(t.id, theirs, a.id, "gurps4/core/maneuver/feint B365")
        pen = core.feint_penalty(core.quick_contest(mine, theirs))
        if pen:
            w.mark(t, "feinted", (a.id, pen), "gurps4/core/maneuver/feint B365")

    def _attack(self, w: Work, a: Combatant, cmd: Command) -> None:
        t = w.c(cmd.target or "")
        atk = S(a).attack(cmd.args["weapon"])
        assert atk is not None
        maneuver = cmd.args.get("maneuver", "attack")
        if cmd.args.get("trick"):
            w.mark(a, "trick", cmd.args["trick"], "gurps4/mounted/tricks B397")
        if not atk.ranged and not in_reach(a, t, atk):
            path, alt = self.approach(w.state, a, t, atk, self.movement_allowance(w.state, a, maneuver))
            before = self._wait_watch(w, a)
            move_figure(
                w,
                a,
                path,
                alt,
                "step" if maneuver == "attack" else "move",
                f"gurps4/core/maneuver/{maneuver} B365",
            )
            resume = {"kind": "attack", "actor": a.id, "target": t.id, "args": dict(cmd.args)}
            if self._wait_trigger(w, a, before, resume):
                return
        self._attack_now(w, a, t, atk, maneuver, cmd.args)

    def _attack_now(
        self, w: Work, a: Combatant, t: Combatant, atk: Attack, maneuver: str, args: dict[str, Any]
    ) -> None:
        attacks = core.maneuver(maneuver).attacks
        if maneuver == "all_out_attack_feint":
            self._feint(w, a, t, {"weapon": atk.name})
        self._strike(w, a, t, atk, maneuver, dict(args), attacks - 1)

    def _strike(
        self,
        w: Work,
        a: Combatant,
        t: Combatant,
        atk: Attack,
        maneuver: str,
        args: dict[str, Any],
        attacks_left: int,
    ) -> None:
        base, mods, cap = attack_roll_parts(w.state, a, t, atk, maneuver, args)
        skill = atk.skill_name if not (atk.natural and S(a).mount) else atk.skill_name
        kind = "ranged" if atk.ranged else "melee"
        r = core.success_roll(f"{atk.name} ({skill})", base, mods, w.dice, kind, cap)  # type: ignore[arg-type]
        w.rolled(a.id, r, t.id, f"gurps4/core/maneuver/{maneuver} B365")
        w.mark(a, "attacked", True)
        if a.marks.get("evaluate"):
            w.mark(a, "evaluate", None)
        if atk.ranged:
            rng = data.weapons()[atk.weapon].ranged
            assert rng is not None
            w.mark(a, "aim", None)
            w.mark(a, "reload", rng.reload, "gurps4/core/maneuver/ready B366")
            mount = mount_of(w.state, a)
            if rng.noisy and mount is not None:
                base_r, rmods = riding_base(w.state, a)
                rr, outcome = mounted.noisy_shot(base_r, rmods, w.dice)
                w.rolled(a.id, rr, rule="gurps4/mounted/noisy-weapon B397")
                if outcome == "spooked":
                    spook(w, mount, "noisy weapon")
                elif outcome == "lost_control":
                    mount_loses_control(w, mount, mounted.loss_of_control(w.dice), "critical failure")
        loc = args.get("location", "torso")
        if not r.success:
            if r.critical_failure:
                w.note(
                    f"{a.name} critically misses: the Critical Miss Table (B556) is a GM's call",
                    a.id,
                    "gurps4/core/critical B556",
                )
            # a miss that strikes someone else: (who, the note, its rule)
            other: tuple[Combatant, str, str] | None = None
            loc_row = data.hit_locations(S(t).body).get(loc)
            hanging = t.marks.get("trick") == "hang_on_far_side" and mount_of(w.state, t) is not None
            if hanging:
                # the far side hides the rider's torso: a miss by 4 or less hits the mount (002 p.B397),
                # which may Dodge as after any miss by 1 at a rider (docs: Game master's calls)
                m = mount_of(w.state, t)
                if m is not None and mounted.miss_hits_mount_of_hanging_rider(r.margin):
                    other = (m, f"missed the hanging rider by {-r.margin}: hits {m.name}", "tricks")
            elif r.margin == -1 and loc_row is not None and loc_row.miss_by_one_torso:
                w.note(
                    f"missed the {loc.replace('_', ' ')} by 1: hits the torso",
                    a.id,
                    "gurps4/core/hit-location B399",
                )
                if self._offer_defense(w, a, t, atk, maneuver, "torso", args, attacks_left):
                    return
                apply_hit(w, a, t, atk, "torso", maneuver, False)
                self._follow_up(w, a, t, atk, maneuver, args, attacks_left)
                return
            elif r.margin == -1:
                o = mount_of(w.state, t) or rider_of(w.state, t)
                if o is not None:
                    other = (o, f"missed {t.name} by 1: the blow goes to {o.name}", "results")
            if other is not None and other[0].active:
                struck, why, section = other
                w.note(why, a.id, f"gurps4/mounted/{section} B397")
                if self._offer_defense(
                    w, a, struck, atk, maneuver, "torso", {**args, "target": t.id}, attacks_left
                ):
                    return
                apply_hit(w, a, struck, atk, "torso", maneuver, False)
        elif r.critical_success:
            w.note(f"critical hit on {t.name}: no defense", a.id, "gurps4/core/critical B556")
            apply_hit(w, a, t, atk, loc, maneuver, True)
        else:
            if self._offer_defense(w, a, t, atk, maneuver, loc, args, attacks_left):
                return
            apply_hit(w, a, t, atk, loc, maneuver, False)
        self._follow_up(w, a, t, atk, maneuver, args, attacks_left)

    def _follow_up(
        self,
        w: Work,
        a: Combatant,
        t: Combatant,
        atk: Attack,
        maneuver: str,
        args: dict[str, Any],
        attacks_left: int,
    ) -> None:
        if attacks_left > 0 and a.active and t.active and (atk.ranged or in_reach(a, t, atk)):
            self._strike(w, a, t, atk, maneuver, args, attacks_left - 1)
            return
        if args.get("resume"):
            self._resume(w, args["resume"])
            return
        if a.id == w.state.current and a.id not in w.state.acted:
            self._end_turn(w, a)
