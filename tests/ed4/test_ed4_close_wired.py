"""ED4 close combat in play (000_4b24aca42c3b6366.txt p.391-392): grappling, breaking free, the grappled
character's other actions, improvised weapons."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import build

from fight_helpers import cmd, of
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.errors import IllegalCommand


def silar_and_the_bandit():
    return build(
        [
            {
                "name": "A",
                "combatants": [{"template": "silar", "id": "silar", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [{"template": "bandit", "id": "bandit", "at": [1, 0], "tactic": "person"}],
            },
        ]
    )


def test_the_bandit_grapples_silar_and_his_tail_needs_10_p392() -> None:
    state = silar_and_the_bandit()
    bandit = state.combatants["bandit"]
    assert bandit.stats.physical_defense == 8
    assert bandit.stats.attack("Unarmed").step == 10
    f = start(state, [1, 9])  # Initiative: Silar d12 1, the bandit d10 9: the bandit acts first
    declare(f, "silar", "tail-attack")
    declare(f, "bandit")
    # Unarmed Combat step 10 (2d8): 8+1 (exploded), 7 = 16 against Silar's PD 10: one extra success
    act(f, "bandit", [8, 1, 7])
    events = f.submit(cmd("bandit", "attack", "silar", attack="Unarmed", grapple=True))
    assert not of(events, ev.Damaged)  # no damage (p.392)
    g = f.state.combatants["silar"].conditions["grappled"]
    assert g.value == 10 and g.source == "bandit"
    act(f, "silar", [])
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("silar", "move", path=[[-1, 0]]))
    assert err.value.rule == "ed4/combat/grappling p.392"
    f.dice = ScriptedDice([1, 1])
    events = f.submit(cmd("silar", "tail-attack", "bandit", end=False))
    tail = [e for e in of(events, ev.Rolled) if e.test == "Tail Attack"][0]
    assert tail.dn == 10  # Physical Defense 8 raised to the hold's Unarmed Combat Step 10


def test_breaking_free_p392() -> None:
    from fracas.engine.state import Condition

    state = silar_and_the_bandit()
    state.combatants["silar"].conditions["grappled"] = Condition("grappled", 5, 10, "bandit")
    state.combatants["bandit"].marks["holding"] = "silar"
    f = start(state, [7, 1])  # Silar first
    declare(f, "silar")
    declare(f, "bandit")
    act(f, "silar", [])
    f.dice = ScriptedDice([8, 1, 5])  # the better of Unarmed Combat 9 and Strength 5: step 9, d8 8+1, d6 5
    events = f.submit(cmd("silar", "break-free"))
    r = [e for e in of(events, ev.Rolled) if e.test.startswith("Break free")][0]
    assert r.dn == 10 and r.success
    assert "grappled" not in f.state.combatants["silar"].conditions


def test_improvised_weapon_minus_2_p392() -> None:
    state = silar_and_the_bandit()
    f = start(state, [7, 1])
    declare(f, "silar")
    declare(f, "bandit")
    act(f, "silar", [1, 1])
    events = f.submit(cmd("silar", "attack", "bandit", attack="Dagger", improvised=True))
    a = [e for e in of(events, ev.Rolled) if e.test == "Dagger Attack"][0]
    assert (-2, "ed4/combat/improvised p.392") in [(int(v), r) for v, _, r in a.modifiers]


def test_no_tail_attack_once_knocked_down_p382_p389() -> None:
    """p.382: "A character who is knocked down cannot use a combat option until he is standing" (p.389:
    Jump Up excepted). Silar declared Tail Attack, was knocked down, and still lashed out with his tail."""
    from fracas.engine.state import Condition

    state = silar_and_the_bandit()
    f = start(state, [1, 9])  # Initiative: Silar d12 1, the bandit d10 9
    declare(f, "silar", "tail-attack")
    declare(f, "bandit")
    act(f, "bandit", [])
    f.submit(cmd("bandit", "end"))
    act(f, "silar", [])
    f.state.combatants["silar"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("silar", "tail-attack", "bandit", end=False))
    assert err.value.rule == "ed4/option/not-while-knocked-down p.382"


def _grappled_silar():
    state = silar_and_the_bandit()
    f = start(state, [1, 9])  # Initiative: Silar d12 1, the bandit d10 9: the bandit acts first
    declare(f, "silar")
    declare(f, "bandit")
    act(f, "bandit", [8, 1, 7])  # 16 against Silar's PD 10: one extra success, a hold
    f.submit(cmd("bandit", "attack", "silar", attack="Unarmed", grapple=True))
    act(f, "silar", [])
    f.submit(cmd("silar", "end"))
    f.dice = ScriptedDice([1, 9])  # round 2: the bandit first again
    declare(f, "silar")
    declare(f, "bandit")
    act(f, "bandit", [])
    assert "grappled" in f.state.combatants["silar"].conditions
    return f


def test_a_hold_lasts_only_while_its_standard_action_keeps_it_p392() -> None:
    """p.392: "he can maintain the hold by declaring that he is doing so as his standard action during
    consecutive rounds". The bandit punched Silar with his Standard action in round 2 and Silar stayed
    grappled (unable to move) to the end of the round."""
    f = _grappled_silar()
    f.dice = ScriptedDice([1, 1])  # a Rule of One: the punch misses
    events = f.submit(cmd("bandit", "attack", "silar", attack="Unarmed"))
    assert "grappled" not in f.state.combatants["silar"].conditions
    assert "holding" not in f.state.combatants["bandit"].marks
    assert any(isinstance(e, ev.ConditionRemoved) and e.name == "grappled" for e in events)


def test_keeping_the_hold_keeps_him_grappled_p392() -> None:
    f = _grappled_silar()
    f.submit(cmd("bandit", "hold"))
    assert "grappled" in f.state.combatants["silar"].conditions
    assert f.state.combatants["bandit"].marks["holding"] == "silar"


def test_a_grapple_applied_outside_the_round_is_checked_too_p392() -> None:
    """The hold check after each command looks only at who may be grappled, kept from one command to the
    next; a grapple applied outside the ruleset's round (a fight resumed from its log, say) is looked for
    again: Silar, grappled by a bandit who holds nobody, is free after the next command (p.392)."""
    f = start(silar_and_the_bandit(), [1, 9])
    declare(f, "silar")
    declare(f, "bandit")
    act(f, "bandit", [])
    f.apply([ev.ConditionAdded("silar", "grappled", 5, 10, "bandit", "ed4/combat/grappling p.392")])
    events = f.submit(cmd("bandit", "end"))
    assert [(e.target, e.name) for e in of(events, ev.ConditionRemoved)] == [("silar", "grappled")]
    assert "grappled" not in f.state.combatants["silar"].conditions
