"""ED4: a reserved strike at a charging rider (p.375, p.385) or a swooper (p.398) may be a Called Shot at a
weapon (p.384): the reserve command carries the strike's ``attack`` and ``called``
(000_4b24aca42c3b6366.txt)."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from test_ed4_mounted_wired import FOE, davon

from fight_helpers import cmd, of
from fracas.engine import events as ev
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.profile import profile_from_block
from fracas.rules.ed4 import options as o

ARMS = [
    {"name": "Spear", "kind": "melee", "step": 10, "damage": 9, "size": 3},
    {"name": "Dagger", "kind": "melee", "step": 9, "damage": 6, "size": 1},
]


def far_reserves(**strike: str):
    state = davon()
    far = state.combatants["far"]
    far.stats = profile_from_block(dict(FOE, attacks=ARMS), "Far", "test")
    far.tactic = "person"
    f = start(state, [3, 3, 3, 8, 1, 3])  # Initiative: Far acts before Davon
    declare(f, "davon")
    declare(f, "far", o.CALLED_SHOT)
    act(f, "far", [])
    f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}, **strike))
    return f


def test_a_reserved_called_shot_at_the_charging_riders_weapon_p384_p385() -> None:
    """p.384: a Called Shot "to disarm" takes -3 on the Attack test and the target tests Strength against the
    Damage Step to hold on. The reserved strike at a charging rider had no command arguments: it was a plain
    Spear attack. Now the Dagger named when reserving makes a Called Shot at the Battle-axe."""
    f = far_reserves(attack="Dagger", called="weapon")
    # Far: Dagger step 9 - 3 = 6 (d10): 10+10+5 = 25 hits; Davon's Strength test to hold: all 1s fails
    act(f, "davon", [10, 10, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    first = of(events, ev.Rolled)[0]
    assert (first.actor, first.test) == ("far", "Dagger Attack")
    assert (-3, "Called Shot", "ed4/option/called-shot p.384") in [tuple(m) for m in first.modifiers]
    hold = [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (hold")]
    assert hold and hold[0].actor == "davon" and hold[0].dn == 6


def test_the_reserved_strike_arguments_are_checked_when_reserving_p384() -> None:
    with pytest.raises(IllegalCommand):
        far_reserves(attack="Crossbow")
    with pytest.raises(IllegalCommand):
        far_reserves(called="head")
    state = davon()
    state.combatants["far"].tactic = "person"
    f = start(state, [3, 3, 3, 8, 1, 3])
    declare(f, "davon")
    declare(f, "far")
    act(f, "far", [])
    with pytest.raises(IllegalCommand, match="Called Shot"):
        f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}, called="weapon"))


def test_a_reserved_called_shot_intercepting_a_swoop_p384_p398() -> None:
    """p.398: the reserved defender with the higher Initiative strikes the swooper as it comes; a Called Shot
    at a weapon named when reserving makes the swooper test Strength to hold on (p.384). It was a plain
    strike."""
    from test_ed4_reserved_strike_strain import _griffin_over_thrak

    f = start(_griffin_over_thrak(), [7, 1, 1, 1])  # Thrak's Initiative above the griffin's
    declare(f, "thrak", o.CALLED_SHOT)
    declare(f, "griffin", "split-movement")
    f.advance_until_decision()
    act(f, "thrak", [])
    f.submit(cmd("thrak", "reserve", trigger={"on": "attack"}, attack="Battle-axe", called="weapon"))
    # Thrak's Battle-axe (step 8 with the -3) hits 23 against 5; the griffin's hold test rolls 1
    act(f, "griffin", [6, 6, 6, 4] + [1] * 20)
    events = f.submit(cmd("griffin", "swoop", "thrak", attack="Claws", after=[[2, 0]], altitude=10))
    rolled = of(events, ev.Rolled)
    assert (rolled[0].actor, rolled[0].test, rolled[0].success) == ("thrak", "Battle-axe Attack", True)
    assert (rolled[1].actor, rolled[1].test, rolled[1].dn) == ("griffin", "Strength (hold on)", 14)
