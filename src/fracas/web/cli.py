"""``fracas serve`` (the browser view) and ``fracas fights`` (saved fights: list, export, import, delete)."""

from __future__ import annotations

import io
import ipaddress
import json
import socket
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


def _listen(host: str, port: int, what: str) -> socket.socket:
    """A listening TCP socket on ``host:port``. Made with IPPROTO_TCP so that asyncio sets TCP_NODELAY on
    every connection it accepts (it skips sockets made with protocol 0): without it a request on a reused
    connection waits about 40 ms for the client's delayed ACK."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except socket.gaierror as exc:
        raise UsageError(f"{what}: cannot find the address {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}; try another {what}") from None
    sock.listen(128)
    return sock


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _url_host(sock: socket.socket, host: str) -> str:
    """The host part of a link to ``sock``: a wildcard address is shown as this machine's address on the
    table's network (the one a phone can reach), else as given."""
    if host in ("0.0.0.0", "::", ""):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
        finally:
            probe.close()
    return f"[{host}]" if ":" in host else host


def qr_text(url: str) -> str | None:
    """The link as a QR code drawn in text for the terminal (None without the ``segno`` package)."""
    try:
        import segno
    except ImportError:
        return None
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def _serve(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="Address of the game master's pages (and of the "
        "players' view unless --players-host is given). 0.0.0.0: every interface.",
    ),
    port: int = typer.Option(8765, "--port", help="Port of the game master's pages (0: any free port)."),
    players_host: str | None = typer.Option(
        None,
        "--players-host",
        help="Serve the players' view (and nothing else) on this address too, e.g. 0.0.0.0 so that phones on "
        "the table's network can open it while the game master's pages stay on --host.",
    ),
    players_port: int = typer.Option(
        0, "--players-port", help="Port of the players' view with --players-host (0: --port + 1)."
    ),
    new_token: bool = typer.Option(
        False, "--new-token", help="Replace the game master's secret first: every old link and cookie stops."
    ),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open the browser."),
) -> None:
    """Run the browser view, with a bundled example loaded.

    Prints the game master's link (open it once: it carries the secret token, which the browser keeps as a
    cookie; without it nothing can be changed) and the players' link (no hidden combatant, no monster
    statistics) with a QR code for phones. Every action is saved before it shows.

      fracas serve

      fracas serve --port 9000 --db table.sqlite3 --no-browser

      fracas serve --players-host 0.0.0.0      # players join from their phones; the GM stays on 127.0.0.1
    """
    import asyncio
    import webbrowser

    import uvicorn
    from fastapi import FastAPI

    from fracas.store import FightService, Store
    from fracas.web.app import create_app

    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a port (0 to 65535)")
    if not 0 <= players_port <= 65535:
        raise UsageError(f"--players-port: {players_port} is not a port (0 to 65535)")
    store = Store(db)
    service = FightService(store)
    token = store.new_gm_token() if new_token else store.gm_token()
    first = ensure_example(service)
    gm_sock = _listen(host, port, "--port")
    port = gm_sock.getsockname()[1]
    servers: list[tuple[FastAPI, socket.socket]] = [(create_app(service, token), gm_sock)]
    base = f"http://{_url_host(gm_sock, host)}:{port}"
    players_base = base
    if players_host is not None:
        p_sock = _listen(players_host, players_port or (port + 1 if port else 0), "--players-port")
        players_base = f"http://{_url_host(p_sock, players_host)}:{p_sock.getsockname()[1]}"
        servers.append((create_app(service, token, players_only=True), p_sock))
    servers[0][0].state.players_base = players_base  # the GM page shows the players' link and its QR code
    console.print(f"fracas is serving on {base} (database: {store.path})")
    gm_link = f"{base}/?token={token}"
    players_link = f"{players_base}/"
    if first is not None:
        fid = first.record.id  # type: ignore[attr-defined]
        gm_link = f"{base}/gm/{fid}?token={token}"
        players_link = f"{players_base}/view/{fid}"
        console.print(f"Game master: {gm_link}")
        console.print(f"Players:     {players_link}")
    console.print(f"All fights, new encounter: {base}/?token={token}")
    exposed = [h for h in (host, players_host) if h is not None and not _is_loopback(h)]
    if exposed:
        gm_open = not _is_loopback(host)
        console.print(
            "[bold]Exposed on the network:[/bold] "
            + (
                f"the game master's pages on {host} (anyone on the network with the link can run the fight; "
                "keep the token secret, `fracas serve --new-token` replaces it) and the players' view; "
                if gm_open
                else f"only the players' view on {players_host} (it shows no hidden combatant and no monster "
                "statistics); the game master's pages stay on this machine; "
            )
            + "plain HTTP, for the table's own network only."
        )
    qr = qr_text(players_link)
    if qr and (exposed or players_host is not None):
        console.print("Players, scan this:")
        sys.stdout.write(qr)
    console.print("Press Ctrl+C to stop.")
    sys.stdout.flush()
    if not no_browser:
        webbrowser.open(gm_link)
    # Keep idle connections open longer than clients do (httpx and browsers: about 5 s), so that a client
    # never reuses a connection the server is closing at that very moment (a lost request under load).
    running = [
        uvicorn.Server(
            uvicorn.Config(
                app, log_level="warning", access_log=False, timeout_graceful_shutdown=2, timeout_keep_alive=30
            )
        )
        for app, _ in servers
    ]
    if len(running) == 1:
        running[0].run(sockets=[servers[0][1]])
        return

    async def both() -> None:
        await asyncio.gather(
            *(srv.serve(sockets=[sock]) for srv, (_, sock) in zip(running, servers, strict=True))
        )

    asyncio.run(both())


fights_app = typer.Typer(
    help=(
        "Saved fights (the SQLite file `fracas serve` and `fracas fight --resume` use): list, export, "
        "import, delete.\n\nExamples:\n\n  fracas fights list\n\n  fracas fights export ID -o fight.json\n\n"
        "  fracas fights import fight.json\n\n  fracas fights delete ID"
    ),
    no_args_is_help=True,
)


@fights_app.command("list")
def _list(
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object: the database path and each fight's id, name, ruleset, status."
    ),
) -> None:
    """Every saved fight, the most recently changed first (resume one with "fracas fight --resume ID").

    Examples:

      fracas fights list

      fracas fights list --db table.sqlite --json
    """
    from fracas.store import Store

    store = Store(db)
    fights = store.fights()
    if as_json:
        rows = [
            {"id": f.id, "name": f.name, "ruleset": f.ruleset, "status": f.status or "new",
             "seed": f.seed, "created": f.created, "updated": f.updated}
            for f in fights
        ]  # fmt: skip
        sys.stdout.write(json.dumps({"db": str(store.path), "fights": rows}) + "\n")
        return
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
    file: Path = typer.Argument(
        ..., help="A file written by `fracas fights export` (- reads standard input)."
    ),
    db: Path | None = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """Load an exported fight (checked and replayed first; it gets a new id if its own is taken)."""
    from fracas.engine.bounds import MAX_FILE_BYTES, read_bytes
    from fracas.errors import EncounterFileError
    from fracas.store import FightService, Store

    raw = read_bytes(file, MAX_FILE_BYTES, "an exported fight")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise EncounterFileError(f"{file}: not a JSON file: {exc}") from None
    except RecursionError:
        raise EncounterFileError(f"{file}: not accepted: arrays and objects nested too deep") from None
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
