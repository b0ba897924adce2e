"""The GURPS group kernel (src/fracas/sim/kernels/gurps_group.py, gurps_core.py) against the engine.

Face by face: the kernel draws its dice in the engine's order, so the engine, replaying a kernel fight from
the kernel's own faces, must end it exactly as the kernel did (winner, round, each figure's status, damage
dealt and taken, and no die more or less): the examples of examples/gurps4, and random legal encounters (one
to three figures a side, two or three sides, templates or stat blocks of their own, every melee weapon,
armor and shield, archers on foot with every ranged weapon, flyers in the air and on the ground, lancers on
horseback, both tactics, maps with blocked hexes, the options the kernel reads). A fight the kernel hands
back (a riderless mount that stays, a flyer at the flight ceiling) the engine must take up from the
kernel's dice.

Statistics: the kernel plays 10^5 fights of each example and the engine 600 with
``RandomDice`` (FRACAS_SIM_ENGINE_RUNS=N for more); every outcome's frequency (each side's wins, draws,
each figure's final status, each round, each side's number dead and out) must pass a two-proportion test
at the 99.9% level.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fracas.dice.source import RandomDice
from fracas.engine.events import Damaged
from fracas.engine.play import Fight
from fracas.sim.kernels import Unsupported
from fracas.sim.runner import (
    SerialBackend,
    choose_engine,
    engine_runs,
    load_scenario,
    scenario_from_data,
    simulate,
)
from fracas.sim.stats import Z999, Tally

pytest.importorskip("numba")
from fracas.sim.kernels import gurps_core  # noqa: E402
from fracas.sim.kernels.gurps_group import STATUS, GurpsGroupKernel  # noqa: E402
from fracas.sim.kernels.sas_melee import PrefixDice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gurps4"
FOOT = EXAMPLES / "fight-on-foot.yaml"
AIR = EXAMPLES / "winged-duel.yaml"
JOUST = EXAMPLES / "knights-jousting.yaml"
ARCHERS = EXAMPLES / "horse-archers.yaml"
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))

WEAPONS = {
    "broadsword": "Broadsword",
    "shortsword": "Shortsword",
    "axe": "Axe/Mace",
    "mace": "Axe/Mace",
    "spear": "Spear",
    "dagger": "Knife",
}
RANGED = {  # archers on foot: the weapon in hand, its skill
    "short_bow": "Bow",
    "regular_bow": "Bow",
    "composite_bow": "Bow",
    "javelin": "Thrown Weapon (Spear)",
    "matchlock_musket": "Guns (Musket)",
}
ARMOR = ["leather_armor", "mail_shirt", "scale_armor", "steel_corselet", "pot_helm"]
SHIELDS = [None, "light_shield", "small_shield", "medium_shield", "large_shield"]


def random_encounter(seed: int) -> dict[str, Any]:
    """A legal GURPS encounter that the kernel takes: figures placed at random near each other, some of them
    flyers, in the air or on the ground, some lancers on horseback."""
    rng = random.Random(seed)
    taken: set[tuple[int, int]] = set()
    sides = []
    k = 0
    for s in range(rng.choice([2, 2, 3])):
        entries: list[dict[str, Any]] = []
        for _ in range(rng.choice([0, 0, 1, 2])):  # lancers on horseback
            k += 1
            at = (rng.randint(-8, 8), rng.randint(-8, 8))
            while at in taken:
                at = (rng.randint(-8, 8), rng.randint(-8, 8))
            taken.add(at)
            horse = {"template": rng.choice(["heavy_warhorse", "text_warhorse", "cavalry_horse"])}
            if rng.random() < 0.4:
                horse["equipment"] = {"barding": ["full_plate_barding"]}
            entries.append({**horse, "id": f"m{k}", "at": list(at)})
            knight = {"template": rng.choice(["knight", "jousting_knight"]), "id": f"r{k}"}
            entries.append({**knight, "options": {"mount": f"m{k}"}})
        for _ in range(rng.randint(0 if entries else 1, 3)):
            k += 1
            at = (rng.randint(-4, 4), rng.randint(-4, 4))
            while at in taken:
                at = (rng.randint(-4, 4), rng.randint(-4, 4))
            taken.add(at)
            entry: dict[str, Any] = {"id": f"f{k}", "at": list(at)}
            entry["tactic"] = rng.choice(["default", "aggressive", "defensive"])
            if rng.random() < 0.4:
                entry["template"] = rng.choice(
                    ["swordsman", "axeman", "spearman", "winged_warrior", "horse_archer"]
                )
                if entry["template"].startswith("winged") and rng.random() < 0.7:
                    entry["altitude"] = rng.randint(0, 6)
            else:
                w = rng.choice(sorted(WEAPONS))
                stats: dict[str, Any] = {"st": rng.randint(8, 15), "dx": rng.randint(9, 14), "iq": 10}
                stats["ht"] = rng.randint(8, 13)
                stats["skills"] = {WEAPONS[w]: rng.randint(9, 16), "Shield": rng.randint(8, 14)}
                if rng.random() < 0.3:
                    stats["hp"] = rng.randint(6, 20)
                if rng.random() < 0.3:
                    stats["basic_speed"] = rng.choice([5.0, 5.5, 6.0])
                stats["high_pain_threshold"] = rng.random() < 0.2
                stats["combat_reflexes"] = rng.random() < 0.3
                if rng.random() < 0.2:
                    stats["skills"]["Brawling"] = rng.randint(10, 15)
                eq: dict[str, Any] = {"weapons": [w], "armor": rng.sample(ARMOR, rng.randint(0, 2))}
                shield = rng.choice(SHIELDS)
                if shield:
                    eq["shield"] = shield
                if rng.random() < 0.3:  # an archer on foot: the ranged weapon in hand, a melee one or none
                    g = rng.choice(sorted(RANGED))
                    stats["skills"][RANGED[g]] = rng.randint(9, 15)
                    eq["weapons"] = [g] + ([w] if rng.random() < 0.7 else [])
                if rng.random() < 0.3:
                    stats["flight"], stats["air_move"] = "winged", rng.randint(4, 14)
                    if rng.random() < 0.6:
                        entry["altitude"] = rng.randint(0, 5)
                entry["stats"], entry["equipment"] = stats, eq
            entries.append(entry)
        sides.append({"name": f"S{s}", "combatants": entries})
    data: dict[str, Any] = {"version": 1, "ruleset": "gurps4", "name": f"random {seed}", "sides": sides}
    if rng.random() < 0.5:  # a map with blocked hexes (walls, trees) among the figures
        free = [(q, r) for q in range(-8, 9) for r in range(-8, 9) if (q, r) not in taken]
        data["map"] = {"blocked": [list(h) for h in rng.sample(free, rng.randint(1, 40))]}
    data["max_rounds"] = rng.randint(3, 40)
    data["options"] = {"critical_hit_table": rng.random() < 0.7, "minimum_injury_one": rng.random() < 0.7}
    data["options"]["unhorsed_is_out"] = rng.random() < 0.5
    data["options"]["velocity_with_couched_lance"] = rng.random() < 0.8
    return data


def _kernel(sc: Any) -> GurpsGroupKernel:
    return GurpsGroupKernel(sc.ruleset, sc.state)


def _replayed(sc: Any, dice: np.ndarray) -> tuple[list[int], PrefixDice]:
    """The engine's fight from the kernel's faces, in the kernel's numbers (GurpsGroupKernel.trace)."""
    ids = list(sc.state.combatants)
    dealt = dict.fromkeys(ids, 0)
    taken = dict.fromkeys(ids, 0)

    def listen(events: list[Any], _state: Any) -> None:
        for e in events:
            if isinstance(e, Damaged):
                taken[e.target] += e.amount
                dealt[e.source] += e.amount

    source = PrefixDice(dice, RandomDice(7))
    state = Fight(sc.ruleset, sc.state.clone(), source, None, [listen], sc.ruleset.tactics(), 0).run()
    sides = list(sc.state.sides)
    if state.winner is not None:
        result = sides.index(state.winner)
    else:
        result = -3 if any(c.active for c in state.combatants.values()) else -2
    numbers = [result, state.round]
    for c in state.combatants.values():
        numbers += [STATUS.index(c.status), dealt[c.id], taken[c.id]]
    return numbers, source


def _face_by_face(sc: Any, seeds: range) -> int:
    """Replays the kernel's fights of these streams; returns how many it handed back (their dice the engine
    must take up to where the kernel stopped, and then play on)."""
    kernel = _kernel(sc)
    back_count = 0
    for seed in seeds:
        back, out, dice = kernel.trace(seed)
        numbers, source = _replayed(sc, dice)
        if back:
            back_count += 1
            assert source.used >= len(source.faces), f"fight {seed}: handed back, the engine drew fewer dice"
            continue
        assert numbers == [int(x) for x in out], f"fight {seed}: engine {numbers}, kernel {list(out)}"
        assert source.used == len(source.faces), f"fight {seed}: the engine used {source.used} of the dice"
    return back_count


@pytest.mark.parametrize("path", [FOOT, AIR, JOUST, ARCHERS], ids=lambda p: p.stem)
def test_engine_replays_kernel_fights_of_the_examples_face_by_face(path: Path) -> None:
    assert _face_by_face(load_scenario(str(path)), range(1, 151)) == 0


@pytest.mark.parametrize("seed", range(16))
def test_engine_replays_kernel_fights_of_random_encounters_face_by_face(seed: int) -> None:
    _face_by_face(scenario_from_data(random_encounter(seed)), range(1, 16))


def test_a_kernel_fight_that_differs_from_the_engine_is_caught() -> None:
    """The face-by-face check fails when the kernel plays otherwise: here one figure hits harder."""
    sc = load_scenario(str(FOOT))
    kernel = _kernel(sc)
    kernel.W[0, 0, gurps_core.W_DADD] += 3  # Aldo's damage adds
    differ = 0
    for seed in range(1, 31):
        _back, out, dice = kernel.trace(seed)
        try:
            numbers, source = _replayed(sc, dice)
        except RuntimeError:  # a die the engine does not draw
            differ += 1
            continue
        differ += numbers != [int(x) for x in out] or source.used != len(source.faces)
    assert differ > 10


def test_replay_tallies_the_kernel_fights_as_the_kernel_does() -> None:
    """A fight handed back is replayed by the engine from the kernel's faces: for finished fights the
    engine's tally is the kernel's."""
    sc = load_scenario(str(FOOT))
    kernel = _kernel(sc)
    seeds = np.arange(1, 41, dtype=np.uint64)
    assert kernel.replay([int(s) for s in seeds]).to_json() == kernel.run_seeds(seeds).to_json()


# ----- statistics ---------------------------------------------------------------------------------------


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    """The two-proportion test at the 99.9% level; for a rare outcome (under 40 fights in all, where the
    normal approximation fails: 2 of 600 engine fights against 5 of 20,000 kernel fights reads as z = 4)
    its exact form: given the k fights with the outcome, the engine's share of them is Binomial(k,
    n2 / (n1 + n2)) when the two rates agree; the two-sided p-value sums the chances no larger than the
    one observed."""
    k = k1 + k2
    if k < 40:
        q = n2 / (n1 + n2)
        chances = [math.comb(k, j) * q**j * (1 - q) ** (k - j) for j in range(k + 1)]
        return sum(c for c in chances if c <= chances[k2] * (1 + 1e-9)) >= 0.001
    p = k / (n1 + n2)
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= Z999 * sd + 1e-12


def _outcomes(t: Tally, max_rounds: int) -> dict[str, int]:
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    out["nobody standing"] = t.wipeouts
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in STATUS:
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, max_rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for j in range(len(t.ids) + 1):
            out[f"{side} {j} dead"] = dead.get(j, 0)
            out[f"{side} {j} out"] = gone.get(j, 0)
    return out


@pytest.mark.parametrize("path", [FOOT, AIR, JOUST, ARCHERS], ids=lambda p: p.stem)
def test_kernel_agrees_with_the_engine_on_the_examples(path: Path) -> None:
    sc = load_scenario(str(path))
    assert choose_engine(sc, "auto")[0] == "kernel:gurps-group"
    runs = 100_000 if path != ARCHERS else 20_000  # the archers' fights are long (51 rounds on average)
    kernel = simulate(sc, runs, seed=11, engine="kernel", backend=SerialBackend()).tally
    engine = engine_runs(sc.ruleset, sc.state, range(10**6, 10**6 + ENGINE_RUNS))
    assert kernel.runs == runs and engine.runs == ENGINE_RUNS
    ok, oe = _outcomes(kernel, sc.state.max_rounds), _outcomes(engine, sc.state.max_rounds)
    bad = [f"{k}: {ok[k]} vs {oe[k]}" for k in ok if not _same(ok[k], kernel.runs, oe[k], engine.runs)]
    assert not bad, f"kernel vs engine frequencies differ: {bad}"
    assert sum(kernel.wins) > 0  # not all draws
    # mean damage taken per fight within 5 engine standard errors (a generous bound on its spread)
    for g, w in zip(kernel.taken, engine.taken, strict=True):
        assert abs(g / kernel.runs - w / engine.runs) <= 5 * max(1.0, w / engine.runs) / ENGINE_RUNS**0.5


# ----- choosing the kernel ------------------------------------------------------------------------------


def _refusal(data: dict[str, Any]) -> str:
    sc = scenario_from_data(data)
    with pytest.raises(Unsupported) as got:
        GurpsGroupKernel(sc.ruleset, sc.state)
    return str(got.value)


def _foot() -> dict[str, Any]:
    import yaml

    return dict(yaml.safe_load(FOOT.read_text(encoding="utf-8")))


def test_kernel_refuses_what_it_does_not_model() -> None:
    def changed(side: int, i: int, **entry: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(_foot()))
        data["sides"][side]["combatants"][i].update(entry)
        return data

    sc = scenario_from_data(_foot())
    next(iter(sc.state.combatants.values())).tactic = "berserk"  # a tactic of its own, set in Python
    with pytest.raises(Unsupported, match="tactic"):
        GurpsGroupKernel(sc.ruleset, sc.state)
    bow_second = {"equipment": {"weapons": ["broadsword", "short_bow"]}}
    assert "ranged weapon other than one in hand" in _refusal(changed(0, 0, **bow_second))
    horse = {"template": "cavalry_horse", "id": "nag", "at": [0, 4]}
    unridden = _foot()
    unridden["sides"][0]["combatants"].append(horse)
    assert "without a rider" in _refusal(unridden)
    sword = json.loads(json.dumps(unridden))
    sword["sides"][0]["combatants"][0]["options"] = {"mount": "nag"}
    assert "without a lance or a bow" in _refusal(sword)
    musket = json.loads(json.dumps(sword))
    musket["sides"][0]["combatants"][0].update(
        {"stats": {"skills": {"Guns (Musket)": 12}}, "equipment": {"weapons": ["matchlock_musket"]}}
    )
    assert "noisy weapon on horseback" in _refusal(musket)
    glider = {"template": "winged_warrior", "stats": {"flight_limitation": "gliding"}}
    assert "cannot hover" in _refusal(changed(0, 0, **glider))
    assert "in hand" in _refusal(changed(0, 0, equipment={"weapons": ["dagger", "broadsword"]}))
    panic = _foot()
    panic["options"] = {"panic": True}
    assert "panic" in _refusal(panic)


@pytest.mark.parametrize("path", [FOOT, AIR, JOUST, ARCHERS], ids=lambda p: p.stem)
def test_every_bundled_example_takes_the_kernel(path: Path) -> None:
    sc = load_scenario(str(path))
    assert choose_engine(sc, "auto") == ("kernel:gurps-group", "")
    one = simulate(sc, 500, seed=3, engine="auto", backend=SerialBackend())
    assert one.engine == "kernel:gurps-group" and one.tally.runs == 500


def _far_apart(yards: int) -> dict[str, Any]:
    """Friends in the way of a foe ``yards`` off: the greedy steps stop at once and the way round is searched
    (geometry.path_towards looks as far as the foe is, plus BFS_MARGIN)."""
    fast = {"template": "swordsman", "stats": {"basic_speed": 7.0}}
    return {
        "version": 1,
        "ruleset": "gurps4",
        "name": "far apart",
        "max_rounds": 3,
        "sides": [
            {
                "name": "A",
                "combatants": [
                    {**fast, "id": "a", "at": [0, 0]},
                    {"template": "swordsman", "id": "b", "at": [1, 0]},
                    {"template": "swordsman", "id": "c", "at": [1, -1]},
                ],
            },
            {"name": "B", "combatants": [{"template": "axeman", "id": "d", "at": [yards, 0]}]},
        ],
    }


@pytest.mark.parametrize("yards", [210, 480])
def test_a_way_round_as_far_as_the_engine_looks_is_played(yards: int) -> None:
    """The way round a foe far off is searched as far as the engine looks: no fight is handed back, and
    the engine ends each as the kernel did."""
    sc = scenario_from_data(_far_apart(yards))
    assert _face_by_face(sc, range(1, 4)) == 0
    kernel = _kernel(sc)
    back, out, _dice = kernel.trace(1)
    assert back == 0 and out[0] == -3  # a draw: nobody reached anybody


def test_a_way_round_walled_off_is_not_searched_for_nothing() -> None:
    """A foe whose one free side is a closed pocket: the engine's route gives up at once (_walled_off), and
    so does the kernel's (it would otherwise weigh every hex within reach); the fight is the engine's."""
    data = _far_apart(40)
    friends = data["sides"][0]["combatants"]
    ring = [(41, 0), (41, -1), (40, -1), (39, 0), (39, 1)]  # round the foe at (40, 0), (40, 1) left open
    ring2 = [(41, 1), (40, 2), (39, 2)]  # round (40, 1)
    for k, at in enumerate(ring + ring2):
        friends.append({"template": "spearman", "id": f"w{k}", "at": list(at)})
    data["max_rounds"] = 1
    sc = scenario_from_data(data)
    assert _face_by_face(sc, range(1, 4)) == 0


def test_a_fight_the_loop_cannot_finish_is_handed_back_and_finished_by_the_engine() -> None:
    """Flyers at the flight ceiling: a retreat upward would take one past it (B398), a point the loop does
    not model; such a fight is handed back and the engine plays it on from the kernel's dice, so the tally
    of every fight, handed back or not, is the engine's replay of the kernel's dice."""
    high = {"template": "winged_warrior", "altitude": gurps_core.CEILING}
    data = {
        "version": 1,
        "ruleset": "gurps4",
        "name": "high up",
        "max_rounds": 4,
        "sides": [
            {"name": "A", "combatants": [{**high, "id": "a", "at": [0, 0]}]},
            {"name": "B", "combatants": [{**high, "id": "b", "at": [1, 0]}]},
        ],
    }
    sc = scenario_from_data(data)
    kernel = _kernel(sc)
    seeds = np.arange(1, 21, dtype=np.uint64)
    backs = [kernel.trace(int(s))[0] for s in seeds]
    assert gurps_core.BACK_CEILING in backs
    got = kernel.run_seeds(seeds)
    assert got.runs == 20
    assert got.to_json() == kernel.replay([int(s) for s in seeds]).to_json()


def test_the_route_search_finds_the_engines_way_round_and_grows_its_hash_set() -> None:
    """gurps_core._route against pathing.route (margin None, reach as geometry.path_towards gives it) on
    random crowds and walls (the map's blocked hexes), from a hash set of 16 rows that must grow many times
    over: the same path, or none."""
    from types import SimpleNamespace

    from fracas.engine import pathing
    from fracas.engine.hexgrid import distance

    rng = random.Random(5)
    for _ in range(80):
        n = rng.randint(2, 40)
        X = np.zeros((n, gurps_core.NX), np.int64)
        hexes: set[tuple[int, int]] = set()
        while len(hexes) < n:
            hexes.add((rng.randint(-6, 6), rng.randint(-6, 6)))
        for i, (q, r) in enumerate(sorted(hexes)):
            X[i, gurps_core.X_Q], X[i, gurps_core.X_R] = q, r
        me = rng.randrange(n)
        start = (int(X[me, gurps_core.X_Q]), int(X[me, gurps_core.X_R]))
        goal = (rng.randint(-30, 30), rng.randint(-30, 30))
        stop = rng.choice([0, 1, 1, 2, 4])
        walls = [(rng.randint(-9, 9), rng.randint(-9, 9)) for _ in range(rng.choice([0, 0, 5, 30]))]
        walls = sorted(set(walls) - {start})
        state = SimpleNamespace(extra={"map": {"blocked": walls}}, derived={})
        P = GurpsGroupKernel._map(state, np.zeros(gurps_core.NP, np.int64))  # type: ignore[arg-type]
        blocked = {h for h in hexes if h != start} | set(walls)
        near = distance(start, goal) + gurps_core.BFS_MARGIN
        want = pathing.route(start, goal, blocked, stop, margin=None, reach=near)
        path = np.zeros((256, 2), np.int64)
        seen = np.zeros((17, 3), np.int64)
        queue = np.zeros((16, 4), np.int64)
        got = gurps_core._route(P, X, n, me, goal[0], goal[1], stop, near, path, seen, queue)
        if want is None:
            assert got == -1
        else:
            assert got == len(want)
            assert [tuple(int(v) for v in path[j]) for j in range(got)] == want
