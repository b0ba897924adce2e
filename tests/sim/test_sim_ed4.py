"""The ED4 batch kernel against the reference engine, and the simulator on the bundled ED4 example.

Agreement: for each duel the kernel plays 10^5 fights; the engine plays 2,000 (10^5 with
FRACAS_SIM_FULL=1, most of an hour; or FRACAS_SIM_ENGINE_RUNS=N); every outcome's frequency (each side's
wins, draws, each combatant's final status, the rounds) must pass a two-proportion test at the 99.9% level.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from fracas.sim import report
from fracas.sim.runner import LocalBackend, SerialBackend, choose_engine, scenario_from_data, simulate
from fracas.sim.stats import Z999

pytest.importorskip("fracas.rules.ed4.ruleset")

ROOT = Path(__file__).resolve().parents[2]
MICA = ROOT / "examples" / "ed4" / "mica-and-the-ghouls.yaml"
FULL = bool(os.environ.get("FRACAS_SIM_FULL"))
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 100_000 if FULL else 2_000))


def duel(a: dict, b: dict, **top) -> dict:
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": f"{a['template']} against {b['template']}",
        "max_rounds": top.pop("max_rounds", 30),
        "options": top.pop("options", {}),
        "sides": [
            {"name": "A", "combatants": [{**a, "at": [0, 0]}]},
            {"name": "B", "combatants": [{**b, "at": [1, 0]}]},
        ],
    }


DUELS = {
    # creatures: Wounds, knockdown, unconsciousness, a foe without Unconsciousness Rating (dies only)
    "ghoul-cadaver": duel({"template": "ghoul"}, {"template": "cadaver-man"}),
    # a player character with Karma and two attacks against a creature with two attacks a round; Thrak is
    # faster than the ghoul, so when in danger (raised Unconsciousness Rating: a window before he falls) he
    # runs away and escapes ("fled")
    "thrak-ghoul": duel(
        {"template": "thrak", "player": True, "stats": {"unconsciousness": 38}},
        {"template": "ghoul", "stats": {"actions": 2}},
        max_rounds=6,
    ),
    # a crossbow at point-blank range, Take the Initiative, no wound penalties
    "silar-ghoul": duel(
        {"template": "silar"},
        {"template": "ghoul"},
        options={"take-the-initiative": True, "wound-penalties": False},
    ),
}


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    p = (k1 + k2) / (n1 + n2)
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= Z999 * sd + 1e-12


def _outcomes(t) -> dict[str, int]:
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead", "fled"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, 31):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    return out


_ENGINE_TALLIES: dict[str, object] = {}


def _engine_tally(name: str):
    """The engine's tally of a duel, played once per test session (both kernel loops compare with it)."""
    if name not in _ENGINE_TALLIES:
        sc = scenario_from_data(DUELS[name], name)
        _ENGINE_TALLIES[name] = simulate(
            sc, ENGINE_RUNS, seed=101, engine="reference", backend=LocalBackend(2)
        ).tally
    return _ENGINE_TALLIES[name]


def _differences(k, e) -> dict[str, tuple[float, float]]:
    ko, eo = _outcomes(k), _outcomes(e)
    return {
        key: (ko[key] / k.runs, eo[key] / e.runs) for key in ko if not _same(ko[key], k.runs, eo[key], e.runs)
    }


@pytest.mark.timeout(0 if FULL or ENGINE_RUNS > 2_000 else 600)
@pytest.mark.parametrize("name", sorted(DUELS))
def test_kernel_agrees_with_the_engine(name: str) -> None:
    """The kernel as the simulator runs it (the compiled loop where numba is installed)."""
    sc = scenario_from_data(DUELS[name], name)
    assert choose_engine(sc, "auto")[0] == "kernel:ed4-duel"
    k = simulate(sc, 100_000, seed=101, engine="kernel", backend=SerialBackend()).tally
    bad = _differences(k, _engine_tally(name))
    assert not bad, f"kernel vs engine frequencies differ: {bad}"
    # the duel is not degenerate: both sides win sometimes
    assert all(w > 0 for w in k.wins)


def test_the_thrak_duel_exercises_fleeing_and_karma() -> None:
    sc = scenario_from_data(DUELS["thrak-ghoul"], "t")
    t = simulate(sc, 20_000, seed=3, engine="kernel", backend=SerialBackend()).tally
    assert t.status[0].get("fled", 0) > 0


def test_kernel_refuses_what_it_does_not_model() -> None:
    """The duel kernel itself (other kernels, tried after it, may take what it refuses)."""
    from fracas.engine import encounter
    from fracas.sim.kernels import Unsupported
    from fracas.sim.kernels.ed4_melee import Ed4DuelKernel

    def refusal(sc) -> str:
        with pytest.raises(Unsupported) as got:
            Ed4DuelKernel(sc.ruleset, sc.state)
        return str(got.value)

    assert "one against one" in refusal(scenario_from_data(encounter.read_file(MICA), str(MICA)))
    apart = duel({"template": "ghoul"}, {"template": "cadaver-man"})
    apart["sides"][1]["combatants"][0]["at"] = [3, 0]
    assert "next to each other" in refusal(scenario_from_data(apart))
    assert "retreat" in refusal(scenario_from_data(duel({"template": "mica"}, {"template": "ghoul"})))


def test_ed4_duel_kernel_refuses_a_thrower() -> None:
    """A fighter whose best attack on an adjacent foe is a thrown dagger without a minimum range (a stat
    block's; the bundled thrown weapons have a 2-yard minimum, so none is thrown at an adjacent foe,
    p.392): the engine then has it lying on the floor (p.392), the kernel would throw it again and again:
    it refuses."""
    from fracas.sim.kernels import Unsupported
    from fracas.sim.kernels.ed4_melee import Ed4DuelKernel

    stats = {
        "dexterity": 12, "strength": 12, "toughness": 12, "perception": 12, "willpower": 12, "charisma": 12,
        "attacks": [
            {"name": "Dagger (thrown)", "kind": "thrown", "step": 12, "damage": 8, "range": [0, 10, 20]},
        ],
    }  # fmt: skip
    data = duel({"template": "brighton"}, {"template": "ghoul"})
    data["sides"][0]["combatants"] = [{"name": "Thrower", "id": "thrower", "stats": stats, "at": [0, 0]}]
    sc = scenario_from_data(data)
    with pytest.raises(Unsupported, match="thrown"):
        Ed4DuelKernel(sc.ruleset, sc.state)


def test_ed4_duel_kernel_takes_brighton_who_throws_nothing_at_an_adjacent_ghoul() -> None:
    """Brighton's dagger has a 2-yard minimum range: within it (the adjacent hex) he cannot throw it (p.392),
    so the duel kernel has no thrown attack to refuse."""
    from fracas.sim.kernels.ed4_melee import Ed4DuelKernel

    sc = scenario_from_data(duel({"template": "brighton"}, {"template": "ghoul"}))
    Ed4DuelKernel(sc.ruleset, sc.state)


def test_kernel_report_is_the_same_with_one_and_two_workers() -> None:
    sc = scenario_from_data(DUELS["ghoul-cadaver"], "d")
    one = report.to_json(simulate(sc, 120_000, 9, "auto", SerialBackend()))
    two = report.to_json(simulate(sc, 120_000, 9, "auto", LocalBackend(2)))
    assert one["engine"] == "kernel:ed4-duel"
    assert report.without_timing(one) == report.without_timing(two)


def _cli(args: list[str], capsys) -> tuple[int, str, str]:
    from fracas.cli import main

    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_sim_json_and_report_on_the_mica_example(tmp_path: Path, capsys) -> None:
    page = tmp_path / "r.html"
    args = ["sim", str(MICA), "-n", "40", "--seed", "4", "--json", "--workers", "2", "--report", str(page)]
    code, out, _ = _cli(args, capsys)
    assert code == 0
    data = json.loads(out)
    # the Mica example plays on the ED4 group kernel since it supports it (reference with --engine reference)
    assert data["runs"] == 40 and data["seed"] == 4 and data["engine"] in ("reference", "kernel:ed4-group")
    assert set(data["sides"]) == {"Heroes", "Ghouls"} and "mica" in data["combatants"]
    assert page.read_text().count("data:image/png;base64,") == 2
    code, out1, _ = _cli(["sim", str(MICA), "-n", "40", "--seed", "4", "--json", "--workers", "1"], capsys)
    assert report.without_timing(json.loads(out1)) == report.without_timing(data)


def test_cli_sim_text_and_errors(tmp_path: Path, capsys) -> None:
    f = tmp_path / "duel.yaml"
    f.write_text(yaml.safe_dump(DUELS["ghoul-cadaver"]))
    code, out, _ = _cli(["sim", str(f), "-n", "2000", "--seed", "1"], capsys)
    assert code == 0 and "95% interval" in out and "kernel:ed4-duel" in out
    code, _, err = _cli(["sim", str(f), "-n", "10", "--engine", "fast"], capsys)
    assert code == 2 and "--engine" in err
    code, _, err = _cli(["sim", str(tmp_path / "missing.yaml")], capsys)
    assert code == 2 and "no such file" in err
    cavalry = MICA.parent / "cavalry-charge.yaml"  # mounted combat: no kernel plays it
    code, _, err = _cli(["sim", str(cavalry), "-n", "10", "--engine", "kernel"], capsys)
    assert code == 2 and "no batch kernel" in err


def test_cli_sweep(tmp_path: Path, capsys) -> None:
    f = tmp_path / "duel.yaml"
    f.write_text(yaml.safe_dump(DUELS["ghoul-cadaver"]))
    png = tmp_path / "s.png"
    page = tmp_path / "s.html"
    args = ["sweep", str(f), "--vary", "ghoul.stats.physical_armor=0..8:4", "-n", "3000", "--seed", "2"]
    code, out, _ = _cli([*args, "--json", "--plot", str(png), "--report", str(page)], capsys)
    assert code == 0
    data = json.loads(out)
    assert [p["values"]["ghoul.stats.physical_armor"] for p in data["points"]] == [0, 4, 8]
    rates = [p["sides"]["A"]["win_rate"] for p in data["points"]]
    assert rates[0] < rates[1] < rates[2]  # more armor, more wins
    assert png.read_bytes().startswith(b"\x89PNG") and "base64" in page.read_text()
    code, out, _ = _cli(args, capsys)
    assert code == 0 and "3,000 fights per point" in out
    code, _, err = _cli(["sweep", str(f), "--vary", "orc.count=1..2"], capsys)
    assert code == 2 and "no combatant entry" in err


@pytest.mark.parametrize(("step", "karma_step"), [(1, 0), (2, 4), (8, 0), (13, 4), (13, 0), (27, 6)])
def test_kernel_step_odds_are_the_exact_ones(step: int, karma_step: int) -> None:
    """The kernel's step-test tables against the dice module's exact odds: P(result >= DN, no Rule of One)
    for DNs across the range, and the Rule of One."""
    from fracas.dice.exact import ed4_test, rule_of_one
    from fracas.sim.kernels.ed4_melee import Ed4DuelKernel

    sc = scenario_from_data(DUELS["thrak-ghoul"], "t")
    kernel = Ed4DuelKernel(sc.ruleset, sc.state)
    expr = f"step {step}" + (f"+step {karma_step}" if karma_step else "")
    for dn in range(2, 3 * step + 12, 2):
        p = float(ed4_test(expr, dn).p_success)  # includes the Rule of One
        assert kernel._p_success(step, dn, karma_step) == pytest.approx(p, abs=1e-9), (expr, dn)
    assert kernel._pmf(step, karma_step)[2] == pytest.approx(float(rule_of_one(expr)), abs=1e-12)


def test_kernel_alias_tables_give_their_distribution() -> None:
    """Every damage table the ED4 kernel draws from (one uniform each, Walker's alias method) gives each
    amount exactly its probability: the chance of cell j is 1/k, kept with prob[j], else alias[j]."""
    import numpy as np

    from fracas.sim.kernels.ed4_melee import Ed4DuelKernel, _alias

    sc = scenario_from_data(DUELS["thrak-ghoul"], "t")
    kernel = Ed4DuelKernel(sc.ruleset, sc.state)
    for args in [(0, 0, 1, 1, True), (0, 1, 0, 0, False), (1, 0, 2, 0, False)]:
        p = kernel._amount_pmf(*args)
        assert p.sum() == pytest.approx(1.0) and p[0] > 0  # misses
        prob, alias = _alias(p)
        k = p.size
        implied = prob / k
        np.add.at(implied, alias, (1.0 - prob) / k)
        assert np.allclose(implied, p, rtol=1e-9, atol=1e-15)
    # and a draw follows it: a table with four outcomes
    p = np.array([0.5, 0.125, 0.0, 0.375])
    prob, alias = _alias(p)
    x = np.random.default_rng(4).random(100_000) * 4
    j = x.astype(np.intp)
    got = np.bincount(np.where(x - j < prob[j], j, alias[j]), minlength=4) / 100_000
    assert got[2] == 0 and np.allclose(got, p, atol=0.01)
