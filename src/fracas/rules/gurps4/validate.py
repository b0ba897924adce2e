"""Whether a command is legal now (B363-366, B374-377, B396-398): one check per maneuver, the stall of a
flyer that cannot hover, the weapon in hand, and how far a figure may move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.combat import (
    ATTACK_KEY,
    ATTACK_MANEUVERS,
    S,
    attack_roll_parts,
    flying,
    in_reach,
    max_range,
    mount_of,
    move_now,
    path_towards,
    range_yards,
)
from fracas.rules.gurps4.parts import Parts
from fracas.rules.gurps4.stats import Attack
from fracas.rules.gurps4.wait import WAIT_RULE

if TYPE_CHECKING:
    pass

NOT_IMPLEMENTED_MANEUVERS: dict[str, str] = {}


def ceiling_refusal(altitude_yd: int, winged: bool) -> str | None:
    """Flight Ceiling (B398) for a flyer at ``altitude_yd`` (3 ft a yard): past 6,000 ft the flyer has
    trouble breathing, whose effects (Atmospheric Pressure, B429) this version does not implement, so such a
    height is refused with the reason. Doesn't Breathe and oxygen masks are not modelled."""
    if not isinstance(altitude_yd, int) or altitude_yd <= 0:
        return None
    feet = altitude_yd * 3
    why = aerial.ceiling_problem(feet, winged=winged)
    if why is None:
        return None
    return (
        f"{altitude_yd} yd is {feet:,} ft up, above the flight ceiling ({why}; Flight Ceiling B398, rule "
        "gurps4/aerial/ceiling); its effects (Atmospheric Pressure B429) are not implemented: keep flyers at "
        f"{aerial.BREATHING_TROUBLE_FT // 3:,} yd or lower"
    )


class Validation(Parts):
    """The part of :class:`~fracas.rules.gurps4.ruleset.GurpsRuleset` in this module."""

    # ----- validating -------------------------------------------------------------------------------
    def validate(self, state: FightState, command: Command) -> None:
        if command.actor not in state.combatants:
            raise IllegalCommand(f"no combatant {command.actor!r}")
        a = state.combatants[command.actor]
        if command.action == "defend":
            att = state.extra.get(ATTACK_KEY)
            if not att or att["defender"] != a.id:
                raise IllegalCommand(
                    f"{a.name} has no attack to defend against now", "gurps4/core/active-defense"
                )
            args = command.args

            def key(x: dict[str, Any]) -> tuple[str, bool, bool, bool]:
                return (
                    x.get("defense", "none"),
                    bool(x.get("retreat", False)),
                    bool(x.get("acrobatic", False)),
                    bool(x.get("drop", False)),
                )

            for cmd, _ in self.defense_options(state):
                if key(cmd.args) == key(args) and args.get("weapon") in (None, cmd.args.get("weapon")):
                    return
            self._explain_defense_refusal(state, a, command)
        if state.extra.get(ATTACK_KEY):
            raise IllegalCommand("an attack is waiting for its defense", "gurps4/core/active-defense")
        action = command.action
        args = command.args
        st = S(a)
        if action in NOT_IMPLEMENTED_MANEUVERS or args.get("maneuver") in NOT_IMPLEMENTED_MANEUVERS:
            name = NOT_IMPLEMENTED_MANEUVERS.get(action) or NOT_IMPLEMENTED_MANEUVERS[args["maneuver"]]
            raise RuleNotImplemented(f"the {name} maneuver is not implemented in this version")
        known = (
            "attack",
            "wait",
            "move",
            "aim",
            "evaluate",
            "feint",
            "all_out_defense",
            "ready",
            "change_posture",
            "concentrate",
            "do_nothing",
        )
        if action not in known:
            raise IllegalCommand(
                f"unknown action {action!r}; known: {', '.join(known)}", "gurps4/core/maneuver B363"
            )
        if a.has("stunned") and action != "do_nothing":
            raise IllegalCommand(f"{a.name} is stunned: Do Nothing only", "gurps4/core/stun B420")
        if S(a).mount and a.marks.get("out_of_control"):
            raise IllegalCommand(f"{a.name} is out of control", "gurps4/mounted/loss-of-control B397")
        self._check_stall(state, a, command)
        posture = a.marks.get("posture", "standing")
        if action == "change_posture":
            p = args.get("posture", "standing")
            core.posture(p)
            if p == posture:
                raise IllegalCommand(f"{a.name} is already {p}", "gurps4/core/posture B551")
            if mount_of(state, a) is not None:
                raise IllegalCommand("a rider stays seated", "gurps4/core/posture B551")
            return
        if action == "ready":
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
            return
        if action in ("concentrate", "do_nothing"):
            return
        if action == "wait":
            self._validate_wait(state, a, command)
            return
        if action == "all_out_defense":
            self._validate_all_out_defense(a, args.get("variant", "increased_dodge"))
            return
        if action == "move":
            if mount_of(state, a) is not None:
                raise IllegalCommand(
                    "a rider moves by moving his mount (the mount's turn)", "gurps4/mounted B396"
                )
            if posture not in ("standing", "crouching") and not self._tumbling_glider(a):
                raise IllegalCommand(
                    f"{a.name} is {posture}: change posture first", "gurps4/core/posture B551"
                )
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
            return
        t = state.combatants.get(command.target or "")
        if t is None:
            raise IllegalCommand(f"{action} needs a target (one of {', '.join(state.combatants)})")
        if t.id == a.id or not t.active:
            raise IllegalCommand(f"{t.name} cannot be the target of {a.name}'s {action}")
        if action == "evaluate":
            return
        atk = self._attack_of(a, args.get("weapon"))
        if action == "aim":
            if not atk.ranged:
                raise IllegalCommand(f"{atk.name} is not a ranged weapon", "gurps4/core/maneuver/aim B364")
            self._check_ready(a, atk)
            if range_yards(a, t) > max_range(st, atk):
                raise IllegalCommand(f"{t.name} is beyond {atk.name}'s range", "gurps4/core/speed-range B550")
            return
        if action == "feint":
            if atk.ranged or atk.natural:
                raise IllegalCommand("a feint is made with a melee weapon", "gurps4/core/maneuver/feint B365")
            if not in_reach(a, t, atk):
                raise IllegalCommand(f"{t.name} is out of reach", "gurps4/core/maneuver/feint B365")
            base, mods = self._feint_parts(state, a, atk)
            eff, _ = core.effective_value(base, mods)
            if eff < 3:
                raise IllegalCommand(
                    f"{a.name}'s feint at effective {eff}: below 3 only defense rolls may be attempted",
                    "gurps4/core/success-roll B344",
                )
            return
        # attack
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
        self._check_ready(a, atk)
        if posture in ("lying", "crawling", "sitting") and maneuver != "attack":
            raise IllegalCommand(f"{a.name} is {posture}", "gurps4/core/posture B551")
        if mount_of(state, a) is not None and maneuver in ("move_and_attack",) and not atk.ranged:
            pass
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
            fb, fm = self._feint_parts(state, a, atk)
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
        if not self._reachable(state, a, t, atk, maneuver):
            raise IllegalCommand(f"{t.name} is out of {atk.name}'s reach", "gurps4/core/maneuver B363")

    @staticmethod
    def _validate_all_out_defense(a: Combatant, v: str) -> None:
        """All-Out Defense (B366): its variant raises a defense the figure has."""
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

    def _validate_wait(self, state: FightState, a: Combatant, command: Command) -> None:
        """Wait (B366; reference 1.3: "becomes an attack ... when triggered"): the response is an Attack
        with a ready weapon; the trigger is the foe (``target``, or any foe) moving into its reach."""
        args = command.args
        if command.target is not None:
            t = state.combatants.get(command.target)
            if t is None or t.side == a.side or not t.active:
                foes = ", ".join(e.id for e in state.combatants.values() if e.side != a.side and e.active)
                raise IllegalCommand(
                    f"{a.name} can wait only for an active foe (one of {foes}), not {command.target!r}",
                    WAIT_RULE,
                )
        atk = self._attack_of(a, args.get("weapon"))
        if S(a).mount:
            mounted.mount_can_attack(S(a).war_trained)
            if not atk.natural:
                raise IllegalCommand(
                    "a mount attacks with its natural attacks", "gurps4/mounted/mount-attacks B396"
                )
        self._check_ready(a, atk)
        loc = args.get("location", "torso")
        if not isinstance(loc, str):
            raise IllegalCommand("args.location: a hit location name", "gurps4/core/hit-location B398")
        if not isinstance(args.get("deceptive", 0), int) or int(args.get("deceptive", 0)) < 0:
            raise IllegalCommand(
                "args.deceptive: levels of Deceptive Attack, 0 or more", "gurps4/core/deceptive-attack B369"
            )

    def _explain_defense_refusal(self, state: FightState, d: Combatant, command: Command) -> None:
        kind = command.args.get("defense", "none")
        if S(d).mount and kind != "dodge":
            mounted.mount_defense_allowed(kind)
        att = state.extra.get(ATTACK_KEY) or {}
        a = state.combatants.get(att.get("attacker", ""))
        if a is not None and S(a).mount and att.get("attack") == "trample" and kind != "dodge":
            mounted.trample_defense_allowed(kind)
        raise IllegalCommand(
            f"{d.name} cannot {kind}{' and retreat' if command.args.get('retreat') else ''} now "
            f"(allowed: {', '.join(c.describe() for c, _ in self.defense_options(state))})",
            "gurps4/core/active-defense B374",
        )

    def _check_stall(self, state: FightState, a: Combatant, command: Command) -> None:
        st = S(a)
        if not (st.flies and a.altitude > 0 and st.flight_limitation != "none"):
            return
        m = command.action if command.action != "attack" else command.args.get("maneuver", "attack")
        if m not in ("move", "move_and_attack"):
            raise RuleNotImplemented(
                f"{a.name} cannot hover ({st.flight_limitation}): a {m} maneuver would stall it and it would "
                "fall (falling, B431, is not implemented); take Move or Move and Attack (B398)"
            )
        to = command.args.get("to")
        if m == "move" and isinstance(to, list | tuple) and len(to) == 2 and a.pos is not None:
            h = distance(a.pos, (int(to[0]), int(to[1])))
            v = abs(int(command.args.get("altitude", a.altitude) or 0) - a.altitude)
            yards = min(aerial.move_cost(h, v), move_now(a, air=True))
            if aerial.stalls(st.flight_limitation, "move", int(yards), st.air_move):
                raise RuleNotImplemented(
                    f"{a.name} cannot hover ({st.flight_limitation}): moving {yards:g} yd, under 1/4 of its "
                    "top airspeed, would stall it (falling, B431, is not implemented) (B398)"
                )
        if m == "move_and_attack":
            # "move at least 1/4 your top airspeed" holds for Move and Attack too (B398): a ranged one or one
            # at a foe already in reach moves nothing, one that closes in moves as far as the approach
            t = state.combatants.get(command.target or "")
            atk = st.attack(command.args.get("weapon") or "")
            if t is None or atk is None:
                return
            yards = 0.0
            if not atk.ranged and not in_reach(a, t, atk):
                path, alt = self.approach(state, a, t, atk, self.movement_allowance(state, a, m))
                yards = aerial.move_cost(len(path), abs(alt - a.altitude) if alt is not None else 0)
            if aerial.stalls(st.flight_limitation, m, int(yards), st.air_move):
                raise RuleNotImplemented(
                    f"{a.name} cannot hover ({st.flight_limitation}): a Move and Attack covering {yards:g} "
                    "yd, under 1/4 of its top airspeed, would stall it (falling, B431, is not implemented) "
                    "(B398)"
                )

    def _attack_of(self, a: Combatant, name: Any) -> Attack:
        if not isinstance(name, str):
            names = ", ".join(x.name for x in S(a).attacks())
            raise IllegalCommand(f"say which weapon (args.weapon): one of {names}")
        atk = S(a).attack(name)
        if atk is None:
            names = ", ".join(x.name for x in S(a).attacks())
            raise IllegalCommand(f"{a.name} has no attack {name!r}; known: {names}")
        if atk.weapon in a.marks.get("broken", ()):
            raise IllegalCommand(f"{a.name}'s {atk.weapon} is broken", "gurps4/mounted/jousting-lance B397")
        return atk

    def _check_ready(self, a: Combatant, atk: Attack) -> None:
        if not atk.natural and atk.weapon != a.marks.get("wielding"):
            raise IllegalCommand(
                f"{a.name} must Ready {atk.weapon} first (holding {a.marks.get('wielding')})",
                "gurps4/core/maneuver/ready B366",
            )
        if a.marks.get("unready") and not atk.natural:
            raise IllegalCommand(f"{a.name} must Ready a weapon first", "gurps4/core/maneuver/ready B366")
        if atk.ranged and a.marks.get("reload"):
            raise IllegalCommand(
                f"{a.name} must Ready {atk.weapon} ({a.marks['reload']} s)", "gurps4/core/maneuver/ready B366"
            )

    def movement_allowance(self, state: FightState, a: Combatant, maneuver: str) -> int:
        move = move_now(a, air=flying(a))
        if a.marks.get("posture", "standing") not in ("standing", "crouching") and not self._tumbling_glider(
            a
        ):
            return 0
        if mount_of(state, a) is not None:
            return 0
        return core.maneuver_move(maneuver, move)

    @staticmethod
    def _tumbling_glider(a: Combatant) -> bool:
        """A flyer that cannot hover, tumbling in the air (a critical failure on a Dodge): it must Move each
        turn or stall (B398), and cannot take a Change Posture, which would stall it; so its Move rights it
        (a GM's call, docs/rulesets/gurps4.md)."""
        st = S(a)
        return (
            flying(a)
            and st.flight_limitation in aerial.NO_HOVER
            and a.marks.get("posture", "standing") not in ("standing", "crouching")
        )

    def _reachable(self, state: FightState, a: Combatant, t: Combatant, atk: Attack, maneuver: str) -> bool:
        if in_reach(a, t, atk):
            return True
        path, alt = self.approach(state, a, t, atk, self.movement_allowance(state, a, maneuver))
        if not path and alt is None:
            return False
        probe = a.clone()
        if path:
            probe.pos = path[-1]
        if alt is not None:
            probe.altitude = alt
        return in_reach(probe, t, atk)

    def approach(
        self, state: FightState, a: Combatant, t: Combatant, atk: Attack | None, budget: int
    ) -> tuple[list[tuple[int, int]], int | None]:
        """A path (and new altitude) toward ``t`` within ``budget`` yards, stopping within reach."""
        if budget <= 0 or t.pos is None or a.pos is None:
            return [], None
        alt = None
        vertical = 0
        if S(a).flies:
            want = t.altitude if flying(t) else (1 if flying(a) else 0)
            vertical = min(abs(want - a.altitude), budget)
            if vertical:
                alt = a.altitude + (vertical if want > a.altitude else -vertical)
        horizontal = aerial.across_within(budget, vertical)
        reach = max((max(r, 1) for r in atk.reach), default=1) if atk is not None else 1
        stop = 1 if reach <= 1 else min(reach, 2)
        return path_towards(state, a, t.pos, horizontal, stop_at=stop), alt
