"""The mounted-combat numbers of rules text 002 (Basic Set pp.B396-397) as tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.source import ScriptedDice
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import data, mounted
from fracas.rules.gurps4.dice import DamageDice


def test_couched_lance_text_example_st25_move8_is_2d_plus_3() -> None:
    # "A ST 25 warhorse charging at Move 8 inflicts 2d+3 impaling damage." (002, p.B397)
    w = data.mounts()["text_warhorse"]
    assert (w.st, w.basic_move) == (25, 8)
    assert mounted.couched_lance_dice(w.st, w.basic_move) == DamageDice(2, 3)


def test_couched_lance_rounds_down_and_needs_stirrups() -> None:
    # reference 2: the library's heavy warhorse is ST 24 -> 1.92 -> 1d+3 at Move 8, 2d+3 from Move 9
    assert mounted.couched_lance_dice(24, 8) == DamageDice(1, 3)
    assert mounted.couched_lance_dice(24, 9) == DamageDice(2, 3)
    with pytest.raises(IllegalCommand, match="saddle and stirrups"):
        mounted.couched_lance_dice(25, 8, saddle_and_stirrups=False)


@settings(max_examples=200, derandomize=True)
@given(st.integers(1, 60), st.integers(0, 30))
def test_couched_lance_formula(mount_st: int, yards: int) -> None:
    d = mounted.couched_lance_dice(mount_st, yards)
    assert d.adds == 3 and d.dice * 100 <= mount_st * yards < (d.dice + 1) * 100


def test_jousting_lance_snaps_above_15() -> None:
    assert mounted.jousting_lance(15) == (15, False)
    assert mounted.jousting_lance(16) == (15, True)
    assert mounted.jousting_lance(23) == (15, True)
    assert data.weapons()["jousting_lance"].modes[0].type == "cr"
    assert data.weapons()["lance"].modes[0].type == "imp"


def test_riding_9_gives_minus_3_to_active_defenses() -> None:
    assert mounted.rider_defense_penalty(9).value == -3
    assert mounted.rider_defense_penalty(12) is None and mounted.rider_defense_penalty(15) is None
    assert mounted.rider_defense_penalty(11).value == -1


def test_lower_of_weapon_skill_and_riding() -> None:
    base, mods = mounted.mounted_skill(14, 11)
    assert base + sum(m.value for m in mods) == 11
    assert mounted.mounted_skill(12, 14) == (12, [])


def test_velocity_seven_or_more() -> None:
    assert mounted.velocity_modifiers(6) == ([], [])
    hit, dmg = mounted.velocity_modifiers(7)
    assert hit[0].value == -1 and dmg[0].value == 1


def test_mount_attacks_horseshoes_and_rider_penalty() -> None:
    assert (
        mounted.rider_after_mount_attack(True).value == -2 and mounted.rider_after_mount_attack(False) is None
    )
    assert (
        mounted.horseshoe_bonus("kick", True).value == 1
        and mounted.horseshoe_bonus("trample", True).value == 1
    )
    assert mounted.horseshoe_bonus("bite", True) is None
    with pytest.raises(IllegalCommand, match="war-trained"):
        mounted.mount_can_attack(war_trained=False)


def test_panic() -> None:
    assert mounted.panic_roll_required(foe_sm=0, mount_sm=1)
    assert not mounted.panic_roll_required(foe_sm=1, mount_sm=1)
    r = mounted.panic_roll(10, True, ScriptedDice([6, 5, 4]))
    assert r.effective == 16 and r.success


def test_noisy_weapon_riding_roll() -> None:
    assert mounted.noisy_shot(12, [], ScriptedDice([3, 3, 3]))[1] == "steady"
    assert mounted.noisy_shot(12, [], ScriptedDice([5, 5, 4]))[1] == "spooked"
    assert mounted.noisy_shot(12, [], ScriptedDice([6, 6, 6]))[1] == "lost_control"


def test_aim_and_tricks() -> None:
    assert mounted.aim_turns_that_count(3, mount_moved_yards=1, mount_move=8) == 3
    assert mounted.aim_turns_that_count(3, mount_moved_yards=5, mount_move=8) == 1
    skill, riding = mounted.trick("turn_in_saddle")
    assert (skill.value, riding.value) == (-4, -1)
    skill, riding = mounted.trick("hang_on_far_side")
    assert (skill.value, riding.value) == (-6, -3)
    mounted.hanging_rider_target_allowed("face")
    with pytest.raises(IllegalCommand):
        mounted.hanging_rider_target_allowed("torso")
    assert [mounted.miss_hits_mount_of_hanging_rider(m) for m in (-1, -4, -5, 0)] == [
        True,
        True,
        False,
        False,
    ]


def test_defenses_height_and_results() -> None:
    mounted.mount_defense_allowed("dodge")
    with pytest.raises(IllegalCommand, match="only defense is Dodge"):
        mounted.mount_defense_allowed("parry")
    assert mounted.rider_height_ft(True, False) == 3.0 and mounted.rider_height_ft(False, True) == -3.0
    assert mounted.stunned_rider_roll(12, [], ScriptedDice([3, 3, 3])).effective == 8
    roll, fell = mounted.knockback_unseat(2, True, 14, [], ScriptedDice([2, 2, 2]))
    assert roll.effective == 6 and not fell
    assert mounted.knockback_unseat(1, False, 14, [], ScriptedDice([])) == (None, True)
    assert mounted.miss_by_one_redirect("rider", -1) == "mount"
    assert mounted.miss_by_one_redirect("mount", -1) == "rider"
    assert mounted.miss_by_one_redirect("rider", -2) is None
    assert mounted.mount_hit_spook_roll(12, -3, [], ScriptedDice([3, 3, 3])).effective == 9


def test_loss_of_control_table_only_12_is_known() -> None:
    assert mounted.crippled_mount_falls().effect == "falls"
    assert not mounted.crippled_mount_falls().placeholder
    others = [mounted.loss_of_control_result(r) for r in range(3, 19) if r != 12]
    assert all(o.placeholder and o.effect == "out_of_control" for o in others)
    assert mounted.loss_of_control(ScriptedDice([4, 4, 4])).effect == "falls"


def test_multiple_riders() -> None:
    assert mounted.controller_penalty(True).value == -1
    r = mounted.passenger_stay_on_roll(13, 10, ScriptedDice([3, 3, 1]))
    assert (r.base, r.effective) == (10, 7)
    mounted.passenger_allowed(1, 0)
    with pytest.raises(IllegalCommand):
        mounted.passenger_allowed(0, 0)


def test_riding_modifiers() -> None:
    total = sum(
        m.value for m in mounted.riding_modifiers(war_trained=False, hands_on_reins=1, stirrups=False)
    )
    assert total == -4
    total = sum(m.value for m in mounted.riding_modifiers(has_passenger=True, trick_name="hang_on_far_side"))
    assert total == 1 - 1 - 3
