"""The floor under the reference engine: what an ED4 fight's events and dice cost before any rule runs.

    python benchmarks/bench_event_floor.py            # 300 duels and 60 five-on-five fights
    python benchmarks/bench_event_floor.py --n 1000   # more fights, steadier figures

Issue 3 asks the reference engine for 10,000 one-on-one ED4 fights per second and 2,000 five-on-five fights
per second on one core: a budget of 100 us per duel and 500 us per 5v5 fight. The engine keeps events as the
source of truth (DESIGN.md): every fight is a list of frozen events, and the state is their fold. This script
plays fights with the whole chapter (Mica against a ghoul; five heroes against five ghouls), keeps their
events, and then times, per fight and in CPU time of this process,

- building the same events again from their field values (each class's own ``__init__``, the fast one of
  ``events._fast_init``), without the work of deciding what they hold;
- folding them onto a fresh copy of the starting state (``state.clone()`` and ``event.apply``), what the
  engine does as it goes;
- rolling the same step dice again (``combat.roll_step_dice``, every face kept, as the engine does).

Their sum is a floor for any engine of this design in CPython: it leaves out the rules, the tactic and the
modifier lists. When it alone fills most of the budget, the target cannot be met by making the rules code
faster, only by a different design (no per-event objects, or compiled code on the whole event path).

Measured 2026-11-30 with the defaults, four runs while four other jobs shared the 2 cores (load 3.5-4):

    duel (67 events, 19 step rolls): build 41-71 us, fold 23-36 us, dice 13-35 us: 78-142 us of 100 us
    5v5 (322 events, 93 step rolls): build 239-408 us, fold 105-182 us, dice 81-191 us: 454-706 us of 500 us

At its quickest the floor alone takes 78% of a duel's budget and 91% of a 5v5 fight's.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import Any

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import InitiativeRolled, Rolled
from fracas.engine.play import Fight
from fracas.rules.earthdawn.combat import roll_step_dice
from fracas.rules.registry import get_ruleset

HEROES = ["mica", "thrak", "herekar", "kira", "silar"]


def _played(left: list[str], right: list[str], n: int) -> tuple[Any, list[list[Any]]]:
    rules = get_ruleset("ed4")
    base = encounter.facing_lines(left, right, name="floor", max_rounds=100)
    logs = []
    for seed in range(n):
        fight = Fight(rules, base.clone(), RandomDice(seed))
        fight.run()
        logs.append(list(fight.log))
    return base, logs


def _per_fight(fn: Any, fights: int, repeats: int = 3) -> float:
    """The best of ``repeats`` timings of ``fn()``, in microseconds per fight."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best / fights * 1e6


def floor(left: list[str], right: list[str], n: int) -> dict[str, float]:
    """Events and step rolls per fight, and the microseconds each part of the floor costs per fight."""
    base, logs = _played(left, right, n)
    fields = {}
    records = []
    for log in logs:
        rec = []
        for event in log:
            cls = type(event)
            names = fields.get(cls)
            if names is None:
                names = fields[cls] = tuple(f.name for f in dataclasses.fields(cls))
            rec.append((cls, tuple(getattr(event, name) for name in names)))
        records.append(rec)
    steps = [
        e.step
        for log in logs
        for e in log
        if (isinstance(e, Rolled) or isinstance(e, InitiativeRolled) and e.roll) and e.step is not None
    ]
    edition = get_ruleset("ed4").edition  # type: ignore[attr-defined]

    def build() -> None:
        for rec in records:
            for cls, args in rec:
                cls(*args)

    def fold() -> None:
        for log in logs:
            state = base.clone()
            for event in log:
                event.apply(state)

    def dice() -> None:
        source = RandomDice(1)
        for step in steps:
            roll_step_dice(step, source, edition)

    return {
        "events": sum(map(len, logs)) / n,
        "rolls": len(steps) / n,
        "build_us": _per_fight(build, n),
        "fold_us": _per_fight(fold, n),
        "dice_us": _per_fight(dice, n),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=300, help="duels to play (a fifth as many 5v5 fights)")
    args = ap.parse_args(argv)
    print(f"the event floor of the ED4 reference engine, whole chapter (Python {sys.version.split()[0]})")
    for label, left, right, n, budget in (
        ("duel, Mica v a ghoul", ["mica"], ["ghoul"], args.n, 100.0),
        ("5v5, heroes v ghouls", HEROES, ["ghoul"] * 5, max(1, args.n // 5), 500.0),
    ):
        f = floor(left, right, n)
        total = f["build_us"] + f["fold_us"] + f["dice_us"]
        print(
            f"  {label}: {f['events']:.0f} events, {f['rolls']:.0f} step rolls per fight; "
            f"build {f['build_us']:.0f} us, fold {f['fold_us']:.0f} us, dice {f['dice_us']:.0f} us: "
            f"{total:.0f} us, {100 * total / budget:.0f}% of the {budget:.0f} us budget"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
