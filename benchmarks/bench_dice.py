"""fracas dice against the peers a user would pick instead, side by side in one run.

    python benchmarks/bench_dice.py            # about a minute
    python benchmarks/bench_dice.py --quick    # fewer repetitions

1. Exact distributions vs **icepool**: one step's distribution, and the whole table P(step s >= DN) for
   steps 1..40 x DN 1..60 (ED4 and ED1). icepool's explode depth is set per die so that its truncated tail
   mass is no larger than ours (ours keeps K levels of an exploding d s, leaving out s**-K; icepool with
   depth d leaves s**-(d+1) wrongly placed, so d = K - 1); step totals are floored at 1 in both. The two
   tables must agree to 1e-9. fracas is timed cold (its caches cleared before every repetition) and warm.
2. Single rolls that keep every face vs **d20** (avrae): rolls per second of an exploding expression and of
   3d6, each call given the notation as text (both libraries cache parsed expressions). d20 is timed as is
   and with a stringifier that makes no text; the ratio is against the faster of the two.
3. Batch sampling: step tests per second drawn by ``fracas.dice.sample_steps`` (no peer does this; a plain
   NumPy exploding d12 is shown for scale).

Timings are the best of several repetitions of process CPU time (time.process_time: every library timed
here runs on one thread), so that other work on the machine disturbs them less than wall-clock time would;
the header prints the load average. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

import numpy as np

from fracas.dice import exact
from fracas.dice.expr import parse, roll
from fracas.dice.sample import sample_steps
from fracas.dice.source import RandomDice


def best(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Best time of one call, seconds."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(number):
            fn()
        times.append((time.process_time() - t) / number)
    return min(times)


# -- icepool ----------------------------------------------------------------------------------------------


def icepool_step(step: int, edition: str):  # noqa: ANN201 - icepool.Die
    import icepool

    pool = parse(f"step {step}", edition).pool
    n_exploding = len(pool.dice)
    die = None
    for sides, _ in pool.dice:
        depth = exact.explode_levels(sides, n_exploding) - 1
        d = icepool.Die(range(1, sides + 1)).explode(depth=depth)
        die = d if die is None else die + d
    die = die + pool.modifier
    if pool.floor is not None:
        floor = pool.floor
        die = die.map(lambda x: x if x >= floor else floor)
    return die


def icepool_table(steps: range, dns: range, edition: str) -> np.ndarray:
    rows = []
    dn = np.asarray(list(dns))
    for s in steps:
        die = icepool_step(s, edition)
        outcomes = np.asarray(die.outcomes())
        sf = np.asarray([float(p) for p in die.probabilities(">=")] + [0.0])
        idx = np.searchsorted(outcomes, dn, side="left")  # first outcome >= dn
        rows.append(sf[idx])
    return np.stack(rows)


def fracas_table(steps: range, dns: range, edition: str, cold: bool) -> np.ndarray:
    if cold:
        exact.clear_cache()
    return exact.at_least_table(steps, dns, edition)


def bench_exact(repeat: int) -> list[tuple[str, float, float]]:
    import icepool

    print(f"\n## Exact odds vs icepool {icepool.__version__}")
    results = []
    for text in ("step 14", "step 40"):

        def ours(text: str = text) -> object:
            exact.clear_cache()
            return exact.distribution(text)

        def theirs(text: str = text) -> object:
            return icepool_step(int(text.split()[1]), "ed4")

        a, b = best(ours, repeat * 5), best(theirs, max(2, repeat))
        d, die = ours(), theirs()
        diff = max(abs(float(d.at_least(n)) - float(die.probability(">=", n))) for n in range(1, 61))
        print(
            f"distribution of {text!r:10} fracas {a * 1e3:8.3f} ms   icepool {b * 1e3:8.2f} ms   "
            f"ratio {b / a:7.1f}x   max |diff| P(>=DN 1..60) {diff:.1e}"
        )
        results.append((f"distribution {text}", a, b))
    steps, dns = range(1, 41), range(1, 61)
    for edition in ("ed4", "ed1"):
        cold = best(lambda edition=edition: fracas_table(steps, dns, edition, True), repeat * 3)
        warm = best(lambda edition=edition: fracas_table(steps, dns, edition, False), repeat * 3)
        ice = best(lambda edition=edition: icepool_table(steps, dns, edition), max(2, repeat // 2))
        ours_t = fracas_table(steps, dns, edition, True)
        theirs_t = icepool_table(steps, dns, edition)
        diff = float(np.abs(ours_t - theirs_t).max())
        same = "identical to 1e-9" if diff <= 1e-9 else "DIFFERENT"
        print(
            f"table {edition} steps 1-40 x DN 1-60: fracas cold {cold * 1e3:7.2f} ms, "
            f"warm {warm * 1e3:6.3f} ms   "
            f"icepool {ice * 1e3:8.1f} ms   ratio cold {ice / cold:6.1f}x, warm {ice / warm:7.0f}x   "
            f"max |diff| {diff:.1e} ({same})"
        )
        results.append((f"table {edition} cold", cold, ice))
    return results


# -- d20 --------------------------------------------------------------------------------------------------


def bench_rolls(seconds: float) -> list[tuple[str, float, float]]:
    import d20

    print("\n## Single rolls with every face recorded vs d20 (avrae)")
    print("(ratio against d20's faster setting: as is, or with a stringifier that makes no text)")

    class Null(d20.Stringifier):
        def stringify(self, the_roll: object) -> str:
            return ""

    null = Null()
    results = []
    cases = [
        ("step 14 (2d12, exploding)", "step 14", "2d12e12"),
        ("step 19 (d20+2d6, exploding)", "step 19", "1d20e20+2d6e6"),
        ("d12! (one exploding d12)", "d12!", "1d12e12"),
        ("3d6", "3d6", "3d6"),
    ]
    for label, ours_text, d20_text in cases:
        src = RandomDice(1)

        def ours(text: str = ours_text, src: RandomDice = src) -> object:
            return roll(text, src)

        def theirs(text: str = d20_text) -> object:
            return d20.roll(text)

        def theirs_bare(text: str = d20_text) -> object:
            return d20.roll(text, stringifier=null)

        rate_ours = _rate(ours, seconds)
        rate_d20 = _rate(theirs, seconds)
        rate_bare = _rate(theirs_bare, seconds)
        fastest = max(rate_d20, rate_bare)
        print(
            f"{label:30} fracas {rate_ours:9,.0f} rolls/s   d20 {rate_d20:8,.0f} rolls/s "
            f"(no text {rate_bare:8,.0f})   ratio {rate_ours / fastest:5.1f}x"
        )
        results.append((label, 1 / rate_ours, 1 / fastest))
    return results


def _rate(fn: Callable[[], object], seconds: float) -> float:
    for _ in range(200):
        fn()
    best_rate = 0.0
    for _ in range(3):
        n = 0
        t0 = time.process_time()
        end = t0 + seconds / 3
        while True:
            for _ in range(500):
                fn()
            n += 500
            t = time.process_time()
            if t >= end:
                break
        best_rate = max(best_rate, n / (t - t0))
    return best_rate


# -- batch sampling -----------------------------------------------------------------------------------------


def bench_batch(repeat: int) -> None:
    print("\n## Batch sampling (fracas.dice.sample_steps, NumPy Generator)")
    rng = np.random.default_rng(2026)
    n = 1_000_000
    for step, edition in ((5, "ed4"), (14, "ed4"), (19, "ed4"), (30, "ed4"), (40, "ed4"), (14, "ed1")):
        t = best(lambda step=step, edition=edition: sample_steps(step, n, rng, edition), repeat)
        rate = n / t / 1e6
        print(f"{edition} step {step:2}: {n:,} tests in {t * 1e3:6.1f} ms = {rate:6.1f} million step tests/s")

    def numpy_d12() -> np.ndarray:
        x = rng.integers(1, 13, n)
        idx = np.flatnonzero(x == 12)
        while idx.size:
            more = rng.integers(1, 13, idx.size)
            x[idx] += more
            idx = idx[more == 12]
        return x

    t = best(numpy_d12, repeat)
    print(f"for scale, a plain NumPy exploding d12: {n / t / 1e6:6.1f} million/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    repeat = 3 if args.quick else 7
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    versions = f"python {sys.version.split()[0]}, numpy {np.__version__}, {platform.machine()}"
    versions += f", {os.cpu_count()} cpus, load average {load}"
    print(f"# fracas dice benchmark  ({versions})")
    bench_exact(repeat)
    bench_rolls(1.5 if args.quick else 4.5)
    bench_batch(repeat)


if __name__ == "__main__":
    main()
