"""The default tactic's paths go round taken and blocked hexes ("close to the nearest enemy").

``pathing.towards`` steps greedily while a neighbour is nearer the goal and, when none is (friends or
foes in the way), takes a shortest way round (``pathing.route``, breadth first, ties in DIRECTIONS order).
Before, a combatant whose nearer hexes were taken stood still: in ``fracas fight
examples/ed4/mica-and-the-ghouls.yaml --seed 1`` 35 of 79 turns did nothing while enemies stood.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.hexgrid import DIRECTIONS, distance
from fracas.engine.pathing import route, towards
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _idle_turns(example: str, seed: int) -> tuple[int, int]:
    """(turns that did nothing, turns) of the fight, every tactic command validated before it is resolved."""
    spec, state = encounter.load(EXAMPLES / example)
    fight = Fight(get_ruleset(spec.ruleset), state, RandomDice(seed), seed=seed)
    while not fight.state.ended:
        decision = fight.advance_until_decision()
        if decision is None:
            break
        fight.submit(fight.auto_command(decision))
    idle = turns = 0
    current: list[str] | None = None
    for e in fight.log or ():
        kind = type(e).__name__
        if kind == "TurnStarted":
            current = []
            turns += 1
        elif kind == "TurnEnded":
            if current is not None and all(k in ("Marked", "Note", "CounterChanged") for k in current):
                idle += 1
            current = None
        elif current is not None:
            current.append(kind)
    return idle, turns


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mica_and_the_ghouls_no_turn_stands_idle(seed: int) -> None:
    # seed 1 had 35 idle turns of 79 (Ghoul 5 idle in rounds 2-17) with the greedy path
    idle, turns = _idle_turns("ed4/mica-and-the-ghouls.yaml", seed)
    assert turns > 0
    assert idle == 0


def _walk_ok(start: tuple[int, int], path: list[tuple[int, int]], blocked: set[tuple[int, int]]) -> None:
    here = start
    for h in path:
        assert distance(here, h) == 1
        assert h not in blocked
        here = h
    assert len(set(path)) == len(path)


def test_blocked_corridor_goes_round_the_wall() -> None:
    # a wall along q = 2 (r from -4 to 4) with a gap at r = -3; the goal is straight beyond the wall
    wall = {(2, r) for r in range(-4, 5) if r != -3}
    start, goal = (0, 0), (4, 0)
    blocked = wall | {goal}
    # greedy alone would walk to (1, 0) and stop against the wall
    path = towards(start, goal, 20, blocked)
    _walk_ok(start, path, blocked)
    assert distance(path[-1], goal) == 1
    assert (2, -3) in path  # through the gap
    assert len(path) == len(route(start, goal, blocked) or [])
    # within the Movement of one turn: the first hexes of the same way
    assert towards(start, goal, 3, blocked) == path[:3]


def test_friend_in_the_way_is_walked_round() -> None:
    # the enemy two hexes east; both hexes next to the two of them are taken by friends
    start, goal = (0, 0), (2, 0)
    blocked = {goal, (1, 0), (1, -1)}
    assert towards(start, goal, 6, blocked) == [(0, 1), (1, 1)]  # round the south side, 2 hexes
    # with the south way taken too: round the north, 4 hexes (the first of the shortest ways found)
    blocked.add((0, 1))
    path = towards(start, goal, 6, blocked)
    _walk_ok(start, path, blocked)
    assert path == [(0, -1), (1, -2), (2, -2), (2, -1)]


def test_walled_in_goal_keeps_the_greedy_steps() -> None:
    goal = (5, 0)
    ring1 = {(goal[0] + dq, goal[1] + dr) for dq, dr in DIRECTIONS}
    blocked = ring1 | {goal}
    assert route((0, 0), goal, blocked) is None
    path = towards((0, 0), goal, 10, blocked)
    _walk_ok((0, 0), path, blocked)
    assert distance(path[-1], goal) == 2  # as near as the free hexes go
    assert towards((0, 0), goal, 0, blocked) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_paths_are_deterministic_and_shortest(seed: int) -> None:
    rng = random.Random(seed)
    start, goal = (0, 0), (rng.randint(2, 6), rng.randint(-3, 3))
    hexes = [(q, r) for q in range(-3, 9) for r in range(-5, 6) if (q, r) not in (start, goal)]
    blocked = set(rng.sample(hexes, rng.randint(0, 40))) | {goal}
    limit = rng.randint(1, 12)
    path = towards(start, goal, limit, blocked)
    # the same answer whatever order the blocked hexes come in (ties go the DIRECTIONS way)
    again = list(blocked)
    rng.shuffle(again)
    assert towards(start, goal, limit, set(again)) == path
    assert towards(start, goal, limit, frozenset(again)) == path
    _walk_ok(start, path, blocked)
    assert len(path) <= limit
    way = route(start, goal, blocked)
    if way is not None and path and distance(path[-1], goal) == 1:
        assert len(path) == len(way)  # no longer than the shortest way
    if way is not None and len(way) <= limit:
        assert path and distance(path[-1], goal) == 1  # reachable this turn: reached


def test_ed1_runs_toward_a_foe_beyond_a_full_move() -> None:
    # the ED1 tactic shares pathing.route; before, a foe farther than a full move got no move at all
    data = {
        "version": 1,
        "ruleset": "ed1",
        "name": "far apart",
        "max_rounds": 30,
        "sides": [
            {"name": "A", "combatants": [{"template": "thom-hammerblade", "id": "thom", "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "ork-raider", "id": "ork", "at": [60, 0]}]},
        ],
    }
    spec, state = encounter.load_data(data, "<far>")
    ruleset = get_ruleset(spec.ruleset)
    fight = Fight(ruleset, state, RandomDice(1), seed=1)
    runs = 0
    for _ in range(6):
        decision = fight.advance_until_decision()
        assert decision is not None
        cmd = fight.auto_command(decision)
        if decision.kind == "act":
            me = fight.state.combatants[cmd.actor]
            assert cmd.action == "run"
            path = [tuple(h) for h in cmd.args["path"]]
            assert len(path) == ruleset.full_hexes(fight.state, me)
            _walk_ok(me.pos, path, set())
            runs += 1
        fight.submit(cmd)
    assert runs >= 2


def test_ed1_run_goes_round_a_wall() -> None:
    """The ED1 tactic's run toward a foe beyond a full move: greedy steps, then the way round."""
    wall = {(2, r) for r in range(-4, 5) if r != -3}
    start, goal = (0, 0), (30, 0)
    path = towards(start, goal, 10, wall | {goal})
    _walk_ok(start, path, wall)
    assert path == (route(start, goal, wall | {goal}) or [])[:10]
    assert (2, -3) in path


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_route_max_len_finds_the_same_way_or_none(seed: int) -> None:
    # max_len prunes the search (the attack-after-moving plan) without changing the way it finds
    rng = random.Random(seed)
    start, goal = (0, 0), (rng.randint(2, 7), rng.randint(-3, 3))
    hexes = [(q, r) for q in range(-3, 10) for r in range(-5, 6) if (q, r) not in (start, goal)]
    blocked = set(rng.sample(hexes, rng.randint(0, 60))) | {goal}
    max_len = rng.randint(0, 14)
    whole = route(start, goal, blocked)
    cut = route(start, goal, blocked, max_len=max_len)
    if whole is not None and len(whole) <= max_len:
        assert cut == whole
    else:
        assert cut is None
