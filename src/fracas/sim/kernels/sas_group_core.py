"""The compiled loop of the Spells & Swords group kernel (numba): several against several, everyone in reach
of every foe from the start, so nobody ever moves (sas_group.py says which encounters those are).

It plays each fight as the engine does, one die at a time and **in the engine's order** (the engine can
replay a kernel fight from its faces: tests/sim/test_sim_sas_group.py). The duel kernel's pieces that do not
depend on how many fight (the wound, fumble and brawl tables, conditions, the effect queue: sas_core.py) are
called as they are; what a group changes is here:

- the side's members act in roster order (``side_start``'s OrderSet), each on the foe the default tactic
  picks (SasTactic.proposals: a held foe first, else the least Knocked Out, most hurt, first by id);
- per pair of combatants, the attack and damage modifiers that never change (flank and behind from the
  fixed facings, weapons, sizes), plus the ones that do: Defender Surrounded by the foes still active
  next to him, a Small Shield's one attack per turn (attack.attack's shield_used), MONSTER FUMBLES 4-5 for
  each foe once (attack.foe_bonus_view), Stand Up's -2 per adjacent foe;
- FUMBLE TABLE (HTH WEAPON) 7 Friendly Fire: one of the fumbler's active side-mates next to him, rolled
  for, attacked with a plain attack (attack.attack's ``friendly``); that attack still sees the attacker's
  "next attack" bonus, which the fumbled attack spent in its builder but not yet in the state it reads;
- the end check by side (engine/play.py), DEATH BY A THOUSAND CUTS and Bleeding for everyone in roster
  order, Regeneration for the side that has acted.
"""

from __future__ import annotations

import numpy as np

from fracas.sim.kernels.sas_core import (
    A_CRIT,
    A_FUMBLE,
    A_HIT,
    A_LOCKED,
    ACTIVE,
    B_WEAPON,
    BACK_REGROWS,
    BACK_TWO_HANDED,
    C_BLINDED,
    C_CHARGING,
    C_CHOKE,
    C_DIZZY,
    C_DOWN,
    C_FATIGUED,
    C_IMMOB,
    C_KO,
    C_PIMMOB,
    CU,
    DEAD,
    E_COND,
    E_DEAD,
    E_MARKERS,
    E_NEXT,
    E_STAT,
    G_Q,
    G_QN,
    G_RS,
    G_TN,
    K_ATTACK,
    K_DEFENSE,
    K_FOE_ATTACK,
    K_FOE_DAMAGE,
    K_MISS_ACTION,
    K_MISS_ATTACK,
    NC,
    NONE,
    NSW,
    NU,
    NV,
    NX,
    P_ACOLS,
    P_AROW,
    P_ATT_BLIND,
    P_ATT_PIMMOB,
    P_ATT_PRONE,
    P_BRAWL,
    P_CHARGE_DEF,
    P_CHOKE_HIT,
    P_CRIT,
    P_DEF_BLIND,
    P_DEF_PRONE,
    P_DLO,
    P_DROW,
    P_DROWS,
    P_EASY,
    P_FATIGUED,
    P_HARD,
    P_IMMOB_HIT,
    P_LOCKED,
    P_MAJOR_PRONE,
    P_MAX_ROUNDS,
    P_MINIONS,
    P_PER_FOE,
    P_PIMMOB_HIT,
    P_PRONE_DAMAGE,
    P_TLO,
    PERM,
    QW,
    RG,
    RMAX,
    S_BREAK,
    S_DODGE,
    S_HEROIC,
    S_HUMANOID,
    S_MINION,
    S_REGEN,
    S_SWIFT,
    S_WL,
    UNCONSCIOUS,
    X_BLEED_DEATH,
    X_BLEEDS,
    X_DEALT,
    X_DYING,
    X_FIRST_STRIKE,
    X_HITS,
    X_LAST_ATTACK,
    X_MARKERS,
    X_REGROWS,
    X_STATUS,
    X_STRENGTH_LOST,
    X_TAKEN,
    X_WEAPON,
    X_WOUNDS,
    XW,
    _apply,
    _b,
    _brawl_effects,
    _brawl_row,
    _dice,
    _fumble,
    _fumble_row,
    _hands,
    _has,
    _jit,
    _knocked_down,
    _light_wound,
    _major_wound,
    _next,
    _penalty,
    _push,
    _regrow,
    roll,
)
from fracas.sim.kernels.sas_core import (
    NG as NGW,
)

# GP: the group's numbers (besides the duel's P)
G_N = 0  # combatants
G_SUR = 1  # ATTACK TABLE MODIFIERS Defender Surrounded: its value
G_SUR_MIN = 2  # and the foes it takes
G_MW = 3  # weapons + "unarmed" of the combatant with most (GA, GD)
G_NB = 4  # brawl indices (B_WEAPON, B_PLAIN, the rows)
G_HEAL_N = 5  # Quaff: the dice of the markers a healing potion removes (setting potion_heal, nDs)
G_HEAL_S = 6
NG = 7  # then each side's lowest Initiative bonus (GP[NG + side])

# per combatant (GS[i, ...])
GS_SIDE = 0  # 0 or 1
GS_RANK = 1  # its id's place in sorted order (the tactic's tie-break)
GS_SHIELD = 2  # the shield line's value (a Defense: negative)
GS_SHIELD_MAX = 3  # attacks per turn it defends against (0: all)
GS_USED = 4  # attacks on it this side turn (attack.attack's shield_used)
GS_FB = 5  # foes who have had its Monster Fumble 4-5 bonus (bits; attack.foe_bonus_view)
GS_POTIONS0 = 6  # healing potions carried at the start
GS_POTIONS = 7  # and left
NGS = 8


@_jit()
def _dyn(P, X, a, d, rnd, foe_bonus) -> int:  # noqa: ANN001
    """sas_core._dyn_attack without the attacker's "next attack" (the caller's ``katk``) and with the foe's
    Monster Fumble bonus only when this attacker still has it."""
    mod = _penalty(P, X, a, 0)
    if _has(X, a, C_DOWN):
        mod += P[P_ATT_PRONE]
    if _has(X, a, C_BLINDED):
        mod += P[P_ATT_BLIND]
    if _has(X, d, C_DOWN):
        mod += P[P_DEF_PRONE]
    if _has(X, d, C_BLINDED):
        mod += P[P_DEF_BLIND]
    if _has(X, d, C_IMMOB):
        mod += P[P_IMMOB_HIT] + X[d, S_DODGE]  # and no Dodge
    elif _has(X, d, C_PIMMOB):
        mod += P[P_PIMMOB_HIT] + X[d, S_DODGE]
    if _has(X, a, C_PIMMOB):
        mod += P[P_ATT_PIMMOB]
    if _has(X, d, C_CHOKE):
        mod += P[P_CHOKE_HIT]
    if _has(X, a, C_FATIGUED):
        mod += P[P_FATIGUED]
    if foe_bonus:
        mod += _next(X, d, K_FOE_ATTACK, rnd)
    if _has(X, d, C_CHARGING):
        mod -= P[P_CHARGE_DEF]
    mod -= _next(X, d, K_DEFENSE, rnd)
    return mod


@_jit()
def _foes_active(GS, X, n, d) -> int:  # noqa: ANN001
    """The foes of ``d`` still active (every one of them is next to him): the sides of him they hold."""
    k = 0
    for o in range(n):
        if GS[o, GS_SIDE] != GS[d, GS_SIDE] and X[o, X_STATUS] == ACTIVE:
            k += 1
    return k


@_jit()
def _attack(P, X, G, tr, GP, GS, GA, GD, BR, ADJ, a, d, wa, wd, act, rnd, katk, friendly) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913, PLR0915
    """One attack of ``a`` on ``d`` (attack.attack): the Brawl Rule, the attack roll, the damage, queued.
    ``katk``: the attacker's "next attack" bonus as the state shows it. Returns -2 to hand the fight back
    (a two-handed weapon in a single hand), the side-mate a Friendly Fire fumble attacks, or -1."""
    n = GP[G_N]
    if X[a, XW + 4 * wa + 1] > 1 and _hands(X, a) < 2:
        return -2
    # MONSTER FUMBLES 4-5: each foe's next attack on the monster, once (attack.foe_bonus_view)
    foe_bonus = (GS[d, GS_FB] >> a) & 1 == 0 and (
        _next(X, d, K_FOE_ATTACK, rnd) != 0 or _next(X, d, K_FOE_DAMAGE, rnd) != 0
    )
    P[P_BRAWL] = BR[a, d]
    brow = _brawl_row(P, X, G, tr, a, wa)
    mod = GA[a, d, wa, wd, act, brow] + _dyn(P, X, a, d, rnd, foe_bonus) + katk
    if _foes_active(GS, X, n, d) >= GP[G_SUR_MIN]:
        mod += GP[G_SUR]
    if GS[d, GS_SHIELD_MAX] and GS[d, GS_USED] >= GS[d, GS_SHIELD_MAX]:
        mod -= GS[d, GS_SHIELD]  # a Small Shield has defended against its one attack this turn
    GS[d, GS_USED] += 1
    face = roll(G, tr, 20)
    ncol = P[P_ACOLS]
    arow = P[P[P_AROW] + (face - 1) * ncol + min(max(face + mod - P[P_TLO], 0), ncol - 1)]
    if arow == A_LOCKED:
        _push(G, E_NEXT, d, P[P_LOCKED], K_ATTACK, 1)  # "next round" (procedures.resolve_attack)
    foe_dmg = 0
    if foe_bonus:
        GS[d, GS_FB] |= 1 << a
        foe_dmg = _next(X, d, K_FOE_DAMAGE, rnd)
    if _next(X, a, K_ATTACK, rnd):
        X[a, NV + K_ATTACK] = 0
        X[a, NU + K_ATTACK] = NONE
    X[a, X_LAST_ATTACK] = rnd
    if arow in (A_HIT, A_CRIT):
        no_damage = False
        if brow >= 2:
            _brawl_effects(P, X, G, tr, a, d, brow - 1)
            no_damage = _b(P, brow - 1, 2) != 0
        if not no_damage:
            dm = GD[a, d, wa, act, brow] + _penalty(P, X, a, 1) + foe_dmg
            if _has(X, a, C_DOWN):
                dm += P[P_PRONE_DAMAGE]
            if arow == A_CRIT:
                dm += P[P_CRIT]
            dface = roll(G, tr, 20)
            r = P[P_DROW] + 4 * min(max(dface + dm - P[P_DLO], 0), P[P_DROWS] - 1)
            if P[r + 1] == 1 or P[r + 1] == 2:
                X[d, X_WOUNDS] += 1
            if P[r + 1] == 3:
                _push(G, E_DEAD, d, 0, 0, 0)
            else:
                _push(G, E_MARKERS, d, P[r + 0], a, 0)
                if P[r + 2]:
                    _fumble(P, X, G, tr, d, P[r + 2])
                if P[r + 3] == 1:
                    _light_wound(P, X, G, tr, d)
                elif P[r + 3] == 2:
                    _major_wound(P, X, G, tr, d, X[a, XW + 4 * wa + 2] if brow == B_WEAPON else 0)
                elif P[r + 1] == 2 and P[P_MAJOR_PRONE]:
                    _knocked_down(P, G, tr, d)
                    _push(G, E_NEXT, d, 1, K_MISS_ACTION, 0)
                lvl = X[d, S_MINION] if P[P_MINIONS] else 0
                if lvl:
                    severe = (lvl == 2 and (P[r + 1] == 1 or P[r + 1] == 2)) or (lvl == 3 and P[r + 1] == 2)
                    if X[d, X_HITS] + 1 >= lvl or severe:
                        _push(G, E_DEAD, d, 0, 0, 0)
    elif arow == A_FUMBLE:
        # FUMBLE TABLE (HTH WEAPON) 1D8 for humanoids, MONSTER FUMBLES 1D6 for the rest (sas_core._fumble)
        ffc = roll(G, tr, 8 if X[a, S_HUMANOID] else 6)
        if X[a, S_HUMANOID] and ffc == 8:
            _light_wound(P, X, G, tr, a)  # Injure Self
        elif X[a, S_HUMANOID] and ffc == 7:
            if friendly:
                k = 0
                for o in range(n):
                    if o != a and ADJ[a, o] and X[o, X_STATUS] == ACTIVE:
                        k += 1
                if k:
                    pick = roll(G, tr, k)
                    for o in range(n):
                        if o != a and ADJ[a, o] and X[o, X_STATUS] == ACTIVE:
                            pick -= 1
                            if pick == 0:
                                return o
        else:
            _fumble_row(P, X, G, tr, a, ffc)
    return -1


@_jit()
def _apply_group(X, G, GS, rnd, batch) -> None:  # noqa: ANN001
    """sas_core._apply, and before it fold's reset of a monster's foe bonus: a new Monster Fumble 4-5
    after a foe has had the last one's bonus gives the new one to every foe again."""
    for k in range(G[G_QN]):
        q = G_Q + k * QW
        if G[q] == E_NEXT and (G[q + 3] == K_FOE_ATTACK or G[q + 3] == K_FOE_DAMAGE):
            t = G[q + 1]
            if GS[t, GS_FB] and X[t, X_STATUS] != DEAD:
                X[t, NV + K_FOE_ATTACK] = 0
                X[t, NU + K_FOE_ATTACK] = NONE
                X[t, NV + K_FOE_DAMAGE] = 0
                X[t, NU + K_FOE_DAMAGE] = NONE
                GS[t, GS_FB] = 0
    _apply(X, G, rnd, batch)


@_jit()
def _deaths(P, X, G, tr, n, rnd) -> None:  # noqa: ANN001
    """DEATH BY A THOUSAND CUTS for everyone, in roster order (round.deaths; sas_core._deaths)."""
    for i in range(n):
        if X[i, X_STATUS] == DEAD:
            continue
        lvl = X[i, S_MINION] if P[P_MINIONS] else 0
        if lvl and X[i, X_HITS] >= lvl:
            X[i, X_STATUS] = DEAD
            continue
        if X[i, X_DYING] != NONE or X[i, X_MARKERS] < X[i, S_WL]:
            continue
        if X[i, S_HEROIC]:
            X[i, X_DYING] = rnd + _dice(G, tr, 2, 6)
        else:
            X[i, X_STATUS] = DEAD


@_jit()
def _result(GS, X, n) -> int:  # noqa: ANN001
    """The engine's end check: the winning side's index, 3 when nobody stands, -1 while both stand."""
    s0 = False
    s1 = False
    for i in range(n):
        if X[i, X_STATUS] == ACTIVE:
            if GS[i, GS_SIDE] == 0:
                s0 = True
            else:
                s1 = True
    if s0 and s1:
        return -1
    if s0:
        return 0
    if s1:
        return 1
    return 3


@_jit(allocates=True)
def work(S):  # noqa: ANN001, ANN201
    """The arrays one fight works in, made once per batch (sas_core.work for ``len(S)`` combatants)."""
    X = np.zeros((S.shape[0], NX), np.int64)
    X[:, :NSW] = S
    return X, np.zeros(NGW, np.int64)


@_jit()
def _held(GS, X, n, a) -> int:  # noqa: ANN001
    """SasTactic.proposals next to foes: a held (Immobilized) foe first, by id (-1: none)."""
    best = -1
    for o in range(n):
        if GS[o, GS_SIDE] == GS[a, GS_SIDE] or X[o, X_STATUS] != ACTIVE or not _has(X, o, C_IMMOB):
            continue
        if best < 0 or GS[o, GS_RANK] < GS[best, GS_RANK]:
            best = o
    return best


@_jit()
def _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, ADJ, seed, out) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913, PLR0915
    """One fight. Returns 0 when done (``out``: result, round, then per combatant status, markers dealt,
    taken, Wounds), else why the fight needs the engine (``BACK_*``)."""
    n = GP[G_N]
    G[G_RS] = np.int64(seed)
    G[G_QN] = 0
    for i in range(n):
        for c in range(NSW, CU):
            X[i, c] = 0
        for c in range(CU, NV):
            X[i, c] = NONE
        for c in range(NV, NU):
            X[i, c] = 0
        for c in range(NU, RG):
            X[i, c] = NONE
        X[i, X_WEAPON] = 0
        X[i, X_BLEED_DEATH] = NONE
        X[i, X_DYING] = NONE
        X[i, X_LAST_ATTACK] = -99
        X[i, X_FIRST_STRIKE] = -99
        GS[i, GS_FB] = 0
        GS[i, GS_POTIONS] = GS[i, GS_POTIONS0]
    max_rounds = P[P_MAX_ROUNDS]
    batch = 0
    # side INITIATIVE once for the combat: 1D20 + the side's lowest Initiative bonus, ties rolled again
    first = 0
    while True:
        f0 = roll(G, tr, 20) + GP[NG]
        f1 = roll(G, tr, 20) + GP[NG + 1]
        if f0 != f1:
            first = 0 if f0 > f1 else 1
            break
    result = -1
    rnd = 0
    while result < 0:
        rnd += 1
        batch += 1
        # BLEEDING (round.round_start), in roster order
        for i in range(n):
            if X[i, X_BLEEDS] > 0 and (X[i, X_STATUS] == ACTIVE or X[i, X_STATUS] == UNCONSCIOUS):
                face = roll(G, tr, 6)
                if face == 1:
                    _push(G, E_MARKERS, i, 1, -1, 0)
                elif face == 2:
                    _push(G, E_COND, i, 0, C_KO, _dice(G, tr, 2, 6))
                    _push(G, E_COND, i, 0, C_DOWN, -1)
                elif face == 3:
                    _fumble(P, X, G, tr, i, 0)
                elif face == 4:
                    _push(G, E_COND, i, 0, C_DIZZY, 0)
                else:
                    _push(G, E_STAT, i, -1, 0, 0)
                _apply_group(X, G, GS, rnd, batch)
        _deaths(P, X, G, tr, n, rnd)
        result = _result(GS, X, n)
        if result >= 0:
            break
        for turn in range(2):
            side = first if turn == 0 else 1 - first
            batch += 1
            for i in range(n):
                GS[i, GS_USED] = 0  # a Small Shield's attacks are counted per side turn
                if GS[i, GS_SIDE] == side:
                    X[i, CU + C_CHARGING] = NONE
            batch += 1
            # the side's active members act in roster order; statuses change only when the side's
            # attacks take effect, at its end
            for a in range(n):
                if GS[a, GS_SIDE] != side or X[a, X_STATUS] != ACTIVE:
                    continue
                if X[a, XW + 4 * X[a, X_WEAPON] + 1] > 1 and _hands(X, a) < 2:
                    return BACK_TWO_HANDED
                if _next(X, a, K_MISS_ACTION, rnd):
                    X[a, NV + K_MISS_ACTION] = 0
                    X[a, NU + K_MISS_ACTION] = NONE
                elif _has(X, a, C_IMMOB) or _has(X, a, C_PIMMOB):
                    face = roll(G, tr, 20)
                    tot = face + X[a, S_BREAK] - X[a, X_STRENGTH_LOST] + _penalty(P, X, a, 2)
                    if face == 20 or (face != 1 and tot >= P[P_HARD]):
                        X[a, CU + C_IMMOB] = NONE
                        X[a, CU + C_PIMMOB] = NONE
                elif _has(X, a, C_DOWN):
                    face = roll(G, tr, 20)
                    tot = face + X[a, S_SWIFT] + _penalty(P, X, a, 2)
                    tot += P[P_PER_FOE] * _foes_active(GS, X, n, a)
                    if face == 20 or (face != 1 and tot >= P[P_EASY]):
                        X[a, CU + C_DOWN] = NONE
                elif GS[a, GS_POTIONS] > 0 and X[a, X_MARKERS] * 2 > X[a, S_WL]:
                    # Quaff (the tactic, more than half his Wound Level in markers): the markers go at once
                    GS[a, GS_POTIONS] -= 1
                    heal = _dice(G, tr, GP[G_HEAL_N], GP[G_HEAL_S])
                    X[a, X_MARKERS] -= min(heal, X[a, X_MARKERS])
                    if X[a, X_DYING] != NONE and X[a, X_MARKERS] < X[a, S_WL]:
                        X[a, X_DYING] = NONE
                elif _next(X, a, K_MISS_ATTACK, rnd):
                    X[a, NV + K_MISS_ATTACK] = 0  # Dazed, Gut Punch, Monster Fumble: the attack is lost
                    X[a, NU + K_MISS_ATTACK] = NONE
                    X[a, X_LAST_ATTACK] = rnd
                else:
                    d = _held(GS, X, n, a)
                    act = 0
                    if d < 0:
                        for o in range(n):
                            if GS[o, GS_SIDE] == side or X[o, X_STATUS] != ACTIVE:
                                continue
                            if d < 0:
                                d = o
                                continue
                            # most hurt first: markers / max(1, Wound Level), compared exactly
                            lo = X[o, X_MARKERS] * max(1, X[d, S_WL])
                            ld = X[d, X_MARKERS] * max(1, X[o, S_WL])
                            if lo > ld or (lo == ld and GS[o, GS_RANK] < GS[d, GS_RANK]):
                                d = o
                        if X[a, X_LAST_ATTACK] == rnd - 1:
                            act = 2 if X[a, XW + 4 * X[a, X_WEAPON]] else 1  # Continued attack (tactic)
                    katk = _next(X, a, K_ATTACK, rnd)
                    wa = X[a, X_WEAPON]
                    o = _attack(
                        P, X, G, tr, GP, GS, GA, GD, BR, ADJ, a, d, wa, X[d, X_WEAPON], act, rnd, katk, 1
                    )
                    if o == -2:
                        return BACK_TWO_HANDED
                    if o >= 0:  # Friendly Fire: a plain attack on the side-mate
                        wo = X[o, X_WEAPON]
                        o = _attack(P, X, G, tr, GP, GS, GA, GD, BR, ADJ, a, o, wa, wo, 0, rnd, katk, 0)
                        if o == -2:
                            return BACK_TWO_HANDED
            # end of the side's turn: its attacks take effect, DEATH BY A THOUSAND CUTS, REGENERATION
            batch += 1
            last = turn == 1
            _apply_group(X, G, GS, rnd, batch)
            _deaths(P, X, G, tr, n, rnd)
            for a in range(n):
                if GS[a, GS_SIDE] != side or not X[a, S_REGEN]:
                    continue
                if (X[a, X_STATUS] == ACTIVE or X[a, X_STATUS] == UNCONSCIOUS) and X[a, X_MARKERS] > 0:
                    if X[a, X_DYING] != NONE and X[a, X_MARKERS] - 1 < X[a, S_WL]:
                        X[a, X_DYING] = NONE
                    X[a, X_MARKERS] -= 1
            if last:
                for i in range(n):
                    if X[i, X_REGROWS] > RMAX:
                        return BACK_REGROWS
                for i in range(n):
                    if X[i, X_STATUS] == DEAD:
                        continue
                    if X[i, X_DYING] != NONE and X[i, X_DYING] <= rnd:
                        X[i, X_STATUS] = DEAD
                        continue
                    if X[i, X_BLEED_DEATH] != NONE and X[i, X_BLEED_DEATH] <= rnd and X[i, X_BLEEDS] > 0:
                        X[i, X_STATUS] = DEAD
                        continue
                    if X[i, X_REGROWS]:
                        _regrow(X, i, rnd)
                    for c in range(NC):
                        until = X[i, CU + c]
                        if until != NONE and until != PERM and until <= rnd:
                            X[i, CU + c] = NONE
                            if c == C_KO and X[i, X_STATUS] == UNCONSCIOUS:
                                X[i, X_STATUS] = ACTIVE
            result = _result(GS, X, n)
            if result >= 0:
                break
            if last and rnd >= max_rounds:
                result = 2
                break
    out[0] = result
    out[1] = rnd
    for i in range(n):
        out[2 + 4 * i] = X[i, X_STATUS]
        out[3 + 4 * i] = X[i, X_DEALT]
        out[4 + 4 * i] = X[i, X_TAKEN]
        out[5 + 4 * i] = X[i, X_WOUNDS]
    return 0


@_jit(allocates=True, nogil=True)
def run_batch(P0, S, GP, GS0, GA, GD, BR, ADJ, seeds, tally, hist, losses, fallback) -> int:  # noqa: ANN001, PLR0913
    """Every fight of ``seeds``: ``tally`` (wins of side 0 and 1, draws, nobody standing, then per combatant
    3 status counts, markers dealt, taken, Wounds), ``hist`` rounds, ``losses[s, 0, k]`` fights with k of
    side s dead, ``losses[s, 1, k]`` with k out; the fights handed back in ``fallback``, their number
    returned."""
    n = GP[G_N]
    P = P0.copy()  # the Brawl Rule is set per pair in it
    GS = GS0.copy()
    tr = np.zeros((2, 0), np.int64)
    out = np.zeros(2 + 4 * n, np.int64)
    X, G = work(S)
    nf = 0
    for k in range(seeds.shape[0]):
        G[G_TN] = 0
        if _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, ADJ, seeds[k], out):
            fallback[nf] = k
            nf += 1
            continue
        tally[out[0]] += 1
        hist[out[1]] += 1
        dead0 = 0
        dead1 = 0
        out0 = 0
        out1 = 0
        for i in range(n):
            st = out[2 + 4 * i]
            tally[4 + 6 * i + st] += 1
            tally[7 + 6 * i] += out[3 + 4 * i]
            tally[8 + 6 * i] += out[4 + 4 * i]
            tally[9 + 6 * i] += out[5 + 4 * i]
            if GS[i, GS_SIDE] == 0:
                dead0 += st == DEAD
                out0 += st != ACTIVE
            else:
                dead1 += st == DEAD
                out1 += st != ACTIVE
        losses[0, 0, dead0] += 1
        losses[0, 1, out0] += 1
        losses[1, 0, dead1] += 1
        losses[1, 1, out1] += 1
    return nf


@_jit(allocates=True)
def trace_fight(P0, S, GP, GS0, GA, GD, BR, ADJ, seed, cap):  # noqa: ANN001, ANN201, PLR0913
    """One fight with its dice: (0 done / else handed back, the fight's numbers, the dice (sides, faces))."""
    n = GP[G_N]
    P = P0.copy()
    GS = GS0.copy()
    tr = np.zeros((2, cap), np.int64)
    out = np.zeros(2 + 4 * n, np.int64)
    X, G = work(S)
    G[G_TN] = 0
    back = _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, ADJ, seed, out)
    return back, out, tr[:, : min(G[G_TN], cap)].copy(), G[G_TN]
