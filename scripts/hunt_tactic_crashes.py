"""Crash hunt (a script, not a test): play every bundled example (examples/*/*.yaml) for many seeds with its
tactics and report each fight that stopped with an error (an illegal command from a tactic, a ruleset that
stopped advancing, a traceback). Every command is validated, as ``fracas fight`` does.

    python scripts/hunt_tactic_crashes.py --seeds 300 [--start 0] [--random 100] [--jobs 2] [examples ...]

Seeds are ``start .. start+seeds-1`` plus ``--random`` 64-bit seeds drawn from ``--master`` (the kind
``fracas fight`` without --seed and ``fracas sim`` use). Replay a finding with
``fracas fight FILE --seed SEED --json``.
"""

from __future__ import annotations

import argparse
import glob
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.errors import FracasError
from fracas.rules.registry import get_ruleset


def play(path: str, seeds: list[int]) -> list[tuple[str, int, str]]:
    spec, initial = encounter.load(path)
    ruleset = get_ruleset(spec.ruleset)
    found = []
    for s in seeds:
        fight = Fight(ruleset, initial.clone(), RandomDice(s), None, seed=s)
        try:
            fight.run_checked()
        except FracasError as exc:
            found.append((path, s, f"{type(exc).__name__}: {exc}"))
        except Exception as exc:  # a traceback is a bug too
            tb = traceback.format_exception(exc)[-3:]
            found.append((path, s, f"{type(exc).__name__}: {exc} | {''.join(tb).strip()}"))
    return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("examples", nargs="*")
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--master", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    files = a.examples or sorted(glob.glob("examples/*/*.yaml"))
    rng = random.Random(a.master)
    seeds = list(range(a.start, a.start + a.seeds)) + [rng.getrandbits(64) for _ in range(a.random)]
    chunk = 50
    jobs = [(f, seeds[i : i + chunk]) for f in files for i in range(0, len(seeds), chunk)]
    t0 = time.time()
    crashes = []
    with ProcessPoolExecutor(a.jobs) as pool:
        for got in pool.map(play, [f for f, _ in jobs], [s for _, s in jobs]):
            for c in got:
                print(f"{c[0]} --seed {c[1]}: {c[2]}", flush=True)
            crashes.extend(got)
    print(
        f"{len(files)} examples x {len(seeds)} seeds = {len(files) * len(seeds)} fights, "
        f"{len(crashes)} crashed, {time.time() - t0:.0f}s",
        file=sys.stderr,
    )
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
