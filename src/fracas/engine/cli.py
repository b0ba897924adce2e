"""``fracas fight``, ``fracas validate``, ``fracas rules``."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from fracas.engine import bounds
from fracas.errors import FracasError

console = Console(highlight=False, soft_wrap=True)


def _fight(
    file: Path | None = typer.Argument(
        None,
        help="An encounter file (YAML or TOML; - reads standard input), "
        "e.g. examples/ed4/mica-and-the-ghouls.yaml",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        min=0,
        max=bounds.MAX_SEED,
        help="Seed for the dice (0 to 2**63-1); the same seed replays the same fight.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON event per line on stdout instead of the narration."
    ),
    step: bool = typer.Option(
        False, "--step", help="Pause after each action; press Enter to go on (q to stop)."
    ),
    max_rounds: int | None = typer.Option(
        None,
        "--max-rounds",
        min=1,
        max=bounds.MAX_ROUNDS,
        help=f"Stop as a draw after this many rounds (1 to {bounds.MAX_ROUNDS:,}).",
    ),
    resume: str | None = typer.Option(
        None, "--resume", help="Go on with a saved fight (its id: `fracas fights list`), saving as it goes."
    ),
    db: Path | None = typer.Option(None, "--db", help="The saved fights' SQLite file (with --resume)."),
) -> None:
    """Run a fight from an encounter file to the end, narrated round by round.

    Every combatant is played by its tactic; each test shows its step or dice, every face, the Difficulty
    Number and the modifiers with their rule ids. Examples:

      fracas fight examples/ed4/mica-and-the-ghouls.yaml

      fracas fight examples/ed4/mica-and-the-ghouls.yaml --seed 3 --json

      fracas fight --resume mica-and-the-ghouls-1a2b3c
    """
    if resume is not None:  # a saved fight (fracas.store), e.g. one begun in the browser
        from fracas.errors import UsageError
        from fracas.store.cli import resume_fight

        if file is not None or seed is not None or max_rounds is not None:
            raise UsageError("--resume goes on with a saved fight: give no FILE, --seed or --max-rounds")
        resume_fight(resume, db, console, as_json=as_json, step=step)
        return
    if file is None:
        from fracas.errors import UsageError

        raise UsageError("give an encounter FILE, or --resume ID for a saved fight")
    from fracas.dice.source import RandomDice
    from fracas.engine.events import to_json
    from fracas.engine.narrate import narrate
    from fracas.engine.play import Fight
    from fracas.rules.registry import get_ruleset

    spec, state = load_encounter(file)
    if max_rounds is not None:
        state.max_rounds = max_rounds
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    ruleset = get_ruleset(spec.ruleset)
    fight = Fight(ruleset, state, RandomDice(seed), seed=seed)

    def show(events: list, st: object) -> None:
        for e in events:
            if as_json:
                sys.stdout.write(json.dumps(to_json(e), separators=(",", ":")) + "\n")
            else:
                line = narrate(e, fight.state, ruleset)
                if line is not None:
                    console.print(line, markup=False)

    fight.listeners.append(show)
    fight.log = None
    interactive = step and sys.stdin.isatty()
    while not fight.state.ended:
        decision = fight.advance_until_decision()
        if decision is None:
            break
        fight.submit(fight.auto_command(decision))
        if step:
            from fracas.store.overrule import overrule_at_prompt

            prompt = "[dim](Enter: next action, gm ...: overrule, q: stop)[/] "
            answer = overrule_at_prompt(console, prompt, interactive, fight.state, fight.apply)
            if answer.strip().lower() == "q":
                console.print("Stopped by request.")
                return


def load_encounter(file: Path) -> tuple[Any, Any]:
    """An encounter from a file, or from standard input when the file is ``-`` (YAML, or TOML when it reads
    as TOML; ``from:`` paths relative to the current folder)."""
    from fracas.engine import encounter

    if str(file) != "-":
        return encounter.load(file)
    from fracas.engine import bounds, safe_yaml
    from fracas.errors import UsageError

    try:
        text = bounds.read_bytes("-", safe_yaml.MAX_BYTES, "an encounter").decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("<stdin>: not a text file (an encounter file is UTF-8 YAML or TOML)") from None
    data = encounter.read_text(text, "<stdin>", toml=_looks_like_toml(text))
    # the loader's own `from:` step, relative to the current folder (the parent of "<stdin>")
    data = encounter._characters_from_files(data, Path("<stdin>"))
    return encounter.load_data(data, "<stdin>")


def _looks_like_toml(text: str) -> bool:
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _validate(
    file: Path = typer.Argument(..., help="The encounter file to check (- reads standard input)."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="One JSON object: ok, file, name, ruleset, sides (each with its combatants), "
        "options on; or ok false and errors (exit 2).",
    ),
) -> None:
    """Check an encounter file and explain each error (file, field, what was found, what is allowed).

    Nothing is played; exit code 0 when the file is good, 2 when it is not. Examples:

      fracas validate examples/ed4/mica-and-the-ghouls.yaml

      fracas validate my-encounter.toml --json

      cat my-encounter.yaml | fracas validate -
    """
    if as_json:
        from fracas.errors import EncounterFileError

        try:
            spec, state = load_encounter(file)
        except EncounterFileError as exc:
            errors = str(exc).splitlines()
            sys.stdout.write(json.dumps({"ok": False, "file": str(file), "errors": errors}) + "\n")
            raise typer.Exit(2) from None
        out = {
            "ok": True,
            "file": str(file),
            "name": spec.name,
            "ruleset": spec.ruleset,
            "sides": [
                {"name": side, "combatants": [{"id": c.id, "name": c.name} for c in state.on_side(side)]}
                for side in state.sides
            ],
            "options_on": [k for k, v in state.options.items() if v],
        }
        sys.stdout.write(json.dumps(out) + "\n")
        return
    spec, state = load_encounter(file)
    console.print(f"[green]OK[/] {file}: {spec.name or '(unnamed)'} — ruleset {spec.ruleset}", markup=True)
    for side in state.sides:
        members = state.on_side(side)
        console.print(f"  {side}: " + ", ".join(c.name for c in members))
    on = [k for k, v in state.options.items() if v]
    if on:
        console.print("  optional rules on: " + ", ".join(on))


def _rules(
    ruleset_id: str = typer.Argument(..., help="ed4, ed1, gurps4 or sas"),
    as_json: bool = typer.Option(False, "--json", help="The list as JSON."),
) -> None:
    """List every rule of a ruleset's text: implemented (id and page) or left to the game master (why).

    Optional rules are listed last with their default; an encounter file switches them under `options:`.
    Examples:

      fracas rules ed4

      fracas rules sas --json
    """
    from fracas.rules.registry import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    rules = ruleset.rules()
    optional = ruleset.optional_rules()
    if as_json:
        out = {
            "ruleset": ruleset.id,
            "name": ruleset.name,
            "source": ruleset.source,
            "rules": [
                {"id": r.id, "title": r.title, "page": r.page, "status": r.status, "note": r.note}
                for r in rules
            ],
            "optional_rules": [
                {"id": o.id, "title": o.title, "default": o.default, "page": o.page, "note": o.note}
                for o in optional
            ],
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    if not console.is_terminal or console.width < 120:
        # piped (grep, a file) or a narrow terminal: one rule per line, so that an id is never split
        sys.stdout.write(f"# {ruleset.name} ({ruleset.id}) — {ruleset.source}\n")
        for r in rules:
            note = f": {r.note}" if r.note else ""
            sys.stdout.write(f"{r.id}\t{r.page}\t{r.status}{note}\t{r.title}\n")
        for o in optional:
            default = "on" if o.default else "off"
            sys.stdout.write(f"option {o.id}\t{o.page}\t{default}\t{o.title}\n")
    else:
        _rules_table(ruleset, rules, optional)
    counts: dict[str, int] = {}
    for r in rules:
        counts[r.status] = counts.get(r.status, 0) + 1
    console.print(", ".join(f"{n} {k}" for k, n in counts.items()))


def _rules_table(ruleset: Any, rules: list[Any], optional: list[Any]) -> None:
    table = Table(title=f"{ruleset.name} ({ruleset.id}) — {ruleset.source}", show_lines=False)
    # Rule ids are what a game master looks up: never split them; the other cells wrap instead.
    widest = max((len(r.id) for r in rules), default=10)
    table.add_column("rule id", no_wrap=True, min_width=widest)
    table.add_column("rule", overflow="fold", ratio=4)
    table.add_column("page", no_wrap=True)
    table.add_column("status", overflow="fold", ratio=4)
    for r in rules:
        status = r.status + (f": {r.note}" if r.note else "")
        table.add_row(r.id, r.title, r.page, status)
    console.print(table)
    if optional:
        t2 = Table(title="Optional rules (encounter file: options)")
        t2.add_column("option")
        t2.add_column("rule")
        t2.add_column("default")
        t2.add_column("page")
        for o in optional:
            t2.add_row(o.id, o.title, "on" if o.default else "off", o.page)
        console.print(t2)


def _schema() -> None:
    """Print the JSON Schema of the encounter format, for editors that complete and check encounter files.

    Examples:

      fracas schema > encounter.schema.json

    then, as the first line of a YAML encounter file (the yaml-language-server of VS Code and others):

      # yaml-language-server: $schema=encounter.schema.json
    """
    from fracas.engine.schema import schema_text

    sys.stdout.write(schema_text())


def register(app: typer.Typer) -> None:
    app.command("fight")(_fight)
    app.command("validate")(_validate)
    app.command("rules")(_rules)
    app.command("schema")(_schema)


__all__ = ["register", "FracasError"]
