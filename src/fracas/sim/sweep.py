"""Sweeps: the same encounter with one or more fields of its combatant entries varied over a grid.

``--vary "ghoul.count=1..8"`` varies the field ``count`` of every combatant entry whose ``id`` or
``template`` is ``ghoul``; ``"mica.stats.karma=0,5,10"`` a nested field. Values: ``a..b`` (integers, both
ends included), ``a..b:s`` (with a step), or a comma-separated list (each item read as a YAML scalar: 3,
2.5, true, broadsword). Several ``--vary`` make a grid (every combination). Every point runs with the same
master seed (common random numbers), so differences between points are not blurred by different dice.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

from fracas.engine import bounds, safe_yaml
from fracas.errors import EncounterFileError, UsageError


@dataclass(frozen=True, slots=True)
class Vary:
    text: str
    selector: str
    field: tuple[str, ...]
    values: tuple[Any, ...]

    @property
    def name(self) -> str:
        return f"{self.selector}.{'.'.join(self.field)}"


_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+)\s*)?$")


def parse_values(text: str) -> tuple[Any, ...]:
    m = _RANGE.match(text)
    if m:
        a, b, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if s < 1:
            raise UsageError(f"--vary: the step of {text!r} must be at least 1")
        if b < a:
            raise UsageError(f"--vary: the range {text!r} is empty (write low..high)")
        count = (b - a) // s + 1
        if count > bounds.MAX_GRID_POINTS:
            raise UsageError(
                f"--vary: the range {text!r} has {count:,} values; a sweep has at most "
                f"{bounds.MAX_GRID_POINTS:,} points (write a step: {a}..{b}:{max(1, (b - a) // 10)})"
            )
        return tuple(range(a, b + 1, s))
    items = [t.strip() for t in text.strip().strip("[]").split(",")]
    if len(items) > bounds.MAX_GRID_POINTS:
        raise UsageError(
            f"--vary: {len(items):,} values; a sweep has at most {bounds.MAX_GRID_POINTS:,} points"
        )
    if not items or any(t == "" for t in items):
        raise UsageError(f"--vary: cannot read the values {text!r} (write 1..8, 1..8:2 or 1,2,4)")
    out = []
    for t in items:
        try:
            out.append(safe_yaml.loads(t, "--vary"))
        except EncounterFileError:  # not a YAML scalar: the text itself (a name)
            out.append(t)
    return tuple(out)


def parse_vary(text: str, data: dict[str, Any]) -> Vary:
    """Read one ``--vary`` against the encounter data (the selector must name an entry)."""
    if "=" not in text:
        raise UsageError(f"--vary {text!r}: expected ENTRY.FIELD=VALUES, e.g. ghoul.count=1..8")
    left, right = text.split("=", 1)
    parts = left.strip().split(".")
    known = _selectors(data)
    # Ids may contain dots: take the longest prefix that names an entry.
    for cut in range(len(parts) - 1, 0, -1):
        selector = ".".join(parts[:cut])
        if selector in known:
            return Vary(text, selector, tuple(parts[cut:]), parse_values(right))
    allowed = ", ".join(sorted(known)) or "none"
    raise UsageError(
        f"--vary {text!r}: no combatant entry has the id or template {parts[0]!r} "
        f"followed by a field; entries: {allowed}"
    )


def _selectors(data: dict[str, Any]) -> set[str]:
    out = set()
    for side in data.get("sides") or []:
        for entry in side.get("combatants") or []:
            for key in ("id", "template"):
                if isinstance(entry.get(key), str):
                    out.add(entry[key])
    return out


def apply(data: dict[str, Any], vary: Vary, value: Any) -> dict[str, Any]:
    """A copy of ``data`` with the field set to ``value`` in every matching entry."""
    new = copy.deepcopy(data)
    hits = 0
    for side in new.get("sides") or []:
        for entry in side.get("combatants") or []:
            if vary.selector not in (entry.get("id"), entry.get("template")):
                continue
            hits += 1
            node = entry
            for key in vary.field[:-1]:
                child = node.get(key)
                if child is None:
                    child = node[key] = {}
                if not isinstance(child, dict):
                    raise UsageError(f"--vary {vary.text!r}: {key} is not a mapping in entry {vary.selector}")
                node = child
            node[vary.field[-1]] = value
    if not hits:
        raise UsageError(f"--vary {vary.text!r}: no entry {vary.selector!r}")
    return new


def grid(data: dict[str, Any], varies: list[Vary]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(values by parameter name, encounter data) for every point of the grid, first parameter slowest."""
    if not varies:
        raise UsageError("a sweep needs at least one --vary")
    names = [v.name for v in varies]
    if len(set(names)) != len(names):
        raise UsageError("--vary: the same field is varied twice")
    size = math.prod(len(v.values) for v in varies)
    if size > bounds.MAX_GRID_POINTS:
        raise UsageError(
            f"--vary: the grid has {size:,} points ({' x '.join(str(len(v.values)) for v in varies)}); "
            f"the limit is {bounds.MAX_GRID_POINTS:,}"
        )
    out = []
    for combo in itertools.product(*(v.values for v in varies)):
        point = data
        for v, value in zip(varies, combo, strict=True):
            point = apply(point, v, value)
        out.append((dict(zip(names, combo, strict=True)), point))
    return out


def sweep_json(
    varies: list[Vary], values: list[dict[str, Any]], reports: list[dict[str, Any]], timing: dict[str, Any]
) -> dict[str, Any]:
    """The sweep as plain data: each point's values and its report (sides, draws, rounds, combatants)."""
    from fracas import __version__

    first = reports[0] if reports else {}
    return {
        "format": 1,
        "fracas": __version__,
        "encounter": first.get("encounter", ""),
        "file": first.get("file", ""),
        "ruleset": first.get("ruleset", ""),
        "seed": first.get("seed"),
        "runs": first.get("requested", 0),
        "interrupted": any(r["interrupted"] for r in reports),
        "vary": [{"name": v.name, "values": list(v.values)} for v in varies],
        "points": [
            {
                "values": vals,
                "engine": r["engine"],
                "kernel_fallback_reason": r.get("kernel_fallback_reason"),
                "runs": r["runs"],
                "precision": r.get("precision"),
                "sides": r["sides"],
                "draws": r["draws"],
                "wipeouts": r["wipeouts"],
                "rounds": {k: v for k, v in r["rounds"].items() if k != "histogram"},
                "combatants": r["combatants"],
                "casualties": r["casualties"],
            }
            for vals, r in zip(values, reports, strict=True)
        ],
        "timing": timing,
    }
