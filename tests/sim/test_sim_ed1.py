"""The ED1 kernel (``ed1-group``) against the reference engine, and what it refuses.

Exactness where no dice enter (test_decisions_match_the_tactic): at every declaration and every turn of
engine fights of the bundled Thom Hammerblade example and of a brawl (Karma, a missile, creatures with two
attacks, retreats), the kernel's choice is Ed1Tactic's (the declared action and target; the action, target,
attack, path and Karma), and its Attack test has the engine's step and DN (Wounds - 1, long range, a
changed declaration +2, knocked down -3).

Statistics (test_kernel_agrees_with_engine): the kernel's 20,000 fights and the engine's 800
(FRACAS_SIM_ENGINE_RUNS=N for more) agree on every outcome's frequency (each side's wins, draws, each
combatant's final status, each number of rounds, the casualties) by a two-proportion test at the 99.9%
level; the seeds are fixed. The same two checks run on random legal encounters (random_encounter).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from fracas.dice.exact import step_distribution
from fracas.sim.kernels import find_kernel
from fracas.sim.kernels.ed1_group import Ed1GroupKernel, fight_from_state
from fracas.sim.runner import engine_runs, load_scenario, run_seeds, scenario_from_data
from fracas.sim.stats import Z999

THOM = Path(__file__).resolve().parents[2] / "examples" / "ed1" / "thom-hammerblade.yaml"
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 800))
KERNEL_RUNS = 20_000

ARCHER = {
    "kind": "character", "dexterity": 14, "strength": 11, "toughness": 11, "perception": 13,
    "willpower": 10, "charisma": 10, "movement": 26, "full_movement": 52, "physical_armor": 3,
    "attacks": [
        {"name": "Short bow", "kind": "missile", "step": 10, "damage": 7, "range": [2, 30, 60]},
        {"name": "Dagger", "kind": "melee", "step": 7, "damage": 6},
    ],
}  # fmt: skip


def brawl() -> dict:
    """Thom and an archer against two ork raiders and a creature that attacks twice, some hexes apart."""
    return {
        "version": 1,
        "ruleset": "ed1",
        "name": "ED1 brawl",
        "max_rounds": 12,
        "sides": [
            {
                "name": "Wardens",
                "combatants": [
                    {"template": "thom-hammerblade", "player": True, "at": [0, 0]},
                    {"name": "Archer", "id": "archer", "at": [-3, 1], "stats": ARCHER},
                ],
            },
            {
                "name": "Raiders",
                "combatants": [
                    {"template": "ork-raider", "count": 2, "at": [[6, -1], [6, 1]]},
                    {
                        "name": "Clawed thing",
                        "id": "clawed",
                        "at": [8, 0],
                        "stats": {
                            "kind": "creature", "dexterity": 12, "strength": 12, "toughness": 12,
                            "perception": 9, "willpower": 8, "charisma": 5, "movement": 20,
                            "physical_armor": 2, "actions": 2,
                            "attacks": [{"name": "Claws", "kind": "natural", "step": 8, "damage": 8}],
                        },
                    },
                ],
            },
        ],
    }  # fmt: skip


CASES = {
    "thom": lambda: load_scenario(str(THOM)),
    "brawl": lambda: scenario_from_data(brawl()),
    "riders": lambda: load_scenario(str(THOM.with_name("ork-rider-skirmish.yaml"))),
    "guard and hold": lambda: scenario_from_data(guard_and_hold()),
}


def guard_and_hold() -> dict:
    """The brawl with Thom under the ``guard`` tactic (he holds his ground, strikes what he can reach
    without moving, else reserves his action to Initiative 1) and the clawed thing under ``hold`` (it does
    nothing)."""
    data = brawl()
    data["sides"][0]["combatants"][0]["tactic"] = "guard"
    data["sides"][1]["combatants"][1]["tactic"] = "hold"
    return data


def _same(k1: int, n1: int, k2: int, n2: int, z: float = Z999) -> bool:
    """A two-proportion z-test at ``z`` (Z999: the 99.9% level), where valid (5 expected in the smaller
    sample)."""
    p = (k1 + k2) / (n1 + n2)
    if p * min(n1, n2) < 5:
        return True
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= z * sd + 1e-12


def _outcomes(t, rounds: int) -> dict[str, int]:  # noqa: ANN001
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead", "fled"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for k in range(len(t.ids) + 1):
            out[f"{side}: {k} dead"] = dead.get(k, 0)
            out[f"{side}: {k} out"] = gone.get(k, 0)
    return out


def test_the_bundled_examples_take_the_kernel_or_say_why() -> None:
    sc = load_scenario(str(THOM))
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed1-group", why
    rider = load_scenario(str(THOM.with_name("ork-rider-skirmish.yaml")))
    kernel, why = find_kernel(rider.ruleset, rider.state)
    assert kernel is not None and kernel.name == "ed1-group", why


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(options={"split-movement": True}), "split-movement"),
    ],
)
def test_refuses_what_it_does_not_model(change, reason: str) -> None:  # noqa: ANN001
    data = brawl()
    change(data)
    sc = scenario_from_data(data)
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is None and reason in why


def test_its_step_tests_are_the_ed1_table() -> None:
    """The kernel's test outcomes are the ED1 Step table's exact distribution (fracas.dice.exact)."""
    k = Ed1GroupKernel(*(lambda s: (s.ruleset, s.state))(load_scenario(str(THOM))))
    for step in (1, 3, 9, 14, 25):
        t = k._test(step)
        want = step_distribution(step, "ed1")
        cum = 0.0
        got: dict[int, float] = {}
        for total, c in zip(t.totals, t.cum, strict=True):
            got[total] = got.get(total, 0.0) + c - cum
            cum = c
        mean = sum(v * p for v, p in got.items())
        assert mean == pytest.approx(float(want.mean), rel=1e-9), step


def _face_by_face(sc, seeds: range, name: str) -> tuple[int, int, int, set[str]]:  # noqa: ANN001
    """Plays engine fights of ``sc`` and checks, at every declaration and turn, that the kernel's choice is
    the tactic's command and that its first Attack test's step and DN are the engine's. Returns the turns,
    Attack tests and declarations checked, and the kinds of command seen."""
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Rolled
    from fracas.engine.play import Fight

    k = Ed1GroupKernel(sc.ruleset, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = sc.ruleset.tactics()
    checked = numbers = declared = 0
    kinds: set[str] = set()
    for seed in seeds:
        fight = Fight(sc.ruleset, sc.state.clone(), RandomDice(seed), None, [], controllers, seed)
        fight.start()
        for _ in range(100_000):
            if fight.state.ended:
                break
            decision = sc.ruleset.pending(fight.state)
            if decision is None or decision.kind not in ("act", "declare"):
                fight.step()
                continue
            state = fight.state
            cmd = fight.auto_command(decision)
            me = index[cmd.actor]
            f = fight_from_state(k, state, random.Random(0))
            where = f"{name} seed {seed} round {state.round}: {cmd}"
            if decision.kind == "declare":
                f._declare()
                opts = cmd.args.get("options") or ()
                want = cmd.args.get("action")
                if want == "run" and "retreat" in opts:
                    want = "retreat"
                assert f.decl[me] == (want, index.get(cmd.target or "", -1), "charge" in opts), where
                declared += 1
                fight.submit(cmd)
                continue
            got = f._choose(me)
            kinds.add(
                cmd.action
                + (" flee" if cmd.args.get("flee") else "")
                + (" charge" if cmd.args.get("charge") else "")
            )
            assert got[0] == cmd.action, where
            if cmd.action == "reserve":
                assert got[1] == cmd.args["initiative"], where
            path = [tuple(h) for h in cmd.args.get("path") or ()]
            if cmd.action == "run":
                assert (list(got[1]), got[2]) == (path, bool(cmd.args.get("flee"))), where
            if cmd.action == "attack":
                _, t, a, kpath, karma, plus, charge = got
                assert (t, a.name, list(kpath), karma, charge) == (
                    index[cmd.target],
                    cmd.args["attack"],
                    path,
                    bool(cmd.args.get("karma")),
                    bool(cmd.args.get("charge")),
                ), where
                if kpath:
                    f.pos[me] = kpath[-1]
                step, dn, _ = f._attack_numbers(me, t, a, plus)
            events = fight.submit(cmd)
            if cmd.action == "attack":
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (max(step, 1), dn) == (rolled.step, rolled.dn), where
                numbers += 1
            checked += 1
    return checked, numbers, declared, kinds


@pytest.mark.parametrize("case", sorted(CASES))
def test_decisions_match_the_tactic(case: str) -> None:
    """Declarations and turns of 60 engine fights: the kernel's choice is the tactic's command, and its
    first Attack test's step and DN are the engine's."""
    checked, numbers, declared, kinds = _face_by_face(CASES[case](), range(60), case)
    assert checked > 300 and numbers > 150 and declared > 300
    if case == "brawl":
        assert {"attack", "stand-up", "run"} <= kinds, kinds
    if case == "riders":
        assert {"attack charge", "reserve"} <= kinds, kinds
    if case == "guard and hold":
        assert {"attack", "reserve", "end"} <= kinds, kinds


TEMPLATES = (
    "ork-raider",
    "ork-rider",
    "thom-hammerblade",
    "bog-gob",
    "war-horse",
    "espagra",
    "spectral-dancer",
)


def random_encounter(seed: int) -> dict:
    """A random legal ED1 encounter the kernel takes: two or three sides of one to three bundled templates
    each (characters, riders, creatures, a flier on the ground or in the air, a spell-casting creature,
    some hidden) under the default, guard or hold tactic, on free hexes within 6 of the origin, a map with
    blocked hexes, cover and darkness, and the optional rules drawn on or off."""
    rnd = random.Random(seed)
    taken: set[tuple[int, int]] = set()

    def free() -> list[int]:
        while True:
            h = (rnd.randint(-6, 6), rnd.randint(-6, 6))
            if h not in taken:
                taken.add(h)
                return list(h)

    sides = []
    for s in range(rnd.choice((2, 2, 3))):
        combatants = []
        for c in range(rnd.randint(1, 3)):
            entry = {"template": rnd.choice(TEMPLATES), "id": f"s{s}c{c}", "at": free()}
            entry["tactic"] = rnd.choice(("default", "default", "default", "guard", "hold"))
            if entry["template"] == "espagra":  # a flier, on the ground or in the air
                entry["altitude"] = rnd.choice((0, 0, 4, 10))
            if rnd.random() < 0.15:  # unseen by the other side's tactics until it attacks
                entry["hidden"] = True
            if rnd.random() < 0.3:
                entry["player"] = True
            combatants.append(entry)
        sides.append({"name": f"Side {s}", "combatants": combatants})
    options = {
        o: rnd.random() < 0.5
        for o in ("group-initiative", "wound-penalties", "armor-defeating-hits", "charge-damage")
    }
    name = f"random ED1 encounter {seed}"
    # the map: blocked hexes (paths go round them); cover and darkness, which the ED1 rules held ignore
    game_map = {
        "blocked": [free() for _ in range(rnd.randint(0, 4))],
        "cover": [free() for _ in range(rnd.randint(0, 2))],
        "light": rnd.choice(("bright", "bright", "dim", "full-darkness")),
    }
    return {
        "version": 1, "ruleset": "ed1", "name": name, "max_rounds": rnd.randint(3, 12),
        "options": options, "sides": sides, "map": game_map,
    }  # fmt: skip


@pytest.mark.parametrize("seed", [*range(12), 103])
def test_random_encounters_decide_as_the_engine(seed: int) -> None:
    """Random legal encounters (random_encounter): the kernel takes each, and at every declaration and turn
    of 8 engine fights its choice and Attack test numbers are the engine's (103: espagras in the air)."""
    sc = scenario_from_data(random_encounter(seed))
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed1-group", why
    checked, _, declared, _ = _face_by_face(sc, range(8), f"random {seed}")
    assert checked > 0 and declared > 0


@pytest.mark.parametrize("seed", range(4))
def test_random_encounters_agree_with_engine(seed: int) -> None:
    """Random legal encounters: the kernel's 20,000 fights and the engine's 400 agree on every side's wins,
    the draws, each number of rounds and the casualties, at the 99.9% level for the encounter's outcomes
    taken together (each of its m outcomes at 1 - 0.001/m, Bonferroni: a random encounter has some forty,
    and forty tests at 99.9% each would fail a right kernel about one time in twenty-five)."""
    from statistics import NormalDist

    sc = scenario_from_data(random_encounter(100 + seed))
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None, why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(seed))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(13, seed, 400))
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    z = NormalDist().inv_cdf(1 - 0.0005 / len(ko))
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs, z)
    ]
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("case", sorted(CASES))
def test_kernel_agrees_with_engine(case: str) -> None:
    sc = CASES[case]()
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed1-group", why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(20261202))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(11, 0, ENGINE_RUNS))
    assert kt.runs == KERNEL_RUNS and et.runs == ENGINE_RUNS
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs)
    ]
    assert not bad, "; ".join(bad)
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert sum(kt.rounds.values()) == kt.runs
    assert all(sum(s.values()) == kt.runs for s in kt.status)
    assert sum(kt.dealt) == sum(kt.taken)
    # the damage and Wounds per fight agree too (means within 4 standard errors of the engine's)
    for i, cid in enumerate(kt.ids):
        assert kt.dealt[i] / kt.runs == pytest.approx(et.dealt[i] / et.runs, rel=0.15, abs=1.0), cid
