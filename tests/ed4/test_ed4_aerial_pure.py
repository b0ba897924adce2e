"""ED4 aerial combat, pure layer (000_4b24aca42c3b6366.txt p.398)."""

from __future__ import annotations

from fracas.rules.ed4 import aerial as a


def test_falling_steps_grow_with_distance() -> None:
    assert a.falling_step(0) is None
    assert a.falling_step(2) == 5  # as a fall from a land mount (p.395)
    steps = [a.falling_step(y) for y in range(1, 200)]
    assert all(x is not None for x in steps)
    assert steps == sorted(steps)  # type: ignore[type-var]


def test_swoop_interception_needs_higher_initiative_p398() -> None:
    assert a.may_intercept_swoop(12, 11)
    assert not a.may_intercept_swoop(11, 11)
    assert not a.may_intercept_swoop(None, 3)


def test_reach_and_vertical_movement() -> None:
    assert a.in_close_reach(0, 2) and not a.in_close_reach(0, 3)
    assert a.vertical_move_cost(0, 30) == 0
    assert a.range_yards(10, 0, 30) == 30
    assert a.long_fall_recovery_dn() == 6
    assert a.fall_per_round(15, 20) == 15
