"""The Spells & Swords group kernel (src/fracas/sim/kernels/sas_group.py, sas_group_core.py) against the
engine.

Face by face: the kernel draws its dice in the engine's order, so the engine, replaying a kernel fight from
the kernel's own faces, must end it exactly as the kernel did (winner, round, statuses, no die more or less);
checked on fights of encounters that bring what more than two combatants bring: Defender Surrounded, flank
and behind, the tactic's choice among adjacent foes, Friendly Fire on a side-mate, Monster Fumbles 4-5 for
each foe once, Stand Up next to several foes, Minions.

Statistics: the kernel's 10^5 fights and the engine's fights (2,000 by default; FRACAS_SIM_ENGINE_RUNS=N)
agree on every outcome's frequency and on the casualties of each side at the 99.9% level.
"""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

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
from fracas.sim.kernels.sas_group import SasGroupKernel  # noqa: E402
from fracas.sim.kernels.sas_melee import PrefixDice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 2_000))
RING = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]  # the six spaces round (0, 0)


def group(left: list[dict[str, Any]], right: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "ruleset": "sas",
        "name": "group",
        "max_rounds": top.pop("max_rounds", 30),
        "options": top.pop("options", {}),
        **top,
        "sides": [{"name": "left", "combatants": left}, {"name": "right", "combatants": right}],
    }


def _at(template: str, cid: str, at: list[int], **kw: Any) -> dict[str, Any]:
    return {"template": template, "id": cid, "at": at, **kw}


GROUPS = {
    # two humanoids on one goblin boss (Brawl Rule, shields, Friendly Fire between the two)
    "pair-on-boss": group(
        [_at("fighter", "a", [0, 0]), _at("rogue", "b", [0, 1])], [_at("goblin-boss", "t", [1, 0])]
    ),
    # two against two, each next to both foes (a rhombus of spaces): the choice of foe, Surrounded
    "rhombus": group(
        [_at("fighter", "a", [0, 0]), _at("priest", "b", [1, 0])],
        [_at("goblin-boss", "x", [0, 1]), _at("goblin", "y", [1, -1])],
    ),
    # three wolves round a fighter with two healing potions: MONSTER FUMBLES 4-5 (each foe's bonus once),
    # flank and behind, Quaff
    "wolves": group(
        [_at("fighter", "f", [0, 0], equipment={"potions": 2})],
        [_at("wolf", f"w{i}", RING[2 * i]) for i in range(3)],
    ),
    # six Minion goblins round a fighter: Surrounded, Friendly Fire among them, Stand Up among six foes
    "ring-of-minions": group(
        [_at("fighter", "f", [0, 0])],
        [_at("goblin", f"g{i}", RING[i]) for i in range(6)],
        options={"minions": True},
    ),
}
# tactics that differ from the default only in closing or shooting play as it in reach
GROUPS["rhombus-tactics"] = copy.deepcopy(GROUPS["rhombus"])
for c, tactic in zip(
    [
        *GROUPS["rhombus-tactics"]["sides"][0]["combatants"],
        *GROUPS["rhombus-tactics"]["sides"][1]["combatants"],
    ],
    ["guard", "hold", "cavalry", "archer"],
    strict=True,
):
    c["tactic"] = tactic
STATISTICAL = ("rhombus", "wolves")
# apart on maps with walls, under the default tactic: Charge (a spear's first strike at the charger), Close to
# Attack, Run and Walk round walls and taken hexes toward the nearest foe, then the fight among several
MOVING = {
    "wall-between": group(
        [_at("fighter", "a", [0, 0]), _at("rogue", "b", [0, 2]), _at("priest", "c", [-1, 1])],
        [
            _at("goblin", "x", [6, 0]),
            _at("goblin-boss", "y", [7, -2]),
            _at("goblin", "z", [8, 1], stats={"weapons": ["spear"]}),
        ],
        map={"blocked": [[3, -1], [3, 0], [3, 1], [4, -1], [2, 2]]},
    ),
    "wolves-far": group(
        [_at("fighter", "f", [0, 0], equipment={"potions": 1}), _at("priest", "p", [-1, 1])],
        [_at("wolf", "w0", [10, 0]), _at("wolf", "w1", [10, -3]), _at("wolf", "w2", [12, -5])]
        + [_at("wolf", "w3", [30, -2])],
        options={"minions": True},
    ),
}


def _scenario(name: str) -> Any:
    return scenario_from_data({**GROUPS, **MOVING}[name], name)


def _kernel(name: str) -> SasGroupKernel:
    sc = _scenario(name)
    return SasGroupKernel(sc.ruleset, sc.state)


# ----- face by face -----------------------------------------------------------------------------------------


class _NoMoreDice:
    def roll(self, sides: int, why: str = "") -> int:
        raise AssertionError(f"the engine wants a die the kernel did not draw: d{sides} ({why})")


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_engine_replays_group_kernel_fights_face_by_face(name: str) -> None:
    from fracas.engine.play import Fight

    k = _kernel(name)
    sc = _scenario(name)
    n = len(sc.state.combatants)
    seeds = np.arange(1, 151, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    seen: set[str] = set()

    def listen(events: list[Any], _state: Any) -> None:
        for e in events:
            seen.add((getattr(e, "rule", "") or "").split(" (")[0])

    for s in seeds[:100]:
        back, out, dice = k.trace(int(s))
        assert not back, f"seed {s}: handed back"
        pd = PrefixDice(dice, _NoMoreDice())
        state = Fight(sc.ruleset, sc.state.clone(), pd, None, [listen]).run()
        assert pd.used == dice.shape[1], f"seed {s}: the engine used {pd.used} of {dice.shape[1]} dice"
        winner = -1 if state.winner is None else list(state.sides).index(state.winner)
        assert winner == (int(out[0]) if out[0] < 2 else -1)
        assert state.round == out[1]
        statuses = [c.status for c in state.combatants.values()]
        assert statuses == [("active", "unconscious", "dead")[int(out[2 + 4 * i])] for i in range(n)]
    assert "sas/fumble-hth/friendly-fire" in seen  # the fights reach what only a group brings
    if name == "wolves":
        assert "sas/monster-fumbles/foes-attack-bonus" in seen and "sas/setting/potion_heal" in seen
    # the whole tally (markers dealt and taken, Wounds, rounds, casualties) of 150 fights
    assert k.run_seeds(seeds).to_json() == k.replay([int(s) for s in seeds]).to_json()


def _replays(k: SasGroupKernel, sc: Any, seed: int, listen: Any = None) -> bool:
    """The engine replays the kernel's fight of ``seed`` from its faces and ends it the same, die for die;
    False when the kernel handed the fight back (the engine finishes it: checked by the tallies)."""
    from fracas.engine.play import Fight

    n = len(sc.state.combatants)
    back, out, dice = k.trace(seed)
    if back:
        return False
    pd = PrefixDice(dice, _NoMoreDice())
    state = Fight(sc.ruleset, sc.state.clone(), pd, None, [listen] if listen else None).run()
    winner = -1 if state.winner is None else list(state.sides).index(state.winner)
    got = (winner, state.round, [c.status for c in state.combatants.values()], pd.used)
    want = (
        int(out[0]) if out[0] < 2 else -1,
        int(out[1]),
        [("active", "unconscious", "dead")[int(out[2 + 4 * i])] for i in range(n)],
        dice.shape[1],
    )
    assert got == want, f"{sc.name}: seed {seed}"
    return True


@pytest.mark.parametrize("name", sorted(MOVING))
def test_engine_replays_moving_group_fights_face_by_face(name: str) -> None:
    k = _kernel(name)
    sc = _scenario(name)
    seeds = np.arange(1, 151, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    seen: set[str] = set()

    def listen(events: list[Any], _state: Any) -> None:
        for e in events:
            seen.add((getattr(e, "rule", "") or "").split(" (")[0])

    played = sum(_replays(k, sc, int(s), listen) for s in seeds[:100])
    # handed back: a combatant with no foe next to him who would tend a bleeding or take up a weapon
    assert played >= 75
    for what in ("actions/charge", "actions/close-to-attack", "actions/run", "fumble-hth/friendly-fire"):
        assert f"sas/{what}" in seen, what
    if name == "wall-between":
        assert "sas/charge" in seen  # the spear's first strike at a charger
    assert k.run_seeds(seeds).to_json() == k.replay([int(s) for s in seeds]).to_json()


# Random legal encounters: stat blocks of the bestiary that the kernel takes (no trample, no Shield Spell,
# no missiles), any melee weapons, facings kept or turned to the nearest foe, options on or off, in every
# shape of "everyone next to every foe": one against two to six, and two against two.
TEMPLATES = ("goblin", "goblin-boss", "kobold", "wolf", "fighter", "rogue", "priest")
MELEE = ("long-sword", "short-sword", "dagger", "spear", "trident", "pike", "lance", "great-sword")
MELEE += ("battle-axe", "hand-axe", "mace", "club", "great-club", "staff", "torch", "claws", "bite", "hooves")


def random_apart(r: random.Random) -> dict[str, Any]:
    """Two sides apart on a field with walls between and round them, the default tactic."""
    spots = [(q, s) for q in range(-6, 7) for s in range(-4, 5)]
    r.shuffle(spots)
    left = [p for p in spots if p[0] <= -1][: r.randint(1, 4)]
    right = [p for p in spots if p[0] >= 2][: r.randint(2, 5)]
    used = set(left + right)
    walls = [list(p) for p in spots if p not in used][: r.randint(0, 25)]

    def one(cid: str, at: tuple[int, int]) -> dict[str, Any]:
        c: dict[str, Any] = {"template": r.choice(TEMPLATES), "id": cid, "at": list(at)}
        if r.random() < 0.3:
            c["equipment"] = {"potions": r.randint(1, 2)}
        if r.random() < 0.5:
            c["stats"] = {"weapons": r.sample(MELEE, r.randint(1, 2))}
        return c

    return group(
        [one(f"l{i}", p) for i, p in enumerate(left)],
        [one(f"r{i}", p) for i, p in enumerate(right)],
        max_rounds=r.choice([8, 30]),
        options={"minions": r.random() < 0.3, "brawl-rule": r.random() < 0.8},
        map={"blocked": walls},
    )


def random_encounter(r: random.Random) -> dict[str, Any]:
    shape = r.choice(["one-v-many", "many-v-one", "rhombus", "apart", "apart"])
    if shape == "apart":
        return random_apart(r)
    if shape == "rhombus":
        left, right = [[0, 0], [1, 0]], [[0, 1], [1, -1]]
    else:
        left, right = [[0, 0]], r.sample(RING, r.randint(2, 6))
        if shape == "many-v-one":
            left, right = right, left

    def one(cid: str, at: list[int]) -> dict[str, Any]:
        c = {"template": r.choice(TEMPLATES), "id": cid, "at": at, "facing": r.randrange(6)}
        c["tactic"] = r.choice(["default", "default", "guard", "hold", "cavalry", "ambush", "archer"])
        if r.random() < 0.4:
            c["equipment"] = {"potions": r.randint(1, 3)}
        if r.random() < 0.5:
            c["stats"] = {"weapons": r.sample(MELEE, r.randint(1, 2))}
        return c

    data = group(
        [one(f"l{i}", p) for i, p in enumerate(left)],
        [one(f"r{i}", p) for i, p in enumerate(right)],
        max_rounds=r.choice([5, 12, 30]),
        options={"minions": r.random() < 0.3, "brawl-rule": r.random() < 0.8},
    )
    if r.random() < 0.5:
        data["map"] = {"extra": {"keep_facing": True}}
    return data


def test_random_legal_encounters_replay_face_by_face() -> None:
    r = random.Random(20261202)
    for e in range(24):
        data = random_encounter(r)
        sc = scenario_from_data(data, f"random {e}")
        k = SasGroupKernel(sc.ruleset, sc.state)
        seeds = [(s + 1) * 0x9E3779B97F4A7C15 % 2**64 ^ e for s in range(10)]
        played = sum(_replays(k, sc, seed) for seed in seeds)
        if "blocked" not in data.get("map", {}):
            assert played == len(seeds), f"{data}: handed back"  # nobody moves: nothing to tend
        else:  # a fight handed back: the engine takes it up from the kernel's faces
            assert k.run_seeds(np.array(seeds, np.uint64)).to_json() == k.replay(seeds).to_json(), data


# ----- statistics ---------------------------------------------------------------------------------------


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    p = (k1 + k2) / (n1 + n2)
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= Z999 * sd + 1e-12


def _outcomes(t: Tally, max_rounds: int) -> dict[str, int]:
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    out["nobody standing"] = t.wipeouts
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, max_rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    for s, side in enumerate(t.sides):
        for k in range(len(t.ids) + 1):
            out[f"{side} {k} dead"] = t.side_dead[s].get(k, 0)
            out[f"{side} {k} out"] = t.side_out[s].get(k, 0)
    return out


@pytest.mark.timeout(0 if ENGINE_RUNS > 2_000 else 900)
@pytest.mark.parametrize("name", STATISTICAL)
def test_group_kernel_agrees_with_the_engine(name: str) -> None:
    sc = _scenario(name)
    assert choose_engine(sc, "auto")[0] == "kernel:sas-group"
    kernel = simulate(sc, 100_000, seed=11, engine="kernel", backend=SerialBackend()).tally
    engine = engine_runs(sc.ruleset, sc.state, range(10**6, 10**6 + ENGINE_RUNS))
    assert kernel.runs == 100_000 and engine.runs == ENGINE_RUNS
    oa, ob = _outcomes(kernel, sc.state.max_rounds), _outcomes(engine, sc.state.max_rounds)
    bad = [
        f"{k}: {oa[k]}/{kernel.runs} vs {ob[k]}/{engine.runs}"
        for k in oa
        if not _same(oa[k], kernel.runs, ob[k], engine.runs)
    ]
    assert not bad, f"kernel vs engine frequencies differ: {bad}"
    assert all(w > 0 for w in kernel.wins)
    for got, want in ((kernel.taken, engine.taken), (kernel.wounds, engine.wounds)):
        for g, w in zip(got, want, strict=True):
            assert abs(g / kernel.runs - w / engine.runs) <= 5 * max(1.0, w / engine.runs) / ENGINE_RUNS**0.5


# ----- choosing the kernel ------------------------------------------------------------------------------


def _refusal(data: dict[str, Any]) -> str:
    sc = scenario_from_data(data)
    with pytest.raises(Unsupported) as got:
        SasGroupKernel(sc.ruleset, sc.state)
    return str(got.value)


def test_group_kernel_refuses_what_it_does_not_model() -> None:
    base = GROUPS["pair-on-boss"]

    def variant(side: int, i: int, **kw: Any) -> dict[str, Any]:
        data = copy.deepcopy(base)
        data["sides"][side]["combatants"][i].update(kw)
        return data

    assert "the default tactic only" in _refusal(variant(0, 1, at=[-1, 0], tactic="guard"))
    assert "tactic" in _refusal(variant(0, 0, tactic="defensive"))
    assert "ranged" in _refusal(variant(0, 0, template="goblin-archer"))
    assert "Shield Spell" in _refusal(variant(0, 1, template="mage"))
    assert "Large Creature" in _refusal(variant(1, 0, template="ogre"))
    assert "morale" in _refusal({**base, "options": {"morale": True}})
    assert "map" in _refusal({**base, "map": {"extra": {"underwater": True}}})
    three_sides = copy.deepcopy(base)
    three_sides["sides"].append({"name": "third", "combatants": [_at("goblin", "z", [1, 1])]})
    assert "two sides" in _refusal(three_sides)
    # a duel is the duel kernel's: the group kernel steps aside without a reason of its own
    duel = copy.deepcopy(base)
    duel["sides"][0]["combatants"].pop()
    assert _refusal(duel) == ""
    sc = scenario_from_data(duel)
    assert choose_engine(sc, "auto") == ("kernel:sas-duel", "")


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "sas").glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_group_examples_say_why_the_group_kernel_refuses(path: Path) -> None:
    """Every bundled S&S example moves on the map (and uses more besides): the engine plays it, and the reason
    names what the group kernel does not mirror."""
    sc = load_scenario(str(path))
    engine, why = choose_engine(sc, "auto")
    assert engine == "reference" and "S&S group kernel: " in why


def test_group_kernel_is_chosen_for_a_fight_in_reach() -> None:
    sc = _scenario("ring-of-minions")
    assert choose_engine(sc, "auto") == ("kernel:sas-group", "")
    got = simulate(sc, 2_000, seed=3, engine="auto", backend=SerialBackend())
    assert got.tally.runs == 2_000 and sum(got.tally.wins) + got.tally.draws + got.tally.wipeouts == 2_000
