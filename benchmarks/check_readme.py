"""Does the README tell the truth? Rerun the quick benchmarks behind its speed table and compare.

    python benchmarks/check_readme.py              # about a minute; exit 1 if a figure is off
    python benchmarks/check_readme.py --seconds 3  # steadier figures
    python benchmarks/check_readme.py --only "Spells & Swords"   # the rows whose first cell starts so

Each checked row of the README's speed table (the "fracas" column) is measured again with the benchmark
named beside it, and a figure fails when what is measured here is more than a factor of two away from it:
below half the low end of a range, or above twice its high end. Timing is noisy (and the machine may be
busy), so ``.ci/run`` does not run this; run it before changing a kernel or the engine's hot path, and put
its output in the commit message. A README row this script checks that is no longer found fails too: a
figure moved or reworded must be followed here.

Rows checked (fights per CPU-second of this process unless said): the ED4 reference engine's duels and 5v5
fights (bench_fight.py), the ED4 duel and group kernels, the ED1 kernel, the Spells & Swords duel kernel,
the GURPS kernel, the engine on the bundled examples without a kernel (bench_sim.py), and the wall time of
the README's ``fracas sim`` Mica command. The rows of bench_dice.py, bench_event_floor.py, bench_web.py and
the engine's time per round are listed as not checked here.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FACTOR = 2.0

Figure = tuple[float, float]  # a README figure: (low, high); a single number is (x, x)


# ----- reading the README ------------------------------------------------------------------------------


def speed_rows(text: str) -> dict[str, str]:
    """The README's speed table: first cell -> the "fracas" cell (the table whose header is
    ``| what | fracas | ...``)."""
    rows: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|"):
            inside = False
            continue
        if cells[:2] == ["what", "fracas"]:
            inside = True
            continue
        if inside and len(cells) >= 2 and not set(cells[0]) <= {"-", " "}:
            rows[cells[0]] = cells[1]
    return rows


_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_FIGURE = re.compile(rf"({_NUMBER})(?:\s*-\s*({_NUMBER}))?(\s*million)?")


def figures(cell: str) -> list[Figure]:
    """The figures of a cell, in order, parenthesised remarks left out ("1,200-1,700/s / 650-900/s (target
    10,000)" -> [(1200, 1700), (650, 900)]); "million" multiplies."""
    plain = cell
    while True:
        shorter = re.sub(r"\([^()]*\)", "", plain)
        if shorter == plain:
            break
        plain = shorter
    out = []
    for m in _FIGURE.finditer(plain):
        scale = 1e6 if m.group(3) else 1.0
        lo = float(m.group(1).replace(",", "")) * scale
        hi = float(m.group(2).replace(",", "")) * scale if m.group(2) else lo
        out.append((lo, hi))
    return out


def off_by(figure: Figure, measured: float) -> float:
    """How many times ``measured`` is outside the figure (1.0 inside it)."""
    lo, hi = figure
    if measured <= 0:
        return float("inf")
    if measured > hi:
        return measured / hi
    if measured < lo:
        return lo / measured
    return 1.0


# ----- the checks --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Check:
    """A README row (its first cell starts with ``row``), what each of its figures is (``labels``, in the
    cell's order) and how to measure them all (``measure(seconds)``, in the figures' units)."""

    row: str
    labels: list[str]
    measure: Callable[[float], list[float]]


def _bench(name: str):  # noqa: ANN202 - a benchmark module of this folder
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def _engine_fights(seconds: float, five: bool) -> list[float]:
    """bench_fight.py: ED4 engine fights per CPU-second, core alone then the whole chapter."""
    bf = _bench("bench_fight")
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    core = Ed4CoreRuleset()
    left = ["mica", "thrak", "herekar", "kira", "silar"] if five else ["mica"]
    right = ["ghoul"] * 5 if five else ["ghoul"]
    out = []
    for rules in (core, bf.RULESET):
        n = 10
        rate, _ = bf.fights_per_second(left, right, n, rules)
        n = max(n, int(rate * seconds))  # then about ``seconds`` of fights
        rate, _ = bf.fights_per_second(left, right, n, rules)
        out.append(rate)
    return out


def _kernel_cpu(make: Callable[[], object], seconds: float) -> float:
    bs = _bench("bench_sim")
    r = bs.kernel_rate(make(), seconds)
    if isinstance(r, str):
        raise RuntimeError(f"no kernel: {r}")
    return float(r[1])


def _example(name: str) -> object:
    bs = _bench("bench_sim")
    return bs.load_scenario(str(ROOT / "examples" / name))


def _engine_examples(seconds: float) -> list[float]:
    bs = _bench("bench_sim")
    names = [
        "sas/goblin-horde.yaml",
        "sas/ambush.yaml",
        "sas/cavalry-charge.yaml",
        "gurps4/horse-archers.yaml",
    ]
    return [float(bs.engine_rate(_example(n), seconds)[1]) for n in names]


def _mica_wall(_seconds: float) -> list[float]:
    """The README's command, timed from outside (the kernel compiled or cached first)."""
    bs = _bench("bench_sim")
    mica = ROOT / "examples/ed4/mica-and-the-ghouls.yaml"
    bs.handed_back(bs.load_scenario(str(mica)), 100)  # compiles the kernel, or loads it from the cache
    cmd = [*bs.fracas_command(), "sim", str(mica), "-n", "20000", "--seed", "1", "--json", "--workers", "2"]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"exit {done.returncode}")
    json.loads(done.stdout)
    return [wall]


def _sas(a: str, b: str) -> Callable[[], object]:
    return lambda: _bench("bench_sim").sas_duel(a, b)


CHECKS = [
    Check(
        "ED4 one-against-one fights, reference engine",
        ["core 1v1 /s", "chapter 1v1 /s"],
        lambda s: _engine_fights(s, five=False),
    ),
    Check(
        "ED4 five-against-five fights, reference engine",
        ["core 5v5 /s", "chapter 5v5 /s"],
        lambda s: _engine_fights(s, five=True),
    ),
    Check(
        "ED4 duels, compiled batch kernel",
        ["ghoul v cadaver man, per CPU-s"],
        lambda s: [_kernel_cpu(_bench("bench_sim").ed4_duel, s)],
    ),
    Check(
        "ED4 group melee, compiled batch kernel",
        ["5v5 ghouls", "5v5 side by side", "Mica example"],
        lambda s: [
            _kernel_cpu(lambda: _bench("bench_sim").lines(5), s),
            _kernel_cpu(_bench("bench_sim").melee5, s),
            _kernel_cpu(lambda: _example("ed4/mica-and-the-ghouls.yaml"), s),
        ],
    ),
    Check(
        "ED1 fights, batch kernel",
        ["thom-hammerblade", "ork-rider-skirmish"],
        lambda s: [
            _kernel_cpu(lambda: _example("ed1/thom-hammerblade.yaml"), s),
            _kernel_cpu(lambda: _example("ed1/ork-rider-skirmish.yaml"), s),
        ],
    ),
    Check(
        "`fracas sim examples/ed4/mica-and-the-ghouls.yaml -n 20000",
        ["wall seconds, 2 workers"],
        _mica_wall,
    ),
    Check(
        "Spells & Swords duels, compiled batch kernel",
        ["fighter v goblin boss", "troll v troll"],
        lambda s: [_kernel_cpu(_sas("fighter", "goblin-boss"), s), _kernel_cpu(_sas("troll", "troll"), s)],
    ),
    Check(
        "Spells & Swords group fights, compiled batch kernel",
        ["3 wolves round a fighter", "6 goblins round a fighter"],
        lambda s: [
            _kernel_cpu(lambda: _bench("bench_sim").sas_ring("wolf", 3), s),
            _kernel_cpu(lambda: _bench("bench_sim").sas_ring("goblin", 6), s),
        ],
    ),
    Check(
        "GURPS fights, compiled batch kernel",
        ["fight-on-foot", "winged-duel", "knights-jousting", "horse-archers"],
        lambda s: [
            _kernel_cpu(lambda: _example("gurps4/fight-on-foot.yaml"), s),
            _kernel_cpu(lambda: _example("gurps4/winged-duel.yaml"), s),
            _kernel_cpu(lambda: _example("gurps4/knights-jousting.yaml"), s),
            _kernel_cpu(lambda: _example("gurps4/horse-archers.yaml"), s),
        ],
    ),
    Check(
        "reference engine on the bundled examples without a kernel",
        ["goblin-horde", "ambush", "cavalry-charge", "horse-archers"],
        _engine_examples,
    ),
]


@dataclass(slots=True)
class Result:
    row: str
    label: str
    figure: Figure | None
    measured: float | None
    factor: float
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.figure is not None and self.measured is not None and self.factor <= FACTOR


def compare(check: Check, cell: str | None, measured: list[float]) -> list[Result]:
    """The check's figures in the README cell against what was measured (one result per label; a range
    figure with several labels, "97,000-179,000" for two duels, applies to each)."""
    if cell is None:
        return [Result(check.row, "-", None, None, float("inf"), "row not found in README.md")]
    figs = figures(cell)
    if len(figs) == 1 and len(check.labels) > 1:
        figs = figs * len(check.labels)
    if len(figs) < len(check.labels):
        note = f"{len(figs)} figures in the README cell, {len(check.labels)} expected"
        return [Result(check.row, "-", None, None, float("inf"), note)]
    return [
        Result(check.row, label, fig, m, off_by(fig, m))
        for label, fig, m in zip(check.labels, figs, measured, strict=False)
    ]


def _find(rows: dict[str, str], start: str) -> str | None:
    return next((cell for first, cell in rows.items() if first.startswith(start)), None)


def _fmt(x: float) -> str:
    return f"{x:,.2f}" if x < 100 else f"{x:,.0f}"


def _line(r: Result) -> str:
    if r.figure is None:
        fig = "-"
    elif r.figure[0] == r.figure[1]:
        fig = _fmt(r.figure[0])
    else:
        fig = f"{_fmt(r.figure[0])}-{_fmt(r.figure[1])}"
    got = "-" if r.measured is None else _fmt(r.measured)
    verdict = "ok" if r.ok else f"FAIL {r.note}".rstrip()
    return f"| {r.row[:48]} | {r.label} | {fig} | {got} | {r.factor:.2f}x | {verdict} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    ap.add_argument("--only", default="", help="only the rows whose first cell starts with this")
    ap.add_argument("--readme", type=Path, default=README, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    rows = speed_rows(args.readme.read_text(encoding="utf-8"))
    results: list[Result] = []
    checked: set[str] = set()
    print("| README row | figure | README | measured | off by | |\n| --- | --- | --- | --- | --- | --- |")
    for check in CHECKS:
        if args.only and not check.row.startswith(args.only):
            continue
        cell = _find(rows, check.row)
        if cell is not None:
            checked.add(next(first for first in rows if first.startswith(check.row)))
        try:
            new = compare(check, cell, check.measure(args.seconds) if cell is not None else [])
        except Exception as exc:  # noqa: BLE001 - a benchmark that cannot run is a failed check, said so
            new = [Result(check.row, "-", None, None, float("inf"), f"not measured: {exc}")]
        results += new
        for r in new:
            print(_line(r), flush=True)
    if not args.only:
        for first in rows:
            if first not in checked:
                print(f"not checked here: {first[:90]}")
    bad = [r for r in results if not r.ok]
    print(f"\n{len(results) - len(bad)} of {len(results)} figures within a factor of {FACTOR:g}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
