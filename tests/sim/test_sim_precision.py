"""``--precision``: a simulation stops at the first chunks after which every side's win rate is known well
enough, and that point does not depend on the workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sim_toy import TOY, ToyStats, make_state

from fracas.cli import main
from fracas.errors import UsageError
from fracas.sim import report
from fracas.sim.runner import (
    ENGINE_CHUNK,
    PRECISION_MIN_RUNS,
    LocalBackend,
    Scenario,
    SerialBackend,
    precise_enough,
    run_chunk,
    simulate,
    simulate_many,
)
from fracas.sim.stats import Tally

A = ToyStats(hit_on=3, sides=6, damage=2, hp=6)
B = ToyStats(hit_on=2, sides=6, damage=3, hp=6)
DOG_PILE = str(Path(__file__).resolve().parents[2] / "examples/sas/dog-pile.yaml")


def _scenario(a: ToyStats = A, b: ToyStats = B) -> Scenario:
    return Scenario(TOY, make_state({"left": [a], "right": [b]}, 8), "toy duel")


def _tally(wins: list[int], runs: int) -> Tally:
    return Tally(("a", "b"), ("left", "right"), runs, wins)


def test_precise_enough_reads_the_wilson_interval() -> None:
    # 400 fights all won: the interval is 0.9905-1, so known to within 0.0095 either way
    assert precise_enough(_tally([400, 0], 400), 0.01)
    assert not precise_enough(_tally([400, 0], 400), 0.009)
    # half and half: the half-width is 1.96 * sqrt(0.25 / n), about 0.049 at 400 and 0.0098 at 10,000
    assert precise_enough(_tally([200, 200], 400), 0.05)
    assert not precise_enough(_tally([200, 200], 400), 0.045)
    assert precise_enough(_tally([5000, 5000], 10_000), 0.01)
    assert not precise_enough(_tally([4000, 4000], 8000), 0.01)
    # every side counts, by its longer arm (0.0041 and 0.0045 for the first, 0.0060 and 0.0057 for the
    # second), and a few fights never settle it
    assert not precise_enough(_tally([500, 9000], 10_000), 0.0059)
    assert precise_enough(_tally([500, 9000], 10_000), 0.0061)
    assert not precise_enough(_tally([PRECISION_MIN_RUNS - 1, 0], PRECISION_MIN_RUNS - 1), 0.2)


def test_it_stops_at_the_first_precise_prefix_whatever_the_workers() -> None:
    sc = _scenario()
    precision = 0.03
    one = simulate(sc, 100 * ENGINE_CHUNK, 7, "reference", SerialBackend(), precision=precision)
    two = simulate(sc, 100 * ENGINE_CHUNK, 7, "reference", LocalBackend(2), precision=precision)
    assert report.without_timing(report.to_json(one)) == report.without_timing(report.to_json(two))
    assert one.precise and one.tally.runs < 100 * ENGINE_CHUNK
    assert one.tally.runs % ENGINE_CHUNK == 0
    # the chunks in order: precise after the last one taken, not one chunk earlier
    prefix = Tally(sc.ids, tuple(sc.state.sides))
    chunks = one.tally.runs // ENGINE_CHUNK
    for c in range(chunks):
        if c == chunks - 1:
            assert not precise_enough(prefix, precision)
        prefix.merge(run_chunk(sc, "reference", 7, c, ENGINE_CHUNK))
    assert prefix.to_json() == one.tally.to_json()
    assert precise_enough(prefix, precision)


def test_the_cap_is_minus_n_and_the_report_says_it_was_not_reached() -> None:
    res = simulate(_scenario(), 5 * ENGINE_CHUNK, 3, "reference", SerialBackend(), precision=0.005)
    assert res.tally.runs == 5 * ENGINE_CHUNK and not res.precise
    data = report.to_json(res)
    assert data["precision"] == {"target": 0.005, "reached": False}
    assert (
        report.to_json(simulate(_scenario(), ENGINE_CHUNK, 3, "reference", SerialBackend()))["precision"]
        is None
    )


def test_each_point_of_a_sweep_stops_on_its_own() -> None:
    easy = _scenario(ToyStats(hit_on=6, sides=6, damage=6, hp=6), ToyStats(hit_on=1, sides=6, damage=1))
    hard = _scenario()
    cap = 60 * ENGINE_CHUNK
    easy_r, hard_r = simulate_many([easy, hard], cap, 2, "reference", SerialBackend(), precision=0.03)
    assert easy_r.precise and hard_r.precise
    assert easy_r.tally.runs == PRECISION_MIN_RUNS < hard_r.tally.runs < cap
    alone = simulate(hard, cap, 2, "reference", SerialBackend(), precision=0.03)
    assert alone.tally.to_json() == hard_r.tally.to_json()


def test_bad_precision_is_refused() -> None:
    with pytest.raises(UsageError):
        simulate(_scenario(), 100, 1, "reference", SerialBackend(), precision=0.5)


@pytest.mark.parametrize("value", ["2", "0", "50%", "-1%", "abc", "nan"])
def test_cli_refuses_a_precision_that_is_not_a_share(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", DOG_PILE, "-n", "10", "--precision", value]) == 2
    err = capsys.readouterr().err
    assert "--precision" in err and "Traceback" not in err


def test_cli_sim_with_a_percentage(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", DOG_PILE, "-n", "2000", "--seed", "1", "--workers", "1", "--precision", "3%", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["precision"] == {"target": 0.03, "reached": True}
    assert PRECISION_MIN_RUNS <= data["runs"] < data["requested"] == 2000
    assert not data["interrupted"]
    assert main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert f"{data['runs']:,} fights (stopped there" in out and "±3 points" in out


def test_a_long_run_suggests_precision_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from fracas.sim import cli as sim_cli

    out = io.StringIO()
    monkeypatch.setattr(sim_cli, "err_console", Console(file=out, force_terminal=True, width=200))
    monkeypatch.setattr(sim_cli, "LONG_RUN", 0.0)
    with sim_cli._progress("x", 300, tip="tip: try --precision") as update:
        assert update is not None
        for done in (100, 200, 300):
            update(done, 300)
    assert out.getvalue().count("tip: try --precision") == 1
    out.truncate(0)
    monkeypatch.setattr(sim_cli, "LONG_RUN", 1e9)  # a quick run: no tip
    with sim_cli._progress("x", 300, tip="tip: try --precision") as update:
        assert update is not None
        update(300, 300)
    assert "tip" not in out.getvalue()
