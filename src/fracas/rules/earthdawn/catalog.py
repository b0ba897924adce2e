"""Earthdawn data files: weapons, armor, shields, races, creatures and example characters, per edition.

Each edition keeps its data in ``src/fracas/rules/<edition>/data/``:

=================  ===========================================================================
``weapons.toml``   ``[weapons] key = {name, kind, damage_step, size, strength_min, ranges...}``
``armor.toml``     ``[armor] key = {name, physical, mystic, initiative_penalty}``
``shields.toml``   ``[shields] key = {name, physical_defense, mystic_defense, initiative_penalty,
                   shatter_threshold}``
``races.toml``     ED4: karma modifier, Movement Rate; ED1: karma, movement adjustment, size limits
``creatures.toml`` ``[creatures.key]`` stat blocks with steps given directly
``characters.toml`` ``[characters.key]`` race, attribute values, talents, skills, equipment, circle
``attributes.toml`` ED1 only: the Attribute Table, values 1-30
=================  ===========================================================================

Every row carries ``confidence``: ``text`` (the rules text prints it), ``confirmed``, ``single``,
``verify`` (the tags of reference/earthdawn.md) or ``choice`` (no source; chosen here and listed in
docs/rulesets/earthdawn-data.md). Every file is validated with pydantic when loaded; a bad entry is
refused with :class:`fracas.errors.EncounterFileError` naming the file, the entry, the field, what was
found and what is allowed, and nothing of that edition is loaded.

Lookups (names are case-insensitive; spaces, underscores and apostrophes are forgiven:
``"Battle axe"`` finds ``battle-axe``, ``"T'skrang"`` finds ``tskrang``):

- :func:`weapon`, :func:`armor`, :func:`shield` -> :class:`~fracas.rules.earthdawn.stats.WeaponData` etc.
- :func:`creature`, :func:`character`, :func:`template` -> a fresh
  :class:`~fracas.rules.earthdawn.stats.EarthdawnStats`
- :func:`list_templates` -> the creature and character templates of an edition.

An unknown name raises :class:`UnknownName` (a :class:`~fracas.errors.UsageError` and a ``LookupError``)
listing the known names.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from fracas.errors import EncounterFileError, UsageError
from fracas.rules.earthdawn import characteristics as ch
from fracas.rules.earthdawn.catalog_rows import (
    ArmorRow,
    CharacterRow,
    CreatureRow,
    Ed1AttributeRowModel,
    Ed1RaceRow,
    Ed4RaceRow,
    ShieldRow,
    WeaponRow,
    file_model,
)
from fracas.rules.earthdawn.stats import (
    EDITIONS,
    MIN_RANGE_YARDS,
    ArmorData,
    EarthdawnStats,
    ShieldData,
    WeaponData,
)

RULES_DIR = Path(__file__).resolve().parent.parent
"""``src/fracas/rules``; each edition's data is in ``RULES_DIR / edition / "data"``."""

_KEY = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


class UnknownName(UsageError, LookupError):
    """A weapon, armor, shield, race, creature or character name that the edition's data lacks."""


def normalize_name(name: str) -> str:
    """Data key form of a name: ``"Battle axe"`` -> ``"battle-axe"``, ``"T'skrang"`` -> ``"tskrang"``."""
    text = name.strip().lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[\s_]+", "-", text)


# --------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemplateInfo:
    """A bundled stat block: ``kind`` is ``"creature"`` or ``"character"``; ``key`` is its lookup name."""

    key: str
    name: str
    kind: Literal["creature", "character"]
    edition: str
    confidence: str


@dataclass(slots=True)
class Catalog:
    """All data of one edition, validated. Use the module functions unless you load your own directory."""

    edition: str
    data_dir: Path
    weapons: dict[str, WeaponData] = field(default_factory=dict)
    armor: dict[str, ArmorData] = field(default_factory=dict)
    shields: dict[str, ShieldData] = field(default_factory=dict)
    races: dict[str, Ed4RaceRow | Ed1RaceRow] = field(default_factory=dict)
    creatures: dict[str, CreatureRow] = field(default_factory=dict)
    characters: dict[str, CharacterRow] = field(default_factory=dict)
    attributes: dict[int, ch.Ed1AttributeRow] = field(default_factory=dict)

    # ---- lookups ------------------------------------------------------------------------------

    def _get(self, table: dict[str, Any], what: str, name: str) -> Any:
        key = normalize_name(name)
        if key in table:
            return table[key]
        known = ", ".join(sorted(table)) or "none"
        raise UnknownName(f"unknown {what} {name!r} in {self.edition}; known: {known}")

    def weapon(self, name: str) -> WeaponData:
        return self._get(self.weapons, "weapon", name)  # type: ignore[no-any-return]

    def armor_piece(self, name: str) -> ArmorData:
        return self._get(self.armor, "armor", name)  # type: ignore[no-any-return]

    def shield(self, name: str) -> ShieldData:
        return self._get(self.shields, "shield", name)  # type: ignore[no-any-return]

    def race(self, name: str) -> Any:
        return self._get(self.races, "race", name)

    def ed1_attribute_row(self, value: int) -> ch.Ed1AttributeRow:
        if value not in self.attributes:
            raise UsageError(f"the ED1 Attribute Table covers values 1-30, not {value}")
        return self.attributes[value]

    def creature(self, name: str) -> EarthdawnStats:
        row: CreatureRow = self._get(self.creatures, "creature", name)
        return EarthdawnStats.from_creature(
            row.name,
            self.edition,
            dexterity=row.dexterity,
            strength=row.strength,
            toughness=row.toughness,
            perception=row.perception,
            willpower=row.willpower,
            charisma=row.charisma,
            initiative=row.initiative,
            physical_defense=row.physical_defense,
            mystic_defense=row.mystic_defense,
            social_defense=row.social_defense,
            physical_armor=row.physical_armor,
            mystic_armor=row.mystic_armor,
            wound_threshold=row.wound_threshold,
            unconsciousness=None if row.unconsciousness == "NA" else row.unconsciousness,
            death=row.death,
            knockdown=row.knockdown,
            recovery_tests=row.recovery_tests,
            movement=row.movement,
            full_movement=row.full_movement,
            flying_movement=row.flying_movement,
            actions=row.actions,
            attacks=[a.to_attack() for a in row.attacks],
            powers=row.powers,
            circle=row.circle,
            size=row.size,
            karma_max=row.karma_max,
            karma_step=row.karma_step,
        )

    def character(self, name: str) -> EarthdawnStats:
        row: CharacterRow = self._get(self.characters, "character", name)
        return EarthdawnStats.from_character(
            row.name,
            self.edition,
            row.race,
            row.attributes,
            talents=row.talents,
            skills=row.skills,
            weapons=row.weapons,
            armor=row.armor,
            shield=row.shield,
            circle=row.circle,
            karma=row.karma,
            discipline=row.discipline,
            spells=[s.model_dump() for s in row.spells],
            mount=row.mount,
            catalog=self,
        )

    def template(self, name: str) -> EarthdawnStats:
        key = normalize_name(name)
        if key in self.creatures:
            return self.creature(key)
        if key in self.characters:
            return self.character(key)
        known = ", ".join(sorted([*self.creatures, *self.characters]))
        raise UnknownName(f"unknown template {name!r} in {self.edition}; known: {known}")

    def list_templates(self) -> list[TemplateInfo]:
        out = [
            TemplateInfo(k, r.name, "creature", self.edition, r.confidence) for k, r in self.creatures.items()
        ]
        out += [
            TemplateInfo(k, r.name, "character", self.edition, r.confidence)
            for k, r in self.characters.items()
        ]
        return sorted(out, key=lambda t: (t.kind, t.key))


_UNION_TAGS = {"int", "str", "float", "bool", "none", "list", "dict"}


def _is_field(part: str) -> bool:
    """Pydantic puts union members (``constrained-int``, ``literal['NA']``) in error locations: skip them."""
    return part not in _UNION_TAGS and "-" not in part and "[" not in part


def _describe(exc: ValidationError, path: Path, section: str) -> str:
    grouped: dict[tuple[str, str], tuple[str, list[str]]] = {}
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        if len(loc) >= 2 and loc[0] == section:
            where = f"entry '{section}.{loc[1]}'"
            fld = ".".join(p for p in loc[2:] if _is_field(p)) or "(the entry)"
        else:
            where = "top level"
            fld = ".".join(p for p in loc if _is_field(p)) or "(the file)"
        found = err.get("input")
        if err["type"] == "missing":
            found_text = "nothing (the field is required)"
        elif err["type"] == "extra_forbidden":
            found_text = f"unknown field with value {found!r}"
        elif isinstance(found, dict):
            found_text = "a table"
        else:
            found_text = repr(found)
        allowed = str(err["msg"]).removeprefix("Value error, ")
        grouped.setdefault((where, fld), (found_text, []))[1].append(allowed)
    lines = [
        f"{path}: {where}, field '{fld}': found {found_text}; allowed: {' or '.join(msgs)}"
        for (where, fld), (found_text, msgs) in list(grouped.items())[:10]
    ]
    if len(grouped) > 10:
        lines.append(f"... and {len(grouped) - 10} more errors")
    return "\n".join(lines)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EncounterFileError(f"{path}: data file missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise EncounterFileError(f"{path}: not valid TOML: {exc}") from None


def _load_section(
    data_dir: Path, filename: str, section: str, row: type[BaseModel], edition: str
) -> dict[str, Any]:
    path = data_dir / filename
    raw = _read(path)
    model = file_model(section, row, edition)
    try:
        parsed = model.model_validate(raw)
    except ValidationError as exc:
        raise EncounterFileError(_describe(exc, path, section)) from None
    rows: dict[str, Any] = getattr(parsed, section)
    for key in rows:
        if not _KEY.fullmatch(key):
            raise EncounterFileError(
                f"{path}: entry '{section}.{key}': found key {key!r}; allowed: lower-case words joined by "
                f"hyphens (e.g. {normalize_name(key)!r})"
            )
    return rows


def _ref_error(path: Path, entry: str, fld: str, found: str, allowed: list[str]) -> EncounterFileError:
    return EncounterFileError(
        f"{path}: entry '{entry}', field '{fld}': found {found!r}; allowed: {', '.join(sorted(allowed))}"
    )


def load_catalog(edition: str, data_dir: Path | None = None) -> Catalog:
    """Load and validate every data file of ``edition`` (from ``data_dir``, by default the bundled one)."""
    if edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}; allowed: {', '.join(EDITIONS)}")
    d = data_dir if data_dir is not None else RULES_DIR / edition / "data"
    cat = Catalog(edition=edition, data_dir=d)

    for key, w in _load_section(d, "weapons.toml", "weapons", WeaponRow, edition).items():

        def span(
            short: int | None, long: int | None
        ) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
            if short is None or long is None:
                return None, None
            return (MIN_RANGE_YARDS, short), (short + 1, long)

        sr, lr = span(w.short_range, w.long_range)
        ts, tl = span(w.thrown_short, w.thrown_long)
        cat.weapons[key] = WeaponData(
            key, w.name, edition, w.kind, w.damage_step, w.size, w.strength_min, sr, lr, ts, tl,
            w.entangling, w.two_handed, w.confidence,
        )  # fmt: skip
    for key, a in _load_section(d, "armor.toml", "armor", ArmorRow, edition).items():
        cat.armor[key] = ArmorData(
            key, a.name, edition, a.physical, a.mystic, a.initiative_penalty, a.confidence
        )
    for key, s in _load_section(d, "shields.toml", "shields", ShieldRow, edition).items():
        cat.shields[key] = ShieldData(
            key, s.name, edition, s.physical_defense, s.mystic_defense, s.initiative_penalty,
            s.shatter_threshold, s.confidence,
        )  # fmt: skip
    race_row = Ed4RaceRow if edition == "ed4" else Ed1RaceRow
    cat.races.update(_load_section(d, "races.toml", "races", race_row, edition))
    if edition == "ed1":
        rows = _load_section(d, "attributes.toml", "values", Ed1AttributeRowModel, edition)
        for key, r in rows.items():
            cat.attributes[int(key)] = ch.Ed1AttributeRow(value=int(key), **r.model_dump())
        if sorted(cat.attributes) != list(range(1, 31)):
            raise EncounterFileError(
                f"{d / 'attributes.toml'}: entry 'values': found values {sorted(cat.attributes)}; "
                "allowed: exactly the values 1-30"
            )
    cat.creatures.update(_load_section(d, "creatures.toml", "creatures", CreatureRow, edition))
    cat.characters.update(_load_section(d, "characters.toml", "characters", CharacterRow, edition))

    path = d / "characters.toml"
    for key, c in cat.characters.items():
        entry = f"characters.{key}"
        if key in cat.creatures:
            raise _ref_error(path, entry, "(key)", key, ["a name no creature in creatures.toml uses"])
        if normalize_name(c.race) not in cat.races:
            raise _ref_error(path, entry, "race", c.race, list(cat.races))
        for i, w in enumerate(c.weapons):
            if normalize_name(w) not in cat.weapons:
                raise _ref_error(path, entry, f"weapons.{i}", w, list(cat.weapons))
        if c.armor is not None and normalize_name(c.armor) not in cat.armor:
            raise _ref_error(path, entry, "armor", c.armor, list(cat.armor))
        if c.shield is not None and normalize_name(c.shield) not in cat.shields:
            raise _ref_error(path, entry, "shield", c.shield, list(cat.shields))
        if c.mount is not None and normalize_name(c.mount) not in cat.creatures:
            raise _ref_error(path, entry, "mount", c.mount, list(cat.creatures))
    return cat


@cache
def _bundled(edition: str) -> Catalog:
    return load_catalog(edition)


def get_catalog(edition: str = "ed4") -> Catalog:
    """The bundled data of an edition, loaded once."""
    if edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}; allowed: {', '.join(EDITIONS)}")
    return _bundled(edition)


def weapon(name: str, edition: str = "ed4") -> WeaponData:
    """A weapon of the edition's ``weapons.toml``."""
    return get_catalog(edition).weapon(name)


def armor(name: str, edition: str = "ed4") -> ArmorData:
    """An armor of the edition's ``armor.toml``."""
    return get_catalog(edition).armor_piece(name)


def shield(name: str, edition: str = "ed4") -> ShieldData:
    """A shield of the edition's ``shields.toml``."""
    return get_catalog(edition).shield(name)


def race(name: str, edition: str = "ed4") -> Ed4RaceRow | Ed1RaceRow:
    """A Namegiver race of the edition's ``races.toml``."""
    return get_catalog(edition).race(name)  # type: ignore[no-any-return]


def ed1_attribute_row(value: int) -> ch.Ed1AttributeRow:
    """The ED1 Attribute Table row of an attribute value 1-30 (``ed1/data/attributes.toml``)."""
    return get_catalog("ed1").ed1_attribute_row(value)


def creature(name: str, edition: str = "ed4") -> EarthdawnStats:
    """A fresh stat block of a bundled creature."""
    return get_catalog(edition).creature(name)


def character(name: str, edition: str = "ed4") -> EarthdawnStats:
    """A fresh stat block of a bundled example character, built by the edition's rules."""
    return get_catalog(edition).character(name)


def template(name: str, edition: str = "ed4") -> EarthdawnStats:
    """A bundled creature or character by name (the keys are unique across both)."""
    return get_catalog(edition).template(name)


def list_templates(edition: str = "ed4") -> list[TemplateInfo]:
    """Every bundled creature and character of an edition, sorted by kind then key."""
    return get_catalog(edition).list_templates()
