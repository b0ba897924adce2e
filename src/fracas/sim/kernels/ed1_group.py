"""ED1 fights of any size on the hex grid, played as plain Python over the encounter's numbers (no events).

The reference engine spends most of a fight building, folding and narrating events; this kernel keeps a
fight as a few lists (positions, Current Damage, Wounds, knocked down, Karma, Recovery tests, status) and
draws every test from its exact outcome distribution, so it plays the same fights some ten times faster.
It mirrors, for an encounter it accepts, what the engine does with the ``ed1`` ruleset
(``fracas.rules.ed1.ruleset`` on the shared Earthdawn round) and the ED1 tactics ``default``, ``guard``
and ``hold`` (``fracas.rules.ed1.tactics``), ``001_694a1556573a8dc9.txt`` ch.12:

- each round, a Recovery test for a character unconscious for a minute (6 rounds, the shared round);
- declarations (ch.12§Combat-Round.1): an attack on the nearest enemy, standing up when knocked down, a
  retreat when the next hit of an enemy within 2 hexes could kill a character;
- Initiative (ch.12§Combat-Round.2): characters on their Dexterity step less armor and shield, creatures
  on their Initiative step, less the ED1 Wound penalty (Wounds - 1); one test for each group of identical
  gamemaster combatants; order by result, player characters first on a tie, then the roster's order;
- the turn: stand up; retreat at Full Movement (escaping when no enemy could reach him at its Full
  Movement); else the attack the tactic picks on the declared target or one of the four nearest others
  (a Combat Movement first, breadth first round taken hexes; +2 to the DN for a changed declaration, which
  the tactic weighs), with Karma when it raises the chance to hit by 10 points; else a run toward the
  nearest enemy; a rider declares a charge where a straight run reaches his target, and a character at
  whose side a charger comes later reserves his action just below the charger's Initiative (only a
  reserved action may strike a charger); under ``guard`` a combatant holds his ground, strikes what he
  can reach without moving, else reserves his action to Initiative 1; under ``hold`` he does nothing;
- the attack: Attack test against the Physical or Spell Defense (-3 knocked down; +2 a changed
  declaration or a reserved action; a spell is cast once), long
  range -2, the Rule of One (two dice or more), the success level: Excellent or Extraordinary defeats
  armor (option ``armor-defeating-hits``); the Damage test, Armor, a Wound at the Wound Threshold, death,
  unconsciousness, the Knockdown test (earlier Wounds count); a creature with several Actions attacks that
  many times; the fight ends as soon as at most one side stands, a draw at the round limit.

The tactic's path searches (``fracas.engine.pathing``: ``route``, ``towards``, ``away``), its odds
(``p_hit``, ``mean_step``) and the success levels (``level_outcome``) are called, not written again; the
rest is listed in ``mirrors.toml`` [ed1-group]. The builder refuses anything else with the reason
(:func:`build`). tests/sim/test_sim_ed1.py checks kernel and engine against each other, outcome by outcome.
"""

from __future__ import annotations

import bisect
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.engine.hexgrid import distance
from fracas.rules.earthdawn.battle_map import covered_yards, hexes, inside_minimum, range_hexes, within
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

# Modifier providers the kernel knows, by name: mirrored, or silent in what the builder accepts (no
# Harried condition without Stun damage, no reserved action without a charger, the tactic attacks active
# foes only).
_KNOWN_STEP = {"_wound_penalty", "_knocked_down_tests", "_harried_tests", "_long_range"}
_KNOWN_DEFENSE = {"_knocked_down_defense", "_harried_defense", "_unconscious_defense"}
_KNOWN_DN = {"_reserved_dn", "_changed_dn"}
_OPTIONS = {"group-initiative", "wound-penalties", "armor-defeating-hits", "charge-damage"}
_OFF_OPTIONS = {"split-movement"}  # known, and silent while off
_MARKS = {"race"}
ACTIVE, UNCONSCIOUS, DEAD, FLED = 0, 1, 2, 3
_STATUS = ("active", "unconscious", "dead", "fled")
KARMA_GAIN = 0.10  # fracas.rules.ed1.tactics.KARMA_GAIN (read at build)


def _names(providers: list[Any]) -> set[str]:
    return {getattr(p, "__name__", repr(p)) for p in providers}


def obstacles(ruleset: Any, state: FightState) -> list[str]:
    """Every feature of the encounter the kernel does not model, one short phrase each naming the
    combatants concerned (empty when it models them all)."""
    from fracas.rules.ed1.ruleset import Ed1Ruleset
    from fracas.rules.ed1.tactics import Ed1Tactic, GuardTactic, HoldTactic

    out: list[str] = []
    if not isinstance(ruleset, Ed1Ruleset):
        return ["not the ED1 ruleset"]
    steps = set().union(*(_names(v) for v in ruleset.step_providers.values()))
    unknown = sorted(steps - _KNOWN_STEP)
    unknown += sorted(_names(ruleset.defense_providers) - _KNOWN_DEFENSE)
    unknown += sorted(_names(ruleset.dn_providers) - _KNOWN_DN)
    unknown += sorted(_names(ruleset.armor_providers))
    if unknown:
        out.append(f"modifiers the kernel does not mirror: {', '.join(unknown)}")
    attack = ruleset.actions.get("attack")
    if attack is None or getattr(attack.resolve, "__name__", "") != "_r_attack_ed1":
        out.append("the attack action is not one the kernel mirrors")
    known = {"default": Ed1Tactic, "guard": GuardTactic, "hold": HoldTactic}
    tactics = ruleset.tactics()
    mirrored = {name for name, cls in known.items() if type(tactics.get(name)) is cls}
    unknown_opts = set(state.options) - _OPTIONS - _OFF_OPTIONS
    if unknown_opts:
        out.append(f"optional rules the kernel does not know: {', '.join(sorted(unknown_opts))}")
    on = sorted(k for k in _OFF_OPTIONS if state.options.get(k))
    if on:
        out.append(f"optional rules the kernel does not model: {', '.join(on)}")
    # the map: blocked hexes are mirrored (engine.taken.blocked); cover, full cover, light and impaired
    # hexes change nothing in the ED1 rules held (no provider reads them)
    if state.phase != "start" or state.declarations or state.round:
        out.append("a fight already started")
    if len(state.sides) < 2:
        out.append("fewer than two sides")
    found: dict[str, list[str]] = {}

    def note(what: str, who: str) -> None:
        found.setdefault(what, []).append(who)

    taken: set[tuple[int, int]] = set()
    for c in state.combatants.values():
        p = c.stats
        if c.tactic not in mirrored:
            note(f"tactic {c.tactic} (the kernel mirrors {', '.join(sorted(mirrored))})", c.id)
        if set(c.marks) - _MARKS:
            note(f"marked {', '.join(sorted(set(c.marks) - _MARKS))}", c.id)
        if c.status != "active" or c.conditions:
            note("not active and unhurt at the start", c.id)
        if any(c.counters.get(k, 0) for k in ("damage", "wounds", "stun", "strain", "recovery_used")):
            note("starts hurt or with Recovery tests used", c.id)
        if c.pos is None:
            note("no position", c.id)
        elif c.pos in taken:
            note("shares a hex", c.id)
        else:
            taken.add(c.pos)
        if p.kind not in ("character", "creature"):
            note(f"kind {p.kind}", c.id)
        if not p.attacks:
            note("no attack", c.id)
        for a in p.attacks:
            # ED1 keeps a thrown weapon: a shot; a spell attack is a shot against Spell Defense
            if not a.close and a.kind not in ("missile", "thrown", "spell"):
                note(f"{a.kind} attacks", f"{c.id}: {a.name}")
            if a.stun:
                note("Stun damage", f"{c.id}: {a.name}")
            if a.against not in ("physical", "mystic") or a.armor not in ("physical", "mystic", "none"):
                note("attacks against Social Defense or another armor", f"{c.id}: {a.name}")
    for what, who in found.items():
        names = ", ".join(who[:2]) + (f" and {len(who) - 2} more" if len(who) > 2 else "")
        out.append(f"{what}: {names}")
    return out


class _Test:
    """A step test's exact outcomes (:func:`fracas.sim.kernels.ed4_group.step_outcomes`): totals, whether
    the Rule of One struck, and the cumulative chances a uniform draw is looked up in."""

    __slots__ = ("cum", "ones", "totals")

    def __init__(self, dice: tuple[int, ...], modifier: int, floor: int, min_ones: int) -> None:
        from fracas.sim.kernels.ed4_group import step_outcomes

        vals, probs = step_outcomes(dice, modifier, floor, min_ones)
        self.totals = [int(v) >> 1 for v in vals]
        self.ones = [bool(v & 1) for v in vals]
        cum = np.cumsum(probs)
        cum[-1] = 1.0
        self.cum = [float(x) for x in cum]


class Ed1GroupKernel:
    """ED1 close and missile combat, any number of combatants and sides; see the module docstring."""

    name = "ed1-group"

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        from fracas.dice.steps import MAX_STEP, step_table
        from fracas.rules.ed1 import tactics

        found = obstacles(ruleset, state)
        if found:
            raise Unsupported("; ".join(found))
        global KARMA_GAIN
        KARMA_GAIN = tactics.KARMA_GAIN
        rs: Any = ruleset
        self.ruleset = rs
        edition = rs.edition
        self._table = step_table(edition.steps)
        self._floor = edition.result_floor
        self._min_ones = edition.rule_of_one_min_dice
        self._minute = edition.rounds_per_minute
        self._max_step = MAX_STEP
        self._tests: dict[tuple[int, int], _Test] = {}
        self._routes: dict[tuple[Any, ...], list[tuple[int, int]] | None] = {}
        self._lines: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
        self.plans: dict[tuple[Any, ...], Any] = {}  # _Fight._best_attack's choices
        cs = list(state.combatants.values())
        self.ids = tuple(c.id for c in cs)
        self.sides = tuple(state.sides)
        self.max_rounds = int(state.max_rounds)
        self.chunk = 1000  # fights per chunk: about a third of a second, so two workers share 10,000 evenly
        opts = state.options
        self.wound_penalties = bool(opts.get("wound-penalties", True))
        self.group = bool(opts.get("group-initiative", True))
        self.armor_defeating = bool(opts.get("armor-defeating-hits", True))
        self.side_of = [self.sides.index(c.side) for c in cs]
        self.player = [bool(c.player) for c in cs]
        self.profiles = [c.stats for c in cs]
        self.pos0: list[tuple[int, int]] = [c.pos for c in cs if c.pos is not None]  # none unplaced
        self.karma0 = [int(c.counters.get("karma", 0)) for c in cs]
        # the Initiative step before Wounds: Dexterity step, armor, shield, talents
        # (Ed1Ruleset.initiative_step on the fresh state, where no step provider speaks)
        self.init_step = []
        for c in cs:
            base, mods = rs.initiative_step(state, c, None)
            self.init_step.append(base + sum(m.value for m in mods))
        self.group_key = [
            (c.side, c.template) if self.group and c.template and not c.player else None for c in cs
        ]
        self.move = [hexes(p.movement) for p in self.profiles]  # EarthdawnRuleset.movement_hexes
        self.full = [hexes(int(getattr(p, "full_movement", 2 * p.movement))) for p in self.profiles]
        self.character = [p.kind == "character" for p in self.profiles]
        self.tactic = [c.tactic for c in cs]  # default, guard or hold (tactics.TACTICS)
        # a flier's height (yards): only the minimum range reads it (battle_map.range_hexes); ED1 fliers keep
        # it (the tactics declare no swoop)
        self.alt = [int(c.altitude) for c in cs]
        self.hidden = [bool(c.hidden) for c in cs]
        self.map_blocked = frozenset(
            (int(h[0]), int(h[1])) for h in state.extra.get("map", {}).get("blocked", ()) or ()
        )
        self.rider = [bool(getattr(p, "mount", None)) for p in self.profiles]
        self.mount_strength = [int(getattr(p, "mount_strength", 0)) for p in self.profiles]
        self.has_close = [any(a.close for a in p.attacks) for p in self.profiles]
        self.charge_damage = bool(opts.get("charge-damage", True))
        # Ed1Tactic.in_danger's worst average hit of j on i, after i's armor
        self.worst = [
            [max(tactics.mean_step(a.damage) - p.physical_armor for a in q.attacks) for q in self.profiles]
            for p in self.profiles
        ]

    # ----- dice -----------------------------------------------------------------------------------------
    def _test(self, step: int, karma_step: int = 0) -> _Test:
        key = (step, karma_step)
        t = self._tests.get(key)
        if t is None:
            row = self._table[min(max(step, 1), self._max_step)]
            dice, mod = row.dice, row.modifier
            if karma_step:
                k = self._table[karma_step]
                dice, mod = dice + k.dice, mod + k.modifier
            t = self._tests[key] = _Test(tuple(dice), int(mod), self._floor, self._min_ones)
        return t

    def _roll(self, rnd: random.Random, step: int, karma_step: int = 0) -> tuple[int, bool]:
        """A test at ``step`` (below 1 rolled at 1, combat.run_test) plus a Karma die: the total and
        whether the Rule of One struck."""
        t = self._test(step if step > 1 else 1, karma_step)
        i = bisect.bisect_right(t.cum, rnd.random())
        if i >= len(t.totals):
            i = len(t.totals) - 1
        return t.totals[i], t.ones[i]

    def route(
        self, here: tuple[int, int], goal: tuple[int, int], blocked: frozenset[tuple[int, int]], limit: int
    ) -> list[tuple[int, int]] | None:
        """The tactic's shortest way next to ``goal`` within ``limit`` hexes (``pathing.route``, stop 1, no
        margin or reach), remembered: the same few hexes and bodies come back fight after fight (every fight
        starts from the same places), and the search is most of a turn's cost."""
        from fracas.engine import pathing

        key = (here, goal, blocked, limit)
        routes = self._routes
        got = routes.get(key, False)
        if got is False:
            if len(routes) > 200_000:
                routes.clear()
            got = routes[key] = pathing.route(here, goal, blocked, 1, limit, margin=None, reach=None)
        return got  # type: ignore[return-value]

    def between(self, a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
        """``hexgrid.between`` (the hexes of the line strictly between), remembered as :meth:`route` is."""
        from fracas.engine.hexgrid import between

        got = self._lines.get((a, b))
        if got is None:
            if len(self._lines) > 200_000:
                self._lines.clear()
            got = self._lines[(a, b)] = between(a, b)
        return got

    # ----- the fights -----------------------------------------------------------------------------------
    def compile(self) -> float:
        return 0.0

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """Plays ``n`` fights with one Mersenne Twister seeded from ``rng`` (two 64-bit words)."""
        words = rng.bit_generator.random_raw(2)
        rnd = random.Random(int(words[0]) << 64 | int(words[1]))
        ns, nc = len(self.sides), len(self.ids)
        tally = Tally(self.ids, self.sides)
        tally.runs = n
        status_counts = [[0, 0, 0, 0] for _ in range(nc)]
        for _ in range(n):
            fight = _Fight(self, rnd)
            winner, rounds = fight.play()
            if winner is None:
                if any(st == ACTIVE for st in fight.status):
                    tally.draws += 1
                else:
                    tally.wipeouts += 1
            else:
                tally.wins[winner] += 1
            tally.rounds[rounds] = tally.rounds.get(rounds, 0) + 1
            dead = [0] * ns
            out = [0] * ns
            for i in range(nc):
                st = fight.status[i]
                status_counts[i][st] += 1
                tally.dealt[i] += fight.dealt[i]
                tally.taken[i] += fight.taken[i]
                tally.wounds[i] += fight.wounds[i]
                if st == DEAD:
                    dead[self.side_of[i]] += 1
                if st != ACTIVE:
                    out[self.side_of[i]] += 1
            for s in range(ns):
                tally.side_dead[s][dead[s]] = tally.side_dead[s].get(dead[s], 0) + 1
                tally.side_out[s][out[s]] = tally.side_out[s].get(out[s], 0) + 1
        tally.status = [{_STATUS[s]: k for s, k in enumerate(row) if k} for row in status_counts]
        return tally


def _defense(p: Any, against: str) -> int:
    """tactics._defense / attack_once: the Physical or Spell (mystic) Defense an attack is made against."""
    return int(p.physical_defense if against == "physical" else p.mystic_defense)


def _armor(p: Any, kind: str) -> int:
    """attack_once: the armor a Damage test meets (none, physical or mystic)."""
    return 0 if kind == "none" else int(p.physical_armor if kind == "physical" else p.mystic_armor)


@lru_cache(maxsize=65536)
def _level(total: int, dn: int, success: bool) -> str | None:
    from fracas.rules.ed1.round import level_outcome

    return level_outcome(total, dn, success, False)[1]


class _End(Exception):  # noqa: N818 - a signal: the fight is over
    pass


class _Fight:
    """One fight's state and its rounds (the engine's round, the ED1 rules and Ed1Tactic, mirrored)."""

    __slots__ = (
        "damage",
        "dealt",
        "acted",
        "charging",
        "decl",
        "down",
        "init",
        "k",
        "karma",
        "n",
        "pos",
        "rec_tried",
        "rec_used",
        "reserved",
        "rnd",
        "unseen",
        "round",
        "since",
        "status",
        "taken",
        "wounds",
    )

    def __init__(self, k: Ed1GroupKernel, rnd: random.Random) -> None:
        n = len(k.ids)
        self.k = k
        self.rnd = rnd
        self.n = n
        self.pos = list(k.pos0)
        self.status = [ACTIVE] * n
        self.damage = [0] * n
        self.wounds = [0] * n
        self.down = [False] * n
        self.karma = list(k.karma0)
        self.rec_used = [0] * n
        self.rec_tried = [False] * n
        self.since = [0] * n
        self.dealt = [0] * n
        self.taken = [0] * n
        # declared action, target and charge (Ed1Tactic.declare), this round's Initiative, and the round in
        # which each took his turn, charged, reserved his action (marks ed1_charging, ed1_reserved)
        self.decl: list[tuple[str, int, bool]] = [("other", -1, False)] * n
        self.init = [0] * n
        self.acted = [0] * n
        self.charging = [0] * n
        self.reserved = [0] * n
        self.unseen = list(k.hidden)  # hidden and not yet revealed
        self.round = 0

    # ----- the fight --------------------------------------------------------------------------------
    def play(self) -> tuple[int | None, int]:
        k = self.k
        try:
            while True:
                self.round += 1
                self._start_round()
                self._declare()
                self._turns(self._initiative())
                if self.round >= k.max_rounds:
                    return None, self.round
        except _End:
            standing = {k.side_of[i] for i in range(self.n) if self.status[i] == ACTIVE}
            return (next(iter(standing)) if standing else None), self.round

    def _turns(self, order: list[int]) -> None:
        """The turns in the acting order (EarthdawnRound._next_index); a reserved action sorts the rest of
        the order again on the new Initiative (Ed1Round._r_reserve_ed1) and the turn goes on from there."""
        k = self.k
        rnd = self.round
        idx = 0
        while idx < len(order):
            i = order[idx]
            if self.status[i] != ACTIVE or self.acted[i] == rnd:
                idx += 1
                continue
            cmd = self._choose(i)
            if cmd[0] == "reserve":
                self.init[i] = cmd[1]
                self.reserved[i] = rnd
                init, player = self.init, k.player
                order[idx:] = sorted(order[idx:], key=lambda c: (-init[c], 0 if player[c] else 1, c))
                continue
            self._act(i, cmd)
            self.acted[i] = rnd
            idx += 1

    def _check_end(self) -> None:
        """Fight._check_end, after every change of status: at most one side with anyone active."""
        side_of = self.k.side_of
        first = -1
        for i in range(self.n):
            if self.status[i] == ACTIVE:
                if first < 0:
                    first = side_of[i]
                elif side_of[i] != first:
                    return
        raise _End

    def _penalty(self, i: int, new_wounds: int = 0) -> int:
        """Ed1Ruleset._wound_penalty: Wounds - 1 steps, the first Wound free; not the Wound of this hit."""
        if not self.k.wound_penalties:
            return 0
        w = self.wounds[i] - new_wounds
        return w - 1 if w > 1 else 0

    def _start_round(self) -> None:
        """EarthdawnRuleset._start_round: a Recovery test one minute after falling unconscious."""
        k = self.k
        for i in range(self.n):
            if (
                self.status[i] == UNCONSCIOUS
                and not self.rec_tried[i]
                and self.round - self.since[i] >= k._minute
            ):
                self.rec_tried[i] = True
                p = k.profiles[i]
                if self.rec_used[i] >= p.recovery_tests:
                    continue
                total, _ = k._roll(self.rnd, p.recovery_step)
                healed = total - self.wounds[i]
                if healed < 1:
                    healed = 1
                self.rec_used[i] += 1
                self.damage[i] -= min(self.damage[i], healed)
                if p.unconsciousness is not None and self.damage[i] < p.unconsciousness:
                    self.status[i] = ACTIVE

    # ----- the tactic -------------------------------------------------------------------------------
    def _foes(self, i: int) -> list[int]:
        """tactics._enemies: active enemies, but a hidden one until he attacks (marks["revealed"])."""
        side_of, status, unseen = self.k.side_of, self.status, self.unseen
        me = side_of[i]
        return [j for j in range(self.n) if side_of[j] != me and status[j] == ACTIVE and not unseen[j]]

    def _nearest(self, i: int, foes: list[int]) -> int:
        """tactics._nearest: the closest, then the most hurt, then the id."""
        ids, here, pos, dmg = self.k.ids, self.pos[i], self.pos, self.damage
        return min(foes, key=lambda j: (distance(here, pos[j]), -dmg[j], ids[j]))

    def _in_danger(self, i: int, foes: list[int]) -> bool:
        """Ed1Tactic.in_danger: the strongest attack of an enemy within 2 hexes could kill a character."""
        k = self.k
        if not k.character[i]:
            return False
        worst = 0.0
        here, pos, row = self.pos[i], self.pos, k.worst[i]
        for j in foes:
            if row[j] > worst and distance(pos[j], here) <= 2:
                worst = row[j]
        return worst > 0 and self.damage[i] + worst >= k.profiles[i].death

    def _declare(self) -> None:
        """Ed1Tactic.declare, for every active combatant (nothing changes while they declare)."""
        for i in range(self.n):
            if self.status[i] != ACTIVE:
                continue
            foes = self._foes(i)
            if not foes or self.k.tactic[i] == "hold":  # HoldTactic.declare: "other"
                self.decl[i] = ("other", -1, False)
            elif self.down[i]:
                self.decl[i] = ("stand-up", -1, False)
            elif self._in_danger(i, foes):
                self.decl[i] = ("retreat", -1, False)
            else:
                t = self._nearest(i, foes)
                self.decl[i] = ("attack", t, self._can_charge(i, t))

    def _can_charge(self, i: int, t: int) -> bool:
        """Ed1Tactic.can_charge: a rider with a close attack and a straight run to the target."""
        k = self.k
        if not k.rider[i] or not k.has_close[i]:
            return False
        return self._charge_path(i, t, k.move[i]) is not None

    def _charge_path(self, i: int, t: int, limit: int) -> list[tuple[int, int]] | None:
        """tactics.charge_path: the straight line of hexes up to the one before the target, or None."""
        here, there = self.pos[i], self.pos[t]
        if distance(here, there) - 1 > limit:
            return None
        path = self.k.between(here, there)
        if len(path) < 2 or len(path) > limit:
            return None
        blocked = self._blocked(i)
        return None if any(h in blocked for h in path) else path

    def _is_charging(self, j: int) -> bool:
        """Ed1Attack.is_charging: charged this round, or declared a charge and can still make it (his turn
        not taken, active, not knocked down)."""
        if self.charging[j] == self.round:
            return True
        if self.acted[j] == self.round or self.status[j] != ACTIVE or self.down[j]:
            return False
        return self.decl[j][2]

    def _initiative(self) -> list[int]:
        """Ed1Ruleset._initiative: the step less the Wound penalty (at least 1); a group's one test; order
        by result, then player characters, then the roster."""
        k = self.k
        values: dict[int, int] = {}
        groups: dict[tuple[Any, ...], int] = {}
        for i in range(self.n):
            if self.status[i] != ACTIVE:
                continue
            step = k.init_step[i] - self._penalty(i)
            if step < 1:
                step = 1
            g = k.group_key[i]
            if g is not None and (g, step) in groups:
                values[i] = self.init[i] = groups[(g, step)]
                continue
            values[i] = self.init[i] = k._roll(self.rnd, step)[0]
            if g is not None:
                groups[(g, step)] = values[i]
        return sorted(values, key=lambda i: (-values[i], 0 if k.player[i] else 1, i))

    def _blocked(self, i: int) -> frozenset[tuple[int, int]]:
        """engine.taken.blocked: the map's blocked hexes and those held by anyone else not dead or fled."""
        st, pos = self.status, self.pos
        held = frozenset([pos[j] for j in range(self.n) if j != i and st[j] != DEAD and st[j] != FLED])
        return held | self.k.map_blocked if self.k.map_blocked else held

    def _choose(self, i: int) -> tuple[Any, ...]:
        """Ed1Tactic.act: ``("stand-up",)``, ``("end",)``, ``("run", path, flee)`` or ``("attack", target,
        attack, path, karma, dn_plus)``."""
        from fracas.engine import pathing

        k = self.k
        if k.tactic[i] != "default":
            return self._choose_other(i)
        if self.down[i]:
            return ("stand-up",)
        foes = self._foes(i)
        if not foes:
            return ("end",)
        here = self.pos[i]
        nearest = self._nearest(i, foes)
        act, declared, _ = self.decl[i]
        if act == "retreat" or self._in_danger(i, foes):
            path = pathing.away(here, (self.pos[nearest],), k.full[i], self._blocked(i))
            if path:
                return ("run", path, True)
        reserve = self._reserve_against_charge(i, foes)
        if reserve is not None:
            return ("reserve", reserve)
        order = []
        if declared >= 0 and self.status[declared] == ACTIVE and k.side_of[declared] != k.side_of[i]:
            order.append(declared)
        ids, pos = k.ids, self.pos
        others = sorted((j for j in foes if j != declared), key=lambda j: (distance(here, pos[j]), ids[j]))
        order += others[:4]
        for t in order:
            plan = self._attack_plan(i, t, k.move[i])
            if plan is not None:
                return ("attack", t, *plan)
        blocked = self._blocked(i)
        goal = self.pos[nearest]
        found = k.route(here, goal, blocked, k.full[i])
        path = found if found is not None else pathing.towards(here, goal, k.full[i], blocked)
        return ("run", path, False) if path else ("end",)

    def _choose_other(self, i: int) -> tuple[Any, ...]:
        """HoldTactic.act: nothing. GuardTactic.act: stand up; reserve against a charger; attack the
        nearest enemy it can reach without moving; else reserve its action to Initiative 1 (once a round,
        before moving: it never moves)."""
        if self.k.tactic[i] == "hold":
            return ("end",)
        if self.down[i]:
            return ("stand-up",)
        foes = self._foes(i)
        reserve = self._reserve_against_charge(i, foes)
        if reserve is not None:
            return ("reserve", reserve)
        ids, here, pos = self.k.ids, self.pos[i], self.pos
        for t in sorted(foes, key=lambda j: (distance(here, pos[j]), ids[j])):
            plan = self._attack_plan(i, t, 0)
            if plan is not None:
                return ("attack", t, *plan)
        if foes and self.init[i] > 1 and self.reserved[i] != self.round:
            return ("reserve", 1)
        return ("end",)

    def _reserve_against_charge(self, i: int, foes: list[int]) -> int | None:
        """Ed1Tactic.reserve_against_charge: the Initiative just below that of the latest enemy charging at
        this side who acts later this round (only a reserved action can strike a charger)."""
        rnd = self.round
        if self.reserved[i] == rnd:
            return None
        k = self.k
        mine = self.init[i]
        best = None
        for f in foes:
            if self.acted[f] == rnd or not self._is_charging(f):
                continue
            t = self.decl[f][1]
            if t >= 0 and k.side_of[t] != k.side_of[i]:
                continue
            theirs = self.init[f]
            if 1 < theirs < mine and (best is None or theirs > best):
                best = theirs
        return None if best is None else best - 1

    def _act(self, i: int, cmd: tuple[Any, ...]) -> None:
        """The command :meth:`_choose` gave, resolved."""
        what = cmd[0]
        if what == "stand-up":
            self.down[i] = False  # the round's action (the shared Knocked Down rule)
        elif what == "run":
            self.pos[i] = cmd[1][-1]
            if cmd[2]:
                self._flee_check(i)
        elif what == "attack":
            self._attack(i, *cmd[1:])

    def _flee_check(self, i: int) -> None:
        """Ed1Ruleset._flee_check: escaped when no active enemy is within its Full Movement + 1 (a
        knocked-down one crawls 1 hex, Ed1Ruleset.full_hexes)."""
        k = self.k
        me = k.side_of[i]
        for j in range(self.n):
            if (
                k.side_of[j] != me
                and self.status[j] == ACTIVE
                and distance(self.pos[j], self.pos[i]) <= (1 if self.down[j] else k.full[j]) + 1
            ):
                return
        self.status[i] = FLED
        self._check_end()

    def _attack_plan(self, i: int, t: int, move_left: int) -> tuple[Any, list[Any], bool, int, bool] | None:
        """Ed1Tactic.attack_plan: the attack with the most expected damage (a changed declaration or a
        reserved action weighs +2 DN, a charge half the mount's Strength step), where to move first, Karma;
        the DN change the attack brings and whether it is a charge."""
        from fracas.rules.ed1.tactics import p_hit

        k = self.k
        here, there = self.pos[i], self.pos[t]
        d = distance(here, there)
        act, declared, charge = self.decl[i]
        reserved = self.reserved[i] == self.round
        if self._is_charging(t) and not reserved:
            return None  # only a reserved action may attack a charger: every command refused
        # where a close attack can be made from: here, at the end of the straight run of a declared charge
        # (tactics.charge_path) or of the shortest way there (the tactic's route), or nowhere (None)
        close_path: list[Any] | None = None
        if d == 1:
            close_path = []
        elif d - 1 <= move_left and k.has_close[i]:
            straight = self._charge_path(i, t, move_left) if charge else None
            if straight is not None:
                close_path = straight
            else:
                found = k.route(here, there, self._blocked(i), move_left)
                close_path = found or None
        # expected_damage reads Wounds - 1, whatever the wound-penalties option says
        w = self.wounds[i] - 1 if self.wounds[i] > 1 else 0
        key = (
            i, t, d, close_path is not None, close_path is not None and len(close_path) >= 2, w,
            act == "attack" and declared == t, charge, reserved, self.down[t],
        )  # fmt: skip
        choice = k.plans.get(key, False)
        if choice is False:
            choice = k.plans[key] = self._best_attack(i, t, d, close_path, w, key[6], charge, reserved)
        if choice is None:
            return None
        a, charging, plus = choice
        cmd_path = close_path if a.close else []
        karma = False
        if a.karma and self.karma[i] > 0:
            dn0 = _defense(k.profiles[t], a.against)
            ks = k.profiles[i].karma_step
            karma = p_hit(a.step - w, dn0, ks) - p_hit(a.step - w, dn0) >= KARMA_GAIN
        return a, cmd_path, karma, plus, charging  # type: ignore[return-value]

    def _best_attack(
        self,
        i: int,
        t: int,
        d: int,
        close_path: list[Any] | None,
        w: int,
        as_declared: bool,
        charge: bool,
        reserved: bool,
    ) -> tuple[Any, bool, int] | None:
        """attack_plan's scoring (remembered by the kernel: it depends only on the key it is filed under):
        the first attack with the most expected damage, whether it is a charge, and its DN change."""
        from fracas.rules.ed1.tactics import mean_step, p_hit

        k = self.k
        tp = k.profiles[t]
        best = None
        for a in k.profiles[i].attacks:
            if a.close:
                if close_path is None:
                    continue
                charging = charge and len(close_path) >= 2
            else:
                up = range_hexes(d, k.alt[i], k.alt[t])
                if a.long is None or not within(d, a.long) or inside_minimum(up, a.minimum):
                    continue
                charging = False
            # declared_change: another action, target, or a charge declared and not made (or made and not
            # declared); a reserved action's +2 stands instead of it
            changed = not as_declared or charging != charge
            plus = 2 if (changed or reserved) else 0
            dn = _defense(tp, a.against) + plus - (3 if self.down[t] else 0)
            armor = _armor(tp, a.armor)
            score = p_hit(a.step - w, dn, 0) * max(0.5, mean_step(a.damage - w) - armor)
            if charging:
                score += 0.5 * k.mount_strength[i]
            if best is None or score > best[0]:
                best = (score, a, charging, plus)
        return None if best is None else (best[1], best[2], best[3])

    def _attack(self, i: int, t: int, a: Any, path: list[Any], karma: bool, plus: int, charge: bool) -> None:
        """EarthdawnRuleset._r_attack with Ed1Ruleset.attack_once: move, then ``actions`` attacks (until the
        target falls)."""
        k = self.k
        self.unseen[i] = False  # Ed1Attack._r_attack_ed1: a hidden attacker is seen from then on
        if path:
            self.pos[i] = path[-1]
        p = k.profiles[i]
        if charge:
            self.charging[i] = self.round
        for n in range(p.actions if a.kind != "spell" else 1):  # a spell is cast once
            if self.status[t] == DEAD or (n and self.status[t] != ACTIVE):
                break
            self._attack_once(i, t, a, karma, plus, charge)
            if karma and self.karma[i] < 1:
                karma = False
            if self.status[i] != ACTIVE:
                break

    def _attack_numbers(self, i: int, t: int, a: Any, plus: int) -> tuple[int, int, int]:
        """Ed1Ruleset.attack_once's Attack test step and DN, and the long-range step change (-2 or 0) that
        the Damage test also takes: the Wound penalty, long range; knocked down -3, unconscious -2, a changed
        declaration +2 to the DN (at least 1)."""
        tp = self.k.profiles[t]
        yards = distance(self.pos[i], self.pos[t]) * 2
        long_range = 0 if (a.close or a.short is None or yards <= covered_yards(a.short)) else -2
        step = a.step - self._penalty(i) + long_range
        dn = _defense(tp, a.against) + plus - (3 if self.down[t] else 0)
        if self.status[t] == UNCONSCIOUS:
            dn -= 2
        return step, (dn if dn > 1 else 1), long_range

    def _attack_once(self, i: int, t: int, a: Any, karma: bool, plus: int, charge: bool) -> None:
        k = self.k
        rnd = self.rnd
        step, dn, long_range = self._attack_numbers(i, t, a, plus)
        use_karma = karma and self.karma[i] > 0
        total, ones = k._roll(rnd, step, k.profiles[i].karma_step if use_karma else 0)
        if use_karma:
            self.karma[i] -= 1
        if ones or total < dn:
            return
        level = _level(total, dn, True)
        # a charging rider adds his mount's Strength step (option charge-damage)
        mount = k.mount_strength[i] if (charge and k.charge_damage) else 0
        raw, _ = k._roll(rnd, a.damage - self._penalty(i) + long_range + mount)
        armor = _armor(k.profiles[t], a.armor)
        if armor and a.armor == "physical" and k.armor_defeating and level in ("Excellent", "Extraordinary"):
            armor = 0
        self._damage(i, t, raw, armor)

    def _damage(self, i: int, t: int, raw: int, armor: int) -> None:
        """combat.damage_events: armor, a Wound, death, unconsciousness, the Knockdown test."""
        amount = raw - armor
        if amount <= 0:
            return
        k = self.k
        tp = k.profiles[t]
        self.damage[t] += amount
        self.dealt[i] += amount
        self.taken[t] += amount
        wt = tp.wound_threshold
        new = 0
        if amount >= wt:
            self.wounds[t] += 1
            new = 1
        if self.damage[t] >= tp.death:
            self.status[t] = DEAD
            self._check_end()
            return
        unc = tp.unconsciousness
        if unc is not None and self.damage[t] >= unc and self.status[t] == ACTIVE:
            self.status[t] = UNCONSCIOUS
            self.since[t] = self.round
            self.down[t] = True
            self._check_end()
            return
        if amount - wt >= 5 and not self.down[t] and self.status[t] == ACTIVE:
            total, ones = k._roll(self.rnd, tp.knockdown_step - self._penalty(t, new))
            if ones or total < amount - wt:
                self.down[t] = True


def fight_from_state(k: Ed1GroupKernel, state: FightState, rnd: random.Random) -> _Fight:
    """The kernel's view of an engine state of the same encounter (for checking it against the engine)."""
    f = _Fight(k, rnd)
    index = {cid: i for i, cid in enumerate(k.ids)}
    for i, cid in enumerate(k.ids):
        c = state.combatants[cid]
        f.pos[i] = c.pos if c.pos is not None else f.pos[i]
        f.status[i] = _STATUS.index(c.status)
        f.damage[i] = c.counters.get("damage", 0) + c.counters.get("stun", 0)
        f.wounds[i] = c.counters.get("wounds", 0)
        f.down[i] = "knocked-down" in c.conditions
        f.karma[i] = c.counters.get("karma", 0)
        f.rec_used[i] = c.counters.get("recovery_used", 0)
        f.rec_tried[i] = bool(c.marks.get("recovery_tried"))
        f.since[i] = c.marks.get("unconscious_since", 0) or 0
        d = state.declarations.get(cid) or {}
        act = d.get("action", "other")
        if act == "run" and "retreat" in (d.get("options") or ()):
            act = "retreat"
        f.decl[i] = (act, index.get(d.get("target") or "", -1), "charge" in (d.get("options") or ()))
        if c.marks.get("ed1_charging") is not None:
            f.charging[i] = c.marks["ed1_charging"]
        if c.marks.get("ed1_reserved") is not None:
            f.reserved[i] = c.marks["ed1_reserved"]
        if cid in state.acted:
            f.acted[i] = state.round
        if cid in state.initiative:
            f.init[i] = state.initiative[cid]
        f.unseen[i] = bool(c.hidden and not c.marks.get("revealed"))
    f.round = state.round
    return f


def build(ruleset: Ruleset, state: FightState) -> Ed1GroupKernel:
    return Ed1GroupKernel(ruleset, state)


kernels.register("ed1", build)

__all__ = ["Ed1GroupKernel", "build", "fight_from_state", "obstacles"]
