"""``python -m fracas.sim.kernels``: compile the bundled batch kernels now and leave them in numba's cache.

A kernel's first use on a machine compiles it, which takes about a minute (the ED4 group kernel and the
Spells & Swords duel kernel; the ED4 duel kernel a few seconds); every later ``fracas sim`` loads it from the
disk cache in a fraction of a second. The README's install command runs this, so the first simulation a
game master starts is as quick as the next. Each kernel compiles in its own process (they are independent),
on a small encounter of its own; rerunning it only loads the cache. Exit status 1 if a kernel fails.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any


def _ghouls(gid: str, q: int) -> dict[str, Any]:
    return {"template": "ghoul", "id": gid, "count": 2, "at": [[q, 0], [q, 1]]}


# One small encounter per bundled kernel: the kernel compiles for the argument types every encounter gives
# it, so any encounter it accepts will do.
WARM_UPS: dict[str, dict[str, Any]] = {
    "ed4-duel": {
        "version": 1,
        "ruleset": "ed4",
        "name": "ED4 duel (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [{"template": "ghoul", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "cadaver-man", "at": [1, 0]}]},
        ],
    },
    "ed4-group": {
        "version": 1,
        "ruleset": "ed4",
        "name": "ED4 group (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [_ghouls("w", 0)]},
            {"name": "B", "combatants": [_ghouls("e", 2)]},
        ],
    },
    "ed1-group": {  # plain Python: nothing to compile, the warm-up only checks it is there
        "version": 1,
        "ruleset": "ed1",
        "name": "ED1 group (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [{"template": "thom-hammerblade", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "ork-raider", "at": [1, 0]}]},
        ],
    },
    "sas-duel": {
        "version": 1,
        "ruleset": "sas",
        "name": "S&S duel (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [{"template": "fighter", "id": "a", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "goblin", "id": "b", "at": [1, 0]}]},
        ],
    },
    "gurps-group": {
        "version": 1,
        "ruleset": "gurps4",
        "name": "GURPS on foot (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [{"template": "swordsman", "id": "a", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "axeman", "id": "b", "at": [2, 0]}]},
        ],
    },
    "sas-group": {
        "version": 1,
        "ruleset": "sas",
        "name": "S&S group (kernel warm-up)",
        "sides": [
            {"name": "A", "combatants": [{"template": "fighter", "id": "a", "at": [0, 0]}]},
            {
                "name": "B",
                "combatants": [{"template": "goblin", "id": "b", "count": 2, "at": [[1, 0], [0, 1]]}],
            },
        ],
    },
}


def compile_kernel(name: str) -> tuple[str, float]:
    """Builds the named warm-up encounter's kernel and plays one fight with it (compiling it, or loading it
    from the cache); returns the kernel's name and the seconds it took."""
    import numpy as np

    from fracas.sim.kernels import find_kernel
    from fracas.sim.runner import scenario_from_data

    scenario = scenario_from_data(WARM_UPS[name], f"<{name} warm-up>")
    start = time.perf_counter()
    kernel, why = find_kernel(scenario.ruleset, scenario.state)
    if kernel is None:
        raise RuntimeError(f"the {name} warm-up encounter got no kernel: {why}")
    if kernel.name != name:
        raise RuntimeError(f"the {name} warm-up encounter got the {kernel.name} kernel")
    kernel.run(1, np.random.default_rng(0))
    return kernel.name, time.perf_counter() - start


def main(names: list[str] | None = None, workers: int = 3) -> int:
    names = names or list(WARM_UPS)
    unknown = [n for n in names if n not in WARM_UPS]
    if unknown:
        print(f"unknown kernel(s): {', '.join(unknown)}; known: {', '.join(WARM_UPS)}", file=sys.stderr)
        return 2
    print(f"compiling the batch kernels ({', '.join(names)}); about a minute the first time", flush=True)
    failed = 0
    with ProcessPoolExecutor(max_workers=min(workers, len(names))) as pool:
        futures = {pool.submit(compile_kernel, n): n for n in names}
        for f in as_completed(futures):
            try:
                name, seconds = f.result()
            except Exception as exc:  # noqa: BLE001 - report every kernel, then fail
                failed += 1
                print(f"  {futures[f]}: FAILED: {exc}", file=sys.stderr, flush=True)
                continue
            print(f"  {name}: ready ({seconds:.1f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
