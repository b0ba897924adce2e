"""The same encounter file under ``ed1`` and ``ed4`` gives each edition's numbers: the Step table, the
success levels, Initiative, movement and the characteristics read from attribute values."""

from __future__ import annotations

import copy

import pytest
from ed1_helpers import ED1, build, declare

from fight_helpers import auto, cmd, fight, of, rolled
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.registry import get_ruleset

BLOCK = {
    "kind": "character",
    "dexterity": 15,
    "strength": 14,
    "toughness": 14,
    "perception": 10,
    "willpower": 10,
    "charisma": 10,
    "movement": 12,
    "attacks": [{"name": "Axe", "step": 10, "damage": 14}],
}
SIDES = [
    {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": BLOCK, "initiative": None}]},
    {"name": "B", "combatants": [{"id": "b", "at": [1, 0], "stats": BLOCK}]},
]


def both(sides: list, **kw):
    clean = copy.deepcopy(sides)
    for s in clean:
        for c in s["combatants"]:
            c.pop("initiative", None)
    return build(clean, ruleset="ed1", **kw), build(copy.deepcopy(clean), ruleset="ed4", **kw)


def run_both(seed: int):
    s1, s4 = both(SIDES, max_rounds=20)
    f1 = Fight(ED1, s1, RandomDice(seed))
    f4 = Fight(get_ruleset("ed4"), s4, RandomDice(seed))
    f1.run()
    f4.run()
    return f1, f4


def test_characteristics_from_the_same_attribute_values() -> None:
    s1, s4 = both(SIDES)
    p1, p4 = s1.combatants["a"].stats, s4.combatants["a"].stats
    # Dexterity 15: ED1 Attribute Table Defense 8; ED4 ceil(15/2)+1 = 9. Toughness 14: ED1 WT 10, Death 36;
    # ED4 WT 9, Death 34 (2 x 14 + step 6).
    assert (p1.physical_defense, p4.physical_defense) == (8, 9)
    assert (p1.wound_threshold, p4.wound_threshold) == (10, 9)
    assert (p1.death, p4.death) == (36, 34)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_step_table_step_14_is_d20_d4_in_ed1_and_2d12_in_ed4(seed: int) -> None:
    f1, f4 = run_both(seed)
    d1 = [e for e in rolled(f1.log, "Damage") if e.step == 14]
    d4 = [e for e in rolled(f4.log, "Damage") if e.step == 14]
    assert all(sorted({d[0] for d in e.roll["dice"]}) == [4, 20] for e in d1)
    assert all(sorted({d[0] for d in e.roll["dice"]}) == [12] for e in d4)
    assert d1 or d4


def test_success_levels_in_ed1_extra_successes_in_ed4() -> None:
    seen1: set[str] = set()
    extra4 = 0
    for seed in range(1, 8):
        f1, f4 = run_both(seed)
        for e in rolled(f1.log, "Attack"):
            assert e.extra == 0
            seen1.add(e.outcome.split()[0])
        for e in rolled(f4.log, "Attack"):
            assert e.outcome in ("success", "failure", "Rule of One: failure")
            extra4 += e.extra
    assert seen1 & {"Good", "Excellent", "Extraordinary", "Average"}
    assert seen1 <= {"Pathetic", "Poor", "Average", "Good", "Excellent", "Extraordinary", "Rule"}
    assert extra4 > 0


def test_initiative_ties_ed4_by_step_ed1_in_the_gamemasters_order() -> None:
    """ED4 p.371 breaks a tie by the higher Initiative step; ED1 ch.12§Initiative: tied characters act at
    the same time, in the gamemaster's order (the encounter file's here)."""
    slow = dict(BLOCK, initiative=4)
    fast = dict(BLOCK, initiative=6)
    sides = [
        {"name": "A", "combatants": [{"id": "slow", "at": [0, 0], "stats": slow, "tactic": "hold"}]},
        {"name": "B", "combatants": [{"id": "fast", "at": [5, 0], "stats": fast, "tactic": "hold"}]},
    ]
    s1, s4 = both(sides)
    f1 = fight(s1, [3, 3])  # step 4 = d6, step 6 = d10, both 3
    declare(f1, {})
    f1.advance_until_decision()
    f4 = fight(s4, [3, 3], get_ruleset("ed4"))
    f4.advance_until_decision()
    assert s1.order == ["slow", "fast"]
    assert s4.order == ["fast", "slow"]


def test_movement_ed1_combat_and_full_movement_ed4_rate_and_double() -> None:
    """The same war horse: ED1 ch.12§Movement gives Combat Movement with an action and Full Movement when
    moving is all it does (ED1 data: 40 and 80 yards); ED4 p.373 gives its Movement Rate (16 yards) and
    double that for the Standard action."""
    sides = [
        {"name": "A", "combatants": [{"template": "war-horse", "id": "h", "at": [0, 0], "player": True}]},
        {"name": "B", "combatants": [{"template": "war-horse", "id": "x", "at": [0, 60], "tactic": "hold"}]},
    ]
    s1, s4 = both(sides)
    e4 = get_ruleset("ed4")
    f1 = fight(s1, [3, 2])
    declare(f1, {})
    auto(f1, "h")
    f4 = fight(s4, [5, 2, 1, 2], e4)
    auto(f4, "h")

    def line(n: int) -> list[list[int]]:
        return [[0, -i] for i in range(1, n + 1)]

    assert (ED1.movement_hexes(s1, s1.combatants["h"]), ED1.full_hexes(s1, s1.combatants["h"])) == (20, 40)
    assert e4.movement_hexes(s4, s4.combatants["h"]) == 8
    ED1.validate(s1, cmd("h", "move", path=line(20)))
    ED1.validate(s1, cmd("h", "run", path=line(40)))
    with pytest.raises(IllegalCommand):
        e4.validate(s4, cmd("h", "move", path=line(9)))
    e4.validate(s4, cmd("h", "run", path=line(16)))
    with pytest.raises(IllegalCommand):
        e4.validate(s4, cmd("h", "run", path=line(17)))


def test_an_unknown_action_is_refused_naming_each_editions_actions() -> None:
    """A command no rule defines is refused with the actions the edition does define, by name: ED1 has no
    delayed or sustained action (ch.12§Reserved-Actions), ED4 adds the commands of p.382-398."""
    sides = [
        {"name": "A", "combatants": [{"template": "war-horse", "id": "h", "at": [0, 0], "player": True}]},
        {"name": "B", "combatants": [{"template": "war-horse", "id": "x", "at": [0, 60], "tactic": "hold"}]},
    ]
    s1, s4 = both(sides)
    f1 = fight(s1, [3, 2])
    declare(f1, {})
    auto(f1, "h")
    with pytest.raises(IllegalCommand) as exc:
        ED1.validate(s1, cmd("h", "dance"))
    assert str(exc.value) == (
        "unknown action 'dance'; known: attack, end, move, reserve, revive, run, simple, stand-up"
    )
    e4 = get_ruleset("ed4")
    f4 = fight(s4, [5, 2, 1, 2], e4)
    auto(f4, "h")
    with pytest.raises(IllegalCommand) as exc:
        e4.validate(s4, cmd("h", "dance"))
    assert str(exc.value) == (
        "unknown action 'dance'; known: attack, break-free, cast, charge, declare, delay, dismount, end, "
        "gallop, hold, jump-up, mount, move, pick-up, recover-flight, release, reserve, revive, run, "
        "simple, stand-up, sustain, swoop, tail-attack, throw-at, weave"
    )


def test_ed1_declarations_are_part_of_the_round() -> None:
    f1, f4 = run_both(4)
    assert of(f1.log, ev.Declared)
    assert all(e.action in ("attack", "run", "stand-up", "other", "move") for e in of(f1.log, ev.Declared))
