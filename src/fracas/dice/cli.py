"""``fracas roll`` and ``fracas odds``: dice, Earthdawn steps and exact odds on the command line.

The JSON field names are documented in docs/dice.md and kept stable.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table

from fracas.dice.expr import Expr, Pool, parse
from fracas.errors import UsageError

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource

console = Console(highlight=False, soft_wrap=True)

RULESETS = ("ed4", "ed1", "gurps4", "sas")

MAX_DN = 10_000
"""The highest ``--dn``: far above any roll a test makes (step 100 is 12d20 and d12s, mean about 160). An
exploding roll's odds are exact up to ``exact_up_to`` and within 1e-12 above it (dice/exact.py)."""
MAX_UNDER = 100
"""The widest ``--under``: 3d6 never rolls below 3 or above 18."""
MAX_SEED = 2**63 - 1

MAX_TIMES = 1_000_000
MAX_DICE_ROLLED = 20_000_000  # --times x dice per roll: keeps a roll command under a few minutes
ROLLS_IN_JSON = 100  # --times: every roll's faces are in the JSON up to this many rolls
TABLE_DNS = range(2, 41)


def _expr(text: str, ruleset: str) -> Expr:
    ruleset = ruleset.lower()
    if ruleset not in RULESETS:
        raise UsageError(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
    edition = ruleset if ruleset in ("ed4", "ed1") else "ed4"
    e = parse(text, edition)
    if e.has_step and ruleset not in ("ed4", "ed1"):
        raise UsageError(f"Earthdawn steps need --ruleset ed4 or ed1, not {ruleset}")
    return e


def pool_notation(pool: Pool) -> str:
    """The dice a pool rolls, e.g. "d20!+2d6!-1" (``!``: explodes)."""
    parts = []
    for (sides, explode), n in sorted(Counter(pool.dice).items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        parts.append(f"{n if n > 1 else ''}d{sides}{'!' if explode else ''}")
    text = "+".join(parts)
    if pool.modifier:
        text += f"{pool.modifier:+d}"
    return text or "0"


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")


def _pct(p: float) -> str:
    if p == 0:
        return "0%"
    if p < 0.0001:
        return f"{p * 100:.2g}%"
    return f"{p * 100:.2f}%"


# -- roll ----------------------------------------------------------------------------------------------


def _source(ask: bool, seed: int | None) -> tuple[DiceSource, int | None]:
    """The dice: typed in (``--ask``, no seed), or seeded (a fresh seed when none is given)."""
    from fracas.dice.source import AskedDice, RandomDice

    if ask:
        if seed is not None:
            raise UsageError("--ask and --seed do not go together: the faces come from your dice")
        return AskedDice(_ask_face), None
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    return RandomDice(seed), seed


def _show_roll(title: str, r: Any, where: str, rule_of_one: bool) -> None:
    """One roll, die by die: every face and explosion, the modifier, the total (and a step test's floor)."""
    console.print(f"{title}  [dim]{where}[/]")
    for d in r.dice:
        faces = " + ".join(str(f) for f in d.faces)
        note = "  [yellow]explodes[/]" if len(d.faces) > 1 else ""
        console.print(f"  d{d.sides}{'!' if d.explodes else ''}: {faces}{note}")
    if r.modifier:
        console.print(f"  {r.modifier:+d}")
    floor_note = f"  [dim](raw {r.raw}, a step test is at least {r.floor})[/]" if r.total != r.raw else ""
    console.print(f"  [bold]total {r.total}[/]{floor_note}")
    if rule_of_one:
        console.print("  [red]Rule of One:[/] every die shows 1, the test fails whatever the total")


def _roll(
    expression: str = typer.Argument(
        ..., help='Dice notation: "step 14", "s14", "3d6", "2d+3", "d12!", "d%".'
    ),
    ruleset: str = typer.Option("ed4", "--ruleset", help="ed4 or ed1 (the Step table); gurps4, sas."),
    seed: int | None = typer.Option(
        None,
        "--seed",
        min=0,
        max=MAX_SEED,
        help="Seed for the dice (0 to 2**63-1): the same seed gives the same roll.",
    ),
    times: int = typer.Option(
        1, "--times", help=f"Roll this many times (at most {MAX_TIMES}) and summarise."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    ask: bool = typer.Option(
        False, "--ask", help="Roll physical dice: type in each face when asked (explosions are asked too)."
    ),
) -> None:
    """Roll dice: every die, every explosion and the total.

    Examples:

      fracas roll "step 14"

      fracas roll "step 14" --ruleset ed1

      fracas roll "3d6" --seed 7

      fracas roll "2d+3" --times 1000

      fracas roll "step 14" --ask
    """
    from fracas.dice.exact import RULE_OF_ONE_MIN_DICE

    ruleset = ruleset.lower()
    e = _expr(expression, ruleset)
    if not 1 <= times <= MAX_TIMES:
        raise UsageError(f"--times takes 1 to {MAX_TIMES}, not {times}")
    if times * max(1, len(e.pool.dice)) > MAX_DICE_ROLLED:
        raise UsageError(
            f"--times {times} of {len(e.pool.dice)} dice is more than {MAX_DICE_ROLLED:,} dice; "
            "for odds use 'fracas odds'"
        )
    source, seed = _source(ask, seed)
    pool = e.pool
    edition = e.edition if ruleset in ("ed4", "ed1") else None
    min_dice = RULE_OF_ONE_MIN_DICE[edition] if edition else None

    def rule_of_one(r: Any) -> bool | None:
        if min_dice is None:
            return None
        return len(r.dice) >= min_dice and r.all_ones

    def roll_json(r: Any) -> dict[str, Any]:
        return {
            "dice": [{"sides": d.sides, "faces": list(d.faces), "explodes": d.explodes} for d in r.dice],
            "modifier": r.modifier,
            "total": r.total,
            "rule_of_one": rule_of_one(r),
        }

    base = {
        "expression": str(e),
        "ruleset": ruleset,
        "dice_notation": pool_notation(pool),
        "minimum": pool.floor,
        "seed": seed,
    }
    if times == 1:
        r = e.roll(source, str(e) if ask else "")
        if as_json:
            _emit(base | roll_json(r))
            return
        title = f"[bold]{e}[/]" + (f" ({ruleset}: {pool_notation(pool)})" if e.has_step else "")
        _show_roll(title, r, "your dice" if ask else f"seed {seed}", bool(rule_of_one(r)))
        return
    why = str(e) if ask else ""
    keep = times <= ROLLS_IN_JSON
    rolls = []
    totals = []
    ones = 0
    for _ in range(times):
        r = e.roll(source, why)
        totals.append(r.total)
        if keep:
            rolls.append(r)
        if min_dice is not None and len(r.dice) >= min_dice and r.all_ones:
            ones += 1
    mean = sum(totals) / times
    sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / times)
    summary = {
        "mean": mean,
        "sd": sd,
        "min": min(totals),
        "max": max(totals),
        "rule_of_one_count": ones if min_dice is not None else None,
    }
    if as_json:
        out = base | {"times": times, "totals": totals, "summary": summary}
        if keep:
            out["rolls"] = [roll_json(r) for r in rolls]
        _emit(out)
        return
    console.print(
        f"[bold]{e}[/] x {times}  [dim]({pool_notation(pool)}, {'your dice' if ask else f'seed {seed}'})[/]"
    )
    if times <= 20:
        console.print("  totals: " + " ".join(str(t) for t in totals))
    console.print(f"  mean {mean:.3f}  sd {sd:.3f}  min {min(totals)}  max {max(totals)}")
    if min_dice is not None and ones:
        console.print(f"  Rule of One: {ones} of {times}")
    counts = Counter(totals)
    if len(counts) <= 40:
        table = Table("total", "count", "share", box=None, padding=(0, 2))
        for t in sorted(counts):
            table.add_row(str(t), str(counts[t]), _pct(counts[t] / times))
        console.print(table)


def _ask_face(sides: int, why: str) -> int:
    """Ask on the terminal for the face of one physical die until it is a number from 1 to ``sides``."""
    while True:
        text = typer.prompt(f"d{sides}" + (f" ({why})" if why else ""), err=True)
        try:
            face = int(text)
        except ValueError:
            face = 0
        if 1 <= face <= sides:
            return face
        typer.echo(f"a d{sides} shows 1 to {sides}", err=True)


# -- odds ----------------------------------------------------------------------------------------------


def _odds(
    expression: str = typer.Argument(..., help='Dice notation: "step 14", "3d6", "2d+3", "d12!".'),
    dn: int | None = typer.Option(
        None,
        "--dn",
        min=1,
        max=MAX_DN,
        help=f"Difficulty Number (1 to {MAX_DN:,}): P(result >= DN), extra successes.",
    ),
    under: int | None = typer.Option(
        None,
        "--under",
        min=-MAX_UNDER,
        max=MAX_UNDER,
        help=f"GURPS: effective skill to roll 3d6 at or under (-{MAX_UNDER} to {MAX_UNDER}).",
    ),
    table: bool = typer.Option(False, "--table", help="P(result >= DN) for DN 2 to 40."),
    ruleset: str = typer.Option(
        "ed4", "--ruleset", help="ed4 or ed1 (the Step table, successes); gurps4, sas."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Exact odds of a roll: mean, spread, P(result >= DN), successes, the Rule of One.

    Examples:

      fracas odds "step 14" --dn 9

      fracas odds "step 14" --dn 9 --ruleset ed1

      fracas odds "3d6" --under 12

      fracas odds "step 14" --table
    """
    from fracas.dice import exact

    ruleset = ruleset.lower()
    e = _expr(expression, ruleset)
    d = exact.distribution(e)
    pool = e.pool
    out: dict[str, Any] = {
        "expression": str(e),
        "ruleset": ruleset,
        "dice_notation": pool_notation(pool),
        "minimum": pool.floor,
        "mean": d.mean,
        "sd": d.sd,
        "min": d.min,
        "max": d.max,
        "tail_mass": d.tail,
        "exact_up_to": d.cut,
    }
    lines: list[Any] = []
    head = f"[bold]{e}[/]" + (f" ({ruleset}: {pool_notation(pool)})" if e.has_step else "")
    top = "no limit (explodes)" if d.max is None else d.max
    lines.append(f"{head}  mean {d.mean:.3f}  sd {d.sd:.3f}  min {d.min}  max {top}")
    if dn is not None:
        out["dn"] = dn
        if ruleset == "ed4":
            o = exact.ed4_test(e, dn, "ed4")
            extra = [float(x) for x in o.extra]
            while len(extra) > 1 and extra[-1] < 1e-12:
                extra.pop()
            out |= {
                "p_success": o.p_success,
                "p_failure": o.p_failure,
                "extra_successes": [{"extra": k, "p": p} for k, p in enumerate(extra)],
                "p_rule_of_one": o.p_rule_of_one,
                "rule_of_one_min_dice": exact.RULE_OF_ONE_MIN_DICE["ed4"],
            }
            lines.append(
                f"DN {dn}: [bold]P(success) {_pct(o.p_success)}[/]   P(Rule of One) {_pct(o.p_rule_of_one)}"
            )
            t = Table("extra successes", "P(exactly)", "P(at least)", box=None, padding=(0, 2))
            for k, p in enumerate(extra):
                if p >= 1e-6:
                    t.add_row(str(k), _pct(p), _pct(sum(extra[k:])))
            lines.append(t)
        elif ruleset == "ed1":
            o1 = exact.ed1_test(e, dn, "ed1")
            out |= {
                "p_success": o1.p_success,
                "p_failure": o1.p_failure,
                "success_levels": o1.levels,
                "p_rule_of_one": o1.p_rule_of_one,
                "rule_of_one_min_dice": exact.RULE_OF_ONE_MIN_DICE["ed1"],
                "note": o1.note or None,
            }
            lines.append(
                f"DN {dn}: [bold]P(success) {_pct(o1.p_success)}[/]   P(Rule of One) {_pct(o1.p_rule_of_one)}"
            )
            if o1.levels is None:
                lines.append(f"[dim]{o1.note}[/]")
            else:
                t = Table("success level", "P", box=None, padding=(0, 2))
                for name, p in o1.levels.items():
                    t.add_row(name, _pct(p))
                lines.append(t)
        else:
            p = float(d.at_least(dn))
            out |= {"p_success": p, "p_failure": 1.0 - p}
            lines.append(f"DN {dn}: [bold]P(result >= {dn}) {_pct(p)}[/]")
    if under is not None:
        g = exact.gurps_roll_under(under, e)
        out |= {
            "under": under,
            "p_success": g.p_success,
            "p_failure": g.p_failure,
            "p_critical_success": g.p_critical_success,
            "p_critical_failure": g.p_critical_failure,
            "critical_success_max": g.critical_success_max,
            "critical_failure_min": g.critical_failure_min,
        }
        lines.append(
            f"3d6 at or under {under}: [bold]P(success) {_pct(g.p_success)}[/]   "
            f"P(critical success, roll <= {g.critical_success_max}) {_pct(g.p_critical_success)}   "
            f"P(critical failure, roll >= {g.critical_failure_min}) {_pct(g.p_critical_failure)}"
        )
    if table:
        dns = list(TABLE_DNS)
        ps = d.at_least(dns)
        out["table"] = [{"dn": n, "p": float(p)} for n, p in zip(dns, ps, strict=True)]
        t = Table("DN", "P(result >= DN)", box=None, padding=(0, 2))
        for n, p in zip(dns, ps, strict=True):
            t.add_row(str(n), _pct(float(p)))
        lines.append(t)
    if as_json:
        _emit(out)
        return
    for line in lines:
        console.print(line)
    if dn is None and under is None and not table:
        console.print("[dim]add --dn N (a Difficulty Number), --under N (GURPS skill) or --table[/]")


def register(app: typer.Typer) -> None:
    """Add ``roll`` and ``odds`` to the fracas command line."""
    app.command("roll")(_roll)
    app.command("odds")(_odds)
