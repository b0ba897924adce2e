"""ED4 spell combat in play (000_4b24aca42c3b6366.txt p.377-378, p.393)."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import build

from fight_helpers import auto, cmd, of
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.errors import IllegalCommand


def maloren_and_the_thundra():
    return build(
        [
            {
                "name": "A",
                "combatants": [{"template": "maloren", "id": "maloren", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {"template": "thundra-beast", "id": "thundra", "at": [5, 0], "tactic": "hold"}
                ],
            },
        ]
    )


def test_earth_darts_needs_its_thread_then_three_successes_lengthen_the_armor_effect_p377() -> None:
    state = maloren_and_the_thundra()
    assert state.combatants["thundra"].stats.mystic_defense == 7
    f = start(state, [3, 3, 3])
    declare(f, "maloren")
    act(f, "maloren", [])
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("maloren", "cast", "thundra", spell="Earth Darts"))
    assert err.value.rule == "ed4/combat/spell-threads p.373"
    state.combatants["maloren"].marks["woven"] = {"Earth Darts": 1}  # as if woven last round
    f.dice = ScriptedDice([12, 1, 8, 3, 3])  # d12 12+1, d10 8 = 21; the Effect test 2d6
    events = f.submit(cmd("maloren", "cast", "thundra", spell="Earth Darts"))
    cast = [e for e in of(events, ev.Rolled) if e.test == "Earth Darts Spellcasting"][0]
    assert (cast.total, cast.dn, cast.extra) == (21, 7, 2)  # three successes
    red = f.state.combatants["thundra"].conditions["armor-reduced"]
    assert red.until_round - f.state.round + 1 == 1 + 4  # its base round and four more
    assert [e.test for e in of(events, ev.Rolled)][-1] == "Earth Darts Effect"


def test_weaving_a_thread_p373() -> None:
    state = maloren_and_the_thundra()
    f = start(state, [3, 3, 3])
    declare(f, "maloren")
    act(f, "maloren", [6, 6])
    events = f.submit(cmd("maloren", "weave", spell="Earth Darts"))
    w = [e for e in of(events, ev.Rolled) if e.test.startswith("Thread Weaving")][0]
    assert w.dn == 5 and w.success
    assert f.state.combatants["maloren"].marks["woven"] == {"Earth Darts": 1}


def test_earth_darts_armor_reduction_counts_for_the_next_blows_p377() -> None:
    from fracas.engine.state import Condition

    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thrak", "id": "thrak", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {"template": "thundra-beast", "id": "thundra", "at": [1, 0], "tactic": "hold"}
                ],
            },
        ]
    )
    state.combatants["thundra"].conditions["armor-reduced"] = Condition("armor-reduced", 5, 2, "maloren")
    f = start(state, [3, 3, 3])
    declare(f, "thrak")
    act(f, "thrak", [9, 7, 5, 5, 1, 1])  # Battle-axe d10+d8 = 16 against PD 12; damage 2d12 = 10
    events = f.submit(cmd("thrak", "attack", "thundra", attack="Battle-axe"))
    hit = [e for e in of(events, ev.Damaged) if e.target == "thundra"][0]
    assert (hit.raw, hit.armor, hit.amount) == (10, 9 - 2, 3)


def test_a_spell_cast_as_a_reserved_action_has_its_dn_raised_by_2_p375() -> None:
    """p.375: "Characters taking a reserved action add +2 to the Difficulty Number of all actions performed
    on their turn" - a Spellcasting test too. Only the attack command's tests had it."""

    state = maloren_and_the_thundra()
    state.combatants["thundra"].tactic = "person"
    state.combatants["maloren"].marks["woven"] = {"Earth Darts": 1}
    f = start(state, [7, 1, 1])  # Initiative: Maloren d8 7, the thundra 2d6 1+1
    declare(f, "maloren")
    declare(f, "thundra")
    act(f, "maloren", [])
    f.submit(cmd("maloren", "reserve", trigger={"on": "action"}))
    auto(f, "thundra", "act")
    f.submit(cmd("thundra", "move", path=[[4, 0]]))
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("maloren", "react")
    f.dice = ScriptedDice([12, 1, 8, 3, 3])
    events = f.submit(cmd("maloren", "cast", "thundra", spell="Earth Darts"))
    cast = [e for e in of(events, ev.Rolled) if e.test == "Earth Darts Spellcasting"][0]
    assert cast.dn == 7 + 2
    assert (2, "DN: reserved action", "ed4/actions/reserved p.375") in cast.modifiers
