"""How fast ED4 fights run with narration off (``fight.log = None``), one core.

    python benchmarks/bench_fight.py            # full run (a few minutes)
    python benchmarks/bench_fight.py --quick    # fewer fights
    python benchmarks/bench_fight.py --calls    # Python calls per round only (deterministic, no timing)

Measures (in CPU time of this process, so that other load on the machine counts less) fights per second
for a one-on-one and a five-on-five ED4 fight (bundled templates, default tactics), for the core rules
alone (p.371-381, ``Ed4CoreRuleset``) and for the whole chapter (``Ed4Ruleset``), and the time per round
for 2, 10, 50, 200 and 400 combatants (two lines facing each other, everyone fighting: the first 5 rounds
of 3 seeded fights, each fight timed several times and its best kept). Issue 3's targets: 10,000 duels/s
and 2,000 5v5 fights/s, and the time per round growing no faster than n log n. On the shared machine the
timings of one build swing by 20-30% from run to run; ``--calls`` counts Python function calls per round
instead (cProfile, builtins included), the same at any load, so the growth can be read without noise.

Measured 2026-11-30 (first round of the speed work, ``--quick``, load about 5, before -> after, twice each;
fights/s, ms per round; the sizes then were 2-200, each the best of 3 fights of different seeds):

    core 1v1     1,378-1,429 -> 1,576-1,803     core 5v5    140-144 -> 192-196
    chapter 1v1    742-827   ->   765-884       chapter 5v5  60-84  ->  83-106 (3 x 150 fights each)
    per round, core:    10: 0.66-0.78 -> 0.53-0.66   50: 3.7-4.3 -> 3.2-3.4   200: 23.3-31.3 -> 14.1-18.4
    per round, chapter: 10: 1.20      -> 0.97-1.00   50: 7.0-9.4 -> 6.7-7.8   200: 47.3-51.3 -> 37.9-41.5

Second round (2026-11-30 afternoon, commit 213cc6a -> 4c18bae and after: the occupancy index with
standing counts and 8 x 8 blocks per side, route that weighs each hex once, gives up on goals beyond its
reach or behind a closed pocket and tries short bounded searches first, the line of fire and the turn order
read without scans), ``--quick`` twice each, alternated, load 4.4-5.3 (ms per round):

    per round, chapter: 50: 10.1-16.4 -> 7.2-7.5    200: 73.2-78.0 -> 31.2-31.7   400: 130-158 -> 70-76
    per round, core:    50:  8.7-9.4  -> 5.9-6.4    200: 47.7-59.8 -> 16.4-18.3   400:  77-93  -> 37-42
    duels and 5v5 fights/s, two builds run interleaved (best of 6 runs each, load 4.9-6.0): chapter 1v1
    646 -> 739, 5v5 115 -> 109; core 1v1 1,200 -> 1,167, 5v5 207 -> 238: the same within the noise
    (calls per fight: chapter duel 4,026 -> 3,922, 5v5 24,410 -> 23,803; core 5v5 13,173 -> 11,761)

    --calls, per combatant at 2 / 10 / 50 / 200 / 400 combatants, and growth against n log n:
    chapter before   579 / 469 / 856 / 1,618 / 1,466   1.07, 1.40, 0.80 (10-50, 50-200, 200-400)
    chapter after    565 / 455 / 551 /   573 /   569   0.71, 0.77, 0.88
    core before      229 / 243 / 612 / 1,493 / 1,050   1.48, 1.80, 0.62
    core after       230 / 227 / 293 /   287 /   304   0.76, 0.72, 0.94

The calls per combatant are now about flat from 50 to 400 combatants; the timed growth from 200 to 400
still reads 0.98-1.07 in these runs (each call costs a little more in the bigger fights' bigger dicts, and
the timings swing with the load). The speed targets are not met: an ED4 duel is about 60 events and 18
engine steps through the full rules (about 3,900 Python calls).

The named peer, matteoferla/DnD-battler, is not on PyPI (checked against the package index), so it is not
run here; its figures are printed as their authors quote them, labelled as quoted. They are a different game
(D&D 5e) with a different amount of bookkeeping: no events, no per-test modifier lists.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

RULESET = get_ruleset("ed4")
CORE = None  # the core alone (p.371-381), set in main()

QUOTED_PEER = {
    "name": "matteoferla/DnD-battler (quoted, not measured here: not on PyPI)",
    "duels_per_s": "about 4,400 as shipped; 9,300 with its logging off",
    "5v5_per_s": "1,100-1,200 as shipped; 1,900-2,100 with its logging off",
}


def _state(left: list[str], right: list[str]) -> Any:
    return encounter.facing_lines(left, right, name="bench", max_rounds=100)


def fights_per_second(left: list[str], right: list[str], n: int, ruleset: Any = None) -> tuple[float, float]:
    base = _state(left, right)
    rules = ruleset or RULESET
    rounds = 0
    start = time.process_time()
    for seed in range(n):
        f = Fight(rules, base.clone(), RandomDice(seed), log=None)
        f.run()
        rounds += f.state.round
    elapsed = time.process_time() - start
    return n / elapsed, rounds / n


def time_per_round(n: int, rounds: int = 5, seeds: int = 3, repeats: int = 3, ruleset: Any = None) -> float:
    """Seconds per round with ``n`` combatants (n/2 heroes in a line against n/2 ghouls): the first
    ``rounds`` rounds of ``seeds`` fights, each fight timed ``repeats`` times and its best time kept (the
    same fight every time: the best filters out the machine's load, the seeds average the fights' course),
    the total of the best times over the total of the rounds played."""
    half = n // 2
    heroes = ["mica", "thrak", "herekar", "kira", "silar"]
    left = [heroes[i % len(heroes)] for i in range(half)]
    right = ["ghoul"] * half
    base = _state(left, right)
    total, played = 0.0, 0
    for seed in range(seeds):
        best = math.inf
        for _ in range(repeats):
            f = Fight(ruleset or RULESET, base.clone(), RandomDice(seed), log=None)
            f.advance_until_decision()
            start = time.process_time()
            while f.state.round <= rounds and not f.state.ended:
                f.step()
            best = min(best, time.process_time() - start)
        total += best
        played += min(f.state.round, rounds) or 1
    return total / played


def calls_per_round(n: int, rounds: int = 5, seeds: int = 3, ruleset: Any = None) -> float:
    """Python function calls (cProfile's count, builtins included) per round with ``n`` combatants, over the
    same fights as :func:`time_per_round`: the same on any machine at any load, so its growth with ``n`` is
    read without noise (a proxy of the work: calls differ in cost)."""
    import cProfile
    import pstats

    half = n // 2
    heroes = ["mica", "thrak", "herekar", "kira", "silar"]
    base = _state([heroes[i % len(heroes)] for i in range(half)], ["ghoul"] * half)
    calls, played = 0, 0
    for seed in range(seeds):
        f = Fight(ruleset or RULESET, base.clone(), RandomDice(seed), log=None)
        f.advance_until_decision()
        prof = cProfile.Profile()
        prof.enable()
        while f.state.round <= rounds and not f.state.ended:
            f.step()
        prof.disable()
        calls += sum(v[1] for v in pstats.Stats(prof).stats.values())  # type: ignore[attr-defined]
        played += min(f.state.round, rounds) or 1
    return calls / played


def _growth(per: dict[int, float]) -> str:
    sizes = sorted(per)
    ratios = [
        per[b] / per[a] / ((b * math.log(b)) / (a * math.log(a)))
        for a, b in zip(sizes, sizes[1:], strict=False)
    ]
    return ", ".join(f"{r:.2f}" for r in ratios)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer fights (a smoke run)")
    ap.add_argument(
        "--calls", action="store_true", help="only the Python calls per round and their growth (no timing)"
    )
    args = ap.parse_args(argv)
    if args.calls:
        from fracas.rules.ed4.ruleset import Ed4CoreRuleset

        for label, rules in (("whole chapter", RULESET), ("core p.371-381 only", Ed4CoreRuleset())):
            per = {n: calls_per_round(n, ruleset=rules) for n in (2, 10, 50, 200, 400)}
            print(f"  Python calls per round, {label} (first 5 rounds of 3 fights):")
            for n, c in per.items():
                print(f"    {n:4d} combatants: {c:11,.0f}  ({c / n:6.0f} per combatant)")
            print(f"    growth vs n log n between sizes: {_growth(per)} (<= 1: no faster)")
        return 0
    n1, n5 = (500, 100) if args.quick else (5000, 1000)
    print(f"fracas ED4 fights, narration off, one core, CPU time (Python {sys.version.split()[0]})")
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    core = Ed4CoreRuleset()
    heroes = ["mica", "thrak", "herekar", "kira", "silar"]
    for label, rules in (("core p.371-381 only", core), ("whole chapter", RULESET)):
        r1, _ = fights_per_second(["mica"], ["ghoul"], n1, rules)
        r5, _ = fights_per_second(heroes, ["ghoul"] * 5, n5, rules)
        print(f"  {label:22s} 1v1 {r1:8,.0f}/s   5v5 {r5:8,.0f}/s")
    rate, rounds = fights_per_second(["mica"], ["ghoul"], n1)
    print(f"  1v1 Mica vs a ghoul:          {rate:9,.0f} fights/s  ({rounds:.1f} rounds each; target 10,000)")
    rate5, rounds5 = fights_per_second(["mica", "thrak", "herekar", "kira", "silar"], ["ghoul"] * 5, n5)
    print(
        f"  5v5 heroes vs five ghouls:    {rate5:9,.0f} fights/s  ({rounds5:.1f} rounds each; target 2,000)"
    )
    sizes = [2, 10, 50, 200, 400]
    repeats = 2 if args.quick else 3
    for label, rules in (("whole chapter", RULESET), ("core p.371-381 only", core)):
        print(f"  time per round, {label} (first 5 rounds of 3 fights, best of {repeats} runs each):")
        per = {}
        for n in sizes:
            per[n] = time_per_round(n, repeats=repeats, ruleset=rules)
            us = per[n] / n * 1e6
            print(f"    {n:4d} combatants: {per[n] * 1e3:9.3f} ms/round  ({us:7.1f} us per combatant)")
        print(f"    growth vs n log n between sizes: {_growth(per)} (<= 1: no faster)")
    print(f"  peer: {QUOTED_PEER['name']}")
    print(f"    duels/s: {QUOTED_PEER['duels_per_s']}; 5v5/s: {QUOTED_PEER['5v5_per_s']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
