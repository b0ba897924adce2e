"""The compiled loop of the Spells & Swords duel kernel (numba): one fight after another, scalar code.

Every function here mirrors, for a plain melee duel, a piece of the ``sas`` ruleset (fracas.rules.sas:
``round.py`` for the round, ``attack.py`` and ``actions/`` for the attack, ``procedures/`` for the tables,
``fold.py`` for how effects change a combatant, ``tactics.py`` for the default tactic), and draws its dice
**in the engine's order**, so the engine can replay a kernel fight from its faces (sas_melee.py; the tests
do, face by face: tests/sim/test_sim_sas_kernel.py). A fighter with one hand left (an arm or hand broken or
lost, readers.hands_left) brawls with the hands he has; a regenerator's hurt and broken parts regrow at the
end of their round (REGENERATION, round.regrow). A fight the loop does not finish is handed back with the
faces drawn so far and replayed by the engine (``BACK_*``): one with a two-handed weapon in a single hand (a
broken or lost arm or hand drops what it holds, so a duel does not come to it), one with more parts regrowing
at once than the loop keeps (RMAX).

Four arrays carry everything: ``P``, the encounter's numbers (``P_*``) and tables (the attack and damage
modifiers by weapon, action and brawl row, the ATTACK and DAMAGE TABLE rows by total, the brawl rows) from
the builder (sas_melee.py); ``X``, each combatant's columns (its static numbers ``S_*`` and weapons, then
``X_*`` and the blocks of its conditions, "next" marks and regrowing parts); ``G``, the fight's random stream
and effect queue; ``tr``, the trace of its dice. A call passes each array as a dozen machine words, so the
functions take only those they use. The text's rows are named where they are used (004 =
shared/rules/004_0d1ac50b56c23caf.txt).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fracas.rules.sas.effects import EffectKind


def _jit(allocates: bool = False, **options: bool | str):  # noqa: ANN202
    """numba's ``njit``, cached on disk (beside this file or in the user's cache); compiled in each process
    where no cache can be written. A function that makes no array (``allocates`` False: all but the entry
    points) is compiled without numba's reference counting (``_nrt=False``): the counts an array argument
    costs at every call were, with their atomic instructions, two thirds of the loop's time. Five functions
    LLVM does not inline by itself are inlined by numba (``inline="always"``: _brawl_row, _dyn_attack,
    _apply, _deaths, 25% faster, 5 s more to compile; and _attack, whose call pushed some forty machine words
    and was a tenth of the loop's samples under perf: 3-5% faster, measured side by side)."""

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
# the conditions _penalty reads (X_MASK bits)
M_PENALTY = (1 << C_STUNNED) | (1 << C_DIZZY) | (1 << C_CHOKE) | (1 << C_PBLIND)

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
# brawl row effects (reference 1.2; procedures.brawl.brawl_effects)
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

# X[i, ...]: a combatant's columns; first its static numbers (S_*, copied from the builder's S), then what
# changes during the fight (X_*, and the blocks CU, CB, NV, NU, RG). One array for all of it, and one for the
# fight's stream and effect queue (G): a compiled call passes each array as a dozen words, and the calls of
# this loop once spent most of its time passing some twenty of them.
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
# the bonuses of a Save vs Death (procedures.rolls.save_bonuses: race, calling, Monster Armor)
S_SAVE_DEATH = 15
S_REROLLS = 16  # failed saves it may reroll today (procedures.rolls.save: a Human's 1, reference 2.5)
NS = 17
XW = NS  # the weapons carried, then "unarmed": 4 numbers each (Large, hands, cut, reach)
WMAX = 8  # weapons a combatant may carry (with "unarmed")
NSW = XW + 4 * WMAX  # the static columns

# what changes (reset at the start of each fight)
X_STATUS = NSW  # ACTIVE, UNCONSCIOUS, DEAD
X_MARKERS = NSW + 1  # Wound Markers
X_HITS = NSW + 2  # hits taken (Minions)
X_WEAPON = NSW + 3  # the weapon in hand (index; NW: unarmed)
X_BROKEN_WEAPONS = NSW + 4  # bits
X_HURT = NSW + 5  # hurt parts
X_HURT_HANDS = NSW + 6  # hurt arms and hands
X_BROKEN = NSW + 7  # broken parts
X_BLEEDS = NSW + 8
X_BLEED_DEATH = NSW + 9  # the round it bleeds to death
X_DYING = NSW + 10  # the round it dies of its wounds
X_LAST_ATTACK = NSW + 11  # the round of its last attack (Continued attacks)
X_STRENGTH_LOST = NSW + 12
X_FIRST_STRIKE = NSW + 13  # the round of its last first strike against a charge
X_LOST_ARM = NSW + 14  # MAJOR WOUND TABLE 4 Lost Limb: an arm or hand
X_REGROWS = NSW + 15  # entries of the regrowing mark (RG: what regrows and the round at whose end)
X_REROLLED = NSW + 16  # failed saves rerolled today
X_BROKEN_HANDS = NSW + 17  # broken arms and hands
X_DEALT = NSW + 18  # markers dealt, taken, Wounds taken: the fight's tally
X_TAKEN = NSW + 19
X_WOUNDS = NSW + 20
# bits of the conditions (bit c) and "next" marks (bit NC + k) that may be there: set whenever one is set,
# cleared only where it is removed, so a clear bit means absent (the duel's common case reads one word
# instead of each condition; a kernel that removes without clearing only keeps a bit it need not)
X_MASK = NSW + 21
CU = NSW + 22  # CU + c: the round condition c lasts to (NONE: absent, PERM: until removed)
CB = CU + NC  # CB + c: the batch that added it
NV = CB + NC  # NV + k: a "next" mark's value
NU = NV + NK  # NU + k: the round it lasts to
RG = NU + NK  # RG + 2j, RG + 2j + 1: a regrowing entry (what regrows, the round at whose end)
# what a regrowing entry gives back (REGENERATION): a hurt part, a broken one (+1: an arm or hand)
R_HURT, R_BROKEN = 0, 2
RMAX = 64  # entries a fight keeps; more hand the fight back
NX = RG + 2 * RMAX

# G: the fight's stream, dice drawn and effect queue (QW numbers an effect: kind, target, value, name, rounds)
G_RS, G_TN, G_QN, G_Q = 0, 1, 2, 3
QW = 5
NG = G_Q + QMAX * QW

# why a fight is handed back to the engine (_run_fight's return; 0: the kernel finished it)
BACK_TWO_HANDED = 1  # one hand left and a two-handed weapon in hand (the tactic falls to the first choice)
BACK_REGROWS = 2  # more regrowing parts than RMAX

# the tables in P after its numbers (offsets and sizes in P): ATK, DMG, AROW, DROW, B
P_ATK = NP
P_DMG = NP + 1
P_AROW = NP + 2
P_DROW = NP + 3
P_B = NP + 4
P_MW = NP + 5  # weapons + "unarmed" of the combatant with most
P_NB = NP + 6  # brawl indices (B_WEAPON, B_PLAIN, the rows)
P_ACOLS = NP + 7  # attack totals AROW tabulates
P_DROWS = NP + 8  # damage totals DROW tabulates
NPT = NP + 9  # the tables start here
NACT = 5  # attack kinds (``act`` of _attack)
BW = 7  # numbers a brawl row


@_jit()
def _next64(G: np.ndarray) -> np.uint64:
    """SplitMix64 (Steele, Lea, Flood 2014): one 64-bit word of the fight's stream (kept as int64 bits)."""
    x = np.uint64(G[G_RS]) + np.uint64(0x9E3779B97F4A7C15)
    G[G_RS] = np.int64(x)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_jit()
def roll(G, tr, sides: int) -> int:
    """One die 1..sides (53 random bits scaled: a bias below 1e-14). Traced when ``tr`` has room."""
    z = _next64(G) >> np.uint64(11)
    face = int((z * np.uint64(sides)) >> np.uint64(53)) + 1
    k = G[G_TN]
    if k < tr.shape[1]:
        tr[0, k] = sides
        tr[1, k] = face
    G[G_TN] = k + 1
    return face


@_jit()
def _dice(G, tr, n: int, sides: int) -> int:
    s = 0
    for _ in range(n):
        s += roll(G, tr, sides)
    return s


@_jit()
def _percent(P, G, tr, chance: int) -> bool:
    die = P[P_PERCENT_DIE]
    return roll(G, tr, die) <= chance * die // 100


# ----- the effect queue (held until the side has attacked, 004 INITIATIVE "Simultaneously") -------------


@_jit()
def _push(G, kind: int, tgt: int, val: int, name: int, rounds: int) -> None:
    k = G[G_QN]
    q = G_Q + k * QW
    G[q + 0] = kind
    G[q + 1] = tgt
    G[q + 2] = val
    G[q + 3] = name
    G[q + 4] = rounds
    G[G_QN] = k + 1


@_jit()
def _knocked_down(P, G, tr, t) -> None:  # noqa: ANN001
    """KNOCKED DOWN: prone, and 50% drop whatever is held (procedures.wounds.knocked_down)."""
    _push(G, E_COND, t, 0, C_DOWN, -1)
    if _percent(P, G, tr, P[P_KD_DROP]):
        _push(G, E_DROP, t, 0, 0, 0)


@_jit()
def _knock_out(G, t, rounds) -> None:  # noqa: ANN001
    """KNOCKED OUT, prone, drops the weapon (procedures.wounds.knock_out)."""
    _push(G, E_COND, t, 0, C_KO, rounds)
    _push(G, E_COND, t, 0, C_DOWN, -1)
    _push(G, E_DROP, t, 0, 0, 0)


@_jit()
def _hurt(P, X, G, tr, t, part) -> None:  # noqa: ANN001
    """BODY PART HURT (procedures.wounds.hurt_part): a hurt head is also Stunned 1D4 rounds; a regenerator's
    part regrows in 1D6 minutes (procedures.wounds._regrows)."""
    limb = 1 if (part in (PART_ARM, PART_HAND)) else 0
    _push(G, E_HURT, t, part, limb, 0)  # the part: the group kernel's legs (sas_group_move)
    if part == PART_HEAD:
        _push(G, E_COND, t, 0, C_STUNNED, roll(G, tr, 4))
    if X[t, S_REGEN]:
        _push(G, E_REGROW, t, 0, R_HURT + limb, roll(G, tr, 6) * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _break(P, X, G, tr, t, part) -> None:  # noqa: ANN001
    """BODY PART BROKEN (procedures.wounds.break_part): neck Instant Death, head Skull Crack (1D2 hours), arm
    or hand unusable (the weapon drops)."""
    # name 1: an arm or hand, which leaves one hand (readers.hands_left)
    limb = 1 if (part in (PART_ARM, PART_HAND)) else 0
    _push(G, E_BROKEN, t, part, limb, 0)
    if part == PART_NECK:
        _push(G, E_DEAD, t, 0, 0, 0)
    elif part == PART_HEAD:
        hours = roll(G, tr, 2)
        _knock_out(G, t, hours * 60 * P[P_ROUNDS_PER_MINUTE])
    elif part in (PART_ARM, PART_HAND):
        _push(G, E_DROP, t, 0, 0, 0)
    if X[t, S_REGEN] and part != PART_NECK:  # a regenerator's break regrows in 3D20 minutes
        _push(G, E_REGROW, t, 0, R_BROKEN + limb, _dice(G, tr, 3, 20) * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _light_wound(P, X, G, tr, t) -> None:  # noqa: ANN001
    """LIGHT WOUND TABLE 1D6 (procedures.wounds.light_wound)."""
    face = roll(G, tr, 6)
    if face == 1:
        _knock_out(G, t, _dice(G, tr, 2, 6))
    elif face == 2:
        broken = _percent(P, G, tr, P[P_LIGHT_BROKEN])
        part = roll(G, tr, 10)
        if broken:
            _break(P, X, G, tr, t, part)
        else:
            _hurt(P, X, G, tr, t, part)
    elif face == 3:
        _fumble_row(P, X, G, tr, t, roll(G, tr, 6))  # 1D6 on the Fumble Table
    elif face == 4:
        _push(G, E_NEXT, t, 1, K_MISS_ATTACK, 0)
    elif face == 5:
        _push(G, E_COND, t, 0, C_STUNNED, roll(G, tr, 6))
    # 6 Bad Scar: Appearance only


@_jit()
def _fumble_row(P, X, G, tr, t, face) -> None:  # noqa: ANN001
    """A FUMBLE TABLE (HTH WEAPON) row 1-7 for a humanoid, a MONSTER FUMBLES row for the rest
    (procedures.wounds._fumble_effects); row 8 (Injure Self) is :func:`_fumble`'s."""
    if X[t, S_HUMANOID]:
        if face == 1:
            _push(G, E_DROP, t, 0, 0, 0)
        elif face == 2:
            _push(G, E_BREAKS, t, 0, 0, 0)
        elif face == 3:
            _hurt(P, X, G, tr, t, roll(G, tr, 10))
        elif face == 4:
            _knocked_down(P, G, tr, t)  # and Initiative -1 next round: the order is fixed
        elif face == 5:
            _push(G, E_NEXT, t, 1, K_MISS_ACTION, 0)
        elif face == 6:
            _push(G, E_NEXT, t, P[P_STAGGER_DEF], K_DEFENSE, 0)  # Staggered: cannot move (no move here)
        # 7 Friendly Fire: a duel has no ally to hit
    else:
        if face == 1:
            _push(G, E_NEXT, t, 1, K_MISS_ACTION, 0)
        elif face == 2:
            _push(G, E_NEXT, t, 1, K_MISS_ATTACK, 0)
        elif face == 3:
            _push(G, E_NEXT, t, P[P_MON_ATT], K_ATTACK, 0)
        elif face == 4:
            _push(G, E_NEXT, t, P[P_FOE_ATT], K_FOE_ATTACK, 0)
        elif face == 5:
            _push(G, E_NEXT, t, P[P_FOE_DMG], K_FOE_DAMAGE, 0)
        else:
            _knocked_down(P, G, tr, t)


@_jit()
def _fumble(P, X, G, tr, t, die) -> None:  # noqa: ANN001
    """FUMBLE TABLE (HTH WEAPON) 1D8 for humanoids, MONSTER FUMBLES 1D6 for the rest
    (procedures.wounds.roll_fumble);
    ``die`` 6 for "Foe Rolls 1D6 on Fumble Table" (rows 1-6 only), 0 for the table's own die."""
    face = roll(G, tr, die if die else (8 if X[t, S_HUMANOID] else 6))
    if face == 8 and X[t, S_HUMANOID]:
        _light_wound(P, X, G, tr, t)  # Injure Self
    else:
        _fumble_row(P, X, G, tr, t, face)


@_jit()
def _lost_limb(P, G, tr, t) -> None:  # noqa: ANN001
    if not _percent(P, G, tr, P[P_LEG_PERCENT]):
        _push(G, E_DROP, t, 0, 0, 0)  # an arm or hand: the weapon drops (a leg: Move -4 only)
        _push(G, E_LOST_LIMB, t, 0, 0, 0)  # one hand left
    else:
        _push(G, E_LOST_LIMB, t, 1, 0, 0)  # a leg: Move -4 (read by the group kernel only)


@_jit()
def _bleed(P, G, tr, t) -> None:  # noqa: ANN001
    minutes = _dice(G, tr, 2, 10)
    _push(G, E_BLEED, t, 1, 0, minutes * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _major_wound(P, X, G, tr, t, cut) -> None:  # noqa: ANN001
    """MAJOR WOUND TABLE 1D8 (procedures.wounds.major_wound); ``cut`` 0 blunt, 1 cut, 2 impale for 6+."""
    face = roll(G, tr, 8)
    if face == 1:
        _break(P, X, G, tr, t, roll(G, tr, 10))
    elif face == 2:
        _push(G, E_COND, t, 0, C_PBLIND, -1)
    elif face == 3:
        hours = roll(G, tr, 2)
        _knock_out(G, t, hours * 60 * P[P_ROUNDS_PER_MINUTE])
    elif face == 4:
        _lost_limb(P, G, tr, t)
    elif face == 5:
        _bleed(P, G, tr, t)
    else:
        if cut == 0:
            _break(P, X, G, tr, t, roll(G, tr, 10))
        elif cut == 1:
            _lost_limb(P, G, tr, t)
        else:
            _bleed(P, G, tr, t)
    if P[P_MAJOR_PRONE]:
        _knocked_down(P, G, tr, t)
        _push(G, E_NEXT, t, 1, K_MISS_ACTION, 0)


@_jit()
def _choke(P, X, G, tr, t) -> None:  # noqa: ANN001
    """CHOKE (procedures.wounds.choke): Save vs Death at the choking -1, or Knocked Out 1D10 minutes."""
    mods = X[t, S_SAVE_DEATH] + _penalty(P, X, t, 3) + P[P_CHOKE_ROLLS]
    face = roll(G, tr, 20)
    made = face == 20 or (face != 1 and face + mods >= P[P_SAVE])
    if not made and X[t, X_REROLLED] < X[t, S_REROLLS]:  # a Human rerolls one failed save a day
        X[t, X_REROLLED] += 1
        face = roll(G, tr, 20)
        made = face == 20 or (face != 1 and face + mods >= P[P_SAVE])
    _push(G, E_COND, t, 0, C_CHOKE, -1)
    if not made:
        minutes = roll(G, tr, 10)
        _knock_out(G, t, minutes * P[P_ROUNDS_PER_MINUTE])


@_jit()
def _b(P, row, f) -> int:  # noqa: ANN001
    """Number ``f`` of brawl row ``row`` (the builder's B)."""
    return P[P[P_B] + row * BW + f]


@_jit()
def _brawl_effects(P, X, G, tr, a, d, row) -> None:  # noqa: ANN001
    """The on-hit effect of a Random Brawl Attacks row (procedures.brawl.brawl_effects)."""
    e = _b(P, row, 0)
    pct = _b(P, row, 3)
    part = _b(P, row, 4)
    if e == BE_INIT:
        _percent(P, G, tr, pct)  # Initiative -1 next round: the side order is fixed
    elif e == BE_BREAK:
        _break(P, X, G, tr, d, part)
    elif e == BE_HURT:
        _hurt(P, X, G, tr, d, part)
    elif e == BE_HURT_OR_BREAK:
        if _percent(P, G, tr, pct):
            _break(P, X, G, tr, d, part)
        else:
            _hurt(P, X, G, tr, d, part)
    elif e == BE_PRONE_DISTRACTED:
        n = _dice(G, tr, _b(P, row, 5), _b(P, row, 6))
        _push(G, E_COND, d, 0, C_DOWN, -1)
        _push(G, E_COND, d, 0, C_DISTRACTED, n)
    elif e == BE_PBLIND:
        _push(G, E_COND, d, 0, C_PBLIND, -1)
        _percent(P, G, tr, pct)  # permanent or not: no difference within a fight
    elif e == BE_BLINDED:
        _push(G, E_COND, d, 0, C_BLINDED, -1)
    elif e == BE_STUNNED:
        _push(G, E_COND, d, 0, C_STUNNED, _dice(G, tr, _b(P, row, 5), _b(P, row, 6)))
    elif e == BE_BOTH_STUNNED:
        _push(G, E_COND, a, 0, C_STUNNED, _dice(G, tr, _b(P, row, 5), _b(P, row, 6)))
        _push(G, E_COND, d, 0, C_STUNNED, _dice(G, tr, _b(P, row, 5), _b(P, row, 6)))
    elif e == BE_NO_ATTACK:
        _push(G, E_NEXT, d, 1, K_MISS_ATTACK, 0)
    elif e in (BE_SUBDUED, BE_SUBDUED_CHOKE):
        _push(G, E_COND, d, 0, C_IMMOB, -1)  # "Subdued", read as Immobilized (setting subdued_condition)
        if e == BE_SUBDUED_CHOKE:
            _choke(P, X, G, tr, d)
    elif e == BE_GRABBED:
        _push(G, E_COND, d, 0, C_PIMMOB, -1)
    elif e == BE_DISARM:
        _push(G, E_DROP, d, 0, 0, 0)
    elif e == BE_PERCENT_ONLY:
        _percent(P, G, tr, pct)
    elif e == BE_PBLIND_TIMED:
        minutes = _dice(G, tr, _b(P, row, 5), _b(P, row, 6))
        _push(G, E_COND, d, 0, C_PBLIND, minutes * P[P_ROUNDS_PER_MINUTE])


# ----- applying effects (fold.EventBuilder.effects) -------------------------------------------------------


@_jit()
def _add_condition(X, t, c, until, batch) -> None:  # noqa: ANN001
    """EventBuilder.add_condition: a condition already there before this batch and lasting as long is
    kept; one added earlier in the same batch is replaced."""
    cur = X[t, CU + c]
    if cur != NONE and X[t, CB + c] != batch and (cur == PERM or (until != PERM and cur >= until)):
        return
    X[t, CU + c] = until
    X[t, CB + c] = batch
    X[t, X_MASK] |= 1 << c


@_jit()
def _set_next(X, t, k, value, rnd, rounds) -> None:  # noqa: ANN001
    """fold.EventBuilder.set_next: "next Attack" marks last to the attack (fold.ATTACK_SCOPED), others to
    the end of the next round or their own ``rounds``."""
    old = X[t, NV + k] if (X[t, NU + k] != NONE and X[t, NU + k] >= rnd) else 0
    total = value + old
    if total != 0:
        X[t, NV + k] = total
        if rounds > 0:
            X[t, NU + k] = rnd + rounds
        elif k in (K_MISS_ATTACK, K_ATTACK):
            X[t, NU + k] = PERM
        else:
            X[t, NU + k] = rnd + 1
        X[t, X_MASK] |= 1 << (NC + k)
    else:
        X[t, NV + k] = 0
        X[t, NU + k] = NONE
        X[t, X_MASK] &= ~(1 << (NC + k))


@_jit()
def _next(X, t, k, rnd) -> int:  # noqa: ANN001
    """fold.next_value."""
    if X[t, NU + k] != NONE and X[t, NU + k] >= rnd:
        return X[t, NV + k]
    return 0


@_jit(inline="always")
def _apply(X, G, rnd, batch) -> None:  # noqa: ANN001
    """Apply the queued effects in order; effects on a dead target are dropped (fold.EventBuilder)."""
    for k in range(G[G_QN]):
        q = G_Q + k * QW
        kind = G[q + 0]
        t = G[q + 1]
        if X[t, X_STATUS] == DEAD:
            continue
        if kind == E_MARKERS:
            v = G[q + 2]
            X[t, X_MARKERS] += v
            X[t, X_HITS] += 1  # hits
            X[t, X_TAKEN] += v
            if G[q + 3] >= 0:
                X[G[q + 3], X_DEALT] += v
        elif kind == E_COND:
            r = G[q + 4]
            _add_condition(X, t, G[q + 3], PERM if r < 0 else rnd + r, batch)
            if G[q + 3] == C_KO and X[t, X_STATUS] == ACTIVE:
                X[t, X_STATUS] = UNCONSCIOUS
        elif kind == E_HURT:
            X[t, X_HURT] += 1
            X[t, X_HURT_HANDS] += G[q + 3]
        elif kind == E_BROKEN:
            X[t, X_BROKEN] += 1
            X[t, X_BROKEN_HANDS] += G[q + 3]  # an arm or hand
        elif kind == E_REGROW:  # an entry of the regrowing mark: what regrows, at the end of which round
            n = X[t, X_REGROWS]
            if n < RMAX:
                X[t, RG + 2 * n + 0] = G[q + 3]
                X[t, RG + 2 * n + 1] = rnd + G[q + 4]
            X[t, X_REGROWS] = n + 1  # (beyond the room: the fight is handed back at the round's end)
        elif kind == E_LOST_LIMB:  # an arm or hand (a lost leg, value 1, changes nothing in a duel)
            if G[q + 2] == 0:
                X[t, X_LOST_ARM] = 1
        elif kind == E_BLEED:
            X[t, X_BLEEDS] += G[q + 2]
            death = rnd + G[q + 4]
            if X[t, X_BLEED_DEATH] == NONE or death < X[t, X_BLEED_DEATH]:
                X[t, X_BLEED_DEATH] = death
        elif kind == E_DEAD:
            X[t, X_STATUS] = DEAD
        elif kind == E_NEXT:
            _set_next(X, t, G[q + 3], G[q + 2], rnd, G[q + 4])
        elif kind == E_DROP:  # a natural weapon (no hands: a bite, claws) is not held, never dropped
            if X[t, X_WEAPON] != X[t, S_NW] and X[t, XW + 4 * X[t, X_WEAPON] + 1] != 0:
                X[t, X_WEAPON] = X[t, S_NW]
        elif kind == E_STAT:  # Strength (the only one queued): its loss, as the engine's strength_loss
            X[t, X_STRENGTH_LOST] -= G[q + 2]
        elif kind == E_BREAKS:  # a natural weapon (no hands: claws, a bite) never breaks (fold)
            w = X[t, X_WEAPON]
            nw = X[t, S_NW]
            if w != nw and X[t, XW + 4 * w + 1] != 0:
                X[t, X_BROKEN_WEAPONS] |= 1 << w
                spare = nw
                for j in range(nw):
                    if not (X[t, X_BROKEN_WEAPONS] >> j) & 1:
                        spare = j
                        break
                X[t, X_WEAPON] = spare
    G[G_QN] = 0


@_jit()
def _has(X, t, c) -> bool:  # noqa: ANN001
    return X[t, CU + c] != NONE


@_jit()
def _hands(X, t) -> int:  # noqa: ANN001
    """readers.hands_left: a lost or broken arm or hand leaves one hand (a second is not the other one)."""
    return 1 if X[t, X_LOST_ARM] or X[t, X_BROKEN_HANDS] > 0 else 2


@_jit()
def _regrow(X, i, rnd) -> None:  # noqa: ANN001
    """round.regrow: each entry whose round has come gives back its part (hurt: its -1, and the weapon
    hand's; broken: its -2, and the hand). Each entry came with its part, and only an entry removes one, so
    the part is there (the engine's ``part in parts``)."""
    n = X[i, X_REGROWS]
    kept = 0
    for j in range(n):
        code = X[i, RG + 2 * j + 0]
        if X[i, RG + 2 * j + 1] > rnd:
            X[i, RG + 2 * kept + 0] = code
            X[i, RG + 2 * kept + 1] = X[i, RG + 2 * j + 1]
            kept += 1
        elif code < R_BROKEN:
            X[i, X_HURT] -= 1
            X[i, X_HURT_HANDS] -= code - R_HURT
        else:
            X[i, X_BROKEN] -= 1
            X[i, X_BROKEN_HANDS] -= code - R_BROKEN
    X[i, X_REGROWS] = kept


@_jit()
def _penalty(P, X, t, kind) -> int:  # noqa: ANN001
    """procedures.rolls.roll_penalties in a duel's states (``kind``: 0 attack, 1 damage, 2 check, 3 save)."""
    p = 0
    if X[t, X_MARKERS] * 2 > X[t, S_WL]:
        p += P[P_WOUNDED]
    if X[t, X_MASK] & M_PENALTY:
        if _has(X, t, C_STUNNED):
            p += P[P_STUN]
        if _has(X, t, C_DIZZY):
            p += P[P_DIZZY]
        if _has(X, t, C_CHOKE):
            p += P[P_CHOKE_ROLLS]
        if kind == 0 and _has(X, t, C_PBLIND):
            p += P[P_PBLIND_ATTACK]
    p += X[t, X_HURT] * P[P_HURT] + X[t, X_BROKEN] * P[P_BROKEN]
    if kind == 0:
        p += X[t, X_HURT_HANDS] * P[P_HURT_LIMB]
    return p


@_jit()
def _defense_next(P, X, d, rnd) -> int:  # noqa: ANN001
    """The target's Defense change this round (fold.view): a Charge's Defense -4 while it lasts and a
    Stagger's -1 add up (they are separate lines)."""
    if _has(X, d, C_CHARGING):
        return P[P_CHARGE_DEF] + _next(X, d, K_DEFENSE, rnd)
    return _next(X, d, K_DEFENSE, rnd)


@_jit(inline="always")
def _dyn_attack(P, X, a, d, rnd) -> int:  # noqa: ANN001
    """The attack modifiers of the duel's state (procedures.attack.attack_modifiers and defense_modifiers)."""
    mod = _penalty(P, X, a, 0)
    if not (X[a, X_MASK] | X[d, X_MASK]):
        return mod  # no condition nor mark on either
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
    mod += _next(X, a, K_ATTACK, rnd) + _next(X, d, K_FOE_ATTACK, rnd)
    mod -= _defense_next(P, X, d, rnd)
    return mod


@_jit(inline="always")
def _brawl_row(P, X, G, tr, a, wa) -> int:  # noqa: ANN001
    """THE BRAWL RULE, rolled before the attack: this attack's brawl index (B_WEAPON, B_PLAIN or a row)."""
    if not (P[P_BRAWL] and roll(G, tr, 20) <= P[P_TRIG]):
        return B_WEAPON
    face = roll(G, tr, 60)
    if face > P[P_NROWS]:
        return B_PLAIN
    row = face
    if _b(P, row, 1):  # two free hands needed (procedures.brawl.two_hand_substitute)
        free = _hands(X, a) - (0 if wa == X[a, S_NW] else X[a, XW + 4 * wa + 1]) - X[a, S_SHIELD]
        if free < 2:
            sub = -1
            for j in range(row - 1, 0, -1):
                if not _b(P, j, 1):
                    sub = j
                    break
            if sub < 0:
                for j in range(row + 1, P[P_NROWS] + 1):
                    if not _b(P, j, 1):
                        sub = j
                        break
            row = sub
    return row + 1 if row > 0 else B_PLAIN


@_jit(inline="always")
def _attack(P, X, G, tr, a, d, wa, wd, act, rnd) -> bool:  # noqa: ANN001, C901, PLR0912, PLR0913
    """One attack of ``a`` on ``d`` with the weapons ``wa`` and ``wd`` (attack.attack): the Brawl Rule, the
    attack roll, the damage and what they do, queued in ``G``.
    ``act``: 0 attack, 1 Hack and Slash, 2 Mighty Blow, 3 Charge, 4 Close to Attack. Both are read as they
    stand now (a charger's attack after the defender's first strike sees what it did, actions.charge._charge).
    Returns False to hand the fight back: an attacker with one hand left and a two-handed weapon in hand
    (the tactic's attacks are refused then, validate._validate_attack; no die is drawn before)."""
    if X[a, XW + 4 * wa + 1] > 1 and _hands(X, a) < 2:
        return False
    brow = _brawl_row(P, X, G, tr, a, wa)
    mw = P[P_MW]
    nb = P[P_NB]
    mod = P[P[P_ATK] + (((a * mw + wa) * mw + wd) * NACT + act) * nb + brow]
    mod += _dyn_attack(P, X, a, d, rnd)
    face = roll(G, tr, 20)
    ncol = P[P_ACOLS]
    arow = P[P[P_AROW] + (face - 1) * ncol + min(max(face + mod - P[P_TLO], 0), ncol - 1)]
    if arow == A_LOCKED:
        _push(G, E_NEXT, d, P[P_LOCKED], K_ATTACK, 1)  # "next round" (procedures.attack.resolve_attack)
    if X[a, X_MASK] and _next(X, a, K_ATTACK, rnd):
        X[a, NV + K_ATTACK] = 0
        X[a, NU + K_ATTACK] = NONE
        X[a, X_MASK] &= ~(1 << (NC + K_ATTACK))
    # MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": the foe's next attack
    # only (the engine's foe_bonus_used, 9942b39): read for this one, then spent
    foe_dmg = 0
    if X[d, X_MASK]:
        foe_dmg = _next(X, d, K_FOE_DAMAGE, rnd)
        if _next(X, d, K_FOE_ATTACK, rnd) or foe_dmg:
            X[d, NV + K_FOE_ATTACK] = 0
            X[d, NV + K_FOE_DAMAGE] = 0
    X[a, X_LAST_ATTACK] = rnd
    if arow in (A_HIT, A_CRIT):
        no_damage = False
        if brow >= 2:
            _brawl_effects(P, X, G, tr, a, d, brow - 1)
            no_damage = _b(P, brow - 1, 2) != 0
        if not no_damage:
            dm = P[P[P_DMG] + ((a * mw + wa) * NACT + act) * nb + brow] + _penalty(P, X, a, 1) + foe_dmg
            if _has(X, a, C_DOWN):
                # KNOCKED DOWN: -2 to all combat rolls (procedures.damage.damage_modifiers)
                dm += P[P_PRONE_DAMAGE]
            if arow == A_CRIT:
                dm += P[P_CRIT]
            dface = roll(G, tr, 20)
            r = P[P_DROW] + 4 * min(max(dface + dm - P[P_DLO], 0), P[P_DROWS] - 1)
            # P[r + ...]: 0 markers, 1 wound (0 superficial 1 light 2 heavy 3 mortal), 2 foe fumble die,
            # 3 wound table (1 light, 2 major)
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
                    # the weapon's cut only for an attack with it: a brawl, on a row or not, is blunt
                    # (procedures.attack.weapon_used, MAJOR WOUND TABLE 6+)
                    _major_wound(P, X, G, tr, d, X[a, XW + 4 * wa + 2] if brow == B_WEAPON else 0)
                elif P[r + 1] == 2 and P[P_MAJOR_PRONE]:  # 14-16 "Major Wound" (wounds.major_wound_prone)
                    _knocked_down(P, G, tr, d)
                    _push(G, E_NEXT, d, 1, K_MISS_ACTION, 0)
                lvl = X[d, S_MINION] if P[P_MINIONS] else 0
                if lvl:
                    severe = (lvl == 2 and (P[r + 1] == 1 or P[r + 1] == 2)) or (lvl == 3 and P[r + 1] == 2)
                    if X[d, X_HITS] + 1 >= lvl or severe:
                        _push(G, E_DEAD, d, 0, 0, 0)
    elif arow == A_FUMBLE:
        _fumble(P, X, G, tr, a, 0)
    return True


@_jit(inline="always")
def _deaths(P, X, G, tr, rnd) -> None:  # noqa: ANN001
    """DEATH BY A THOUSAND CUTS (round.deaths): Minions by hits; at the Wound Level a Heroic character dies
    in 2D6 rounds (fighting on meanwhile), anyone else at once. Called at the start of no batch: the dying
    marks read are those of before it, as the engine reads them."""
    for i in range(2):
        if X[i, X_STATUS] == DEAD:
            continue
        lvl = X[i, S_MINION] if P[P_MINIONS] else 0
        if lvl and X[i, X_HITS] >= lvl:
            X[i, X_STATUS] = DEAD
            continue
        if X[i, X_DYING] != NONE or X[i, X_MARKERS] < X[i, S_WL]:
            continue
        if X[i, S_HEROIC]:
            n = _dice(G, tr, 2, 6)
            X[i, X_DYING] = rnd + n
        else:
            X[i, X_STATUS] = DEAD


@_jit(allocates=True)
def work(S):  # noqa: ANN001, ANN201
    """The arrays one fight works in, made once per batch: X with the combatants' static columns (``S``,
    the builder's), G."""
    X = np.zeros((2, NX), np.int64)
    X[:, :NSW] = S
    return X, np.zeros(NG, np.int64)


@_jit()
def _result(X) -> int:  # noqa: ANN001
    """The engine's end check (engine/play.py): the winning side's index, 3 when nobody stands, -1 while
    both sides have someone active."""
    s0 = X[0, X_STATUS] == ACTIVE
    s1 = X[1, X_STATUS] == ACTIVE
    if s0 and s1:
        return -1
    if s0:
        return X[0, S_SIDE]
    if s1:
        return X[1, S_SIDE]
    return 3


@_jit()
def _run_fight(P, X, G, tr, seed, out) -> int:  # noqa: ANN001, C901, PLR0912, PLR0915
    """One fight of stream ``seed``. Returns 0 when done (``out``: result, round, statuses, markers
    dealt/taken, Wounds), else why the fight needs the engine (``BACK_*``; neither happens in the duels
    measured). ``X``, ``G``: the work arrays (:func:`work`)."""
    G[G_RS] = np.int64(seed)
    G[G_QN] = 0
    for i in range(2):
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
    max_rounds = P[P_MAX_ROUNDS]
    dist = P[P_DIST0]  # spaces between the two, along a straight line
    batch = 0
    # side order for the whole combat (004 INITIATIVE): 1D20 + the side's lowest Initiative, ties again
    first = 0
    while True:
        f0 = roll(G, tr, 20) + X[0, S_INIT]
        f1 = roll(G, tr, 20) + X[1, S_INIT]
        if f0 != f1:
            first = X[0, S_SIDE] if f0 > f1 else X[1, S_SIDE]
            break
    # combatant of the side acting first / second (side 0 is combatant with S_SIDE 0)
    c_first = 0 if X[0, S_SIDE] == first else 1
    result = -1  # side index of the winner, 2 draw, 3 nobody standing
    rnd = 0
    while result < 0:
        rnd += 1
        batch += 1
        # BLEEDING: at the beginning of every round with Bleeds, the Bleed Table
        # (procedures.wounds.bleed_roll)
        for i in range(2):
            if X[i, X_BLEEDS] > 0 and (X[i, X_STATUS] == ACTIVE or X[i, X_STATUS] == UNCONSCIOUS):
                face = roll(G, tr, 6)
                if face == 1:
                    _push(G, E_MARKERS, i, 1, -1, 0)
                elif face == 2:
                    n = _dice(G, tr, 2, 6)
                    _push(G, E_COND, i, 0, C_KO, n)
                    _push(G, E_COND, i, 0, C_DOWN, -1)
                elif face == 3:
                    _fumble(P, X, G, tr, i, 0)
                elif face == 4:
                    # "-2 to all Rolls next Round", rolled at the round's beginning: to the end of this one
                    _push(G, E_COND, i, 0, C_DIZZY, 0)
                else:
                    _push(G, E_STAT, i, -1, 0, 0)  # Weakened: Strength -1
                _apply(X, G, rnd, batch)
        # a Bleed's Wound Marker lands at once: DEATH BY A THOUSAND CUTS before anyone acts (as
        # round.round_start)
        _deaths(P, X, G, tr, rnd)
        result = _result(X)
        if result >= 0:
            break
        for turn in range(2):
            a = c_first if turn == 0 else 1 - c_first
            d = 1 - a
            batch += 1
            X[a, CU + C_CHARGING] = NONE  # the side's turn begins: a Charge's Defense -4 is over
            X[a, X_MASK] &= ~(1 << C_CHARGING)
            batch += 1
            if X[a, X_STATUS] == ACTIVE and X[a, XW + 4 * X[a, X_WEAPON] + 1] > 1 and _hands(X, a) < 2:
                # one hand left and a two-handed weapon in hand: the tactic's attacks are refused and the
                # first legal choice is played (SasTactic.choose), the engine's (a broken or lost arm or hand
                # drops what is held, so it does not happen in a duel)
                return BACK_TWO_HANDED
            if X[a, X_STATUS] == ACTIVE:
                ma = X[a, X_MASK]  # (each test of a condition or mark below first asks whether any is there)
                if ma and _next(X, a, K_MISS_ACTION, rnd):
                    X[a, NV + K_MISS_ACTION] = 0  # loses this action (fold.consume_next)
                    X[a, NU + K_MISS_ACTION] = NONE
                    X[a, X_MASK] &= ~(1 << (NC + K_MISS_ACTION))
                elif ma and (_has(X, a, C_IMMOB) or _has(X, a, C_PIMMOB)):
                    # Break Free (default tactic): Hard check + Strength (+ Escape Artist)
                    face = roll(G, tr, 20)
                    tot = face + X[a, S_BREAK] - X[a, X_STRENGTH_LOST] + _penalty(P, X, a, 2)
                    if face == 20 or (face != 1 and tot >= P[P_HARD]):
                        X[a, CU + C_IMMOB] = NONE
                        X[a, CU + C_PIMMOB] = NONE
                        X[a, X_MASK] &= ~((1 << C_IMMOB) | (1 << C_PIMMOB))
                elif ma and _has(X, a, C_DOWN):
                    # Stand Up (default tactic): Easy check + Swift, -2 per adjacent foe
                    face = roll(G, tr, 20)
                    tot = face + X[a, S_SWIFT] + _penalty(P, X, a, 2)
                    if dist <= 1 and X[d, X_STATUS] == ACTIVE and not _has(X, d, C_KO):
                        tot += P[P_PER_FOE]
                    if face == 20 or (face != 1 and tot >= P[P_EASY]):
                        X[a, CU + C_DOWN] = NONE
                        X[a, X_MASK] &= ~(1 << C_DOWN)
                elif dist > 1:
                    # not engaged (default tactic): Charge if it reaches, else Close to Attack, else Run (not
                    # while Fatigued), else Walk, along the straight line between the two
                    tired = _has(X, a, C_FATIGUED)
                    if not tired and dist - 1 <= X[a, S_CHARGE]:
                        dist = 1
                        # the Charge's Defense -4 is on the charger from the charge on: the first strike
                        # sees it (CHARGE RULES, actions.charge._approach)
                        _add_condition(X, a, C_CHARGING, PERM, batch)
                        wa0 = X[a, X_WEAPON]
                        wd0 = X[d, X_WEAPON]
                        if (
                            X[d, XW + 4 * wd0 + 3] > X[a, XW + 4 * wa0 + 3]
                            and X[d, X_STATUS] == ACTIVE
                            and not _has(X, d, C_IMMOB)
                            and X[d, X_FIRST_STRIKE] != rnd
                        ):
                            # the defender's longer weapon strikes first, at once (CHARGE RULES)
                            X[d, X_FIRST_STRIKE] = rnd
                            ok = _attack(P, X, G, tr, d, a, wd0, wa0, 0, rnd)
                            if not ok:
                                return BACK_TWO_HANDED
                            _apply(X, G, rnd, batch)
                            _deaths(P, X, G, tr, rnd)
                        if X[a, X_STATUS] == ACTIVE and not _has(X, a, C_DOWN) and X[d, X_STATUS] == ACTIVE:
                            # (a first strike that put its own striker out ended the fight: no attack)
                            # the charge's attack, with what the first strike did (a Stun, markers, a
                            # weapon dropped by either, Dazed: the attack lost) as the engine reads it
                            if _next(X, a, K_MISS_ATTACK, rnd):
                                X[a, NV + K_MISS_ATTACK] = 0
                                X[a, NU + K_MISS_ATTACK] = NONE
                                X[a, X_MASK] &= ~(1 << (NC + K_MISS_ATTACK))
                                X[a, X_LAST_ATTACK] = rnd
                            else:
                                ok = _attack(P, X, G, tr, a, d, X[a, X_WEAPON], X[d, X_WEAPON], 3, rnd)
                                if not ok:
                                    return BACK_TWO_HANDED
                    elif dist - 1 <= X[a, S_WALK]:
                        dist = 1
                        ok = _attack(P, X, G, tr, a, d, X[a, X_WEAPON], X[d, X_WEAPON], 4, rnd)
                        if not ok:
                            return BACK_TWO_HANDED
                    elif not tired:
                        dist = max(1, dist - X[a, S_RUN])
                        _add_condition(X, a, C_FATIGUED, rnd + P[P_FATIGUE_ROUNDS], batch)
                    else:
                        dist = max(1, dist - X[a, S_WALK])
                elif X[a, X_FIRST_STRIKE] == rnd:
                    pass  # his attack of the round was a first strike at the charge: he does nothing (tactic)
                elif ma and _next(X, a, K_MISS_ATTACK, rnd):
                    X[a, NV + K_MISS_ATTACK] = 0  # Dazed, Gut Punch, Monster Fumble: the attack is lost
                    X[a, NU + K_MISS_ATTACK] = NONE
                    X[a, X_MASK] &= ~(1 << (NC + K_MISS_ATTACK))
                    X[a, X_LAST_ATTACK] = rnd
                else:
                    # Continued attack (tactic): Mighty Blow with a Large weapon, else Hack and Slash; a
                    # held foe gets a plain attack
                    wa = X[a, X_WEAPON]
                    act = 0
                    if X[a, X_LAST_ATTACK] == rnd - 1 and not (X[d, X_MASK] and _has(X, d, C_IMMOB)):
                        act = 2 if X[a, XW + 4 * wa + 0] else 1
                    ok = _attack(P, X, G, tr, a, d, wa, X[d, X_WEAPON], act, rnd)
                    if not ok:
                        return BACK_TWO_HANDED
            result = _result(X)  # a first strike's effects are immediate: the fight may be over already
            if result >= 0:
                break
            # end of the side's turn: its attacks take effect, then DEATH BY A THOUSAND CUTS, REGENERATION
            batch += 1
            last = turn == 1
            _apply(X, G, rnd, batch)
            _deaths(P, X, G, tr, rnd)
            if (
                X[a, S_REGEN]
                and (X[a, X_STATUS] == ACTIVE or X[a, X_STATUS] == UNCONSCIOUS)
                and X[a, X_MARKERS] > 0
            ):
                if X[a, X_DYING] != NONE and X[a, X_MARKERS] - 1 < X[a, S_WL]:
                    X[a, X_DYING] = NONE
                X[a, X_MARKERS] -= 1
            if last:
                for i in range(2):
                    if X[i, X_REGROWS] > RMAX:
                        return BACK_REGROWS  # more parts regrowing than the kernel keeps
                # the end of the round: deaths from wounds and bleeding, durations run out (read after this
                # batch: a condition it renewed lasts to its new end, as in the engine's round.round_end)
                for i in range(2):
                    if X[i, X_STATUS] == DEAD:
                        continue
                    if X[i, X_DYING] != NONE and X[i, X_DYING] <= rnd:
                        X[i, X_STATUS] = DEAD
                        continue
                    if X[i, X_BLEED_DEATH] != NONE and X[i, X_BLEED_DEATH] <= rnd and X[i, X_BLEEDS] > 0:
                        X[i, X_STATUS] = DEAD
                        continue
                    if X[i, X_REGROWS]:
                        _regrow(X, i, rnd)  # REGENERATION: parts whose time is up are whole again
                    m = X[i, X_MASK]
                    if not m:
                        continue
                    for c in range(NC):
                        if X[i, CU + c] != NONE and X[i, CU + c] != PERM and X[i, CU + c] <= rnd:
                            X[i, CU + c] = NONE
                            m &= ~(1 << c)
                            if c == C_KO and X[i, X_STATUS] == UNCONSCIOUS:
                                X[i, X_STATUS] = ACTIVE
                    for k in range(NK):  # a mark whose round is over is read as none from now on: remove it
                        if X[i, NU + k] != NONE and X[i, NU + k] <= rnd:
                            X[i, NV + k] = 0
                            X[i, NU + k] = NONE
                            m &= ~(1 << (NC + k))
                    X[i, X_MASK] = m
            result = _result(X)
            if result >= 0:
                break
            if last and rnd >= max_rounds:
                result = 2
                break
    out[0] = result
    out[1] = rnd
    for i in range(2):
        out[2 + i] = X[i, X_STATUS]
        out[4 + i] = X[i, X_DEALT]
        out[6 + i] = X[i, X_TAKEN]
        out[8 + i] = X[i, X_WOUNDS]
    return 0


@_jit(allocates=True, nogil=True)
def run_batch(P, S, seeds, tally, hist, fallback) -> int:  # noqa: ANN001
    """Every fight of ``seeds``: tallies in ``tally`` (see sas_melee), rounds in ``hist``; the indices of the
    fights handed back in ``fallback``. Returns how many were handed back."""
    tr = np.zeros((2, 0), np.int64)
    out = np.zeros(10, np.int64)
    X, G = work(S)
    nf = 0
    for k in range(seeds.shape[0]):
        G[G_TN] = 0
        if _run_fight(P, X, G, tr, seeds[k], out):
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
def trace_fight(P, S, seed, cap):  # noqa: ANN001, ANN201
    """One fight with its dice: (0 done / a BACK_* reason, the fight's numbers, the dice (sides, faces))."""
    tr = np.zeros((2, cap), np.int64)
    out = np.zeros(10, np.int64)
    X, G = work(S)
    G[G_TN] = 0
    back = _run_fight(P, X, G, tr, seed, out)
    return back, out, tr[:, : min(G[G_TN], cap)].copy(), G[G_TN]
