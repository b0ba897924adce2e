"""Matplotlib figures of a report, as base64 PNG strings for a self-contained HTML page."""

from __future__ import annotations

import base64
import io
from typing import Any

_STATUS_COLOURS = {
    "active": "#4c9a2a",
    "unconscious": "#e0a800",
    "dead": "#b22222",
    "fled": "#6c8ebf",
}


def _figure(width: float = 7.0, height: float = 3.6) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    return fig, fig.add_subplot(1, 1, 1)


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", bbox_inches="tight")  # keeps a legend placed outside the axes
    return base64.b64encode(buf.getvalue()).decode("ascii")


def rounds_histogram(report: dict[str, Any]) -> str:
    fig, ax = _figure()
    hist = {int(k): v for k, v in report["rounds"]["histogram"].items()}
    runs = max(1, report["runs"])
    xs = sorted(hist)
    ax.bar(xs, [hist[x] / runs for x in xs], color="#4a6fa5", width=0.85)
    ax.set_xlabel("rounds until the fight ended")
    ax.set_ylabel("share of fights")
    ax.set_title(f"Rounds ({report['runs']:,} fights)")
    return _png(fig)


def survival(report: dict[str, Any]) -> str:
    """One horizontal bar per combatant, split by its final status."""
    combatants = report["combatants"]
    fig, ax = _figure(7.0, max(2.4, 0.35 * len(combatants) + 1.5))
    labels = [f"{c['name']} ({c['side']})" for c in combatants.values()]
    statuses = sorted(
        {s for c in combatants.values() for s in c["status"]},
        key=lambda s: (list(_STATUS_COLOURS).index(s) if s in _STATUS_COLOURS else 99, s),
    )
    left = [0.0] * len(labels)
    ys = list(range(len(labels)))
    for s in statuses:
        widths = [c["status"].get(s, 0.0) for c in combatants.values()]
        ax.barh(ys, widths, left=left, color=_STATUS_COLOURS.get(s), label=s)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(ys, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of fights ending in each status")
    # below the axis, in one row: inside it hid the bars of the last combatants
    ax.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.2),
        ncol=max(1, len(statuses)),
        fontsize="small",
        frameon=False,
    )
    ax.set_title("How each combatant ends the fight")
    return _png(fig)


def sweep_plot(sweep: dict[str, Any]) -> str:
    """Win rate of each side against the first varied parameter, with its 95% band (one line per value of
    the other parameters)."""
    fig, ax = _figure()
    params = [v["name"] for v in sweep["vary"]]
    first = params[0]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for point in sweep["points"]:
        rest = tuple(point["values"][p] for p in params[1:])
        groups.setdefault(rest, []).append(point)
    sides = list(sweep["points"][0]["sides"]) if sweep["points"] else []
    numeric = all(isinstance(p["values"][first], int | float) for p in sweep["points"])
    for rest, points in groups.items():
        xs_raw = [p["values"][first] for p in points]
        xs = xs_raw if numeric else list(range(len(xs_raw)))
        for side in sides:
            ys = [p["sides"][side]["win_rate"] for p in points]
            lo = [p["sides"][side]["ci_low"] for p in points]
            hi = [p["sides"][side]["ci_high"] for p in points]
            label = side + (
                ""
                if not rest
                else " (" + ", ".join(f"{n}={v}" for n, v in zip(params[1:], rest, strict=True)) + ")"
            )
            (line,) = ax.plot(xs, ys, marker="o", label=label)
            ax.fill_between(xs, lo, hi, alpha=0.2, color=line.get_color())
        if not numeric:
            ax.set_xticks(xs, [str(x) for x in xs_raw])
    ax.set_ylim(0, 1)
    ax.set_xlabel(first)
    ax.set_ylabel("win rate (95% band)")
    ax.set_title(f"Win rate against {first} ({sweep['runs']:,} fights per point)")
    ax.legend(fontsize="small")
    return _png(fig)


def report_images(report: dict[str, Any]) -> dict[str, str]:
    return {"Rounds": rounds_histogram(report), "Survival": survival(report)}
