"""Spells & Swords rules under interaction, each case a fight with every die scripted.

004 = shared/rules/004_0d1ac50b56c23caf.txt (sections cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case names the class of rule it belongs to (A timing, B
stacking, D counting, E what a creature cannot do).
"""

from __future__ import annotations

from typing import Any

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

SAS = get_ruleset("sas")


def _state(left: list[dict], right: list[dict], **top: Any) -> Any:
    _, state = encounter.load_data({
        "version": 1,
        "ruleset": "sas",
        "options": top.pop("options", {"brawl-rule": False}),
        "sides": [{"name": "left", "combatants": left}, {"name": "right", "combatants": right}],
        **top,
    })  # fmt: skip
    return state


# ----- A. death takes effect when the marker lands ------------------------------------------------------


def test_a_bleeding_foe_at_its_wound_level_dies_at_the_start_of_the_round_and_never_acts() -> None:
    """004 BLEED TABLE 1 "Get 1 Wound Marker", rolled "At the beginning of every Round"; DEATH BY A THOUSAND
    CUTS "Non-Heroic Foes and Creatures will just die immediately"."""
    state = _state(
        [{"template": "fighter", "id": "a", "at": [0, 0]}],
        [{"template": "goblin-boss", "id": "o", "at": [1, 0]}],
    )
    o = state.combatants["o"]
    o.counters["markers"] = o.stats.wound_level - 1
    o.counters["bleeds"] = 1
    # side Initiative: left 1, right 20 (the orc's side would act first); Bleed Table 1
    fight = Fight(SAS, state, ScriptedDice([1, 20, 1]))
    decision = fight.advance_until_decision()
    assert state.combatants["o"].status == "dead"
    assert decision is None or decision.actor != "o"
    assert state.ended and state.winner == "left"
