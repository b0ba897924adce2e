"""The ``gurps4`` ruleset for the encounter engine: GURPS 4th Edition combat with the mounted and aerial
rules of rules text 002 (Basic Set pp.B396-398).

A round is one second. Everyone acts in turn order (Basic Speed, then DX; B363), choosing a maneuver as an
"act" command; an attack that may be defended waits for the defender's "react" command (Dodge, Parry,
Block, with or without a retreat). Mounts are combatants of their own, paired with their riders: the mount
moves (carrying its rider) and, if war-trained, attacks on its turn; the rider fights on his.

Commands (``Command(actor, action, target, args)``):

- ``attack`` target, args ``weapon`` (an attack name, e.g. ``lance``, ``broadsword:swing``, ``trample``),
  ``maneuver`` (attack | all_out_attack_determined | all_out_attack_strong | all_out_attack_double |
  move_and_attack), optional ``location`` (hit location), ``deceptive`` (levels), ``trick`` (turn_in_saddle |
  hang_on_far_side, mounted ranged attacks)
- ``move`` args ``to`` [q, r], optional ``altitude`` (flyers), ``dive`` (true: +10 air Move descending)
- ``aim`` target, args ``weapon``; ``evaluate`` target; ``feint`` target, args ``weapon``
- ``all_out_defense`` args ``variant`` (increased_dodge | increased_parry | increased_block)
- ``ready``; ``change_posture`` args ``posture``; ``concentrate``; ``do_nothing``
- ``wait`` optional target (the foe to wait for; any foe if none), args ``weapon`` (the response: an Attack
  with it), optional ``location``, ``deceptive``. Trigger: the foe moves and ends its movement within the
  weapon's reach (melee: coming into reach; ranged: within range). It lasts until the waiter's next turn.
- ``defend`` (the react decision) args ``defense`` (dodge | parry | block | none), ``retreat`` (bool),
  ``weapon`` (for a parry)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, IllegalCommand, RuleNotImplemented
from fracas.rules.base import OptionalRule, Rule, Ruleset
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.combat import (
    ATTACK_KEY,
    ATTACK_MANEUVERS,
    S,
    Work,
    apply_hit,
    attack_roll_parts,
    dodge_now,
    flying,
    height_ft,
    hp_now,
    in_reach,
    knocked_out,
    look,
    look_at,
    max_range,
    mount_loses_control,
    mount_of,
    move_figure,
    move_now,
    path_towards,
    range_yards,
    rider_of,
    riding_base,
    riding_skill,
    scratch,
    shock_now,
    spook,
    unhorse,
)
from fracas.rules.gurps4.modifiers import TEXT, Modifier, mod
from fracas.rules.gurps4.rules_list import OPTIONAL, RULES
from fracas.rules.gurps4.stats import Attack, build_stats, template_names

if TYPE_CHECKING:
    from fracas.engine.encounter import CombatantSpec, EncounterSpec
    from fracas.engine.tactics import Tactic

ENTRY_OPTIONS = ("mount", "unused_to_cavalry")
NOT_IMPLEMENTED_MANEUVERS: dict[str, str] = {}
WAIT_RULE = "gurps4/core/maneuver/wait B366"
STUN_RULE = "gurps4/core/stun B420"
DEFENSES_KEY = "gurps4.defense_options"
"""Where :meth:`GurpsRuleset.defense_options` keeps its answer in ``FightState.derived``: (the state's event
count, the waiting attack, the options)."""


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


@dataclass(frozen=True, slots=True)
class DefenseContext:
    """The facts a defense's value reads that are the same for every defense against one attack
    (:meth:`GurpsRuleset.defense_context`)."""

    maneuver: str
    retreated: str | None  # whom the defender retreated from this turn (reference 1.4, B377)
    mounted: bool
    feint: int
    rider_penalty: Modifier | None
    flying: bool
    posture: str
    stunned: bool
    shield_db: int
    deceptive: int
    parries: tuple[str, ...]  # the weapons parried with this turn, one entry a parry (B376)
    height_ft: float
    ranged: bool


class GurpsRuleset(Ruleset):
    id = "gurps4"
    name = "GURPS 4th Edition (mounted and aerial combat)"
    source = TEXT
    hex_yards = 1.0
    out_by_status_only = True
    """``is_out`` reads ``status`` only (changed only by StatusChanged): the engine checks for the end of the
    fight after a status change and at the start and end of a round, not after every step."""
    tactics_legal = True
    """The GURPS tactics (``legal_by_construction``) hand back only commands this ruleset's ``validate``
    accepted against the same state: the engine need not validate them again."""

    # ----- the book ---------------------------------------------------------------------------------
    def rules(self) -> list[Rule]:
        return list(RULES)

    def optional_rules(self) -> list[OptionalRule]:
        return list(OPTIONAL)

    def templates(self) -> list[str]:
        return template_names()

    # ----- building ---------------------------------------------------------------------------------
    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        from fracas.engine.encounter import assign_ids

        for key in spec.options:
            if key not in ENTRY_OPTIONS:
                raise EncounterFileError(
                    f"{where}.options.{key}: unknown; allowed: {', '.join(ENTRY_OPTIONS)}"
                )
        stats = build_stats(spec.template, spec.stats, spec.equipment, spec.options, where)
        if spec.altitude < 0:
            raise EncounterFileError(
                f"{where}.altitude: yards above the ground, at least 0 (found {spec.altitude})"
            )
        if spec.altitude > 0 and not stats.flies:
            raise EncounterFileError(f"{where}.altitude: {spec.altitude}, but it cannot fly (stats.flight)")
        problem = ceiling_refusal(spec.altitude, stats.flight == "winged")
        if problem:
            raise EncounterFileError(f"{where}.altitude: {problem}")
        mounts_wanted = spec.options.get("mount")
        ids = assign_ids(spec, "fighter")
        if mounts_wanted is not None:
            wanted = [mounts_wanted] if isinstance(mounts_wanted, str) else list(mounts_wanted)
            if len(wanted) != len(ids) or not all(isinstance(m, str) for m in wanted):
                raise EncounterFileError(
                    f"{where}.options.mount: one mount id per rider ({len(ids)}), found {mounts_wanted!r}"
                )
        else:
            wanted = []
        out = []
        for i, ((cid, name), pos) in enumerate(zip(ids, spec.positions(), strict=True)):
            c = Combatant(
                cid,
                name,
                side,
                stats,
                spec.player,
                spec.tactic,
                spec.hidden,
                spec.template or "",
                pos,
                spec.facing,
                spec.altitude,
                counters={"injury": 0},
                marks={"posture": "standing", **({"wielding": stats.weapons[0]} if stats.weapons else {})},
            )
            if wanted:
                c.marks["mount"] = wanted[i]
                c.marks["shares_hex"] = True
                c.pos = None
            out.append(c)
        return out

    def prepare(self, state: FightState, spec: EncounterSpec) -> None:
        for c in list(state.combatants.values()):
            mid = c.marks.pop("shares_hex", None) and c.marks.get("mount")
            if not mid:
                continue
            m = state.combatants.get(mid)
            if m is None or not S(m).mount:
                mounts = ", ".join(o.id for o in state.combatants.values() if S(o).mount) or "none"
                raise EncounterFileError(
                    f"{c.id}.options.mount: {mid!r} is not a mount in this encounter (mounts: {mounts}; a "
                    "mount is a combatant with a horse template such as heavy_warhorse)"
                )
            if m.side != c.side:
                raise EncounterFileError(f"{c.id}.options.mount: {mid!r} is on another side")
            if m.pos is None:
                raise EncounterFileError(f"{mid}: a ridden mount needs a position (at)")
            if m.marks.get("rider"):
                mounted.passenger_allowed(S(m).sm, S(c).sm)
                if m.marks.get("passenger"):
                    raise EncounterFileError(f"{c.id}.options.mount: {mid!r} already carries two riders")
                m.marks["passenger"] = c.id
            else:
                m.marks["rider"] = c.id
            c.pos = m.pos
            c.altitude = m.altitude

    # ----- play -------------------------------------------------------------------------------------
    def pending(self, state: FightState) -> Decision | None:
        if state.ended:
            return None
        att = state.extra.get(ATTACK_KEY)
        if att:
            a, d = state.combatants[att["attacker"]], state.combatants[att["defender"]]
            return Decision(d.id, "react", f"{a.name} attacks {d.name} with {att['attack']}: defend?")
        if state.phase == "act":
            cur = state.current
            if cur is not None and cur not in state.acted and state.combatants[cur].active:
                return Decision(cur, "act", f"{state.combatants[cur].name}: choose a maneuver")
        return None

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        if state.phase in ("start", "started"):
            order = self._turn_order(state, dice)
            return [
                ev.ExtraSet("gurps_order", tuple(order)),
                ev.RoundStarted(1),
                ev.OrderSet(tuple(order), "gurps4/core/turn-order B363"),
            ]
        if state.phase == "round-end":
            return [
                ev.RoundStarted(state.round + 1),
                ev.OrderSet(tuple(state.extra["gurps_order"]), "gurps4/core/turn-order B363"),
            ]
        cur = state.current
        if cur is not None and cur not in state.acted:
            # the actor dropped out during its own turn (or cannot act): close the turn
            w = Work(scratch(state), dice)
            self._end_turn(w, w.c(cur))
            return w.events
        nxt = self._next_actor(state)
        if nxt is None:
            return [ev.RoundEnded(state.round)]
        w = Work(scratch(state), dice)
        self._start_turn(w, w.c(nxt))
        return w.events

    def _turn_order(self, state: FightState, dice: DiceSource) -> list[str]:
        fighters = [(c.id, S(c).basic_speed, S(c).dx) for c in state.combatants.values()]
        return core.turn_order(fighters, dice)

    def _next_actor(self, state: FightState) -> str | None:
        start = state.turn + 1 if state.turn >= 0 else 0
        for cid in state.order[start:]:
            if cid not in state.acted and state.combatants[cid].active:
                return cid
        return None

    def _start_turn(self, w: Work, c: Combatant) -> None:
        w.emit(ev.TurnStarted(c.id))
        for key, value in (
            ("retreated", None),
            ("parries", None),
            ("blocked", None),
            ("moved", None),
            ("attacked", None),
            ("trick", None),
            ("waiting", None),
        ):
            w.mark(c, key, value)
        if c.marks.get("stun_recovered"):
            # recovered at the end of the last turn: stunned (-4 to defenses, no retreat) until now (B420;
            # reference 1.6: "after recovery the -4 lasts until the next turn")
            w.mark(c, "stun_recovered", None, STUN_RULE)
            w.emit(ev.ConditionRemoved(c.id, "stunned", "recovered at the end of the last turn", STUN_RULE))
        if "shock" in c.conditions:
            w.mark(c, "shock_now", c.conditions["shock"].value, "gurps4/core/shock B419")
            w.emit(ev.ConditionRemoved(c.id, "shock", "applies to this turn only", "gurps4/core/shock B419"))
        if hp_now(c) <= 0:
            r = core.consciousness_roll(S(c).ht, hp_now(c), S(c).hp, w.dice)
            w.rolled(c.id, r, rule="gurps4/core/hp-thresholds B419")
            if not r.success:
                knocked_out(w, c, "unconscious", "gurps4/core/hp-thresholds B419")
                self._end_turn(w, c)
                return
        if w.option("panic") and S(c).unused_to_cavalry and not c.marks.get("panic_checked"):
            self._panic(w, c)
            if not c.active:
                return
        if c.has("stunned"):
            w.mark(c, "maneuver", "do_nothing")
            w.note(f"{c.name} is stunned: Do Nothing", c.id, "gurps4/core/stun B420")
            if S(c).flies and c.altitude > 0 and S(c).flight_limitation != "none":
                w.note(
                    f"{c.name} cannot hover and stalls: it starts to fall; falling (B431) is not "
                    "implemented, the GM resolves the fall (it stays at its altitude here)",
                    c.id,
                    "gurps4/aerial/stall B398",
                )
            r = core.stun_recovery(S(c).ht, w.dice)
            w.rolled(c.id, r, rule=STUN_RULE)
            if r.success:
                w.mark(c, "stun_recovered", True, STUN_RULE)
                w.note(
                    f"{c.name} recovers from the stun: still -4 to defend and no retreat until the next turn",
                    c.id,
                    STUN_RULE,
                )
            self._end_turn(w, c)
            return
        if S(c).mount and c.marks.get("out_of_control"):
            w.note(
                f"{c.name} is out of control ({c.marks['out_of_control']}): it obeys no one this turn "
                "(placeholder until the GM completes the table)",
                c.id,
                "gurps4/mounted/loss-of-control B397",
            )
            w.mark(c, "out_of_control", None)
            w.mark(c, "maneuver", "do_nothing")
            self._end_turn(w, c)

    def _panic(self, w: Work, c: Combatant) -> None:
        """Will roll against a cavalry charge (B396): a mounted foe whose mount moved toward this NPC."""
        for m in w.state.combatants.values():
            if m.side == c.side or not S(m).mount or not m.active or not m.marks.get("rider"):
                continue
            if int(m.marks.get("moved_last_turn", 0)) <= 0 or m.pos is None or c.pos is None:
                continue
            if distance(m.pos, c.pos) > max(2, S(m).basic_move):
                continue
            w.mark(c, "panic_checked", True)
            if not mounted.panic_roll_required(S(c).sm, S(m).sm):
                return
            r = mounted.panic_roll(S(c).will, S(c).combat_reflexes, w.dice)
            w.rolled(c.id, r, m.id, "gurps4/mounted/panic B396")
            if not r.success:
                w.emit(ev.StatusChanged(c.id, "fled", "gurps4/mounted/panic B396"))
            return

    def _end_turn(self, w: Work, c: Combatant) -> None:
        w.mark(c, "moved_last_turn", int(c.marks.get("moved", 0)) or None)
        w.mark(c, "attacked_last_turn", True if c.marks.get("attacked") else None)
        w.mark(c, "shock_now", None)
        if c.marks.get("maneuver") not in ("aim",) and c.marks.get("aim"):
            w.mark(c, "aim", None)
        if c.marks.get("maneuver") not in ("evaluate",) + ATTACK_MANEUVERS and c.marks.get("evaluate"):
            w.mark(c, "evaluate", None)
        w.emit(ev.TurnEnded(c.id))

    # ----- choosing ---------------------------------------------------------------------------------
    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        if decision.kind == "react":
            return [cmd for cmd, _ in self.defense_options(state)]
        a = state.combatants[decision.actor]
        cands: list[Command] = []
        enemies = [e for e in state.combatants.values() if e.side != a.side and e.active]
        for t in enemies:
            for atk in S(a).attacks():
                for m in ATTACK_MANEUVERS:
                    cands.append(Command(a.id, "attack", t.id, {"weapon": atk.name, "maneuver": m}))
            for atk in S(a).attacks():
                if atk.ranged:
                    cands.append(Command(a.id, "aim", t.id, {"weapon": atk.name}))
            cands.append(Command(a.id, "evaluate", t.id))
            for atk in S(a).attacks():
                cands.append(Command(a.id, "wait", t.id, {"weapon": atk.name}))
            for atk in S(a).attacks():
                if not atk.ranged and not atk.natural:
                    cands.append(Command(a.id, "feint", t.id, {"weapon": atk.name}))
            if t.pos is not None:
                cands.append(Command(a.id, "move", None, {"to": list(t.pos), "altitude": t.altitude}))
        if flying(a) and S(a).flight_limitation in aerial.NO_HOVER and a.pos is not None:
            # a flyer that must keep moving (B398) is offered a glide straight on at its full air Move
            ahead = [a.pos[0] + move_now(a, air=True), a.pos[1]]
            cands.append(Command(a.id, "move", None, {"to": ahead, "altitude": a.altitude}))
        for v in ("increased_dodge", "increased_parry", "increased_block", "double"):
            cands.append(Command(a.id, "all_out_defense", None, {"variant": v}))
        cands += [Command(a.id, "ready", None, {"weapon": wpn}) for wpn in S(a).weapons]
        cands += [
            Command(a.id, "ready"),
            Command(a.id, "change_posture", None, {"posture": "standing"}),
            Command(a.id, "concentrate"),
            Command(a.id, "do_nothing"),
        ]
        out = []
        for cmd in cands:
            try:
                self.validate(state, cmd)
            except (IllegalCommand, RuleNotImplemented):
                continue
            out.append(cmd)
        return out

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

    # ----- defenses ---------------------------------------------------------------------------------
    def defense_options(self, state: FightState) -> list[tuple[Command, int]]:
        """Every legal defense against the waiting attack, with its effective value. Kept in the state's
        ``derived`` (it lives and dies with the fight, never on this shared object) for as long as the
        state has had no further event and waits for the same attack: the tactic, ``validate`` and
        ``choices`` each ask for them."""
        att = state.extra.get(ATTACK_KEY)
        if not att:
            return []
        kept = state.derived.get(DEFENSES_KEY)
        if kept is not None and kept[0] == state.events_applied and kept[1] is att:
            return list(kept[2])
        out = self._defense_options(state, att)
        state.derived[DEFENSES_KEY] = (state.events_applied, att, tuple(out))
        return out

    def _defense_options(self, state: FightState, att: dict[str, Any]) -> list[tuple[Command, int]]:
        d, a = state.combatants[att["defender"]], state.combatants[att["attacker"]]
        out: list[tuple[Command, int]] = [
            (Command(d.id, "defend", None, {"defense": "none"}, "no defense"), -99)
        ]
        kinds: list[tuple[str, str | None, int, tuple[Modifier, ...]]] = []
        ds = S(d)
        dodge, dodge_mods = dodge_now(d)
        kinds.append(("dodge", None, dodge, dodge_mods))
        if not ds.mount:
            if not att["ranged"]:
                for w in ds.attacks():
                    if w.parry is None or w.ranged or w.weapon in d.marks.get("broken", ()):
                        continue
                    if not w.natural and (w.weapon != d.marks.get("wielding") or d.marks.get("unready")):
                        continue
                    if w.natural and w.name != "punch":
                        continue
                    if w.unbalanced and d.marks.get("attacked_last_turn"):
                        continue
                    val, mods = core.parry_score(
                        S(d).skill(w.skill_name)
                        if not w.natural
                        else max(ds.skills.get("Brawling", ds.dx), ds.dx),
                        w.parry,
                        ds.combat_reflexes,
                    )
                    kinds.append(("parry", w.name, val, mods))
            if ds.shield and not d.marks.get("blocked") and not d.marks.get("shield_unready"):
                val, mods = core.block_score(ds.skill("Shield"), ds.combat_reflexes)
                kinds.append(("block", None, val, mods))
        tried = set(att.get("tried", ()))
        trample = att["attack"] == "trample" and S(a).mount
        ctx = self.defense_context(state, d, a, att)
        for kind, weapon, value, base_mods in kinds:
            if kind in tried:
                continue
            for retreat in (False, True):
                cmd_args: dict[str, Any] = {"defense": kind, "retreat": retreat}
                if weapon:
                    cmd_args["weapon"] = weapon
                try:
                    if ds.mount:
                        mounted.mount_defense_allowed(kind)  # type: ignore[arg-type]
                    if trample:
                        mounted.trample_defense_allowed(kind)  # type: ignore[arg-type]
                    eff, _ = self.defense_value(
                        state, d, a, att, kind, retreat, weapon, value, base_mods, ctx
                    )
                except (IllegalCommand, RuleNotImplemented):
                    continue
                label = f"{kind}{' ' + weapon if weapon else ''}{' and retreat' if retreat else ''} ({eff})"
                out.append((Command(d.id, "defend", None, cmd_args, label), eff))
                if kind == "dodge" and flying(d) and "Aerobatics" in ds.skills:
                    acro = {**cmd_args, "acrobatic": True}
                    label = f"acrobatic dodge (Aerobatics {ds.skills['Aerobatics']})" + (
                        " and retreat" if retreat else ""
                    )
                    out.append((Command(d.id, "defend", None, acro, label), eff))
            if kind == "dodge" and att["ranged"]:
                try:
                    eff, _ = self.defense_value(
                        state, d, a, att, kind, False, None, value, base_mods, ctx, drop=True
                    )
                except (IllegalCommand, RuleNotImplemented):
                    continue
                drop = {"defense": "dodge", "retreat": False, "drop": True}
                out.append((Command(d.id, "defend", None, drop, f"dodge and drop ({eff})"), eff))
        return out

    def defense_context(
        self, state: FightState, d: Combatant, a: Combatant, att: dict[str, Any]
    ) -> DefenseContext:
        """What a defense of ``d`` against the waiting attack depends on besides its kind, retreat and
        weapon: worked out once for all the defenses on offer instead of once for each."""
        ranged = bool(att["ranged"])
        mounted_now = mount_of(state, d) is not None
        f = d.marks.get("feinted")
        return DefenseContext(
            maneuver=d.marks.get("maneuver") or "do_nothing",
            retreated=d.marks.get("retreated") or None,
            mounted=mounted_now,
            feint=int(f[1]) if f and f[0] == a.id else 0,
            rider_penalty=mounted.rider_defense_penalty(riding_skill(state, d)) if mounted_now else None,
            flying=flying(d),
            posture=d.marks.get("posture", "standing"),
            stunned=d.has("stunned"),
            shield_db=S(d).shield_db(),
            deceptive=2 * int(att.get("deceptive", 0)),
            parries=tuple(d.marks.get("parries") or ()),
            height_ft=0.0 if ranged else height_ft(d, a, state),
            ranged=ranged,
        )

    def defense_value(
        self,
        state: FightState,
        d: Combatant,
        a: Combatant,
        att: dict[str, Any],
        kind: str,
        retreat: bool,
        weapon: str | None,
        value: int,
        base_mods: tuple[Modifier, ...],
        ctx: DefenseContext | None = None,
        drop: bool = False,
    ) -> tuple[int, list[Modifier]]:
        if ctx is None:
            ctx = self.defense_context(state, d, a, att)
        ds = S(d)
        if drop and (ctx.mounted or ctx.flying or ds.mount or ctx.posture in ("lying", "crawling")):
            # Dodge and Drop: down to the ground (B377); not from the saddle, in the air, by a mount (a
            # rider's horse), or when already down (documented readings)
            raise IllegalCommand(
                "Dodge and Drop is dropping prone from one's feet",
                "gurps4/core/active-defense/dodge-and-drop B377",
            )
        maneuver = ctx.maneuver
        if retreat:
            if ctx.retreated and ctx.retreated != a.id:
                # one retreat per turn; its bonus lasts against the same attacker (reference 1.4, B377)
                raise IllegalCommand("one retreat per turn", "gurps4/core/active-defense/retreat B377")
            if ctx.mounted:
                raise IllegalCommand(
                    "a rider cannot step back from the saddle", "gurps4/mounted/rider-defense B397"
                )
        weapon_attack = ds.attack(weapon) if weapon else None
        fencing = (
            bool(weapon_attack and data.weapons()[weapon_attack.weapon].modes[0].fencing)
            if weapon_attack
            else False
        )
        aod_bonus = (
            core.maneuver(maneuver).defense_bonus if maneuver == f"all_out_defense_increased_{kind}" else 0
        )
        extra: list[Modifier] = []
        if kind == "parry" and weapon_attack is not None and weapon_attack.natural:
            attacker_atk = S(a).attack(att["attack"])
            if (
                attacker_atk is not None
                and not attacker_atk.natural
                and not attacker_atk.damage.startswith("thr")
            ):
                extra.append(
                    mod(-3, "unarmed parry against a weapon", "gurps4/core/active-defense/parry", "B376")
                )
        if ctx.rider_penalty:
            extra.append(ctx.rider_penalty)
        if retreat and ctx.flying:
            hb = aerial.hover_retreat_bonus(ds.can_hover, True)
            if hb:
                extra.append(hb)
        sit = core.DefenseSituation(
            kind=kind,  # type: ignore[arg-type]
            maneuver=maneuver,
            retreat=retreat,
            posture=ctx.posture,
            stunned=ctx.stunned,
            shield_db=ctx.shield_db,
            deceptive=ctx.deceptive,
            feint=ctx.feint,
            # "each parry after the first with the same weapon" (B376): counted per weapon, a sword's swing
            # and thrust one weapon, the free hand another
            earlier_parries=ctx.parries.count(weapon_attack.weapon)
            if kind == "parry" and weapon_attack is not None
            else 0,
            fencing=fencing,
            height_above_attacker_ft=ctx.height_ft,
            ranged_attack=ctx.ranged,
            dodge_and_drop=drop,
            all_out_defense_bonus=aod_bonus,
            extra=tuple(extra),
        )
        core.defense_allowed(sit)
        mods = [*base_mods, *core.defense_modifiers(sit)]
        return value - sum(x.value for x in base_mods) + sum(x.value for x in mods), mods

    # ----- resolving --------------------------------------------------------------------------------
    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        w = Work(scratch(state), dice)
        if command.action == "defend":
            self._defend(w, command)
        else:
            self._act(w, command)
        self._carry_defense_options(state, w)
        return w.events

    def _carry_defense_options(self, state: FightState, w: Work) -> None:
        """An attack that waits for its defense worked out the defenses on offer on the scratch copy (to see
        whether there are any); the tactic, ``validate`` and ``choices`` then ask again of the real state,
        which is the same once the engine has applied these events. So the options are kept in the real
        state's ``derived`` under its event count as it will be, when nothing but Notes (which change
        nothing) came after the event that set the attack. Saves working them out twice per attack."""
        kept = w.state.derived.get(DEFENSES_KEY)
        if kept is None:
            return
        applied, att, options = kept
        if applied != w.state.events_applied:
            return
        events = w.events
        setters = 0
        last_change = None
        for e in events:
            if type(e) is ev.Note:
                continue
            last_change = e
            if type(e) is ev.ExtraSet and e.key == ATTACK_KEY and e.value is att:
                setters += 1
        if (
            setters != 1
            or last_change is None
            or type(last_change) is not ev.ExtraSet
            or last_change.value is not att
        ):
            return
        state.derived[DEFENSES_KEY] = (state.events_applied + len(events), att, options)

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
            w.mark(
                a,
                "aim",
                (cmd.target, S(a).attack(args["weapon"]).weapon, turns),
                "gurps4/core/maneuver/aim B364",
            )  # type: ignore[union-attr]
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

    def _offer_defense(
        self,
        w: Work,
        a: Combatant,
        d: Combatant,
        atk: Attack,
        maneuver: str,
        loc: str,
        args: dict[str, Any],
        attacks_left: int,
    ) -> bool:
        if not d.active:
            return False
        att = {
            "attacker": a.id,
            "defender": d.id,
            "attack": atk.name,
            "maneuver": maneuver,
            "location": loc,
            "deceptive": int(args.get("deceptive", 0)),
            "attacks_left": attacks_left,
            "ranged": atk.ranged,
            "target": args.get("target", d.id),
            "args": {k: v for k, v in args.items() if k != "target"},
        }
        w.emit(ev.ExtraSet(ATTACK_KEY, att))
        options = self.defense_options(w.state)
        if len(options) <= 1:  # only "no defense"
            w.emit(ev.ExtraSet(ATTACK_KEY, None))
            why = "no active defense is possible"
            w.note(f"{d.name}: {why}", d.id, "gurps4/core/active-defense B374")
            return False
        return True

    def _defend(self, w: Work, cmd: Command) -> None:
        att = dict(w.state.extra[ATTACK_KEY])
        d, a = w.c(att["defender"]), w.c(att["attacker"])
        atk = S(a).attack(att["attack"])
        assert atk is not None
        kind = cmd.args.get("defense", "none")
        retreat = bool(cmd.args.get("retreat", False))
        drop = bool(cmd.args.get("drop", False))
        weapon = cmd.args.get("weapon")
        w.emit(ev.ExtraSet(ATTACK_KEY, None))
        hit = True
        if kind != "none":
            if kind == "parry" and weapon is None:  # the best parry on offer
                parries = [
                    (v, c.args.get("weapon"))
                    for c, v in self._options_for(w, att)
                    if c.args["defense"] == "parry"
                ]
                weapon = max(parries, key=lambda p: p[0])[1] if parries else None
            ds = S(d)
            if kind == "dodge":
                value, base_mods = dodge_now(d)
            elif kind == "parry":
                pw = ds.attack(weapon)
                assert pw is not None and pw.parry is not None
                value, base_mods = core.parry_score(
                    ds.skill(pw.skill_name)
                    if not pw.natural
                    else max(ds.skills.get("Brawling", ds.dx), ds.dx),
                    pw.parry,
                    ds.combat_reflexes,
                )
            else:
                value, base_mods = core.block_score(ds.skill("Shield"), ds.combat_reflexes)
            eff, mods = self.defense_value(
                w.state, d, a, att, kind, retreat, weapon, value, base_mods, drop=drop
            )
            if cmd.args.get("acrobatic"):
                ra, am = aerial.acrobatic_dodge(S(d).skills["Aerobatics"], w.dice)
                w.rolled(d.id, ra, a.id, "gurps4/aerial/acrobatic-dodge B375, B398")
                mods.append(am)
            raw_base = value - sum(m.value for m in base_mods)
            r = core.success_roll(
                kind.title() + (f" ({weapon})" if weapon else ""), raw_base, mods, w.dice, "defense"
            )
            w.rolled(d.id, r, a.id, "gurps4/core/active-defense B374")
            hit = not r.success
            if d.marks.get("aim"):
                # any active defense spoils an Aim (B364; reference 1.3: "defending loses the Aim")
                w.mark(d, "aim", None, "gurps4/core/maneuver/aim B364")
                w.note(f"{d.name} loses the Aim by defending", d.id, "gurps4/core/maneuver/aim B364")
            if drop:  # prone, whether the Dodge succeeded or not (B377)
                w.mark(d, "posture", "lying", "gurps4/core/active-defense/dodge-and-drop B377")
            if kind == "parry":
                used = ds.attack(weapon)
                assert used is not None
                w.mark(d, "parries", (*tuple(d.marks.get("parries") or ()), used.weapon))
            if kind == "block":
                w.mark(d, "blocked", True)
            if d.marks.get("feinted") and d.marks["feinted"][0] == a.id:
                w.mark(d, "feinted", None)
            if retreat and d.marks.get("retreated") == a.id:
                pass  # the same retreat, still good against this attacker: no second step (B377)
            elif retreat:
                w.mark(d, "retreated", a.id)
                if flying(d):
                    w.emit(ev.Moved(d.id, (), "retreat", None, d.altitude + 1, "gurps4/aerial/retreat B398"))
                elif a.pos is not None:
                    path = path_towards(w.state, d, a.pos, 1, away=True)
                    if path:
                        moved = d.marks.get("moved")
                        move_figure(w, d, path, None, "retreat", "gurps4/core/active-defense/retreat B377")
                        w.mark(d, "moved", moved)  # a retreat is not the mount's own movement
            if r.critical_failure:
                if kind == "dodge" and mount_of(w.state, d) is not None:
                    unhorse(w, d, "critical failure on a Dodge")
                elif kind == "dodge":
                    w.mark(d, "posture", "lying", "gurps4/core/critical B377")
                    if flying(d):
                        w.note(
                            f"{d.name} tumbles in the air (critical failure on a Dodge): it fights as if "
                            "fallen down until it takes a Change Posture",
                            d.id,
                            "gurps4/core/critical",
                        )
                    else:
                        w.note(
                            f"{d.name} falls down (critical failure on a Dodge)", d.id, "gurps4/core/critical"
                        )
                elif kind == "block":
                    w.mark(d, "shield_unready", True, "gurps4/core/critical")
                    w.note(
                        f"{d.name}'s shield is unreadied (critical failure on a Block)",
                        d.id,
                        "gurps4/core/critical",
                    )
                else:
                    w.note(
                        "critical failure on a Parry: the Critical Miss Table (B556) is a GM's call",
                        d.id,
                        "gurps4/core/critical B556",
                    )
        if (
            hit
            and kind != "none"
            and d.marks.get("maneuver") == "all_out_defense_double"
            and not att.get("tried")
        ):
            again = {**att, "tried": (kind,)}
            w.emit(ev.ExtraSet(ATTACK_KEY, again))
            if len(self.defense_options(w.state)) > 1:
                w.note(
                    f"{d.name} tries a second, different defense (All-Out Defense, Double Defense)",
                    d.id,
                    "gurps4/core/maneuver/all-out-defense B366",
                )
                return
            w.emit(ev.ExtraSet(ATTACK_KEY, None))
        if hit:
            apply_hit(w, a, d, atk, att["location"], att["maneuver"], False)
        target = w.c(att.get("target", d.id)) if att.get("target") in w.state.combatants else d
        self._follow_up(
            w, a, target, atk, att["maneuver"], dict(att.get("args", {})), int(att["attacks_left"])
        )

    def _options_for(self, w: Work, att: dict[str, Any]) -> list[tuple[Command, int]]:
        probe = scratch(w.state)
        probe.extra[ATTACK_KEY] = att
        return self.defense_options(probe)

    # ----- tactics, showing -------------------------------------------------------------------------
    def tactics(self) -> dict[str, Tactic]:
        from fracas.rules.gurps4.tactics import TACTICS

        return dict(TACTICS)

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        from fracas.engine.narrate import modifiers_text

        if isinstance(event, ev.Rolled):
            who = state.combatants[event.actor].name if event.actor in state.combatants else event.actor
            tgt = f" vs {state.combatants[event.target].name}" if event.target in state.combatants else ""
            faces = "+".join(str(d[1]) for d in event.roll.get("dice", ()))
            mods = f" [{modifiers_text(event.modifiers)}]" if event.modifiers else ""
            if event.under:
                verdict = event.outcome + (f" by {abs(event.extra)}" if event.extra else " by 0")
                roll = f"3d6 ({faces}) = {event.total} vs {event.dn}"
                return f"  {who}: {event.test}{tgt}: {roll} -> {verdict}{mods}"
            return f"  {who}: {event.test}{tgt}: {event.expr} ({faces}) = {event.total}{mods} [{event.rule}]"
        if isinstance(event, ev.Moved) and (event.altitude is not None or not event.path):
            c = state.combatants.get(event.actor)
            if c is None or (not event.path and event.altitude is None):
                return ""
            up = f"{event.altitude} yd up" if event.altitude else "on the ground"
            if not event.path and event.mode == "retreat":
                return f"  {c.name} retreats 1 yd upward (now {up}) [{event.rule}]"
            if not event.path:
                verb = {"step": "steps", "move": "moves", "ride": "rides"}.get(event.mode, event.mode + "s")
                return f"  {c.name} {verb} straight up or down (now {up}) [{event.rule}]"
            where = f"to ({event.path[-1][0]}, {event.path[-1][1]})"
            return f"  {c.name} {event.mode}s {where}, {up} [{event.rule}]"
        if isinstance(event, ev.ConditionRemoved) and event.name == "shock":
            return ""  # the shock penalty shows on the rolls it changes
        if isinstance(event, ev.FightEnded) and event.winner:
            fighters = [c for c in state.combatants.values() if c.side == event.winner and not S(c).mount]
            verb = "wins" if len(fighters) == 1 else "win"
            rounds = f"{event.rounds} round{'s' if event.rounds != 1 else ''}"
            return f"\n== {event.winner} {verb} after {rounds} ({event.reason})."
        if isinstance(event, ev.Damaged):
            t = state.combatants.get(event.target)
            left = f", {hp_now(t)}/{S(t).hp} HP left" if t else ""
            return (
                f"  {t.name if t else event.target} takes {event.amount} injury"
                f" ({event.raw} {event.damage_type} - DR {event.armor}){left} [{event.rule}]"
            )
        if isinstance(event, ev.ConditionAdded) and event.name == "shock":
            name = state.combatants[event.target].name
            return f"  {name}: shock {event.value} on the next turn [{event.rule}]"
        if isinstance(event, ev.Marked) and event.target in state.combatants:
            line = self._narrate_mark(event, state.combatants[event.target], state)
            if line is not None:
                return line
        if isinstance(event, ev.Marked) and event.key == "maneuver" and event.value not in ATTACK_MANEUVERS:
            c = state.combatants.get(event.target)
            if event.value in ("move", "wait", "aim", "evaluate", "ready", None) or c is None:
                return ""  # a Move shows as its movement; Wait, Aim, Evaluate and Ready by what they do
            return f"  {c.name}: {str(event.value).replace('_', ' ').title()}"
        if isinstance(event, ev.Marked | ev.ExtraSet):
            return ""
        return None

    @staticmethod
    def _narrate_mark(event: ev.Marked, c: Combatant, state: FightState) -> str | None:
        """Aim, Evaluate and Ready read by what they do (B364-366)."""
        rule = f" [{event.rule}]" if event.rule else ""

        def name(cid: Any) -> str:
            return state.combatants[cid].name if cid in state.combatants else str(cid)

        if event.key == "aim" and event.value:
            tid, weapon, turns = event.value
            return f"  {c.name}: Aim {weapon} at {name(tid)} ({turns} turn{'s' if turns != 1 else ''}){rule}"
        if event.key == "evaluate" and event.value:
            return f"  {c.name}: Evaluate {name(event.value[0])} (+{event.value[1]}){rule}"
        if event.key == "wielding" and event.rule:
            return f"  {c.name}: Ready {event.value}{rule}"
        if event.key == "shield_unready" and event.value is None and event.rule:
            return f"  {c.name}: Ready (shield){rule}"
        if event.key in ("reload", "unready") and event.rule and c.marks.get("maneuver") == "ready":
            weapon = c.marks.get("wielding") or "weapon"
            if event.value:
                return f"  {c.name}: Ready ({weapon}: {event.value} more Ready to go){rule}"
            return f"  {c.name}: Ready ({weapon} ready to use){rule}"
        return None

    def card(self, combatant: Combatant) -> dict[str, Any]:
        st = S(combatant)
        return {
            "HP": f"{hp_now(combatant)}/{st.hp}",
            "Basic Speed": st.basic_speed,
            "Move": move_now(combatant)
            if not st.flies
            else f"{move_now(combatant)} (air {move_now(combatant, air=True)})",
            "Dodge": dodge_now(combatant)[0],
            "posture": combatant.marks.get("posture", "standing"),
            "altitude": combatant.altitude,
            "riding": combatant.marks.get("mount"),
            "rider": combatant.marks.get("rider"),
            "conditions": sorted(combatant.conditions),
        }

    def odds(self, state: FightState, command: Command) -> str | None:
        if command.action != "attack" or command.target not in state.combatants:
            return None
        a, t = state.combatants[command.actor], state.combatants[command.target or ""]
        atk = S(a).attack(command.args.get("weapon", ""))
        if atk is None:
            return None
        base, mods, cap = attack_roll_parts(
            state, a, t, atk, command.args.get("maneuver", "attack"), command.args
        )
        eff, _ = core.effective_value(base, mods, cap)
        kind = "ranged" if atk.ranged else "melee"
        return (
            f"to hit at effective {eff}: {100 * core.success_odds(eff, kind):.1f}% before {t.name}'s defense"
        )

    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"


RULESET = GurpsRuleset()
