"""The battle map (000_4b24aca42c3b6366.txt p.372): "a hex be 2 yards wide ... It is usually best to round up
to cover a full hex; if an effect has a range of 1 yard, it should cover 1 hex". Every yard figure (Movement,
ranges, a charge's run) becomes hexes rounded up; the tests check the limits at their exact boundaries."""

from __future__ import annotations

from typing import Any

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import ATTRIBUTES_12, RULESET, build

from fight_helpers import cmd, encounter_state, of
from fracas.engine import events as ev
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.battle_map import covered_yards, hexes, within
from fracas.rules.ed4 import mounted

FOE = {**ATTRIBUTES_12, "physical_defense": 7, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}


def test_yards_round_up_to_whole_hexes_p372() -> None:
    assert [hexes(y) for y in (0, 1, 2, 3, 5, 24, 25)] == [0, 1, 1, 2, 3, 12, 13]
    assert within(13, 25) and not within(14, 25)
    assert covered_yards(25) == 26 and covered_yards(15) == 16


def _walker(movement: int, **extra: Any) -> Any:
    block = {**ATTRIBUTES_12, "movement": movement, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}
    return build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": block, "tactic": "person"}]},
            {"name": "B", "combatants": [{"id": "b", "at": [20, 0], "stats": FOE, "tactic": "hold"}]},
        ],
        **extra,
    )


def _line(n: int) -> list[list[int]]:
    return [[i, 0] for i in range(1, n + 1)]


def test_a_movement_rate_of_5_yards_is_3_hexes_p372() -> None:
    """Movement Rate 5: 3 hexes (5 / 2 rounded up), not 2; a 4th hex is refused."""
    f = start(_walker(5), [3, 3])
    declare(f, "a")
    act(f, "a", [])
    assert RULESET.movement_hexes(f.state, f.state.combatants["a"]) == 3
    with pytest.raises(IllegalCommand):
        RULESET.validate(f.state, cmd("a", "move", path=_line(4)))
    f.submit(cmd("a", "move", path=_line(3), end=False))
    assert f.state.combatants["a"].pos == (3, 0)


def test_heavily_impaired_movement_of_1_yard_is_1_hex_p372_p389() -> None:
    """p.389: heavy impairment takes 10 yards off the Movement Rate, never below 1; 1 yard covers 1 hex
    (p.372). A Movement Rate of 11 in heavy impairment could not move at all."""
    f = start(_walker(11, map={"extra": {"impaired": "heavy"}}), [3, 3])
    declare(f, "a")
    act(f, "a", [])
    assert RULESET.movement_hexes(f.state, f.state.combatants["a"]) == 1
    f.submit(cmd("a", "move", path=_line(1), end=False))
    assert f.state.combatants["a"].pos == (1, 0)


def _archer(foe_at: int) -> Any:
    block = {
        **ATTRIBUTES_12,
        "attacks": [{"name": "Bow", "step": 10, "damage": 5, "kind": "missile", "range": [25, 51]}],
    }
    return build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": block, "tactic": "person"}]},
            {"name": "B", "combatants": [{"id": "b", "at": [foe_at, 0], "stats": FOE, "tactic": "hold"}]},
        ]
    )


def _shot(foe_at: int) -> ev.Rolled:
    f = start(_archer(foe_at), [3, 3])
    declare(f, "a")
    act(f, "a", [2] * 30)
    events = f.submit(cmd("a", "attack", "b", attack="Bow"))
    return [e for e in of(events, ev.Rolled) if e.test == "Bow Attack"][0]


def _long_range(roll: ev.Rolled) -> bool:
    return any(str(r).startswith("ed4/situation/range") for _, _, r in roll.modifiers)


def test_a_25_yard_short_range_reaches_13_hexes_p372_p390() -> None:
    """Short range 25 yards covers 13 hexes: a target 13 hexes away (26 yards on the grid) is at short range,
    one 14 hexes away at long range (-2, p.390). At 13 hexes the shot had the long-range -2."""
    assert not _long_range(_shot(13))
    assert _long_range(_shot(14))


def test_a_51_yard_long_range_reaches_26_hexes_p372_p392() -> None:
    """Long range 51 yards covers 26 hexes: a target 26 hexes away may be shot (p.392: not beyond the long
    range), one 27 hexes away may not. At 26 hexes the shot was refused (52 > 51)."""
    assert _shot(26).test == "Bow Attack"
    with pytest.raises(IllegalCommand):
        _shot(27)


def test_the_default_tactic_shoots_at_the_boundary_it_may_p372() -> None:
    """The tactic's range check is the rules' own: a bow-armed tactic shoots at a foe 26 hexes away."""
    from fracas.rules.ed4.tactics import Ed4Tactic

    f = start(_archer(26), [3, 3])
    declare(f, "a")
    act(f, "a", [])
    c = Ed4Tactic().choose(f.state, f.pending(), RULESET)
    assert (c.action, c.target) == ("attack", "b")
    RULESET.validate(f.state, c)


def _rider(foe_at: int) -> Any:
    return build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "mount",
                     "stats": {"movement": 15}},
                    {"template": "ork-scorcher", "name": "Davon", "id": "davon", "tactic": "person",
                     "options": {"rides": "horse", "familiar": True}},
                ],
            },
            {"name": "Foes",
             "combatants": [{"id": "foe", "at": [foe_at, 0], "tactic": "hold", "stats": FOE}]},
        ]
    )  # fmt: skip


def test_a_charge_runs_beyond_the_hexes_of_the_movement_rate_p372_p396() -> None:
    """A mount of Movement Rate 15 moves 8 hexes (15 / 2 rounded up): a run of 8 hexes is an ordinary move,
    not a charge (p.396: more than the Movement Rate); 9 hexes (the text's "at least 17 yards") is one, and
    16 hexes (twice the Movement) the longest. The 8-hex run was taken as a charge (16 yards > 15)."""
    assert mounted.charge_eligible(covered_yards(15), 9 * 2)
    assert not mounted.charge_eligible(covered_yards(15), 8 * 2)
    assert mounted.charge_eligible(covered_yards(15), 16 * 2)
    f = start(_rider(9), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [])
    with pytest.raises(IllegalCommand) as err:
        RULESET.validate(f.state, cmd("davon", "charge", "foe", attack="Battle-axe", path=_line(8)))
    assert err.value.rule == "ed4/mounted/charging-attack p.396"
    f2 = start(_rider(10), [3, 3, 3, 3, 3])
    declare(f2, "davon")
    act(f2, "davon", [])
    RULESET.validate(f2.state, cmd("davon", "charge", "foe", attack="Battle-axe", path=_line(9)))


def test_within_the_minimum_range_includes_its_boundary_p392() -> None:
    """p.392: "If an attacker is within the minimum range given for his ranged weapon, he cannot attack with
    ranged combat", and ranged combat is "toward a target more than 2 yards away": a 2-yard minimum covers
    the adjacent hex (it was allowed: 2 yards is not less than 2); a flier 10 yards up over the adjacent hex
    is 10 yards away (p.398), beyond it."""
    from fracas.rules.earthdawn.battle_map import inside_minimum, range_hexes

    assert inside_minimum(1, 2) and not inside_minimum(2, 2)
    assert inside_minimum(3, 5) and not inside_minimum(4, 5)
    assert not inside_minimum(1, 0)
    assert range_hexes(1, 10, 0) == 5 and not inside_minimum(range_hexes(1, 10, 0), 2)
    block = {
        **ATTRIBUTES_12,
        "attacks": [{"name": "Bow", "step": 10, "damage": 5, "kind": "missile", "range": [2, 25, 51]}],
    }
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": block, "tactic": "person"}]},
            {"name": "B", "combatants": [{"id": "b", "at": [1, 0], "stats": FOE, "tactic": "hold"}]},
        ]
    )
    f = start(state, [3, 3])
    declare(f, "a")
    act(f, "a", [])
    with pytest.raises(IllegalCommand):
        RULESET.validate(f.state, cmd("a", "attack", "b", attack="Bow"))
    f.state.combatants["b"].altitude = 10
    RULESET.validate(f.state, cmd("a", "attack", "b", attack="Bow"))


@pytest.mark.parametrize("ruleset", ["ed4", "ed1"])
def test_combatants_without_a_hex_are_placed_round_the_maps_walls(ruleset: str) -> None:
    """Combatants without ``at`` are placed in rows, sides 8 hexes apart (docs/encounter-format.md), on hexes
    nobody stands on and the map does not block: a wall at the head of each row moves the row down, where
    the encounter was refused before ("starts on the blocked hex", for a hex the file never named)."""
    block = {**ATTRIBUTES_12, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}
    state = encounter_state(
        ruleset,
        [
            {"name": "A", "combatants": [{"id": "a", "stats": block, "count": 2}]},
            {"name": "B", "combatants": [{"id": "b", "stats": block, "count": 2}]},
        ],
        map={"blocked": [[0, 0], [8, 1]]},
    )
    assert {cid: c.pos for cid, c in state.combatants.items()} == {
        "a-1": (0, 1),
        "a-2": (0, 2),
        "b-1": (8, 0),
        "b-2": (8, 2),
    }
