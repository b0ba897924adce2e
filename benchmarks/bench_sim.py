"""How fast the simulator plays fights: the reference engine and the batch kernels, one core unless said.

    python benchmarks/bench_sim.py                # a few seconds per measurement
    python benchmarks/bench_sim.py --seconds 1    # quicker, rougher
    python benchmarks/bench_sim.py --mica 20000   # also time the JSON report of 20,000 Mica fights (slow)
    python benchmarks/bench_sim.py --sim-only     # only the `fracas sim` wall times (long: minutes each)
    python benchmarks/bench_sim.py --sim-only --runs 200   # a quick form, scaled to 10,000 fights

First, for every bundled example, the wall time of ``fracas sim FILE -n 10000 --seed 1 --json --workers 2``
(with ``--runs N``, of ``-n N`` for the engine's examples, and the time 10,000 would take: the time
outside the fights as measured plus the fights' time scaled by 10,000 / N; a kernel's examples always play
10,000), the path it takes, and the share of a kernel's fights that it hands back to the engine (measured
in this process over ``min(N, 10,000)`` kernel fights; also for the two S&S duels of the benchmark), with
the peers' quoted figures beside them. The kernels are compiled (or loaded from numba's cache) before the
timing. ``--runs 0`` skips that part.

Then it prints fights per second of wall time and per CPU-second of this process (the second is the fairer
figure on a busy machine, where the process gets only part of a core)

- for every bundled example (examples/*/*.yaml) whose ruleset is installed, with the engine and, where an
  encounter qualifies, with the kernel (the reason is printed where it does not);
- for an ED4 duel that the kernel plays (a ghoul against a cadaver man, adjacent), engine and kernel;
- for Spells & Swords duels that its kernel plays (a fighter against a goblin boss, two trolls), engine and
  kernel;
- for N against N ghouls (two lines facing each other), N = 1, 5, 10, 25, 50, 100, with the engine;
- for a NumPy lock-step duel of simple d20 rules (hit on d20 >= 11, 1d8 damage, 20 hit points): the
  practical limit of a vectorised kernel on this machine, for scale;
- and the wall time of ``fracas sim`` with ``--json`` on two workers for the Mica example (``--mica N``).

The peers (matteoferla/DnD-battler, mattiasr/dragonbane_fight_simulator) are not on PyPI,
so they are not run here; their figures are printed as quoted in the issue, labelled as quoted. They play
other games (D&D 5e, Dragonbane) with far less bookkeeping (no events, no modifier lists).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from fracas.errors import FracasError
from fracas.sim.runner import (
    LocalBackend,
    Scenario,
    choose_engine,
    engine_runs,
    load_scenario,
    run_seeds,
    scenario_from_data,
    simulate,
)

ROOT = Path(__file__).resolve().parents[1]

QUOTED = [
    ("matteoferla/DnD-battler, duels (quoted)", "4,400/s as shipped; 9,300/s logging off"),
    (
        "matteoferla/DnD-battler, 5v5 (quoted)",
        "1,100-1,200/s as shipped; 1,900-2,100/s logging off",
    ),
    ("mattiasr/dragonbane_fight_simulator, duels (quoted)", "6,000/s"),
    ("NumPy lock-step d20 duel (quoted)", "4-12 million/s"),
    ("targets, kernel", "ED4 duel 2,000,000/s; 5v5 melee 200,000/s"),
    ("targets, engine", "10,000 duels/s; 2,000 5v5 fights/s; Mica JSON x 20,000 < 2 s, 2 cores"),
]


Rate = tuple[float, float, int]  # fights per wall second, fights per CPU second of this process, fights


def rate_text(r: Rate, digits: int = 0) -> str:
    return f"{r[0]:,.{digits}f} ({r[1]:,.{digits}f} per CPU-second; {r[2]} fights)"


def engine_rate(sc: Scenario, seconds: float) -> Rate:
    """Fights per second of the reference engine in this process (one fight at a time until the time is
    up, at least one)."""
    controllers = sc.ruleset.tactics()
    done = 0
    chunk = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        seeds = run_seeds(1, chunk, 1)
        engine_runs(sc.ruleset, sc.state, seeds, controllers)
        done += len(seeds)
        chunk += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done / max(time.process_time() - cpu, 1e-9), done


def kernel_rate(sc: Scenario, seconds: float) -> Rate | str:
    engine, why = choose_engine(sc, "auto")
    if engine == "reference":
        return why
    from fracas.sim.kernels import find_kernel

    kernel, _ = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None
    rng = np.random.default_rng(1)
    kernel.run(1000, rng)  # warm up
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        kernel.run(kernel.chunk, rng)
        done += kernel.chunk
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done / max(time.process_time() - cpu, 1e-9), done


def d20_lockstep(n: int = 1_000_000) -> Rate:
    """Duels per second of a minimal NumPy lock-step duel (the practical ceiling of a batch kernel)."""
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    cpu = time.process_time()
    hp = np.full((2, n), 20, dtype=np.int16)
    live = np.arange(n)
    while live.size:
        for a in (0, 1):
            hit = rng.integers(1, 21, size=live.size, dtype=np.int8) >= 11
            dmg = rng.integers(1, 9, size=live.size, dtype=np.int8) * hit
            hp[1 - a, live] -= dmg
            live = live[hp[1 - a, live] > 0]
    return n / (time.perf_counter() - start), n / max(time.process_time() - cpu, 1e-9), n


def ed4_duel() -> Scenario:
    data = {
        "version": 1,
        "ruleset": "ed4",
        "name": "ghoul against cadaver man",
        "max_rounds": 30,
        "sides": [
            {"name": "A", "combatants": [{"template": "ghoul", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "cadaver-man", "at": [1, 0]}]},
        ],
    }
    return scenario_from_data(data, "<bench duel>")


def sas_duel(a: str, b: str) -> Scenario:
    """Two S&S stat blocks of the bestiary side by side (the S&S kernel plays adjacent duels)."""
    data = {
        "version": 1,
        "ruleset": "sas",
        "name": f"{a} against {b}",
        "max_rounds": 30,
        "sides": [
            {"name": "A", "combatants": [{"template": a, "id": "a", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": b, "id": "b", "at": [1, 0]}]},
        ],
    }
    return scenario_from_data(data, f"<S&S {a} v {b}>")


RING = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]  # the six spaces round (0, 0)


def sas_ring(template: str, n: int) -> Scenario:
    """``n`` S&S stat blocks of the bestiary round a fighter, each next to him (the S&S group kernel's)."""
    data = {
        "version": 1,
        "ruleset": "sas",
        "name": f"{n} {template} round a fighter",
        "max_rounds": 30,
        "sides": [
            {"name": "A", "combatants": [{"template": "fighter", "id": "f", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": template, "id": "x", "count": n, "at": RING[:n]}]},
        ],
    }
    return scenario_from_data(data, f"<S&S {n} {template} round a fighter>")


def lines(n: int) -> Scenario:
    data = {
        "version": 1,
        "ruleset": "ed4",
        "name": f"{n} against {n} ghouls",
        "max_rounds": 100,
        "sides": [
            {
                "name": "West",
                "combatants": [
                    {"template": "ghoul", "id": "w", "count": n, "at": [[0, i] for i in range(n)]}
                ],
            },
            {
                "name": "East",
                "combatants": [
                    {"template": "ghoul", "id": "e", "count": n, "at": [[2, i] for i in range(n)]}
                ],
            },
        ],
    }
    return scenario_from_data(data, f"<{n}v{n}>")


def melee5() -> Scenario:
    """Five bandits (characters: they flee, revive) side by side with five ghouls: a 5v5 melee from round 1
    (the ED4 group kernel)."""
    data = {
        "version": 1,
        "ruleset": "ed4",
        "name": "5 bandits against 5 ghouls",
        "max_rounds": 30,
        "sides": [
            {
                "name": "West",
                "combatants": [{"template": "bandit", "count": 5, "at": [[0, i] for i in range(5)]}],
            },
            {
                "name": "East",
                "combatants": [{"template": "ghoul", "count": 5, "at": [[1, i] for i in range(5)]}],
            },
        ],
    }
    return scenario_from_data(data, "<5v5 melee>")


def row(label: str, value: Any) -> None:
    print(f"| {label} | {value} |")


SIM_RUNS = 10_000  # the fights of the wall-time figure of every bundled example
SIM_WORKERS = 2


def fracas_command() -> list[str]:
    """The ``fracas`` command of this interpreter's environment (its entry point, else ``-m fracas``)."""
    exe = Path(sys.executable).with_name("fracas")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("fracas")
    return [found] if found else [sys.executable, "-m", "fracas"]


def sim_wall(path: Path, runs: int, workers: int = SIM_WORKERS) -> tuple[float, float, str]:
    """(wall seconds of ``fracas sim PATH -n RUNS --seed 1 --json --workers W``, the seconds it spent playing
    fights (its JSON ``timing``), its engine)."""
    cmd = [*fracas_command(), "sim", str(path), "-n", str(runs), "--seed", "1", "--json"]
    cmd += ["--workers", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    data = json.loads(done.stdout)
    return wall, float(data["timing"]["seconds"]), str(data["engine"])


def handed_back(sc: Scenario, runs: int) -> tuple[int, int] | str:
    """(fights handed back to the engine, fights) over ``runs`` fights of the scenario's kernel, in this
    process; or why no kernel plays it. A kernel without a ``replay`` never hands a fight back."""
    engine, why = choose_engine(sc, "auto")
    if engine == "reference":
        return why
    from fracas.sim.kernels import find_kernel

    kernel, _ = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None
    rng = np.random.default_rng(1)
    replay = getattr(kernel, "replay", None)
    if replay is None:
        kernel.run(min(runs, 100), rng)  # compiles it, or loads it from the cache, before the timing
        return 0, runs
    back = 0

    def counting(seeds: list[int]) -> Any:
        nonlocal back
        back += len(seeds)
        return replay(seeds)

    kernel.replay = counting  # type: ignore[attr-defined]
    try:
        kernel.run(runs, rng)
    finally:
        del kernel.replay  # type: ignore[attr-defined]
    return back, runs


def share_text(h: tuple[int, int] | str) -> str:
    if isinstance(h, str):
        return "-"
    back, runs = h
    return f"{100 * back / runs:.2f}% ({back:,} of {runs:,})" if back else f"0 of {runs:,}"


def sim_walls(runs: int) -> None:
    """The wall time of ``fracas sim -n 10000 --workers 2`` (scaled from ``runs``) of every bundled example,
    its path, and the share of a kernel's fights handed back to the engine."""
    scaled = runs != SIM_RUNS
    head = f"`fracas sim FILE -n {runs:,} --seed 1 --json --workers {SIM_WORKERS}`"
    cols = ["example", "path", f"wall, -n {runs:,}"]
    if scaled:
        cols.append(f"wall for {SIM_RUNS:,}, scaled")
    cols.append("handed back to the engine")
    print(f"\n{head}, wall seconds (kernels compiled first)\n")
    print("| " + " | ".join(cols) + " |\n|" + " --- |" * len(cols))
    check = min(runs, SIM_RUNS)
    for path in sorted(ROOT.glob("examples/*/*.yaml")):
        name = str(path.relative_to(ROOT))
        try:
            sc = load_scenario(str(path))
            h = handed_back(sc, check)
            # a kernel's time does not scale from a few fights (a chunk costs about the same): always 10,000
            n = SIM_RUNS if isinstance(h, tuple) else runs
            wall, fights, engine = sim_wall(path, n)
        except (FracasError, RuntimeError) as exc:
            print(f"| {name} | not run: {str(exc).splitlines()[0]} |")
            continue
        path_ = engine.replace("kernel:", "kernel ") if isinstance(h, tuple) else f"engine: {h}"
        cells = [name, path_, f"{wall:.2f} s" + ("" if n == runs else f" (-n {n:,})")]
        if scaled:
            cells.append(f"{wall - fights + fights * SIM_RUNS / n:.1f} s")
        cells.append(share_text(h))
        print("| " + " | ".join(cells) + " |")
    for a, b in (("fighter", "goblin-boss"), ("troll", "troll")):
        try:
            h = handed_back(sas_duel(a, b), max(check, 2_000))
        except FracasError as exc:
            print(f"| S&S duel {a} v {b} (bench) | not run: {str(exc).splitlines()[0]} |")
            continue
        cells = [f"S&S duel {a} v {b} (bench)", "kernel sas-duel", *["-"] * (len(cols) - 3), share_text(h)]
        print("| " + " | ".join(cells) + " |")
    print()
    for label, value in QUOTED[:3]:
        print(f"{label}: {value}")
    print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--mica", type=int, default=0, help="also time `fracas sim --json` of N Mica fights")
    ap.add_argument("--max-n", type=int, default=100, help="largest N of the N-against-N scaling")
    ap.add_argument(
        "--runs",
        type=int,
        default=SIM_RUNS,
        help=f"fights per example of the wall times (default {SIM_RUNS:,}; fewer: scaled; 0 skips them)",
    )
    ap.add_argument("--sim-only", action="store_true", help="only the `fracas sim` wall times")
    args = ap.parse_args(argv)
    t = args.seconds
    if args.runs > 0:
        sim_walls(args.runs)
    if args.sim_only:
        return 0

    print("| measurement (one process) | fights/s (wall) |\n| --- | --- |")
    for path in sorted(ROOT.glob("examples/*/*.yaml")):
        name = str(path.relative_to(ROOT))
        try:
            sc = load_scenario(str(path))
        except FracasError as exc:
            row(f"{name}", f"not run: {str(exc).splitlines()[0]}")
            continue
        try:
            row(f"{name}, engine", rate_text(engine_rate(sc, t)))
        except FracasError as exc:
            row(f"{name}, engine", f"failed: {exc}")
            continue
        k = kernel_rate(sc, t)
        row(f"{name}, kernel", k if isinstance(k, str) else rate_text(k))

    duel = ed4_duel()
    row("ED4 duel ghoul v cadaver man, engine", rate_text(engine_rate(duel, t)))
    from fracas.sim.kernels import find_kernel

    built = time.perf_counter()
    find_kernel(duel.ruleset, duel.state)
    row(
        "ED4 duel kernel, build (tables; numba import and compile or cache load, if first here)",
        f"{time.perf_counter() - built:.2f} s (not counted in fights/s)",
    )
    k = kernel_rate(duel, t)
    row("ED4 duel ghoul v cadaver man, kernel", k if isinstance(k, str) else rate_text(k))
    built = time.perf_counter()
    five = lines(5)
    group, _ = find_kernel(five.ruleset, five.state)
    if group is not None and hasattr(group, "compile"):
        group.compile()
    row(
        "ED4 group kernel, build (tables; numba compile once, or cache load)",
        f"{time.perf_counter() - built:.2f} s (not counted in fights/s)",
    )
    k = kernel_rate(lines(5), t)
    row("ED4 5v5 ghouls, kernel", k if isinstance(k, str) else rate_text(k))
    k = kernel_rate(melee5(), t)
    row("ED4 5v5 bandits v ghouls, side by side, kernel", k if isinstance(k, str) else rate_text(k))
    for a, b in (("fighter", "goblin-boss"), ("troll", "troll")):
        try:
            sas = sas_duel(a, b)
        except FracasError as exc:  # the S&S ruleset is not installed
            row(f"S&S duel {a} v {b}", f"not run: {str(exc).splitlines()[0]}")
            continue
        row(f"S&S duel {a} v {b}, engine", rate_text(engine_rate(sas, t)))
        built = time.perf_counter()
        find_kernel(sas.ruleset, sas.state)
        row(f"S&S duel {a} v {b}, kernel build", f"{time.perf_counter() - built:.2f} s (not counted)")
        k = kernel_rate(sas, t)
        row(f"S&S duel {a} v {b}, kernel", k if isinstance(k, str) else rate_text(k))

    for template, n in (("wolf", 3), ("goblin", 6)):
        ring = sas_ring(template, n)
        row(f"S&S group {n} {template} round a fighter, engine", rate_text(engine_rate(ring, t)))
        built = time.perf_counter()
        find_kernel(ring.ruleset, ring.state)
        row(f"S&S group {n} {template}, kernel build", f"{time.perf_counter() - built:.2f} s (not counted)")
        k = kernel_rate(ring, t)
        row(f"S&S group {n} {template} round a fighter, kernel", k if isinstance(k, str) else rate_text(k))

    for size in (1, 5, 10, 25, 50, 100):
        if size > args.max_n:
            break
        row(f"ED4 {size}v{size} ghouls, engine", rate_text(engine_rate(lines(size), t), 2))
        k = kernel_rate(lines(size), t)
        row(f"ED4 {size}v{size} ghouls, kernel", k if isinstance(k, str) else rate_text(k, 1))

    row("NumPy lock-step d20 duel (measured here)", rate_text(d20_lockstep()))
    for label, value in QUOTED:
        row(label, value)

    if args.mica:
        mica = load_scenario(str(ROOT / "examples/ed4/mica-and-the-ghouls.yaml"))
        res = simulate(mica, args.mica, 1, "auto", LocalBackend(2))
        row(
            f"Mica example, {args.mica:,} fights, JSON, 2 workers ({res.engine})", f"{res.seconds:.1f} s wall"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
