"""The simulator's report: the stable JSON shape (docs/sim.md), the terminal tables and the HTML page."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from fracas import __version__
from fracas.sim.stats import summarize

if TYPE_CHECKING:
    from rich.console import Console

    from fracas.sim.runner import SimResult

JSON_VERSION = 1


def to_json(result: SimResult) -> dict[str, Any]:
    """The report as plain data. Everything but ``timing`` depends only on the encounter, -n, the seed
    and the engine: two reports of the same seed compare equal once ``timing`` is removed."""
    sc = result.scenario
    body = summarize(result.tally, sc.names(), sc.sides_of())
    out: dict[str, Any] = {
        "format": JSON_VERSION,
        "fracas": __version__,
        "encounter": sc.name,
        "file": sc.source,
        "ruleset": sc.ruleset.id,
        "engine": result.engine,
        # why the reference engine played it (no kernel models the encounter, or --engine reference)
        "kernel_fallback_reason": (result.note or None) if result.engine == "reference" else None,
        "runs": result.tally.runs,
        "requested": result.requested,
        "interrupted": result.interrupted,
        "precision": (
            None if result.precision is None else {"target": result.precision, "reached": result.precise}
        ),
        "seed": result.seed,
        "max_rounds": sc.state.max_rounds,
    }
    out.update(body)
    seconds = result.seconds
    out["timing"] = {
        "seconds": round(seconds, 4),
        "fights_per_second": round(result.tally.runs / seconds, 1) if seconds > 0 else None,
        "backend": result.backend,
        "workers": result.workers,
    }
    return out


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "timing"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_report(report: dict[str, Any], console: Console) -> None:
    """The report as tables on the terminal."""
    from rich.table import Table

    head = f"[bold]{report['encounter']}[/] ({report['ruleset']}) — {report['runs']:,} fights"
    if report["interrupted"]:
        head += f" [yellow](interrupted: {report['runs']:,} of {report['requested']:,})[/]"
    elif report.get("precision") is not None:
        prec = f"±{100 * report['precision']['target']:g} points"
        if report["precision"]["reached"]:
            head += f" (stopped there: every side's win rate known to {prec})"
        else:
            head += f" [yellow](all {report['requested']:,} played: not yet known to {prec})[/]"
    console.print(head, markup=True)
    t = report["timing"]
    fps = f", {t['fights_per_second']:,.0f} fights/s" if t.get("fights_per_second") else ""
    console.print(
        f"seed {report['seed']}, engine {report['engine']}, fracas {report['fracas']}; "
        f"{t['seconds']:.2f} s on {t['workers']} worker(s) ({t['backend']}){fps}",
        markup=False,
    )
    sides = Table(title="Sides")
    sides.add_column("side")
    sides.add_column("wins", justify="right")
    sides.add_column("95% interval", justify="right")
    for name, s in report["sides"].items():
        sides.add_row(name, _pct(s["win_rate"]), f"{_pct(s['ci_low'])} – {_pct(s['ci_high'])}")
    d = report["draws"]
    sides.add_row(
        "draw (round limit)", _pct(d["rate"]), f"{_pct(d['ci_low'])} – {_pct(d['ci_high'])}", style="dim"
    )
    w = report["wipeouts"]
    if w["count"]:
        sides.add_row(
            "nobody standing", _pct(w["rate"]), f"{_pct(w['ci_low'])} – {_pct(w['ci_high'])}", style="dim"
        )
    console.print(sides)
    losses = casualty_rows(report)
    if losses:
        ct = Table(title="Casualties (share of fights in which any / all of a side ended dead, out)")
        for col in CASUALTY_HEADS:
            ct.add_column(col, justify="left" if col == CASUALTY_HEADS[0] else "right")
        for row in losses:
            ct.add_row(*row)
        console.print(ct)
    r = report["rounds"]
    console.print(
        f"Rounds: mean {r['mean']:.2f}, median {r['p50']}, 90th percentile {r['p90']}, "
        f"range {r['min']}–{r['max']}",
        markup=False,
    )
    cs = Table(title="Combatants (share of fights ending so; means per fight)")
    heads = ("combatant", "side", "unconscious", "dead", "out", "dealt", "taken", "Wounds")
    for col in heads:
        cs.add_column(col, justify="left" if col in ("combatant", "side") else "right")
    names = [c["name"] for c in report["combatants"].values()]
    for cid, c in report["combatants"].items():
        cs.add_row(
            c["name"] if names.count(c["name"]) == 1 else f"{c['name']} ({cid})",
            c["side"],
            _pct(c["unconscious"]),
            _pct(c["dead"]),
            _pct(c["out"]),
            f"{c['damage_dealt']:.1f}",
            f"{c['damage_taken']:.1f}",
            f"{c['wounds']:.2f}",
        )
    console.print(cs)


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border-bottom: 1px solid #ccc; padding: .3em .8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.meta { color: #666; font-size: .9em; }
img { max-width: 100%; }
"""


CASUALTY_HEADS = ("side (size)", "any dead", "all dead", "any out", "all out", "mean dead", "mean out")


def casualty_rows(report: dict[str, Any]) -> list[list[str]]:
    """Per side: the share of fights in which someone of it died, all of it died, someone / all of it
    ended out of the fight, and the mean numbers dead and out (empty where the engine did not count)."""
    rows = []
    for side, c in report.get("casualties", {}).items():
        rows.append(
            [
                f"{side} ({c['combatants']})",
                _pct(c["anyone_dead"]["rate"]),
                _pct(c["all_dead"]["rate"]),
                _pct(c["anyone_out"]["rate"]),
                _pct(c["all_out"]["rate"]),
                f"{c['mean_dead']:.2f}",
                f"{c['mean_out']:.2f}",
            ]
        )
    return rows


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_page(report: dict[str, Any], images: dict[str, str]) -> str:
    """A self-contained page: the tables and the plots (``images``: title -> base64 PNG)."""
    t = report["timing"]
    title = f"{report['encounter']} — {report['runs']:,} fights"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p class='meta'>ruleset {html.escape(report['ruleset'])}, file {html.escape(report['file'])}, "
        f"seed {report['seed']}, engine {html.escape(report['engine'])}, "
        f"fracas {html.escape(report['fracas'])}"
        f"; {t['seconds']:.2f} s on {t['workers']} worker(s) ({html.escape(str(t['backend']))})"
        + (" — <b>interrupted</b>" if report["interrupted"] else "")
        + "</p>",
        "<h2>Sides</h2>",
    ]
    rows = [
        [name, _pct(s["win_rate"]), f"{_pct(s['ci_low'])} – {_pct(s['ci_high'])}"]
        for name, s in report["sides"].items()
    ]
    d = report["draws"]
    rows.append(["draw (round limit)", _pct(d["rate"]), f"{_pct(d['ci_low'])} – {_pct(d['ci_high'])}"])
    w = report["wipeouts"]
    rows.append(["nobody standing", _pct(w["rate"]), f"{_pct(w['ci_low'])} – {_pct(w['ci_high'])}"])
    parts.append(_table(["side", "wins", "95% Wilson interval"], rows))
    losses = casualty_rows(report)
    if losses:
        parts.append("<h2>Casualties</h2>")
        parts.append(_table(list(CASUALTY_HEADS), losses))
    r = report["rounds"]
    parts.append(
        f"<h2>Rounds</h2><p>mean {r['mean']}, median {r['p50']}, 90th percentile {r['p90']}, "
        f"range {r['min']}–{r['max']}</p>"
    )
    crow = [
        [
            f"{c['name']} ({cid})",
            c["side"],
            _pct(c["unconscious"]),
            _pct(c["dead"]),
            _pct(c["out"]),
            f"{c['damage_dealt']:.1f}",
            f"{c['damage_taken']:.1f}",
            f"{c['wounds']:.2f}",
        ]
        for cid, c in report["combatants"].items()
    ]
    parts.append("<h2>Combatants</h2>")
    parts.append(
        _table(
            ["combatant", "side", "unconscious", "dead", "out", "damage dealt", "damage taken", "Wounds"],
            crow,
        )
    )
    for name, b64 in images.items():
        parts.append(
            f"<h2>{html.escape(name)}</h2><img alt='{html.escape(name)}' src='data:image/png;base64,{b64}'>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)
