"""ED4 core melee, one against one, as a NumPy batch kernel (one lane per fight).

It mirrors, for an encounter it accepts, what the reference engine does with the ``ed4`` ruleset
(``fracas.rules.earthdawn.round`` and ``combat``) and the ``default`` tactic (``fracas.rules.ed4.tactics``):

- each round, Initiative tests on the Initiative step (less Wounds with the ``wound-penalties`` option; a step
  below 1 acts last at 1; ``take-the-initiative``: gamemaster characters use the step), acting order by
  result, then player characters, the higher Initiative step, the higher Dexterity, the id (p.371-372);
- on its turn a knocked-down combatant stands up (p.389); a character the next average hit could kill runs
  away (the tactic) and, being faster than its foe on an open map, escapes (status "fled");
- otherwise it makes its Standard-action attack (``actions`` attacks for a creature, until the target falls)
  with the attack the tactic picks (most expected damage; Karma when it raises the chance to hit by 10
  points): Attack test against the Defense (-3 if the target is knocked down), Rule of One, extra successes
  (+2 damage steps each against Physical Defense, p.377), Damage test (less Wounds), Armor, a Wound at the
  Wound Threshold, death at the Death Rating, unconsciousness at the Unconsciousness Rating (p.379-380), a
  Knockdown test when the damage exceeds the Wound Threshold by 5 or more (p.379);
- a draw at the encounter's round limit.

Anything else (movement, more than two combatants, spells, Stun damage, reserved or delayed actions,
another tactic, extra modifier providers that the combat-options rules add) makes the builder refuse the
encounter with the reason, and the simulator runs the reference engine instead. tests/sim/test_sim_ed4.py
checks kernel and engine against each other, outcome by outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.steps import step_table
from fracas.engine.hexgrid import distance
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.base import Ruleset

GUIDE = 512  # buckets of the guide table of each step's inverse distribution
MAX_WOUNDS = 64  # the tactic's choice tables are built for 0..MAX_WOUNDS Wounds (far beyond any Death Rating)

# Modifier providers the kernel knows, by function name. Each is either mirrored (wound penalties, knocked
# down, long range) or provably silent in the encounters the builder accepts: no combat options declared
# (the default tactic declares none), no Stun, entangling, grappling, mounts, flight, spells, cover,
# darkness, impaired terrain, hidden combatants, and one foe only (never Harried by numbers, never
# Blindsided: a defender with nobody else next to him turns to face his attacker, ED4 p.386-387).
_KNOWN_STEP = {
    "_wound_penalty",
    "_knocked_down_tests",
    "_harried_tests",
    "_long_range",
    "_p_options_tests",
    "_p_harried_tests",
    "_p_sight",
    "_p_improvised",
    "_p_long_weapon",
    "_p_charge_damage",
    "_p_flame_weapon",
    "_p_knocked_down_initiative",  # mirrored: -3 to the Initiative test of a knocked-down combatant
}
_KNOWN_DEFENSE = {
    "_knocked_down_defense",
    "_harried_defense",
    "_unconscious_defense",
    "_p_options_defense",
    "_p_harried_defense",
    "_p_blindsided",
    "_p_cover",
    "_p_surprised",
    "_p_into_close",
}
_KNOWN_DN = {"_reserved_dn", "_p_grappled_dn"}
_ATTACK_RESOLVERS = {"EarthdawnRuleset._r_attack", "ChapterMixin._wrap.<locals>.resolve"}
_OPTIONS = {"take-the-initiative", "group-initiative", "wound-penalties"}
_OFF_OPTIONS = {"long-falls"}  # known, and silent while off
_MARKS = {"senses", "race"}  # only matter in darkness, which the builder refuses


def _names(providers: list[Any]) -> list[str]:
    return [getattr(p, "__name__", repr(p)) for p in providers]


def _check_ruleset(ruleset: Any) -> None:
    from fracas.rules.earthdawn.round import EarthdawnRuleset
    from fracas.rules.ed4.tactics import Ed4Tactic

    if not isinstance(ruleset, EarthdawnRuleset):
        raise Unsupported("not the Earthdawn round")
    steps = {n for v in ruleset.step_providers.values() for n in _names(v)}
    unknown = sorted(steps - _KNOWN_STEP)
    unknown += sorted(set(_names(ruleset.defense_providers)) - _KNOWN_DEFENSE)
    unknown += sorted(set(_names(ruleset.dn_providers)) - _KNOWN_DN)
    if unknown:
        raise Unsupported(f"modifiers the kernel does not mirror: {', '.join(unknown)}")
    attack = ruleset.actions.get("attack")
    if attack is None or getattr(attack.resolve, "__qualname__", "") not in _ATTACK_RESOLVERS:
        raise Unsupported("the attack action is not one the kernel mirrors")
    # The core's default tactic, or the chapter's LegalDefault: the same plans unless the chapter could
    # refuse one (flight, lost weapons, charging-only attacks, full cover, grappling, riders: all refused by
    # the builder).
    tactic = type(ruleset.tactics().get("default"))
    if not (tactic is Ed4Tactic or (tactic.__name__ == "LegalDefault" and issubclass(tactic, Ed4Tactic))):
        raise Unsupported("the default tactic is not one the kernel mirrors")


def _check_state(ruleset: Any, state: FightState) -> None:
    unknown = set(state.options) - _OPTIONS - _OFF_OPTIONS
    if unknown:
        raise Unsupported(f"optional rules the kernel does not know: {', '.join(sorted(unknown))}")
    on = [k for k in _OFF_OPTIONS if state.options.get(k)]
    if on:
        raise Unsupported(f"optional rules the kernel does not model: {', '.join(on)}")
    mp = state.extra.get("map", {})
    if (
        mp.get("light", "bright") != "bright"
        or mp.get("cover")
        or mp.get("full_cover")
        or mp.get("blocked")
        or mp.get("impaired")
    ):
        raise Unsupported("darkness, cover, blocked or impaired hexes on the map")
    if state.phase != "start" or state.declarations:
        raise Unsupported("a fight already started")
    for c in state.combatants.values():
        if c.hidden or c.altitude or set(c.marks) - _MARKS:
            raise Unsupported(f"{c.id}: hidden, flying, mounted or otherwise marked")
        entangling = getattr(ruleset, "_entangling", None)
        for a in c.stats.attacks:
            if (
                a.stun
                or a.kind == "spell"
                or a.name.startswith("Charge")
                or (entangling is not None and entangling(c, a))
            ):
                raise Unsupported(f"{c.id}: {a.name} is a spell, a charge, deals Stun damage or entangles")


@dataclass(slots=True)
class _Side:
    """One combatant's static numbers, as the kernel needs them."""

    c: Any
    side: int
    player: bool
    init_step: int
    dexterity: int
    pd: int
    md: int
    sd: int
    parmor: int
    marmor: int
    wt: int
    unc: int | None
    death: int
    kd_step: int
    karma0: int
    karma_step: int
    actions: int
    mv: int
    character: bool


def _attack_ok_adjacent(a: Any) -> bool:
    """The tactic's range check for a target 1 hex (2 yards) away."""
    if a.close:
        return True
    return not (a.long is None or a.long < 2 or a.minimum > 2)


class Ed4DuelKernel:
    name = "ed4-duel"
    chunk = 50_000

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        _check_ruleset(ruleset)
        cs = list(state.combatants.values())
        if len(cs) != 2 or cs[0].side == cs[1].side:
            raise Unsupported("the ED4 kernel plays one against one only")
        _check_state(ruleset, state)
        opts = state.options
        self.take = bool(opts.get("take-the-initiative", False))
        self.wound_penalties = bool(opts.get("wound-penalties", True))
        self.down_initiative = 0
        if "_p_knocked_down_initiative" in _names(ruleset.step_providers.get("initiative", [])):
            from fracas.rules.ed4 import situation

            self.down_initiative = sum(m.value for m in situation.knocked_down_mods())
        for c in cs:
            if c.status != "active" or c.conditions or c.tactic != "default":
                raise Unsupported(f"{c.id}: not a fresh combatant under the default tactic")
            if c.counters.get("damage", 0) or c.counters.get("wounds", 0) or c.counters.get("stun", 0):
                raise Unsupported(f"{c.id}: starts hurt")
            if c.pos is None:
                raise Unsupported(f"{c.id}: no position")
        if distance(cs[0].pos, cs[1].pos) != 1:
            raise Unsupported(
                "the two combatants do not start next to each other (no movement in the kernel)"
            )
        self.ruleset = ruleset
        ruleset.pending(state)  # the ED4 chapter reads Movement with the state it last saw
        self.edition = ruleset.edition  # type: ignore[attr-defined]
        self.ids = tuple(c.id for c in cs)
        self.sides = tuple(state.sides)
        self.max_rounds = state.max_rounds
        self.k: list[_Side] = []
        for c in cs:
            p = c.stats
            if p.kind not in ("character", "creature"):
                raise Unsupported(f"{c.id}: kind {p.kind!r}")
            self.k.append(
                _Side(
                    c,
                    self.sides.index(c.side),
                    c.player,
                    p.initiative_step,
                    p.dexterity,
                    p.physical_defense,
                    p.mystic_defense,
                    p.social_defense,
                    p.physical_armor,
                    p.mystic_armor,
                    p.wound_threshold,
                    p.unconsciousness,
                    p.death,
                    p.knockdown_step,
                    c.counters.get("karma", 0),
                    p.karma_step,
                    p.actions,
                    ruleset.movement_hexes(c),  # type: ignore[attr-defined]
                    p.kind == "character",
                )
            )
        self.attacks: list[list[Any]] = []
        for i, c in enumerate(cs):
            usable = [a for a in c.stats.attacks if _attack_ok_adjacent(a)]
            if not usable:
                raise Unsupported(f"{c.id}: no attack it can make against an adjacent foe")
            for a in usable:
                if a.kind == "spell" or a.stun:
                    raise Unsupported(f"{c.id}: {a.name} is a spell or deals Stun damage")
            self.attacks.append(list(c.stats.attacks))
            del i
        self._flee = [self._flee_rule(0), self._flee_rule(1)]
        self._tables = [self._choice_table(0), self._choice_table(1)]
        self._single_choice = [int(t[0][0, 0]) if np.all(t[0] == t[0][0, 0]) else None for t in self._tables]
        self.table = step_table(self.edition.steps)
        self.max_step = max(self.table)
        width = max(len(sd.dice) for sd in self.table.values())
        self._sides = np.zeros((self.max_step + 1, width), dtype=np.int64)
        self._mod = np.zeros(self.max_step + 1, dtype=np.int64)
        for st, sd in self.table.items():
            self._sides[st, : len(sd.dice)] = sd.dice
            self._mod[st] = sd.modifier
        self._ndice = np.count_nonzero(self._sides, axis=1)
        self._build_tables([k.karma_step for k in self.k if k.karma0], 40)

    # ----- what the tactic decides, as lookup tables ------------------------------------------------
    def _flee_rule(self, i: int) -> int | None:
        """Current Damage at which combatant ``i`` runs away (None: never), checking it then escapes."""
        from fracas.rules.ed4.tactics import mean_step

        me, foe = self.k[i], self.k[1 - i]
        if not me.character:
            return None
        worst = 0.0
        for a in self.attacks[1 - i]:
            worst = max(worst, mean_step(a.damage) - me.parmor)
        if worst <= 0:
            return None
        # in_danger: Current Damage + worst >= Death Rating. Running 2 x Movement hexes straight away on an
        # open map ends 1 + 2 x mv hexes from the foe, who reaches 2 x its mv + 1 (standing or knocked down).
        from fracas.engine.state import Condition

        down = foe.c.clone()
        down.conditions["knocked-down"] = Condition("knocked-down", None, 3)
        reach = max(foe.mv, self.ruleset.movement_hexes(down))  # type: ignore[attr-defined]
        if not me.mv > reach:
            raise Unsupported(
                f"{me.c.id} may retreat from a foe as fast as it (a chase is not in the kernel)"
            )
        need = worst
        # smallest integer damage d with d + worst >= death
        d = int(np.ceil(me.death - need - 1e-12))
        while d - 1 + worst >= me.death:
            d -= 1
        while d + worst < me.death:
            d += 1
        return max(d, 0)

    def _choice_table(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(attack index, Karma on the Attack test) by [Wounds, target knocked down]."""
        from fracas.engine.state import Condition
        from fracas.rules.ed4.tactics import KARMA_GAIN, _defense, expected_damage, p_hit

        me_c: Combatant = self.k[i].c
        foe_c: Combatant = self.k[1 - i].c
        attack_idx = np.zeros((MAX_WOUNDS + 1, 2), dtype=np.int64)
        karma = np.zeros((MAX_WOUNDS + 1, 2), dtype=bool)
        p = me_c.stats
        for w in range(MAX_WOUNDS + 1):
            me = me_c.clone()
            me.counters["wounds"] = w
            for down in (0, 1):
                target = foe_c.clone()
                if down:
                    target.conditions["knocked-down"] = Condition("knocked-down", None, 3)
                best: tuple[float, int] | None = None
                for ai, a in enumerate(self.attacks[i]):
                    if not _attack_ok_adjacent(a):
                        continue
                    score = expected_damage(me, target, a)
                    if best is None or score > best[0]:
                        best = (score, ai)
                assert best is not None
                a = self.attacks[i][best[1]]
                attack_idx[w, down] = best[1]
                if a.karma:
                    dn = _defense(foe_c.stats, a.against)
                    gain = p_hit(a.step - w, dn, p.karma_step) - p_hit(a.step - w, dn)
                    karma[w, down] = gain >= KARMA_GAIN
        return attack_idx, karma

    # ----- dice -------------------------------------------------------------------------------------
    def _dist(self, step: int, karma_step: int) -> tuple[int, np.ndarray, int]:
        """(lowest raw sum, CDF of the raw sum from it, number of dice) of ``step`` plus a Karma die."""
        dice = [int(x) for x in self._sides[step, : self._ndice[step]]]
        mod = int(self._mod[step])
        if karma_step:
            dice += [int(x) for x in self._sides[karma_step, : self._ndice[karma_step]]]
            mod += int(self._mod[karma_step])
        pmf = np.array([1.0])  # of the sum of the dice, from len(dice)
        for sides in dice:
            pmf = np.convolve(pmf, _exploding_die(sides))
        cdf = np.cumsum(pmf)
        cdf /= cdf[-1]
        keep = int(np.searchsorted(cdf, 1.0 - 1e-15)) + 1  # drop the far tail (below 1e-15 in all)
        return len(dice) + mod, cdf[:keep], len(dice)

    def _build_tables(self, karma_steps: list[int], top: int) -> None:
        """The CDF of every step up to ``top`` (and with each Karma step in use), in one sorted array: row r
        offset by 2r, so that one ``searchsorted`` serves lanes of different steps."""
        self._top = top
        m = top + 1
        self._karma_index = {0: 0}
        for ks in karma_steps:
            if ks and ks not in self._karma_index:
                self._karma_index[ks] = len(self._karma_index)
        rows = m * len(self._karma_index)
        low = np.zeros(rows, dtype=np.int64)
        ndice = np.zeros(rows, dtype=np.int64)
        start = np.zeros(rows, dtype=np.int64)
        size = np.ones(rows, dtype=np.int64)
        parts = []
        at = 0
        for ks, ki in self._karma_index.items():
            for step in range(1, m):
                r = ki * m + step
                lo, cdf, nd = self._dist(step, ks)
                low[r], ndice[r], start[r], size[r] = lo, nd, at, cdf.size
                parts.append(cdf + 2.0 * r)
                at += cdf.size
        self._big = np.concatenate(parts)
        self._low, self._rows_ndice, self._start, self._size = low, ndice, start, size
        # A guide table per row (G buckets of the uniform): where to start looking for the inverse, so most
        # draws take one lookup and at most a step or two forward instead of a binary search.
        flat = self._big - 2.0 * np.repeat(np.arange(rows), size * (np.arange(rows) % m != 0))
        self._flat = flat
        guide = np.zeros((rows, GUIDE), dtype=np.int64)
        cuts = np.arange(GUIDE) / GUIDE
        for r in range(rows):
            if r % m == 0:
                continue
            cdf = flat[start[r] : start[r] + size[r]]
            guide[r] = start[r] + np.minimum(np.searchsorted(cdf, cuts, side="right"), size[r] - 1)
        self._guide = guide
        self._end = start + size - 1

    def _roll(
        self,
        steps: np.ndarray,
        rng: np.random.Generator,
        karma: np.ndarray | None = None,
        karma_step: int = 0,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Step tests, one per lane: (total, Rule of One), every die exploding (p.371).

        Each lane's raw sum is drawn by inverting its exact distribution (the dice of its step, plus the
        Karma die where ``karma`` is set; explosions deep enough that what is cut weighs under 1e-13). The
        Rule of One is every die's first face a 1, which is exactly the lowest raw sum (a 1 never
        explodes); the total is never below the edition's floor.
        """
        rows = np.clip(steps, 1, self.max_step)
        high = int(rows.max()) if rows.size else 1
        if high > self._top:
            self._build_tables(list(self._karma_index), min(self.max_step, max(high, 2 * self._top)))
        if karma is not None and karma_step and karma.any():
            rows = rows + np.where(karma, self._karma_index[karma_step] * (self._top + 1), 0)
        u = rng.random(rows.shape[0])
        at = self._guide[rows, (u * GUIDE).astype(np.int64)]
        flat = self._flat
        ends = self._end[rows]
        idx = np.flatnonzero((flat[at] <= u) & (at < ends))
        if idx.size:
            end = ends[idx]
            while idx.size:
                at[idx] += 1
                more = (flat[at[idx]] <= u[idx]) & (at[idx] < end)
                idx, end = idx[more], end[more]
        pos = at - self._start[rows]
        raw = self._low[rows] + pos
        ones = (pos == 0) & (self._rows_ndice[rows] >= self.edition.rule_of_one_min_dice)
        floor = self.edition.result_floor
        if floor is not None:
            np.maximum(raw, floor, out=raw)
        return raw, ones

    # ----- a batch of fights -------------------------------------------------------------------------
    def run(self, n: int, rng: np.random.Generator) -> Tally:
        K = self.k  # noqa: N806
        dmg = np.zeros((2, n), dtype=np.int64)
        wounds = np.zeros((2, n), dtype=np.int64)
        karma = np.array([[K[0].karma0], [K[1].karma0]], dtype=np.int64) * np.ones((1, n), dtype=np.int64)
        down = np.zeros((2, n), dtype=bool)
        status = np.zeros((2, n), dtype=np.int8)  # 0 active, 1 unconscious, 2 dead, 3 fled
        live = np.ones(n, dtype=bool)
        rounds = np.zeros(n, dtype=np.int64)
        winner = np.full(n, -1, dtype=np.int64)
        dealt = [0, 0]
        taken = [0, 0]
        wounds_total = [0, 0]

        for rnd in range(1, self.max_rounds + 1):
            lanes = np.flatnonzero(live)
            if lanes.size == 0:
                break
            rounds[lanes] = rnd
            # Initiative (p.371)
            value = []
            forced = []
            for i in (0, 1):
                w = wounds[i, lanes] if self.wound_penalties else np.zeros(lanes.size, dtype=np.int64)
                step = K[i].init_step - np.where(w > 0, w, 0)
                if self.down_initiative:
                    step = step + self.down_initiative * down[i, lanes]
                f = step < 1
                if self.take and not K[i].player:
                    v = step.copy()
                else:
                    v, _ = self._roll(np.where(f, 1, step), rng)
                v = np.where(f, 1, v)
                value.append(v)
                forced.append(f)
            # order key: (forced, -value, player first, -initiative step, -dexterity, id)
            k0 = (0, 0 if K[0].player else 1, -K[0].init_step, -K[0].dexterity, self.ids[0])
            k1 = (0, 0 if K[1].player else 1, -K[1].init_step, -K[1].dexterity, self.ids[1])
            static0_first = k0[1:] < k1[1:]
            zero_first = (forced[0] < forced[1]) | (
                (forced[0] == forced[1]) & ((value[0] > value[1]) | ((value[0] == value[1]) & static0_first))
            )
            for turn in (0, 1):
                for actor in (0, 1):
                    mine = zero_first if actor == 0 else ~zero_first
                    if turn == 1:
                        mine = ~mine
                    sel = lanes[mine]
                    sel = sel[live[sel] & (status[actor, sel] == 0)]
                    if sel.size:
                        self._turn(
                            actor,
                            sel,
                            rng,
                            dmg,
                            wounds,
                            karma,
                            down,
                            status,
                            live,
                            winner,
                            dealt,
                            taken,
                            wounds_total,
                        )
        # tally
        tally = Tally(self.ids, self.sides)
        tally.runs = n
        for s in range(len(self.sides)):
            tally.wins[s] = int(np.count_nonzero(winner == s))
        tally.draws = int(np.count_nonzero(live))
        tally.wipeouts = n - tally.draws - sum(tally.wins)
        vals, counts = np.unique(rounds, return_counts=True)
        tally.rounds = {int(v): int(c) for v, c in zip(vals, counts, strict=True)}
        names = ("active", "unconscious", "dead", "fled")
        for i in (0, 1):
            codes = np.bincount(status[i], minlength=4)
            tally.status[i] = {names[c]: int(codes[c]) for c in range(4) if codes[c]}
        tally.dealt = [int(x) for x in dealt]
        tally.taken = [int(x) for x in taken]
        tally.wounds = [int(x) for x in wounds_total]
        return tally

    def _turn(
        self,
        a: int,
        sel: np.ndarray,
        rng: np.random.Generator,
        dmg: np.ndarray,
        wounds: np.ndarray,
        karma: np.ndarray,
        down: np.ndarray,
        status: np.ndarray,
        live: np.ndarray,
        winner: np.ndarray,
        dealt: list[int],
        taken: list[int],
        wounds_total: list[int],
    ) -> None:
        t = 1 - a
        me, foe = self.k[a], self.k[t]
        # knocked down: stand up (the whole Standard action, p.389)
        is_down = down[a, sel]
        if is_down.any():
            down[a, sel[is_down]] = False
            sel = sel[~is_down]
        # a character in danger runs away and escapes
        flee_at = self._flee[a]
        if flee_at is not None and sel.size:
            run = dmg[a, sel] >= flee_at
            if run.any():
                gone = sel[run]
                status[a, gone] = 3
                live[gone] = False
                winner[gone] = foe.side
                sel = sel[~run]
        if sel.size == 0:
            return
        w_me = np.minimum(wounds[a, sel], MAX_WOUNDS)
        attack_idx, karma_tab = self._tables[a]
        tdown = down[t, sel].astype(np.int64)
        choice = attack_idx[w_me, tdown]
        wants_karma = karma_tab[w_me, tdown]
        single = self._single_choice[a]
        for ai in (single,) if single is not None else np.unique(choice):
            if single is not None:
                lanes, use_k = sel, wants_karma
            else:
                lanes = sel[choice == ai]
                use_k = wants_karma[choice == ai]
            atk = self.attacks[a][int(ai)]
            nattacks = me.actions if atk.kind != "spell" else 1
            for _ in range(nattacks):
                lanes_ok = status[t, lanes] == 0
                lanes, use_k = lanes[lanes_ok], use_k[lanes_ok]
                if lanes.size == 0:
                    break
                self._attack_once(
                    a, atk, lanes, use_k, rng, dmg, wounds, karma, down, status, dealt, taken, wounds_total
                )
                use_k = use_k & (karma[a, lanes] >= 1)
            # the fight ends when the target is out
        out = sel[status[t, sel] != 0]
        if out.size:
            live[out] = False
            winner[out] = me.side

    def _attack_once(
        self,
        a: int,
        atk: Any,
        lanes: np.ndarray,
        use_k: np.ndarray,
        rng: np.random.Generator,
        dmg: np.ndarray,
        wounds: np.ndarray,
        karma: np.ndarray,
        down: np.ndarray,
        status: np.ndarray,
        dealt: list[int],
        taken: list[int],
        wounds_total: list[int],
    ) -> None:
        t = 1 - a
        foe = self.k[t]
        m = lanes.size
        wp = wounds[a, lanes] if self.wound_penalties else np.zeros(m, dtype=np.int64)
        wp = np.where(wp > 0, wp, 0)
        long_range = (not atk.close) and atk.short is not None and atk.short < 2
        step_mod = -wp - (2 if long_range else 0)
        defense = foe.pd if atk.against == "physical" else foe.md if atk.against == "mystic" else foe.sd
        dn = defense - 3 * down[t, lanes].astype(np.int64)
        dn = np.maximum(dn, 1)
        use_k = use_k & (karma[a, lanes] > 0)
        karma[a, lanes[use_k]] -= 1
        total, r1 = self._roll(atk.step + step_mod, rng, use_k, self.k[a].karma_step)
        hit = (total >= dn) & ~r1
        if not hit.any():
            return
        lanes = lanes[hit]
        extra = (total[hit] - dn[hit]) // 5
        dstep = atk.damage + step_mod[hit]
        if atk.against == "physical":
            dstep = dstep + extra * self.edition.extra_success_damage
        raw, _ = self._roll(dstep, rng)
        armor = 0 if atk.armor == "none" else foe.parmor if atk.armor == "physical" else foe.marmor
        amount = np.maximum(raw - armor, 0)
        s = int(amount.sum())
        dealt[a] += s
        taken[t] += s
        pos = amount > 0
        lanes, amount = lanes[pos], amount[pos]
        if lanes.size == 0:
            return
        new_wound = amount >= foe.wt
        wounds[t, lanes[new_wound]] += 1
        wounds_total[t] += int(new_wound.sum())
        dmg[t, lanes] += amount
        cur = dmg[t, lanes]
        dead = cur >= foe.death
        status[t, lanes[dead]] = 2
        if foe.unc is not None:
            unc = ~dead & (cur >= foe.unc)
            status[t, lanes[unc]] = 1
            down[t, lanes[unc]] = True
        else:
            unc = np.zeros(lanes.size, dtype=bool)
        test = ~dead & ~unc & (amount - foe.wt >= 5) & ~down[t, lanes]
        if test.any():
            kl = lanes[test]
            kd_dn = amount[test] - foe.wt
            if self.wound_penalties:
                w_old = wounds[t, kl] - new_wound[test].astype(np.int64)
                kstep = foe.kd_step - np.where(w_old > 0, w_old, 0)
            else:
                kstep = np.full(kl.size, foe.kd_step, dtype=np.int64)
            ktotal, kr1 = self._roll(kstep, rng)
            fell = ~((ktotal >= kd_dn) & ~kr1)
            down[t, kl[fell]] = True


def _exploding_die(sides: int) -> np.ndarray:
    """Probabilities of one exploding die's total, 1, 2, ... (offset: index 0 is a total of 1)."""
    p = 1.0 / sides
    depth = max(1, int(np.ceil(16 / np.log10(sides)))) if sides > 1 else 1
    pmf = np.zeros(depth * sides)
    weight = 1.0
    for level in range(depth):
        base = level * sides
        # faces 1..sides-1 end the die at base + face; the last level also keeps the top face
        pmf[base : base + sides - 1] += weight * p
        if level == depth - 1:
            pmf[base + sides - 1] += weight * p
        weight *= p
    if sides == 1:
        return np.array([1.0])
    return pmf


def build(ruleset: Ruleset, state: FightState) -> Ed4DuelKernel:
    return Ed4DuelKernel(ruleset, state)


kernels.register("ed4", build)

__all__ = ["Ed4DuelKernel", "build"]


def _unused(c: Combatant) -> None:  # pragma: no cover - keeps the TYPE_CHECKING import honest
    del c
