"""The compiled engine: the hot modules of a fight built with mypyc, and loaded only while they match.

``fracas native build`` compiles :data:`MODULES` (the round loop, the state, the Earthdawn round and tests,
the ED4 tactic, dice rolls, the hex grid) with mypyc into ``src/fracas/_native/`` and writes a stamp with
the SHA-256 of every source it compiled. When fracas is imported, :func:`install` checks the stamp: if
every source is unchanged (and the Python is the one it was built for), an import hook loads the compiled
modules in place of the ``.py`` files; if any source changed, nothing compiled is loaded at all (the
modules call each other directly in C, so half a build would run stale code) and fracas runs as plain
Python. ``FRACAS_PURE=1`` forces plain Python. The behaviour is the same either way: the same events for
the same dice (tested on the golden fights); only the speed differs.

The compiled files never sit beside the sources, so an edited ``.py`` is never shadowed by an old build.
``FRACAS_NATIVE_DIR`` names another folder for the build (the tests build one there).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

MODULES: tuple[str, ...] = (
    "fracas.engine.hexgrid",
    "fracas.engine.state",
    "fracas.engine.play",
    "fracas.dice.roll",
    "fracas.rules.earthdawn.combat",
    "fracas.rules.earthdawn.round",
    "fracas.rules.ed4.tactics",
)
"""Compiled together: they call one another directly once compiled."""

PACKAGE = Path(__file__).resolve().parent
NATIVE_DIR = PACKAGE / "_native"


def native_dir() -> Path:
    """Where the compiled engine lives: ``$FRACAS_NATIVE_DIR``, else ``src/fracas/_native``."""
    return Path(os.environ.get("FRACAS_NATIVE_DIR") or NATIVE_DIR)


_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _source(module: str) -> Path:
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _python_tag() -> str:
    return f"{sys.implementation.cache_tag}-{sysconfig.get_platform()}"


@dataclass(slots=True)
class Status:
    """Whether the compiled engine is in use, and why not when it is not."""

    active: bool
    reason: str
    modules: tuple[str, ...] = ()


_status = Status(False, "not checked")


def status() -> Status:
    return _status


def _check() -> tuple[dict[str, str], str] | str:
    """The stamp's module -> extension file map and the shared library's name, or why it cannot be used.

    The stamp holds the digest of every fracas module the compiled ones import, not only of those compiled:
    their classes and signatures were compiled in."""
    if os.environ.get("FRACAS_PURE", "") not in ("", "0"):
        return "FRACAS_PURE is set"
    try:
        stamp = json.loads((native_dir() / "stamp.json").read_text())
    except FileNotFoundError:
        return "not built (run `fracas native build`)"
    except (OSError, ValueError):
        return "the build's stamp is unreadable (run `fracas native build`)"
    if stamp.get("python") != _python_tag():
        return f"built for {stamp.get('python')}, this is {_python_tag()} (run `fracas native build`)"
    for module, digest in stamp.get("sources", {}).items():
        src = _source(module)
        if not src.exists() or _digest(src) != digest:
            return f"{src.name} changed since the build (run `fracas native build`)"
    files: dict[str, str] = stamp.get("files", {})
    if set(files) != set(MODULES):
        return "the build compiled other modules (run `fracas native build`)"
    return files, stamp["shared"]


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, files: dict[str, str], where: Path) -> None:
        self.files = files
        self.where = where

    def find_spec(
        self, name: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        rel = self.files.get(name)
        if rel is None:
            return None
        location = str(self.where / rel)
        loader = importlib.machinery.ExtensionFileLoader(name, location)
        return importlib.util.spec_from_file_location(name, location, loader=loader)


def install() -> Status:
    """Load the compiled modules from now on if the build matches the sources (on ``import fracas``)."""
    global _status
    checked = _check()
    if isinstance(checked, str):
        _status = Status(False, checked)
        return _status
    files, shared = checked
    loaded = [m for m in MODULES if m in sys.modules]
    if loaded:  # imported before the hook: mixing would call stale code
        _status = Status(False, f"{loaded[0]} was imported before fracas")
        return _status
    sys.meta_path.insert(0, _Finder({**files, shared: f"{shared}{_SUFFIX}"}, native_dir()))
    _status = Status(True, "compiled with mypyc", MODULES)
    return _status


def build(*, opt_level: str = "3", quiet: bool = False) -> Path:
    """Compile :data:`MODULES` with mypyc into :func:`native_dir` (a few minutes), with its stamp.

    mypyc builds beside its inputs, so it works on a copy of the package in a temporary folder and only
    the extension files are moved here."""
    import shutil
    import subprocess
    import tempfile

    try:
        import mypyc  # noqa: F401
    except ImportError as exc:  # pragma: no cover - mypy is a dependency
        raise RuntimeError("the compiled engine needs mypy (pip install mypy)") from exc
    sources = {m: _digest(_source(m)) for m in _closure()}
    with tempfile.TemporaryDirectory(prefix="fracas-native-") as tmp:
        work = Path(tmp)
        skip = shutil.ignore_patterns("_native*", "__pycache__", "*.so")
        shutil.copytree(PACKAGE, work / "fracas", ignore=skip)
        targets = [str(Path(*m.split(".")).with_suffix(".py")) for m in MODULES]
        env = {**os.environ, "MYPYC_OPT_LEVEL": opt_level}
        cmd = [sys.executable, "-m", "mypyc", "--ignore-missing-imports", "--follow-imports=silent", *targets]
        run = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}")
        shared = [p for p in work.glob(f"*__mypyc{_SUFFIX}")]
        if len(shared) != 1:
            raise RuntimeError(f"mypyc built {len(shared)} shared libraries, expected one")
        files = {}
        target = native_dir()
        target.parent.mkdir(parents=True, exist_ok=True)
        new = Path(tempfile.mkdtemp(prefix="_native-", dir=target.parent))
        try:
            shutil.copy2(shared[0], new / shared[0].name)
            for m in MODULES:
                ext = Path(*m.split(".")).with_suffix(_SUFFIX)
                built = work / ext
                if not built.exists():
                    raise RuntimeError(f"mypyc did not build {m}")
                (new / ext).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(built, new / ext)
                files[m] = str(ext)
            stamp = {
                "python": _python_tag(),
                "sources": sources,
                "files": files,
                "shared": shared[0].name[: -len(_SUFFIX)],
                "opt_level": opt_level,
            }
            (new / "stamp.json").write_text(json.dumps(stamp, indent=1) + "\n")
            if target.exists():
                shutil.rmtree(target)
            new.rename(target)
        except BaseException:
            shutil.rmtree(new, ignore_errors=True)
            raise
    if not quiet:
        print(f"compiled {len(MODULES)} modules into {target}")
    return target


def _closure() -> list[str]:
    """Every fracas module that importing :data:`MODULES` imports (as plain Python, in a fresh process)."""
    import subprocess

    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in MODULES)
        + "print('\\n'.join(m for m, v in sys.modules.items() if m.startswith('fracas') and "
        + "getattr(v, '__file__', None)))"
    )
    env = {**os.environ, "FRACAS_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return sorted(m for m in out.stdout.split() if _source(m).exists())


def clean() -> bool:
    """Remove the compiled engine; True if there was one."""
    import shutil

    target = native_dir()
    if target.exists():
        shutil.rmtree(target)
        return True
    return False
