"""ED4 mounted combat (``000_4b24aca42c3b6366.txt`` p.394-398). Pure functions; wiring in
:mod:`fracas.rules.ed4.features`.

Distances are in yards (a hex is 2 yards, p.372).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fracas.rules.base import Modifier

MOUNTED = "ed4/combat/mounted p.394"
TRAINING = "ed4/mounted/training p.394"
MOUNTING = "ed4/mounted/mounting p.395"
DISMOUNTING = "ed4/mounted/dismounting p.395"
JUMP_OFF = "ed4/mounted/jump-off-to-grapple p.395"
FALL = "ed4/mounted/falling-off p.395"
SEQUENCE = "ed4/mounted/rider-and-mount-act p.395"
MOVEMENT = "ed4/mounted/movement p.395"
FAMILIAR = "ed4/mounted/unfamiliar-mount p.395"
SPLIT = "ed4/mounted/split-movement p.395"
CHARGE = "ed4/mounted/charging-attack p.396"
CHARGE_AFTER = "ed4/mounted/charge-strength-test p.396"
CHARGE_SPLIT = "ed4/mounted/charge-no-extra-attacks p.396"
PATTERNS = "ed4/mounted/attack-patterns p.397"
LONG_WEAPONS = "ed4/mounted/long-weapons p.397"
MOUNT_ATTACKS = "ed4/mounted/mount-attacks p.398"
SET_AGAINST = "ed4/option/set-against-charge p.385"

FALL_STEP = 5
"""Falling off a land mount: Step 5/D8 damage (p.395)."""

TRAININGS = ("untrained", "trained", "combat")
LANCE_WORDS = ("lance", "spear", "pike")


def needs_trick_riding_to_mount(training: str) -> bool:
    """Mounting takes a Standard action; an untrained mount needs a Trick Riding test against its Social
    Defense (p.395)."""
    return training == "untrained"


def mount_acts_on_rider_initiative(training: str) -> bool:
    """A trained (or combat) mount acts on its rider's Initiative; an untrained one on its own (p.395)."""
    return training in ("trained", "combat")


def needs_trick_riding_into_combat(familiar: bool, passed: bool) -> bool:
    """Taking a mount into (not away from) combat needs a Trick Riding test against its Social Defense when
    the rider is not familiar with it (p.395; Cavalrymen and Beastmasters always are). [choice] The test is
    due before his first attack from that mount's back in the fight (an attack or a charge); once passed he
    has taken it into combat and is not tested again in that fight."""
    return not familiar and not passed


def needs_trick_riding_to_charge(training: str) -> bool:
    """A charging attack needs a combat-trained mount or a successful Trick Riding test against the mount's
    Social Defense (p.396)."""
    return training != "combat"


def charge_eligible(mount_movement: int, distance_yards: int) -> bool:
    """A charging attack needs the mount to move towards the target more than its Movement Rate, with its
    Standard action (so at most twice the Movement Rate), in a straight line (p.396)."""
    return mount_movement < distance_yards <= 2 * mount_movement


def charge_targets(mount_movement: int, distances: Iterable[int]) -> list[int]:
    """Davon (p.397): Movement Rate 15, opponents at 14, 21 and 27 yards -> 21 and 27 can be charged."""
    return [d for d in distances if charge_eligible(mount_movement, d)]


def movement_left_after_charge(mount_movement: int, moved_yards: int) -> int:
    """Yards the mount may still move after a charge with Splitting Movement: what remains of its doubled
    Movement Rate (p.397: Davon could move another 9 yards after charging 21)."""
    return max(0, 2 * mount_movement - moved_yards)


def charge_damage_mods(mount_str_step: int, other_mount_str_step: int | None = None) -> list[Modifier]:
    """A successful charging attack adds the mount's Strength Step to the Damage Step; two riders charging
    each other add both mounts' Strength Steps (p.396)."""
    out = [Modifier(mount_str_step, "charging: mount's Strength Step", CHARGE)]
    if other_mount_str_step:
        out.append(Modifier(other_mount_str_step, "charging each other: the other mount's Strength", CHARGE))
    return out


def is_lance(weapon_name: str) -> bool:
    w = weapon_name.lower()
    return any(x in w for x in LANCE_WORDS)


@dataclass(frozen=True, slots=True)
class ChargeAftermath:
    """What a failed Strength test after a charging attack does (p.396)."""

    thrown_off: bool = False
    weapon_lost: bool = False


def charge_aftermath(success: bool, weapon_name: str | None) -> ChargeAftermath:
    """After a successful charging attack the rider tests Strength against the target's Toughness Step; on
    a failure a lance or spear throws him off (Step 5 damage, knocked down), a shorter weapon is lost, an
    unarmed rider suffers nothing (p.396)."""
    if success or weapon_name is None:
        return ChargeAftermath()
    if is_lance(weapon_name):
        return ChargeAftermath(thrown_off=True)
    return ChargeAftermath(weapon_lost=True)


def attack_pattern(moved_before: bool, moved_after: bool, charging: bool) -> str:
    """The five mounted attack patterns of p.397: stationary, mobile, charging, ride-by, all-out charging."""
    if charging:
        return "all-out charging" if moved_after else "charging"
    if moved_before and moved_after:
        return "ride-by"
    if moved_before or moved_after:
        return "mobile"
    return "stationary"


def long_weapon_penalty(weapon_size: int, one_handed_limit: int, mount_can_move_2_yards: bool) -> int:
    """A mounted rider wields a long weapon in one hand; if the mount could not move at least 2 yards, the
    difference between the weapon's size and the rider's one-handed size limit is a penalty to Attack and
    Damage tests (p.397)."""
    if mount_can_move_2_yards or weapon_size <= one_handed_limit:
        return 0
    return -(weapon_size - one_handed_limit)


def set_against_charge_damage(attack_damage_step: int, own_str_step: int, mount_str_step: int) -> int:
    """Setting Against a Charge (p.385): the defender's Damage uses the charging mount's Strength Step in
    place of his own."""
    return attack_damage_step - own_str_step + mount_str_step


def unseat_dn(damage_result: int, armor: int) -> int:
    """Setting Against a Charge with an extra success: the rider's Knockdown test has the Damage test
    result, less armor, as its DN (p.385)."""
    return max(0, damage_result - armor)
