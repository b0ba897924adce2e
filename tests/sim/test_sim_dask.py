"""The Dask backend against a LocalCluster gives the same report as local processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sim_toy import TOY, ToyStats, make_state

from fracas.sim import report
from fracas.sim.dask_backend import DaskBackend
from fracas.sim.runner import ENGINE_CHUNK, LocalBackend, Scenario, simulate, simulate_many

distributed = pytest.importorskip("distributed")

A = ToyStats(hit_on=3, sides=6, damage=2, hp=6)
B = ToyStats(hit_on=2, sides=6, damage=3, hp=6)


def _scenario(b: ToyStats = B) -> Scenario:
    return Scenario(TOY, make_state({"left": [A], "right": [b]}, 8), "toy duel")


@pytest.fixture(scope="module")
def client():
    # Worker processes (spawned) must import the toy ruleset of this folder, as a real cluster imports
    # fracas: put this folder on their path.
    here = str(Path(__file__).parent)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = here + (os.pathsep + old if old else "")
    try:
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as c,
        ):
            yield c
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


def test_dask_gives_the_same_json_as_local_processes(client) -> None:
    sc = _scenario()
    n = 4 * ENGINE_CHUNK + 3
    local = report.to_json(simulate(sc, n, 21, "reference", LocalBackend(2)))
    dask = report.to_json(simulate(sc, n, 21, "reference", DaskBackend(client=client)))
    assert dask["timing"]["backend"] == "dask" and dask["timing"]["workers"] == 2
    assert report.without_timing(dask) == report.without_timing(local)


def test_dask_stops_at_the_same_precision_point_as_local_processes(client) -> None:
    sc = _scenario()
    local = simulate(sc, 60 * ENGINE_CHUNK, 9, "reference", LocalBackend(2), precision=0.03)
    dask = simulate(sc, 60 * ENGINE_CHUNK, 9, "reference", DaskBackend(client=client), precision=0.03)
    assert local.precise and local.tally.runs < 60 * ENGINE_CHUNK
    assert report.without_timing(report.to_json(dask)) == report.without_timing(report.to_json(local))


def test_dask_runs_a_sweep_and_kernels(client) -> None:
    scs = [_scenario(), _scenario(ToyStats(hit_on=4, sides=6, damage=3, hp=6))]
    local = simulate_many(scs, 30_000, 4, "auto", LocalBackend(2))
    dask = simulate_many(scs, 30_000, 4, "auto", DaskBackend(client=client))
    for a, b in zip(local, dask, strict=True):
        assert a.engine == b.engine == "kernel:toy-duel"
        assert report.without_timing(report.to_json(a)) == report.without_timing(report.to_json(b))
    assert local[0].tally.wins != local[1].tally.wins


def test_unreachable_scheduler_is_a_clear_error() -> None:
    from fracas.errors import UsageError

    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        DaskBackend("tcp://127.0.0.1:9", timeout="1s").execute(
            [_scenario()], [(0, "reference", 0, 1)], 1, lambda *a: None
        )


def test_cli_sim_and_sweep_on_a_scheduler(tmp_path: Path, capsys) -> None:
    """``--scheduler ADDRESS`` end to end: the same JSON as local processes (an ED4 duel, its kernel)."""
    pytest.importorskip("fracas.rules.ed4.ruleset")
    import json

    import yaml

    from fracas.cli import main

    duel = {
        "version": 1,
        "ruleset": "ed4",
        "name": "duel",
        "sides": [
            {"name": "A", "combatants": [{"template": "ghoul", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "cadaver-man", "at": [1, 0]}]},
        ],
    }
    f = tmp_path / "duel.yaml"
    f.write_text(yaml.safe_dump(duel))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        args = ["sim", str(f), "-n", "60000", "--seed", "5", "--json"]
        assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
        on_dask = json.loads(capsys.readouterr().out)
        assert main([*args, "--workers", "2"]) == 0
        local = json.loads(capsys.readouterr().out)
        assert on_dask["timing"]["backend"] == "dask" and on_dask["engine"] == "kernel:ed4-duel"
        assert report.without_timing(on_dask) == report.without_timing(local)
        sweep = ["sweep", str(f), "--vary", "ghoul.stats.physical_armor=0,5", "-n", "2000", "--seed", "1"]
        assert main([*sweep, "--json", "--scheduler", cluster.scheduler_address]) == 0
        points = json.loads(capsys.readouterr().out)["points"]
        assert [p["values"]["ghoul.stats.physical_armor"] for p in points] == [0, 5]
