"""ED4 mounted combat, pure layer (000_4b24aca42c3b6366.txt p.394-398)."""

from __future__ import annotations

from fracas.rules.base import total
from fracas.rules.ed4 import mounted as m


def test_davon_charge_movement_15_targets_14_21_27_p397() -> None:
    assert m.charge_targets(15, [14, 21, 27]) == [21, 27]
    assert not m.charge_eligible(15, 15)
    assert not m.charge_eligible(15, 31)  # beyond the doubled Movement Rate
    assert m.movement_left_after_charge(15, 21) == 9  # "another 9 yards away"


def test_charge_damage_adds_mount_strength_both_when_charging_each_other_p396() -> None:
    assert total(m.charge_damage_mods(8)) == 8
    assert total(m.charge_damage_mods(8, 7)) == 15


def test_charge_aftermath_p396() -> None:
    assert m.charge_aftermath(False, "Lance").thrown_off
    assert m.charge_aftermath(False, "Broadsword").weapon_lost
    assert m.charge_aftermath(False, None) == m.ChargeAftermath()
    assert m.charge_aftermath(True, "Lance") == m.ChargeAftermath()


def test_patterns_training_long_weapons_set_against_p385_p395_p397() -> None:
    assert m.attack_pattern(False, False, False) == "stationary"
    assert m.attack_pattern(True, False, False) == "mobile"
    assert m.attack_pattern(True, False, True) == "charging"
    assert m.attack_pattern(True, True, False) == "ride-by"
    assert m.attack_pattern(True, True, True) == "all-out charging"
    assert m.needs_trick_riding_to_mount("untrained") and not m.needs_trick_riding_to_mount("trained")
    assert m.mount_acts_on_rider_initiative("combat") and not m.mount_acts_on_rider_initiative("untrained")
    assert m.needs_trick_riding_to_charge("trained") and not m.needs_trick_riding_to_charge("combat")
    assert m.needs_trick_riding_into_combat(False, False)
    assert not m.needs_trick_riding_into_combat(True, False) and not m.needs_trick_riding_into_combat(
        False, True
    )
    assert m.long_weapon_penalty(6, 3, False) == -3
    assert m.long_weapon_penalty(6, 3, True) == 0
    assert m.set_against_charge_damage(12, 5, 8) == 15
    assert m.unseat_dn(20, 5) == 15
