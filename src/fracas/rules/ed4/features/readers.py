"""Small readers of a fight the ED4 chapter's rules share (p.382-398): the combat options declared and in
force, race, size and senses, ranks, rider and mount (and the mount's rate for a charge), who stands next
to or in the way of whom, light, terrain and cover, which weapon an attack is made with, and the thrown
weapons lying within reach. Pure: a state in, an answer out; the tactics read them too
(:mod:`fracas.rules.ed4.chapter_tactics`), never the ruleset."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.engine.hexgrid import between, distance
from fracas.rules.ed4 import aerial, ranged, situation
from fracas.rules.ed4 import options as opt

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile

RACE_SENSES = {"dwarf": ("heat-sight",), "troll": ("heat-sight",), "elf": ("low-light-vision",),
               "ork": ("low-light-vision",)}  # fmt: skip
"""Racial senses (ED4 Player's Guide race abilities, named by the text p.387 as Heat Sight p.45 and
Low-Light Vision p.46) [choice: which race has which is not in the combat chapter]."""
ONE_HANDED_LIMIT = {"windling": 1, "troll": 4, "obsidiman": 4}
"""One-handed weapon size limits (reference 2.2, ED1 table; 3 for the other races) [verify for ED4]."""
SURPRISE_RULE = situation.rule("surprised")


def declared(state: FightState, cid: str) -> tuple[str, ...]:
    d = state.declarations.get(cid)
    return tuple(d.get("options", ()) or ()) if d else ()


def in_force(state: FightState, c: Combatant) -> tuple[str, ...]:
    """The declared options that work now: a knocked-down character cannot use any until he stands, Jump
    Up excepted (p.382, p.389); options declared before he fell are suspended while he is down, bonuses
    and penalties alike [choice]; their Strain is paid as declared (per close Attack test, at least 1)
    [choice]."""
    mine = declared(state, c.id)
    if mine and "knocked-down" in c.conditions:
        return tuple(o for o in mine if o == opt.JUMP_UP)
    return mine


def race(c: Combatant) -> str:
    src = getattr(c.stats, "source", None)
    return str(getattr(src, "race", "") or c.marks.get("race", "")).lower()


def size(c: Combatant) -> str:
    src = getattr(c.stats, "source", None)
    return str(getattr(src, "size", "") or "human")


def senses(c: Combatant) -> tuple[str, ...]:
    own = c.marks.get("senses")
    if own is not None:
        return tuple(own)
    return RACE_SENSES.get(race(c).replace("'", ""), ())


def rank(c: Combatant, ability: str) -> int:
    src = getattr(c.stats, "source", None)
    if src is None:
        return 0
    if hasattr(src, "rank"):
        r = int(src.rank(ability))
        if r:
            return r
    return int(getattr(src, "powers", {}).get(ability, 0))


def mount_of(state: FightState, c: Combatant) -> Combatant | None:
    mid = c.marks.get("mount")
    m = state.combatants.get(mid) if mid else None
    return m if m is not None and m.pos == c.pos and m.status not in ("dead", "fled") else None


def rider_of(state: FightState, c: Combatant) -> Combatant | None:
    rid = c.marks.get("rider")
    r = state.combatants.get(rid) if rid else None
    return r if r is not None and r.marks.get("mount") == c.id and r.pos == c.pos else None


_NEIGHBOUR_LIST = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_NEIGHBOUR_STEPS = frozenset(_NEIGHBOUR_LIST)


_GRID_FROM = 24  # above this many combatants, neighbours come from the occupancy index (as in the survey)


def adjacent_enemies(state: FightState, view: Any, c: Combatant) -> list[Combatant]:
    """Active enemies next to ``c`` that can fight in close combat (a rider and his mount count once)."""
    pos = c.pos
    if pos is None:
        return []
    local = view.combatants if view is not None else {}
    q, r = pos
    side = c.side
    out = []
    everyone = state.combatants
    if len(everyone) > _GRID_FROM:
        # a big fight: only who stands on the six hexes around (the occupancy index kept by Moved events),
        # plus whoever the command's own picture has moved; the callers use the list as a set
        at = state.grid().at
        ids: list[str] = []
        for dq, dr in _NEIGHBOUR_LIST:
            there = at.get((q + dq, r + dr))
            if there:
                ids += there
        if local:
            ids += [cid for cid in local if cid not in ids]
        candidates: Iterable[tuple[str, Combatant]] = [(cid, everyone[cid]) for cid in ids]
    else:
        candidates = everyone.items()
    for cid, o in candidates:
        if o.side == side:  # a combatant's side never changes
            continue
        o = local.get(cid, o)  # the command's own picture where it has one (never clones)
        op = o.pos
        if op is None or (op[0] - q, op[1] - r) not in _NEIGHBOUR_STEPS or o.status != "active":
            continue
        conds = o.conditions
        if "knocked-down" in conds or "surprised" in conds:
            continue
        if o.altitude != c.altitude and not aerial.in_close_reach(o.altitude, c.altitude):
            continue  # a flier overhead is out of close reach (p.391, p.398): he neither harries nor engages
        if not any(a.close for a in o.stats.attacks):
            continue
        if o.marks.get("rider") and rider_of(state, o) is not None:
            continue  # rider and mount fight as one opponent [choice]
        out.append(o)
    return out


_CUBE_DIRS = tuple((dq, -dq - dr, dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)))


def direction(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The hex direction (0..5, as hexgrid.DIRECTIONS) pointing most nearly from ``a`` to ``b`` (cube dot
    product; the same as hexgrid.direction_to for neighbours, cheaper)."""
    dq = b[0] - a[0]
    dr = b[1] - a[1]
    ds = -dq - dr
    best, best_v = 0, None
    for i, (x, y, z) in enumerate(_CUBE_DIRS):
        v = dq * x + ds * y + dr * z
        if best_v is None or v > best_v:
            best, best_v = i, v
    return best


def lighting(state: FightState) -> str:
    return str(state.extra.get("map", {}).get("light", "bright"))


def impaired(state: FightState, c: Combatant) -> str | None:
    m = state.extra.get("map", {}).get("impaired")
    if isinstance(m, str):
        return m
    if isinstance(m, dict) and c.pos is not None:
        for level in ("heavy", "light"):
            if any(tuple(h) == c.pos for h in m.get(level, ())):
                return level
    return None


def cover(state: FightState, c: Combatant) -> str | None:
    mp = state.extra.get("map", {})
    if c.pos is None:
        return None
    if any(tuple(h) == c.pos for h in mp.get("full_cover", ())):
        return "full"
    if any(tuple(h) == c.pos for h in mp.get("cover", ())):
        return "partial"
    return None


def weapon_of(attack_name: str) -> str:
    """The weapon an attack is made with: ``Spear (thrown)`` and ``Spear`` are one spear."""
    return attack_name.removesuffix(" (thrown)")


def intervening(state: FightState, me: Combatant, t: Combatant) -> list[Combatant]:
    """Characters standing between attacker and target on the line of fire, closest first (p.392)."""
    if me.pos is None or t.pos is None:
        return []
    cells = between(me.pos, t.pos)
    if not cells:
        return []
    cs = state.combatants
    mid, tid, alt = me.id, t.id, t.altitude

    def in_the_way(c: Combatant) -> bool:
        return (
            c.status in ("active", "unconscious")
            and c.id != mid
            and c.id != tid
            and abs(c.altitude - alt) <= 2
            and (not c.marks.get("mount") or mount_of(state, c) is None)
        )

    if len(cs) > _GRID_FROM and len(cells) < len(cs) and not state.grid().unplaced:
        # a big fight: only who stands on the cells of the line (the occupancy index kept by Moved
        # events); where two in the way share a hex, the later in the roster is the one found, as the
        # scan below finds it
        at = state.grid().at
        out = []
        for h in cells:
            there = [cs[cid] for cid in at.get(h, ()) if cs[cid].pos == h and in_the_way(cs[cid])]
            if len(there) > 1:
                rank = state.grid().rank
                there.sort(key=lambda c: rank[c.id])
            if there:
                out.append(there[-1])
        return out
    where: dict[tuple[int, int], Combatant] = {}
    for c in cs.values():
        if c.pos is not None and in_the_way(c):
            where[c.pos] = c
    return [where[h] for h in cells if h in where]


def entangling(me: Combatant, a: AttackProfile) -> bool:
    src = getattr(me.stats, "source", None)
    for x in getattr(src, "attacks", ()) or ():
        if getattr(x, "name", None) == a.name:
            return bool(getattr(x, "entangling", False))
    return False


def weapon_key(me: Combatant, a: AttackProfile) -> str | None:
    """The weapons.toml key of the weapon an attack is made with (None for a creature's own attack)."""
    src = getattr(me.stats, "source", None)
    for x in getattr(src, "attacks", ()) or ():
        if getattr(x, "name", None) == a.name:
            return getattr(x, "weapon", None)
    return None


def held_weapon(t: Combatant) -> tuple[str | None, bool]:
    """The weapon a Called Shot at a held item strikes (p.384): the target's first melee weapon still in
    hand; whether it is held in two hands (+3 to keep it): two-handed in the data, or bigger than the
    race's one-handed Size limit (3 for most races [verify])."""
    away = set(t.marks.get("lost_weapons") or ()) | set(t.marks.get("thrown_away") or ())
    a = next((x for x in t.stats.attacks if x.kind == "melee" and x.name not in away), None)
    if a is None:
        return None, False
    src = getattr(t.stats, "source", None)
    two = any(
        getattr(x, "name", None) == a.name and getattr(x, "two_handed", False)
        for x in getattr(src, "attacks", ()) or ()
    )
    return a.name, two or a.size > ONE_HANDED_LIMIT.get(race(t), 3)


def mount_rate(m: Combatant) -> int:
    """The mount's Movement Rate in yards for a charge: its Flying Movement rate while it flies (flying
    charging attacks follow the same rules, p.398), else its Movement Rate (p.396)."""
    if m.altitude > 0 or m.marks.get("flying"):
        fly = getattr(getattr(m.stats, "source", None), "flying_movement", None)
        if fly:
            return int(fly)
    return int(m.stats.movement)


def lying_in_reach(me: Combatant, state: FightState | None = None) -> list[str]:
    """The thrown weapons of ``me`` lying within reach, nearest first (:func:`.ranged.can_pick_up`)."""
    lying = me.marks.get("thrown_to") or {}
    out = []
    holding = _entangling_now(me, state) if state is not None else set()
    for w, at in lying.items():
        if w in holding:
            continue  # a net still wrapped round someone is not lying free
        h = tuple(at) if at is not None else None
        if ranged.can_pick_up(me.pos, h):  # type: ignore[arg-type]
            out.append((distance(me.pos, h) if me.pos is not None and h is not None else 0, w))
    return [w for _, w in sorted(out)]


def _entangling_now(me: Combatant, state: FightState) -> set[str]:
    """The weapons of ``me`` entangling someone now (p.391)."""
    return {
        weapon_of(str(c.marks["entangled_by"][1]))
        for c in state.combatants.values()
        if "entangled" in c.conditions and c.marks.get("entangled_by") and c.marks["entangled_by"][0] == me.id
    }
