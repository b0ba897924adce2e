"""The Initiative step and Step 1 (000_4b24aca42c3b6366.txt p.371): "A character's Initiative Step cannot
voluntarily be lowered below Step 1. A character whose Initiative Step is involuntarily reduced below Step
1 - for example, through Wounds or magic - acts last in the round, with an effective Initiative of 1."
A combat option is chosen: Tail Attack's -2 to all tests (p.386) stops at Step 1; Wounds may go lower."""

from __future__ import annotations

from typing import Any

from ed4_chapter_helpers import declare, start
from ed4_helpers import build

from fight_helpers import of
from fracas.engine import events as ev


def _silar_at_step_2(wounds: int = 0) -> Any:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "silar", "id": "silar", "at": [0, 0], "tactic": "person",
                     "stats": {"initiative": 2}},
                ],
            },
            {"name": "B",
             "combatants": [{"template": "bandit", "id": "bandit", "at": [3, 0], "tactic": "hold"}]},
        ],
        options={"wound-penalties": True},
    )  # fmt: skip
    state.combatants["silar"].counters["wounds"] = wounds
    return state


def _initiative(state: Any, faces: list[int]) -> dict[str, ev.InitiativeRolled]:
    f = start(state, faces)
    declare(f, "silar", "tail-attack")
    f.advance_until_decision()
    return {e.actor: e for e in of(f.log, ev.InitiativeRolled)}, f


def test_tail_attack_lowers_initiative_step_2_to_step_1_not_below_p371_p386() -> None:
    """Step 2 and Tail Attack (-2): rolled at Step 1 in the ordinary order, not "acts last at 1". Silar
    rolls Step 1 (d4-2): 4, exploding, + 3 - 2 = 5 beats the bandit's 2, so he acts first. The old code
    made him act last at Initiative 1."""
    rolls, f = _initiative(_silar_at_step_2(), [4, 3, 2])
    silar = rolls["silar"]
    assert (silar.step, silar.value) == (1, 5)
    assert silar.rule == "ed4/initiative/test p.371"
    assert f.state.order[0] == "silar"


def test_wounds_below_step_1_still_act_last_with_tail_attack_p371() -> None:
    """Step 2 with two Wounds (-2, involuntary): below Step 1, so he acts last at Initiative 1, whatever he
    declared."""
    rolls, f = _initiative(_silar_at_step_2(wounds=2), [2])
    silar = rolls["silar"]
    assert (silar.value, silar.rule) == (1, "ed4/initiative/below-step-1 p.371")
    assert f.state.order[-1] == "silar"
