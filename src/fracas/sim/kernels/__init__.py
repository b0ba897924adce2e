"""Vectorised batch kernels: many fights of one encounter at once, in NumPy lock-step.

A kernel plays a whole chunk of fights as arrays (one lane per fight) instead of one object graph per fight.
It is only used for encounters whose every rule it supports; a builder inspects the loaded encounter and
either returns a :class:`Kernel` or raises :class:`Unsupported` saying which rule or feature it lacks (the
simulator then runs the reference engine). A statistical test per kernel keeps it in agreement with the
engine (tests/sim/), and a manifest binds it to the engine functions it mirrors (``mirrors.toml``, checked
by tests/sim/test_mirrors.py: change one of them and the test asks for the kernel to be checked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState
    from fracas.sim.stats import Tally


class Unsupported(Exception):  # noqa: N818 - a reason, not an error shown to a person
    """This encounter uses something the kernel does not model; the message says what."""


class Kernel(Protocol):
    """Plays ``n`` fights from the loaded encounter with the random stream ``rng``."""

    name: str
    chunk: int

    def run(self, n: int, rng: np.random.Generator) -> Tally: ...


Builder = Callable[["Ruleset", "FightState"], Kernel]

_BUILDERS: dict[str, list[Builder]] = {}
# The bundled kernels by ruleset: an encounter imports only its own ruleset's (each pulls in that ruleset)
_BUILTINS: dict[str, tuple[str, ...]] = {
    "ed4": ("fracas.sim.kernels.ed4_melee", "fracas.sim.kernels.ed4_group"),
    "ed1": ("fracas.sim.kernels.ed1_group",),
    "sas": ("fracas.sim.kernels.sas_melee", "fracas.sim.kernels.sas_group"),
    "gurps4": ("fracas.sim.kernels.gurps_group",),
}
_BUILTINS_LOADED: set[str] = set()


_ALLOCATOR_TUNED = False


def keep_freed_memory() -> None:
    """Ask glibc's allocator to keep freed memory for reuse (once per process; elsewhere, nothing).

    A lock-step kernel makes and drops many arrays of a few hundred kilobytes each round. By default glibc
    hands such blocks back to the system (``mmap``/``munmap``, trimming the heap top), and every new array
    then pays page faults on first touch: measured here, that costs the ED4 duel kernel a third of its time.
    With a 32 MB ``mmap`` threshold, a 256 MB trim threshold and a 16 MB top pad they are reused instead;
    a simulation process keeps a little more memory in exchange. Called by the kernels' ``run``."""
    global _ALLOCATOR_TUNED
    if _ALLOCATOR_TUNED:
        return
    _ALLOCATOR_TUNED = True
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3  # <malloc.h>
    mallopt(m_mmap_threshold, 32 << 20)
    mallopt(m_trim_threshold, 256 << 20)
    mallopt(m_top_pad, 16 << 20)


def skip_numba_blas_probe() -> None:
    """Load numba's array-math registry without its BLAS probe, which imports ``scipy.linalg`` (about half a
    second, measured here) only to learn whether ``np.dot`` and friends may be compiled. The kernels use no
    linear algebra, so the probe's answer does not matter to them; a later ``import scipy.linalg`` works as
    usual. Does nothing once numba's registries are loaded or when scipy.linalg is already imported. When
    numba is not imported yet, it is imported with scipy hidden too (its version check is all it wants)."""
    import sys

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    # numba's own import imports scipy only to check its version (about 15-30 ms here): hidden from it too
    hide_scipy = "numba" not in sys.modules and "scipy" not in sys.modules
    if hide_scipy:
        sys.modules["scipy"] = None  # type: ignore[assignment]
    try:
        import numba  # noqa: F401
    except ImportError:
        return
    finally:
        if hide_scipy:
            del sys.modules["scipy"]
    blocked = ("scipy.linalg", "scipy.linalg.cython_blas")
    saved = {name: sys.modules.get(name) for name in blocked}
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]  # "import scipy.linalg" raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        for name, module in saved.items():
            if module is None:
                del sys.modules[name]
            else:
                sys.modules[name] = module


def register(ruleset_id: str, builder: Builder) -> None:
    """Offer ``builder`` for encounters of ``ruleset_id`` (tried in the order registered)."""
    _BUILDERS.setdefault(ruleset_id, [])
    if builder not in _BUILDERS[ruleset_id]:
        _BUILDERS[ruleset_id].append(builder)


def _load_builtins(ruleset_id: str) -> None:
    if ruleset_id in _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED.add(ruleset_id)
    import importlib

    for module in _BUILTINS.get(ruleset_id, ()):
        try:
            importlib.import_module(module)
        except ImportError:  # the ruleset it mirrors is not there yet
            continue


def find_kernel(ruleset: Ruleset, state: FightState) -> tuple[Kernel | None, str]:
    """A kernel for this encounter, or None and the reason none applies."""
    _load_builtins(ruleset.id)
    skip_numba_blas_probe()
    builders = _BUILDERS.get(ruleset.id, [])
    if not builders:
        return None, f"no batch kernel for the {ruleset.id} ruleset"
    reasons = []
    for build in builders:
        try:
            return build(ruleset, state), ""
        except Unsupported as exc:
            if str(exc):  # an empty reason: the builder leaves the encounter to the next one
                reasons.append(str(exc))
    return None, "; ".join(reasons) or f"no batch kernel for this {ruleset.id} encounter"
