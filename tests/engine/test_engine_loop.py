"""The engine's bookkeeping with a toy ruleset: one attack per turn, 1d6 damage, out at 6 damage."""

from __future__ import annotations

import json

from fracas.dice.roll import roll_dice
from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.contract import FirstChoice, Ruleset
from fracas.engine.hexgrid import between, distance, line, neighbours
from fracas.engine.play import Fight, replay
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import Rule


class Toy(Ruleset):
    id = "toy"
    name = "Toy"

    def rules(self) -> list[Rule]:
        return [Rule("toy/hit", "Hit", "-")]

    def templates(self) -> list[str]:
        return []

    def make_combatants(self, spec, side, where):  # pragma: no cover - not used
        return []

    def pending(self, state: FightState) -> Decision | None:
        if state.phase == "act" and state.current is not None and state.current not in state.acted:
            return Decision(state.current, "act")
        return None

    def advance(self, state, dice):
        if state.phase in ("started", "round-end"):
            return [ev.RoundStarted(state.round + 1)]
        if state.phase == "declare":
            order = tuple(c.id for c in state.combatants.values() if c.active)
            return [ev.OrderSet(order), ev.TurnStarted(order[0])]
        if state.phase == "act":
            nxt = state.turn + 1
            while nxt < len(state.order) and not state.combatants[state.order[nxt]].active:
                nxt += 1
            if nxt < len(state.order):
                return [ev.TurnStarted(state.order[nxt])]
            return [ev.RoundEnded(state.round)]
        raise AssertionError(state.phase)

    def choices(self, state, decision):
        me = state.combatants[decision.actor]
        foes = [c for c in state.combatants.values() if c.side != me.side and c.active]
        return [Command(me.id, "hit", f.id) for f in foes]

    def validate(self, state, command):
        pass

    def resolve(self, state, command, dice):
        r = roll_dice([6], dice, explode=False)
        target = state.combatants[command.target]
        out = [
            ev.Rolled(command.actor, "hit", r.total, r.to_json(), expr="1d6", target=command.target),
            ev.Damaged(command.target, r.total, command.actor),
        ]
        if target.count("damage") + r.total >= 6:
            out.append(ev.StatusChanged(command.target, "unconscious"))
        out.append(ev.TurnEnded(command.actor))
        return out

    def tactics(self):
        return {"default": FirstChoice()}


def _state() -> FightState:
    cs = {
        "a": Combatant("a", "Alf", "left", None, pos=(0, 0)),
        "b": Combatant("b", "Bea", "right", None, pos=(1, 0)),
    }
    return FightState("toy", "duel", cs, ("left", "right"), max_rounds=20)


def test_fight_runs_to_the_end_and_replays_from_json() -> None:
    initial = _state()
    fight = Fight(Toy(), initial.clone(), RandomDice(5), seed=5)
    final = fight.run()
    assert final.ended and final.winner in ("left", "right")
    damage = {cid: 0 for cid in final.combatants}
    for e in fight.log:
        if isinstance(e, ev.Damaged):
            damage[e.target] += e.amount
    assert {cid: c.count("damage") for cid, c in final.combatants.items()} == damage
    wire = [json.loads(json.dumps(ev.to_json(e))) for e in fight.log]
    again = replay(Toy(), initial, [ev.from_json(d) for d in wire])
    assert again.snapshot() == final.snapshot()


def test_scripted_dice_give_a_known_fight() -> None:
    # Alf hits for 6 at once: Bea is out, the left side wins in round 1.
    fight = Fight(Toy(), _state(), ScriptedDice([6]))
    final = fight.run()
    assert final.winner == "left" and final.round == 1
    assert isinstance(fight.log[-1], ev.FightEnded)


def test_round_limit_makes_a_draw() -> None:
    state = _state()
    state.max_rounds = 1
    fight = Fight(Toy(), state, ScriptedDice([1, 1]))
    final = fight.run()
    assert final.ended and final.winner is None and "round limit" in final.end_reason


def test_hex_grid_basics() -> None:
    assert distance((0, 0), (3, -1)) == 3
    assert len(set(neighbours((2, 2)))) == 6
    assert all(distance(n, (2, 2)) == 1 for n in neighbours((2, 2)))
    path = line((0, 0), (4, 0))
    assert path == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert between((0, 0), (4, 0)) == [(1, 0), (2, 0), (3, 0)]
