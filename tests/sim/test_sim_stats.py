"""The statistics of the simulator: Wilson intervals against published values, quantiles, merging."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.sim.stats import Tally, quantile, summarize, wilson


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Newcombe, "Two-sided confidence intervals for the single proportion" (Stat. Med. 1998), Table I,
        # method 3 (Wilson score interval without continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


@given(st.integers(1, 10_000), st.data())
def test_wilson_contains_the_estimate_and_stays_in_0_1(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    # symmetric: the interval of the failures mirrors the interval of the successes
    lo2, hi2 = wilson(n - k, n)
    assert lo2 == pytest.approx(1 - hi, abs=1e-12) and hi2 == pytest.approx(1 - lo, abs=1e-12)


def test_quantile_is_the_inverse_cdf() -> None:
    h = {1: 5, 2: 3, 3: 2}
    assert quantile(h, 0.5) == 1
    assert quantile(h, 0.51) == 2
    assert quantile(h, 0.8) == 2
    assert quantile(h, 0.9) == 3
    assert quantile({}, 0.5) is None


def _tally(seed: int) -> Tally:
    import random

    r = random.Random(seed)
    t = Tally(("a", "b"), ("x", "y"))
    t.wins = [r.randrange(10), r.randrange(10)]
    t.draws = r.randrange(5)
    t.runs = sum(t.wins) + t.draws
    t.rounds = {r.randrange(1, 6): r.randrange(1, 9) for _ in range(3)}
    t.status = [{"active": r.randrange(9)}, {"dead": r.randrange(9), "unconscious": r.randrange(3)}]
    t.dealt = [r.randrange(99), r.randrange(99)]
    return t


@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=6), st.randoms())
def test_merging_in_any_order_gives_the_same_report(seeds: list[int], rnd) -> None:
    parts = [_tally(s) for s in seeds]
    a = Tally(("a", "b"), ("x", "y"))
    for t in parts:
        a.merge(t)
    shuffled = list(parts)
    rnd.shuffle(shuffled)
    b = Tally(("a", "b"), ("x", "y"))
    for t in shuffled:
        b.merge(t)
    assert summarize(a) == summarize(b)
    assert Tally.from_json(a.to_json()).to_json() == a.to_json()


def test_summary_numbers() -> None:
    t = Tally(("a", "b"), ("x", "y"))
    t.runs = 4
    t.wins = [3, 0]
    t.draws = 1
    t.rounds = {2: 1, 3: 2, 10: 1}
    t.status = [{"active": 3, "unconscious": 1}, {"dead": 2, "unconscious": 1, "active": 1}]
    t.dealt = [20, 4]
    t.taken = [4, 20]
    t.wounds = [0, 6]
    s = summarize(t, {"a": "Alf"}, {"a": "x", "b": "y"})
    assert s["sides"]["x"]["win_rate"] == 0.75
    assert s["draws"]["rate"] == 0.25
    assert s["rounds"] == {
        "mean": 4.5,
        "p50": 3,
        "p90": 10,
        "min": 2,
        "max": 10,
        "histogram": {"2": 1, "3": 2, "10": 1},
    }
    b = s["combatants"]["b"]
    assert (b["dead"], b["unconscious"], b["out"], b["wounds"], b["damage_taken"]) == (
        0.5,
        0.25,
        0.75,
        1.5,
        5.0,
    )
    assert s["combatants"]["a"]["name"] == "Alf"
