"""The simulator's machinery with a toy ruleset: exact odds, reproducibility, workers, Ctrl-C, kernels."""

from __future__ import annotations

import pickle

import pytest
from sim_toy import TOY, ToyStats, exact_duel, make_state

from fracas.errors import UsageError
from fracas.sim import report
from fracas.sim.runner import (
    ENGINE_CHUNK,
    LocalBackend,
    Scenario,
    SerialBackend,
    chunk_plan,
    engine_runs,
    run_seeds,
    simulate,
)
from fracas.sim.stats import Z999, wilson

A = ToyStats(hit_on=3, sides=6, damage=2, hp=6)  # 1/2 to hit, 3 hits to put down
B = ToyStats(hit_on=2, sides=6, damage=3, hp=6)  # 1/3 to hit, 2 hits to put down


def _scenario(max_rounds: int = 8, a: ToyStats = A, b: ToyStats = B) -> Scenario:
    return Scenario(TOY, make_state({"left": [a], "right": [b]}, max_rounds), "toy duel")


def _within(k: int, n: int, p: float, z: float = Z999) -> bool:
    lo, hi = wilson(k, n, z)
    return lo <= p <= hi


def _same(k1: int, n1: int, k2: int, n2: int, z: float = Z999) -> bool:
    """Two frequencies consistent with one probability (two-proportion z-test at level z)."""
    p = (k1 + k2) / (n1 + n2)
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= z * sd + 1e-12


def test_the_agreement_test_has_teeth() -> None:
    assert _same(1000, 10_000, 10_100, 100_000)
    assert not _same(1000, 10_000, 11_500, 100_000)


def test_chunks_and_seeds_are_fixed() -> None:
    assert chunk_plan(601, 250) == [(0, 250), (1, 250), (2, 101)]
    assert chunk_plan(0, 250) == []
    assert run_seeds(1, 0, 3) == run_seeds(1, 0, 3)
    assert run_seeds(1, 0, 3) != run_seeds(1, 1, 3)
    assert run_seeds(1, 0, 3) != run_seeds(2, 0, 3)
    assert len(set(run_seeds(7, 3, 1000))) == 1000


def test_exactly_computable_duel_matches_within_its_interval() -> None:
    sc = _scenario()
    exact = exact_duel(A, B, 8)
    res = simulate(sc, 6000, seed=11, engine="reference", backend=SerialBackend())
    t = res.tally
    assert t.runs == 6000 and res.engine == "reference"
    assert _within(t.wins[0], t.runs, float(exact["a"]))
    assert _within(t.wins[1], t.runs, float(exact["b"]))
    assert _within(t.draws, t.runs, float(exact["draw"]))
    assert sum(t.wins) + t.draws == t.runs
    # damage: every hit of the left deals 2, of the right 3; what one deals the other takes
    assert t.dealt[0] == t.taken[1] and t.dealt[1] == t.taken[0]
    assert t.dealt[0] % 2 == 0 and t.dealt[1] % 3 == 0
    # status: the loser of a decided fight is unconscious; nobody dies (death at 100)
    assert t.status[1].get("unconscious", 0) == t.wins[0]
    assert "dead" not in t.status[0] and "dead" not in t.status[1]


def test_a_wrong_exact_value_would_be_caught() -> None:
    # the check above has teeth: the exact odds of a different duel fall outside the interval
    t = simulate(_scenario(), 6000, seed=11, engine="reference", backend=SerialBackend()).tally
    other = exact_duel(B, A, 8)
    assert not _within(t.wins[0], t.runs, float(other["a"]))


def test_same_seed_same_json_with_one_and_two_workers() -> None:
    sc = _scenario()
    n = 3 * ENGINE_CHUNK + 17
    one = report.to_json(simulate(sc, n, seed=5, engine="reference", backend=SerialBackend()))
    two = report.to_json(simulate(sc, n, seed=5, engine="reference", backend=LocalBackend(2)))
    assert two["timing"]["workers"] == 2 and one["timing"]["workers"] == 1
    assert report.without_timing(one) == report.without_timing(two)
    three = report.to_json(simulate(sc, n, seed=6, engine="reference", backend=SerialBackend()))
    assert report.without_timing(three) != report.without_timing(one)


def test_json_has_the_documented_shape() -> None:
    data = report.to_json(simulate(_scenario(), 300, seed=3, engine="reference", backend=SerialBackend()))
    assert data["runs"] == 300 and data["seed"] == 3 and data["fracas"]
    assert set(data["sides"]) == {"left", "right"}
    assert set(data["sides"]["left"]) >= {"win_rate", "ci_low", "ci_high"}
    assert set(data["rounds"]) >= {"mean", "p50", "p90"}
    c = data["combatants"]["left-1"]
    assert set(c) >= {"unconscious", "dead", "damage_dealt", "damage_taken", "wounds"}
    assert set(data["timing"]) == {"seconds", "fights_per_second", "backend", "workers"}
    assert set(data["casualties"]) == {"left", "right"}
    assert set(data["casualties"]["left"]) >= {"anyone_dead", "all_dead", "anyone_out", "all_out"}
    assert data["draws"]["rate"] + sum(s["win_rate"] for s in data["sides"].values()) == pytest.approx(
        1, abs=1e-5
    )


def test_wounds_and_deaths_are_counted() -> None:
    hard = ToyStats(hit_on=6, sides=6, damage=7, hp=6, death=7, wound=5)  # always hits, kills outright
    frail = ToyStats(hit_on=1, sides=6, damage=1, hp=6, death=7)
    t = engine_runs(TOY, make_state({"left": [hard], "right": [frail]}, 5), [1, 2, 3])
    assert t.wins == [3, 0] and t.status[1] == {"dead": 3} and t.wounds == [0, 3]
    assert t.rounds == {1: 3}


def test_ctrl_c_reports_what_it_has() -> None:
    sc = _scenario()
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    res = simulate(
        sc, 10 * ENGINE_CHUNK, seed=1, engine="reference", backend=SerialBackend(), progress=progress
    )
    assert res.interrupted and res.tally.runs == 2 * ENGINE_CHUNK
    data = report.to_json(res)
    assert data["interrupted"] and data["runs"] == 2 * ENGINE_CHUNK and data["requested"] == 10 * ENGINE_CHUNK


def test_ctrl_c_with_worker_processes() -> None:
    sc = _scenario()
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        raise KeyboardInterrupt

    res = simulate(
        sc, 40 * ENGINE_CHUNK, seed=1, engine="reference", backend=LocalBackend(2), progress=progress
    )
    assert res.interrupted and 0 < res.tally.runs < 40 * ENGINE_CHUNK


def test_scenario_pickles_with_its_ruleset() -> None:
    sc = _scenario()
    back = pickle.loads(pickle.dumps(sc))
    assert back.token == sc.token and back.ids == sc.ids and back.ruleset.id == "toy-duel"


def test_kernel_is_chosen_when_it_applies_and_reference_can_be_forced() -> None:
    sc = _scenario()
    assert simulate(sc, 100, 1, "auto", SerialBackend()).engine == "kernel:toy-duel"
    assert simulate(sc, 100, 1, "reference", SerialBackend()).engine == "reference"
    two_v_one = Scenario(TOY, make_state({"left": [A, A], "right": [B]}), "2v1")
    res = simulate(two_v_one, 100, 1, "auto", SerialBackend())
    assert res.engine == "reference" and "one against one" in res.note
    with pytest.raises(UsageError, match="one against one"):
        simulate(two_v_one, 100, 1, "kernel", SerialBackend())
    with pytest.raises(UsageError):
        simulate(sc, 100, 1, "fast", SerialBackend())


def test_kernel_agrees_with_the_engine() -> None:
    """Each outcome's frequency (wins, draws, rounds) from the kernel over 10^5 runs lies within the
    99.9% interval of the engine's, and both within the 99.9% interval of the exact value."""
    sc = _scenario(max_rounds=4)
    exact = exact_duel(A, B, 4)
    k = simulate(sc, 100_000, seed=2, engine="kernel", backend=SerialBackend()).tally
    e = simulate(sc, 10_000, seed=3, engine="reference", backend=LocalBackend(2)).tally
    for got in (k, e):
        assert _within(got.wins[0], got.runs, float(exact["a"]))
        assert _within(got.wins[1], got.runs, float(exact["b"]))
        assert _within(got.draws, got.runs, float(exact["draw"]))
    # two-sample test of each outcome's frequency, kernel against engine
    pairs = [(k.wins[0], e.wins[0]), (k.wins[1], e.wins[1]), (k.draws, e.draws)]
    pairs += [(k.rounds.get(r, 0), e.rounds.get(r, 0)) for r in range(1, 5)]
    for ck, ce in pairs:
        assert _same(ck, k.runs, ce, e.runs)
    assert k.taken[0] / k.runs == pytest.approx(e.taken[0] / e.runs, rel=0.05)


class _Broken(type(TOY)):
    """The toy duel with a bug: any attack in round 3 is refused."""

    def resolve(self, state, command, dice):
        from fracas.errors import IllegalCommand

        if state.round == 3:
            raise IllegalCommand("no attacks in round 3", "toy/bug")
        return super().resolve(state, command, dice)


def test_a_failing_fight_names_the_seed_that_replays_it() -> None:
    from fracas.errors import IllegalCommand
    from fracas.sim.runner import FightFailed

    weak = ToyStats(hit_on=1, sides=6, damage=1, hp=6)
    sc = Scenario(_Broken(), make_state({"left": [weak], "right": [weak]}, 8), "broken")
    for backend in (SerialBackend(), LocalBackend(2)):
        with pytest.raises(FightFailed, match="replay it with --seed") as info:
            simulate(sc, 3 * ENGINE_CHUNK, 1, "reference", backend)
        assert isinstance(info.value.error, IllegalCommand) and info.value.exit_code == 1  # a bug
        # what `fracas fight FILE --seed SEED` does: the same fight, the same failure
        from fracas.dice.source import RandomDice
        from fracas.engine.play import Fight

        with pytest.raises(IllegalCommand, match="round 3"):
            Fight(sc.ruleset, sc.state.clone(), RandomDice(info.value.seed)).run()


def test_engine_counts_casualties_per_side() -> None:
    # two against one: side "left" has two combatants, so its histograms go to 2
    frail = ToyStats(hit_on=2, sides=6, damage=3, hp=6, death=9)
    sc = Scenario(TOY, make_state({"left": [A, frail], "right": [B]}, 8), "toy two v one")
    data = report.to_json(simulate(sc, 600, seed=8, engine="reference", backend=SerialBackend()))
    t = simulate(sc, 600, seed=8, engine="reference", backend=SerialBackend()).tally
    assert all(sum(h.values()) == 600 for h in t.side_dead + t.side_out)
    assert max(t.side_out[0]) == 2
    left = data["casualties"]["left"]
    shares = [c for c in data["combatants"].values() if c["side"] == "left"]
    assert left["combatants"] == 2
    assert left["mean_out"] == pytest.approx(sum(c["out"] for c in shares), abs=1e-5)
    assert left["mean_dead"] == pytest.approx(sum(c["dead"] for c in shares), abs=1e-5)
    # the side is all out exactly when the other side won (a toy fight has no fleeing, no draws here)
    assert left["all_out"]["count"] == data["sides"]["right"]["wins"]
