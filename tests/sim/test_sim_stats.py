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
    t.side_dead = [{k: r.randrange(5) for k in range(r.randrange(3))}, {1: r.randrange(5)}]
    t.side_out = [{0: r.randrange(5)}, {k: r.randrange(5) for k in range(r.randrange(3))}]
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


def test_casualties_per_side() -> None:
    # side x: two combatants (a, c), side y: one (b); four fights, their final statuses
    t = Tally(("a", "b", "c"), ("x", "y"))
    fights = [
        ("dead", "active", "dead"),
        ("unconscious", "active", "active"),
        ("active", "dead", "fled"),
        ("active", "unconscious", "active"),
    ]
    for statuses in fights:
        t.runs += 1
        for i, status in enumerate(statuses):
            t.status[i][status] = t.status[i].get(status, 0) + 1
        t.count_losses([0, 1, 0], list(statuses))
    assert t.side_dead == [{2: 1, 0: 3}, {0: 3, 1: 1}]
    assert t.side_out == [{2: 1, 1: 2, 0: 1}, {0: 2, 1: 2}]
    c = summarize(t, sides_of={"a": "x", "b": "y", "c": "x"})["casualties"]
    x, y = c["x"], c["y"]
    assert x["combatants"] == 2 and y["combatants"] == 1
    assert (x["anyone_dead"]["rate"], x["all_dead"]["rate"], x["anyone_out"]["rate"]) == (0.25, 0.25, 0.75)
    assert (x["all_out"]["rate"], x["mean_dead"], x["mean_out"]) == (0.25, 0.5, 1.0)
    assert x["dead"] == {"0": 0.75, "2": 0.25}
    assert (y["anyone_dead"]["rate"], y["all_out"]["rate"], y["mean_out"]) == (0.25, 0.5, 0.5)
    # a mean is the sum of the side's combatants' shares
    s = summarize(t, sides_of={"a": "x", "b": "y", "c": "x"})["combatants"]
    assert x["mean_dead"] == s["a"]["dead"] + s["c"]["dead"]
    assert x["mean_out"] == s["a"]["out"] + s["c"]["out"]
    # merging adds the histograms; a duel kernel's tally gets them from the statuses
    both = Tally.from_json(t.to_json()).merge(t)
    assert both.side_dead[0] == {0: 6, 2: 2}
    duel = Tally(("a", "b"), ("x", "y"), runs=4, status=[{"active": 1, "dead": 3}, {"active": 2, "fled": 2}])
    duel.losses_of_one_each([1, 0])
    assert duel.side_dead == [{0: 4}, {0: 1, 1: 3}]
    assert duel.side_out == [{0: 2, 1: 2}, {0: 1, 1: 3}]
    with pytest.raises(ValueError, match="one combatant per side"):
        t.losses_of_one_each([0, 1, 0])


def test_casualties_are_left_out_where_not_counted() -> None:
    t = Tally(("a", "b"), ("x", "y"), runs=3, wins=[3, 0])
    assert summarize(t)["casualties"] == {}
