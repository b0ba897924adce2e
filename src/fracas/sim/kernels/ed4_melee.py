"""ED4 core melee, one against one, as a compiled batch kernel (numba, one fight after the other).

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

Everything random is drawn from exact lookup tables built once per encounter: the acting order of a round
(one Bernoulli draw), the damage one attack inflicts after Armor (one alias-table draw covering the Attack
test, the Rule of One, extra successes, the exploding Damage test and Armor), a Knockdown test (one draw).
A compiled loop reads them (numba, ``_duel_loop``: one fight after the other, a few hundred nanoseconds
a fight; 5.7-7.3 million fights per CPU-second measured with benchmarks/bench_ed4_kernel.py). Where numba
is missing the builder refuses the encounter (numba is a dependency; the NumPy lock-step loop that once
stood in is gone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.steps import step_table
from fracas.engine.hexgrid import distance
from fracas.rules.earthdawn.battle_map import inside_minimum, within
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from collections.abc import Iterable

    from fracas.engine.contract import Ruleset
    from fracas.engine.state import Combatant, FightState

# random words per buffer of the compiled loop (512 kB: stays in the cache)
WORDS = 1 << 16
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
_ATTACK_RESOLVERS = {"EarthdawnAttack._r_attack", "wrap_action.<locals>.resolve"}
_OPTIONS = {"take-the-initiative", "group-initiative", "wound-penalties"}
_OFF_OPTIONS = {"long-falls"}  # known, and silent while off
_MARKS = {"senses", "race"}  # only matter in darkness, which the builder refuses


def _names(providers: list[Any]) -> list[str]:
    return [getattr(p, "__name__", repr(p)) for p in providers]


def _check_ruleset(ruleset: Any) -> None:
    from fracas.rules.earthdawn.ruleset import EarthdawnRuleset
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
    # the builder). The chapter may wrap it (``ChapterAware``): what the wrapper adds acts only on combat
    # options from the encounter file (a mark), thrown weapons lying about (a mark), grappling, entangling
    # and declared options, none of which the builder lets in.
    chosen = ruleset.tactics().get("default")
    if type(chosen).__name__ == "ChapterAware":
        chosen = getattr(chosen, "inner", None)
    tactic = type(chosen)
    if not (tactic is Ed4Tactic or (tactic.__name__ == "LegalDefault" and issubclass(tactic, Ed4Tactic))):
        raise Unsupported("the default tactic is not one the kernel mirrors")


def options_and_map_obstacles(
    state: FightState, known: set[str], off: set[str], terrain: Iterable[str] = ()
) -> list[str]:
    """What an ED4 kernel does not model in the encounter's optional rules (``known``: modelled; ``off``:
    silent while off) and map (darkness, cover, blocked or impaired hexes; ``terrain``: the map keys it
    models, of ``light``, ``cover``, ``full_cover``, ``blocked``): one short phrase each, empty when nothing
    (the ED4 duel and group kernels share this)."""
    out = []
    unknown = set(state.options) - known - off
    if unknown:
        out.append(f"optional rules the kernel does not know: {', '.join(sorted(unknown))}")
    on = sorted(k for k in off if state.options.get(k))
    if on:
        out.append(f"optional rules the kernel does not model: {', '.join(on)}")
    mp = state.extra.get("map", {})
    light = mp.get("light", "bright")
    if light != "bright" and "light" not in terrain:
        out.append(f"{light} light")
    for key, what in (("cover", "cover"), ("full_cover", "full cover"), ("blocked", "blocked hexes")):
        if mp.get(key) and key not in terrain:
            out.append(what)
    if mp.get("impaired"):
        out.append("impaired hexes")
    return out


def check_options_and_map(state: FightState, known: set[str], off: set[str]) -> None:
    """Refuses what :func:`options_and_map_obstacles` finds."""
    found = options_and_map_obstacles(state, known, off)
    if found:
        raise Unsupported("; ".join(found))


def _check_state(ruleset: Any, state: FightState) -> None:
    check_options_and_map(state, _OPTIONS, _OFF_OPTIONS)
    if state.phase != "start" or state.declarations:
        raise Unsupported("a fight already started")
    from fracas.rules.ed4.features.readers import entangling as chapter_entangling
    from fracas.rules.ed4.ruleset import Ed4Ruleset

    entangling = chapter_entangling if isinstance(ruleset, Ed4Ruleset) else None  # the chapter's nets
    for c in state.combatants.values():
        if c.hidden or c.altitude or set(c.marks) - _MARKS:
            raise Unsupported(f"{c.id}: hidden, flying, mounted or otherwise marked")
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
    return not (a.long is None or not within(1, a.long) or inside_minimum(1, a.minimum))


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
                    ruleset.movement_hexes(state, c),  # type: ignore[attr-defined]
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
        self._flee = [self._flee_rule(state, 0), self._flee_rule(state, 1)]
        self._tables = [self._choice_table(0), self._choice_table(1)]
        for i, (attack_idx, _) in enumerate(self._tables):
            for ai in np.unique(attack_idx):
                if self.attacks[i][int(ai)].kind == "thrown":
                    raise Unsupported(
                        f"{cs[i].id}: may throw its {self.attacks[i][int(ai)].name}, which is then gone "
                        "(thrown weapons are not in the kernel)"
                    )
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
        self._build()
        loop = _jitted()
        if loop is None:
            raise Unsupported("numba is not installed")
        # compile (or load from numba's cache) now, before any fork: no fight played
        z = np.zeros(2, dtype=np.int64)
        loop(0, np.zeros(0, np.uint64), *self._jit_args, z, z, np.zeros((2, 4), np.int64), z, z)

    # ----- what the tactic decides, as lookup tables ------------------------------------------------
    def _flee_rule(self, state: FightState, i: int) -> int | None:
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
        reach = max(foe.mv, self.ruleset.movement_hexes(state, down))  # type: ignore[attr-defined]
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

    def _pmf(self, step: int, karma_step: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
        """(totals, their probabilities, P(Rule of One)) of one step test, every die exploding (p.371).

        The step is held to the table's 1..max; the total is never below the edition's floor. The Rule of
        One (every die's first face a 1) is exactly the lowest raw sum, a 1 never exploding; its weight is
        part of the lowest total's."""
        step = min(max(int(step), 1), self.max_step)
        key = (step, karma_step)
        got = self._pmfs.get(key)
        if got is None:
            low, cdf, nd = self._dist(step, karma_step)
            pmf = np.diff(cdf, prepend=0.0)
            totals = low + np.arange(pmf.size, dtype=np.int64)
            floor = self.edition.result_floor
            if floor is not None:
                totals = np.maximum(totals, floor)
            r1 = float(pmf[0]) if nd >= self.edition.rule_of_one_min_dice else 0.0
            got = self._pmfs[key] = (totals, pmf, r1)
        return got

    def _p_success(self, step: int, dn: int, karma_step: int = 0) -> float:
        """P(total >= dn and not the Rule of One)."""
        totals, pmf, r1 = self._pmf(step, karma_step)
        p = float(pmf[totals >= dn].sum())
        if totals[0] >= dn:
            p -= r1
        return min(max(p, 0.0), 1.0)

    def _amount_pmf(self, i: int, ai: int, w: int, down_t: int, karma: bool) -> np.ndarray:
        """Distribution of the damage one attack of combatant ``i`` inflicts after Armor (0: a miss, the
        Rule of One, or Armor stopping it), attacker with ``w`` Wounds, target knocked down or not."""
        atk = self.attacks[i][ai]
        foe = self.k[1 - i]
        wp = w if self.wound_penalties else 0
        long_range = (not atk.close) and atk.short is not None and not within(1, atk.short)
        mod = -wp - (2 if long_range else 0)
        defense = foe.pd if atk.against == "physical" else foe.md if atk.against == "mystic" else foe.sd
        dn = max(defense - 3 * down_t, 1)
        totals, pmf, r1 = self._pmf(atk.step + mod, self.k[i].karma_step if karma else 0)
        p = pmf.copy()
        p[0] -= r1
        hit = totals >= dn
        armor = 0 if atk.armor == "none" else foe.parmor if atk.armor == "physical" else foe.marmor
        parts = []
        extra = (totals[hit] - dn) // 5
        p_hit = p[hit]
        for e in np.unique(extra):
            mass = float(p_hit[extra == e].sum())
            if mass <= 0:
                continue
            dstep = atk.damage + mod
            if atk.against == "physical":
                dstep += int(e) * self.edition.extra_success_damage
            dt, dp, _ = self._pmf(dstep)
            parts.append(np.bincount(np.maximum(dt - armor, 0), weights=dp * mass))
        out = np.zeros(max([1] + [q.size for q in parts]))
        for q in parts:
            out[: q.size] += q
        out[0] += max(1.0 - float(out.sum()), 0.0)  # misses and the Rule of One
        return out / out.sum()

    def _build(self) -> None:
        """The lookup tables one lane-round reads: the acting order, every attack's damage (alias tables),
        the Knockdown tests, the tactic's choice of attack and Karma."""
        self._pmfs: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, float]] = {}
        K = self.k  # noqa: N806
        # Wounds never exceed Death Rating // Wound Threshold + 1: each Wound but the last comes with at
        # least the Wound Threshold of damage and the combatant is still alive.
        self.W = max(k.death // max(k.wt, 1) + 1 for k in K)
        W1 = self.W + 1  # noqa: N806
        na = max(len(a) for a in self.attacks)
        self.max_actions = max(k.actions for k in K)
        self.uses_karma = any(K[i].karma0 > 0 and bool(self._tables[i][1][:W1].any()) for i in (0, 1))
        # damage tables: row ((((i * na + ai) * W1 + w) * 2 + down_t) * 2 + karma)
        pmfs = []
        for i in (0, 1):
            for ai in range(na):
                ok = ai < len(self.attacks[i]) and _attack_ok_adjacent(self.attacks[i][ai])
                for w in range(W1):
                    for d in (0, 1):
                        for kk in (0, 1):
                            pmfs.append(self._amount_pmf(i, ai, w, d, bool(kk)) if ok else np.array([1.0]))
        width = max(p.size for p in pmfs)
        self.amax = width - 1
        # cells per row: a power of two, so a 64-bit random word gives the cell (top bits) and the uniform
        # that keeps it or takes its alias (the other bits, compared with an integer threshold)
        self._bits = max(1, int(width - 1).bit_length())
        cells = 1 << self._bits
        keep = np.zeros((len(pmfs), cells), dtype=np.uint64)
        alias_of = np.zeros((len(pmfs), cells), dtype=np.int16)
        for r, p in enumerate(pmfs):
            prob, alias = _alias(np.pad(p, (0, cells - p.size)))
            keep[r] = _threshold(prob, 64 - self._bits)
            alias_of[r] = alias
        self._keep = keep.ravel()
        self._alias_of = alias_of.ravel()
        # the tactic's choice at the start of the turn, by (i, w, target down): the row base and Karma
        base = np.zeros((2, W1, 2), dtype=np.intp)
        want = np.zeros((2, W1, 2), dtype=bool)
        for i in (0, 1):
            attack_idx, karma_tab = self._tables[i]
            for w in range(W1):
                for d in (0, 1):
                    ai = int(attack_idx[min(w, MAX_WOUNDS), d])
                    base[i, w, d] = ((i * na + ai) * W1 + w) * 4
                    want[i, w, d] = bool(karma_tab[min(w, MAX_WOUNDS), d]) and K[i].karma0 > 0
        self._choice_base = base.ravel()
        self._choice_karma = want.ravel()
        # Knockdown: P(the test fails) by (i, Wounds before the hit, DN = damage - Wound Threshold)
        self._kdw = width
        kd = np.ones((2, W1, width))
        for i in (0, 1):
            for w in range(W1):
                step = K[i].kd_step - (w if self.wound_penalties else 0)
                for dn in range(5, width):
                    kd[i, w, dn] = 1.0 - self._p_success(step, dn)
        self._kd = _threshold(kd.ravel(), 53)
        # Initiative: P(X acts before Y) by (X is combatant 1, X's Wounds, X down, Y's Wounds, Y down)
        first = np.zeros((2, W1, 2, W1, 2))
        dists = [[[self._initiative(i, w, d) for d in (0, 1)] for w in range(W1)] for i in (0, 1)]
        k0 = (0 if K[0].player else 1, -K[0].init_step, -K[0].dexterity, self.ids[0])
        k1 = (0 if K[1].player else 1, -K[1].init_step, -K[1].dexterity, self.ids[1])
        static0_first = k0 < k1
        for w0 in range(W1):
            for d0 in (0, 1):
                f0, v0 = dists[0][w0][d0]
                for w1 in range(W1):
                    for d1 in (0, 1):
                        f1, v1 = dists[1][w1][d1]
                        if f0 != f1:
                            p0 = 1.0 if f1 else 0.0
                        else:
                            n = max(v0.size, v1.size)
                            a, b = np.pad(v0, (0, n - v0.size)), np.pad(v1, (0, n - v1.size))
                            below1 = np.cumsum(b) - b  # P(v1 < v)
                            p0 = float((a * below1).sum() + (a * b).sum() * static0_first)
                        first[0, w0, d0, w1, d1] = p0
                        first[1, w1, d1, w0, d0] = 1.0 - p0
        self._first = _threshold(first.ravel(), 53)
        self._wt = np.array([k.wt for k in K], dtype=np.int16)
        self._death = np.array([k.death for k in K], dtype=np.int16)
        self._unc = np.array([k.unc if k.unc is not None else 32767 for k in K], dtype=np.int16)
        self._actions = np.array([k.actions for k in K], dtype=np.int16)
        self._flee_at = np.array([f if f is not None else 32767 for f in self._flee], dtype=np.int16)
        self._side = np.array([k.side for k in K], dtype=np.int8)
        # what a Current Damage means for combatant i: row i of 0 (up), 1 (unconscious), 2 (dead)
        span = max(k.death for k in K) + width + 1
        fate = np.zeros((2, span), dtype=np.int8)
        for i, k in enumerate(K):
            cur = np.arange(span)
            fate[i] = np.where(
                cur >= k.death, 2, np.where(cur >= (k.unc if k.unc is not None else span), 1, 0)
            )
        self._fate = fate.ravel()
        # the compiled loop's tables (combatant 0's view of the acting order; int64 for plain indexing)
        self._jit_args = (
            self._first[: W1 * 2 * W1 * 2].copy(),
            self._choice_base.astype(np.int64),
            self._choice_karma.astype(np.bool_),
            self._keep,
            self._alias_of,
            self._bits,
            self._kd,
            self._kdw,
            self._fate.astype(np.int64),
            span,
            self._wt.astype(np.int64),
            self._actions.astype(np.int64),
            self._flee_at.astype(np.int64),
            self._side.astype(np.int64),
            np.array([k.karma0 for k in K], dtype=np.int64),
            self.max_rounds,
            W1,
        )

    def _initiative(self, i: int, w: int, down: int) -> tuple[bool, np.ndarray]:
        """(acts last at 1, distribution of the Initiative result by value) of combatant ``i`` (p.371)."""
        me = self.k[i]
        step = me.init_step - (w if self.wound_penalties else 0) + self.down_initiative * down
        if step < 1:
            v = np.zeros(2)
            v[1] = 1.0
            return True, v
        if self.take and not me.player:
            v = np.zeros(step + 1)
            v[step] = 1.0
            return False, v
        totals, pmf, _ = self._pmf(step)
        v = np.zeros(int(totals.max()) + 1)
        np.add.at(v, totals, pmf)
        return False, v

    # ----- a batch of fights -------------------------------------------------------------------------
    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """Plays ``n`` fights with the compiled loop, one fight after the other from buffers of ``WORDS``
        random words following each other in ``rng``."""
        loop = _jitted()
        assert loop is not None  # the builder checked
        return self._run_compiled(loop, n, rng)

    def _run_compiled(self, loop: Any, n: int, rng: np.random.Generator) -> Tally:
        hist = np.zeros(self.max_rounds + 1, dtype=np.int64)
        wins = np.zeros(len(self.sides) + 1, dtype=np.int64)  # by side, then none (a draw)
        codes = np.zeros((2, 4), dtype=np.int64)
        dsum = np.zeros(2, dtype=np.int64)
        wsum = np.zeros(2, dtype=np.int64)
        # words a fight may need at most: a word per round for the acting order, per attack two (the
        # damage, a Knockdown test)
        need = self.max_rounds * (1 + 4 * self.max_actions)
        words = max(WORDS, 2 * need)
        done = 0
        while done < n:
            raw = rng.bit_generator.random_raw(words)
            got, _ = loop(n - done, raw, *self._jit_args, hist, wins, codes, dsum, wsum)
            done += got
        tally = Tally(self.ids, self.sides)
        tally.runs = n
        for s in range(len(self.sides)):
            tally.wins[s] = int(wins[s])
        tally.draws = int(wins[-1])
        tally.wipeouts = n - tally.draws - sum(tally.wins)
        tally.rounds = {r: int(c) for r, c in enumerate(hist) if c}
        names = ("active", "unconscious", "dead", "fled")
        for i in (0, 1):
            tally.status[i] = {names[c]: int(codes[i, c]) for c in range(4) if codes[i, c]}
        tally.dealt = [int(dsum[1]), int(dsum[0])]
        tally.taken = [int(dsum[0]), int(dsum[1])]
        tally.wounds = [int(wsum[0]), int(wsum[1])]
        tally.losses_of_one_each([k.side for k in self.k])
        return tally


def _threshold(p: np.ndarray, bits: int) -> np.ndarray:
    """Probabilities as integer thresholds: a uniform ``bits``-bit integer is below ``t`` with chance
    ``p`` (to 2**-bits; 1 maps to 2**bits, never reached)."""
    return np.floor(np.clip(p, 0.0, 1.0) * float(1 << bits)).astype(np.uint64)


def _alias(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table of a distribution on 0..len(p)-1 (Vose's construction): draw ``x = u * len``,
    ``j = floor(x)``; the outcome is ``j`` if ``x - j < prob[j]``, else ``alias[j]``. Exact, one draw."""
    k = p.size
    q = (p * (k / p.sum())).tolist()
    prob = [1.0] * k
    alias = list(range(k))
    small = [i for i in range(k) if q[i] < 1.0]
    large = [i for i in range(k) if q[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        prob[s], alias[s] = q[s], g
        q[g] -= 1.0 - q[s]
        (small if q[g] < 1.0 else large).append(g)
    # what rounding leaves (small or large) keeps its own cell: its weight is 1 up to float error
    return np.array(prob), np.array(alias, dtype=np.int16)


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


# ----- the compiled loop (numba) ----------------------------------------------------------------------
def _duel_loop(  # noqa: PLR0913, PLR0912, PLR0915 - one flat loop, compiled as a whole
    n: int,
    raw: np.ndarray,
    first: np.ndarray,
    cbase: np.ndarray,
    ckarma: np.ndarray,
    keep: np.ndarray,
    alias: np.ndarray,
    bits: int,
    kd: np.ndarray,
    kdw: int,
    fate: np.ndarray,
    span: int,
    wt: np.ndarray,
    actions: np.ndarray,
    flee_at: np.ndarray,
    side: np.ndarray,
    karma0: np.ndarray,
    max_rounds: int,
    w1: int,
    hist: np.ndarray,
    wins: np.ndarray,
    codes: np.ndarray,
    dsum: np.ndarray,
    wsum: np.ndarray,
) -> tuple[int, int]:
    """Plays up to ``n`` fights one after the other with the random words ``raw``, adding their outcomes
    to ``hist`` (fights by round), ``wins`` (by side; the last cell: none), ``codes`` (final status by
    combatant), ``dsum``/``wsum`` (damage and Wounds taken by combatant). Returns (fights played, words
    used); it stops before a fight that could run out of words (at most ``need`` a fight).

    The kernel's lookup tables, read one fight at a time: one word for the
    acting order each round (P(combatant 0 first) by both Wounds and knocked-down states), one per attack
    (an alias-table draw of the damage after Armor), one per Knockdown test."""
    s11 = np.uint64(11)
    shift = np.uint64(64 - bits)
    mask = np.uint64((1 << (64 - bits)) - 1)
    cells = 1 << bits
    need = max_rounds * (1 + 2 * max(actions[0], actions[1]) * 2)
    dmg = np.zeros(2, dtype=np.int64)
    wnd = np.zeros(2, dtype=np.int64)
    down = np.zeros(2, dtype=np.int64)
    karma = np.zeros(2, dtype=np.int64)
    st = np.zeros(2, dtype=np.int64)
    pos = 0
    done = 0
    size = raw.size
    while done < n and pos + need <= size:
        for i in range(2):
            dmg[i] = 0
            wnd[i] = 0
            down[i] = 0
            karma[i] = karma0[i]
            st[i] = 0
        winner = -1
        rnd = 0
        while rnd < max_rounds:
            rnd += 1
            u = raw[pos]
            pos += 1
            zero_first = (u >> s11) < first[((wnd[0] * 2 + down[0]) * w1 + wnd[1]) * 2 + down[1]]
            for slot in range(2):
                a = 0 if (slot == 0) == zero_first else 1
                t = 1 - a
                if down[a]:  # knocked down: standing up is the whole Standard action (p.389)
                    down[a] = 0
                    continue
                if dmg[a] >= flee_at[a]:  # the tactic runs away, and escapes
                    st[a] = 3
                    winner = side[t]
                    break
                cb = (a * w1 + wnd[a]) * 2 + down[t]
                r0 = cbase[cb]
                wants = ckarma[cb]
                for _k in range(actions[a]):
                    row = r0 + down[t] * 2
                    if wants and karma[a] > 0:
                        karma[a] -= 1
                        row += 1
                    u = raw[pos]
                    pos += 1
                    j = np.int64(u >> shift)
                    cell = row * cells + j
                    amount = j if (u & mask) < keep[cell] else np.int64(alias[cell])
                    neww = 1 if amount >= wt[t] else 0
                    w_old = wnd[t]
                    wnd[t] += neww
                    dmg[t] += amount
                    code = fate[t * span + dmg[t]]
                    if code:
                        st[t] = code
                        winner = side[a]
                        break
                    over = amount - wt[t]
                    if over >= 5 and not down[t]:
                        u = raw[pos]
                        pos += 1
                        if (u >> s11) < kd[(t * w1 + w_old) * kdw + over]:
                            down[t] = 1
                if winner >= 0:
                    break
            if winner >= 0:
                break
        hist[rnd] += 1
        if winner >= 0:
            wins[winner] += 1
        else:
            wins[wins.size - 1] += 1
        for i in range(2):
            codes[i, st[i]] += 1
            dsum[i] += dmg[i]
            wsum[i] += wnd[i]
        done += 1
    return done, pos


_JIT: Any = None


def _jitted() -> Any:
    """The compiled loop (numba, cached on disk), or None where numba is not installed."""
    global _JIT
    if _JIT is None:
        try:
            import numba
        except ImportError:
            _JIT = False
        else:
            try:  # compiled once, then loaded from numba's cache (beside this file, or the user's cache)
                _JIT = numba.njit(cache=True, nogil=True)(_duel_loop)
            except RuntimeError:  # nowhere to write the cache: compile in each process
                _JIT = numba.njit(nogil=True)(_duel_loop)
    return _JIT or None


def build(ruleset: Ruleset, state: FightState) -> Ed4DuelKernel:
    cs = list(state.combatants.values())
    if len(cs) != 2 or cs[0].side == cs[1].side:
        raise Unsupported("")  # not a duel: the group kernel, tried next, says what it does not model
    return Ed4DuelKernel(ruleset, state)


kernels.register("ed4", build)

__all__ = ["Ed4DuelKernel", "build"]


def _unused(c: Combatant) -> None:  # pragma: no cover - keeps the TYPE_CHECKING import honest
    del c
