"""``fracas import``: character files from the builders players use -> combatant entries and a report."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import typer

from fracas.errors import UsageError


def _import(
    files: list[str] = typer.Argument(
        ...,
        help="Character files: GURPS Character Sheet .gcs, Earthdawn Character Editor .xml, Foundry ed4e "
        "actor .json; - reads one from standard input.",
        show_default=False,
    ),
    ruleset: str | None = typer.Option(
        None,
        "--ruleset",
        help="The ruleset the combatants are for (gurps4 for .gcs; ed4 for the Earthdawn files).",
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Write the combatant entries to this YAML file (all or nothing)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object: ruleset, combatants (the entries) and reports."
    ),
) -> None:
    """Read characters from their builders' files: each becomes a combatant entry, with a mapping report of
    each value taken (and where from), each value computed, and each thing not used or not usable.

    Examples:

      fracas import dai.gcs knight.gcs horse.gcs -o party.yaml

      fracas import swordmaster.xml --ruleset ed4 -o party.yaml

      fracas import actor.json --ruleset ed4 --json

    In an encounter file, `- {from: characters/dai.gcs, player: true}` takes a combatant straight from the
    file (docs/import.md).
    """
    from fracas.engine.bounds import MAX_FILE_BYTES, read_bytes
    from fracas.importers import CharacterFileError, decode, import_file, import_text

    if ruleset is not None and ruleset not in ("gurps4", "ed4"):
        raise UsageError(f"--ruleset: {ruleset!r}; the character files give gurps4 or ed4 combatants")
    results = []
    for f in files:
        if f == "-":
            raw = read_bytes("-", MAX_FILE_BYTES, "a character file")
            p = Path("<stdin>")
            results.append(import_text(p, decode(p, raw), ruleset))
        else:
            results.append(import_file(f, ruleset))
    kinds = sorted({r.ruleset for r in results})
    if len(kinds) > 1:
        raise CharacterFileError(
            "the files give combatants of different rulesets ("
            + ", ".join(f"{r.report.file}: {r.ruleset}" for r in results)
            + "); import them separately"
        )
    entries = _unique_ids([r.entry for r in results])
    doc = {"ruleset": kinds[0], "combatants": entries}
    reports = [r.report for r in results]
    if output is not None:
        _write_atomic(output, _yaml(doc, files))
    if as_json:
        out = {**doc, "reports": [r.as_dict() for r in reports]}
        if output is not None:
            out["output"] = str(output)
        typer.echo(json.dumps(out, indent=None, sort_keys=False))
        return
    text = "\n".join(line for r in reports for line in r.lines())
    if output is not None:
        typer.echo(text)
        typer.echo(f"wrote {len(entries)} combatant{'s' if len(entries) != 1 else ''} to {output}")
    else:
        typer.echo(_yaml(doc, files), nl=False)
        typer.echo(text, err=True)


def _unique_ids(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, int] = {}
    out = []
    for e in entries:
        ident = e.get("id")
        if isinstance(ident, str):
            n = seen.get(ident, 0) + 1
            seen[ident] = n
            if n > 1:
                e = {**e, "id": f"{ident}-{n}"}
        out.append(e)
    return out


def _yaml(doc: dict[str, Any], files: list[str]) -> str:
    import yaml

    head = (
        f"# fracas import of {', '.join(files)}: "
        f"{len(doc['combatants'])} {doc['ruleset']} combatant entries.\n"
        "# Put them in an encounter's sides[].combatants, or name the files there: - {from: FILE} "
        "(docs/import.md).\n"
    )
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110)


def _write_atomic(path: Path, text: str) -> None:
    """Write the whole file or nothing: a temporary file in the same folder, renamed over the target."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"-o {path}: no such folder {folder}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".fracas-import-", suffix=".yaml", dir=folder)
    except OSError as exc:
        raise UsageError(f"-o {path}: cannot write there ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"-o {path}: cannot write it ({exc.strerror})") from None


def register(app: typer.Typer) -> None:
    app.command("import", no_args_is_help=True)(_import)
