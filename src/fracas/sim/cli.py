"""``fracas sim`` and ``fracas sweep``."""

from __future__ import annotations

import atexit
import base64
import contextlib
import gc
import html
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from fracas.engine import bounds
from fracas.errors import FracasError, Interrupted, UsageError

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False)


def _backend(workers: int | None, scheduler: str | None) -> Any:
    from fracas.sim.runner import LocalBackend, SerialBackend

    if scheduler:
        from fracas.sim.dask_backend import DaskBackend

        return DaskBackend(scheduler)
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if workers == 1:
        return SerialBackend()
    return LocalBackend(workers)


@contextlib.contextmanager
def _progress(
    label: str, total: int, quiet: bool = False, tip: str = ""
) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr (only on a terminal) for ``total`` fights; yields the callback for the
    runner. The total shows from the start: with the reference engine on a big encounter the first chunk
    can take a minute, and "0/40000" says more than "0/?". ``tip`` is printed once above the bar when the
    run looks like taking more than :data:`LONG_RUN` seconds."""
    if quiet or not err_console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        start = time.perf_counter()
        tipped = not tip

        def update(done: int, total: int) -> None:
            nonlocal tipped
            bar.update(task, completed=done, total=total)
            if not tipped and done > 0 and (time.perf_counter() - start) * total / done > LONG_RUN:
                tipped = True
                bar.console.print(tip, style="dim", markup=False, highlight=False)

        yield update


def _prepare_kernels(scenarios: list[Any], engine: str) -> None:
    """Pick the engine (building any batch kernel) under a spinner: a kernel's first use compiles it,
    which takes a while once per machine (then it is cached on disk). Errors surface later, in order."""
    if engine == "reference" or not err_console.is_terminal:
        return
    from fracas.sim.runner import choose_engine

    with err_console.status("Choosing the engine (a batch kernel compiles on first use, then is cached)…"):
        for scenario in scenarios:
            with contextlib.suppress(FracasError):
                choose_engine(scenario, engine)


def _announce_path(text: str, as_json: bool) -> None:
    """Say which path a run takes before it starts ("kernel ed4-group" or "engine: why"): the terminal
    report's first line, or a line on stderr when stdout carries JSON."""
    if as_json:
        err_console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        console.print(text, markup=False)


def _sweep_paths(chosen: list[tuple[str, str]]) -> str:
    """The paths of a sweep's points, grouped: "kernel sas-duel: 1 point; engine: one against one only:
    2 points"."""
    from fracas.sim.runner import path_text

    counts: dict[str, int] = {}
    for engine, why in chosen:
        text = path_text(engine, why)
        counts[text] = counts.get(text, 0) + 1
    return "; ".join(f"{text}: {n} point{'s' if n != 1 else ''}" for text, n in counts.items())


def _check_out(path: Path | None, option: str) -> None:
    """Refuse an output file that cannot be written before any fight is played, not after."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{option} {path}: the folder {parent} does not exist")
    if path.is_dir():
        raise UsageError(f"{option} {path}: that is a folder; give a file name")


def _write(path: Path, content: str | bytes, option: str) -> None:
    """Write an output file; a failure (disk full, no permission) is the person's to fix: exit code 2."""
    try:
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot be written ({exc.strerror or exc})") from None


def _precision(text: str | None) -> float | None:
    """``--precision``: a share (0.02) or a percentage (2%) of fights, above 0 and below a half."""
    if text is None:
        return None
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = math.nan
    if not 0 < value < 0.5:  # also refuses nan
        raise UsageError(
            f"--precision {text}: give the half-width of the win rates' 95% intervals as a share below 0.5 "
            "(0.02) or a percentage below 50% (2%)"
        )
    return value


_PRECISION_HELP = (
    "Stop as soon as every side's win rate is known to within this, either way (95% interval), e.g. 2% or "
    "0.02; -n is then the most it plays. Same seed, same stopping point, whatever the workers."
)


LONG_RUN = 60.0  # seconds: a run projected to take longer gets the --precision tip

_PRECISION_TIP = (
    "tip: this will take a while; --precision 2% stops as soon as every side's win rate is known to ±2 "
    "points, often after a few thousand fights (Ctrl-C now reports what is done so far)."
)


def _until(precision: float | None) -> str:
    """The progress bar's note that it may end early."""
    return "" if precision is None else f" (or until ±{100 * precision:g} points)"


def _seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(1, 2**31)


def _sim(
    file: Path = typer.Argument(..., help="An encounter file, e.g. examples/ed4/mica-and-the-ghouls.yaml"),
    runs: int = typer.Option(
        10_000,
        "-n",
        "--runs",
        min=1,
        max=bounds.MAX_RUNS,
        help=f"How many fights to play (1 to {bounds.MAX_RUNS:,}).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        min=0,
        max=bounds.MAX_SEED,
        help="Master seed (0 to 2**63-1): the same seed gives the same numbers, whatever the workers.",
    ),
    as_json: bool = typer.Option(False, "--json", help="The report as JSON on stdout (docs/sim.md)."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        max=bounds.MAX_WORKERS,
        help=f"Local worker processes, 1 to {bounds.MAX_WORKERS} (default: all cores; 1: this process).",
    ),
    report: Path | None = typer.Option(
        None, "--report", help="Also write a self-contained HTML page with the plots."
    ),
    engine: str = typer.Option(
        "auto",
        "--engine",
        help="auto: a batch kernel where the encounter allows it, else the engine; reference: always the "
        "engine; kernel: the kernel or an error.",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Run on a Dask cluster, e.g. tcp://127.0.0.1:8786."
    ),
    max_rounds: int | None = typer.Option(
        None,
        "--max-rounds",
        min=1,
        max=bounds.MAX_ROUNDS,
        help=f"Stop each fight as a draw after N rounds (1 to {bounds.MAX_ROUNDS:,}).",
    ),
    precision: str | None = typer.Option(None, "--precision", help=_PRECISION_HELP),
) -> None:
    """Play an encounter many times and report how it goes: win rates with 95% intervals, rounds,
    casualties, damage and Wounds per combatant.

    Ctrl-C stops early and reports the fights played so far. Examples:

      fracas sim examples/ed4/mica-and-the-ghouls.yaml -n 20000

      fracas sim examples/ed4/mica-and-the-ghouls.yaml -n 20000 --seed 1 --json

      fracas sim examples/ed4/mica-and-the-ghouls.yaml --report report.html

    A slow encounter (no batch kernel): stop once every side's win rate is known to ±3 points:

      fracas sim examples/sas/goblin-horde.yaml --precision 3%
    """
    prec = _precision(precision)
    with _quiet_gc() as settle_gc:
        _sim_run(file, runs, seed, as_json, workers, report, engine, scheduler, max_rounds, settle_gc, prec)


@contextlib.contextmanager
def _quiet_gc() -> Iterator[Callable[[], None]]:
    """The cyclic garbage collector during a command: off while modules are imported and the encounter and
    kernel are built (they make no garbage worth a pass, and each pass walks every object loaded so far),
    then, when the command calls the function this yields, on again with what was built frozen (it lives
    until the end; forked workers share it and never touch it). The collector's state is restored
    afterwards (tests call the command in their own process). At the interpreter's exit everything is
    frozen first, so freeing the modules does not run full collections over the objects numba and the
    rulesets loaded: measured here, about 0.15 s of collections while starting and 0.3 s at exit
    otherwise."""
    global _EXIT_FREEZE
    was_enabled = gc.isenabled()
    was_frozen = gc.get_freeze_count() > 0  # someone else froze objects: leave them (and ours) frozen
    gc.disable()
    if not _EXIT_FREEZE:
        _EXIT_FREEZE = True
        atexit.register(gc.freeze)

    def settle() -> None:
        gc.freeze()
        if was_enabled:
            gc.enable()

    try:
        yield settle
    finally:
        if not was_frozen:
            gc.unfreeze()
        if was_enabled:
            gc.enable()
        else:
            gc.disable()


_EXIT_FREEZE = False


def _sim_run(
    file: Path,
    runs: int,
    seed: int | None,
    as_json: bool,
    workers: int | None,
    report: Path | None,
    engine: str,
    scheduler: str | None,
    max_rounds: int | None,
    settle_gc: Callable[[], None],
    precision: float | None = None,
) -> None:
    from fracas.sim import report as rep
    from fracas.sim.runner import choose_engine, load_scenario, path_text, simulate

    _check_out(report, "--report")
    scenario = load_scenario(str(file), max_rounds)
    backend = _backend(workers, scheduler)
    s = _seed(seed)
    _prepare_kernels([scenario], engine)
    # builds the batch kernel now (simulate reuses it), with the same errors, and says which path it takes
    _announce_path(path_text(*choose_engine(scenario, engine)), as_json)
    settle_gc()
    tip = _PRECISION_TIP if precision is None else ""
    with _progress(scenario.name + _until(precision), runs, tip=tip) as cb:
        result = simulate(scenario, runs, s, engine, backend, cb, precision)
    if result.tally.runs == 0:
        raise Interrupted("interrupted before any fight finished")
    data = rep.to_json(result)
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        rep.print_report(data, console)
    if report is not None:
        from fracas.sim import plots

        page = rep.html_page(data, plots.report_images(data))
        _write(report, page, "--report")
        if not as_json:
            console.print(f"report written to {report}", markup=False)
    if result.interrupted:
        raise typer.Exit(130)  # the report of the fights so far is out; the exit code says it stopped early


def _sweep(
    file: Path = typer.Argument(..., help="An encounter file."),
    vary: list[str] = typer.Option(
        ...,
        "--vary",
        help="ENTRY.FIELD=VALUES: an entry by id or template, a field (count, stats.x...), values 1..8, "
        "1..8:2 or 1,2,4. Repeat for a grid.",
    ),
    runs: int = typer.Option(
        2_000,
        "-n",
        "--runs",
        min=1,
        max=bounds.MAX_RUNS,
        help=f"Fights per point (1 to {bounds.MAX_RUNS:,}).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        min=0,
        max=bounds.MAX_SEED,
        help="Master seed, 0 to 2**63-1 (the same for every point).",
    ),
    as_json: bool = typer.Option(False, "--json", help="The sweep as JSON on stdout."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        "-w",
        min=1,
        max=bounds.MAX_WORKERS,
        help=f"Local worker processes, 1 to {bounds.MAX_WORKERS}.",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Run on a Dask cluster, e.g. tcp://127.0.0.1:8786."
    ),
    engine: str = typer.Option("auto", "--engine", help="auto, reference or kernel (see fracas sim)."),
    plot: Path | None = typer.Option(None, "--plot", help="Write the win-rate plot as a PNG file."),
    report: Path | None = typer.Option(None, "--report", help="Write an HTML page with the table and plot."),
    precision: str | None = typer.Option(
        None, "--precision", help=_PRECISION_HELP.replace("every side's", "at each point every side's")
    ),
) -> None:
    """Run an encounter over a grid of variations and report the win rate at each point.

    Examples:

      fracas sweep examples/ed4/mica-and-the-ghouls.yaml --vary "ghoul.count=1..8" -n 5000

      fracas sweep FILE --vary "ghoul.count=1..4" --vary "mica.stats.karma=0,5,10" --scheduler tcp://host:8786
    """
    prec = _precision(precision)
    with _quiet_gc() as settle_gc:
        _sweep_run(file, vary, runs, seed, as_json, workers, scheduler, engine, plot, report, settle_gc, prec)


def _sweep_run(
    file: Path,
    vary: list[str],
    runs: int,
    seed: int | None,
    as_json: bool,
    workers: int | None,
    scheduler: str | None,
    engine: str,
    plot: Path | None,
    report: Path | None,
    settle_gc: Callable[[], None],
    precision: float | None = None,
) -> None:
    from fracas.engine import encounter
    from fracas.errors import EncounterFileError
    from fracas.sim import plots
    from fracas.sim import report as rep
    from fracas.sim import sweep as sw
    from fracas.sim.runner import choose_engine, scenario_from_data, simulate_many

    _check_out(plot, "--plot")
    _check_out(report, "--report")
    data = encounter.read_file(file)
    varies = [sw.parse_vary(v, data) for v in vary]
    points = sw.grid(data, varies)
    if runs * len(points) > bounds.MAX_RUNS:
        raise UsageError(
            f"-n {runs:,} at each of {len(points):,} points is {runs * len(points):,} fights; a sweep "
            f"plays at most {bounds.MAX_RUNS:,} in all (lower -n, or use --precision)"
        )
    scenarios = []
    for values, point in points:
        where = ", ".join(f"{k}={v}" for k, v in values.items())
        try:
            scenarios.append(scenario_from_data(point, f"{file} [{where}]"))
        except EncounterFileError as exc:
            raise EncounterFileError(str(exc)) from None
    backend = _backend(workers, scheduler)
    s = _seed(seed)
    start = time.perf_counter()
    _prepare_kernels(scenarios, engine)
    # every point that a kernel models takes it (simulate_many chooses per point, as here)
    _announce_path(_sweep_paths([choose_engine(sc, engine) for sc in scenarios]), as_json)
    settle_gc()
    tip = _PRECISION_TIP.replace("every side's", "at each point every side's") if precision is None else ""
    with _progress(f"sweep of {len(points)} points" + _until(precision), runs * len(points), tip=tip) as cb:
        results = simulate_many(scenarios, runs, s, engine, backend, cb, precision)
    seconds = time.perf_counter() - start
    reports = [rep.to_json(r) for r in results]
    total = sum(r.tally.runs for r in results)
    timing = {
        "seconds": round(seconds, 4),
        "fights_per_second": round(total / seconds, 1) if seconds > 0 else None,
        "backend": getattr(backend, "name", ""),
        "workers": int(getattr(backend, "workers", 1)),
    }
    if sum(r.tally.runs for r in results) == 0:
        raise Interrupted("interrupted before any fight finished")
    out = sw.sweep_json(varies, [v for v, _ in points], reports, timing)
    if as_json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        _print_sweep(out)
    if plot is not None or report is not None:
        png = plots.sweep_plot(out)
        if plot is not None:
            _write(plot, base64.b64decode(png), "--plot")
        if report is not None:
            _write(report, _sweep_page(out, png), "--report")
    if out["interrupted"]:
        raise typer.Exit(130)


def _print_sweep(out: dict[str, Any]) -> None:
    from rich.table import Table

    precise = any(p["precision"] is not None for p in out["points"])
    per_point = f"up to {out['runs']:,}" if precise else f"{out['runs']:,}"
    t = Table(title=f"{out['encounter']}: {per_point} fights per point, seed {out['seed']}")
    names = [v["name"] for v in out["vary"]]
    for n in names:
        t.add_column(n, justify="right")
    if precise:
        t.add_column("fights", justify="right")
    mixed = len({p["engine"] for p in out["points"]}) > 1  # then each row says which path it took
    if mixed:
        t.add_column("engine")
    sides = list(out["points"][0]["sides"]) if out["points"] else []
    for side in sides:
        t.add_column(f"{side} wins (95%)", justify="right")
    t.add_column("draws", justify="right")
    t.add_column("rounds (mean)", justify="right")
    for p in out["points"]:
        row = [str(p["values"][n]) for n in names]
        if precise:
            row.append(f"{p['runs']:,}" + ("" if p["precision"]["reached"] else " (not reached)"))
        if mixed:
            row.append(p["engine"])
        for side in sides:
            s = p["sides"][side]
            row.append(f"{100 * s['win_rate']:.1f}% ({100 * s['ci_low']:.1f}–{100 * s['ci_high']:.1f})")
        row.append(f"{100 * p['draws']['rate']:.1f}%")
        mean = p["rounds"]["mean"]
        row.append(f"{mean:.2f}" if mean is not None else "-")
        t.add_row(*row)
    console.print(t)
    engines = sorted({p["engine"] for p in out["points"]})
    console.print(f"engine: {', '.join(engines)}", style="dim", markup=False)
    tm = out["timing"]
    console.print(
        f"{tm['seconds']:.2f} s on {tm['workers']} worker(s) ({tm['backend']})"
        + (" — interrupted" if out["interrupted"] else ""),
        style="dim",
        markup=False,
    )


def _sweep_page(out: dict[str, Any], png: str) -> str:
    names = [v["name"] for v in out["vary"]]
    sides = list(out["points"][0]["sides"]) if out["points"] else []
    head = "".join(f"<th>{html.escape(h)}</th>" for h in [*names, *(f"{s} wins" for s in sides), "draws"])
    rows = []
    for p in out["points"]:
        cells = [str(p["values"][n]) for n in names]
        cells += [
            f"{100 * p['sides'][s]['win_rate']:.1f}% ({100 * p['sides'][s]['ci_low']:.1f}–"
            f"{100 * p['sides'][s]['ci_high']:.1f})"
            for s in sides
        ]
        cells.append(f"{100 * p['draws']['rate']:.1f}%")
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    title = html.escape(f"Sweep of {out['encounter']}")
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<h1>{title}</h1><p>seed {out['seed']}, {out['runs']:,} fights per point, fracas {out['fracas']}</p>"
        f"<table border='1' cellpadding='4'><tr>{head}</tr>{''.join(rows)}</table>"
        f"<img alt='win rate' src='data:image/png;base64,{png}'></body></html>"
    )


def register(app: typer.Typer) -> None:
    app.command("sim")(_sim)
    app.command("sweep")(_sweep)
