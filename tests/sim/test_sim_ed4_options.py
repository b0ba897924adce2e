"""The ``veteran`` tactic's combat options in the ED4 group kernel (ed4_group_options) against the engine.

Exactness where no dice enter: at every declaration of 40 engine fights of a brawl of veterans on foot the
kernel declares the options VeteranTactic.options declares; at every turn its choice is the tactic's (Jump
Up first when declared and knocked down), every Attack and Damage test has the engine's step (and the
Attack test its DN: Aggressive Attack, Defensive Stance, Blindsided), and each combatant's Current Damage
after the turn is the engine's (the Strain of Jump Up and Aggressive Attack included).
Statistics: the kernel's 100,000 fights and the engine's 600 (FRACAS_SIM_ENGINE_RUNS=N) agree on every
outcome at the 99.9% level (two-proportion tests, as tests/sim/test_sim_ed4_group.py).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel  # noqa: E402
from fracas.sim.runner import engine_runs, run_seeds, scenario_from_data  # noqa: E402
from fracas.sim.stats import Z999  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def veterans(max_rounds: int = 12, options: dict | None = None) -> dict:
    """Three veteran heroes and a bandit against six veteran ghouls: Aggressive Attack when fresh,
    Defensive Stance when crowded or in danger, Jump Up when knocked down."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "veterans against ghouls",
        "max_rounds": max_rounds,
        "options": options or {},
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0], "tactic": "veteran"},
                    {"template": "thrak", "player": True, "at": [0, 1], "tactic": "veteran"},
                    {"template": "ulm", "player": True, "at": [-1, 1], "facing": 3, "tactic": "veteran"},
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
                        "tactic": "veteran",
                    }
                ],
            },
        ],
    }


def _kernel_state(k: Ed4GroupKernel, state) -> np.ndarray:  # noqa: ANN001
    from fracas.rules.ed4 import options as opt
    from fracas.sim.kernels import ed4_group_core as core
    from fracas.sim.kernels import ed4_group_options as vet

    bits = {opt.JUMP_UP: vet.O_JUMP, opt.AGGRESSIVE: vet.O_AGGR, opt.DEFENSIVE: vet.O_DEF}
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
        d = state.declarations.get(cid) or {}
        st[i, core.S_OPT] = sum(bits[o] for o in d.get("options", ()) or ())
        st[i, core.S_NOMOVE] = 1 if c.marks.get("jumped_up") == state.round else 0
    return st


def _grid(k: Ed4GroupKernel, st: np.ndarray) -> np.ndarray:
    from fracas.sim.kernels import ed4_group_core as core

    grid = np.zeros(k._grid_shape, dtype=np.int64)
    for i in range(len(k.ids)):
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
    return grid


def test_declarations_and_turns_match_the_tactic() -> None:  # noqa: C901, PLR0915
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Damaged, Declared, Rolled
    from fracas.engine.play import Fight
    from fracas.rules.ed4 import options as opt
    from fracas.sim.kernels import ed4_group_core as core
    from fracas.sim.kernels import ed4_group_options as vet

    sc = scenario_from_data(veterans())
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    bits = {opt.JUMP_UP: vet.O_JUMP, opt.AGGRESSIVE: vet.O_AGGR, opt.DEFENSIVE: vet.O_DEF}
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    seen = {"declared": 0, "jump": 0, "attack": 0, "damage": 0, "strain": 0}
    for seed in range(int(os.environ.get("VET_SEEDS", 40))):
        fight = Fight(sc.ruleset, sc.state.clone(), RandomDice(seed), None, [], controllers, seed)
        fight.start()
        for _ in range(100_000):
            if fight.state.ended:
                break
            state = fight.state
            decision = sc.ruleset.pending(state)
            if decision is None:
                fight.step()
                continue
            cmd = fight.auto_command(decision)
            me = index[cmd.actor]
            where = f"seed {seed} round {state.round}: {cmd}"
            st = _kernel_state(k, state)
            if decision.kind == "declare":
                got = core._vet_options(me, st, k._cst, k._vt, k._flee, len(k.ids))
                assert got == sum(bits[o] for o in cmd.args.get("options", ())), where
                seen["declared"] += 1
                fight.submit(cmd)
                continue
            assert decision.kind == "act", where
            if cmd.action == "jump-up":
                assert st[me, core.S_OPT] & vet.O_JUMP and st[me, core.S_DOWN], where
                events = fight.submit(cmd)
                rolled = [e for e in events if isinstance(e, Rolled)]
                if rolled:
                    step = k._cst[me, core.JSTEP] - (st[me, core.S_WND] if k._flags[core.F_WP] else 0)
                    cnt, _o, _f = core._close_foes_at(
                        me, -1, k._cst, st, len(k.ids), False, _grid(k, st), k._flags
                    )
                    step += k._flags[core.F_HAR_PEN] if cnt >= k._flags[core.F_HAR_N] else 0
                    assert (max(step, 1), k._flags[core.F_JUMP_DN]) == (rolled[0].step, rolled[0].dn), where
                seen["jump"] += 1
                continue
            grid = _grid(k, st)
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
            before = {cid: c.counters.get("damage", 0) for cid, c in state.combatants.items()}
            events = fight.submit(cmd)
            if cmd.action == "attack":
                if end is not None:
                    st[me, core.S_Q], st[me, core.S_R] = end
                    st[me, core.S_FACE] = wk[core.W_PATH, 3]
                    grid = _grid(k, st)
                a = int(wk[core.W_DEC, 0])
                yards = 2 * core._hexd(st[me, 0], st[me, 1], st[t, 0], st[t, 1])
                short = k._att[me, a, core.A_SHORT]
                long_pen = -2 if (not k._att[me, a, core.A_CLOSE] and 0 <= short < yards) else 0
                step, dn = core._attack_numbers(me, t, a, long_pen, st, k._cst, k._att, k._flags, wk)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (step, dn) == (rolled.step, rolled.dn), where
                if cmd.args.get("karma"):  # the Karma rows go as high as the step (Aggressive Attack +3)
                    assert step <= k._flags[core.F_XSD], where
                seen["attack"] += 1
                dmg = next((e for e in events if isinstance(e, Rolled) and e.test.endswith("Damage")), None)
                if dmg is not None and rolled.success:
                    dstep = k._att[me, a, core.A_DAMAGE] + long_pen + 2 * rolled.extra
                    dstep -= st[me, core.S_WND] if k._flags[core.F_WP] else 0
                    dstep += vet.option_step(
                        st[me, core.S_OPT], st[me, core.S_DOWN], k._att[me, a, core.A_CLOSE]
                    )
                    assert max(dstep, 1) == dmg.step, where
                    seen["damage"] += 1
            strained = [e for e in events if isinstance(e, Damaged) and e.damage_type == "strain"]
            if strained:
                seen["strain"] += 1
                # Aggressive Attack: 1 per close Attack test, else 1 at the end of the turn
                tests = sum(1 for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                close = cmd.action == "attack" and k._att[me, int(wk[core.W_DEC, 0]), core.A_CLOSE]
                assert [e.amount for e in strained] == [tests if close and tests else 1], where
            assert not [e for e in events if isinstance(e, Declared)], where
            del before
    assert seen["declared"] > 300 and seen["jump"] > 5 and seen["attack"] > 200, seen
    assert seen["damage"] > 100 and seen["strain"] > 100, seen


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
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


@pytest.mark.timeout(0 if ENGINE_RUNS > 600 else 900)
def test_veterans_agree_with_engine() -> None:
    sc = scenario_from_data(veterans())
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


def test_veteran_needs_the_chapter() -> None:
    """The core rules alone have no ``veteran`` tactic (nor combat options): refused."""
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset
    from fracas.sim.runner import Scenario

    sc = scenario_from_data(veterans())
    kernel, why = find_kernel(Ed4CoreRuleset(), Scenario(Ed4CoreRuleset(), sc.state).state)
    assert kernel is None or kernel.name != "ed4-group"
    assert "tactic veteran" in why
