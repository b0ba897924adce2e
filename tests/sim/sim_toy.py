"""A toy ruleset for the simulator's tests, with a vectorised kernel and exact odds.

Each round every active combatant, in the listed order, attacks the first active enemy: a d``sides`` roll
of at most ``hit_on`` hits for a fixed ``damage``. At ``hp`` damage a combatant is unconscious, at ``death``
dead; a hit of at least ``wound`` damage is a Wound.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.contract import FirstChoice, Ruleset
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import Rule
from fracas.sim import kernels
from fracas.sim.stats import Tally


@dataclass(frozen=True, slots=True)
class ToyStats:
    hit_on: int = 3
    sides: int = 6
    damage: int = 2
    hp: int = 6
    death: int = 100
    wound: int = 100


class ToyDuel(Ruleset):
    id = "toy-duel"
    name = "Toy duel"

    def rules(self) -> list[Rule]:
        return [Rule("toy/hit", "Hit", "-")]

    def templates(self) -> list[str]:
        return []

    def make_combatants(self, spec, side, where):  # pragma: no cover - states are built by hand
        return []

    def pending(self, state: FightState) -> Decision | None:
        if state.phase == "act" and state.current is not None and state.current not in state.acted:
            return Decision(state.current, "act")
        return None

    def advance(self, state, dice):
        if state.phase in ("started", "round-end"):
            return [ev.RoundStarted(state.round + 1)]
        if state.phase == "declare":
            order = tuple(c.id for c in state.combatants.values() if c.active)
            return [ev.OrderSet(order), ev.TurnStarted(order[0])]
        nxt = state.turn + 1
        while nxt < len(state.order) and not state.combatants[state.order[nxt]].active:
            nxt += 1
        if nxt < len(state.order):
            return [ev.TurnStarted(state.order[nxt])]
        return [ev.RoundEnded(state.round)]

    def choices(self, state, decision):
        me = state.combatants[decision.actor]
        return [
            Command(me.id, "hit", c.id) for c in state.combatants.values() if c.side != me.side and c.active
        ]

    def validate(self, state, command):
        pass

    def resolve(self, state, command, dice):
        me = state.combatants[command.actor]
        target = state.combatants[command.target]
        st: ToyStats = me.stats
        face = dice.roll(st.sides, "hit")
        out: list[ev.Event] = []
        if face <= st.hit_on:
            out.append(ev.Damaged(target.id, st.damage, me.id))
            if st.damage >= st.wound:
                out.append(ev.Wounded(target.id))
            total = target.count("damage") + st.damage
            if total >= target.stats.death:
                out.append(ev.StatusChanged(target.id, "dead"))
            elif total >= target.stats.hp:
                out.append(ev.StatusChanged(target.id, "unconscious"))
        out.append(ev.TurnEnded(me.id))
        return out

    def tactics(self):
        return {"default": FirstChoice()}


TOY = ToyDuel()


def make_state(sides: dict[str, list[ToyStats]], max_rounds: int = 20) -> FightState:
    cs: dict[str, Combatant] = {}
    for side, members in sides.items():
        for i, st in enumerate(members):
            cid = f"{side}-{i + 1}"
            cs[cid] = Combatant(cid, cid.title(), side, st)
    return FightState("toy-duel", "toy", cs, tuple(sides), max_rounds=max_rounds)


class ToyKernel:
    """The toy duel (one against one) in NumPy lock-step: one lane per fight."""

    name = "toy-duel"
    chunk = 20_000

    def __init__(self, state: FightState) -> None:
        cs = list(state.combatants.values())
        if len(cs) != 2 or cs[0].side == cs[1].side:
            raise kernels.Unsupported("the toy kernel plays one against one only")
        self.ids = tuple(c.id for c in cs)
        self.sides = tuple(state.sides)
        self.stats = [c.stats for c in cs]
        self.side_of = [self.sides.index(c.side) for c in cs]
        self.max_rounds = state.max_rounds

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        dmg = np.zeros((2, n), dtype=np.int64)
        wounds = np.zeros((2, n), dtype=np.int64)
        live = np.ones(n, dtype=bool)
        rounds = np.zeros(n, dtype=np.int64)
        winner = np.full(n, -1)
        for rnd in range(1, self.max_rounds + 1):
            rounds[live] = rnd
            for a in (0, 1):
                b = 1 - a
                st = self.stats[a]
                face = rng.integers(1, st.sides + 1, size=n)
                hit = live & (face <= st.hit_on)
                dmg[b][hit] += st.damage
                if st.damage >= st.wound:
                    wounds[b][hit] += 1
                down = hit & (dmg[b] >= self.stats[b].hp)
                winner[down] = self.side_of[a]
                live &= ~down
            if not live.any():
                break
        tally = Tally(self.ids, self.sides)
        tally.runs = n
        for s in range(len(self.sides)):
            tally.wins[s] = int((winner == s).sum())
        tally.draws = int((winner == -1).sum())
        vals, counts = np.unique(rounds, return_counts=True)
        tally.rounds = {int(v): int(c) for v, c in zip(vals, counts, strict=True)}
        for i in range(2):
            st = self.stats[i]
            dead = dmg[i] >= st.death
            unc = (dmg[i] >= st.hp) & ~dead
            status = {"dead": int(dead.sum()), "unconscious": int(unc.sum())}
            status["active"] = n - status["dead"] - status["unconscious"]
            tally.status[i] = {k: v for k, v in status.items() if v}
            tally.taken[i] = int(dmg[i].sum())
            tally.dealt[1 - i] = int(dmg[i].sum())
            tally.wounds[i] = int(wounds[i].sum())
        tally.losses_of_one_each(list(self.side_of))
        return tally


def build_toy_kernel(ruleset: Ruleset, state: FightState) -> ToyKernel:
    return ToyKernel(state)


kernels.register("toy-duel", build_toy_kernel)


def exact_duel(a: ToyStats, b: ToyStats, max_rounds: int) -> dict[str, Fraction]:
    """Exact chances of "a" winning, "b" winning, a draw; a strikes first each round."""
    pa = Fraction(a.hit_on, a.sides)
    pb = Fraction(b.hit_on, b.sides)
    need_a = -(-b.hp // a.damage)  # hits a needs to put b down
    need_b = -(-a.hp // b.damage)
    # dist[(hits by a, hits by b)] = probability, fights still going
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    out = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    for _ in range(max_rounds):
        after_a: dict[tuple[int, int], Fraction] = {}
        for (ha, hb), p in dist.items():
            if ha + 1 >= need_a:
                out["a"] += p * pa
            else:
                after_a[(ha + 1, hb)] = after_a.get((ha + 1, hb), 0) + p * pa
            after_a[(ha, hb)] = after_a.get((ha, hb), 0) + p * (1 - pa)
        dist = {}
        for (ha, hb), p in after_a.items():
            if hb + 1 >= need_b:
                out["b"] += p * pb
            else:
                dist[(ha, hb + 1)] = dist.get((ha, hb + 1), 0) + p * pb
            dist[(ha, hb)] = dist.get((ha, hb), 0) + p * (1 - pb)
    out["draw"] = sum(dist.values(), Fraction(0))
    return out
