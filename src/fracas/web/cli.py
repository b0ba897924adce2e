"""``fracas serve`` (the browser view) and ``fracas fights`` (saved fights: list, export, import, delete)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from fracas.errors import UsageError

console = Console(highlight=False, soft_wrap=True)

HERE = Path(__file__).parent
# The example a fresh database starts with: the repository's (a source checkout), else the copy bundled in
# the package (an installed wheel has no examples/ folder).
BUNDLED_EXAMPLES = (
    HERE.parents[2] / "examples" / "ed4" / "mica-and-the-ghouls.yaml",
    HERE / "examples" / "mica-and-the-ghouls.yaml",
)

DB_HELP = "The SQLite file of saved fights (default: fracas.sqlite3 in your data directory, or $FRACAS_DB)."


def bundled_example() -> Path | None:
    for p in BUNDLED_EXAMPLES:
        if p.exists():
            return p
    return None


def ensure_example(service: object) -> object | None:
    """A fresh database gets the bundled example as its first fight; returns the fight to show first."""
    from fracas.engine.encounter import read_file
    from fracas.errors import FracasError
    from fracas.store.session import FightService

    assert isinstance(service, FightService)
    fights = service.store.fights()
    if fights:
        return service.book(fights[0].id)
    example = bundled_example()
    if example is None:
        return None
    try:
        return service.create(read_file(example), source=str(example))
    except FracasError as exc:  # the example's ruleset is not available in this version
        console.print(f"(no example loaded: {exc})")
        return None


def _serve(
    port: int = typer.Option(8765, "--port", help="Port on 127.0.0.1 (0: any free port)."),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open the browser."),
) -> None:
    """Run the game master's browser view on 127.0.0.1, with a bundled example loaded.

    Prints the game master's link (it carries the secret token: without it nothing can be changed) and the
    players' link (no hidden combatant, no monster statistics). Every action is saved before it shows.

      fracas serve

      fracas serve --port 9000 --db table.sqlite3 --no-browser
    """
    import socket
    import webbrowser

    import uvicorn

    from fracas.store import FightService, Store
    from fracas.web.app import create_app

    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a port (0 to 65535)")
    store = Store(db)
    service = FightService(store)
    token = store.gm_token()
    first = ensure_example(service)
    app = create_app(service, token)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}; try another --port") from None
    sock.listen(128)
    port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    console.print(f"fracas is serving on {base} (database: {store.path})")
    gm_link = f"{base}/?token={token}"
    if first is not None:
        fid = first.record.id  # type: ignore[attr-defined]
        gm_link = f"{base}/gm/{fid}?token={token}"
        console.print(f"Game master: {gm_link}")
        console.print(f"Players:     {base}/view/{fid}")
    console.print(f"All fights, new encounter: {base}/?token={token}")
    console.print("Press Ctrl+C to stop.")
    sys.stdout.flush()
    if not no_browser:
        webbrowser.open(gm_link)
    # Keep idle connections open longer than clients do (httpx and browsers: about 5 s), so that a client
    # never reuses a connection the server is closing at that very moment (a lost request under load).
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=2, timeout_keep_alive=30
    )
    server = uvicorn.Server(config)
    server.run(sockets=[sock])


fights_app = typer.Typer(
    help=(
        "Saved fights (the SQLite file `fracas serve` and `fracas fight --resume` use): list, export, "
        "import, delete.\n\nExamples:\n\n  fracas fights list\n\n  fracas fights export ID -o fight.json\n\n"
        "  fracas fights import fight.json\n\n  fracas fights delete ID"
    ),
    no_args_is_help=True,
)


@fights_app.command("list")
def _list(db: Path | None = typer.Option(None, "--db", help=DB_HELP)) -> None:
    """Every saved fight, the most recently changed first (resume one with "fracas fight --resume ID").

    Examples:

      fracas fights list

      fracas fights list --db table.sqlite
    """
    from fracas.store import Store

    store = Store(db)
    fights = store.fights()
    if not fights:
        console.print(f"No saved fight in {store.path}.")
    for f in fights:
        console.print(f"{f.id}  {f.ruleset}  {f.name}  ({f.status or 'new'})")


@fights_app.command("export")
def _export(
    fight_id: str = typer.Argument(..., help="The fight's id (see `fracas fights list`)."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write here instead of stdout."),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """A fight as one JSON file: its encounter, every command, every event (undo and redo markers too)."""
    from fracas.store import FightService, Store

    service = FightService(Store(db))
    data = service.export(fight_id)
    text = json.dumps(data, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")


@fights_app.command("import")
def _import(
    file: Path = typer.Argument(..., help="A file written by `fracas fights export`."),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """Load an exported fight (checked and replayed first; it gets a new id if its own is taken)."""
    from fracas.errors import EncounterFileError
    from fracas.store import FightService, Store

    if not file.exists():
        raise UsageError(f"{file}: no such file")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise EncounterFileError(f"{file}: not a JSON file: {exc}") from None
    book = FightService(Store(db)).import_(data, source=str(file))
    console.print(f"imported {book.record.id}: {book.record.name} ({book.status_text()})")


@fights_app.command("delete")
def _delete(
    fight_id: str = typer.Argument(..., help="The fight's id."),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """Delete a saved fight and its log (export it first to keep a copy). Example:

    fracas fights delete mica-and-the-ghouls-1a2b3c
    """
    from fracas.store import Store

    store = Store(db)
    store.get(fight_id)
    store.delete(fight_id)
    console.print(f"deleted {fight_id}")


def register(app: typer.Typer) -> None:
    app.command("serve")(_serve)
    app.add_typer(fights_app, name="fights")
