"""The engine's fast paths give the same answers as the plain code they stand in for.

- events built by the generated ``__init__`` equal the dataclass fields, stay frozen and round-trip;
- the core's own tactics build only commands ``validate`` accepts, so skipping that check
  (``tactics_legal``) changes no event;
- the occupancy index (``FightState.grid``) follows ``Moved`` events; the tactics' look around the actor's
  hex (``Survey``, ``Taken``) answers as a scan of every combatant does;
- the end check that asks one witness per side first ends fights exactly as a scan of everyone does;
- a fight with ``log=None`` emits the same events (seen by a listener) as one that logs them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import inspect
import json
import random
from typing import Any

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.engine.state import BLOCK_SHIFT, Combatant, FightState, Grid
from fracas.engine.taken import Taken, blocked
from fracas.rules.ed4 import tactics as t4
from fracas.rules.ed4.ruleset import Ed4CoreRuleset, Ed4Ruleset

HEROES = ["mica", "thrak", "herekar", "kira", "silar"]


def _lines(left: list[str], right: list[str], gap: int = 3) -> FightState:
    return encounter.facing_lines(left, right, gap=gap, name="speed", max_rounds=30)


def _digest(events: list[ev.Event]) -> str:
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps(ev.to_json(e), sort_keys=True).encode())
    return h.hexdigest()


# ----- events ------------------------------------------------------------------------------------------


def _sample(name: str) -> Any:
    return {"actor": "a", "target": "b", "path": ((1, 0), (2, 0)), "order": ("a", "b")}.get(name, 3)


@pytest.mark.parametrize(
    "cls", sorted(ev.REGISTRY.values(), key=lambda c: c.__name__), ids=lambda c: c.__name__
)
def test_event_init_matches_its_fields(cls: type[ev.Event]) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default
    required = {
        f.name: _sample(f.name)
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    e = cls(**required)
    for f in fields:
        want = required.get(f.name, f.default)
        if f.default_factory is not dataclasses.MISSING and f.name not in required:
            want = f.default_factory()
        assert getattr(e, f.name) == want
    full = {f.name: _sample(f.name) for f in fields}
    e2 = cls(*full.values())
    assert e2 == cls(**full)
    assert ev.from_json(ev.to_json(e2)) == e2
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(e2, fields[0].name, 0)


def test_flags_follow_the_event_types() -> None:
    changing = {"Damaged", "Wounded", "CounterChanged", "ConditionAdded", "ConditionRemoved", "StatusChanged"}
    changing |= {"Marked", "Moved", "HiddenChanged"}
    for name, cls in ev.REGISTRY.items():
        if cls.__module__ != ev.__name__:
            continue
        assert cls.changes_combatant == (name in changing), name
        assert cls.changes_status == (name == "StatusChanged"), name


# ----- tactics legal by construction -------------------------------------------------------------------


def _stream(ruleset: Any, state: FightState, seed: int, trusted: bool) -> str:
    f = Fight(ruleset, state, RandomDice(seed), seed=seed)
    f._trusted = trusted
    f.run()
    return _digest(f.log or [])


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize(("left", "right"), [(["mica"], ["ghoul"]), (HEROES, ["ghoul"] * 5)])
def test_core_tactics_build_only_legal_commands(seed: int, left: list[str], right: list[str]) -> None:
    core = Ed4CoreRuleset()
    assert core.tactics_legal
    checked = _stream(core, _lines(left, right), seed, trusted=False)  # validate runs: never refuses
    assert _stream(core, _lines(left, right), seed, trusted=True) == checked


def test_the_chapter_validates_tactic_commands() -> None:
    assert not Ed4Ruleset.tactics_legal
    f = Fight(Ed4Ruleset(), _lines(["mica"], ["ghoul"]), RandomDice(1))
    assert not f._trusted


def test_the_core_alone_trusts_its_tactics() -> None:
    assert Ed4CoreRuleset().tactics_legal
    assert Fight(Ed4CoreRuleset(), _lines(["mica"], ["ghoul"]), RandomDice(1))._trusted


# ----- the occupancy index -----------------------------------------------------------------------------


def _grid_matches(state: FightState) -> None:
    g = state.grid()
    where = {cid: h for h, ids in g.at.items() for cid in ids}
    assert where == {c.id: c.pos for c in state.combatants.values() if c.pos is not None}
    standing: dict[tuple[int, int], int] = {}
    for c in state.combatants.values():
        if c.pos is not None and c.status not in ("dead", "fled"):
            standing[c.pos] = standing.get(c.pos, 0) + 1
    assert g.standing == standing
    blocks: dict[str, dict[tuple[int, int], set[str]]] = {}
    for c in state.combatants.values():
        if c.pos is not None:
            key = (c.pos[0] >> BLOCK_SHIFT, c.pos[1] >> BLOCK_SHIFT)
            blocks.setdefault(c.side, {}).setdefault(key, set()).add(c.id)
    assert {s: {k: set(v) for k, v in m.items() if v} for s, m in g.blocks.items() if m} == blocks


@pytest.mark.parametrize("seed", [1, 2])
def test_grid_follows_moved_events(seed: int) -> None:
    state = _lines([HEROES[i % 5] for i in range(15)], ["ghoul"] * 15, gap=6)
    state.grid()
    f = Fight(Ed4CoreRuleset(), state, RandomDice(seed))
    moved = fallen = 0
    while not f.state.ended and f.state.round <= 3:
        for e in f.step():
            moved += isinstance(e, ev.Moved)
            fallen += isinstance(e, ev.StatusChanged)
        _grid_matches(f.state)
    assert moved > 0 and fallen > 0
    assert f.state.clone()._grid is None


def test_grid_move_and_unplaced() -> None:
    cs = {
        "a": Combatant("a", "A", "x", None, pos=(0, 0)),
        "b": Combatant("b", "B", "y", None, pos=(0, 0)),
        "c": Combatant("c", "C", "y", None),
    }
    g = Grid(cs)
    assert g.at == {(0, 0): ["a", "b"]} and g.unplaced == 1
    g.move("a", (0, 0), (1, 0))
    g.move("c", None, (2, 0))
    g.move("b", (0, 0), None)
    assert g.at == {(1, 0): ["a"], (2, 0): ["c"]} and g.unplaced == 1


def _random_state(rng: random.Random, n: int, spread: int = 6) -> FightState:
    state = _lines([HEROES[i % 5] for i in range(n // 2)], ["ghoul"] * (n - n // 2))
    spots = [(q, r) for q in range(-spread, spread + 1) for r in range(-spread, spread + 1)]
    for c in state.combatants.values():
        c.pos = rng.choice(spots)  # several on one hex now and then (a rider and his mount)
        c.status = rng.choice(["active"] * 6 + ["unconscious", "dead", "fled"])
        c.counters["damage"] = rng.randrange(0, 4)
        c.hidden = rng.random() < 0.1
        if c.hidden and rng.random() < 0.5:
            c.marks["revealed"] = True
        c.player = rng.random() < 0.2
    state.drop_grid()  # positions were set by hand
    return state


@pytest.mark.parametrize("seed", range(60))
def test_survey_around_the_actor_matches_a_scan_of_everyone(seed: int) -> None:
    """Rings 0-2 around the actor, then the blocks of the occupancy index (8 x 8 hexes) outward for the
    nearest and the closest enemies, answer as a scan of every combatant: crowded fields and fields spread
    over many blocks (negative coordinates too), a third side now and then."""
    rng = random.Random(seed)
    state = _random_state(rng, rng.choice([26, 40, 80]), spread=rng.choice([6, 6, 20, 45]))
    if seed % 3 == 0:
        for c in list(state.combatants.values())[::5]:
            c.side = "third"
        state.drop_grid()
    for me in state.combatants.values():
        fast = t4.Survey(state, me)
        slow = t4.Survey(state, me, full_scan=True)
        assert fast.nearest is slow.nearest
        assert sorted(c.id for c in fast.near) == sorted(c.id for c in slow.near)
        assert [c.id for c in fast.fallen] == [c.id for c in slow.fallen]
        assert fast.adjacent_foe == slow.adjacent_foe
        want = heapq.nsmallest(5, slow.foes, key=lambda dc: (dc[0], dc[1].id))
        assert [(d, c.id) for d, c in fast.closest(5)] == [(d, c.id) for d, c in want]
        assert sorted((d, c.id) for d, c in fast.foes) == sorted((d, c.id) for d, c in slow.foes)


@pytest.mark.parametrize("seed", range(20))
def test_taken_matches_the_blocked_set(seed: int) -> None:
    rng = random.Random(seed)
    state = _random_state(rng, 30)
    state.extra["map"] = {"blocked": [[1, 1], [2, -1], list(state.combatants["foes-1"].pos)]}
    if seed % 2:
        state.extra["map"] = {}
    for me in [*list(state.combatants.values())[:8], state.combatants["foes-1"]]:
        view = Taken(state, me.id)
        plain = blocked(state, me.id)
        fast = view.but_own_hex(me.pos)  # type: ignore[arg-type]
        for q in range(-7, 8):
            for r in range(-7, 8):
                assert ((q, r) in view) == ((q, r) in plain)
                if (q, r) != me.pos:
                    assert ((q, r) in fast) == ((q, r) in plain)


# ----- the end check -----------------------------------------------------------------------------------


def _naive_end(f: Fight) -> tuple[Any, ...] | None:
    standing = {c.side for c in f.state.combatants.values() if not f.ruleset.is_out(c)}
    if len(standing) <= 1:
        return (next(iter(standing)) if standing else None,)
    return None


@pytest.mark.parametrize("seed", range(1, 6))
def test_end_check_with_witnesses_matches_a_full_scan(seed: int) -> None:
    f = Fight(Ed4Ruleset(), _lines(HEROES, ["ghoul"] * 5), RandomDice(seed))
    while not f.state.ended:
        f.step()
        if f.state.ended:
            break
        end = f._check_end()
        naive = _naive_end(f)
        if naive is None:
            assert end is None or "round limit" in end.reason
        else:
            assert end is not None and end.winner == naive[0]
    assert _naive_end(f) == (f.state.winner,) or f.state.winner is None


# ----- narration off ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [Ed4CoreRuleset(), Ed4Ruleset()], ids=["core", "chapter"])
def test_log_none_emits_the_same_events(ruleset: Any) -> None:
    for seed in (1, 2, 3):
        logged = Fight(ruleset, _lines(HEROES, ["ghoul"] * 5), RandomDice(seed))
        logged.run()
        seen: list[ev.Event] = []
        quiet = Fight(ruleset, _lines(HEROES, ["ghoul"] * 5), RandomDice(seed), log=None)
        quiet.listeners.append(lambda events, state, seen=seen: seen.extend(events))
        quiet.run()
        assert _digest(seen) == _digest(logged.log or [])


# ----- the chapter's adjacent enemies from the occupancy index -------------------------------------------


@pytest.mark.parametrize("seed", range(1, 4))
def test_chapter_adjacent_enemies_from_the_grid_match_a_scan(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In fights of more than 24 combatants the chapter reads the six neighbour hexes from the occupancy index
    (Harried by numbers, Blindsided); the events are those of a scan of every combatant."""
    from fracas.rules.ed4.features import readers

    crowd = (HEROES * 3, ["ghoul"] * 15)
    ruleset = Ed4Ruleset()
    with_grid = _stream(ruleset, _lines(*crowd, gap=2), seed, trusted=False)
    monkeypatch.setattr(readers, "_GRID_FROM", 10**9)
    assert _stream(ruleset, _lines(*crowd, gap=2), seed, trusted=False) == with_grid


@pytest.mark.parametrize("seed", range(20))
def test_chapter_intervening_from_the_grid_matches_a_scan(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Who stands in the line of fire (p.392), read from the occupancy index in big fights, is who a scan of
    every combatant finds: the same people, closest first, the later in the roster where two share a hex
    (a rider on his mount, or two set there by hand), altitudes and mounts as the scan weighs them."""
    from fracas.rules.ed4.features import readers

    rng = random.Random(seed)
    state = _random_state(rng, rng.choice([26, 40, 80]))
    cs = list(state.combatants.values())
    for c in cs:
        c.altitude = rng.choice([0, 0, 0, 1, 3])
    for rider, mount in zip(cs[::7], cs[3::7], strict=False):
        if rider is not mount and rng.random() < 0.5:
            rider.marks["mount"] = mount.id
            rider.pos = mount.pos
    state.drop_grid()
    pairs = [(rng.choice(cs), rng.choice(cs)) for _ in range(60)]
    fast = [[c.id for c in readers.intervening(state, me, t)] for me, t in pairs]
    monkeypatch.setattr(readers, "_GRID_FROM", 10**9)
    slow = [[c.id for c in readers.intervening(state, me, t)] for me, t in pairs]
    assert fast == slow
    assert any(fast)


@pytest.mark.parametrize("seed", range(10))
def test_turn_started_finds_the_actor_as_index_does(seed: int) -> None:
    """``TurnStarted`` puts the turn at the actor's first place in the order (``list.index``), appending him
    when he has none, through the state's map of places (rebuilt when an event replaces or grows the order);
    orders with an id twice (other rulesets may list one twice) included."""
    rng = random.Random(seed)
    state = _lines(["mica"], ["ghoul"])
    ids = [f"c{i}" for i in range(8)]
    plain_order: list[str] = []
    for _ in range(300):
        if rng.random() < 0.15:
            order = tuple(rng.choice(ids) for _ in range(rng.randrange(0, 8)))
            ev.OrderSet(order).apply(state)
            plain_order = list(order)
            continue
        actor = rng.choice(ids)
        ev.TurnStarted(actor).apply(state)
        if actor in plain_order:
            want = plain_order.index(actor)
        else:
            plain_order.append(actor)
            want = len(plain_order) - 1
        assert state.turn == want and state.order == plain_order
