"""The aerial-combat rules of rules text 002 (Basic Set p.B398) as tests."""

from __future__ import annotations

import pytest

from fracas.dice.source import ScriptedDice
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import aerial


def test_two_hex_flyers_and_movement_costs() -> None:
    assert aerial.flyer_hexes() == 2
    assert aerial.move_cost(0, 3) == 3  # vertical costs as horizontal
    assert aerial.move_cost(1, 1) == 1.5  # 45 degrees
    assert aerial.move_cost(4, 2) == 5.0


def test_steps_dive_and_stall() -> None:
    assert aerial.air_step(12) == 2  # "flyers are often fast enough to step 2+ yards"
    assert aerial.dive(12, 24, "move") == (22, 48)
    with pytest.raises(IllegalCommand):
        aerial.dive(12, 24, "attack")
    assert aerial.stalls("cannot_hover", "move", 5, 24)  # below 24/4 = 6
    assert not aerial.stalls("cannot_hover", "move_and_attack", 6, 24)
    assert aerial.stalls("gliding", "attack", 10, 24)
    assert not aerial.stalls(None, "attack", 0, 24)
    assert aerial.stall_recovery(12, ScriptedDice([3, 3, 2])).effective == 8


def test_ceiling() -> None:
    assert aerial.ceiling_problem(5000) is None
    assert "6,000" in aerial.ceiling_problem(7000)
    assert "20,000" in aerial.ceiling_problem(21000)
    assert aerial.ceiling_problem(21000, doesnt_breathe=True) is None
    assert "wings" in aerial.ceiling_problem(0, winged=True, atmosphere="vacuum")
    with pytest.raises(RuleNotImplemented):
        aerial.ceiling_problem(0, atmosphere="thin")


def test_attack_and_defense_in_flight() -> None:
    assert aerial.flight_modifiers() == []
    assert aerial.different_levels_apply(True, False) and not aerial.different_levels_apply(True, True)
    assert aerial.vertical_retreat_allowed(True)
    assert aerial.hover_retreat_bonus(True, True).value == 1
    assert aerial.hover_retreat_bonus(False, True) is None
    assert aerial.in_reach(1, 3, (1,), both_flying=True) is False
    assert aerial.in_reach(1, 1, (1,), both_flying=True)
    assert aerial.in_reach(1, 1, (1,), both_flying=False)  # 1.5 -> 1
    assert not aerial.in_reach(0, 3, (1, 2), both_flying=False)
    r, m = aerial.acrobatic_dodge(12, ScriptedDice([3, 3, 3]))
    assert r.success and m.value == 2 and "unverified" in m.why
