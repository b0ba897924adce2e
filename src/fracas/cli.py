"""The ``fracas`` command line. Each area registers its commands from its own module (see ``_AREAS``)."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from fracas import __version__
from fracas.errors import FracasError

_app = typer.Typer(
    name="fracas",
    help=(
        "Tabletop RPG combat run exactly by the book: Earthdawn 4e (ed4) and 1e (ed1), "
        "GURPS 4e mounted and aerial combat (gurps4), Spells & Swords (sas).\n\n"
        "Examples:\n\n"
        '  fracas roll "step 14"\n\n'
        '  fracas odds "step 14" --dn 9\n\n'
        "  fracas fight examples/ed4/mica-and-the-ghouls.yaml"
    ),
    no_args_is_help=True,
    add_completion=False,
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
    "sim": "fracas.sim.cli",
    "sweep": "fracas.sim.cli",
    "serve": "fracas.web.cli",
    "fights": "fracas.web.cli",
    "import": "fracas.importers.cli",
}

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


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the Typer app, turning every :class:`FracasError` into one line and an exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    area = _area_of(args)
    _register((area,) if area is not None else _AREAS)
    try:
        rv = _app(args=args, standalone_mode=False)
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
        if "Abort" in names:
            err_console.print("aborted")
            return 1
        what = escape(f"{type(exc).__name__}: {exc}")
        err_console.print(f"[bold red]internal error:[/] {what}", markup=True)
        return 1
    # with standalone_mode=False click returns typer.Exit's code instead of exiting with it
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":
    sys.exit(main())
