"""Encounter files: a documented, versioned YAML (or TOML) format, validated before anything is built.

See docs/encounter-format.md. Loading is all or nothing: every error is collected with the file, the field
path, what was found and what is allowed, and nothing is half-loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from fracas.engine import safe_yaml
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, FracasError

FORMAT_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CombatantSpec(_Strict):
    """One entry of a side: a bundled template (with overrides) or a full stat block, ``count`` times."""

    template: str | None = None
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]+$")
    name: str | None = None
    count: int = Field(default=1, ge=1, le=500)
    player: bool = False
    tactic: str = "default"
    hidden: bool = False
    at: list[Any] | None = None
    facing: int = Field(default=0, ge=0, le=5)
    altitude: int = 0
    stats: dict[str, Any] = Field(default_factory=dict)
    equipment: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    combat_options: list[str] = Field(default_factory=list)
    """Combat options its tactic declares each round when they are legal (ED4 p.382); the ruleset checks
    them at load (``prepare``); a ruleset without combat options refuses a non-empty list."""

    def positions(self) -> list[tuple[int, int] | None]:
        """Starting hexes, one per copy: ``at: [q, r]`` or ``at: [[q, r], ...]`` (missing ones: None)."""
        if self.at is None:
            return [None] * self.count
        if len(self.at) == 2 and all(isinstance(v, int) for v in self.at):
            first: list[tuple[int, int] | None] = [(int(self.at[0]), int(self.at[1]))]
            return first + [None] * (self.count - 1)
        out: list[tuple[int, int] | None] = []
        for p in self.at:
            if not (isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) for v in p)):
                raise ValueError(f"a position is [q, r] with two integers, not {p!r}")
            out.append((p[0], p[1]))
        return (out + [None] * self.count)[: self.count]

    @field_validator("at")
    @classmethod
    def _check_at(cls, v: list[Any] | None) -> list[Any] | None:
        if v is None:
            return v
        if len(v) == 2 and all(isinstance(x, int) for x in v):
            return v
        for p in v:
            if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)):
                raise ValueError(f"expected [q, r] or a list of [q, r] (integers), found {p!r}")
        return v


class SideSpec(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_ .'-]+$")
    combatants: list[CombatantSpec] = Field(min_length=1)


class MapSpec(_Strict):
    """Terrain of the battle map: hexes that block, give cover, or are dark; the light of the whole scene."""

    blocked: list[list[int]] = Field(default_factory=list)
    cover: list[list[int]] = Field(default_factory=list)
    light: Literal["bright", "partial-darkness", "full-darkness"] = "bright"
    extra: dict[str, Any] = Field(default_factory=dict)


class EncounterSpec(_Strict):
    version: Literal[1] = 1
    ruleset: Literal["ed4", "ed1", "gurps4", "sas"]
    name: str = ""
    description: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    max_rounds: int = Field(default=100, ge=1, le=10000)
    map: MapSpec = Field(default_factory=MapSpec)
    sides: list[SideSpec] = Field(min_length=2)
    settings: dict[str, Any] = Field(default_factory=dict)


def read_file(path: str | Path) -> dict[str, Any]:
    """The raw mapping of a YAML or TOML encounter file (errors name the file)."""
    p = Path(path)
    if not p.exists():
        raise EncounterFileError(f"{p}: no such file")
    if not p.is_file():
        raise EncounterFileError(f"{p}: not a file (an encounter file is YAML or TOML)")
    try:
        if p.stat().st_size > safe_yaml.MAX_BYTES:
            raise EncounterFileError(
                f"{p}: not accepted: the file is {p.stat().st_size} bytes long "
                f"(the limit is {safe_yaml.MAX_BYTES})"
            )
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise EncounterFileError(f"{p}: not a text file (an encounter file is UTF-8 YAML or TOML)") from None
    except OSError as exc:
        raise EncounterFileError(f"{p}: cannot be read ({exc.strerror})") from None
    return _characters_from_files(read_text(text, str(p), toml=p.suffix.lower() == ".toml"), p)


def read_text(text: str, source: str, *, toml: bool = False) -> dict[str, Any]:
    """The raw mapping of an encounter's YAML (or TOML) text, read within the limits of
    :mod:`fracas.engine.safe_yaml` (the web's upload reads through here too); errors name ``source``."""
    data = safe_yaml.loads(text, source, toml=toml)
    if data is None:
        raise EncounterFileError(
            f"{source}: the file is empty (an encounter needs version, ruleset and sides)"
        )
    if not isinstance(data, dict):
        raise EncounterFileError(
            f"{source}: the file must hold a mapping (ruleset, sides, ...), found {type(data).__name__}"
        )
    return data


def _characters_from_files(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``{from: FILE, ...}`` combatant entries read from character files (relative to the encounter file)
    into combatant entries, before validation (docs/import.md)."""
    from fracas.importers import expand_from_entries

    return expand_from_entries(data, path.parent, str(path))


# pydantic's wording for the common errors, said the way a person editing the file reads it
_PLAIN = {
    "missing": "this field is required",
    "int_parsing": "expected a whole number",
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "bool_parsing": "expected true or false",
    "bool_type": "expected true or false",
    "string_type": "expected text",
    "list_type": "expected a list",
    "dict_type": "expected a mapping (field: value lines)",
    "extra_forbidden": "unknown field",
}


def explain(exc: ValidationError, source: str) -> list[str]:
    """One line per pydantic error: file, field path, what was found, what is allowed."""
    lines = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top)"
        found = err.get("input")
        found_text = repr(found) if not isinstance(found, dict) else "a mapping"
        if len(found_text) > 60:
            found_text = found_text[:57] + "..."
        msg = _PLAIN.get(err["type"]) or err["msg"].replace("Input should be", "expected")
        lines.append(f"{source}: {loc}: {msg} (found {found_text})")
    return lines


def parse_spec(data: dict[str, Any], source: str = "<encounter>") -> EncounterSpec:
    try:
        return EncounterSpec.model_validate(data)
    except ValidationError as exc:
        lines = explain(exc, source)
        raise EncounterFileError("\n".join(lines)) from None


def build_state(spec: EncounterSpec, source: str = "<encounter>") -> FightState:
    """Build the starting state; every error of every entry is collected before refusing the file."""
    from fracas.rules.registry import get_ruleset

    ruleset = get_ruleset(spec.ruleset)
    errors: list[str] = []
    try:
        options = ruleset.options(spec.options)
    except FracasError as exc:
        errors += [f"{source}: {line}" for line in str(exc).splitlines()]
        options = {}
    combatants: dict[str, Combatant] = {}
    side_names = [s.name for s in spec.sides]
    if len(set(side_names)) != len(side_names):
        errors.append(f"{source}: sides: two sides share a name ({', '.join(side_names)})")
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.combatants):
            where = f"sides.{si}.combatants.{ci}"
            try:
                made = ruleset.make_combatants(entry, side.name, where)
            except FracasError as exc:  # one line per problem, each with the file
                errors += [f"{source}: {line}" for line in str(exc).splitlines()]
                continue
            if entry.combat_options and not getattr(ruleset, "combat_options", None):
                errors.append(
                    f"{source}: {where}.combat_options: the {spec.ruleset} ruleset has no combat options "
                    f"(found {entry.combat_options!r}; allowed: none)"
                )
            for c in made:
                if c.id in combatants:
                    errors.append(f"{source}: {where}.id: the id {c.id!r} is used twice")
                combatants[c.id] = c
    placed: dict[tuple[int, int], str] = {}
    for c in combatants.values():
        if c.pos is not None:
            if c.pos in placed and not c.marks.get("shares_hex"):
                errors.append(f"{source}: {c.id} and {placed[c.pos]} both start on hex {list(c.pos)}")
            placed[c.pos] = c.id
    if errors:
        raise EncounterFileError("\n".join(errors))
    state = FightState(
        ruleset=spec.ruleset,
        name=spec.name,
        combatants=combatants,
        sides=tuple(side_names),
        options=options,
        max_rounds=spec.max_rounds,
    )
    state.extra["map"] = {
        "blocked": [tuple(h) for h in spec.map.blocked],
        "cover": [tuple(h) for h in spec.map.cover],
        "light": spec.map.light,
        **spec.map.extra,
    }
    if spec.settings:
        state.extra["settings"] = dict(spec.settings)
    try:
        ruleset.prepare(state, spec)
    except FracasError as exc:  # one line per error, each naming the file
        raise EncounterFileError("\n".join(f"{source}: {line}" for line in str(exc).splitlines())) from None
    return state


def load(path: str | Path) -> tuple[EncounterSpec, FightState]:
    """Read, validate and build an encounter file (each error with its line and column in the file)."""
    data = read_file(path)
    try:
        spec = parse_spec(data, str(path))
        return spec, build_state(spec, str(path))
    except EncounterFileError as exc:
        from fracas.engine.positions import with_positions

        raise EncounterFileError(with_positions(str(exc), path)) from None


def load_data(data: dict[str, Any], source: str = "<encounter>") -> tuple[EncounterSpec, FightState]:
    spec = parse_spec(data, source)
    return spec, build_state(spec, source)


def facing_lines(
    left: list[str],
    right: list[str],
    *,
    ruleset: str = "ed4",
    gap: int = 3,
    name: str = "lines",
    max_rounds: int = 100,
) -> FightState:
    """Two lines of bundled templates facing each other (Heroes in column 0, Foes ``gap`` hexes east; ids
    ``heroes-0``, ``foes-0``, ...): the encounter of the benchmarks and the engine's speed tests."""

    def side(side_name: str, templates: list[str], q: int) -> dict[str, Any]:
        return {
            "name": side_name,
            "combatants": [
                {"template": t, "id": f"{side_name.lower()}-{i}", "at": [q, i]}
                for i, t in enumerate(templates)
            ],
        }

    data = {
        "version": 1,
        "ruleset": ruleset,
        "name": name,
        "max_rounds": max_rounds,
        "sides": [side("Heroes", left, 0), side("Foes", right, gap)],
    }
    return load_data(data, f"<{name}>")[1]


def assign_ids(entry: CombatantSpec, default_name: str) -> list[tuple[str, str]]:
    """(id, name) for each copy of an entry: "ghoul-1", "Ghoul 1"... or the entry's own id and name."""
    base_id = entry.id or (entry.template or default_name).lower().replace(" ", "-")
    base_name = entry.name or (entry.template or default_name).replace("-", " ").title()
    if entry.count == 1:
        return [(base_id, base_name)]
    return [(f"{base_id}-{i}", f"{base_name} {i}") for i in range(1, entry.count + 1)]
