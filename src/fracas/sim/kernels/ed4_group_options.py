"""The ED4 combat options in the group kernel (:mod:`fracas.sim.kernels.ed4_group_core`): the ``veteran``
tactic (``fracas.rules.ed4.chapter_tactics.VeteranTactic``) for combatants on foot, and what its options do
(``fracas.rules.ed4.options``, ``features.declaring``, ``features.strain``, ``features.providers``).

- Declaring (VeteranTactic.options, p.382), once a round before Initiative, for each active veteran: knocked
  down, Jump Up when more than 6 points are left to his Unconsciousness Rating (his Death Rating without
  one); else Defensive Stance with three enemies or more next to him, or one next to him whose average hit
  could kill him (a character, Ed4Tactic.in_danger); else, with a close attack and more than 8 points left,
  Aggressive Attack when the nearest enemy is within 4 hexes and the +3 raises his expected damage on it
  with his best close attack by more than 1 plus 0.15 of the mean damage of the first attack of each enemy
  next to him.
- Jump Up (declaring._r_jump_up, p.384): 2 Strain, then a Dexterity (6) test less the armor's Initiative
  penalty (Wounds and Harried by numbers apply, not the -3 of knocked down); standing, he moves no more
  this round (hooks.movement_hexes) and his tactic goes on; failing, he stands up with his Standard
  action as the default tactic does.
- In force while standing (readers.in_force): Aggressive Attack +3 to close combat Attack and Damage tests,
  -3 to his Defenses (p.382); Defensive Stance -3 to his Attack and Damage tests, +3 to his Defenses
  against an attack he is aware of (not Blindsided, p.384).
- Strain (strain.attack_tests_strain, declaring._after_action, strain.strain_owed, p.382): Aggressive
  Attack 1 per close combat Attack test, and 1 when his turn ends without any (or, if he had no turn, at
  the end of the round, unless dead or fled). Strain is damage without armor or Wound (combat.strain_events):
  it may knock him out or kill him, and it counts as damage he dealt and took.

The kernel's columns: ``cst[TACTIC]`` T_VETERAN, ``cst[JSTEP]`` the Jump Up step before Wounds and Harried,
``cst[VLEFT]`` the Rating the tactic counts to; ``st[S_OPT]`` the options declared this round (bits),
``st[S_NOMOVE]`` jumped up this round, ``st[S_CTEST]`` close Attack tests this round, ``st[S_ACTED]`` his
turn ended this round. ``vt[c, d, w, down]``: the gain of Aggressive Attack for class ``c`` on class ``d``
with ``w`` Wounds (the last row: that many or more), ``d`` knocked down or not; ``vt[c, ncls, 0, 0]`` the
mean damage of class ``c``'s first attack (0.15 of their sum over the enemies next to a veteran is the
threat the gain must beat).

Here: the options' numbers and choices as leaf functions of plain values, and the builder's tables; the
loop's part that reads and writes the fight's arrays (the roster, declarations, Jump Up, Strain) is in
ed4_group_core (``_vet_*``), which imports this module (never the reverse). numba caches
``ed4_group_core.play`` under that file only: after a change here, touch ed4_group_core.py (or clear its
``__pycache__``) so that the loop compiles again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

# the options' bits in st[S_OPT]
O_JUMP, O_AGGR, O_DEF, O_SPLIT = 1, 2, 4, 8
O_ROSTER = 16  # in the round's roster of declarers: active before the round's Recovery tests
AGGR_STEP = 3  # options.toml: Aggressive Attack +3 Attack and Damage, -3 Defenses (p.382)
DEF_STEP = 3  # Defensive Stance -3 to Action and Damage tests, +3 Defenses (p.384)


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]
def option_step(o, down, close):  # noqa: ANN001, ANN202
    """options.step_mods for an Attack or Damage test of a combatant with options ``o`` declared
    (readers.in_force: none while knocked down)."""
    if o == 0 or down:
        return 0
    v = 0
    if o & O_AGGR and close:
        v += AGGR_STEP
    if o & O_DEF:
        v -= DEF_STEP
    return v


@njit(cache=True, inline="always", _nrt=False)  # type: ignore[call-overload]
def option_defense(o, down, blind):  # noqa: ANN001, ANN202
    """options.defense_mods of a target with options ``o`` (providers._p_options_defense): Aggressive -3,
    Defensive +3 when he is aware of the attack (not Blindsided)."""
    if o == 0 or down:
        return 0
    v = 0
    if o & O_AGGR:
        v -= AGGR_STEP
    if o & O_DEF and not blind:
        v += DEF_STEP
    return v


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def choose_options(left, down, near, danger, threat, gain, dist):  # noqa: ANN001, ANN202, PLR0913
    """VeteranTactic.options on foot: ``left`` points to the Rating, knocked ``down``, ``near`` enemies next
    to him, one of them ``danger``ous (Ed4Tactic.in_danger), the sum of their first attacks' mean damage
    (``threat``), the Aggressive Attack ``gain`` on the nearest enemy, ``dist`` hexes away (-1: none)."""
    if down:
        return O_JUMP if left > 6 else 0
    if near >= 3 or danger:
        return O_DEF
    if left <= 8 or dist < 0 or dist > 4:
        return 0
    return O_AGGR if gain > threat * 0.15 + 1.0 else 0


# ----- the builder's part -----------------------------------------------------------------------------------


def jump_up_step(p: Any) -> int:
    """The Jump Up test's step before Wounds and Harried (declaring._r_jump_up): the Dexterity step less
    the armor's Initiative penalty (a stat block without its armor: what its Initiative step lacks of its
    Dexterity step)."""
    src = getattr(p, "source", None)
    if src is not None and hasattr(src, "armor"):
        penalty = src.armor.initiative_penalty if src.armor is not None else 0
    else:
        penalty = max(0, p.dex_step - p.initiative_step)
    return int(p.dex_step - penalty)


def veteran_tables(profiles: list[Any], wmax: int) -> np.ndarray:
    """``vt`` (module docstring): VeteranTactic.options' Aggressive Attack gain (``_aggr_gain`` with the
    close attack of most expected damage, the first of equals; -inf without a close attack) and threat."""
    import dataclasses

    from fracas.rules.ed4.tactics import _defense, mean_step, p_hit

    ncls = len(profiles)
    # Wounds beyond wmax + 4 change nothing: every step there is below 1 even with the +3
    vt = np.zeros((ncls, ncls + 1, wmax + 5, 2))
    for ci, me in enumerate(profiles):
        vt[ci, ncls, 0, 0] = sum(mean_step(x.damage) for x in me.attacks[:1])
        close = [a for a in me.attacks if a.close]
        for cj, tp in enumerate(profiles):
            for w in range(wmax + 5):
                for d in (0, 1):
                    if not close:
                        vt[ci, cj, w, d] = -np.inf
                        continue

                    def ed(a: Any, tp: Any = tp, w: int = w, d: int = d) -> float:
                        # tactics.expected_damage: the attacker standing, ``w`` Wounds
                        dn = _defense(tp, a.against) - (3 if d else 0)
                        ph = p_hit(a.step - w, dn, 0)
                        armor = (
                            0
                            if a.armor == "none"
                            else tp.physical_armor
                            if a.armor == "physical"
                            else tp.mystic_armor
                        )
                        return ph * max(0.5, mean_step(a.damage - w) - armor)

                    a = max(close, key=ed)
                    better = dataclasses.replace(a, step=a.step + 3, damage=a.damage + 3)
                    vt[ci, cj, w, d] = ed(better) - ed(a)
    return vt
