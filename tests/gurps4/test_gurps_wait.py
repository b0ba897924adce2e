"""The Wait maneuver (B366; reference/gurps.md 1.3: "none until triggered ... becomes an attack or 'stop
thrust' when triggered"): a trigger (a foe moving into the weapon's reach) and a response (an Attack)."""

from __future__ import annotations

from typing import Any

import pytest
from scripted import fight_of

from fight_helpers import two_sides
from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.registry import get_ruleset

RS = get_ruleset("gurps4")


def duel(dice: list[int], w_at: tuple[int, int] = (4, 0), s_weapons: list[str] | None = None) -> Fight:
    s: dict[str, Any] = {"template": "spearman", "id": "s", "at": [0, 0]}
    if s_weapons:
        s["equipment"] = {"weapons": s_weapons}
    f = fight_of(two_sides(s, {"template": "swordsman", "id": "w", "at": list(w_at)}), faces=dice)
    d = f.advance_until_decision()
    assert d is not None and d.actor == "w"  # the swordsman (Basic Speed 6) acts first
    f.submit(Command("w", "do_nothing"))
    d = f.advance_until_decision()
    assert d is not None and d.actor == "s"
    return f


def notes(events: list[ev.Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, ev.Note)]


def test_wait_is_offered_and_validated() -> None:
    f = duel([3] * 40)
    d = f.pending()
    assert d is not None
    waits = [c for c in RS.choices(f.state, d) if c.action == "wait"]
    assert {c.args["weapon"] for c in waits} >= {"spear:thrust", "spear:thrust_two_handed"}
    with pytest.raises(IllegalCommand, match="active foe"):
        RS.validate(f.state, Command("s", "wait", "s", {"weapon": "spear:thrust"}))
    with pytest.raises(IllegalCommand, match="say which weapon"):
        RS.validate(f.state, Command("s", "wait", "w", {}))


def test_foe_moving_into_reach_triggers_the_waiting_attack_before_the_mover_goes_on() -> None:
    # the spearman waits; the swordsman walks into reach: the spear strikes (roll 6: hit), the swordsman
    # does not defend, damage 1d+1 imp = 7 - DR 4; then his Move ends and the round goes on (B366)
    f = duel([2, 2, 2, 6, *([3] * 40)])
    f.submit(Command("s", "wait", "w", {"weapon": "spear:thrust"}))
    assert f.state.combatants["s"].marks["waiting"]["weapon"] == "spear:thrust"
    f.advance_until_decision()  # round 2: the swordsman first
    events = f.submit(Command("w", "move", None, {"to": [1, 0]}))
    assert any("Wait is triggered" in n for n in notes(events))
    roll = [e for e in events if isinstance(e, ev.Rolled)][-1]
    assert roll.actor == "s" and roll.target == "w" and roll.success
    react = f.pending()
    assert react is not None and react.kind == "react" and react.actor == "w"
    after = f.submit(Command("w", "defend", None, {"defense": "none"}))
    assert any(isinstance(e, ev.Damaged) and e.target == "w" for e in after)
    assert any(isinstance(e, ev.TurnEnded) and e.actor == "w" for e in after)  # the Move is over
    assert "waiting" not in f.state.combatants["s"].marks or not f.state.combatants["s"].marks["waiting"]
    d = f.advance_until_decision()
    assert d is not None and d.actor == "s" and d.kind == "act"


def test_the_attackers_own_attack_follows_the_waiting_attack() -> None:
    # the swordsman steps in with an Attack: the Wait strikes first (roll 18: a miss), then his own
    # swing is rolled
    f = duel([6, 6, 6, *([3] * 60)], w_at=(2, 0))
    f.submit(Command("s", "wait", None, {"weapon": "spear:thrust"}))
    f.advance_until_decision()
    events = f.submit(Command("w", "attack", "s", {"weapon": "broadsword:swing", "maneuver": "attack"}))
    rolls = [e for e in events if isinstance(e, ev.Rolled)]
    assert [r.actor for r in rolls[:2]] == ["s", "w"]
    assert not rolls[0].success and "critical" in rolls[0].outcome  # 18 is a critical failure
    assert rolls[1].success  # then the swordsman's own swing, which the spearman must defend
    d = f.pending()
    assert d is not None and d.kind == "react" and d.actor == "s"


def test_an_untriggered_wait_lapses_at_the_waiters_next_turn() -> None:
    f = duel([3] * 60)
    f.submit(Command("s", "wait", "w", {"weapon": "spear:thrust"}))
    f.advance_until_decision()
    f.submit(Command("w", "do_nothing"))  # the swordsman stays out of reach
    d = f.advance_until_decision()
    assert d is not None and d.actor == "s"
    assert not f.state.combatants["s"].marks.get("waiting")


def test_a_foe_already_in_reach_does_not_trigger_a_melee_wait() -> None:
    f = duel([3] * 60, w_at=(1, 0))
    f.submit(Command("s", "wait", "w", {"weapon": "spear:thrust"}))
    f.advance_until_decision()
    events = f.submit(Command("w", "move", None, {"to": [1, -1]}))  # stays adjacent
    assert not any("Wait is triggered" in n for n in notes(events))
    assert f.pending() is None or f.pending().actor != "w"  # type: ignore[union-attr]


def test_a_mount_carrying_its_rider_into_reach_triggers_a_wait_for_the_rider() -> None:
    # B366 Wait; B396 (text): the mount moves and carries its rider. The spearman waits for the knight;
    # the horse brings him within the spear's reach: the spear strikes the knight, not the horse.
    data = {
        "version": 1,
        "ruleset": "gurps4",
        "name": "wait mounted",
        "sides": [
            {"name": "A", "combatants": [
                {"template": "saddle_horse", "id": "horse", "at": [6, 0]},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [0, 0]}]},
        ],
    }  # fmt: skip
    _, state = encounter.load_data(data, "<test>")
    f = Fight(RS, state, ScriptedDice([3] * 200))
    while (d := f.advance_until_decision()) is not None and d.actor != "s":
        f.submit(Command(d.actor, "do_nothing"))
    f.submit(Command("s", "wait", "knight", {"weapon": "spear:thrust"}))
    while (d := f.advance_until_decision()) is not None and d.actor != "horse":
        f.submit(Command(d.actor, "do_nothing"))
    events = f.submit(Command("horse", "move", None, {"to": [0, 0]}))
    attack = [e for e in events if isinstance(e, ev.Rolled) and e.actor == "s"]
    assert attack and attack[0].target == "knight"
    d = f.pending()
    assert d is not None and d.kind == "react" and d.actor == "knight"


def test_a_ranged_wait_shoots_a_foe_who_moves_within_range() -> None:
    # B366 Wait with a bow (Shots 1(2) after it, B275): the trigger is the foe moving and ending in range
    data = {
        "version": 1,
        "ruleset": "gurps4",
        "name": "wait bow",
        "sides": [
            {"name": "A", "combatants": [{"template": "horse_archer", "id": "arch", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [20, 0]}]},
        ],
    }  # fmt: skip
    _, state = encounter.load_data(data, "<test>")
    f = Fight(RS, state, ScriptedDice([3] * 200))
    while (d := f.advance_until_decision()) is not None and d.actor != "arch":
        f.submit(Command(d.actor, "do_nothing"))
    f.submit(Command("arch", "wait", None, {"weapon": "composite_bow"}))
    while (d := f.advance_until_decision()) is not None and d.actor != "s":
        f.submit(Command(d.actor, "do_nothing"))
    events = f.submit(Command("s", "move", None, {"to": [15, 0]}))
    shots = [e for e in events if isinstance(e, ev.Rolled) and e.actor == "arch"]
    assert shots and shots[0].target == "s"
    assert f.state.combatants["arch"].marks.get("reload") == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_play_with_waits_is_pure_and_replays(seed: int) -> None:
    # every command chosen from choices() (Waits often), resolve() never mutates the state, and the log
    # replays to the same state
    import random
    from pathlib import Path

    from fracas.dice.source import RandomDice
    from fracas.engine.play import replay

    path = Path(__file__).parents[2] / "examples" / "gurps4" / "fight-on-foot.yaml"
    _, state = encounter.load(path)
    state.max_rounds = 15
    initial = state.clone()
    f = Fight(RS, state, RandomDice(seed))
    rng = random.Random(seed)
    triggered = 0
    while not f.state.ended:
        d = f.advance_until_decision()
        if d is None:
            break
        options = RS.choices(f.state, d)
        waits = [c for c in options if c.action == "wait"]
        cmd = rng.choice(waits) if waits and rng.random() < 0.5 else f.auto_command(d)
        before = f.state.snapshot()
        events = RS.resolve(f.state, cmd, RandomDice(seed))
        assert f.state.snapshot() == before
        del events
        triggered += sum("Wait is triggered" in n for n in notes(f.submit(cmd)))
    assert f.log is not None
    assert replay(RS, initial, f.log).snapshot() == f.state.snapshot()
