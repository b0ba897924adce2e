"""The S&S engine's speed-ups give the answers of the plain computations they replace (no event changes)."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, ring
from fracas.rules.sas.movement import _gets_closer, _reaches, _search_path
from fracas.rules.sas.settings import settings_of


def _plain_flood(start: Hex, spaces: int, blocked: frozenset[Hex]) -> frozenset[Hex]:
    """Every free hex within ``spaces`` steps of ``start`` (not ``start``): the flood replaced."""
    seen = {start}
    frontier = [start]
    for _ in range(spaces):
        nxt: list[Hex] = []
        for q, r in frontier:
            for dq, dr in DIRECTIONS:
                n = (q + dq, r + dr)
                if n not in seen and n not in blocked:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(start)
    return frozenset(seen)


coord = st.integers(-6, 6)
hexes = st.tuples(coord, coord)


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    want=st.integers(0, 3),
    spaces=st.integers(0, 10),
    blocked=st.frozensets(hexes, max_size=70),
)
def test_reaches_is_the_plain_flood(start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]):
    _check_reaches(start, goal, want, spaces, blocked - {start})


def _check_reaches(start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]) -> None:
    """_reaches answers what the plain flood from ``start`` says: some hex within ``want`` of ``goal``."""
    reached = _plain_flood(start, spaces, blocked)
    plain = any(h in reached for w in range(want + 1) for h in ring(goal, w))
    assert _reaches(start, goal, want, spaces, blocked) == plain


def test_reaches_goes_round_a_wall():
    # a wall of blocked hexes across the straight line: 2 steps are not enough, going round is
    wall = frozenset({(1, -1), (1, 0), (1, 1), (1, -2), (0, 1)})
    assert distance((0, 0), (3, 0)) == 3
    assert not _reaches((0, 0), (3, 0), 1, 2, wall)
    assert _reaches((0, 0), (3, 0), 1, 5, wall)
    assert not _reaches((0, 0), (3, 0), 1, 1, frozenset())


def _plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
) -> list[Hex]:
    """The weighted A* search as it was written before it was tuned (tuples for keys, ``abs``)."""
    want = 1 if stop_adjacent else 0
    while want < 6 and all(h in blocked and h != start for h in ring(goal, want)):
        want += 1
    if distance(start, goal) <= want or spaces <= 0:
        return []
    gq, gr = goal
    prev: dict[Hex, Hex | None] = {start: None}
    cost = {start: 0}
    h0 = distance(start, goal)
    heap = [(2 * h0, h0, 0, start)]
    best, best_key = start, (h0, 0)
    tick = 0
    while heap and tick < 1500:
        _, h_here, _, here = heapq.heappop(heap)
        g = cost[here]
        if h_here <= want:
            best = here
            break
        if g >= spaces:
            continue
        g1 = g + 1
        q, r = here
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n in blocked:
                continue
            old = cost.get(n)
            if old is not None and old <= g1:
                continue
            cost[n] = g1
            prev[n] = here
            a, b = n[0] - gq, n[1] - gr
            h = (abs(a) + abs(b) + abs(a + b)) // 2
            k = (h if h > want else want, g1)
            if k < best_key:
                best, best_key = n, k
            tick += 1
            heapq.heappush(heap, (g1 + 2 * h, h, tick, n))
    path: list[Hex] = []
    node: Hex | None = best
    while node is not None and node != start:
        path.append(node)
        node = prev[node]
    return path[::-1]


@settings(max_examples=400, deadline=None)
@given(
    start=hexes,
    goal=hexes,
    spaces=st.integers(0, 14),
    blocked=st.frozensets(hexes, max_size=80),
    stop_adjacent=st.booleans(),
)
def test_search_path_is_the_plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
):
    blocked = blocked - {start}
    assert _search_path(start, goal, spaces, blocked, stop_adjacent) == _plain_search(
        start, goal, spaces, blocked, stop_adjacent
    )


def test_views_held_are_the_states_own() -> None:
    """The remembered views and free hexes live on the state they are of (``FightState.derived``), never on
    a module: the web server plays fights in a thread pool, and a fight held on one thread is not seen
    holding from another fight on another thread."""
    import threading

    from fracas.engine.state import FightState
    from fracas.rules.sas import fold

    state = FightState("sas", "x", {}, [])
    other = FightState("sas", "y", {}, [])
    inside, release = threading.Event(), threading.Event()

    def weigh() -> None:
        with fold.views_held(state):
            assert fold.held(state) is not None
            inside.set()
            release.wait(5)

    t = threading.Thread(target=weigh)
    t.start()
    assert inside.wait(5)
    assert fold.held(other) is None  # the other fight holds nothing
    with fold.views_held(other):
        assert fold.held(other) is not fold.held(state)
    release.set()
    t.join()
    assert fold.held(state) is None and fold.held(other) is None  # let go when the blocks end


far = st.tuples(st.integers(-15, 15), st.integers(-15, 15))


@settings(max_examples=200, deadline=None)
@given(
    start=far,
    goal=far,
    spaces=st.integers(0, 30),
    blocked=st.frozensets(far, max_size=300),
    stop_adjacent=st.booleans(),
)
def test_search_path_on_a_wide_field_is_the_plain_search(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
):
    """The flat grid of cells is sized by ``spaces``: long moves (a charging horse), goals far outside it."""
    blocked = blocked - {start}
    assert _search_path(start, goal, spaces, blocked, stop_adjacent) == _plain_search(
        start, goal, spaces, blocked, stop_adjacent
    )


@settings(max_examples=300, deadline=None)
@given(
    start=far,
    goal=far,
    want=st.integers(0, 6),
    spaces=st.integers(0, 25),
    blocked=st.frozensets(far, max_size=500),
)
def test_reaches_on_a_wide_field_is_the_plain_flood(
    start: Hex, goal: Hex, want: int, spaces: int, blocked: frozenset[Hex]
):
    """The flood from both ends: walled-in goals (the goal's end runs out), long moves, crowded rings."""
    _check_reaches(start, goal, want, spaces, blocked - {start})


def test_reaches_says_no_at_once_for_a_walled_in_goal():
    # the goal's free hexes are walled in: no way from a start outside, however long the move
    wall = frozenset(ring((0, 0), 2))
    assert not _reaches((6, 0), (0, 0), 1, 25, wall)
    assert _reaches((1, 0), (0, 0), 0, 1, wall)


@settings(max_examples=300, deadline=None)
@given(start=far, goal=far, spaces=st.integers(0, 25), blocked=st.frozensets(far, max_size=500))
def test_gets_closer_is_the_plain_flood(start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex]):
    blocked = blocked - {start}
    reached = _plain_flood(start, spaces, blocked)
    plain = any(distance(h, goal) < distance(start, goal) for h in reached)
    assert _gets_closer(start, goal, spaces, blocked) == plain


def test_search_path_stays_when_nothing_nearer_is_reachable():
    # a ring of blocked hexes round the goal, the start just outside it: every free hex it can reach is
    # as far from the goal as it is or farther
    start, goal = (0, 0), (6, 0)
    wall = frozenset(ring(goal, 5))
    assert not _gets_closer(start, goal, 6, wall)
    assert _search_path(start, goal, 6, wall, True) == [] == _plain_search(start, goal, 6, wall, True)


@settings(max_examples=300, deadline=None)
@given(goal=hexes, start=hexes, want=st.integers(0, 6), blocked=st.frozensets(hexes, max_size=120))
def test_free_ring_is_the_ring_generator(goal: Hex, start: Hex, want: int, blocked: frozenset[Hex]):
    from fracas.rules.sas.movement import _free_ring

    plain = want
    while plain < 6 and all(h in blocked and h != start for h in ring(goal, plain)):
        plain += 1
    assert _free_ring(goal, start, want, blocked) == plain


def _goblin_state():  # type: ignore[no-untyped-def]
    from pathlib import Path

    from fracas.engine import encounter

    _, state = encounter.load(Path(__file__).resolve().parents[2] / "examples/sas/goblin-horde.yaml")
    return state


def test_a_tactics_memo_serves_only_the_resolution_of_its_command() -> None:
    """``hand_over`` leaves the views found while a command was chosen for that very command object's
    resolution, once, and only while no event has been applied since."""
    from fracas.engine.commands import Command
    from fracas.rules.sas import fold

    state = _goblin_state()
    c = state.combatants["bran"]
    cmd, other = Command("bran", "nothing"), Command("bran", "nothing")
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    with fold.views_held(state, other):  # another command: a memo of its own
        assert fold.view(state, c) is not first
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    with fold.views_held(state, cmd):  # the command handed over: the same views
        assert fold.view(state, c) is first
    with fold.views_held(state, cmd):  # taken up once only
        assert fold.view(state, c) is not first
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    state.events_applied += 1  # an event was applied in between: the state is not the one weighed
    with fold.views_held(state, cmd):
        assert fold.view(state, c) is not first


def test_held_readings_are_not_those_of_a_copy() -> None:
    """A resolution moves or strikes copies of a combatant (``_moved_copy``, ``_struck``): readings kept
    under the id of the state's own combatant (adjacent foes, free hexes) are not handed to a copy."""
    from fracas.rules.sas import fold

    state = _goblin_state()
    c = state.combatants["bran"]
    moved = c.clone()
    moved.pos = (5, 0)
    with fold.views_held(state):
        assert fold.held(state, c) is not None
        assert fold.held(state, moved) is None
        assert fold.held(state, c, moved) is None


def test_fast_records_keep_their_dataclass_fields() -> None:
    """The S&S records built many times a fight have the events' faster ``__init__``
    (``fast_frozen_init``): each field still gets its default, or the value given, by keyword or place."""
    import dataclasses

    from fracas.rules.sas.procedures.attack import AttackResult, Situation
    from fracas.rules.sas.procedures.brawl import BrawlDecision
    from fracas.rules.sas.procedures.damage import DamageResult
    from fracas.rules.sas.procedures.rolls import Check, Effect, TableRoll

    classes = [Effect, TableRoll, Check, Situation, AttackResult, DamageResult, BrawlDecision]
    for cls in classes:
        assert cls.__init__.__qualname__ == f"{cls.__name__}.__init__"  # not the dataclass one
        fields = dataclasses.fields(cls)
        values = {f.name: object() for f in fields}
        made = cls(**values)
        assert all(getattr(made, f.name) is values[f.name] for f in fields)
        assert cls(*values.values()) == made
        required = {f.name: values[f.name] for f in fields if f.default is dataclasses.MISSING}
        plain = cls(**required)
        for f in fields:
            if f.default is not dataclasses.MISSING:
                assert getattr(plain, f.name) == f.default


def test_deaths_leave_the_held_view_alone() -> None:
    """DEATH BY A THOUSAND CUTS reads a combatant with this batch's markers; an immediate attack calls it
    in the middle of a command whose views are held: the held view keeps the state's markers."""
    from fracas.dice.source import ScriptedDice
    from fracas.rules.sas import fold
    from fracas.rules.sas.round import deaths

    state = _goblin_state()
    bran = state.combatants["bran"]
    with fold.views_held(state):
        before = fold.view(state, bran)
        markers = before.markers
        b = fold.EventBuilder(state)
        b.add_counter("bran", "markers", bran.stats.wound_level)
        deaths(b, state, ScriptedDice([3] * 10))
        assert fold.view(state, bran) is before
        assert before.markers == markers


def test_die_table_lookup_reads_its_index_as_the_rows() -> None:
    """``DieTable.lookup`` reads an index built once per table: for every table, every total and natural
    face, the row a scan of the rows finds (below the first row the first, beyond the last the last)."""
    from fracas.rules.sas.rows import DieTable
    from fracas.rules.sas.tables import tables

    def plain(table: DieTable, total: int, natural: int | None) -> object:  # type: ignore[type-arg]
        if natural is not None:
            for row in table.rows:
                if row.natural and row.covers(natural):
                    return row
        rows = [r for r in table.rows if not r.natural]
        if total < rows[0].low:
            return rows[0]
        return next((r for r in rows if r.covers(total)), rows[-1])

    found: list[DieTable] = []  # type: ignore[type-arg]

    def walk(obj: object, depth: int = 0) -> None:
        if isinstance(obj, DieTable):
            found.append(obj)
        elif isinstance(obj, dict) and depth < 4:
            for v in obj.values():
                walk(v, depth + 1)
        elif depth < 4:
            for k in getattr(type(obj), "model_fields", {}):
                walk(getattr(obj, k), depth + 1)

    t = tables()
    for name in ("attack", "fumbles", "damage", "wounds", "conditions", "brawl", "combat", "magic"):
        walk(getattr(t, name))
    assert len(found) >= 10
    for table in found:
        for total in range(-40, 80):
            for natural in (None, *range(-2, 25)):
                assert table.lookup(total, natural) is plain(table, total, natural)


def _plain_view(state, c):  # type: ignore[no-untyped-def]
    """The combatant's view as it was built before ``_view`` set the slots itself (the constructor)."""
    import dataclasses

    from fracas.rules.sas.fold import DEFENSE_CONDITIONS, DEFENSE_LABELS, next_value
    from fracas.rules.sas.model import Fighter

    stats, marks, counters, rnd = c.stats, c.marks, c.counters, state.round
    if marks.get("shield_dropped") and stats.shield != "none":
        stats = dataclasses.replace(stats, shield="none")
    if counters.get("strength_loss", 0):
        stats = dataclasses.replace(stats, strength=stats.strength - counters["strength_loss"])
    conds = c.conditions
    nxt = {k: next_value(c, k, rnd) for k in marks.get("next", ()) if next_value(c, k, rnd)}
    present = [n for n in DEFENSE_CONDITIONS if n in conds]
    why = ""
    # every Defense change counts: the conditions' and a pending "next" Defense (a Stagger's -1) add
    if present and sum(conds[n].value for n in present) + nxt.get("defense", 0):
        nxt["defense"] = sum(conds[n].value for n in present) + nxt.get("defense", 0)
        why = ", ".join(DEFENSE_LABELS[n] for n in present)
    if marks.get("lost_leg"):
        nxt["move"] = nxt.get("move", 0) - 4
    used = marks.get("shield_used")
    return Fighter(
        c.id,
        stats,
        c.side,
        markers=counters.get("markers", 0),
        burn_markers=counters.get("burn_markers", 0),
        conditions={k: None if v.until_round is None else v.until_round - rnd for k, v in conds.items()},
        hurt=list(marks.get("hurt", ())),
        broken=list(marks.get("broken", ())),
        permanent=list(marks.get("permanent", ())),
        bleeds=counters.get("bleeds", 0),
        next=nxt,
        dead=c.status == "dead",
        dying_rounds=None if marks.get("dying_round") is None else marks["dying_round"] - rnd,
        weapon=marks.get("weapon"),
        shield_used=used[2] if used and (used[0], used[1]) == (rnd, state.extra.get("side_index", 0)) else 0,
        mounted_on=marks.get("mounted_on"),
        mount_moving=marks.get("moved_round") == rnd,
        hits_taken=counters.get("hits", 0),
        defense_why=why,
        lost=tuple(limb for limb in ("leg", "arm") if marks.get(f"lost_{limb}")),
        settings=settings_of(state),
    )


def test_views_are_the_constructors_fighters() -> None:
    """``_view`` fills a Fighter's slots itself: after every step of fights of each example (conditions,
    next-round modifiers, shields, wounds as they come), each combatant's view equals the Fighter the
    constructor builds from the same state."""
    from pathlib import Path

    from fracas.dice.source import RandomDice
    from fracas.engine import encounter
    from fracas.engine.play import Fight
    from fracas.rules.sas.fold import _view
    from fracas.rules.sas.ruleset import RULESET

    root = Path(__file__).resolve().parents[2] / "examples/sas"
    compared = 0
    for path in sorted(root.glob("*.yaml")):
        _, base = encounter.load(path)
        fight = Fight(RULESET, base.clone(), RandomDice(7), log=None)
        for _ in range(120):
            if fight.state.ended:
                break
            fight.step()
            for c in fight.state.combatants.values():
                assert _view(fight.state, c) == _plain_view(fight.state, c)
                compared += 1
    assert compared > 1000


def test_combat_numbers_read_once_are_the_sections_own() -> None:
    """``CombatRules.num`` remembers each number it reads: asked twice, every key of every section of
    combat.toml gives the section's own value."""
    from fracas.rules.sas.tables import tables

    combat = tables().combat
    asked = 0
    for section in type(combat).model_fields:
        extra = getattr(getattr(combat, section), "__pydantic_extra__", None)  # the sections, not the lists
        for key, value in (extra or {}).items():
            assert combat.num(section, key) is value
            assert combat.num(section, key) is value
            asked += 1
    assert asked > 20
