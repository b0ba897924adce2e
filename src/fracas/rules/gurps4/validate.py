"""Whether a command is legal now (B363-366, B396-398): the :class:`Maneuver` every maneuver is,
and the checks maneuvers share (the stall of a flyer that cannot hover, the target, the weapon in hand, how
far a figure may move and whether it reaches its foe)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.actions import Action
from fracas.rules.gurps4 import aerial, core, mounted
from fracas.rules.gurps4.figure import S, Work, flying, mount_of, move_now, shock_now
from fracas.rules.gurps4.geometry import in_reach, path_towards
from fracas.rules.gurps4.modifiers import Modifier
from fracas.rules.gurps4.riding import riding_skill
from fracas.rules.gurps4.stats import Attack

NOT_IMPLEMENTED_MANEUVERS: dict[str, str] = {}


class Maneuver(Action[Work]):
    """A maneuver (B363-366) as the ruleset dispatches it: the commands it offers (:meth:`against` each active
    foe in turn, then :meth:`offered` once), its own checks (the ruleset has made those every maneuver shares
    first) and its resolution, which ends the figure's turn or hands it on (an attack waiting for its defense,
    a Wait's attack interrupting a move)."""

    decision: ClassVar[str] = "act"
    """The decision it answers: "act" (a maneuver on the figure's turn) or "react" (a defense)."""

    def against(self, state: FightState, a: Combatant, t: Combatant) -> Iterable[Command]:
        """The commands of this maneuver aimed at the foe ``t``, legal or not."""
        return ()

    def maneuver_of(self, command: Command) -> str:
        """The maneuver the figure is marked as taking (the ``maneuver`` mark; B363)."""
        return self.name


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


def target_of(state: FightState, a: Combatant, command: Command) -> Combatant:
    """The foe a targeted maneuver names: there, not the figure itself, still in the fight."""
    t = state.combatants.get(command.target or "")
    if t is None:
        raise IllegalCommand(f"{command.action} needs a target (one of {', '.join(state.combatants)})")
    if t.id == a.id or not t.active:
        raise IllegalCommand(f"{t.name} cannot be the target of {a.name}'s {command.action}")
    return t


def check_stall(state: FightState, a: Combatant, command: Command) -> None:
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
            path, alt = approach(state, a, t, atk, movement_allowance(state, a, m))
            yards = aerial.move_cost(len(path), abs(alt - a.altitude) if alt is not None else 0)
        if aerial.stalls(st.flight_limitation, m, int(yards), st.air_move):
            raise RuleNotImplemented(
                f"{a.name} cannot hover ({st.flight_limitation}): a Move and Attack covering {yards:g} "
                "yd, under 1/4 of its top airspeed, would stall it (falling, B431, is not implemented) "
                "(B398)"
            )


def attack_of(a: Combatant, name: Any) -> Attack:
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


def check_ready(a: Combatant, atk: Attack) -> None:
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


def movement_allowance(state: FightState, a: Combatant, maneuver: str) -> int:
    move = move_now(a, air=flying(a))
    if a.marks.get("posture", "standing") not in ("standing", "crouching") and not tumbling_glider(a):
        return 0
    if mount_of(state, a) is not None:
        return 0
    return core.maneuver_move(maneuver, move)


def tumbling_glider(a: Combatant) -> bool:
    """A flyer that cannot hover, tumbling in the air (a critical failure on a Dodge): it must Move each
    turn or stall (B398), and cannot take a Change Posture, which would stall it; so its Move rights it
    (a GM's call, docs/rulesets/gurps4.md)."""
    st = S(a)
    return (
        flying(a)
        and st.flight_limitation in aerial.NO_HOVER
        and a.marks.get("posture", "standing") not in ("standing", "crouching")
    )


def reachable(state: FightState, a: Combatant, t: Combatant, atk: Attack, maneuver: str) -> bool:
    if in_reach(a, t, atk):
        return True
    path, alt = approach(state, a, t, atk, movement_allowance(state, a, maneuver))
    if not path and alt is None:
        return False
    probe = a.clone()
    if path:
        probe.pos = path[-1]
    if alt is not None:
        probe.altitude = alt
    return in_reach(probe, t, atk)


def approach(
    state: FightState, a: Combatant, t: Combatant, atk: Attack | None, budget: int
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


def feint_parts(state: FightState, a: Combatant, atk: Attack) -> tuple[int, list[Modifier]]:
    """The feinter's melee skill (B365) and what changes it: on a mount the lower of it and Riding
    (002 p.B397), and this turn's shock (B419)."""
    base = S(a).skill(atk.skill_name)
    mods: list[Modifier] = []
    if mount_of(state, a) is not None:
        mods += mounted.mounted_skill(base, riding_skill(state, a))[1]
    mods += shock_now(a)
    return base, mods
