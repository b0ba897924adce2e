"""Characters from the builders players use, as combatant entries of an encounter file.

``import_file(path)`` reads one character file and returns its combatant entry and a :class:`MappingReport`
(each value taken and where from, each value computed, each thing not used or not usable). Formats, one module
each: GURPS Character Sheet ``.gcs`` (``gcs``), Earthdawn Character Editor XML (``ecte``), Foundry VTT
Earthdawn 4e actor JSON (``foundry_ed4e``). A file that is not one of them, or is damaged, raises
:class:`CharacterFileError` naming the file and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fracas.importers.report import CharacterFileError, Imported, MappingReport

__all__ = ["CharacterFileError", "Imported", "MappingReport", "import_file", "import_text", "FORMATS"]

# format -> (the rulesets its entries are for, what it is)
FORMATS = {
    "gcs": (("gurps4",), "GURPS Character Sheet .gcs (JSON, data versions 2-5)"),
    "ecte": (("ed4",), "Earthdawn Character Editor XML"),
    "foundry-ed4e": (("ed4",), "Foundry VTT Earthdawn 4e (ed4e) actor JSON"),
}


def sniff(path: Path, text: str) -> str:
    """Which format a file's text is in (by its content, then its name)."""
    head = text.lstrip()[:4000]
    if head.startswith("<"):
        if "EDCHARACTER" in head.upper() or "EDCHARAKTER" in head.upper():
            return "ecte"
        if path.suffix.lower() == ".gcs" or "<character" in head:
            return "gcs"  # an old XML .gcs: the gcs reader says what to do with it
        return "ecte"
    if head.startswith("{"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            return "gcs" if path.suffix.lower() == ".gcs" else "json"
        if isinstance(doc, dict):
            stats = doc.get("_stats")
            if isinstance(stats, dict) and "systemId" in stats:
                return "foundry-ed4e"
            if "system" in doc and "type" in doc and "version" not in doc:
                return "foundry-ed4e"
            if "version" in doc or path.suffix.lower() == ".gcs":
                return "gcs"
        return "json"
    if path.suffix.lower() == ".gcs":
        return "gcs"
    if path.suffix.lower() == ".xml":
        return "ecte"
    return "unknown"


def read_text(path: str | Path) -> tuple[Path, str]:
    p = Path(path)
    if not p.exists():
        raise CharacterFileError(f"{p}: no such file")
    if not p.is_file():
        raise CharacterFileError(f"{p}: not a file")
    from fracas.engine.bounds import MAX_FILE_BYTES

    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise CharacterFileError(f"{p}: not accepted: {size} bytes long (the limit is {MAX_FILE_BYTES})")
        raw = p.read_bytes()
    except OSError as exc:
        raise CharacterFileError(f"{p}: cannot be read ({exc.strerror})") from None
    return p, decode(p, raw)


def decode(p: Path, raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if raw.lstrip().startswith(b"<"):  # XML may declare another encoding (US-ASCII, ISO-8859-1)
        try:
            return raw.decode("latin-1")
        except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
            pass
    raise CharacterFileError(f"{p}: not a text file (a character file is JSON or XML)")


def import_file(path: str | Path, ruleset: str | None = None) -> Imported:
    """One character file -> its combatant entry and mapping report (``CharacterFileError`` if it cannot)."""
    p, text = read_text(path)
    return import_text(p, text, ruleset)


def import_text(path: Path, text: str, ruleset: str | None = None) -> Imported:
    fmt = sniff(path, text)
    if fmt not in FORMATS:
        kinds = "; ".join(f"{d}" for _, d in FORMATS.values())
        raise CharacterFileError(f"{path}: not a character file fracas reads ({kinds})")
    rulesets, what = FORMATS[fmt]
    if ruleset is not None and ruleset not in rulesets:
        raise CharacterFileError(
            f"{path}: a {what} gives {'/'.join(rulesets)} combatants, not {ruleset} (--ruleset {rulesets[0]})"
        )
    if fmt == "gcs":
        from fracas.importers import gcs

        return gcs.read(path, text)
    if fmt == "ecte":
        from fracas.importers import ecte

        return ecte.read(path, text)
    from fracas.importers import foundry_ed4e

    return foundry_ed4e.read(path, text)


def expand_from_entries(data: dict[str, Any], base: Path, source: str) -> dict[str, Any]:
    """An encounter mapping whose ``{from: FILE, ...}`` combatant entries are replaced by the imported entry,
    with the entry's other fields on top (``stats:`` and ``equipment:`` merged into the imported ones, the
    rest
    replacing them). Paths are relative to ``base`` (the encounter file's folder). Every error names the
    encounter file, the entry's field path and the character file's problem."""
    sides = data.get("sides")
    if not isinstance(sides, list) or not any(
        isinstance(s, dict)
        and isinstance(s.get("combatants"), list)
        and any(isinstance(c, dict) and "from" in c for c in s["combatants"])
        for s in sides
    ):
        return data
    ruleset = data.get("ruleset") if isinstance(data.get("ruleset"), str) else None
    errors: list[str] = []
    out = dict(data)
    new_sides = []
    for si, side in enumerate(sides):
        if not isinstance(side, dict) or not isinstance(side.get("combatants"), list):
            new_sides.append(side)
            continue
        entries = []
        for ci, entry in enumerate(side["combatants"]):
            if not (isinstance(entry, dict) and "from" in entry):
                entries.append(entry)
                continue
            where = f"sides.{si}.combatants.{ci}.from"
            target = entry["from"]
            if not isinstance(target, str) or not target:
                errors.append(f"{source}: {where}: expected the path of a character file, found {target!r}")
                continue
            p = Path(target)
            if not p.is_absolute():
                p = base / p
            try:
                imported = import_file(p, ruleset if ruleset in ("ed4", "gurps4") else None)
            except CharacterFileError as exc:
                errors += [f"{source}: {where}: {line}" for line in str(exc).splitlines()]
                continue
            if ruleset is not None and imported.ruleset != ruleset:
                errors.append(
                    f"{source}: {where}: {target} gives {imported.ruleset} combatants; "
                    f"this encounter is {ruleset}"
                )
                continue
            entries.append(merge_entry(imported.entry, entry))
        new_sides.append({**side, "combatants": entries})
    if errors:
        from fracas.errors import EncounterFileError

        raise EncounterFileError("\n".join(errors))
    out["sides"] = new_sides
    return out


def merge_entry(imported: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """The imported entry with an encounter entry's fields on top (``from`` itself dropped)."""
    merged = {k: v for k, v in imported.items()}
    for key, value in overrides.items():
        if key == "from":
            continue
        if key in ("stats", "equipment") and isinstance(value, dict) and isinstance(merged.get(key), dict):
            both = dict(merged[key])
            for k, v in value.items():
                if k == "skills" and isinstance(v, dict) and isinstance(both.get("skills"), dict):
                    both["skills"] = {**both["skills"], **v}
                else:
                    both[k] = v
            merged[key] = both
        else:
            merged[key] = value
    return merged
