"""Acceptance details for a game master: the flight ceiling refused where an encounter or a move crosses it
(B398), and narration wording."""

from __future__ import annotations

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.narrate import narrate
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.registry import get_ruleset

RS = get_ruleset("gurps4")


def flyer_data(altitude: int) -> dict:
    return {
        "version": 1,
        "ruleset": "gurps4",
        "name": "ceiling",
        "sides": [
            {"name": "A", "combatants": [{"template": "winged_warrior", "id": "a", "at": [0, 0],
                                          "altitude": altitude}]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "b", "at": [5, 0]}]},
        ],
    }  # fmt: skip


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


def test_narration_reads_well() -> None:
    _, state = encounter.load_data(flyer_data(10), "<test>")
    assert RS.narrate(ev.ConditionRemoved("a", "shock", "applies to this turn only", "r"), state) == ""
    assert narrate(ev.ConditionRemoved("a", "shock", "applies to this turn only", "r"), state, RS) is None
    state.combatants["a"].altitude = 11
    line = narrate(ev.Moved("a", (), "retreat", None, 11, "gurps4/aerial/retreat B398"), state, RS)
    assert line is not None and "retreats 1 yd upward (now 11 yd up)" in line
    won = narrate(ev.FightEnded("A", 3, "last side standing"), state, RS)
    assert won is not None and "A wins after 3 rounds" in won


def test_a_lancers_mount_chased_by_a_swordsman_keeps_the_lances_reach() -> None:
    # Couched lance (B397, text): damage comes from the mount's movement, the lance strikes at reach 4.
    # A foe with no lance who closes in is not outrun (same Move): the mount circles at 4 yards instead.
    from fracas.engine.commands import Decision
    from fracas.engine.hexgrid import distance

    data = {
        "version": 1,
        "ruleset": "gurps4",
        "name": "chase",
        "sides": [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "h1", "at": [0, 0]},
                {"template": "jousting_knight", "id": "k1", "options": {"mount": "h1"}},
            ]},
            {"name": "B", "combatants": [
                {"template": "text_warhorse", "id": "h2", "at": [1, 0]},
                {"template": "jousting_knight", "id": "k2", "options": {"mount": "h2"},
                 "equipment": {"weapons": ["broadsword"]}},
            ]},
        ],
    }  # fmt: skip
    _, state = encounter.load_data(data, "<test>")
    cmd = RS.tactics()["default"].choose(state, Decision("h1", "act", ""), RS)
    assert cmd.action == "move"
    assert distance(tuple(cmd.args["to"]), (1, 0)) == 4


def test_a_rider_on_an_unknown_mount_is_told_which_mounts_there_are() -> None:
    data = flyer_data(0)
    data["sides"][1]["combatants"].append({"template": "knight", "id": "k", "options": {"mount": "nag"}})
    with pytest.raises(EncounterFileError, match=r"'nag' is not a mount in this encounter \(mounts: none"):
        encounter.load_data(data, "<test>")


def test_aim_evaluate_and_ready_read_by_what_they_do() -> None:
    # Aim (B364), Evaluate (B364, +1 a turn up to +3), Ready (B366; a bow's Shots 1(2))
    _, state = encounter.load_data(flyer_data(0), "<test>")
    a = state.combatants["a"]
    aim = RS.narrate(ev.Marked("a", "aim", ("b", "composite_bow", 2), "gurps4/core/maneuver/aim B364"), state)
    assert aim is not None and "Aim composite bow at Spearman (2 turns)" in aim
    evaluate = ev.Marked("a", "evaluate", ("b", 3), "gurps4/core/maneuver/evaluate B364")
    assert "Evaluate Spearman (+3)" in (RS.narrate(evaluate, state) or "")
    a.marks["maneuver"], a.marks["wielding"] = "ready", "composite_bow"
    ready = RS.narrate(ev.Marked("a", "reload", 1, "gurps4/core/maneuver/ready B366"), state)
    assert ready is not None and "Ready (composite bow: 1 more Ready to go)" in ready
    assert RS.narrate(ev.Marked("a", "maneuver", "ready", ""), state) == ""
