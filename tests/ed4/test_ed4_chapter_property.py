"""Property tests for the chapter pieces added to encounter files (000_4b24aca42c3b6366.txt p.382-393):
over many random fights with standing combat options, entangling weapons and thrown weapons, the marks and
conditions stay consistent after every batch of events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from ed4_helpers import RULESET
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.ed4 import options as opt

ROOT = Path(__file__).resolve().parents[2]
SLAVERS = yaml.safe_load((ROOT / "examples/ed4/slavers-nets.yaml").read_text())
THROWERS: dict[str, Any] = {
    "version": 1,
    "ruleset": "ed4",
    "name": "throwers",
    "max_rounds": 20,
    "sides": [
        {
            "name": "A",
            "combatants": [
                {"template": "thrak", "equipment": {"weapons": ["spear"]}, "at": [0, 0],
                 "combat_options": ["aggressive-attack", "jump-up"]},
                {"template": "silar", "at": [0, 2], "combat_options": ["tail-attack", "called-shot"]},
            ],
        },
        {
            "name": "B",
            "combatants": [
                {"template": "bandit", "id": "netter", "equipment": {"weapons": ["net", "dagger"]},
                 "at": [7, 0]},
                {"template": "bandit", "id": "bola", "equipment": {"weapons": ["bola"]}, "at": [7, 2],
                 "combat_options": ["defensive-stance", "attack-to-knockdown"]},
            ],
        },
    ],
}  # fmt: skip


def _weapon(attack: str) -> str:
    return attack.removesuffix(" (thrown)")


def _check(events: list[ev.Event], state: Any) -> None:
    for c in state.combatants.values():
        by = c.marks.get("entangled_by")
        assert ("entangled" in c.conditions) == bool(by), c.id
        if by:
            assert by[0] in state.combatants
        lying = c.marks.get("thrown_to") or {}
        gone = {_weapon(a) for a in c.marks.get("thrown_away") or ()}
        assert set(lying) <= gone, c.id  # a weapon lying about is out of its thrower's hand
        for a in c.marks.get("thrown_away") or ():
            assert c.stats.attack(a) is not None
    for e in events:
        if isinstance(e, ev.Declared):
            c = state.combatants[e.actor]
            standing = c.marks.get("combat_options") or ()
            if standing and "surprised" not in c.conditions:
                opt.check_declaration(
                    e.options,
                    knocked_down="knocked-down" in c.conditions,
                    tskrang=c.id == "silar",
                )
                now = opt.round_declaration(
                    standing, knocked_down="knocked-down" in c.conditions, surprised=False
                )
                assert set(now) - {opt.SHATTER} <= set(e.options)  # the file's options, when legal


def _run(data: dict[str, Any], seed: int) -> Fight:
    _, state = encounter.load_data(data, "<property>")
    f = Fight(RULESET, state, RandomDice(seed), seed=seed)
    f.listeners.append(_check)
    f.run()
    return f


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_slavers_marks_and_conditions_stay_consistent(seed: int) -> None:
    f = _run(SLAVERS, seed)
    assert f.state.ended


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_throwers_with_standing_options_stay_consistent(seed: int) -> None:
    f = _run(THROWERS, seed)
    assert f.state.ended
