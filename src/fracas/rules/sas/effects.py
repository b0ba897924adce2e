"""The kinds of effect a Spells & Swords table result has on a fighter: one numbering for the engine and the
duel kernel.

The engine names a kind by its text (``procedures.Effect.kind``, e.g. ``"drop-weapon"``: the words its events
and tests read); the compiled duel kernel (sim/kernels/sas_core.py) queues effects as numbers and reads these
members as constants (numba takes an ``IntEnum`` member at module level as a compile-time integer). One enum,
``unique``, so two kinds can never share a number.
"""

from __future__ import annotations

from enum import IntEnum, unique


@unique
class EffectKind(IntEnum):
    MARKERS = 1
    CONDITION = 2
    HURT = 3
    BROKEN = 4
    BLEED = 5
    DEAD = 6
    NEXT = 7
    DROP_WEAPON = 8
    WEAPON_BREAKS = 9
    STAT = 10
    LOST_LIMB = 11
    BURN_MARKERS = 12
    REMOVE_CONDITION = 13
    REMOVE_BROKEN = 14
    PERMANENT = 15
    STOP_BLEED = 16
    DYING = 17
    DROP_SHIELD = 18
    MUTE = 19
    FUMBLE = 20
    FRIENDLY_FIRE = 21
    KNOCKED_BACK = 22
    SCATTER = 23
    REGROW = 24
    SAVE_REROLL = 25

    @property
    def text(self) -> str:
        """The engine's name of the kind (``Effect.kind``)."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def of(cls, text: str) -> EffectKind:
        """The kind named ``text``; a ValueError for a name that is none."""
        try:
            return cls[text.upper().replace("-", "_")]
        except KeyError:
            raise ValueError(f"unknown effect {text!r}") from None


KIND_TEXTS = frozenset(k.text for k in EffectKind)
"""Every ``Effect.kind`` the engine knows."""
