"""Movement on the hex map for the Spells & Swords group kernel (numba): where each combatant stands and
faces, how far it may move, and the engine's searches toward a foe round taken hexes and walls.

Each function mirrors a piece of the reference code, and answers as it does (the group kernel's fights are
replayed by the engine face by face, tests/sim/test_sim_sas_group.py):

- :func:`spaces`: procedures.movement.movement (Movement Rating + Swift, a Charge's Swift +2, Hurt and
  Broken legs, knees, groin and feet, a lost leg's Move -4, halved Blinded, none Immobilized, Knocked Out or
  Staggered) at a speed;
- :func:`free_ring`, :func:`_flood`, :func:`approach`: engine/pathing.py's free_ring, _gets_closer and
  reaches, and approach (_search_path, the weighted A* search bounded in effort,
  its heap ordered (f, distance left, order pushed), neighbours in DIRECTIONS order). The engine's
  searches work on a window of cells round the mover; the answers do not depend on it, and here the
  breadth-first floods of ``_gets_closer`` and ``reaches`` are plain ones (the engine's are the plain
  flood's answers, pruned: its tests check that);
- :func:`no_room`, :func:`may_close`: sas/movement.py's no_room_next_to and _may_close (no_way_through
  is _may_close, then :func:`approach`: sas_group_core._closing): the hexes others stand on (anyone not
  dead) and the map's walls are taken;
- :func:`direction_to`: hexgrid.direction_to.
"""

from __future__ import annotations

import numpy as np

from fracas.engine.hexgrid import DIRECTIONS
from fracas.engine.pathing import APPROACH_EFFORT, APPROACH_WEIGHT
from fracas.sim.kernels.sas_core import (
    C_BLINDED,
    C_IMMOB,
    C_KO,
    DEAD,
    K_DEFENSE,
    QMAX,
    QW,
    X_STATUS,
    _has,
    _jit,
    _next,
)

# per combatant, after the group's own columns (sas_group_core.GS_*; GS[i, ...])
GS_Q = 8  # where it stands (axial q, r) and faces (0-5) now
GS_R = 9
GS_F = 10
GS_Q0 = 11  # and at the start
GS_R0 = 12
GS_F0 = 13
GS_MOVE = 14  # Movement Rating + Swift x swift_movement
GS_HURT_MOVE = 15  # hurt parts that slow it (BODY PART HURT: legs, knees, groin, feet)
GS_BROKEN_MOVE = 16  # broken ones (BODY PART BROKEN: legs, knees, feet)
GS_NO_CHARGE = 17  # hurt or broken legs, knees, feet and lost legs (CHARGE RULES: no Charge)
GS_LOST_LEG = 18  # MAJOR WOUND TABLE 4 Lost Limb: a leg (Move -4)
GS_DROPPED = 19  # the weapon it dropped (index + 1; 0: none), to Pick up
GS_SEARCH = 20  # its Search skill (Pick up Dropped Item)
NGS = 21

# GM: the movement numbers
M_CHARGE_SWIFT = 0  # CHARGE RULES Swift +2, x swift_movement
M_HURT = 1  # BODY PART HURT: Move per part
M_BROKEN = 2  # BODY PART BROKEN: Move per part
M_LOST_LEG = 3  # a lost leg's Move
M_HURT_PARTS = 4  # the body parts (bits by RANDOM BODY PART TABLE face) whose Hurt slows
M_BROKEN_PARTS = 5  # whose Broken slows
M_CHARGE_PARTS = 6  # hurt or broken, no Charge (CHARGE RULES: legs, knees, feet)
M_BLIND_SIGHT = 7  # Blinded and Partial Blindness on a check that needs sight (Pick up Dropped Item)
M_PBLIND_SIGHT = 8
M_PICK_UP = 9  # Pick up Dropped Item: its check's target (Easy)
M_WALL = 10  # the walls: q0, r0, rows, columns, then one flag per hex of that box
NM = 14

SPMAX = 48  # the most spaces a search may go (the builder refuses faster combatants)
SIDE = 2 * (SPMAX + 1) + 1
CELLS = SIDE * SIDE
HEAPMAX = APPROACH_EFFORT + 8
# WK: the searches' work space
W_FREE = 0  # per cell: 0 not looked at, 1 taken, 2 free
W_COST = W_FREE + CELLS  # steps from the start (the floods' depth)
W_PREV = W_COST + CELLS
W_QUEUE = W_PREV + CELLS
W_HEAP = W_QUEUE + CELLS
W_HCELL = W_HEAP + HEAPMAX
W_PATH = W_HCELL + HEAPMAX  # the path found: q, r per step
W_SAVE = W_PATH + 2 * (SPMAX + 2)  # the effects held while a first strike's take effect at once
W_WEAPON = W_SAVE + QMAX * QW  # per combatant, the weapon in hand and broken ones as a queue leaves them
NWK = W_WEAPON + 2 * 64

_DQ = np.array([d[0] for d in DIRECTIONS], np.int64)
_DR = np.array([d[1] for d in DIRECTIONS], np.int64)
_BIG = 1 << 20


@_jit()
def hexd(aq, ar, bq, br) -> int:  # noqa: ANN001
    """hexgrid.distance."""
    dq = aq - bq
    dr = ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1


@_jit()
def direction_to(aq, ar, bq, br) -> int:  # noqa: ANN001
    """hexgrid.direction_to: the direction whose step from ``a`` points most nearly at ``b``."""
    if aq == bq and ar == br:
        return 0
    q = bq - aq
    r = br - ar
    n = (abs(q) + abs(r) + abs(q + r)) >> 1
    best = 0
    best_d = -1
    for i in range(6):
        x = _DQ[i] * n - q
        y = _DR[i] * n - r
        d = (abs(x) + abs(y) + abs(x + y)) >> 1
        if best_d < 0 or d < best_d:
            best = i
            best_d = d
    return best


@_jit()
def wall(GM, q, r) -> bool:  # noqa: ANN001
    """A blocked hex of the map (map.blocked)."""
    a = q - GM[M_WALL]
    b = r - GM[M_WALL + 1]
    if a < 0 or b < 0 or a >= GM[M_WALL + 2] or b >= GM[M_WALL + 3]:
        return False
    return GM[NM + a * GM[M_WALL + 3] + b] != 0


@_jit()
def taken(GS, X, GM, n, me, q, r) -> bool:  # noqa: ANN001
    """state.occupied(me) | map_blocked: another combatant not dead stands there, or a wall."""
    for o in range(n):
        if o != me and GS[o, GS_Q] == q and GS[o, GS_R] == r and X[o, X_STATUS] != DEAD:
            return True
    return wall(GM, q, r)


@_jit()
def spaces(GM, GS, X, a, speed2, charge, rnd) -> int:  # noqa: ANN001
    """procedures.movement.movement at ``speed2`` / 2 (1 a Sneak, 2 a Walk or Close to Attack, 4 a Run or
    Charge); ``charge`` adds the Charge's Swift +2."""
    base = GS[a, GS_MOVE] + GS[a, GS_HURT_MOVE] * GM[M_HURT] + GS[a, GS_BROKEN_MOVE] * GM[M_BROKEN]
    base += GS[a, GS_LOST_LEG] * GM[M_LOST_LEG]
    if charge:
        base += GM[M_CHARGE_SWIFT]
    sp = base * speed2 / 2.0
    if _has(X, a, C_BLINDED):
        sp /= 2.0
    if _has(X, a, C_IMMOB) or _has(X, a, C_KO) or _next(X, a, K_DEFENSE, rnd) != 0:
        return 0  # Immobilized, Knocked Out, Staggered (its Defense -1 marks it)
    return max(int(sp), 1)


@_jit()
def free_ring(GS, X, GM, n, me, sq, sr, gq, gr, want) -> int:  # noqa: ANN001, PLR0913
    """pathing.free_ring: the first ring round the goal from ``want`` out with a hex not taken (the
    start counts as free), at most 6."""
    while want < 6:
        if want == 0:
            if (gq == sq and gr == sr) or not taken(GS, X, GM, n, me, gq, gr):
                return want
        else:
            q = gq + _DQ[4] * want
            r = gr + _DR[4] * want
            for i in range(6):
                for _j in range(want):
                    if (q == sq and r == sr) or not taken(GS, X, GM, n, me, q, r):
                        return want
                    q += _DQ[i]
                    r += _DR[i]
        want += 1
    return want


@_jit()
def _window(GS, X, GM, n, me, sq, sr, sp, WK) -> int:  # noqa: ANN001, PLR0913
    """The square of cells round the start (``sp + 1`` hexes each way), each marked taken or free; its
    side (the hex (q, r) is cell (q - sq + half) * side + r - sr + half)."""
    half = sp + 1
    side = 2 * half + 1
    for a in range(side):
        for b in range(side):
            WK[W_FREE + a * side + b] = 1 if wall(GM, sq - half + a, sr - half + b) else 2
    for o in range(n):
        if o == me or X[o, X_STATUS] == DEAD:
            continue
        a = GS[o, GS_Q] - sq + half
        b = GS[o, GS_R] - sr + half
        if 0 <= a < side and 0 <= b < side:
            WK[W_FREE + a * side + b] = 1
    return side


@_jit()
def _flood(sq, sr, gq, gr, sp, want, side, WK) -> bool:  # noqa: ANN001, PLR0913
    """A breadth-first flood from the start over free cells, ``sp`` steps at most: whether it meets a hex
    other than the start within ``want`` of the goal (pathing.reaches), or nearer the
    goal than the start (``want`` the start's distance - 1: pathing._gets_closer)."""
    half = sp + 1
    here = half * side + half
    for i in range(side * side):
        WK[W_COST + i] = -1
    WK[W_COST + here] = 0
    WK[W_QUEUE] = here
    head = 0
    tail = 1
    oq = sq - half
    orr = sr - half
    while head < tail:
        i = WK[W_QUEUE + head]
        head += 1
        g = WK[W_COST + i]
        if g >= sp:
            continue
        q = i // side
        r = i - q * side
        for k in range(6):
            nq = q + _DQ[k]
            nr = r + _DR[k]
            m = nq * side + nr
            if WK[W_COST + m] >= 0 or WK[W_FREE + m] != 2:
                continue
            WK[W_COST + m] = g + 1
            if hexd(nq + oq, nr + orr, gq, gr) <= want:
                return True
            WK[W_QUEUE + tail] = m
            tail += 1
    return False


@_jit()
def approach(GS, X, GM, n, me, gq, gr, sp, stop_at, WK) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913
    """pathing.approach from where ``me`` stands toward (gq, gr): the path's length (its hexes in WK at
    W_PATH), 0 for none."""
    sq = GS[me, GS_Q]
    sr = GS[me, GS_R]
    want = free_ring(GS, X, GM, n, me, sq, sr, gq, gr, stop_at)
    h0 = hexd(sq, sr, gq, gr)
    if h0 <= want or sp <= 0:
        return 0
    side = _window(GS, X, GM, n, me, sq, sr, sp, WK)
    if not _flood(sq, sr, gq, gr, sp, h0 - 1, side, WK):
        return 0  # nothing reachable is nearer the goal
    half = sp + 1
    oq = sq - half
    orr = sr - half
    here0 = half * side + half
    for i in range(side * side):
        WK[W_COST + i] = sp + 1
        WK[W_PREV + i] = -1
    WK[W_COST + here0] = 0
    # the heap: keys f << 40 | h << 20 | tick, the cell of each tick in W_HCELL
    WK[W_HEAP] = ((APPROACH_WEIGHT * h0) << 40) | (h0 << 20)
    WK[W_HCELL] = here0
    hn = 1
    best = here0
    best_h = h0
    best_g = 0
    tick = 0
    while hn > 0 and tick < APPROACH_EFFORT:
        key = WK[W_HEAP]
        hn -= 1
        if hn > 0:  # the last key to the root, sifted down
            last = WK[W_HEAP + hn]
            j = 0
            while True:
                c = 2 * j + 1
                if c >= hn:
                    break
                if c + 1 < hn and WK[W_HEAP + c + 1] < WK[W_HEAP + c]:
                    c += 1
                if WK[W_HEAP + c] < last:
                    WK[W_HEAP + j] = WK[W_HEAP + c]
                    j = c
                else:
                    break
            WK[W_HEAP + j] = last
        i = WK[W_HCELL + (key & (_BIG - 1))]
        h_here = (key >> 20) & (_BIG - 1)
        g = WK[W_COST + i]
        if h_here <= want:
            best = i
            break
        if g >= sp:
            continue
        g1 = g + 1
        q = i // side
        r = i - q * side
        for k in range(6):
            nq = q + _DQ[k]
            nr = r + _DR[k]
            m = nq * side + nr
            if WK[W_FREE + m] != 2 or WK[W_COST + m] <= g1:
                continue
            WK[W_COST + m] = g1
            WK[W_PREV + m] = i
            h = hexd(nq + oq, nr + orr, gq, gr)
            hk = h if h > want else want
            if hk < best_h or (hk == best_h and g1 < best_g):
                best = m
                best_h = hk
                best_g = g1
            tick += 1
            WK[W_HCELL + tick] = m
            key = ((g1 + APPROACH_WEIGHT * h) << 40) | (h << 20) | tick
            j = hn
            hn += 1
            while j > 0:
                p = (j - 1) >> 1
                if WK[W_HEAP + p] <= key:
                    break
                WK[W_HEAP + j] = WK[W_HEAP + p]
                j = p
            WK[W_HEAP + j] = key
    ln = 0
    node = best
    while node != here0:
        ln += 1
        node = WK[W_PREV + node]
    node = best
    k = ln
    while node != here0:
        k -= 1
        q = node // side
        WK[W_PATH + 2 * k] = q + oq
        WK[W_PATH + 2 * k + 1] = node - q * side + orr
        node = WK[W_PREV + node]
    return ln


@_jit()
def no_room(GS, X, GM, n, me, t) -> bool:  # noqa: ANN001
    """sas/movement.no_room_next_to: every hex next to ``t`` (more than a space from ``me``) is taken."""
    q = GS[t, GS_Q]
    r = GS[t, GS_R]
    if hexd(GS[me, GS_Q], GS[me, GS_R], q, r) <= 1:
        return False
    for k in range(6):  # noqa: SIM110 - numba compiles no all() of a generator
        if not taken(GS, X, GM, n, me, q + _DQ[k], r + _DR[k]):
            return False
    return True


@_jit()
def may_close(GS, X, GM, n, me, t, sp, WK) -> bool:  # noqa: ANN001
    """sas/movement._may_close: False when no free hex next to ``t`` lies within ``sp`` steps."""
    sq = GS[me, GS_Q]
    sr = GS[me, GS_R]
    gq = GS[t, GS_Q]
    gr = GS[t, GS_R]
    d = hexd(sq, sr, gq, gr)
    if sp <= 0 or d - sp > 1:
        return False
    want = free_ring(GS, X, GM, n, me, sq, sr, gq, gr, 1)
    if d <= want:
        return False
    side = _window(GS, X, GM, n, me, sq, sr, sp, WK)
    return _flood(sq, sr, gq, gr, sp, want, side, WK)
