"""The documented limits of what fracas accepts (docs/encounter-format.md, "Limits"), and the typed pieces
every ruleset's encounter schema is built from.

A limit keeps the cost of a fight growing with the map and the combatants, never with a number typed in a
file or on the command line: a coordinate, a count, a stat, a run count. Each is refused with exit code 2
by an error that names the field and the limit.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

MAX_COORD = 500
"""A hex coordinate (q or r) lies in -500..500: the map is at most 1,001 hexes across (2 km in Earthdawn,
1 km in GURPS); a position, a blocked or cover hex outside it is refused."""
MAX_MAP_HEXES = 20_000
"""The most hexes one list of the map (``blocked``, ``cover``, a terrain list) may name."""
MAX_COMBATANTS = 1_000
"""The most combatants one encounter may hold (counts added up)."""
MAX_ALTITUDE = 5_000
"""The highest altitude accepted, in the ruleset's yards (hexes of height)."""
MAX_TEXT = 200
"""The longest name, id or description item accepted, in characters (a description: 20 times this)."""

MAX_RUNS = 10_000_000
"""``fracas sim -n`` and ``sweep -n``: at most ten million fights a run (or a point)."""
MAX_ROUNDS = 10_000
"""``--max-rounds`` and the file's ``max_rounds``: at most 10,000 rounds a fight."""
MAX_WORKERS = 64
"""``--workers``: at most 64 worker processes (never more than there are chunks to run)."""
MAX_GRID_POINTS = 1_000
"""A sweep's grid (the product of its ``--vary`` value counts): at most 1,000 points."""
MAX_SEED = 2**63 - 1
"""A seed is a whole number in 0..2**63-1."""
MAX_FILE_BYTES = 20_000_000
"""An exported fight or a character file: at most 20 MB (an encounter: ``safe_yaml.MAX_BYTES``)."""


def read_bytes(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused with exit 2 past ``limit`` bytes: a file by its
    size before it is read, standard input after ``limit + 1`` bytes (never read whole)."""
    from fracas.errors import UsageError

    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)  # a text stream with no bytes under it (a test's)
        data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode("utf-8")
        if len(data) > limit:
            raise UsageError(f"{what} on standard input: not accepted: longer than {limit} bytes (the limit)")
        return bytes(data)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > limit:
            raise UsageError(f"{p}: not accepted: the file is {size} bytes long (the limit is {limit})")
        return p.read_bytes()
    except IsADirectoryError:
        raise UsageError(f"{p}: is a directory, not {what}") from None
    except FileNotFoundError:
        raise UsageError(f"{p}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{p}: cannot be read ({exc.strerror})") from None


class Strict(BaseModel):
    """A schema piece: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


Coord = Annotated[int, Field(strict=True, ge=-MAX_COORD, le=MAX_COORD)]
Hex = tuple[Coord, Coord]
HexList = Annotated[list[Hex], Field(max_length=MAX_MAP_HEXES)]
Name = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_TEXT)]


def check(model: type[BaseModel], data: Any, path: str) -> list[str]:
    """Validate ``data`` against ``model``: one line per problem, ``path.field: what (found ...)``."""
    try:
        model.model_validate(data)
    except ValidationError as exc:
        return problems(exc, path, allowed=", ".join(sorted(model.model_fields)) or "none")
    return []


_PLAIN = {
    "missing": "this field is required",
    "int_parsing": "expected a whole number",
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "bool_parsing": "expected true or false",
    "bool_type": "expected true or false",
    "string_type": "expected text",
    "list_type": "expected a list",
    "tuple_type": "expected a list [q, r]",
    "dict_type": "expected a mapping (field: value lines)",
    "extra_forbidden": "unknown field",
    "model_type": "expected a mapping (field: value lines)",
}


def problems(exc: ValidationError, path: str = "", allowed: str = "") -> list[str]:
    """One line per pydantic error: the field path (``sides.0.combatants.0...``), what was wrong, what was
    found; errors of one field under a union are said once. ``allowed``: the fields of the top model,
    named after an unknown one."""
    out: list[str] = []
    seen: set[str] = set()
    for err in exc.errors():
        # pydantic names a union's member or a validator in the path: keep the fields and indexes only
        loc = [str(p) for p in err["loc"] if isinstance(p, int) or not _is_type_name(str(p))]
        where = ".".join(([path] if path else []) + loc) or "(top)"
        if where in seen:
            continue
        seen.add(where)
        found = err.get("input")
        found_text = "a mapping" if isinstance(found, dict) else repr(found)
        if len(found_text) > 60:
            found_text = found_text[:57] + "..."
        msg = _PLAIN.get(err["type"]) or err["msg"].replace("Input should be", "expected")
        msg = msg.removeprefix("Value error, ").replace("greater than or equal to", "at least")
        msg = msg.replace("less than or equal to", "at most")
        tail = (
            f"; allowed: {allowed}" if allowed and err["type"] == "extra_forbidden" and len(loc) == 1 else ""
        )
        out.append(f"{where}: {msg} (found {found_text}){tail}")
    return out


_TYPE_NAME = re.compile(r"^(constrained-\w+|function-\w+.*|\w+\[.*\]|int|str|bool|float|list|tuple|dict)$")


def _is_type_name(part: str) -> bool:
    """A member of a union or a validator that pydantic names in an error's path (not a field)."""
    return bool(_TYPE_NAME.match(part))
