"""Tactics for automated ED4 combatants (deterministic: no dice, only the state).

- ``default``: close to the nearest enemy and attack it with the attack that deals the most expected
  damage (exact odds of hitting x mean damage after armor); spend Karma on the Attack test when it raises
  the chance to hit by at least 10 points; stand up when knocked down; revive an unconscious friend next to
  it when no enemy is; a character (not a creature) retreats when the next hit could kill it.
- ``guard``: holds its ground; attacks what is next to it (or in range of a missile weapon); otherwise
  reserves its action to strike whoever attacks its side (ED4 p.375, Herekar guarding Tairin).
- ``hold``: never moves or attacks (a target dummy for tests and examples).

A tactic answers every kind of decision the ruleset asks: "declare", "act", "react" (a reserved action's
trigger) and "delayed".
"""

from __future__ import annotations

import heapq
from collections.abc import Container, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.engine import pathing, taken
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance, ring
from fracas.engine.state import BLOCK_SHIFT
from fracas.engine.taken import GRID_FROM
from fracas.rules.earthdawn.actions import can_rouse
from fracas.rules.earthdawn.battle_map import hexes, inside_minimum, range_hexes, within
from fracas.rules.earthdawn.combat import current_damage
from fracas.rules.earthdawn.profile import CLOSE_KINDS

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

KARMA_GAIN = 0.10
"""Spend a Karma point on an Attack test when it raises the chance to hit by at least this much."""


@lru_cache(maxsize=65536)
def p_hit(step: int, dn: int, karma_step: int = 0) -> float:
    """Chance that a test at ``step`` (plus a Karma die at ``karma_step``) reaches ``dn`` (exact odds)."""
    from fracas.dice.exact import ed4_test

    step = max(1, step)
    expr = f"step {step}" + (f"+step {karma_step}" if karma_step else "")
    return float(ed4_test(expr, max(dn, 1)).p_success)


@lru_cache(maxsize=4096)
def mean_step(step: int) -> float:
    from fracas.dice.exact import step_distribution

    return float(step_distribution(max(1, step)).mean)


def _defense(p: CombatProfile, against: str) -> int:
    return (
        p.physical_defense
        if against == "physical"
        else p.mystic_defense
        if against == "mystic"
        else p.social_defense
    )


def expected_damage(me: Combatant, target: Combatant, a: AttackProfile, karma: bool = False) -> float:
    p: CombatProfile = me.stats
    tp: CombatProfile = target.stats
    wounds = me.counters.get("wounds", 0)
    down = 3 if "knocked-down" in me.conditions else 0
    dn = _defense(tp, a.against) - (3 if "knocked-down" in target.conditions else 0)
    ph = p_hit(a.step - wounds - down, dn, p.karma_step if karma else 0)
    armor = 0 if a.armor == "none" else tp.physical_armor if a.armor == "physical" else tp.mystic_armor
    return ph * max(0.5, mean_step(a.damage - wounds) - armor)


def _enemies(state: FightState, me: Combatant) -> list[Combatant]:
    side = me.side
    cs = state.combatants.values()
    return [c for c in cs if c.side != side and c.status == "active" and not _unseen(c, me)]


def _unseen(c: Combatant, me: Combatant) -> bool:
    """``c`` is hidden from ``me``: hidden, not yet revealed (an ambusher who attacked is seen:
    ``marks["revealed"]``, p.388), and ``me`` did not notice the ambush (made his Perception test against
    it, ``marks["noticed_hidden"]``, p.390). A player character's tactic knows no more than a gamemaster's
    (encounter format: "unseen by the other side's tactics")."""
    return c.hidden and not c.marks.get("revealed") and not me.marks.get("noticed_hidden")


def _nearest(me: Combatant, foes: list[Combatant]) -> Combatant | None:
    best, key = None, None
    for c in foes:
        d = distance(me.pos, c.pos) if me.pos is not None and c.pos is not None else 0
        k = (d, -current_damage(c), c.id)
        if key is None or k < key:
            best, key = c, k
    return best


class Survey:
    """One look around for a decision: the nearest enemy in the fight (ties: the most hurt, then the id),
    enemies within 2 hexes, and unconscious friends next to the actor (in the order of the roster);
    :meth:`closest` gives the enemies nearest the actor, ``foes`` every enemy with its distance."""

    __slots__ = ("_foes", "nearest", "near", "adjacent_foe", "fallen", "_state", "_me")

    def __init__(self, state: FightState, me: Combatant, full_scan: bool = False) -> None:
        self._state = state
        self._me = me
        self._foes: list[tuple[int, Combatant]] | None = None
        big = len(state.combatants) > GRID_FROM and not full_scan  # full_scan: the reference, for tests
        if big and me.pos is not None and self._look_around(state, me):
            return
        self._scan_all(state, me)

    def _scan_all(self, state: FightState, me: Combatant) -> None:
        foes: list[tuple[int, Combatant]] = []
        near: list[Combatant] = []
        fallen: list[Combatant] = []
        best = None
        key: tuple[int, int, str] | None = None
        adjacent = False
        side = me.side
        pos = me.pos
        mq, mr = pos if pos is not None else (0, 0)
        for c in state.combatants.values():
            cpos = c.pos
            if cpos is None or pos is None:
                d = 0
            else:
                dq = cpos[0] - mq
                dr = cpos[1] - mr
                d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
            if c.side == side:
                if d == 1 and c.status == "unconscious":
                    fallen.append(c)
                continue
            if c.status != "active" or _unseen(c, me):
                continue
            foes.append((d, c))
            if d <= 2:
                near.append(c)
                if d == 1:
                    adjacent = True
            k = (d, -(c.counters.get("damage", 0) + c.counters.get("stun", 0)), c.id)
            if key is None or k < key:
                best, key = c, k
        self._foes = foes
        self.nearest = best
        self.near = near
        self.adjacent_foe = adjacent
        self.fallen = fallen

    def _look_around(self, state: FightState, me: Combatant) -> bool:
        """The same answers as :meth:`_scan_all` from the hexes around the actor, rings 0 to 2, and when no
        enemy stands there, the nearest one from the blocks of the occupancy index
        (:func:`_nearest_by_blocks`). False (nothing set) when a combatant has no hex."""
        if state.grid().unplaced:
            return False
        side = me.side
        near: list[Combatant] = []
        fallen: list[Combatant] = []
        best = None
        key: tuple[int, int, str] | None = None
        adjacent = False
        at = state.grid().at
        cs = state.combatants
        pq, pr = me.pos  # type: ignore[misc]
        for dq, dr, r in _NEAR_STEPS:
            h = (pq + dq, pr + dr)
            ids = at.get(h)
            if not ids:
                continue
            for cid in ids:
                c = cs[cid]
                if c.pos != h:
                    continue
                if c.side == side:
                    if r == 1 and c.status == "unconscious":
                        fallen.append(c)
                    continue
                if c.status != "active" or _unseen(c, me):
                    continue
                near.append(c)
                if r == 1:
                    adjacent = True
                k = (r, -(c.counters.get("damage", 0) + c.counters.get("stun", 0)), c.id)
                if key is None or k < key:
                    best, key = c, k
        if best is None:
            best = _nearest_by_blocks(state, me)  # nobody within 2 hexes: the nearest farther off
        if len(fallen) > 1:  # the roster's order, as a scan of every combatant finds them
            rank = state.grid().rank
            fallen.sort(key=lambda c: rank[c.id])
        self.nearest = best
        self.near = near
        self.adjacent_foe = adjacent
        self.fallen = fallen
        return True

    @property
    def foes(self) -> list[tuple[int, Combatant]]:
        """Every enemy in the fight the actor sees, with its distance in hexes."""
        if self._foes is None:
            nearest, near, adjacent, fallen = self.nearest, self.near, self.adjacent_foe, self.fallen
            self._scan_all(self._state, self._me)
            self.nearest, self.near, self.adjacent_foe, self.fallen = nearest, near, adjacent, fallen
        return self._foes  # type: ignore[return-value]

    def closest(self, n: int) -> list[tuple[int, Combatant]]:
        """The ``n`` enemies nearest the actor (ties: the id), nearest first."""
        state, me = self._state, self._me
        if self._foes is None and me.pos is not None:
            found = _closest_by_grid(state, me, n)
            if found is not None:
                return found
        return heapq.nsmallest(n, self.foes, key=lambda dc: (dc[0], dc[1].id))


_NEAR_STEPS: tuple[tuple[int, int, int], ...] = tuple(
    (dq, dr, r) for r in range(3) for dq, dr in ring((0, 0), r)
)
"""The hexes within 2 of a hex, ring by ring in the order hexgrid.ring walks them, as (dq, dr, ring)."""


def _enemy_blocks(state: FightState, me: Combatant) -> Iterator[tuple[int, list[Combatant]]]:
    """The combatants of the other sides (any status) block by block outward from the actor's block (the
    occupancy index's ``blocks``), as (a distance in hexes none of them is nearer than, who they are): the
    blocks k blocks away at once, 8(k - 1) + 1 hexes at least (Grid's BLOCK_SHIFT); every block left at once
    when a ring of blocks would hold more blocks than are left."""
    g = state.grid()
    side = me.side
    maps = [m for s, m in g.blocks.items() if s != side and m]
    left = sum(len(m) for m in maps)
    cs = state.combatants
    mq, mr = me.pos  # type: ignore[misc]
    bq, br = mq >> BLOCK_SHIFT, mr >> BLOCK_SHIFT
    k = 0
    while left > 0:
        lb = 0 if k == 0 else (k - 1) * (1 << BLOCK_SHIFT) + 1
        out: list[Combatant] = []
        if 8 * k > left:
            for m in maps:
                for (q, r), ids in m.items():
                    if max(abs(q - bq), abs(r - br)) >= k:
                        out += [cs[cid] for cid in ids]
            yield lb, out
            return
        for key in _block_ring(bq, br, k):
            for m in maps:
                ids = m.get(key)
                if ids:
                    left -= 1
                    out += [cs[cid] for cid in ids]
        yield lb, out
        k += 1


def _block_ring(bq: int, br: int, k: int) -> list[tuple[int, int]]:
    """The blocks whose larger offset from block (bq, br) is ``k``."""
    if k == 0:
        return [(bq, br)]
    out = [(bq + i, br - k) for i in range(-k, k + 1)]
    out += [(bq + i, br + k) for i in range(-k, k + 1)]
    out += [(bq - k, br + j) for j in range(-k + 1, k)]
    out += [(bq + k, br + j) for j in range(-k + 1, k)]
    return out


def _nearest_by_blocks(state: FightState, me: Combatant) -> Combatant | None:
    """The enemy :meth:`Survey._scan_all` names nearest (least distance, then most hurt, then the id), from
    the blocks around the actor outward until no block left can hold anyone as near."""
    best = None
    key: tuple[int, int, str] | None = None
    for lb, group in _enemy_blocks(state, me):
        if key is not None and lb > key[0]:
            break
        for d, c in _in_sight(group, me):
            k = (d, -(c.counters.get("damage", 0) + c.counters.get("stun", 0)), c.id)
            if key is None or k < key:
                best, key = c, k
    return best


def _in_sight(group: list[Combatant], me: Combatant) -> list[tuple[int, Combatant]]:
    """The active enemies of ``group`` the actor ``me`` knows of (:func:`_unseen`), each with its distance
    in hexes."""
    mq, mr = me.pos  # type: ignore[misc]
    out = []
    for c in group:
        if c.status != "active" or _unseen(c, me):
            continue
        dq = c.pos[0] - mq  # type: ignore[index]
        dr = c.pos[1] - mr  # type: ignore[index]
        out.append(((abs(dq) + abs(dr) + abs(dq + dr)) >> 1, c))
    return out


def _closest_by_grid(state: FightState, me: Combatant, n: int) -> list[tuple[int, Combatant]] | None:
    """The ``n`` enemies nearest the actor (ties: the id) from the blocks of the occupancy index, outward
    until no block left can hold one nearer than the n-th found; None when a combatant has no hex."""
    if state.grid().unplaced:
        return None
    found: list[tuple[int, Combatant]] = []
    for lb, group in _enemy_blocks(state, me):
        if len(found) >= n and heapq.nsmallest(n, [d for d, _ in found])[-1] < lb:
            break
        found += _in_sight(group, me)
    return heapq.nsmallest(n, found, key=lambda dc: (dc[0], dc[1].id))


class Ed4Tactic:
    name: ClassVar[str] = "default"
    declares: ClassVar[bool] = False  # never declares combat options: the ruleset declares "act" for it
    legal_by_construction: ClassVar[bool] = True
    """Every command it builds passes the core's ``validate`` (paths within the Movement left, around
    blocked and taken hexes; attacks in reach; Karma only when there is some): a core ruleset that says
    ``tactics_legal`` lets the engine skip the second check. A subclass that builds other commands says
    False."""

    def choose(self, state: FightState, decision: Decision, ruleset: Any) -> Command:
        kind = decision.kind
        actor = decision.actor
        if kind == "declare":
            return Command(actor, "declare", args={"action": "attack"})
        if kind == "delayed":
            return Command(actor, "act-now")
        if kind == "react":
            return self.react(state, state.combatants[actor], ruleset)
        return self.act(state, state.combatants[actor], ruleset)

    # ----- attacks ------------------------------------------------------------------------------------
    def attack_plan(
        self,
        state: FightState,
        me: Combatant,
        target: Combatant,
        ruleset: Any,
        move_left: int,
        blocked: Container[tuple[int, int]] | None = None,
    ) -> Command | None:
        """The best attack on ``target`` possible now (moving first up to ``move_left`` hexes), or None."""
        return self._plan(state, me, target, ruleset, move_left, [blocked])

    def _plan(
        self,
        state: FightState,
        me: Combatant,
        target: Combatant,
        ruleset: Any,
        move_left: int,
        shared: list[Any],
    ) -> Command | None:
        """:meth:`attack_plan` with ``shared[0]`` the blocked hexes, computed once per decision (None until
        a path is needed)."""
        p: CombatProfile = me.stats
        pos = me.pos
        tpos = target.pos
        if pos is None or tpos is None:
            return None
        dq = pos[0] - tpos[0]
        dr = pos[1] - tpos[1]
        d = (abs(dq) + abs(dr) + abs(dq + dr)) >> 1
        cands: list[tuple[int, list[tuple[int, int]]]] = []
        path: list[tuple[int, int]] | None = None
        blocked: Container[tuple[int, int]] | None
        attacks = p.attacks
        for i, a in enumerate(attacks):
            if a.kind in CLOSE_KINDS:
                if d == 1:
                    cmd_path: list[tuple[int, int]] = []
                elif d - 1 <= move_left:
                    if path is None:
                        blocked = shared[0]
                        if blocked is None:
                            blocked = shared[0] = taken.blocked_view(state, me.id)
                        path = pathing.towards(pos, tpos, move_left, blocked, arrive=True)
                    if not path or distance(path[-1], tpos) != 1:
                        continue
                    cmd_path = path
                else:
                    continue
            else:
                up = range_hexes(d, me.altitude, target.altitude)
                if a.long is None or not within(d, a.long) or inside_minimum(up, a.minimum):
                    continue
                cmd_path = []
            cands.append((i, cmd_path))
        if not cands:
            return None
        if len(cands) > 1:
            # best expected damage first, ties: the first listed (a stable sort on the score alone)
            scored = [(-expected_damage(me, target, attacks[i]), i, cp) for i, cp in cands]
            scored.sort(key=lambda c: (c[0], c[1]))
            cands = [(i, cp) for _, i, cp in scored]
        # The plan checks itself: a ruleset that may refuse an attack the core allows (the chapter: fliers
        # out of reach, lost weapons, charging-only attacks) says so with ``refuses_attacks``; then each
        # candidate, best first, is validated and the first legal one is taken.
        legal = getattr(ruleset, "_is_legal", None) if getattr(ruleset, "refuses_attacks", True) else None
        if legal is not None:
            # a ruleset that knows when it may refuse (``may_refuse_attack``) spares the validation otherwise
            may_refuse = getattr(ruleset, "may_refuse_attack", None)
            if may_refuse is not None and not may_refuse(state, me, target):
                legal = None
        karma_left = me.counters.get("karma", 0) > 0
        for i, cmd_path in cands:
            a = attacks[i]
            args: dict[str, Any] = {"attack": a.name}
            if cmd_path:
                args["path"] = [list(h) for h in cmd_path]
            if a.karma and karma_left:
                tp: CombatProfile = target.stats
                wounds = me.counters.get("wounds", 0)
                dn = _defense(tp, a.against)
                gain = p_hit(a.step - wounds, dn, p.karma_step) - p_hit(a.step - wounds, dn)
                if gain >= KARMA_GAIN:
                    args["karma"] = True
            cmd = Command(me.id, "attack", target.id, args)
            # The rest of the chapter may forbid an attack the core allows (a mounted charge on foot...).
            if legal is None or legal(state, cmd):
                return cmd
        return None

    def react(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        intr = state.extra["interrupt"]
        foe = state.combatants[intr["actor"]]
        left = ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)
        cmd = self.attack_plan(state, me, foe, ruleset, max(0, left))
        return cmd if cmd is not None else Command(me.id, "pass")

    def in_danger(self, me: Combatant, near: list[Combatant]) -> bool:
        """A character retreats when one more average hit from the strongest enemy near it could kill it."""
        p: CombatProfile = me.stats
        if p.kind != "character" or me.pos is None or not near:
            return False
        worst = 0.0
        for f in near:
            fp: CombatProfile = f.stats
            for a in fp.attacks:
                worst = max(worst, mean_step(a.damage) - p.physical_armor)
        return worst > 0 and current_damage(me) + worst >= p.death

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        if me.marks.get("std") == state.round:
            # his Standard action went already (a mount's on its rider's charge or gallop, p.395-396): one
            # a round (p.373), and every plan below needs it
            return Command(me.id, "end")
        sv = Survey(state, me)
        target = sv.nearest
        left = ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)
        if "knocked-down" in me.conditions:
            args: dict[str, Any] = {}
            if (
                target is not None
                and me.pos is not None
                and target.pos is not None
                and distance(me.pos, target.pos) > 1
            ):
                walk = hexes(me.stats.movement)
                if hasattr(ruleset, "standing_hexes"):  # the chapter: impaired terrain, what was crawled
                    walk = ruleset.standing_hexes(state, me)
                if ruleset.moved_this_round(state, me):
                    # crawled already: a walk after the Standard action of standing up would be moving
                    # before and after it, which needs Splitting Movement (p.386), not declared while down
                    walk = 0
                path = (
                    pathing.towards(me.pos, target.pos, walk, taken.blocked_view(state, me.id))
                    if walk > 0
                    else None
                )
                if path:
                    args["path"] = [list(h) for h in path]
            return Command(me.id, "stand-up", args=args)
        if target is None or me.pos is None:
            return Command(me.id, "end")
        if self.in_danger(me, sv.near):
            run_left = 2 * ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)
            path = pathing.away(me.pos, (target.pos,), run_left, taken.blocked_view(state, me.id))  # type: ignore[arg-type]
            if path:
                return Command(me.id, "run", args={"path": [list(h) for h in path], "flee": True})
        if sv.fallen and not sv.adjacent_foe and can_rouse(me):  # only a Namegiver revives (p.380)
            for c in sv.fallen:
                # one Recovery test while unconscious; if it fails, another hour (p.380)
                if c.counters.get("recovery_used", 0) < c.stats.recovery_tests and not c.marks.get(
                    "recovery_failed"
                ):
                    return Command(me.id, "revive", c.id)
        shared: list[Any] = [None]  # the blocked hexes, once for the whole decision
        cmd = self._plan(state, me, target, ruleset, max(0, left), shared)
        if cmd is not None:
            return cmd
        others = sv.closest(5)
        for _, other in others:
            if other is not target:
                cmd = self._plan(state, me, other, ruleset, max(0, left), shared)
                if cmd is not None:
                    return cmd
        blocked = shared[0]
        if blocked is None:
            blocked = taken.blocked_view(state, me.id)
        path = pathing.towards(
            me.pos,
            target.pos,  # type: ignore[arg-type]
            2 * ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me),
            blocked,
        )
        if path:
            return Command(me.id, "run", args={"path": [list(h) for h in path]})
        return Command(me.id, "end")


class GuardTactic(Ed4Tactic):
    name = "guard"

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        if "knocked-down" in me.conditions:
            return Command(me.id, "stand-up")
        foes = _enemies(state, me)
        for foe in sorted(foes, key=lambda c: (distance(me.pos, c.pos) if me.pos and c.pos else 0, c.id)):
            cmd = self.attack_plan(state, me, foe, ruleset, 0)
            if cmd is not None:
                return cmd
        if not foes:
            return Command(me.id, "end")
        return Command(me.id, "reserve", args={"trigger": {"on": "attack", "target": None}})


class HoldTactic(Ed4Tactic):
    name = "hold"

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        return Command(me.id, "end")

    def react(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        return Command(me.id, "pass")


TACTICS: dict[str, Ed4Tactic] = {"default": Ed4Tactic(), "guard": GuardTactic(), "hold": HoldTactic()}
