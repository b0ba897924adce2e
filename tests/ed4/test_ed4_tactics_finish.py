"""Every tactic finishes its turn, and knows only what its side knows (p.371-398; encounter format: a
``hidden`` combatant is "unseen by the other side's tactics").

- After a charge the mount's Standard action is spent (p.396); if its rider dies falling off, the mount
  acts on under its own tactic, which must not ask for a second Standard action (p.373).
- A player character's default tactic does not hunt a hidden monster (ED4 and ED1), until it attacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ed4_chapter_helpers import start
from ed4_helpers import RULESET, build

from fight_helpers import cmd
from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
BLOCK = {
    "dexterity": 12, "strength": 12, "toughness": 12, "perception": 12, "willpower": 12, "charisma": 12,
    "attacks": [{"name": "Sword", "step": 10, "damage": 10}],
}  # fmt: skip


def test_the_cavalry_charge_in_which_the_rider_dies_plays_to_the_end_p373_p396() -> None:
    """The replay of the failed simulation: the ork rider charges, falls off and dies; his war horse then
    acts, its Standard action spent on the charge: it ends its turn (it asked to attack again)."""
    _, state = encounter.load(ROOT / "examples/ed4/cavalry-charge.yaml")
    seed = 1314827147944116179
    f = Fight(get_ruleset("ed4"), state, RandomDice(seed), seed=seed)
    f.run_checked()
    assert f.state.ended


def test_a_default_tactic_whose_standard_action_is_spent_ends_its_turn_p373() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": BLOCK}]},
            {"name": "B", "combatants": [{"id": "b", "at": [1, 0], "stats": BLOCK, "tactic": "hold"}]},
        ]
    )
    f = start(state, [6, 1])
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("a", "act")
    state.combatants["a"].marks["std"] = state.round  # spent (a mount's, on its rider's charge)
    c = f.auto_command(d)
    assert c.action == "end"
    RULESET.validate(f.state, c)


def _hidden_monster(ruleset: str) -> Any:
    sides = [
        {"name": "Heroes", "combatants": [{"id": "hero", "at": [0, 0], "stats": BLOCK, "player": True}]},
        {"name": "Monsters", "combatants": [{"id": "lurker", "at": [6, 0], "stats": BLOCK, "hidden": True,
                                             "tactic": "hold"}]},
    ]  # fmt: skip
    data = {"version": 1, "ruleset": ruleset, "name": "t", "sides": sides}
    return encounter.load_data(data, "<test>")[1]


def test_a_players_tactic_does_not_hunt_a_hidden_monster_ed4() -> None:
    """Hero (a player character) and a hidden monster 6 hexes away: his tactic does not walk to it (it ran
    to it: the tactics of player characters saw hidden enemies)."""
    state = _hidden_monster("ed4")
    f = Fight(get_ruleset("ed4"), state, RandomDice(3))
    for _ in range(60):
        d = f.advance_until_decision()
        if d is None or f.state.round > 3:
            break
        c = f.auto_command(d)
        if d.actor == "hero":
            assert c.target != "lurker" and not c.args.get("path"), c
        f.submit(c)


def test_a_hidden_ed1_monster_that_attacks_is_seen_from_then_on() -> None:
    """ED1 has no surprise rule: a hidden monster is unseen by the other side's tactics until it attacks;
    then it is revealed (the heroes' tactics answer it)."""
    state = _hidden_monster("ed1")
    rules = get_ruleset("ed1")
    lurker = state.combatants["lurker"]
    lurker.pos = (1, 0)
    f = Fight(rules, state, RandomDice(4))
    for _ in range(40):
        d = f.advance_until_decision()
        if d is None:
            break
        c = (
            cmd("lurker", "attack", "hero", attack="Sword")
            if (d.actor, d.kind) == ("lurker", "act")
            else None
        )
        f.submit(c or f.auto_command(d))
        if lurker.marks.get("revealed"):
            break
    assert lurker.marks.get("revealed")
    assert any(isinstance(e, ev.Marked) and e.key == "revealed" for e in f.log)
