"""Resolving GURPS commands against an encounter state: the glue between the pure rules (core, mounted,
aerial) and the engine's events. Everything here works on a scratch copy of the state (:class:`Work`), so
``Ruleset.resolve`` stays pure: it returns the events, the engine applies them.

The functions live in files by rule area (figure, geometry, riding, attack_roll, injury); this module names
them all, for the callers that import them from here.
"""

from __future__ import annotations

from fracas.rules.gurps4.attack_roll import (
    attack_roll_parts,
    weapon_skill,
)
from fracas.rules.gurps4.figure import (
    ATTACK_KEY,
    ATTACK_MANEUVERS,
    R_REELING,
    RIDER_REACH_HEIGHT_NOTE,
    S,
    Work,
    _CopyOnRead,
    dodge_now,
    flying,
    hp_now,
    look,
    look_at,
    mount_of,
    move_now,
    rider_of,
    scratch,
    shock_now,
)
from fracas.rules.gurps4.geometry import (
    BFS_MARGIN,
    blockers,
    free_hex_near,
    height_ft,
    in_reach,
    max_range,
    move_figure,
    path_towards,
    range_yards,
    separation,
)
from fracas.rules.gurps4.injury import (
    CRIT_EFFECTS,
    after_injury,
    apply_hit,
    couched_why,
    damage_dice,
    knocked_out,
)
from fracas.rules.gurps4.riding import (
    mount_loses_control,
    riding_base,
    riding_skill,
    spook,
    stay_on,
    unhorse,
)

__all__ = [
    "ATTACK_KEY",
    "ATTACK_MANEUVERS",
    "BFS_MARGIN",
    "CRIT_EFFECTS",
    "RIDER_REACH_HEIGHT_NOTE",
    "R_REELING",
    "S",
    "Work",
    "_CopyOnRead",
    "after_injury",
    "apply_hit",
    "attack_roll_parts",
    "blockers",
    "couched_why",
    "damage_dice",
    "dodge_now",
    "flying",
    "free_hex_near",
    "height_ft",
    "hp_now",
    "in_reach",
    "knocked_out",
    "look",
    "look_at",
    "max_range",
    "mount_loses_control",
    "mount_of",
    "move_figure",
    "move_now",
    "path_towards",
    "range_yards",
    "rider_of",
    "riding_base",
    "riding_skill",
    "scratch",
    "separation",
    "shock_now",
    "spook",
    "stay_on",
    "unhorse",
    "weapon_skill",
]
