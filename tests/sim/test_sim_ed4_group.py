"""The ED4 group-melee kernel (numba) against the reference engine, and what it refuses.

Agreement: for each encounter the kernel plays 100,000 fights and the engine 600 (FRACAS_SIM_ENGINE_RUNS=N
for more; each encounter costs the engine 5-15 CPU-seconds per 1,000 fights here); every outcome's frequency
(each side's wins, draws, each combatant's final status, each number of rounds) must pass a two-proportion
test at the 99.9% level. The seeds are fixed, so the test is deterministic. The encounters exercise movement
on the hex grid, the nearest-enemy choice, Harried by four or more attackers and Blindsided (the chapter),
Karma, knockdown, unconsciousness, Recovery tests to revive a friend, fleeing, group Initiative and the
round limit; one plays the core rules alone with Take the Initiative and without wound penalties; the
bundled Mica example adds Silar's crossbow: range, long range, shots into close combat (+1 Defense per
character in the way, a miss striking one of them).

Exactness where dice do not enter: at every turn of 80 engine fights the kernel's choice is the tactic's
command, its Attack test has the engine's step and DN, and the facing afterwards is the engine's
(test_decisions_match_the_tactic).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.dice.exact import ed4_test  # noqa: E402
from fracas.dice.steps import step_table  # noqa: E402
from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel, step_outcomes  # noqa: E402
from fracas.sim.runner import (  # noqa: E402
    LocalBackend,
    Scenario,
    SerialBackend,
    choose_engine,
    engine_runs,
    load_scenario,
    run_seeds,
    scenario_from_data,
    simulate,
)
from fracas.sim.stats import Z999  # noqa: E402

MICA = Path(__file__).resolve().parents[2] / "examples" / "ed4" / "mica-and-the-ghouls.yaml"
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def brawl(max_rounds: int = 12, options: dict | None = None) -> dict:
    """Four heroes (Karma, revive, flee) against six ghouls three hexes away: they close in, crowd round
    (Harried, Blindsided), knock each other down."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "heroes against ghouls",
        "max_rounds": max_rounds,
        "options": options or {},
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0]},
                    {"template": "thrak", "player": True, "at": [0, 1]},
                    {"template": "ulm", "player": True, "at": [-1, 1], "facing": 3},
                    {"template": "bandit", "id": "guide", "player": True, "at": [-1, 0]},
                ],
            },
            {
                "name": "Ghouls",
                "combatants": [
                    {
                        "template": "ghoul",
                        "count": 6,
                        "at": [[3, -1], [3, 0], [3, 1], [4, -1], [4, 0], [2, 2]],
                        "facing": 3,
                    }
                ],
            },
        ],
    }


def lines(n: int, gap: int, max_rounds: int) -> dict:
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": f"{n} against {n}",
        "max_rounds": max_rounds,
        "sides": [
            {
                "name": "West",
                "combatants": [{"template": "bandit", "count": n, "at": [[0, i] for i in range(n)]}],
            },
            {
                "name": "East",
                "combatants": [{"template": "ghoul", "count": n, "at": [[gap, i] for i in range(n)]}],
            },
        ],
    }


def core_scenario(data: dict) -> Scenario:
    """The encounter under the ED4 core rules alone (no chapter: no Harried by numbers, no Blindsided)."""
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    sc = scenario_from_data(data)
    return Scenario(Ed4CoreRuleset(), sc.state, sc.name, sc.source)


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    """The two rates agree (a two-proportion z-test at Z999), where the test is valid: an outcome that the
    smaller sample sees fewer than 5 times on the pooled rate (a tail round of the fight length) is not
    judged, since one fight more or less there is beyond the normal approximation."""
    p = (k1 + k2) / (n1 + n2)
    if p * min(n1, n2) < 5:
        return True
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= Z999 * sd + 1e-12


def _outcomes(t, rounds: int) -> dict[str, int]:  # noqa: ANN001
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead", "fled"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    # the casualties: fights by how many of a side ended dead, out of the fight
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for k in range(len(t.ids) + 1):
            out[f"{side}: {k} dead"] = dead.get(k, 0)
            out[f"{side}: {k} out"] = gone.get(k, 0)
    return out


CASES = {
    "examples/ed4/silar-and-the-griffin.yaml (bow and crossbow at range, Take the Initiative)": lambda: (
        load_scenario(str(MICA.with_name("silar-and-the-griffin.yaml")))
    ),
    "examples/ed4/mica-and-the-ghouls.yaml (Silar shoots into the melee)": lambda: load_scenario(str(MICA)),
    "brawl, whole chapter": lambda: scenario_from_data(brawl()),
    "brawl, core rules, take the initiative, no wound penalties": lambda: core_scenario(
        brawl(options={"take-the-initiative": True, "wound-penalties": False, "group-initiative": False})
    ),
    "5 bandits against 5 ghouls, two hexes apart": lambda: scenario_from_data(lines(5, 2, 10)),
}


@pytest.mark.timeout(0 if ENGINE_RUNS > 600 else 900)
@pytest.mark.parametrize("case", sorted(CASES))
def test_kernel_agrees_with_engine(case: str) -> None:
    sc = CASES[case]()
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed4-group", why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(20261130))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(11, 0, ENGINE_RUNS))
    assert kt.runs == KERNEL_RUNS and et.runs == ENGINE_RUNS
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs)
    ]
    assert not bad, "; ".join(bad)
    # the tallies are consistent: every fight ends once, every combatant has a final status
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert sum(kt.rounds.values()) == kt.runs
    assert all(sum(s.values()) == kt.runs for s in kt.status)
    assert all(sum(h.values()) == kt.runs for h in kt.side_dead + kt.side_out)
    assert sum(kt.dealt) == sum(kt.taken)


def test_step_outcomes_are_exact() -> None:
    """The alias tables sample each test's exact distribution: P(success) at a DN (Rule of One a failure)
    and the mean agree with fracas.dice.exact."""
    table = step_table("ed4")
    for step, dn in ((3, 2), (7, 9), (12, 13), (18, 25)):
        vals, probs = step_outcomes(table[step].dice, table[step].modifier, 1, 2)
        totals, r1 = vals >> 1, (vals & 1).astype(bool)
        p = float(probs[(totals >= dn) & ~r1].sum())
        assert p == pytest.approx(ed4_test(f"step {step}", dn).p_success, abs=1e-12)
    # step 13 with a Karma die (step 4 = d6)
    kd = table[4]
    vals, probs = step_outcomes(table[13].dice + kd.dice, table[13].modifier + kd.modifier, 1, 2)
    p = float(probs[((vals >> 1) >= 15) & ((vals & 1) == 0)].sum())
    assert p == pytest.approx(ed4_test("step 13+step 4", 15).p_success, abs=1e-12)


def test_sampler_matches_its_table() -> None:
    """One word per test: the empirical distribution of many draws is the table's (chi-square-like bound)."""
    from fracas.sim.kernels import ed4_group_core as core

    sc = scenario_from_data(lines(2, 1, 5))
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    off, shift, keep, own, alias = k._tabs
    table = step_table("ed4")
    step = 9
    vals, probs = step_outcomes(table[step].dice, table[step].modifier, 1, 2)
    n = 400_000
    got = core.sample_many(n, np.array([1, 2, 3, 4], dtype=np.uint64), step, off, shift, keep, own, alias)
    for v, p in zip(vals, probs, strict=True):
        if p * n < 50:
            continue
        k_ = int((got == v).sum())
        assert abs(k_ - p * n) <= 4.5 * (p * (1 - p) * n) ** 0.5, (int(v), k_, p * n)


def test_kernel_is_chosen_and_reproducible() -> None:
    sc = scenario_from_data(lines(5, 2, 10))
    assert choose_engine(sc, "auto") == ("kernel:ed4-group", "")
    assert choose_engine(sc, "reference")[0] == "reference"
    one = simulate(sc, 3000, 5, "kernel", SerialBackend())
    two = simulate(sc, 3000, 5, "kernel", LocalBackend(2))
    assert one.tally == two.tally
    # a duel of neighbours stays with the duel kernel; two duellists apart come here
    duel = scenario_from_data(lines(1, 1, 10))
    assert choose_engine(duel, "auto")[0] != "kernel:ed4-group"
    apart = scenario_from_data(lines(1, 3, 10))
    assert choose_engine(apart, "auto") == ("kernel:ed4-group", "")


def _why(data: dict) -> str:
    sc = scenario_from_data(data)
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is None
    return why


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda d: d["sides"][0]["combatants"][3].update(
                equipment={"weapons": ["throwing-axe", "throwing-dagger"]}
            ),
            "more than one thrown weapon: guide",
        ),
        (
            lambda d: d["sides"][0]["combatants"][1].update(combat_options=["aggressive-attack"]),
            "declared combat options (aggressive-attack): thrak",
        ),
        (lambda d: d["sides"][1]["combatants"][0].update(tactic="hold"), "tactic hold"),
        (lambda d: d["sides"][1]["combatants"][0].update(altitude=10, template="griffin"), "flying"),
        (lambda d: d.update(map={"extra": {"impaired": "light"}}), "impaired"),
    ],
)
def test_refuses_what_it_does_not_model(change, reason: str) -> None:  # noqa: ANN001
    data = brawl()
    change(data)
    assert reason in _why(data)


def _kernel_state(k: Ed4GroupKernel, state) -> np.ndarray:  # noqa: ANN001
    from fracas.sim.kernels import ed4_group_core as core

    codes = {"active": core.ACTIVE, "unconscious": core.UNCONSCIOUS, "dead": core.DEAD, "fled": core.FLED}
    st = np.zeros((len(k.ids), core.NST), dtype=np.int64)
    for i, cid in enumerate(k.ids):
        c = state.combatants[cid]
        st[i, core.S_Q], st[i, core.S_R] = c.pos
        st[i, core.S_FACE] = c.facing
        st[i, core.S_STATUS] = codes[c.status]
        st[i, core.S_DMG] = c.counters.get("damage", 0) + c.counters.get("stun", 0)
        st[i, core.S_WND] = c.counters.get("wounds", 0)
        st[i, core.S_DOWN] = 1 if "knocked-down" in c.conditions else 0
        st[i, core.S_KARMA] = c.counters.get("karma", 0)
        st[i, core.S_REC] = c.counters.get("recovery_used", 0)
        st[i, core.S_TRIED] = 1 if c.marks.get("recovery_tried") else 0
        st[i, core.S_FAILED] = 1 if c.marks.get("recovery_failed") else 0
    return st


def test_no_revival_after_a_failed_recovery_test() -> None:
    """p.380: a Recovery test that leaves him unconscious (a revival, or one minute after falling) means an
    hour's wait: the tactic does not revive him again, nor does the kernel (it did while tests were left)."""
    from fracas.sim.kernels import ed4_group_core as core

    data = brawl()
    sc = scenario_from_data(data)
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    state = sc.state.clone()
    heroes = [c for c in state.combatants.values() if c.player]
    me, fallen = heroes[0], heroes[1]
    for c in state.combatants.values():  # the enemies far away, the fallen friend next to me
        if not c.player:
            c.pos = (c.pos[0] + 20, c.pos[1])
    fallen.pos = (me.pos[0] + 1, me.pos[1])
    fallen.status = "unconscious"
    fallen.conditions["knocked-down"] = True
    fallen.counters["damage"] = fallen.stats.unconsciousness
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    index = {cid: i for i, cid in enumerate(k.ids)}
    for failed in (False, True):
        fallen.marks.pop("recovery_failed", None)
        if failed:
            fallen.marks["recovery_failed"] = True
        cmd = controllers[me.tactic].act(state, me, sc.ruleset)
        st = _kernel_state(k, state)
        grid = np.zeros(k._grid_shape, dtype=np.int64)
        for i in range(len(k.ids)):
            if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
                core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
        act, t = core._decide(index[me.id], st, k._cst, k._att, k._pref, k._kuse, k._flee, k._flags, wk, grid)
        assert (cmd.action == "revive") == (not failed)
        assert (act == core.ACT_REVIVE) == (not failed)
        if not failed:
            assert t == index[fallen.id]


@pytest.mark.parametrize("case", ["mica", "brawl"])
def test_decisions_match_the_tactic(case: str) -> None:
    """At every turn of 40 engine fights, the kernel's choice (_decide) is the tactic's command: the action,
    its target, the attack, Karma, and where the path ends; and the first Attack test's step and DN
    (wounds, long range, Harried, knocked down, Blindsided, characters in the way) are the engine's."""
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Rolled
    from fracas.engine.play import Fight
    from fracas.sim.kernels import ed4_group_core as core

    sc = load_scenario(str(MICA)) if case == "mica" else scenario_from_data(brawl())
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    checked = numbers = 0
    for seed in range(40):
        fight = Fight(sc.ruleset, sc.state.clone(), RandomDice(seed), None, [], controllers, seed)
        fight.start()
        for _ in range(100_000):
            if fight.state.ended:
                break
            decision = sc.ruleset.pending(fight.state)
            if decision is None or decision.kind != "act":
                fight.step()
                continue
            state = fight.state
            cmd = fight.auto_command(decision)
            me = index[cmd.actor]
            st = _kernel_state(k, state)
            grid = np.zeros(k._grid_shape, dtype=np.int64)
            for i in range(len(k.ids)):
                if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
                    core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
            act, t = core._decide(me, st, k._cst, k._att, k._pref, k._kuse, k._flee, k._flags, wk, grid)
            path = [tuple(h) for h in cmd.args.get("path") or ()]
            end = (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) if wk[core.W_PATH, 0] else None
            want = {
                "stand-up": core.ACT_STAND,
                "revive": core.ACT_REVIVE,
                "attack": core.ACT_ATTACK,
                "end": core.ACT_END,
            }.get(cmd.action)
            if cmd.action == "run":
                want = core.ACT_FLEE if cmd.args.get("flee") else core.ACT_RUN
            where = f"{case} seed {seed} round {state.round}: {cmd}"
            assert act == want, where
            assert end == (path[-1] if path else None), where
            if cmd.action in ("revive", "attack"):
                assert t == index[cmd.target], where
            if cmd.action == "attack":
                names = [a.name for a in state.combatants[cmd.actor].stats.attacks]
                assert wk[core.W_DEC, 0] == names.index(cmd.args["attack"]), where
                assert bool(wk[core.W_DEC, 1]) == bool(cmd.args.get("karma")), where
            events = fight.submit(cmd)
            if cmd.action == "attack":
                # the first Attack test's step and DN, from the state after the move
                if end is not None:
                    st[me, core.S_Q], st[me, core.S_R] = end
                    st[me, core.S_FACE] = wk[core.W_PATH, 3]
                a = int(wk[core.W_DEC, 0])
                yards = 2 * core._hexd(st[me, 0], st[me, 1], st[t, 0], st[t, 1])
                short = k._att[me, a, core.A_SHORT]
                long_pen = -2 if (not k._att[me, a, core.A_CLOSE] and 0 <= short < yards) else 0
                step, dn = core._attack_numbers(me, t, a, long_pen, st, k._cst, k._att, k._flags, wk)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (step, dn) == (rolled.step, rolled.dn), where
                numbers += 1
                # facing afterwards (features/declaring.face), on the statuses the attack left
                post = _kernel_state(k, fight.state)
                post[:, core.S_FACE] = st[:, core.S_FACE]
                core._face(me, t, post, k._cst)
                got = {cid: int(post[i, core.S_FACE]) for i, cid in enumerate(k.ids)}
                assert got == {cid: c.facing for cid, c in fight.state.combatants.items()}, where
            checked += 1
    assert checked > 500 and numbers > 200


def test_kernel_path_is_the_tactic_path_round_crowds() -> None:
    """core._path_towards (greedy, then the array breadth-first _route) ends where pathing.towards
    does, after as many hexes, on random crowds: some of them on the occupancy grid, some outside it (the
    kernel then looks at every combatant), goals walled in or not."""
    import random

    from fracas.engine.pathing import towards
    from fracas.sim.kernels import ed4_group_core as core

    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        n = rng.randint(2, 120)
        hexes = rng.sample([(q, r) for q in range(-6, 7) for r in range(-6, 7)], n)
        st = np.zeros((n, core.NST), dtype=np.int64)
        flags = np.zeros(core.NFLAG, dtype=np.int64)
        flags[core.F_GQ0] = rng.choice((-30, -3))  # -3: hexes west of q = -3 are off the grid
        flags[core.F_GR0] = -30
        grid = np.zeros((60, 60), dtype=np.int64)
        for i, (q, r) in enumerate(hexes):
            st[i, core.S_Q], st[i, core.S_R] = q, r
            core._grid_set(i, i + 1, st, grid, flags)
        wk = np.zeros((core.NWK, core.ROUTE_CELLS), dtype=np.int64)
        me, goal = 0, rng.randrange(1, n)
        limit = rng.randint(1, 12)
        blocked = set(hexes[1:])
        want = towards(hexes[me], hexes[goal], limit, blocked)
        core._path_towards(
            me, hexes[goal][0], hexes[goal][1], limit, st, n, wk[core.W_PATH], grid, flags,
            wk[core.W_SEEN], wk[core.W_QUEUE],
        )  # fmt: skip
        path = wk[core.W_PATH]
        assert int(path[0]) == len(want)
        if want:
            assert (int(path[1]), int(path[2])) == want[-1]
            before = want[-2] if len(want) > 1 else hexes[me]
            step = (want[-1][0] - before[0], want[-1][1] - before[1])
            assert int(path[3]) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)].index(step)
            checked += 1
        assert not wk[core.W_SEEN].any()  # the search window is left clean
    assert checked > 100
    from fracas.engine import pathing

    assert (core.ROUTE_MARGIN, core.ROUTE_REACH) == (pathing.ROUTE_MARGIN, pathing.ROUTE_REACH)


def blank_field(hexes: list[tuple[int, int]], gq0: int, gr0: int, size: int):  # noqa: ANN201
    """The group kernel's per-fight state with combatant i on ``hexes[i]`` and nothing else set, the flags
    with the occupancy grid's corner (``gq0``, ``gr0``) and an empty ``size`` x ``size`` grid."""
    from fracas.sim.kernels import ed4_group_core as core

    st = np.zeros((len(hexes), core.NST), dtype=np.int64)
    flags = np.zeros(core.NFLAG, dtype=np.int64)
    flags[core.F_GQ0], flags[core.F_GR0] = gq0, gr0
    for i, (q, r) in enumerate(hexes):
        st[i, core.S_Q], st[i, core.S_R] = q, r
    return st, flags, np.zeros((size, size), dtype=np.int64)


def _crowd(rng, n: int, gq0: int):  # noqa: ANN001, ANN202
    """A random crowd on a 13 x 13 patch: positions, two or three sides, statuses, knocked down, facing,
    some without an attack; on an occupancy grid whose west edge is at ``gq0``."""
    from fracas.sim.kernels import ed4_group_core as core

    hexes = rng.sample([(q, r) for q in range(-6, 7) for r in range(-6, 7)], n)
    st, flags, grid = blank_field(hexes, gq0, -30, 60)
    cst = np.zeros((n, core.NCOL), dtype=np.int64)
    for i in range(n):
        st[i, core.S_FACE] = rng.randrange(6)
        st[i, core.S_STATUS] = rng.choice((core.ACTIVE,) * 5 + (core.UNCONSCIOUS, core.DEAD, core.FLED))
        st[i, core.S_DOWN] = 1 if rng.random() < 0.2 else 0
        cst[i, core.SIDE] = rng.randrange(rng.choice((2, 3)))
        cst[i, core.NATT] = 0 if rng.random() < 0.1 else 1
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, cst), st, grid, flags)
    return hexes, st, cst, flags, grid


def test_close_foes_from_the_grid_are_the_scan() -> None:
    """core._close_foes_at (the six hexes round a combatant on the occupancy grid, a scan off its edge)
    counts what core._close_foes (every combatant) counts: foes, foes other than one, one in front."""
    import random

    from fracas.sim.kernels import ed4_group_core as core

    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        n = rng.randint(2, 120)
        _hexes, st, cst, flags, grid = _crowd(rng, n, rng.choice((-30, -3)))
        for _ in range(10):
            t = rng.randrange(n)
            excl = rng.choice((-1, rng.randrange(n)))
            rear = rng.random() < 0.5
            want = core._close_foes(t, excl, cst, st, n, rear)
            assert core._close_foes_at(t, excl, cst, st, n, rear, grid, flags) == want
            checked += want[0] > 0
    assert checked > 300


def test_path_within_a_limit_is_the_path_when_it_gets_there() -> None:
    """core._path_within with the search cut at ``limit`` (what the attack plan asks: can the mover get
    next to the goal this turn?) gets there exactly when core._path_towards does, by the same path."""
    import random

    from fracas.sim.kernels import ed4_group_core as core

    rng = random.Random(7)
    reached = missed = 0
    for _ in range(500):
        n = rng.randint(2, 120)
        hexes, st, _cst, flags, grid = _crowd(rng, n, rng.choice((-30, -3)))
        st[:, core.S_STATUS] = core.ACTIVE  # everyone blocks
        grid[:] = 0
        for i in range(n):
            core._grid_set(i, i + 1, st, grid, flags)
        wk = np.zeros((core.NWK, core.ROUTE_CELLS), dtype=np.int64)
        me, goal = 0, rng.randrange(1, n)
        limit = rng.randint(1, 12)
        gq, gr = hexes[goal]
        path = wk[core.W_PATH]
        core._path_towards(me, gq, gr, limit, st, n, path, grid, flags, wk[core.W_SEEN], wk[core.W_QUEUE])
        full = path.copy()
        path[:] = 0
        core._path_within(
            me, gq, gr, limit, st, n, path, grid, flags, wk[core.W_SEEN], wk[core.W_QUEUE], limit
        )
        gets_there = bool(full[0] > 0 and core._hexd(full[1], full[2], gq, gr) == 1)
        assert bool(path[0] > 0 and core._hexd(path[1], path[2], gq, gr) == 1) == gets_there
        if gets_there:
            assert list(path[:4]) == list(full[:4])
            reached += 1
        else:
            missed += 1
        assert not wk[core.W_SEEN].any()
    assert reached > 100 and missed > 50
