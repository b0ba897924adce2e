"""The compiled loop of the Spells & Swords duel kernel (numba): one fight after another, scalar code.

Every function here mirrors, for a plain melee duel, a piece of the ``sas`` ruleset (fracas.rules.sas:
``ruleset.py`` for the round and the attack, ``procedures.py`` for the tables, ``fold.py`` for how effects
change a combatant, ``tactics.py`` for the default tactic), and draws its dice **in the engine's order**, so
the engine can replay a kernel fight from its faces (sas_melee.py; the tests do, face by face:
tests/sim/test_sim_sas_kernel.py). A fighter with one hand left (an arm or hand broken or lost,
ruleset.hands_left) brawls with the hands he has; a regenerator's hurt and broken parts regrow at the end of
their round (REGENERATION, ruleset._regrow). A fight the loop does not finish is handed back with the faces
drawn so far and replayed by the engine (``BACK_*``): one with a two-handed weapon in a single hand (a broken
or lost arm or hand drops what it holds, so a duel does not come to it), one with more parts regrowing at
once than the loop keeps (RMAX).

Numbers come in from the builder (sas_melee.py) in ``P`` (see the ``P_*`` indices) and small tables; the
text's rows are named where they are used (004 = shared/rules/004_0d1ac50b56c23caf.txt).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fracas.rules.sas.effects import EffectKind


def _jit(allocates: bool = False, **options: bool):  # noqa: ANN202
    """numba's ``njit``, cached on disk (beside this file or in the user's cache); compiled in each process
    where no cache can be written. A function that makes no array (``allocates`` False: all but the entry
    points) is compiled without numba's reference counting (``_nrt=False``): the counts an array argument
    costs at every call were, with their atomic instructions, two thirds of the loop's time."""

    def wrap(f):  # noqa: ANN001, ANN202
        try:
            return njit(cache=True, _nrt=allocates, **options)(f)
        except RuntimeError:  # no cache locator: nowhere to write
            return njit(_nrt=allocates, **options)(f)

    return wrap


NONE = -1  # no such condition / mark
PERM = 1 << 40  # a condition "until removed" (until_round None)

# combatant status
ACTIVE, UNCONSCIOUS, DEAD = 0, 1, 2

# conditions the kernel follows (index into cond arrays)
C_STUNNED, C_DIZZY, C_PBLIND, C_BLINDED, C_DISTRACTED, C_DOWN, C_KO = 0, 1, 2, 3, 4, 5, 6
C_IMMOB, C_PIMMOB, C_CHOKE, C_FATIGUED, C_CHARGING = 7, 8, 9, 10, 11
NC = 12

# "next" marks (fold.next_value): value until the end of round ``until``
K_MISS_ACTION, K_MISS_ATTACK, K_ATTACK, K_FOE_ATTACK, K_FOE_DAMAGE, K_DEFENSE = 0, 1, 2, 3, 4, 5
NK = 6

# effect kinds: the engine's own (rules/sas/effects.py; the kinds the kernel applies, the others change
# nothing in a duel). numba reads the members of a module-level IntEnum as constants.
E_MARKERS, E_COND, E_HURT = EffectKind.MARKERS, EffectKind.CONDITION, EffectKind.HURT
E_BROKEN, E_BLEED, E_DEAD = EffectKind.BROKEN, EffectKind.BLEED, EffectKind.DEAD
E_NEXT, E_STAT, E_DROP = EffectKind.NEXT, EffectKind.STAT, EffectKind.DROP_WEAPON
E_BREAKS, E_LOST_LIMB, E_REGROW = EffectKind.WEAPON_BREAKS, EffectKind.LOST_LIMB, EffectKind.REGROW
QMAX = 256

# attack table rows (004 ATTACK TABLE)
A_FUMBLE, A_MISS, A_LOCKED, A_HIT, A_CRIT = 0, 1, 2, 3, 4

# body parts (004 RANDOM BODY PART TABLE, 1D10 in order)
PART_HAND, PART_FOOT, PART_ARM, PART_LEG, PART_KNEE, PART_HEAD, PART_NECK = 1, 2, 3, 4, 5, 6, 7

# brawl row index: 0 = a weapon attack, 1 = an unmodified Brawl Attack (a 1D60 face without a row),
# 2 + k = row k+1
B_WEAPON, B_PLAIN = 0, 1
# brawl row effects (reference 1.2; procedures.brawl_effects)
BE_NONE, BE_INIT, BE_BREAK, BE_HURT, BE_HURT_OR_BREAK, BE_PRONE_DISTRACTED = 0, 1, 2, 3, 4, 5
BE_PBLIND, BE_BLINDED, BE_STUNNED, BE_BOTH_STUNNED, BE_NO_ATTACK, BE_SUBDUED = 6, 7, 8, 9, 10, 11
BE_DISARM, BE_PERCENT_ONLY, BE_NOTHING, BE_PBLIND_TIMED, BE_SUBDUED_CHOKE, BE_GRABBED = 12, 13, 14, 15, 16, 17

# P: the encounter's numbers
P_MAX_ROUNDS = 0
P_BRAWL = 1  # the Brawl Rule applies between these two (option on, both humanoid)
P_PERCENT_DIE = 2
P_CRIT = 3  # Critical Hit damage bonus
P_LOCKED = 4  # Weapons Locked: the foe's next attack
P_ATT_PRONE = 5
P_DEF_PRONE = 6
P_ATT_BLIND = 7
P_DEF_BLIND = 8
P_WOUNDED = 9  # WOUNDED CONDITION, to all rolls
P_STUN = 10
P_DIZZY = 11
P_PBLIND_ATTACK = 12
P_HURT = 13
P_HURT_LIMB = 14
P_BROKEN = 15
P_EASY = 16  # Stand Up: an Easy check
P_PER_FOE = 17  # Stand Up: per adjacent foe
P_MAJOR_PRONE = 18
P_LEG_PERCENT = 19
P_ROUNDS_PER_MINUTE = 20
P_KD_DROP = 21  # Knocked Down: chance to drop what is held
P_LIGHT_BROKEN = 22  # Light Wound 2: chance of Broken
P_MINIONS = 23
P_TRIG = 24  # Brawl Rule: 1-10 on 1D20
P_NROWS = 25  # brawl rows in the data
P_STAGGER_DEF = 26
P_FOE_ATT = 27
P_FOE_DMG = 28
P_MON_ATT = 29
P_TLO = 30  # the lowest attack total of AROW (lower totals read its first column)
P_DLO = 31  # the lowest damage total of DROW
P_IMMOB_HIT = 32  # Defender Immobilized
P_PIMMOB_HIT = 33  # Defender Partially Immobilized
P_ATT_PIMMOB = 34  # Attacker Partially Immobilized
P_CHOKE_ROLLS = 35  # CHOKE: to all rolls while choking
P_CHOKE_HIT = 36  # CHOKE: to be hit
P_HARD = 37  # Break Free: a Hard check (setting break_check)
P_SAVE = 38  # a saving throw's target
P_DIST0 = 39  # spaces between the two at the start
P_FATIGUED = 40  # Attacker Fatigued
P_FATIGUE_ROUNDS = 41  # Run: Fatigued for this many rounds (setting fatigue_rounds)
P_CHARGE_DEF = 42  # CHARGE RULES: the charger's Defense -4 until its side acts again
P_PRONE_DAMAGE = 43  # KNOCKED DOWN: a prone attacker's Damage roll -2
NP = 44

# per combatant static numbers: S[i, ...]
S_SIDE = 0
S_WL = 1
S_HEROIC = 2
S_HUMANOID = 3
S_MINION = 4
S_REGEN = 5
S_INIT = 6
S_SWIFT = 7
S_NW = 8  # weapons carried; weapon index NW is "unarmed"
S_SHIELD = 9
S_DODGE = 10
S_BREAK = 11  # Strength and Escape Artist, for Break Free
S_WALK = 12  # spaces: Walk and Close to Attack
S_RUN = 13
S_CHARGE = 14
S_SAVE_DEATH = 15  # the bonuses of a Save vs Death (procedures.save_bonuses: race, calling, Monster Armor)
S_REROLLS = 16  # failed saves it may reroll today (procedures.save: a Human's 1, reference 2.5)
NS = 17


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
def roll(rs: np.ndarray, sides: int, tr: np.ndarray, tn: np.ndarray) -> int:
    """One die 1..sides (53 random bits scaled: a bias below 1e-14). Traced when ``tr`` has room."""
    z = _next64(rs) >> np.uint64(11)
    face = int((z * np.uint64(sides)) >> np.uint64(53)) + 1
    k = tn[0]
    if k < tr.shape[1]:
        tr[0, k] = sides
        tr[1, k] = face
    tn[0] = k + 1
    return face


@_jit()
def _dice(rs: np.ndarray, n: int, sides: int, tr: np.ndarray, tn: np.ndarray) -> int:
    s = 0
    for _ in range(n):
        s += roll(rs, sides, tr, tn)
    return s


@_jit()
def _percent(P: np.ndarray, chance: int, rs: np.ndarray, tr: np.ndarray, tn: np.ndarray) -> bool:
    die = P[P_PERCENT_DIE]
    return roll(rs, die, tr, tn) <= chance * die // 100


# ----- the effect queue (held until the side has attacked, 004 INITIATIVE "Simultaneously") -------------


@_jit()
def _push(Q: np.ndarray, qn: np.ndarray, kind: int, tgt: int, val: int, name: int, rounds: int) -> None:
    k = qn[0]
    Q[k, 0] = kind
    Q[k, 1] = tgt
    Q[k, 2] = val
    Q[k, 3] = name
    Q[k, 4] = rounds
    qn[0] = k + 1


@_jit()
def _knocked_down(P, Q, qn, t, rs, tr, tn) -> None:  # noqa: ANN001
    """KNOCKED DOWN: prone, and 50% drop whatever is held (procedures.knocked_down)."""
    _push(Q, qn, E_COND, t, 0, C_DOWN, -1)
    if _percent(P, P[P_KD_DROP], rs, tr, tn):
        _push(Q, qn, E_DROP, t, 0, 0, 0)


@_jit()
def _knock_out(Q, qn, t, rounds) -> None:  # noqa: ANN001
    """KNOCKED OUT, prone, drops the weapon (procedures.knock_out)."""
    _push(Q, qn, E_COND, t, 0, C_KO, rounds)
    _push(Q, qn, E_COND, t, 0, C_DOWN, -1)
    _push(Q, qn, E_DROP, t, 0, 0, 0)


@_jit()
def _hurt(P, S, Q, qn, t, part, rs, tr, tn) -> None:  # noqa: ANN001
    """BODY PART HURT (procedures.hurt_part): a hurt head is also Stunned 1D4 rounds; a regenerator's part
    regrows in 1D6 minutes (procedures._regrows)."""
    limb = 1 if (part in (PART_ARM, PART_HAND)) else 0
    _push(Q, qn, E_HURT, t, 0, limb, 0)
    if part == PART_HEAD:
        _push(Q, qn, E_COND, t, 0, C_STUNNED, roll(rs, 4, tr, tn))
    if S[t, S_REGEN]:
        _push(Q, qn, E_REGROW, t, 0, R_HURT + limb, roll(rs, 6, tr, tn) * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _break(P, S, Q, qn, t, part, rs, tr, tn) -> None:  # noqa: ANN001
    """BODY PART BROKEN (procedures.break_part): neck Instant Death, head Skull Crack (1D2 hours), arm or
    hand unusable (the weapon drops)."""
    # name 1: an arm or hand, which leaves one hand (ruleset.hands_left)
    limb = 1 if (part in (PART_ARM, PART_HAND)) else 0
    _push(Q, qn, E_BROKEN, t, 0, limb, 0)
    if part == PART_NECK:
        _push(Q, qn, E_DEAD, t, 0, 0, 0)
    elif part == PART_HEAD:
        hours = roll(rs, 2, tr, tn)
        _knock_out(Q, qn, t, hours * 60 * P[P_ROUNDS_PER_MINUTE])
    elif part in (PART_ARM, PART_HAND):
        _push(Q, qn, E_DROP, t, 0, 0, 0)
    if S[t, S_REGEN] and part != PART_NECK:  # a regenerator's break regrows in 3D20 minutes
        _push(Q, qn, E_REGROW, t, 0, R_BROKEN + limb, _dice(rs, 3, 20, tr, tn) * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _light_wound(P, S, Q, qn, t, rs, tr, tn) -> None:  # noqa: ANN001
    """LIGHT WOUND TABLE 1D6 (procedures.light_wound)."""
    face = roll(rs, 6, tr, tn)
    if face == 1:
        _knock_out(Q, qn, t, _dice(rs, 2, 6, tr, tn))
    elif face == 2:
        broken = _percent(P, P[P_LIGHT_BROKEN], rs, tr, tn)
        part = roll(rs, 10, tr, tn)
        if broken:
            _break(P, S, Q, qn, t, part, rs, tr, tn)
        else:
            _hurt(P, S, Q, qn, t, part, rs, tr, tn)
    elif face == 3:
        _fumble_row(P, S, Q, qn, t, roll(rs, 6, tr, tn), rs, tr, tn)  # 1D6 on the Fumble Table
    elif face == 4:
        _push(Q, qn, E_NEXT, t, 1, K_MISS_ATTACK, 0)
    elif face == 5:
        _push(Q, qn, E_COND, t, 0, C_STUNNED, roll(rs, 6, tr, tn))
    # 6 Bad Scar: Appearance only


@_jit()
def _fumble_row(P, S, Q, qn, t, face, rs, tr, tn) -> None:  # noqa: ANN001
    """A FUMBLE TABLE (HTH WEAPON) row 1-7 for a humanoid, a MONSTER FUMBLES row for the rest
    (procedures._fumble_effects); row 8 (Injure Self) is :func:`_fumble`'s."""
    if S[t, S_HUMANOID]:
        if face == 1:
            _push(Q, qn, E_DROP, t, 0, 0, 0)
        elif face == 2:
            _push(Q, qn, E_BREAKS, t, 0, 0, 0)
        elif face == 3:
            _hurt(P, S, Q, qn, t, roll(rs, 10, tr, tn), rs, tr, tn)
        elif face == 4:
            _knocked_down(P, Q, qn, t, rs, tr, tn)  # and Initiative -1 next round: the order is fixed
        elif face == 5:
            _push(Q, qn, E_NEXT, t, 1, K_MISS_ACTION, 0)
        elif face == 6:
            _push(Q, qn, E_NEXT, t, P[P_STAGGER_DEF], K_DEFENSE, 0)  # Staggered: cannot move (no move here)
        # 7 Friendly Fire: a duel has no ally to hit
    else:
        if face == 1:
            _push(Q, qn, E_NEXT, t, 1, K_MISS_ACTION, 0)
        elif face == 2:
            _push(Q, qn, E_NEXT, t, 1, K_MISS_ATTACK, 0)
        elif face == 3:
            _push(Q, qn, E_NEXT, t, P[P_MON_ATT], K_ATTACK, 0)
        elif face == 4:
            _push(Q, qn, E_NEXT, t, P[P_FOE_ATT], K_FOE_ATTACK, 0)
        elif face == 5:
            _push(Q, qn, E_NEXT, t, P[P_FOE_DMG], K_FOE_DAMAGE, 0)
        else:
            _knocked_down(P, Q, qn, t, rs, tr, tn)


@_jit()
def _fumble(P, S, Q, qn, t, die, rs, tr, tn) -> None:  # noqa: ANN001
    """FUMBLE TABLE (HTH WEAPON) 1D8 for humanoids, MONSTER FUMBLES 1D6 for the rest (procedures.roll_fumble);
    ``die`` 6 for "Foe Rolls 1D6 on Fumble Table" (rows 1-6 only), 0 for the table's own die."""
    face = roll(rs, die if die else (8 if S[t, S_HUMANOID] else 6), tr, tn)
    if face == 8 and S[t, S_HUMANOID]:
        _light_wound(P, S, Q, qn, t, rs, tr, tn)  # Injure Self
    else:
        _fumble_row(P, S, Q, qn, t, face, rs, tr, tn)


@_jit()
def _lost_limb(P, Q, qn, t, rs, tr, tn) -> None:  # noqa: ANN001
    if not _percent(P, P[P_LEG_PERCENT], rs, tr, tn):
        _push(Q, qn, E_DROP, t, 0, 0, 0)  # an arm or hand: the weapon drops (a leg: Move -4 only)
        _push(Q, qn, E_LOST_LIMB, t, 0, 0, 0)  # one hand left


@_jit()
def _bleed(P, Q, qn, t, rs, tr, tn) -> None:  # noqa: ANN001
    minutes = _dice(rs, 2, 10, tr, tn)
    _push(Q, qn, E_BLEED, t, 1, 0, minutes * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _major_wound(P, S, Q, qn, t, cut, rs, tr, tn) -> None:  # noqa: ANN001
    """MAJOR WOUND TABLE 1D8 (procedures.major_wound); ``cut`` 0 blunt, 1 cut, 2 impale for 6+."""
    face = roll(rs, 8, tr, tn)
    if face == 1:
        _break(P, S, Q, qn, t, roll(rs, 10, tr, tn), rs, tr, tn)
    elif face == 2:
        _push(Q, qn, E_COND, t, 0, C_PBLIND, -1)
    elif face == 3:
        hours = roll(rs, 2, tr, tn)
        _knock_out(Q, qn, t, hours * 60 * P[P_ROUNDS_PER_MINUTE])
    elif face == 4:
        _lost_limb(P, Q, qn, t, rs, tr, tn)
    elif face == 5:
        _bleed(P, Q, qn, t, rs, tr, tn)
    else:
        if cut == 0:
            _break(P, S, Q, qn, t, roll(rs, 10, tr, tn), rs, tr, tn)
        elif cut == 1:
            _lost_limb(P, Q, qn, t, rs, tr, tn)
        else:
            _bleed(P, Q, qn, t, rs, tr, tn)
    if P[P_MAJOR_PRONE]:
        _knocked_down(P, Q, qn, t, rs, tr, tn)
        _push(Q, qn, E_NEXT, t, 1, K_MISS_ACTION, 0)


@_jit()
def _choke(P, S, X, cu, Q, qn, t, rs, tr, tn) -> None:  # noqa: ANN001
    """CHOKE (procedures.choke): Save vs Death at the choking -1, or Knocked Out 1D10 minutes."""
    mods = S[t, S_SAVE_DEATH] + _penalty(P, S, X, cu, t, 3) + P[P_CHOKE_ROLLS]
    face = roll(rs, 20, tr, tn)
    made = face == 20 or (face != 1 and face + mods >= P[P_SAVE])
    if not made and X[t, X_REROLLED] < S[t, S_REROLLS]:  # a Human rerolls one failed save a day
        X[t, X_REROLLED] += 1
        face = roll(rs, 20, tr, tn)
        made = face == 20 or (face != 1 and face + mods >= P[P_SAVE])
    _push(Q, qn, E_COND, t, 0, C_CHOKE, -1)
    if not made:
        minutes = roll(rs, 10, tr, tn)
        _knock_out(Q, qn, t, minutes * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _brawl_effects(P, S, X, cu, B, Q, qn, a, d, row, rs, tr, tn) -> None:  # noqa: ANN001
    """The on-hit effect of a Random Brawl Attacks row (procedures.brawl_effects)."""
    e = B[row, 0]
    pct = B[row, 3]
    part = B[row, 4]
    if e == BE_INIT:
        _percent(P, pct, rs, tr, tn)  # Initiative -1 next round: the side order is fixed
    elif e == BE_BREAK:
        _break(P, S, Q, qn, d, part, rs, tr, tn)
    elif e == BE_HURT:
        _hurt(P, S, Q, qn, d, part, rs, tr, tn)
    elif e == BE_HURT_OR_BREAK:
        if _percent(P, pct, rs, tr, tn):
            _break(P, S, Q, qn, d, part, rs, tr, tn)
        else:
            _hurt(P, S, Q, qn, d, part, rs, tr, tn)
    elif e == BE_PRONE_DISTRACTED:
        n = _dice(rs, B[row, 5], B[row, 6], tr, tn)
        _push(Q, qn, E_COND, d, 0, C_DOWN, -1)
        _push(Q, qn, E_COND, d, 0, C_DISTRACTED, n)
    elif e == BE_PBLIND:
        _push(Q, qn, E_COND, d, 0, C_PBLIND, -1)
        _percent(P, pct, rs, tr, tn)  # permanent or not: no difference within a fight
    elif e == BE_BLINDED:
        _push(Q, qn, E_COND, d, 0, C_BLINDED, -1)
    elif e == BE_STUNNED:
        _push(Q, qn, E_COND, d, 0, C_STUNNED, _dice(rs, B[row, 5], B[row, 6], tr, tn))
    elif e == BE_BOTH_STUNNED:
        _push(Q, qn, E_COND, a, 0, C_STUNNED, _dice(rs, B[row, 5], B[row, 6], tr, tn))
        _push(Q, qn, E_COND, d, 0, C_STUNNED, _dice(rs, B[row, 5], B[row, 6], tr, tn))
    elif e == BE_NO_ATTACK:
        _push(Q, qn, E_NEXT, d, 1, K_MISS_ATTACK, 0)
    elif e in (BE_SUBDUED, BE_SUBDUED_CHOKE):
        _push(Q, qn, E_COND, d, 0, C_IMMOB, -1)  # "Subdued", read as Immobilized (setting subdued_condition)
        if e == BE_SUBDUED_CHOKE:
            _choke(P, S, X, cu, Q, qn, d, rs, tr, tn)
    elif e == BE_GRABBED:
        _push(Q, qn, E_COND, d, 0, C_PIMMOB, -1)
    elif e == BE_DISARM:
        _push(Q, qn, E_DROP, d, 0, 0, 0)
    elif e == BE_PERCENT_ONLY:
        _percent(P, pct, rs, tr, tn)
    elif e == BE_PBLIND_TIMED:
        minutes = _dice(rs, B[row, 5], B[row, 6], tr, tn)
        _push(Q, qn, E_COND, d, 0, C_PBLIND, minutes * P[P_ROUNDS_PER_MINUTE])


# ----- applying effects (fold.EventBuilder.effects) -------------------------------------------------------


@_jit()
def _add_condition(cu, cb, t, c, until, batch) -> None:  # noqa: ANN001
    """EventBuilder.add_condition: a condition already there before this batch and lasting as long is
    kept; one added earlier in the same batch is replaced."""
    cur = cu[t, c]
    if cur != NONE and cb[t, c] != batch and (cur == PERM or (until != PERM and cur >= until)):
        return
    cu[t, c] = until
    cb[t, c] = batch


@_jit()
def _set_next(nv, nu, t, k, value, rnd, rounds) -> None:  # noqa: ANN001
    """fold.EventBuilder.set_next: "next Attack" marks last to the attack (fold.ATTACK_SCOPED), others to
    the end of the next round or their own ``rounds``."""
    old = nv[t, k] if (nu[t, k] != NONE and nu[t, k] >= rnd) else 0
    total = value + old
    if total != 0:
        nv[t, k] = total
        if rounds > 0:
            nu[t, k] = rnd + rounds
        elif k in (K_MISS_ATTACK, K_ATTACK):
            nu[t, k] = PERM
        else:
            nu[t, k] = rnd + 1
    else:
        nv[t, k] = 0
        nu[t, k] = NONE


@_jit()
def _next(nv, nu, t, k, rnd) -> int:  # noqa: ANN001
    """fold.next_value."""
    if nu[t, k] != NONE and nu[t, k] >= rnd:
        return nv[t, k]
    return 0


@_jit()
def _apply(S, W, X, cu, cb, nv, nu, Q, qn, RG, rnd, batch, dealt, taken) -> None:  # noqa: ANN001
    """Apply the queued effects in order; effects on a dead target are dropped (fold.EventBuilder)."""
    for k in range(qn[0]):
        kind = Q[k, 0]
        t = Q[k, 1]
        if X[t, 0] == DEAD:
            continue
        if kind == E_MARKERS:
            v = Q[k, 2]
            X[t, 1] += v
            X[t, 2] += 1  # hits
            taken[t] += v
            if Q[k, 3] >= 0:
                dealt[Q[k, 3]] += v
        elif kind == E_COND:
            r = Q[k, 4]
            _add_condition(cu, cb, t, Q[k, 3], PERM if r < 0 else rnd + r, batch)
            if Q[k, 3] == C_KO and X[t, 0] == ACTIVE:
                X[t, 0] = UNCONSCIOUS
        elif kind == E_HURT:
            X[t, 5] += 1
            X[t, 6] += Q[k, 3]
        elif kind == E_BROKEN:
            X[t, 7] += 1
            X[t, X_BROKEN_HANDS] += Q[k, 3]  # an arm or hand
        elif kind == E_REGROW:  # an entry of the regrowing mark: what regrows, at the end of which round
            n = X[t, X_REGROWS]
            if n < RG.shape[1]:
                RG[t, n, 0] = Q[k, 3]
                RG[t, n, 1] = rnd + Q[k, 4]
            X[t, X_REGROWS] = n + 1  # (beyond the room: the fight is handed back at the round's end)
        elif kind == E_LOST_LIMB:  # only an arm or hand is queued (a lost leg changes nothing in a duel)
            X[t, X_LOST_ARM] = 1
        elif kind == E_BLEED:
            X[t, 8] += Q[k, 2]
            death = rnd + Q[k, 4]
            if X[t, 9] == NONE or death < X[t, 9]:
                X[t, 9] = death
        elif kind == E_DEAD:
            X[t, 0] = DEAD
        elif kind == E_NEXT:
            _set_next(nv, nu, t, Q[k, 3], Q[k, 2], rnd, Q[k, 4])
        elif kind == E_DROP:  # a natural weapon (no hands: a bite, claws) is not held, never dropped
            if X[t, 3] != S[t, S_NW] and W[t, X[t, 3], 1] != 0:
                X[t, 3] = S[t, S_NW]
        elif kind == E_STAT:  # Strength (the only one queued): its loss, as the engine's strength_loss
            X[t, 12] -= Q[k, 2]
        elif kind == E_BREAKS:  # a natural weapon (no hands: claws, a bite) never breaks (fold)
            w = X[t, 3]
            nw = S[t, S_NW]
            if w != nw and W[t, w, 1] != 0:
                X[t, 4] |= 1 << w
                spare = nw
                for j in range(nw):
                    if not (X[t, 4] >> j) & 1:
                        spare = j
                        break
                X[t, 3] = spare
    qn[0] = 0


# X[i, ...]: 0 status, 1 markers, 2 hits, 3 weapon, 4 broken weapons (bits), 5 hurt parts, 6 hurt arms/hands,
# 7 broken parts, 8 bleeds, 9 bleed death round, 10 dying round, 11 last attack round, 12 Strength lost,
# 13 the round of its last first strike against a charge
X_LOST_ARM = 14  # MAJOR WOUND TABLE 4 Lost Limb: an arm or hand
X_REGROWS = 15  # entries of the regrowing mark (RG[i, :n]: what regrows and the round at whose end)
X_REROLLED = 16  # failed saves rerolled today
X_BROKEN_HANDS = 17  # broken arms and hands
NX = 18
# what a regrowing entry gives back (REGENERATION): a hurt part, a broken one (+1: an arm or hand)
R_HURT, R_BROKEN = 0, 2
RMAX = 64  # entries a fight keeps; more hand the fight back

# why a fight is handed back to the engine (_run_fight's return; 0: the kernel finished it)
BACK_TWO_HANDED = 1  # one hand left and a two-handed weapon in hand (the tactic falls to the first choice)
BACK_REGROWS = 2  # more regrowing parts than RMAX


@_jit()
def _has(cu, t, c) -> bool:  # noqa: ANN001
    return cu[t, c] != NONE


@_jit()
def _hands(X, t) -> int:  # noqa: ANN001
    """ruleset.hands_left: a lost or broken arm or hand leaves one hand (a second is not the other one)."""
    return 1 if X[t, X_LOST_ARM] or X[t, X_BROKEN_HANDS] > 0 else 2


@_jit()
def _regrow(X, RG, i, rnd) -> None:  # noqa: ANN001
    """ruleset._regrow: each entry whose round has come gives back its part (hurt: its -1, and the weapon
    hand's; broken: its -2, and the hand). Each entry came with its part, and only an entry removes one, so
    the part is there (the engine's ``part in parts``)."""
    n = X[i, X_REGROWS]
    kept = 0
    for j in range(n):
        code = RG[i, j, 0]
        if RG[i, j, 1] > rnd:
            RG[i, kept, 0] = code
            RG[i, kept, 1] = RG[i, j, 1]
            kept += 1
        elif code < R_BROKEN:
            X[i, 5] -= 1
            X[i, 6] -= code - R_HURT
        else:
            X[i, 7] -= 1
            X[i, X_BROKEN_HANDS] -= code - R_BROKEN
    X[i, X_REGROWS] = kept


@_jit()
def _penalty(P, S, X, cu, t, kind) -> int:  # noqa: ANN001
    """procedures.roll_penalties in a duel's states (``kind``: 0 attack, 1 damage, 2 check, 3 save)."""
    p = 0
    if X[t, 1] * 2 > S[t, S_WL]:
        p += P[P_WOUNDED]
    if _has(cu, t, C_STUNNED):
        p += P[P_STUN]
    if _has(cu, t, C_DIZZY):
        p += P[P_DIZZY]
    if _has(cu, t, C_CHOKE):
        p += P[P_CHOKE_ROLLS]
    if kind == 0 and _has(cu, t, C_PBLIND):
        p += P[P_PBLIND_ATTACK]
    p += X[t, 5] * P[P_HURT] + X[t, 7] * P[P_BROKEN]
    if kind == 0:
        p += X[t, 6] * P[P_HURT_LIMB]
    return p


@_jit()
def _defense_next(P, cu, nv, nu, d, rnd) -> int:  # noqa: ANN001
    """The target's Defense change this round (fold.view): a Charge's Defense -4 while it lasts and a
    Stagger's -1 add up (they are separate lines)."""
    if _has(cu, d, C_CHARGING):
        return P[P_CHARGE_DEF] + _next(nv, nu, d, K_DEFENSE, rnd)
    return _next(nv, nu, d, K_DEFENSE, rnd)


@_jit()
def _dyn_attack(P, S, X, cu, nv, nu, a, d, rnd) -> int:  # noqa: ANN001
    """The attack modifiers of the duel's state (procedures.attack_modifiers and defense_modifiers)."""
    mod = _penalty(P, S, X, cu, a, 0)
    if _has(cu, a, C_DOWN):
        mod += P[P_ATT_PRONE]
    if _has(cu, a, C_BLINDED):
        mod += P[P_ATT_BLIND]
    if _has(cu, d, C_DOWN):
        mod += P[P_DEF_PRONE]
    if _has(cu, d, C_BLINDED):
        mod += P[P_DEF_BLIND]
    if _has(cu, d, C_IMMOB):
        mod += P[P_IMMOB_HIT] + S[d, S_DODGE]  # and no Dodge
    elif _has(cu, d, C_PIMMOB):
        mod += P[P_PIMMOB_HIT] + S[d, S_DODGE]
    if _has(cu, a, C_PIMMOB):
        mod += P[P_ATT_PIMMOB]
    if _has(cu, d, C_CHOKE):
        mod += P[P_CHOKE_HIT]
    if _has(cu, a, C_FATIGUED):
        mod += P[P_FATIGUED]
    mod += _next(nv, nu, a, K_ATTACK, rnd) + _next(nv, nu, d, K_FOE_ATTACK, rnd)
    mod -= _defense_next(P, cu, nv, nu, d, rnd)
    return mod


@_jit()
def _brawl_row(P, S, W, B, X, a, wa, rs, tr, tn) -> int:  # noqa: ANN001
    """THE BRAWL RULE, rolled before the attack: this attack's brawl index (B_WEAPON, B_PLAIN or a row)."""
    if not (P[P_BRAWL] and roll(rs, 20, tr, tn) <= P[P_TRIG]):
        return B_WEAPON
    face = roll(rs, 60, tr, tn)
    if face > P[P_NROWS]:
        return B_PLAIN
    row = face
    if B[row, 1]:  # two free hands needed (procedures.two_hand_substitute)
        free = _hands(X, a) - (0 if wa == S[a, S_NW] else W[a, wa, 1]) - S[a, S_SHIELD]
        if free < 2:
            sub = -1
            for j in range(row - 1, 0, -1):
                if not B[j, 1]:
                    sub = j
                    break
            if sub < 0:
                for j in range(row + 1, P[P_NROWS] + 1):
                    if not B[j, 1]:
                        sub = j
                        break
            row = sub
    return row + 1 if row > 0 else B_PLAIN


@_jit()
def _attack(P, S, W, T, M, a, d, wa, wd, act, rnd, tr, tn) -> bool:  # noqa: ANN001, C901, PLR0912, PLR0913
    """One attack of ``a`` on ``d`` with the weapons ``wa`` and ``wd`` (ruleset._attack): the Brawl Rule, the
    attack roll, the damage and what they do, queued in ``Q``. ``T``: the tables (ATK, DMG, AROW, DROW, B);
    ``M``: the fight's arrays (:func:`work`).
    ``act``: 0 attack, 1 Hack and Slash, 2 Mighty Blow, 3 Charge, 4 Close to Attack. Both are read as they
    stand now (a charger's attack after the defender's first strike sees what it did, ruleset._do_charge).
    Returns False to hand the fight back: an attacker with one hand left and a two-handed weapon in hand
    (the tactic's attacks are refused then, ruleset._validate_attack; no die is drawn before)."""
    ATK, DMG, AROW, DROW, B = T
    rs, X, cu, cb, nv, nu, Q, qn, RG, dealt, taken, wounds = M
    if W[a, wa, 1] > 1 and _hands(X, a) < 2:
        return False
    brow = _brawl_row(P, S, W, B, X, a, wa, rs, tr, tn)
    mod = ATK[a, wa, wd, act, brow]
    mod += _dyn_attack(P, S, X, cu, nv, nu, a, d, rnd)
    face = roll(rs, 20, tr, tn)
    arow = AROW[face - 1, min(max(face + mod - P[P_TLO], 0), AROW.shape[1] - 1)]
    if arow == A_LOCKED:
        _push(Q, qn, E_NEXT, d, P[P_LOCKED], K_ATTACK, 1)  # "next round" (procedures.resolve_attack)
    if _next(nv, nu, a, K_ATTACK, rnd):
        nv[a, K_ATTACK] = 0
        nu[a, K_ATTACK] = NONE
    # MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": the foe's next attack
    # only (the engine's foe_bonus_used, 9942b39): read for this one, then spent
    foe_dmg = _next(nv, nu, d, K_FOE_DAMAGE, rnd)
    if _next(nv, nu, d, K_FOE_ATTACK, rnd) or foe_dmg:
        nv[d, K_FOE_ATTACK] = 0
        nv[d, K_FOE_DAMAGE] = 0
    X[a, 11] = rnd
    if arow in (A_HIT, A_CRIT):
        no_damage = False
        if brow >= 2:
            _brawl_effects(P, S, X, cu, B, Q, qn, a, d, brow - 1, rs, tr, tn)
            no_damage = B[brow - 1, 2] != 0
        if not no_damage:
            dm = DMG[a, wa, act, brow] + _penalty(P, S, X, cu, a, 1) + foe_dmg
            if _has(cu, a, C_DOWN):
                dm += P[P_PRONE_DAMAGE]  # KNOCKED DOWN: -2 to all combat rolls (procedures.damage_modifiers)
            if arow == A_CRIT:
                dm += P[P_CRIT]
            dface = roll(rs, 20, tr, tn)
            r = DROW[min(max(dface + dm - P[P_DLO], 0), DROW.shape[0] - 1)]
            # r: 0 markers, 1 wound (0 superficial 1 light 2 heavy 3 mortal), 2 foe fumble die, 3 wound
            # table (1 light, 2 major)
            if r[1] == 1 or r[1] == 2:
                wounds[d] += 1
            if r[1] == 3:
                _push(Q, qn, E_DEAD, d, 0, 0, 0)
            else:
                _push(Q, qn, E_MARKERS, d, r[0], a, 0)
                if r[2]:
                    _fumble(P, S, Q, qn, d, r[2], rs, tr, tn)
                if r[3] == 1:
                    _light_wound(P, S, Q, qn, d, rs, tr, tn)
                elif r[3] == 2:
                    # the weapon's cut only for an attack with it: a brawl, on a row or not, is blunt
                    # (procedures._weapon_used, MAJOR WOUND TABLE 6+)
                    _major_wound(P, S, Q, qn, d, W[a, wa, 2] if brow == B_WEAPON else 0, rs, tr, tn)
                elif r[1] == 2 and P[P_MAJOR_PRONE]:  # 14-16 "Major Wound" (procedures.major_wound_prone)
                    _knocked_down(P, Q, qn, d, rs, tr, tn)
                    _push(Q, qn, E_NEXT, d, 1, K_MISS_ACTION, 0)
                lvl = S[d, S_MINION] if P[P_MINIONS] else 0
                if lvl:
                    severe = (lvl == 2 and (r[1] == 1 or r[1] == 2)) or (lvl == 3 and r[1] == 2)
                    if X[d, 2] + 1 >= lvl or severe:
                        _push(Q, qn, E_DEAD, d, 0, 0, 0)
    elif arow == A_FUMBLE:
        _fumble(P, S, Q, qn, a, 0, rs, tr, tn)
    return True


@_jit()
def _deaths(P, S, X, rnd, rs, tr, tn) -> None:  # noqa: ANN001
    """DEATH BY A THOUSAND CUTS (ruleset._deaths): Minions by hits; at the Wound Level a Heroic character dies
    in 2D6 rounds (fighting on meanwhile), anyone else at once. Called at the start of no batch: the dying
    marks read are those of before it, as the engine reads them."""
    for i in range(2):
        if X[i, 0] == DEAD:
            continue
        lvl = S[i, S_MINION] if P[P_MINIONS] else 0
        if lvl and X[i, 2] >= lvl:
            X[i, 0] = DEAD
            continue
        if X[i, 10] != NONE or X[i, 1] < S[i, S_WL]:
            continue
        if S[i, S_HEROIC]:
            n = _dice(rs, 2, 6, tr, tn)
            X[i, 10] = rnd + n
        else:
            X[i, 0] = DEAD


@_jit(allocates=True)
def work():  # noqa: ANN201
    """The arrays one fight works in, made once per batch."""
    return (
        np.zeros(1, np.uint64),
        np.zeros((2, NX), np.int64),
        np.full((2, NC), NONE, np.int64),
        np.full((2, NC), NONE, np.int64),
        np.zeros((2, NK), np.int64),
        np.full((2, NK), NONE, np.int64),
        np.zeros((QMAX, 5), np.int64),
        np.zeros(1, np.int64),
        np.zeros((2, RMAX, 2), np.int64),
        np.zeros(2, np.int64),
        np.zeros(2, np.int64),
        np.zeros(2, np.int64),
    )


@_jit()
def _result(S, X) -> int:  # noqa: ANN001
    """The engine's end check (engine/play.py): the winning side's index, 3 when nobody stands, -1 while
    both sides have someone active."""
    s0 = X[0, 0] == ACTIVE
    s1 = X[1, 0] == ACTIVE
    if s0 and s1:
        return -1
    if s0:
        return S[0, S_SIDE]
    if s1:
        return S[1, S_SIDE]
    return 3


@_jit()
def _run_fight(P, S, W, T, seed, tr, tn, out, M) -> int:  # noqa: ANN001, C901, PLR0912, PLR0915
    """One fight. Returns 0 when done (``out``: result, round, statuses, markers dealt/taken, Wounds), else
    why the fight needs the engine (``BACK_*``; neither happens in the duels measured). ``M``: work arrays
    (:func:`work`)."""
    rs, X, cu, cb, nv, nu, Q, qn, RG, dealt, taken, wounds = M
    rs[0] = seed
    X[:, :] = 0
    cu[:, :] = NONE
    cb[:, :] = NONE
    nv[:, :] = 0
    nu[:, :] = NONE
    qn[0] = 0
    dealt[:] = 0
    taken[:] = 0
    wounds[:] = 0
    for i in range(2):
        X[i, 3] = 0
        X[i, 9] = NONE
        X[i, 10] = NONE
        X[i, 11] = -99
        X[i, 13] = -99
    max_rounds = P[P_MAX_ROUNDS]
    dist = P[P_DIST0]  # spaces between the two, along a straight line
    batch = 0
    # side order for the whole combat (004 INITIATIVE): 1D20 + the side's lowest Initiative, ties again
    first = 0
    while True:
        f0 = roll(rs, 20, tr, tn) + S[0, S_INIT]
        f1 = roll(rs, 20, tr, tn) + S[1, S_INIT]
        if f0 != f1:
            first = S[0, S_SIDE] if f0 > f1 else S[1, S_SIDE]
            break
    # combatant of the side acting first / second (side 0 is combatant with S_SIDE 0)
    c_first = 0 if S[0, S_SIDE] == first else 1
    result = -1  # side index of the winner, 2 draw, 3 nobody standing
    rnd = 0
    while result < 0:
        rnd += 1
        batch += 1
        # BLEEDING: at the beginning of every round with Bleeds, the Bleed Table (procedures.bleed_roll)
        for i in range(2):
            if X[i, 8] > 0 and (X[i, 0] == ACTIVE or X[i, 0] == UNCONSCIOUS):
                face = roll(rs, 6, tr, tn)
                if face == 1:
                    _push(Q, qn, E_MARKERS, i, 1, -1, 0)
                elif face == 2:
                    n = _dice(rs, 2, 6, tr, tn)
                    _push(Q, qn, E_COND, i, 0, C_KO, n)
                    _push(Q, qn, E_COND, i, 0, C_DOWN, -1)
                elif face == 3:
                    _fumble(P, S, Q, qn, i, 0, rs, tr, tn)
                elif face == 4:
                    # "-2 to all Rolls next Round", rolled at the round's beginning: to the end of this one
                    _push(Q, qn, E_COND, i, 0, C_DIZZY, 0)
                else:
                    _push(Q, qn, E_STAT, i, -1, 0, 0)  # Weakened: Strength -1
                _apply(S, W, X, cu, cb, nv, nu, Q, qn, RG, rnd, batch, dealt, taken)
        # a Bleed's Wound Marker lands at once: DEATH BY A THOUSAND CUTS before anyone acts (as _round_start)
        _deaths(P, S, X, rnd, rs, tr, tn)
        result = _result(S, X)
        if result >= 0:
            break
        for turn in range(2):
            a = c_first if turn == 0 else 1 - c_first
            d = 1 - a
            batch += 1
            cu[a, C_CHARGING] = NONE  # the side's turn begins: a Charge's Defense -4 is over
            batch += 1
            if X[a, 0] == ACTIVE and W[a, X[a, 3], 1] > 1 and _hands(X, a) < 2:
                # one hand left and a two-handed weapon in hand: the tactic's attacks are refused and the
                # first legal choice is played (SasTactic.choose), the engine's (a broken or lost arm or hand
                # drops what is held, so it does not happen in a duel)
                return BACK_TWO_HANDED
            if X[a, 0] == ACTIVE:
                if _next(nv, nu, a, K_MISS_ACTION, rnd):
                    nv[a, K_MISS_ACTION] = 0  # loses this action (fold.consume_next)
                    nu[a, K_MISS_ACTION] = NONE
                elif _has(cu, a, C_IMMOB) or _has(cu, a, C_PIMMOB):
                    # Break Free (default tactic): Hard check + Strength (+ Escape Artist)
                    face = roll(rs, 20, tr, tn)
                    tot = face + S[a, S_BREAK] - X[a, 12] + _penalty(P, S, X, cu, a, 2)
                    if face == 20 or (face != 1 and tot >= P[P_HARD]):
                        cu[a, C_IMMOB] = NONE
                        cu[a, C_PIMMOB] = NONE
                elif _has(cu, a, C_DOWN):
                    # Stand Up (default tactic): Easy check + Swift, -2 per adjacent foe
                    face = roll(rs, 20, tr, tn)
                    tot = face + S[a, S_SWIFT] + _penalty(P, S, X, cu, a, 2)
                    if dist <= 1 and X[d, 0] == ACTIVE and not _has(cu, d, C_KO):
                        tot += P[P_PER_FOE]
                    if face == 20 or (face != 1 and tot >= P[P_EASY]):
                        cu[a, C_DOWN] = NONE
                elif dist > 1:
                    # not engaged (default tactic): Charge if it reaches, else Close to Attack, else Run (not
                    # while Fatigued), else Walk, along the straight line between the two
                    tired = _has(cu, a, C_FATIGUED)
                    if not tired and dist - 1 <= S[a, S_CHARGE]:
                        dist = 1
                        # the Charge's Defense -4 is on the charger from the charge on: the first strike
                        # sees it (CHARGE RULES, ruleset._approach)
                        _add_condition(cu, cb, a, C_CHARGING, PERM, batch)
                        wa0 = X[a, 3]
                        wd0 = X[d, 3]
                        if (
                            W[d, wd0, 3] > W[a, wa0, 3]
                            and X[d, 0] == ACTIVE
                            and not _has(cu, d, C_IMMOB)
                            and X[d, 13] != rnd
                        ):
                            # the defender's longer weapon strikes first, at once (CHARGE RULES)
                            X[d, 13] = rnd
                            ok = _attack(P, S, W, T, M, d, a, wd0, wa0, 0, rnd, tr, tn)
                            if not ok:
                                return BACK_TWO_HANDED
                            _apply(S, W, X, cu, cb, nv, nu, Q, qn, RG, rnd, batch, dealt, taken)
                            _deaths(P, S, X, rnd, rs, tr, tn)
                        if X[a, 0] == ACTIVE and not _has(cu, a, C_DOWN) and X[d, 0] == ACTIVE:
                            # (a first strike that put its own striker out ended the fight: no attack)
                            # the charge's attack, with what the first strike did (a Stun, markers, a
                            # weapon dropped by either, Dazed: the attack lost) as the engine reads it
                            if _next(nv, nu, a, K_MISS_ATTACK, rnd):
                                nv[a, K_MISS_ATTACK] = 0
                                nu[a, K_MISS_ATTACK] = NONE
                                X[a, 11] = rnd
                            else:
                                ok = _attack(P, S, W, T, M, a, d, X[a, 3], X[d, 3], 3, rnd, tr, tn)
                                if not ok:
                                    return BACK_TWO_HANDED
                    elif dist - 1 <= S[a, S_WALK]:
                        dist = 1
                        ok = _attack(P, S, W, T, M, a, d, X[a, 3], X[d, 3], 4, rnd, tr, tn)
                        if not ok:
                            return BACK_TWO_HANDED
                    elif not tired:
                        dist = max(1, dist - S[a, S_RUN])
                        _add_condition(cu, cb, a, C_FATIGUED, rnd + P[P_FATIGUE_ROUNDS], batch)
                    else:
                        dist = max(1, dist - S[a, S_WALK])
                elif X[a, 13] == rnd:
                    pass  # his attack of the round was a first strike at the charge: he does nothing (tactic)
                elif _next(nv, nu, a, K_MISS_ATTACK, rnd):
                    nv[a, K_MISS_ATTACK] = 0  # Dazed, Gut Punch, Monster Fumble: the attack is lost
                    nu[a, K_MISS_ATTACK] = NONE
                    X[a, 11] = rnd
                else:
                    # Continued attack (tactic): Mighty Blow with a Large weapon, else Hack and Slash; a
                    # held foe gets a plain attack
                    wa = X[a, 3]
                    act = 0
                    if X[a, 11] == rnd - 1 and not _has(cu, d, C_IMMOB):
                        act = 2 if W[a, wa, 0] else 1
                    ok = _attack(P, S, W, T, M, a, d, wa, X[d, 3], act, rnd, tr, tn)
                    if not ok:
                        return BACK_TWO_HANDED
            result = _result(S, X)  # a first strike's effects are immediate: the fight may be over already
            if result >= 0:
                break
            # end of the side's turn: its attacks take effect, then DEATH BY A THOUSAND CUTS, REGENERATION
            batch += 1
            last = turn == 1
            _apply(S, W, X, cu, cb, nv, nu, Q, qn, RG, rnd, batch, dealt, taken)
            _deaths(P, S, X, rnd, rs, tr, tn)
            if S[a, S_REGEN] and (X[a, 0] == ACTIVE or X[a, 0] == UNCONSCIOUS) and X[a, 1] > 0:
                if X[a, 10] != NONE and X[a, 1] - 1 < S[a, S_WL]:
                    X[a, 10] = NONE
                X[a, 1] -= 1
            if last:
                for i in range(2):
                    if X[i, X_REGROWS] > RMAX:
                        return BACK_REGROWS  # more parts regrowing than the kernel keeps
                # the end of the round: deaths from wounds and bleeding, durations run out (read after this
                # batch: a condition it renewed lasts to its new end, as in the engine's _round_end)
                for i in range(2):
                    if X[i, 0] == DEAD:
                        continue
                    if X[i, 10] != NONE and X[i, 10] <= rnd:
                        X[i, 0] = DEAD
                        continue
                    if X[i, 9] != NONE and X[i, 9] <= rnd and X[i, 8] > 0:
                        X[i, 0] = DEAD
                        continue
                    if X[i, X_REGROWS]:
                        _regrow(X, RG, i, rnd)  # REGENERATION: parts whose time is up are whole again
                    for c in range(NC):
                        if cu[i, c] != NONE and cu[i, c] != PERM and cu[i, c] <= rnd:
                            cu[i, c] = NONE
                            if c == C_KO and X[i, 0] == UNCONSCIOUS:
                                X[i, 0] = ACTIVE
            result = _result(S, X)
            if result >= 0:
                break
            if last and rnd >= max_rounds:
                result = 2
                break
    out[0] = result
    out[1] = rnd
    for i in range(2):
        out[2 + i] = X[i, 0]
        out[4 + i] = dealt[i]
        out[6 + i] = taken[i]
        out[8 + i] = wounds[i]
    return 0


@_jit(allocates=True, nogil=True)
def run_batch(P, S, W, T, seeds, tally, hist, fallback) -> int:  # noqa: ANN001
    """Every fight of ``seeds``: tallies in ``tally`` (see sas_melee), rounds in ``hist``; the indices of the
    fights handed back in ``fallback``. Returns how many were handed back."""
    tr = np.zeros((2, 0), np.int64)
    tn = np.zeros(1, np.int64)
    out = np.zeros(10, np.int64)
    M = work()
    nf = 0
    for k in range(seeds.shape[0]):
        tn[0] = 0
        if _run_fight(P, S, W, T, seeds[k], tr, tn, out, M):
            fallback[nf] = k
            nf += 1
            continue
        res = out[0]
        tally[res] += 1  # 0 / 1 wins of that side, 2 draws, 3 nobody standing
        hist[out[1]] += 1
        for i in range(2):
            tally[4 + 3 * i + out[2 + i]] += 1  # statuses
            tally[10 + i] += out[4 + i]
            tally[12 + i] += out[6 + i]
            tally[14 + i] += out[8 + i]
    return nf


@_jit(allocates=True)
def trace_fight(P, S, W, T, seed, cap):  # noqa: ANN001, ANN201
    """One fight with its dice: (0 done / 1 handed back, the fight's numbers, the dice (sides, faces))."""
    tr = np.zeros((2, cap), np.int64)
    tn = np.zeros(1, np.int64)
    out = np.zeros(10, np.int64)
    back = _run_fight(P, S, W, T, seed, tr, tn, out, work())
    return back, out, tr[:, : min(tn[0], cap)].copy(), tn[0]
