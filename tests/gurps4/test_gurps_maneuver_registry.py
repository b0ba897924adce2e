"""The maneuvers of B363-366 and the defend reaction as the ruleset dispatches them: one registry
(``MANEUVERS``), whose order is the order of the choices a figure is offered."""

from __future__ import annotations

import pytest
from scripted import RS, duel, play

from fracas.engine.commands import Command
from fracas.errors import IllegalCommand
from fracas.rules.actions import Registry
from fracas.rules.gurps4.maneuvers import DoNothing
from fracas.rules.gurps4.ruleset import MANEUVERS

SWORD = {"template": "knight", "id": "knight", "at": [0, 0], "stats": {"basic_speed": 7}}
SPEAR = {"template": "spearman", "id": "spear", "at": [1, 0]}


def test_every_command_action_is_registered_once() -> None:
    assert MANEUVERS.names() == (
        "attack",
        "aim",
        "evaluate",
        "wait",
        "feint",
        "move",
        "all_out_defense",
        "ready",
        "change_posture",
        "concentrate",
        "do_nothing",
        "defend",
    )
    with pytest.raises(ValueError, match="do_nothing"):
        Registry((DoNothing(), DoNothing()))


def test_an_unknown_action_is_refused_naming_the_maneuvers() -> None:
    # B363: a figure's turn is one maneuver; "defend" answers an attack, it is not one of them
    f = duel(SWORD, SPEAR)
    with pytest.raises(IllegalCommand) as e:
        RS.validate(f.state, Command("knight", "charge", "spear"))
    assert "known: attack, aim, evaluate, wait, feint, move, all_out_defense, ready" in str(e.value)
    assert "defend" not in str(e.value)
    assert e.value.rule == "gurps4/core/maneuver B363"


def test_choices_come_foe_by_foe_in_the_registry_order_then_the_rest() -> None:
    f = duel(SWORD, SPEAR)
    actions = [c.action for c in RS.choices(f.state, RS.pending(f.state))]
    order = MANEUVERS.names()
    first_move = actions.index("move")  # the Move toward the foe closes the foe's commands
    aimed = actions[: first_move + 1]
    assert aimed == sorted(aimed, key=order.index)
    rest = actions[first_move + 1 :]
    assert rest == sorted(rest, key=order.index)
    assert {"attack", "evaluate", "wait", "feint", "all_out_defense", "do_nothing"} <= set(actions)


def test_the_defend_reaction_is_offered_the_defenses_on_offer_only() -> None:
    f = duel(SWORD, SPEAR)
    attack = next(c for c in RS.choices(f.state, RS.pending(f.state)) if c.action == "attack")
    play(f, [3, 3, 3], attack)
    decision = RS.pending(f.state)
    assert decision is not None and decision.kind == "react"
    choices = RS.choices(f.state, decision)
    assert choices and {c.action for c in choices} == {"defend"}
    assert choices[0].args == {"defense": "none"}
