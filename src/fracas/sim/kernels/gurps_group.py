"""GURPS fights on foot, in the air and on horseback with lances, any number of figures and sides, as a
compiled batch kernel (numba, gurps_core.py).

It mirrors, for an encounter it accepts, what the reference engine does with the ``gurps4`` ruleset
(fracas.rules.gurps4; docs/rulesets/gurps4.md) under the ``default``, ``aggressive`` and ``defensive``
tactics: the turn order and the start of a turn (shock, consciousness, stun, a spooked mount), the tactic's
plan (stand, ready, attack the nearest foe with a step or All-Out Attack (Determined), All-Out Defense
(Increased Dodge) while a foe is in reach, else move; a rider attacks what his lance
reaches, else Evaluates; his mount charges to the lance's reach, rides off and wheels, or circles), flight
for flyers that can hover (B398), the attack roll (a rider at the lower of skill and Riding, the mount's
velocity), a miss by 1 between rider and mount, the defender's best defense (a mount Dodges only; a rider
cannot retreat), the hit on the torso (couched lance, Critical Hit Table, injury from the engine's
``injury_from`` for every basic damage, shock, knockdown, Riding rolls to stay on and to keep a hit mount
from spooking, falling off, death checks, knockback) and the end of the fight. docs/sim.md lists it all.

The compiled loop draws its dice in the engine's order, so the engine replays a kernel fight from the
kernel's faces (:meth:`GurpsGroupKernel.replay`; tests/sim/test_gurps_kernel.py does, face by face). A fight
the loop cannot finish (a riderless mount that stays, a possible trample, a figure left without a weapon, a
flyer near the flight ceiling) is handed back with the faces drawn so far and the engine finishes it. Its
way round figures is the engine's, as far as the engine looks (pathing.route): no window of its own.

It refuses (and ``--engine auto`` runs the engine, saying why): a mount without a rider, passengers, riders
without a lance or a bow, flyers that cannot hover, a ranged weapon not in hand or more than one, a noisy
weapon on horseback, a best melee weapon other than the one in hand, natural attacks of a stat block's own,
a tactic of its own, the panic option, combatants not fresh (hurt, marked, hidden), and
torso rows of the hit location table that differ from what the loop mirrors. Archers on foot it plays (a
bow, a javelin or a musket in hand, a melee weapon or none besides), and maps with blocked hexes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.source import RandomDice
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.kernels import gurps_core as K
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.gurps4.stats import Attack

STATUS = ("active", "unconscious", "dead", "mortally wounded", "unhorsed", "riderless")
TRACE_CAP = 1 << 16
_CRIT = {
    None: K.K_NONE,
    "triple": K.K_TRIPLE,
    "dr_half": K.K_DR_HALF,
    "double": K.K_DOUBLE,
    "max": K.K_MAX,
    "major": K.K_MAJOR,
    "double_shock": K.K_DOUBLE_SHOCK,
    "drop": K.K_DROP,
}
_OPTIONS = {
    "panic",
    "critical_hit_table",
    "minimum_injury_one",
    "velocity_with_couched_lance",
    "riderless_mounts_leave",
    "unhorsed_is_out",
}


def _check(ruleset: Any, state: FightState) -> list[Combatant]:
    from fracas.rules.gurps4 import data
    from fracas.rules.gurps4.ruleset import GurpsRuleset
    from fracas.rules.gurps4.tactics import Aggressive, Default, Defensive

    if not isinstance(ruleset, GurpsRuleset):
        raise Unsupported("not the GURPS ruleset")
    tactics = ruleset.tactics()
    if (
        type(tactics.get("default")) is not Default
        or type(tactics.get("aggressive")) is not Aggressive
        or type(tactics.get("defensive")) is not Defensive
    ):
        raise Unsupported("the default, aggressive and defensive tactics are not the ones the kernel mirrors")
    if state.phase != "start" or state.round != 0:
        raise Unsupported("a fight already started")
    unknown = set(state.options) - _OPTIONS
    if unknown:
        raise Unsupported(f"optional rules the kernel does not know: {', '.join(sorted(unknown))}")
    if state.options.get("panic"):
        raise Unsupported("the panic option (cavalry charges)")
    extra = {k for k, v in state.extra.items() if k != "map" and v}
    if extra:
        raise Unsupported(f"fight bookkeeping the kernel does not know: {', '.join(sorted(extra))}")
    from fracas.engine import pathing
    from fracas.rules.gurps4 import geometry

    if (tuple(K.ROUTE_SLACKS), K.POCKET, K.BFS_MARGIN) != (
        pathing._ROUTE_SLACKS,
        pathing._POCKET,
        geometry.BFS_MARGIN,
    ):
        raise Unsupported("the route search's bounds are not those the kernel mirrors")
    mp = state.extra.get("map", {}) or {}
    # cover and light are Earthdawn's: the gurps4 ruleset reads only the blocked hexes
    other = {k for k, v in mp.items() if v and k not in ("blocked", "cover", "light")}
    if other:
        raise Unsupported(f"map features the kernel does not know: {', '.join(sorted(other))}")
    for body in ("humanoid", "quadruped"):
        torso = data.hit_locations(body)["torso"]
        if torso.cripple_divisor or torso.shock_knockdown or torso.miss_by_one_torso or torso.extra_dr:
            raise Unsupported(f"the {body} torso's hit location row differs from what the kernel mirrors")
    cs = list(state.combatants.values())
    if len({c.side for c in cs}) < 2:
        raise Unsupported("fewer than two sides")
    for c in cs:
        st = c.stats
        if st.mount:
            _check_mount(state, c)
            continue
        if c.marks.get("mount"):
            _check_rider(state, c)
        if st.flies and st.flight_limitation != "none":
            raise Unsupported(f"{c.id}: a flyer that cannot hover ({st.flight_limitation})")
        if st.body != "humanoid":
            raise Unsupported(f"{c.id}: a {st.body} body")
        if c.status != "active" or c.conditions or any(c.counters.values()):
            raise Unsupported(f"{c.id}: not a fresh combatant")
        if c.hidden or c.pos is None or c.altitude > K.CEILING:
            raise Unsupported(f"{c.id}: hidden, without a place or near the flight ceiling")
        if c.tactic not in ("default", "aggressive", "defensive"):
            raise Unsupported(f"{c.id}: tactic {c.tactic!r} (the kernel plays the three GURPS tactics)")
        if not st.weapons:
            raise Unsupported(f"{c.id}: no weapon (natural attacks only)")
        mine = {"posture": "standing", "wielding": st.weapons[0]}
        if c.marks.get("mount"):
            mine["mount"] = c.marks["mount"]
        if c.marks != mine:
            raise Unsupported(f"{c.id}: marked ({', '.join(sorted(c.marks))})")
        if [(a.name, a.parry) for a in st.natural_attacks] != [("punch", 0), ("kick", None)]:
            raise Unsupported(f"{c.id}: natural attacks of its own")
        ranged = [a for a in st.attacks() if a.ranged]
        if ranged and (ranged[0].weapon != st.weapons[0] or len({a.weapon for a in ranged}) > 1):
            raise Unsupported(f"{c.id}: a ranged weapon other than one in hand")
        noisy = any(data.weapons()[a.weapon].ranged.noisy for a in ranged)  # type: ignore[union-attr]
        if noisy and c.marks.get("mount"):
            raise Unsupported(f"{c.id}: a noisy weapon on horseback (B397)")
    return cs


def _check_mount(state: FightState, m: Combatant) -> None:
    """A mount the kernel plays: a lancer's, fresh, on the ground."""
    rider = state.combatants.get(m.marks.get("rider") or "")
    if rider is None:
        raise Unsupported(f"{m.id}: a mount without a rider")
    if set(m.marks) - {"posture", "rider"} or m.marks.get("posture", "standing") != "standing":
        raise Unsupported(f"{m.id}: a mount with a passenger or otherwise marked")
    if m.stats.flies or m.altitude or m.hidden or m.pos is None:
        raise Unsupported(f"{m.id}: a flying, hidden or unplaced mount")
    if m.status != "active" or m.conditions or any(m.counters.values()):
        raise Unsupported(f"{m.id}: not a fresh combatant")


def _check_rider(state: FightState, c: Combatant) -> None:
    """A rider the kernel plays: a lancer (a rider without a lance keeps his foe at the reach of his sword
    and his mount attacks: not played here)."""
    from fracas.rules.gurps4.tactics import Default

    if c.stats.flies:
        raise Unsupported(f"{c.id}: a flying rider")
    weapons = [x for x in c.stats.attacks() if not x.natural]
    if any(x.ranged for x in weapons):
        return  # a horse archer
    best = Default()._best_melee(state, c, c, weapons)
    if best is None or not best.couchable:
        raise Unsupported(f"{c.id}: a rider without a lance or a bow")


class GurpsGroupKernel:
    """Plays ``n`` fights of one GURPS encounter on foot (see the module docstring)."""

    name = "gurps-group"
    chunk = 2_500

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        cs = _check(ruleset, state)
        self.ruleset = ruleset
        self.state = state
        self.ids = tuple(state.combatants)
        self.sides = tuple(state.sides)
        self.max_rounds = int(state.max_rounds)
        self._side_of = [self.sides.index(c.side) for c in cs]
        self._controllers: dict[str, Any] | None = None
        self._tables(state, cs)

    def _tables(self, state: FightState, cs: list[Combatant]) -> None:
        from fracas.rules.gurps4 import core, data, mounted
        from fracas.rules.gurps4.attack_roll import attack_roll_parts
        from fracas.rules.gurps4.geometry import range_yards
        from fracas.rules.gurps4.injury import CRIT_EFFECTS
        from fracas.rules.gurps4.tactics import KEEP_AWAY, MIN_SHOT, STAY_WITHIN, Default

        n = len(cs)
        C = np.zeros((n, K.NC), np.int64)
        W = np.zeros((n, K.NPROF, K.NW), np.int64)
        profiles: list[list[Attack | None]] = []
        ranks = {cid: r for r, cid in enumerate(sorted(self.ids))}
        index = {c.id: i for i, c in enumerate(cs)}
        for i, c in enumerate(cs):
            st = c.stats
            self._mounted(state, c, C[i], index)
            C[i, K.C_SIDE] = self.sides.index(c.side)
            C[i, K.C_HT], C[i, K.C_DX], C[i, K.C_HP], C[i, K.C_ST] = st.ht, st.dx, st.hp, st.st
            C[i, K.C_MOVE], C[i, K.C_DODGE] = st.basic_move, st.dodge()
            C[i, K.C_HPT] = int(st.high_pain_threshold)
            C[i, K.C_AGGR] = int(c.tactic == "aggressive")
            C[i, K.C_DEFN] = int(c.tactic == "defensive")
            C[i, K.C_RANK] = ranks[c.id]
            C[i, K.C_Q0], C[i, K.C_R0] = c.pos  # type: ignore[misc]
            C[i, K.C_SPEED] = round(st.basic_speed * 10_000)
            C[i, K.C_FLIES], C[i, K.C_AIR] = int(st.flies), st.air_move
            C[i, K.C_HOVER], C[i, K.C_ALT0] = int(st.can_hover), c.altitude
            C[i, K.C_WAR], C[i, K.C_SM], C[i, K.C_WILL] = int(st.war_trained), st.sm, st.will
            C[i, K.C_PPARRY] = C[i, K.C_BLOCK] = -1
            mine: list[Attack | None] = [None] * K.NPROF
            profiles.append(mine)
            if st.mount:
                natural = list(st.natural_attacks)
                if len(natural) > K.NPROF - 2:
                    raise Unsupported(f"{c.id}: more natural attacks than the kernel keeps")
                for k, x in enumerate(natural):
                    mine[2 + k] = x
                continue
            weapons = [x for x in st.attacks() if not x.natural]
            guns = [x for x in weapons if x.ranged]
            if guns:  # an archer: the bow in hand, then the best melee weapon
                mine[0] = guns[0]
                melee = [x for x in weapons if not x.ranged]
                mine[1] = Default()._best_melee(state, c, c, melee) if melee else None
                C[i, K.C_NLREACH] = max((max(r, 1) for x in melee for r in x.reach), default=1)
                weapons = []
            atk = Default()._best_melee(state, c, c, weapons) if weapons else guns[0]
            assert atk is not None
            if atk.weapon != st.weapons[0]:
                raise Unsupported(f"{c.id}: its best melee weapon {atk.weapon} is not the one in hand")
            mine[0] = atk
            if atk.couchable:
                if sum(1 for w in st.weapons if data.weapons()[w].couchable) > 1:
                    raise Unsupported(f"{c.id}: more than one lance")
                # the best weapon without it (Default._best_melee: the best skill, the first of equals)
                others = [x for x in weapons if not x.couchable and not x.ranged]
                if others:
                    mine[1] = max(others, key=lambda x: st.skill(x.skill_name))
                C[i, K.C_NLREACH] = max((max(r, 1) for x in others for r in x.reach), default=1)
            punch = st.natural_attacks[0]
            C[i, K.C_PPARRY] = core.parry_score(
                max(st.skills.get("Brawling", st.dx), st.dx), punch.parry or 0, st.combat_reflexes
            )[0]
            C[i, K.C_PFENCE] = int(data.weapons()["punch"].modes[0].fencing)
            if st.shield:
                C[i, K.C_BLOCK] = core.block_score(st.skill("Shield"), st.combat_reflexes)[0]
            C[i, K.C_DB] = st.shield_db()
        bmax = 0
        for i, c in enumerate(cs):
            for k, x in enumerate(profiles[i]):
                if x is not None:
                    bmax = max(bmax, self._profile(state, c, x, W[i, k]))
        if any(bmax // max(1, c.stats.st - 2) > 60 for c in cs):
            raise Unsupported("a knockback longer than the kernel's path (60 yards)")
        # the attack roll's part that does not change in a fight (attack_roll_parts: fresh figures stand and
        # have no shock; no mount has moved or attacked), for Attack and All-Out Attack (Determined)
        SK = np.zeros((n, n, 2, K.NPROF), np.int64)
        # on foot: a rider's skill down to Riding is W_MCAP, added while he rides
        afoot = state.clone()
        for c in afoot.combatants.values():
            c.marks.pop("mount", None)
            c.marks.pop("rider", None)
        for i, a in enumerate(afoot.combatants.values()):
            for k, x in enumerate(profiles[i]):
                if x is None:
                    continue
                for j, t in enumerate(afoot.combatants.values()):
                    for m, maneuver in enumerate(("attack", "all_out_attack_determined")):
                        if x.ranged and m:
                            continue
                        base, mods, cap = attack_roll_parts(afoot, a, t, x, maneuver, {})
                        SK[i, j, m, k] = core.effective_value(base, mods, cap)[0]
                        if x.ranged:  # the Speed/Range penalty is read as the range changes (B550)
                            SK[i, j, m, k] -= core.speed_range_penalty(range_yards(a, t))
        # injury by basic damage on the torso (injury_from), DR whole and halved (Critical Hit Table 4, 17)
        INJ = np.zeros((n, n, 2, bmax + 1, K.NPROF), np.int64)
        minimum_one = bool(state.options.get("minimum_injury_one", True))
        for i in range(n):
            for k, x in enumerate(profiles[i]):
                if x is None:
                    continue
                dtype = x.damage_type
                for j, t in enumerate(cs):
                    ts = t.stats
                    dr = ts.dr_at("torso", dtype)
                    for h, d in enumerate((dr, dr // 2)):
                        for basic in range(bmax + 1):
                            flex = "torso" in ts.flexible
                            inj = core.injury_from(
                                basic, dtype, ts.hp, d, "torso", ts.body, flexible_armor=flex,
                                minimum_one=minimum_one,
                            )  # fmt: skip
                            if inj.crippled:
                                raise Unsupported("a crippling blow to the torso")
                            INJ[i, j, h, basic, k] = 2 * inj.injury + int(inj.penetrating > 0)
        lying = core.posture("lying")
        longest = max((int(W[i, k, K.W_MAXR]) for i in range(n) for k in range(K.NPROF)), default=0)
        P = np.zeros(K.NP + longest + 2, np.int64)
        for y in range(longest + 2):
            P[K.P_RNG0 + y] = core.speed_range_penalty(y)
        P = self._map(state, P)
        P[K.P_LY_TARGET] = lying.target
        P[K.P_MIN_SHOT], P[K.P_KEEP_AWAY], P[K.P_STAY_WITHIN] = MIN_SHOT, KEEP_AWAY, STAY_WITHIN
        P[K.P_MAXR] = self.max_rounds
        P[K.P_CRITTAB] = int(bool(state.options.get("critical_hit_table", True)))
        P[K.P_LY_MELEE] = lying.melee
        P[K.P_LY_DEF] = lying.defense
        P[K.P_AOD] = core.maneuver("all_out_defense_increased_dodge").defense_bonus
        P[K.P_KD_MOD] = data.hit_locations("humanoid")["torso"].knockdown_major
        P[K.P_BMAX] = bmax
        opt = state.options
        P[K.P_VELCOUCH] = int(bool(opt.get("velocity_with_couched_lance", True)))
        P[K.P_RIDERLESS] = int(bool(opt.get("riderless_mounts_leave", True)))
        P[K.P_UNHORSED] = int(bool(opt.get("unhorsed_is_out", False)))
        P[K.P_VEL_AT], P[K.P_VEL_HIT] = mounted.VELOCITY_THRESHOLD, mounted.VELOCITY_TO_HIT
        P[K.P_VEL_DMG], P[K.P_COUCH_ADDS] = mounted.VELOCITY_DAMAGE, mounted.COUCHED_LANCE_ADDS
        P[K.P_JCAP], P[K.P_AFTER_MOUNT] = mounted.JOUSTING_CAP, mounted.RIDER_ATTACK_AFTER_MOUNT_ATTACK
        P[K.P_STUNNED_RIDING], P[K.P_KB_RIDING] = (
            mounted.STUNNED_RIDER_RIDING,
            mounted.KNOCKBACK_RIDING_PER_YARD,
        )
        P[K.P_RIDER_FT] = round(mounted.RIDER_HEIGHT_FT)
        if P[K.P_RIDER_FT] != mounted.RIDER_HEIGHT_FT:
            raise Unsupported("a rider's height above a foe on foot that is not whole feet")
        if mounted.crippled_mount_falls().effect != "falls":
            raise Unsupported("the Mount Loss of Control Table's 12 is not the fall the kernel mirrors")
        CRIT = np.zeros(19, np.int64)
        for roll in range(3, 19):
            CRIT[roll] = _CRIT[CRIT_EFFECTS.get(roll)]
        self.C, self.P, self.W, self.SK, self.INJ, self.CRIT = C, P, W, SK, INJ, CRIT

    @staticmethod
    def _map(state: FightState, P: np.ndarray) -> np.ndarray:
        """The map's blocked hexes (taken.map_blocked) as a bitmap of the box round them, after the
        parameters (P[P_MAP] its place, 0 when the map blocks nothing)."""
        from fracas.engine import taken

        cells = taken.map_blocked(state)
        if not cells:
            return P
        q0, r0 = min(q for q, _ in cells), min(r for _, r in cells)
        w, h = max(q for q, _ in cells) - q0 + 1, max(r for _, r in cells) - r0 + 1
        bits = np.zeros(w * h, np.int64)
        for q, r in cells:
            bits[(q - q0) * h + (r - r0)] = 1
        at = P.shape[0]
        P = np.concatenate([P, bits])
        P[K.P_MAP], P[K.P_MAPQ0], P[K.P_MAPR0], P[K.P_MAPW], P[K.P_MAPH] = at, q0, r0, w, h
        return P

    @staticmethod
    def _profile(state: FightState, c: Combatant, x: Attack, row: np.ndarray) -> int:
        """One attack's numbers (``W[i, p]``); returns the most basic damage it can do (x3, a critical)."""
        from fracas.rules.gurps4 import aerial, core, data, mounted
        from fracas.rules.gurps4.dice import parse_dice

        st = c.stats
        if x.natural:  # a mount's natural attack: fixed dice, iron horseshoes (injury.damage_dice)
            dice = parse_dice(x.damage)
            bonus = mounted.horseshoe_bonus(x.name, st.iron_horseshoes)
            dice = dice.plus(bonus.value if bonus else 0)
        else:
            dice = core.weapon_damage(st.st, x.damage)
        minb = data.wounding()[x.damage_type].min_basic
        most = 3 * max(minb, dice.maximum)
        mount = state.combatants.get(c.marks.get("mount") or "")
        if mount is not None and x.couchable:  # a couched lance: (mount ST x yards) / 100 dice (B397)
            couched = mounted.couched_lance_dice(mount.stats.st, mount.stats.basic_move)
            most = max(most, 3 * max(minb, couched.maximum + mounted.VELOCITY_DAMAGE))
        if mount is not None:
            most = max(most, 3 * max(minb, dice.maximum + mounted.VELOCITY_DAMAGE))
        reach = max((max(r, 1) for r in x.reach), default=1)
        row[K.W_VALID] = 1
        if x.ranged:
            from fracas.rules.gurps4.geometry import max_range

            rng = data.weapons()[x.weapon].ranged
            assert rng is not None
            row[K.W_RANGED], row[K.W_ACC], row[K.W_RELOAD] = 1, rng.acc, rng.reload
            row[K.W_MAXR] = int(max_range(st, x))
        row[K.W_DN], row[K.W_DADD] = dice.dice, dice.adds
        row[K.W_DTYPE] = {"cr": K.T_CR, "cut": K.T_CUT}.get(x.damage_type, K.T_OTHER)
        row[K.W_MINB] = minb
        row[K.W_REACH] = sum(1 << h for h in range(1, 62) if aerial.in_reach(h, 0, x.reach, False))
        row[K.W_STOP] = 1 if reach <= 1 else min(reach, 2)
        row[K.W_PUNCH3] = int(not x.natural and not x.damage.startswith("thr"))
        row[K.W_COUCH], row[K.W_JOUST] = int(x.couchable), int(x.jousting)
        row[K.W_SKILL] = st.skill(x.skill_name)
        row[K.W_TRAMPLE] = int(x.name == "trample")
        if mount is not None and not x.natural:
            from fracas.rules.gurps4.attack_roll import weapon_skill
            from fracas.rules.gurps4.riding import riding_skill

            cap = mounted.mounted_skill(weapon_skill(c, x), riding_skill(state, c))[1]
            row[K.W_MCAP] = sum(m.value for m in cap)
        row[K.W_WPARRY] = -1
        if not x.natural:
            # Parry with the weapon in hand: every mode of it offers one (defense._defense_options)
            modes = [(y.parry, y.unbalanced) for y in st.attacks() if y.weapon == x.weapon and not y.natural]
            parries = [m for m in modes if m[0] is not None]
            if len(set(parries)) > 1:
                raise Unsupported(f"{c.id}: the modes of {x.weapon} parry differently")
            if parries:
                row[K.W_WPARRY] = core.parry_score(st.skill(x.skill_name), parries[0][0], st.combat_reflexes)[
                    0
                ]
                row[K.W_WUNBAL] = int(parries[0][1])
                row[K.W_WFENCE] = int(data.weapons()[x.weapon].modes[0].fencing)
        return most

    @staticmethod
    def _mounted(state: FightState, c: Combatant, row: np.ndarray, index: dict[str, int]) -> None:
        """The numbers of mounted combat (B396-397): a mount; a rider's lance, saddle, Riding and the
        modifiers of his rolls (riding.riding_base, riding_skill; mounted.rider_defense_penalty)."""
        from fracas.rules.gurps4 import data, mounted
        from fracas.rules.gurps4.riding import riding_base, riding_skill

        st = c.stats
        row[K.C_MOUNTF] = int(st.mount)
        row[K.C_KDMOD] = data.hit_locations(st.body)["torso"].knockdown_major
        row[K.C_SST] = int(st.saddle_and_stirrups)
        row[K.C_WSAD] = int(st.saddle == "war_saddle")
        row[K.C_RIDING] = st.riding if st.riding is not None else st.dx - 5
        lances = [x for x in st.attacks() if x.couchable and not x.ranged and not x.natural]
        row[K.C_LREACH] = max((max(r, 1) for x in lances for r in x.reach), default=0)
        mid = c.marks.get("mount")
        if not mid:
            return
        row[K.C_MOUNT0] = index[mid] + 1
        row[K.C_RIDING] = riding_skill(state, c)
        row[K.C_SPOOKMOD] = sum(m.value for m in riding_base(state, c)[1])
        stay = sum(m.value for m in riding_base(state, c, control=False)[1])
        if st.saddle == "war_saddle":
            stay += data.riding_numbers().war_saddle_stay_seated
        row[K.C_STAYMOD] = stay
        penalty = mounted.rider_defense_penalty(riding_skill(state, c))
        row[K.C_RDEF] = penalty.value if penalty else 0

    def _args(self) -> tuple[Any, ...]:
        return (self.C, self.P, self.W, self.SK, self.INJ, self.CRIT)

    # ----- running -----------------------------------------------------------------------------------
    def trace(self, seed: int) -> tuple[int, np.ndarray, np.ndarray]:
        """One fight of stream ``seed`` and its dice: (a hand-back reason or 0, its numbers, (sides, faces)).
        ``numbers``: result (winning side's index, -3 a draw, -2 nobody standing), round, then per combatant
        status (an index of STATUS), damage dealt, damage taken."""
        back, out, dice, _n = K.trace_fight(*self._args(), np.uint64(seed), TRACE_CAP)
        return int(back), out, dice

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """``n`` fights, each with its own stream seeded by a 64-bit word of ``rng``."""
        seeds = rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True)
        return self.run_seeds(seeds)

    def run_seeds(self, seeds: np.ndarray) -> Tally:
        """The fights of these streams (uint64 seeds), tallied as runner.engine_runs tallies the engine's."""
        n = int(seeds.shape[0])
        k, ns = len(self.ids), len(self.sides)
        ks = K.NSTATUS
        tally_arr = np.zeros(ns + 2 + (ks + 2) * k, np.int64)
        hist = np.zeros(self.max_rounds + 1, np.int64)
        loss = np.zeros((2, ns, k + 1), np.int64)
        fallback = np.zeros(n, np.int64)
        nf = K.run_batch(*self._args(), seeds.astype(np.uint64, copy=False), tally_arr, hist, loss, fallback)
        tally = Tally(self.ids, self.sides)
        tally.runs = n - nf
        tally.wins = [int(x) for x in tally_arr[:ns]]
        tally.draws = int(tally_arr[ns])
        tally.wipeouts = int(tally_arr[ns + 1])
        tally.rounds = {r: int(c) for r, c in enumerate(hist) if c}
        for i in range(k):
            counts = tally_arr[ns + 2 + ks * i : ns + 2 + ks * (i + 1)]
            tally.status[i] = {name: int(c) for name, c in zip(STATUS, counts, strict=True) if c}
            tally.dealt[i] = int(tally_arr[ns + 2 + ks * k + 2 * i])
            tally.taken[i] = int(tally_arr[ns + 3 + ks * k + 2 * i])
        for s in range(ns):
            tally.side_dead[s] = {j: int(c) for j, c in enumerate(loss[0, s]) if c}
            tally.side_out[s] = {j: int(c) for j, c in enumerate(loss[1, s]) if c}
        if nf:
            tally.merge(self.replay([int(seeds[j]) for j in fallback[:nf]]))
        return tally

    def replay(self, seeds: list[int]) -> Tally:
        """The engine plays the fights of these streams from the dice the kernel drew in them (all of a
        finished fight's, those up to where it stopped of a fight handed back), then fresh dice."""
        from fracas.sim.kernels.sas_melee import PrefixDice
        from fracas.sim.runner import engine_runs

        if self._controllers is None:
            self._controllers = self.ruleset.tactics()
        prefixes = {s: self.trace(s)[2] for s in seeds}

        def dice_for(s: int) -> PrefixDice:
            return PrefixDice(prefixes[s], RandomDice(s ^ 0x5A5A5A5A5A5A5A5A))

        return engine_runs(self.ruleset, self.state, seeds, self._controllers, dice_for)


def build(ruleset: Ruleset, state: FightState) -> GurpsGroupKernel:
    return GurpsGroupKernel(ruleset, state)


kernels.register("gurps4", build)

__all__ = ["STATUS", "GurpsGroupKernel", "build"]
