"""The compiled part of the ED4 group-melee kernel (:mod:`fracas.sim.kernels.ed4_group`): one fight per loop
iteration, scalar code over small arrays, compiled with numba.

Everything here mirrors the reference engine (``fracas.rules.earthdawn.round``, ``combat``, the ED4 chapter's
Harried and Blindsided providers, ``fracas.rules.ed4.tactics.Ed4Tactic``) for the encounters the builder
accepts; the comments name the engine function each piece follows. Tests draw one 64-bit word each from a
Walker alias table of their exact outcome distribution (total and Rule of One, ED4 p.377 and reference 1.4),
built by the builder; the words come from a xoshiro256** stream seeded from the chunk's NumPy generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fracas.sim.kernels.ed4_group_options import (
    O_AGGR,
    O_JUMP,
    O_ROSTER,
    choose_options,
    option_defense,
    option_step,
)

# columns of the combatant table ``cst``
SIDE, PLAYER, GROUP, INIT, DEX, RANK, PD, MD, SD, PARM, MARM, WT, UNC, DEATH, KD = range(15)
KARMA0, KROW, ACTIONS, MV, CHAR, ROUSE, RECT, RECSTEP, Q0, R0, FACE0, CLS, NATT, BYRANK = range(15, 29)
IKEY = 29  # the fixed low bits of the acting-order key (init_key)
TACTIC = 30  # T_DEFAULT, T_GUARD (tactics.GuardTactic, chapter_tactics.SentinelTactic) or T_VETERAN
# entangling weapons and Stun (the section "Entangling weapons, Stun damage, thrown weapons" below): the
# step of a break-free test (the better of Strength and Dexterity), the Recovery step with the Willpower step
# added (the first Recovery test after Stun damage, p.383), the attacks that are weapons (melee, missile,
# thrown: chapter_tactics.WEAPON_KINDS) as bits
BFSTEP, RECSTUN, WEAPONS = 31, 32, 33
JSTEP, VLEFT = 34, 35  # the veteran tactic (ed4_group_options): the Jump Up step, the Rating it counts to
# riders and mounts (below): the mount's / rider's index + 1 at the start (0: none), a mount
# acting on its rider's Initiative (trained), a mount under the ``mount`` tactic
MOUNT0, RIDER0, TRAINED, MTAC = range(36, 40)
# the senses (ed4_group_senses): the darkness modifier to sight-based tests, whether it sees in this light,
# hidden at the start, the Perception step (with darkness) and the DN of its test against surprise (0: none)
SIGHT, SEES, HIDDEN0, PER, SURP_DN = range(40, 45)
NCOL = 45
T_DEFAULT, T_GUARD, T_VETERAN = 0, 1, 2
# columns of the attack table ``att[i, a]`` (ranges in yards; A_LONG -1: no range)
A_STEP, A_DAMAGE, A_AGAINST, A_ARMOR, A_CLOSE, A_SHORT, A_LONG, A_MIN = range(8)
A_SPELL = 8  # 1: a spell attack (one test, no one in the way counted, no stray)
# Stun damage (1: Attacking to Stun, which a knocked-down attacker has not in force, readers.in_force; 2: the
# attack's own); the DN to break free of an entangling weapon (0: not one); a weapon that only entangles (a
# net); thrown (the weapon leaves the hand); the attacks the throw takes away (bits), those a ruined weapon
# takes away; a one-handed blade's Damage Step less Strength (NO_BLADE: not a blade)
A_STUN, A_ENT, A_NODMG, A_THROWN, A_DROP, A_RUIN, A_BLADE = range(9, 16)
A_SIZEPEN = 16  # a rider's long weapon in close quarters (weapon_penalty), <= 0
NATTCOL = 17
NO_BLADE = -(1 << 30)
IMMUNE = 1 << 40  # the Unconsciousness Rating of one with none ("NA": immune to Stun damage, p.383)
# flags
F_WP, F_TAKE, F_GROUP, F_CHAPTER, F_MAXR, F_W, F_HAR_N, F_HAR_PEN, F_BLIND_PEN, F_DOWN_DEF = range(10)
F_DOWN_INIT, F_DOWN_MV, F_NSIDES, F_MAXSTEP, F_XSD, F_LONG_PEN, F_GQ0, F_GR0 = range(10, 18)
F_DOWN_TEST, F_RESV_DN = 18, 19  # knocked down: to Action tests; a reserved action: to its DNs
F_HAR_FUR = 20  # each further Harried effect (p.388)
F_OPTS, F_JUMP_DN = 21, 22  # someone declares combat options (ed4_group_options); Jump Up DN
F_RIDERS = 23  # riders in the encounter (riders and mounts, below)
# the map and the senses (ed4_group_senses): where the terrain of the grid's hexes starts in ``flags`` (0:
# none), the grid's shape, partial cover's and surprise's Defense modifiers, an attack reveals, surprise
F_TERR, F_GH, F_GW, F_COVER_DEF, F_SURP_DEF, F_REVEAL, F_SURPRISE = range(24, 31)
NFLAG = 31
T_COVER, T_FULL = 1, 2  # a hex's terrain (flags[F_TERR + ...]): partial cover, full cover

ACTIVE, UNCONSCIOUS, DEAD, FLED = 0, 1, 2, 3
# columns of the per-fight state ``st``
S_Q, S_R, S_FACE, S_STATUS, S_DMG, S_WND, S_DOWN, S_KARMA, S_REC, S_UNC, S_TRIED, S_FAILED = range(12)
# reserved actions (_choose): the order of reserving this round (0: none), the last trigger let
# pass ((round << 11) | actor + 1), taking the reserved action now
S_RESV, S_PASS, S_REACT = 12, 13, 14
# S_DMG is the Current Damage (Stun included, p.383); S_STUN its Stun part; S_HARR Harried by Stun damage this
# round; S_ENT the entangler + 1 (0: not entangled), S_ENTA its attack, S_ENTDN the DN to break free;
# S_GONE the attacks gone (thrown away, lost: bits); S_BONUS the Willpower bonus of the first Recovery test
# after Stun damage used; S_LIE the attack whose weapon lies where it was thrown + 1, at S_LYQ, S_LYR;
# S_MOVED the hexes moved this turn before the tactic's own choice (to fetch a thrown weapon)
S_STUN, S_HARR, S_ENT, S_ENTA, S_ENTDN, S_GONE, S_BONUS, S_LIE, S_LYQ, S_LYR, S_MOVED = range(15, 26)
S_OPT, S_NOMOVE, S_CTEST, S_ACTED = 26, 27, 28, 29  # the veteran's options (ed4_group_options)
S_MOUNT, S_RIDER, S_STD = range(30, 33)  # riders (below): mount / rider index + 1, mount's Standard used
S_SURP, S_UNSEEN, S_NOTICED = range(33, 36)  # surprised, hidden and not revealed, noticed the ambush
NST = 36
# what the occupancy grid holds on a hex (_code): the id + 1 of the combatant there in the low bits, and
# from G_SHIFT up its side + 1 if it counts as a close combat foe
G_SHIFT = 16
G_ID = (1 << G_SHIFT) - 1
G_BLOCKED = -(1 << 40)
"""What the occupancy grid holds on a hex the map blocks (taken.map_blocked): taken, nobody's id, no side."""
# rows of the work array ``wk``
W_KEYS, W_ORDER, W_GID, W_GSTEP, W_GVAL, W_STANDING, W_PATH, W_CAND, W_INTER, W_DEC = range(10)
W_SEEN, W_QUEUE = 10, 11  # pathing.route's search: a window of hexes around the mover, and its queue
W_RES = 12  # [0]: how many reserved actions were taken this round (_reserve)
NWK = 13
# hexgrid.ROUTE_MARGIN and ROUTE_REACH, written here because numba's cache keeps a compiled function's
# globals until this file changes (tests/sim/test_sim_ed4_group.py checks they are hexgrid's)
ROUTE_MARGIN = 6
ROUTE_REACH = 40
ROUTE_SIDE = 2 * ROUTE_REACH + 1
ROUTE_CELLS = ROUTE_SIDE * ROUTE_SIDE
"""The width the ``wk`` rows need for :func:`_route` (hexes within ROUTE_REACH of the mover)."""
# what a turn does (_decide)
ACT_END, ACT_STAND, ACT_FLEE, ACT_REVIVE, ACT_ATTACK, ACT_RUN, ACT_RESERVE, ACT_OVER = range(8)

DQ = np.array([1, 1, 0, -1, -1, 0], dtype=np.int64)
DR = np.array([0, -1, -1, 0, 1, 1], dtype=np.int64)
# directions k - 1, k and k + 1 as bits (row 6: all six): the neighbours worth a look after a step in
# direction k (_route), the front arc of one facing k (_close_foes_at)
AHEAD = np.array([0b100011, 0b000111, 0b001110, 0b011100, 0b111000, 0b110001, 0b111111], dtype=np.int64)
# the direction to a neighbour (q + dq, r + dr) at (dq + 1) * 3 + dr + 1 (DQ, DR), -1 where none is
NEXT_DIR = np.array([-1, 3, 4, 2, -1, 5, 1, 0, -1], dtype=np.int64)


@njit(cache=True, inline="always", _nrt=False)
def _rotl(x, k):  # noqa: ANN001, ANN202
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always", _nrt=False)
def _next(s):  # noqa: ANN001, ANN202
    """xoshiro256** (Blackman and Vigna): the next 64-bit word of the stream ``s`` (4 words)."""
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return result


@njit(cache=True, inline="always", _nrt=False)
def _draw(s, row, off, shift, keep, own, alias):  # noqa: ANN001, ANN202
    """One outcome of the test in table row ``row``: ``total * 2 + rule_of_one`` (Walker's alias method:
    the top bits of a word pick the cell, the low ``shift[row]`` bits decide between the cell's own value
    and its alias; branch-free, as the choice is unpredictable).
    ``keep`` holds the cells interleaved (:func:`interleave`), two words each: the threshold, then the own
    value | the alias << 32, so that a draw reads one cache line; ``own`` and ``alias`` (the same values
    apart) are not read."""
    u = _next(s)
    sh = shift[row]
    k = 2 * (off[row] + np.int64(u >> sh))
    keep_own = np.int64((u & ((np.uint64(1) << sh) - np.uint64(1))) < keep[k])
    v = keep[k + 1]
    a = np.int64(v >> np.uint64(32))
    return a + keep_own * (np.int64(v & np.uint64(0xFFFFFFFF)) - a)


@njit(cache=True, inline="always", _nrt=False)
def _hexd(q1, r1, q2, r2):  # noqa: ANN001, ANN202
    dq = q1 - q2
    dr = r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, inline="always", _nrt=False)
def _dir(q1, r1, q2, r2):  # noqa: ANN001, ANN202
    """The direction index from a hex to a neighbour (hexgrid.DIRECTIONS order)."""
    dq = q2 - q1
    dr = r2 - r1
    for k in range(6):
        if DQ[k] == dq and DR[k] == dr:
            return k
    return 0


@njit(cache=True, forceinline=True, _nrt=False)
def _cdir(q1, r1, q2, r2):  # noqa: ANN001, ANN202
    """chapter._direction: the hex direction pointing most nearly from one hex to another (cube dot
    product, the first best)."""
    dq = q2 - q1
    dr = r2 - r1
    ds = -dq - dr
    best = 0
    best_v = 0
    for i in range(6):
        v = dq * DQ[i] + ds * (-DQ[i] - DR[i]) + dr * DR[i]
        if i == 0 or v > best_v:
            best = i
            best_v = v
    return best


@njit(cache=True, forceinline=False, _nrt=False)
def _intervening(me, t, st, n, out):  # noqa: ANN001, ANN202
    """chapter.intervening: the combatants (active or unconscious) on the hexes strictly between ``me`` and
    ``t`` on hexgrid.line, closest first, into ``out``; returns how many."""
    q1 = st[me, S_Q]
    r1 = st[me, S_R]
    q2 = st[t, S_Q]
    r2 = st[t, S_R]
    dist = _hexd(q1, r1, q2, r2)
    aq = q1 + 1e-6
    ar = r1 + 1e-6
    bq = q2 + 1e-6
    br = r2 + 1e-6
    k = 0
    for i in range(1, dist):
        fq = aq + (bq - aq) * i / dist
        fr = ar + (br - ar) * i / dist
        fs = -fq - fr
        rq = round(fq)
        rr = round(fr)
        rs = round(fs)
        eq = abs(rq - fq)
        er = abs(rr - fr)
        es = abs(rs - fs)
        if eq > er and eq > es:
            rq = -rr - rs
        elif er > es:
            rr = -rq - rs
        hq = np.int64(rq)
        hr = np.int64(rr)
        for c in range(n):
            if (
                c != me
                and c != t
                and st[c, S_STATUS] <= UNCONSCIOUS
                and st[c, S_Q] == hq
                and st[c, S_R] == hr
                and not aboard(c, st)
            ):
                out[k] = c
                k += 1
                break
    return k


@njit(cache=True, forceinline=True, _nrt=False)
def _taken(q, r, mover, st, n, grid, flags):  # noqa: ANN001, ANN202
    """Whether hex (q, r) holds another combatant that is not dead or fled, or the map blocks it
    (taken.blocked): from the occupancy grid (:func:`_code` of the combatant on a hex, G_BLOCKED; every hex
    the map blocks lies on it), or by looking at everyone outside it."""
    i = q - flags[F_GQ0]
    j = r - flags[F_GR0]
    if 0 <= i < grid.shape[0] and 0 <= j < grid.shape[1]:
        v = grid[i, j]
        return v != 0 and (v & G_ID) != mover + 1
    for j in range(n):
        if j != mover and st[j, S_STATUS] <= UNCONSCIOUS and st[j, S_Q] == q and st[j, S_R] == r:
            return True
    return False


# hexgrid._ROUTE_SLACKS and hexgrid._POCKET (see ROUTE_MARGIN)
ROUTE_SLACKS = (0, 2, 6, 14)
ROUTE_POCKET = 8


@njit(cache=True, forceinline=False, _nrt=False)
def _route(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, depth):  # noqa: ANN001, ANN202, PLR0913
    """pathing.route (stop 1 hex away) from ``i``'s hex, cut to ``limit`` hexes, into ``out`` as
    :func:`_path_towards` does; False (``out`` untouched) if no hex next to the goal can be reached, or
    (``depth`` >= 0) none within ``depth`` hexes: the search stops there.
    Without ``depth``, pathing.route's quick answers first: False at once when every hex next to the goal
    is beyond the search's reach or in a closed pocket (:func:`_walled_off`), then the searches bounded to
    the straight distance plus ROUTE_SLACKS (each finds the unbounded search's path when there is one that
    short), then the unbounded one."""
    sq = st[i, S_Q]
    sr = st[i, S_R]
    d0 = _hexd(sq, sr, gq, gr)
    if d0 <= 1:
        return False
    free = False
    for k in range(6):
        if not _taken(gq + DQ[k], gr + DR[k], i, st, n, grid, flags):
            free = True
            break
    if not free:
        return False
    if depth >= 0:
        return _search(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, depth, d0)
    if d0 - 1 > ROUTE_REACH or _walled_off(i, gq, gr, st, n, grid, flags, d0, queue):
        return False
    for slack in ROUTE_SLACKS:
        if _search(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, d0 - 1 + slack, d0):
            return True
    return _search(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, -1, d0)


@njit(cache=True, forceinline=False, _nrt=False)
def _walled_off(i, gq, gr, st, n, grid, flags, d0, work):  # noqa: ANN001, ANN202, PLR0913
    """pathing._walled_off (stop 1 hex away): True when the free hexes next to the goal, with every free hex
    joined to them inside the search area of :func:`_route`, are at most ROUTE_POCKET hexes none of them
    next to ``i``'s hex; False when that is not so or not known after that many. ``work``: room for
    2 * (ROUTE_POCKET + 7) numbers (the hexes seen, q then r; the search is cut before it holds more)."""
    sq = st[i, S_Q]
    sr = st[i, S_R]
    far = d0 + ROUTE_MARGIN
    m = 0
    for radius in range(2):
        for k in range(6 if radius else 1):
            q = gq + radius * DQ[k]
            r = gr + radius * DR[k]
            if (
                not _taken(q, r, i, st, n, grid, flags)
                and _hexd(q, r, gq, gr) <= far
                and _hexd(q, r, sq, sr) <= ROUTE_REACH
            ):
                work[2 * m] = q
                work[2 * m + 1] = r
                m += 1
    x = 0
    while x < m:
        if m > ROUTE_POCKET:
            return False
        hq = work[2 * x]
        hr = work[2 * x + 1]
        x += 1
        for k in range(6):
            q = hq + DQ[k]
            r = hr + DR[k]
            if q == sq and r == sr:
                return False
            known = False
            for y in range(m):
                if work[2 * y] == q and work[2 * y + 1] == r:
                    known = True
                    break
            if (
                not known
                and not _taken(q, r, i, st, n, grid, flags)
                and _hexd(q, r, gq, gr) <= far
                and _hexd(q, r, sq, sr) <= ROUTE_REACH
            ):
                work[2 * m] = q
                work[2 * m + 1] = r
                m += 1
    return True


@njit(cache=True, forceinline=False, _nrt=False)
def _search(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, depth, d0):  # noqa: ANN001, ANN202, PLR0913
    """The breadth-first search of :func:`_route` (``d0``: the start's distance from the goal).
    ``seen`` holds, per hex of the window around ``i`` (cleared again before returning), the direction
    (+1) of the step that first reached it; ``queue`` the window cells in the order reached."""
    sq = st[i, S_Q]
    sr = st[i, S_R]
    far = d0 + ROUTE_MARGIN
    side = ROUTE_SIDE
    start = ROUTE_REACH * side + ROUTE_REACH
    # every hex searched is within ``far`` of the goal: when that square lies on the occupancy grid, a hex
    # is taken if the grid says so (the mover's own hex is the start, already seen), and when it lies
    # within ROUTE_REACH of the start, the window holds it (the same search, fewer tests per hex)
    gq0 = flags[F_GQ0]
    gr0 = flags[F_GR0]
    on_grid = (
        gq - far - gq0 >= 0
        and gq + far - gq0 < grid.shape[0]
        and gr - far - gr0 >= 0
        and gr + far - gr0 < grid.shape[1]
    )
    in_reach = d0 + far <= ROUTE_REACH
    # the usual case, one hex further out each way: a neighbour of a hex searched may be read from the grid
    # and the window before its distance rules it out (three tests, one branch)
    fast = (
        d0 + far + 1 <= ROUTE_REACH
        and gq - far - 1 - gq0 >= 0
        and gq + far + 1 - gq0 < grid.shape[0]
        and gr - far - 1 - gr0 >= 0
        and gr + far + 1 - gr0 < grid.shape[1]
    )
    seen[start] = 7
    queue[0] = start
    nq = 1
    qi = 0
    found = -1
    layer = 0  # the distance of the hexes queue[qi:layer_end] from the start
    layer_end = 1
    # with a depth, a hex reached at layer + 1 lies on a path ending next to the goal within ``depth`` hexes
    # only if it is at most depth - layer from the goal: the others are left out (a hex that is kept has
    # only kept hexes before it on its path, so the search finds the same hex by the same path)
    bound = far if depth < 0 else min(far, depth)
    while qi < nq and found < 0:
        if qi == layer_end:
            layer += 1
            layer_end = nq
            if depth >= 0:
                bound = min(far, depth - layer)
        if depth >= 0 and layer >= depth:
            break
        cell = queue[qi]
        qi += 1
        hq = sq + cell // side - ROUTE_REACH
        hr = sr + cell % side - ROUTE_REACH
        # a hex reached by a step in direction k: its neighbours k + 2, k + 3 (where it came from) and k + 4
        # are neighbours of the hex it came from, looked at when that one was: already seen, or still left
        # out (taken, too far, outside the window: the bound only shrinks)
        ahead = AHEAD[seen[cell] - 1]
        for k in range(6):
            if not (ahead >> k) & 1:
                continue
            q = hq + DQ[k]
            r = hr + DR[k]
            nd = _hexd(q, r, gq, gr)
            if fast:
                c = cell + DQ[k] * side + DR[k]
                if (nd > bound) | (seen[c] != 0) | (grid[q - gq0, r - gr0] != 0):
                    continue
                seen[c] = k + 1
                queue[nq] = c
                nq += 1
                if nd <= 1:
                    found = c
                    break
                continue
            if nd > bound:
                continue
            if not in_reach and _hexd(q, r, sq, sr) > ROUTE_REACH:
                continue
            c = cell + DQ[k] * side + DR[k]
            if seen[c] != 0:
                continue
            if on_grid:
                if grid[q - gq0, r - gr0] != 0:
                    continue
            elif _taken(q, r, i, st, n, grid, flags):
                continue
            seen[c] = k + 1
            queue[nq] = c
            nq += 1
            if nd <= 1:
                found = c
                break
    if found >= 0:
        # the path's length, then back from its end to the hex ``limit`` steps out
        length = 0
        c = found
        while c != start:
            k = seen[c] - 1
            c = ((c // side) - DQ[k]) * side + (c % side) - DR[k]
            length += 1
        c = found
        for _ in range(length - min(length, limit)):
            k = seen[c] - 1
            c = ((c // side) - DQ[k]) * side + (c % side) - DR[k]
        out[0] = min(length, limit)
        out[1] = sq + c // side - ROUTE_REACH
        out[2] = sr + c % side - ROUTE_REACH
        out[3] = seen[c] - 1
    for x in range(nq):
        seen[queue[x]] = 0
    return found >= 0


@njit(cache=True, forceinline=True, _nrt=False)
def _path_towards(i, gq, gr, limit, st, n, out, grid, flags, seen, queue):  # noqa: ANN001, ANN202, PLR0913
    """pathing.towards (stop 1 hex away): ``out`` = (hexes, last q, last r, direction of the last
    step); greedy, then :func:`_route` when no neighbour is nearer before the path is done."""
    _path_within(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, -1)


@njit(cache=True, forceinline=False, _nrt=False)
def _path_within(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, depth):  # noqa: ANN001, ANN202, PLR0913
    """:func:`_path_towards`, or with ``depth`` >= 0 (= ``limit``) for a caller that only needs to know
    whether the goal can be reached within ``limit`` hexes (the path when it can): the search for a way
    round (_route) gives up beyond that, and ``out`` then ends short of the goal, not necessarily where
    pathing.towards would."""
    hq = st[i, S_Q]
    hr = st[i, S_R]
    d = _hexd(hq, hr, gq, gr)
    steps = 0
    last = -1
    while steps < limit and d > 1:
        best = -1
        bd = d
        for k in range(6):
            nq = hq + DQ[k]
            nr = hr + DR[k]
            if _taken(nq, nr, i, st, n, grid, flags):
                continue
            nd = _hexd(nq, nr, gq, gr)
            if nd < bd:
                best = k
                bd = nd
        if best < 0:
            if limit > 0 and _route(i, gq, gr, limit, st, n, out, grid, flags, seen, queue, depth):
                return
            break
        hq += DQ[best]
        hr += DR[best]
        d = bd
        steps += 1
        last = best
    out[0] = steps
    out[1] = hq
    out[2] = hr
    out[3] = last


@njit(cache=True, forceinline=False, _nrt=False)
def _path_away(i, tq, tr, limit, st, n, out, grid, flags):  # noqa: ANN001, ANN202
    """pathing.away: each step to the first neighbour farther from the threat than any so far (every
    step gets strictly farther, so the path never revisits a hex)."""
    hq = st[i, S_Q]
    hr = st[i, S_R]
    steps = 0
    last = -1
    for _ in range(limit):
        best = -1
        bd = _hexd(hq, hr, tq, tr)
        for k in range(6):
            nq = hq + DQ[k]
            nr = hr + DR[k]
            if _taken(nq, nr, i, st, n, grid, flags):
                continue
            nd = _hexd(nq, nr, tq, tr)
            if nd > bd:
                best = k
                bd = nd
        if best < 0:
            break
        hq += DQ[best]
        hr += DR[best]
        steps += 1
        last = best
    out[0] = steps
    out[1] = hq
    out[2] = hr
    out[3] = last


@njit(cache=True, forceinline=True, _nrt=False)
def _close_foes(t, excl, cst, st, n, rear):  # noqa: ANN001, ANN202
    """chapter._adjacent_enemies of ``t``: active enemies next to it, not knocked down nor surprised, with a
    close attack.
    Returns (how many, how many of them other than ``excl``, whether one other than ``excl`` stands outside
    ``t``'s rear arc (situation.in_rear; looked at only when ``rear``))."""
    cnt = 0
    others = 0
    front = False
    side = cst[t, SIDE]
    qt = st[t, S_Q]
    rt = st[t, S_R]
    ft = st[t, S_FACE]
    for o in range(n):
        if cst[o, SIDE] == side or st[o, S_STATUS] != ACTIVE or st[o, S_DOWN] or cst[o, NATT] == 0:
            continue
        if st[o, S_RIDER] > 0:  # readers.adjacent_enemies: rider and mount fight as one opponent
            continue
        if st[o, S_SURP]:  # the surprised engage no one (readers.adjacent_enemies)
            continue
        if _hexd(st[o, S_Q], st[o, S_R], qt, rt) != 1:
            continue
        cnt += 1
        if o != excl:
            others += 1
            if rear:
                rel = (_dir(qt, rt, st[o, S_Q], st[o, S_R]) - ft) % 6
                if rel < 2 or rel > 4:
                    front = True
    return cnt, others, front


@njit(cache=True, forceinline=True, _nrt=False)
def _close_foes_at(t, excl, cst, st, n, rear, grid, flags):  # noqa: ANN001, ANN202
    """:func:`_close_foes` from the occupancy grid: the six hexes round ``t`` instead of every combatant
    (the same answer: the grid holds everyone active or unconscious, and with its id (:func:`_code`) the
    side of one that counts as a close combat foe); a scan off the grid's edge, or of three combatants or
    fewer (fewer reads). Without branches: whether a neighbour is a foe is unpredictable."""
    i = st[t, S_Q] - flags[F_GQ0]
    j = st[t, S_R] - flags[F_GR0]
    if n <= 3 or flags[F_RIDERS] or not (1 <= i < grid.shape[0] - 1 and 1 <= j < grid.shape[1] - 1):
        return _close_foes(t, excl, cst, st, n, rear)
    cnt = 0
    others = 0
    mask = 0  # the directions of the foes other than excl
    own = cst[t, SIDE] + 1
    ex = excl + 1
    for k in range(6):
        v = grid[i + DQ[k], j + DR[k]]
        fs = v >> G_SHIFT
        foe = (fs > 0) & (fs != own)  # G_BLOCKED: negative
        other = foe & ((v & G_ID) != ex)
        cnt += foe
        others += other
        mask |= np.int64(other) << k
    # outside the rear arc: the facing direction and the two next to it (AHEAD's bits)
    front = rear and (mask & AHEAD[st[t, S_FACE]]) != 0
    return cnt, others, front


@njit(cache=True, forceinline=False, _nrt=False)
def _recover(c, s, st, cst, off, shift, keep, own, alias):  # noqa: ANN001, ANN202
    """combat.recovery_events (p.380): the Recovery step, less one point per Wound, at least 1 healed (Stun
    damage first; the first test after Stun damage adds the Willpower step and heals Stun damage only,
    p.383); wakes an unconscious character below his Unconsciousness Rating (not inlined: rare)."""
    stun = st[c, S_STUN]
    bonus = stun > 0 and st[c, S_BONUS] == 0
    row = cst[c, RECSTUN] if bonus else cst[c, RECSTEP]
    v = _draw(s, row, off, shift, keep, own, alias) >> 1
    healed = v - st[c, S_WND]
    if healed < 1:
        healed = 1
    st[c, S_REC] += 1
    heal_stun = min(stun, healed)
    heal_damage = 0 if bonus else min(st[c, S_DMG] - stun, healed - heal_stun)
    st[c, S_BONUS] |= bonus
    st[c, S_STUN] -= heal_stun
    st[c, S_DMG] -= heal_stun + heal_damage
    if st[c, S_STATUS] == UNCONSCIOUS and st[c, S_DMG] < cst[c, UNC]:
        # still knocked down (it fell unconscious): no close combat foe yet, as the grid says
        st[c, S_STATUS] = ACTIVE


@njit(cache=True, forceinline=True, _nrt=False)
def _initiative(s, st, cst, flags, off, shift, keep, own, alias, wk):  # noqa: ANN001, ANN202
    """round._initiative (p.371-372): the acting order of the active combatants in ``wk[W_ORDER]``; returns
    how many act."""
    n = cst.shape[0]
    wp = flags[F_WP] != 0
    take = flags[F_TAKE] != 0
    group = flags[F_GROUP] != 0
    max_step = flags[F_MAXSTEP]
    keys = wk[W_KEYS]
    order = wk[W_ORDER]
    g_id = wk[W_GID]
    g_step = wk[W_GSTEP]
    g_val = wk[W_GVAL]
    m = 0
    ng = 0
    for c in range(n):
        if st[c, S_STATUS] != ACTIVE or follows(c, st, cst):
            continue
        step = cst[c, INIT]
        if wp:
            step -= st[c, S_WND]
        if st[c, S_DOWN]:
            step += flags[F_DOWN_INIT]
        forced = 0
        if step < 1:
            forced = 1
            value = 1
        elif take and cst[c, PLAYER] == 0:
            value = step
        else:
            gid = cst[c, GROUP] if group else -1
            value = -1
            if gid >= 0:
                for g in range(ng):
                    if g_id[g] == gid and g_step[g] == step:
                        value = g_val[g]
                        break
            if value < 0:
                value = _draw(s, min(step, max_step), off, shift, keep, own, alias) >> 1
                if gid >= 0:
                    g_id[ng] = gid
                    g_step[ng] = step
                    g_val[ng] = value
                    ng += 1
        if value > 4095:
            value = 4095
        # initiative_order_key: forced last, highest result, then the fixed part (init_key)
        key = (forced << 39) + ((4095 - value) << 27) + cst[c, IKEY]
        j = m
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            order[j] = order[j - 1]
            j -= 1
        keys[j] = key
        order[j] = c
        m += 1
    return m


def init_key(player: bool, init: int, dex: int, rank: int) -> int:
    """The low 27 bits of a combatant's acting-order key (round._initiative's initiative_order_key, p.372,
    after the forced-last flag and the result): player characters first, then the higher Initiative step,
    Dexterity, then the id's rank (Initiative step 0..255, Dexterity 0..255, rank 0..1023)."""
    return ((((0 if player else 1) * 256 + (255 - init)) * 256 + (255 - dex)) * 1024) + rank


@njit(cache=True, forceinline=True, _nrt=False)
def _end_check(cst, st, standing, n, nsides):  # noqa: ANN001, ANN202
    """play.Fight._check_end: the side still standing (-1 if none) when at most one side is, else -2."""
    for si in range(nsides):
        standing[si] = 0
    for c in range(n):  # without branches: who still stands is unpredictable
        standing[cst[c, SIDE]] |= st[c, S_STATUS] == ACTIVE
    k = 0
    last = -1
    for si in range(nsides):
        up = standing[si]
        k += up
        last += up * (si - last)
    if k <= 1:
        return last
    return -2


@njit(cache=True, forceinline=True, _nrt=False)
def _code(c, st, cst):  # noqa: ANN001, ANN202
    """What the occupancy grid holds for ``c``: its id + 1, and from G_SHIFT up its side + 1 if it counts as
    a close combat foe of the other sides (chapter._adjacent_enemies: active, not knocked down nor surprised,
    a close attack), else 0."""
    foe = (st[c, S_STATUS] == ACTIVE) & (st[c, S_DOWN] == 0) & (cst[c, NATT] != 0) & (st[c, S_SURP] == 0)
    return (c + 1) | ((np.int64(foe) * (cst[c, SIDE] + 1)) << G_SHIFT)


@njit(cache=True, forceinline=True, _nrt=False)
def _grid_set(c, v, st, grid, flags):  # noqa: ANN001, ANN202
    """Marks (``v``: :func:`_code` of c, or c + 1 where no one asks who is a foe) or clears (``v`` = 0, if it
    is c's) the hex of ``c`` on the occupancy grid."""
    i = st[c, S_Q] - flags[F_GQ0]
    j = st[c, S_R] - flags[F_GR0]
    if 0 <= i < grid.shape[0] and 0 <= j < grid.shape[1] and (v > 0 or (grid[i, j] & G_ID) == c + 1):
        grid[i, j] = v


@njit(cache=True, forceinline=True, _nrt=False)
def _regrid(c, st, cst, grid, flags):  # noqa: ANN001, ANN202
    """``c``'s hex on the occupancy grid after it moved there, or its status or knocked down changed."""
    _grid_set(c, _code(c, st, cst), st, grid, flags)


@njit(cache=True, forceinline=True, _nrt=False)
def _move(me, st, cst, path, grid, flags):  # noqa: ANN001, ANN202
    """Moved along a path: the last hex, facing the direction of the last step (round.heading)."""
    if path[0] > 0:
        _grid_set(me, 0, st, grid, flags)
        st[me, S_Q] = path[1]
        st[me, S_R] = path[2]
        st[me, S_FACE] = path[3]
        _regrid(me, st, cst, grid, flags)
        carry(me, st)


@njit(cache=True, forceinline=True, _nrt=False)
def _deal(me, t, amount, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt, taken, grid, foes):  # noqa: ANN001, ANN202, PLR0913
    """combat.damage_events (p.379-380) for damage that got through Armor: a Wound at the Wound Threshold,
    death at the Death Rating, unconsciousness (and knocked down) at the Unconsciousness Rating, else a
    Knockdown test when the damage exceeds the Wound Threshold by 5 or more (Harried applies; ``foes``:
    how many close combat foes ``t`` has, -1 if not known yet). True if ``t``'s status changed."""
    if amount <= 0:
        return False
    dealt[me] += amount
    taken[t] += amount
    wt = cst[t, WT]
    new_w = 1 if amount >= wt else 0
    st[t, S_WND] += new_w
    st[t, S_DMG] += amount
    if st[t, S_DMG] - st[t, S_STUN] >= cst[t, DEATH]:  # Stun damage cannot kill (p.383)
        st[t, S_STATUS] = DEAD
        _grid_set(t, 0, st, grid, flags)
        left_behind(t, st, cst, grid, flags)
        return True
    elif st[t, S_STATUS] != ACTIVE:
        return False
    elif st[t, S_DMG] >= cst[t, UNC]:
        st[t, S_STATUS] = UNCONSCIOUS
        st[t, S_UNC] = rnd + 10  # when its Recovery test is due (play)
        st[t, S_DOWN] = 1
        _regrid(t, st, cst, grid, flags)
        return True
    elif amount - wt >= 5 and not st[t, S_DOWN]:
        kstep = cst[t, KD]
        if flags[F_WP]:
            kstep -= st[t, S_WND] - new_w
        if flags[F_CHAPTER]:
            cnt_t = foes
            if cnt_t < 0:
                cnt_t, _o, _f = _close_foes_at(t, -1, cst, st, cst.shape[0], False, grid, flags)
            kstep += _harried_pen(_harried_n(t, cnt_t, True, st, flags), flags)
        if kstep < 1:
            kstep = 1
        ko = _draw(s, min(kstep, flags[F_MAXSTEP]), off, shift, keep, own, alias)
        if (ko & 1) or (ko >> 1) < amount - wt:
            st[t, S_DOWN] = 1
            _regrid(t, st, cst, grid, flags)
    return False


@njit(cache=True, forceinline=True, _nrt=False)
def _damage(
    me,
    t,
    dstep,
    armor_kind,
    max_step,
    rnd,
    s,
    st,
    cst,
    flags,
    off,
    shift,
    keep,
    own,
    alias,
    dealt,
    taken,
    grid,
    foes,
):  # noqa: ANN001, ANN202, E501, PLR0913
    """A Damage test at ``dstep`` (at least Step 1; the table stops at ``max_step``) against the armor of
    ``armor_kind`` (0 none, 1 physical, 2 mystic), then :func:`_deal` (p.378-379)."""
    if dstep < 1:
        dstep = 1
    raw = _draw(s, min(dstep, max_step), off, shift, keep, own, alias) >> 1
    armor = 0 if armor_kind == 0 else cst[t, PARM] if armor_kind == 1 else cst[t, MARM]
    return _deal(
        me, t, raw - armor, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt, taken, grid, foes
    )


@njit(cache=True, forceinline=True, _nrt=False)
def _attack_numbers(me, t, a, long_pen, st, cst, att, flags, wk):  # noqa: ANN001, ANN202
    """The step and the DN of ``me``'s Attack test on ``t`` with attack ``a`` (p.377): the step less
    Wounds, long range, Harried by numbers; the Defense with knocked down, Harried, Blindsided and the
    characters in the way (the last three with the chapter); both at least 1."""
    cnt_me, cnt_t, oth_t, front_t = 0, 0, 0, False
    if flags[F_CHAPTER]:
        cnt_me, _o, _f = _close_foes(me, -1, cst, st, cst.shape[0], False)
        cnt_t, oth_t, front_t = _close_foes(t, me, cst, st, cst.shape[0], True)
    return _numbers(me, t, a, long_pen, st, cst, att, flags, wk, cnt_me, cnt_t, oth_t, front_t)


@njit(cache=True, forceinline=True, _nrt=False)
def _numbers(me, t, a, long_pen, st, cst, att, flags, wk, cnt_me, cnt_t, oth_t, front_t):  # noqa: ANN001, ANN202, PLR0913
    """:func:`_attack_numbers` with the close combat foes counted: ``me``'s (_close_foes(me, -1)) and
    ``t``'s (_close_foes(t, me, True)); darkness, cover and surprise (the map and the senses, below)."""
    n = cst.shape[0]
    step = att[me, a, A_STEP] + long_pen + cst[me, SIGHT]
    if flags[F_WP]:
        step -= st[me, S_WND]
    # a reserved action's attacker may be knocked down (the tactic attacks standing otherwise): -3 to the
    # test (_knocked_down_tests); +2 to the DN of a reserved action (Ed4Ruleset._reserved_dn, p.375)
    step += st[me, S_DOWN] * flags[F_DOWN_TEST]
    dn_mod = st[me, S_REACT] * flags[F_RESV_DN]
    blind = False
    dn_mod += _sense_defense(t, st, flags)  # cover, surprised
    if st[t, S_DOWN]:
        dn_mod += flags[F_DOWN_DEF]
    if flags[F_CHAPTER]:
        step += _harried_pen(_harried_n(me, cnt_me, True, st, flags), flags)
        k_t = _harried_n(t, cnt_t, True, st, flags)
        harried_t = k_t > 0
        dn_mod += _harried_pen(k_t, flags)
        if (oth_t > 0 or harried_t or cst[t, SEES] == 0) and _blindsided(me, t, st, cst, harried_t, front_t):
            dn_mod += flags[F_BLIND_PEN]
            blind = True
        if att[me, a, A_CLOSE] == 0 and att[me, a, A_SPELL] == 0:  # chapter._p_into_close: not spells
            dn_mod += _intervening(me, t, st, n, wk[W_INTER])
    if flags[F_OPTS]:  # the declared combat options in force (p.382-384)
        step += option_step(st[me, S_OPT], st[me, S_DOWN], att[me, a, A_CLOSE])
        dn_mod += option_defense(st[t, S_OPT], st[t, S_DOWN], blind)
    against = att[me, a, A_AGAINST]
    defense = cst[t, PD] if against == 0 else cst[t, MD] if against == 1 else cst[t, SD]
    dn = defense + dn_mod
    if dn < 1:
        dn = 1
    if step < 1:
        step = 1
    return step, dn


@njit(cache=True, forceinline=True, _nrt=False)
def _attack(
    me, t, a, use_k, rnd, s, st, cst, att, flags, off, shift, keep, own, alias, wk, dealt, taken, grid
):  # noqa: ANN001, ANN202, PLR0913, PLR0912, PLR0915, C901
    """round._r_attack / attack_once for the tactic's command: ``actions`` attacks until the target falls;
    with the chapter a missed shot into close combat may strike someone in the way (chapter._stray,
    p.392); then chapter._face."""
    n = cst.shape[0]
    wp = flags[F_WP] != 0
    chapter = flags[F_CHAPTER] != 0
    max_step = flags[F_MAXSTEP]
    close = att[me, a, A_CLOSE] != 0
    # long range (round._long_range, p.390): -2 to the Attack and Damage tests; a rider's long weapon in
    # close quarters as much (_turn: weapon_penalty)
    long_pen = wk[W_DEC, 2]
    if not close and att[me, a, A_SHORT] >= 0:
        yards = 2 * _hexd(st[me, S_Q], st[me, S_R], st[t, S_Q], st[t, S_R])
        if yards > att[me, a, A_SHORT]:
            long_pen += flags[F_LONG_PEN]
    stray_total = -1
    tests = 0
    changed = False
    last_hit = True  # the last Attack test (where a thrown weapon lands: features/attack.scatter_throw)
    last_dn = 0
    last_total = 0
    # t's close combat foes (Harried, Blindsided, its Knockdown test, whom it turns to face): only t's own
    # state changes while me attacks it, so they are counted once (a stray shot recounts them for _face)
    cnt_me, cnt_t, oth_t, front_t = 0, 0, 0, False
    if chapter:
        cnt_t, oth_t, front_t = _close_foes_at(t, me, cst, st, n, True, grid, flags)
    spell = att[me, a, A_SPELL] != 0
    # a spell is one test whatever the Actions (round._r_attack)
    for k in range(1 if spell else cst[me, ACTIONS]):
        if st[t, S_STATUS] == DEAD or (k > 0 and st[t, S_STATUS] != ACTIVE):
            break
        tests += 1
        if chapter:  # me's foes: its target, next to it, may have fallen since the last test
            cnt_me, _o, _f = _close_foes_at(me, -1, cst, st, n, False, grid, flags)
        step, dn = _numbers(me, t, a, long_pen, st, cst, att, flags, wk, cnt_me, cnt_t, oth_t, front_t)
        against = att[me, a, A_AGAINST]
        if use_k:
            st[me, S_KARMA] -= 1
            row = cst[me, KROW] + min(step, flags[F_XSD])
        else:
            row = min(step, max_step)
        o = _draw(s, row, off, shift, keep, own, alias)
        if use_k and st[me, S_KARMA] < 1:
            use_k = False
        total = o >> 1
        last_dn = dn
        last_total = total
        last_hit = False
        if o & 1:
            continue
        if total < dn:
            if stray_total < 0:
                stray_total = total
            continue
        last_hit = True
        extra = (total - dn) // 5
        if att[me, a, A_ENT]:
            # strike.entangle: an extra success entangles; a net makes no Damage test (-1)
            extra = _entangle(me, t, a, extra if against == 0 else 0, st, att)
            if extra < 0:
                continue
        # Damage test (p.378): less Wounds, +2 steps per extra success against Physical Defense
        dstep = att[me, a, A_DAMAGE] + long_pen
        if wp:
            dstep -= st[me, S_WND]
        if against == 0:
            dstep += 2 * extra
        if flags[F_OPTS]:
            dstep += option_step(st[me, S_OPT], st[me, S_DOWN], close)
        # fmt: off
        changed |= _hurt(me, t, a, dstep, max_step, rnd, s, st, cst, att, flags, off, shift, keep, own, alias,
                         dealt, taken, grid, cnt_t)
        # fmt: on
    victim = -1
    if close:
        st[me, S_CTEST] += tests  # Aggressive Attack's Strain (_vet_turn)
    if chapter and not close and not spell and stray_total >= 0:
        # fmt: off
        hit, victim = _stray(me, t, a, stray_total, rnd, s, st, cst, att, flags, off, shift, keep, own, alias,
                             wk, dealt, taken, grid)
        # fmt: on
        changed |= hit
    if chapter and tests > 0 and victim < 0:
        _face_known(me, t, st, oth_t)
    if att[me, a, A_THROWN] and tests > 0:
        # fmt: off
        _drop(me, t, a, last_hit, last_dn, last_total, victim, s, st, att, flags, off, shift, keep, own,
              alias)
        # fmt: on
    return changed


@njit(cache=True, forceinline=False, _nrt=False)
def _stray(
    me, t, a, stray_total, rnd, s, st, cst, att, flags, off, shift, keep, own, alias, wk, dealt, taken, grid
):  # noqa: ANN001, ANN202, PLR0913
    """chapter._stray (p.392), for :func:`_attack` (not inlined: rare): a missed shot into close combat
    (its result ``stray_total``) strikes the first character in the way whose Physical Defense it reaches
    (a net or a bola entangles him as it would its target); then chapter._face. Returns (whether a status
    changed, who was struck or -1)."""
    inter = wk[W_INTER]
    ni = _intervening(me, t, st, cst.shape[0], inter)
    for x in range(ni):
        v = inter[x]
        if stray_total >= cst[v, PD]:
            extra = (stray_total - cst[v, PD]) // 5
            changed = False
            if att[me, a, A_ENT]:
                extra = _entangle(me, v, a, extra, st, att)
            if extra >= 0:
                dstep = att[me, a, A_DAMAGE] + 2 * extra
                if flags[F_WP]:
                    dstep -= st[me, S_WND]
                if flags[F_OPTS]:
                    dstep += option_step(st[me, S_OPT], st[me, S_DOWN], False)
                # fmt: off
                changed = _hurt(me, v, a, dstep, flags[F_MAXSTEP], rnd, s, st, cst, att, flags, off, shift,
                                keep, own, alias, dealt, taken, grid, -1)
                # fmt: on
            _face(me, t, st, cst)
            return changed, v
    return False, -1


# ----- Entangling weapons, Stun damage, thrown weapons (ED4 p.383, p.391-393) -----------------------------


@njit(cache=True, forceinline=True, _nrt=False)
def _harried_n(c, cnt, entangled_counts, st, flags):  # noqa: ANN001, ANN202
    """providers.harried_sources: how many Harried effects ``c`` has (with ``cnt`` close combat foes next to
    it): Stun damage this round, entangled (not on its break-free test: ``entangled_counts`` False), four
    or more attackers."""
    k = st[c, S_HARR] + (1 if cnt >= flags[F_HAR_N] else 0)
    if entangled_counts and st[c, S_ENT] > 0:
        k += 1
    return k


@njit(cache=True, forceinline=True, _nrt=False)
def _harried_pen(k, flags):  # noqa: ANN001, ANN202
    """situation.harried_penalty: -2 for being Harried, -1 more for each further Harried effect (p.388)."""
    if k <= 0:
        return 0
    return flags[F_HAR_PEN] + flags[F_HAR_FUR] * (k - 1)


@njit(cache=True, forceinline=True, _nrt=False)
def _entangle(me, t, a, extra, st, att):  # noqa: ANN001, ANN202
    """strike.entangle (p.391): an extra success of an entangling weapon entangles ``t`` (not again if he is
    entangled already) and adds no damage. Returns the extra successes left for the Damage test, or -1
    when the weapon makes none (a net, data/entangling.toml)."""
    if extra >= 1 and st[t, S_ENT] == 0:
        st[t, S_ENT] = me + 1
        st[t, S_ENTA] = a
        st[t, S_ENTDN] = att[me, a, A_ENT]
        extra -= 1
    if att[me, a, A_NODMG]:
        return -1
    return extra


@njit(cache=True, forceinline=False, _nrt=False)
def _hurt(
    me, t, a, dstep, max_step, rnd, s, st, cst, att, flags, off, shift, keep, own, alias, dealt, taken, grid,
    foes
):  # fmt: skip  # noqa: ANN001, ANN202, PLR0913
    """strike.deal: the Damage test of attack ``a`` at ``dstep``, Stun damage (:func:`_stun`) when the attack
    deals it (an attack marked stun, or a close attack with Attacking to Stun declared and in force: not
    knocked down, as a reserved action may find him, p.383), else :func:`_damage`."""
    kind = att[me, a, A_ARMOR]
    stun = att[me, a, A_STUN]
    # fmt: off
    if stun == 2 or (stun == 1 and not st[me, S_DOWN]):
        return _stun(me, t, dstep, kind, max_step, rnd, s, st, cst, flags, off, shift, keep, own, alias,
                     dealt, taken, grid, foes)
    return _damage(me, t, dstep, kind, max_step, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt,
                   taken, grid, foes)
    # fmt: on


@njit(cache=True, forceinline=False, _nrt=False)
def _stun(
    me, t, dstep, armor_kind, max_step, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt, taken,
    grid, foes
):  # fmt: skip  # noqa: ANN001, ANN202, PLR0913
    """combat.damage_events with Stun damage (p.383): none to a target immune to it (Unconsciousness "NA");
    it counts toward the Current Damage and the Unconsciousness Rating but never kills; at the Wound
    Threshold no Wound but Harried for the round; the Knockdown test as for other damage. True if ``t``'s
    status changed."""
    if cst[t, UNC] >= IMMUNE:
        return False
    if dstep < 1:
        dstep = 1
    raw = _draw(s, min(dstep, max_step), off, shift, keep, own, alias) >> 1
    armor = 0 if armor_kind == 0 else cst[t, PARM] if armor_kind == 1 else cst[t, MARM]
    amount = raw - armor
    if amount <= 0:
        return False
    st[t, S_BONUS] = 0  # the next Recovery test is again the first after Stun damage
    dealt[me] += amount
    taken[t] += amount
    wt = cst[t, WT]
    if amount >= wt:
        st[t, S_HARR] = 1
    st[t, S_STUN] += amount
    st[t, S_DMG] += amount
    if st[t, S_STATUS] != ACTIVE:
        return False
    if st[t, S_DMG] >= cst[t, UNC]:
        st[t, S_STATUS] = UNCONSCIOUS
        st[t, S_UNC] = rnd + 10  # when its Recovery test is due (play)
        st[t, S_DOWN] = 1
        _regrid(t, st, cst, grid, flags)
        return True
    if amount - wt >= 5 and not st[t, S_DOWN]:
        kstep = cst[t, KD]
        if flags[F_WP]:
            kstep -= st[t, S_WND]  # Stun damage causes no Wound: every Wound counts
        if flags[F_CHAPTER]:
            cnt_t = foes
            if cnt_t < 0:
                cnt_t, _o, _f = _close_foes_at(t, -1, cst, st, cst.shape[0], False, grid, flags)
            kstep += _harried_pen(_harried_n(t, cnt_t, True, st, flags), flags)
        if kstep < 1:
            kstep = 1
        ko = _draw(s, min(kstep, flags[F_MAXSTEP]), off, shift, keep, own, alias)
        if (ko & 1) or (ko >> 1) < amount - wt:
            st[t, S_DOWN] = 1
            _regrid(t, st, cst, grid, flags)
    return False


@njit(cache=True, forceinline=False, _nrt=False)
def _drop(me, t, a, last_hit, last_dn, last_total, victim, s, st, att, flags, off, shift, keep, own, alias):  # noqa: ANN001, ANN202, PLR0913
    """thrown.mark_thrown (p.392): a thrown weapon leaves the hand (its thrown and close attacks gone until
    picked up) and lies where the target stood; a miss lies at the feet of the one it struck in the way, or
    scatters (attack.scatter_throw, p.393: D6 for the direction, a test at Step DN - result for the feet,
    ranged.scatter_hex: 3 feet a yard, 2 yards a hex, rounded to the nearest, halves to even)."""
    st[me, S_GONE] |= att[me, a, A_DROP]
    if last_hit:
        q = st[t, S_Q]
        r = st[t, S_R]
    elif victim >= 0:
        q = st[victim, S_Q]
        r = st[victim, S_R]
    else:
        d = np.int64(((_next(s) >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32))
        step = max(1, last_dn - last_total)
        feet = _draw(s, min(step, flags[F_MAXSTEP]), off, shift, keep, own, alias) >> 1
        h = feet // 6
        rest = feet - 6 * h
        if rest > 3 or (rest == 3 and h % 2 == 1):
            h += 1
        q = st[t, S_Q] + DQ[d] * h
        r = st[t, S_R] + DR[d] * h
    st[me, S_LIE] = a + 1
    st[me, S_LYQ] = q
    st[me, S_LYR] = r


@njit(cache=True, forceinline=False, _nrt=False)
def _pick_up(me, st, att):  # noqa: ANN001, ANN202
    """thrown._r_pick_up: the weapon is in hand again (a Simple action)."""
    st[me, S_GONE] &= ~att[me, st[me, S_LIE] - 1, A_DROP]
    st[me, S_LIE] = 0


@njit(cache=True, forceinline=False, _nrt=False)
def _fetch(me, st, cst, att, flags, wk, grid):  # noqa: ANN001, ANN202
    """chapter_tactics.fetch_thrown, for a thrower with no weapon left in hand: picks his thrown weapon up
    when it lies within reach (readers.lying_in_reach: that hex or next to it), else moves next to it with
    his Movement and picks it up, else runs there when no enemy is next to him. True when that ends the
    turn (the run); else the tactic goes on, with the Movement left (S_MOVED)."""
    n = cst.shape[0]
    path = wk[W_PATH]
    seen = wk[W_SEEN]
    queue = wk[W_QUEUE]
    lq = st[me, S_LYQ]
    lr = st[me, S_LYR]
    if _hexd(st[me, S_Q], st[me, S_R], lq, lr) <= 1:
        _pick_up(me, st, att)
        return False
    _path_towards(me, lq, lr, cst[me, MV], st, n, path, grid, flags, seen, queue)
    if path[0] > 0 and _hexd(path[1], path[2], lq, lr) <= 1:
        _move(me, st, cst, path, grid, flags)
        st[me, S_MOVED] = path[0]
        _pick_up(me, st, att)
        return False
    side = cst[me, SIDE]
    for c in range(n):
        if (
            cst[c, SIDE] != side
            and st[c, S_STATUS] == ACTIVE
            and _hexd(st[c, S_Q], st[c, S_R], st[me, S_Q], st[me, S_R]) <= 1
        ):
            return False
    _path_towards(me, lq, lr, 2 * cst[me, MV], st, n, path, grid, flags, seen, queue)
    if path[0] > 0:
        _move(me, st, cst, path, grid, flags)
        return True
    return False


@njit(cache=True, forceinline=True, _nrt=False)
def _break_free_step(me, st, cst, att, flags, grid):  # noqa: ANN001, ANN202
    """The step of ``me``'s break-free test (:func:`_break_free`; at least 1) and whether it ruins the
    entangling weapon."""
    gone = st[me, S_GONE]
    bonus = 0
    ruins = False
    for a in range(cst[me, NATT]):
        v = att[me, a, A_BLADE]
        if v != NO_BLADE and not (gone >> a) & 1:
            if v != 0:
                bonus = v
                ruins = True
            break
    step = cst[me, BFSTEP] + bonus
    if flags[F_WP]:
        step -= st[me, S_WND]
    if st[me, S_DOWN]:
        step += flags[F_DOWN_TEST]
    if flags[F_CHAPTER]:
        cnt, _o, _f = _close_foes_at(me, -1, cst, st, cst.shape[0], False, grid, flags)
        step += _harried_pen(_harried_n(me, cnt, False, st, flags), flags)
    if step < 1:
        step = 1
    return step, ruins


@njit(cache=True, forceinline=False, _nrt=False)
def _break_free(me, s, st, cst, att, flags, off, shift, keep, own, alias, grid):  # noqa: ANN001, ANN202, PLR0913
    """grappling._r_break_free for the entangled (p.391), his whole Standard action: the better of his
    Strength and Dexterity steps against the weapon's DN; the first one-handed blade in hand adds its Damage
    Step (less Strength) and ruins the weapon (grappling._ruin_entangler: a whip is lost to its wielder, a
    thrown net can no longer be picked up). Wounds, knocked down and Harried (not by the entanglement
    itself) count."""
    step, ruins = _break_free_step(me, st, cst, att, flags, grid)
    o = _draw(s, min(step, flags[F_MAXSTEP]), off, shift, keep, own, alias)
    if (o & 1) or (o >> 1) < st[me, S_ENTDN]:
        return
    owner = st[me, S_ENT] - 1
    ea = st[me, S_ENTA]
    st[me, S_ENT] = 0
    if ruins:
        if att[owner, ea, A_THROWN]:
            if st[owner, S_LIE] == ea + 1:
                st[owner, S_LIE] = 0
        else:
            st[owner, S_GONE] |= att[owner, ea, A_RUIN]


@njit(cache=True, forceinline=True, _nrt=False)
def _fdir(q1, r1, q2, r2):  # noqa: ANN001, ANN202
    """:func:`_cdir` (chapter._direction), from a table when the second hex is next to the first (a close
    attack's target: the direction of that neighbour, the only one pointing at it)."""
    dq = q2 - q1 + 1
    dr = r2 - r1 + 1
    if 0 <= dq <= 2 and 0 <= dr <= 2:
        k = NEXT_DIR[dq * 3 + dr]
        if k >= 0:
            return k
    return _cdir(q1, r1, q2, r2)


@njit(cache=True, forceinline=True, _nrt=False)
def _face(me, t, st, cst):  # noqa: ANN001, ANN202
    """chapter._face: the attacker faces its target; a defender next to it with no other foe next to it
    turns to face the attacker (Blindsided, p.386-387)."""
    oth = 1
    if st[t, S_STATUS] == ACTIVE and _hexd(st[me, S_Q], st[me, S_R], st[t, S_Q], st[t, S_R]) == 1:
        _c, oth, _f = _close_foes(t, me, cst, st, cst.shape[0], False)
    _face_known(me, t, st, oth)


@njit(cache=True, forceinline=True, _nrt=False)
def _face_known(me, t, st, oth):  # noqa: ANN001, ANN202
    """:func:`_face` with the count of ``t``'s close combat foes other than ``me`` (``oth``) known."""
    dq = st[t, S_Q] - st[me, S_Q] + 1
    dr = st[t, S_R] - st[me, S_R] + 1
    k = NEXT_DIR[dq * 3 + dr] if (0 <= dq <= 2 and 0 <= dr <= 2) else -1
    if k < 0:
        st[me, S_FACE] = _cdir(st[me, S_Q], st[me, S_R], st[t, S_Q], st[t, S_R])
        return
    st[me, S_FACE] = k
    # a neighbour turns to face the attacker: the opposite direction
    if oth == 0 and st[t, S_STATUS] == ACTIVE:
        st[t, S_FACE] = k + 3 if k < 3 else k - 3


@njit(cache=True, forceinline=True, _nrt=False)
def _plan(me, t, mv, st, cst, att, pref, flags, n, path, grid, seen, queue):  # noqa: ANN001, ANN202, PLR0913
    """tactics.Ed4Tactic.attack_plan: the first attack in the tactic's order (most expected damage, then
    the first listed) that ``me`` can make on ``t`` now: a close attack on a neighbour or after a
    path (_path_towards) of at most ``mv`` hexes ending next to it (``path``), a ranged one within its
    range. -1 if none."""
    if _full_cover(t, st, flags):
        return -1  # features.attack.validate_attack refuses every attack on him (p.387)
    d = _hexd(st[me, S_Q], st[me, S_R], st[t, S_Q], st[t, S_R])
    wmax = flags[F_W]
    w = st[me, S_WND] if st[me, S_WND] < wmax else wmax
    cls = cst[me, CLS]
    tcls = cst[t, CLS]
    # the tactic's order with t knocked down (+1) and with me knocked down (+2: a reserved action only)
    dt = (1 if st[t, S_DOWN] else 0) + (2 if st[me, S_DOWN] else 0)
    reach = -1
    gone = st[me, S_GONE]
    for k in range(pref.shape[4]):
        a = pref[cls, tcls, w, dt, k]
        if a < 0:
            break
        if (gone >> a) & 1:  # thrown away or lost: the chapter refuses it (features/attack.validate_attack)
            continue
        if att[me, a, A_CLOSE]:
            if d == 1:
                path[0] = 0
                return a
            if d - 1 <= mv:
                if reach < 0:
                    # only a path that gets next to t within mv hexes matters (the path of a failed plan is
                    # never used): the search stops at mv
                    _path_within(me, st[t, S_Q], st[t, S_R], mv, st, n, path, grid, flags, seen, queue, mv)
                    reach = 1 if path[0] > 0 and _hexd(path[1], path[2], st[t, S_Q], st[t, S_R]) == 1 else 0
                if reach == 1:
                    return a
        else:
            yards = 2 * d
            if att[me, a, A_LONG] >= 0 and yards <= att[me, a, A_LONG] and yards >= att[me, a, A_MIN]:
                path[0] = 0
                return a
    return -1


@njit(cache=True, forceinline=True, _nrt=False)
def _decide(me, st, cst, att, pref, kuse, flee_thr, flags, wk, grid):  # noqa: ANN001, ANN202, PLR0912, C901
    """What tactics.Ed4Tactic.act chooses for ``me`` (no state changes): returns the action (ACT_*) and
    its target (-1 if none); ``wk[W_PATH]`` holds the path (hexes, last q, last r, last step's
    direction), ``wk[W_DEC]`` the attack and whether Karma is spent."""
    n = cst.shape[0]
    side = cst[me, SIDE]
    cls = cst[me, CLS]
    path = wk[W_PATH]
    dec = wk[W_DEC]
    seen = wk[W_SEEN]
    queue = wk[W_QUEUE]
    path[0] = 0
    mq = st[me, S_Q]
    mr = st[me, S_R]
    full = 0 if st[me, S_NOMOVE] else movement(me, st, cst)  # no movement after Jump Up; a rider's mount's
    mv = full - st[me, S_MOVED]  # the Movement left (a thrower who went for his weapon moved)
    run = 2 * full - st[me, S_MOVED]
    my_dmg = st[me, S_DMG]
    # The usual turn, from the occupancy grid: standing, no enemy's hit could make it run (its damage is
    # below every fleeing threshold of its class), an active enemy next to it. The nearest enemy is then
    # the most hurt (then the first id) of those next to it (no enemy is nearer), it revives nobody, and the
    # plan on a neighbour needs no path: the choice the survey below makes, without looking at everyone.
    gi = mq - flags[F_GQ0]
    gj = mr - flags[F_GR0]
    if (
        st[me, S_DOWN] == 0
        and not flags[F_RIDERS]
        and 1 <= gi < grid.shape[0] - 1
        and 1 <= gj < grid.shape[1] - 1
    ):
        calm = True
        for k in range(flee_thr.shape[1]):
            calm &= my_dmg < flee_thr[cls, k]
        if calm:
            near_key = np.int64(1) << 62
            for k in range(6):
                c = (grid[gi + DQ[k], gj + DR[k]] & G_ID) - 1
                if c >= 0 and cst[c, SIDE] != side and st[c, S_STATUS] == ACTIVE and not _unseen(c, me, st):
                    key = (((1 << 20) - 1 - min(st[c, S_DMG], (1 << 20) - 1)) << 20) | cst[c, RANK]
                    near_key = min(near_key, key)
            if near_key < (np.int64(1) << 62):
                tgt = cst[near_key & ((1 << 20) - 1), BYRANK]
                a = _plan(me, tgt, mv, st, cst, att, pref, flags, n, path, grid, seen, queue)
                if a >= 0:
                    return _attack_choice(me, tgt, a, st, cst, kuse, flags, dec)
    # Survey: the nearest enemy it sees (distance, most hurt, id), enemies within 2 hexes, fallen friends
    # (one packed key per enemy, compared without branches: distance, then damage, then the id's rank)
    best_key = np.int64(1) << 62
    adjacent_foe = False
    danger = False
    for c in range(n):
        if cst[c, SIDE] == side or st[c, S_STATUS] != ACTIVE or _unseen(c, me, st):
            continue
        d = _hexd(mq, mr, st[c, S_Q], st[c, S_R])
        adjacent_foe |= d == 1
        danger |= (d <= 2) & (my_dmg >= flee_thr[cls, cst[c, CLS]])
        key = (d << 40) | (((1 << 20) - 1 - min(st[c, S_DMG], (1 << 20) - 1)) << 20) | cst[c, RANK]
        best_key = min(best_key, key)
    tgt = -1
    tk_d = 0
    if best_key < (np.int64(1) << 62):
        tgt = cst[best_key & ((1 << 20) - 1), BYRANK]
        tk_d = best_key >> 40
    if st[me, S_DOWN]:
        # stand up (the whole Standard action, p.389), then move toward the nearest enemy
        if tgt >= 0 and tk_d > 1 and st[me, S_MOVED] == 0:  # moved this turn: no walk (Ed4Tactic.act)
            _path_towards(me, st[tgt, S_Q], st[tgt, S_R], cst[me, MV], st, n, path, grid, flags, seen, queue)
        return ACT_STAND, tgt
    if tgt < 0:
        return ACT_END, -1
    if danger:
        # a character the next average hit could kill runs away (tactics.in_danger, pathing.away)
        _path_away(me, st[tgt, S_Q], st[tgt, S_R], run, st, n, path, grid, flags)
        if path[0] > 0:
            return ACT_FLEE, tgt
    if not adjacent_foe and cst[me, ROUSE]:
        # revive an unconscious friend next to it (round._r_revive, p.380)
        for c in range(n):
            if (
                cst[c, SIDE] == side
                and st[c, S_STATUS] == UNCONSCIOUS
                and _hexd(mq, mr, st[c, S_Q], st[c, S_R]) == 1
                and st[c, S_REC] < cst[c, RECT]
                and st[c, S_FAILED] == 0
            ):
                return ACT_REVIVE, c
    # the attack plan on the nearest enemy, else on up to five nearest others, else run toward it
    foe = -1
    a = _plan(me, tgt, mv, st, cst, att, pref, flags, n, path, grid, seen, queue)
    if a >= 0:
        foe = tgt
    else:
        # heapq.nsmallest(5, foes, key=(distance, id)), the nearest enemy skipped
        cand = wk[W_CAND]
        nc = 0
        for c in range(n):
            if cst[c, SIDE] != side and st[c, S_STATUS] == ACTIVE and not _unseen(c, me, st):
                cand[nc] = c
                nc += 1
        for k in range(min(5, nc)):
            bi = k
            bd = _hexd(mq, mr, st[cand[k], S_Q], st[cand[k], S_R])
            for x in range(k + 1, nc):
                dx = _hexd(mq, mr, st[cand[x], S_Q], st[cand[x], S_R])
                if dx < bd or (dx == bd and cst[cand[x], RANK] < cst[cand[bi], RANK]):
                    bi = x
                    bd = dx
            o = cand[bi]
            cand[bi] = cand[k]
            cand[k] = o
            if o == tgt:
                continue
            a = _plan(me, o, mv, st, cst, att, pref, flags, n, path, grid, seen, queue)
            if a >= 0:
                foe = o
                break
    if foe < 0:
        _path_towards(me, st[tgt, S_Q], st[tgt, S_R], run, st, n, path, grid, flags, seen, queue)
        return (ACT_RUN if path[0] > 0 else ACT_END), tgt
    return _attack_choice(me, foe, a, st, cst, kuse, flags, dec)


@njit(cache=True, forceinline=True, _nrt=False)
def _attack_choice(me, foe, a, st, cst, kuse, flags, dec):  # noqa: ANN001, ANN202
    """:func:`_decide`'s attack on ``foe`` with attack ``a``: ``dec`` = the attack and whether the tactic
    spends Karma on it (tactics.Ed4Tactic.attack_plan)."""
    wmax = flags[F_W]
    w = st[me, S_WND] if st[me, S_WND] < wmax else wmax
    dec[0] = a
    dec[1] = 1 if (kuse[cst[me, CLS], a, cst[foe, CLS], w] and st[me, S_KARMA] > 0) else 0
    return ACT_ATTACK, foe


# ----- reserved actions and the guard tactic ---------------------------------------------------------------
# It mirrors (called from _turn):
#
# - ``tactics.GuardTactic.act`` (and ``chapter_tactics.SentinelTactic``, the same tactic under another name):
#   a knocked-down guard stands up where it lies; otherwise it attacks the first enemy, by distance then id,
#   that it can attack without moving (a close attack on a neighbour, a ranged one in range: the default
#   tactic's ``attack_plan`` with no movement), else it reserves its action for any attack on its side (no
#   enemy left: it ends its turn);
# - ``commands.EarthdawnCommands.resolve`` and ``_triggered`` (p.375): an ``attack`` command of an enemy on
#   one of the reserver's side is interrupted before it happens (before its movement); the first reserver of
#   the round (in the order they reserved) who is active, of another side than the attacker and has not let
#   this attacker's turn pass, decides (``Ed4Tactic.react``): the attack plan on the attacker with the
#   reserver's whole Movement (crawling if knocked down), its Karma; then it takes that action (+2 to its
#   DNs, ``Ed4Ruleset._reserved_dn``) and its reserved action is spent, or it lets the attack happen
#   (``pass``) and keeps it; either way the attacker then decides again (the tactic is deterministic: after
#   a pass it chooses the same attack, which the next reserver may interrupt);
# - reserved actions end with the round (``round._end_round``).

_BIGKEY = np.int64(1) << 62


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _guard_decide(me, st, cst, att, pref, kuse, flags, wk, grid):  # noqa: ANN001, ANN201
    """tactics.GuardTactic.act for ``me`` (no state changes): (ACT_*, target); ``wk[W_DEC]`` the attack."""
    n = cst.shape[0]
    path = wk[W_PATH]
    path[0] = 0
    if st[me, S_DOWN]:
        return ACT_STAND, -1  # stand-up, no path
    side = cst[me, SIDE]
    mq = st[me, S_Q]
    mr = st[me, S_R]
    # the enemies it sees (tactics._enemies) by (distance, id): with no movement whether an attack plan exists
    # depends on the distance alone (and full cover), so after a failed plan every enemy as near is passed
    # over (but one in full cover)
    last = np.int64(-1)
    any_foe = False
    while True:
        best = _BIGKEY
        for c in range(n):
            if cst[c, SIDE] == side or st[c, S_STATUS] != ACTIVE or _unseen(c, me, st):
                continue
            any_foe = True
            key = (np.int64(_hexd(mq, mr, st[c, S_Q], st[c, S_R])) << 20) | cst[c, RANK]
            if key <= last:
                continue
            best = min(best, key)
        if best == _BIGKEY:
            break
        foe = cst[best & ((1 << 20) - 1), BYRANK]
        # fmt: off
        a = _plan(me, foe, 0, st, cst, att, pref, flags, n, path, grid, wk[W_SEEN], wk[W_QUEUE])
        # fmt: on
        if a >= 0:
            return _attack_choice(me, foe, a, st, cst, kuse, flags, wk[W_DEC])
        last = best if _full_cover(foe, st, flags) else best | ((1 << 20) - 1)
    if not any_foe:
        return ACT_END, -1
    return ACT_RESERVE, -1


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _reserve(me, st, wk):  # noqa: ANN001, ANN201
    """actions._r_reserve: ``me`` reserves its action (the trigger: any attack on its side)."""
    wk[W_RES, 0] += 1
    st[me, S_RESV] = wk[W_RES, 0]


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _clear_reserved(st, wk):  # noqa: ANN001, ANN201
    """round._end_round: the reserved actions not taken end with the round."""
    for i in range(st.shape[0]):
        st[i, S_RESV] = 0
    wk[W_RES, 0] = 0


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _triggered(x, t, rnd, st, cst):  # noqa: ANN001, ANN201
    """commands._triggered: the reserver ``x``'s attack on ``t`` interrupts (the first to have reserved), or
    -1."""
    n = cst.shape[0]
    xs = cst[x, SIDE]
    ts = cst[t, SIDE]
    passed = (np.int64(rnd) << 11) | (x + 1)
    best = -1
    bseq = _BIGKEY
    for r in range(n):
        q = st[r, S_RESV]
        if q == 0 or q >= bseq:
            continue
        rs = cst[r, SIDE]
        if rs == xs or rs != ts or st[r, S_STATUS] != ACTIVE or st[r, S_PASS] == passed:
            continue
        best = r
        bseq = q
    return best


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _react(
    r, x, rnd, s, st, cst, att, pref, kuse, flags, off, shift, keep, own, alias, wk, dealt, taken, grid
):  # noqa: ANN001, ANN201, E501, PLR0913
    """Ed4Tactic.react and the reserved action (commands.EarthdawnCommands.resolve, kind "react"): the
    reserver ``r`` attacks the interrupting ``x`` if it can (Movement less none moved: the guard never
    moves on its own turn), else lets it pass. Returns the fight's end (-2: it goes on)."""
    n = cst.shape[0]
    path = wk[W_PATH]
    mv = max(0, (flags[F_DOWN_MV] if st[r, S_DOWN] else cst[r, MV]) - st[r, S_MOVED])  # less a fetch's walk
    a = _plan(r, x, mv, st, cst, att, pref, flags, n, path, grid, wk[W_SEEN], wk[W_QUEUE])
    if a < 0:
        st[r, S_PASS] = (np.int64(rnd) << 11) | (x + 1)
        return -2
    dec = wk[W_DEC]
    _attack_choice(r, x, a, st, cst, kuse, flags, dec)
    st[r, S_RESV] = 0
    st[r, S_UNSEEN] &= 1 - flags[F_REVEAL]  # its attack reveals it (features.attack)
    _move(r, st, cst, path, grid, flags)
    st[r, S_REACT] = 1
    # fmt: off
    changed = _attack(r, x, dec[0], dec[1] != 0, rnd, s, st, cst, att, flags, off, shift, keep, own,
                           alias, wk, dealt, taken, grid)
    # fmt: on
    st[r, S_REACT] = 0
    if changed:
        return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    return -2


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _choose(
    me,
    rnd,
    s,
    st,
    cst,
    att,
    pref,
    kuse,
    flee_thr,
    flags,
    off,
    shift,
    keep,
    own,
    alias,
    wk,
    dealt,
    taken,
    grid,
):  # noqa: ANN001, ANN201, E501, PLR0913
    """``me``'s command (its tactic's: guard, a ridden mount's or default), after the reserved actions its
    attack triggers: (ACT_*, target), or (ACT_OVER, the fight's end) when a reserved action ended the
    fight."""
    while True:
        if flags[F_RIDERS] and cst[me, MTAC] and st[me, S_RIDER] > 0:
            act, t = mount_choice(me, rnd, st, cst, att, wk)
        elif cst[me, TACTIC] == T_GUARD:
            act, t = _guard_decide(me, st, cst, att, pref, kuse, flags, wk, grid)
        else:
            act, t = _decide(me, st, cst, att, pref, kuse, flee_thr, flags, wk, grid)
        if act != ACT_ATTACK or wk[W_RES, 0] == 0:
            return act, t
        r = _triggered(me, t, rnd, st, cst)
        if r < 0:
            return act, t
        # fmt: off
        end = _react(r, me, rnd, s, st, cst, att, pref, kuse, flags, off, shift, keep, own, alias, wk, dealt,
                    taken, grid)
        # fmt: on
        if end != -2:
            return ACT_OVER, end
        if st[me, S_STATUS] != ACTIVE:
            return ACT_END, -1
        # the attacker decides again through ChapterAware.choose: chapter_act first, as at the turn's start
        # (_turn): entangled by the reserved strike, he breaks free; a thrower goes for his weapon
        if flags[F_CHAPTER]:
            if st[me, S_ENT]:
                _break_free(me, s, st, cst, att, flags, off, shift, keep, own, alias, grid)
                return ACT_END, -1
            fetch = st[me, S_LIE] and not st[me, S_DOWN] and (cst[me, WEAPONS] & ~st[me, S_GONE]) == 0
            if fetch and _fetch(me, st, cst, att, flags, wk, grid):
                return ACT_END, -1


@njit(cache=True, forceinline=True, _nrt=False)
def _turn(
    me,
    rnd,
    s,
    st,
    cst,
    att,
    pref,
    kuse,
    flee_thr,
    flags,
    off,
    shift,
    keep,
    own,
    alias,
    wk,
    dealt,
    taken,
    grid,
):  # noqa: ANN001, ANN202, PLR0913
    """One turn of ``me``: the tactic's choice (:func:`_decide`), then what it does. Returns the fight's
    end (play.Fight._check_end) when a status may have changed, else -2."""
    n = cst.shape[0]
    path = wk[W_PATH]
    st[me, S_MOVED] = 0
    if flags[F_CHAPTER]:
        # chapter_tactics.chapter_act, before the tactic: break free of an entangling weapon, fetch the
        # thrown weapon of a thrower with no other weapon in hand
        if st[me, S_ENT]:
            _break_free(me, s, st, cst, att, flags, off, shift, keep, own, alias, grid)
            return -2
        fetch = st[me, S_LIE] and not st[me, S_DOWN] and (cst[me, WEAPONS] & ~st[me, S_GONE]) == 0
        if fetch and _fetch(me, st, cst, att, flags, wk, grid):
            return -2
    # the tactic's choice (guard, a ridden mount's or default), and the reserved actions it triggers
    # (_choose)
    # fmt: off
    act, t = _choose(me, rnd, s, st, cst, att, pref, kuse, flee_thr, flags, off, shift, keep, own,
                            alias, wk, dealt, taken, grid)
    # fmt: on
    if act == ACT_OVER:
        return t
    if act == ACT_RESERVE:
        _reserve(me, st, wk)
        return -2
    if act == ACT_STAND:
        st[me, S_DOWN] = 0
        _regrid(me, st, cst, grid, flags)
        _move(me, st, cst, path, grid, flags)
        return -2
    if act == ACT_RUN:
        _move(me, st, cst, path, grid, flags)
        ran(me, rnd, st)
        return -2
    if act == ACT_REVIVE:
        _recover(t, s, st, cst, off, shift, keep, own, alias)
        if st[t, S_STATUS] == UNCONSCIOUS:
            # Ed4CoreRuleset._r_revive (p.380): a Recovery test that does not wake him, then an hour: no
            # other revival, and no test one minute after falling
            st[t, S_TRIED] = 1
            st[t, S_FAILED] = 1
        return -2
    if act == ACT_FLEE:
        _move(me, st, cst, path, grid, flags)
        ran(me, rnd, st)
        # round._flee_check: he escapes if no enemy could reach him with a doubled move next round
        side = cst[me, SIDE]
        for c in range(n):
            if cst[c, SIDE] == side or st[c, S_STATUS] != ACTIVE:
                continue
            reach = (
                2 * (0 if st[c, S_NOMOVE] else flags[F_DOWN_MV] if st[c, S_DOWN] else movement(c, st, cst))
                + 1
            )
            if _hexd(st[c, S_Q], st[c, S_R], st[me, S_Q], st[me, S_R]) <= reach:
                return -2
        st[me, S_STATUS] = FLED
        _grid_set(me, 0, st, grid, flags)
        return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    if act == ACT_ATTACK:
        st[me, S_UNSEEN] &= 1 - flags[F_REVEAL]  # an ambusher who attacks is seen (features.attack, p.388)
        dec = wk[W_DEC]
        dec[2] = weapon_penalty(me, dec[0], st, cst, att, n, grid, flags) if path[0] == 0 else 0
        _move(me, st, cst, path, grid, flags)
        changed = _attack(
            me,
            t,
            dec[0],
            dec[1] != 0,
            rnd,
            s,
            st,
            cst,
            att,
            flags,
            off,
            shift,
            keep,
            own,
            alias,
            wk,
            dealt,
            taken,
            grid,
        )
        if flags[F_RIDERS]:
            changed |= falls(t, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags)
        # the fight goes on while two sides stand: only a status changed by the attack may end it
        if not changed:
            return -2
        return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    return -2


# ----- the veteran tactic on foot (chapter_tactics.VeteranTactic; the options: ed4_group_options) ---------


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_strain(c, amount, rnd, st, cst, dealt, taken, grid, flags):  # noqa: ANN001, ANN202
    """combat.strain_events: ``amount`` Strain on ``c`` (damage through no armor, no Wound; it counts as
    damage he dealt and took); dead at the Death Rating, unconscious (and knocked down) at the
    Unconsciousness Rating if active. True if his status changed."""
    if amount <= 0:
        return False
    dealt[c] += amount
    taken[c] += amount
    st[c, S_DMG] += amount
    if st[c, S_DMG] - st[c, S_STUN] >= cst[c, DEATH]:  # damage, not Stun, kills (p.383)
        if st[c, S_STATUS] == DEAD:
            return False
        st[c, S_STATUS] = DEAD
        _grid_set(c, 0, st, grid, flags)
        return True
    if st[c, S_STATUS] == ACTIVE and st[c, S_DMG] >= cst[c, UNC]:
        st[c, S_STATUS] = UNCONSCIOUS
        st[c, S_UNC] = rnd + 10
        st[c, S_DOWN] = 1
        _regrid(c, st, cst, grid, flags)
        return True
    return False


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_roster(st, cst):  # noqa: ANN001, ANN202
    """round._start_round's roster of declarers, taken before the round's Recovery tests (someone they wake
    declares next round): the active veterans; every combatant's options of the last round cleared."""
    for me in range(cst.shape[0]):
        st[me, S_OPT] = O_ROSTER if cst[me, TACTIC] == T_VETERAN and st[me, S_STATUS] == ACTIVE else 0
        st[me, S_NOMOVE] = 0
        st[me, S_CTEST] = 0
        st[me, S_ACTED] = 0


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_declare(st, cst, vt, flee_thr):  # noqa: ANN001, ANN202
    """The round's declarations after its Recovery tests, by the roster (:func:`_vet_options`)."""
    n = cst.shape[0]
    for me in range(n):
        if st[me, S_OPT] == O_ROSTER:
            st[me, S_OPT] = _vet_options(me, st, cst, vt, flee_thr, n)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_options(me, st, cst, vt, flee_thr, n):  # noqa: ANN001, ANN202
    """VeteranTactic.options for ``me`` on foot (ed4_group_options.choose_options): the enemies next to
    him (tactics._enemies within 1 hex), whether one's average hit could kill him (flee_thr, in_danger),
    their threat (``vt[c, ncls, 0, 0]``), the nearest enemy (tactics._nearest: distance, most hurt, id) and
    the gain of Aggressive Attack on it (``vt``). Surprised, none (p.390); enemies it does not see
    (_unseen) are not counted."""
    if st[me, S_SURP]:
        return 0
    side = cst[me, SIDE]
    cls = cst[me, CLS]
    ncls = vt.shape[0]
    mq = st[me, S_Q]
    mr = st[me, S_R]
    my_dmg = st[me, S_DMG]
    near = 0
    danger = False
    threat = 0.0
    best = np.int64(1) << 62
    for c in range(n):
        if cst[c, SIDE] == side or st[c, S_STATUS] != ACTIVE or _unseen(c, me, st):
            continue
        d = _hexd(mq, mr, st[c, S_Q], st[c, S_R])
        if d <= 1:
            near += 1
            danger |= my_dmg >= flee_thr[cls, cst[c, CLS]]
            threat += vt[cst[c, CLS], ncls, 0, 0]
        key = (d << 40) | (((1 << 20) - 1 - min(st[c, S_DMG], (1 << 20) - 1)) << 20) | cst[c, RANK]
        best = min(best, key)
    dist = -1
    gain = 0.0
    if best < np.int64(1) << 62:
        tgt = cst[best & ((1 << 20) - 1), BYRANK]
        dist = best >> 40
        wmax = vt.shape[2] - 1
        w = st[me, S_WND] if st[me, S_WND] < wmax else wmax
        gain = vt[cls, cst[tgt, CLS], w, 1 if st[tgt, S_DOWN] else 0]
    left = cst[me, VLEFT] - my_dmg
    return choose_options(left, st[me, S_DOWN] != 0, near, danger, threat, gain, dist)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_jump_up(me, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt, taken, grid):  # noqa: ANN001, ANN202, PLR0913
    """declaring._r_jump_up (p.384): 2 Strain, then a Dexterity test less the armor's Initiative penalty
    (``cst[JSTEP]``), Wounds and Harried; standing, no more movement this round
    (hooks.movement_hexes). True if a status changed."""
    changed = _vet_strain(me, 2, rnd, st, cst, dealt, taken, grid, flags)
    if st[me, S_STATUS] != ACTIVE:
        return changed
    step = cst[me, JSTEP]
    if flags[F_WP]:
        step -= st[me, S_WND]
    if flags[F_CHAPTER]:
        # providers._p_harried_tests: Jump Up is an Action test (numbers, Stun, entangled)
        cnt, _o, _f = _close_foes_at(me, -1, cst, st, cst.shape[0], False, grid, flags)
        step += _harried_pen(_harried_n(me, cnt, True, st, flags), flags)
    if step < 1:
        step = 1
    o = _draw(s, min(step, flags[F_MAXSTEP]), off, shift, keep, own, alias)
    if not (o & 1) and (o >> 1) >= flags[F_JUMP_DN]:
        st[me, S_DOWN] = 0
        st[me, S_NOMOVE] = 1
        _regrid(me, st, cst, grid, flags)
    return changed


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_turn(
    me,
    rnd,
    s,
    st,
    cst,
    att,
    pref,
    kuse,
    flee_thr,
    flags,
    off,
    shift,
    keep,
    own,
    alias,
    wk,
    dealt,
    taken,
    grid,
):  # noqa: ANN001, ANN202, PLR0913
    """The veteran's turn (ChapterAware.choose, VeteranTactic.act): Jump Up when declared and knocked down,
    then the default tactic's turn (:func:`_turn`), then Aggressive Attack's Strain (declaring._after_action,
    strain.attack_tests_strain: 1 per close combat Attack test, else 1 at the end of a turn without one).
    Returns the fight's end as _turn does (-2: it goes on)."""
    n = cst.shape[0]
    jump = st[me, S_OPT] & O_JUMP and st[me, S_DOWN]
    if jump and _vet_jump_up(me, rnd, s, st, cst, flags, off, shift, keep, own, alias, dealt, taken, grid):
        return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    before = st[me, S_CTEST]
    # fmt: off
    winner = _turn(me, rnd, s, st, cst, att, pref, kuse, flee_thr, flags, off, shift, keep, own, alias, wk,
                   dealt, taken, grid)
    # fmt: on
    # his turn ended (TurnEnded: state.acted), unless a reserved action knocked him out before he acted
    st[me, S_ACTED] = st[me, S_STATUS] == ACTIVE or st[me, S_STATUS] == FLED
    if st[me, S_OPT] & O_AGGR:
        tests = st[me, S_CTEST] - before
        changed = False
        if tests > 0:
            if st[me, S_STATUS] != DEAD:
                changed = _vet_strain(me, tests, rnd, st, cst, dealt, taken, grid, flags)
        elif st[me, S_CTEST] == 0 and st[me, S_STATUS] == ACTIVE:
            changed = _vet_strain(me, 1, rnd, st, cst, dealt, taken, grid, flags)
        if changed:
            return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    return winner


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def _vet_round_end(rnd, st, cst, flags, dealt, taken, grid, wk):  # noqa: ANN001, ANN202
    """strain.strain_owed: Aggressive Attack's 1 Strain at the end of the round for who declared it, had no
    turn and made no close combat Attack test, unless dead or fled. Returns the fight's end (-2: on)."""
    n = cst.shape[0]
    changed = False
    for c in range(n):
        if (
            st[c, S_OPT] & O_AGGR
            and not st[c, S_ACTED]
            and st[c, S_CTEST] == 0
            and st[c, S_STATUS] != DEAD
            and st[c, S_STATUS] != FLED
        ):
            changed |= _vet_strain(c, 1, rnd, st, cst, dealt, taken, grid, flags)
    if changed:
        return _end_check(cst, st, wk[W_STANDING], n, flags[F_NSIDES])
    return -2


@njit(cache=True, _nrt=False)
def play(
    nfights,
    seed,
    cst,
    att,
    pref,
    kuse,
    flee_thr,
    off,
    shift,
    keep,
    own,
    alias,
    flags,
    wins,
    status_counts,
    dealt,
    taken,
    wounds_sum,
    rounds_hist,
    losses,
    st,
    wk,
    grid,
    vt,
):  # noqa: ANN001, ANN201, PLR0913
    """Plays ``nfights`` fights and adds their outcomes to the tallies (``wins``: per side, then draws, then
    fights nobody survived; ``losses[side, 0, k]`` / ``losses[side, 1, k]``: fights that side ended with
    ``k`` dead / ``k`` out of the fight); ``seed`` (the stream's 4 words) is advanced."""
    n = cst.shape[0]
    s = seed
    max_rounds = flags[F_MAXR]
    nsides = flags[F_NSIDES]
    for _fight in range(nfights):
        for i in range(n):
            st[i, S_Q] = cst[i, Q0]
            st[i, S_R] = cst[i, R0]
            st[i, S_FACE] = cst[i, FACE0]
            st[i, S_STATUS] = ACTIVE
            st[i, S_DMG] = 0
            st[i, S_WND] = 0
            st[i, S_DOWN] = 0
            st[i, S_KARMA] = cst[i, KARMA0]
            st[i, S_REC] = 0
            st[i, S_UNC] = 1 << 40
            st[i, S_TRIED] = 0
            st[i, S_FAILED] = 0
            st[i, S_RESV] = 0
            st[i, S_PASS] = 0
            st[i, S_REACT] = 0
            for col in range(S_STUN, S_MOVED + 1):
                st[i, col] = 0
            st[i, S_OPT] = 0
            st[i, S_NOMOVE] = 0
            st[i, S_MOUNT] = cst[i, MOUNT0]
            st[i, S_RIDER] = cst[i, RIDER0]
            st[i, S_STD] = 0
            _fresh(i, st, cst)
            _grid_set(i, _code(i, st, cst), st, grid, flags)
        if flags[F_RIDERS]:
            seat_riders(st, cst, grid, flags)
        winner = -2  # -2 still fighting, -1 nobody left, else the side
        rnd = 0
        while True:
            rnd += 1
            for c in range(n):  # Harried by Stun damage lasts the round it was dealt (p.383)
                st[c, S_HARR] = 0
            if flags[F_OPTS]:
                _vet_roster(st, cst)
            # a Recovery test one minute (10 rounds) after falling unconscious (round._start_round, p.380)
            for c in range(n):
                if rnd >= st[c, S_UNC] and st[c, S_STATUS] == UNCONSCIOUS and not st[c, S_TRIED]:
                    st[c, S_TRIED] = 1
                    if st[c, S_REC] < cst[c, RECT]:
                        _recover(c, s, st, cst, off, shift, keep, own, alias)
                    # Ed4CoreRuleset._start_round (p.380): still unconscious, another hour: no revival
                    st[c, S_FAILED] = st[c, S_STATUS] == UNCONSCIOUS
            if rnd == 1 and flags[F_SURPRISE]:  # before the declarations (hooks.round_start)
                _surprise(s, st, cst, grid, flags, off, shift, keep, own, alias)
            if flags[F_OPTS]:
                _vet_declare(st, cst, vt, flee_thr)
            m = _initiative(s, st, cst, flags, off, shift, keep, own, alias, wk)
            if wk[W_RES, 0]:  # reserved actions end with the round (round._end_round)
                _clear_reserved(st, wk)
            if flags[F_RIDERS]:
                m = seat_mounts(st, cst, wk, m)
            for oi in range(m):
                me = wk[W_ORDER, oi]
                if st[me, S_STATUS] != ACTIVE or st[me, S_SURP]:  # the surprised take no action (p.390)
                    continue
                # fmt: off
                if cst[me, TACTIC] == T_VETERAN:  # the veteran tactic: combat options round the turn
                    winner = _vet_turn(me, rnd, s, st, cst, att, pref, kuse, flee_thr, flags, off, shift,
                                       keep, own, alias, wk, dealt, taken, grid)
                else:
                    winner = _turn(me, rnd, s, st, cst, att, pref, kuse, flee_thr, flags, off, shift, keep,
                                   own, alias, wk, dealt, taken, grid)
                # fmt: on
                if winner != -2:
                    break
            if rnd == 1 and flags[F_SURPRISE]:
                _surprise_ends(st, cst, grid, flags)
            if winner == -2 and flags[F_OPTS]:
                winner = _vet_round_end(rnd, st, cst, flags, dealt, taken, grid, wk)
            if winner != -2 or rnd >= max_rounds:
                break
        rounds_hist[rnd] += 1
        for c in range(n):
            _grid_set(c, 0, st, grid, flags)
        if winner >= 0:
            wins[winner] += 1
        elif winner == -1:
            wins[nsides + 1] += 1
        else:
            wins[nsides] += 1
        for c in range(n):
            status_counts[c, st[c, S_STATUS]] += 1
            wounds_sum[c] += st[c, S_WND]
        for si in range(nsides):
            dead = 0
            out = 0
            for c in range(n):
                if cst[c, SIDE] == si:
                    dead += st[c, S_STATUS] == DEAD
                    out += st[c, S_STATUS] != ACTIVE
            losses[si, 0, dead] += 1
            losses[si, 1, out] += 1


@njit(cache=True)
def alias_table(values, probs, bits):  # noqa: ANN001, ANN201
    """Walker's alias table (Vose's construction) of ``values`` with ``probs`` on ``2**bits`` cells: per
    cell the threshold below which the low ``64 - bits`` bits of a word keep the cell's own value, its own
    value and its alias."""
    k = values.size
    cells = 1 << bits
    q = np.zeros(cells)
    own = np.empty(cells, dtype=np.int64)
    for i in range(cells):
        if i < k:
            q[i] = probs[i] * cells
            own[i] = values[i]
        else:
            own[i] = values[0]
    alias = own.copy()
    prob = np.ones(cells)
    small = np.empty(cells, dtype=np.int64)
    large = np.empty(cells, dtype=np.int64)
    ns = 0
    nl = 0
    for i in range(cells):
        if q[i] < 1.0:
            small[ns] = i
            ns += 1
        else:
            large[nl] = i
            nl += 1
    while ns > 0 and nl > 0:
        ns -= 1
        sm = small[ns]
        nl -= 1
        g = large[nl]
        prob[sm] = q[sm]
        alias[sm] = own[g]
        q[g] -= 1.0 - q[sm]
        if q[g] < 1.0:
            small[ns] = g
            ns += 1
        else:
            large[nl] = g
            nl += 1
    # what rounding leaves (small or large) keeps its own cell: its weight is 1 up to float error
    scale = float(np.uint64(1) << np.uint64(64 - bits))
    top = np.uint64(1) << np.uint64(64 - bits)
    keep = np.empty(cells, dtype=np.uint64)
    for i in range(cells):
        p = prob[i]
        if p >= 1.0:
            keep[i] = top
        elif p <= 0.0:
            keep[i] = np.uint64(0)
        else:
            keep[i] = np.uint64(p * scale)
    return keep, own, alias


def interleave(keep: np.ndarray, own: np.ndarray, alias: np.ndarray) -> np.ndarray:
    """The cells of alias tables as :func:`_draw` reads them: per cell its threshold (``keep``), then its
    own value | its alias << 32 (both non-negative and below 2**31)."""
    if own.size and (min(own.min(), alias.min()) < 0 or max(own.max(), alias.max()) >= 1 << 31):
        raise ValueError("an outcome outside 0 .. 2**31 - 1")
    out = np.empty(2 * keep.size, dtype=np.uint64)
    out[0::2] = keep
    out[1::2] = own.astype(np.uint64) | (alias.astype(np.uint64) << np.uint64(32))
    return out


@njit(cache=True)
def sample_many(n, seed, row, off, shift, keep, own, alias):  # noqa: ANN001, ANN201
    """``n`` outcomes of table row ``row`` (for tests; ``keep`` interleaved, as :func:`_draw` reads it)."""
    s = seed.copy()
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = _draw(s, row, off, shift, keep, own, alias)
    return out


# ----- riders and mounts (ED4 p.394-398) --------------------------------------------------------------------
# A rider sits on his mount's hex. ``st[r, S_MOUNT]`` holds his mount's index + 1 while he is marked as on it
# (``marks["mount"]``), ``st[m, S_RIDER]`` the rider's index + 1 (0: none); both move together, so that
# ``readers.rider_of`` (marked, same hex, whatever the rider's status) is ``st[m, S_RIDER]`` and
# ``readers.mount_of`` is ``st[r, S_MOUNT]`` with the mount neither dead nor fled (:func:`aboard`).
# ``st[m, S_STD]`` is the round the mount's Standard action went (its rider ran: declaring._after_action).
# The occupancy grid holds one code per hex: on a rider's hex his, as long as he lives (the mount's code is
# put back when he dies or leaves it). Where riders are (``F_RIDERS``), close combat foes and the nearest
# enemy are found by looking at everyone, never from the grid's codes, which name one of two. The builder's
# part is :mod:`fracas.sim.kernels.ed4_group_mounted`.

FALL_STEP = 5
"""mounted.FALL_STEP: falling off a land mount, Step 5 damage (p.395)."""


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def aboard(c, st):  # noqa: ANN001, ANN202
    """readers.mount_of: ``c`` is marked as on a mount that is neither dead nor fled."""
    m = st[c, S_MOUNT] - 1
    return m >= 0 and st[m, S_STATUS] <= UNCONSCIOUS


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def movement(c, st, cst):  # noqa: ANN001, ANN202
    """hooks.movement_hexes of a combatant standing: the mount's Movement while he rides it (p.395), else
    his own."""
    m = st[c, S_MOUNT] - 1
    if m >= 0 and st[m, S_STATUS] <= UNCONSCIOUS:
        return cst[m, MV]
    return cst[c, MV]


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def follows(c, st, cst):  # noqa: ANN001, ANN202
    """riding.initiative_leader and round._initiative: a trained mount with its rider on its back makes no
    Initiative test when the rider makes one (he is active): it acts on his (p.395)."""
    r = st[c, S_RIDER] - 1
    return r >= 0 and cst[c, TRAINED] != 0 and st[r, S_STATUS] == ACTIVE


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def seat_mounts(st, cst, wk, m):  # noqa: ANN001, ANN202
    """riding.mounts_on_riders: every mount that :func:`follows` its rider acts right after him (the
    acting order ``wk[W_ORDER][:m]`` has the riders); returns the new length."""
    n = cst.shape[0]
    order = wk[W_ORDER]
    for c in range(n):
        if st[c, S_STATUS] != ACTIVE or not follows(c, st, cst):
            continue
        r = st[c, S_RIDER] - 1
        at = -1
        for k in range(m):
            if order[k] == r:
                at = k
                break
        if at < 0:
            continue
        for k in range(m, at + 1, -1):
            order[k] = order[k - 1]
        order[at + 1] = c
        m += 1
    return m


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def seat_riders(st, cst, grid, flags):  # noqa: ANN001, ANN202
    """Each rider's code on the hex he shares with his mount (play sets everyone's, in index order)."""
    n = cst.shape[0]
    for c in range(n):
        if st[c, S_MOUNT] > 0:
            _regrid(c, st, cst, grid, flags)


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def carry(me, st):  # noqa: ANN001, ANN202
    """declaring._after_action: a rider's movement is the mount's (p.395): the mount goes where he went,
    facing his way (the grid keeps the rider's code there)."""
    m = st[me, S_MOUNT] - 1
    if m >= 0 and st[m, S_STATUS] <= UNCONSCIOUS:
        st[m, S_Q] = st[me, S_Q]
        st[m, S_R] = st[me, S_R]
        st[m, 2] = st[me, 2]  # S_FACE


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def ran(me, rnd, st):  # noqa: ANN001, ANN202
    """declaring._after_action: a rider who runs uses his mount's Standard action (p.395)."""
    m = st[me, S_MOUNT] - 1
    if m >= 0 and st[m, S_STATUS] <= UNCONSCIOUS:
        st[m, S_STD] = rnd


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def left_behind(t, st, cst, grid, flags):  # noqa: ANN001, ANN202
    """A rider who died on his mount leaves the grid: the mount's code goes back on the hex."""
    m = st[t, S_MOUNT] - 1
    if m >= 0 and st[m, S_STATUS] <= UNCONSCIOUS and st[m, S_Q] == st[t, S_Q] and st[m, S_R] == st[t, S_R]:
        _regrid(m, st, cst, grid, flags)


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def mount_choice(me, rnd, st, cst, att, wk):  # noqa: ANN001, ANN202
    """chapter_tactics.MountTactic.act for a ridden mount: nothing when its Standard action went (its rider
    ran); else its first attack (the builder checks it is a close one) on the first adjacent active enemy
    by id; else nothing. Returns (ACT_ATTACK or ACT_END, target) with ``wk[W_DEC]`` = (attack, no Karma)."""
    wk[W_PATH, 0] = 0
    if st[me, S_STD] == rnd:
        return ACT_END, -1
    n = cst.shape[0]
    side = cst[me, SIDE]
    for k in range(n):
        c = cst[k, BYRANK]
        if cst[c, SIDE] == side or st[c, S_STATUS] != ACTIVE:
            continue
        if _hexd(st[me, S_Q], st[me, S_R], st[c, S_Q], st[c, S_R]) == 1 and cst[me, NATT] > 0:
            dec = wk[W_DEC]
            dec[0] = 0
            dec[1] = 0
            return ACT_ATTACK, c
    return ACT_END, -1


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def weapon_penalty(me, a, st, cst, att, n, grid, flags):  # noqa: ANN001, ANN202
    """providers._p_long_weapon (p.397), for an attack made without moving first (the provider reads the
    mount where the command began, and finds no mount under a rider who moved): a rider on his mount,
    with a close weapon larger than his one-handed Size limit, suffers the difference on his Attack and
    Damage tests when the mount cannot move 2 yards (every hex round it taken; the builder refuses mounts
    with a Movement below 2 yards)."""
    if att[me, a, A_SIZEPEN] == 0 or att[me, a, A_CLOSE] == 0 or not aboard(me, st):
        return 0
    m = st[me, S_MOUNT] - 1
    for k in range(6):
        if not _taken(st[m, S_Q] + DQ[k], st[m, S_R] + DR[k], m, st, n, grid, flags):
            return 0
    return att[me, a, A_SIZEPEN]


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _fall_damage(r, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags):  # noqa: ANN001, ANN202, PLR0913
    """falling.fall_damage: Step 5 damage, no armor, to a rider already knocked down (combat.damage_events:
    Wound, death, unconsciousness; no Knockdown test). True if his status changed."""
    if st[r, S_STATUS] == DEAD:
        return False
    amount = _draw(s, FALL_STEP, off, shift, keep, own, alias) >> 1
    if amount <= 0:
        return False
    taken[r] += amount
    st[r, S_WND] += 1 if amount >= cst[r, WT] else 0
    st[r, S_DMG] += amount
    if st[r, S_DMG] >= cst[r, DEATH]:
        st[r, S_STATUS] = DEAD
        _grid_set(r, 0, st, grid, flags)
        return True
    if st[r, S_STATUS] == ACTIVE and st[r, S_DMG] >= cst[r, UNC]:
        st[r, S_STATUS] = UNCONSCIOUS
        st[r, S_UNC] = rnd + 10
        _regrid(r, st, cst, grid, flags)
        return True
    return False


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _unseat(r, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags):  # noqa: ANN001, ANN202, PLR0913
    """falling.unseat: the rider falls off onto the first free hex round him (falling._landing, as the
    command left the hexes), knocked down, and takes Step 5 damage (p.395). True if a status changed."""
    n = cst.shape[0]
    m = st[r, S_MOUNT] - 1
    _grid_set(r, 0, st, grid, flags)
    if st[m, S_STATUS] <= UNCONSCIOUS:
        _regrid(m, st, cst, grid, flags)
    st[r, S_MOUNT] = 0
    st[m, S_RIDER] = 0
    q = st[r, S_Q]
    rr = st[r, S_R]
    for k in range(6):
        if not _taken(q + DQ[k], rr + DR[k], r, st, n, grid, flags):
            st[r, S_Q] = q + DQ[k]
            st[r, S_R] = rr + DR[k]
            break
    st[r, S_DOWN] = 1
    if st[r, S_STATUS] != DEAD:
        _regrid(r, st, cst, grid, flags)
    return _fall_damage(r, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags)


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def falls(t, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags):  # noqa: ANN001, ANN202, PLR0913
    """falling.aftermath after a command: a ridden mount knocked down throws its rider; a rider knocked
    down on his mount falls off (p.395); the target's pair first (its Knockdown came first), then any
    other (a shot's stray). Riders and mounts are never knocked down while paired at a command's start.
    True if a status changed."""
    n = cst.shape[0]
    changed = False
    for x in range(-1, n):
        c = t if x < 0 else x
        if x >= 0 and c == t:
            continue
        r = -1
        if st[c, S_RIDER] > 0 and st[c, S_DOWN]:
            r = st[c, S_RIDER] - 1  # rider_of: whatever the rider's status
        elif st[c, S_MOUNT] > 0 and st[c, S_DOWN] and aboard(c, st):
            r = c
        if r >= 0 and st[r, S_MOUNT] > 0:
            changed |= _unseat(r, rnd, s, st, cst, off, shift, keep, own, alias, taken, grid, flags)
    return changed


# ----- the map and the senses (ed4_group_senses builds their numbers) ---------------------------------------


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]
def _terrain_at(q, r, flags):  # noqa: ANN001, ANN201
    """The terrain of hex (q, r): T_COVER, T_FULL or 0 (none, or off the grid, where no map feature lies)."""
    base = flags[F_TERR]
    if base == 0:
        return 0
    i = q - flags[F_GQ0]
    j = r - flags[F_GR0]
    if 0 <= i < flags[F_GH] and 0 <= j < flags[F_GW]:
        return flags[base + i * flags[F_GW] + j]
    return 0


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _sense_defense(t, st, flags):  # noqa: ANN001, ANN201
    """providers._p_cover and _p_surprised: the modifier to ``t``'s Defense against an attack (p.387,
    p.390)."""
    v = 0
    if _terrain_at(st[t, S_Q], st[t, S_R], flags) == T_COVER:
        v += flags[F_COVER_DEF]
    if st[t, S_SURP]:
        v += flags[F_SURP_DEF]
    return v


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _full_cover(t, st, flags):  # noqa: ANN001, ANN201
    """``t`` stands in full cover: no attack on him (features.attack.validate_attack, p.387)."""
    return _terrain_at(st[t, S_Q], st[t, S_R], flags) == T_FULL


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _blindsided(me, t, st, cst, harried_t, front_t):  # noqa: ANN001, ANN201
    """providers._p_blindsided (situation.is_blindsided, p.386-387) for ``me``'s attack on ``t``, active:
    never a surprised defender; never by an attacker who cannot see (full darkness for him); always a
    defender who cannot see; else from his rear arc (not the facing direction nor the two next to it)
    when he is Harried (``harried_t``) or engaged by another foe in front (``front_t``). An ambusher's
    own attack has revealed him before the test (features.attack.resolve_attack): he is seen."""
    if st[t, S_SURP]:
        return False
    if cst[me, SEES] == 0:
        return False
    if cst[t, SEES] == 0:
        return True
    k = _fdir(st[t, S_Q], st[t, S_R], st[me, S_Q], st[me, S_R])
    return not (AHEAD[st[t, S_FACE]] >> k) & 1 and (harried_t or front_t)


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]
def _unseen(c, me, st):  # noqa: ANN001, ANN201
    """tactics._unseen: ``c`` is hidden from ``me``'s tactic (hidden, not revealed, ``me`` did not notice
    the ambush)."""
    return st[c, S_UNSEEN] != 0 and st[me, S_NOTICED] == 0


@njit(cache=True, forceinline=True, _nrt=False)  # type: ignore[call-overload]
def _fresh(i, st, cst):  # noqa: ANN001, ANN201
    """``i`` at the start of a fight: not surprised, hidden as the encounter says, noticing nothing."""
    st[i, S_SURP] = 0
    st[i, S_UNSEEN] = cst[i, HIDDEN0]
    st[i, S_NOTICED] = 0


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _surprise(s, st, cst, grid, flags, off, shift, keep, own, alias):  # noqa: ANN001, ANN201, PLR0913
    """hooks.surprise (p.390), at the start of the first round, in roster order: each combatant with a
    DN (SURP_DN) makes a Perception test (PER, darkness counted); the Rule of One or a result below the DN
    leaves him surprised (he engages nobody: the occupancy grid says so), else he has noticed the
    ambush."""
    for c in range(cst.shape[0]):
        dn = cst[c, SURP_DN]
        if dn == 0 or st[c, S_STATUS] != ACTIVE:
            continue
        o = _draw(s, min(cst[c, PER], flags[F_MAXSTEP]), off, shift, keep, own, alias)
        if (o & 1) or (o >> 1) < dn:
            st[c, S_SURP] = 1
            _regrid(c, st, cst, grid, flags)
        else:
            st[c, S_NOTICED] = 1


@njit(cache=True, forceinline=False, _nrt=False)  # type: ignore[call-overload]
def _surprise_ends(st, cst, grid, flags):  # noqa: ANN001, ANN201
    """The end of the round of surprise: the surprised are so no more (hooks: the condition lasts the
    round, p.390); those still on the map engage again."""
    for c in range(cst.shape[0]):
        if st[c, S_SURP]:
            st[c, S_SURP] = 0
            if st[c, S_STATUS] <= UNCONSCIOUS:
                _regrid(c, st, cst, grid, flags)
