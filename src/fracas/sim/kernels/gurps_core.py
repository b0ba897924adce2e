"""The compiled loop of the GURPS group kernel (numba): one fight after another, scalar code over small
arrays.

Every function here mirrors, for a fight on foot that the builder (gurps_group.py) accepts, a piece of the
``gurps4`` ruleset and of its ``default`` and ``aggressive`` tactics (the docstrings name the engine function
each follows), and draws its dice **in the engine's order**: every die of a GURPS fight is a d6 (3d6 rolls,
damage dice, the turn-order tie die), so the engine can replay a kernel fight from its faces
(:meth:`~fracas.sim.kernels.gurps_group.GurpsGroupKernel.replay`; the tests do, face by face). A fight the
loop cannot finish (the ``BACK_*`` reasons) is handed back with the faces drawn so far and the engine
replays and finishes it.

Numbers come in from the builder: ``C`` (per combatant, the ``C_*`` columns), ``SK`` (the attack roll's
static part), ``INJ`` (the injury of each basic damage, worked out by the engine's ``injury_from``), ``P``
(the ``P_*`` parameters) and ``CRIT`` (the Critical Hit Table, B556).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def _jit(**options: bool):  # noqa: ANN202
    """numba's ``njit``, cached on disk; compiled in each process where no cache can be written."""

    def wrap(f):  # noqa: ANN001, ANN202
        try:
            return njit(cache=True, **options)(f)
        except RuntimeError:  # no cache locator: nowhere to write
            return njit(**options)(f)

    return wrap


# per combatant static numbers C[i, ...] (its attacks are in W)
C_SIDE, C_HT, C_DX, C_HP, C_ST, C_MOVE, C_DODGE, C_HPT, C_AGGR, C_RANK = range(10)
C_PPARRY, C_PFENCE, C_BLOCK, C_DB, C_Q0, C_R0, C_SPEED = range(10, 17)
C_FLIES, C_AIR, C_HOVER, C_ALT0 = range(17, 21)  # flight (a flyer that can hover), air Move, altitude
# mounted combat (B396-397): a mount; a rider's lance's reach, saddle and stirrups, war saddle, Riding, the
# modifiers of his rolls to keep the mount from spooking and to stay on, his defense penalty; the knockdown
# modifier of the figure's torso; its mount at the start; the reach of a rider's weapons without the lance;
# a war-trained mount; Size Modifier
C_MOUNTF, C_LREACH, C_SST, C_WSAD, C_RIDING, C_SPOOKMOD, C_STAYMOD = range(21, 28)
C_RDEF, C_KDMOD, C_MOUNT0, C_NLREACH, C_WAR, C_SM, C_WILL = range(28, 35)
C_DEFN = 35  # the defensive tactic: All-Out Defense (Increased Dodge) while its foe is in reach
NC = 36
# attack profiles W[i, p, ...]: p 0 the weapon in hand at the start, 1 the best weapon without a lance (a
# rider's once his lance snapped or he is on foot), 2-4 a mount's natural attacks in their order
W_VALID, W_DN, W_DADD, W_DTYPE, W_MINB, W_REACH, W_STOP, W_PUNCH3, W_COUCH, W_JOUST = range(10)
W_WPARRY, W_WUNBAL, W_WFENCE, W_SKILL, W_TRAMPLE, W_MCAP = range(10, 16)
W_RANGED, W_ACC, W_MAXR, W_RELOAD = range(16, 20)  # a bow: Acc, Max range in yards, Ready turns after a shot
NW = 20  # W_MCAP: on horseback, down to Riding (mounted.mounted_skill, B397)
NPROF = 5
# parameters P[...]
P_MAXR, P_CRITTAB, P_LY_MELEE, P_LY_DEF, P_KD_MOD, P_BMAX = range(6)
P_VELCOUCH, P_RIDERLESS, P_UNHORSED, P_VEL_AT, P_VEL_HIT, P_VEL_DMG, P_COUCH_ADDS, P_JCAP = range(6, 14)
P_AFTER_MOUNT, P_STUNNED_RIDING, P_KB_RIDING, P_RIDER_FT = range(14, 18)
P_LY_TARGET, P_MIN_SHOT, P_KEEP_AWAY, P_STAY_WITHIN = range(18, 22)
# the map's blocked hexes (taken.map_blocked): a bitmap of the box round them, at P[P_MAP] (0: none), its
# corner (q, r) and its size
P_MAP, P_MAPQ0, P_MAPR0, P_MAPW, P_MAPH = range(22, 27)
P_AOD = 27  # All-Out Defense (Increased Dodge): its bonus to Dodge (B366)
NP = 28
P_RNG0 = NP  # P[P_RNG0 + yards]: the Speed/Range penalty (B550), as far as the longest Max range
# damage types the loop tells apart (knockback, B378)
T_CR, T_CUT, T_OTHER = 0, 1, 2
# statuses
ACTIVE, UNCONSCIOUS, DEAD, MORTAL, UNHORSED, RIDERLESS = 0, 1, 2, 3, 4, 5
NSTATUS = 6
# the maneuver a figure took (for Evaluate, which lasts while it evaluates or attacks)
MAN_OTHER, MAN_ATTACK, MAN_EVALUATE, MAN_AIM, MAN_AOD = 0, 1, 2, 3, 4  # MAN_AOD: Increased Dodge
# Critical Hit Table effects (injury.CRIT_EFFECTS)
K_NONE, K_TRIPLE, K_DR_HALF, K_DOUBLE, K_MAX, K_MAJOR, K_DOUBLE_SHOCK, K_DROP = range(8)
# the per-fight state X[i, ...]
X_Q, X_R, X_STATUS, X_INJ, X_LYING, X_UNREADY, X_SHUNREADY, X_STUNNED, X_STUNREC, X_SHOCK = range(10)
X_SHOCKNOW, X_RETREATED, X_WPARRIES, X_PPARRIES, X_BLOCKED, X_ATTACKED, X_ATTLAST, X_AOA = range(10, 18)
X_DEALT, X_TAKEN, X_ALT = 18, 19, 20
# whom it rides / who rides it (index + 1, 0 none), yards moved this turn and on its last turn, the foe it
# evaluates (index + 1) and for how many turns, out of control (a spooked mount), the maneuver it took
X_MOUNT, X_RIDER, X_MOVED, X_MOVEDLAST, X_EVT, X_EVN, X_OOC, X_MAN = range(21, 29)
X_PROF, X_BROKEN = 29, 30  # the attack profile of the weapon in hand (-1 none), the lance snapped
X_AIMT, X_AIMN, X_RELOAD = 31, 32, 33  # the foe aimed at (index + 1) and for how many turns; Ready turns left
NX = 34

BACK_CEILING = 2  # a flyer near the flight ceiling (B398), which a Move toward it would meet
BACK_LANCE = 3  # a figure left with no weapon (it would fight with its natural attacks)
BACK_ON_FOOT = 4  # a riderless mount stays in the fight
BACK_TRAMPLE = 5  # a mount could trample (B404)
CEILING = 1990  # yards: past 2,000 (6,000 ft) a Move is refused (validate.ceiling_refusal)
ROUTE_SLACKS = np.array([0, 2, 6, 14], dtype=np.int64)  # pathing._ROUTE_SLACKS
POCKET = 8  # pathing._POCKET
BFS_MARGIN = 8  # geometry.BFS_MARGIN
SEEN = 1 << 15  # the route search's hash set: its first size (it grows when a search needs more)

DQ = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)  # hexgrid.DIRECTIONS
DR = np.array([0, -1, -1, 0, 1, 1], dtype=np.int64)


# ----- dice --------------------------------------------------------------------------------------------


@_jit()
def _next64(rs: np.ndarray) -> np.uint64:
    """SplitMix64 (Steele, Lea, Flood 2014): one 64-bit word of the fight's stream."""
    x = rs[0] + np.uint64(0x9E3779B97F4A7C15)
    rs[0] = x
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_jit()
def _d6(rs: np.ndarray, tr: np.ndarray, tn: np.ndarray) -> int:
    """One d6 (53 random bits scaled: a bias below 1e-14), traced when ``tr`` has room."""
    z = _next64(rs) >> np.uint64(11)
    face = int((z * np.uint64(6)) >> np.uint64(53)) + 1
    k = tn[0]
    if k < tr.shape[1]:
        tr[0, k] = 6
        tr[1, k] = face
    tn[0] = k + 1
    return face


@_jit()
def _3d6(rs: np.ndarray, tr: np.ndarray, tn: np.ndarray) -> int:
    """dice.roll_3d6."""
    return _d6(rs, tr, tn) + _d6(rs, tr, tn) + _d6(rs, tr, tn)


@_jit()
def _judge(roll: int, eff: int, ranged: bool) -> int:
    """rolls.judge: 2 critical success, 1 success, 0 failure, -1 critical failure (B343-348)."""
    if roll <= 4 or (roll == 5 and eff >= 15) or (roll == 6 and eff >= 16):
        return 2
    crit = roll == 18 or (roll == 17 and eff <= 15) or (not ranged and roll >= eff + 10)
    if roll >= 17 or roll > eff:
        return -1 if crit else 0
    return 1


# ----- where figures are -------------------------------------------------------------------------------


@_jit()
def _hexd(q1: int, r1: int, q2: int, r2: int) -> int:
    dq = q1 - q2
    dr = r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@_jit()
def _map_blocked(P: np.ndarray, q: int, r: int) -> bool:
    """taken.map_blocked: a hex the map blocks (the bitmap in P)."""
    at = P[P_MAP]
    if at == 0:
        return False
    dq = q - P[P_MAPQ0]
    dr = r - P[P_MAPR0]
    if dq < 0 or dr < 0 or dq >= P[P_MAPW] or dr >= P[P_MAPH]:
        return False
    return P[at + dq * P[P_MAPH] + dr] == 1


@_jit()
def _blocked(P: np.ndarray, X: np.ndarray, n: int, me: int, q: int, r: int) -> bool:
    """geometry.blockers: a hex the map blocks, or one another figure (not the mover's mount or rider)
    stands on at about the mover's altitude (flyers pass over others, B398), unless it is dead or a
    riderless mount that left (the fallen take up their hex)."""
    if _map_blocked(P, q, r):
        return True
    alt = X[me, X_ALT]
    for j in range(n):
        if j == me or X[j, X_Q] != q or X[j, X_R] != r or j + 1 == X[me, X_MOUNT] or j + 1 == X[me, X_RIDER]:
            continue
        if X[j, X_STATUS] != DEAD and X[j, X_STATUS] != RIDERLESS and abs(X[j, X_ALT] - alt) < 2:
            return True
    return False


@_jit()
def _occupied(P: np.ndarray, X: np.ndarray, n: int, me: int, q: int, r: int) -> bool:
    """taken.blocked: a hex the map blocks or another figure that is not dead stands on
    (FightState.occupied)."""
    if _map_blocked(P, q, r):
        return True
    for j in range(n):  # noqa: SIM110 - a plain loop compiles to less than any() over a generator
        if j != me and X[j, X_STATUS] != DEAD and X[j, X_Q] == q and X[j, X_R] == r:
            return True
    return False


@_jit()
def _place(X: np.ndarray, a: int, q: int, r: int) -> None:
    """geometry.move_figure on the map: the figure and whoever rides it."""
    X[a, X_Q] = q
    X[a, X_R] = r
    rider = X[a, X_RIDER] - 1
    if rider >= 0:
        X[rider, X_Q] = q
        X[rider, X_R] = r


@_jit()
def _cost(h: int, v: int) -> int:
    """int(aerial.move_cost(h, v)): a yard up-and-across costs 1.5 (B398), rounded down."""
    mn = min(h, v)
    return mn + mn // 2 + max(h, v) - mn


@_jit()
def _flying(C: np.ndarray, alt: int, i: int) -> bool:
    """figure.flying."""
    return C[i, C_FLIES] == 1 and alt > 0


@_jit()
def _reaches(C: np.ndarray, X: np.ndarray, a: int, q: int, r: int, alt: int, t: int, mask: int) -> bool:
    """geometry.in_reach of ``a`` standing at (q, r, alt): aerial.in_reach, between two flyers the larger of
    the distances across and up, else aerial.melee_distance; at least 1 (B398)."""
    h = _hexd(q, r, X[t, X_Q], X[t, X_R])
    v = abs(alt - X[t, X_ALT])
    if h == 0 and v == 0:
        return False
    d = max(h, v) if _flying(C, alt, a) and _flying(C, X[t, X_ALT], t) else _cost(h, v)
    d = max(d, 1)
    return d < 62 and (mask >> d) & 1 == 1


@_jit()
def _in_reach(C: np.ndarray, X: np.ndarray, a: int, t: int, mask: int) -> bool:
    """geometry.in_reach with an attack of these reaches (a bit mask)."""
    return _reaches(C, X, a, X[a, X_Q], X[a, X_R], X[a, X_ALT], t, mask)


@_jit()
def _across(budget: int, v: int) -> int:
    """aerial.across_within: the most yards across that leave room for ``v`` yards up or down."""
    if v == 0:
        return max(0, budget)
    flat = (2 * budget - v) // 2
    if flat >= v:
        return flat
    return max(0, min(v, 2 * (budget - v)))


@_jit()
def _away(C, P, X, n, me, tq, tr_, steps, path) -> int:  # noqa: ANN001
    """pathing.away from one threat with geometry._nearer_centre breaking ties (path_towards(away=True)):
    each step the free neighbour, not already on the path, farthest from the threat and farther than where
    the mover stands; the first in DIRECTIONS order among equals, or the one nearest (0, 0) by |q| + |r|."""
    k = 0
    hq = X[me, X_Q]
    hr = X[me, X_R]
    for _ in range(steps):
        floor = _hexd(hq, hr, tq, tr_)
        found = False
        bd = 0
        bt = 0
        bq = 0
        br = 0
        for di in range(6):
            nq = hq + DQ[di]
            nr = hr + DR[di]
            if _blocked(P, X, n, me, nq, nr):
                continue
            on = False
            for j in range(k):
                if path[j, 0] == nq and path[j, 1] == nr:
                    on = True
            if on:
                continue
            d = _hexd(nq, nr, tq, tr_)
            if d <= floor:
                continue
            tie = -abs(nq) - abs(nr)
            if not found or d > bd or (d == bd and tie > bt):
                found = True
                bd = d
                bt = tie
                bq = nq
                br = nr
        if not found:
            break
        path[k, 0] = bq
        path[k, 1] = br
        k += 1
        hq = bq
        hr = br
    return k


@_jit()
def _walled_off(P, X, n, me, gq, gr, stop, near) -> bool:  # noqa: ANN001
    """pathing._walled_off with margin None and reach ``near``: True when the free hexes within ``stop`` of
    the goal, with every free hex joined to them within ``near`` of the mover, are at most POCKET hexes none
    of which is next to the mover (the search would weigh its whole area for nothing). The answer does not
    depend on the order the hexes are weighed in."""
    sq = X[me, X_Q]
    sr = X[me, X_R]
    hq = np.empty(POCKET + 8, np.int64)
    hr = np.empty(POCKET + 8, np.int64)
    k = 0
    for dq in range(-stop, stop + 1):  # the hexes within ``stop`` of the goal (its rings 0..stop)
        for dr in range(max(-stop, -dq - stop), min(stop, -dq + stop) + 1):
            q = gq + dq
            r = gr + dr
            if _hexd(q, r, sq, sr) <= near and not _blocked(P, X, n, me, q, r):
                if k >= POCKET:
                    return False  # more than POCKET already
                hq[k] = q
                hr[k] = r
                k += 1
    i = 0
    while i < k:
        for di in range(6):
            q = hq[i] + DQ[di]
            r = hr[i] + DR[di]
            if q == sq and r == sr:
                return False
            known = False
            for j in range(k):
                if hq[j] == q and hr[j] == r:
                    known = True
                    break
            if known or _hexd(q, r, sq, sr) > near or _blocked(P, X, n, me, q, r):
                continue
            if k >= POCKET:
                return False
            hq[k] = q
            hr[k] = r
            k += 1
        i += 1
    return True


@_jit()
def _claim(seen: np.ndarray, sid: int, q: int, r: int) -> bool:
    """The hash set of the hexes a search weighed (open addressing, linear probing; a row holds the search's
    id, q and r): adds (q, r) and returns True, or False when this search already weighed it. A row belongs
    to the search whose id it holds, so nothing is cleared between searches; the last row holds the last
    search's id and how many rows it took."""
    mask = seen.shape[0] - 2  # the capacity (a power of two) less 1
    i = ((q * 73856093) ^ (r * 19349663)) & mask
    while seen[i, 0] == sid:
        if seen[i, 1] == q and seen[i, 2] == r:
            return False
        i = (i + 1) & mask
    seen[i, 0] = sid
    seen[i, 1] = q
    seen[i, 2] = r
    seen[-1, 1] += 1
    return True


@_jit()
def _search(P, X, n, me, gq, gr, stop, max_len, near, path, seen, queue) -> int:  # noqa: ANN001
    """pathing._route with margin None, reach ``near`` and ``max_len`` (-1: none): breadth first from the
    mover, each hex's neighbours in DIRECTIONS order, every hex weighed once (turned down when too far from
    the goal for the steps left, farther than ``near`` from the mover, or blocked), the first hex found
    within ``stop`` of the goal ends it. Writes the path's first hexes (as many as ``path`` holds) and
    returns its length; -1 when there is none, -3 when the hash set is half full (a larger one is needed).
    ``queue[i]``: a hex reached, the index of the hex it was reached from, its depth."""
    sq = X[me, X_Q]
    sr = X[me, X_R]
    sid = seen[-1, 0] + 1
    seen[-1, 0] = sid
    seen[-1, 1] = 0
    full = (seen.shape[0] - 1) // 2
    _claim(seen, sid, sq, sr)
    queue[0, 0] = sq
    queue[0, 1] = sr
    queue[0, 2] = 0
    queue[0, 3] = 0
    qn = 1
    qi = 0
    far = 1 << 30
    while qi < qn:
        hq = queue[qi, 0]
        hr = queue[qi, 1]
        if max_len >= 0:
            far = max_len + stop - queue[qi, 3] - 1
        for di in range(6):
            nq = hq + DQ[di]
            nr = hr + DR[di]
            if not _claim(seen, sid, nq, nr):
                continue
            if seen[-1, 1] > full:
                return -3
            nd = _hexd(nq, nr, gq, gr)
            if nd > far or _hexd(nq, nr, sq, sr) > near or _blocked(P, X, n, me, nq, nr):
                continue
            if nd <= stop:
                # the path back to the start
                length = queue[qi, 3] + 1
                if length - 1 < path.shape[0]:
                    path[length - 1, 0] = nq
                    path[length - 1, 1] = nr
                j = qi
                while j != 0:
                    d = queue[j, 3]
                    if d - 1 < path.shape[0]:
                        path[d - 1, 0] = queue[j, 0]
                        path[d - 1, 1] = queue[j, 1]
                    j = queue[j, 2]
                return length
            queue[qn, 0] = nq
            queue[qn, 1] = nr
            queue[qn, 2] = qi
            queue[qn, 3] = queue[qi, 3] + 1
            qn += 1
        qi += 1
    return -1


@_jit()
def _route(P, X, n, me, gq, gr, stop, near, path, seen, queue) -> int:  # noqa: ANN001
    """pathing.route without max_len, with margin None and reach ``near``: the quick answers, _walled_off,
    then the search bounded by the straight distance plus each of ROUTE_SLACKS in turn (the path it finds
    is the unbounded search's, found among fewer hexes), then the search bounded by ``near`` alone. No other
    bound: when the hash set fills up, a larger one is made for this search. Returns the path's length (its
    first hexes in ``path``), -1 when there is none."""
    sq = X[me, X_Q]
    sr = X[me, X_R]
    d0 = _hexd(sq, sr, gq, gr)
    if d0 <= stop:
        return 0
    if stop == 1:
        allb = True
        for di in range(6):
            if not _blocked(P, X, n, me, gq + DQ[di], gr + DR[di]):
                allb = False
                break
        if allb:
            return -1
    if d0 - stop > near:
        return -1
    if _walled_off(P, X, n, me, gq, gr, stop, near):
        return -1
    for i in range(len(ROUTE_SLACKS) + 1):
        max_len = d0 - stop + ROUTE_SLACKS[i] if i < len(ROUTE_SLACKS) else -1
        m = _search(P, X, n, me, gq, gr, stop, max_len, near, path, seen, queue)
        while m == -3:  # the hash set is half full: one four times as large, for this search only
            cap = 4 * (seen.shape[0] - 1)
            seen = np.zeros((cap + 1, 3), np.int64)
            queue = np.zeros((cap // 2 + 8, 4), np.int64)
            m = _search(P, X, n, me, gq, gr, stop, max_len, near, path, seen, queue)
        if m >= 0:
            return m
    return -1


@_jit()
def _towards(P, X, n, me, gq, gr, steps, stop, path, work, seen, queue) -> int:  # noqa: ANN001
    """geometry.path_towards (not away): pathing.towards with margin None and reach distance + BFS_MARGIN:
    the greedy steps (each the first free neighbour in DIRECTIONS order nearer the goal); when they stop
    short, the first ``steps`` hexes of the shortest way round instead (the greedy ones if there is none).
    Returns the path's length (``steps`` at most, no more than ``work`` holds)."""
    if steps <= 0:
        return 0
    q = X[me, X_Q]
    r = X[me, X_R]
    left = _hexd(q, r, gq, gr)
    k = 0
    for _ in range(steps):
        if left <= stop:
            break
        found = False
        for di in range(6):
            nq = q + DQ[di]
            nr = r + DR[di]
            d = _hexd(nq, nr, gq, gr)
            if d >= left:
                continue
            if _blocked(P, X, n, me, nq, nr):
                continue
            found = True
            q = nq
            r = nr
            left = d
            break
        if not found:
            break
        path[k, 0] = q
        path[k, 1] = r
        k += 1
    if k >= steps or left <= stop:
        return k
    near = _hexd(X[me, X_Q], X[me, X_R], gq, gr) + BFS_MARGIN
    m = _route(P, X, n, me, gq, gr, stop, near, work, seen, queue)
    if m < 0:
        return k
    if m > steps:
        m = steps
    for j in range(m):
        path[j, 0] = work[j, 0]
        path[j, 1] = work[j, 1]
    return m


# ----- injury ------------------------------------------------------------------------------------------


@_jit()
def _shock(inj: int, hp: int, hpt: int) -> int:
    """wounds.shock_penalty (B419)."""
    if hpt or inj <= 0:
        return 0
    return -min(4, inj // max(1, hp // 10))


@_jit()
def _end(C: np.ndarray, X: np.ndarray, n: int) -> int:
    """play.Fight._check_end: -1 while two sides have someone active; else the standing side, or -2."""
    s0 = -1
    for j in range(n):
        if X[j, X_STATUS] == ACTIVE:
            s = C[j, C_SIDE]
            if s0 < 0:
                s0 = s
            elif s != s0:
                return -1
    return s0 if s0 >= 0 else -2


@_jit()
def _unhorse(C, P, X, n, rider) -> int:  # noqa: ANN001
    """riding.unhorse: the rider falls off into the first free hex next to him (geometry.free_hex_near),
    prone; out under the tournament rule (option unhorsed_is_out); the mount left without a rider leaves
    (option riderless_mounts_leave). Returns BACK_ON_FOOT when either stays in the fight."""
    m = X[rider, X_MOUNT] - 1
    if m < 0:
        return 0
    X[rider, X_MOUNT] = 0
    X[m, X_RIDER] = 0
    q = X[rider, X_Q]
    r = X[rider, X_R]
    for di in range(6):
        if not _occupied(P, X, n, rider, q + DQ[di], r + DR[di]):
            X[rider, X_Q] = q + DQ[di]
            X[rider, X_R] = r + DR[di]
            X[rider, X_ALT] = 0
            break
    X[rider, X_LYING] = 1
    if P[P_UNHORSED] and X[rider, X_STATUS] == ACTIVE:
        X[rider, X_STATUS] = UNHORSED
    if X[m, X_STATUS] == ACTIVE and P[P_RIDERLESS]:
        X[m, X_STATUS] = RIDERLESS
    if X[m, X_STATUS] == ACTIVE:
        return BACK_ON_FOOT
    return 0


@_jit()
def _stay_on(C, P, X, n, rider, extra, rs, tr, tn) -> int:  # noqa: ANN001
    """riding.stay_on: Riding (riding_base without the stirrups' control bonus, the war saddle's +1, this
    turn's shock) with ``extra``, or the rider falls off. Returns 0 or a hand-back reason."""
    eff = C[rider, C_RIDING] + C[rider, C_STAYMOD] + X[rider, X_SHOCKNOW] + extra
    if _judge(_3d6(rs, tr, tn), eff, False) <= 0:
        return _unhorse(C, P, X, n, rider)
    return 0


@_jit()
def _knocked_out(C, P, X, n, t, status, rs, tr, tn) -> int:  # noqa: ANN001
    """injury.knocked_out: the status changes; a rider falls off (in a war saddle, unconscious, a d6 of 1-3
    keeps him seated), a mount's rider falls off. Returns 0 or a hand-back reason."""
    if X[t, X_STATUS] == status:
        return 0
    X[t, X_STATUS] = status
    m = X[t, X_MOUNT] - 1
    if m >= 0:
        if C[t, C_WSAD] and status == UNCONSCIOUS and _d6(rs, tr, tn) <= 3:
            if X[m, X_STATUS] == ACTIVE and X[m, X_RIDER] == t + 1 and P[P_RIDERLESS]:
                X[m, X_STATUS] = RIDERLESS
            return 0
        back = _unhorse(C, P, X, n, t)
        if back:
            return back
    if C[t, C_MOUNTF] and X[t, X_RIDER]:
        return _unhorse(C, P, X, n, X[t, X_RIDER] - 1)
    return 0


@_jit()
def _apply_hit(C, P, W, INJ, CRIT, X, n, a, p, t, critical, rs, tr, tn, path) -> int:  # noqa: ANN001, PLR0913
    """injury.apply_hit and injury.after_injury for a blow on the torso. Returns 0, or a hand-back
    reason."""
    crit = K_NONE
    if critical and P[P_CRITTAB]:
        crit = CRIT[_3d6(rs, tr, tn)]
    # injury.damage_dice: a couched lance on a mount that moved last turn (B397), the mount's velocity
    nd = W[a, p, W_DN]
    adds = W[a, p, W_DADD]
    dm = 0
    m = X[a, X_MOUNT] - 1
    couched = False
    if m >= 0:
        moved = X[m, X_MOVEDLAST]
        if W[a, p, W_COUCH] and moved > 0 and C[a, C_SST]:
            nd = C[m, C_ST] * moved // 100
            adds = P[P_COUCH_ADDS]
            couched = True
        if moved >= P[P_VEL_AT] and (not couched or P[P_VELCOUCH]) and not W[a, p, W_RANGED]:
            dm = P[P_VEL_DMG]
    raw = adds + dm
    for _ in range(nd):
        raw += _d6(rs, tr, tn)
    minb = W[a, p, W_MINB]
    basic = max(minb, raw)
    if crit == K_MAX:
        basic = max(minb, 6 * nd + adds + dm)
    elif crit == K_DOUBLE:
        basic *= 2
    elif crit == K_TRIPLE:
        basic *= 3
    if W[a, p, W_JOUST] and basic > P[P_JCAP]:
        # mounted.jousting_lance: it snaps, does 15 and is gone from the hand (B397)
        basic = P[P_JCAP]
        X[a, X_BROKEN] = 1
        if X[a, X_PROF] == p:
            X[a, X_PROF] = -1
    code = INJ[a, t, 1 if crit == K_DR_HALF else 0, basic, p]
    inj = code >> 1
    pen = code & 1
    hp = C[t, C_HP]
    before = hp - X[t, X_INJ]
    if inj:
        X[t, X_INJ] += inj
        X[t, X_TAKEN] += inj
        X[a, X_DEALT] += inj
    now = hp - X[t, X_INJ]
    rider = X[t, X_RIDER] - 1
    # shock (B419), doubled on critical hit 8 (at most -8)
    if inj:
        shock = _shock(inj, hp, C[t, C_HPT])
        cap = -4
        if crit == K_DOUBLE_SHOCK:
            shock *= 2
            cap = -8
        if shock:
            old = X[t, X_SHOCK]
            X[t, X_SHOCK] = max(min(cap, old), old + shock)
    # hurt while aiming: Will or the Aim is lost (B364)
    aiming = inj and X[t, X_STATUS] == ACTIVE and X[t, X_AIMT]
    if aiming and _judge(_3d6(rs, tr, tn), C[t, C_WILL], False) <= 0:
        X[t, X_AIMT] = 0
        X[t, X_AIMN] = 0
    if rider >= 0 and X[rider, X_STATUS] == ACTIVE:
        # the mount is hit: Riding minus all its shock, or it spooks (B397; mounted.mount_hit_spook_roll)
        eff = C[rider, C_RIDING] + C[rider, C_SPOOKMOD] + X[rider, X_SHOCKNOW] + X[t, X_SHOCK]
        if _judge(_3d6(rs, tr, tn), eff, False) <= 0:
            X[t, X_OOC] = 1
    major = 2 * inj > hp or (crit == K_MAJOR and pen)
    if X[t, X_STATUS] == ACTIVE and major:
        # wounds.knockdown_roll (B420)
        eff = C[t, C_HT] + C[t, C_KDMOD]  # the torso's knockdown modifier for a major wound
        roll = _3d6(rs, tr, tn)
        j = _judge(roll, eff, False)
        if j <= 0:
            if eff - roll <= -5 or j == -1:
                back = _knocked_out(C, P, X, n, t, UNCONSCIOUS, rs, tr, tn)
                if back:
                    return back
            else:
                X[t, X_STUNNED] = 1
                X[t, X_STUNREC] = 0
                if not X[t, X_MOUNT] and not _flying(C, X[t, X_ALT], t):  # a rider, a flyer: not prone
                    X[t, X_LYING] = 1
                if not C[t, C_MOUNTF] and not X[t, X_UNREADY]:
                    X[t, X_UNREADY] = 1
                if C[t, C_MOUNTF]:
                    # the Mount Loss of Control Table's 12: the mount falls, its rider with it (B397)
                    X[t, X_LYING] = 1
                    if X[t, X_RIDER]:
                        back = _unhorse(C, P, X, n, X[t, X_RIDER] - 1)
                        if back:
                            return back
                elif X[t, X_MOUNT]:
                    back = _stay_on(C, P, X, n, t, P[P_STUNNED_RIDING], rs, tr, tn)
                    if back:
                        return back
    # death checks (B419)
    for k in range(1, 5):
        if before > -k * hp >= now:
            st = X[t, X_STATUS]
            if st != ACTIVE and st != UNCONSCIOUS:
                break
            roll = _3d6(rs, tr, tn)
            j = _judge(roll, C[t, C_HT], False)
            if j <= 0:
                status = MORTAL if C[t, C_HT] - roll >= -2 and j == 0 else DEAD
                back = _knocked_out(C, P, X, n, t, status, rs, tr, tn)
                if back:
                    return back
                break
    if now <= -5 * hp and X[t, X_STATUS] != DEAD:
        back = _knocked_out(C, P, X, n, t, DEAD, rs, tr, tn)
        if back:
            return back
    # knockback (B378); riders are unseated (B397)
    dt = W[a, p, W_DTYPE]
    yards = 0
    if dt == T_CR or (dt == T_CUT and not pen):
        st_ = C[t, C_ST]
        yards = basic // max(1, st_ - 2) if st_ >= 3 else basic
    if yards and X[t, X_STATUS] == ACTIVE:
        if X[t, X_MOUNT]:
            if not C[t, C_SST]:
                back = _unhorse(C, P, X, n, t)
            else:
                back = _stay_on(C, P, X, n, t, P[P_KB_RIDING] * yards, rs, tr, tn)
            if back:
                return back
        elif not C[t, C_MOUNTF] or rider < 0:
            k = _away(C, P, X, n, t, X[a, X_Q], X[a, X_R], yards, path)
            if k:
                X[t, X_Q] = path[k - 1, 0]
                X[t, X_R] = path[k - 1, 1]
            eff = C[t, C_DX] - (yards - 1 if yards > 1 else 0) + X[t, X_SHOCKNOW]
            if _judge(_3d6(rs, tr, tn), eff, False) <= 0:
                X[t, X_LYING] = 1
    if crit == K_DROP and X[t, X_STATUS] == ACTIVE and not C[t, C_MOUNTF]:
        X[t, X_UNREADY] = 1
    return 0


# ----- the attack and its defense ----------------------------------------------------------------------


@_jit()
def _defense(C, P, W, X, a, p, d, out) -> int:  # noqa: ANN001
    """Default.choose for a react decision over defense._defense_options (Dodge and Drop never; no Dodge
    and Drop against melee anyway): the option with the best value, a retreat only when it is better.
    ``out``: (kind 0 dodge, 1 punch parry, 2 weapon parry, 3 block; retreat; value). Returns 0 when only
    "no defense" is on offer."""
    if X[d, X_AOA]:
        return 0  # All-Out Attack: no active defense (B365)
    stunned = X[d, X_STUNNED]
    posture = P[P_LY_DEF] if X[d, X_LYING] else 0
    common = C[d, C_DB] + posture - (4 if stunned else 0)
    d_flies = _flying(C, X[d, X_ALT], d)
    ranged = W[a, p, W_RANGED] == 1
    if not ranged and not (d_flies and _flying(C, X[a, X_ALT], a)):
        # geometry.height_ft and active_defense.height_defense_modifier: Combat at Different Levels (B402),
        # 3 ft a yard of altitude, a rider 3 ft above a foe on foot (B397)
        feet = 3 * (X[d, X_ALT] - X[a, X_ALT])
        if not C[d, C_MOUNTF] and not C[a, C_MOUNTF]:
            if X[d, X_MOUNT] and not X[a, X_MOUNT]:
                feet += P[P_RIDER_FT]
            elif X[a, X_MOUNT] and not X[d, X_MOUNT]:
                feet -= P[P_RIDER_FT]
        if abs(feet) >= 3:
            common += min(3, abs(feet) - 2) if feet > 0 else -min(3, abs(feet) - 2)
    common += C[d, C_RDEF] if X[d, X_MOUNT] else 0  # mounted.rider_defense_penalty (B397)
    hover = 1 if d_flies and C[d, C_HOVER] else 0  # aerial.hover_retreat_bonus
    # no retreat from the saddle (B397), while stunned, or from a second attacker this turn (B377)
    can_retreat = not stunned and not X[d, X_MOUNT] and not ranged  # retreat is against melee (B377)
    can_retreat = can_retreat and (X[d, X_RETREATED] == 0 or X[d, X_RETREATED] == a + 1)
    best = -1000
    best_retreat = False
    found = 0
    for kind in range(1 if C[d, C_MOUNTF] else 4):  # a mount's only defense is Dodge (B397)
        if kind == 0:
            v = C[d, C_DODGE]
            if 3 * (C[d, C_HP] - X[d, X_INJ]) < C[d, C_HP]:  # figure.dodge_now: halved below 1/3 HP
                v = -(-v // 2)
            if X[d, X_MAN] == MAN_AOD:  # its maneuver this turn (defense_value's aod_bonus)
                v += P[P_AOD]
            bonus = 3
        elif kind == 1:
            if C[d, C_PPARRY] < 0 or ranged:
                continue
            v = C[d, C_PPARRY] - (3 if W[a, p, W_PUNCH3] else 0)
            v -= (2 if C[d, C_PFENCE] else 4) * X[d, X_PPARRIES]
            bonus = 3 if C[d, C_PFENCE] else 1
        elif kind == 2:
            h = X[d, X_PROF]  # the weapon in hand
            if (
                ranged
                or h < 0
                or W[d, h, W_WPARRY] < 0
                or X[d, X_UNREADY]
                or (W[d, h, W_WUNBAL] and X[d, X_ATTLAST])
            ):
                continue
            v = W[d, h, W_WPARRY] - (2 if W[d, h, W_WFENCE] else 4) * X[d, X_WPARRIES]
            bonus = 3 if W[d, h, W_WFENCE] else 1
        else:
            if C[d, C_BLOCK] < 0 or X[d, X_BLOCKED] or X[d, X_SHUNREADY]:
                continue
            v = C[d, C_BLOCK]
            bonus = 1
        v += common
        bonus += hover
        # max() over (value, not retreat) in the options' order: the first best; without a retreat before
        # one with it at the same value
        if v > best or (v == best and best_retreat):
            best = v
            best_retreat = False
            out[0] = kind
            out[1] = 0
            found = 1
        if can_retreat and v + bonus > best:
            best = v + bonus
            best_retreat = True
            out[0] = kind
            out[1] = 1
            found = 1
    out[2] = best
    return found


@_jit()
def _range(X: np.ndarray, a: int, t: int) -> int:
    """geometry.range_yards."""
    d = _hexd(X[a, X_Q], X[a, X_R], X[t, X_Q], X[t, X_R])
    v = abs(X[a, X_ALT] - X[t, X_ALT])
    if v:
        d = _cost(d, v)
    return max(d, 1)


@_jit()
def _ranged_skill(C, P, W, SK, X, a, t, p) -> int:  # noqa: ANN001
    """attack_roll.attack_roll_parts of a shot: the static part, shock, on horseback down to Riding and -2
    after the mount attacked, Aim (+Acc, +1 a turn more up to +2; a mount that moved more than a step lets
    one turn count, B397), the Speed/Range penalty (B550), a target lying down (B551)."""
    eff = SK[a, t, 0, p] + X[a, X_SHOCKNOW]
    m = X[a, X_MOUNT] - 1
    if m >= 0:
        eff += W[a, p, W_MCAP]
        if X[m, X_ATTLAST]:
            eff += P[P_AFTER_MOUNT]
    if X[a, X_AIMT] == t + 1:
        turns = X[a, X_AIMN]
        if m >= 0 and X[m, X_MOVEDLAST] > max(1, -(-_move_now(C, X, m, False) // 10)):
            turns = min(turns, 1)
        if turns > 0:
            eff += W[a, p, W_ACC] + (min(2, turns - 1) if turns >= 2 else 0)
    eff += P[P_RNG0 + _range(X, a, t)]
    if X[t, X_LYING]:
        eff += P[P_LY_TARGET]
    return eff


@_jit()
def _skill(C, P, W, SK, X, a, t, aoa, p) -> int:  # noqa: ANN001
    """attack_roll.attack_roll_parts: the static part (SK) and what changes in a fight: shock, posture, the
    mount's attack and velocity last turn (B396-397), Evaluate (B364)."""
    eff = SK[a, t, aoa, p] + X[a, X_SHOCKNOW] + (P[P_LY_MELEE] if X[a, X_LYING] else 0)
    m = X[a, X_MOUNT] - 1
    if m >= 0:
        eff += W[a, p, W_MCAP]
        if X[m, X_ATTLAST]:
            eff += P[P_AFTER_MOUNT]
        if X[m, X_MOVEDLAST] >= P[P_VEL_AT] and (not W[a, p, W_COUCH] or P[P_VELCOUCH]):
            eff += P[P_VEL_HIT]
    if X[a, X_EVT] == t + 1:
        eff += min(3, X[a, X_EVN])
    return eff


@_jit()
def _strike(C, P, W, SK, INJ, CRIT, X, n, a, p, t, aoa, rs, tr, tn, path, opt) -> int:  # noqa: ANN001, PLR0913
    """attack.strike (one attack, on the torso), the defense it is offered (defense.offer_defense,
    the tactic's choice, defend.Defend.resolve) and the hit. Returns 0 or a hand-back reason."""
    ranged = W[a, p, W_RANGED] == 1
    eff = _ranged_skill(C, P, W, SK, X, a, t, p) if ranged else _skill(C, P, W, SK, X, a, t, aoa, p)
    roll = _3d6(rs, tr, tn)
    j = _judge(roll, eff, ranged)
    X[a, X_ATTACKED] = 1
    X[a, X_EVT] = 0
    X[a, X_EVN] = 0
    if ranged:  # the Aim is spent; Ready to shoot again (B364, B366)
        X[a, X_AIMT] = 0
        X[a, X_AIMN] = 0
        X[a, X_RELOAD] = W[a, p, W_RELOAD]
    if j <= 0:
        if eff - roll != -1:
            return 0
        # a miss by 1 at a rider goes to the mount, at a mount to its rider, unless it defends (B397)
        o = X[t, X_MOUNT] - 1 if X[t, X_MOUNT] else X[t, X_RIDER] - 1
        if o < 0 or X[o, X_STATUS] != ACTIVE:
            return 0
        t = o
    elif j == 2:
        return _apply_hit(C, P, W, INJ, CRIT, X, n, a, p, t, True, rs, tr, tn, path)
    if not _defense(C, P, W, X, a, p, t, opt):
        return _apply_hit(C, P, W, INJ, CRIT, X, n, a, p, t, False, rs, tr, tn, path)
    kind = opt[0]
    dj = _judge(_3d6(rs, tr, tn), opt[2], False)
    X[t, X_AIMT] = 0  # any active defense spoils an Aim (B364)
    X[t, X_AIMN] = 0
    if kind == 1:
        X[t, X_PPARRIES] += 1
    elif kind == 2:
        X[t, X_WPARRIES] += 1
    elif kind == 3:
        X[t, X_BLOCKED] = 1
    if opt[1] and X[t, X_RETREATED] != a + 1:
        X[t, X_RETREATED] = a + 1
        if _flying(C, X[t, X_ALT], t):  # a flyer retreats a yard upward (B398)
            X[t, X_ALT] += 1
            if X[t, X_ALT] > CEILING:
                return BACK_CEILING
        else:
            k = _away(C, P, X, n, t, X[a, X_Q], X[a, X_R], 1, path)
            if k:
                _place(X, t, path[0, 0], path[0, 1])  # a mount carries its rider
    if dj == -1:
        if kind == 0 and X[t, X_MOUNT]:
            back = _unhorse(C, P, X, n, t)  # a rider's critical failure on a Dodge: he falls off
            if back:
                return back
        elif kind == 0:
            X[t, X_LYING] = 1
        elif kind == 3:
            X[t, X_SHUNREADY] = 1
    if dj <= 0:
        return _apply_hit(C, P, W, INJ, CRIT, X, n, a, p, t, False, rs, tr, tn, path)
    return 0


# ----- a turn ------------------------------------------------------------------------------------------


@_jit()
def _nearest(C: np.ndarray, X: np.ndarray, n: int, a: int) -> int:
    """tactics.nearest: the active foe at the least range (1 for 0 or 1 hex), a figure before a mount, then
    by id."""
    best = -1
    bd = 0
    for j in range(n):
        if C[j, C_SIDE] == C[a, C_SIDE] or X[j, X_STATUS] != ACTIVE:
            continue
        d = _hexd(X[a, X_Q], X[a, X_R], X[j, X_Q], X[j, X_R])
        v = abs(X[a, X_ALT] - X[j, X_ALT])
        if v:  # geometry.range_yards
            d = _cost(d, v)
        if d < 1:
            d = 1
        if best >= 0 and d == bd:  # then figures before mounts, then by id
            if C[j, C_MOUNTF] != C[best, C_MOUNTF]:
                if C[j, C_MOUNTF] < C[best, C_MOUNTF]:
                    best = j
            elif C[j, C_RANK] < C[best, C_RANK]:
                best = j
            continue
        if best < 0 or d < bd:
            best = j
            bd = d
    return best


@_jit()
def _move_now(C: np.ndarray, X: np.ndarray, a: int, air: bool) -> int:
    """figure.move_now: Basic Move (``air``: air Move), halved (rounding up) below 1/3 HP (B419)."""
    m = C[a, C_AIR] if air else C[a, C_MOVE]
    if 3 * (C[a, C_HP] - X[a, X_INJ]) < C[a, C_HP]:
        m = -(-m // 2)
    return m


@_jit()
def _circle(C, X, n, m, t, reach, spot) -> bool:  # noqa: ANN001
    """tactics._circle: of the hexes at ``reach`` from the foe (hexgrid.ring's order) that no active figure
    stands on and the mount reaches within its Basic Move, the farthest from it (the first of equals)."""
    tq = X[t, X_Q]
    tr_ = X[t, X_R]
    q = tq + DQ[4] * reach
    r = tr_ + DR[4] * reach
    found = False
    bd = 0
    for i in range(6):
        for _ in range(reach):
            d = _hexd(X[m, X_Q], X[m, X_R], q, r)
            free = True
            for j in range(n):
                if X[j, X_STATUS] == ACTIVE and X[j, X_Q] == q and X[j, X_R] == r:
                    free = False
                    break
            if free and d <= C[m, C_MOVE] and d != 0 and (not found or d > bd):
                found = True
                bd = d
                spot[0] = q
                spot[1] = r
            q += DQ[i]
            r += DR[i]
    return found


@_jit()
def _mount_act(C, P, W, SK, INJ, CRIT, X, n, m, rs, tr, tn, path, work, seen, queue, opt) -> int:  # noqa: ANN001, PLR0913
    """tactics.Default._mount_plan: a lancer's mount charges to the lance's reach, then rides off (6 times
    the way from the foe) and wheels to charge again; it circles at the reach of a foe without a lance (or
    at the reach, to keep moving). Once the lance is gone, a war-trained mount next to the foe attacks with
    its first natural attack that may (B396), else it closes to the rider's reach. One Move
    (maneuvers._move), or Do Nothing when it may not move (lying)."""
    rider = X[m, X_RIDER] - 1
    if rider < 0:
        return BACK_ON_FOOT
    t = _nearest(C, X, n, rider)
    if t < 0:
        return 0
    d = _hexd(X[m, X_Q], X[m, X_R], X[t, X_Q], X[t, X_R])
    spot = np.zeros(2, np.int64)
    stop_at = 0
    have = False
    if W[rider, 0, W_RANGED]:
        # a horse archer's mount keeps the foe between KEEP_AWAY and STAY_WITHIN yards (tactics)
        if d < P[P_KEEP_AWAY]:
            dq = X[m, X_Q] - X[t, X_Q]
            dr = X[m, X_R] - X[t, X_R]
            if dq == 0 and dr == 0:
                dq = 1
            spot[0] = X[m, X_Q] + 6 * dq
            spot[1] = X[m, X_R] + 6 * dr
        elif d > P[P_STAY_WITHIN]:
            spot[0] = X[t, X_Q]
            spot[1] = X[t, X_R]
        else:
            return 0
        have = True
    elif X[rider, X_BROKEN] or C[rider, C_LREACH] == 0:
        reach = C[rider, C_NLREACH]
        if C[m, C_WAR] and d <= 1:
            for p in range(2, NPROF):
                if not W[m, p, W_VALID]:
                    continue
                if W[m, p, W_TRAMPLE]:
                    lead = C[m, C_SM] - C[t, C_SM]
                    if lead >= 2 or (lead >= 1 and X[t, X_LYING]):
                        return BACK_TRAMPLE
                    continue
                if _skill(C, P, W, SK, X, m, t, 0, p) >= 3 and _in_reach(C, X, m, t, W[m, p, W_REACH]):
                    X[m, X_MAN] = MAN_ATTACK
                    return _strike(C, P, W, SK, INJ, CRIT, X, n, m, p, t, 0, rs, tr, tn, path, opt)
        if d <= reach:
            return 0
        spot[0] = X[t, X_Q]
        spot[1] = X[t, X_R]
        stop_at = reach
        have = True
    reach = C[rider, C_LREACH]
    who = X[t, X_RIDER] - 1 if X[t, X_RIDER] else t
    h = X[who, X_PROF]
    has_lance = h >= 0 and W[who, h, W_COUCH] == 1
    if not have and d < reach and not has_lance:
        have = _circle(C, X, n, m, t, reach, spot)
    if not have and (X[rider, X_ATTLAST] or d < reach):
        dq = X[m, X_Q] - X[t, X_Q]
        dr = X[m, X_R] - X[t, X_R]
        if dq == 0 and dr == 0:
            dq = 1
        spot[0] = X[m, X_Q] + 6 * dq  # tactics._away
        spot[1] = X[m, X_R] + 6 * dr
        have = True
    if not have and d == reach:
        have = _circle(C, X, n, m, t, reach, spot)
    if not have:
        spot[0] = X[t, X_Q]
        spot[1] = X[t, X_R]
        stop_at = reach
    if X[m, X_LYING]:
        return 0  # Move refused lying down; Do Nothing
    stop = 0
    for j in range(n):
        if j != m and X[j, X_Q] == spot[0] and X[j, X_R] == spot[1]:
            stop = 1
    stop = max(stop, stop_at)
    k = _towards(P, X, n, m, spot[0], spot[1], _move_now(C, X, m, False), stop, path, work, seen, queue)
    if k > 0:
        _place(X, m, path[k - 1, 0], path[k - 1, 1])
        X[m, X_MOVED] += k
    return 0


@_jit()
def _best(W: np.ndarray, X: np.ndarray, a: int) -> int:
    """tactics.Default._best_melee over the weapons not broken: a lance on horseback first, one off
    horseback last, then the best skill (the first of equals)."""
    mounted = X[a, X_MOUNT] > 0
    best = -1
    k0 = 0
    k1 = 0
    k2 = 0
    for p in range(2):
        if not W[a, p, W_VALID] or W[a, p, W_RANGED] or (p == 0 and X[a, X_BROKEN]):
            continue
        couch = W[a, p, W_COUCH] == 1
        s0 = 1 if couch and mounted else 0
        s1 = -1 if couch and not mounted else 0
        s2 = W[a, p, W_SKILL]
        if best < 0 or s0 > k0 or (s0 == k0 and (s1 > k1 or (s1 == k1 and s2 > k2))):
            best = p
            k0 = s0
            k1 = s1
            k2 = s2
    return best


@_jit()
def _act(C, P, W, SK, INJ, CRIT, X, n, a, rs, tr, tn, path, work, seen, queue, opt) -> int:  # noqa: ANN001, PLR0913
    """The tactic's plan (tactics.Default._plan and _melee, the first legal command) and its maneuver
    (the maneuvers' resolve). Returns 0 or a hand-back reason."""
    X[a, X_AOA] = 0
    X[a, X_MAN] = MAN_OTHER
    if C[a, C_MOUNTF]:
        return _mount_act(C, P, W, SK, INJ, CRIT, X, n, a, rs, tr, tn, path, work, seen, queue, opt)
    if X[a, X_LYING] and not X[a, X_MOUNT]:  # Change Posture to standing
        X[a, X_LYING] = 0
        return 0
    if X[a, X_UNREADY] or X[a, X_SHUNREADY]:  # Ready: the weapon first, then the shield
        if X[a, X_SHUNREADY] and not X[a, X_UNREADY]:
            X[a, X_SHUNREADY] = 0
        else:
            X[a, X_UNREADY] = 0
        return 0
    t = _nearest(C, X, n, a)
    if t < 0:
        return 0
    if X[t, X_RIDER] and X[X[t, X_RIDER] - 1, X_STATUS] == ACTIVE:  # go for the rider, not the horse
        t = X[t, X_RIDER] - 1
    p = _best(W, X, a)
    if W[a, 0, W_RANGED]:
        # tactics.Default._plan with a bow: Ready it, Ready to shoot again, Aim, shoot when the shot is fair
        # (MIN_SHOT) or there is no melee weapon, else keep aiming (up to 3 turns)
        far = _range(X, a, t)
        if (far > 2 or p < 0) and far <= W[a, 0, W_MAXR]:
            if X[a, X_PROF] != 0:
                X[a, X_PROF] = 0
                X[a, X_UNREADY] = 0
                X[a, X_RELOAD] = 0
                return 0
            if X[a, X_RELOAD]:
                X[a, X_RELOAD] -= 1
                return 0
            aimed = X[a, X_AIMT] == t + 1
            if not aimed:
                X[a, X_MAN] = MAN_AIM
                X[a, X_AIMT] = t + 1
                X[a, X_AIMN] = 1
                return 0
            eff = _ranged_skill(C, P, W, SK, X, a, t, 0)
            if eff >= P[P_MIN_SHOT] or p < 0:
                if eff >= 3:
                    X[a, X_MAN] = MAN_ATTACK
                    return _strike(C, P, W, SK, INJ, CRIT, X, n, a, 0, t, 0, rs, tr, tn, path, opt)
            elif X[a, X_AIMN] < 3:
                X[a, X_MAN] = MAN_AIM
                X[a, X_AIMN] += 1
                return 0
    if p < 0 and not W[a, 0, W_RANGED]:
        return BACK_LANCE  # no weapon left: natural attacks
    # an archer without a melee weapon and no shot to take: Evaluate on horseback, else Move toward the foe
    mask = 0
    aoa = 0
    legal = False
    if p >= 0:
        if X[a, X_PROF] != p:  # Ready the best weapon (B366)
            X[a, X_PROF] = p
            X[a, X_UNREADY] = 0
            return 0
        mask = W[a, p, W_REACH]
        if C[a, C_DEFN] and _in_reach(C, X, a, t, mask):
            # tactics.Defensive._melee: All-Out Defense (Increased Dodge) while the foe is in reach (B366)
            X[a, X_MAN] = MAN_AOD
            return 0
        aoa = 1 if C[a, C_AGGR] and _in_reach(C, X, a, t, mask) else 0
        legal = _skill(C, P, W, SK, X, a, t, aoa, p) >= 3
    if X[a, X_MOUNT]:
        # a rider attacks what is in reach (he moves by his mount: validate.movement_allowance), else
        # Evaluates his foe (B364)
        if legal and _in_reach(C, X, a, t, mask):
            X[a, X_AOA] = aoa
            X[a, X_MAN] = MAN_ATTACK
            return _strike(C, P, W, SK, INJ, CRIT, X, n, a, p, t, aoa, rs, tr, tn, path, opt)
        X[a, X_MAN] = MAN_EVALUATE
        X[a, X_EVN] = X[a, X_EVN] + 1 if X[a, X_EVT] == t + 1 else 1
        X[a, X_EVN] = min(3, X[a, X_EVN])
        X[a, X_EVT] = t + 1
        return 0
    k = 0
    alt = X[a, X_ALT]
    new_alt = alt
    if legal and not _in_reach(C, X, a, t, mask):
        # validate.reachable and approach, attack.AttackManeuver.resolve: a step toward the foe (B365), up
        # or down first for a flyer, then in reach?
        budget = max(1, -(-_move_now(C, X, a, _flying(C, alt, a)) // 10))
        vertical = 0
        if C[a, C_FLIES]:
            want = X[t, X_ALT] if _flying(C, X[t, X_ALT], t) else 1 if _flying(C, alt, a) else 0
            vertical = min(abs(want - alt), budget)
            new_alt = alt + (vertical if want > alt else -vertical)
        across = _across(budget, vertical)
        k = _towards(P, X, n, a, X[t, X_Q], X[t, X_R], across, W[a, p, W_STOP], path, work, seen, queue)
        legal = False
        if k > 0 or vertical:
            q = path[k - 1, 0] if k > 0 else X[a, X_Q]
            r = path[k - 1, 1] if k > 0 else X[a, X_R]
            legal = _reaches(C, X, a, q, r, new_alt, t, mask)
    if legal:
        X[a, X_AOA] = aoa
        X[a, X_MAN] = MAN_ATTACK
        if k > 0:
            X[a, X_Q] = path[k - 1, 0]
            X[a, X_R] = path[k - 1, 1]
        X[a, X_ALT] = new_alt
        return _strike(C, P, W, SK, INJ, CRIT, X, n, a, p, t, aoa, rs, tr, tn, path, opt)
    # Move toward the foe's hex and altitude, stopping next to it (maneuvers.Move, maneuvers._move); one
    # that cannot fly may not Move to another altitude, and then Does Nothing
    want = X[t, X_ALT]
    if want != alt and not C[a, C_FLIES]:
        return 0
    if C[a, C_FLIES] and (alt > 0 or want > 0):
        budget = _move_now(C, X, a, True)
    else:
        budget = _move_now(C, X, a, _flying(C, alt, a))
    vertical = 0
    if C[a, C_FLIES] and want != alt:
        vertical = min(abs(want - alt), budget)
        new_alt = alt + (vertical if want > alt else -vertical)
    k = _towards(P, X, n, a, X[t, X_Q], X[t, X_R], _across(budget, vertical), 1, path, work, seen, queue)
    if k > 0:
        X[a, X_Q] = path[k - 1, 0]
        X[a, X_R] = path[k - 1, 1]
    X[a, X_ALT] = new_alt
    return 0


@_jit()
def _turn(C, P, W, SK, INJ, CRIT, X, n, a, rs, tr, tn, path, work, seen, queue, opt) -> int:  # noqa: ANN001, PLR0913
    """turn.start_turn, the act and turn.end_turn. Returns 0 or a hand-back reason; the
    caller checks for the end of the fight (after the start of the turn too: a figure that passes out)."""
    X[a, X_RETREATED] = 0
    X[a, X_WPARRIES] = 0
    X[a, X_PPARRIES] = 0
    X[a, X_BLOCKED] = 0
    X[a, X_ATTACKED] = 0
    X[a, X_MOVED] = 0
    if X[a, X_STUNREC]:  # recovered at the end of the last turn: stunned until now (B420)
        X[a, X_STUNREC] = 0
        X[a, X_STUNNED] = 0
    X[a, X_SHOCKNOW] = X[a, X_SHOCK]
    X[a, X_SHOCK] = 0
    back = 0
    hp = C[a, C_HP]
    now = hp - X[a, X_INJ]
    if now <= 0:  # wounds.consciousness_roll (B419)
        eff = C[a, C_HT] - ((-now) // hp if now < 0 else 0)
        if _judge(_3d6(rs, tr, tn), eff, False) <= 0:
            back = _knocked_out(C, P, X, n, a, UNCONSCIOUS, rs, tr, tn)
            _end_turn(X, a)
            return back
    if X[a, X_STUNNED]:  # Do Nothing, then HT to recover (B420)
        X[a, X_AOA] = 0
        X[a, X_MAN] = MAN_OTHER
        if _judge(_3d6(rs, tr, tn), C[a, C_HT], False) >= 1:
            X[a, X_STUNREC] = 1
        _end_turn(X, a)
        return 0
    if C[a, C_MOUNTF] and X[a, X_OOC]:  # out of control (spooked): it obeys no one this turn (B397)
        X[a, X_OOC] = 0
        X[a, X_AOA] = 0
        X[a, X_MAN] = MAN_OTHER
        _end_turn(X, a)
        return 0
    back = _act(C, P, W, SK, INJ, CRIT, X, n, a, rs, tr, tn, path, work, seen, queue, opt)
    _end_turn(X, a)
    return back


@_jit()
def _end_turn(X: np.ndarray, a: int) -> None:
    """turn.end_turn: whether it attacked (an unbalanced weapon cannot parry after it) and how far it moved
    (a mount's velocity), shock gone, Evaluate kept only while it evaluates or attacks."""
    X[a, X_MOVEDLAST] = X[a, X_MOVED]
    X[a, X_ATTLAST] = X[a, X_ATTACKED]
    X[a, X_SHOCKNOW] = 0
    if X[a, X_MAN] != MAN_ATTACK and X[a, X_MAN] != MAN_EVALUATE:
        X[a, X_EVT] = 0
        X[a, X_EVN] = 0
    if X[a, X_MAN] != MAN_AIM:
        X[a, X_AIMT] = 0
        X[a, X_AIMN] = 0


# ----- a fight -----------------------------------------------------------------------------------------


@_jit()
def _fight(C, P, W, SK, INJ, CRIT, seed, X, tr, tn, out, path, work, seen, queue) -> int:  # noqa: ANN001, PLR0913
    """One fight: the turn order (core.turn_order: Basic Speed, DX, then a d6 for each figure in a full
    tie), then rounds of turns in that order until at most one side stands (play.Fight._check_end) or the
    round limit. ``out``: result (winning side's index, -3 a draw, -2 nobody standing), the round, then
    per combatant status, damage dealt and taken. Returns 0 or a hand-back reason."""
    n = C.shape[0]
    rs = np.empty(1, np.uint64)
    rs[0] = seed
    X[:, :] = 0
    for i in range(n):
        X[i, X_Q] = C[i, C_Q0]
        X[i, X_R] = C[i, C_R0]
        X[i, X_ALT] = C[i, C_ALT0]
        X[i, X_PROF] = 0
        m = C[i, C_MOUNT0]
        if m:
            X[i, X_MOUNT] = m
            X[m - 1, X_RIDER] = i + 1
    tie = np.zeros(n, np.int64)
    for i in range(n):
        shared = False
        for j in range(n):
            if j != i and C[j, C_SPEED] == C[i, C_SPEED] and C[j, C_DX] == C[i, C_DX]:
                shared = True
        if shared:
            tie[i] = _d6(rs, tr, tn)
    order = np.arange(n)
    for i in range(1, n):  # a stable insertion sort, as sorted() (-speed, -DX, -tie)
        j = i
        while j > 0:
            x = order[j]
            y = order[j - 1]
            before = C[x, C_SPEED] > C[y, C_SPEED] or (
                C[x, C_SPEED] == C[y, C_SPEED]
                and (C[x, C_DX] > C[y, C_DX] or (C[x, C_DX] == C[y, C_DX] and tie[x] > tie[y]))
            )
            if before:
                order[j] = y
                order[j - 1] = x
                j -= 1
            else:
                break
    opt = np.zeros(3, np.int64)
    maxr = P[P_MAXR]
    rnd = 1
    result = -1
    while True:
        for k in range(n):
            a = order[k]
            if X[a, X_STATUS] != ACTIVE:
                continue
            back = _turn(C, P, W, SK, INJ, CRIT, X, n, a, rs, tr, tn, path, work, seen, queue, opt)
            if back:
                return back
            result = _end(C, X, n)
            if result != -1:
                break
        if result != -1:
            break
        if rnd >= maxr:
            result = -3
            break
        rnd += 1
    out[0] = result
    out[1] = rnd
    for i in range(n):
        out[2 + 3 * i] = X[i, X_STATUS]
        out[3 + 3 * i] = X[i, X_DEALT]
        out[4 + 3 * i] = X[i, X_TAKEN]
    return 0


@_jit()
def _work(C: np.ndarray):  # noqa: ANN202
    """The path searches' work arrays: a path and the first hexes of a route (as long as the longest Move
    or knockback), the route search's hash set of the hexes weighed and its queue."""
    longest = 64
    for i in range(C.shape[0]):
        longest = max(longest, C[i, C_MOVE] + 2, C[i, C_AIR] + 2)
    return (
        np.zeros((longest, 2), np.int64),
        np.zeros((longest, 2), np.int64),
        np.zeros((SEEN + 1, 3), np.int64),
        np.zeros((SEEN // 2 + 8, 4), np.int64),
    )


@_jit(nogil=True)
def run_batch(C, P, W, SK, INJ, CRIT, seeds, tally, hist, loss, fallback) -> int:  # noqa: ANN001
    """Every fight of ``seeds``: ``tally`` (per side its wins; draws; fights with nobody standing; per
    combatant its fights by final status (ACTIVE...), then damage dealt and taken), the rounds in ``hist``,
    ``loss[0, s, k]`` / ``loss[1, s, k]`` the fights with ``k`` of side ``s`` dead / out; the indices of the
    fights handed back in ``fallback``. Returns how many were handed back."""
    n = C.shape[0]
    tr = np.zeros((2, 0), np.int64)
    tn = np.zeros(1, np.int64)
    out = np.zeros(2 + 3 * n, np.int64)
    X = np.zeros((n, NX), np.int64)
    path, work, seen, queue = _work(C)
    nsides = loss.shape[1]
    dead = np.zeros(nsides, np.int64)
    gone = np.zeros(nsides, np.int64)
    nf = 0
    for k in range(seeds.shape[0]):
        tn[0] = 0
        if _fight(C, P, W, SK, INJ, CRIT, seeds[k], X, tr, tn, out, path, work, seen, queue):
            fallback[nf] = k
            nf += 1
            continue
        res = out[0]
        if res >= 0:
            tally[res] += 1
        else:
            tally[nsides + (0 if res == -3 else 1)] += 1  # draws, then nobody standing
        hist[out[1]] += 1
        dead[:] = 0
        gone[:] = 0
        for i in range(n):
            status = out[2 + 3 * i]
            tally[nsides + 2 + NSTATUS * i + status] += 1
            tally[nsides + 2 + NSTATUS * n + 2 * i] += out[3 + 3 * i]
            tally[nsides + 3 + NSTATUS * n + 2 * i] += out[4 + 3 * i]
            s = C[i, C_SIDE]
            if status == DEAD:
                dead[s] += 1
            if status != ACTIVE:
                gone[s] += 1
        for s in range(nsides):
            loss[0, s, dead[s]] += 1
            loss[1, s, gone[s]] += 1
    return nf


@_jit()
def trace_fight(C, P, W, SK, INJ, CRIT, seed, cap):  # noqa: ANN001, ANN201
    """One fight with its dice: (0 or a hand-back reason, the fight's numbers, the dice (sides, faces))."""
    n = C.shape[0]
    tr = np.zeros((2, cap), np.int64)
    tn = np.zeros(1, np.int64)
    out = np.zeros(2 + 3 * n, np.int64)
    X = np.zeros((n, NX), np.int64)
    path, work, seen, queue = _work(C)
    back = _fight(C, P, W, SK, INJ, CRIT, seed, X, tr, tn, out, path, work, seen, queue)
    return back, out, tr[:, : min(tn[0], cap)].copy(), tn[0]
