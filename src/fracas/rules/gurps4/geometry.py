"""Where figures are: separation, range and reach in the air and on the ground (B398), height for Combat at
Different Levels (B402), and the paths a figure moves along."""

from __future__ import annotations

import math

from fracas.engine import events as ev
from fracas.engine import pathing, taken
from fracas.engine.hexgrid import Hex, distance, neighbours
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import aerial, data, mounted
from fracas.rules.gurps4.figure import S, Work, flying, look, rider_of
from fracas.rules.gurps4.stats import Attack, GurpsStats


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
    out = set(taken.map_blocked(state))
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
    """A hex path of at most ``steps`` toward ``dest`` (a shortest way around figures and blocked hexes,
    looking no farther from the mover than ``dest`` is plus :data:`BFS_MARGIN`; stopping ``stop_at`` away),
    or straight away from it when ``away``."""
    if mover.pos is None or steps <= 0:
        return []
    blocked = blockers(state, mover)
    if away:
        return pathing.away(mover.pos, (dest,), steps, blocked, tie=_nearer_centre)
    reach = distance(mover.pos, dest) + BFS_MARGIN
    return pathing.towards(mover.pos, dest, steps, blocked, stop_at, margin=None, reach=reach)


def _nearer_centre(h: Hex) -> int:
    """Of hexes equally far from what a figure backs away from, it takes the one nearest the map's centre
    (0, 0) by ``|q| + |r|``."""
    return -abs(h[0]) - abs(h[1])


BFS_MARGIN = 8
"""A figure's way round looks at hexes at most this much farther from it than its goal is."""


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
    blocked = taken.blocked(state, c.id)
    options = [n for n in neighbours(c.pos) if n not in blocked]
    if not options:
        return None
    if away_from is not None:
        options.sort(key=lambda n: -distance(n, away_from))
    return options[0]
