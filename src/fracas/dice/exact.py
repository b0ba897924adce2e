"""Exact distributions of dice expressions as NumPy probability arrays, and the odds built on them.

A :class:`Distribution` is ``p`` (float64) with an ``offset``: ``p[i] = P(total == offset + i)``.

Exploding dice have no largest result, so each exploding die is expanded level by level until the chance
that it is *still* exploding is at most ``TAIL_MASS / (2 x number of exploding dice)``; with ``TAIL_MASS =
1e-12`` the mass left out of a whole expression (``Distribution.tail``) is at most 0.5e-12. Every outcome
left out has a total of at least ``Distribution.cut``, so P(total >= DN) -- computed as the kept mass at or
above DN plus ``tail`` -- is exact (up to float rounding) for every DN <= ``cut`` and off by at most
``tail`` above it. Distributions are cached per normalized expression (the order of terms does not matter).

From a distribution: :meth:`Distribution.at_least` (P(total >= DN)), mean and standard deviation;
:func:`ed4_test` (Earthdawn 4: success and extra successes, one per 5 points over the DN, ED4 p.377);
:func:`ed1_test` (Earthdawn 1: Success Level Table, DN 2-13); :func:`gurps_roll_under` (GURPS 3d6
roll-under with critical thresholds by effective skill, B347-348); :func:`rule_of_one`.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import numpy as np
from pydantic import BaseModel, model_validator

from fracas.dice.expr import Expr, Pool, parse
from fracas.errors import UsageError

TAIL_MASS = 1e-12
MAX_OUTCOMES = 5_000_000  # exact arrays longer than this are refused (sample instead)

RULE_OF_ONE_MIN_DICE = {"ed4": 2, "ed1": 2}
"""The Rule of One needs at least this many dice. reference/earthdawn.md 1.4: ED4 implementations (fvtt
``EdRoll.isRuleOfOne``, the earthdawn4eV2 spec) require two dice; community pages state no minimum, marked
[verify]. We use 2 for both editions. With one die it only matters for DN 1 or less: a lone 1 (on a step,
at most 1 after the step minimum) already fails any DN of 2 or more."""

SUCCESS_LEVELS = ("Pathetic", "Poor", "Average", "Good", "Excellent", "Extraordinary")


@dataclass(frozen=True, slots=True, eq=False)
class Distribution:
    """The distribution of a total: ``p[i] = P(total == offset + i)``.

    ``tail`` is the mass left out (exploding dice), all of it at totals of ``cut`` or more."""

    offset: int
    p: np.ndarray
    tail: float = 0.0
    cut: int | None = None  # None: nothing left out
    _sf: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.p.setflags(write=False)
        sf = np.cumsum(self.p[::-1])[::-1] + self.tail
        sf.setflags(write=False)
        object.__setattr__(self, "_sf", sf)

    @property
    def min(self) -> int:
        # From the structure, not from p: the extreme totals of many dice have probabilities that underflow.
        return self.offset

    @property
    def max(self) -> int | None:
        """The largest total, or None when the dice explode (no largest total)."""
        return None if self.cut is not None else self.offset + len(self.p) - 1

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + len(self.p))

    @property
    def mean(self) -> float:
        return float(self.values @ self.p / self.p.sum())

    @property
    def sd(self) -> float:
        v = self.values - self.mean
        return float(math.sqrt((v * v) @ self.p / self.p.sum()))

    def prob(self, total: int) -> float:
        i = total - self.offset
        return float(self.p[i]) if 0 <= i < len(self.p) else 0.0

    def at_least(self, dn: int | Sequence[int] | np.ndarray) -> float | np.ndarray:
        """P(total >= dn), for one DN or an array of them."""
        d = np.asarray(dn) - self.offset
        out = np.where(d <= 0, 1.0, self._sf[np.clip(d, 0, len(self._sf) - 1)])
        out = np.where(d >= len(self._sf), self.tail, out)
        return float(out) if out.ndim == 0 else out

    def at_most(self, n: int) -> float:
        """P(total <= n)."""
        return 1.0 - float(self.at_least(n + 1))


# -- building distributions -----------------------------------------------------------------------------


def explode_levels(sides: int, exploding_dice: int = 1) -> int:
    """How many levels of an exploding die are kept: the least K with ``sides**-K <= TAIL_MASS / (2 n)``
    (half the budget, so that float rounding never takes a distribution's sum below 1 - TAIL_MASS)."""
    return max(1, math.ceil(math.log(2 * exploding_dice / TAIL_MASS) / math.log(sides) - 1e-9))


@cache
def _die(sides: int, levels: int) -> np.ndarray:
    """One die from 1 (offset 1): plain if ``levels == 0``, else exploding, ``levels`` levels kept."""
    if levels == 0:
        return np.full(sides, 1.0 / sides)
    p = np.zeros(levels * sides)
    for k in range(levels):
        p[k * sides : k * sides + sides - 1] = sides ** -(k + 1)
    return p


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Direct convolution; FFT for very long arrays (absolute error about 1e-16 per entry)."""
    if len(a) * len(b) <= 4_000_000 or min(len(a), len(b)) < 64:
        return np.convolve(a, b)
    n = len(a) + len(b) - 1
    size = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, size) * np.fft.rfft(b, size), size)[:n]
    return np.clip(out, 0.0, None)


def _power(p: np.ndarray, n: int) -> np.ndarray:
    """The sum of ``n`` independent copies (repeated squaring)."""
    result: np.ndarray | None = None
    base = p
    while n:
        if n & 1:
            result = base if result is None else _convolve(result, base)
        n >>= 1
        if n:
            base = _convolve(base, base)
    assert result is not None
    return result


@cache
def _distribution(key: tuple[tuple[tuple[int, bool], ...], int, int | None]) -> Distribution:
    dice, modifier, floor = key
    n_exploding = sum(1 for _, e in dice if e)
    counts: dict[tuple[int, int], int] = {}
    for sides, explode in dice:
        lv = explode_levels(sides, n_exploding) if explode else 0
        counts[(sides, lv)] = counts.get((sides, lv), 0) + 1
    length = 1 + sum(c * (s * lv if lv else s - 1) for (s, lv), c in counts.items())
    if length > MAX_OUTCOMES:
        raise UsageError(f"too many outcomes ({length}) for exact odds; at most {MAX_OUTCOMES}")
    p = np.ones(1)
    log_kept = 0.0
    cut: int | None = None
    n_dice = len(dice)
    for (sides, lv), c in sorted(counts.items()):
        p = _convolve(p, _power(_die(sides, lv), c))
        if lv:
            log_kept += c * math.log1p(-(float(sides) ** -lv))
            # a die left out shows more than lv*sides; every other die shows at least 1
            lowest = lv * sides + 1 + (n_dice - 1) + modifier
            cut = lowest if cut is None else min(cut, lowest)
    offset = n_dice + modifier
    tail = max(0.0, -math.expm1(log_kept)) if cut is not None else 0.0
    if floor is not None and offset < floor:
        below = floor - offset
        p = (
            np.concatenate(([p[: below + 1].sum()], p[below + 1 :]))
            if below < len(p)
            else np.array([p.sum()])
        )
        offset = floor
        if cut is not None:
            cut = max(cut, floor)
    return Distribution(offset, p, tail, cut)


def distribution(expr: str | Expr, edition: str = "ed4") -> Distribution:
    """The exact distribution of a dice expression (cached).

    >>> d = distribution("2d6")
    >>> round(d.at_least(7), 6), d.mean
    (0.583333, 7.0)
    >>> round(float(distribution("step 14").at_least(9)), 6)
    0.805556
    """
    e = expr if isinstance(expr, Expr) else parse(expr, edition)
    return _distribution(e.pool.key)


def step_distribution(step: int, edition: str = "ed4") -> Distribution:
    """The distribution of an Earthdawn step test (all dice explode; the total is at least 1)."""
    return distribution(f"step {int(step)}", edition)


def at_least_table(steps: Iterable[int], dns: Iterable[int], edition: str = "ed4") -> np.ndarray:
    """P(step s >= DN) as an array ``[step index, DN index]``."""
    dn = np.asarray(list(dns))
    return np.stack([step_distribution(s, edition).at_least(dn) for s in steps])


def clear_cache() -> None:
    """Forget every cached distribution (for benchmarks)."""
    _distribution.cache_clear()
    _die.cache_clear()


# -- Rule of One ------------------------------------------------------------------------------------------


def rule_of_one(expr: str | Expr, edition: str = "ed4", min_dice: int | None = None) -> float:
    """P(every die shows 1 on its first face), or 0 when fewer than ``min_dice`` dice are rolled.

    The Rule of One (reference/earthdawn.md 1.4): if every die rolled shows a 1, the test fails whatever the
    total. ``min_dice`` defaults to :data:`RULE_OF_ONE_MIN_DICE` of the edition (2).
    """
    e = expr if isinstance(expr, Expr) else parse(expr, edition)
    return _rule_of_one(e.pool, RULE_OF_ONE_MIN_DICE[edition] if min_dice is None else min_dice)


def _rule_of_one(pool: Pool, min_dice: int) -> float:
    if len(pool.dice) < max(1, min_dice):
        return 0.0
    return math.prod(1.0 / s for s, _ in pool.dice)


def _all_ones_total(pool: Pool) -> int:
    t = len(pool.dice) + pool.modifier
    return t if pool.floor is None else max(t, pool.floor)


# -- Earthdawn 4 ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Ed4Odds:
    """An ED4 Action test against a DN: P(success), P(exactly k extra successes), the Rule of One.

    ``extra[k]`` is P(success with exactly k extra successes), the last entry holding "that many or more";
    ``extra.sum() == p_success``. Outcomes where
    the Rule of One applies count as failures (``p_rule_of_one`` says how often all dice show 1).
    """

    dn: int
    p_success: float
    extra: np.ndarray
    p_rule_of_one: float
    mean: float
    sd: float

    @property
    def p_failure(self) -> float:
        return 1.0 - self.p_success

    def p_at_least_extra(self, k: int) -> float:
        """P(success with k or more extra successes)."""
        return float(self.extra[k:].sum())


EXTRA_SUCCESS_EVERY = 5  # ED4 p.377 (000_4b24aca42c3b6366.txt): one extra success per 5 points over the DN


def extra_successes(result: int, dn: int) -> int:
    """ED4 extra successes of a result against a DN: one per full 5 points over the DN, 0 on a failure
    (ED4 p.377: 18 against Physical Defense 7 is two extra successes).

    >>> extra_successes(18, 7)
    2
    """
    return (result - dn) // EXTRA_SUCCESS_EVERY if result >= dn else 0


def ed4_test(
    expr: str | Expr,
    dn: int,
    edition: str = "ed4",
    rule_of_one_min_dice: int | None = None,
    max_extra: int = 40,
) -> Ed4Odds:
    """Odds of an Earthdawn 4th Edition test against ``dn`` (ED4 p.377: result >= DN succeeds; each full 5
    points over the DN is one extra success; e.g. 18 against PD 7 is three successes, two of them extra).

    >>> o = ed4_test("step 14", 9)
    >>> round(o.p_success, 6), round(float(o.extra[0]), 6)
    (0.805556, 0.333333)
    """
    e = expr if isinstance(expr, Expr) else parse(expr, edition)
    d = _distribution(e.pool.key)
    pool = e.pool
    ks = np.arange(max_extra + 2)
    thresholds = dn + EXTRA_SUCCESS_EVERY * ks
    sf = d.at_least(thresholds)
    extra = np.asarray(sf[:-1] - sf[1:], dtype=float)
    extra[-1] += sf[-1]  # lump "max_extra or more" into the last entry
    p1 = _rule_of_one(
        pool, RULE_OF_ONE_MIN_DICE.get(edition, 2) if rule_of_one_min_dice is None else rule_of_one_min_dice
    )
    t1 = _all_ones_total(pool)
    if p1 and t1 >= dn:
        extra[min((t1 - dn) // EXTRA_SUCCESS_EVERY, max_extra)] -= p1
    extra = np.clip(extra, 0.0, None)
    return Ed4Odds(dn, float(extra.sum()), extra, p1, d.mean, d.sd)


# -- Earthdawn 1 ----------------------------------------------------------------------------------------


class _LevelRow(BaseModel):
    poor: int
    average: int
    good: int
    excellent: int
    extraordinary: int

    @model_validator(mode="after")
    def _increasing(self) -> _LevelRow:
        v = [self.poor, self.average, self.good, self.excellent, self.extraordinary]
        if not all(a < b for a, b in zip(v, v[1:], strict=False)) or self.poor < 1:
            raise ValueError(f"success level bounds must rise from at least 1: {v}")
        return self


class _LevelTable(BaseModel):
    edition: str
    dn: dict[int, _LevelRow]

    @model_validator(mode="after")
    def _average_is_dn(self) -> _LevelTable:
        for dn, row in self.dn.items():
            if row.average != dn:
                raise ValueError(f"DN {dn}: an Average success starts at the DN, not {row.average}")
        return self


@cache
def ed1_success_levels() -> dict[int, tuple[int, int, int, int, int]]:
    """DN -> the lowest result of Poor, Average, Good, Excellent, Extraordinary (ED1 Success Level Table).

    Data: ``data/success_levels_ed1.toml`` (reference/earthdawn.md 1.5, rows for DN 2-13 only, [verify]).
    A result below the Poor bound is Pathetic.
    """
    raw = tomllib.loads(resources.files("fracas.dice").joinpath("data/success_levels_ed1.toml").read_text())
    table = _LevelTable.model_validate(raw)
    return {
        dn: (r.poor, r.average, r.good, r.excellent, r.extraordinary) for dn, r in sorted(table.dn.items())
    }


def ed1_level(result: int, dn: int) -> str | None:
    """The ED1 success level of ``result`` against ``dn``, or None if the table has no row for the DN."""
    row = ed1_success_levels().get(dn)
    if row is None:
        return None
    return SUCCESS_LEVELS[sum(1 for b in row if result >= b)]


@dataclass(frozen=True, slots=True, eq=False)
class Ed1Odds:
    """An ED1 test against a DN. ``levels`` maps each success level to its probability (with ``"Rule of
    One"`` as its own entry: all dice showing 1 fail whatever the total), or is None above DN 13, where
    the table we hold has no rows: then only success and failure are given (``note`` says so)."""

    dn: int
    p_success: float
    levels: dict[str, float] | None
    p_rule_of_one: float
    mean: float
    sd: float
    note: str = ""

    @property
    def p_failure(self) -> float:
        return 1.0 - self.p_success


def ed1_test(
    expr: str | Expr, dn: int, edition: str = "ed1", rule_of_one_min_dice: int | None = None
) -> Ed1Odds:
    """Odds of an Earthdawn 1st Edition test against ``dn``: success (result >= DN) and the success levels
    of the Success Level Table (reference/earthdawn.md 1.5; Average is a basic success).

    >>> o = ed1_test("step 14", 9)
    >>> sorted(o.levels)[:3], round(o.p_success, 6)
    (['Average', 'Excellent', 'Extraordinary'], 0.75625)
    """
    e = expr if isinstance(expr, Expr) else parse(expr, edition)
    pool = e.pool
    d = _distribution(pool.key)
    p1 = _rule_of_one(
        pool, RULE_OF_ONE_MIN_DICE.get(edition, 2) if rule_of_one_min_dice is None else rule_of_one_min_dice
    )
    t1 = _all_ones_total(pool)
    p_success = float(d.at_least(dn)) - (p1 if t1 >= dn else 0.0)
    row = ed1_success_levels().get(dn)
    if row is None:
        known = ed1_success_levels()
        note = (
            f"the ED1 Success Level Table we hold has rows for DN {min(known)}-{max(known)} only "
            "(reference/earthdawn.md 1.5); only success and failure are given"
        )
        return Ed1Odds(dn, max(p_success, 0.0), None, p1, d.mean, d.sd, note)
    sf = d.at_least(np.asarray(row))
    probs = np.concatenate(([1.0 - sf[0]], sf[:-1] - sf[1:], [sf[-1]]))
    if p1:
        probs[sum(1 for b in row if t1 >= b)] -= p1
    probs = np.clip(probs, 0.0, None)
    levels = {name: float(v) for name, v in zip(SUCCESS_LEVELS, probs, strict=True)}
    levels["Rule of One"] = p1
    return Ed1Odds(dn, max(p_success, 0.0), levels, p1, d.mean, d.sd, "")


# -- GURPS ----------------------------------------------------------------------------------------------


def gurps_critical_success_max(skill: int) -> int:
    """The highest 3d6 roll that is a critical success at this effective skill (reference/gurps.md 1.1, B347:
    3-4 always, 5 at 15+, 6 at 16+)."""
    return 6 if skill >= 16 else 5 if skill >= 15 else 4


def gurps_critical_failure_min(skill: int) -> int:
    """The lowest 3d6 roll that is a critical failure (reference/gurps.md 1.1, B348: 18 always; 17 at skill
    15 or less; any roll of skill+10 or more)."""
    return max(min(18 if skill >= 16 else 17, skill + 10), gurps_critical_success_max(skill) + 1)


@dataclass(frozen=True, slots=True)
class GurpsOdds:
    """A GURPS success roll (3d6, roll at most the effective skill) with its criticals."""

    skill: int
    p_success: float  # includes critical successes
    p_critical_success: float
    p_critical_failure: float
    critical_success_max: int
    critical_failure_min: int

    @property
    def p_failure(self) -> float:
        return 1.0 - self.p_success


def gurps_roll_under(skill: int, expr: str | Expr = "3d6") -> GurpsOdds:
    """Odds of a GURPS success roll against effective ``skill`` (reference/gurps.md 1.1, B343-348).

    Success: the roll is at most the skill, except that 17 and 18 always fail; a critical success (3-4
    always, 5 at 15+, 6 at 16+) always succeeds. Only 3d6 has critical thresholds; other expressions raise.

    >>> o = gurps_roll_under(12)
    >>> round(o.p_success, 4), round(o.p_critical_success, 4), round(o.p_critical_failure, 4)
    (0.7407, 0.0185, 0.0185)
    """
    e = expr if isinstance(expr, Expr) else parse(expr)
    if e.pool.key != (((6, False),) * 3, 0, None):
        raise UsageError(f"GURPS roll-under (--under) takes 3d6, not {e}")
    d = _distribution(e.pool.key)
    cs = gurps_critical_success_max(skill)
    cf = gurps_critical_failure_min(skill)
    ok_max = min(skill, 16)
    p_ok = sum(d.prob(r) for r in range(3, 19) if r <= cs or (r <= ok_max and r < cf))
    return GurpsOdds(
        skill,
        p_ok,
        d.at_most(cs),
        float(d.at_least(cf)),
        cs,
        cf,
    )
