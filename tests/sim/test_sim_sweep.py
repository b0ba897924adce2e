"""Sweeps: reading --vary, changing the encounter data, the grid; plots and the HTML page."""

from __future__ import annotations

import base64

import pytest
from sim_toy import TOY, ToyStats, make_state

from fracas.errors import UsageError
from fracas.sim import plots, report
from fracas.sim import sweep as sw
from fracas.sim.runner import Scenario, SerialBackend, simulate, simulate_many

DATA = {
    "version": 1,
    "ruleset": "ed4",
    "sides": [
        {"name": "party", "combatants": [{"template": "human-warrior", "id": "mica.b", "stats": {"dex": 6}}]},
        {
            "name": "ghouls",
            "combatants": [{"template": "ghoul", "count": 3}, {"template": "ghoul", "id": "boss"}],
        },
    ],
}


def test_values() -> None:
    assert sw.parse_values("1..8") == tuple(range(1, 9))
    assert sw.parse_values("2..10:4") == (2, 6, 10)
    assert sw.parse_values("1, 2.5, true, broadsword") == (1, 2.5, True, "broadsword")
    assert sw.parse_values("[3,4]") == (3, 4)
    for bad in ("8..1", "1..5:0", "1,,2", ""):
        with pytest.raises(UsageError):
            sw.parse_values(bad)


def test_vary_finds_entries_by_id_or_template_with_dotted_ids() -> None:
    v = sw.parse_vary("ghoul.count=1..3", DATA)
    assert (v.selector, v.field, v.values, v.name) == ("ghoul", ("count",), (1, 2, 3), "ghoul.count")
    v2 = sw.parse_vary("mica.b.stats.dex=5,7", DATA)
    assert (v2.selector, v2.field) == ("mica.b", ("stats", "dex"))
    with pytest.raises(UsageError, match="entries: boss, ghost"):
        sw.parse_vary(
            "wraith.count=1..2", {**DATA, "sides": [{"combatants": [{"id": "boss"}, {"id": "ghost"}]}]}
        )
    with pytest.raises(UsageError, match="ghoul.count=1..8"):
        sw.parse_vary("ghoul.count", DATA)
    with pytest.raises(UsageError, match="no combatant entry"):
        sw.parse_vary("orc.count=1..2", DATA)


def test_apply_changes_every_matching_entry_and_leaves_the_original() -> None:
    v = sw.parse_vary("ghoul.stats.dex=9", DATA)
    new = sw.apply(DATA, v, 9)
    ghouls = new["sides"][1]["combatants"]
    assert ghouls[0]["stats"] == {"dex": 9} and ghouls[1]["stats"] == {"dex": 9}  # both by template
    assert "stats" not in DATA["sides"][1]["combatants"][0]
    boss = sw.apply(DATA, sw.parse_vary("boss.count=2", DATA), 2)
    assert boss["sides"][1]["combatants"][1]["count"] == 2 and boss["sides"][1]["combatants"][0]["count"] == 3


def test_grid_is_every_combination_first_parameter_slowest() -> None:
    vs = [sw.parse_vary("ghoul.count=1..2", DATA), sw.parse_vary("mica.b.stats.dex=5,6,7", DATA)]
    g = sw.grid(DATA, vs)
    assert [vals for vals, _ in g] == [
        {"ghoul.count": a, "mica.b.stats.dex": b} for a in (1, 2) for b in (5, 6, 7)
    ]
    assert g[4][1]["sides"][0]["combatants"][0]["stats"]["dex"] == 6
    assert g[4][1]["sides"][1]["combatants"][0]["count"] == 2
    with pytest.raises(UsageError):
        sw.grid(DATA, [vs[0], vs[0]])
    with pytest.raises(UsageError):
        sw.grid(DATA, [])


def _toy(hit_on: int) -> Scenario:
    a = ToyStats(hit_on=hit_on, sides=6, damage=2, hp=6)
    b = ToyStats(hit_on=2, sides=6, damage=3, hp=6)
    return Scenario(TOY, make_state({"left": [a], "right": [b]}, 8), "toy duel")


def test_sweep_json_and_plot_from_a_toy_sweep() -> None:
    values = [1, 3, 5]
    results = simulate_many([_toy(h) for h in values], 2000, 8, "reference", SerialBackend())
    reports = [report.to_json(r) for r in results]
    vary = sw.Vary("left.hit_on=1,3,5", "left", ("hit_on",), tuple(values))
    out = sw.sweep_json([vary], [{"left.hit_on": v} for v in values], reports, {"seconds": 1.0})
    rates = [p["sides"]["left"]["win_rate"] for p in out["points"]]
    assert rates == sorted(rates) and rates[0] < rates[-1]  # hitting more often wins more often
    assert out["runs"] == 2000 and out["seed"] == 8 and len(out["points"]) == 3
    png = base64.b64decode(plots.sweep_plot(out))
    assert png.startswith(b"\x89PNG")


def test_html_report_is_self_contained() -> None:
    data = report.to_json(simulate(_toy(3), 500, 2, "reference", SerialBackend()))
    images = plots.report_images(data)
    assert set(images) == {"Rounds", "Survival"}
    page = report.html_page(data, images)
    assert page.count("data:image/png;base64,") == 2
    assert "src='http" not in page and "<script" not in page
    assert "95% Wilson interval" in page and "seed 2" in page
    for b64 in images.values():
        assert base64.b64decode(b64).startswith(b"\x89PNG")
