"""The ED4 group kernel on ork scorchers, riders and mounts (p.394-398), against the reference engine.

Agreement: for each encounter the kernel plays 100,000 fights and the engine 600 (FRACAS_SIM_ENGINE_RUNS=N
for more); every outcome's frequency (each side's wins, draws, each combatant's final status, each number
of rounds, the casualties) must pass a two-proportion test at the 99.9% level. The seeds are fixed.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.runner import engine_runs, run_seeds, scenario_from_data  # noqa: E402
from fracas.sim.stats import Z999  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def scorchers_on_foot() -> dict:
    """Two ork scorchers on foot (their Charge (mounted) attack is the charge command's only, p.396: the
    tactic never makes it) and a riderless war horse against Herekar and Thrak."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "scorchers on foot",
        "max_rounds": 12,
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "at": [0, 0]},
                    {"template": "thrak", "player": True, "at": [0, 1]},
                ],
            },
            {
                "name": "Orks",
                "combatants": [
                    {"template": "ork-scorcher", "count": 2, "at": [[4, -1], [5, 0]], "facing": 3},
                    {"template": "war-horse", "at": [4, 1], "facing": 3},
                ],
            },
        ],
    }


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    """A two-proportion z-test at Z999, where valid (5 expected in the smaller sample)."""
    p = (k1 + k2) / (n1 + n2)
    if p * min(n1, n2) < 5:
        return True
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= Z999 * sd + 1e-12


def _outcomes(t, rounds: int) -> dict[str, int]:  # noqa: ANN001
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead", "fled"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for k in range(len(t.ids) + 1):
            out[f"{side}: {k} dead"] = dead.get(k, 0)
            out[f"{side}: {k} out"] = gone.get(k, 0)
    return out


CASES = {
    "ork scorchers on foot (charging attacks never made), a riderless horse": scorchers_on_foot,
}


@pytest.mark.timeout(0 if ENGINE_RUNS > 600 else 900)
@pytest.mark.parametrize("case", sorted(CASES))
def test_mounted_kernel_agrees_with_engine(case: str) -> None:
    sc = scenario_from_data(CASES[case]())
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed4-group", why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(20261202))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(13, 0, ENGINE_RUNS))
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs)
    ]
    assert not bad, "; ".join(bad)
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert all(sum(s.values()) == kt.runs for s in kt.status)
