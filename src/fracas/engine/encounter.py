"""Encounter files: a documented, versioned YAML (or TOML) format, validated before anything is built.

See docs/encounter-format.md. Loading is all or nothing: every error is collected with the file, the field
path, what was found and what is allowed, and nothing is half-loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator

from fracas.engine import bounds, safe_yaml
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, FracasError

FORMAT_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


_Text = Annotated[str, Field(strict=True, max_length=bounds.MAX_TEXT)]


class CombatantSpec(_Strict):
    """One entry of a side: a bundled template (with overrides) or a full stat block, ``count`` times.

    ``stats``, ``equipment`` and ``options`` are mappings whose keys and types each ruleset gives in its
    ``schema`` module (``fracas.rules.<id>.schema``); :func:`build_state` checks them before the ruleset
    reads them."""

    template: _Text | None = None
    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]+$", max_length=bounds.MAX_TEXT)
    name: _Text | None = None
    count: int = Field(default=1, ge=1, le=500, strict=True)
    player: StrictBool = False
    tactic: _Text = "default"
    hidden: StrictBool = False
    at: list[tuple[int, int]] | None = None
    """Starting hexes, normalised from ``[q, r]`` or ``[[q, r], ...]``."""
    facing: int = Field(default=0, ge=0, le=5, strict=True)
    altitude: int = Field(default=0, ge=0, le=bounds.MAX_ALTITUDE, strict=True)
    stats: dict[_Text, Any] = Field(default_factory=dict)
    equipment: dict[_Text, Any] = Field(default_factory=dict)
    options: dict[_Text, Any] = Field(default_factory=dict)
    combat_options: Annotated[list[_Text], Field(max_length=20)] = Field(default_factory=list)
    """Combat options its tactic declares each round when they are legal (ED4 p.382); the ruleset checks
    them at load (``prepare``); a ruleset without combat options refuses a non-empty list."""

    def positions(self) -> list[tuple[int, int] | None]:
        """Starting hexes, one per copy (missing ones: None)."""
        given: list[tuple[int, int] | None] = list(self.at or ())
        return (given + [None] * self.count)[: self.count]

    @field_validator("at", mode="before")
    @classmethod
    def _check_at(cls, v: Any) -> Any:
        if v is None:
            return v
        if not isinstance(v, list) or not v:
            raise ValueError(f"expected [q, r] or a list of [q, r] (whole numbers), found {v!r}")
        hexes = [v] if len(v) == 2 and not any(isinstance(x, list) for x in v) else v
        if len(hexes) > 500:
            raise ValueError(f"at most 500 positions (one per copy), found {len(hexes)}")
        for p in hexes:
            if not (
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
            ):
                raise ValueError(f"expected [q, r] or a list of [q, r] (whole numbers), found {p!r}")
            if any(abs(x) > bounds.MAX_COORD for x in p):
                raise ValueError(
                    f"the hex {p} is off the map: q and r lie in -{bounds.MAX_COORD}..{bounds.MAX_COORD}"
                )
        return [tuple(p) for p in hexes]


class SideSpec(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_ .'-]+$", max_length=bounds.MAX_TEXT)
    combatants: list[CombatantSpec] = Field(min_length=1, max_length=bounds.MAX_COMBATANTS)


class MapSpec(_Strict):
    """Terrain of the battle map: hexes that block, give cover, or are dark; the light of the whole scene.
    ``extra`` holds the ruleset's own terrain, typed by its ``schema.MapExtra``."""

    blocked: bounds.HexList = Field(default_factory=list)
    cover: bounds.HexList = Field(default_factory=list)
    light: Literal["bright", "partial-darkness", "full-darkness"] = "bright"
    extra: dict[_Text, Any] = Field(default_factory=dict)


class EncounterSpec(_Strict):
    version: Literal[1] = 1
    ruleset: Literal["ed4", "ed1", "gurps4", "sas"]
    name: _Text = ""
    description: Annotated[str, Field(strict=True, max_length=20 * bounds.MAX_TEXT)] = ""
    options: dict[_Text, StrictBool] = Field(default_factory=dict)
    """Optional rules switched on or off by id (every optional rule of every ruleset is on or off)."""
    max_rounds: int = Field(default=100, ge=1, le=bounds.MAX_ROUNDS, strict=True)
    map: MapSpec = Field(default_factory=MapSpec)
    sides: list[SideSpec] = Field(min_length=2, max_length=100)
    settings: dict[_Text, Any] = Field(default_factory=dict)


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


def explain(exc: ValidationError, source: str) -> list[str]:
    """One line per pydantic error: file, field path, what was found, what is allowed."""
    return [f"{source}: {line}" for line in bounds.problems(exc)]


def parse_spec(data: dict[str, Any], source: str = "<encounter>") -> EncounterSpec:
    safe_yaml.check_value(data, source)  # a mapping built elsewhere (JSON) gets the file's limits too
    try:
        return EncounterSpec.model_validate(data)
    except ValidationError as exc:
        lines = explain(exc, source)
        raise EncounterFileError("\n".join(lines)) from None


def build_state(spec: EncounterSpec, source: str = "<encounter>") -> FightState:
    """Build the starting state; every error of every entry is collected before refusing the file."""
    from fracas.rules.registry import get_ruleset

    ruleset = get_ruleset(spec.ruleset)
    schema = _schema(spec.ruleset)
    errors = [f"{source}: {line}" for line in check_schema(spec)]
    try:
        options = ruleset.options(spec.options)
    except FracasError as exc:
        errors += [f"{source}: {line}" for line in str(exc).splitlines()]
        options = {}
    combatants: dict[str, Combatant] = {}
    paths: dict[str, str] = {}  # combatant id -> the field path of its entry
    side_names = [s.name for s in spec.sides]
    if len(set(side_names)) != len(side_names):
        errors.append(f"{source}: sides: two sides share a name ({', '.join(side_names)})")
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.combatants):
            where = f"sides.{si}.combatants.{ci}"
            bad = check_entry(schema, ruleset, entry, where)
            if bad:  # the ruleset reads only what its schema accepts
                errors += [f"{source}: {line}" for line in bad]
                continue
            try:
                made = ruleset.make_combatants(entry, side.name, where)
            except FracasError as exc:  # one line per problem, each with the file
                errors += [f"{source}: {line}" for line in str(exc).splitlines()]
                continue
            if entry.combat_options and not ruleset.combat_options:
                errors.append(
                    f"{source}: {where}.combat_options: the {spec.ruleset} ruleset has no combat options "
                    f"(found {entry.combat_options!r}; allowed: none)"
                )
            for c in made:
                paths[c.id] = where
                if c.id in combatants:
                    errors.append(f"{source}: {where}.id: the id {c.id!r} is used twice")
                combatants[c.id] = c
    placed: dict[tuple[int, int], str] = {}
    for c in combatants.values():
        if c.pos is not None:
            if c.pos in placed and not c.marks.get("shares_hex"):
                errors.append(f"{source}: {c.id} and {placed[c.pos]} both start on hex {list(c.pos)}")
            placed[c.pos] = c.id
    errors += [f"{source}: {line}" for line in check_rides(spec, combatants)]
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
    blocked = set(state.extra["map"]["blocked"])
    errors = [
        f"{source}: {c.id} starts on the blocked hex {list(c.pos)} (map.blocked)"
        for c in combatants.values()
        if c.pos is not None and c.pos in blocked
    ]
    flies = getattr(schema, "flies", None)  # None: the ruleset checks altitude itself (or has no fliers)
    errors += [
        f"{source}: {paths.get(c.id, c.id)}.altitude: {c.altitude}, but {c.name} cannot fly"
        for c in combatants.values()
        if flies is not None and c.altitude > 0 and not flies(c) and not c.marks.get("mount")
    ]
    errors += [
        f"{source}: {c.id} is placed off the map at {list(c.pos)} "
        f"(q and r lie in -{bounds.MAX_COORD}..{bounds.MAX_COORD})"
        for c in combatants.values()
        if c.pos is not None and max(abs(c.pos[0]), abs(c.pos[1])) > bounds.MAX_COORD
    ]
    if errors:
        raise EncounterFileError("\n".join(errors))
    return state


def _schema(ruleset: str) -> Any:
    import importlib

    return importlib.import_module(f"fracas.rules.{ruleset}.schema")


def check_schema(spec: EncounterSpec) -> list[str]:
    """Every problem of the encounter-wide parts whose keys the ruleset gives (``fracas.rules.<id>.schema``):
    the map's ``extra``, ``settings``; and the number of combatants. One line per problem, with its path."""
    schema = _schema(spec.ruleset)
    out = bounds.check(schema.MapExtra, spec.map.extra, "map.extra")
    out += bounds.check(schema.Settings, spec.settings, "settings")
    total = sum(e.count for side in spec.sides for e in side.combatants)
    if total > bounds.MAX_COMBATANTS:
        out.append(f"sides: {total} combatants; the limit is {bounds.MAX_COMBATANTS} in one encounter")
    return out


def check_entry(schema: Any, ruleset: Any, entry: CombatantSpec, where: str) -> list[str]:
    """Every problem of one entry's ruleset-typed parts: ``options``, ``stats``, ``equipment``, ``tactic``."""
    out = bounds.check(schema.EntryOptions, entry.options, f"{where}.options")
    out += schema.check_stats(entry, where)
    tactics = ruleset.tactics()
    if entry.tactic not in tactics:
        out.append(f"{where}.tactic: unknown tactic {entry.tactic!r}; allowed: {', '.join(sorted(tactics))}")
    return out


def check_rides(spec: EncounterSpec, combatants: dict[str, Combatant]) -> list[str]:
    """Who rides whom, checked as a graph: the ridden combatant exists, is not the rider, is on the rider's
    side, rides nobody itself (no chain, no loop) and carries no more riders than the ruleset's
    ``schema.RIDERS`` (one in ED4 and S&S; in GURPS a controller and a passenger, p.B397)."""
    schema = _schema(spec.ruleset)
    key, most = schema.RIDES, schema.RIDERS
    is_mount = getattr(schema, "is_mount", None)  # None: the ruleset lets any combatant be ridden
    if key is None:
        return []
    rides: dict[str, tuple[str, str]] = {}  # rider id -> (mount id, field path)
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.combatants):
            wanted = entry.options.get(key)
            if not isinstance(wanted, (str, list)) or not all(isinstance(m, str) for m in wanted):
                continue  # absent, or refused by the schema already
            path = f"sides.{si}.combatants.{ci}.options.{key}"
            ids = [cid for cid, _ in assign_ids(entry, "combatant")]
            mounts = [wanted] * len(ids) if isinstance(wanted, str) else list(wanted)
            if len(mounts) != len(ids):
                continue  # the ruleset says it: one mount per copy
            for cid, mid in zip(ids, mounts, strict=True):
                rides[cid] = (mid, path)
    out: list[str] = []
    carried: dict[str, list[str]] = {}
    for rider, (mid, path) in rides.items():
        me, m = combatants.get(rider), combatants.get(mid)
        if m is None and is_mount is None:
            out.append(f"{path}: no combatant {mid!r} (ids: {', '.join(combatants)})")
            continue
        if m is None or (is_mount is not None and not is_mount(m) and mid != rider):
            known = ", ".join(c.id for c in combatants.values() if is_mount is not None and is_mount(c))
            out.append(f"{path}: {mid!r} is not a mount in this encounter (mounts: {known or 'none'})")
            continue
        if mid == rider:
            out.append(f"{path}: {rider} cannot ride itself")
        elif me is not None and m.side != me.side:
            out.append(
                f"{path}: {rider} rides {mid}, an enemy (side {m.side!r}); a mount is of its rider's side"
            )
        elif mid in rides:
            out.append(
                f"{path}: {rider} rides {mid}, who rides {rides[mid][0]} itself (no chain or loop of riders)"
            )
        elif len(carried.setdefault(mid, [])) >= most:
            who = ", ".join([*carried[mid], rider])
            most_said = {1: "one rider", 2: "two riders"}.get(most, f"{most} riders")
            out.append(f"{path}: {who} all ride {mid}; a mount carries at most {most_said} in {spec.ruleset}")
        else:
            carried[mid].append(rider)
    return out


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
