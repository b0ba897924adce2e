"""The ``ed4-group`` kernel's map and senses (ED4 p.373, p.386-390): what the builder
(:mod:`fracas.sim.kernels.ed4_group`) reads from the encounter for them, each rule as the engine has it;
the compiled loop's pieces for them are at the end of :mod:`fracas.sim.kernels.ed4_group_core`
(``_terrain_at``, ``_sense_defense``, ``_full_cover``, ``_blindsided``, ``_unseen``, ``_surprise``,
``_surprise_ends``):

- blocked hexes (``map.blocked``): nobody enters them (engine/taken.py ``map_blocked``, ``blocked``); the
  occupancy grid holds them (``G_BLOCKED``) and reaches over every one of them, so the kernel's path
  searches (pathing.towards, route, away) go round them as round a taken hex;
- cover (``map.cover``, ``map.full_cover``; features.readers.cover): partial cover +2 to the Defense of a
  character standing there against any attack (providers._p_cover, p.387); nobody attacks a character in
  full cover (features.attack.validate_attack: the tactic's plan on him fails, p.387). The terrain of the
  occupancy grid's hexes lies in ``flags`` from ``flags[F_TERR]`` on (T_COVER, T_FULL);
- light (``map.light``) and the senses (features.readers.senses: ``options.senses``, else the race's):
  -2 / -4 to the sight-based tests (Attack and Perception tests) of a character in partial / full darkness,
  Low-Light Vision one level better, Heat Sight none (providers._p_sight, situation.sight_mods, p.387);
  Blindsided (providers._p_blindsided, p.386): never by an attacker in full darkness, always for a defender
  in full darkness, else as in bright light; never a surprised defender;
- hidden combatants and Surprise (hooks.surprise, p.390): at the start of the first round each combatant of
  a side with no hidden member makes a Perception test against the lowest Dexterity step of the hidden
  enemies; failing, he is surprised for the round (no turn, -3 to his Defenses, providers._p_surprised;
  he engages nobody, readers.adjacent_enemies); succeeding, he has noticed them. The tactics see a hidden
  enemy (tactics._unseen) once it has attacked (features.attack.resolve_attack marks it revealed, p.388)
  or if they noticed the ambush. Under the core rules alone there is no surprise and nobody is revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.sim.kernels import Unsupported
from fracas.sim.kernels.ed4_group_core import (
    F_COVER_DEF,
    F_GH,
    F_GQ0,
    F_GR0,
    F_GW,
    F_MAXSTEP,
    F_REVEAL,
    F_SURP_DEF,
    F_SURPRISE,
    F_TERR,
    G_BLOCKED,
    HIDDEN0,
    PER,
    SEES,
    SIGHT,
    SURP_DN,
    T_COVER,
    T_FULL,
)

if TYPE_CHECKING:
    from fracas.engine.state import FightState

GRID_MARGIN = 32
"""The occupancy grid reaches this many hexes beyond every combatant's start and every hex the map marks."""
GRID_CELLS = 4_000_000
"""The largest occupancy grid the builder makes (int64 cells: 32 MB); a map spread wider is refused."""


def build(ruleset: Any, state: FightState, cs: list[Any], cst: np.ndarray, flags: np.ndarray) -> tuple:
    """The map and the senses for the kernel: the occupancy grid at the start of a fight
    (:func:`occupancy_grid`), ``flags`` with the terrain after it (a new array) and its numbers, the senses'
    columns of ``cst`` (SIGHT, SEES, HIDDEN0, PER, SURP_DN). Each rule applies when the ruleset has it: the
    chapter's providers (sight, cover, surprised, Blindsided) and its round (surprise, revealing, full
    cover); the core rules alone keep the hidden unseen to the end."""
    from fracas.rules.ed4 import situation
    from fracas.rules.ed4.features.readers import lighting, senses
    from fracas.rules.ed4.ruleset import Ed4Ruleset

    step_names = {getattr(p, "__name__", "") for v in ruleset.step_providers.values() for p in v}
    defense_names = {getattr(p, "__name__", "") for p in ruleset.defense_providers}
    chapter = isinstance(ruleset, Ed4Ruleset)  # its round: surprise, revealing; its attack: full cover
    mp = state.extra.get("map", {})
    light = lighting(state)
    cover = [tuple(h) for h in mp.get("cover", ()) or ()] if "_p_cover" in defense_names else []
    full = [tuple(h) for h in mp.get("full_cover", ()) or ()] if chapter else []
    grid = occupancy_grid(state, [c.pos for c in cs], flags, cover + full)
    cells = np.zeros(grid.shape, dtype=np.int64)
    for kind, hexes in ((T_COVER, cover), (T_FULL, full)):
        for q, r in hexes:
            cells[q - flags[F_GQ0], r - flags[F_GR0]] = kind  # full cover over partial (readers.cover)
    out = np.concatenate([flags, cells.ravel()]) if cover or full else flags.copy()
    out[F_TERR] = flags.size if cover or full else 0
    out[F_GH], out[F_GW] = grid.shape
    out[F_COVER_DEF] = situation.table()["cover-partial"].defense
    out[F_SURP_DEF] = situation.table()["surprised"].defense
    hidden = [c for c in cs if c.hidden]
    hidden_sides = {c.side for c in hidden}
    out[F_REVEAL] = 1 if chapter else 0
    out[F_SURPRISE] = 1 if chapter and hidden else 0
    for i, c in enumerate(cs):
        sight = 0
        if "_p_sight" in step_names:
            sight = sum(m.value for m in situation.sight_mods("attack", light, senses(c)))
        cst[i, SIGHT] = sight
        cst[i, SEES] = 0 if situation.effective_darkness(light, senses(c)) == "full" else 1
        cst[i, HIDDEN0] = 1 if c.hidden else 0
        perception = c.stats.per_step
        if "_p_sight" in step_names:
            perception += sum(m.value for m in situation.sight_mods("perception", light, senses(c)))
        cst[i, PER] = min(max(perception, 1), int(out[F_MAXSTEP]))
        foes = [h for h in hidden if h.side != c.side]
        if chapter and not c.hidden and c.side not in hidden_sides and foes:
            cst[i, SURP_DN] = situation.surprise_dn(h.stats.dex_step for h in foes)
    return grid, out


def occupancy_grid(
    state: FightState, starts: list[tuple[int, int]], flags: np.ndarray, marked: list[tuple[int, int]]
) -> np.ndarray:
    """The occupancy grid at the start of a fight, before anyone is placed on it: the hexes within
    GRID_MARGIN of the combatants' starts, of the map's blocked hexes and of the ``marked`` ones, those
    blocked (taken.map_blocked) holding ``G_BLOCKED``; its corner goes into ``flags`` (F_GQ0, F_GR0)."""
    from fracas.engine.taken import map_blocked

    walls = sorted(map_blocked(state))
    qs = [h[0] for h in starts + walls + marked]
    rs = [h[1] for h in starts + walls + marked]
    m = GRID_MARGIN
    shape = (max(qs) - min(qs) + 2 * m + 1, max(rs) - min(rs) + 2 * m + 1)
    if shape[0] * shape[1] > GRID_CELLS:
        raise Unsupported(
            f"a map spread over {shape[0]} x {shape[1]} hexes (the kernel's grid: {GRID_CELLS:,})"
        )
    flags[F_GQ0] = min(qs) - m
    flags[F_GR0] = min(rs) - m
    grid = np.zeros(shape, dtype=np.int64)
    for q, r in walls:
        grid[q - flags[F_GQ0], r - flags[F_GR0]] = G_BLOCKED
    return grid
