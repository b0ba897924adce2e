"""GURPS 4e mounted combat: every rule of the rules text 002 (Basic Set pp.B396-397).

Pure procedures. Rule ids are ``gurps4/mounted/<rule>``; pages are the Basic Set pages of the text's section
(reference/gurps.md). The Mount Loss of Control Table and Spooked Mounts are data
(``data/mount_loss_of_control.toml``, ``data/spooked_mounts.toml``); only result 12 of the table is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fracas.dice.source import DiceSource
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.core import DefenseKind, SuccessRoll, step_yards, success_roll
from fracas.rules.gurps4.dice import DamageDice, roll_3d6
from fracas.rules.gurps4.modifiers import P_CAVALRY, P_MOUNTED, Modifier, mod

R = "gurps4/mounted"

# Numbers the text gives (002, pp.B396-397); tests pin each one to the text.
RIDER_ATTACK_AFTER_MOUNT_ATTACK = -2
IRON_HORSESHOES = 1
PANIC_COMBAT_REFLEXES = 6
VELOCITY_THRESHOLD = 7
VELOCITY_TO_HIT = -1
VELOCITY_DAMAGE = 1
COUCHED_LANCE_ADDS = 3
JOUSTING_CAP = 15
RIDING_FULL_DEFENSE = 12
RIDER_HEIGHT_FT = 3.0
STUNNED_RIDER_RIDING = -4
KNOCKBACK_RIDING_PER_YARD = -4
CONTROLLER_WITH_PASSENGER = -1
PASSENGER_STAY_ON = -3
HANG_ON_FAR_SIDE_MOUNT_HIT_MARGIN = 4
TRICKS: dict[str, tuple[int, int]] = {
    # name: (to weapon skill, to any Riding roll that turn)
    "turn_in_saddle": (-4, -1),
    "hang_on_far_side": (-6, -3),
}
HANG_ON_FAR_SIDE_TARGETS = ("foot", "face", "eye", "skull", "hand")


# ------------------------------------------------------------------ mount attacks (B396)


def mount_can_attack(war_trained: bool) -> None:
    """Only a war-trained mount attacks, with an appropriate maneuver (B396)."""
    if not war_trained:
        raise IllegalCommand("only a war-trained mount can attack", f"{R}/mount-attacks {P_MOUNTED}")


TRAMPLE_SM_LEAD = 2  # reference 1.9 (B404): 2+ SM bigger than the foe, or 1+ against a lying foe
TRAMPLE_SM_LEAD_LYING = 1


def trample_allowed(attacker_sm: int, target_sm: int, target_lying: bool) -> None:
    """A mount tramples (B396: "A horse can ... trample"; details B404, reference 1.9) only a foe at least
    2 SM smaller, or 1 SM smaller if he is lying down: a horse (SM +1) tramples a man (SM 0) only when he is
    down. The victim may only Dodge (see :func:`trample_defense_allowed`)."""
    lead = attacker_sm - target_sm
    need = TRAMPLE_SM_LEAD_LYING if target_lying else TRAMPLE_SM_LEAD
    if lead < need:
        raise IllegalCommand(
            f"trampling needs a foe {need}+ SM smaller{'' if target_lying else ' (1+ if he is lying down)'}: "
            f"SM {attacker_sm:+d} against SM {target_sm:+d}",
            f"{R}/trample B404",
        )


def trample_defense_allowed(kind: DefenseKind) -> None:
    """Against a trample the victim may only Dodge (B404, reference 1.9)."""
    if kind != "dodge":
        raise IllegalCommand("against a trample the only defense is Dodge", f"{R}/trample B404")


def horseshoe_bonus(attack: str, iron_horseshoes: bool) -> Modifier | None:
    """Iron horseshoes: +1 to kicking or trampling damage (B396)."""
    if iron_horseshoes and attack in ("kick", "trample"):
        return mod(IRON_HORSESHOES, "iron horseshoes", f"{R}/iron-horseshoes", P_MOUNTED)
    return None


def rider_after_mount_attack(mount_attacked_last_turn: bool) -> Modifier | None:
    """The rider's attack is at an extra -2 if the mount attacked on its last turn (B396)."""
    if mount_attacked_last_turn:
        return mod(
            RIDER_ATTACK_AFTER_MOUNT_ATTACK,
            "the mount attacked on its last turn",
            f"{R}/mount-attacks",
            P_MOUNTED,
        )
    return None


# ------------------------------------------------------------------ panic (B396)


def panic_roll_required(foe_sm: int, mount_sm: int, unused_to_cavalry: bool = True) -> bool:
    """An NPC charged by cavalry rolls Will to stand (GM's option); no roll at SM >= the mount's (B396)."""
    return unused_to_cavalry and foe_sm < mount_sm


def panic_roll(will: int, combat_reflexes: bool, dice: DiceSource) -> SuccessRoll:
    """Will roll to stand one's ground; +6 with Combat Reflexes. Failure: the NPC tries to run (B396)."""
    mods = []
    if combat_reflexes:
        mods.append(mod(PANIC_COMBAT_REFLEXES, "Combat Reflexes", f"{R}/panic", P_MOUNTED))
    return success_roll("Will (stand against the charge)", will, mods, dice)


# ------------------------------------------------------------------ cavalry weapons (B397)


def mounted_skill(weapon_skill: int, riding: int, control: str = "Riding") -> tuple[int, list[Modifier]]:
    """A rider uses the lower of weapon skill and Riding (Driving on an open vehicle), melee or ranged
    (B397). Returns the weapon skill as base and a modifier bringing it down to Riding if lower."""
    if riding < weapon_skill:
        return weapon_skill, [
            mod(
                riding - weapon_skill,
                f"mounted: limited to {control} {riding}",
                f"{R}/cavalry-weapons",
                P_CAVALRY,
            )
        ]
    return weapon_skill, []


def velocity_modifiers(relative_velocity: int) -> tuple[list[Modifier], list[Modifier]]:
    """Mount's velocity 7+ relative to the foe: -1 to hit, +1 damage (B397). Returns (to hit, damage)."""
    if relative_velocity >= VELOCITY_THRESHOLD:
        why = f"mount's velocity {relative_velocity} relative to the foe"
        return (
            [mod(VELOCITY_TO_HIT, why, f"{R}/velocity", P_CAVALRY)],
            [mod(VELOCITY_DAMAGE, why, f"{R}/velocity", P_CAVALRY)],
        )
    return [], []


def couched_lance_dice(
    mount_st: int, yards_moved_last_turn: int, saddle_and_stirrups: bool = True
) -> DamageDice:
    """(mount ST x distance moved last turn)/100 dice, rounded down, +3 (B397). ST 25 at Move 8 -> 2d+3."""
    if not saddle_and_stirrups:
        raise IllegalCommand("couching a lance needs a saddle and stirrups", f"{R}/couched-lance {P_CAVALRY}")
    return DamageDice((mount_st * yards_moved_last_turn) // 100, COUCHED_LANCE_ADDS)


def jousting_lance(basic: int) -> tuple[int, bool]:
    """A jousting lance does crushing damage; over 15 it snaps and does 15 (B397).

    Returns (damage, snapped)."""
    if basic > JOUSTING_CAP:
        return JOUSTING_CAP, True
    return basic, False


# ------------------------------------------------------------------ ranged weapons while mounted (B397)

NoisyOutcome = Literal["steady", "spooked", "lost_control"]


def noisy_shot(riding: int, modifiers: list[Modifier], dice: DiceSource) -> tuple[SuccessRoll, NoisyOutcome]:
    """After each shot of a noisy weapon: Riding roll; failure spooks the mount, critical failure loses
    control (B397)."""
    r = success_roll("Riding (noisy weapon)", riding, modifiers, dice)
    if r.success:
        return r, "steady"
    return r, "lost_control" if r.critical else "spooked"


def aim_turns_that_count(aim_turns: int, mount_moved_yards: int, mount_move: int) -> int:
    """Aiming while the mount moves more than a step: as from a moving vehicle, no extra
    turns of Aim (B397)."""
    if mount_moved_yards > step_yards(mount_move):
        return min(aim_turns, 1)
    return aim_turns


def trick(name: str) -> tuple[Modifier, Modifier]:
    """Turn in the saddle (-4 skill, -1 Riding) or hang on the far side (-6, -3) (B397)."""
    if name not in TRICKS:
        raise IllegalCommand(
            f"unknown riding trick {name!r}; known: {', '.join(TRICKS)}", f"{R}/tricks {P_CAVALRY}"
        )
    skill, riding = TRICKS[name]
    why = name.replace("_", " ")
    return (
        mod(skill, why, f"{R}/tricks", P_CAVALRY),
        mod(riding, f"{why} (Riding rolls this turn)", f"{R}/tricks", P_CAVALRY),
    )


def hanging_rider_target_allowed(location: str) -> None:
    """A rider hanging on the far side offers only foot, face, eyes, skull and one hand (B397)."""
    if location not in HANG_ON_FAR_SIDE_TARGETS:
        raise IllegalCommand(
            f"a rider hanging on the far side of the mount offers only {', '.join(HANG_ON_FAR_SIDE_TARGETS)}",
            f"{R}/tricks {P_CAVALRY}",
        )


def miss_hits_mount_of_hanging_rider(margin: int) -> bool:
    """Missing a hanging rider by 4 or less hits the mount (B397)."""
    return -HANG_ON_FAR_SIDE_MOUNT_HIT_MARGIN <= margin < 0


# ------------------------------------------------------------------ defenses (B397)


def mount_defense_allowed(kind: DefenseKind) -> None:
    """A mount's only active defense is Dodge (B397)."""
    if kind != "dodge":
        raise IllegalCommand("a mount's only defense is Dodge", f"{R}/mount-defense {P_CAVALRY}")


def rider_defense_penalty(riding: int) -> Modifier | None:
    """Riding below 12: active defenses reduced by 12 - Riding (B397): Riding-9 -> -3."""
    if riding >= RIDING_FULL_DEFENSE:
        return None
    return mod(riding - RIDING_FULL_DEFENSE, f"mounted, Riding {riding}", f"{R}/rider-defense", P_CAVALRY)


def rider_height_ft(rider_mounted: bool, foe_mounted: bool, foe_standing: bool = True) -> float:
    """A cavalryman on horseback is effectively 3 ft above a standing foe (B397; Combat at Different Levels
    B402). Returns the rider's height above the foe."""
    if rider_mounted and not foe_mounted and foe_standing:
        return RIDER_HEIGHT_FT
    if foe_mounted and not rider_mounted:
        return -RIDER_HEIGHT_FT
    return 0.0


# ------------------------------------------------------------------ mounted combat results (B397)


def stunned_rider_roll(riding: int, modifiers: list[Modifier], dice: DiceSource) -> SuccessRoll:
    """A stunned rider rolls Riding at -4 or falls off (B397)."""
    mods = [mod(STUNNED_RIDER_RIDING, "stunned rider", f"{R}/results", P_CAVALRY), *modifiers]
    return success_roll("Riding (stunned: stay on)", riding, mods, dice)


def knockback_unseat(
    yards: int, saddle_and_stirrups: bool, riding: int, modifiers: list[Modifier], dice: DiceSource
) -> tuple[SuccessRoll | None, bool]:
    """Any knockback unseats a rider, unless saddle and stirrups: Riding at -4 per yard (B397).
    Returns (the roll if any, fell off)."""
    if yards <= 0:
        return None, False
    if not saddle_and_stirrups:
        return None, True
    mods = [
        mod(KNOCKBACK_RIDING_PER_YARD * yards, f"knockback {yards} yd", f"{R}/results", P_CAVALRY),
        *modifiers,
    ]
    r = success_roll("Riding (knockback: stay on)", riding, mods, dice)
    return r, not r.success


def miss_by_one_redirect(target: Literal["rider", "mount"], margin: int) -> str | None:
    """An attack on the rider that misses by 1 hits the mount unless it defends; the reverse for attacks on
    the mount (B397). Returns the new target or None."""
    if margin == -1:
        return "mount" if target == "rider" else "rider"
    return None


def mount_hit_spook_roll(
    riding: int, mount_shock: int, modifiers: list[Modifier], dice: DiceSource
) -> SuccessRoll:
    """The mount is hit: Riding minus the mount's shock penalty to keep it from spooking (B397)."""
    mods = list(modifiers)
    if mount_shock:
        mods.insert(0, mod(mount_shock, "the mount's shock", f"{R}/results", P_CAVALRY))
    return success_roll("Riding (mount hit: keep it from spooking)", riding, mods, dice)


@dataclass(frozen=True, slots=True)
class LossOfControl:
    roll: int
    faces: tuple[int, ...]
    effect: str
    placeholder: bool
    note: str


def loss_of_control(dice: DiceSource) -> LossOfControl:
    """Roll 3d on the Mount Loss of Control Table (B397), from data/mount_loss_of_control.toml.

    Only result 12 (the mount falls) is known; other rows are placeholders the GM completes from the book.
    """
    faces = roll_3d6(dice, "Mount Loss of Control Table")
    return loss_of_control_result(sum(faces), faces)


def loss_of_control_result(roll: int, faces: tuple[int, ...] = ()) -> LossOfControl:
    row = data.loss_of_control_table()[roll]
    return LossOfControl(roll, faces, row.effect, row.placeholder, row.note)


def crippled_mount_falls() -> LossOfControl:
    """A crippled mount that falls: effects as result 12 of the Mount Loss of Control Table (B397)."""
    return loss_of_control_result(12)


# ------------------------------------------------------------------ multiple riders (B397)


def controller_penalty(has_passenger: bool) -> Modifier | None:
    """With a second rider behind, the controlling rider has an extra -1 to Riding (B397)."""
    if has_passenger:
        return mod(CONTROLLER_WITH_PASSENGER, "a passenger behind", f"{R}/multiple-riders", P_CAVALRY)
    return None


def passenger_allowed(mount_sm: int, passenger_sm: int) -> None:
    """A second rider needs a horse-sized (SM +1) or larger mount and is human-sized (SM 0) or
    smaller (B397)."""
    if mount_sm < 1 or passenger_sm > 0:
        raise IllegalCommand(
            "a passenger needs a horse-sized or larger mount and must be human-sized or smaller",
            f"{R}/multiple-riders {P_CAVALRY}",
        )


def passenger_stay_on_roll(controller_riding: int, passenger_st: int, dice: DiceSource) -> SuccessRoll:
    """The passenger rolls the lower of the controller's Riding and his own ST, at -3, to stay on (B397)."""
    base = min(controller_riding, passenger_st)
    why = "controller's Riding" if controller_riding <= passenger_st else "own ST"
    return success_roll(
        f"passenger ({why}) stay on",
        base,
        [mod(PASSENGER_STAY_ON, "passenger", f"{R}/multiple-riders", P_CAVALRY)],
        dice,
    )


# ------------------------------------------------------------------ Riding modifiers (B217, B289, B397)


def riding_modifiers(
    war_trained: bool = True,
    well_broken: bool = True,
    hands_on_reins: int = 2,
    stirrups: bool = True,
    has_passenger: bool = False,
    trick_name: str | None = None,
) -> list[Modifier]:
    """Modifiers to a combat Riding roll from the mount's training, the reins, stirrups and the text's
    tricks and passengers (data/spooked_mounts.toml; B217, B289, B397)."""
    n = data.riding_numbers()
    mods: list[Modifier] = []
    if not well_broken:
        mods.append(mod(n.not_fully_broken, "mount not fully broken", f"{R}/spooked-mounts", P_CAVALRY))
    elif not war_trained:
        mods.append(
            mod(n.well_broken_not_war_trained, "mount not war-trained", f"{R}/spooked-mounts", P_CAVALRY)
        )
    if hands_on_reins == 0:
        mods.append(mod(n.no_hands_on_reins, "no hands on the reins", f"{R}/spooked-mounts", P_CAVALRY))
    elif hands_on_reins == 1:
        mods.append(mod(n.one_hand_on_reins, "one hand on the reins", f"{R}/spooked-mounts", P_CAVALRY))
    if stirrups:
        mods.append(mod(n.stirrups_control, "stirrups", "gurps4/gear/stirrups", "B289"))
    p = controller_penalty(has_passenger)
    if p:
        mods.append(p)
    if trick_name:
        mods.append(trick(trick_name)[1])
    return mods
