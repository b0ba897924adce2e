"""The command line loads only the area of the command it runs; its table of commands matches the areas."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
import typer

from fracas import cli


def _commands_and_groups(area: str) -> tuple[list[str], list[str]]:
    app = typer.Typer()
    importlib.import_module(area).register(app)
    return [str(c.name) for c in app.registered_commands], [str(g.name) for g in app.registered_groups]


def _names(area: str) -> list[str]:
    commands, groups = _commands_and_groups(area)
    return commands + groups


def test_the_command_table_matches_what_each_area_registers() -> None:
    registered = {}
    for area in cli._AREAS:
        try:
            names = _names(area)
        except ModuleNotFoundError as exc:
            if exc.name == area:  # an area not written yet
                continue
            raise
        for name in names:
            registered[name] = area
    assert registered == cli.COMMANDS


def test_area_of_a_command_line() -> None:
    assert cli._area_of(["sim", "x.yaml", "-n", "10"]) == "fracas.sim.cli"
    assert cli._area_of(["fights", "list"]) == "fracas.web.cli"
    assert cli._area_of(["--help"]) is None
    assert cli._area_of(["--version"]) is None
    assert cli._area_of([]) is None
    assert cli._area_of(["simm"]) is None  # a typo: every area is loaded, click suggests the right name


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_a_command_loads_only_its_area_and_the_full_app_keeps_the_area_order() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from fracas import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = cli.main(['sim', '--help'])\n"
        "print(rc, sorted(a for a in cli._AREAS if a in sys.modules))\n"
        "print([c.name for c in cli.app.registered_commands] + [g.name for g in cli.app.registered_groups])\n"
    )
    first, second = _run(code).splitlines()
    assert first == "0 ['fracas.sim.cli']"
    areas = [a for a in cli._AREAS if a in cli.COMMANDS.values()]
    commands = [n for a in areas for n in _commands_and_groups(a)[0]]
    groups = [n for a in areas for n in _commands_and_groups(a)[1]]
    assert second == str(commands + groups)


def test_unknown_command_and_help_still_see_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simm"]) == 2
    assert "Did you mean 'sim'" in capsys.readouterr().err  # the suggestion needs every command loaded
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in cli.COMMANDS)
