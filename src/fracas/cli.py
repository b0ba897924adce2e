"""The ``fracas`` command line. Each area registers its commands from its own module (see ``_AREAS``)."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from fracas import __version__
from fracas.errors import FracasError, UsageError

_app = typer.Typer(
    name="fracas",
    help=(
        "Tabletop RPG combat run exactly by the book: Earthdawn 4e (ed4) and 1e (ed1), "
        "GURPS 4e mounted and aerial combat (gurps4), Spells & Swords (sas).\n\n"
        "Examples:\n\n"
        '  fracas roll "step 14"\n\n'
        '  fracas odds "step 14" --dn 9\n\n'
        "  fracas fight examples/ed4/mica-and-the-ghouls.yaml\n\n"
        "Exit codes: 0 done; 2 refused (a bad file or argument, anything you can fix: the message says "
        "what); 130 interrupted (Ctrl-C, SIGTERM, SIGHUP); 1 a bug in fracas. Limits (map size, counts, "
        "stats, -n, --workers, grids, seeds): docs/encounter-format.md."
    ),
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

err_console = Console(stderr=True, highlight=False)

# Modules that define ``register(app: typer.Typer) -> None``. A module that is not there yet is skipped.
_AREAS = (
    "fracas.dice.cli",
    "fracas.engine.cli",
    "fracas.sim.cli",
    "fracas.web.cli",
    "fracas.importers.cli",
)

# The commands (and command groups) each area registers: ``main`` imports only the area of the command it
# runs, not every area and what they import (a command missing here, ``--help`` or no command at all
# loads them all). tests/test_cli_areas.py checks this table against the areas' ``register``.
COMMANDS = {
    "roll": "fracas.dice.cli",
    "odds": "fracas.dice.cli",
    "fight": "fracas.engine.cli",
    "validate": "fracas.engine.cli",
    "rules": "fracas.engine.cli",
    "schema": "fracas.engine.cli",
    "sim": "fracas.sim.cli",
    "sweep": "fracas.sim.cli",
    "serve": "fracas.web.cli",
    "fights": "fracas.web.cli",
    "import": "fracas.importers.cli",
}

# The commands that need an optional extra, and the modules that extra installs (pyproject.toml): without
# them the command says which extra to install instead of failing on an import.
EXTRAS = {
    "sim": ("sim", ("numba", "matplotlib", "dask", "distributed")),
    "sweep": ("sim", ("numba", "matplotlib", "dask", "distributed")),
    "serve": ("web", ("fastapi", "uvicorn", "jinja2", "multipart")),
}
_EXTRA_OF_MODULE = {m: extra for extra, mods in EXTRAS.values() for m in mods} | {"starlette": "web"}

_REGISTERED: dict[str, tuple[list[Any], list[Any]]] = {}  # area -> the commands and groups it added


def _register(areas: tuple[str, ...]) -> None:
    """Register these areas' commands (once each), keeping the commands in the order of ``_AREAS``."""
    for name in areas:
        if name in _REGISTERED:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                _REGISTERED[name] = ([], [])
                continue
            raise
        commands, groups = len(_app.registered_commands), len(_app.registered_groups)
        module.register(_app)
        _REGISTERED[name] = (_app.registered_commands[commands:], _app.registered_groups[groups:])
    order = [a for a in _AREAS if a in _REGISTERED] + [a for a in _REGISTERED if a not in _AREAS]
    _app.registered_commands = [c for a in order for c in _REGISTERED[a][0]]
    _app.registered_groups = [g for a in order for g in _REGISTERED[a][1]]


def _register_all() -> None:
    _register(_AREAS)


def _area_of(argv: list[str]) -> str | None:
    """The area of the command ``argv`` runs, or None (no command, an option first, an unknown name)."""
    if not argv or argv[0].startswith("-"):
        return None
    return COMMANDS.get(argv[0])


def __getattr__(name: str) -> Any:
    """``fracas.cli.app``: the Typer app with every area's commands (for tests and embedding)."""
    if name == "app":
        _register_all()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@_app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the fracas version and exit."),
) -> None:
    if version:
        typer.echo(f"fracas {__version__}")
        raise typer.Exit()


def missing_extra(command: str) -> str | None:
    """The message for a command whose optional extra is not installed, or None when it is."""
    import importlib.util

    need = EXTRAS.get(command)
    if need is None:
        return None
    extra, modules = need
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if not missing:
        return None
    return (
        f"fracas {command} needs the [{extra}] extra ({', '.join(missing)} not installed): "
        f"pip install 'fracas[{extra}]'"
    )


def _missing_module_message(exc: ModuleNotFoundError) -> str | None:
    root = (exc.name or "").split(".")[0]
    extra = _EXTRA_OF_MODULE.get(root)
    if extra is None:
        return None
    return f"this needs the [{extra}] extra ({root} is not installed): pip install 'fracas[{extra}]'"


EXIT_CODES = {
    0: "done",
    2: "refused: a bad file or argument (the message says what to change)",
    130: "interrupted (Ctrl-C, SIGTERM or SIGHUP)",
    1: "a bug in fracas (please report it)",
}
"""The exit-code contract of every command (docs/encounter-format.md, "Exit codes")."""


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP stop a command as Ctrl-C does (``sim`` and ``sweep`` end their workers and report
    the fights so far; exit code 130), then the handlers before are restored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signals = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {sig: signal.signal(sig, _interrupt) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the Typer app, turning every :class:`FracasError` into one line and an exit code
    (:data:`EXIT_CODES`: 0 done, 2 refused, 130 interrupted, 1 only for a bug)."""
    try:
        with _stop_signals():
            return _main(argv)
    except KeyboardInterrupt:  # a signal between two commands' handlers
        err_console.print("interrupted")
        return 130


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    area = _area_of(args)
    if area is not None and not any(a in ("-h", "--help") for a in args):
        problem = missing_extra(args[0])
        if problem is not None:
            err_console.print(f"[bold red]error:[/] {escape(problem)}", markup=True, soft_wrap=True)
            return 2
    spooled = _spool_stdin(args) if args[:1] in (["sim"], ["sweep"]) else None
    try:
        _register((area,) if area is not None else _AREAS)
        rv = _app(args=args, standalone_mode=False, prog_name="fracas")
    except ModuleNotFoundError as exc:
        message = _missing_module_message(exc)
        if message is None:
            what = escape(f"ModuleNotFoundError: {exc}")
            err_console.print(f"[bold red]internal error:[/] {what}", markup=True)
            return 1
        err_console.print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)
        return 2
    except FracasError as exc:
        # the message is plain text: [q, r] or a rule id in brackets must not be read as Rich markup
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, soft_wrap=True)
        return exc.exit_code
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    except SystemExit as exc:  # typer.Exit and click's own exits
        return int(exc.code or 0)
    except Exception as exc:  # click usage errors and anything unforeseen: one line, never a traceback
        # typer may ship its own copy of click (typer._click): match click's exceptions by name
        names = {c.__name__ for c in type(exc).__mro__}
        if "ClickException" in names:
            exc.show()  # type: ignore[attr-defined]
            return int(exc.exit_code)  # type: ignore[attr-defined]
        if "Abort" in names:  # click's Ctrl-C at a prompt
            err_console.print("interrupted")
            return 130
        if isinstance(exc, OSError) and not isinstance(exc, (BrokenPipeError, ConnectionError)):
            # a file or folder the command could not read or write: the person can fix it
            where = f" {exc.filename}" if exc.filename is not None else ""
            err_console.print(f"[bold red]error:[/] {escape(f'cannot use{where}: {exc.strerror or exc}')}")
            return 2
        if isinstance(exc, BrokenPipeError):  # the reader of stdout went away (| head): nothing to say
            return 0
        what = escape(f"{type(exc).__name__}: {exc}")
        err_console.print(f"[bold red]internal error:[/] {what}", markup=True)
        return 1
    finally:
        if spooled is not None:
            spooled.unlink(missing_ok=True)
    # with standalone_mode=False click returns typer.Exit's code instead of exiting with it
    return rv if isinstance(rv, int) else 0


def _spool_stdin(args: list[str]) -> Path | None:
    """``fracas sim -`` / ``fracas sweep -``: standard input into a hidden file of the current folder (so that
    ``from:`` paths are relative to it, as for ``fight -``), named in ``args`` instead of ``-``; the caller
    deletes it."""
    if "-" not in args[1:]:
        return None
    import tempfile

    from fracas.engine import bounds, safe_yaml

    raw = bounds.read_bytes("-", safe_yaml.MAX_BYTES, "an encounter")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("<stdin>: not a text file (an encounter file is UTF-8 YAML or TOML)") from None
    suffix = ".yaml"
    try:
        import tomllib

        tomllib.loads(text)
        suffix = ".toml"
    except Exception:  # not TOML: YAML (the encounter reader says what is wrong with it)
        pass
    try:
        fd, name = tempfile.mkstemp(prefix=".fracas-stdin-", suffix=suffix, dir=".")
    except OSError:
        fd, name = tempfile.mkstemp(prefix="fracas-stdin-", suffix=suffix)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    args[args.index("-", 1)] = name
    return Path(name)


if __name__ == "__main__":
    sys.exit(main())
