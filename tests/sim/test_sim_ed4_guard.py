"""The ED4 group kernel's ``guard``/``sentinel`` tactics and reserved actions (ed4_group_core._choose) against
the reference engine.

Exactness where no dice enter (test_guard_decisions_match_the_engine): along 30 engine fights, at every
decision of a guard (its turn: stand up, attack whom with what and Karma, reserve; a reserved action's
trigger: attack the attacker, from where, or let it pass) the kernel decides as the tactic does, and at every
attack command the reserver the kernel finds interrupting it is the engine's (or none); the reserved attack's
step and DN (+2, p.375) are the engine's.

Statistics: kernel 100,000 fights, engine 600 (FRACAS_SIM_ENGINE_RUNS=N for more), every outcome's
frequency within the 99.9% two-proportion test (test_sim_ed4_group's helpers).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from test_sim_ed4_group import _kernel_state, _outcomes, _same  # noqa: E402

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel  # noqa: E402
from fracas.sim.runner import engine_runs, load_scenario, run_seeds, scenario_from_data  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def guards(max_rounds: int = 30) -> dict:
    """Herekar guards Tairin (ED4 p.375) with Silar as a sentinel (his crossbow, from where he stands) and
    Ulm guarding far behind (he lets the attacks he cannot reach pass), against three cadaver men."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "guards",
        "max_rounds": max_rounds,
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "tactic": "guard", "at": [0, 0]},
                    {"template": "mica", "id": "tairin", "player": True, "at": [1, -1]},
                    {"template": "silar", "player": True, "tactic": "sentinel", "at": [-2, 1]},
                    {"template": "ulm", "player": True, "tactic": "guard", "at": [-12, 3]},
                ],
            },
            {
                "name": "Cadaver men",
                "combatants": [{"template": "cadaver-man", "count": 3, "at": [[6, -3], [6, -2], [7, -1]]}],
            },
        ],
    }


def throwers(max_rounds: int = 30) -> dict:
    """Herekar guards Kira (short sword and dagger) and Tomas (a dagger only: thrown, it is fetched, p.392)
    against three ghouls: throws, scatters, pick-ups, runs to the weapon, attacks after moving to it."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "throwers",
        "max_rounds": max_rounds,
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "tactic": "guard", "at": [0, 0]},
                    {"template": "kira", "player": True, "at": [1, -1]},
                    {"template": "tomas", "player": True, "at": [-2, 1]},
                ],
            },
            {
                "name": "Ghouls",
                "combatants": [{"template": "ghoul", "count": 3, "at": [[7, -3], [7, -2], [8, -1]]}],
            },
        ],
    }


def _state(k: Ed4GroupKernel, state) -> np.ndarray:  # noqa: ANN001
    """The kernel's state of an engine state, with the reserved actions, the triggers let pass, the thrown
    weapons and the hexes moved this round."""
    from fracas.sim.kernels import ed4_group_core as core

    st = _kernel_state(k, state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    for i, cid in enumerate(k.ids):
        c = state.combatants[cid]
        names = [a.name for a in c.stats.attacks]
        lying = c.marks.get("thrown_to") or {}
        if lying:
            ((weapon, at),) = lying.items()
            st[i, core.S_LIE] = 1 + next(j for j, a in enumerate(c.stats.attacks) if a.kind == "thrown")
            st[i, core.S_LYQ], st[i, core.S_LYR] = at
        for name in c.marks.get("thrown_away") or ():
            st[i, core.S_GONE] |= 1 << names.index(name)
        moved = c.marks.get("moved")
        st[i, core.S_MOVED] = moved[1] if moved is not None and moved[0] == state.round else 0
    for q, rid in enumerate(state.extra.get("reserved") or {}):
        st[index[rid], core.S_RESV] = q + 1
    for i, cid in enumerate(k.ids):
        passed = state.combatants[cid].marks.get("passed")
        if passed is not None:
            st[i, core.S_PASS] = (passed[1] << 11) | (index[passed[0]] + 1)
    return st


def _grid(k: Ed4GroupKernel, st: np.ndarray) -> np.ndarray:
    from fracas.sim.kernels import ed4_group_core as core

    grid = np.zeros(k._grid_shape, dtype=np.int64)
    for i in range(len(k.ids)):
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
    return grid


@pytest.mark.parametrize("case", ["guards", "throwers"])
def test_decisions_match_the_engine(case: str) -> None:  # noqa: C901, PLR0912, PLR0915
    from fracas.dice.source import RandomDice
    from fracas.engine.events import ExtraSet, Rolled
    from fracas.engine.play import Fight
    from fracas.sim.kernels import ed4_group_core as core

    sc = scenario_from_data(guards() if case == "guards" else throwers())
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    from fracas.rules.ed4.ruleset import Ed4Ruleset
    from fracas.sim.kernels.ed4_group import usable_attacks

    chapter = isinstance(sc.ruleset, Ed4Ruleset)  # the attacks the kernel lists (charging ones left out)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    seen = dict.fromkeys(("guard", "reserve", "react", "pass", "trigger", "numbers", "default"), 0)
    seen.update(dict.fromkeys(("pick-up", "move", "run", "none", "lands"), 0))
    for seed in range(40):
        fight = Fight(sc.ruleset, sc.state.clone(), RandomDice(seed), None, [], controllers, seed)
        fight.start()
        for _ in range(100_000):
            if fight.state.ended:
                break
            state = fight.state
            decision = sc.ruleset.pending(state)
            if decision is None or decision.kind not in ("act", "react"):
                fight.step()
                continue
            cmd = fight.auto_command(decision)
            me = index[cmd.actor]
            st = _state(k, state)
            grid = _grid(k, st)
            where = f"seed {seed} round {state.round}: {cmd}"
            wk[core.W_RES, 0] = int(st[:, core.S_RESV].max())
            path = [tuple(h) for h in cmd.args.get("path") or ()]
            if decision.kind == "react":
                x = index[state.extra["interrupt"]["actor"]]
                mv = k._flags[core.F_DOWN_MV] if st[me, core.S_DOWN] else k._cst[me, core.MV]
                mv = max(0, mv - st[me, core.S_MOVED])
                # fmt: off
                a = core._plan(me, x, mv, st, k._cst, k._att, k._pref, k._flags, len(k.ids), wk[core.W_PATH],
                               grid, wk[core.W_SEEN], wk[core.W_QUEUE])
                # fmt: on
                assert (a >= 0) == (cmd.action == "attack"), where
                seen["pass" if a < 0 else "react"] += 1
                if a >= 0:
                    core._attack_choice(me, x, a, st, k._cst, k._kuse, k._flags, wk[core.W_DEC])
            else:
                weapons_left = k._cst[me, core.WEAPONS] & ~st[me, core.S_GONE]
                if st[me, core.S_LIE] and not weapons_left and not st[me, core.S_DOWN]:
                    # the thrower goes for its weapon (chapter_tactics.fetch_thrown)
                    before = st[me].copy()
                    ran = core._fetch(me, st, k._cst, k._att, k._flags, wk, grid)
                    if cmd.action == "run":
                        assert ran and (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) == path[-1], where
                    elif cmd.action == "move":
                        assert not ran and st[me, core.S_MOVED] == before[core.S_MOVED] + len(path), where
                        assert (st[me, core.S_Q], st[me, core.S_R]) == path[-1] and not st[me, core.S_LIE], (
                            where
                        )
                    elif cmd.action == "pick-up":
                        assert not ran and st[me, core.S_MOVED] == before[core.S_MOVED], where
                        assert not st[me, core.S_LIE] and not st[me, core.S_GONE], where
                    else:
                        assert not ran and st[me, core.S_LIE] and st[me, core.S_Q] == before[core.S_Q], where
                    seen[cmd.action if cmd.action in ("run", "move", "pick-up") else "none"] += 1
                    if cmd.action in ("run", "move", "pick-up"):
                        fight.submit(cmd)
                        continue
                if k._cst[me, core.TACTIC] == core.T_DEFAULT:
                    act, t = core._decide(
                        me, st, k._cst, k._att, k._pref, k._kuse, k._flee, k._flags, wk, grid
                    )
                    want = {"stand-up": core.ACT_STAND, "revive": core.ACT_REVIVE, "attack": core.ACT_ATTACK}
                    want["run"] = core.ACT_FLEE if cmd.args.get("flee") else core.ACT_RUN
                    assert act == want.get(cmd.action, core.ACT_END), where
                    end = (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) if wk[core.W_PATH, 0] else None
                    assert end == (path[-1] if path else None), where
                    if cmd.action in ("revive", "attack"):
                        assert t == index[cmd.target], where
                    seen["default"] += 1
                else:
                    act, t = core._guard_decide(me, st, k._cst, k._att, k._pref, k._kuse, k._flags, wk, grid)
                    want = {
                        "stand-up": core.ACT_STAND,
                        "attack": core.ACT_ATTACK,
                        "reserve": core.ACT_RESERVE,
                    }
                    assert act == want.get(cmd.action, core.ACT_END), where
                    seen["guard"] += 1
                    seen["reserve"] += act == core.ACT_RESERVE
                    if cmd.action == "attack":
                        assert t == index[cmd.target], where
            if cmd.action == "attack":
                end = (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) if wk[core.W_PATH, 0] else None
                names = [a.name for a in usable_attacks(state.combatants[cmd.actor].stats, chapter)]
                assert wk[core.W_DEC, 0] == names.index(cmd.args["attack"]), where
                assert bool(wk[core.W_DEC, 1]) == bool(cmd.args.get("karma")), where
                assert end == (path[-1] if path else None), where
            events = fight.submit(cmd)
            thrown = (fight.state.combatants[cmd.actor].marks.get("thrown_to") or {}).values()
            kinds = {a.name: a.kind for a in state.combatants[cmd.actor].stats.attacks}
            if cmd.action == "attack" and kinds[cmd.args["attack"]] == "thrown":
                # where the weapon lies: the target's hex after a hit (else where it struck or scattered)
                rolled = [e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack")]
                if rolled and rolled[-1].success:  # (no test: a reserved action interrupted it)
                    assert list(thrown) == [list(fight.state.combatants[cmd.target].pos)], where
                    seen["lands"] += 1
            if cmd.action == "attack" and decision.kind == "act":
                by = next(
                    (e.value["by"] for e in events if isinstance(e, ExtraSet) and e.key == "interrupt"), None
                )
                r = core._triggered(me, index[cmd.target], state.round, st, k._cst)
                assert r == (index[by] if by is not None else -1), where
                seen["trigger"] += by is not None
            if cmd.action == "attack" and decision.kind == "react":
                t = index[cmd.target]
                if path:
                    st[me, core.S_Q], st[me, core.S_R] = path[-1]
                    st[me, core.S_FACE] = wk[core.W_PATH, 3]
                st[me, core.S_REACT] = 1
                a = int(wk[core.W_DEC, 0])
                yards = 2 * core._hexd(st[me, 0], st[me, 1], st[t, 0], st[t, 1])
                short = k._att[me, a, core.A_SHORT]
                long_pen = -2 if (not k._att[me, a, core.A_CLOSE] and 0 <= short < yards) else 0
                step, dn = core._attack_numbers(me, t, a, long_pen, st, k._cst, k._att, k._flags, wk)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (step, dn) == (rolled.step, rolled.dn), where
                seen["numbers"] += 1
    if case == "guards":
        assert seen["guard"] > 200 and seen["reserve"] > 40, seen
        assert seen["react"] > 20 and seen["pass"] > 5 and seen["trigger"] > 20, seen
    else:
        assert seen["pick-up"] > 10 and seen["move"] > 1 and seen["run"] > 10 and seen["lands"] > 0, seen


CASES = {
    "guards (guard, sentinel with a crossbow)": lambda: scenario_from_data(guards()),
    "throwers (a guard, daggers thrown, scattered, fetched)": lambda: scenario_from_data(throwers()),
    "examples/ed4/herekar-guards-tairin.yaml (guard, Earth Darts, a dagger)": lambda: load_scenario(
        str(Path(__file__).resolve().parents[2] / "examples" / "ed4" / "herekar-guards-tairin.yaml")
    ),
}


@pytest.mark.timeout(0 if ENGINE_RUNS > 600 else 900)
@pytest.mark.parametrize("case", sorted(CASES))
def test_guard_kernel_agrees_with_engine(case: str) -> None:
    sc = CASES[case]()
    kernel, why = find_kernel(sc.ruleset, sc.state)
    assert kernel is not None and kernel.name == "ed4-group", why
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(20261202))
    et = engine_runs(sc.ruleset, sc.state, run_seeds(12, 0, ENGINE_RUNS))
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs)
    ]
    assert not bad, "; ".join(bad)
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert sum(kt.dealt) == sum(kt.taken)
