"""``fracas native``: build, check or remove the compiled engine (see :mod:`fracas.native`)."""

from __future__ import annotations

import typer

native_app = typer.Typer(
    help=(
        "The compiled engine: the fight's hot modules built with mypyc, about twice as fast, same events.\n\n"
        "Examples:\n\n"
        "  fracas native build     # compile (a few minutes, once per change of the engine's sources)\n\n"
        "  fracas native status    # in use, or why not\n\n"
        "  FRACAS_PURE=1 fracas fight FILE   # run as plain Python for once"
    ),
    no_args_is_help=True,
)


@native_app.command("build")
def _build(
    opt: int = typer.Option(3, "--opt", min=0, max=3, help="C optimisation level (0 builds fastest)."),
) -> None:
    """Compile the engine's hot modules with mypyc into src/fracas/_native (needs a C compiler).

    $FRACAS_NATIVE_DIR, when set, names another folder (for building and for loading)."""
    from rich.console import Console

    from fracas import native
    from fracas.errors import FracasError

    console = Console(stderr=True)
    with console.status(f"compiling {len(native.MODULES)} modules with mypyc (a few minutes)..."):
        try:
            where = native.build(opt_level=str(opt), quiet=True)
        except RuntimeError as exc:
            raise FracasError(f"the compiled engine was not built: {exc}") from None
    typer.echo(f"compiled engine built in {where}; fracas uses it from the next start")


@native_app.command("status")
def _status() -> None:
    """Say whether this run of fracas uses the compiled engine, and why not when it does not."""
    from fracas import native

    s = native.status()
    typer.echo(f"compiled engine: {'in use' if s.active else 'not in use'} ({s.reason})")


@native_app.command("clean")
def _clean() -> None:
    """Remove the compiled engine: fracas runs as plain Python."""
    from fracas import native

    typer.echo("removed the compiled engine" if native.clean() else "there was no compiled engine")


def register(app: typer.Typer) -> None:
    app.add_typer(native_app, name="native")
