"""ED4 aerial combat in play (000_4b24aca42c3b6366.txt p.398)."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import RULESET, build

from fight_helpers import cmd, of
from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import events as ev
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.combat import Scratch
from fracas.rules.ed4 import aerial
from fracas.rules.ed4.features import falling


def griffin_over_thrak(options: dict | None = None):
    return build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thrak", "id": "thrak", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {
                        "template": "griffin",
                        "id": "griffin",
                        "at": [1, 0],
                        "altitude": 10,
                        "tactic": "person",
                        "options": {"flying": True},
                    }
                ],
            },
        ],
        options,
    )


def test_a_flier_ten_yards_up_is_out_of_close_reach_p398() -> None:
    state = griffin_over_thrak()
    state.combatants["griffin"].tactic = "hold"
    f = start(state, [3, 3, 3, 3])
    declare(f, "thrak")
    act(f, "thrak", [])
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("thrak", "attack", "griffin", attack="Battle-axe"))
    assert err.value.rule == "ed4/combat/aerial p.398"


def test_swoop_needs_splitting_movement_p398() -> None:
    f = start(griffin_over_thrak(), [3, 3, 3, 3])
    declare(f, "thrak")
    declare(f, "griffin")
    act(f, "griffin", [])
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("griffin", "swoop", "thrak", attack="Claws", after=[[2, 0]], altitude=10))
    assert err.value.rule == "ed4/aerial/swooping-attack p.398"


def test_swoop_in_strike_and_back_up_p398() -> None:
    f = start(griffin_over_thrak(), [3, 3, 3, 3])
    declare(f, "thrak")
    declare(f, "griffin", "split-movement")
    act(f, "griffin", [])
    f.dice = RandomDice(7)
    events = f.submit(cmd("griffin", "swoop", "thrak", attack="Claws", after=[[2, 0], [3, 0]], altitude=10))
    g = f.state.combatants["griffin"]
    if g.status == "active" and "knocked-down" not in g.conditions:
        assert (g.pos, g.altitude) == ((3, 0), 10)
    assert [e.amount for e in of(events, ev.Damaged) if e.damage_type == "strain"] == [1]
    claws = [e for e in of(events, ev.Rolled) if e.test == "Claws Attack"][0]
    assert "ed4/situation/harried p.388" in [
        r for _, _, r in claws.modifiers
    ]  # Harried by its own split move


def test_knocked_out_of_the_sky_falls_and_takes_damage_by_the_distance_p398() -> None:
    state = griffin_over_thrak()
    sc = Scratch(state)
    falling.knocked_out_of_sky(RULESET, state, sc, ScriptedDice([6, 6, 6, 1]), "griffin")
    moved = [e for e in sc.events if isinstance(e, ev.Moved)]
    assert moved[0].altitude == 0
    fall = [e for e in sc.events if isinstance(e, ev.Rolled)][0]
    assert fall.step == aerial.falling_step(10)
    assert [e.damage_type for e in sc.events if isinstance(e, ev.Damaged)] == ["falling"]


def test_long_falls_plummet_over_rounds_p398() -> None:
    state = griffin_over_thrak({"long-falls": True})
    sc = Scratch(state)
    falling.knocked_out_of_sky(RULESET, state, sc, ScriptedDice([]), "griffin")
    assert "falling" in sc.get("griffin").conditions
    assert not [e for e in sc.events if isinstance(e, ev.Damaged)]


def test_the_default_tactic_never_swings_at_a_flier_out_of_reach() -> None:
    from ed4_helpers import RULESET as RS

    from fracas.engine.play import Fight

    state = griffin_over_thrak()
    state.combatants["thrak"].tactic = "default"
    state.combatants["griffin"].tactic = "hold"
    state.max_rounds = 3
    f = Fight(RS, state, RandomDice(2))
    f.run()  # no IllegalCommand: the plan is checked against the chapter's rules
    assert state.ended and state.winner is None
    assert not [e for e in of(f.log, ev.Rolled) if e.actor == "thrak" and e.test.endswith("Attack")]


def test_an_unconscious_faller_makes_a_recovery_test_after_one_round_p398() -> None:
    """p.398 (Long Falls): "A creature or character that is unconscious and falling makes a Recovery test
    after one round of uncontrolled descent, as if he were being roused by another character"."""
    state = griffin_over_thrak({"long-falls": True})
    state.combatants["griffin"].altitude = 200
    sc = Scratch(state)
    falling.knocked_out_of_sky(RULESET, state, sc, ScriptedDice([]), "griffin")
    for e in sc.events:
        e.apply(state)
    g = state.combatants["griffin"]
    g.counters["damage"] = g.stats.unconsciousness + 1
    g.status = "unconscious"
    sc = Scratch(state)
    falling.long_falls(RULESET, state, RandomDice(3), sc, 2)
    rec = [e for e in of(sc.events, ev.Rolled) if e.actor == "griffin" and e.test == "Recovery"]
    assert len(rec) == 1
    for e in sc.events:
        e.apply(state)
    sc = Scratch(state)
    falling.long_falls(RULESET, state, RandomDice(4), sc, 3)  # once only: it is no longer "after one round"
    assert not [e for e in of(sc.events, ev.Rolled) if e.test == "Recovery"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_swoop_attacking_to_stun_deals_stun_damage_p383_p398(seed: int) -> None:
    """p.383: Attacking to Stun makes the close combat attacks' damage Stun damage; a swoop's strikes are
    close combat attacks (p.398). The swoop dealt normal damage."""
    f = start(griffin_over_thrak(), [3, 3, 3, 3])
    declare(f, "thrak")
    declare(f, "griffin", "split-movement", "attack-to-stun")
    act(f, "griffin", [])
    f.dice = RandomDice(seed)
    events = f.submit(cmd("griffin", "swoop", "thrak", attack="Claws", after=[[2, 0], [3, 0]], altitude=10))
    hits = [e for e in of(events, ev.Damaged) if e.target == "thrak"]
    assert len(hits) == len([e for e in of(events, ev.Rolled) if e.test == "Claws Attack" and e.success])
    assert all(e.counter == "stun" for e in hits)
