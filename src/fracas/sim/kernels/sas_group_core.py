"""The compiled loop of the Spells & Swords group kernel (numba): several against several on the hex map
(sas_group.py says which encounters; the searches of movement are in sas_group_move.py).

It plays each fight as the engine does, one die at a time and **in the engine's order** (the engine can
replay a kernel fight from its faces: tests/sim/test_sim_sas_group.py). The duel kernel's pieces that do not
depend on how many fight (the wound, fumble and brawl tables, conditions, the effect queue: sas_core.py) are
called as they are; what a group changes is here:

- the side's members act in roster order (``side_start``'s OrderSet), each on the foe next to him the
  default tactic picks (SasTactic._melee: a held foe first, else the most hurt, first by id); with no foe
  next to him, SasTactic._moving_in: Charge one of the three nearest when it reaches, else Close to Attack
  one, else Run (not Fatigued), else Walk toward the nearest, as validate takes each (room next to the foe,
  a way through, CHARGE RULES); a charge home on a foe with a longer weapon meets its first strike, whose
  effects and deaths take effect at once (actions.charge._charge);
- per pair of combatants, the attack and damage modifiers that never change (weapons, sizes), plus the
  ones that do: flank and behind from where they stand and face, Defender Surrounded by the foes active
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
    C_PBLIND,
    C_PIMMOB,
    CU,
    DEAD,
    E_BREAKS,
    E_BROKEN,
    E_COND,
    E_DEAD,
    E_DROP,
    E_HURT,
    E_LOST_LIMB,
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
    P_FATIGUE_ROUNDS,
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
    S_NW,
    S_REGEN,
    S_SWIFT,
    S_WL,
    UNCONSCIOUS,
    X_BLEED_DEATH,
    X_BLEEDS,
    X_BROKEN_WEAPONS,
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
    _add_condition,
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
from fracas.sim.kernels.sas_group_move import (
    GS_BROKEN_MOVE,
    GS_DROPPED,
    GS_F,
    GS_F0,
    GS_HURT_MOVE,
    GS_LOST_LEG,
    GS_NO_CHARGE,
    GS_Q,
    GS_Q0,
    GS_R,
    GS_R0,
    GS_SEARCH,
    M_BLIND_SIGHT,
    M_BROKEN_PARTS,
    M_CHARGE_PARTS,
    M_HURT_PARTS,
    M_PBLIND_SIGHT,
    M_PICK_UP,
    NWK,
    W_PATH,
    W_SAVE,
    W_WEAPON,
    approach,
    direction_to,
    hexd,
    may_close,
    no_room,
    spaces,
)
from fracas.sim.kernels.sas_group_move import NGS as NGS

# GP: the group's numbers (besides the duel's P)
G_N = 0  # combatants
G_SUR = 1  # ATTACK TABLE MODIFIERS Defender Surrounded: its value
G_SUR_MIN = 2  # and the foes it takes
G_MW = 3  # weapons + "unarmed" of the combatant with most (GA, GD)
G_NB = 4  # brawl indices (B_WEAPON, B_PLAIN, the rows)
G_HEAL_N = 5  # Quaff: the dice of the markers a healing potion removes (setting potion_heal, nDs)
G_HEAL_S = 6
G_BEHIND = 7  # ATTACK TABLE MODIFIERS Attacking from Behind
G_FLANK = 8  # and from the Flank
NG = 9  # then each side's lowest Initiative bonus (GP[NG + side])

# per combatant (GS[i, ...])
GS_SIDE = 0  # 0 or 1
GS_RANK = 1  # its id's place in sorted order (the tactic's tie-break)
GS_SHIELD = 2  # the shield line's value (a Defense: negative)
GS_SHIELD_MAX = 3  # attacks per turn it defends against (0: all)
GS_USED = 4  # attacks on it this side turn (attack.attack's shield_used)
GS_FB = 5  # foes who have had its Monster Fumble 4-5 bonus (bits; attack.foe_bonus_view)
GS_POTIONS0 = 6  # healing potions carried at the start
GS_POTIONS = 7  # and left
# then where it stands and how it moves (sas_group_move.GS_*)

BACK_TEND = 3  # a combatant with no foe next to him would tend a bleeding or pick up a dropped weapon
BACK_REGROW_LEG = 4  # a regenerator's leg, knee, groin or foot is hurt or broken (it would regrow)


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
def _next_to(GS, a, o) -> bool:  # noqa: ANN001
    """Within one space of each other."""
    return hexd(GS[a, GS_Q], GS[a, GS_R], GS[o, GS_Q], GS[o, GS_R]) <= 1


@_jit()
def _foes_next(GS, X, n, d, ko) -> int:  # noqa: ANN001
    """The active foes of ``d`` next to him: the sides of him they hold (attack.situation's Defender
    Surrounded); ``ko``: not Knocked Out either (readers.adjacent_foes, Stand Up)."""
    k = 0
    for o in range(n):
        near = GS[o, GS_SIDE] != GS[d, GS_SIDE] and X[o, X_STATUS] == ACTIVE and _next_to(GS, o, d)
        if near and not (ko and _has(X, o, C_KO)):
            k += 1
    return k


@_jit()
def _mate_next(GS, X, a, o) -> bool:  # noqa: ANN001
    """An active side-mate next to ``a`` (attack._friendly_fire)."""
    return GS[o, GS_SIDE] == GS[a, GS_SIDE] and X[o, X_STATUS] == ACTIVE and _next_to(GS, a, o)


@_jit()
def _attack(P, X, G, tr, GP, GS, GA, GD, BR, a, d, wa, wd, act, rnd, katk, friendly) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913, PLR0915
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
    if _foes_next(GS, X, n, d, False) >= GP[G_SUR_MIN]:
        mod += GP[G_SUR]
    # Attacking from Behind or the Flank: where the attacker stands from the defender's facing
    rel = (direction_to(GS[d, GS_Q], GS[d, GS_R], GS[a, GS_Q], GS[a, GS_R]) - GS[d, GS_F]) % 6
    if rel == 3:
        mod += GP[G_BEHIND]
    elif rel == 2 or rel == 4:
        mod += GP[G_FLANK]
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
                    if o != a and _mate_next(GS, X, a, o):
                        k += 1
                if k:
                    pick = roll(G, tr, k)
                    for o in range(n):
                        if o != a and _mate_next(GS, X, a, o):
                            pick -= 1
                            if pick == 0:
                                return o
        else:
            _fumble_row(P, X, G, tr, a, ffc)
    return -1


@_jit()
def _apply_group(X, G, GS, GM, WK, rnd, batch) -> int:  # noqa: ANN001
    """sas_core._apply, and before it fold's reset of a monster's foe bonus (a new Monster Fumble 4-5 after a
    foe has had the last one's bonus gives the new one to every foe again) and the parts that slow a
    mover: Hurt and Broken legs, knees, groin and feet, a lost leg (procedures.movement.movement,
    can_charge). Returns BACK_REGROW_LEG when such a part of a regenerator's is hurt or broken, else 0."""
    back = 0
    dead = 0  # the targets an earlier effect of the queue kills: _apply drops what follows for them
    seen = 0  # the targets whose weapon in hand the queue has changed (WK[W_WEAPON + 2 t ...])
    for k in range(G[G_QN]):
        q = G_Q + k * QW
        kind = G[q]
        t = G[q + 1]
        if X[t, X_STATUS] == DEAD or (dead >> t) & 1:
            continue
        if kind == E_DEAD:
            dead |= 1 << t
        elif kind == E_NEXT and (G[q + 3] == K_FOE_ATTACK or G[q + 3] == K_FOE_DAMAGE):
            if GS[t, GS_FB]:
                X[t, NV + K_FOE_ATTACK] = 0
                X[t, NU + K_FOE_ATTACK] = NONE
                X[t, NV + K_FOE_DAMAGE] = 0
                X[t, NU + K_FOE_DAMAGE] = NONE
                GS[t, GS_FB] = 0
        elif kind == E_HURT or kind == E_BROKEN:  # noqa: PLR1714, SIM109 - numba: no tuple of enum members
            bit = 1 << G[q + 2]
            slows = GM[M_HURT_PARTS if kind == E_HURT else M_BROKEN_PARTS] & bit
            if slows:
                GS[t, GS_HURT_MOVE if kind == E_HURT else GS_BROKEN_MOVE] += 1
            if GM[M_CHARGE_PARTS] & bit:
                GS[t, GS_NO_CHARGE] += 1
            if X[t, S_REGEN] and (slows or GM[M_CHARGE_PARTS] & bit):
                back = BACK_REGROW_LEG
        elif kind == E_LOST_LIMB and G[q + 2] == 1:
            GS[t, GS_LOST_LEG] = 1
        elif kind == E_DROP or kind == E_BREAKS:  # noqa: PLR1714, SIM109 - numba: no tuple of enum members
            # the weapon he drops (fold._fold_drop_weapon: "dropped"), as the effects before it left him
            if not (seen >> t) & 1:
                seen |= 1 << t
                WK[W_WEAPON + 2 * t] = X[t, X_WEAPON]
                WK[W_WEAPON + 2 * t + 1] = X[t, X_BROKEN_WEAPONS]
            w = WK[W_WEAPON + 2 * t]
            nw = X[t, S_NW]
            if w != nw and X[t, XW + 4 * w + 1] != 0:
                if kind == E_DROP:
                    GS[t, GS_DROPPED] = w + 1
                    WK[W_WEAPON + 2 * t] = nw
                else:  # as sas_core._apply: the first weapon not broken, else unarmed
                    bits = WK[W_WEAPON + 2 * t + 1] | (1 << w)
                    WK[W_WEAPON + 2 * t + 1] = bits
                    spare = nw
                    for j in range(nw):
                        if not (bits >> j) & 1:
                            spare = j
                            break
                    WK[W_WEAPON + 2 * t] = spare
    _apply(X, G, rnd, batch)
    return back


@_jit()
def _apply_now(X, G, GS, GM, rnd, batch, k0, WK) -> int:  # noqa: ANN001, PLR0913
    """The effects queued since entry ``k0`` take effect at once (an attack out of order: attack.attack's
    ``immediate``); the side's held effects before them stay queued. Returns as :func:`_apply_group`."""
    qn = G[G_QN]
    for j in range(k0 * QW):
        WK[W_SAVE + j] = G[G_Q + j]
    for j in range((qn - k0) * QW):
        G[G_Q + j] = G[G_Q + k0 * QW + j]
    G[G_QN] = qn - k0
    back = _apply_group(X, G, GS, GM, WK, rnd, batch)
    for j in range(k0 * QW):
        G[G_Q + j] = WK[W_SAVE + j]
    G[G_QN] = k0
    return back


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
    """SasTactic._melee: a held (Immobilized) foe next to him first, by id (-1: none)."""
    best = -1
    for o in range(n):
        if GS[o, GS_SIDE] == GS[a, GS_SIDE] or X[o, X_STATUS] != ACTIVE or not _has(X, o, C_IMMOB):
            continue
        if not _next_to(GS, a, o):
            continue
        if best < 0 or GS[o, GS_RANK] < GS[best, GS_RANK]:
            best = o
    return best


@_jit()
def _more_hurt(GS, X, o, p) -> bool:  # noqa: ANN001
    """``o`` before ``p`` by (-hurt, id): markers / max(1, Wound Level), compared exactly (tactics._hurt)."""
    lo = X[o, X_MARKERS] * max(1, X[p, S_WL])
    lp = X[p, X_MARKERS] * max(1, X[o, S_WL])
    return lo > lp or (lo == lp and GS[o, GS_RANK] < GS[p, GS_RANK])


@_jit()
def _nearer(GS, X, a, o, p) -> bool:  # noqa: ANN001
    """``o`` before ``p`` in SasTactic.proposals' ``nearest``: by distance from ``a``, most hurt, id."""
    aq = GS[a, GS_Q]
    ar = GS[a, GS_R]
    do = hexd(aq, ar, GS[o, GS_Q], GS[o, GS_R])
    dp = hexd(aq, ar, GS[p, GS_Q], GS[p, GS_R])
    if do != dp:
        return do < dp
    return _more_hurt(GS, X, o, p)


@_jit()
def _tend(P, X, G, tr, GS, GM, n, a) -> int:  # noqa: ANN001, PLR0913
    """tactics._tending with no foe next to him: Stop Bleed, his own wound first, else a side-mate's next to
    him (not dead; in roster order): the bleeding stops at once (actions.other._stop_bleed); else Pick up
    Dropped Item when his hand is empty (an Easy check + Search, roll penalties, sight; no foe next to him:
    actions.other._pick_up). Returns 1 when he tended, 0 when he did not, BACK_TEND for a pick-up with
    one hand left (validate, the shield set aside: not modelled)."""
    o = a if X[a, X_BLEEDS] > 0 else -1
    if o < 0:
        for m in range(n):
            mate = m != a and GS[m, GS_SIDE] == GS[a, GS_SIDE]
            if mate and X[m, X_BLEEDS] > 0 and X[m, X_STATUS] != DEAD and _next_to(GS, a, m):
                o = m
                break
    if o >= 0:
        X[o, X_BLEEDS] = 0
        X[o, X_BLEED_DEATH] = NONE
        return 1
    if GS[a, GS_DROPPED] == 0 or X[a, X_WEAPON] != X[a, S_NW]:
        return 0
    if _hands(X, a) < 2:
        return BACK_TEND
    face = roll(G, tr, 20)
    tot = face + GS[a, GS_SEARCH] + _penalty(P, X, a, 2)
    if _has(X, a, C_BLINDED):
        tot += GM[M_BLIND_SIGHT]
    if _has(X, a, C_PBLIND):
        tot += GM[M_PBLIND_SIGHT]
    if face == 20 or (face != 1 and tot >= GM[M_PICK_UP]):
        X[a, X_WEAPON] = GS[a, GS_DROPPED] - 1
        GS[a, GS_DROPPED] = 0
    return 1


@_jit()
def _move(GS, WK, a, ln, t) -> None:  # noqa: ANN001
    """movement.move_on_path along the ``ln`` hexes in WK: facing the foe ``t`` (a closing attack), or
    (``t`` < 0) the way of the last step."""
    q = WK[W_PATH + 2 * ln - 2]
    r = WK[W_PATH + 2 * ln - 1]
    if t >= 0:
        GS[a, GS_F] = direction_to(q, r, GS[t, GS_Q], GS[t, GS_R])
    elif ln > 1:
        GS[a, GS_F] = direction_to(WK[W_PATH + 2 * ln - 4], WK[W_PATH + 2 * ln - 3], q, r)
    else:
        GS[a, GS_F] = direction_to(GS[a, GS_Q], GS[a, GS_R], q, r)
    GS[a, GS_Q] = q
    GS[a, GS_R] = r


@_jit()
def _strike(P, X, G, tr, GP, GS, GA, GD, BR, a, d, act, rnd) -> int:  # noqa: ANN001, PLR0913
    """``a`` attacks ``d`` with what he holds (attack.attack): an attack lost to Dazed, a Gut Punch or a
    Monster Fumble is spent; Friendly Fire's plain attack follows. -2 hands the fight back, else 0."""
    if _next(X, a, K_MISS_ATTACK, rnd):
        X[a, NV + K_MISS_ATTACK] = 0
        X[a, NU + K_MISS_ATTACK] = NONE
        X[a, X_LAST_ATTACK] = rnd
        return 0
    katk = _next(X, a, K_ATTACK, rnd)
    wa = X[a, X_WEAPON]
    o = _attack(P, X, G, tr, GP, GS, GA, GD, BR, a, d, wa, X[d, X_WEAPON], act, rnd, katk, 1)
    if o >= 0:  # Friendly Fire: a plain attack on the side-mate
        o = _attack(P, X, G, tr, GP, GS, GA, GD, BR, a, o, wa, X[o, X_WEAPON], 0, rnd, katk, 0)
    return -2 if o == -2 else 0


@_jit()
def _charge(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, a, t, ln, rnd, batch) -> int:  # noqa: ANN001, PLR0913
    """actions.charge._charge along the path found: the Charge's Defense -4 on the charger, the defender's
    longer weapon strikes first (at once: its effects and deaths now), then the charge's attack as the
    first strike left both. Returns a BACK_* code or 0."""
    n = GP[G_N]
    _move(GS, WK, a, ln, t)
    _add_condition(X, a, C_CHARGING, PERM, batch)
    wa = X[a, X_WEAPON]
    wt = X[t, X_WEAPON]
    if (
        X[t, XW + 4 * wt + 3] > X[a, XW + 4 * wa + 3]
        and X[t, X_STATUS] == ACTIVE
        and not _has(X, t, C_IMMOB)
        and X[t, X_FIRST_STRIKE] != rnd
        and X[t, X_LAST_ATTACK] != rnd
    ):
        X[t, X_FIRST_STRIKE] = rnd
        if _next(X, t, K_MISS_ATTACK, rnd):
            X[t, NV + K_MISS_ATTACK] = 0
            X[t, NU + K_MISS_ATTACK] = NONE
            X[t, X_LAST_ATTACK] = rnd
        else:
            k0 = G[G_QN]
            if _strike(P, X, G, tr, GP, GS, GA, GD, BR, t, a, 0, rnd) == -2:
                return BACK_TWO_HANDED
            back = _apply_now(X, G, GS, GM, rnd, batch, k0, WK)
            if back:
                return back
            _deaths(P, X, G, tr, n, rnd)
            if X[a, X_STATUS] != ACTIVE or _has(X, a, C_DOWN):
                return 0
            foes = False
            for o in range(n):
                if GS[o, GS_SIDE] != GS[a, GS_SIDE] and X[o, X_STATUS] == ACTIVE:
                    foes = True
            if not foes:
                return 0  # the first strike ended the fight
    if _strike(P, X, G, tr, GP, GS, GA, GD, BR, a, t, 3, rnd) == -2:
        return BACK_TWO_HANDED
    return 0


@_jit()
def _closing(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, a, rnd, batch) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913
    """SasTactic._moving_in with no foe next to him: Charge one of the three nearest foes when it reaches
    (CHARGE RULES), else Close to Attack one, else Run toward the nearest (not while Fatigued), else Walk;
    each as validate takes it (room next to the foe, a way through this turn, the Charge's conditions,
    not Partially Immobilized or Staggered, no attack after a first strike this round). Returns a BACK_*
    code or 0."""
    n = GP[G_N]
    n0 = n1 = n2 = -1  # the three nearest
    for o in range(n):
        if GS[o, GS_SIDE] == GS[a, GS_SIDE] or X[o, X_STATUS] != ACTIVE:
            continue
        if n0 < 0 or _nearer(GS, X, a, o, n0):
            n2 = n1
            n1 = n0
            n0 = o
        elif n1 < 0 or _nearer(GS, X, a, o, n1):
            n2 = n1
            n1 = o
        elif n2 < 0 or _nearer(GS, X, a, o, n2):
            n2 = o
    if n0 < 0 or _has(X, a, C_PIMMOB) or _next(X, a, K_DEFENSE, rnd) != 0:
        return 0  # no foe, or he cannot move (Partially Immobilized, Staggered): Do nothing
    aq = GS[a, GS_Q]
    ar = GS[a, GS_R]
    tired = _has(X, a, C_FATIGUED)
    if X[a, X_FIRST_STRIKE] != rnd:
        short = 0  # the foes with no free hex next to them within a Charge's reach: none within less
        for kind in range(2):
            if kind == 0 and (tired or GS[a, GS_NO_CHARGE] or GS[a, GS_LOST_LEG]):
                continue  # CHARGE RULES: not Fatigued, nor with a hurt or broken leg, knee or foot
            sp = spaces(GM, GS, X, a, 4 if kind == 0 else 2, kind == 0, rnd)
            for k in range(3):
                t = n0 if k == 0 else n1 if k == 1 else n2
                if t < 0:
                    break
                tq = GS[t, GS_Q]
                tr_ = GS[t, GS_R]
                if no_room(GS, X, GM, n, a, t) or hexd(aq, ar, tq, tr_) - 1 > sp or (short >> k) & 1:
                    continue
                # no_way_through: _may_close, then the path (the tactic's ``way``, validate's check)
                if not may_close(GS, X, GM, n, a, t, sp, WK):
                    short |= 1 << k  # (a Charge reaches at least as far as Close to Attack)
                    continue
                ln = approach(GS, X, GM, n, a, tq, tr_, sp, 1, WK)
                if ln == 0 or hexd(WK[W_PATH + 2 * ln - 2], WK[W_PATH + 2 * ln - 1], tq, tr_) > 1:
                    continue
                if kind == 0:
                    return _charge(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, a, t, ln, rnd, batch)
                _move(GS, WK, a, ln, t)  # Close to Attack
                if _strike(P, X, G, tr, GP, GS, GA, GD, BR, a, t, 4, rnd) == -2:
                    return BACK_TWO_HANDED
                return 0
    sp = spaces(GM, GS, X, a, 2 if tired else 4, False, rnd)
    ln = approach(GS, X, GM, n, a, GS[n0, GS_Q], GS[n0, GS_R], sp, 1, WK)
    if ln:
        _move(GS, WK, a, ln, -1)
    if not tired:  # Run: Fatigued for the setting's rounds
        _add_condition(X, a, C_FATIGUED, rnd + P[P_FATIGUE_ROUNDS], batch)
    return 0


@_jit()
def _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, seed, out) -> int:  # noqa: ANN001, C901, PLR0912, PLR0913, PLR0915
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
        GS[i, GS_Q] = GS[i, GS_Q0]
        GS[i, GS_R] = GS[i, GS_R0]
        GS[i, GS_F] = GS[i, GS_F0]
        GS[i, GS_HURT_MOVE] = 0
        GS[i, GS_BROKEN_MOVE] = 0
        GS[i, GS_NO_CHARGE] = 0
        GS[i, GS_LOST_LEG] = 0
        GS[i, GS_DROPPED] = 0
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
                if _apply_group(X, G, GS, GM, WK, rnd, batch):
                    return BACK_REGROW_LEG
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
            # the side's active members act in roster order; statuses change only when the side's
            # attacks take effect, at its end (or at once, by a first strike against a charge)
            for a in range(n):
                if GS[a, GS_SIDE] != side or X[a, X_STATUS] != ACTIVE:
                    continue
                batch += 1
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
                    tot += P[P_PER_FOE] * _foes_next(GS, X, n, a, True)
                    if face == 20 or (face != 1 and tot >= P[P_EASY]):
                        X[a, CU + C_DOWN] = NONE
                else:
                    adjacent = False
                    for o in range(n):
                        if GS[o, GS_SIDE] != side and X[o, X_STATUS] == ACTIVE and _next_to(GS, a, o):
                            adjacent = True
                            break
                    tended = 0 if adjacent else _tend(P, X, G, tr, GS, GM, n, a)
                    if tended == BACK_TEND:
                        return BACK_TEND
                    if tended:
                        pass
                    elif GS[a, GS_POTIONS] > 0 and X[a, X_MARKERS] * 2 > X[a, S_WL]:
                        # Quaff (the tactic: more than half his Wound Level in markers); they go at once
                        GS[a, GS_POTIONS] -= 1
                        heal = _dice(G, tr, GP[G_HEAL_N], GP[G_HEAL_S])
                        X[a, X_MARKERS] -= min(heal, X[a, X_MARKERS])
                        if X[a, X_DYING] != NONE and X[a, X_MARKERS] < X[a, S_WL]:
                            X[a, X_DYING] = NONE
                    elif not adjacent:
                        back = _closing(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, a, rnd, batch)
                        if back:
                            return back
                        result = _result(GS, X, n)  # a first strike's effects are immediate
                        if result >= 0:
                            break
                    elif X[a, X_FIRST_STRIKE] == rnd:
                        pass  # his attack of the round was a first strike at a charge: he does nothing
                    else:
                        # the foe next to him the tactic picks: a held one, else the most hurt, by id
                        d = _held(GS, X, n, a)
                        act = 0
                        if d < 0:
                            for o in range(n):
                                if (
                                    GS[o, GS_SIDE] == side
                                    or X[o, X_STATUS] != ACTIVE
                                    or not _next_to(GS, a, o)
                                ):
                                    continue
                                if d < 0 or _more_hurt(GS, X, o, d):
                                    d = o
                            if X[a, X_LAST_ATTACK] == rnd - 1:
                                act = 2 if X[a, XW + 4 * X[a, X_WEAPON]] else 1  # Continued attack (tactic)
                        if _strike(P, X, G, tr, GP, GS, GA, GD, BR, a, d, act, rnd) == -2:
                            return BACK_TWO_HANDED
            if result >= 0:
                break
            # end of the side's turn: its attacks take effect, DEATH BY A THOUSAND CUTS, REGENERATION
            batch += 1
            last = turn == 1
            if _apply_group(X, G, GS, GM, WK, rnd, batch):
                return BACK_REGROW_LEG
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
def run_batch(P0, S, GP, GS0, GA, GD, BR, GM, seeds, tally, hist, losses, fallback) -> int:  # noqa: ANN001, PLR0913
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
    WK = np.zeros(NWK, np.int64)
    nf = 0
    for k in range(seeds.shape[0]):
        G[G_TN] = 0
        if _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, seeds[k], out):
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
def trace_fight(P0, S, GP, GS0, GA, GD, BR, GM, seed, cap):  # noqa: ANN001, ANN201, PLR0913
    """One fight with its dice: (0 done / else handed back, the fight's numbers, the dice (sides, faces))."""
    n = GP[G_N]
    P = P0.copy()
    GS = GS0.copy()
    tr = np.zeros((2, cap), np.int64)
    out = np.zeros(2 + 4 * n, np.int64)
    X, G = work(S)
    WK = np.zeros(NWK, np.int64)
    G[G_TN] = 0
    back = _run_fight(P, X, G, tr, GP, GS, GA, GD, BR, GM, WK, seed, out)
    return back, out, tr[:, : min(G[G_TN], cap)].copy(), G[G_TN]
