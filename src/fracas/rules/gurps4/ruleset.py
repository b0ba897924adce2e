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

from typing import TYPE_CHECKING, Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.contract import Ruleset
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, IllegalCommand, RuleNotImplemented
from fracas.rules.actions import Registry
from fracas.rules.base import OptionalRule, Rule
from fracas.rules.cite import catalog
from fracas.rules.gurps4 import mounted, show, turn
from fracas.rules.gurps4.attack import AttackManeuver, Feint
from fracas.rules.gurps4.defend import Defend
from fracas.rules.gurps4.defense import carry_defense_options
from fracas.rules.gurps4.figure import ATTACK_KEY, S, Work, scratch
from fracas.rules.gurps4.maneuvers import (
    Aim,
    AllOutDefense,
    ChangePosture,
    Concentrate,
    DoNothing,
    Evaluate,
    Move,
    Ready,
)
from fracas.rules.gurps4.modifiers import TEXT
from fracas.rules.gurps4.stats import build_stats, template_names
from fracas.rules.gurps4.validate import NOT_IMPLEMENTED_MANEUVERS, Maneuver, ceiling_refusal, check_stall
from fracas.rules.gurps4.wait import Wait

if TYPE_CHECKING:
    from fracas.engine.contract import Tactic
    from fracas.engine.encounter import CombatantSpec, EncounterSpec

__all__ = ["ENTRY_OPTIONS", "MANEUVERS", "RULESET", "GurpsRuleset"]

ENTRY_OPTIONS = ("mount", "unused_to_cavalry")

MANEUVERS: Registry[Maneuver] = Registry(
    (
        AttackManeuver(),
        Aim(),
        Evaluate(),
        Wait(),
        Feint(),
        Move(),
        AllOutDefense(),
        Ready(),
        ChangePosture(),
        Concentrate(),
        DoNothing(),
        Defend(),
    )
)
"""Every command's action, in the order a figure is offered them: for each foe in turn the maneuvers aimed
at it, then each maneuver's others (so a new maneuver's place here is its place among the choices)."""


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
        return list(catalog("gurps4").rules)

    def optional_rules(self) -> list[OptionalRule]:
        return list(catalog("gurps4").optional)

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

    # ----- play -----------------------------------------------------------------------------------
    def pending(self, state: FightState) -> Decision | None:
        return turn.pending(state)

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        return turn.advance(state, dice)

    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        """The commands of the maneuvers answering this kind of decision that ``validate`` accepts: for each
        active foe the ones aimed at it, then the others, in the order of :data:`MANEUVERS`."""
        a = state.combatants[decision.actor]
        mine = [m for m in MANEUVERS if m.decision == decision.kind]
        foes = [e for e in state.combatants.values() if e.side != a.side and e.active]
        cands = [cmd for t in foes for m in mine for cmd in m.against(state, a, t)]
        cands += [cmd for m in mine for cmd in m.offered(state, a)]
        out = []
        for cmd in cands:
            try:
                self.validate(state, cmd)
            except (IllegalCommand, RuleNotImplemented):
                continue
            out.append(cmd)
        return out

    def validate(self, state: FightState, command: Command) -> None:
        """The checks every maneuver shares (no attack waiting for its defense, a known maneuver, not
        stunned, not an out-of-control mount, no stall), then the maneuver's own."""
        if command.actor not in state.combatants:
            raise IllegalCommand(f"no combatant {command.actor!r}")
        a = state.combatants[command.actor]
        action = MANEUVERS.get(command.action)
        if action is not None and action.decision == "react":
            action.validate(state, command)
            return
        if state.extra.get(ATTACK_KEY):
            raise IllegalCommand("an attack is waiting for its defense", "gurps4/core/active-defense")
        args = command.args
        if command.action in NOT_IMPLEMENTED_MANEUVERS or args.get("maneuver") in NOT_IMPLEMENTED_MANEUVERS:
            name = (
                NOT_IMPLEMENTED_MANEUVERS.get(command.action) or NOT_IMPLEMENTED_MANEUVERS[args["maneuver"]]
            )
            raise RuleNotImplemented(f"the {name} maneuver is not implemented in this version")
        if action is None:
            acts = [m.name for m in MANEUVERS if m.decision == "act"]
            raise MANEUVERS.unknown(command.action, "gurps4/core/maneuver B363", acts)
        if a.has("stunned") and command.action != "do_nothing":
            raise IllegalCommand(f"{a.name} is stunned: Do Nothing only", "gurps4/core/stun B420")
        if S(a).mount and a.marks.get("out_of_control"):
            raise IllegalCommand(f"{a.name} is out of control", "gurps4/mounted/loss-of-control B397")
        check_stall(state, a, command)
        action.validate(state, command)

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        """The maneuver's events on a scratch copy: the ``maneuver`` mark of a figure acting (B363), then what
        the maneuver does."""
        w = Work(scratch(state), dice)
        action = MANEUVERS[command.action]
        if action.decision == "act":
            w.mark(w.c(command.actor), "maneuver", action.maneuver_of(command))
        action.resolve(w, command)
        carry_defense_options(state, w)
        return w.events

    # ----- tactics, showing -------------------------------------------------------------------------
    def tactics(self) -> dict[str, Tactic]:
        from fracas.rules.gurps4.tactics import TACTICS

        return dict(TACTICS)

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        return show.narrate(event, state)

    def card(self, combatant: Combatant) -> dict[str, Any]:
        return show.card(combatant)

    def odds(self, state: FightState, command: Command) -> str | None:
        return show.odds(state, command)

    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"


RULESET = GurpsRuleset()
