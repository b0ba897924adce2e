"""The mapping report of an import: each value taken and where from, each value computed and from what, each
thing in the file fracas does not use or cannot use, so that nothing is dropped silently."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from fracas.errors import FracasError


def mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (a part missing or of another kind)."""
    return value if isinstance(value, dict) else {}


class CharacterFileError(FracasError):
    """A character file that is not the format or is damaged: names the file and the field (exit 2)."""

    exit_code = 2


@dataclass(slots=True)
class Taken:
    field: str  # the field of the combatant entry, e.g. "stats.st"
    value: Any
    source: str  # where in the file, e.g. "attributes[st].calc.value"


@dataclass(slots=True)
class Computed:
    field: str
    value: Any
    how: str  # the arithmetic, with the values it used


@dataclass(slots=True)
class Dropped:
    what: str  # the thing in the file, e.g. "trait 'Absolute Direction'"
    why: str


@dataclass(slots=True)
class MappingReport:
    """What became of one character file's contents."""

    file: str
    format: str  # "gcs", "ecte-xml", "foundry-ed4e"
    version: str
    name: str
    taken: list[Taken] = field(default_factory=list)
    computed: list[Computed] = field(default_factory=list)
    unused: list[Dropped] = field(default_factory=list)  # no combat effect fracas models
    unusable: list[Dropped] = field(default_factory=list)  # would matter, but fracas cannot read or apply it

    def take(self, fld: str, value: Any, source: str) -> Any:
        self.taken.append(Taken(fld, value, source))
        return value

    def compute(self, fld: str, value: Any, how: str) -> Any:
        self.computed.append(Computed(fld, value, how))
        return value

    def unused_thing(self, what: str, why: str) -> None:
        self.unused.append(Dropped(what, why))

    def unusable_thing(self, what: str, why: str) -> None:
        self.unusable.append(Dropped(what, why))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The report as text, one line per item."""
        out = [f"{self.file} ({self.format} {self.version}): {self.name}"]
        out += [f"  taken     {t.field} = {_show(t.value)}  <- {t.source}" for t in self.taken]
        out += [f"  computed  {c.field} = {_show(c.value)}  = {c.how}" for c in self.computed]
        out += [f"  not used  {d.what}: {d.why}" for d in self.unused]
        out += [f"  cannot use {d.what}: {d.why}" for d in self.unusable]
        return out


def _show(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(value)
    return str(value)


@dataclass(slots=True)
class Imported:
    """One character file's combatant entry (ready for an encounter's ``combatants:``) and its report."""

    entry: dict[str, Any]
    report: MappingReport
    ruleset: str
