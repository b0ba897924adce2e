"""How fast ED4 fights run with narration off (``fight.log = None``), one core.

    python benchmarks/bench_fight.py            # full run (a few minutes)
    python benchmarks/bench_fight.py --quick    # fewer fights

Measures (in CPU time of this process, so that other load on the machine counts less) fights per second
for a one-on-one and a five-on-five ED4 fight (bundled templates, default tactics), for the core rules
alone (p.371-381, ``Ed4CoreRuleset``) and for the whole chapter (``Ed4Ruleset``), and the time per round
for 2, 10, 50 and 200 combatants (two lines facing each other, everyone fighting). Issue 3's targets:
10,000 duels/s and 2,000 5v5 fights/s, and the time per round growing no faster than n log n.

Measured 2026-11-30 with ``--quick`` on the shared 2-core machine (load about 5), the code before the speed
work of issue 3 and after it run back to back, twice each (fights/s, ms per round):

    core 1v1     1,378-1,429 -> 1,576-1,803     core 5v5    140-144 -> 192-196
    chapter 1v1    742-827   ->   765-884       chapter 5v5  60-84  ->  83-106 (3 x 150 fights each)
    per round, core:    10: 0.66-0.78 -> 0.53-0.66   50: 3.7-4.3 -> 3.2-3.4   200: 23.3-31.3 -> 14.1-18.4
    per round, chapter: 10: 1.20      -> 0.97-1.00   50: 7.0-9.4 -> 6.7-7.8   200: 47.3-51.3 -> 37.9-41.5

Growth against n log n from 50 to 200 combatants: core 1.16-1.34 -> 0.82-1.00, chapter 1.00-1.25 ->
0.99-1.05 (the chapter's adjacency scans still look at every combatant). The targets are not met: an ED4
duel is about 60 events and 18 engine steps through the full rules.

The named peer, matteoferla/DnD-battler, is not on PyPI (checked against the package index), so it is not
run here; its figures are printed as quoted in issue 3, labelled as quoted. They are a different game
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
    "name": "matteoferla/DnD-battler (quoted in issue 3, not measured here: not on PyPI)",
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer fights (a smoke run)")
    args = ap.parse_args(argv)
    n1, n5 = (500, 100) if args.quick else (5000, 1000)
    print(f"fracas ED4 fights, narration off, one core, CPU time (Python {sys.version.split()[0]})")
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    core = Ed4CoreRuleset(plugins=())
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
        ratios = [
            per[b] / per[a] / ((b * math.log(b)) / (a * math.log(a)))
            for a, b in zip(sizes, sizes[1:], strict=False)
        ]
        print(
            "    growth vs n log n between sizes: "
            + ", ".join(f"{r:.2f}" for r in ratios)
            + " (<= 1: no faster)"
        )
    print(f"  peer: {QUOTED_PEER['name']}")
    print(f"    duels/s: {QUOTED_PEER['duels_per_s']}; 5v5/s: {QUOTED_PEER['5v5_per_s']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
