"""The ED4 group kernel on ork scorchers, riders and mounts (p.394-398), against the reference engine.

Agreement: for each encounter the kernel plays 100,000 fights and the engine 600 (FRACAS_SIM_ENGINE_RUNS=N
for more); every outcome's frequency (each side's wins, draws, each combatant's final status, each number
of rounds, the casualties) must pass a two-proportion test at the 99.9% level. The seeds are fixed.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.runner import engine_runs, run_seeds, scenario_from_data  # noqa: E402
from fracas.sim.stats import Z999  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 600))
KERNEL_RUNS = 100_000


def scorchers_on_foot() -> dict:
    """Two ork scorchers on foot (their Charge (mounted) attack is the charge command's only, p.396: the
    tactic never makes it) and a riderless war horse against Herekar and Thrak."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "scorchers on foot",
        "max_rounds": 12,
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "at": [0, 0]},
                    {"template": "thrak", "player": True, "at": [0, 1]},
                ],
            },
            {
                "name": "Orks",
                "combatants": [
                    {"template": "ork-scorcher", "count": 2, "at": [[4, -1], [5, 0]], "facing": 3},
                    {"template": "war-horse", "at": [4, 1], "facing": 3},
                ],
            },
        ],
    }


def riders(options: dict | None = None) -> dict:
    """Two ork scorchers on war horses (one combat-trained, one trained; the horses under the ``mount``
    tactic) against Herekar, Thrak and Mica: the riders ride in at their horses' Movement and fight from
    the saddle under the default tactic (never a charge: that is the veteran's), the horses kick an
    adjacent enemy; a knocked-down horse throws its rider, a knocked-down rider falls off."""
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "scorchers on war horses",
        "max_rounds": 15,
        "options": options or {},
        "sides": [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "at": [0, 0]},
                    {"template": "thrak", "player": True, "at": [0, 1]},
                    {"template": "mica", "player": True, "at": [-1, 1]},
                ],
            },
            {
                "name": "Scorchers",
                "combatants": [
                    {"template": "war-horse", "id": "horse-1", "tactic": "mount", "at": [7, -1], "facing": 3},
                    {
                        "template": "war-horse",
                        "id": "horse-2",
                        "tactic": "mount",
                        "options": {"training": "trained"},
                        "at": [7, 2],
                        "facing": 3,
                    },
                    {"template": "ork-scorcher", "id": "scorcher-1", "options": {"rides": "horse-1"}},
                    {"template": "ork-scorcher", "id": "scorcher-2", "options": {"rides": "horse-2"}},
                ],
            },
        ],
    }


def _same(k1: int, n1: int, k2: int, n2: int) -> bool:
    """A two-proportion z-test at Z999, where valid (5 expected in the smaller sample)."""
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


CASES = {
    "ork scorchers on foot (charging attacks never made), a riderless horse": scorchers_on_foot,
    "ork scorchers riding war horses against three heroes": riders,
    "riders, no group Initiative, no wound penalties, Take the Initiative": lambda: riders(
        {"group-initiative": False, "wound-penalties": False, "take-the-initiative": True}
    ),
}


@pytest.mark.timeout(0 if ENGINE_RUNS > 600 else 900)
@pytest.mark.parametrize("case", sorted(CASES))
def test_mounted_kernel_agrees_with_engine(case: str) -> None:
    sc = scenario_from_data(CASES[case]())
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
    assert all(sum(s.values()) == kt.runs for s in kt.status)


def _kernel_state(k, state) -> np.ndarray:  # noqa: ANN001
    """The kernel's per-fight state from an engine state: riders on their mounts (marks), a mount's
    Standard action used this round."""
    from fracas.sim.kernels import ed4_group_core as core

    codes = {"active": core.ACTIVE, "unconscious": core.UNCONSCIOUS, "dead": core.DEAD, "fled": core.FLED}
    index = {cid: i for i, cid in enumerate(k.ids)}
    st = np.zeros((len(k.ids), core.NST), dtype=np.int64)
    for i, cid in enumerate(k.ids):
        c = state.combatants[cid]
        st[i, core.S_Q], st[i, core.S_R] = c.pos
        st[i, core.S_FACE] = c.facing
        st[i, core.S_STATUS] = codes[c.status]
        st[i, core.S_DMG] = c.counters.get("damage", 0)
        st[i, core.S_WND] = c.counters.get("wounds", 0)
        st[i, core.S_DOWN] = 1 if "knocked-down" in c.conditions else 0
        st[i, core.S_KARMA] = c.counters.get("karma", 0)
        st[i, core.S_REC] = c.counters.get("recovery_used", 0)
        st[i, core.S_TRIED] = 1 if c.marks.get("recovery_tried") else 0
        st[i, core.S_FAILED] = 1 if c.marks.get("recovery_failed") else 0
        if c.marks.get("mount"):
            st[i, core.S_MOUNT] = index[c.marks["mount"]] + 1
        r = state.combatants.get(c.marks.get("rider") or "")
        if r is not None and r.marks.get("mount") == cid and r.pos == c.pos:
            st[i, core.S_RIDER] = index[r.id] + 1
        st[i, core.S_STD] = c.marks.get("std") or 0
    return st


def _grid(k, st):  # noqa: ANN001, ANN202
    from fracas.sim.kernels import ed4_group_core as core

    grid = k._grid0.copy()  # the map's blocked hexes
    for i in range(len(k.ids)):
        if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
    for i in range(len(k.ids)):  # the rider's code on a shared hex, the mount's if he died there
        if st[i, core.S_MOUNT] and st[i, core.S_STATUS] <= core.UNCONSCIOUS:
            core._grid_set(i, core._code(i, st, k._cst), st, grid, k._flags)
        elif st[i, core.S_MOUNT]:
            core.left_behind(i, st, k._cst, grid, k._flags)
    return grid


@pytest.mark.parametrize("hemmed", [False, True])
def test_mounted_decisions_match_the_tactic(hemmed: bool) -> None:
    """At every turn of 40 engine fights of the riders (``hemmed``: the first horse walled in on five
    sides, Thrak on the sixth, so that the scorcher's battle-axe, Size 5, is too long there: p.397), the
    kernel's choice is the tactic's command (the
    rider's, moving at his mount's Movement; the ridden mount's, ``mount``), its first Attack test has the
    engine's step and DN, where everyone stands and faces after a run is the engine's (the mount goes where
    its rider went), and after an attack that threw a rider (a horse knocked down) or made one fall off (a
    rider knocked down) the kernel seats everyone where the engine did."""
    from fracas.dice.source import RandomDice
    from fracas.engine.events import Rolled
    from fracas.engine.play import Fight
    from fracas.sim.kernels import ed4_group_core as core
    from fracas.sim.kernels.ed4_group import Ed4GroupKernel, usable_attacks

    data = riders()
    if hemmed:
        data["map"] = {"blocked": [[8, -1], [8, -2], [7, -2], [6, 0], [7, 0]]}
        data["sides"][0]["combatants"][1]["at"] = [6, -1]
    sc = scenario_from_data(data)
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    index = {cid: i for i, cid in enumerate(k.ids)}
    controllers = sc.ruleset.tactics()
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    checked = numbers = falls = pens = 0
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
            grid = _grid(k, st)
            if k._cst[me, core.MTAC] and st[me, core.S_RIDER]:
                act, t = core.mount_choice(me, state.round, st, k._cst, k._att, wk)
            else:
                act, t = core._decide(me, st, k._cst, k._att, k._pref, k._kuse, k._flee, k._flags, wk, grid)
            path = [tuple(h) for h in cmd.args.get("path") or ()]
            end = (int(wk[core.W_PATH, 1]), int(wk[core.W_PATH, 2])) if wk[core.W_PATH, 0] else None
            want = {"stand-up": core.ACT_STAND, "revive": core.ACT_REVIVE, "attack": core.ACT_ATTACK}
            want = want.get(cmd.action, core.ACT_END)
            if cmd.action == "run":
                want = core.ACT_FLEE if cmd.args.get("flee") else core.ACT_RUN
            where = f"seed {seed} round {state.round}: {cmd}"
            assert act == want, where
            assert end == (path[-1] if path else None), where
            if cmd.action in ("revive", "attack"):
                assert t == index[cmd.target], where
            pen = 0
            if cmd.action == "attack":
                names = [a.name for a in usable_attacks(state.combatants[cmd.actor].stats)]
                assert wk[core.W_DEC, 0] == names.index(cmd.args["attack"]), where
                assert bool(wk[core.W_DEC, 1]) == bool(cmd.args.get("karma")), where
                a = int(wk[core.W_DEC, 0])
                if end is None:
                    pen = core.weapon_penalty(me, a, st, k._cst, k._att, len(k.ids), grid, k._flags)
                    pens += pen != 0
            rode = {cid: c.marks.get("mount") for cid, c in state.combatants.items()}
            rnd = state.round
            events = fight.submit(cmd)
            if cmd.action == "attack":
                post = st.copy()
                if end is not None:
                    post[me, core.S_Q], post[me, core.S_R] = end
                    post[me, core.S_FACE] = wk[core.W_PATH, 3]
                    core.carry(me, post)
                yards = 2 * core._hexd(post[me, 0], post[me, 1], post[t, 0], post[t, 1])
                short = k._att[me, a, core.A_SHORT]
                pen += -2 if (not k._att[me, a, core.A_CLOSE] and 0 <= short < yards) else 0  # long range
                step, dn = core._attack_numbers(me, t, a, pen, post, k._cst, k._att, k._flags, wk)
                rolled = next(e for e in events if isinstance(e, Rolled) and e.test.endswith("Attack"))
                assert (step, dn) == (rolled.step, rolled.dn), where
                numbers += 1
            elif cmd.action in ("run", "stand-up") and path:
                post = st.copy()
                post[me, core.S_Q], post[me, core.S_R] = path[-1]
                post[me, core.S_FACE] = wk[core.W_PATH, 3]
                core.carry(me, post)
                if cmd.action == "run":
                    core.ran(me, rnd, post)
                got = _kernel_state(k, fight.state)
                assert (got[:, :3] == post[:, :3]).all(), where
            # the falls after an attack: from the state it left, with the thrown riders put back on their
            # mounts, the kernel's falls must seat everyone where the engine did (its dice are its own: only
            # where they land and who rides what are compared)
            if cmd.action == "attack" and any(getattr(e, "mode", None) == "fall" for e in events):
                falls += 1
                after = _kernel_state(k, fight.state)
                pre = after.copy()
                for i, cid in enumerate(k.ids):
                    mid = rode[cid]
                    if mid and not fight.state.combatants[cid].marks.get("mount"):
                        m = index[mid]
                        pre[i, core.S_MOUNT], pre[m, core.S_RIDER] = m + 1, i + 1
                        pre[i, core.S_Q], pre[i, core.S_R] = pre[m, core.S_Q], pre[m, core.S_R]
                g = _grid(k, pre)
                seed4 = np.arange(1, 5, dtype=np.uint64)
                taken = np.zeros(len(k.ids), dtype=np.int64)
                core.falls(t, rnd, seed4, pre, k._cst, *k._tabs, taken, g, k._flags)
                for col in (core.S_Q, core.S_R, core.S_MOUNT, core.S_RIDER, core.S_DOWN):
                    assert (pre[:, col] == after[:, col]).all(), where
            checked += 1
    assert checked > 300 and numbers > 150 and falls > 5
    assert (pens > 0) == hemmed
