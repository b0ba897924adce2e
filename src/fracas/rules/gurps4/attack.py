"""The maneuvers that strike (B365): Attack, All-Out Attack and Move and Attack (one registered maneuver,
``attack``, the option in ``args.maneuver``) and Feint; an attack's strikes (the roll, a miss that strikes
someone else on a mount, the defense offered, the follow-up blows), and the attack a Wait interrupted going
on after the Wait's attack (B366)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import core, data, mounted
from fracas.rules.gurps4.attack_roll import attack_roll_parts
from fracas.rules.gurps4.defense import offer_defense
from fracas.rules.gurps4.figure import ATTACK_MANEUVERS, S, Work, mount_of, rider_of, shock_now
from fracas.rules.gurps4.geometry import in_reach, max_range, move_figure, range_yards
from fracas.rules.gurps4.injury import apply_hit
from fracas.rules.gurps4.riding import mount_loses_control, riding_base, spook
from fracas.rules.gurps4.stats import Attack
from fracas.rules.gurps4.turn import end_turn
from fracas.rules.gurps4.validate import (
    Maneuver,
    approach,
    attack_of,
    check_ready,
    feint_parts,
    movement_allowance,
    reachable,
    target_of,
)
from fracas.rules.gurps4.wait import WAIT_RULE, triggered, wait_watch


class AttackManeuver(Maneuver):
    """Attack, All-Out Attack and Move and Attack (B365): ``args.weapon``, ``args.maneuver`` (one of
    ``ATTACK_MANEUVERS``), optional ``location``, ``deceptive``, ``trick``. A melee attack out of reach
    closes in first, as far as the maneuver lets the figure move."""

    name = "attack"
    rule = "gurps4/core/maneuver/attack B365"

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        for atk in S(a).attacks():
            for m in ATTACK_MANEUVERS:
                yield Command(a.id, "attack", t.id, {"weapon": atk.name, "maneuver": m})

    def maneuver_of(self, command: Command) -> str:
        return str(command.args.get("maneuver", "attack"))

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        args = command.args
        st = S(a)
        posture = a.marks.get("posture", "standing")
        t = target_of(state, a, command)
        atk = attack_of(a, args.get("weapon"))
        maneuver = args.get("maneuver", "attack")
        if maneuver not in ATTACK_MANEUVERS:
            raise IllegalCommand(
                f"unknown attack maneuver {maneuver!r}; known: {', '.join(ATTACK_MANEUVERS)}",
                "gurps4/core/maneuver B363",
            )
        if st.mount:
            mounted.mount_can_attack(st.war_trained)
            if not atk.natural:
                raise IllegalCommand(
                    "a mount attacks with its natural attacks", "gurps4/mounted/mount-attacks B396"
                )
            if atk.name == "trample":
                mounted.trample_allowed(st.sm, S(t).sm, t.marks.get("posture") == "lying")
        check_ready(a, atk)
        if posture in ("lying", "crawling", "sitting") and maneuver != "attack":
            raise IllegalCommand(f"{a.name} is {posture}", "gurps4/core/posture B551")
        trick_name = args.get("trick")
        if trick_name:
            if mount_of(state, a) is None or not atk.ranged:
                raise IllegalCommand(
                    "the riding tricks are for shooting from a mount", "gurps4/mounted/tricks B397"
                )
            mounted.trick(trick_name)
        loc = args.get("location", "torso")
        table = data.hit_locations(S(t).body)
        if loc not in table:
            raise IllegalCommand(
                f"{loc!r} is not a hit location of {t.name}; known: {', '.join(table)}",
                "gurps4/core/hit-location B398",
            )
        if table[loc].only_types and atk.damage_type not in table[loc].only_types:
            raise IllegalCommand(
                f"{atk.damage_type} attacks cannot target the {loc}", "gurps4/core/hit-location B399"
            )
        if t.marks.get("trick") == "hang_on_far_side":
            mounted.hanging_rider_target_allowed(loc)
        if maneuver == "all_out_attack_feint" and not atk.ranged:
            fb, fm = feint_parts(state, a, atk)
            if core.effective_value(fb, fm)[0] < 3:
                raise IllegalCommand(
                    f"{a.name}'s feint below effective 3: only defense rolls may be attempted",
                    "gurps4/core/success-roll B344",
                )
        # every attack, also one made after closing in: what the roll is made against does not depend on
        # where the attacker stands in melee (range is read for ranged attacks)
        base, mods, cap = attack_roll_parts(state, a, t, atk, maneuver, args)
        eff, _ = core.effective_value(base, mods, cap)
        if eff < 3:
            raise IllegalCommand(
                f"{a.name}'s {atk.name} at effective {eff}: below 3 only defense rolls may be attempted",
                "gurps4/core/success-roll B344",
            )
        if atk.ranged:
            if range_yards(a, t) > max_range(st, atk):
                raise IllegalCommand(f"{t.name} is beyond {atk.name}'s range", "gurps4/core/speed-range B550")
            if maneuver in ("all_out_attack_strong", "all_out_attack_double", "all_out_attack_feint"):
                raise IllegalCommand(
                    f"{maneuver} is a melee option", "gurps4/core/maneuver/all-out-attack B365"
                )
            return
        if not reachable(state, a, t, atk, maneuver):
            raise IllegalCommand(f"{t.name} is out of {atk.name}'s reach", "gurps4/core/maneuver B363")

    def resolve(self, w: Work, cmd: Command) -> None:
        a = w.c(cmd.actor)
        t = w.c(cmd.target or "")
        atk = S(a).attack(cmd.args["weapon"])
        assert atk is not None
        maneuver = cmd.args.get("maneuver", "attack")
        if cmd.args.get("trick"):
            w.mark(a, "trick", cmd.args["trick"], "gurps4/mounted/tricks B397")
        if not atk.ranged and not in_reach(a, t, atk):
            path, alt = approach(w.state, a, t, atk, movement_allowance(w.state, a, maneuver))
            before = wait_watch(w, a)
            move_figure(
                w,
                a,
                path,
                alt,
                "step" if maneuver == "attack" else "move",
                f"gurps4/core/maneuver/{maneuver} B365",
            )
            resume = {"kind": "attack", "actor": a.id, "target": t.id, "args": dict(cmd.args)}
            if wait_interrupts(w, a, before, resume):
                return
        attack_now(w, a, t, atk, maneuver, cmd.args)


class Feint(Maneuver):
    """Feint (B365): a Quick Contest of melee skills; the margin of victory is a penalty to the foe's next
    defense against this figure. ``args.weapon``, a melee weapon."""

    name = "feint"
    rule = "gurps4/core/maneuver/feint B365"

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        for atk in S(a).attacks():
            if not atk.ranged and not atk.natural:
                yield Command(a.id, "feint", t.id, {"weapon": atk.name})

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        t = target_of(state, a, command)
        atk = attack_of(a, command.args.get("weapon"))
        if atk.ranged or atk.natural:
            raise IllegalCommand("a feint is made with a melee weapon", "gurps4/core/maneuver/feint B365")
        if not in_reach(a, t, atk):
            raise IllegalCommand(f"{t.name} is out of reach", "gurps4/core/maneuver/feint B365")
        base, mods = feint_parts(state, a, atk)
        eff, _ = core.effective_value(base, mods)
        if eff < 3:
            raise IllegalCommand(
                f"{a.name}'s feint at effective {eff}: below 3 only defense rolls may be attempted",
                "gurps4/core/success-roll B344",
            )

    def resolve(self, w: Work, command: Command) -> None:
        a = w.c(command.actor)
        feint(w, a, w.c(command.target or ""), command.args)
        end_turn(w, a)


def wait_interrupts(
    w: Work, mover: Combatant, before: dict[tuple[str, str], bool], resume: dict[str, Any]
) -> bool:
    """After a move: a waiting foe whose trigger fired makes its Attack now, before the mover goes on (B366).
    Returns True when the mover's turn goes on after that attack (``resume``)."""
    hit = triggered(w, mover, before, resume)
    if hit is None:
        return False
    waiter, t, atk, args = hit
    strike(w, waiter, t, atk, "attack", args, 0)
    return True


def feint(w: Work, a: Combatant, t: Combatant, args: dict[str, Any]) -> None:
    atk = S(a).attack(args["weapon"])
    assert atk is not None
    base, mods = feint_parts(w.state, a, atk)
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


def attack_now(w: Work, a: Combatant, t: Combatant, atk: Attack, maneuver: str, args: dict[str, Any]) -> None:
    attacks = core.maneuver(maneuver).attacks
    if maneuver == "all_out_attack_feint":
        feint(w, a, t, {"weapon": atk.name})
    strike(w, a, t, atk, maneuver, dict(args), attacks - 1)


def strike(
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
            if offer_defense(w, a, t, atk, maneuver, "torso", args, attacks_left):
                return
            apply_hit(w, a, t, atk, "torso", maneuver, False)
            follow_up(w, a, t, atk, maneuver, args, attacks_left)
            return
        elif r.margin == -1:
            o = mount_of(w.state, t) or rider_of(w.state, t)
            if o is not None:
                other = (o, f"missed {t.name} by 1: the blow goes to {o.name}", "results")
        if other is not None and other[0].active:
            struck, why, section = other
            w.note(why, a.id, f"gurps4/mounted/{section} B397")
            if offer_defense(w, a, struck, atk, maneuver, "torso", {**args, "target": t.id}, attacks_left):
                return
            apply_hit(w, a, struck, atk, "torso", maneuver, False)
    elif r.critical_success:
        w.note(f"critical hit on {t.name}: no defense", a.id, "gurps4/core/critical B556")
        apply_hit(w, a, t, atk, loc, maneuver, True)
    else:
        if offer_defense(w, a, t, atk, maneuver, loc, args, attacks_left):
            return
        apply_hit(w, a, t, atk, loc, maneuver, False)
    follow_up(w, a, t, atk, maneuver, args, attacks_left)


def follow_up(
    w: Work,
    a: Combatant,
    t: Combatant,
    atk: Attack,
    maneuver: str,
    args: dict[str, Any],
    attacks_left: int,
) -> None:
    if attacks_left > 0 and a.active and t.active and (atk.ranged or in_reach(a, t, atk)):
        strike(w, a, t, atk, maneuver, args, attacks_left - 1)
        return
    if args.get("resume"):
        resume(w, args["resume"])
        return
    if a.id == w.state.current and a.id not in w.state.acted:
        end_turn(w, a)


def resume(w: Work, resume: dict[str, Any]) -> None:
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
                check_resumed_attack(w.state, a, t, atk, maneuver, args)
            except IllegalCommand as e:
                w.note(f"{a.name}'s attack on {t.name} does not happen: {e}", a.id, WAIT_RULE)
                end_turn(w, a)
                return
            attack_now(w, a, t, atk, maneuver, args)
            return
        w.note(f"{a.name}'s attack on {t.name} does not happen", a.id, WAIT_RULE)
    end_turn(w, a)


def check_resumed_attack(
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
