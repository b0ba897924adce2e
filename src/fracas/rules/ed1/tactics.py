"""Tactics for automated ED1 combatants (deterministic: no dice, only the state).

The 1st Edition makes declarations matter (``001_694a1556573a8dc9.txt`` ch.12), so an ED1 tactic declares:

- ``default``: declares an attack on the nearest enemy (a mounted character declares a charge when it has
  room to run in); at its turn it keeps to its declaration when it can (a change costs +2 to the DN), else
  attacks what it can reach; when an enemy rider charges at its side and comes later in the round, it
  reserves its action just below the rider's Initiative so that it can strike him (the only way to attack a
  charger); stands up when knocked down; a character retreats at Full Movement when the next hit could
  kill it. Odds come from the ED1 Step table.
- ``guard``: declares an attack, holds its ground, attacks what is next to it (or in range), and otherwise
  reserves its action to the lowest Initiative.
- ``hold``: declares "other" and does nothing (a target dummy for tests and examples).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from fracas.engine import pathing, taken
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import between, distance
from fracas.rules.earthdawn.battle_map import inside_minimum, range_hexes, within
from fracas.rules.earthdawn.combat import current_damage

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

KARMA_GAIN = 0.10


@lru_cache(maxsize=65536)
def p_hit(step: int, dn: int, karma_step: int = 0) -> float:
    """Chance that an ED1 test at ``step`` (plus a Karma die) reaches ``dn`` (exact odds, ED1 table)."""
    from fracas.dice.exact import ed1_test

    expr = f"step {max(1, step)}" + (f"+step {karma_step}" if karma_step else "")
    return float(ed1_test(expr, max(dn, 1), "ed1").p_success)


@lru_cache(maxsize=4096)
def mean_step(step: int) -> float:
    from fracas.dice.exact import step_distribution

    return float(step_distribution(max(1, step), "ed1").mean)


def _enemies(state: FightState, me: Combatant) -> list[Combatant]:
    return [
        c
        for c in state.combatants.values()
        # hidden: unseen by the other side's tactics, a player character's too (encounter format), until it
        # attacks (``marks["revealed"]``)
        if c.side != me.side and c.status == "active" and not (c.hidden and not c.marks.get("revealed"))
    ]


def _nearest(me: Combatant, foes: list[Combatant]) -> Combatant | None:
    best, key = None, None
    for c in foes:
        d = distance(me.pos, c.pos) if me.pos is not None and c.pos is not None else 0
        k = (d, -current_damage(c), c.id)
        if key is None or k < key:
            best, key = c, k
    return best


def charge_path(
    start: tuple[int, int], goal: tuple[int, int], limit: int, blocked: set[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """The straight line of hexes from ``start`` up to the hex before ``goal`` (a charge), or None."""
    if distance(start, goal) - 1 > limit:  # too far: no line drawn, its cost grows with the distance
        return None
    path = between(start, goal)
    if len(path) < 2 or len(path) > limit or any(h in blocked for h in path):
        return None
    return path


def _defense(p: CombatProfile, against: str) -> int:
    return (
        p.physical_defense
        if against == "physical"
        else p.mystic_defense
        if against == "mystic"
        else p.social_defense
    )


def expected_damage(
    me: Combatant, target: Combatant, a: AttackProfile, dn_plus: int = 0, karma: bool = False
) -> float:
    p: CombatProfile = me.stats
    tp: CombatProfile = target.stats
    w = max(0, me.counters.get("wounds", 0) - 1)
    down = 3 if "knocked-down" in me.conditions else 0
    dn = _defense(tp, a.against) + dn_plus - (3 if "knocked-down" in target.conditions else 0)
    ph = p_hit(a.step - w - down, dn, p.karma_step if karma else 0)
    armor = 0 if a.armor == "none" else tp.physical_armor if a.armor == "physical" else tp.mystic_armor
    return ph * max(0.5, mean_step(a.damage - w) - armor)


class Ed1Tactic:
    name = "default"
    declares = True

    def choose(self, state: FightState, decision: Decision, ruleset: Any) -> Command:
        me = state.combatants[decision.actor]
        if decision.kind == "declare":
            return self.declare(state, me, ruleset)
        return self.act(state, me, ruleset)

    # ----- declaring ---------------------------------------------------------------------------------
    def declare(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        foes = _enemies(state, me)
        target = _nearest(me, foes)
        if target is None:
            return Command(me.id, "declare", args={"action": "other"})
        if "knocked-down" in me.conditions:
            return Command(me.id, "declare", args={"action": "stand-up"})
        if self.in_danger(me, foes):
            return Command(me.id, "declare", args={"action": "run", "options": ["retreat"]})
        args: dict[str, Any] = {"action": "attack"}
        if self.can_charge(state, me, target, ruleset):
            args["options"] = ["charge"]
        return Command(me.id, "declare", target.id, args)

    def can_charge(self, state: FightState, me: Combatant, target: Combatant, ruleset: Any) -> bool:
        p = me.stats
        if not getattr(p, "mount", None) or me.pos is None or target.pos is None:
            return False
        if not any(a.close for a in p.attacks):
            return False
        return (
            charge_path(me.pos, target.pos, ruleset.movement_hexes(state, me), taken.blocked(state, me.id))
            is not None
        )

    # ----- acting ------------------------------------------------------------------------------------
    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        if me.marks.get("std") == state.round:
            return Command(me.id, "end")  # the round's action went already (a mount's, on a charge)
        foes = _enemies(state, me)
        left = max(0, ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me))
        if "knocked-down" in me.conditions:
            return Command(me.id, "stand-up")
        if not foes or me.pos is None:
            return Command(me.id, "end")
        decl = state.declarations.get(me.id) or {}
        nearest = _nearest(me, foes)
        assert nearest is not None
        if "retreat" in (decl.get("options") or ()) or self.in_danger(me, foes):
            path = pathing.away(
                me.pos,
                (nearest.pos,),  # type: ignore[arg-type]
                ruleset.full_hexes(state, me),
                taken.blocked(state, me.id),
            )
            if path:
                return Command(me.id, "run", args={"path": [list(h) for h in path], "flee": True})
        reserve = self.reserve_against_charge(state, me, foes, ruleset)
        if reserve is not None:
            return reserve
        declared = state.combatants.get(decl.get("target") or "")
        order = []
        if declared is not None and declared.status == "active" and declared.side != me.side:
            order.append(declared)
        order += sorted(
            (f for f in foes if f is not declared),
            key=lambda c: (distance(me.pos, c.pos) if c.pos else 0, c.id),
        )[:4]
        charge = "charge" in (decl.get("options") or ())
        for foe in order:
            cmd = self.attack_plan(state, me, foe, ruleset, left, charge)
            if cmd is not None:
                return cmd
        full = ruleset.full_hexes(state, me) - ruleset.moved_this_round(state, me)
        blocked = taken.blocked(state, me.id)
        # a way to the foe within a full move (searched by length only), else as far as it goes toward him
        path = pathing.route(me.pos, nearest.pos, blocked, 1, full, margin=None, reach=None)  # type: ignore[arg-type]
        if path is None:
            path = pathing.towards(me.pos, nearest.pos, full, blocked)
        if path:
            cmd = Command(me.id, "run", args={"path": [list(h) for h in path]})
            if ruleset._is_legal(state, cmd):
                return cmd
        return Command(me.id, "end")

    def reserve_against_charge(
        self, state: FightState, me: Combatant, foes: list[Combatant], ruleset: Any
    ) -> Command | None:
        """Reserve the action to just below the Initiative of an enemy charging at this side who acts later
        this round: the only way to strike a charger (ch.12§Reserved-Actions)."""
        if me.marks.get("ed1_reserved") == state.round:
            return None
        mine = state.initiative.get(me.id, 0)
        best = None
        for f in foes:
            if f.id in state.acted or not ruleset.is_charging(state, f):
                continue
            t = (state.declarations.get(f.id) or {}).get("target")
            if t is not None and state.combatants[t].side != me.side:
                continue
            theirs = state.initiative.get(f.id, 0)
            if 1 < theirs < mine and (best is None or theirs > best):
                best = theirs
        if best is None:
            return None
        cmd = Command(me.id, "reserve", args={"initiative": best - 1})
        return cmd if ruleset._is_legal(state, cmd) else None

    def attack_plan(
        self,
        state: FightState,
        me: Combatant,
        target: Combatant,
        ruleset: Any,
        move_left: int,
        charge: bool = False,
    ) -> Command | None:
        p: CombatProfile = me.stats
        if me.pos is None or target.pos is None:
            return None
        d = distance(me.pos, target.pos)
        best: tuple[float, Command] | None = None
        path: list[tuple[int, int]] | None = None
        changed = ruleset.declared_change
        blocked = taken.blocked(state, me.id)
        straight = charge_path(me.pos, target.pos, move_left, blocked) if charge else None
        for a in p.attacks:
            if a.close:
                if d == 1:
                    cmd_path: list[tuple[int, int]] = []
                elif d - 1 <= move_left:
                    if straight is not None:
                        cmd_path = straight
                    else:
                        if path is None:
                            path = pathing.route(
                                me.pos, target.pos, blocked, 1, move_left, margin=None, reach=None
                            )
                        if not path:
                            continue
                        cmd_path = path
                else:
                    continue
            else:
                up = range_hexes(d, me.altitude, target.altitude)
                if a.long is None or not within(d, a.long) or inside_minimum(up, a.minimum):
                    continue
                cmd_path = []
            args: dict[str, Any] = {"attack": a.name}
            if cmd_path:
                args["path"] = [list(h) for h in cmd_path]
            if charge and a.close and len(cmd_path) >= 2:
                args["charge"] = True
            cmd = Command(me.id, "attack", target.id, args)
            if not ruleset._is_legal(state, cmd):
                args.pop("charge", None)
                cmd = Command(me.id, "attack", target.id, args)
                if not ruleset._is_legal(state, cmd):
                    continue
            plus = 2 if (changed(state, cmd) or me.marks.get("ed1_reserved") == state.round) else 0
            score = expected_damage(me, target, a, plus)
            if args.get("charge"):
                score += 0.5 * getattr(p, "mount_strength", 0)
            if best is None or score > best[0]:
                best = (score, cmd)
        if best is None:
            return None
        cmd = best[1]
        a = p.attack(cmd.args["attack"])
        if a is not None and a.karma and me.counters.get("karma", 0) > 0:
            dn = _defense(target.stats, a.against)
            w = max(0, me.counters.get("wounds", 0) - 1)
            if p_hit(a.step - w, dn, p.karma_step) - p_hit(a.step - w, dn) >= KARMA_GAIN:
                cmd.args["karma"] = True
        return cmd

    def in_danger(self, me: Combatant, foes: list[Combatant]) -> bool:
        p: CombatProfile = me.stats
        if p.kind != "character" or me.pos is None:
            return False
        worst = 0.0
        for f in foes:
            if f.pos is not None and distance(f.pos, me.pos) <= 2:
                for a in f.stats.attacks:
                    worst = max(worst, mean_step(a.damage) - p.physical_armor)
        return worst > 0 and current_damage(me) + worst >= p.death


class GuardTactic(Ed1Tactic):
    name = "guard"

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        if "knocked-down" in me.conditions:
            return Command(me.id, "stand-up")
        foes = _enemies(state, me)
        reserve = self.reserve_against_charge(state, me, foes, ruleset)
        if reserve is not None:
            return reserve
        for foe in sorted(foes, key=lambda c: (distance(me.pos, c.pos) if me.pos and c.pos else 0, c.id)):
            cmd = self.attack_plan(state, me, foe, ruleset, 0)
            if cmd is not None:
                return cmd
        mine = state.initiative.get(me.id, 0)
        if (
            foes
            and mine > 1
            and me.marks.get("ed1_reserved") != state.round
            and not ruleset.moved_this_round(state, me)
        ):
            return Command(me.id, "reserve", args={"initiative": 1})
        return Command(me.id, "end")


class HoldTactic(Ed1Tactic):
    name = "hold"

    def declare(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        return Command(me.id, "declare", args={"action": "other"})

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        return Command(me.id, "end")


TACTICS: dict[str, Ed1Tactic] = {"default": Ed1Tactic(), "guard": GuardTactic(), "hold": HoldTactic()}
