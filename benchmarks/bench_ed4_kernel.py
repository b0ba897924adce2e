"""Fights per CPU-second of the ED4 batch kernels alone (one core): the one-against-one kernel for the bench
duel and the duels of tests/sim/test_sim_ed4.py, the group kernel (numba) for the 5v5 melees of
benchmarks/bench_sim.py and the Mica example.

    python benchmarks/bench_ed4_kernel.py               # 2 seconds per encounter
    python benchmarks/bench_ed4_kernel.py --seconds 5
    python benchmarks/bench_ed4_kernel.py --group     # the group kernel only, with the dice floor
    python benchmarks/bench_ed4_kernel.py --group --lines 10,25,100   # also N v N ghouls two hexes apart

With ``--group`` it also prints, per encounter, the draws per fight and the fights per CPU-second of a bare
loop of that many draws from the same tables (the dice floor: everything else is the tactic and the
bookkeeping). On a loaded machine CPU-seconds still vary by 10-20 % between runs: compare runs made side by
side, best of several.

Table building (and compiling, where a compiled kernel is used) happens before the clock starts and is
printed on its own line.

Measured 2026-11-30 (``--group --lines 10,25,100 --seconds 2``, load average 2.1-2.2 on 2 cores), fights
per CPU-second: 5v5 ghouls 69,600 (110 draws per fight, dice floor 1.24 million), 5 bandits v 5 ghouls
87,200, Mica 60,300, 10v10 17,500, 25v25 3,000, 100v100 109. The same minute, paired against the kernel
before the route search's depth bound, the foe sides on the occupancy grid and the three-neighbour route
step (medians of 14 alternating 0.3 s slices): 5v5 +15 %, bandits +6 %, Mica +27 %, 10v10 +25 %,
25v25 +16 %, 100v100 +15 %; but one ghoul against one two hexes apart (bench_sim's 1v1 row, which this
kernel plays) -20 to -25 % (about 530,000 against 660,000), from the foe sides on the grid. Issue 9's target
for a 5v5 melee is 200,000.

Measured 2026-11-30 17:43 after the usual turn from the grid, hexgrid.route's shortcuts in the kernel's route
search and the scan of three combatants or fewer (``--group --lines 1,10,25,100 --seconds 2``, load average
7.4-8.1 on 2 cores, so every figure is low): 5v5 ghouls 70,900, bandits 80,600, Mica 52,600, 1v1 two hexes
apart 689,000, 10v10 16,900, 25v25 4,480, 100v100 287. Paired against the kernel before (the same stream;
minimum of 16-26 timings of three fixed chunks of fights each, both orders, load 4-8): 5v5 -4 to +5 % (no
change that shows above the noise), bandits +1 to +13 %, Mica +6 to +15 %, 1v1 +2 to +8 %, 10v10 +1 to
+11 %, 25v25 +14 to +16 %, 100v100 x2.4 to x2.7. Kept out (no gain that showed): a ring-by-ring survey of
the nearest enemy on the grid for 40 or more combatants, the five nearest candidates' distances packed once,
a branch-free read of the six neighbours (1v1 -25 %), and inlining the greedy path walk (1v1 -20 %). A
decision kept between turns would serve 1-2 % of the 5v5's turns: something the choice reads (a position,
a status, someone's damage) changes between two turns of the same combatant in all the others.

Measured 2026-11-30 18:25 with the attack side's changes merged (interleaved alias cells, the fixed part of
the acting-order keys computed once, rare paths out of line; ``--group --lines 1,10,25,100 --seconds 2``,
load average 0.9-1.0): 5v5 ghouls 65,200, bandits 88,300, Mica 60,600, 1v1 two hexes apart 619,000, 10v10
19,800, 25v25 4,140, 100v100 294. Runs a minute apart at that load gave the 5v5 61,000-80,000 and the
bandits 84,000-102,000: whole-process figures move by 20 %. Callgrind (1,000 5v5 fights, ``play`` only):
92.7 million instructions and 815,000 mispredicted branches at the start of the session, 85.1 million and
783,000 now, about 1,700 instructions a turn. 200,000 fights per CPU-second needs about a third of that.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from fracas.sim.kernels import find_kernel
from fracas.sim.kernels.ed4_melee import Ed4DuelKernel
from fracas.sim.runner import load_scenario, scenario_from_data

ROOT = Path(__file__).resolve().parents[1]


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


def _line(side: str, template: str, q: int, n: int) -> dict:
    return {
        "name": side,
        "combatants": [
            {"template": template, "id": side.lower(), "count": n, "at": [[q, i] for i in range(n)]}
        ],
    }


GROUPS = {
    "5v5 ghouls two hexes apart (bench_sim)": lambda: scenario_from_data(
        {
            "version": 1,
            "ruleset": "ed4",
            "max_rounds": 100,
            "sides": [_line("West", "ghoul", 0, 5), _line("East", "ghoul", 2, 5)],
        }
    ),
    "5 bandits v 5 ghouls side by side (bench_sim)": lambda: scenario_from_data(
        {
            "version": 1,
            "ruleset": "ed4",
            "max_rounds": 30,
            "sides": [_line("West", "bandit", 0, 5), _line("East", "ghoul", 1, 5)],
        }
    ),
    "examples/ed4/mica-and-the-ghouls.yaml": lambda: load_scenario(
        str(ROOT / "examples/ed4/mica-and-the-ghouls.yaml")
    ),
}


def _draws_per_fight(kernel: object, fights: int) -> float:
    """Draws per fight: the stream's words counted by stepping a copy of the generator in step."""
    from fracas.sim.kernels import ed4_group_core as core

    k = kernel
    seed = np.random.default_rng(3).bit_generator.random_raw(4).astype(np.uint64)
    probe = seed.copy()
    nc, ns = len(k.ids), len(k.sides)
    z = np.zeros
    off, shift, keep, own, alias = k._tabs
    k._play(
        fights, seed, k._cst, k._att, k._pref, k._kuse, k._flee, off, shift, keep, own, alias, k._flags,
        z(ns + 2, dtype=np.int64), z((nc, 4), dtype=np.int64), z(nc, dtype=np.int64), z(nc, dtype=np.int64),
        z(nc, dtype=np.int64), z(k.max_rounds + 1, dtype=np.int64), z((ns, 2, nc + 1), dtype=np.int64),
        z((nc, core.NST), dtype=np.int64),
        z((core.NWK, k._width), dtype=np.int64), z(k._grid_shape, dtype=np.int64),
    )  # fmt: skip
    count = 0
    while not np.array_equal(probe, seed):
        core._next(probe)
        count += 1
    return count / fights


def _floor(kernel: object, draws: float, seconds: float) -> float:
    """Fights per CPU-second of a loop that only draws ``draws`` test outcomes per fight (step 11 row)."""
    from fracas.sim.kernels import ed4_group_core as core

    off, shift, keep, own, alias = kernel._tabs
    seed = np.array([1, 2, 3, 4], dtype=np.uint64)
    core.sample_many(10, seed, 11, off, shift, keep, own, alias)
    n, done = 1_000_000, 0
    cpu = time.process_time()
    while time.process_time() - cpu < seconds:
        core.sample_many(n, seed, 11, off, shift, keep, own, alias)
        done += n
    return done / max(time.process_time() - cpu, 1e-9) / draws


def _ghoul_lines(n: int) -> object:
    """N ghouls against N ghouls, two lines two hexes apart (bench_sim's scaling encounter)."""
    return scenario_from_data(
        {
            "version": 1,
            "ruleset": "ed4",
            "max_rounds": 100,
            "sides": [_line("West", "ghoul", 0, n), _line("East", "ghoul", 2, n)],
        }
    )


def group(seconds: float, lines: tuple[int, ...] = ()) -> None:
    encounters = dict(GROUPS)
    for n in lines:
        encounters[f"{n}v{n} ghouls two hexes apart"] = lambda n=n: _ghoul_lines(n)
    for name, make in encounters.items():
        sc = make()
        t0 = time.perf_counter()
        kernel, why = find_kernel(sc.ruleset, sc.state)
        assert kernel is not None and kernel.name == "ed4-group", why
        kernel.run(1000, np.random.default_rng(1))  # compile or load from numba's cache
        setup = time.perf_counter() - t0
        rng = np.random.Generator(np.random.PCG64(1))
        done = 0
        cpu = time.process_time()
        while time.process_time() - cpu < seconds:
            kernel.run(kernel.chunk, rng)
            done += kernel.chunk
        used = max(time.process_time() - cpu, 1e-9)
        draws = _draws_per_fight(kernel, 2000)
        print(
            f"{name}: {done / used:,.0f} fights per CPU-second ({done} fights); {draws:.0f} draws per fight, "
            f"dice floor {_floor(kernel, draws, min(seconds, 1.0)):,.0f}/CPU-s; build + warm-up {setup:.2f} s"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per encounter")
    ap.add_argument("--group", action="store_true", help="the group kernel only")
    ap.add_argument("--lines", default="", help="also N v N ghoul lines for these N (comma-separated)")
    args = ap.parse_args(argv)
    lines = tuple(int(x) for x in args.lines.split(",") if x.strip())
    if args.group:
        group(args.seconds, lines)
        return 0
    for name, data in DUELS.items():
        sc = scenario_from_data(data, name)
        t0 = time.perf_counter()
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
    group(args.seconds, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
