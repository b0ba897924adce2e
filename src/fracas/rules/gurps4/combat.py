"""Resolving GURPS commands against an encounter state: the glue between the pure rules (core, mounted,
aerial) and the engine's events. Everything here works on a scratch copy of the state (:class:`Work`), so
``Ruleset.resolve`` stays pure: it returns the events, the engine applies them.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.hexgrid import DIRECTIONS, Hex, distance, neighbours, step_towards
from fracas.engine.state import Combatant, FightState
from fracas.rules.base import mods_json
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.dice import DamageDice, parse_dice, roll_3d6
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.stats import Attack, GurpsStats

ATTACK_KEY = "gurps_attack"
ATTACK_MANEUVERS = (
    "attack",
    "all_out_attack_determined",
    "all_out_attack_strong",
    "all_out_attack_double",
    "all_out_attack_feint",
    "move_and_attack",
)
RIDER_REACH_HEIGHT_NOTE = "gurps4/mounted/height B397"


def S(c: Combatant) -> GurpsStats:
    return c.stats  # type: ignore[no-any-return]


class _CopyOnRead(dict):  # type: ignore[type-arg]
    """Combatants of a scratch state, each copied the first time it is read (the originals stay intact)."""

    def __init__(self, base: dict[str, Combatant]) -> None:
        super().__init__(base)
        self._fresh: set[str] = set()

    def __getitem__(self, key: str) -> Combatant:
        c = dict.__getitem__(self, key)
        if key not in self._fresh:
            c = c.clone()
            dict.__setitem__(self, key, c)
            self._fresh.add(key)
        return c  # type: ignore[no-any-return]

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        if key not in self:
            return default
        return self[key]

    def values(self) -> list[Combatant]:  # type: ignore[override]
        return [self[k] for k in self.keys()]

    def items(self) -> list[tuple[str, Combatant]]:  # type: ignore[override]
        return [(k, self[k]) for k in self.keys()]


def look(state: FightState) -> Iterable[Combatant]:
    """The combatants of ``state`` to read only, without the copies :class:`_CopyOnRead` makes on reading:
    a combatant not yet copied is the original, unchanged by the events so far (an event changes one through
    ``state.combatants[id]``, which copies it first). A scan that reads every figure to find a few uses it;
    whatever it means to change or to keep reading after an event it takes again from ``state.combatants``."""
    return dict.values(state.combatants)


def look_at(state: FightState, cid: str) -> Combatant:
    """One combatant of ``state`` to read only (see :func:`look`)."""
    return dict.__getitem__(state.combatants, cid)  # type: ignore[no-any-return]


def scratch(state: FightState) -> FightState:
    """A copy of ``state`` for working out events: combatants copied on first read, the rest shallow (events
    replace what they change in ``extra``, ``order``, ``acted``; they never change it in place)."""
    return FightState(
        state.ruleset,
        state.name,
        _CopyOnRead(state.combatants),
        state.sides,
        state.options,
        state.max_rounds,
        state.round,
        state.phase,
        list(state.order),
        state.turn,
        dict(state.initiative),
        {k: dict(v) for k, v in state.declarations.items()},
        set(state.acted),
        state.ended,
        state.winner,
        state.end_reason,
        dict(state.extra),
        state.events_applied,
    )


@dataclass(slots=True)
class Work:
    """A scratch copy of the state and the events produced so far (each applied to the copy at once)."""

    state: FightState
    dice: DiceSource
    events: list[ev.Event] = field(default_factory=list)

    def emit(self, *events: ev.Event) -> None:
        for e in events:
            self.events.append(e)
            e.apply(self.state)

    def c(self, cid: str) -> Combatant:
        return self.state.combatants[cid]

    def option(self, name: str) -> Any:
        return self.state.options.get(name)

    def setting(self, name: str, default: Any = None) -> Any:
        return self.state.extra.get("settings", {}).get(name, default)

    def mark(self, c: Combatant, key: str, value: Any, rule: str = "") -> None:
        if c.marks.get(key) != value:
            self.emit(ev.Marked(c.id, key, value, rule))

    def note(self, text: str, actor: str | None = None, rule: str = "") -> None:
        self.emit(ev.Note(text, actor, rule))

    def rolled(self, actor: str, r: core.SuccessRoll, target: str | None = None, rule: str = "") -> None:
        outcome = ("critical " if r.critical else "") + ("success" if r.success else "failure")
        self.emit(
            ev.Rolled(
                actor=actor,
                test=r.what,
                total=r.roll,
                roll={"dice": [[-6, f] for f in r.faces], "total": r.roll},
                expr="3d6",
                target=target,
                against="effective",
                dn=r.effective,
                under=True,
                outcome=outcome,
                success=r.success,
                extra=r.margin,
                modifiers=mods_json(r.modifiers),
                rule=rule,
            )
        )


# ---------------------------------------------------------------------------------------- geometry


def hp_now(c: Combatant) -> int:
    return S(c).hp - c.count("injury")


R_REELING = "gurps4/core/hp-thresholds"


def dodge_now(c: Combatant) -> tuple[int, tuple[Modifier, ...]]:
    """The Dodge a figure defends with (B374) and what changed it: below 1/3 HP it is halved, rounding up
    (B419). The value is the halved one; the modifier shows the halving on the roll."""
    st = S(c)
    value = st.dodge()
    if not core.reeling(hp_now(c), st.hp):
        return value, ()
    half = -(-value // 2)
    return half, (mod(half - value, "below 1/3 HP: Dodge halved", R_REELING, "B419"),)


def shock_now(c: Combatant) -> list[Modifier]:
    """This turn's shock (B419; reference 1.6: "to DX and IQ (and skills) on the next turn only"): the
    penalty every DX, IQ or skill roll of the figure takes on the turn after it was hurt (its attacks, its
    feints, its Riding rolls, a DX roll to stay standing). Not active defenses, nor HT, Will or ST rolls."""
    shock = c.marks.get("shock_now", 0)
    return [mod(shock, "shock", "gurps4/core/shock", "B419")] if shock else []


def move_now(c: Combatant, air: bool = False) -> int:
    """The Basic Move (``air``: air Move) a figure moves with: below 1/3 HP halved, rounding up (B419)."""
    st = S(c)
    move = st.air_move if air else st.basic_move
    if core.reeling(hp_now(c), st.hp):
        move = -(-move // 2)
    return move


def mount_of(state: FightState, c: Combatant) -> Combatant | None:
    mid = c.marks.get("mount")
    return state.combatants.get(mid) if mid else None


def rider_of(state: FightState, c: Combatant) -> Combatant | None:
    rid = c.marks.get("rider")
    return state.combatants.get(rid) if rid else None


def flying(c: Combatant) -> bool:
    return S(c).flies and c.altitude > 0


def separation(a: Combatant, b: Combatant) -> tuple[int, int]:
    """(horizontal yards, vertical yards) between two figures."""
    if a.pos is None or b.pos is None:
        return 0, 0
    return distance(a.pos, b.pos), abs(a.altitude - b.altitude)


def range_yards(a: Combatant, b: Combatant) -> int:
    h, v = separation(a, b)
    if v == 0:  # on one level the cost is the hex distance (the tactics ask this of every foe, every turn)
        return h if h > 1 else 1
    return max(1, int(aerial.move_cost(h, v)))


def in_reach(a: Combatant, b: Combatant, attack: Attack) -> bool:
    h, v = separation(a, b)
    if h == 0 and v == 0:
        return False
    return aerial.in_reach(h, v, attack.reach, both_flying=flying(a) and flying(b))


def max_range(attacker: GurpsStats, attack: Attack) -> float:
    r = data.weapons()[attack.weapon].ranged
    assert r is not None
    return r.max * attacker.st if r.mult else r.max


def height_ft(defender: Combatant, attacker: Combatant, state: FightState) -> float:
    """How far the defender is above the attacker, in feet: a rider 3 ft above a foe on foot (B397); a
    flyer against a ground foe by altitude (3 ft a yard; B398, B402); two flyers: none (B398)."""
    if flying(defender) and flying(attacker):
        return 0.0
    feet = (defender.altitude - attacker.altitude) * 3.0
    if not S(defender).mount and not S(attacker).mount:
        feet += mounted.rider_height_ft(bool(defender.marks.get("mount")), bool(attacker.marks.get("mount")))
    return feet


def blockers(state: FightState, mover: Combatant) -> set[Hex]:
    """Hexes the mover cannot enter: figures at about its altitude (flyers pass over others, B398)."""
    out: set[Hex] = {tuple(h) for h in state.extra.get("map", {}).get("blocked", [])}  # type: ignore[misc]
    partners = {mover.id, mover.marks.get("mount"), mover.marks.get("rider")}
    for c in look(state):
        if c.id in partners or c.pos is None or c.status in ("dead", "fled", "riderless"):
            continue
        if abs(c.altitude - mover.altitude) < 2:
            out.add(c.pos)
    return out


def path_towards(
    state: FightState, mover: Combatant, dest: Hex, steps: int, stop_at: int = 0, away: bool = False
) -> list[Hex]:
    """A hex path of at most ``steps`` toward ``dest`` (shortest way around figures and blocked hexes,
    stopping ``stop_at`` away), or straight away from it when ``away``."""
    if mover.pos is None or steps <= 0:
        return []
    blocked = blockers(state, mover)
    here = mover.pos
    if away:
        path: list[Hex] = []
        for _ in range(steps):
            options = [n for n in neighbours(here) if n not in blocked]
            if not options:
                break
            nxt = max(options, key=lambda n: (distance(n, dest), -abs(n[0]) - abs(n[1])))
            if distance(nxt, dest) <= distance(here, dest):
                break
            path.append(nxt)
            here = nxt
        return path
    if distance(here, dest) <= stop_at:
        return []
    greedy, left = greedy_path(here, dest, blocked, steps, stop_at)
    if len(greedy) == steps or left <= stop_at:
        return greedy
    # stuck behind someone: breadth-first search in a bounded area, then the first ``steps`` hexes
    full = bfs_path(here, dest, blocked, stop_at, steps)
    if full is None:  # no way through: get as close as the greedy step allows
        path = []
        for _ in range(steps):
            nxt = step_towards(here, dest, blocked)
            if nxt == here or distance(here, dest) <= stop_at:
                break
            path.append(nxt)
            here = nxt
        return path
    return full


def greedy_path(
    here: Hex, dest: Hex, blocked: set[Hex] | frozenset[Hex], steps: int, stop_at: int
) -> tuple[list[Hex], int]:
    """Up to ``steps`` hexes toward ``dest``, each the first neighbour (in
    :data:`~fracas.engine.hexgrid.DIRECTIONS` order) that is not blocked and nearest ``dest`` if nearer than
    where it stands (:func:`~fracas.engine.hexgrid.step_towards`), stopping within ``stop_at`` or when no
    neighbour is nearer; and the distance left. The distances are kept as offsets from ``dest`` and worked
    out inline: this runs for every move of every figure."""
    q, r = here
    a, b = q - dest[0], r - dest[1]
    left = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2
    path: list[Hex] = []
    for _ in range(steps):
        if left <= stop_at:
            break
        best = None
        best_d = left
        ba = bb = 0
        for dq, dr in DIRECTIONS:
            x, y = a + dq, b + dr
            d = ((x if x > 0 else -x) + (y if y > 0 else -y) + (x + y if x + y > 0 else -x - y)) // 2
            if d >= best_d:  # only a nearer hex is taken: asked before the (dearer) blocked test
                continue
            n = (q + dq, r + dr)
            if n in blocked:
                continue
            best, best_d, ba, bb = n, d, x, y
            break  # a step brings it at most one hex nearer: no later direction is strictly nearer
        if best is None:
            break
        path.append(best)
        q, r = best
        a, b, left = ba, bb, best_d
    return path, left


BFS_MARGIN = 8
"""The breadth-first search of :func:`bfs_path` looks at hexes at most this much farther from the start than
the goal is."""


DISC_KEPT = 256
"""Search areas up to this ``limit`` are kept once built (at most 64 of them, 265 kB each at most)."""


def _disc(limit: int) -> bytes:
    """The search area of :func:`bfs_path` for ``limit``: a square grid of side ``2 * (limit + 1) + 1``
    centred on the start, 0 for a hex at most ``limit`` from the centre, 1 outside (one spare hex all round,
    so that a neighbour of any hex inside is still on the grid). Keyed on an int, so shared safely; a
    larger one (a chase across a wide field) is built each time rather than held."""
    return _kept_disc(limit) if limit <= DISC_KEPT else _build_disc(limit)


def _build_disc(limit: int) -> bytes:
    half = limit + 1
    side = 2 * half + 1
    cells = bytearray(b"\x01") * (side * side)
    for dq in range(-limit, limit + 1):
        lo, hi = max(-limit, -dq - limit), min(limit, -dq + limit)
        row = (dq + half) * side + half
        cells[row + lo : row + hi + 1] = bytes(hi - lo + 1)
    return bytes(cells)


_kept_disc = functools.lru_cache(maxsize=64)(_build_disc)


def bfs_path(
    here: Hex, dest: Hex, blocked: set[Hex] | frozenset[Hex], stop_at: int, steps: int | None = None
) -> list[Hex] | None:
    """The first ``steps`` hexes (all if None) of the path that a breadth-first search from ``here`` finds to
    a hex within ``stop_at`` of ``dest`` (not ``here``), avoiding ``blocked`` and staying within
    ``distance(here, dest) + BFS_MARGIN`` of ``here``; None if there is none.

    The search meant: hexes taken in the order found, each one's neighbours in
    :data:`~fracas.engine.hexgrid.DIRECTIONS` order, the first hex found within ``stop_at`` ends it, and the
    path runs back through the hex each was first found from. That order puts the hexes of each ring of
    the search in the order of their first-found paths read as strings of direction numbers, so the path it
    returns is, of all shortest paths to a goal, the one whose directions come first in that order. So it
    is found here directly: the length of the shortest paths by an A* search, then the first of them by a
    depth-first search in direction order that cuts every branch which cannot arrive in time. On an open
    field with a long way to go the flood looks at tens of thousands of hexes, these at a few hundred. A
    test checks the result against the plain search."""
    limit = distance(here, dest) + BFS_MARGIN
    half = limit + 1
    side = 2 * half + 1
    hq, hr = here
    # the area as a flat grid (index (dq + half) * side + dr + half from here), 0: free, 1: out of the
    # area or blocked, 2: free and a goal
    grid = bytearray(_disc(limit))
    for bq, br in blocked:
        dq, dr = bq - hq, br - hr
        if -half <= dq <= half and -half <= dr <= half:
            grid[(dq + half) * side + dr + half] = 1
    gq, gr = dest[0] - hq, dest[1] - hr
    goals = 0
    for dq in range(max(gq - stop_at, -half), min(gq + stop_at, half) + 1):
        a = dq - gq
        for dr in range(
            max(gr - stop_at, gr - stop_at - a, -half), min(gr + stop_at, gr + stop_at - a, half) + 1
        ):
            i = (dq + half) * side + dr + half
            if grid[i] == 0:
                grid[i] = 2
                goals += 1
    if not goals:
        return None
    grid[half * side + half] = 1  # the start is where the search begins, never a step or a goal
    length = _to_goal(grid, side, half, 0, 0, gq, gr, stop_at, 4 * side * side)
    if length is None:
        return None
    path = _first_shortest(grid, side, half, gq, gr, stop_at, length)
    return [(hq + q, hr + r) for q, r in (path if steps is None else path[:steps])]


def _first_shortest(
    grid: bytearray, side: int, half: int, gq: int, gr: int, stop_at: int, length: int
) -> list[tuple[int, int]]:
    """Of the paths of ``length`` steps (the fewest there are) from the grid's centre to a goal cell (see
    :func:`bfs_path`), the one whose directions come first: a depth-first search trying directions in
    order, cutting a branch once its steps so far plus the hex distance left exceed ``length``, and
    remembering cells from which a way of so many steps was not found. Any walk of ``length`` steps is a
    shortest path, so it never meets a goal early or goes round in a circle."""
    path = [(0, 0)]
    tried = [0]  # for each cell of the path, the next direction to try from it
    failed: dict[int, int] = {}  # cell -> the most steps left with which no way from it was found
    while path:
        g = len(path) - 1
        q, r = path[-1]
        d = tried[-1]
        if d == 6:
            i = (q + half) * side + r + half
            left = length - g
            if failed.get(i, -1) < left:
                failed[i] = left
            path.pop()
            tried.pop()
            continue
        tried[-1] = d + 1
        dq, dr = DIRECTIONS[d]
        nq, nr = q + dq, r + dr
        j = (nq + half) * side + nr + half
        cell = grid[j]
        if cell == 1:
            continue
        if cell == 2:  # reached at ``length`` steps exactly, the fewest there are
            path.append((nq, nr))
            return path[1:]
        a, b = nq - gq, nr - gr
        h = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2 - stop_at
        left = length - g - 1
        if h > left or failed.get(j, -1) >= left:
            continue
        path.append((nq, nr))
        tried.append(0)
    raise AssertionError("path search lost its way")  # pragma: no cover - a way of ``length`` exists


def _to_goal(
    grid: bytearray, side: int, half: int, q0: int, r0: int, gq: int, gr: int, stop_at: int, bound: int
) -> int | None:
    """The fewest steps from (q0, r0) to a goal cell of ``grid`` (see :func:`bfs_path`; coordinates from the
    grid's centre), if at most ``bound``; None otherwise. A* with the hex distance to ``dest`` less
    ``stop_at`` as its estimate (never too high, one step changes it by at most one), deepest first among
    equals so that on open ground it runs straight to the goal."""
    i0 = (q0 + half) * side + r0 + half
    if grid[i0] == 2:
        return 0
    a, b = q0 - gq, r0 - gr
    h = ((a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)) // 2 - stop_at
    if h > bound:
        return None
    best = {i0: 0}
    heap = [(h if h > 0 else 0, 0, q0, r0)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        _, ng, q, r = pop(heap)
        g = -ng
        i = (q + half) * side + r + half
        if best[i] < g:
            continue
        if grid[i] == 2:
            return g
        g1 = g + 1
        for dq, dr in DIRECTIONS:
            nq, nr = q + dq, r + dr
            j = (nq + half) * side + nr + half
            if grid[j] == 1:
                continue
            old = best.get(j)
            if old is not None and old <= g1:
                continue
            a, b = nq - gq, nr - gr
            h = (
                (a if a > 0 else -a) + (b if b > 0 else -b) + (a + b if a + b > 0 else -a - b)
            ) // 2 - stop_at
            f = g1 + (h if h > 0 else 0)
            if f > bound:
                continue
            best[j] = g1
            push(heap, (f, -g1, nq, nr))
    return None


def move_figure(
    w: Work, mover: Combatant, path: list[Hex], altitude: int | None, mode: str, rule: str
) -> int:
    """Move a figure (and whoever rides it) along ``path``; returns the yards it cost."""
    if not path and altitude is None:
        return 0
    dz = abs((altitude if altitude is not None else mover.altitude) - mover.altitude)
    cost = math.ceil(aerial.move_cost(len(path), dz))
    w.emit(ev.Moved(mover.id, tuple(path), mode, None, altitude, rule))
    rider = rider_of(w.state, mover)
    if rider is not None:
        w.emit(ev.Moved(rider.id, tuple(path), "ride", None, altitude, rule))
        passenger = w.state.combatants.get(mover.marks.get("passenger") or "")
        if passenger is not None:
            w.emit(ev.Moved(passenger.id, tuple(path), "ride", None, altitude, rule))
    w.mark(mover, "moved", int(mover.marks.get("moved", 0)) + cost)
    return cost


def free_hex_near(state: FightState, c: Combatant, away_from: Hex | None = None) -> Hex | None:
    if c.pos is None:
        return None
    occupied = {
        o.pos
        for o in state.combatants.values()
        if o.id != c.id and o.pos is not None and o.status not in ("dead", "fled")
    }
    blocked = occupied | {tuple(h) for h in state.extra.get("map", {}).get("blocked", [])}  # type: ignore[misc]
    options = [n for n in neighbours(c.pos) if n not in blocked]
    if not options:
        return None
    if away_from is not None:
        options.sort(key=lambda n: -distance(n, away_from))
    return options[0]


# ---------------------------------------------------------------------------------------- riding


def riding_skill(state: FightState, rider: Combatant) -> int:
    """The rider's Riding skill (default DX-5, B217), -1 while carrying a passenger (B397): the level that
    caps weapon skill and sets the defense penalty."""
    st = S(rider)
    riding = st.riding if st.riding is not None else st.dx - 5
    mount = mount_of(state, rider)
    if mount is not None and mount.marks.get("rider") == rider.id and mount.marks.get("passenger"):
        riding += mounted.CONTROLLER_WITH_PASSENGER
    return riding


def riding_base(state: FightState, rider: Combatant, control: bool = True) -> tuple[int, list[Modifier]]:
    """The rider's Riding skill and the modifiers to a roll to control or stay on the mount (B397, B289,
    data/spooked_mounts.toml). A passenger uses the lower of the controller's Riding and own ST, at -3."""
    st = S(rider)
    mount = mount_of(state, rider)
    if mount is not None and mount.marks.get("passenger") == rider.id:
        ctrl = rider_of(state, mount)
        ctrl_st = S(ctrl) if ctrl is not None else st
        # the controlling rider's skill, or its default DX-5 (B217) if it has none
        ctrl_riding = ctrl_st.riding if ctrl_st.riding is not None else ctrl_st.dx - 5
        base = min(ctrl_riding, st.st)
        return base, [mod(mounted.PASSENGER_STAY_ON, "passenger", "gurps4/mounted/multiple-riders", "B397")]
    riding = st.riding if st.riding is not None else st.dx - 5
    mods: list[Modifier] = shock_now(rider)  # a Riding roll on the rider's own turn (B419)
    if mount is not None:
        ms = S(mount)
        mods += mounted.riding_modifiers(
            war_trained=ms.war_trained,
            stirrups=st.saddle_and_stirrups and control,
            has_passenger=bool(mount.marks.get("passenger")),
            trick_name=rider.marks.get("trick"),
        )
        # stirrups: +1 to control the mount (B289); staying seated: the war saddle's +1 in stay_on()
    return riding, mods


def stay_on(w: Work, rider: Combatant, extra: list[Modifier], why: str) -> bool:
    """A roll to stay on the mount; a failure unhorses the rider. Returns True if the rider stays on."""
    base, mods = riding_base(w.state, rider, control=False)
    if S(rider).saddle == "war_saddle":
        mods.append(
            mod(data.riding_numbers().war_saddle_stay_seated, "war saddle", "gurps4/gear/war-saddle", "B289")
        )
    r = core.success_roll(f"Riding ({why})", base, [*extra, *mods], w.dice)
    w.rolled(rider.id, r, rule="gurps4/mounted/results B397")
    if not r.success:
        unhorse(w, rider, why)
    return r.success


def unhorse(w: Work, rider: Combatant, why: str) -> None:
    mount = mount_of(w.state, rider)
    if mount is None:
        return
    w.mark(rider, "mount", None, "gurps4/mounted/results B397")
    if mount.marks.get("passenger") == rider.id:
        w.mark(mount, "passenger", None)
    else:
        w.mark(mount, "rider", None)
    spot = free_hex_near(w.state, rider)
    if spot is not None:
        w.emit(ev.Moved(rider.id, (spot,), "fall", None, 0, "gurps4/mounted/results B397"))
    w.mark(rider, "posture", "lying")
    w.note(
        f"{rider.name} falls off {mount.name} ({why}); damage from the fall is a GM's call (Falling, B431)",
        rider.id,
        "gurps4/mounted/falling-off B397",
    )
    if w.option("unhorsed_is_out") and rider.active:
        w.emit(ev.StatusChanged(rider.id, "unhorsed", "gurps4/mounted/results B397"))
    if mount.active and not mount.marks.get("rider") and w.option("riderless_mounts_leave"):
        w.emit(ev.StatusChanged(mount.id, "riderless", "gurps4/mounted (GM's call: riderless mount leaves)"))


def mount_loses_control(w: Work, mount: Combatant, result: mounted.LossOfControl, why: str) -> None:
    """Apply a Mount Loss of Control Table result (B397; data/mount_loss_of_control.toml)."""
    label = (
        " (placeholder: complete data/mount_loss_of_control.toml from the book)" if result.placeholder else ""
    )
    w.note(
        f"{mount.name}: Mount Loss of Control {result.roll}: {result.effect}{label} ({why})",
        mount.id,
        "gurps4/mounted/loss-of-control B397",
    )
    rider = rider_of(w.state, mount)
    if result.effect == "falls":
        w.mark(mount, "posture", "lying", "gurps4/mounted/loss-of-control B397")
        for cid in (mount.marks.get("passenger"), mount.marks.get("rider")):
            if cid:
                unhorse(w, w.c(cid), "the mount falls")
    elif result.effect == "throws_rider" and rider is not None:
        unhorse(w, rider, "thrown")
    elif result.effect == "rears" and rider is not None:
        stay_on(w, rider, [], "the mount rears")
    else:  # out_of_control, bolts, stops: the mount does not obey on its next turn
        w.mark(mount, "out_of_control", result.effect, "gurps4/mounted/loss-of-control B397")


def spook(w: Work, mount: Combatant, why: str) -> None:
    """Spooked Mounts (B397) are not public: a spooked mount is out of control on its next turn."""
    w.note(
        f"{mount.name} is spooked ({why}); Spooked Mounts is not public: out of control next turn "
        "(placeholder)",
        mount.id,
        "gurps4/mounted/spooked-mounts B397",
    )
    w.mark(mount, "out_of_control", "spooked", "gurps4/mounted/spooked-mounts B397")


# ---------------------------------------------------------------------------------------- attack skill


def weapon_skill(a: Combatant, attack: Attack) -> int:
    st = S(a)
    if attack.natural and st.mount:
        return st.skills.get(attack.skill_name, st.dx)
    if attack.natural and attack.skill_name == "Brawling":
        return max(st.skills.get("Brawling", st.dx), st.dx)
    return st.skill(attack.skill_name)


def attack_roll_parts(
    state: FightState, a: Combatant, t: Combatant, attack: Attack, maneuver: str, args: dict[str, Any]
) -> tuple[int, list[Modifier], tuple[int, Modifier] | None]:
    """Base skill, modifiers and cap of one attack, every one explained."""
    st = S(a)
    base = weapon_skill(a, attack)
    bulk = data.weapons()[attack.weapon].ranged.bulk if attack.ranged else 0  # type: ignore[union-attr]
    mods, cap = core.attack_modifiers(maneuver, ranged=attack.ranged, bulk=bulk)
    mount = mount_of(state, a)
    if mount is not None and not attack.natural:
        # the lower of the weapon skill and Riding is the skill every modifier then adds to (002 p.B397:
        # "uses melee weapons at the lower of his Melee Weapon skill or Riding skill"; ranged the same): the
        # maneuver's +4, shock and the rest change the lower skill, not a sum capped at Riding
        _, m = mounted.mounted_skill(base, riding_skill(state, a))
        mods = [*m, *mods]
    if attack.skill_modifier:
        mods.append(mod(attack.skill_modifier, attack.name, "gurps4/core/damage", "B271"))
    if st.st < attack.min_st:
        mods.append(
            mod(
                st.st - attack.min_st,
                f"ST {st.st} below the weapon's minimum {attack.min_st}",
                "gurps4/core/minimum-st",
                "B270",
            )
        )
    mods += shock_now(a)
    posture = core.posture(a.marks.get("posture", "standing"))
    if not attack.ranged and posture.melee:
        mods.append(mod(posture.melee, a.marks.get("posture", ""), "gurps4/core/posture", "B551"))
    if st.shield and data.armor_file().shields[st.shield].attack_penalty:
        mods.append(
            mod(
                data.armor_file().shields[st.shield].attack_penalty,
                "large shield",
                "gurps4/core/shield",
                "B287",
            )
        )
    if mount is not None and not attack.natural:
        p = mounted.rider_after_mount_attack(bool(mount.marks.get("attacked_last_turn")))
        if p:
            mods.append(p)
        if not attack.ranged:
            hit, _ = mounted.velocity_modifiers(int(mount.marks.get("moved_last_turn", 0)))
            if attack.couchable and not state.options.get("velocity_with_couched_lance", True):
                hit = []
            mods += hit
        trick_name = args.get("trick")
        if trick_name:
            mods.append(mounted.trick(trick_name)[0])
    ev_mark = a.marks.get("evaluate")
    if ev_mark and ev_mark[0] == t.id and not attack.ranged:
        b = core.evaluate_bonus(int(ev_mark[1]))
        if b:
            mods.append(b)
    if attack.ranged:
        rng = data.weapons()[attack.weapon].ranged
        assert rng is not None
        aim = a.marks.get("aim")
        if aim and aim[0] == t.id and aim[1] == attack.weapon:
            turns = int(aim[2])
            if mount is not None:
                turns = mounted.aim_turns_that_count(
                    turns, int(mount.marks.get("moved_last_turn", 0)), move_now(mount)
                )
            mods += core.aim_bonus(rng.acc, turns)
        pen = core.speed_range_penalty(range_yards(a, t))
        if pen:
            mods.append(mod(pen, f"range {range_yards(a, t)} yd", "gurps4/core/speed-range", "B550"))
        tp = core.posture(t.marks.get("posture", "standing")).target
        loc = args.get("location", "torso")
        if tp and loc in ("torso", "groin", "right_leg", "left_leg", "foreleg", "hind_leg"):
            mods.append(mod(tp, f"target {t.marks.get('posture')}", "gurps4/core/posture", "B551"))
    if S(t).sm:
        mods.append(mod(S(t).sm, f"target's SM {S(t).sm:+d}", "gurps4/core/size-modifier", "B19"))
    loc = args.get("location", "torso")
    if loc != "torso":
        lp = core.location_penalty(loc, S(t).body)
        if lp:
            mods.append(lp)
    dec = int(args.get("deceptive", 0))
    if dec:
        mods.append(
            mod(-2 * dec, f"Deceptive Attack (-{dec} to the defense)", "gurps4/core/deceptive-attack", "B369")
        )
    return base, mods, cap


# ---------------------------------------------------------------------------------------- damage


def damage_dice(
    state: FightState, a: Combatant, attack: Attack
) -> tuple[DamageDice, str, list[Modifier], bool]:
    """(dice, damage type, damage modifiers, couched) of an attack."""
    st = S(a)
    mods: list[Modifier] = []
    mount = mount_of(state, a)
    dtype = attack.damage_type
    couched = False
    if attack.natural and st.mount:
        dice = parse_dice(attack.damage)
        hb = mounted.horseshoe_bonus(attack.name, st.iron_horseshoes)
        if hb:
            mods.append(hb)
    elif (
        attack.couchable
        and mount is not None
        and int(mount.marks.get("moved_last_turn", 0)) > 0
        and st.saddle_and_stirrups
    ):
        dice = mounted.couched_lance_dice(S(mount).st, int(mount.marks["moved_last_turn"]))
        couched = True
    else:
        dice = core.weapon_damage(st.st, attack.damage)
    if mount is not None and not attack.ranged and not attack.natural:
        _, dm = mounted.velocity_modifiers(int(mount.marks.get("moved_last_turn", 0)))
        if couched and not state.options.get("velocity_with_couched_lance", True):
            dm = []
        mods += dm
    return dice, dtype, mods, couched


def couched_why(state: FightState, rider: Combatant) -> str:
    """`` (couched lance: mount ST 25 x 8 yd / 100 = 2 dice, +3)`` (B397)."""
    m = mount_of(state, rider)
    if m is None:
        return ""
    st, yards = S(m).st, int(m.marks.get("moved_last_turn", 0))
    return (
        f" (couched lance: mount ST {st} x {yards} yd moved last turn / 100 = {st * yards // 100} dice, +3)"
    )


CRIT_EFFECTS = {
    3: "triple",
    18: "triple",
    4: "dr_half",
    17: "dr_half",
    5: "double",
    16: "double",
    6: "max",
    15: "max",
    7: "major",
    13: "major",
    14: "major",
    8: "double_shock",
    12: "drop",
}


def apply_hit(
    w: Work,
    a: Combatant,
    t: Combatant,
    attack: Attack,
    location: str,
    maneuver: str,
    critical: bool,
) -> None:
    """Roll damage and apply injury and every consequence (B377-381, B419-420; text 002 p.B397)."""
    dice, dtype, dmods, couched = damage_dice(w.state, a, attack)
    if maneuver == "all_out_attack_strong":
        dmods.append(core.strong_attack_bonus(dice))
    crit = None
    if critical and w.option("critical_hit_table"):
        faces = roll_3d6(w.dice, "Critical Hit Table")
        crit = CRIT_EFFECTS.get(sum(faces))
        w.note(
            f"Critical Hit Table: {sum(faces)} ({'+'.join(map(str, faces))}): {crit or 'normal damage'}",
            a.id,
            "gurps4/core/critical-hit B556",
        )
    dr_ = core.roll_damage(dice, dtype, w.dice, dmods)
    basic = dr_.basic
    if crit == "max":
        basic = max(data.wounding()[dtype].min_basic, dice.maximum + sum(m.value for m in dmods))
    elif crit == "double":
        basic *= 2
    elif crit == "triple":
        basic *= 3
    w.emit(
        ev.Rolled(
            a.id,
            f"damage{couched_why(w.state, a) if couched else ''}",
            basic,
            {"dice": [[-6, f] for f in dr_.faces], "total": basic, "modifier": dice.adds},
            expr=f"{dice} {dtype}",
            target=t.id,
            outcome=dtype,
            modifiers=mods_json(dmods),
            rule="gurps4/mounted/couched-lance B397" if couched else "gurps4/core/damage B378",
        )
    )
    if attack.jousting:
        basic, snapped = mounted.jousting_lance(basic)
        if snapped:
            w.note(
                f"{a.name}'s jousting lance snaps: damage limited to {basic}",
                a.id,
                "gurps4/mounted/jousting-lance B397",
            )
            broken = tuple(a.marks.get("broken", ())) + (attack.weapon,)
            w.mark(a, "broken", broken, "gurps4/mounted/jousting-lance B397")
            if a.marks.get("wielding") == attack.weapon:
                w.mark(a, "wielding", None, "gurps4/mounted/jousting-lance B397")
    ts = S(t)
    dr = ts.dr_at(location, dtype)
    if crit == "dr_half":
        dr = dr // 2
    inj = core.injury_from(
        basic,
        dtype,
        ts.hp,
        dr,
        location,
        ts.body,
        flexible_armor=location in ts.flexible,
        minimum_one=bool(w.option("minimum_injury_one")),
    )
    before = hp_now(t)
    if inj.injury:
        w.emit(
            ev.Damaged(
                t.id,
                inj.injury,
                a.id,
                "injury",
                basic,
                inj.dr,
                dtype,
                f"gurps4/core/damage/dr B378-379 (x{inj.multiplier:g} {dtype} at {location})",
            )
        )
    else:
        w.note(f"{t.name}'s DR {inj.dr} stops the blow", t.id, "gurps4/core/damage/dr B378")
    for n in inj.notes:
        w.note(n, t.id, "gurps4/core/damage/dr B379")
    after_injury(w, a, t, inj, basic, dtype, before, crit)
    if crit == "drop" and t.active and not S(t).mount and t.marks.get("wielding"):
        w.note(
            f"{t.name} drops {t.marks['wielding']} (Critical Hit Table 12)",
            t.id,
            "gurps4/core/critical-hit B556",
        )
        w.mark(t, "unready", 1, "gurps4/core/critical-hit B556")


def after_injury(
    w: Work,
    a: Combatant,
    t: Combatant,
    inj: core.Injury,
    basic: int,
    dtype: str,
    before: int,
    crit: str | None,
) -> None:
    ts = S(t)
    now = hp_now(t)
    rider = rider_of(w.state, t)
    # shock (B419), doubled on critical hit 8 (max -8)
    shock = 0
    if inj.injury:
        shock = core.shock_penalty(inj.injury, ts.hp, ts.high_pain_threshold)
        cap = -4
        if crit == "double_shock":
            shock, cap = shock * 2, -8
        if shock:
            old = t.conditions["shock"].value if "shock" in t.conditions else 0
            # several hits add up, to the cap; a cap already passed (double shock, -8) is not undone
            total = max(min(cap, old), old + shock)
            w.emit(ev.ConditionAdded(t.id, "shock", None, total, a.id, "gurps4/core/shock B419"))
    if inj.injury and t.active and t.marks.get("aim"):
        # hurt while aiming: a Will roll or the Aim is lost (B364; reference 1.3)
        r = core.success_roll("Will (keep the Aim)", ts.will, [], w.dice)
        w.rolled(t.id, r, rule="gurps4/core/maneuver/aim B364")
        if not r.success:
            w.mark(t, "aim", None, "gurps4/core/maneuver/aim B364")
    if rider is not None and rider.active:
        # "If the mount is hit": any hit, also one its DR stops (no shock then), calls for the rider's Riding
        # minus the mount's shock, or it spooks (002 p.B397)
        base, rmods = riding_base(w.state, rider)
        # "minus the shock penalty suffered by the mount": all of it, this hit's and the turn's before (B419)
        suffered = t.conditions["shock"].value if "shock" in t.conditions else 0
        r = mounted.mount_hit_spook_roll(base, suffered, rmods, w.dice)
        w.rolled(rider.id, r, rule="gurps4/mounted/results B397")
        if not r.success:
            spook(w, t, "hit")
    if inj.crippled:
        w.mark(
            t, "crippled", tuple(t.marks.get("crippled", ())) + (inj.location,), "gurps4/core/crippling B420"
        )
    fallen = False
    major = core.is_major_wound(inj.injury, ts.hp, inj.crippled) or (crit == "major" and inj.penetrating > 0)
    this_shock = core.shock_penalty(inj.injury, ts.hp, ts.high_pain_threshold)
    if t.active and (major or core.knockdown_needed(inj, ts.hp, this_shock, ts.body)):
        k = core.knockdown_roll(ts.ht, inj.location, major, w.dice, ts.body)
        w.rolled(t.id, k.roll, rule="gurps4/core/knockdown B420")
        if k.outcome == "stunned":
            w.emit(ev.ConditionAdded(t.id, "stunned", None, 0, a.id, "gurps4/core/knockdown B420"))
            w.mark(t, "stun_recovered", None)  # stunned again before the turn the last stun was to end
            if mount_of(w.state, t) is None and not flying(t):  # a rider who stays on, a flyer: not prone
                w.mark(t, "posture", "lying", "gurps4/core/knockdown B420")
            if not ts.mount and t.marks.get("wielding") and not t.marks.get("unready"):
                # ... and drops anything held (B420, reference 1.6): one Ready to take it up again
                w.note(
                    f"{t.name} drops {t.marks['wielding']} (failed knockdown roll)",
                    t.id,
                    "gurps4/core/knockdown B420",
                )
                w.mark(t, "unready", 1, "gurps4/core/knockdown B420")
            if ts.mount:
                mount_loses_control(w, t, mounted.crippled_mount_falls(), "knocked down")
                fallen = True
            elif mount_of(w.state, t) is not None:
                stay_on(
                    w,
                    t,
                    [mod(mounted.STUNNED_RIDER_RIDING, "stunned rider", "gurps4/mounted/results", "B397")],
                    "stunned: stay on",
                )
        elif k.outcome == "unconscious":
            knocked_out(w, t, "unconscious", "gurps4/core/knockdown B420")
    if inj.crippled and ts.mount and inj.location in ("foreleg", "hind_leg", "foot") and not fallen:
        # after the knockdown roll the crippling calls for at once (B420): the crippled mount falls (B397)
        mount_loses_control(w, t, mounted.crippled_mount_falls(), "crippled mount falls")
    # death checks (B419)
    for k_ in core.death_checks_crossed(before, now, ts.hp):
        if not t.active and t.status != "unconscious":
            break
        r, outcome = core.death_check(ts.ht, w.dice)
        w.rolled(t.id, r, rule=f"gurps4/core/hp-thresholds B419 (-{k_}xHP)")
        if outcome != "alive":
            knocked_out(
                w, t, "dead" if outcome == "dead" else "mortally wounded", "gurps4/core/hp-thresholds B419"
            )
            break
    if core.automatically_dead(now, ts.hp) and t.status != "dead":
        knocked_out(w, t, "dead", "gurps4/core/hp-thresholds B419")
    # knockback (B378); riders are unseated (B397)
    yards = core.knockback_yards(basic, dtype, ts.st, inj.penetrating > 0)
    if yards and t.active:
        if mount_of(w.state, t) is not None:
            if not S(t).saddle_and_stirrups:
                unhorse(w, t, f"knockback {yards} yd without saddle and stirrups")
            else:
                stay_on(
                    w,
                    t,
                    [
                        mod(
                            mounted.KNOCKBACK_RIDING_PER_YARD * yards,
                            f"knockback {yards} yd",
                            "gurps4/mounted/results",
                            "B397",
                        )
                    ],
                    "knockback: stay on",
                )
        elif not ts.mount or rider is None:
            path = path_towards(w.state, t, a.pos or (0, 0), yards, away=True) if a.pos else []
            if path:
                w.emit(ev.Moved(t.id, tuple(path), "knockback", None, None, "gurps4/core/knockback B378"))
            r = core.knockback_fall_roll(ts.dx, yards, w.dice, shock_now(t))
            w.rolled(t.id, r, rule="gurps4/core/knockback B378")
            if not r.success:
                w.mark(t, "posture", "lying", "gurps4/core/knockback B378")


def knocked_out(w: Work, t: Combatant, status: str, rule: str) -> None:
    if t.status == status:
        return
    w.emit(ev.StatusChanged(t.id, status, rule))
    mount = mount_of(w.state, t)
    if mount is not None:
        if S(t).saddle == "war_saddle" and status == "unconscious":
            face = w.dice.roll(6, "war saddle: 50% to stay seated while unconscious")
            w.note(
                f"war saddle: d6 {face} ({'stays seated' if face <= 3 else 'falls'}; 50%)",
                t.id,
                "gurps4/gear/war-saddle B289",
            )
            if face <= 3:
                if mount.active and mount.marks.get("rider") == t.id and w.option("riderless_mounts_leave"):
                    w.emit(
                        ev.StatusChanged(mount.id, "riderless", "gurps4/mounted (GM's call: no one rides it)")
                    )
                return
        unhorse(w, t, status)
    if S(t).mount:
        for cid in (t.marks.get("passenger"), t.marks.get("rider")):
            if cid:
                unhorse(w, w.c(cid), f"the mount is {status}")
