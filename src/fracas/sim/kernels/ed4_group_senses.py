"""The ``ed4-group`` kernel's map and senses (ED4 p.373, p.386-390): hexes the map blocks, for now.

What the builder (:mod:`fracas.sim.kernels.ed4_group`) reads from the encounter, and what the compiled loop
(:mod:`fracas.sim.kernels.ed4_group_core`) asks of it:

- blocked hexes (``map.blocked``): nobody enters them (engine/taken.py ``map_blocked``, ``blocked``); the
  occupancy grid holds them (``G_BLOCKED``) and reaches over every one of them, so the kernel's path
  searches (pathing.towards, route, away) go round them as round a taken hex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fracas.sim.kernels import Unsupported

if TYPE_CHECKING:
    from fracas.engine.state import FightState

GRID_MARGIN = 32
"""The occupancy grid reaches this many hexes beyond every combatant's start and every hex the map marks."""
GRID_CELLS = 4_000_000
"""The largest occupancy grid the builder makes (int64 cells: 32 MB); a map spread wider is refused."""


def occupancy_grid(state: FightState, starts: list[tuple[int, int]], flags: np.ndarray) -> np.ndarray:
    """The occupancy grid at the start of a fight, before anyone is placed on it: the hexes within
    GRID_MARGIN of the combatants' starts and of the map's blocked hexes, those blocked (taken.map_blocked)
    holding ``G_BLOCKED``; its corner goes into ``flags`` (F_GQ0, F_GR0)."""
    from fracas.engine.taken import map_blocked

    from . import ed4_group_core as core

    walls = sorted(map_blocked(state))
    qs = [h[0] for h in starts] + [h[0] for h in walls]
    rs = [h[1] for h in starts] + [h[1] for h in walls]
    m = GRID_MARGIN
    shape = (max(qs) - min(qs) + 2 * m + 1, max(rs) - min(rs) + 2 * m + 1)
    if shape[0] * shape[1] > GRID_CELLS:
        raise Unsupported(
            f"a map spread over {shape[0]} x {shape[1]} hexes (the kernel's grid: {GRID_CELLS:,})"
        )
    flags[core.F_GQ0] = min(qs) - m
    flags[core.F_GR0] = min(rs) - m
    grid = np.zeros(shape, dtype=np.int64)
    for q, r in walls:
        grid[q - flags[core.F_GQ0], r - flags[core.F_GR0]] = core.G_BLOCKED
    return grid
