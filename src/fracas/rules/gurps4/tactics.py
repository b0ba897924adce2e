"""Tactics for automated GURPS combatants: deterministic functions of the state (no dice).

- ``default``: defend with the best defense; fight with the best weapon in reach, close in on foot, shoot
  (after one Aim) with ranged weapons; a mount carries its rider: lancers charge and wheel away so the
  lance is couched again, archers keep their distance.
- ``aggressive``: as default, but All-Out Attack (Determined) when a foe is in reach.
- ``defensive``: All-Out Defense (Increased Dodge/Parry/Block) while a foe is in reach, else as default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance, ring
from fracas.engine.state import Combatant, FightState
from fracas.errors import FracasError
from fracas.rules.gurps4 import core
from fracas.rules.gurps4.attack_roll import attack_roll_parts
from fracas.rules.gurps4.defense import defense_options
from fracas.rules.gurps4.figure import S, mount_of, rider_of
from fracas.rules.gurps4.geometry import in_reach, max_range, range_yards
from fracas.rules.gurps4.stats import Attack

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.rules.gurps4.ruleset import GurpsRuleset

KEEP_AWAY = 8  # horse archers: the closest a foe may come before the mount rides off
STAY_WITHIN = 15  # ... and the farthest they let it get
MIN_SHOT = 7  # an archer holds a shot below this effective skill (keeps aiming or waits to close in)


def nearest(state: FightState, a: Combatant) -> Combatant | None:
    foes = [c for c in state.combatants.values() if c.side != a.side and c.active and c.pos is not None]
    if not foes or a.pos is None:
        return None
    return min(foes, key=lambda c: (range_yards(a, c), S(c).mount, c.id))


def _legal(ruleset: Ruleset, state: FightState, cmd: Command) -> bool:
    try:
        ruleset.validate(state, cmd)
    except FracasError:
        return False
    return True


def _away(a: Combatant, t: Combatant, k: int = 6) -> list[int]:
    assert a.pos is not None and t.pos is not None
    dq, dr = a.pos[0] - t.pos[0], a.pos[1] - t.pos[1]
    if dq == 0 and dr == 0:
        dq = 1
    return [a.pos[0] + dq * k, a.pos[1] + dr * k]


def _circle(state: FightState, m: Combatant, t: Combatant, reach: int) -> tuple[int, int] | None:
    """The hex at ``reach`` from ``t`` that the mount can reach this turn and that is farthest from it."""
    assert m.pos is not None and t.pos is not None
    taken = {c.pos for c in state.combatants.values() if c.pos is not None and c.active}
    best = None
    for h in ring(t.pos, reach):
        d = distance(m.pos, h)
        if h in taken or d > S(m).basic_move or d == 0:
            continue
        if best is None or d > distance(m.pos, best):
            best = h
    return best


def _has_lance(state: FightState, t: Combatant) -> bool:
    """Whether ``t`` (or its rider) holds an unbroken lance that can be couched."""
    who = rider_of(state, t) or t
    return any(
        x.couchable and x.weapon == who.marks.get("wielding") and x.weapon not in who.marks.get("broken", ())
        for x in S(who).attacks()
    )


class Default:
    style = "default"

    # every command ``choose`` returns is one the ruleset's ``validate`` accepted against this very state (a
    # defense on offer, a plan that passed, or Do Nothing checked last): the engine need not validate it
    # again (``GurpsRuleset.tactics_legal``)
    legal_by_construction: ClassVar[bool] = True

    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command:
        rs: GurpsRuleset = ruleset  # type: ignore[assignment]
        if decision.kind == "react":
            # never Dodge and Drop: prone, the figure loses its next turn getting up (a style, not a rule)
            options = [o for o in defense_options(state) if not o[0].args.get("drop")]
            return max(options, key=lambda o: (o[1], not o[0].args.get("retreat", False)))[0]
        a = state.combatants[decision.actor]
        for cmd in self._plan(state, a, rs):
            if _legal(rs, state, cmd):
                return cmd
        idle = Command(a.id, "do_nothing")
        rs.validate(state, idle)  # refused (a glider must move): the same error the engine would raise
        return idle

    # ----- characters -----------------------------------------------------------------------------
    def _plan(self, state: FightState, a: Combatant, rs: GurpsRuleset) -> list[Command]:
        st = S(a)
        if st.mount:
            return self._mount_plan(state, a, rs)
        plans: list[Command] = []
        if st.flies and a.altitude > 0 and st.flight_limitation != "none":
            return self._glider_plan(state, a)
        if a.marks.get("posture", "standing") != "standing" and mount_of(state, a) is None:
            plans.append(Command(a.id, "change_posture", None, {"posture": "standing"}))
        if a.marks.get("unready") or a.marks.get("shield_unready"):
            plans.append(Command(a.id, "ready"))
        t = nearest(state, a)
        if t is None:
            return plans
        rider_t = rider_of(state, t)
        if rider_t is not None and rider_t.active:  # go for the rider rather than the horse
            t = rider_t
        weapons = [x for x in st.attacks() if not x.natural and x.weapon not in a.marks.get("broken", ())]
        ranged = [x for x in weapons if x.ranged]
        melee = [x for x in weapons if not x.ranged]
        far = range_yards(a, t)
        if ranged and (far > 2 or not melee) and far <= max_range(st, ranged[0]):
            plans += self._shooting(state, a, t, ranged[0], melee)
        best = self._best_melee(state, a, t, melee) if melee else None
        if best is not None:
            if a.marks.get("wielding") != best.weapon:
                plans.append(Command(a.id, "ready", None, {"weapon": best.weapon}))
            plans += self._melee(state, a, t, best)
        if not best and not ranged:
            for nat in st.attacks():
                if nat.natural:
                    plans.append(Command(a.id, "attack", t.id, {"weapon": nat.name, "maneuver": "attack"}))
        if mount_of(state, a) is not None:
            plans.append(Command(a.id, "evaluate", t.id))
        elif t.pos is not None:
            plans.append(Command(a.id, "move", None, {"to": list(t.pos), "altitude": t.altitude}))
        return plans

    def _shooting(
        self, state: FightState, a: Combatant, t: Combatant, gun: Attack, melee: list[Attack]
    ) -> list[Command]:
        """A shot at a foe in range: ready the weapon (and reload), Aim, then shoot when the odds are fair
        (or no melee weapon is left), else go on aiming."""
        out: list[Command] = []
        if a.marks.get("wielding") != gun.weapon:
            out.append(Command(a.id, "ready", None, {"weapon": gun.weapon}))
        if a.marks.get("reload"):
            out.append(Command(a.id, "ready"))
        aim = a.marks.get("aim")
        if not (aim and aim[0] == t.id):
            out.append(Command(a.id, "aim", t.id, {"weapon": gun.name}))
        shot = Command(a.id, "attack", t.id, {"weapon": gun.name, "maneuver": "attack"})
        base, mods, cap = attack_roll_parts(state, a, t, gun, "attack", shot.args)
        if core.effective_value(base, mods, cap)[0] >= MIN_SHOT or not melee:
            out.append(shot)
        elif aim and aim[0] == t.id and int(aim[2]) < 3:  # too far for a fair shot: keep aiming
            out.append(Command(a.id, "aim", t.id, {"weapon": gun.name}))
        return out

    def _glider_plan(self, state: FightState, a: Combatant) -> list[Command]:
        """A flyer that cannot hover must Move or Move and Attack at 1/4 top airspeed or more (B398)."""
        t = nearest(state, a)
        plans: list[Command] = []
        if t is not None and t.pos is not None:
            for x in S(a).attacks():
                if not x.ranged and not x.natural:
                    plans.append(
                        Command(a.id, "attack", t.id, {"weapon": x.name, "maneuver": "move_and_attack"})
                    )
            plans.append(Command(a.id, "move", None, {"to": list(t.pos), "altitude": t.altitude}))
            plans.append(Command(a.id, "move", None, {"to": _away(a, t), "altitude": a.altitude}))
        if a.pos is not None:
            plans.append(Command(a.id, "move", None, {"to": [a.pos[0] + S(a).air_move, a.pos[1]]}))
        return plans

    def _best_melee(
        self, state: FightState, a: Combatant, t: Combatant, melee: list[Attack]
    ) -> Attack | None:
        mounted_now = mount_of(state, a) is not None

        def score(x: Attack) -> tuple[int, int, int]:
            lance_ok = x.couchable and mounted_now
            return (int(lance_ok), -int(x.couchable and not mounted_now), S(a).skill(x.skill_name))

        return max(melee, key=score)

    def _melee(self, state: FightState, a: Combatant, t: Combatant, x: Attack) -> list[Command]:
        maneuver = "attack"
        if self.style == "aggressive" and in_reach(a, t, x):
            maneuver = "all_out_attack_determined"
        if self.style == "defensive" and in_reach(t, a, x):
            return [Command(a.id, "all_out_defense", None, {"variant": "increased_dodge"})]
        return [Command(a.id, "attack", t.id, {"weapon": x.name, "maneuver": maneuver})]

    # ----- mounts ---------------------------------------------------------------------------------
    def _mount_plan(self, state: FightState, m: Combatant, rs: GurpsRuleset) -> list[Command]:
        rider = rider_of(state, m)
        if rider is None:
            t = nearest(state, m)
            if t is None or not S(m).war_trained:
                return []
            return [
                Command(m.id, "attack", t.id, {"weapon": x.name, "maneuver": "attack"})
                for x in S(m).attacks()
            ] + [Command(m.id, "move", None, {"to": list(t.pos or (0, 0))})]
        t = nearest(state, rider)
        if t is None or m.pos is None or t.pos is None:
            return []
        d = distance(m.pos, t.pos)
        rider_weapons = [
            x for x in S(rider).attacks() if not x.natural and x.weapon not in rider.marks.get("broken", ())
        ]
        if any(x.ranged for x in rider_weapons):  # horse archer: keep the foe between 8 and 20 yards
            if d < KEEP_AWAY:
                return [Command(m.id, "move", None, {"to": _away(m, t)})]
            if d > STAY_WITHIN:
                return [Command(m.id, "move", None, {"to": list(t.pos)})]
            return [Command(m.id, "do_nothing")]
        melee = [x for x in rider_weapons if not x.ranged]
        lances = [x for x in melee if x.couchable]
        if lances:  # charge to the lance's reach, then ride off and wheel to charge again (couched)
            reach = max(max(r, 1) for x in lances for r in x.reach)
            if d < reach and not _has_lance(state, t):
                # a foe without a lance closes in at the same speed: riding off would be an endless chase,
                # so keep the lance's reach from him instead (circling keeps the mount moving, couched)
                spot = _circle(state, m, t, reach)
                if spot is not None:
                    return [Command(m.id, "move", None, {"to": list(spot)})]
            if rider.marks.get("attacked_last_turn") or d < reach:
                return [Command(m.id, "move", None, {"to": _away(m, t)})]
            if d == reach:  # circle at the lance's reach, so that the mount keeps moving (couched lance)
                spot = _circle(state, m, t, reach)
                if spot is not None:
                    return [Command(m.id, "move", None, {"to": list(spot)})]
            return [Command(m.id, "move", None, {"to": list(t.pos), "stop_at": reach})]
        reach = max((max(r, 1) for x in melee for r in x.reach), default=1)
        plans = []
        if S(m).war_trained and d <= 1:
            plans += [
                Command(m.id, "attack", t.id, {"weapon": x.name, "maneuver": "attack"})
                for x in S(m).attacks()
            ]
        if d > reach:
            plans.append(Command(m.id, "move", None, {"to": list(t.pos), "stop_at": reach}))
        plans.append(Command(m.id, "do_nothing"))
        return plans


class Aggressive(Default):
    style = "aggressive"


class Defensive(Default):
    style = "defensive"


TACTICS = {"default": Default(), "aggressive": Aggressive(), "defensive": Defensive()}
