"""The shape of the code, checked: the import layers (pyproject.toml ``[tool.importlinter]``), no new import
circle, and mypy with a baseline that may only shrink (``mypy-baseline.txt``).

The mypy baseline is a count per message, without file or line, so that moving code between files (cutting a
big file along its rule areas) leaves it as it is; a new message, or one more of a known message, fails.
When an error is fixed, rerun with ``FRACAS_MYPY_BASELINE=write`` to shrink the file.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
BIN = Path(sys.executable).parent
BASELINE = ROOT / "mypy-baseline.txt"

# Import circles that exist and are to be cut (each a set of modules); a circle not listed here fails.
KNOWN_CIRCLES: list[set[str]] = []


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC)}


def test_the_import_layers_hold() -> None:
    tool = BIN / "lint-imports"
    if not tool.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    run = subprocess.run([str(tool)], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def _circles() -> list[set[str]]:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("fracas", exclude_type_checking_imports=True)
    adj = {m: [i for i in graph.find_modules_directly_imported_by(m)] for m in sorted(graph.modules)}
    # Tarjan's strongly connected components, iteratively (no recursion limit to worry about)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    for root in adj:
        if root in index:
            continue
        work = [(root, iter(adj[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adj[w])))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(comp)
    return found


def test_no_new_import_circle() -> None:
    new = [sorted(c) for c in _circles() if c not in KNOWN_CIRCLES]
    assert not new, f"new import circles (cut them, do not list them): {new}"


def _mypy_messages() -> Counter[str]:
    tool = BIN / "mypy"
    if not tool.exists():
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    run = subprocess.run(
        [str(tool), "src/fracas", "--no-error-summary", "--hide-error-context", "--no-pretty"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    messages: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        m = re.match(r"^[^:]+:\d+: error: (.*)$", line)
        if m:
            messages[m.group(1)] += 1
    if run.returncode not in (0, 1) or (run.returncode == 1 and not messages):
        pytest.fail(f"mypy did not run: {run.stdout[-2000:]}{run.stderr[-2000:]}")
    return messages


def _read_baseline() -> Counter[str]:
    out: Counter[str] = Counter()
    if BASELINE.exists():
        for line in BASELINE.read_text(encoding="utf-8").splitlines():
            if line.strip():
                count, _, message = line.partition(" ")
                out[message] = int(count)
    return out


def test_mypy_adds_no_error_to_its_baseline() -> None:
    now = _mypy_messages()
    if os.environ.get("FRACAS_MYPY_BASELINE") == "write":
        BASELINE.write_text("".join(f"{n} {m}\n" for m, n in sorted(now.items())), encoding="utf-8")
    known = _read_baseline()
    grown = {m: (known.get(m, 0), n) for m, n in now.items() if n > known.get(m, 0)}
    assert not grown, "mypy errors beyond mypy-baseline.txt (message: baseline count, now):\n" + "\n".join(
        f"  {m}: {a} -> {b}" for m, (a, b) in sorted(grown.items())
    )


def test_ruff_finds_nothing() -> None:
    """Lint (pyflakes, pycodestyle, bugbear, imports, the complexity ceiling) and format, as CI sees them."""
    tool = BIN / "ruff"
    if not tool.exists():
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    where = [p for p in ("src", "tests", "benchmarks", "scripts") if (ROOT / p).exists()]
    lint = subprocess.run([str(tool), "check", *where], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert lint.returncode == 0, lint.stdout[-4000:]
    fmt = subprocess.run(
        [str(tool), "format", "--check", *where], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert fmt.returncode == 0, fmt.stdout[-4000:]


def test_every_test_module_has_its_own_name() -> None:
    """The test folders are not packages: two test modules of one name stop pytest at collection."""
    seen: dict[str, Path] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name in ("__init__.py", "conftest.py"):
            continue
        other = seen.setdefault(path.name, path)
        assert other == path, f"{path.relative_to(ROOT)} and {other.relative_to(ROOT)}: rename one"
