"""Spells & Swords close combat, several against several, as a compiled batch kernel (numba,
sas_group_core.py, movement in sas_group_move.py).

It takes an encounter of two sides on the hex map (walls allowed) and mirrors what the reference engine does
with the ``sas`` ruleset (004 = shared/rules/004_0d1ac50b56c23caf.txt; docs/rulesets/sas.md): everything the
duel kernel mirrors (sas_melee.py: side INITIATIVE, held effects, Stand Up, Break Free, Continued attacks, THE
BRAWL RULE, the ATTACK, DAMAGE, FUMBLE, LIGHT and MAJOR WOUND tables, body parts, Bleeding, Choke, DEATH BY A
THOUSAND CUTS, REGENERATION, Minions, the round limit), and what more combatants bring (sas_group_core.py):
the side's members in roster order, the tactic's choice of foe next to him, Defender Surrounded, flank and
behind from where each stands and faces, a Small Shield's one attack per turn, Monster Fumbles 4-5 once per
foe, Stand Up's -2 per adjacent foe, Friendly Fire on a side-mate next to the fumbler; and the default
tactic's movement toward the nearest foes: Charge (a longer weapon's first strike, at once), Close to Attack,
Run, Walk, along the engine's paths round taken hexes and walls (sas_group_move.py).

When every combatant starts next to every foe nobody ever moves, and the tactics that differ from the default
only in closing or shooting (guard, hold, cavalry, ambush, archer) play as it; when some start apart, the
default tactic only. The per-pair modifiers that never change come from the duel kernel's own tables, built
for each pair of combatants alone, face to face; what changes with the others and with where they stand is
added in the loop. Anything else is refused with the reason, and the simulator runs the engine: other tactics,
ranged, entangling or no-damage weapons, a possible trample, mounts, hidden or airborne combatants, the Shield
Spell reaction, morale, settings, map features other than walls, cover and light, a fight already started. A
fight the loop does not finish is handed back and replayed by the engine from the kernel's dice, as the duel
kernel's: a two-handed weapon in a single hand, more parts regrowing than it keeps, a regenerator's leg hurt
or broken, a combatant with one hand left who would pick up a dropped weapon. With no foe next to him a
combatant first tends: Stop Bleed (his own, then an adjacent side-mate's), Pick up Dropped Item.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.source import RandomDice
from fracas.engine.hexgrid import DIRECTIONS, distance
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.kernels import sas_core as K
from fracas.sim.kernels import sas_group_core as G
from fracas.sim.kernels import sas_group_move as M
from fracas.sim.kernels.sas_melee import _OPTIONS, TRACE_CAP, PrefixDice, SasDuelKernel, _check_tables, _nds
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

_STATUS = ("active", "unconscious", "dead")
MAX_COMBATANTS = 40  # friendly-fire and foe-bonus bits are kept in one 64-bit word per combatant


def _plays_as_default(tactic: Any) -> bool:
    """Whether ``tactic`` proposes, next to every foe, without missiles or hiding, what the default does:
    guard, hold, cavalry, ambush and archer only choose how to close with a foe or what to do with a missile
    in hand (SasTactic._closing, the ranged attacks, an archer's withdrawal)."""
    import dataclasses

    from fracas.rules.sas.tactics import SasTactic

    if not isinstance(tactic, SasTactic):
        return False
    plain = dataclasses.replace(
        tactic, name="default", guard=False, hold=False, cavalry=False, ambush=False, archer=False
    )
    return plain == SasTactic()


def _obstacles(ruleset: Any, state: FightState) -> list[str]:
    """Everything in the encounter the group kernel does not model, each feature once with the combatants
    it concerns (the first two named); empty for an encounter it plays. A duel is the duel kernel's."""
    from fracas.rules.sas.fold import view
    from fracas.rules.sas.movement import move_spaces
    from fracas.rules.sas.procedures.mass import large_creature
    from fracas.rules.sas.ruleset import SasRuleset
    from fracas.rules.sas.tables import tables
    from fracas.rules.sas.tactics import SasTactic

    if not isinstance(ruleset, SasRuleset):
        return ["not the Spells & Swords ruleset"]
    if ruleset.tactics().get("default") != SasTactic():
        return ["the default tactic is not one it mirrors"]
    cs = list(state.combatants.values())
    out: list[str] = []
    if len(state.sides) != 2:
        out.append("two sides only")
    if len(cs) > MAX_COMBATANTS:
        out.append(f"more than {MAX_COMBATANTS} combatants")
    if state.phase != "start" or state.round != 0 or state.extra.get("pending"):
        out.append("a fight already started")
    unknown = set(state.options) - _OPTIONS
    if unknown:
        out.append(f"optional rules it does not know: {', '.join(sorted(unknown))}")
    for opt in ("reroll-initiative", "morale"):
        if state.options.get(opt):
            out.append(f"optional rule {opt}")
    if state.extra.get("settings"):
        out.append(f"settings: {', '.join(sorted(state.extra['settings']))}")
    extra = set(state.extra) - {"map"}
    if extra:
        out.append(f"fight bookkeeping: {', '.join(sorted(extra))}")
    mp = dict(state.extra.get("map", {}))
    rest = {k for k, v in mp.items() if v and k not in ("blocked", "cover", "light", "keep_facing")}
    if rest:
        out.append(f"map features: {', '.join(sorted(rest))}")
    t = tables()
    found: dict[str, list[str]] = {}

    def note(what: str, who: str) -> None:
        if who not in found.setdefault(what, []):
            found[what].append(who)

    placed = [c for c in cs if c.pos is not None]
    # everyone next to every foe: nobody ever moves, and the tactics that differ from the default only in
    # closing or shooting play as it; else the default tactic moves them
    still = all(distance(c.pos, o.pos) == 1 for c in placed for o in placed if o.side != c.side)  # type: ignore[arg-type]
    for c in cs:
        counters = {k for k, v in c.counters.items() if v and k != "potions"}
        if c.status != "active" or c.conditions or counters:
            note("not a fresh combatant (hurt, held, potions...)", c.id)
        if c.stats.mount or set(c.marks) != {"weapon"} or c.marks["weapon"] != c.stats.weapons[0]:
            note("a steed, mounted or otherwise marked", c.id)
        if c.hidden or c.altitude or c.pos is None:
            note("hidden, above the ground or without a place", c.id)
        if still and not _plays_as_default(ruleset.tactics().get(c.tactic)):
            note(f"tactic {c.tactic} (it plays the default tactic and those that play as it in reach)", c.id)
        elif not still and c.tactic != "default":
            note(f"tactic {c.tactic} (combatants who move: the default tactic only)", c.id)
        if "shield" in c.stats.spells and state.options.get("auto-reactions", True):
            note("knows the Shield Spell reaction", c.id)
        for w in c.stats.weapons:
            wp = t.weapons[w]
            if wp.ranged or wp.entangle or t.damage.weapon_classes[wp.weapon_class].no_damage:
                note("a ranged, entangling or no-damage weapon", f"{c.id}: {w}")
        if len(c.stats.weapons) + 1 > K.WMAX:
            note(f"more than {K.WMAX - 1} weapons carried", c.id)
    if len({c.pos for c in placed}) != len(placed):
        note("shares a space", "two combatants")
    views = {c.id: view(state, c) for c in placed}
    for c in placed:
        if not still and move_spaces(state, c, 2.0, charge=True) > M.SPMAX:
            note(f"charges more than {M.SPMAX} spaces", c.id)
        for o in placed:
            if o.side != c.side and large_creature(views[c.id], views[o.id]):
                note("may trample a foe (Large Creature Attacks)", c.id)
    for what, who in found.items():
        names = ", ".join(who[:2]) + (f" and {len(who) - 2} more" if len(who) > 2 else "")
        out.append(f"{what}: {names}")
    return out


def _check(ruleset: Any, state: FightState) -> list[Any]:
    """The combatants of a fight the group kernel plays, or Unsupported naming all it does not model."""
    from fracas.rules.sas.tables import tables

    if len(state.combatants) <= 2:
        raise Unsupported("")  # one against one: the duel kernel's
    found = _obstacles(ruleset, state)
    if found:
        raise Unsupported("S&S group kernel: " + "; ".join(found))
    _check_tables(tables())
    return list(state.combatants.values())


class SasGroupKernel:
    """Plays ``n`` fights of one encounter (see the module docstring)."""

    name = "sas-group"
    chunk = 10_000

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        cs = _check(ruleset, state)
        self.ruleset = ruleset
        self.state = state
        self.ids = tuple(state.combatants)
        self.sides = tuple(state.sides)
        self.max_rounds = int(state.max_rounds)
        self._controllers: dict[str, Any] | None = None
        self._side_of = [self.sides.index(c.side) for c in cs]
        self._tables(ruleset, state, cs)

    # ----- the numbers the compiled loop reads ------------------------------------------------------
    def _pair(self, ruleset: Any, state: FightState, i: int, j: int) -> SasDuelKernel:
        """The duel kernel's tables for combatants ``i`` and ``j`` alone, where they stand."""
        sub = state.clone()
        keep = {self.ids[i], self.ids[j]}
        for cid in self.ids:
            if cid not in keep:
                del sub.combatants[cid]
        # next to each other, face to face: behind and flank are the loop's, from where they stand then
        a, b = sub.combatants[self.ids[i]], sub.combatants[self.ids[j]]
        a.pos, a.facing = (0, 0), 0
        b.pos, b.facing = DIRECTIONS[0], 3
        duel = SasDuelKernel.__new__(SasDuelKernel)
        duel.max_rounds = self.max_rounds
        duel.sides = self.sides
        pair = [sub.combatants[self.ids[i]], sub.combatants[self.ids[j]]]
        duel._tables(ruleset, sub, pair)
        return duel

    def _tables(self, ruleset: Any, state: FightState, cs: list[Any]) -> None:
        from fracas.rules.sas.fold import view
        from fracas.rules.sas.procedures.initiative import initiative_bonus
        from fracas.rules.sas.settings import settings_of
        from fracas.rules.sas.tables import tables

        t = tables()
        A = t.attack.modifiers
        n = len(cs)
        mw = max(len(c.stats.weapons) for c in cs) + 1
        # the numbers every pair shares, from the first foe of the first combatant
        j0 = next(j for j in range(n) if cs[j].side != cs[0].side)
        first = self._pair(ruleset, state, 0, j0)
        P = first.P.copy()
        nb = int(P[K.P_NB])
        S = np.zeros((n, K.NSW), np.int64)
        BR = np.zeros((n, n), np.int64)
        GA = np.zeros((n, n, mw, mw, K.NACT, nb), np.int64)
        GD = np.zeros((n, n, mw, K.NACT, nb), np.int64)
        same = np.ones(K.NP, bool)
        same[[K.P_BRAWL, K.P_DIST0]] = False  # the Brawl Rule and the distance are the pair's
        # a pair's tables depend on the two alone (placed face to face): alike pairs share them
        made: dict[tuple[str, str], SasDuelKernel] = {}

        def like(c: Any) -> str:
            return repr((c.side, c.stats, sorted(c.marks.items()), sorted(c.counters.items())))

        for i in range(n):
            for j in range(i + 1, n):
                key = (like(cs[i]), like(cs[j]))
                duel = first if (i, j) == (0, j0) else made.get(key)
                if duel is None:
                    duel = self._pair(ruleset, state, i, j)
                made[key] = duel
                dp = duel.P
                if not np.array_equal(P[: K.NP][same], dp[: K.NP][same]) or dp[K.P_NB] != nb:
                    raise Unsupported("S&S group kernel: the pairs' numbers differ beyond the Brawl Rule")
                BR[i, j] = BR[j, i] = dp[K.P_BRAWL]
                pw = int(dp[K.P_MW])
                atk = dp[dp[K.P_ATK] : dp[K.P_ATK] + 2 * pw * pw * K.NACT * nb].reshape(2, pw, pw, K.NACT, nb)
                dmg = dp[dp[K.P_DMG] : dp[K.P_DMG] + 2 * pw * K.NACT * nb].reshape(2, pw, K.NACT, nb)
                for k, x in enumerate((i, j)):
                    y = j if k == 0 else i
                    S[x] = duel.S[k]
                    GA[x, y, :pw, :pw] = atk[k]
                    GD[x, y, :pw] = dmg[k]
        # a combatant's weapons and "unarmed" (at its own NW) are indexed alike in every pair's tables
        sur = A["defender-surrounded"]
        if sur.min_foes < 2:  # the pair tables (one foe beside the defender) must leave it out
            raise Unsupported("S&S group kernel: Defender Surrounded by fewer than two foes")
        GP = np.zeros(G.NG + 2, np.int64)
        GP[G.G_BEHIND] = A["behind"].value
        GP[G.G_FLANK] = A["flank"].value
        GP[G.G_N] = n
        GP[G.G_MW] = mw
        GP[G.G_NB] = nb
        GP[G.G_HEAL_N], GP[G.G_HEAL_S] = _nds(settings_of(state).potion_heal)
        GP[G.G_SUR] = sur.value
        GP[G.G_SUR_MIN] = sur.min_foes
        for s, side in enumerate(self.sides):
            GP[G.NG + s] = min(initiative_bonus(view(state, c)) for c in cs if c.side == side)
        rank = {cid: r for r, cid in enumerate(sorted(self.ids))}
        sm = settings_of(state).swift_movement
        if sm != int(sm):
            raise Unsupported("S&S group kernel: a swift_movement setting that is not a whole number")
        GS = np.zeros((n, G.NGS), np.int64)
        for i, c in enumerate(cs):
            GS[i, G.GS_SIDE] = self.sides.index(c.side)
            GS[i, G.GS_RANK] = rank[c.id]
            GS[i, G.GS_POTIONS0] = c.count("potions")
            if c.stats.shield != "none":
                line = A[f"{c.stats.shield}-shield"]
                GS[i, G.GS_SHIELD] = line.value
                GS[i, G.GS_SHIELD_MAX] = line.max_attacks_per_turn or 0
            GS[i, M.GS_Q0], GS[i, M.GS_R0] = c.pos
            GS[i, M.GS_F0] = c.facing
            GS[i, M.GS_MOVE] = c.stats.movement + c.stats.swift * sm
            GS[i, M.GS_SEARCH] = c.stats.skill(t.combat.actions["pick-up"].skill or "search")
        self.P, self.S, self.GP, self.GS, self.GA, self.GD, self.BR = P, S, GP, GS, GA, GD, BR
        self.GM = self._map(state)

    def _map(self, state: FightState) -> np.ndarray:
        """GM: what movement reads (sas_group_move): the Charge's Swift, the Move of hurt, broken and lost
        legs (procedures.movement.movement, fold.view's lost leg), the parts they are, the walls."""
        from fracas.engine.taken import map_blocked
        from fracas.rules.sas.settings import settings_of
        from fracas.rules.sas.tables import tables

        t = tables()
        sm = settings_of(state).swift_movement
        parts = [r.id for r in t.wounds.body_parts.rows]

        def bits(names: Any) -> int:
            return sum(1 << (parts.index(p) + 1) for p in names if p in parts)

        walls = sorted(map_blocked(state))
        q0 = min((h[0] for h in walls), default=0)
        r0 = min((h[1] for h in walls), default=0)
        nq = max((h[0] for h in walls), default=-1) - q0 + 1
        nr = max((h[1] for h in walls), default=-1) - r0 + 1
        GM = np.zeros(M.NM + nq * nr, np.int64)
        GM[M.M_CHARGE_SWIFT] = t.combat.num("charge", "swift") * sm
        GM[M.M_HURT] = t.wounds.hurt.move
        GM[M.M_BROKEN] = t.wounds.broken.move
        GM[M.M_LOST_LEG] = -4  # fold.view: a lost leg's Move -4
        GM[M.M_HURT_PARTS] = bits(t.wounds.hurt.move_parts)
        GM[M.M_BROKEN_PARTS] = bits(t.wounds.broken.move_parts)
        GM[M.M_CHARGE_PARTS] = bits(("leg", "knee", "foot"))  # procedures.movement.can_charge
        conds = t.conditions.conditions
        GM[M.M_BLIND_SIGHT] = conds["blinded"].sight_rolls
        GM[M.M_PBLIND_SIGHT] = conds["partial-blindness"].sight_rolls
        GM[M.M_PICK_UP] = t.combat.num("skill_check", t.combat.actions["pick-up"].check or "easy")
        GM[M.M_WALL : M.M_WALL + 4] = (q0, r0, nq, nr)
        for q, r in walls:
            GM[M.NM + (q - q0) * nr + (r - r0)] = 1
        return GM

    def _args(self) -> tuple[Any, ...]:
        return (self.P, self.S, self.GP, self.GS, self.GA, self.GD, self.BR, self.GM)

    # ----- running -----------------------------------------------------------------------------------
    def trace(self, seed: int) -> tuple[int, np.ndarray, np.ndarray]:
        """One fight of stream ``seed`` and its dice: (non-zero if handed back, its numbers, (sides, faces)).

        ``numbers``: result (winning side's index, 2 draw, 3 nobody standing), round, then per combatant
        its status (0 active, 1 unconscious, 2 dead), markers dealt, markers taken, Wounds."""
        back, out, dice, _n = G.trace_fight(*self._args(), np.uint64(seed), TRACE_CAP)
        return int(back), out, dice

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """``n`` fights, each with its own stream seeded by a 64-bit word of ``rng``."""
        kernels.keep_freed_memory()
        seeds = rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True)
        return self.run_seeds(seeds)

    def run_seeds(self, seeds: np.ndarray) -> Tally:
        """The fights of these streams (uint64 seeds), tallied as runner.engine_runs tallies the engine's."""
        n = int(seeds.shape[0])
        nc = len(self.ids)
        tally_arr = np.zeros(4 + 6 * nc, np.int64)
        hist = np.zeros(self.max_rounds + 1, np.int64)
        losses = np.zeros((2, 2, nc + 1), np.int64)
        fallback = np.zeros(n, np.int64)
        nf = G.run_batch(
            *self._args(), seeds.astype(np.uint64, copy=False), tally_arr, hist, losses, fallback
        )
        tally = Tally(self.ids, self.sides)
        tally.runs = n - nf
        tally.wins = [int(tally_arr[0]), int(tally_arr[1])]
        tally.draws = int(tally_arr[2])
        tally.wipeouts = int(tally_arr[3])
        tally.rounds = {r: int(c) for r, c in enumerate(hist) if c}
        for i in range(nc):
            counts = tally_arr[4 + 6 * i : 7 + 6 * i]
            tally.status[i] = {name: int(c) for name, c in zip(_STATUS, counts, strict=True) if c}
            tally.dealt[i] = int(tally_arr[7 + 6 * i])
            tally.taken[i] = int(tally_arr[8 + 6 * i])
            tally.wounds[i] = int(tally_arr[9 + 6 * i])
        for s in range(2):
            tally.side_dead[s] = {k: int(c) for k, c in enumerate(losses[s, 0]) if c}
            tally.side_out[s] = {k: int(c) for k, c in enumerate(losses[s, 1]) if c}
        if nf:
            tally.merge(self.replay([int(seeds[k]) for k in fallback[:nf]]))
        return tally

    def replay(self, seeds: list[int]) -> Tally:
        """The engine plays the fights of these streams from the dice the kernel drew in them, then fresh
        dice (as SasDuelKernel.replay)."""
        from fracas.sim.runner import engine_runs

        if self._controllers is None:
            self._controllers = self.ruleset.tactics()
        prefixes = {s: self.trace(s)[2] for s in seeds}

        def dice_for(s: int) -> PrefixDice:
            return PrefixDice(prefixes[s], RandomDice(s ^ 0x5A5A5A5A5A5A5A5A))

        return engine_runs(self.ruleset, self.state, seeds, self._controllers, dice_for)


def build(ruleset: Ruleset, state: FightState) -> SasGroupKernel:
    return SasGroupKernel(ruleset, state)


kernels.register("sas", build)

__all__ = ["SasGroupKernel", "build"]
