"""The ED4 group kernel on entangling weapons, Attacking to Stun and thrown weapons (ED4 p.383, p.391-393),
against the reference engine.

Exactness where no dice enter (test_decisions_match_the_engine): at every turn of engine fights of the
bundled slavers-nets example and of a raid (below), the kernel's choice is the engine's command (breaking
free of a whip or a net, going for a thrown weapon, or the tactic's own choice with the Movement left);
the Attack test's step and DN (Harried by Stun damage, by the entanglement and by numbers) and the
break-free test's step and DN (a blade cutting free, Wounds, knocked down, Harried but not by the
entanglement) are the engine's.

Where a missed throw lands (test_a_missed_throw_lands_where_the_engine_would): the kernel's landings
against the exact odds of ranged.scatter and scatter_hex.

Agreement (test_kernel_agrees_with_engine): the kernel's 50,000 fights and the engine's 500
(FRACAS_SIM_ENGINE_RUNS=N for more) agree on every outcome at the 99.9% level, as in test_sim_ed4_group.py,
on slavers-nets, the raid and herekar-guards-tairin (Maloren's thrown dagger, then his spells alone).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel  # noqa: E402
from fracas.sim.runner import engine_runs, load_scenario, run_seeds, scenario_from_data  # noqa: E402
from fracas.sim.stats import Z999  # noqa: E402

NETS = Path(__file__).resolve().parents[2] / "examples" / "ed4" / "slavers-nets.yaml"
ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 500))
KERNEL_RUNS = 50_000


def raid() -> dict:
    """Slavers with whips (one Attacking to Stun), a bola and a net (Attacking to Stun with his sword)
    against Mica and Tomas (a dagger he may throw and must then fetch); a ghoul (immune to Stun damage) of
    its own side joins in. About 35% Travellers, 59% Slavers, 6% Ghoul."""

    def bandit(cid: str, weapons: list[str], at: list[int], stun: bool = False) -> dict:
        entry = {"template": "bandit", "id": cid, "equipment": {"weapons": weapons}, "at": at}
        return {**entry, "combat_options": ["attack-to-stun"]} if stun else entry

    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "slavers' raid",
        "max_rounds": 25,
        "sides": [
            {
                "name": "Travellers",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0]},
                    {"template": "tomas", "player": True, "at": [-1, 1]},
                ],
            },
            {
                "name": "Slavers",
                "combatants": [
                    bandit("chief", ["whip"], [5, -1], stun=True),
                    bandit("whipper", ["whip", "dagger"], [5, 1]),
                    bandit("bolas", ["bola", "short-sword"], [7, 0]),
                    bandit("netter", ["net", "short-sword"], [7, -2], stun=True),
                ],
            },
            {"name": "Ghoul", "combatants": [{"template": "ghoul", "at": [3, 4], "facing": 2}]},
        ],
    }  # fmt: skip


CASES = {
    "examples/ed4/slavers-nets.yaml": lambda: load_scenario(str(NETS)),
    "a raid: whips, Stun, bola, net, a thrown dagger fetched, a ghoul": lambda: scenario_from_data(raid()),
}
AGREEMENT = {
    **CASES,
    # Maloren's thrown dagger (then his spells alone: he fetches it), among guards and reserved actions
    "examples/ed4/herekar-guards-tairin.yaml": lambda: load_scenario(
        str(NETS.with_name("herekar-guards-tairin.yaml"))
    ),
}


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    """A two-proportion z-test at Z999, where valid (test_sim_ed4_group._same)."""
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
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for k in range(len(t.ids) + 1):
            out[f"{side}: {k} dead"] = dead.get(k, 0)
            out[f"{side}: {k} out"] = gone.get(k, 0)
    return out


@pytest.mark.timeout(0 if ENGINE_RUNS > 500 else 900)
@pytest.mark.parametrize("case", sorted(AGREEMENT))
def test_kernel_agrees_with_engine(case: str) -> None:
    sc = AGREEMENT[case]()
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
    assert sum(kt.dealt) == sum(kt.taken)


def kernel_state(k: Ed4GroupKernel, state, ruleset, actor: str | None = None) -> np.ndarray:  # noqa: ANN001
    """The kernel's per-fight state of an engine state: test_sim_ed4_group._kernel_state, and the Stun
    damage, Harried by it, the entanglements, the weapons gone and where a thrown one lies; the Movement
    ``actor`` used this round."""
    from fracas.rules.ed4.features.readers import weapon_of
    from fracas.sim.kernels import ed4_group_core as core

    codes = {"active": core.ACTIVE, "unconscious": core.UNCONSCIOUS, "dead": core.DEAD, "fled": core.FLED}
    index = {cid: i for i, cid in enumerate(k.ids)}
    st = np.zeros((len(k.ids), core.NST), dtype=np.int64)
    for i, cid in enumerate(k.ids):
        c = state.combatants[cid]
        names = [a.name for a in c.stats.attacks]
        st[i, core.S_Q], st[i, core.S_R] = c.pos
        st[i, core.S_FACE] = c.facing
        st[i, core.S_STATUS] = codes[c.status]
        st[i, core.S_DMG] = c.counters.get("damage", 0) + c.counters.get("stun", 0)
        st[i, core.S_STUN] = c.counters.get("stun", 0)
        st[i, core.S_WND] = c.counters.get("wounds", 0)
        st[i, core.S_DOWN] = 1 if "knocked-down" in c.conditions else 0
        st[i, core.S_HARR] = 1 if "harried" in c.conditions else 0
        st[i, core.S_KARMA] = c.counters.get("karma", 0)
        st[i, core.S_REC] = c.counters.get("recovery_used", 0)
        st[i, core.S_TRIED] = 1 if c.marks.get("recovery_tried") else 0
        st[i, core.S_FAILED] = 1 if c.marks.get("recovery_failed") else 0
        st[i, core.S_BONUS] = 1 if c.marks.get("stun_bonus_used") else 0
        if "entangled" in c.conditions:
            by, name = c.marks["entangled_by"]
            st[i, core.S_ENT] = index[by] + 1
            st[i, core.S_ENTA] = [a.name for a in state.combatants[by].stats.attacks].index(name)
            st[i, core.S_ENTDN] = c.conditions["entangled"].value
        gone = set(c.marks.get("thrown_away") or ()) | set(c.marks.get("lost_weapons") or ())
        st[i, core.S_GONE] = sum(1 << j for j, n in enumerate(names) if n in gone)
        for w, at in (c.marks.get("thrown_to") or {}).items():
            kinds = [(x.kind, weapon_of(x.name)) for x in c.stats.attacks]
            st[i, core.S_LIE] = kinds.index(("thrown", w)) + 1
            st[i, core.S_LYQ], st[i, core.S_LYR] = at
        if cid == actor:
            st[i, core.S_MOVED] = ruleset.moved_this_round(state, c)
    return st


def _grid(k: Ed4GroupKernel, st: np.ndarray) -> np.ndarray:
    from fracas.sim.kernels import ed4_group_core as core

    grid = np.zeros(k._grid_shape, dtype=np.int64)
    for i in range(len(k.ids)):
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
    return grid


@pytest.mark.parametrize("case", sorted(CASES))
def test_decisions_match_the_engine(case: str) -> None:  # noqa: C901, PLR0912, PLR0915
    """At every turn of 60 engine fights, the kernel's choice is the engine's command (module docstring),
    and the Attack and break-free tests have the engine's step and DN."""
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Rolled
    from fracas.engine.play import Fight
    from fracas.sim.kernels import ed4_group_core as core

    sc = CASES[case]()
    rs = sc.ruleset
    k = Ed4GroupKernel(rs, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = rs.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    seen: dict[str, int] = {}
    for seed in range(60):
        fight = Fight(rs, sc.state.clone(), RandomDice(seed), None, [], controllers, seed)
        fight.start()
        for _ in range(100_000):
            if fight.state.ended:
                break
            decision = rs.pending(fight.state)
            if decision is None or decision.kind != "act":
                fight.step()
                continue
            state = fight.state
            cmd = fight.auto_command(decision)
            me = index[cmd.actor]
            st = kernel_state(k, state, rs, cmd.actor)
            grid = _grid(k, st)
            where = f"{case} seed {seed} round {state.round}: {cmd}"
            events = None
            if st[me, core.S_ENT] and state.combatants[cmd.actor].marks.get("std") != state.round:
                assert cmd.action == "break-free", where
                step, _ruins = core._break_free_step(me, st, k._cst, k._att, k._flags, grid)
                events = fight.submit(cmd)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.startswith("Break free"))
                assert (step, int(st[me, core.S_ENTDN])) == (rolled.step, rolled.dn), where
                seen["break-free"] = seen.get("break-free", 0) + 1
                continue
            fetching = (
                st[me, core.S_LIE]
                and not st[me, core.S_DOWN]
                and (k._cst[me, core.WEAPONS] & ~st[me, core.S_GONE]) == 0
            )
            if fetching:
                after = st.copy()
                ran = core._fetch(me, after, k._cst, k._att, k._flags, wk, grid.copy())
                end = (int(after[me, core.S_Q]), int(after[me, core.S_R]))
                path = [tuple(h) for h in cmd.args.get("path") or ()]
                moved = after[me, core.S_MOVED] != st[me, core.S_MOVED]
                if ran:
                    assert cmd.action == "run" and path[-1] == end, where
                elif moved:
                    assert cmd.action == "move" and path[-1] == end, where
                elif not after[me, core.S_LIE]:
                    assert cmd.action == "pick-up", where
                if ran or moved or not after[me, core.S_LIE]:
                    seen["fetch"] = seen.get("fetch", 0) + 1
                    fight.submit(cmd)
                    continue
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
            assert act == want, where
            assert end == (path[-1] if path else None), where
            if cmd.action in ("revive", "attack"):
                assert t == index[cmd.target], where
            seen[cmd.action] = seen.get(cmd.action, 0) + 1
            events = fight.submit(cmd)
            if cmd.action == "attack":
                names = [a.name for a in state.combatants[cmd.actor].stats.attacks]
                assert wk[core.W_DEC, 0] == names.index(cmd.args["attack"]), where
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
                harried = any("Harried" in m[1] for m in rolled.modifiers)
                seen["harried attack"] = seen.get("harried attack", 0) + harried
    assert seen.get("break-free", 0) > 20 and seen.get("attack", 0) > 200, seen
    assert seen.get("harried attack", 0) > 20, seen


def test_a_missed_throw_lands_where_the_engine_would() -> None:
    """core._drop after a miss that struck nobody: the weapon lands where attack.scatter_throw puts it
    (ranged.scatter: D6 for the direction, a test at Step DN - result for the feet; ranged.scatter_hex),
    in distribution: 60,000 landings against the exact odds of every hex, each within 5 standard errors;
    after a hit it lies at the target's feet, after a miss that struck someone in the way at his."""
    from fracas.rules.ed4.ranged import scatter_hex, scatter_step
    from fracas.sim.kernels import ed4_group_core as core
    from fracas.sim.kernels.ed4_group import step_outcomes

    sc = load_scenario(str(NETS))
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    me, t = k.ids.index("netter"), k.ids.index("brighton")
    a = [x.name for x in sc.state.combatants["netter"].stats.attacks].index("Net")
    tabs = k._tabs  # off, shift, keep, own, alias
    st = np.zeros((len(k.ids), core.NST), dtype=np.int64)
    st[t, core.S_Q], st[t, core.S_R] = 3, -2
    st[1 - t if t else 1, core.S_Q] = 9  # someone in the way, struck by a miss
    seed = np.array([1, 2, 3, 4], dtype=np.uint64)
    for dn, total in ((12, 3), (9, 6), (20, 1)):
        n = 60_000
        got: dict[tuple[int, int], int] = {}
        for _ in range(n):
            core._drop(me, t, a, False, dn, total, -1, seed, st, k._att, k._flags, *tabs)
            h = (int(st[me, core.S_LYQ]), int(st[me, core.S_LYR]))
            got[h] = got.get(h, 0) + 1
        assert st[me, core.S_LIE] == a + 1 and st[me, core.S_GONE] == k._att[me, a, core.A_DROP]
        values, probs = step_outcomes(*_step_spec(scatter_step(dn, total)))
        want: dict[tuple[int, int], float] = {}
        for v, p in zip(values, probs, strict=True):
            for d in range(1, 7):
                h = scatter_hex((3, -2), d, int(v) >> 1)
                want[h] = want.get(h, 0.0) + p / 6
        assert set(got) <= set(want)
        for h, p in want.items():
            se = (p * (1 - p) / n) ** 0.5
            assert abs(got.get(h, 0) / n - p) <= 5 * se + 1e-9, (dn, total, h)
    core._drop(me, t, a, True, 9, 12, -1, seed, st, k._att, k._flags, *tabs)
    assert (st[me, core.S_LYQ], st[me, core.S_LYR]) == (3, -2)
    v = 1 - t if t else 1
    core._drop(me, t, a, False, 9, 6, v, seed, st, k._att, k._flags, *tabs)
    assert (st[me, core.S_LYQ], st[me, core.S_LYR]) == (st[v, core.S_Q], st[v, core.S_R])


def _step_spec(step: int) -> tuple[tuple[int, ...], int, int, int]:
    """step_outcomes' arguments for an ED4 test at ``step`` (the kernel's tables, ed4_group._tables)."""
    from fracas.dice.steps import step_table
    from fracas.rules.ed4.ruleset import ED4

    row = step_table(ED4.steps)[step]
    return tuple(row.dice), row.modifier, ED4.result_floor, ED4.rule_of_one_min_dice
