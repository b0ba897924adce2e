"""Fights per CPU-second of the ED4 one-against-one batch kernel alone (one core), for the bench duel and
the duels of tests/sim/test_sim_ed4.py.

    python benchmarks/bench_ed4_kernel.py               # 2 seconds per duel
    python benchmarks/bench_ed4_kernel.py --seconds 5
    python benchmarks/bench_ed4_kernel.py --numpy     # the NumPy lock-step loop (the fallback without numba)

Table building (and compiling, where a compiled kernel is used) happens before the clock starts and is
printed on its own line.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from fracas.sim.kernels import find_kernel
from fracas.sim.kernels.ed4_melee import Ed4DuelKernel
from fracas.sim.runner import scenario_from_data


def duel(a: dict, b: dict, **top: object) -> dict:
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": f"{a['template']} against {b['template']}",
        "max_rounds": top.pop("max_rounds", 30),
        "options": top.pop("options", {}),
        "sides": [
            {"name": "A", "combatants": [{**a, "at": [0, 0]}]},
            {"name": "B", "combatants": [{**b, "at": [1, 0]}]},
        ],
    }


DUELS = {
    "ghoul-cadaver (bench_sim duel)": duel({"template": "ghoul"}, {"template": "cadaver-man"}),
    "thrak-ghoul": duel(
        {"template": "thrak", "player": True, "stats": {"unconsciousness": 38}},
        {"template": "ghoul", "stats": {"actions": 2}},
        max_rounds=6,
    ),
    "silar-ghoul": duel(
        {"template": "silar"},
        {"template": "ghoul"},
        options={"take-the-initiative": True, "wound-penalties": False},
    ),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per duel")
    ap.add_argument("--numpy", action="store_true", help="the NumPy lock-step loop, not the compiled one")
    args = ap.parse_args(argv)
    for name, data in DUELS.items():
        sc = scenario_from_data(data, name)
        t0 = time.perf_counter()
        if args.numpy:
            kernel = Ed4DuelKernel(sc.ruleset, sc.state, jit=False)
        else:
            kernel, why = find_kernel(sc.ruleset, sc.state)
            assert isinstance(kernel, Ed4DuelKernel), why or type(kernel).__name__
        kernel.run(1000, np.random.default_rng(1))  # warm up (and compile, if compiled)
        setup = time.perf_counter() - t0
        rng = np.random.Generator(np.random.PCG64(1))
        done = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < args.seconds:
            kernel.run(kernel.chunk, rng)
            done += kernel.chunk
        wall, used = time.perf_counter() - start, max(time.process_time() - cpu, 1e-9)
        print(
            f"{name}: {done / used:,.0f} fights per CPU-second ({done / wall:,.0f}/s wall, {done} fights); "
            f"build + warm-up {setup:.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
