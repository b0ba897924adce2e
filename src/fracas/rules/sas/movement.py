"""Movement on the Spells & Swords map: the spaces a combatant may move (a steed's Movement, Swift),
paths toward a goal (a weighted A* search, bounded in effort) and away from the foes, whether a
closing attack can reach its target this turn (ATTACKING), and where a move leaves the mover.
"""

from __future__ import annotations

import heapq

from fracas.engine import events as ev
from fracas.engine.hexgrid import DIRECTIONS, Hex, direction_to, distance, neighbours, ring
from fracas.engine.state import Combatant, FightState
from fracas.rules.sas.actions import PATHED_CLOSING
from fracas.rules.sas.fold import EventBuilder, HiddenSet, held, view
from fracas.rules.sas.procedures.movement import mount_swift, movement
from fracas.rules.sas.readers import blocked_hexes, dist, foes_of, underwater
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of

_PATHS: dict[tuple[Hex, Hex, int, frozenset[Hex], bool], tuple[Hex, ...]] = {}


def _bfs_path(
    start: Hex, goal: Hex, spaces: int, blocked: set[Hex] | frozenset[Hex], stop_adjacent: bool
) -> list[Hex]:
    """A short path (at most ``spaces`` steps, around blocked hexes) to the reachable hex nearest the goal
    (next to it when ``stop_adjacent``): a weighted A* search (fast, near-shortest), bounded in effort;
    ties go to the first found, so it is deterministic. Pure in its arguments, so answers are remembered
    (a tactic validates a move, then the engine validates and resolves it again)."""
    key = (start, goal, spaces, frozenset(blocked), stop_adjacent)
    hit = _PATHS.get(key)
    if hit is None:
        if len(_PATHS) > 4096:
            _PATHS.clear()
        hit = _PATHS[key] = tuple(_search_path(start, goal, spaces, key[3], stop_adjacent))
    return list(hit)


def _window(start: Hex, spaces: int) -> tuple[int, int, int, int]:
    """The square of cells the searches below work on: ``spaces + 1`` hexes each way from ``start``, so every
    hex within ``spaces`` steps and each of its neighbours lies inside and no step wraps round an edge. A hex
    (q, r) is cell ``(q - oq) * side + (r - or_)``. Returns (side, oq, or_, start's cell)."""
    half = spaces + 1
    side = 2 * half + 1
    return side, start[0] - half, start[1] - half, half * side + half


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(side: int) -> tuple[tuple[int, int, int], ...]:
    """(dq, dr, cell offset) of the six steps, in DIRECTIONS order (the searches' tie-breaks follow it);
    remembered per window side (a pure function of an int: a few dozen sides in all)."""
    hit = _STEPS.get(side)
    if hit is None:
        hit = _STEPS[side] = tuple((dq, dr, dq * side + dr) for dq, dr in DIRECTIONS)
    return hit


def _reaches(start: Hex, goal: Hex, want: int, spaces: int, blocked: set[Hex] | frozenset[Hex]) -> bool:
    """Whether a free hex within ``want`` of ``goal`` (not ``start``) lies within ``spaces`` steps of
    ``start`` around blocked hexes.

    A breadth-first flood from both ends at once: from ``start`` and from the free hexes near the goal,
    each time one layer more on the side with the smaller frontier, until the two meet (yes), one side runs
    out of hexes (no: a goblin at the back of a jam asks about a foe whose free hexes are walled in by the
    goblins in front, and the flood from the goal ends at once instead of filling the field behind) or the
    two depths add up to ``spaces`` (no). A hex is not followed when the hex distance to the other end, a
    lower bound on any path, says the rest of the budget cannot get there. Runs on a flat grid of cells
    (``_window``), each hex looked up in ``blocked`` once; the answer is the plain flood's (a test checks)."""
    if spaces <= 0:
        return False
    side, oq, or_, here = _window(start, spaces)
    sq, sr = start[0] - oq, start[1] - or_
    gq, gr = goal[0] - oq, goal[1] - or_  # the goal in cell coordinates (it may lie outside the square)
    free = bytearray(side * side)  # per cell: 0 not looked at, 1 blocked, 2 free
    mine = bytearray(side * side)  # per cell: 1 reached from the start, 2 reached from the goal
    mine[here] = 1
    free[here] = 2
    # the goal's end: the free hexes within ``want`` of it that the budget can reach at all
    back: list[int] = []
    for dq in range(-want, want + 1):
        for dr in range(max(-want, -dq - want), min(want, -dq + want) + 1):
            q, r = gq + dq, gr + dr
            a, b = q - sq, r - sr
            h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
            if h > spaces or h == 0:
                continue
            i = q * side + r
            if (q + oq, r + or_) in blocked:
                free[i] = 1
                continue
            free[i] = 2
            mine[i] = 2
            back.append(i)
    fore = [here]
    steps = _steps(side)
    depth_f = depth_b = 0
    while fore and back and depth_f + depth_b < spaces:
        forward = len(fore) <= len(back)
        # this layer's side, the other end's cell, and the most its hexes may lie from the other end: what
        # is left of the budget (plus ``want`` toward the goal, whose free hexes near it all count)
        if forward:
            depth_f += 1
            frontier, own, other, tq, tr, reach = fore, 1, 2, gq, gr, spaces - depth_f + want
        else:
            depth_b += 1
            frontier, own, other, tq, tr, reach = back, 2, 1, sq, sr, spaces - depth_b
        nxt: list[int] = []
        for i in frontier:
            q, r = divmod(i, side)
            for dq, dr, off in steps:
                n = i + off
                m = mine[n]
                if m == own:
                    continue
                if m == other:
                    return True  # the floods meet: depth_f + depth_b <= spaces steps in all
                st = free[n]
                nq, nr = q + dq, r + dr
                if st == 0:
                    st = free[n] = 1 if (nq + oq, nr + or_) in blocked else 2
                if st == 1:
                    continue
                a, b = nq - tq, nr - tr
                h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
                if h > reach:
                    continue  # too far from the other end for the steps left
                mine[n] = own
                nxt.append(n)
        if forward:
            fore = nxt
        else:
            back = nxt
    return False


def _gets_closer(start: Hex, goal: Hex, spaces: int, blocked: set[Hex] | frozenset[Hex]) -> bool:
    """Whether some free hex nearer ``goal`` than ``start`` is lies within ``spaces`` steps of ``start``
    around blocked hexes: a breadth-first flood on a flat grid of cells (``_window``) that stops at the first
    such hex and does not follow steps from which the rest of the budget cannot get nearer (the hex distance
    is a lower bound on any path). The path search can only end nearer the goal than it began if this is so:
    when it is not, its answer is "stay" (no path), found here without the search (a goblin at the back of a
    jam)."""
    if spaces <= 0:
        return False
    side, oq, or_, here = _window(start, spaces)
    gq, gr = goal[0] - oq, goal[1] - or_
    closer = distance(start, goal) - 1  # a hex at most this far from the goal is nearer than the start
    seen = bytearray(side * side)  # per cell: 1 blocked or already in the flood
    seen[here] = 1
    steps = _steps(side)
    frontier = [here]
    left = spaces
    while frontier and left > 0:
        left -= 1  # what is left of the budget after this step
        nxt: list[int] = []
        for i in frontier:
            q, r = divmod(i, side)
            for dq, dr, off in steps:
                n = i + off
                if seen[n]:
                    continue
                nq, nr = q + dq, r + dr
                seen[n] = 1
                if (nq + oq, nr + or_) in blocked:
                    continue
                a, b = nq - gq, nr - gr
                h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
                if h <= closer:
                    return True
                if h - closer <= left:
                    nxt.append(n)
        frontier = nxt
    return False


# the hexes of each ring 0-5 around (0, 0), as offsets (``_free_ring`` adds them to a goal)
_RINGS: tuple[tuple[Hex, ...], ...] = tuple(tuple(ring((0, 0), w)) for w in range(6))


def _free_ring(goal: Hex, start: Hex, want: int, blocked: set[Hex] | frozenset[Hex]) -> int:
    """The first ring around ``goal`` from ``want`` out that has a hex not in ``blocked`` (``start`` counts
    as free), at most 6: where a search for a crowded goal aims. The hexes of a ring are looked at in any
    order (the answer is whether one is free), each offset added in place instead of a ring generator
    (a jammed goal has its first few rings all taken, asked once per search)."""
    gq, gr = goal
    while want < 6:
        for dq, dr in _RINGS[want]:
            h = (gq + dq, gr + dr)
            if h == start or h not in blocked:
                return want
        want += 1
    return want


def _search_path(
    start: Hex, goal: Hex, spaces: int, blocked: frozenset[Hex], stop_adjacent: bool
) -> list[Hex]:
    """The weighted A* search of ``_bfs_path``. It runs on a flat grid of cells (``_window``) instead of
    tuples in dicts; the heap order (f, h, tick) and so the path are those of the search on tuples (a test
    checks them against it)."""
    # a crowded goal: aim for the nearest ring around it that has a free hex
    want = _free_ring(goal, start, 1 if stop_adjacent else 0, blocked)
    if distance(start, goal) <= want or spaces <= 0:
        return []
    if not _gets_closer(start, goal, spaces, blocked):
        return []  # nothing reachable is nearer the goal: the search would keep the start as its best
    side, oq, or_, here0 = _window(start, spaces)
    gq, gr = goal[0] - oq, goal[1] - or_
    size = side * side
    free = bytearray(size)  # per cell: 0 not looked at, 1 blocked, 2 free
    unreached = spaces + 1  # more than any step count the search keeps
    cost = [unreached] * size
    prev = [-1] * size
    cost[here0] = 0
    h0 = distance(start, goal)
    heap = [(2 * h0, h0, 0, here0)]
    best = here0
    best_h, best_g = h0, 0  # the best hex so far: (its distance to the ring wanted, its steps)
    tick = 0
    steps = _steps(side)
    push, pop = heapq.heappush, heapq.heappop
    while heap and tick < 1500:
        _, h_here, _, i = pop(heap)
        g = cost[i]
        if h_here <= want:
            best = i
            break
        if g >= spaces:
            continue
        g1 = g + 1
        q, r = divmod(i, side)
        for dq, dr, off in steps:
            n = i + off
            st = free[n]
            nq, nr = q + dq, r + dr
            if st == 0:
                st = free[n] = 1 if (nq + oq, nr + or_) in blocked else 2
            if st == 1 or cost[n] <= g1:
                continue
            cost[n] = g1
            prev[n] = i
            a, b = nq - gq, nr - gr
            h = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (a + b if a + b >= 0 else -a - b)) // 2
            hk = h if h > want else want
            if hk < best_h or (hk == best_h and g1 < best_g):
                best, best_h, best_g = n, hk, g1
            tick += 1
            push(heap, (g1 + 2 * h, h, tick, n))
    path: list[Hex] = []
    node = best
    while node != here0:
        q, r = divmod(node, side)
        path.append((q + oq, r + or_))
        node = prev[node]
    return path[::-1]


def no_room_next_to(state: FightState, c: Combatant, target: Combatant) -> bool:
    """ATTACKING: every hex next to a target more than one space away is taken (others stand there or the
    map blocks it), so ``c`` cannot close with it: every closing attack on it (Close to Attack, Charge,
    Sneak Attack, Horde, Dog Pile, Trample, Leap Attack) is refused. The tactics ask first, to skip
    proposals ``validate`` would refuse for this reason whatever else they say."""
    pos = target.pos
    if pos is None or dist(c, target) <= 1:
        return False
    memo = held(state, c, target)
    key = ("no_room", c.id, target.id)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
    taken = _taken_hexes(state, c)
    q, r = pos
    out = True
    for dq, dr in DIRECTIONS:
        if (q + dq, r + dr) not in taken:
            out = False
            break
    if memo is not None:
        memo[key] = out
    return out


def may_close_at(state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
    """The breadth-first look ``no_way_through`` starts with (``_may_close``) at ``action``'s speed, on
    its own: False means no free hex next to the target within reach. A tactic asks it for a Charge (the
    longest reach) before a Horde Attack or Close to Attack on the same foe: a goblin stuck at the back
    is then answered for the shorter reach from the memo, one look instead of two."""
    pos = target.pos
    if pos is None or c.pos is None or dist(c, target) <= 1:
        return True
    return _may_close(state, c, pos, closing_reach(state, c, action))


def closing_reach(state: FightState, c: Combatant, action: str) -> int:
    """The spaces a closing attack moves: a Charge at double speed, a Sneak Attack at half (ATTACKING)."""
    speed = 2.0 if action == "charge" else 0.5 if action == "sneak-attack" else 1.0
    return move_spaces(state, c, speed, charge=action == "charge")


def no_way_through(state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
    """ATTACKING: a closing attack that moves (Close to Attack, Sneak Attack, Charge, Horde Attack, Dog
    Pile) on a target more than one space away finds no path this turn to a free hex next to him (at the
    action's speed): ``validate`` refuses it then, with this very computation. The tactics ask first, to
    skip such proposals without the rest of ``validate``."""
    pos = target.pos
    if pos is None or c.pos is None or action not in PATHED_CLOSING or dist(c, target) <= 1:
        return False
    reach = closing_reach(state, c, action)
    # each step closes at most one space: too far is refused without a search
    path = path_to(state, c, pos, reach, True) if _may_close(state, c, pos, reach) else []
    return not path or distance(path[-1], pos) > 1


def _mount_bonus(state: FightState, c: Combatant) -> int:
    mid = c.marks.get("mounted_on")
    if not mid:
        return 0
    mount = state.combatants[mid]
    return (
        mount.stats.movement
        - c.stats.movement
        + mount_swift(view(state, c)) * settings_of(state).swift_movement
    )


def path_to(
    state: FightState,
    c: Combatant,
    goal: Hex,
    spaces: int,
    stop_adjacent: bool,
    taken: set[Hex] | None = None,
) -> list[Hex]:
    if c.pos is None or spaces <= 0:
        return []
    return _bfs_path(c.pos, goal, spaces, _path_blocked(state, c, taken), stop_adjacent)


def _may_close(state: FightState, c: Combatant, goal: Hex, spaces: int) -> bool:
    """False when no free hex next to ``goal`` is within ``spaces`` steps (a plain breadth-first
    flood, cheaper than the path search, which can only fail then too); True means: search."""
    if c.pos is None or spaces <= 0 or distance(c.pos, goal) - spaces > 1:
        return False
    # remembered while a tactic weighs its proposals (``fold.views_held``): the largest budget found too
    # short and the smallest found enough (a Charge's longer move is asked first, then Close to Attack's)
    memo = held(state, c)
    key = ("may_close", c.id, goal)
    known = memo.get(key) if memo is not None else None
    if known is not None:
        short, enough = known
        if spaces <= short:
            return False
        if spaces >= enough:
            return True
    answer = _may_close_now(state, c, goal, spaces)
    if memo is not None:
        short, enough = known if known is not None else (0, 1 << 30)
        memo[key] = (short, min(enough, spaces)) if answer else (max(short, spaces), enough)
    return answer


def _may_close_now(state: FightState, c: Combatant, goal: Hex, spaces: int) -> bool:
    assert c.pos is not None
    blocked = _path_blocked(state, c, None)
    want = _free_ring(goal, c.pos, 1, blocked)
    if distance(c.pos, goal) <= want:
        return False
    return _reaches(c.pos, goal, want, spaces, blocked)


def _taken_hexes(state: FightState, c: Combatant) -> frozenset[Hex]:
    """The hexes others stand on and the map's blocked hexes (remembered while a tactic weighs its
    proposals: see ``fold.views_held``)."""
    memo = held(state, c)
    key = ("taken", c.id)
    if memo is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    out = frozenset(state.occupied(c.id) | blocked_hexes(state))
    if memo is not None:
        memo[key] = out
    return out


def _path_blocked(state: FightState, c: Combatant, taken: set[Hex] | None) -> set[Hex] | frozenset[Hex]:
    if taken is None:
        if not (c.marks.get("ridden_by") or c.marks.get("mounted_on")):
            return _taken_hexes(state, c)  # no rider or steed to let through: the same hexes
        memo = held(state, c)
        key = ("path_blocked", c.id)
        if memo is not None and key in memo:
            return memo[key]  # type: ignore[no-any-return]
        out = frozenset(_path_blocked_now(state, c, None))
        if memo is not None:
            memo[key] = out
        return out
    return _path_blocked_now(state, c, taken)


def _path_blocked_now(state: FightState, c: Combatant, taken: set[Hex] | None) -> set[Hex]:
    blocked = (taken if taken is not None else state.occupied(c.id)) | blocked_hexes(state)
    rider = c.marks.get("ridden_by") or c.marks.get("mounted_on")
    if rider:
        other = state.combatants[rider]
        blocked.discard(other.pos)  # type: ignore[arg-type]
    return blocked


def path_away(state: FightState, c: Combatant, spaces: int) -> list[Hex]:
    if c.pos is None:
        return []
    spots = [f.pos for f in foes_of(state, c, False) if f.pos is not None]
    blocked = state.occupied(c.id) | blocked_hexes(state)
    path: list[Hex] = []
    here = c.pos
    for _ in range(spaces):
        best, best_key = None, None
        for n in neighbours(here):
            if n in blocked or n in path:
                continue
            # the nearest foe's distance (hex distance written out: this runs per step per foe)
            nq, nr = n
            key = 0
            for i, (fq, fr) in enumerate(spots):
                a, b, s = nq - fq, nr - fr, nq - fq + nr - fr
                d = ((a if a >= 0 else -a) + (b if b >= 0 else -b) + (s if s >= 0 else -s)) // 2
                if i == 0 or d < key:
                    key = d
            if best_key is None or key > best_key:
                best, best_key = n, key
        if best is None:
            break
        path.append(best)
        here = best
    return path


def move_on_path(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    path: list[Hex],
    mode: str,
    rid: str,
    face_to: Hex | None = None,
) -> None:
    if not path:
        return
    facing = direction_to(path[-2] if len(path) > 1 else c.pos, path[-1]) if c.pos is not None else None  # type: ignore[arg-type]
    if face_to is not None:
        facing = direction_to(path[-1], face_to)
    b.events.append(ev.Moved(c.id, tuple(path), mode, facing, rule=rid))
    mid = c.marks.get("mounted_on")
    if mid:
        b.events.append(ev.Moved(mid, tuple(path), "bear", facing, rule=rule("mounted")))
    b.set_mark(c.id, "moved_round", state.round)
    if c.hidden and mode != "sneak":
        b.events.append(HiddenSet(c.id, False, rule("actions", "sneak")))  # only Sneak moves unseen


def move_spaces(state: FightState, c: Combatant, speed: float, charge: bool = False) -> int:
    """Spaces ``c`` may move at ``speed`` (remembered while a tactic weighs its proposals: see
    ``fold.views_held``)."""
    memo = held(state, c)
    if memo is None:
        return _move_spaces_now(state, c, speed, charge)
    key = ("spaces", c.id, speed, charge)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _move_spaces_now(state, c, speed, charge)
    return hit  # type: ignore[no-any-return]


def _move_spaces_now(state: FightState, c: Combatant, speed: float, charge: bool) -> int:
    f = view(state, c)
    bonus = _mount_bonus(state, c)
    if bonus:
        mount = view(state, state.combatants[c.marks["mounted_on"]])
        return movement(mount, underwater(state), speed, charge) + int(mount_swift(f) * speed)
    return movement(f, underwater(state), speed, charge)


def with_batch(b: EventBuilder, c: Combatant, names: tuple[str, ...]) -> Combatant:
    """``c`` (or a copy) with the conditions ``names`` this batch gave him."""
    now = b.conditions(c.id)
    add = {n: now[n] for n in names if n in now and c.conditions.get(n) != now[n]}
    if not add:
        return c
    out = c.clone()
    out.conditions.update(add)
    return out


def moved_copy(b: EventBuilder, c: Combatant) -> Combatant:
    """The combatant where this batch's movement left it (for the situation of its attack)."""
    pos, facing = c.pos, c.facing
    for e in b.events:
        if isinstance(e, ev.Moved) and e.actor == c.id:
            if e.path:
                pos = tuple(e.path[-1])  # type: ignore[assignment]
            if e.facing is not None:
                facing = e.facing
    moved = c.clone()
    moved.pos, moved.facing = pos, facing
    if any(isinstance(e, ev.Moved) and e.actor == c.id for e in b.events):
        moved.marks["moved_round"] = b.state.round
    return moved


def struck(state: FightState, events: list[ev.Event], moved: Combatant) -> tuple[FightState, Combatant]:
    """``state`` and the mover ``moved`` (where this batch's movement left it) with ``events`` (an
    out-of-order attack's, applied at once) folded onto copies: what the mover's own attack in the same
    batch reads. The mover keeps his place in the state as his attack reads it without a first strike
    (where he stood at the start of his turn): only what the strike did changes."""
    now = state.clone()
    for e in events:
        e.apply(now)
    mover = now.combatants[moved.id].clone()
    mover.pos, mover.facing = moved.pos, moved.facing
    if "moved_round" in moved.marks:
        mover.marks["moved_round"] = moved.marks["moved_round"]
    return now, mover
