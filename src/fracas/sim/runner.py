"""Monte Carlo runs of an encounter: fixed chunks, seeds derived from the master seed, any backend.

The runs of a simulation are cut into fixed chunks (their size depends only on the engine used, never on
the number of workers). Chunk ``i`` draws its randomness from ``SeedSequence(seed, spawn_key=(i,))``: the
reference engine seeds one :class:`~fracas.dice.source.RandomDice` per run from that stream, a kernel uses
it as its NumPy generator. Each chunk returns an integer :class:`~fracas.sim.stats.Tally`; tallies merge
by addition. So the same seed gives the same report whether the chunks run in one process, in local
worker processes or on a Dask cluster.

The reference engine is :class:`fracas.engine.play.Fight` with narration off (``log = None``) and one
listener that collects what the statistics need (``Damaged`` and ``Wounded``); winner, rounds and final
statuses are read from the final state.
"""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.source import RandomDice
from fracas.engine.events import Damaged, Rolled, Wounded
from fracas.engine.play import Fight
from fracas.errors import FracasError, RuleNotImplemented, UsageError
from fracas.sim.kernels import find_kernel
from fracas.sim.stats import Tally, wilson

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

# Spells & Swords has no Wounded event: its Wound Markers are tallied as damage, and its Wounds are the
# Damage Table's Light and Heavy Wounds (rows 8-18, "Flesh Wound" to "Major Wound": they take days or weeks
# to heal), counted from the "Damage" roll by the row its rule id names (004 DAMAGE TABLE; docs/sim.md).
SERIOUS_WOUND_RULES = ("sas/damage-table/light", "sas/damage-table/heavy")

# Runs per chunk for the reference engine: small enough for a smooth progress bar and a quick Ctrl-C.
ENGINE_CHUNK = 100

ENGINES = ("auto", "reference", "kernel")


class FightFailed(FracasError):
    """One fight of a simulation stopped with an error (a ruleset or tactic bug): names the dice seed that
    replays it with ``fracas fight FILE --seed SEED``."""

    def __init__(self, seed: int, error: FracasError) -> None:
        super().__init__(f"a fight failed; replay it with --seed {seed}: {error}")
        self.seed = seed
        self.error = error
        # a fight the engine cannot finish is a bug (exit 1), unless it asks for a rule not implemented,
        # which the person can leave out (exit 2)
        self.exit_code = 2 if isinstance(error, RuleNotImplemented) else 1

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries (worker -> parent)
        return (FightFailed, (self.seed, self.error))


# ----- what to simulate --------------------------------------------------------------------------------


def _ruleset_by_id(ruleset_id: str) -> Ruleset:
    from fracas.rules.registry import get_ruleset

    return get_ruleset(ruleset_id)


def _rebuild(ruleset_ref: Any, state: FightState, name: str, source: str, token: str) -> Scenario:
    ruleset = _ruleset_by_id(ruleset_ref) if isinstance(ruleset_ref, str) else ruleset_ref
    return Scenario(ruleset, state, name, source, token)


@dataclass(slots=True)
class Scenario:
    """One loaded encounter: the ruleset and the initial state every run starts from (``state.clone()``).

    Pickles small: a ruleset of the registry travels as its id and is looked up again in the worker.
    ``token`` identifies the scenario in a worker's cache (prepared tactics or a compiled kernel).
    """

    ruleset: Ruleset
    state: FightState
    name: str = ""
    source: str = ""
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __reduce__(self) -> tuple[Any, ...]:
        ref: Any = self.ruleset
        try:
            if _ruleset_by_id(self.ruleset.id) is self.ruleset:
                ref = self.ruleset.id
        except Exception:  # noqa: BLE001 - not a registry ruleset: send the object itself
            ref = self.ruleset
        return (_rebuild, (ref, self.state, self.name, self.source, self.token))

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self.state.combatants)

    def names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.state.combatants.values()}

    def sides_of(self) -> dict[str, str]:
        return {c.id: c.side for c in self.state.combatants.values()}


def load_scenario(path: str, max_rounds: int | None = None) -> Scenario:
    """The scenario of an encounter file (errors are :class:`~fracas.errors.EncounterFileError`)."""
    from fracas.engine import encounter

    spec, state = encounter.load(path)
    if max_rounds is not None:
        state.max_rounds = max_rounds
    return Scenario(_ruleset_by_id(spec.ruleset), state, spec.name or str(path), str(path))


def scenario_from_data(data: dict[str, Any], source: str = "<encounter>") -> Scenario:
    from fracas.engine import encounter

    spec, state = encounter.load_data(data, source)
    return Scenario(_ruleset_by_id(spec.ruleset), state, spec.name or source, source)


# ----- seeds and chunks --------------------------------------------------------------------------------


def chunk_plan(runs: int, chunk: int) -> list[tuple[int, int]]:
    """(chunk index, runs in it) for ``runs`` runs cut into chunks of ``chunk``."""
    if runs < 0:
        raise UsageError(f"the number of runs must be at least 0, not {runs}")
    return [(i, min(chunk, runs - i * chunk)) for i in range(math.ceil(runs / chunk))]


def chunk_seed_sequence(seed: int, chunk: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(chunk,))


def run_seeds(seed: int, chunk: int, count: int) -> list[int]:
    """The seeds of the ``count`` runs of chunk ``chunk`` (64-bit words of the chunk's stream)."""
    words = chunk_seed_sequence(seed, chunk).generate_state(count, np.uint64)
    return [int(w) for w in words]


# ----- one chunk, in whatever process --------------------------------------------------------------------


@dataclass(slots=True)
class _Prepared:
    scenario: Scenario
    engine: str
    controllers: dict[str, Any] | None = None
    kernel: Any = None


_CACHE: dict[tuple[str, str], _Prepared] = {}
_KERNELS: dict[str, tuple[Any, str]] = {}


def kernel_for(scenario: Scenario) -> tuple[Any, str]:
    """The batch kernel for this scenario, or None and why; built once per scenario and process (worker
    processes forked after the parent built it inherit it)."""
    got = _KERNELS.get(scenario.token)
    if got is None:
        if len(_KERNELS) > 64:
            _KERNELS.clear()
        got = _KERNELS[scenario.token] = find_kernel(scenario.ruleset, scenario.state)
    return got


def _prepare(scenario: Scenario, engine: str) -> _Prepared:
    key = (scenario.token, engine)
    got = _CACHE.get(key)
    if got is not None:
        return got
    if len(_CACHE) > 64:
        _CACHE.clear()
    if engine == "reference":
        prepared = _Prepared(scenario, engine, controllers=scenario.ruleset.tactics())
    else:
        kernel, why = kernel_for(scenario)
        if kernel is None:
            raise UsageError(f"no batch kernel for this encounter: {why}")
        prepared = _Prepared(scenario, engine, kernel=kernel)
    _CACHE[key] = prepared
    return prepared


def engine_runs(
    ruleset: Ruleset,
    initial: FightState,
    seeds: Sequence[int],
    controllers: dict[str, Any] | None = None,
    dice_for: Callable[[int], Any] | None = None,
) -> Tally:
    """Play one fight per seed with the reference engine and tally them (``dice_for(seed)``, if given, makes
    each fight's DiceSource instead of ``RandomDice(seed)``: a kernel replays a fight it hands back)."""
    ids = tuple(initial.combatants)
    sides = tuple(initial.sides)
    tally = Tally(ids, sides)
    index = {cid: i for i, cid in enumerate(ids)}
    side_index = {s: i for i, s in enumerate(sides)}
    side_of = [side_index[c.side] for c in initial.combatants.values()]
    if controllers is None:
        controllers = ruleset.tactics()
    dealt = tally.dealt
    taken = tally.taken
    wounds = tally.wounds

    def listen(events: list[Any], _state: FightState) -> None:
        for e in events:
            if isinstance(e, Damaged):
                taken[index[e.target]] += e.amount
                src = index.get(e.source) if e.source is not None else None
                if src is not None:
                    dealt[src] += e.amount
            elif isinstance(e, Wounded):
                wounds[index[e.target]] += e.wounds
            elif (
                isinstance(e, Rolled)
                and e.test == "Damage"
                and e.target is not None
                and e.rule.startswith(SERIOUS_WOUND_RULES)
            ):
                wounds[index[e.target]] += 1

    is_out = ruleset.is_out
    for s in seeds:
        dice = RandomDice(s) if dice_for is None else dice_for(s)
        fight = Fight(ruleset, initial.clone(), dice, None, [listen], controllers, s)
        try:
            state = fight.run()
        except FracasError as exc:
            raise FightFailed(s, exc) from exc
        tally.runs += 1
        if state.winner is not None:
            tally.wins[side_index[state.winner]] += 1
        elif any(not is_out(c) for c in state.combatants.values()):
            tally.draws += 1
        else:
            tally.wipeouts += 1
        tally.rounds[state.round] = tally.rounds.get(state.round, 0) + 1
        statuses = []
        for i, c in enumerate(state.combatants.values()):
            st = tally.status[i]
            st[c.status] = st.get(c.status, 0) + 1
            statuses.append(c.status)
        tally.count_losses(side_of, statuses)
    return tally


# One chunk at a time per process: a ruleset object is shared by every fight of its process and may keep
# per-call hints (the ED4 chapter remembers the state it last saw), so two threads of one Dask worker must
# not interleave fights. Python-bound work gains nothing from threads anyway; use worker processes.
_ENGINE_LOCK = threading.Lock()


def run_chunk(scenario: Scenario, engine: str, seed: int, chunk: int, count: int) -> Tally:
    """Chunk ``chunk`` (``count`` runs) of a simulation with master seed ``seed``; the unit of work."""
    with _ENGINE_LOCK:
        prepared = _prepare(scenario, engine)
        if prepared.kernel is not None:
            rng = np.random.Generator(np.random.PCG64(chunk_seed_sequence(seed, chunk)))
            return prepared.kernel.run(count, rng)
        seeds = run_seeds(seed, chunk, count)
        return engine_runs(scenario.ruleset, scenario.state, seeds, prepared.controllers)


# ----- backends ------------------------------------------------------------------------------------------

# A task: (scenario index, engine, chunk index, runs). on_done(task index, tally) is called as each ends.
Task = tuple[int, str, int, int]
OnDone = Callable[[int, Tally], None]


class SerialBackend:
    """Every chunk in this process, in order."""

    name = "serial"
    workers = 1

    def execute(self, scenarios: list[Scenario], tasks: list[Task], seed: int, on_done: OnDone) -> None:
        for ti, (si, engine, chunk, count) in enumerate(tasks):
            on_done(ti, run_chunk(scenarios[si], engine, seed, chunk, count))


_WORKER_SCENARIOS: list[Scenario] = []


def _worker_init(scenarios: list[Scenario]) -> None:
    # Ctrl-C goes to the whole process group: only the parent handles it (and keeps what it has). SIGTERM
    # and SIGHUP end a worker at once: the parent's handlers (which turn them into Ctrl-C) are inherited
    # by fork, and a worker that caught them would hand the error back and wait for more work.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()
    _WORKER_SCENARIOS[:] = scenarios


def _die_with_parent() -> None:
    """On Linux, ask the kernel to end this worker when its parent dies, however it dies (SIGKILL too): no
    worker is left orphaned, waiting for work that never comes."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no libc to ask: the parent's own clean-up still ends the workers
        return
    if os.getppid() == 1:  # the parent died before the request: nobody is left to work for
        os._exit(0)


def _worker_chunk(si: int, engine: str, seed: int, chunk: int, count: int) -> Tally:
    return run_chunk(_WORKER_SCENARIOS[si], engine, seed, chunk, count)


class LocalBackend:
    """Local worker processes (fork where the platform has it, so workers start in milliseconds)."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)

    def execute(self, scenarios: list[Scenario], tasks: list[Task], seed: int, on_done: OnDone) -> None:
        import multiprocessing as mp
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        if self.workers == 1 or len(tasks) <= 1:
            SerialBackend().execute(scenarios, tasks, seed, on_done)
            return
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else "spawn")
        pool = ProcessPoolExecutor(
            max_workers=min(self.workers, len(tasks)),
            mp_context=ctx,
            initializer=_worker_init,
            initargs=(scenarios,),
        )
        futures: dict[Any, int] = {}
        pending: set[Any] = set()
        queue = iter(enumerate(tasks))
        # a few chunks per worker in flight, not every chunk at once: the memory of a run does not grow
        # with -n, and a stop has little to cancel
        in_flight = 4 * min(self.workers, len(tasks))

        def submit() -> None:
            for ti, (si, engine, chunk, count) in queue:
                f = pool.submit(_worker_chunk, si, engine, seed, chunk, count)
                futures[f] = ti
                pending.add(f)
                if len(pending) >= in_flight:
                    return

        try:
            submit()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                pending.difference_update(done)
                for f in sorted(done, key=lambda f: futures[f]):
                    on_done(futures.pop(f), f.result())
                submit()
        except BaseException:
            # Stop now: the workers are killed and the pool marks every unfinished chunk broken. The futures
            # are not cancelled first: Python 3.11's pool then raises InvalidStateError in its own thread
            # when it marks a cancelled one (a traceback on stderr after Ctrl-C).
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=False)
            for p in processes:
                if p.is_alive():
                    p.terminate()
            raise
        pool.shutdown(wait=True)


# ----- a simulation ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class SimResult:
    scenario: Scenario
    seed: int
    requested: int
    engine: str
    tally: Tally
    interrupted: bool = False
    seconds: float = 0.0
    backend: str = ""
    workers: int = 1
    note: str = ""
    precision: float | None = None  # --precision: the asked half-width of every side's 95% interval
    precise: bool = False  # it was reached (the fights stopped there)


def choose_engine(scenario: Scenario, engine: str) -> tuple[str, str]:
    """("reference" or the kernel's name, why no kernel) for the ``--engine`` choice."""
    if engine not in ENGINES:
        raise UsageError(f"--engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "reference":
        return "reference", "--engine reference"
    kernel, why = kernel_for(scenario)
    if kernel is None:
        if engine == "kernel":
            raise UsageError(f"no batch kernel for this encounter: {why}")
        return "reference", why
    return "kernel:" + kernel.name, ""


def path_text(engine: str, why: str) -> str:
    """The path a simulation takes, as ``fracas sim`` announces it: "kernel ed4-group" or "engine: <why no
    kernel>" (``engine`` and ``why`` as :func:`choose_engine` returns them)."""
    if engine.startswith("kernel:"):
        return "kernel " + engine.removeprefix("kernel:")
    return f"engine: {why}" if why else "engine"


def _chunk_size(scenario: Scenario, engine: str) -> int:
    if engine == "reference":
        return ENGINE_CHUNK
    kernel, _ = kernel_for(scenario)
    assert kernel is not None
    return int(kernel.chunk)


# --precision never stops before this many fights: a handful of one-sided results can give a narrow interval
PRECISION_MIN_RUNS = 400


class _Enough(Exception):  # noqa: N818 - a signal to the backend, not an error
    """Every scenario reached the asked precision: stop the remaining chunks."""


def precise_enough(tally: Tally, precision: float) -> bool:
    """True when ``tally`` has at least :data:`PRECISION_MIN_RUNS` fights and the 95% Wilson interval of
    every side's win rate is at most ``precision`` from its estimate on either side."""
    if tally.runs < PRECISION_MIN_RUNS:
        return False
    for wins in tally.wins:
        lo, hi = wilson(wins, tally.runs)
        p = wins / tally.runs
        if max(p - lo, hi - p) > precision:
            return False
    return True


class _Prefixes:
    """Per scenario, the tally of its first chunks in chunk order (chunks finish in any order): with
    ``--precision`` a scenario stops at the first such prefix that is precise enough, which is the same
    whatever the workers, so the report is too."""

    def __init__(self, scenarios: list[Scenario], tasks: list[Task], precision: float) -> None:
        self.precision = precision
        self.tasks = tasks
        self.by_chunk: dict[tuple[int, int], int] = {(si, c): ti for ti, (si, _e, c, _k) in enumerate(tasks)}
        self.next = [0] * len(scenarios)
        self.prefix = [Tally(s.ids, tuple(s.state.sides)) for s in scenarios]
        self.settled = [False] * len(scenarios)

    def add(self, results: dict[int, Tally], ti: int) -> bool:
        """Chunk task ``ti`` finished (its tally is in ``results``); True once every scenario is settled."""
        si = self.tasks[ti][0]
        while not self.settled[si]:
            nxt = self.by_chunk.get((si, self.next[si]))
            if nxt is None or nxt not in results:
                break
            self.prefix[si].merge(results[nxt])
            self.next[si] += 1
            self.settled[si] = precise_enough(self.prefix[si], self.precision)
        return all(self.settled)


def simulate_many(
    scenarios: list[Scenario],
    runs: int,
    seed: int,
    engine: str = "auto",
    backend: Any = None,
    progress: Callable[[int, int], None] | None = None,
    precision: float | None = None,
) -> list[SimResult]:
    """``runs`` fights of each scenario with the same master seed (common random numbers across a sweep).

    ``progress(done_runs, total_runs)`` is called after each chunk. Ctrl-C (KeyboardInterrupt) stops the
    work; the results then hold the chunks already done and ``interrupted`` is True.

    With ``precision`` (for example 0.02), a scenario stops at the first chunks, in chunk order, after which
    every side's win rate is known to within that on either side (:func:`precise_enough`); ``runs`` is then
    the most it plays. Chunks that other workers finished beyond that point are left out, so the result
    does not depend on the workers.
    """
    if runs < 1:
        raise UsageError(f"-n must be at least 1, not {runs}")
    if precision is not None and not 0 < precision < 0.5:
        raise UsageError(f"--precision must be above 0 and below 0.5 (50 points), not {precision}")
    backend = backend or LocalBackend()
    chosen = [choose_engine(s, engine) for s in scenarios]
    tasks: list[Task] = []
    for si, (name, _why) in enumerate(chosen):
        worker_engine = "reference" if name == "reference" else "kernel"
        size = _chunk_size(scenarios[si], worker_engine)
        tasks += [(si, worker_engine, c, k) for c, k in chunk_plan(runs, size)]
    if precision is not None:
        # a sweep's points advance together, so each can stop early (the order changes no result)
        tasks.sort(key=lambda t: (t[2], t[0]))
    prefixes = _Prefixes(scenarios, tasks, precision) if precision is not None else None
    results: dict[int, Tally] = {}
    total = runs * len(scenarios)
    done_runs = 0

    def on_done(ti: int, tally: Tally) -> None:
        nonlocal done_runs
        results[ti] = tally
        done_runs += tally.runs
        if progress is not None:
            progress(done_runs, total)
        if prefixes is not None and prefixes.add(results, ti):
            raise _Enough

    start = time.perf_counter()
    interrupted = False
    try:
        backend.execute(scenarios, tasks, seed, on_done)
    except KeyboardInterrupt:
        interrupted = True
    except _Enough:
        pass
    seconds = time.perf_counter() - start
    out = []
    for si, scenario in enumerate(scenarios):
        if prefixes is not None and prefixes.settled[si]:
            tally = prefixes.prefix[si]
        else:
            tally = Tally(scenario.ids, tuple(scenario.state.sides))
            for ti in sorted(results):
                if tasks[ti][0] == si:
                    tally.merge(results[ti])
        out.append(
            SimResult(
                scenario,
                seed,
                runs,
                chosen[si][0],
                tally,
                interrupted,
                seconds,
                getattr(backend, "name", type(backend).__name__),
                int(getattr(backend, "workers", 1)),
                chosen[si][1],
                precision,
                prefixes is not None and prefixes.settled[si],
            )
        )
    return out


def simulate(
    scenario: Scenario,
    runs: int,
    seed: int,
    engine: str = "auto",
    backend: Any = None,
    progress: Callable[[int, int], None] | None = None,
    precision: float | None = None,
) -> SimResult:
    """``runs`` fights of one scenario (see :func:`simulate_many`)."""
    return simulate_many([scenario], runs, seed, engine, backend, progress, precision)[0]
