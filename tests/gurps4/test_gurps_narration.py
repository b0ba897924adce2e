"""GURPS events told in words: what a game master reads for maneuvers, aerial retreats and the end of a
fight."""

from __future__ import annotations

from scripted import RS, flyer_data

from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.narrate import narrate


def test_narration_reads_well() -> None:
    _, state = encounter.load_data(flyer_data(10), "<test>")
    assert RS.narrate(ev.ConditionRemoved("a", "shock", "applies to this turn only", "r"), state) == ""
    assert narrate(ev.ConditionRemoved("a", "shock", "applies to this turn only", "r"), state, RS) is None
    state.combatants["a"].altitude = 11
    line = narrate(ev.Moved("a", (), "retreat", None, 11, "gurps4/aerial/retreat B398"), state, RS)
    assert line is not None and "retreats 1 yd upward (now 11 yd up)" in line
    won = narrate(ev.FightEnded("A", 3, "last side standing"), state, RS)
    assert won is not None and "A wins after 3 rounds" in won


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
