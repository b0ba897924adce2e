"""Exact distributions: against brute force, summing to 1, the sampler by chi-square, and the odds built on
them (ED4 extra successes, ED1 success levels, GURPS criticals, the Rule of One)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from fracas.dice import exact
from fracas.dice.exact import (
    TAIL_MASS,
    distribution,
    ed1_level,
    ed1_success_levels,
    ed1_test,
    ed4_test,
    gurps_critical_failure_min,
    gurps_critical_success_max,
    gurps_roll_under,
    rule_of_one,
    step_distribution,
)
from fracas.dice.expr import Pool, parse
from fracas.dice.sample import sample, sample_pool, sample_steps
from fracas.dice.source import RandomDice

# -- brute force ------------------------------------------------------------------------------------------


def _brute(pool: Pool, upto: int) -> dict[int, Fraction]:
    """P(total == v) for v <= upto by plain recursion with fractions (an exploding die: 1..s-1 with 1/s each;
    s + (the die again) with 1/s)."""

    def die(s: int, explode: bool) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        if not explode:
            return {v: Fraction(1, s) for v in range(1, s + 1)}
        level = Fraction(1)
        base = 0
        while base + 1 <= upto + 60:
            for r in range(1, s):
                out[base + r] = level / s
            base += s
            level /= s
        return out

    dist = {pool.modifier: Fraction(1)}
    for s, e in pool.dice:
        d = die(s, e)
        new: dict[int, Fraction] = {}
        for (a, pa), (b, pb) in itertools.product(dist.items(), d.items()):
            if a + b <= upto + 1000:
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = new
    if pool.floor is not None:
        low = sum(p for v, p in dist.items() if v <= pool.floor)
        dist = {v: p for v, p in dist.items() if v > pool.floor}
        dist[pool.floor] = low
    return {v: p for v, p in dist.items() if v <= upto}


@pytest.mark.parametrize(
    "text",
    ["3d6", "2d6+3", "d%", "2d-1", "d12!", "2d6!+1", "step 1", "step 2", "step 8", "step 14", "d20+d4!", "3"],
)
def test_matches_brute_force(text: str) -> None:
    e = parse(text)
    d = distribution(e)
    upto = 40
    brute = _brute(e.pool, upto)
    for v in range(-5, upto + 1):
        assert d.prob(v) == pytest.approx(float(brute.get(v, 0)), abs=1e-15), (text, v)
        ge = 1 - sum(float(p) for w, p in brute.items() if w < v)
        assert float(d.at_least(v)) == pytest.approx(ge, abs=1e-12), (text, v)


def test_ed1_step_14_exact_value() -> None:
    # d20+d4, both exploding: P(total >= 9) by counting first faces (no explosion matters below 9 but d4's 4
    # and d20's 20): done by the brute force above, and here one number written out for the docs
    assert float(distribution("step 14", "ed1").at_least(9)) == pytest.approx(0.75625, abs=1e-12)


pools = st.lists(
    st.tuples(st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20, 100]), st.booleans()), min_size=1, max_size=8
).map(lambda dice: Pool(tuple(dice), 0, None))


@given(pools, st.integers(-10, 10), st.sampled_from([None, 1]))
@settings(max_examples=80, deadline=None)
def test_distributions_sum_to_one(pool: Pool, modifier: int, floor: int | None) -> None:
    d = exact._distribution(Pool(pool.dice, modifier, floor).key)
    assert abs(d.p.sum() + d.tail - 1.0) <= 1e-12
    assert 0.0 <= d.tail <= TAIL_MASS
    assert d.p.sum() >= 1.0 - 1e-12
    assert np.all(d.p >= 0)
    if any(e for _, e in pool.dice):
        assert d.cut is not None and d.max is None
    else:
        top = modifier + sum(s for s, _ in pool.dice)
        assert d.tail == 0.0
        assert d.max == (top if floor is None else max(top, floor))


@given(st.integers(1, 100), st.sampled_from(["ed4", "ed1"]))
@settings(max_examples=60, deadline=None)
def test_step_distributions_sum_to_one_and_mean_is_exact(step: int, edition: str) -> None:
    d = step_distribution(step, edition)
    assert abs(d.p.sum() + d.tail - 1.0) <= 1e-12
    # an exploding d s has mean (s+1)/2 * s/(s-1); the floor only lifts steps 1-2
    e = parse(f"step {step}", edition)
    if step > 2:
        mean = e.pool.modifier + sum((s + 1) / 2 * s / (s - 1) for s, _ in e.pool.dice)
        assert d.mean == pytest.approx(mean, rel=1e-9)


def test_sampler_matches_exact_by_chi_square() -> None:
    rng = np.random.default_rng(20260401)
    for edition, step in [
        ("ed4", 1),
        ("ed4", 5),
        ("ed4", 14),
        ("ed4", 19),
        ("ed4", 40),
        ("ed1", 14),
        ("ed1", 36),
    ]:
        draws = sample_steps(step, 1_000_000, rng, edition)
        _chi_square(draws, step_distribution(step, edition), f"{edition} step {step}")
    for text in ["3d6", "2d6!+1", "d%", "4d+2"]:
        _chi_square(sample(text, 1_000_000, rng), distribution(text), text)


@given(st.integers(1, 60), st.sampled_from(["ed4", "ed1"]))
@settings(max_examples=12, deadline=None)
def test_sampler_matches_exact_property(step: int, edition: str) -> None:
    # a fixed seed per example, 10^6 draws, chi-square against the exact distribution
    draws = sample_steps(step, 1_000_000, np.random.default_rng(1000 * step + len(edition)), edition)
    _chi_square(draws, step_distribution(step, edition), f"{edition} step {step}")


def _chi_square(draws: np.ndarray, d: exact.Distribution, what: str, min_expected: float = 20.0) -> None:
    n = len(draws)
    top = d.offset + len(d.p)
    counts = np.bincount(draws - d.offset, minlength=len(d.p))[: len(d.p)].astype(float)
    over = float((draws >= top).sum())
    expected = d.p * n
    # pool bins from the top down until each expected count is at least min_expected
    obs, exp = [], []
    acc_o, acc_e = over, d.tail * n
    for o, e in zip(counts[::-1], expected[::-1], strict=True):
        acc_o += o
        acc_e += e
        if acc_e >= min_expected:
            obs.append(acc_o)
            exp.append(acc_e)
            acc_o = acc_e = 0.0
    if obs:
        obs[-1] += acc_o
        exp[-1] += acc_e
    obs_a, exp_a = np.array(obs), np.array(exp)
    exp_a *= obs_a.sum() / exp_a.sum()
    if len(obs_a) < 2:
        return
    p = chisquare(obs_a, exp_a).pvalue
    assert p > 1e-6, f"{what}: chi-square p = {p:.3g}"


def test_single_rolls_match_exact_by_chi_square() -> None:
    for text in ["step 14", "d6!+d4"]:
        e = parse(text)
        src = RandomDice(11)
        draws = np.array([e.roll(src).total for _ in range(200_000)])
        _chi_square(draws, distribution(e), text)


def test_sample_pool_respects_floor_and_modifier() -> None:
    draws = sample_pool(parse("step 1").pool, 100_000, 3)
    assert draws.min() == 1 and set(np.unique(draws[draws < 3])) == {1}
    assert sample("5", 10, 1).tolist() == [5] * 10


# -- exploding dice and truncation ----------------------------------------------------------------------


def test_truncation_is_documented_tail() -> None:
    d = distribution("d20!+d12!+d10!+d8!")
    assert 0 < d.tail <= TAIL_MASS
    assert d.cut is not None
    # below the cut the odds are exact: P(>= cut) is tail plus the kept mass at or above the cut
    assert float(d.at_least(d.cut)) >= d.tail
    assert float(d.at_least(10**6)) == d.tail


def test_explode_levels() -> None:
    assert 12.0 ** -exact.explode_levels(12) <= TAIL_MASS / 2 < 12.0 ** -(exact.explode_levels(12) - 1)
    assert 4.0 ** -exact.explode_levels(4, 5) <= TAIL_MASS / 10


def test_cached_per_normalized_expression() -> None:
    assert distribution("d6+d8+2") is distribution("2+d8+d6")
    assert distribution("step 8") is not distribution("2d6!")  # the step's floor makes a different key


# -- Rule of One ----------------------------------------------------------------------------------------


def test_rule_of_one() -> None:
    # reference/earthdawn.md 1.4: all dice show 1; this project counts it from 2 dice (ED4 implementations)
    assert rule_of_one("step 14") == pytest.approx(1 / 144)
    assert rule_of_one("step 7") == 0.0  # one die: below the two-dice minimum
    assert rule_of_one("step 7", min_dice=1) == pytest.approx(1 / 12)
    assert rule_of_one("step 19") == pytest.approx(1 / (20 * 36))
    assert exact.RULE_OF_ONE_MIN_DICE == {"ed4": 2, "ed1": 2}


def test_rule_of_one_fails_a_total_that_would_succeed() -> None:
    # step 19 (d20+2d6) all ones totals 3: against DN 3 that would succeed, but the Rule of One fails it
    d = distribution("step 19")
    o = ed4_test("step 19", 3)
    assert o.p_success == pytest.approx(float(d.at_least(3)) - 1 / 720, abs=1e-15)
    assert o.extra.sum() == pytest.approx(o.p_success, abs=1e-15)
    # and the ED1 levels put it in its own entry
    o1 = ed1_test("step 19", 3)
    assert o1.levels is not None and o1.levels["Rule of One"] == pytest.approx(1 / 720)
    assert sum(o1.levels.values()) == pytest.approx(1.0, abs=1e-12)


# -- ED4 ------------------------------------------------------------------------------------------------


@given(st.integers(1, 40), st.integers(1, 60))
@settings(max_examples=60, deadline=None)
def test_ed4_extra_successes_partition_success(step: int, dn: int) -> None:
    o = ed4_test(f"step {step}", dn)
    d = step_distribution(step)
    assert o.extra.sum() == pytest.approx(o.p_success, abs=1e-12)
    assert o.p_success <= float(d.at_least(dn)) + 1e-15
    # one extra success or more means a result of DN+5 or more
    p1 = rule_of_one(f"step {step}")
    assert o.p_at_least_extra(1) == pytest.approx(float(d.at_least(dn + 5)), abs=p1 + 1e-12)


def test_ed4_step_14_dn_9_by_hand() -> None:
    # 2d12, exploding on 12. P(>= 9) = 1 - P(two faces <= 11 summing to 2..8) = 1 - 28/144.
    o = ed4_test("step 14", 9)
    assert o.p_success == pytest.approx(1 - 28 / 144, abs=1e-12)
    # no extra success: 9..13. A 12 explodes to at least 13 and the other die adds 1+, so only faces <= 11:
    # pairs summing to 9, 10, 11, 12, 13 number 8 + 9 + 10 + 11 + 10 = 48
    assert o.extra[0] == pytest.approx(48 / 144, abs=1e-12)


# -- ED1 ------------------------------------------------------------------------------------------------

# reference/earthdawn.md 1.5, as printed (DN: Pathetic, Poor, Average, Good, Excellent, Extraordinary)
ED1_LEVEL_ROWS = """
| 2 | — | 1 | 2–4 | 5–6 | 7–8 | 9+ |
| 3 | — | 1–2 | 3–5 | 6–7 | 8–9 | 10+ |
| 4 | — | 1–3 | 4–6 | 7–9 | 10–11 | 12+ |
| 5 | 1 | 2–4 | 5–7 | 8–10 | 11–13 | 14+ |
| 6 | 1 | 2–5 | 6–8 | 9–12 | 13–16 | 17+ |
| 7 | 1–2 | 3–6 | 7–10 | 11–14 | 15–18 | 19+ |
| 8 | 1–3 | 4–7 | 8–12 | 13–15 | 16–19 | 20+ |
| 9 | 1–4 | 5–8 | 9–14 | 15–17 | 18–21 | 22+ |
| 10 | 1–5 | 6–9 | 10–15 | 16–19 | 20–22 (23?) | 24+ |
| 11 | 1–5 | 6–10 | 11–16 | 17–20 | 21–24 | 25+ |
| 12 | 1–6 | 7–11 | 12–17 | 18–22 | 23–26 | 27+ |
| 13 | 1–6 | 7–12 | 13–19 | 20–24 | 25–28 | 29+ (cut off) |
"""


def test_ed1_success_levels_match_reference_rows() -> None:
    table = ed1_success_levels()
    assert sorted(table) == list(range(2, 14))
    for line in ED1_LEVEL_ROWS.strip().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        dn = int(cells[0])
        lows = [int(c.split("–")[0].split("+")[0]) for c in cells[2:]]
        assert table[dn] == tuple(lows), dn
        # each printed range ends just below the next one starts (DN 10 Excellent: "20-22 (23?)", taken 20-23)
        for cell, nxt in zip(cells[2:-1], lows[1:], strict=True):
            top = int(cell.split("–")[-1].split(" ")[0])
            assert top == nxt - 1 or (dn == 10 and top == 22 and nxt == 24), (dn, cell)
        if cells[1] != "—":
            assert int(cells[1].split("–")[-1]) == lows[0] - 1


def test_ed1_level_lookup() -> None:
    assert ed1_level(9, 9) == "Average"
    assert ed1_level(23, 10) == "Excellent"
    assert ed1_level(4, 9) == "Pathetic"
    assert ed1_level(30, 13) == "Extraordinary"
    assert ed1_level(30, 14) is None


def test_ed1_levels_sum_and_agree_with_success() -> None:
    for dn in range(2, 14):
        o = ed1_test("step 14", dn)
        assert o.levels is not None
        assert sum(o.levels.values()) == pytest.approx(1.0, abs=1e-12)
        success = sum(o.levels[k] for k in ("Average", "Good", "Excellent", "Extraordinary"))
        assert success == pytest.approx(o.p_success, abs=1e-12)


def test_ed1_above_dn_13_reports_only_success() -> None:
    o = ed1_test("step 20", 14)
    assert o.levels is None and "DN 2-13" in o.note
    assert o.p_success == pytest.approx(float(distribution("step 20", "ed1").at_least(14)) - 0, abs=1e-15)


# -- GURPS ------------------------------------------------------------------------------------------------


def test_gurps_critical_failure_table() -> None:
    # reference/gurps.md 1.1 (B348), critical failure by effective skill
    table = {3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 10: 17, 14: 17, 15: 17, 16: 18, 20: 18}
    for skill, low in table.items():
        assert gurps_critical_failure_min(skill) == low, skill


def test_gurps_critical_success_thresholds() -> None:
    # reference/gurps.md 1.1 (B347): 3-4 always, 5 at 15+, 6 at 16+
    assert [gurps_critical_success_max(s) for s in (3, 14, 15, 16, 25)] == [4, 4, 5, 6, 6]


def test_gurps_odds_of_n_or_less_match_the_printed_table() -> None:
    # reference/gurps.md 1.1: the odds of rolling N or less on 3d6, percent to one decimal
    printed = {4: 1.9, 5: 4.6, 6: 9.3, 7: 16.2, 8: 25.9, 9: 37.5, 10: 50.0, 11: 62.5, 12: 74.1, 13: 83.8}
    printed |= {14: 90.7, 15: 95.4, 16: 98.1, 17: 99.5, 18: 100.0}
    d = distribution("3d6")
    for n, pct in printed.items():
        assert round(d.at_most(n) * 100, 1) == pct


def test_gurps_roll_under() -> None:
    o = gurps_roll_under(12)
    assert o.p_success == pytest.approx(160 / 216)  # roll <= 12
    assert o.p_critical_success == pytest.approx(4 / 216)  # 3 or 4
    assert o.p_critical_failure == pytest.approx(4 / 216)  # 17 or 18
    hi = gurps_roll_under(20)  # 17 and 18 always fail, whatever the skill
    assert hi.p_success == pytest.approx(1 - 4 / 216)
    assert hi.p_critical_success == pytest.approx(20 / 216)  # 3-6 at 16+
    assert hi.p_critical_failure == pytest.approx(1 / 216)
    lo = gurps_roll_under(3)  # 3-4 always succeed (critically); 13+ is a critical failure
    assert lo.p_success == pytest.approx(4 / 216)
    assert lo.p_critical_failure == pytest.approx(float(distribution("3d6").at_least(13)))
    assert math.isclose(lo.p_success + lo.p_failure, 1.0)


def test_gurps_roll_under_takes_3d6_only() -> None:
    from fracas.errors import UsageError

    with pytest.raises(UsageError, match="3d6"):
        gurps_roll_under(12, "2d6")
