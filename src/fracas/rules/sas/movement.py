"""Movement on the Spells & Swords map: the spaces a combatant may move (a steed's Movement, Swift),
paths toward a goal and away from the foes (the engine's searches, ``engine/pathing.py``), whether a
closing attack can reach its target this turn (ATTACKING), and where a move leaves the mover.
"""

from __future__ import annotations

from fracas.engine import events as ev
from fracas.engine import pathing
from fracas.engine.hexgrid import DIRECTIONS, Hex, direction_to, distance
from fracas.engine.state import Combatant, FightState
from fracas.engine.taken import map_blocked
from fracas.rules.sas.actions import PATHED_CLOSING
from fracas.rules.sas.fold import EventBuilder, HiddenSet, held, view
from fracas.rules.sas.procedures.movement import mount_swift, movement
from fracas.rules.sas.readers import dist, foes_of, underwater
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of


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
    return pathing.approach(c.pos, goal, spaces, _path_blocked(state, c, taken), 1 if stop_adjacent else 0)


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
    want = pathing.free_ring(goal, c.pos, 1, blocked)
    if distance(c.pos, goal) <= want:
        return False
    return pathing.reaches(c.pos, goal, want, spaces, blocked)


def _taken_hexes(state: FightState, c: Combatant) -> frozenset[Hex]:
    """The hexes others stand on and the map's blocked hexes (remembered while a tactic weighs its
    proposals: see ``fold.views_held``)."""
    memo = held(state, c)
    key = ("taken", c.id)
    if memo is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    out = frozenset(state.occupied(c.id) | map_blocked(state))
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
    blocked = (taken if taken is not None else state.occupied(c.id)) | map_blocked(state)
    rider = c.marks.get("ridden_by") or c.marks.get("mounted_on")
    if rider:
        other = state.combatants[rider]
        blocked.discard(other.pos)  # type: ignore[arg-type]
    return blocked


def path_away(state: FightState, c: Combatant, spaces: int) -> list[Hex]:
    """Each step to the free hex farthest from the nearest foe, even if it is no farther than where it stands
    (a Run or Withdraw away from them)."""
    if c.pos is None:
        return []
    spots = [f.pos for f in foes_of(state, c, False) if f.pos is not None]
    return pathing.away(c.pos, spots, spaces, state.occupied(c.id) | map_blocked(state), gain=False)


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


def after_reactions(
    b: EventBuilder, state: FightState, c: Combatant, target: Combatant, k: int
) -> tuple[FightState, Combatant, Combatant]:
    """The state, the mover (where this batch's movement left him: :func:`moved_copy`) and his target as
    his attack after a move reads them: with what the reactions since event ``k`` did (Receive Charge,
    Fire from Overwatch: :func:`struck`), or as they stand when none struck."""
    mc = moved_copy(b, c)
    if len(b.events) > k:
        state, mc = struck(state, b.events[k:], mc)
        target = state.combatants[target.id]
    return state, mc, target
