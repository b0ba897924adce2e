"""The ``fracas`` command line. Each area registers its commands from its own module (see ``_AREAS``)."""

from __future__ import annotations

import importlib
import sys

import typer
from rich.console import Console
from rich.markup import escape

from fracas import __version__
from fracas.errors import FracasError

app = typer.Typer(
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
    "fracas.native_cli",
)


def _register_all() -> None:
    for name in _AREAS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(app)


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the fracas version and exit."),
) -> None:
    if version:
        typer.echo(f"fracas {__version__}")
        raise typer.Exit()


_register_all()


def main(argv: list[str] | None = None) -> int:
    """Entry point: runs the Typer app, turning every :class:`FracasError` into one line and an exit code."""
    try:
        rv = app(args=argv, standalone_mode=False)
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
