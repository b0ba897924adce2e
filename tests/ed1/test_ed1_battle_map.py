"""ED1 on the battle map: the ED1 text gives no map scale, and fracas plays it on the ED4 map, where every
distance in yards covers whole hexes, rounded up (000_4b24aca42c3b6366.txt p.372: "if an effect has a range
of 1 yard, it should cover 1 hex"): Combat and Full Movement, and the ranges at their exact boundaries."""

from __future__ import annotations

from typing import Any

import pytest
from ed1_helpers import ED1, build, declare

from fight_helpers import auto, cmd, fight
from fracas.errors import IllegalCommand

BLOCK = {
    "kind": "character",
    "dexterity": 12,
    "strength": 12,
    "toughness": 12,
    "perception": 10,
    "willpower": 10,
    "charisma": 10,
    "movement": 5,
    "full_movement": 11,
    "attacks": [
        {"name": "Axe", "step": 10, "damage": 10},
        {"name": "Bow", "step": 10, "damage": 5, "kind": "missile", "range": [25, 51]},
    ],
}


def _state(foe_at: int) -> Any:
    return build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": BLOCK, "player": True}]},
            {"name": "B", "combatants": [{"id": "b", "at": [foe_at, 0], "stats": BLOCK, "tactic": "hold"}]},
        ]
    )


def _line(n: int) -> list[list[int]]:
    return [[i, 0] for i in range(1, n + 1)]


def _at_turn(foe_at: int) -> Any:
    s = _state(foe_at)
    f = fight(s, [6, 2, 2, 2])
    declare(f, {})
    auto(f, "a")
    return s


def test_combat_movement_5_is_3_hexes_full_movement_11_is_6_p372() -> None:
    s = _at_turn(30)
    me = s.combatants["a"]
    assert (ED1.movement_hexes(s, me), ED1.full_hexes(s, me)) == (3, 6)
    ED1.validate(s, cmd("a", "move", path=_line(3)))
    ED1.validate(s, cmd("a", "run", path=_line(6)))
    with pytest.raises(IllegalCommand):
        ED1.validate(s, cmd("a", "move", path=_line(4)))
    with pytest.raises(IllegalCommand):
        ED1.validate(s, cmd("a", "run", path=_line(7)))


def test_a_51_yard_long_range_reaches_26_hexes_p372() -> None:
    ED1.validate(_at_turn(26), cmd("a", "attack", "b", attack="Bow"))
    with pytest.raises(IllegalCommand):
        ED1.validate(_at_turn(27), cmd("a", "attack", "b", attack="Bow"))
