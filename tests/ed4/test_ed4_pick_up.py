"""A thrown weapon after the throw (000_4b24aca42c3b6366.txt p.392): it is gone from the thrower's hand and
lies where it fell; picking it up is the gamemaster's call in the text (no action is given), here a Simple
action in or next to its hex [choice], and the default tactic fetches it when it has no other weapon."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, person_registered, start
from ed4_helpers import RULESET, build

from fight_helpers import cmd, of
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.ed4 import ranged


@pytest.fixture(autouse=True)
def _person() -> None:
    person_registered()  # another test module may have removed the test's "person" tactic


def _spear_duel(tactic: str = "person", at: int = 3):
    return build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "thrak", "equipment": {"weapons": ["spear"]}, "at": [0, 0], "tactic": tactic}
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [at, 0], "tactic": "hold"}]},
        ]
    )


def test_pick_up_is_listed_as_the_gamemasters_call_with_its_default_p392() -> None:
    row = {r.id: r for r in RULESET.rules()}["ed4/combat/pick-up-thrown-weapon"]
    assert row.page == "p.392" and row.status == "gm-call"
    assert "Simple action" in row.note and "[choice]" in row.note
    assert ranged.PICK_UP_RULE.startswith(row.id)
    assert ranged.can_pick_up((0, 0), (1, 0)) and ranged.can_pick_up((0, 0), (0, 0))
    assert not ranged.can_pick_up((0, 0), (2, 0))


def test_the_thrown_spear_lies_at_the_targets_hex_and_is_picked_up_as_a_simple_action_p392() -> None:
    state = _spear_duel()
    f = start(state, [5, 1])
    declare(f, "thrak")
    act(f, "thrak", [5, 4, 3, 2, 2])
    f.submit(cmd("thrak", "attack", "ghoul", attack="Spear (thrown)", end=False))
    thrak = f.state.combatants["thrak"]
    assert thrak.marks["thrown_to"] == {"Spear": [3, 0]}
    assert set(thrak.marks["thrown_away"]) == {"Spear", "Spear (thrown)"}
    with pytest.raises(IllegalCommand) as err:  # three hexes away: out of reach
        RULESET.validate(f.state, cmd("thrak", "pick-up"))
    assert err.value.rule == ranged.PICK_UP_RULE
    with pytest.raises(IllegalCommand):  # the spear is gone: no close attack with it either
        RULESET.validate(f.state, cmd("thrak", "attack", "ghoul", attack="Spear"))
    f.submit(cmd("thrak", "move", path=[[1, 0], [2, 0]], end=False))
    events = f.submit(cmd("thrak", "pick-up"))
    assert any(isinstance(e, ev.Note) and "picks up the Spear" in e.text for e in events)
    assert not of(events, ev.TurnEnded)  # a Simple action: the turn goes on
    thrak = f.state.combatants["thrak"]
    assert "thrown_to" not in thrak.marks and "thrown_away" not in thrak.marks
    with pytest.raises(IllegalCommand):  # the Standard action went on the throw
        RULESET.validate(f.state, cmd("thrak", "attack", "ghoul", attack="Spear"))


def test_pick_up_without_anything_thrown_is_refused_p392() -> None:
    state = _spear_duel()
    f = start(state, [5, 1])
    declare(f, "thrak")
    act(f, "thrak", [])
    with pytest.raises(IllegalCommand) as err:
        RULESET.validate(f.state, cmd("thrak", "pick-up"))
    assert err.value.rule == ranged.PICK_UP_RULE


def test_the_default_tactic_fetches_its_thrown_weapon_when_it_has_no_other_p392() -> None:
    # Thrak with only a spear throws it at a ghoul 20 yards off, then goes to pick it up and strikes
    state = _spear_duel(tactic="default", at=10)
    f = Fight(RULESET, state, RandomDice(3), seed=3)
    f.run()
    log = f.log or []
    threw = [i for i, e in enumerate(log) if isinstance(e, ev.Rolled) and e.test == "Spear (thrown) Attack"]
    picked = [i for i, e in enumerate(log) if isinstance(e, ev.Note) and "picks up the Spear" in e.text]
    struck = [i for i, e in enumerate(log) if isinstance(e, ev.Rolled) and e.test == "Spear Attack"]
    assert threw and picked and struck
    assert threw[0] < picked[0] < struck[0]


def test_a_weapon_thrown_at_an_area_lies_where_it_landed_p393() -> None:
    state = _spear_duel()
    f = start(state, [5, 1])
    declare(f, "thrak")
    act(f, "thrak", [2, 3, 2, 1, 1])  # a miss against DN 7, then the scatter (p.393)
    events = f.submit(cmd("thrak", "throw-at", attack="Spear (thrown)", at=[2, 1]))
    roll = [e for e in of(events, ev.Rolled) if "thrown at an area" in e.test][0]
    thrak = f.state.combatants["thrak"]
    assert "Spear" in thrak.marks["thrown_to"]
    assert not roll.success
    note = [e for e in of(events, ev.Note) if "scatters" in e.text][0]
    assert str(thrak.marks["thrown_to"]["Spear"]) in note.text  # it lies where it scattered to


def test_a_person_is_offered_the_pick_up_when_it_is_legal_p392() -> None:
    from fracas.engine.commands import Decision

    state = _spear_duel()
    f = start(state, [5, 1])
    declare(f, "thrak")
    act(f, "thrak", [5, 4, 3, 2, 2])
    f.submit(cmd("thrak", "attack", "ghoul", attack="Spear (thrown)", end=False))
    offered = [c.action for c in RULESET.choices(f.state, Decision("thrak", "act"))]
    assert "pick-up" not in offered  # three hexes away
    f.submit(cmd("thrak", "move", path=[[1, 0], [2, 0]], end=False))
    offered = [c.action for c in RULESET.choices(f.state, Decision("thrak", "act"))]
    assert "pick-up" in offered
