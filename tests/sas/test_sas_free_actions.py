"""COMBAT ROUND ACTIONS LIST "Change Facing - Free Action/Reaction": turning does not spend the turn's
action. Once a turn (docs/rulesets/sas.md): the turn always comes to its action."""

from __future__ import annotations

from sas_by_the_text_helpers import start, unit


def test_change_facing_keeps_the_turn_once() -> None:
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", (9, 0), 3)])
    assert p.legal("change-facing", None, facing=2)
    p.act("change-facing", None, facing=2)
    assert p.c("x").facing == 2 and p.decision is not None and p.decision.actor == "x"
    assert not p.legal("change-facing", None, facing=1)
    assert "change-facing" not in {c.action for c in p.offered()}
    assert p.legal("attack", "y")
    p.act("attack", "y", faces=[5])  # a Miss: the turn ends with the action
    assert p.decision is None or p.decision.actor != "x"
