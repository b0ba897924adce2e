"""What each batch kernel writes a second time, bound to the engine code it mirrors.

A kernel plays the rules of the reference engine again, in compiled loops and tables. Nothing but a test
ties the two together, and the statistical tests only notice a change that moves the numbers enough. So
each kernel keeps a manifest (``mirrors.toml``, next to this file): the engine functions it mirrors, each
with a hash of its source. tests/sim/test_mirrors.py fails when one of them changes (or no longer exists)
and the manifest was not updated with it; the one who changes an engine function then looks at the kernel
too, and engine and kernel change in one commit.

After checking that the kernel mirrors the change, record the new hashes with::

    FRACAS_MIRRORS=write python -m pytest tests/sim/test_mirrors.py

or ``python -m fracas.sim.kernels.mirrors --write``. A function that moved or was renamed is re-pointed by
hand: change its name in ``mirrors.toml`` (names are ``module:qualified.name``), then write the hashes.

The hash is of the function's source as :func:`inspect.getsource` gives it, dedented: comments and
docstrings count (simplest and strict; a reworded comment costs a rerun with ``--write``).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).with_name("mirrors.toml")
WRITE_ENV = "FRACAS_MIRRORS"  # set to "write" to record the current hashes
HASH_CHARS = 16  # of the SHA-256 hex digest: enough to notice any change, short enough to read a diff

REFRESH = (
    "check that the kernel mirrors the change (and change it if not), then record the new hashes with "
    f"`{WRITE_ENV}=write python -m pytest tests/sim/test_mirrors.py` (engine and kernel change in one commit)"
)


class MirrorMissing(LookupError):
    """A function named in the manifest is not where the manifest says (moved, renamed or removed)."""


@dataclass(slots=True)
class Kernel:
    """One kernel's manifest: the kernel files that mirror, and the hash of each mirrored function."""

    name: str
    files: list[str]
    mirrors: dict[str, str]


def resolve(name: str) -> Any:
    """The function (or method, or class) called ``module:qualified.name``; :class:`MirrorMissing` if the
    module has no such name, or has it only by inheritance or import from elsewhere (the manifest must name
    the code where it is written)."""
    module_name, sep, qualname = name.partition(":")
    if not sep or not qualname:
        raise MirrorMissing(f"{name}: not of the form module:qualified.name")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise MirrorMissing(f"{name}: module {module_name} cannot be imported ({exc})") from None
    for part in qualname.split("."):
        try:
            obj = inspect.getattr_static(obj, part)
        except AttributeError:
            raise MirrorMissing(f"{name}: {module_name} has no {qualname}") from None
        if isinstance(obj, staticmethod | classmethod):
            obj = obj.__func__
        if isinstance(obj, property):
            obj = obj.fget
    defined = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if defined != (module_name, qualname):
        raise MirrorMissing(f"{name}: found, but written in {defined[0]} as {defined[1]}")
    return obj


def source_hash(obj: Any) -> str:
    """The hash of ``obj``'s source, dedented (comments and docstrings included)."""
    source = textwrap.dedent(inspect.getsource(obj))
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:HASH_CHARS]


def load(path: Path = MANIFEST) -> list[Kernel]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Kernel(name, list(section.get("files", [])), dict(section.get("mirrors", {})))
        for name, section in data.items()
    ]


def problems(kernels: list[Kernel]) -> list[str]:
    """One line per mirrored function that changed since its hash was recorded, or that is not found."""
    out = []
    for k in kernels:
        for name, recorded in k.mirrors.items():
            try:
                now = source_hash(resolve(name))
            except MirrorMissing as exc:
                out.append(
                    f"{k.name}: {exc}. Point the manifest ({MANIFEST.name}) at where that code is now, "
                    f"check the kernel still mirrors it, then record: {WRITE_ENV}=write"
                )
                continue
            if now != recorded:
                out.append(f"{k.name}: {name} changed (recorded {recorded}, now {now})")
    return out


def refreshed(kernels: list[Kernel]) -> list[Kernel]:
    """The manifests with every hash recomputed (:class:`MirrorMissing` if a name is not found)."""
    return [Kernel(k.name, k.files, {n: source_hash(resolve(n)) for n in k.mirrors}) for k in kernels]


def dump(kernels: list[Kernel], header: str) -> str:
    """The manifest file: the header comment kept, then one section per kernel (names in their order)."""
    lines = [header.rstrip("\n"), ""] if header.strip() else []
    for k in kernels:
        lines.append(f"[{k.name}]")
        lines.append("files = [" + ", ".join(f'"{f}"' for f in k.files) + "]")
        lines.append("")
        lines.append(f"[{k.name}.mirrors]")
        lines += [f'"{n}" = "{h}"' for n, h in k.mirrors.items()]
        lines.append("")
    return "\n".join(lines)


def _header(path: Path) -> str:
    """The comment lines at the top of the manifest."""
    head = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        head.append(line)
    return "\n".join(head)


def write(path: Path = MANIFEST) -> list[str]:
    """Record the current hashes in the manifest; returns the names whose hash changed."""
    old = load(path)
    new = refreshed(old)
    path.write_text(dump(new, _header(path)), encoding="utf-8")
    return [
        f"{a.name}: {n}"
        for a, b in zip(old, new, strict=True)
        for n in a.mirrors
        if a.mirrors[n] != b.mirrors[n]
    ]


def writing() -> bool:
    return os.environ.get(WRITE_ENV, "") == "write"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        changed = write()
        print("\n".join(changed) if changed else "no hash changed")
        return 0
    if args:
        print("usage: python -m fracas.sim.kernels.mirrors [--write]", file=sys.stderr)
        return 2
    found = problems(load())
    for line in found:
        print(line)
    if found:
        print(REFRESH)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
