"""The ED4 group kernel's movement and targeting shortcuts give the answers of the plain ways they shortcut.

- core._route's quick answers (a goal beyond the search's reach, a goal whose open sides give onto a
  closed pocket: pathing._walled_off) and its searches bounded to the straight distance plus a little
  first (pathing._ROUTE_SLACKS) find what the one unbounded search (core._search) finds, on random crowds
  and round walled pockets (as tests/engine/test_engine_pathing.py does for pathing.route).
- core._decide's usual turn read from the occupancy grid (an active enemy next to a standing combatant no
  hit could make run) is the choice of the survey of every combatant: the same state with every hex off
  the grid (the kernel then looks at everyone) gives the same action, target, path, attack and Karma.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from test_sim_ed4_group import MICA, blank_field, brawl, lines  # noqa: E402

from fracas.engine import hexgrid, pathing  # noqa: E402
from fracas.engine.hexgrid import ring  # noqa: E402
from fracas.sim.kernels import ed4_group_core as core  # noqa: E402
from fracas.sim.kernels.ed4_group import Ed4GroupKernel  # noqa: E402
from fracas.sim.runner import load_scenario, scenario_from_data  # noqa: E402


def test_route_constants_are_the_engines() -> None:
    assert core.ROUTE_SLACKS == pathing._ROUTE_SLACKS
    assert core.ROUTE_POCKET == pathing._POCKET


def _field(blocked: list[tuple[int, int]], start: tuple[int, int], gq0: int):  # noqa: ANN202
    """Combatant 0 on ``start``, one on each blocked hex, on an occupancy grid whose west edge is at
    ``gq0`` (-3: the hexes west of q = -3 are off it, the kernel scans everyone there)."""
    hexes = [start] + [h for h in blocked if h != start]
    st, flags, grid = blank_field(hexes, gq0, -60, 120)
    for i in range(len(hexes)):
        core._grid_set(i, i + 1, st, grid, flags)
    return st, len(hexes), grid, flags


def _both(start, goal, blocked, gq0: int, limit: int) -> tuple:  # noqa: ANN001
    """(core._route's answer and path, the plain search's), from ``start`` toward ``goal``."""
    st, n, grid, flags = _field(blocked, start, gq0)
    wk = np.zeros((core.NWK, core.ROUTE_CELLS), dtype=np.int64)
    got, want = wk[core.W_PATH].copy(), wk[core.W_PATH].copy()
    seen, queue = wk[core.W_SEEN], wk[core.W_QUEUE]
    d0 = core._hexd(start[0], start[1], goal[0], goal[1])
    a = core._route(0, goal[0], goal[1], limit, st, n, got, grid, flags, seen, queue, -1)
    assert not seen.any()
    free = any(
        not core._taken(goal[0] + dq, goal[1] + dr, 0, st, n, grid, flags) for dq, dr in hexgrid.DIRECTIONS
    )
    b = d0 > 1 and free
    b = b and core._search(0, goal[0], goal[1], limit, st, n, want, grid, flags, seen, queue, -1, d0)
    assert not seen.any()
    return (bool(a), list(got[:4]) if a else None), (bool(b), list(want[:4]) if b else None)


@pytest.mark.parametrize("seed", range(20))
def test_route_shortcuts_find_the_plain_search_path(seed: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(15):
        span = rng.choice((12, pathing.ROUTE_REACH + 8))
        goal = (rng.randrange(-span, span + 1), rng.randrange(-span, span + 1))
        density = rng.choice([0.0, 0.15, 0.3, 0.45])
        field = [(q, r) for q in range(-12, 13) for r in range(-12, 13) if (q, r) != (0, 0)]
        blocked = [h for h in field if rng.random() < density]
        if goal not in blocked:
            blocked.append(goal)  # the goal stands on his hex
        got, want = _both((0, 0), goal, blocked, rng.choice((-60, -3)), rng.randint(1, 30))
        assert got == want
        found += got[0]
    assert found > 0


@pytest.mark.parametrize("seed", range(40))
def test_route_round_a_walled_pocket(seed: int) -> None:
    """A foe whose open sides give onto a closed pocket, the mover inside or outside it."""
    rng = random.Random(seed)
    goal = (rng.randrange(-5, 6), rng.randrange(-5, 6))
    wall_at = rng.choice([2, 2, 3])
    blocked = {goal}
    for radius in range(1, wall_at + 1):
        for h in ring(goal, radius):
            keep_open = 0.08 if radius == wall_at else 0.5
            if rng.random() > keep_open:
                blocked.add(h)
    inside = [h for r in range(1, wall_at) for h in ring(goal, r) if h not in blocked]
    outside = list(ring(goal, rng.randrange(wall_at + 1, 12)))
    for start in rng.sample(outside, 3) + rng.sample(inside, min(2, len(inside))):
        got, want = _both(start, goal, sorted(blocked - {start}), rng.choice((-60, -3)), 40)
        assert got == want


def test_route_gives_up_on_a_goal_beyond_its_reach() -> None:
    reach = pathing.ROUTE_REACH
    for q, reachable in ((reach + 1, True), (reach + 2, False)):
        got, want = _both((0, 0), (q, 0), [(q, 0)], -60, 100)
        assert got == want and got[0] is reachable


def _random_state(k: Ed4GroupKernel, rng: random.Random) -> np.ndarray:
    """A state of the kernel's combatants in mid-fight: crowded positions, statuses, damage, Wounds,
    knocked down, Karma, Recovery tests used."""
    n = len(k.ids)
    cst = k._cst
    hexes = rng.sample([(q, r) for q in range(-4, 5) for r in range(-4, 5)], n)
    st = np.zeros((n, core.NST), dtype=np.int64)
    for i, (q, r) in enumerate(hexes):
        st[i, core.S_Q], st[i, core.S_R] = q, r
        st[i, core.S_FACE] = rng.randrange(6)
        st[i, core.S_STATUS] = rng.choice((core.ACTIVE,) * 6 + (core.UNCONSCIOUS, core.DEAD))
        st[i, core.S_DMG] = rng.randrange(0, min(int(cst[i, core.DEATH]), 60))
        st[i, core.S_WND] = rng.randrange(4)
        st[i, core.S_DOWN] = 1 if st[i, core.S_STATUS] == core.UNCONSCIOUS or rng.random() < 0.2 else 0
        st[i, core.S_KARMA] = rng.randrange(int(cst[i, core.KARMA0]) + 1)
        st[i, core.S_REC] = rng.randrange(int(cst[i, core.RECT]) + 1)
    return st


def _decision(k: Ed4GroupKernel, me: int, st: np.ndarray, flags: np.ndarray, grid: np.ndarray) -> tuple:
    wk = np.zeros((core.NWK, k._width), dtype=np.int64)
    act, t = core._decide(me, st, k._cst, k._att, k._pref, k._kuse, k._flee, flags, wk, grid)
    path = tuple(int(x) for x in wk[core.W_PATH, :4]) if wk[core.W_PATH, 0] else ()
    dec = tuple(int(x) for x in wk[core.W_DEC, :2]) if act == core.ACT_ATTACK else ()
    return act, t, path, dec


@pytest.mark.parametrize("case", ["mica", "brawl", "lines"])
def test_decide_from_the_grid_is_the_survey(case: str) -> None:
    sc = (
        load_scenario(str(MICA))
        if case == "mica"
        else scenario_from_data(brawl())
        if case == "brawl"
        else scenario_from_data(lines(6, 2, 10))
    )
    k = Ed4GroupKernel(sc.ruleset, sc.state)
    rng = random.Random(11)
    off = k._flags.copy()
    off[core.F_GQ0] = 1_000_000  # every hex off the grid: _decide surveys everyone, paths scan everyone
    usual = 0
    for _ in range(300):
        st = _random_state(k, rng)
        grid = np.zeros((40, 40), dtype=np.int64)
        flags = k._flags.copy()
        flags[core.F_GQ0], flags[core.F_GR0] = -20, -20
        for i in range(len(k.ids)):
            if st[i, core.S_STATUS] <= core.UNCONSCIOUS:
                core._grid_set(i, core._code(i, st, k._cst), st, grid, flags)
        for me in range(len(k.ids)):
            if st[me, core.S_STATUS] != core.ACTIVE:
                continue
            got = _decision(k, me, st, flags, grid)
            assert got == _decision(k, me, st, off, np.zeros((1, 1), dtype=np.int64))
            usual += got[0] == core.ACT_ATTACK and not got[2]
    assert usual > 200
