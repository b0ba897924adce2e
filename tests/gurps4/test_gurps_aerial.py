"""The aerial-combat rules of rules text 002 (Basic Set p.B398) as tests: its numbers, then its rules played
through real commands in a fight, the flight ceiling included."""

from __future__ import annotations

import pytest
from scripted import RS, fight_of, flyer_data

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError, IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import aerial
from fracas.rules.gurps4.defense import defense_options


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


# ----- the same rules played through real commands in a fight ----------------------------------------


def flyers() -> Fight:
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "winged_warrior", "id": "ilia", "at": [0, 0], "altitude": 10},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": [30, 0]}]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d is not None and d.actor == "ilia"
    return f


def moved_yards(events: list[ev.Event], who: str) -> int:
    return sum(len(e.path) for e in events if isinstance(e, ev.Moved) and e.actor == who)


def test_a_flyer_below_a_third_of_its_hp_flies_at_half_its_air_move() -> None:
    # reference 1.6 (B419): below 1/3 HP, halve Move (rounding up); a flyer's Move is its air Move (002 p.B398
    # uses "basic air Move" for its movement). The engine halved ground Move only: a reeling flyer flew 11.
    f = flyers()
    assert moved_yards(f.submit(Command("ilia", "move", None, {"to": [30, 0], "altitude": 10})), "ilia") == 11
    f = flyers()
    f.state.combatants["ilia"].counters["injury"] = 8  # 3 of 11 HP left
    assert moved_yards(f.submit(Command("ilia", "move", None, {"to": [30, 0], "altitude": 10})), "ilia") == 6


def test_climbing_costs_as_moving_across_and_a_diagonal_yard_1_5_in_play() -> None:
    # 002 p.B398 "Vertical movement costs the same as horizontal movement. Moving a yard vertically and a yard
    # horizontally simultaneously (diagonal movement at 45 degrees) costs the same as 1.5 horizontal yards."
    # Air Move 11, 4 yd up: 4 diagonal yards (6) + 5 across = 11.
    f = flyers()
    events = f.submit(Command("ilia", "move", None, {"to": [30, 0], "altitude": 14}))
    assert moved_yards(events, "ilia") == 9 and f.state.combatants["ilia"].altitude == 14


def test_a_dive_adds_10_to_air_move_in_play() -> None:
    # 002 p.B398 "A diving flyer ... add +10 to basic air Move ... on any turn spent diving and doing nothing
    # else (a Move maneuver)": air Move 11 + 10 = 21; 10 yd down: 10 diagonal yards (15) + 6 across = 21.
    f = flyers()
    events = f.submit(Command("ilia", "move", None, {"to": [30, 0], "altitude": 0, "dive": True}))
    assert moved_yards(events, "ilia") == 16 and f.state.combatants["ilia"].altitude == 0


def test_a_hovering_flyer_retreats_for_one_more_and_goes_up_a_yard_in_play() -> None:
    # 002 p.B398 "If a flyer can hover, and has enough space to move one step up or down, he gets +1 over and
    # above the usual retreating bonus when he retreats"; "he can specify that he is doing so vertically".
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "winged_warrior", "id": "ilia", "at": [0, 0], "altitude": 10},
            ]},
            {"name": "B", "combatants": [
                {"template": "winged_warrior", "id": "ash", "at": [1, 0], "altitude": 10,
                 "stats": {"dx": 11}},
            ]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d is not None and d.actor == "ilia"
    f.submit(Command("ilia", "do_nothing"))
    f.advance_until_decision()
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])
    f.submit(Command("ash", "attack", "ilia", {"weapon": "spear:thrust", "maneuver": "attack"}))
    values = {(c.args["defense"], c.args.get("retreat")): v for c, v in defense_options(f.state)}
    assert values[("dodge", True)] == values[("dodge", False)] + 3 + 1
    f.submit(Command("ilia", "defend", None, {"defense": "dodge", "retreat": True}))
    assert f.state.combatants["ilia"].altitude == 11


def test_encounter_above_the_flight_ceiling_is_refused_naming_the_rule() -> None:
    # B398: past 6,000 ft a flyer has trouble breathing; 2,001 yd = 6,003 ft
    with pytest.raises(EncounterFileError, match=r"altitude: 2001 yd is 6,003 ft.*Flight Ceiling B398"):
        encounter.load_data(flyer_data(2001), "<test>")
    encounter.load_data(flyer_data(2000), "<test>")  # 6,000 ft is still fine


def test_a_climb_above_the_ceiling_is_refused() -> None:
    _, state = encounter.load_data(flyer_data(1999), "<test>")
    f = Fight(RS, state, RandomDice(1))
    while (d := f.advance_until_decision()) is not None and d.actor != "a":
        f.submit(Command(d.actor, "do_nothing"))
    with pytest.raises(IllegalCommand, match="flight ceiling") as e:
        RS.validate(f.state, Command("a", "move", None, {"to": [0, 0], "altitude": 2010}))
    assert e.value.rule == "gurps4/aerial/ceiling B398"
