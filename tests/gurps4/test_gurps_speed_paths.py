"""The tuned searches of the GURPS ruleset against the plain ones they replaced: the same answers, so the same
events. (Its paths come from the engine's search, tested in tests/engine/test_engine_pathing.py with the
area GURPS asks for.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.rules.gurps4 import aerial


@settings(max_examples=500, deadline=None)
@given(
    budget=st.integers(-3, 80) | st.integers(-6, 160).map(lambda x: x / 2),
    vertical=st.integers(-40, 40),
)
def test_across_within_is_the_yard_by_yard_search(budget: float, vertical: int):
    horizontal = 0
    while aerial.move_cost(horizontal + 1, vertical) <= budget:
        horizontal += 1
    assert aerial.across_within(budget, vertical) == horizontal
