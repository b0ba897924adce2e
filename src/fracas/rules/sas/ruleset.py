"""The Spells & Swords ruleset for the encounter engine (rules/base.py, docs/architecture.md).

A round (COMBAT ROUNDS): one side attacks, then the other, in the side order fixed in round 1 by Surprise or
side Initiative (SURPRISE, INITIATIVE). Within a side every member takes one action of the COMBAT ROUND
ACTIONS LIST; its attack and damage rolls are made at once, but what they do is held until the whole side
has attacked ("All combatants on the same side make their Attacks Simultaneously") and then applied. Out of
order attacks (a defender's longer weapon against a Charge, Receive Charge, Fire from Overwatch) apply at
once. Reactions are taken automatically when they are possible (docs/rulesets/sas.md).

Command actions and their args (every action id is a line of the list in data/combat.toml):
    attack (target; args weapon, dual (bool), target2, disarm (bool)), hack-and-slash, mighty-blow,
    defensive-stance-attack, aimed-shot (target), close-to-attack (target), charge (target; args
    battle_cry), hurling-charge (target; args battle_cry), sneak-attack (target), leap-attack (target),
    walk / run / sneak (args to [q, r] or toward <id>), disengage (args mode withdrawal|flee, target), hide,
    lookout, change-facing (args facing), stand-up, pick-up, mount (target), dismount, battle-cry, cast-spell
    (target; args spell), rally, set-to-receive-charge, overwatch, feint (target), defensive-stance,
    light-fuse, apply-poison, rummage, quaff, stop-bleed (target), intimidate (target), taunt (target),
    horde (target), dog-pile (target), break-free, trample (target), nothing.
"""

from __future__ import annotations

import dataclasses
import heapq
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.encounter import CombatantSpec, EncounterSpec, assign_ids
from fracas.engine.hexgrid import DIRECTIONS, Hex, direction_to, distance, neighbours, ring
from fracas.engine.state import Combatant, Condition, FightState
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.base import Modifier, OptionalRule, Rule, Ruleset, mods_json
from fracas.rules.sas.fold import (
    DEFENSE_CONDITIONS,
    TURN_SCOPED,
    EventBuilder,
    HiddenSet,
    held,
    next_value,
    view,
    views_held,
)
from fracas.rules.sas.model import HAND_PARTS, Fighter, build_stats
from fracas.rules.sas.procedures.attack import (
    RANGE_BANDS,
    AttackResult,
    Situation,
    attack_modifiers,
    range_band,
    resolve_attack,
)
from fracas.rules.sas.procedures.brawl import brawl_applies, brawl_roll, two_hand_substitute
from fracas.rules.sas.procedures.damage import resolve_damage
from fracas.rules.sas.procedures.healing import death_check
from fracas.rules.sas.procedures.initiative import side_initiative
from fracas.rules.sas.procedures.initiative import surprise as surprise_roll
from fracas.rules.sas.procedures.mass import break_free, dog_pile_bonus, large_creature, save_vs_crush
from fracas.rules.sas.procedures.movement import (
    can_charge,
    mount_swift,
    movement,
    stand_up,
    zone_of_control_blocks,
)
from fracas.rules.sas.procedures.rolls import (
    Check,
    Effect,
    TableRoll,
    action_check,
    roll_expr,
    roll_penalties,
    save,
    save_bonuses,
    skill_check,
    to_rounds,
)
from fracas.rules.sas.procedures.wounds import (
    bleed_roll,
    confusion_roll,
    knock_out,
    knocked_down,
    roll_fumble,
)
from fracas.rules.sas.rules import catalog, rule, rule_list, setting
from fracas.rules.sas.settings import encounter_settings
from fracas.rules.sas.tables import Settings, Tables, tables

MOVE_ACTIONS = ("walk", "run", "sneak")
ATTACK_ACTIONS = (
    "attack",
    "hack-and-slash",
    "mighty-blow",
    "defensive-stance-attack",
    "aimed-shot",
    "close-to-attack",
    "charge",
    "hurling-charge",
    "sneak-attack",
    "leap-attack",
    "horde",
    "dog-pile",
    "trample",
)
CONTINUED = ("hack-and-slash", "mighty-blow", "defensive-stance-attack", "aimed-shot")
OTHER_ACTIONS = (
    "disengage",
    "hide",
    "lookout",
    "change-facing",
    "stand-up",
    "pick-up",
    "mount",
    "dismount",
    "battle-cry",
    "cast-spell",
    "rally",
    "set-to-receive-charge",
    "overwatch",
    "feint",
    "defensive-stance",
    "light-fuse",
    "apply-poison",
    "rummage",
    "quaff",
    "stop-bleed",
    "intimidate",
    "taunt",
    "break-free",
    "nothing",
)
ALL_ACTIONS = (*ATTACK_ACTIONS, *MOVE_ACTIONS, *OTHER_ACTIONS)
# the sets validate asks about, built once (it runs for every proposal a tactic weighs)
_KNOWN_ACTIONS = frozenset(ALL_ACTIONS)
_MOVING = frozenset((*MOVE_ACTIONS, "charge", "hurling-charge", "sneak-attack", "close-to-attack", "trample"))
_PRONE_MOVES = frozenset(
    (*MOVE_ACTIONS, "charge", "hurling-charge", "close-to-attack", "sneak-attack", "leap-attack")
)
_PREVIEW_MOVES = frozenset(("charge", "hurling-charge", "close-to-attack", "sneak-attack", "leap-attack"))
_CRY_ACTIONS = ("charge", "hurling-charge")  # CHARGE RULES: a charge "may be combined with a Battle Cry"
_RIDER_MOVES = frozenset((*MOVE_ACTIONS, "charge", "close-to-attack", "hurling-charge"))
_PATHED_CLOSING = frozenset(("close-to-attack", "sneak-attack", "charge", "horde", "dog-pile"))
_NO_HEXES: frozenset[Hex] = frozenset()


def _rolled(actor: str, test: str, r: TableRoll | Check, target: str | None = None) -> ev.Rolled:
    if isinstance(r, Check):
        roll = {"dice": [[-20, r.face]], "total": r.total}
        return ev.Rolled(
            actor,
            test,
            r.total,
            roll,
            expr="1d20",
            target=target,
            dn=r.target,
            outcome="success" if r.success else "failure",
            success=r.success,
            modifiers=mods_json(r.mods),
            rule=r.rule,
        )
    roll = {"dice": [[-r.die, r.face]], "total": r.total}
    return ev.Rolled(
        actor,
        test,
        r.total,
        roll,
        expr=f"1d{r.die}",
        target=target,
        outcome=r.label,
        modifiers=mods_json(r.mods),
        rule=r.rule,
    )


def _effects_from(data: Any) -> list[Effect]:
    return [Effect(**dict(d)) for d in data]


def _last_check_total(b: EventBuilder, actor: str) -> int:
    """The total of ``actor``'s latest Spell Check in this batch."""
    for e in reversed(b.events):
        if isinstance(e, ev.Rolled) and e.actor == actor and e.test.startswith("Spell Check"):
            return int(e.total)
    return 0


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


# condition labels that are nouns: "suffers Shock", not "is Shock"
NOUN_CONDITIONS = frozenset(
    {"Partial Blindness", "Chill", "Hypothermia", "Shock", "Burn", "Confusion", "Madness", "Choke"}
    | {"Partial Immobilization"}
)
GAINED_CONDITIONS = frozenset({"Shield Spell", "Battle Cry"})


_FOE_BONUS = ("foe_attack", "foe_damage")


def _foe_bonus_view(dfn: Fighter, used: Any, attacker: str) -> tuple[Fighter, bool]:
    """MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": the monster as
    ``attacker`` sees it (without the bonus if he has had it: ``used``, the monster's foe_bonus_used mark),
    and whether this attack has the bonus."""
    if not any(k in dfn.next for k in _FOE_BONUS):
        return dfn, False
    if attacker not in (used or ()):
        return dfn, True
    dfn = dfn.copy()
    for k in _FOE_BONUS:
        dfn.next.pop(k, None)
    return dfn, False


def _dual_weapons(c: Combatant, t: Tables) -> list[str]:
    """DUAL WIELD: the one-handed melee weapons a combatant has in hand to wield, one in each hand (not one
    broken by a fumble, nor one he has dropped and not picked up: FUMBLE TABLE, DISARMED)."""
    gone = (*c.marks.get("broken_weapons", ()), c.marks.get("dropped"))
    return [
        w for w in c.stats.weapons if t.weapons[w].hands == 1 and not t.weapons[w].ranged and w not in gone
    ]


def hands_left(c: Combatant) -> tuple[int, str, str]:
    """The hands a combatant can still use, with why and the rule: MAJOR WOUND TABLE 4 "Lost Limb ... loss of
    Arm or Hand" and BODY PART BROKEN "A Broken Arm or Hand make those parts unusable" leave one hand (a
    second broken arm or hand is not taken to be the other one: the text names no side, docs/rulesets/sas.md
    Game master's calls). A healed break (remove-broken) gives the hand back."""
    if c.marks.get("lost_arm"):
        return 1, "has lost an arm or hand", rule("major-wounds", "lost-limb")
    for part in c.marks.get("broken", ()):
        if part in HAND_PARTS:
            return 1, f"has a broken {part}", rule("body-part-broken")
    return 2, "", ""


class SasRuleset(Ruleset):
    id = "sas"
    name = "Spells & Swords"
    source = "004_0d1ac50b56c23caf.txt"
    hex_yards = 2.0 / 0.9144  # one space, 2 meters by default (setting meters_per_space)
    tactics_legal = True
    """The S&S tactics (``legal_by_construction``) hand back only a command this ruleset's ``validate`` has
    just accepted against the same unchanged state: the engine does not check it twice (engine/play.py
    ``Fight.step``; ``Fight.run_checked`` still does)."""

    # ----- the book ---------------------------------------------------------------------------------
    def rules(self) -> list[Rule]:
        return rule_list()

    def optional_rules(self) -> list[OptionalRule]:
        return list(catalog().optional)

    # ----- building a fight ------------------------------------------------------------------------
    def templates(self) -> list[str]:
        return sorted(tables().bestiary)

    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        overrides = dict(spec.stats)
        if spec.equipment:
            for key in ("weapons", "armor", "helmet", "shield"):
                if key in spec.equipment:
                    overrides[key] = spec.equipment[key]
        unknown_eq = set(spec.equipment) - {"weapons", "armor", "helmet", "shield", "potions", "bandages"}
        if unknown_eq:
            raise EncounterFileError(
                f"{where}.equipment: unknown item(s) {sorted(unknown_eq)}; "
                "allowed: weapons, armor, helmet, shield, potions"
            )
        if not spec.template and "label" not in overrides:
            overrides["label"] = spec.name or "combatant"
        stats = build_stats(spec.template or "", overrides, f"{where}.")
        if spec.options:
            unknown = set(spec.options) - {"mount", "heroic"}
            if unknown:
                raise EncounterFileError(
                    f"{where}.options: unknown {sorted(unknown)}; allowed: mount, heroic"
                )
            if "heroic" in spec.options:
                stats = dataclasses.replace(stats, heroic=bool(spec.options["heroic"]))
        out = []
        for (cid, name), pos in zip(assign_ids(spec, stats.label), spec.positions(), strict=True):
            c = Combatant(
                cid,
                spec.name
                if spec.name and spec.count == 1
                else name
                if spec.name or spec.template
                else stats.label,
                side,
                stats,
                player=spec.player,
                tactic=spec.tactic,
                hidden=spec.hidden,
                template=spec.template or "",
                pos=pos,
                facing=spec.facing,
                altitude=spec.altitude,
            )
            c.marks["weapon"] = stats.weapons[0]
            if spec.options.get("mount"):
                c.marks["mount_id"] = str(spec.options["mount"])
                c.marks["shares_hex"] = True
            if stats.mount:
                c.marks["shares_hex"] = True
            if spec.equipment.get("potions"):
                c.counters["potions"] = int(spec.equipment["potions"])
            out.append(c)
        return out

    def prepare(self, state: FightState, spec: EncounterSpec) -> None:
        known = set(Settings.model_fields)
        bad = set(state.extra.get("settings", {})) - known
        if bad:
            raise EncounterFileError(f"settings: unknown {sorted(bad)}; allowed: {', '.join(sorted(known))}")
        try:
            Settings.model_validate({**tables().settings.model_dump(), **state.extra.get("settings", {})})
        except Exception as exc:
            raise EncounterFileError(f"settings: {exc}".replace("\n", "; ")) from None
        # riders on their mounts
        for c in state.combatants.values():
            mid = c.marks.get("mount_id")
            if mid is None:
                continue
            mount = state.combatants.get(mid)
            if mount is None or not mount.stats.mount:
                raise EncounterFileError(f"{c.id}.options.mount: {mid!r} is not a mount in this encounter")
            c.marks["mounted_on"] = mid
            mount.marks["ridden_by"] = c.id
            if c.pos is None:
                c.pos = mount.pos
            mount.pos = c.pos
        # combatants without a position: each side in columns, facing the other sides
        occupied = {c.pos for c in state.combatants.values() if c.pos is not None}
        for si, side in enumerate(state.sides):
            n = 0
            for c in state.on_side(side):
                if c.pos is not None:
                    continue
                if c.marks.get("mounted_on") and state.combatants[c.marks["mounted_on"]].pos is not None:
                    c.pos = state.combatants[c.marks["mounted_on"]].pos
                    continue
                while True:
                    pos = (si * 8 + (n // 10) * (1 if si == 0 else -1) * -1, n % 10 - 5)
                    n += 1
                    if pos not in occupied:
                        break
                c.pos = pos
                occupied.add(pos)
                c.facing = 0 if si == 0 else 3
                rid = c.marks.get("ridden_by")
                if rid:
                    state.combatants[rid].pos = pos

        # everyone starts facing the nearest foe (map extra keep_facing: true keeps the file's facings)
        if not state.extra.get("map", {}).get("keep_facing"):
            for c in state.combatants.values():
                foes = [o for o in state.combatants.values() if o.side != c.side and o.pos is not None]
                if c.pos is None or not foes:
                    continue
                near = min(foes, key=lambda o: (distance(c.pos, o.pos), o.id))  # type: ignore[arg-type]
                if near.pos != c.pos:
                    c.facing = direction_to(c.pos, near.pos)  # type: ignore[arg-type]

    # ----- reading the state -----------------------------------------------------------------------
    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"

    @staticmethod
    def _underwater(state: FightState) -> bool:
        return bool(state.extra.get("map", {}).get("underwater"))

    @staticmethod
    def _blocked(state: FightState) -> frozenset[Hex]:
        """The map's blocked hexes, worked out once per fight (``FightState.derived``) and again only if the
        map's list is another object (callers only read it or take unions)."""
        cells = state.extra.get("map", {}).get("blocked")
        if not cells:
            return _NO_HEXES
        hit = state.derived.get("sas.blocked")
        if hit is not None and hit[0] is cells and hit[1] == len(cells):
            return hit[2]  # type: ignore[no-any-return]
        out = frozenset(tuple(h) for h in cells)
        state.derived["sas.blocked"] = (cells, len(cells), out)
        return out

    def _foes(self, state: FightState, c: Combatant, seen_only: bool = True) -> list[Combatant]:
        return [
            f
            for f in state.combatants.values()
            if f.side != c.side and f.status == "active" and not (seen_only and f.hidden)
        ]

    def _adjacent_foes(self, state: FightState, c: Combatant) -> list[Combatant]:
        """The foes next to ``c`` (not Knocked Out), remembered while a tactic weighs its proposals (see
        ``fold.views_held``): callers only read the list."""
        memo = held(state, c)
        key = ("adjacent", c.id)
        if memo is not None:
            hit = memo.get(key)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
        out: list[Combatant] = []
        if c.pos is not None:
            cq, cr = c.pos
            side = c.side
            for f in state.combatants.values():
                if f.side == side or f.status != "active" or f.pos is None:
                    continue
                a, b = f.pos[0] - cq, f.pos[1] - cr  # within one space (hex distance <= 1)
                if -1 <= a <= 1 and -1 <= b <= 1 and -1 <= a + b <= 1 and "knocked-out" not in f.conditions:
                    out.append(f)
        if memo is not None:
            memo[key] = out
        return out

    @staticmethod
    def _dist(a: Combatant, b: Combatant) -> int:
        if a.pos is None or b.pos is None:
            return 1
        return distance(a.pos, b.pos)

    # ----- the round -------------------------------------------------------------------------------
    def pending(self, state: FightState) -> Decision | None:
        if state.phase != "act" or state.ended:
            return None
        cid = state.current
        if cid is None or cid in state.acted:
            return None
        c = state.combatants[cid]
        if c.status != "active" or self._auto_turn(state, c):
            return None
        return Decision(cid, "act", f"{c.name}: choose an action")

    def _auto_turn(self, state: FightState, c: Combatant) -> str | None:
        if c.has("confusion"):
            return "confusion"
        if next_value(c, "miss_action", state.round):
            return "miss-action"
        if c.has("routed"):
            return "rout"
        rider = state.combatants.get(c.marks.get("ridden_by") or "")
        if rider is not None and rider.status == "active" and not self._adjacent_foes(state, c):
            return "mount"
        return None

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        with encounter_settings(state):
            return self._advance(state, dice)

    def _advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        if state.phase in ("started", "round-end"):
            return [ev.RoundStarted(state.round + 1)]
        if state.phase == "declare":
            return self._round_start(state, dice)
        if state.phase == "side-start":
            return self._side_start(state)
        if state.phase == "act":
            cid = state.current
            if cid is not None and cid not in state.acted:
                c = state.combatants[cid]
                if c.status != "active":
                    return [ev.TurnEnded(cid)]
                return self._auto(state, c, dice)
            nxt = self._next_actor(state)
            if nxt is not None:
                return [ev.TurnStarted(nxt)]
            return self._side_end(state, dice)
        raise IllegalCommand(f"the Spells & Swords round has no phase {state.phase!r}")

    def _next_actor(self, state: FightState) -> str | None:
        for cid in state.order:
            if cid not in state.acted and state.combatants[cid].status == "active":
                return cid
        return None

    def _round_start(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        out: list[ev.Event] = []
        b = EventBuilder(state)
        if "side_order" not in state.extra or (state.options.get("reroll-initiative") and state.round > 1):
            out += self._order(state, dice, surprise=state.round == 1)
        # BLEEDING: at the beginning of every round with one or more Bleeds, roll once on the Bleed Table
        for c in state.combatants.values():
            if c.count("bleeds") > 0 and c.status in ("active", "unconscious"):
                r = bleed_roll(view(state, c), dice)
                b.events.append(_rolled(c.id, "Bleed Table", r.roll))
                b.effects(r.effects)
        # a Bleed's Wound Marker lands now: DEATH BY A THOUSAND CUTS "Non-Heroic Foes and Creatures will just
        # die immediately" (before anyone acts this round)
        self._deaths(b, state, dice)
        out += b.events
        out += self._morale(state, dice)
        out += [ev.ExtraSet("side_index", 0), ev.PhaseChanged("side-start")]
        return out

    def _order(self, state: FightState, dice: DiceSource, surprise: bool = True) -> list[ev.Event]:
        """SURPRISE (a side all hidden) or else side INITIATIVE; the order is kept for the whole combat."""
        out: list[ev.Event] = []
        sides = {s: [view(state, c) for c in state.on_side(s) if c.status == "active"] for s in state.sides}
        sides = {s: m for s, m in sides.items() if m}
        hidden = (
            [s for s in sides if all(state.combatants[f.id].hidden for f in sides[s])] if surprise else []
        )
        surprise_side = None
        if len(hidden) == 1:
            s = hidden[0]
            defenders = [f for o, m in sides.items() if o != s for f in m]
            r = surprise_roll(sides[s], defenders, dice)
            out.append(
                ev.Rolled(
                    s,
                    "Surprise",
                    r.total,
                    {"dice": [[-20, r.face]], "total": r.total},
                    expr="1d20",
                    dn=11,
                    outcome="Surprise!" if r.surprise else "no surprise",
                    success=r.surprise,
                    modifiers=mods_json(r.mods),
                    rule=rule("surprise"),
                )
            )
            if r.surprise:
                surprise_side = s
            else:
                for f in sides[s]:
                    out.append(HiddenSet(f.id, False, rule("surprise")))
        rest = {s: m for s, m in sides.items() if s != surprise_side}
        order: list[str] = [surprise_side] if surprise_side else []
        if len(rest) > 1:
            ini = side_initiative(rest, dice)
            for side, face, low, tot in ini.rolls:
                out.append(
                    ev.Rolled(
                        side,
                        "Side Initiative",
                        tot,
                        {"dice": [[-20, face]], "total": tot},
                        expr="1d20",
                        modifiers=((low, "lowest Initiative bonus of the side", rule("initiative")),),
                        rule=rule("initiative"),
                    )
                )
            order += list(ini.order)
        else:
            order += list(rest)
        order += [s for s in state.sides if s not in order]
        out.append(ev.ExtraSet("side_order", tuple(order)))
        out.append(ev.ExtraSet("surprise_side", surprise_side))
        out.append(ev.Note("Side order for the whole combat: " + ", ".join(order), rule=rule("initiative")))
        return out

    def _morale(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        """Setting ``morale`` (off by default): each non-player member of a side that has lost half its
        number saves vs Morale (13+, the side's best Leadership added) or Routs (DISENGAGE)."""
        s = tables().settings
        if not s.morale or state.round < 2:
            return []
        b = EventBuilder(state)
        for side in state.sides:
            members = state.on_side(side)
            standing = [c for c in members if c.status == "active"]
            if not standing or len(standing) * 2 > len(members):
                continue
            lead = (
                max((c.stats.skill("leadership") for c in standing), default=0) if s.morale_leadership else 0
            )
            for c in standing:
                if c.player or c.has("routed"):
                    continue
                mods = (
                    [Modifier(lead, "best Leadership on the side", setting("morale_leadership"))]
                    if lead
                    else []
                )
                mods += self._save_bonus(c, "morale")
                rider = state.combatants.get(c.marks.get("ridden_by") or "")
                if rider is not None and rider.stats.skill("ride"):
                    per = tables().combat.num("mounted", "fear_save_per_ride")
                    mods.append(Modifier(per * rider.stats.skill("ride"), "rider's Ride", rule("mounted")))
                f = view(state, c)
                if not self._save(b, f, mods + roll_penalties(f, "save"), dice, "Save vs Morale"):
                    self._rout(b, state, c)
        return b.events

    @staticmethod
    def _save(b: EventBuilder, f: Fighter, mods: list[Modifier], dice: DiceSource, test: str) -> bool:
        """``f`` makes saving throw ``test`` (procedures.save: a Human's reroll); its rolls and effects go to
        ``b``. True when it is made."""
        made = save(f, mods, dice, test.lower())
        for chk in made.rolls:
            b.events.append(_rolled(f.id, test, chk))
        b.effects(made.effects)
        return made.success

    @staticmethod
    def _save_bonus(c: Combatant, *against: str) -> list[Modifier]:
        """The bonuses of a save against these threats (reference 2.5: race, calling, a Monster's Armor)."""
        return save_bonuses(c.stats, against)

    def _rout(self, b: EventBuilder, state: FightState, c: Combatant) -> None:
        b.add_condition(c.id, "routed", None, 0, "failed Fear or Morale save", rule("disengage", "rout"))
        b.set_mark(c.id, "routed_round", state.round, rule("disengage", "rout"))
        b.effects([Effect("drop-weapon", c.id, why="Rout", rule=rule("disengage", "rout"))])
        b.set_mark(c.id, "shield_dropped", True, rule("disengage", "rout"))

    def _side_start(self, state: FightState) -> list[ev.Event]:
        order = state.extra.get("side_order", state.sides)
        idx = state.extra.get("side_index", 0)
        side = order[idx]
        out: list[ev.Event] = []
        members = [c for c in state.on_side(side)]
        for c in members:
            for name in TURN_SCOPED:
                if name in c.conditions:
                    out.append(ev.ConditionRemoved(c.id, name, "until the side's next turn", rule("actions")))
        ids = tuple(c.id for c in members if c.status == "active")
        out.append(ev.Note(f"Side {side} attacks.", rule=rule("combat-rounds")))
        out.append(ev.OrderSet(ids, rule("combat-rounds")))
        if ids:
            out.append(ev.TurnStarted(ids[0]))
        return out

    def _side_end(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        """Damage after the whole side has attacked: apply what its attacks did, then check deaths."""
        b = EventBuilder(state)
        pending = _effects_from(state.extra.get("pending", ()))
        if pending:
            b.note("The side's attacks take effect.", rule=rule("initiative"))
            b.effects(pending)
        self._deaths(b, state, dice)
        self._fallen_steeds(b, state)
        order = state.extra.get("side_order", state.sides)
        idx = state.extra.get("side_index", 0)
        side = order[idx]
        # REGENERATION: at the end of every one of their rounds
        for c in state.on_side(side):
            if c.stats.regenerates and b.status(c.id) in ("active", "dying", "unconscious"):
                markers = b.counter(c.id, "markers")
                if markers > b.counter(c.id, "burn_markers"):
                    b.add_counter(c.id, "markers", -1, "Regeneration", rule("regeneration"))
                    if b.mark(c.id, "dying_round") is not None and markers - 1 < c.stats.wound_level:
                        b.set_mark(c.id, "dying_round", None)
                        if b.status(c.id) == "dying":
                            b.set_status(c.id, "active" if not b.has(c.id, "knocked-out") else "unconscious")
        out = b.events + [ev.ExtraSet("pending", ())]
        if idx + 1 < len(order):
            return out + [ev.ExtraSet("side_index", idx + 1), ev.PhaseChanged("side-start")]
        return out + self._round_end(state, b) + [ev.RoundEnded(state.round)]

    def _fallen_steeds(self, b: EventBuilder, state: FightState) -> None:
        """A rider whose steed is down falls off, prone (the text is silent: docs/rulesets/sas.md)."""
        for c in state.combatants.values():
            mid = b.mark(c.id, "mounted_on")
            if not mid or b.status(mid) == "active":
                continue
            b.set_mark(c.id, "mounted_on", None, rule("mounted"))
            b.set_mark(mid, "ridden_by", None, rule("mounted"))
            if b.status(c.id) == "active":
                b.add_condition(c.id, "knocked-down", None, 0, "thrown from the steed", rule("mounted"))
                b.note(f"{c.name} falls from {state.combatants[mid].name}!", c.id, rule("mounted"))

    def _deaths(self, b: EventBuilder, state: FightState, dice: DiceSource) -> None:
        """DEATH BY A THOUSAND CUTS for everyone whose markers reached the Wound Level."""
        for c in state.combatants.values():
            if b.status(c.id) in ("dead", "dying", "fled"):
                continue
            markers = b.counter(c.id, "markers")
            minion = c.stats.minion
            if tables().settings.minions and minion and b.counter(c.id, "hits") >= minion:
                b.effects([Effect("dead", c.id, why=f"Minion level {minion}", rule=rule("minions"))])
                continue
            if markers < c.stats.wound_level:
                continue  # below the Wound Level death_check finds nothing: no view built for it
            # a copy with this batch's markers: the view itself may be held for the rest of the command
            f = dataclasses.replace(view(state, c), markers=markers)
            b.effects(
                death_check(f, dice, heroic=c.stats.heroic and tables().settings.heroic_player_characters)
            )

    def _round_end(self, state: FightState, b0: EventBuilder) -> list[ev.Event]:
        """The end of the round: deaths from wounds and bleeding, then durations run out. Read through the
        last side's batch ``b0`` (its held effects are not yet in ``state``): a condition it renewed lasts to
        its new end, one it removed is not removed twice."""
        b = EventBuilder(state)
        b._status.update(b0._status)
        b._marks.update(b0._marks)
        b._counters.update(b0._counters)
        b._conditions.update(b0._conditions)
        rnd = state.round
        s = tables().settings
        for c in state.combatants.values():
            status = b.status(c.id)
            if status == "dead":
                continue
            dying = b.mark(c.id, "dying_round")
            if dying is not None and dying <= rnd:
                b.effects([Effect("dead", c.id, why="died of wounds", rule=rule("death-by-a-thousand-cuts"))])
                continue
            bleed = b.mark(c.id, "bleed_death_round")
            if bleed is not None and bleed <= rnd and b.counter(c.id, "bleeds") > 0:
                b.effects([Effect("dead", c.id, why="bled to death", rule=rule("major-wounds", "bleed"))])
                continue
            regrowing = b.mark(c.id, "regrowing")
            if regrowing:
                self._regrow(b, c, regrowing, rnd)
            for name, cond in list(b0.conditions(c.id).items()):
                if cond.until_round is not None and cond.until_round <= rnd:
                    b.remove_condition(c.id, name, "its time is up", cond.rule)
                    if name == "knocked-out" and status == "unconscious":
                        b.set_status(c.id, "active", rule("knocked-out"))
            routed = b.mark(c.id, "routed_round")
            if routed is not None and status == "active" and rnd - routed + 1 >= s.rout_rounds:
                b.set_status(c.id, "fled", rule("disengage", "rout"))
        return b.events

    @staticmethod
    def _regrow(b: EventBuilder, c: Combatant, regrowing: tuple[Any, ...], rnd: int) -> None:
        """REGENERATION of body parts: each hurt or broken part whose time (rolled when it was hurt or
        broken, procedures._regrows) runs out this round is whole again at its end."""
        left = []
        for part, kind, due in regrowing:
            if due > rnd:
                left.append((part, kind, due))
                continue
            parts = list(b.mark(c.id, kind, ()))
            if part in parts:
                parts.remove(part)
                b.set_mark(c.id, kind, tuple(parts), rule("regeneration", "parts"))
                b.note(f"{c.name}'s {kind} {part} regenerates.", c.id, rule("regeneration", "parts"))
        b.set_mark(c.id, "regrowing", tuple(left) or None, rule("regeneration", "parts"))

    # ----- automatic turns ---------------------------------------------------------------------------
    def _auto(self, state: FightState, c: Combatant, dice: DiceSource) -> list[ev.Event]:
        kind = self._auto_turn(state, c)
        b = EventBuilder(state)
        if kind == "miss-action":
            b.note(f"{c.name} loses this action.", c.id, rule("fumbles"))
            b.consume_next(c.id, "miss_action")
        elif kind == "confusion":
            r = confusion_roll(view(state, c), dice)
            b.events.append(_rolled(c.id, "Confusion Table", r))
            self._confused(b, state, c, r.row, dice)
        elif kind == "rout":
            self._flee(b, state, c, speed=2.0, rid=rule("disengage", "rout"), dice=dice)
        elif kind == "mount":
            b.note(f"{c.name} carries its rider.", c.id, rule("mounted"))
        return b.finish() + [ev.TurnEnded(c.id)]

    def _confused(self, b: EventBuilder, state: FightState, c: Combatant, row: str, dice: DiceSource) -> None:
        rid = rule("confusion-table", row)
        if row == "go-prone":
            b.add_condition(c.id, "knocked-down", None, 0, "Confusion", rid)
        elif row in ("wander-half", "wander-full"):
            f = view(state, c)
            spaces = movement(f, self._underwater(state), 0.5 if row == "wander-half" else 1.0)
            d = dice.roll(6, "random direction") - 1
            path = self._walk_dir(state, c, d, spaces)
            if path:
                b.events.append(ev.Moved(c.id, tuple(path), "wander", rule=rid))
                # a move on his turn, if not of his choosing: it draws the reactions to a move (REACTIONS)
                self._reactions_to_move(b, state, c, path, dice, charging=False)
        elif row == "drop-items":
            b.effects([Effect("drop-weapon", c.id, why="Confusion", rule=rid)])
        elif row == "attack-random":
            near = [
                o
                for o in state.combatants.values()
                if o.id != c.id and o.status == "active" and self._dist(o, c) == 1
            ]
            if near:
                target = near[dice.roll(len(near), "random adjacent target") - 1]
                self._attack(b, state, c, target, Situation(), dice, "attack")
        else:
            b.note(f"{c.name} is confused ({row}).", c.id, rid)

    def _walk_dir(self, state: FightState, c: Combatant, d: int, spaces: int) -> list[Hex]:
        if c.pos is None:
            return []
        occupied = state.occupied(c.id) | self._blocked(state)
        path, here = [], c.pos
        for _ in range(spaces):
            nxt = (here[0] + DIRECTIONS[d][0], here[1] + DIRECTIONS[d][1])
            if nxt in occupied:
                break
            path.append(nxt)
            here = nxt
        return path

    # ----- commands ------------------------------------------------------------------------------------
    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        out: list[Command] = []
        c = state.combatants[decision.actor]
        cands: list[Command] = []
        foes = self._foes(state, c)
        for f in sorted(foes, key=lambda f: (self._dist(c, f), f.id)):
            for a in ATTACK_ACTIONS:
                if a in ("horde", "dog-pile") and len(self._helpers(state, c, f)) < 1:
                    continue
                cands.append(Command(c.id, a, f.id))
            for a in ("feint", "intimidate", "taunt", "cast-spell", "disengage"):
                if a == "cast-spell":
                    for sp in c.stats.spells:
                        cands.append(Command(c.id, a, f.id, {"spell": sp}))
                elif a == "disengage":
                    cands.append(Command(c.id, a, f.id, {"mode": "withdrawal"}))
                    cands.append(Command(c.id, a, f.id, {"mode": "flee"}))
                else:
                    cands.append(Command(c.id, a, f.id))
            for a in MOVE_ACTIONS:
                cands.append(Command(c.id, a, None, {"toward": f.id}))
        for a in OTHER_ACTIONS:
            if a in ("feint", "intimidate", "taunt", "cast-spell", "disengage"):
                continue
            if a in ("stop-bleed", "mount"):
                for o in state.on_side(c.side):
                    cands.append(Command(c.id, a, o.id))
                continue
            cands.append(Command(c.id, a))
        t = tables()
        for cmd in cands:
            try:
                self.validate(state, cmd)
            except IllegalCommand:
                continue
            act = t.combat.actions.get(cmd.action)
            words = {"horde": "Horde Attack", "dog-pile": "Dog Pile", "trample": "Trample (Large Creature)",
                     "break-free": "Break Free", "nothing": "Do nothing", "attack": "Attack",
                     "dismount": "Dismount"}  # fmt: skip
            label = words.get(cmd.action) or (act.label if act else cmd.action)
            if cmd.action == "cast-spell":
                label = f"Cast {t.magic.spells[cmd.args['spell']].label}"
            if cmd.action == "disengage":
                label = "Fighting Withdrawal" if cmd.args.get("mode") == "withdrawal" else "Flee"
            who = state.combatants[cmd.target].name if cmd.target else ""
            toward = cmd.args.get("toward")
            if toward:
                who = f"toward {state.combatants[toward].name}"
            cmd.label = f"{label} {who}".strip()
            out.append(cmd)
        if not out:
            out.append(Command(c.id, "nothing"))
        return out

    def validate(self, state: FightState, command: Command) -> None:
        with encounter_settings(state):
            self._validate(state, command)

    def _validate(self, state: FightState, cmd: Command) -> None:
        t = tables()
        if cmd.action not in _KNOWN_ACTIONS:
            raise IllegalCommand(
                f"unknown action {cmd.action!r}; known: {', '.join(ALL_ACTIONS)}", rule("actions")
            )
        c = state.combatants.get(cmd.actor)
        if c is None:
            raise IllegalCommand(f"no combatant {cmd.actor!r}")
        if c.status != "active":
            raise IllegalCommand(f"{c.name} is {c.status}", rule("knocked-out"))
        a = cmd.action
        f = view(state, c)
        target = state.combatants.get(cmd.target) if cmd.target else None
        if cmd.target and target is None:
            raise IllegalCommand(f"no combatant {cmd.target!r}")
        if c.has("immobilized") and a not in ("break-free", "nothing", "change-facing"):
            raise IllegalCommand(f"{c.name} is Immobilized: cannot move or attack", rule("immobilized"))
        attacks = a in ATTACK_ACTIONS or (
            a == "disengage" and cmd.args.get("mode", "withdrawal") == "withdrawal"
        )
        if attacks and c.marks.get("first_strike_round") == state.round:
            # ATTACKING "a single attack per Round"; CHARGE RULES "get an attack in First even if it is out
            # of order", REACTIONS Receive Charge: that attack was his attack of this round, taken early
            raise IllegalCommand(
                f"{c.name} has had his attack of this round (a first strike at a charge)", rule("attacking")
            )
        moving = a in _MOVING
        held = c.has("partial-immobilization") or c.has("staggered")
        if moving and held and (a in MOVE_ACTIONS or (target and self._dist(c, target) > 1)):
            why = "Partially Immobilized" if c.has("partial-immobilization") else "Staggered"
            raise IllegalCommand(f"{c.name} is {why} and cannot move", rule("fumble-hth"))
        prone_move = a in _PRONE_MOVES
        in_reach = a == "close-to-attack" and target is not None and self._dist(c, target) <= 1
        if c.has("knocked-down") and prone_move and not in_reach:
            raise IllegalCommand(f"{c.name} is prone: Stand Up first", rule("knocked-down"))
        rider = state.combatants.get(c.marks.get("ridden_by") or "")
        ridden = rider is not None and rider.status == "active"
        if ridden and a in _RIDER_MOVES:
            raise IllegalCommand(f"{c.name} is ridden: its rider moves it", rule("mounted"))
        # Zone of Control
        adj = self._adjacent_foes(state, c)
        needs_move = (
            a in MOVE_ACTIONS
            or (target is not None and self._dist(c, target) > 1)
            or a in ("charge", "hurling-charge")
        )
        zoc = moving and needs_move and a != "trample" and bool(adj)
        if zoc and zone_of_control_blocks(f, [view(state, o) for o in adj]):
            raise IllegalCommand(
                f"{c.name} is engaged in HTH: only Disengage moves it", rule("zone-of-control")
            )
        if cmd.args.get("battle_cry") and a not in _CRY_ACTIONS:
            # CHARGE RULES: a charge "may be combined with a Battle Cry"; any other action is not (the cry is
            # then its own action, battle-cry)
            raise IllegalCommand(
                "battle_cry combines a Battle Cry with a Charge or Hurling Charge only", rule("charge")
            )
        if (a == "battle-cry" or cmd.args.get("battle_cry")) and c.marks.get("mute"):
            # reference 1.2, Random Brawl Attacks 9 "Break Jaw": the foe "cannot speak"; a Battle Cry is a cry
            # (docs/rulesets/sas.md, Game master's calls)
            raise IllegalCommand(
                f"{c.name} cannot speak (Break Jaw): no Battle Cry", rule("random-brawl", "break-jaw")
            )
        if a in ATTACK_ACTIONS:
            self._validate_attack(state, c, f, target, cmd)
        elif a in MOVE_ACTIONS:
            if a == "sneak" and not c.hidden:
                raise IllegalCommand("Sneak is moving while Hidden", rule("actions", "sneak"))
            if "to" not in cmd.args and "toward" not in cmd.args and "away" not in cmd.args:
                raise IllegalCommand(
                    f"{a} needs args to: [q, r], toward: <id> or away: <id>", rule("actions", a)
                )
        elif a == "disengage":
            if not adj:
                raise IllegalCommand("Disengage is for leaving HTH: no foe is adjacent", rule("disengage"))
            if target is not None and (target.side == c.side or self._dist(c, target) > 1):
                raise IllegalCommand("Disengage from an adjacent foe", rule("disengage"))
            if cmd.args.get("mode", "withdrawal") not in ("withdrawal", "flee"):
                raise IllegalCommand(
                    "disengage mode is withdrawal or flee (a Rout is not chosen)", rule("disengage")
                )
        elif a == "change-facing":
            if state.round == 1 and state.extra.get("surprise_side") not in (None, c.side):
                raise IllegalCommand("Cannot change Facing if Surprised", rule("actions", "change-facing"))
            if c.marks.get("free_action_round") == state.round:
                # a Free Action once a turn (docs/rulesets/sas.md): a turn always comes to its action
                raise IllegalCommand(
                    f"{c.name} has changed facing this turn already: now the turn's action",
                    rule("actions", "change-facing"),
                )
        elif a == "stand-up":
            if not c.has("knocked-down"):
                raise IllegalCommand(f"{c.name} is not prone", rule("actions", "stand-up"))
        elif a == "pick-up":
            if not c.marks.get("dropped"):
                raise IllegalCommand(f"{c.name} has dropped nothing", rule("actions", "pick-up"))
            hands, why, hand_rule = hands_left(c)
            dropped = c.marks["dropped"]
            if hands < 2 and dropped in t.weapons and t.weapons[dropped].hands > 1:
                raise IllegalCommand(f"{c.name} {why}: the {dropped} needs two hands", hand_rule)
        elif a == "mount":
            if (
                target is None
                or not target.stats.mount
                or target.side != c.side
                or target.marks.get("ridden_by")
            ):
                raise IllegalCommand("Mount needs a free steed of your side", rule("actions", "mount"))
            if self._dist(c, target) > 1 or c.marks.get("mounted_on"):
                raise IllegalCommand(
                    "the steed must be adjacent and you not already mounted", rule("actions", "mount")
                )
        elif a == "dismount":
            if not c.marks.get("mounted_on"):
                raise IllegalCommand(f"{c.name} is not mounted", rule("actions", "mount"))
        elif a == "cast-spell":
            spell = cmd.args.get("spell")
            if not isinstance(spell, str) or spell not in c.stats.spells:
                raise IllegalCommand(
                    f"{c.name} does not know {spell!r}; known: {', '.join(c.stats.spells) or 'none'}",
                    rule("spell-check"),
                )
            if t.magic.spells[spell].reaction:
                raise IllegalCommand(f"{spell} is a reaction, cast during a foe's turn", rule("reactions"))
            if spell in c.marks.get("spells_lost", ()):
                raise IllegalCommand(
                    f"{c.name} has lost the use of {t.magic.spells[spell].label} for the day (Fizzle)",
                    rule("spell-check", "fizzle"),
                )
            if c.count("pp_used") + 1 > c.stats.power_points:
                raise IllegalCommand(f"{c.name} has no Power Points left", rule("spell-check"))
            if target is None or self._dist(c, target) > t.settings.spell_range_spaces or target.hidden:
                raise IllegalCommand("the spell needs a seen target in range", setting("spell_range_spaces"))
            if target.id == c.id:
                # every cast spell of magic.toml (a setting: no spell list is public) is cast at a foe: a
                # Bolt is an attack (ATTACKING "An Attacker picks his target"), the others a condition the
                # target saves against; a side-mate in range may be aimed at (docs: Game master's calls)
                attack = t.magic.spells[spell].attack_roll
                raise IllegalCommand(
                    f"{c.name} cannot cast {t.magic.spells[spell].label} at himself: it is cast at a foe",
                    rule("attacking") if attack else rule("spell-check"),
                )
        elif a == "rally":
            if not [
                o
                for o in state.on_side(c.side)
                if o.has("routed") and self._dist(o, c) <= t.settings.rally_range_spaces
            ]:
                raise IllegalCommand("no Panicked (routed) unit in range", rule("actions", "rally"))
        elif a == "set-to-receive-charge":
            if not t.weapons[f.wielded].pole:
                raise IllegalCommand(
                    "Set to Receive Charge requires a Spear or Pole-Arm",
                    rule("actions", "set-to-receive-charge"),
                )
        elif a == "overwatch":
            if not t.weapons[f.wielded].ranged:
                raise IllegalCommand(
                    "Go into Overwatch requires a Ranged Weapon", rule("actions", "overwatch")
                )
        elif a in ("feint", "intimidate", "taunt"):
            if target is None or target.side == c.side or target.status != "active":
                raise IllegalCommand(f"{a} targets a foe", rule("actions", a))
            reach = 1 if a == "feint" else t.settings.intimidate_range_spaces
            if self._dist(c, target) > reach:
                raise IllegalCommand(f"{target.name} is too far for {a}", rule("actions", a))
        elif a == "quaff":
            if c.count("potions") <= 0:
                raise IllegalCommand(f"{c.name} has no potion", rule("actions", "quaff"))
        elif a == "stop-bleed":
            who = target or c
            if who.count("bleeds") <= 0 or self._dist(c, who) > 1:
                raise IllegalCommand(
                    "Stop Bleed needs a bleeding wound within reach", rule("actions", "stop-bleed")
                )
        elif a == "break-free":
            if not (c.has("immobilized") or c.has("partial-immobilization")):
                raise IllegalCommand(f"{c.name} is not held", rule("immobilized"))
        elif a == "hide":
            if adj:
                raise IllegalCommand("cannot Hide while engaged in HTH", rule("actions", "hide"))
        elif a == "light-fuse" and "bomb" not in c.stats.weapons:
            raise IllegalCommand("Light Fuse needs a Gunpowder Bomb", rule("actions", "light-fuse"))

    def _validate_attack(
        self, state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
    ) -> None:
        t = tables()
        a = cmd.action
        if target is None:
            raise IllegalCommand(f"{a} needs a target", rule("attacking"))
        if target.id == c.id:
            # ATTACKING "An Attacker picks his target ... Subtracts the Targets Defense Bonuses"
            raise IllegalCommand(f"{c.name} cannot attack himself", rule("attacking"))
        if target.side == c.side and a != "attack":
            raise IllegalCommand("attack a foe", rule("attacking"))
        if target.status != "active" and not target.has("knocked-out") and target.status != "unconscious":
            raise IllegalCommand(f"{target.name} is {target.status}", rule("attacking"))
        if target.status == "dead":
            raise IllegalCommand(f"{target.name} is dead", rule("attacking"))
        if target.hidden and not c.player:
            raise IllegalCommand(f"{target.name} is hidden", rule("surprise"))
        if next_value(c, "miss_attack", state.round) and a not in ("horde", "dog-pile"):
            pass  # the attack is lost when resolved (Dazed, Gut Punch, Monster Fumble)
        taunter = c.marks.get("taunted_by")
        if c.has("taunted") and taunter and taunter != target.id:
            other = state.combatants.get(taunter)
            if other is not None and other.status == "active":
                raise IllegalCommand(
                    f"{c.name} was Taunted and must attack {other.name}", rule("actions", "taunt")
                )
        wid = cmd.args.get("weapon") or f.wielded
        if wid not in t.weapons:
            raise IllegalCommand(f"unknown weapon {wid!r}", rule("damage-modifiers"))
        if cmd.args.get("weapon") and wid not in c.stats.weapons:
            raise IllegalCommand(f"{c.name} has no {wid}", rule("attacking"))
        if wid in c.marks.get("broken_weapons", ()):
            raise IllegalCommand(f"{c.name}'s {wid} is broken", rule("fumble-hth"))
        if wid != "unarmed" and wid == c.marks.get("dropped"):
            # FUMBLE TABLE 1 "Drop Weapon", DISARMED "1 Round to retrieve": the Pick up Dropped Item action
            raise IllegalCommand(
                f"{c.name} dropped the {wid}: Pick up Dropped Item first", rule("actions", "pick-up")
            )
        weapon = t.weapons[wid]
        hands, why, hand_rule = hands_left(c)
        if hands < 2:
            if weapon.hands > 1:
                raise IllegalCommand(f"{c.name} {why}: the {wid} needs two hands", hand_rule)
            if cmd.args.get("dual"):
                raise IllegalCommand(f"{c.name} {why}: no Dual Wield with one hand", hand_rule)
            if wid != "unarmed" and wid != f.wielded and f.stats.shield != "none":
                # drawing a weapon into the one hand that holds the shield (docs: Game master's calls)
                raise IllegalCommand(f"{c.name} {why}: the one hand left holds the shield", hand_rule)
        d = self._dist(c, target)
        move = self._spaces(state, c, 1.0)
        closing = a in (
            "close-to-attack",
            "sneak-attack",
            "charge",
            "horde",
            "dog-pile",
            "trample",
            "leap-attack",
        )
        if closing and d > 1 and target.pos is not None:
            if self.no_room_next_to(state, c, target):
                raise IllegalCommand(f"no room next to {target.name}", rule("attacking"))
            if self.no_way_through(state, c, target, a):
                raise IllegalCommand(f"no way through to {target.name} this turn", rule("actions", a))
        if a in CONTINUED:
            if c.marks.get("last_attack_round") != state.round - 1:
                raise IllegalCommand(
                    f"{a} is a Continued attack: attack last round and again without moving",
                    rule("attacking"),
                )
            if a == "aimed-shot" and not weapon.ranged and weapon.band is None:
                raise IllegalCommand("Aimed Shot is for a Ranged Attack", rule("actions", a))
            if a != "aimed-shot" and (weapon.ranged or d > 1):
                raise IllegalCommand(
                    f"{a} is a Continued attack for HTH against an adjacent foe", rule("actions", a)
                )
        if a == "attack":
            if weapon.ranged or (weapon.band is not None and d > 1):
                if d <= 1:
                    raise IllegalCommand(
                        "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
                    )
                self._check_range(state, c, target, weapon)
                if wid == "bomb" and not c.marks.get("fuse_lit"):
                    raise IllegalCommand("Light Fuse first", rule("actions", "light-fuse"))
            elif d > 1:
                raise IllegalCommand(
                    f"{target.name} is not adjacent: Close to Attack or Charge",
                    rule("actions", "close-to-attack"),
                )
            if cmd.args.get("disarm"):
                held = target.marks.get("weapon") or target.stats.weapons[0]
                if t.weapons[held].hands == 0:  # unarmed, or a bite, claws, hooves: nothing held to lose
                    raise IllegalCommand(f"{target.name} holds no weapon to lose", rule("disarmed"))
            if cmd.args.get("dual"):
                hands = _dual_weapons(c, t)
                if len(hands) < 2:
                    raise IllegalCommand(
                        "Dual Wield needs a one-handed weapon in each hand", rule("dual-wield")
                    )
        elif a == "aimed-shot":
            self._check_range(state, c, target, weapon)
        elif a in ("close-to-attack", "sneak-attack"):
            speed = 0.5 if a == "sneak-attack" else 1.0
            if weapon.ranged:
                raise IllegalCommand(f"{a} is a HTH attack", rule("actions", a))
            if a == "sneak-attack" and not c.hidden:
                raise IllegalCommand("Sneak Attack is made from hiding", rule("actions", a))
            if d - 1 > int(move * speed):
                raise IllegalCommand(
                    f"{target.name} is {d} spaces away; {c.name} moves {int(move * speed)}",
                    rule("actions", a),
                )
        elif a in ("charge", "hurling-charge"):
            why = can_charge(f, len(self._adjacent_foes(state, c)), hidden=c.hidden)
            if why:
                raise IllegalCommand(f"{c.name} may not charge: {why}", rule("charge"))
            cmove = self._spaces(state, c, 2.0, charge=True)
            if a == "hurling-charge":
                if not weapon.thrown and weapon.band is None:
                    raise IllegalCommand("Hurling Charge throws a weapon", rule("actions", a))
                reach = int(t.attack.modifiers["range-short"].max_m / t.settings.meters_per_space)
                if d - cmove > reach:
                    raise IllegalCommand(f"{target.name} is out of reach", rule("actions", a))
                path = self._hurl_path(state, c, target)
                end = path[-1] if path else c.pos
                assert end is not None and target.pos is not None
                if distance(end, target.pos) <= 1:
                    # the charge toward him passes no hex 2+ spaces away to throw from (docs: Game master's
                    # calls): it would be a Charge, not a throw
                    raise IllegalCommand(
                        f"{target.name} is too close to throw while charging: Charge instead",
                        rule("actions", a),
                    )
                if distance(end, target.pos) > reach:
                    raise IllegalCommand(f"{target.name} is out of reach", rule("actions", a))
            elif weapon.ranged or d - 1 > cmove:
                raise IllegalCommand(
                    f"{target.name} is {d} spaces away; a charge covers {cmove}", rule("charge")
                )
        elif a == "leap-attack":
            if c.altitude <= target.altitude:
                raise IllegalCommand("Leap Attack is a pounce From Above", rule("actions", a))
            if d > 1 + c.altitude - target.altitude:
                raise IllegalCommand(f"{target.name} is too far to leap on", rule("actions", a))
        elif a in ("horde", "dog-pile"):
            if d - 1 > move:
                raise IllegalCommand(f"{target.name} is out of reach for a {a}", rule("horde-attack"))
            if not self._helpers(state, c, target):
                raise IllegalCommand(
                    f"{a} needs at least 2 attackers", rule("horde-attack" if a == "horde" else "dog-pile")
                )
            if a == "dog-pile" and not self.smaller_than(c, target):
                raise IllegalCommand("a Dog Pile is smaller races against a larger one", rule("dog-pile"))
        elif a == "trample":
            if not self.large_against(state, c, target):
                raise IllegalCommand(
                    f"{c.name} is not {tables().settings.large_creature_sizes}+ size classes bigger",
                    rule("large-creature-attacks"),
                )
            if d - 1 > move:
                raise IllegalCommand(f"{target.name} is out of reach", rule("large-creature-attacks"))

    def large_against(self, state: FightState, c: Combatant, target: Combatant) -> bool:
        """LARGE CREATURE ATTACKS: ``c`` is Large enough, and enough size classes bigger than ``target``, to
        Trample it (the encounter's settings); validate refuses a Trample otherwise, so the tactics ask
        first."""
        with encounter_settings(state):
            return large_creature(view(state, c), view(state, target))

    @staticmethod
    def smaller_than(c: Combatant, target: Combatant) -> bool:
        """DOG PILE: smaller races pile on a larger one; validate refuses a Dog Pile otherwise, so the tactics
        ask first."""
        return bool(c.stats.size_index < target.stats.size_index)

    def no_room_next_to(self, state: FightState, c: Combatant, target: Combatant) -> bool:
        """ATTACKING: every hex next to a target more than one space away is taken (others stand there or the
        map blocks it), so ``c`` cannot close with it: every closing attack on it (Close to Attack, Charge,
        Sneak Attack, Horde, Dog Pile, Trample, Leap Attack) is refused. The tactics ask first, to skip
        proposals ``validate`` would refuse for this reason whatever else they say."""
        pos = target.pos
        if pos is None or self._dist(c, target) <= 1:
            return False
        memo = held(state, c, target)
        key = ("no_room", c.id, target.id)
        if memo is not None:
            hit = memo.get(key)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
        taken = self._taken(state, c)
        q, r = pos
        out = True
        for dq, dr in DIRECTIONS:
            if (q + dq, r + dr) not in taken:
                out = False
                break
        if memo is not None:
            memo[key] = out
        return out

    def may_close_at(self, state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
        """The breadth-first look ``no_way_through`` starts with (``_may_close``) at ``action``'s speed, on
        its own: False means no free hex next to the target within reach. A tactic asks it for a Charge (the
        longest reach) before a Horde Attack or Close to Attack on the same foe: a goblin stuck at the back
        is then answered for the shorter reach from the memo, one look instead of two."""
        pos = target.pos
        if pos is None or c.pos is None or self._dist(c, target) <= 1:
            return True
        return self._may_close(state, c, pos, self._closing_reach(state, c, action))

    def _closing_reach(self, state: FightState, c: Combatant, action: str) -> int:
        """The spaces a closing attack moves: a Charge at double speed, a Sneak Attack at half (ATTACKING)."""
        speed = 2.0 if action == "charge" else 0.5 if action == "sneak-attack" else 1.0
        return self._spaces(state, c, speed, charge=action == "charge")

    def no_way_through(self, state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
        """ATTACKING: a closing attack that moves (Close to Attack, Sneak Attack, Charge, Horde Attack, Dog
        Pile) on a target more than one space away finds no path this turn to a free hex next to him (at the
        action's speed): ``validate`` refuses it then, with this very computation. The tactics ask first, to
        skip such proposals without the rest of ``validate``."""
        pos = target.pos
        if pos is None or c.pos is None or action not in _PATHED_CLOSING or self._dist(c, target) <= 1:
            return False
        reach = self._closing_reach(state, c, action)
        # each step closes at most one space: too far is refused without a search
        path = self._path_to(state, c, pos, reach, True) if self._may_close(state, c, pos, reach) else []
        return not path or distance(path[-1], pos) > 1

    def _check_range(self, state: FightState, c: Combatant, target: Combatant, weapon: Any) -> None:
        t = tables()
        d = self._dist(c, target)
        if d <= 1:
            raise IllegalCommand(
                "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
            )
        band = range_band(d * t.settings.meters_per_space, self._underwater(state))
        limit = weapon.band or "short"
        if band == "beyond" or RANGE_BANDS.index(band) > RANGE_BANDS.index(limit):
            raise IllegalCommand(
                f"{target.name} is beyond {weapon.label} range ({limit})",
                rule("attack-modifiers", f"range-{limit}"),
            )

    def _helpers(self, state: FightState, c: Combatant, target: Combatant) -> list[Combatant]:
        """Side-mates who have not acted this round and are next to the target or can reach it with a Walk
        (Horde Attack, Dog Pile: they throw themselves on the pile)."""
        return [
            o
            for o in state.on_side(c.side)
            if o.id != c.id
            and o.status == "active"
            and o.id not in state.acted
            and not o.has("immobilized")
            and not o.has("routed")
            and self._dist(o, target) - 1 <= movement(view(state, o), self._underwater(state))
            and o.id in state.order
        ]

    def _mount_bonus(self, state: FightState, c: Combatant) -> int:
        mid = c.marks.get("mounted_on")
        if not mid:
            return 0
        mount = state.combatants[mid]
        return (
            mount.stats.movement
            - c.stats.movement
            + mount_swift(view(state, c)) * tables().settings.swift_movement
        )

    # ----- resolving ---------------------------------------------------------------------------------
    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        # the state stands still while a command is resolved (its events are applied after): each
        # combatant's view is built once, or taken over from the tactic that chose this command
        with encounter_settings(state), views_held(state, command):
            return self._resolve(state, command, dice)

    def _resolve(self, state: FightState, cmd: Command, dice: DiceSource) -> list[ev.Event]:
        c = state.combatants[cmd.actor]
        b = EventBuilder(state)
        a = cmd.action
        target = state.combatants.get(cmd.target) if cmd.target else None
        if c.marks.get("set") and a not in ("set-to-receive-charge", "overwatch"):
            b.set_mark(c.id, "set", None)
        handler = getattr(self, "_do_" + a.replace("-", "_"), None)
        if handler is None:  # pragma: no cover - every action has a handler
            raise IllegalCommand(f"no handler for {a}")
        handler(b, state, c, target, cmd, dice)
        if c.has("taunted") and a in ATTACK_ACTIONS:
            b.remove_condition(c.id, "taunted")
        act = tables().combat.actions.get(a)
        if act is not None and act.free:
            # COMBAT ROUND ACTIONS LIST "Change Facing - Free Action": the turn's action is still to come
            b.set_mark(c.id, "free_action_round", state.round, rule("actions", a))
            return b.finish()
        events = b.finish()
        if not any(isinstance(e, ev.TurnEnded) and e.actor == c.id for e in events):
            events.append(ev.TurnEnded(c.id))
        return events

    # --- movement helpers
    def _path_to(
        self,
        state: FightState,
        c: Combatant,
        goal: Hex,
        spaces: int,
        stop_adjacent: bool,
        taken: set[Hex] | None = None,
    ) -> list[Hex]:
        if c.pos is None or spaces <= 0:
            return []
        return _bfs_path(c.pos, goal, spaces, self._path_blocked(state, c, taken), stop_adjacent)

    def _may_close(self, state: FightState, c: Combatant, goal: Hex, spaces: int) -> bool:
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
        answer = self._may_close_now(state, c, goal, spaces)
        if memo is not None:
            short, enough = known if known is not None else (0, 1 << 30)
            memo[key] = (short, min(enough, spaces)) if answer else (max(short, spaces), enough)
        return answer

    def _may_close_now(self, state: FightState, c: Combatant, goal: Hex, spaces: int) -> bool:
        assert c.pos is not None
        blocked = self._path_blocked(state, c, None)
        want = _free_ring(goal, c.pos, 1, blocked)
        if distance(c.pos, goal) <= want:
            return False
        return _reaches(c.pos, goal, want, spaces, blocked)

    def _taken(self, state: FightState, c: Combatant) -> frozenset[Hex]:
        """The hexes others stand on and the map's blocked hexes (remembered while a tactic weighs its
        proposals: see ``fold.views_held``)."""
        memo = held(state, c)
        key = ("taken", c.id)
        if memo is not None and key in memo:
            return memo[key]  # type: ignore[no-any-return]
        out = frozenset(state.occupied(c.id) | self._blocked(state))
        if memo is not None:
            memo[key] = out
        return out

    def _path_blocked(
        self, state: FightState, c: Combatant, taken: set[Hex] | None
    ) -> set[Hex] | frozenset[Hex]:
        if taken is None:
            if not (c.marks.get("ridden_by") or c.marks.get("mounted_on")):
                return self._taken(state, c)  # no rider or steed to let through: the same hexes
            memo = held(state, c)
            key = ("path_blocked", c.id)
            if memo is not None and key in memo:
                return memo[key]  # type: ignore[no-any-return]
            out = frozenset(self._path_blocked_now(state, c, None))
            if memo is not None:
                memo[key] = out
            return out
        return self._path_blocked_now(state, c, taken)

    def _path_blocked_now(self, state: FightState, c: Combatant, taken: set[Hex] | None) -> set[Hex]:
        blocked = (taken if taken is not None else state.occupied(c.id)) | self._blocked(state)
        rider = c.marks.get("ridden_by") or c.marks.get("mounted_on")
        if rider:
            other = state.combatants[rider]
            blocked.discard(other.pos)  # type: ignore[arg-type]
        return blocked

    def _path_away(self, state: FightState, c: Combatant, spaces: int) -> list[Hex]:
        if c.pos is None:
            return []
        spots = [f.pos for f in self._foes(state, c, False) if f.pos is not None]
        blocked = state.occupied(c.id) | self._blocked(state)
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

    def _move(
        self,
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

    def _spaces(self, state: FightState, c: Combatant, speed: float, charge: bool = False) -> int:
        """Spaces ``c`` may move at ``speed`` (remembered while a tactic weighs its proposals: see
        ``fold.views_held``)."""
        memo = held(state, c)
        if memo is None:
            return self._spaces_now(state, c, speed, charge)
        key = ("spaces", c.id, speed, charge)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._spaces_now(state, c, speed, charge)
        return hit  # type: ignore[no-any-return]

    def _spaces_now(self, state: FightState, c: Combatant, speed: float, charge: bool) -> int:
        f = view(state, c)
        bonus = self._mount_bonus(state, c)
        if bonus:
            mount = view(state, state.combatants[c.marks["mounted_on"]])
            return movement(mount, self._underwater(state), speed, charge) + int(mount_swift(f) * speed)
        return movement(f, self._underwater(state), speed, charge)

    def _goal(self, state: FightState, cmd: Command) -> Hex | None:
        if "to" in cmd.args:
            q, r = cmd.args["to"]
            return (int(q), int(r))
        if "toward" in cmd.args:
            o = state.combatants.get(cmd.args["toward"])
            return o.pos if o else None
        return None

    # --- plain movement
    def _do_walk(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
        speed: float = 1.0,
        mode: str = "walk",
    ) -> None:
        spaces = self._spaces(state, c, speed)
        if "away" in cmd.args:
            path = self._path_away(state, c, spaces)
        else:
            goal = self._goal(state, cmd)
            if goal is None:
                raise IllegalCommand(f"{mode}: nowhere to go", rule("actions", mode))
            path = self._path_to(state, c, goal, spaces, stop_adjacent="toward" in cmd.args)
        self._move(b, state, c, path, mode, rule("actions", mode))
        self._reactions_to_move(b, state, c, path, dice, charging=False)

    def _do_run(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        self._do_walk(b, state, c, target, cmd, dice, 2.0, "run")
        b.add_condition(
            c.id, "fatigued", state.round + tables().settings.fatigue_rounds, 0, "Run", rule("actions", "run")
        )

    def _do_sneak(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        self._do_walk(b, state, c, target, cmd, dice, 0.5, "sneak")

    # --- reactions to a move: Fire from Overwatch, Receive Charge (REACTIONS)
    def _reactions_to_move(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        path: list[Hex],
        dice: DiceSource,
        charging: bool,
    ) -> bool:
        """Foes set for it react after the mover moves and before he attacks; True if the mover is stopped.

        A reaction's attack is an attack (ATTACKING, ATTACK TABLE MODIFIERS): it is read from where the move
        left the mover (his new place and facing, the foes now round him, his cover) and from the reactor's
        own place (height, difficult ground, tight position, light), as any attack is.

        One reaction a combatant a round (docs/rulesets/sas.md, "Game master's calls"): a foe who has
        already reacted this round (a Shield Spell, Catch Missile, Counterspell, an earlier Receive Charge or
        Fire from Overwatch) stays set but does not react; one who reacts has spent his reaction."""
        if not path or not state.options.get("auto-reactions", True):
            return False
        foes = [o for o in self._foes(state, c, False) if b.mark(o.id, "set")]
        if not foes:
            return False  # nobody is set for it (most moves): no copy of the mover is made
        end = path[-1]
        moved = self._moved_copy(b, c)  # where the move left him: the reaction's attack is read from there
        # what he moves with: a charger's Defense -4 (CHARGE RULES), a Fighting Withdrawal's Defense +1, a
        # fleer's back to the foe (DISENGAGE)
        mover = self._with_batch(b, moved, ("charging", "battle-cry", "withdrawal", "fleeing"))
        for o in foes:
            mark = b.mark(o.id, "set")
            if not mark or o.pos is None or b.status(o.id) != "active":
                continue
            if b.mark(o.id, "reacted_round") == state.round:
                continue  # his one reaction of the round is spent
            d = distance(o.pos, end)
            if mark == "receive-charge" and charging and d <= 1:
                rid = rule("reactions", "receive-charge")
                b.note(f"{o.name} receives the charge!", o.id, rid)
                b.set_mark(o.id, "reacted_round", state.round, rid)
                # Receive Charge ("Attack First after Foe Moves") and the longer weapon's first strike (CHARGE
                # RULES: "get an attack in First") grant the same one attack before the charger's: a spearman
                # who has both strikes once, and this is his first strike of the round
                b.set_mark(o.id, "first_strike_round", state.round, rid)
                sit = self._situation(state, o, mover, "attack", weapon=view(state, o).wielded)
                self._attack(b, state, o, mover, sit, dice, "attack", immediate=True)
                b.set_mark(o.id, "set", None)
            elif mark == "overwatch" and d > 1:
                wid = view(state, o).wielded
                weapon = tables().weapons[wid]
                band = range_band(d * tables().settings.meters_per_space, self._underwater(state))
                if (
                    weapon.ranged
                    and band != "beyond"
                    and RANGE_BANDS.index(band) <= RANGE_BANDS.index(weapon.band or "short")
                ):
                    rid = rule("reactions", "fire-from-overwatch")
                    b.note(f"{o.name} fires from Overwatch!", o.id, rid)
                    b.set_mark(o.id, "reacted_round", state.round, rid)
                    # ATTACK TABLE MODIFIERS "Defender Moved on last Action": he is moving now
                    sit = dataclasses.replace(
                        self._situation(state, o, mover, "attack", weapon=wid), defender_moved=True
                    )
                    self._attack(b, state, o, mover, sit, dice, "attack", immediate=True)
                    b.set_mark(o.id, "set", None)
            if b.status(c.id) != "active" or b.has(c.id, "knocked-down"):
                return True
            if not any(f.side != c.side and b.status(f.id) == "active" for f in state.combatants.values()):
                return True  # the reaction ended the fight (its taker, the last standing, fell to a fumble)
        return False

    # --- the attack itself
    def _situation(
        self, state: FightState, c: Combatant, target: Combatant, action: str, **kw: Any
    ) -> Situation:
        t = tables()
        d = self._dist(c, target)
        wid = kw.pop("weapon", None) or c.marks.get("weapon") or c.stats.weapons[0]
        weapon = t.weapons[wid]
        ranged = (weapon.ranged or weapon.band is not None) and d > 1  # a spear or dagger may be thrown
        pos = kw.pop("from_pos", c.pos)
        # where those who moved in this batch now stand (the attacker, a horde's members): ``state`` still
        # has them where their turn began
        moved: dict[str, Hex | None] = {**kw.pop("moved", {}), c.id: pos}
        behind = flank = False
        if pos is not None and target.pos is not None and not ranged:
            rel = (direction_to(target.pos, pos) - target.facing) % 6
            behind = rel == 3 or target.has("fleeing") or target.has("routed")
            flank = rel in (2, 4)
        # ATTACK TABLE MODIFIERS, Defender Surrounded "On at least 2 Sides (2-4+ Foes)": the sides of him
        # that foes hold as the attack is made (an attacker who has just Closed, Charged or Sneaked up among
        # them counted where he now stands), each space once: a rider and his steed, or two foes in one
        # space, are one side
        sides_held: set[tuple[int, int]] = set()
        if target.pos is not None:
            tq, tr = target.pos
            for o in state.combatants.values():
                if o.side == target.side or o.status != "active":
                    continue
                at = moved.get(o.id, o.pos)
                if at is None:
                    continue
                a, b = at[0] - tq, at[1] - tr  # within one space (hex distance <= 1)
                if -1 <= a <= 1 and -1 <= b <= 1 and -1 <= a + b <= 1:
                    sides_held.add((a, b))
        adjacent = len(sides_held)
        cover = None
        terrain = state.extra.get("map", {})
        spot = tuple(target.pos) if target.pos is not None else None
        if ranged and spot is not None:
            # ATTACK TABLE MODIFIERS: Good Cover "Behind Parapet" (map.extra.good_cover) or Partial Cover
            # "Behind Low Wall" (map.cover)
            if spot in {tuple(h) for h in terrain.get("good_cover", [])}:
                cover = "good"
            elif spot in {tuple(h) for h in terrain.get("cover", [])}:
                cover = "partial"
        light = terrain.get("light", "bright")
        first_round_surprise = state.round == 1 and state.extra.get("surprise_side") == c.side

        def on(key: str) -> bool:
            hexes = terrain.get(key)  # (most maps have none of these: no set is built then)
            return bool(hexes) and pos is not None and tuple(pos) in {tuple(h) for h in hexes}

        kw.setdefault("height", c.altitude > target.altitude or (on("high") and not ranged))
        kw.setdefault("difficult_ground", on("difficult"))
        kw.setdefault("tight", on("tight"))
        kw.setdefault("encumbered", c.has("encumbered"))
        if ranged and spot is not None:
            if spot in {tuple(h) for h in terrain.get("good_concealment", [])}:
                kw.setdefault("concealment", "good")  # "Jungle Surroundings"
            elif spot in {tuple(h) for h in terrain.get("concealment", [])}:
                kw.setdefault("concealment", "partial")  # "Tall Grass"
        return Situation(
            ranged=ranged,
            distance_m=d * t.settings.meters_per_space if ranged else None,
            surprise=first_round_surprise,
            hidden=c.hidden,
            behind=behind and not ranged,
            flank=flank,
            adjacent_foes=adjacent,
            reduced_visibility=light != "bright",
            defender_moved=ranged and target.marks.get("moved_round") == self._last_turn_round(state, target),
            action=action if action in t.combat.actions else None,
            underwater=self._underwater(state),
            pursuing_rout=target.has("routed") and not ranged,
            cover=cover,
            weapon=wid,
            **kw,
        )

    @staticmethod
    def _last_turn_round(state: FightState, target: Combatant) -> int:
        """The round of the target's last turn (ATTACK TABLE MODIFIERS, Defender Moved on last Action): this
        round when he has ended a turn in it (``acted``: his side acted before, or he before a side-mate
        shooting him by Friendly Fire), else the round before."""
        return state.round if target.id in state.acted else state.round - 1

    def _attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant,
        sit: Situation,
        dice: DiceSource,
        action: str,
        immediate: bool = False,
        friendly: bool = True,
    ) -> AttackResult | None:
        """One attack roll and, if it hits, its damage roll; what they do is held until the side has
        attacked (``immediate`` for out-of-order attacks)."""
        t = tables()
        if next_value(c, "miss_attack", state.round):
            b.note(
                f"{c.name} misses this attack (Dazed, winded or lost track).",
                c.id,
                rule("light-wounds", "dazed"),
            )
            b.consume_next(c.id, "miss_attack")
            b.set_mark(c.id, "last_attack_round", state.round)
            return None
        att = view(state, c)
        dfn = view(state, target)
        # MONSTER FUMBLES 4-5 "Foes get Attack +2 / Damage +2 to next attack vs Monster": each foe's next
        # attack on the monster, once (the marks lapse at the end of the next round as before)
        dfn, foe_bonus = _foe_bonus_view(dfn, b.mark(target.id, "foe_bonus_used"), c.id)
        effects: list[Effect] = []
        # THE BRAWL RULE, rolled before the attack roll
        weapon = t.weapons[sit.weapon or att.wielded]
        if (
            state.options.get("brawl-rule", True)
            and brawl_applies(att, dfn, sit.ranged)
            and not sit.horde
            and not sit.dog_pile
            and sit.brawl is None
            and not sit.disarm
            and not att.mounted_on
            and not dfn.mounted_on
        ):
            bd = brawl_roll(dice)
            b.events.append(
                ev.Rolled(
                    c.id,
                    "Brawl Rule",
                    bd.trigger,
                    {"dice": [[-20, bd.trigger]], "total": bd.trigger},
                    expr="1d20",
                    dn=10,
                    under=True,
                    outcome="Random Brawl Attack" if bd.brawl else "weapon attack",
                    rule=rule("brawl-rule"),
                )
            )
            if bd.brawl:
                row = bd.row
                if row is not None:
                    free = (
                        hands_left(c)[0]
                        - (0 if att.wielded == "unarmed" else weapon.hands)
                        - (1 if att.stats.shield != "none" else 0)
                    )
                    sub = two_hand_substitute(row, free)
                    if sub is not row and sub is not None:
                        b.note(
                            f"{row.label} needs two free hands: {sub.label} instead",
                            c.id,
                            rule("random-brawl"),
                        )
                    row = sub
                label = row.label if row is not None else "an unmodified Brawl Attack (row not in the data)"
                b.events.append(
                    ev.Rolled(
                        c.id,
                        "Random Brawl Attacks",
                        bd.face or 0,
                        {"dice": [[-60, bd.face or 0]], "total": bd.face or 0},
                        expr="1d60",
                        outcome=label,
                        rule=bd.rule,
                    )
                )
                sit = dataclasses.replace(sit, brawl=row, brawl_plain=row is None)
        # Shield Spell reaction
        if state.options.get("auto-reactions", True) and "shield" in target.stats.spells:
            sit = self._shield_spell(b, state, target, sit, dice)
        if dfn.stats.shield == "small":
            used = target.marks.get("shield_used")
            key = (state.round, state.extra.get("side_index", 0))
            n = used[2] + 1 if used and (used[0], used[1]) == key else 1
            b.set_mark(target.id, "shield_used", (*key, n))
        r = resolve_attack(att, dfn, sit, dice)
        b.events.append(_rolled(c.id, "Attack", r.roll, target.id))
        if foe_bonus:
            used = b.mark(target.id, "foe_bonus_used") or ()
            b.set_mark(target.id, "foe_bonus_used", (*used, c.id), rule("monster-fumbles"))
        if next_value(c, "attack", state.round):
            b.consume_next(c.id, "attack")
        effects += r.effects
        b.set_mark(c.id, "last_attack_round", state.round)
        if c.hidden:
            b.events.append(HiddenSet(c.id, False, rule("surprise")))
        victim = target
        if r.hit:
            if r.other_grappler:
                pile = target.marks.get("pile", {}).get("members", ())
                others = [state.combatants[m] for m in pile if m != c.id and m in state.combatants]
                if others:
                    victim = others[0]
                    b.note(
                        f"The blow lands on {victim.name}, the other grappler!",
                        c.id,
                        rule("attack-modifiers", "defender-grappled"),
                    )
            dr = resolve_damage(att, dfn if victim is target else view(state, victim), sit, dice, r.critical)
            if dr.roll is not None:
                b.events.append(_rolled(c.id, "Damage", dr.roll, victim.id))
            effects += dr.effects
            if c.marks.get("poisoned") and not sit.brawl and dr.roll is not None:
                b.set_mark(c.id, "poisoned", None)
                vf = view(state, victim)
                if not self._save(b, vf, self._save_bonus(victim, "poison"), dice, "Save vs Poison"):
                    rounds = roll_expr(t.settings.poison_rounds, dice, "poison")
                    effects.append(
                        Effect(
                            "condition",
                            victim.id,
                            name="sickened",
                            rounds=rounds,
                            why="Poison",
                            rule=setting("poison_rounds"),
                        )
                    )
        elif sit.ranged and not r.fumble:
            self._catch_missile(b, state, target, dice)
        if r.fumble:
            fr = roll_fumble(att, dice, ranged=sit.ranged)
            b.events.append(_rolled(c.id, "Fumble", fr.roll))
            effects += [e for e in fr.effects if e.kind != "friendly-fire"]
            if any(e.kind == "friendly-fire" for e in fr.effects) and friendly:
                allies = []
                near = 1 if not sit.ranged else 99
                for o in state.on_side(c.side):
                    if o.id == c.id or o.status != "active" or self._dist(o, c) > near:
                        continue
                    osit = self._friendly_fire_situation(state, c, att, o, sit)
                    if osit is not None:
                        allies.append((o, osit))
                if allies:
                    ally, osit = allies[dice.roll(len(allies), "friendly fire") - 1]
                    b.note(f"Friendly Fire: {c.name} attacks {ally.name}!", c.id, fr.roll.rule)
                    self._attack(
                        b,
                        state,
                        c,
                        ally,
                        osit,
                        dice,
                        "attack",
                        immediate,
                        friendly=False,
                    )
                else:
                    b.note("Friendly Fire, but no ally is near.", c.id, fr.roll.rule)
        if immediate:
            b.effects(effects)
            self._deaths(b, state, dice)
        else:
            b.queue(effects)
        return r

    def _friendly_fire_situation(
        self, state: FightState, c: Combatant, att: Fighter, ally: Combatant, sit: Situation
    ) -> Situation | None:
        """The ally's own place for a Friendly Fire attack (FUMBLE TABLE): its cover, range, size, flank; None
        when the weapon cannot attack it from where it stands (a bow beyond its range band, or in HTH
        range). [choice: the table is silent on range; only an ally the attack could hit is hit]"""
        try:
            osit = dataclasses.replace(
                self._situation(state, c, ally, "attack", weapon=sit.weapon or att.wielded),
                surprise=False,
                hidden=False,
                brawl=None,
                brawl_plain=False,
            )
            attack_modifiers(att, view(state, ally), osit)
        except IllegalCommand:
            return None
        return osit

    def _shield_spell(
        self, b: EventBuilder, state: FightState, target: Combatant, sit: Situation, dice: DiceSource
    ) -> Situation:
        if target.has("shield-spell") or b.has(target.id, "shield-spell"):
            return dataclasses.replace(sit, shield_spell=True)
        if (
            b.mark(target.id, "reacted_round") == state.round
            # the Power Points left now: what this command has spent counts (reference 5.1: 1 PP a spell)
            or b.counter(target.id, "pp_used") >= target.stats.power_points
            or "shield" in (b.mark(target.id, "spells_lost") or ())  # fizzled today (reference 5.1)
        ):
            return sit
        if b.status(target.id) != "active":
            return sit
        ok = self._spell_check(b, state, target, dice, "Shield Spell", "shield")
        b.set_mark(target.id, "reacted_round", state.round, rule("reactions", "shield-spell"))
        if ok:
            b.add_condition(
                target.id, "shield-spell", state.round, 0, "Shield Spell", rule("reactions", "shield-spell")
            )
            return dataclasses.replace(sit, shield_spell=True)
        return sit

    def _catch_missile(self, b: EventBuilder, state: FightState, target: Combatant, dice: DiceSource) -> None:
        if target.stats.skill("catch-missile") < 1 or b.mark(target.id, "reacted_round") == state.round:
            return
        if not state.options.get("auto-reactions", True) or b.status(target.id) != "active":
            return
        chk = action_check(view(state, target), "catch-missile", dice)
        b.events.append(_rolled(target.id, "Catch Missile", chk))
        b.set_mark(target.id, "reacted_round", state.round, rule("reactions", "catch-missile"))
        if chk.success:
            b.note(
                f"{target.name} snatches the missile out of thin air!",
                target.id,
                rule("reactions", "catch-missile"),
            )

    def _spell_check(
        self, b: EventBuilder, state: FightState, c: Combatant, dice: DiceSource, what: str, spell: str
    ) -> bool:
        """Spell Check (reference 5.1): 1 PP, 1D20 with the caster's penalties; failing: Spell Failure. A
        Fizzle, and a Spellburn ("as Fizzle"), lose "the use of that spell for the day" (mark spells_lost:
        a fight is within one day)."""
        t = tables()
        b.add_counter(c.id, "pp_used", t.magic.power_points, what, rule("spell-check"))
        f = view(state, c)
        mods = roll_penalties(f, "check")
        if c.has("confusion"):
            mods.append(Modifier(-4, "Caster Confused", rule("spell-check")))
        face = dice.roll(20, f"spell check {what}")
        tot = face + sum(m.value for m in mods)
        row = t.magic.lookup(tot, natural=face)
        if face == 20:
            row = t.magic.row("success")
        troll = TableRoll(
            "spell-check", 20, face, tuple(mods), tot, row.id, row.label, rule("spell-check", row.id)
        )
        b.events.append(_rolled(c.id, f"Spell Check ({what})", troll))
        if row.fatigue:
            until = None if not t.settings.exhaustion_rounds else state.round + t.settings.exhaustion_rounds
            b.add_condition(
                c.id, "exhausted", until, 0, "Spell Check: Exhaustion", rule("spell-check", row.id)
            )
        if row.knocked_out:
            hours = roll_expr(row.knocked_out, dice, "knocked out")
            b.effects(
                knock_out(
                    view(state, c), to_rounds(hours, "hours"), "Spell Check", rule("spell-check", row.id)
                )
            )
        if not row.success:
            face2 = dice.roll(20, "spell failure")
            frow = t.magic.failure.lookup(face2)
            b.events.append(
                _rolled(
                    c.id,
                    "Spell Failure",
                    TableRoll(
                        "spell-failure",
                        20,
                        face2,
                        (),
                        face2,
                        frow.id,
                        frow.label,
                        rule("spell-check", frow.id),
                    ),
                )
            )
            if frow.id in ("fizzle", "spellburn"):
                lost = b.mark(c.id, "spells_lost") or ()
                if spell not in lost:
                    b.set_mark(c.id, "spells_lost", (*lost, spell), rule("spell-check", frow.id))
            if frow.markers:
                b.effects(
                    [
                        Effect(
                            "markers", c.id, frow.markers, why="Spellburn", rule=rule("spell-check", frow.id)
                        )
                    ]
                )
                self._deaths(b, state, dice)  # the markers land now (DEATH BY A THOUSAND CUTS)
        return row.success

    # --- attack actions
    def _do_attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        disarm = bool(cmd.args.get("disarm"))
        kw: dict[str, Any] = {"weapon": cmd.args.get("weapon"), "disarm": disarm}
        if cmd.args.get("hard_maneuver"):
            kw["hard_maneuver"] = True
        if cmd.args.get("weapon"):
            b.set_mark(c.id, "weapon", cmd.args["weapon"])
        if cmd.args.get("dual"):
            t = tables()
            hands = _dual_weapons(c, t)
            sit = self._situation(state, c, target, cmd.action, weapon=hands[0], dual_wield=True)
            self._attack(b, state, c, target, sit, dice, cmd.action)
            second = state.combatants.get(cmd.args.get("target2") or target.id, target)
            sit2 = self._situation(state, c, second, cmd.action, weapon=hands[1], dual_wield=True)
            self._attack(b, state, c, second, sit2, dice, cmd.action)
            return
        sit = self._situation(state, c, target, cmd.action, **kw)
        self._attack(b, state, c, target, sit, dice, cmd.action)
        if sit.ranged and (
            tables().weapons[sit.weapon or "unarmed"].thrown
            or not tables().weapons[sit.weapon or "unarmed"].ranged
        ):
            self._thrown(b, c, sit.weapon or "unarmed")

    def _thrown(self, b: EventBuilder, c: Combatant, wid: str) -> None:
        spare = [w for w in c.stats.weapons if w != wid]
        b.set_mark(c.id, "weapon", spare[0] if spare else "unarmed")
        if wid == "bomb":
            b.set_mark(c.id, "fuse_lit", None)

    def _do_hack_and_slash(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        self._attack(b, state, c, target, self._situation(state, c, target, cmd.action), dice, cmd.action)

    _do_mighty_blow = _do_hack_and_slash
    _do_aimed_shot = _do_hack_and_slash

    def _do_defensive_stance_attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        self._attack(b, state, c, target, self._situation(state, c, target, cmd.action), dice, cmd.action)
        b.add_condition(
            c.id,
            "stance",
            None,
            tables().combat.actions["defensive-stance-attack"].defense,
            "Defensive Stance",
            rule("actions", cmd.action),
        )

    def _approach(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant,
        speed: float,
        mode: str,
        dice: DiceSource,
        charge: bool = False,
    ) -> int | None:
        """Move next to ``target``. None if stopped (a reaction dropped the mover or ended the fight), else
        where in ``b.events`` the reactions to the move begin (``len(b.events)``: none happened). A charger
        (``charge``) who reaches his foe takes the Charge's Defense -4 before the reactions to his move
        (CHARGE RULES: "Defense -4 for 1 Round", from the charge on)."""
        if self._dist(c, target) <= 1:
            if charge:
                self._charging(b, c)
            return len(b.events)
        spaces = self._spaces(state, c, speed, charge)
        assert target.pos is not None
        path = self._path_to(state, c, target.pos, spaces, stop_adjacent=True)
        word = {"close-to-attack": "close", "hurling-charge": "charge"}.get(mode, mode)
        self._move(b, state, c, path, word, rule("actions", mode), face_to=target.pos)
        if not path or distance(path[-1], target.pos) > 1:
            b.note(f"{c.name} cannot reach {target.name}.", c.id, rule("actions", mode))
            return None
        if charge:
            self._charging(b, c)
        k = len(b.events)
        return None if self._reactions_to_move(b, state, c, path, dice, charging=charge) else k

    @staticmethod
    def _charging(b: EventBuilder, c: Combatant) -> None:
        """CHARGE RULES: "They get Attack +1, Swift +2, Damage +2, and Defense -4 for 1 Round": the
        Defense -4 is the charge's own, so it is on the charger from the moment he charges home (a Receive
        Charge, Fire from Overwatch or longer weapon's first strike against him sees it) until his side acts
        again."""
        defense = tables().combat.num("charge", "defense")
        b.add_condition(c.id, "charging", None, defense, "Charge", rule("charge"))

    @staticmethod
    def _with_charge(b: EventBuilder, c: Combatant) -> Combatant:
        """``c`` (or a copy) as the charge's strikes read him: with this batch's Charge Defense -4 (an attack
        against him sees it) and the Battle Cry made with the charge (his own attack sees it: CHARGE RULES
        "This may be combined with a Battle Cry", the cry raised as he charges, before he strikes)."""
        return SasRuleset._with_batch(b, c, ("charging", "battle-cry"))

    @staticmethod
    def _with_batch(b: EventBuilder, c: Combatant, names: tuple[str, ...]) -> Combatant:
        """``c`` (or a copy) with the conditions ``names`` this batch gave him."""
        now = b.conditions(c.id)
        add = {n: now[n] for n in names if n in now and c.conditions.get(n) != now[n]}
        if not add:
            return c
        out = c.clone()
        out.conditions.update(add)
        return out

    def _moved_copy(self, b: EventBuilder, c: Combatant) -> Combatant:
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

    def _do_close_to_attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        k = self._approach(b, state, c, target, 1.0, cmd.action, dice)
        if k is None:
            return
        mc = self._moved_copy(b, c)
        if len(b.events) > k:  # a reaction struck: the attack reads what it did
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
        self._attack(b, state, mc, target, self._situation(state, mc, target, cmd.action), dice, cmd.action)

    def _do_sneak_attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        k = self._approach(b, state, c, target, 0.5, "sneak", dice)
        if k is None:
            return
        mc = self._moved_copy(b, c)
        if len(b.events) > k:  # a reaction struck (Fire from Overwatch): the attack reads what it did
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
        self._attack(b, state, mc, target, self._situation(state, mc, target, cmd.action), dice, cmd.action)

    def _do_charge(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        """CHARGE RULES: double speed, Attack +1, Swift +2, Damage +2, Defense -4 for 1 round; a defender
        with a Longer Weapon who sees it coming strikes first."""
        assert target is not None
        t = tables()
        if cmd.args.get("battle_cry"):
            self._do_battle_cry(b, state, c, None, cmd, dice)
        k = self._approach(b, state, c, target, 2.0, "charge", dice, charge=True)
        if k is None:
            return
        reacted = b.events[k:]
        mc = self._moved_copy(b, c)
        if reacted:  # Receive Charge or Fire from Overwatch struck: what follows reads what it did
            state, mc = self._struck(state, reacted, mc)
            target = state.combatants[target.id]
        mc = self._with_charge(b, mc)  # the first strike sees his Defense -4 (CHARGE RULES)
        # the defender with the longer weapon strikes first (once a round)
        tw = t.weapons[view(state, target).wielded]
        cw = t.weapons[view(state, c).wielded]
        sees = not c.hidden and not (state.round == 1 and state.extra.get("surprise_side") == c.side)
        if (
            tw.reach > cw.reach
            and not tw.ranged
            and sees
            and target.marks.get("first_strike_round") != state.round
            # the first strike is his attack of the round (ATTACKING "a single attack per Round"): not when
            # he has attacked already this round (his side acted before the charger's)
            and b.mark(target.id, "last_attack_round") != state.round
            and b.status(target.id) == "active"
            and not b.has(target.id, "immobilized")
        ):
            b.note(f"{target.name}'s longer {tw.label} strikes first!", target.id, rule("charge"))
            b.set_mark(target.id, "first_strike_round", state.round)
            k = len(b.events)
            self._attack(
                b,
                state,
                target,
                mc,
                self._situation(state, target, mc, "attack"),
                dice,
                "attack",
                immediate=True,
            )
            if b.status(c.id) != "active" or b.has(c.id, "knocked-down"):
                return
            if not any(o.side != c.side and b.status(o.id) == "active" for o in state.combatants.values()):
                # the first strike ended the fight (its striker fell to his own fumble, the last of his
                # side): no attack follows whose held effects could never land
                return
            # "get an attack in First": the charger attacks as the first strike left both (a Stun, Wound
            # Markers, a dropped spear...), not as they stood before it
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
        mc = self._with_charge(b, mc)  # a Battle Cry raised with the charge counts on its attack
        self._attack(b, state, mc, target, self._situation(state, mc, target, "charge"), dice, "charge")

    @staticmethod
    def _struck(state: FightState, events: list[ev.Event], moved: Combatant) -> tuple[FightState, Combatant]:
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

    def _do_hurling_charge(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        """COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1": a
        charge at double speed that stops where the throw is possible. It is a charge, so it "may be combined
        with a Battle Cry" (CHARGE RULES): with ``battle_cry`` the cry is raised as he charges and counts on
        the throw. Like every move before an attack it draws the reactions to a move (REACTIONS: Fire from
        Overwatch "after he moves but before he Attacks"; Receive Charge if he charges home next to a spearman
        set for it), and the throw reads what they did."""
        assert target is not None
        if cmd.args.get("battle_cry"):
            self._do_battle_cry(b, state, c, None, cmd, dice)
        path = self._hurl_path(state, c, target)
        self._move(b, state, c, path, "hurling-charge", rule("actions", "hurling-charge"), face_to=target.pos)
        self._charging(b, c)  # he is "Charging": the Charge's Defense -4 is on him (Game master's calls)
        k = len(b.events)
        if self._reactions_to_move(b, state, c, path, dice, charging=True):
            return
        mc = self._with_charge(b, self._moved_copy(b, c))  # with the Battle Cry raised as he charged
        if len(b.events) > k:  # a reaction struck (Fire from Overwatch): the throw reads what it did
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
        if self._dist(mc, target) <= 1:
            self._attack(b, state, mc, target, self._situation(state, mc, target, "attack"), dice, "attack")
            return
        sit = self._situation(state, mc, target, "hurling-charge")
        self._attack(b, state, mc, target, sit, dice, "hurling-charge")
        self._thrown(b, c, sit.weapon or "unarmed")

    def _hurl_path(self, state: FightState, c: Combatant, target: Combatant) -> list[Hex]:
        """A Hurling Charge's move: a charge toward the target that stops at the first hex where the throw
        is possible (2+ spaces away, within Short range)."""
        t = tables()
        reach = int(t.attack.modifiers["range-short"].max_m / t.settings.meters_per_space)
        spaces = self._spaces(state, c, 2.0, True)
        assert target.pos is not None and c.pos is not None
        path = self._path_to(state, c, target.pos, spaces, stop_adjacent=True)
        for i, h in enumerate(path):
            if 2 <= distance(h, target.pos) <= reach:
                return path[: i + 1]
        return path

    def _do_leap_attack(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None and target.pos is not None
        path: list[Hex] = []
        if self._dist(c, target) > 1:
            path = self._path_to(state, c, target.pos, self._dist(c, target), stop_adjacent=True)
            self._move(b, state, c, path, "leap", rule("actions", "leap-attack"), face_to=target.pos)
        b.events.append(ev.Moved(c.id, (), "leap", None, target.altitude, rule("actions", "leap-attack")))
        k = len(b.events)
        if self._reactions_to_move(b, state, c, path or ([c.pos] if c.pos else []), dice, charging=False):
            return
        mc = self._moved_copy(b, c)
        if len(b.events) > k:  # a reaction struck (Fire from Overwatch): the leap reads what it did
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
        self._attack(
            b, state, mc, target, self._situation(state, mc, target, "leap-attack"), dice, "leap-attack"
        )

    def _do_horde(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
        pile: bool = False,
    ) -> None:
        """HORDE ATTACK (and DOG PILE): one combined attack of the actor and the side-mates next to the
        target that have not acted; +1 per 2 attackers. A failed attack scatters them."""
        assert target is not None and target.pos is not None
        taken = set(state.occupied())
        members: list[Combatant] = []
        reacted: list[ev.Event] = []
        walls = self._blocked(state)
        candidates = sorted(self._helpers(state, c, target), key=lambda m: (self._dist(m, target), m.id))
        for m in [c, *candidates]:
            if self._dist(m, target) > 1:
                if all(n in taken or n in walls for n in neighbours(target.pos)):
                    continue  # no room left next to the target
                taken.discard(m.pos)  # type: ignore[arg-type]
                spaces = movement(view(state, m), self._underwater(state))
                path = self._path_to(state, m, target.pos, spaces, True, taken)
                if not path or distance(path[-1], target.pos) > 1:
                    taken.add(m.pos)  # type: ignore[arg-type]
                    break  # the free hexes next to the target are out of reach: stop searching
                taken.add(path[-1])
                b.events.append(ev.Moved(m.id, tuple(path), "close", direction_to(path[-1], target.pos)))
                # each member's move draws the reactions to a move as he makes it (REACTIONS: "after he
                # moves but before he Attacks"): a leader they stop makes no attack and nobody follows him;
                # a member they stop joins none (his move has spent his turn); the attack reads what they did
                j = len(b.events)
                stopped = self._reactions_to_move(b, state, m, path, dice, charging=False)
                reacted += b.events[j:]
                if stopped:
                    if m.id == c.id or not any(
                        o.side != c.side and b.status(o.id) == "active" for o in state.combatants.values()
                    ):
                        return
                    b.events.append(ev.TurnEnded(m.id))
                    continue
                m = m.clone()
                m.pos = path[-1]
            members.append(m)
        if not members or members[0].id != c.id:
            b.note(f"{c.name} cannot reach {target.name}.", c.id, rule("horde-attack"))
            return
        mc = self._moved_copy(b, c)
        if reacted:
            before = state
            state, mc = self._struck(before, reacted, mc)
            members = [self._struck(before, reacted, m)[1] for m in members]
            target = state.combatants[target.id]
        helpers = members[1:]
        n = len(members)
        if n == 1:
            b.note(f"Nobody joins {c.name}: an ordinary attack.", c.id, rule("horde-attack"))
            self._attack(b, state, mc, target, self._situation(state, mc, target, "attack"), dice, "attack")
            return
        rid = rule("dog-pile" if pile else "horde-attack")
        b.note(
            f"{'Dog Pile' if pile else 'Horde Attack'}: "
            + ", ".join(m.name for m in members)
            + f" on {target.name}",
            c.id,
            rid,
        )
        kw = {"dog_pile": n} if pile else {"horde": n}
        lead = max(
            members,
            key=lambda m: (
                m.stats.attack + m.stats.bonus_with(m.marks.get("weapon") or m.stats.weapons[0]),
                m.id,
            ),
        )
        moved = {m.id: m.pos for m in members}
        sit = self._situation(state, lead, target, "attack", moved=moved, **kw)
        r = self._attack(b, state, lead, target, sit, dice, "attack")
        for m in helpers:
            b.events.append(ev.TurnEnded(m.id))
            b.set_mark(m.id, "last_attack_round", state.round)
        if r is not None and r.hit and pile:
            b.set_mark(
                target.id,
                "pile",
                {"members": tuple(m.id for m in members), "bonus": dog_pile_bonus(n)},
                rid,
            )
        elif r is not None and not r.hit:
            b.note("The attack fails: they are scattered.", c.id, rid)
            self._scatter(b, state, members, target)

    def _do_dog_pile(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        self._do_horde(b, state, c, target, cmd, dice, pile=True)

    def _scatter(
        self, b: EventBuilder, state: FightState, members: list[Combatant], centre: Combatant
    ) -> None:
        spaces = tables().settings.horde_scatter_spaces
        taken = set(state.occupied()) | self._blocked(state)
        for m in members:
            if m.pos is None or centre.pos is None:
                continue
            best = None
            for n in neighbours(m.pos):
                if n not in taken and distance(n, centre.pos) > distance(m.pos, centre.pos):
                    best = n
                    break
            if best is not None and spaces:
                taken.add(best)
                b.events.append(ev.Moved(m.id, (best,), "scatter", rule=setting("horde_scatter_spaces")))

    def _do_trample(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        """LARGE CREATURE ATTACKS: movement and attack in one; the target Saves vs Crush (Swift and Dodge)
        and steps aside, or takes the creature's damage roll. Its movement is a move like any other: it draws
        the reactions to a move (REACTIONS: Fire from Overwatch "after he moves but before he Attacks"; the
        trample is not a charge, so no Receive Charge), and the trample reads what they did."""
        assert target is not None and target.pos is not None
        path: list[Hex] = []
        if self._dist(c, target) > 1:
            path = self._path_to(state, c, target.pos, self._spaces(state, c, 1.0), stop_adjacent=True)
            self._move(b, state, c, path, "trample", rule("large-creature-attacks"), face_to=target.pos)
        k = len(b.events)
        if self._reactions_to_move(b, state, c, path, dice, charging=False):
            return
        mc = self._moved_copy(b, c)
        if len(b.events) > k:  # a reaction struck: the trample reads what it did
            state, mc = self._struck(state, b.events[k:], mc)
            target = state.combatants[target.id]
            assert target.pos is not None
        made = save_vs_crush(view(state, target), dice)
        for chk in made.rolls:
            b.events.append(_rolled(target.id, "Save vs Crush", chk))
        b.effects(made.effects)
        b.set_mark(c.id, "last_attack_round", state.round)
        if chk.success:
            free = [
                n
                for n in neighbours(target.pos)
                if n not in state.occupied()
                and n not in self._blocked(state)
                and (mc.pos is None or distance(n, mc.pos) > 1)
            ]
            if free:
                b.events.append(ev.Moved(target.id, (free[0],), "dodge", rule=rule("large-creature-attacks")))
            return
        dr = resolve_damage(
            view(state, mc), view(state, target), self._situation(state, mc, target, "attack"), dice
        )
        if dr.roll is not None:
            b.events.append(_rolled(c.id, "Damage", dr.roll, target.id))
        b.queue(dr.effects)

    # --- other actions
    def _do_disengage(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        t = tables()
        mode = cmd.args.get("mode", "withdrawal")
        if mode == "flee":
            self._flee(
                b,
                state,
                c,
                speed=t.combat.num("disengage", "flee_speed"),
                rid=rule("disengage", "flee"),
                dice=dice,
                fleeing=True,
            )
            return
        rid = rule("disengage", "fighting-withdrawal")
        if target is not None and self._dist(c, target) <= 1 and target.side != c.side:
            self._attack(
                b,
                state,
                c,
                target,
                self._situation(state, c, target, "attack", withdrawal=True),
                dice,
                "attack",
            )
        spaces = self._spaces(state, c, t.combat.num("disengage", "withdrawal_speed"))
        path = self._path_away(state, c, spaces)
        face = target.pos if target is not None else None
        self._move(b, state, c, path, "withdraw", rid, face_to=face)
        b.add_condition(
            c.id,
            "withdrawal",
            None,
            t.combat.num("disengage", "withdrawal_defense"),
            "Fighting Withdrawal",
            rid,
        )
        # his Defense +1 is on him as he moves ("Get Defense +1 while Doing this"): a reaction sees it
        self._reactions_to_move(b, state, c, path, dice, charging=False)

    def _flee(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        speed: float,
        rid: str,
        dice: DiceSource,
        fleeing: bool = False,
    ) -> None:
        """DISENGAGE: Flee ("Move away from Foe at full speed with your back to foe": ``fleeing``) or Rout
        ("Run away from Danger at Swift +2"). Either is a move on his turn, so it draws the reactions to a
        move (REACTIONS: Fire from Overwatch; "Go into Overwatch - ... Attack First after Foe Moves on his
        Turn"), which see his back turned."""
        spaces = self._spaces(state, c, speed)
        path = self._path_away(state, c, spaces)
        self._move(b, state, c, path, "flee", rid)
        if fleeing:
            b.add_condition(c.id, "fleeing", None, 0, "Flee: back to the foe", rule("disengage", "flee"))
        self._reactions_to_move(b, state, c, path, dice, charging=False)

    def _do_hide(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        f = view(state, c)
        mods = [Modifier(f.stats.stealth, "Stealth", rule("actions", "hide"))] if f.stats.stealth else []
        chk = skill_check(tables().settings.hide_check, mods + roll_penalties(f, "check"), dice, "Hide")
        b.events.append(_rolled(c.id, "Hide (Stealth check)", chk))
        if chk.success:
            b.events.append(HiddenSet(c.id, True, rule("actions", "hide")))

    def _do_lookout(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        chk = action_check(view(state, c), "lookout", dice)
        b.events.append(_rolled(c.id, "Lookout", chk))
        if chk.success:
            for o in state.combatants.values():
                if o.side != c.side and o.hidden:
                    b.events.append(HiddenSet(o.id, False, rule("actions", "lookout")))
                    b.note(
                        f"{c.name} spots {o.name} and sounds the warning!", c.id, rule("actions", "lookout")
                    )

    def _do_change_facing(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        facing = int(cmd.args.get("facing", c.facing)) % 6
        b.events.append(ev.Moved(c.id, (), "turn", facing, rule=rule("actions", "change-facing")))

    def _do_stand_up(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        slippery = bool(state.extra.get("map", {}).get("slippery"))
        chk = stand_up(view(state, c), len(self._adjacent_foes(state, c)), dice, slippery)
        b.events.append(_rolled(c.id, "Stand Up", chk))
        if chk.success:
            b.remove_condition(c.id, "knocked-down", "stands up", rule("actions", "stand-up"))

    def _do_pick_up(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        chk = action_check(view(state, c), "pick-up", dice, len(self._adjacent_foes(state, c)))
        b.events.append(_rolled(c.id, "Pick up Dropped Item", chk))
        if chk.success:
            b.set_mark(c.id, "weapon", c.marks["dropped"])
            b.set_mark(c.id, "dropped", None)
            hands, why, hand_rule = hands_left(c)
            if hands < 2 and c.stats.shield != "none" and not c.marks.get("shield_dropped"):
                # one hand left: he takes up the weapon in the hand that held the shield (docs: Game master's
                # calls)
                b.set_mark(c.id, "shield_dropped", True, hand_rule)
                b.note(
                    f"{c.name} {why}: sets the shield aside to take up the {c.marks['dropped']}",
                    c.id,
                    hand_rule,
                )

    def _do_mount(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None and target.pos is not None
        b.events.append(ev.Moved(c.id, (target.pos,), "mount", rule=rule("actions", "mount")))
        b.set_mark(c.id, "mounted_on", target.id)
        b.set_mark(target.id, "ridden_by", c.id)
        if c.stats.skill("ride") < tables().combat.num("mounted", "min_ride"):
            b.note(f"{c.name} rides with Ride below +2: no mounted combat bonuses", c.id, rule("mounted"))

    def _do_dismount(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        mid = c.marks["mounted_on"]
        assert c.pos is not None
        free = [n for n in neighbours(c.pos) if n not in state.occupied() and n not in self._blocked(state)]
        if free:
            b.events.append(ev.Moved(c.id, (free[0],), "dismount", rule=rule("actions", "mount")))
        b.set_mark(c.id, "mounted_on", None)
        b.set_mark(mid, "ridden_by", None)

    def _do_battle_cry(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        """COMBAT ROUND ACTIONS LIST: "Battle Cry - Effects last 1D2 +1 Rounds". Counted as every "N Rounds"
        of the text is (docs/rulesets/sas.md, Durations): raised in round r, it lasts to the end of round r+N
        (N whole rounds after the one it is raised in, which it also covers: a cry raised with a Charge counts
        on the charge's own attack)."""
        a = tables().combat.actions["battle-cry"]
        n = roll_expr(a.duration or "1d2+1", dice, "battle cry")
        b.add_condition(
            c.id,
            "battle-cry",
            state.round + n,
            0,
            f"Battle Cry ({n} rounds)",
            rule("actions", "battle-cry"),
        )

    def _do_cast_spell(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        t = tables()
        spell_id = cmd.args["spell"]
        spell = t.magic.spells[spell_id]
        if not self._spell_check(b, state, c, dice, spell.label, spell_id):
            return
        # Counterspell reaction by a caster of the target's side
        if state.options.get("auto-reactions", True):
            for o in state.on_side(target.side):
                if o.side == c.side or "counterspell" not in o.stats.spells or b.status(o.id) != "active":
                    continue
                if "counterspell" in (b.mark(o.id, "spells_lost") or ()):  # fizzled today (reference 5.1)
                    continue
                if (
                    b.mark(o.id, "reacted_round") == state.round
                    or b.counter(o.id, "pp_used") >= o.stats.power_points  # what this command spent counts
                ):
                    continue
                if self._dist(o, c) > t.settings.spell_range_spaces:
                    continue
                b.set_mark(o.id, "reacted_round", state.round, rule("reactions", "counterspell"))
                cast_total = _last_check_total(b, c.id)
                if self._spell_check(b, state, o, dice, "Counterspell", "counterspell"):
                    if t.settings.counterspell_opposed and _last_check_total(b, o.id) < cast_total:
                        # setting counterspell_opposed: the counter must match the caster's Spell Check
                        b.note(
                            f"{o.name}'s Counterspell is weaker than the {spell.label}.",
                            o.id,
                            setting("counterspell_opposed"),
                        )
                        continue
                    b.note(f"{o.name} counters the {spell.label}!", o.id, rule("reactions", "counterspell"))
                    return
        rid = setting(f"spells.{spell_id}")
        if spell.attack_roll:
            sit = self._situation(state, c, target, "attack", weapon="lightning-bolt", shock=True)
            if self._dist(c, target) <= 1:
                sit = dataclasses.replace(sit, ranged=False)
            self._attack(b, state, c, target, sit, dice, "attack")
            return
        immune = (
            not target.stats.humanoid
            and target.stats.kind == "undead"
            and spell.condition in ("knocked-out", "blinded", "immobilized")
        )
        if immune:
            b.note(f"{target.name} is immune to {spell.label}", c.id, rid)
            return
        if spell.save:
            tf = view(state, target)
            mods = self._save_bonus(target, "spells", *t.saves.spell.get(spell_id, ()))
            if self._save(b, tf, mods + roll_penalties(tf, "save"), dice, f"Save vs {spell.label}"):
                return
        if spell.condition == "knocked-down":
            b.effects(knocked_down(view(state, target), dice, spell.label))
        elif spell.condition:
            rounds = roll_expr(spell.duration, dice, spell.label) if spell.duration else None
            b.effects(
                [
                    Effect(
                        "condition", target.id, name=spell.condition, rounds=rounds, why=spell.label, rule=rid
                    )
                ]
            )

    def _do_rally(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        chk = action_check(view(state, c), "rally", dice)
        b.events.append(_rolled(c.id, "Rally", chk))
        if chk.success:
            for o in state.on_side(c.side):
                if (
                    o.has("routed")
                    and self._dist(o, c) <= tables().settings.rally_range_spaces
                    and o.status == "active"
                ):
                    b.remove_condition(o.id, "routed", "rallied", rule("actions", "rally"))
                    b.set_mark(o.id, "routed_round", None)

    def _do_set_to_receive_charge(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.set_mark(c.id, "set", "receive-charge", rule("actions", "set-to-receive-charge"))

    def _do_overwatch(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.set_mark(c.id, "set", "overwatch", rule("actions", "overwatch"))

    def _do_feint(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        a = tables().combat.actions["feint"]
        b.add_condition(c.id, "feint", None, a.defense, "Feint", rule("actions", "feint"))
        b.set_next(c.id, "attack", a.attack_next, None, rule("actions", "feint"))  # to the next attack

    def _do_defensive_stance(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.add_condition(
            c.id,
            "stance",
            None,
            tables().combat.actions["defensive-stance"].defense,
            "Defensive Stance",
            rule("actions", "defensive-stance"),
        )

    def _do_light_fuse(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.set_mark(c.id, "fuse_lit", True, rule("actions", "light-fuse"))
        b.set_mark(c.id, "weapon", "bomb")

    def _do_apply_poison(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.set_mark(c.id, "poisoned", True, rule("actions", "apply-poison"))

    def _do_rummage(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.note(f"{c.name} rummages for {cmd.args.get('item', 'an item')}.", c.id, rule("actions", "rummage"))

    def _do_quaff(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        b.add_counter(c.id, "potions", -1, "Quaff", rule("actions", "quaff"))
        n = roll_expr(tables().settings.potion_heal, dice, "potion")
        b.effects([Effect("markers", c.id, -n, why="Healing potion", rule=setting("potion_heal"))])
        if b.mark(c.id, "dying_round") is not None and b.counter(c.id, "markers") < c.stats.wound_level:
            b.set_mark(c.id, "dying_round", None)
            if b.status(c.id) == "dying":
                b.set_status(c.id, "active")

    def _do_stop_bleed(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        who = target or c
        b.effects([Effect("stop-bleed", who.id, why="Bandages", rule=rule("actions", "stop-bleed"))])

    def _do_intimidate(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        t = tables()
        f = view(state, c)
        skill = f.stats.skill("intimidate")
        mods = [Modifier(skill, "Intimidate", rule("actions", "intimidate"))] if skill else []
        chk = skill_check(t.settings.intimidate_check, mods + roll_penalties(f, "check"), dice, "Intimidate")
        b.events.append(_rolled(c.id, "Intimidate", chk, target.id))
        if not chk.success:
            return
        tf = view(state, target)
        if not self._save(
            b, tf, self._save_bonus(target, "fear") + roll_penalties(tf, "save"), dice, "Save vs Fear"
        ):
            self._rout(b, state, target)

    def _do_taunt(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        assert target is not None
        f = view(state, c)
        skill = f.stats.skill("taunt")
        mods = [Modifier(skill, "Taunt", rule("actions", "taunt"))] if skill else []
        chk = skill_check(tables().settings.taunt_check, mods + roll_penalties(f, "check"), dice, "Taunt")
        b.events.append(_rolled(c.id, "Taunt", chk, target.id))
        if chk.success:
            b.add_condition(
                target.id, "taunted", state.round + 1, 0, f"taunted by {c.name}", rule("actions", "taunt")
            )
            b.set_mark(target.id, "taunted_by", c.id)

    def _do_break_free(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        pile = c.marks.get("pile")
        bonus = int(pile["bonus"]) if pile else 0
        chk = break_free(view(state, c), bonus, dice)
        b.events.append(_rolled(c.id, "Break Free", chk))
        if not chk.success:
            return
        for name in ("immobilized", "partial-immobilization"):
            b.remove_condition(c.id, name, "broke free", rule("immobilized"))
        if pile:
            members = [state.combatants[m] for m in pile["members"] if m in state.combatants]
            b.note("A successful Break scatters them all!", c.id, rule("dog-pile"))
            self._scatter(b, state, members, c)
            b.set_mark(c.id, "pile", None)

    def _do_nothing(
        self,
        b: EventBuilder,
        state: FightState,
        c: Combatant,
        target: Combatant | None,
        cmd: Command,
        dice: DiceSource,
    ) -> None:
        return

    # ----- tactics, narration, cards ------------------------------------------------------------------
    def tactics(self) -> dict[str, Any]:
        from fracas.rules.sas.tactics import TACTICS

        return dict(TACTICS)

    def card(self, combatant: Combatant) -> dict[str, Any]:
        s = combatant.stats
        return {
            "Wound Markers": f"{combatant.count('markers')} / {s.wound_level}",
            "Attack": s.attack,
            "Damage": s.damage,
            "Defense": s.defense,
            "Dodge": s.dodge,
            "Armor": s.armor,
            "Weapon": combatant.marks.get("weapon"),
            "Hurt": ", ".join(combatant.marks.get("hurt", ())),
            "Broken": ", ".join(combatant.marks.get("broken", ())),
            "Bleeds": combatant.count("bleeds"),
        }

    def attack_modifiers_now(
        self, state: FightState, command: Command
    ) -> tuple[list[Modifier], Situation] | None:
        """The modifiers of the attack roll ``command`` would make now, and its situation (ATTACK TABLE
        MODIFIERS): a closing attack is read from where its move would end, a charge with ``battle_cry``
        with the cry, as the roll is (what reactions to the move would do is not foreseen); None for a
        command that makes no attack roll this can weigh (not an attack, a Trample, no such combatant, a
        closing move that cannot end next to the target, a ranged weapon out of its reach)."""
        if command.action not in ATTACK_ACTIONS or command.action == "trample" or not command.target:
            return None
        c = state.combatants.get(command.actor)
        target = state.combatants.get(command.target)
        if c is None or target is None:
            return None
        if command.args.get("battle_cry") and command.action in _CRY_ACTIONS and not c.has("battle-cry"):
            # CHARGE RULES "may be combined with a Battle Cry": the cry is raised as he charges and counts on
            # the charge's own attack (``_with_charge``); the preview has it too (its length does not matter)
            c = c.clone()
            c.conditions["battle-cry"] = Condition("battle-cry", state.round + 1, 0, "Battle Cry")
        with encounter_settings(state):
            kw: dict[str, Any] = {"weapon": command.args.get("weapon")}
            if command.action in _PREVIEW_MOVES and self._dist(c, target) > 1 and target.pos is not None:
                # the attack is rolled where the move ends (next to the target; a Hurling Charge where the
                # throw becomes possible): read it from there, as the roll does (``_moved_copy``)
                end = self._preview_end(state, c, target, command.action)
                if end is None:
                    return None  # he cannot get there this turn: no attack roll
                c = c.clone()
                c.pos, c.facing = end, direction_to(end, target.pos)
                c.marks["moved_round"] = state.round
            if command.action in ("horde", "dog-pile"):
                n = 1 + len(self._helpers(state, c, target))
                kw["horde" if command.action == "horde" else "dog_pile"] = n
            try:
                sit = self._situation(state, c, target, command.action, **kw)
                if (
                    sit.ranged is False
                    and self._dist(c, target) > 1
                    and tables().weapons[sit.weapon or "unarmed"].ranged
                ):
                    return None
                dfn, _ = _foe_bonus_view(view(state, target), target.marks.get("foe_bonus_used"), c.id)
                return attack_modifiers(view(state, c), dfn, sit), sit
            except IllegalCommand:
                return None

    def _preview_end(self, state: FightState, c: Combatant, target: Combatant, action: str) -> Hex | None:
        """Where ``action``'s move would leave ``c`` before its attack roll (the path the action itself
        takes), or None when that is not next to the target (a Hurling Charge throws from wherever it
        stops)."""
        assert target.pos is not None
        if action == "hurling-charge":  # he throws where the charge stops (where he stands if it cannot go)
            path = self._hurl_path(state, c, target)
            return path[-1] if path else c.pos
        spaces = (
            self._dist(c, target)  # Leap Attack: a pounce from above, as far as its height allows
            if action == "leap-attack"
            else self._closing_reach(state, c, action)
        )
        path = self._path_to(state, c, target.pos, spaces, stop_adjacent=True)
        return path[-1] if path and distance(path[-1], target.pos) <= 1 else None

    def odds(self, state: FightState, command: Command) -> str | None:
        """Exact odds of an attack roll on the ATTACK TABLE (1D20, every face equally likely), with the
        modifiers ``attack_modifiers_now`` finds (a closing attack's from where its move would end)."""
        found = self.attack_modifiers_now(state, command)
        if found is None:
            return None
        mods, sit = found
        c = state.combatants[command.actor]
        target = state.combatants[command.target or ""]
        m = sum(x.value for x in mods)
        faces = range(2, 21)
        hit = sum(1 for f in faces if f + m >= 10) / 20
        crit = sum(1 for f in faces if f + m >= 20) / 20
        fumble = (1 + sum(1 for f in faces if f + m <= 3)) / 20
        brawl = (
            state.options.get("brawl-rule", True)
            and brawl_applies(view(state, c), view(state, target), sit.ranged)
            and command.action not in ("horde", "dog-pile")
        )
        note = "; 50% of melee attacks become Random Brawl Attacks" if brawl else ""
        return f"hit {hit:.0%} (critical {crit:.0%}), fumble {fumble:.0%}, modifiers {m:+d}{note}"

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        if isinstance(event, HiddenSet):
            name = state.combatants[event.target].name
            return f"  {name} {'hides' if event.hidden else 'is seen'}."
        if isinstance(event, ev.ExtraSet | ev.PhaseChanged | ev.Marked):
            return ""
        if isinstance(event, ev.ConditionRemoved) and event.name in TURN_SCOPED:
            return ""
        plain = isinstance(event, ev.ConditionAdded) and event.name not in ("battle-cry", *DEFENSE_CONDITIONS)
        if plain and event.name in tables().conditions.conditions:  # type: ignore[union-attr]
            c = state.combatants[event.target]  # type: ignore[union-attr]
            label = tables().conditions.conditions[event.name].label  # type: ignore[union-attr]
            rnd = event.until_round  # type: ignore[union-attr]
            until = f" until the end of round {rnd}" if rnd is not None else ""
            left = (rnd - state.round) if rnd is not None else 0
            per_minute = tables().settings.rounds_per_minute
            if left >= 60 * per_minute:  # hours: say so (a round is about 10 seconds)
                n = round(left / (60 * per_minute))
                until = f" for about {n} hour{'s' if n != 1 else ''} (to round {rnd})"
            elif left >= 2 * per_minute:
                until = f" for about {round(left / per_minute)} minutes (to round {rnd})"
            verb = "suffers" if label in NOUN_CONDITIONS else "gains" if label in GAINED_CONDITIONS else "is"
            return f"  {c.name} {verb} {label}{until} ({event.source}) [{event.rule}]"  # type: ignore[union-attr]
        if isinstance(event, ev.ConditionAdded) and event.name == "battle-cry":
            c = state.combatants[event.target]
            return f"  {c.name} raises a Battle Cry ({event.source}) [{event.rule}]"
        if isinstance(event, ev.ConditionAdded) and event.name in DEFENSE_CONDITIONS:
            c = state.combatants[event.target]
            return f"  {c.name}: {event.source or event.name}, Defense {event.value:+d} [{event.rule}]"
        if isinstance(event, ev.CounterChanged) and event.counter in ("hits", "pp_used", "burn_markers"):
            return ""
        if isinstance(event, ev.Damaged) and event.counter == "markers":
            c = state.combatants[event.target]
            word = "Wound Marker" + ("s" if event.amount != 1 else "")
            src = f" from {state.combatants[event.source].name}" if event.source in state.combatants else ""
            wl = c.stats.wound_level
            return f"  {c.name} gets {event.amount} {word}{src} (Wound Level {wl}) [{event.rule}]"
        if isinstance(event, ev.CounterChanged) and event.counter == "markers":
            c = state.combatants[event.target]
            word = "Wound Marker" + ("s" if abs(event.delta) != 1 else "")
            sign = "gets" if event.delta > 0 else "loses"
            wl = c.stats.wound_level
            return f"  {c.name} {sign} {abs(event.delta)} {word} (Wound Level {wl}) [{event.rule}]"
        return None


RULESET = SasRuleset()
