"""The ED4 group kernel on the battle map and in the dark (kernels/ed4_group_senses.py) against the engine.

- Paths round the map's blocked hexes: core._path_towards ends where pathing.towards does, with the walls
  and the crowd together as the blocked hexes (test_paths_go_round_blocked_hexes).
- Exactness where no dice enter: at every turn of engine fights of the encounters below, the kernel's
  choice (core._decide) is the default tactic's command (action, target, attack, Karma, where the path
  ends) and its first Attack test has the engine's step and DN (test_decisions_match_the_tactic_on_maps).
- Statistics: for each encounter the kernel's 100,000 fights and the engine's 600 (FRACAS_SIM_ENGINE_RUNS)
  agree on every outcome (wins, draws, statuses, rounds, casualties) at the 99.9% level.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from test_sim_ed4_group import _outcomes, _same  # noqa: E402

from fracas.sim.kernels import ed4_group_core as core  # noqa: E402
from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel  # noqa: E402
from fracas.sim.runner import Scenario, engine_runs, run_seeds, scenario_from_data  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def wall(max_rounds: int = 12) -> dict:
    """Three heroes and four ghouls with a wall of blocked hexes between them, open at both ends: the
    ghouls go round it (pathing.route), the heroes wait or meet them at its ends."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "a wall between them",
        "max_rounds": max_rounds,
        "map": {"blocked": [[2, -2], [2, -1], [2, 0], [2, 1], [2, 2], [1, 3]]},
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0]},
                    {"template": "thrak", "player": True, "at": [0, 1]},
                    {"template": "bandit", "id": "guide", "player": True, "at": [-1, 0]},
                ],
            },
            {
                "name": "Ghouls",
                "combatants": [
                    {"template": "ghoul", "count": 4, "at": [[4, -1], [4, 0], [4, 1], [5, -1]], "facing": 3}
                ],
            },
        ],
    }


MAPS = {"wall": lambda: scenario_from_data(wall())}


def kernel_state(k: Ed4GroupKernel, state) -> np.ndarray:  # noqa: ANN001
    """The kernel's per-fight state for an engine state."""
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


def kernel_grid(k: Ed4GroupKernel, st: np.ndarray) -> np.ndarray:
    grid = k._grid0.copy()
    for i in range(len(k.ids)):
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
    return grid


def test_paths_go_round_blocked_hexes() -> None:
    """core._path_towards on an occupancy grid holding walls (G_BLOCKED) and a crowd ends where
    pathing.towards does with both as the blocked hexes, after as many hexes, facing the last step."""
    from fracas.engine.pathing import towards

    rng = random.Random(11)
    checked = 0
    for _ in range(300):
        cells = rng.sample([(q, r) for q in range(-7, 8) for r in range(-7, 8)], rng.randint(10, 110))
        n = rng.randint(2, min(20, len(cells) - 1))
        hexes, walls = cells[:n], cells[n:]
        st = np.zeros((n, core.NST), dtype=np.int64)
        flags = np.zeros(core.NFLAG, dtype=np.int64)
        flags[core.F_GQ0], flags[core.F_GR0] = -40, -40
        grid = np.zeros((80, 80), dtype=np.int64)
        for q, r in walls:
            grid[q + 40, r + 40] = core.G_BLOCKED
        for i, (q, r) in enumerate(hexes):
            st[i, core.S_Q], st[i, core.S_R] = q, r
            core._grid_set(i, i + 1, st, grid, flags)
        wk = np.zeros((core.NWK, core.ROUTE_CELLS), dtype=np.int64)
        goal = hexes[rng.randrange(1, n)]
        limit = rng.randint(1, 14)
        want = towards(hexes[0], goal, limit, set(hexes[1:]) | set(walls))
        path = wk[core.W_PATH]
        core._path_towards(
            0, goal[0], goal[1], limit, st, n, path, grid, flags, wk[core.W_SEEN], wk[core.W_QUEUE]
        )
        assert int(path[0]) == len(want)
        if want:
            assert (int(path[1]), int(path[2])) == want[-1]
        # the walls change the way (or whether there is one) often enough to be tested
        checked += want != towards(hexes[0], goal, limit, set(hexes[1:]))
        assert not wk[core.W_SEEN].any()
    assert checked > 100


@pytest.mark.parametrize("case", sorted(MAPS))
def test_decisions_match_the_tactic_on_maps(case: str) -> None:
    """At every turn of 30 engine fights the kernel decides as the tactic does, and its Attack test has the
    engine's step and DN."""
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Rolled
    from fracas.engine.play import Fight

    sc = MAPS[case]()
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    checked = numbers = 0
    for seed in range(30):
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
            st = kernel_state(k, state)
            grid = kernel_grid(k, st)
            act, t = core._decide(me, st, k._cst, k._att, k._pref, k._kuse, k._flee, k._flags, wk, grid)
            path = [tuple(h) for h in cmd.args.get("path") or ()]
            end = (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) if wk[core.W_PATH, 0] else None
            want = {"stand-up": core.ACT_STAND, "revive": core.ACT_REVIVE, "attack": core.ACT_ATTACK}
            want_act = want.get(cmd.action, core.ACT_END)
            if cmd.action == "run":
                want_act = core.ACT_FLEE if cmd.args.get("flee") else core.ACT_RUN
            where = f"{case} seed {seed} round {state.round}: {cmd}"
            assert act == want_act, where
            assert end == (path[-1] if path else None), where
            if cmd.action in ("revive", "attack"):
                assert t == index[cmd.target], where
            if cmd.action == "attack":
                names = [a.name for a in state.combatants[cmd.actor].stats.attacks]
                assert wk[core.W_DEC, 0] == names.index(cmd.args["attack"]), where
                assert bool(wk[core.W_DEC, 1]) == bool(cmd.args.get("karma")), where
            events = fight.submit(cmd)
            if cmd.action == "attack":
                if end is not None:
                    core._grid_set(me, 0, st, grid, k._flags)
                    st[me, core.S_Q], st[me, core.S_R] = end
                    st[me, core.S_FACE] = wk[core.W_PATH, 3]
                    core._regrid(me, st, k._cst, grid, k._flags)
                a = int(wk[core.W_DEC, 0])
                yards = 2 * core._hexd(st[me, 0], st[me, 1], st[t, 0], st[t, 1])
                short = k._att[me, a, core.A_SHORT]
                long_pen = -2 if (not k._att[me, a, core.A_CLOSE] and 0 <= short < yards) else 0
                step, dn = core._attack_numbers(me, t, a, long_pen, st, k._cst, k._att, k._flags, wk)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (step, dn) == (rolled.step, rolled.dn), where
                numbers += 1
            checked += 1
    assert checked > 200 and numbers > 100


@pytest.mark.parametrize("case", sorted(MAPS))
def test_kernel_agrees_with_engine_on_maps(case: str) -> None:
    sc: Scenario = MAPS[case]()
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed4-group", why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(20261202))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(13, 0, ENGINE_RUNS))
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs)
    ]
    assert not bad, "; ".join(bad)
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert sum(kt.dealt) == sum(kt.taken)
