"""What many fights add up to: a mergeable tally of integers, and the statistics drawn from it.

A :class:`Tally` holds only integer counts and sums, so merging chunk tallies in any order gives the same
numbers; every float of a report is computed once, at the end, from the merged tally. That is what makes a
report independent of how the runs were split across workers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

# z for a two-sided 95% interval: the 0.975 quantile of the standard normal distribution.
Z95 = 1.959963984540054
# z for a two-sided 99.9% interval: the 0.9995 quantile.
Z999 = 3.2905267314918945


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (E. B. Wilson, 1927).

    >>> lo, hi = wilson(81, 263)
    >>> round(lo, 4), round(hi, 4)
    (0.2553, 0.3662)
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = max(0.0, centre - half)
    hi = min(1.0, centre + half)
    if successes == 0:
        lo = 0.0
    if successes == n:
        hi = 1.0
    return (lo, hi)


def quantile(histogram: dict[int, int], q: float) -> int | None:
    """The smallest value whose cumulative count reaches ``q`` of the total (the inverse of the CDF)."""
    total = sum(histogram.values())
    if total == 0:
        return None
    need = q * total
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= need - 1e-9:
            return value
    return max(histogram)


@dataclass(slots=True)
class Tally:
    """Integer counts of a batch of fights of one encounter; ``merge`` adds another batch.

    ``ids``/``sides`` fix the order of the per-combatant and per-side lists. ``draws`` counts fights
    stopped at the round limit with someone still standing; ``wipeouts`` fights where nobody was left.
    ``status`` counts each combatant's final status; ``dealt``/``taken`` sum the damage of ``Damaged``
    events (every counter) by source and by target; ``wounds`` sums ``Wounded`` events. ``side_dead`` and
    ``side_out`` count, per side, the fights by how many of its combatants ended dead / out of the fight
    (any status but active): ``side_dead[s][k]`` fights ended with ``k`` of side ``s`` dead. A kernel that
    does not fill them leaves them empty, and the report then has no casualties for that side.
    """

    ids: tuple[str, ...]
    sides: tuple[str, ...]
    runs: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    wipeouts: int = 0
    rounds: dict[int, int] = field(default_factory=dict)
    status: list[dict[str, int]] = field(default_factory=list)
    dealt: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    wounds: list[int] = field(default_factory=list)
    side_dead: list[dict[int, int]] = field(default_factory=list)
    side_out: list[dict[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * len(self.sides)
        if not self.side_dead:
            self.side_dead = [{} for _ in self.sides]
        if not self.side_out:
            self.side_out = [{} for _ in self.sides]
        k = len(self.ids)
        if not self.status:
            self.status = [{} for _ in range(k)]
        if not self.dealt:
            self.dealt = [0] * k
        if not self.taken:
            self.taken = [0] * k
        if not self.wounds:
            self.wounds = [0] * k

    def merge(self, other: Tally) -> Tally:
        if other.ids != self.ids or other.sides != self.sides:
            raise ValueError("cannot merge tallies of different encounters")
        self.runs += other.runs
        self.draws += other.draws
        self.wipeouts += other.wipeouts
        for i, w in enumerate(other.wins):
            self.wins[i] += w
        for r, c in other.rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + c
        for i in range(len(self.ids)):
            mine = self.status[i]
            for s, c in other.status[i].items():
                mine[s] = mine.get(s, 0) + c
            self.dealt[i] += other.dealt[i]
            self.taken[i] += other.taken[i]
            self.wounds[i] += other.wounds[i]
        for mine_all, theirs_all in ((self.side_dead, other.side_dead), (self.side_out, other.side_out)):
            for mine, theirs in zip(mine_all, theirs_all, strict=True):
                for k, c in theirs.items():
                    mine[k] = mine.get(k, 0) + c
        return self

    def count_losses(self, side_of: list[int], statuses: list[str]) -> None:
        """Adds one fight's ``side_dead`` / ``side_out`` from each combatant's final status (``side_of[i]``:
        the index of combatant ``i``'s side)."""
        dead = [0] * len(self.sides)
        out = [0] * len(self.sides)
        for s, status in zip(side_of, statuses, strict=True):
            dead[s] += status == "dead"
            out[s] += status != "active"
        for s in range(len(self.sides)):
            self.side_dead[s][dead[s]] = self.side_dead[s].get(dead[s], 0) + 1
            self.side_out[s][out[s]] = self.side_out[s].get(out[s], 0) + 1

    def losses_of_one_each(self, side_of: list[int]) -> None:
        """``side_dead`` / ``side_out`` from ``status`` when every side has exactly one combatant (a duel
        kernel's tally): then the fights with that side's one combatant dead are its fights with one dead."""
        if sorted(side_of) != list(range(len(self.sides))):
            raise ValueError("losses_of_one_each needs exactly one combatant per side")
        for i, s in enumerate(side_of):
            st = self.status[i]
            dead = st.get("dead", 0)
            out = self.runs - st.get("active", 0)
            self.side_dead[s] = {k: c for k, c in ((0, self.runs - dead), (1, dead)) if c}
            self.side_out[s] = {k: c for k, c in ((0, self.runs - out), (1, out)) if c}

    def to_json(self) -> dict[str, Any]:
        return {
            "ids": list(self.ids),
            "sides": list(self.sides),
            "runs": self.runs,
            "wins": list(self.wins),
            "draws": self.draws,
            "wipeouts": self.wipeouts,
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "status": [dict(sorted(s.items())) for s in self.status],
            "dealt": list(self.dealt),
            "taken": list(self.taken),
            "wounds": list(self.wounds),
            "side_dead": [{str(k): v for k, v in sorted(d.items())} for d in self.side_dead],
            "side_out": [{str(k): v for k, v in sorted(d.items())} for d in self.side_out],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        return cls(
            tuple(data["ids"]),
            tuple(data["sides"]),
            int(data["runs"]),
            [int(x) for x in data["wins"]],
            int(data["draws"]),
            int(data["wipeouts"]),
            {int(k): int(v) for k, v in data["rounds"].items()},
            [{str(k): int(v) for k, v in s.items()} for s in data["status"]],
            [int(x) for x in data["dealt"]],
            [int(x) for x in data["taken"]],
            [int(x) for x in data["wounds"]],
            [{int(k): int(v) for k, v in d.items()} for d in data.get("side_dead", [])],
            [{int(k): int(v) for k, v in d.items()} for d in data.get("side_out", [])],
        )


def _r(x: float) -> float:
    return round(float(x), 6)


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": _r(k / n) if n else 0.0, "ci_low": _r(lo), "ci_high": _r(hi)}


def summarize(
    tally: Tally, names: dict[str, str] | None = None, sides_of: dict[str, str] | None = None
) -> dict:
    """The report's numbers (the stable ``--json`` shape without the run's header and ``timing``)."""
    n = tally.runs
    names = names or {}
    sides_of = sides_of or {}
    sides: dict[str, Any] = {}
    for side, w in zip(tally.sides, tally.wins, strict=True):
        lo, hi = wilson(w, n)
        sides[side] = {"wins": w, "win_rate": _r(w / n) if n else 0.0, "ci_low": _r(lo), "ci_high": _r(hi)}
    total_rounds = sum(r * c for r, c in tally.rounds.items())
    rounds = {
        "mean": _r(total_rounds / n) if n else None,
        "p50": quantile(tally.rounds, 0.5),
        "p90": quantile(tally.rounds, 0.9),
        "min": min(tally.rounds) if tally.rounds else None,
        "max": max(tally.rounds) if tally.rounds else None,
        "histogram": {str(k): v for k, v in sorted(tally.rounds.items())},
    }
    combatants: dict[str, Any] = {}
    for i, cid in enumerate(tally.ids):
        st = tally.status[i]
        unconscious = st.get("unconscious", 0)
        dead = st.get("dead", 0)
        out_count = n - st.get("active", 0)
        combatants[cid] = {
            "name": names.get(cid, cid),
            "side": sides_of.get(cid, ""),
            "unconscious": _r(unconscious / n) if n else 0.0,
            "dead": _r(dead / n) if n else 0.0,
            "out": _r(out_count / n) if n else 0.0,
            "status": {s: _r(c / n) for s, c in sorted(st.items())} if n else {},
            "damage_dealt": _r(tally.dealt[i] / n) if n else 0.0,
            "damage_taken": _r(tally.taken[i] / n) if n else 0.0,
            "wounds": _r(tally.wounds[i] / n) if n else 0.0,
        }
    size = [0] * len(tally.sides)
    side_index = {side: s for s, side in enumerate(tally.sides)}
    for cid in tally.ids:
        if sides_of.get(cid) in side_index:
            size[side_index[sides_of[cid]]] += 1
    casualties: dict[str, Any] = {}
    for s, side in enumerate(tally.sides):
        dead, out = tally.side_dead[s], tally.side_out[s]
        if not n or sum(dead.values()) != n or sum(out.values()) != n:
            continue  # not counted by this engine
        casualties[side] = {
            "combatants": size[s],
            "anyone_dead": _rate(n - dead.get(0, 0), n),
            "all_dead": _rate(dead.get(size[s], 0), n),
            "anyone_out": _rate(n - out.get(0, 0), n),
            "all_out": _rate(out.get(size[s], 0), n),
            "mean_dead": _r(sum(k * c for k, c in dead.items()) / n),
            "mean_out": _r(sum(k * c for k, c in out.items()) / n),
            "dead": {str(k): _r(c / n) for k, c in sorted(dead.items())},
            "out": {str(k): _r(c / n) for k, c in sorted(out.items())},
        }
    return {
        "sides": sides,
        "draws": _rate(tally.draws, n),
        "wipeouts": _rate(tally.wipeouts, n),
        "rounds": rounds,
        "combatants": combatants,
        "casualties": casualties,
    }
