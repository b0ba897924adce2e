"""ED4 melee with any number of combatants on the hex grid, as a compiled batch kernel (numba).

One fight per loop iteration, in scalar code over small arrays (:mod:`fracas.sim.kernels.ed4_group_core`):
positions, facing, Current Damage, Wounds, knocked down, Karma, Recovery tests, status. It mirrors, for an
encounter it accepts, what the reference engine does with the ``ed4`` ruleset (the whole chapter, or the core
alone) and the ``default`` tactic (``fracas.rules.ed4.tactics.Ed4Tactic``):

- each round, a Recovery test for a character unconscious for 10 rounds (p.380); Initiative tests (less
  Wounds with ``wound-penalties``, -3 knocked down with the chapter; below step 1 acts last; group Initiative
  for identical creatures of a side; ``take-the-initiative``), the acting order by result, player
  characters, Initiative step, Dexterity, id (p.371-372);
- on its turn: a knocked-down combatant stands up and moves toward the nearest enemy (p.389); a character
  the next average hit of an enemy within 2 hexes could kill runs away and escapes if no enemy could reach
  him with a doubled move; a Namegiver with no enemy next to it revives an unconscious friend next to it
  (Recovery test, p.380; not one whose Recovery test, revived or after the minute, left him unconscious:
  he waits an hour); otherwise it moves (up to its Movement) next to the nearest enemy (or one of the
  five nearest others it can reach) and makes its Standard-action attack(s) with the attack and Karma the
  tactic picks, or runs toward the nearest enemy;
- an attack: Attack test against the Defense (knocked down -3; with the chapter Harried -2 by four or more
  close combat attackers, p.388, and Blindsided -2 from the rear arc of a defender who is engaged or
  Harried, p.386-387), Rule of One, extra successes (+2 damage steps each against Physical Defense),
  Damage test less Wounds, Armor, Wound, death, unconsciousness, Knockdown test (Harried applies); then the
  attacker faces its target and a defender with no other foe next to it turns to face the attacker;
- with the chapter, Stun damage (Attacking to Stun from the encounter file's ``combat_options``),
  entangling weapons and breaking free, thrown weapons gone after the throw and fetched
  (:mod:`fracas.sim.kernels.ed4_group_entangle`);
- the fight ends as soon as at most one side has anyone active; a draw at the round limit.

Riders and mounts (p.394-398; ed4_group_core's last section, the checks in ed4_group_mounted): a rider
on his mount's hex moves at its Movement and takes it along, a run uses its Standard action; a trained
mount with its rider acts right after him on his Initiative; a ridden mount under the ``mount`` tactic
kicks an adjacent enemy (chapter_tactics.MountTactic), unridden it fights as ``default``; rider and
mount count once among close combat foes and the rider is not in the way of shots; a ridden mount knocked
down throws its rider, a rider knocked down falls off (onto the first free hex round him, knocked down,
Step 5 damage).

A charging attack (``Charge (mounted)`` of the ork scorcher) is never made on foot under the chapter
(features.attack.validate_attack refuses it: only a mounted rider's ``charge`` makes it, p.396), so the
kernel leaves it out of the attacks the tactic weighs; the core rules alone take it as any attack.

On the map and in the dark (:mod:`fracas.sim.kernels.ed4_group_senses`): nobody enters a hex the map
blocks; partial cover, full cover; darkness and the senses (sight-based tests, Blindsided); hidden
combatants, unseen by the other sides' tactics until they attack or were noticed, and Surprise.

The ``veteran`` tactic on foot (whole chapter): its combat options, Jump Up and their Strain
(:mod:`fracas.sim.kernels.ed4_group_options`).

Anything else makes the builder refuse the encounter with the reason (:func:`build`): a charging rider
(the ``veteran``'s), other tactics, other declared combat options (and any with a veteran), what
ed4_group_entangle names, flying (a flying veteran too) combatants, riders the kernel does not
model (ed4_group_mounted.obstacles), impaired hexes, optional rules it does not know, and
modifier providers it does not mirror. tests/sim/test_sim_ed4_group.py checks kernel and engine against
each other, outcome by outcome.
"""

from __future__ import annotations

import contextlib
import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.roll import MAX_EXPLOSIONS
from fracas.dice.steps import MAX_STEP, step_table
from fracas.rules.earthdawn.battle_map import covered_yards, hexes
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

# Modifier providers, by function name: mirrored, or silent in every encounter the builder accepts (no
# declared options but Attacking to Stun, which has no modifier; no grappling, mounts, flight, spells).
_KNOWN_STEP = {
    "_wound_penalty",  # mirrored
    "_knocked_down_tests",  # mirrored where it applies (a knocked-down combatant only stands up)
    "_harried_tests",  # the core's, which the chapter replaces (Stun damage under the core alone is refused)
    "_long_range",  # mirrored: -2 beyond short range
    "_p_options_tests",
    "_p_harried_tests",  # mirrored: four or more attackers
    "_p_sight",  # mirrored: darkness (ed4_group_senses)
    "_p_improvised",
    "_p_long_weapon",
    "_p_charge_damage",
    "_p_flame_weapon",
    "_p_knocked_down_initiative",  # mirrored
}
_KNOWN_DEFENSE = {
    "_knocked_down_defense",  # mirrored
    "_harried_defense",  # the core's: silent
    "_unconscious_defense",  # the tactic attacks active foes only: silent
    "_p_options_defense",
    "_p_harried_defense",  # mirrored
    "_p_blindsided",  # mirrored
    "_p_cover",  # mirrored (ed4_group_senses)
    "_p_surprised",  # mirrored (ed4_group_senses)
    "_p_into_close",  # mirrored: +1 Defense per character in the way
}
_KNOWN_DN = {"_reserved_dn", "_p_grappled_dn"}  # mirrored (a reserved action, p.375); silent
_KNOWN_ARMOR = {"_p_armor_reduced"}
_CHAPTER_ONLY = {"_p_harried_tests", "_p_harried_defense", "_p_blindsided", "_p_knocked_down_initiative"}
_ATTACK_RESOLVERS = {"EarthdawnAttack._r_attack", "wrap_action.<locals>.resolve"}
_OPTIONS = {"take-the-initiative", "group-initiative", "wound-penalties"}
_OFF_OPTIONS = {"long-falls"}
# ed4_group_core.T_DEFAULT, ...; ``mount`` is the default tactic's but for a ridden mount (MTAC)
_TACTICS = {"default": 0, "guard": 1, "sentinel": 1, "veteran": 2, "mount": 0}
_MARKS = {"senses", "race"}  # the senses in the dark (ed4_group_senses)
_TERRAIN = ("blocked", "light", "cover", "full_cover")  # the map's features modelled (ed4_group_senses)
MAX_N = 1000


def charging_only(a: Any) -> bool:
    """An attack the ``attack`` command refuses (features.attack.validate_attack, p.396): a charging
    attack, made only by the ``charge`` command of a mounted rider."""
    return bool(a.name.lower().startswith("charge"))


def usable_attacks(p: Any, chapter: bool = True) -> list[Any]:
    """The attacks the tactic's plans can make (``Ed4Tactic._plan`` validates each and takes the first
    legal one): under the ED4 chapter (``chapter``) every attack but the charging ones
    (:func:`charging_only`), which a combatant on foot never makes; the core rules know no charge and
    take them as any attack. What an enemy fears from them (``in_danger``) counts them all."""
    return [a for a in p.attacks if not (chapter and charging_only(a))]


def _names(providers: list[Any]) -> set[str]:
    return {getattr(p, "__name__", repr(p)) for p in providers}


def _check_ruleset(ruleset: Any) -> bool:
    """Refuses a ruleset whose modifiers, attack or default tactic the kernel does not mirror; True when
    the ED4 chapter's Harried and Blindsided providers are installed."""
    try:
        from fracas.rules.earthdawn.ruleset import EarthdawnRuleset
        from fracas.rules.ed4.tactics import Ed4Tactic
    except ImportError as exc:  # pragma: no cover - the ruleset is not there
        raise Unsupported(f"the ED4 ruleset is missing: {exc}") from None
    if not isinstance(ruleset, EarthdawnRuleset) or getattr(ruleset, "id", "") != "ed4":
        raise Unsupported("not the ED4 Earthdawn round")
    steps = set().union(*(_names(v) for v in ruleset.step_providers.values()))
    defense = _names(ruleset.defense_providers)
    unknown = sorted(steps - _KNOWN_STEP)
    unknown += sorted(defense - _KNOWN_DEFENSE)
    unknown += sorted(_names(ruleset.dn_providers) - _KNOWN_DN)
    unknown += sorted(_names(ruleset.armor_providers) - _KNOWN_ARMOR)
    if unknown:
        raise Unsupported(f"modifiers the kernel does not mirror: {', '.join(unknown)}")
    attack = ruleset.actions.get("attack")
    if attack is None or getattr(attack.resolve, "__qualname__", "") not in _ATTACK_RESOLVERS:
        raise Unsupported("the attack action is not one the kernel mirrors")
    tactic = ruleset.tactics().get("default")
    # the chapter may wrap every tactic (ChapterAware): the kernel mirrors what it adds for Attacking to Stun,
    # the entangled and a thrower without a weapon (chapter_act); the builder refuses the rest
    if type(tactic).__name__ == "ChapterAware":
        tactic = getattr(tactic, "inner", None)
    if type(tactic) is not Ed4Tactic:
        raise Unsupported("the default tactic is not the one the kernel mirrors")
    chapter = bool(_CHAPTER_ONLY & (steps | defense))
    if chapter and not (steps | defense) >= _CHAPTER_ONLY:
        raise Unsupported("only part of the ED4 chapter's Harried/Blindsided providers is installed")
    return chapter


def _check_tactics(ruleset: Any, used: set[str]) -> None:
    """Refuses a ``guard`` or ``sentinel`` tactic that is not the one the kernel mirrors
    (tactics.GuardTactic; chapter_tactics.SentinelTactic is it under another name; ed4_group_core._choose)."""
    from fracas.rules.ed4.tactics import Ed4Tactic, GuardTactic
    from fracas.sim.kernels.ed4_group_mounted import check_tactic

    check_tactic(ruleset, used)  # ``mount``
    tactics = ruleset.tactics()
    if "veteran" in used:
        _check_veteran(ruleset)
    for name in sorted(used - {"default", "veteran", "mount"}):
        t = tactics.get(name)
        if type(t).__name__ == "ChapterAware":  # nothing to add without options, grappling, thrown weapons
            t = getattr(t, "inner", None)
        cls = type(t)
        if not (
            isinstance(t, GuardTactic)
            and cls.act is GuardTactic.act
            and cls.react is Ed4Tactic.react
            and cls.attack_plan is Ed4Tactic.attack_plan
            and cls.choose is Ed4Tactic.choose
        ):
            raise Unsupported(f"the {name} tactic is not the guard tactic the kernel mirrors")


def _check_veteran(ruleset: Any) -> None:
    """Refuses a ``veteran`` tactic other than the chapter's (chapter_tactics.VeteranTactic, mirrored by
    ed4_group_options): the core rules alone have neither it nor combat options."""
    from fracas.rules.ed4.chapter_tactics import VeteranTactic
    from fracas.rules.ed4.ruleset import Ed4Ruleset

    t = ruleset.tactics().get("veteran")
    if not isinstance(ruleset, Ed4Ruleset) or type(getattr(t, "inner", t)) is not VeteranTactic:
        raise Unsupported("tactic veteran: not the chapter's veteran tactic the kernel mirrors")


def _obstacles(ruleset: Any, state: FightState) -> list[str]:
    """Every feature of the encounter the kernel does not model, one short phrase each naming the
    combatants concerned (empty when it models them all): what ``fracas sim`` prints as the reason."""
    from fracas.sim.kernels.ed4_melee import options_and_map_obstacles

    out = options_and_map_obstacles(state, _OPTIONS, _OFF_OPTIONS, _TERRAIN)
    if state.phase != "start" or state.declarations or state.round:
        out.append("a fight already started")
    if len(state.sides) < 2:
        out.append("fewer than two sides")
    if len(state.combatants) > MAX_N:
        out.append(f"more than {MAX_N} combatants")
    from fracas.rules.ed4.ruleset import Ed4Ruleset

    from .ed4_group_entangle import obstacles as entangle_obstacles

    chapter = isinstance(ruleset, Ed4Ruleset)  # the chapter's nets, Stun, thrown weapons
    found: dict[str, list[str]] = {}

    def note(what: str, who: str) -> None:
        found.setdefault(what, []).append(who)

    from fracas.sim.kernels.ed4_group_mounted import obstacles as riding_obstacles

    for feature, cid in riding_obstacles(ruleset, state):
        note(feature, cid)
    taken: set[tuple[int, int]] = set()
    for c in state.combatants.values():
        # ``mount``: a ridden mount's own (ed4_group_core.mount_choice), else the default tactic's
        if c.tactic not in _TACTICS:
            note(f"tactic {c.tactic} (not default, guard, sentinel, veteran or mount)", c.id)
        if c.tactic == "veteran" and c.marks.get("combat_options"):
            # declare_standing merges the file's options with the tactic's: not mirrored
            note("a veteran with combat options from the file", c.id)
        if c.altitude or c.marks.get("flying"):
            note("flying", c.id)
        entangle_obstacles(c, chapter, note)
        other = set(c.marks) - _MARKS - {"flying", "mount", "rider", "training", "familiar", "combat_options"}
        if other:
            note(f"marked {', '.join(sorted(other))}", c.id)
        if c.status != "active" or c.conditions:
            note("not active and unhurt at the start", c.id)
        if any(c.counters.get(k, 0) for k in ("damage", "wounds", "stun", "strain", "recovery_used")):
            note("starts hurt or with Recovery tests used", c.id)
        if c.pos is None:
            note("no position", c.id)
        elif c.pos in taken and not (c.marks.get("mount") or c.marks.get("rider")):  # rider and mount
            note("shares a hex", c.id)
        else:
            taken.add(c.pos)
        p = c.stats
        if p.kind not in ("character", "creature"):
            note(f"kind {p.kind}", c.id)
        if not usable_attacks(p, chapter):
            note("no attack" if not p.attacks else "no attack but charging ones", c.id)
        for a in p.attacks:
            if not a.close and a.kind not in ("missile", "thrown", "spell"):
                note(f"{a.kind} attacks", f"{c.id}: {a.name}")
            # a rider under the default tactic never charges (the veteran's charge does)
            if charging_only(a) and c.marks.get("mount") and c.tactic != "default":
                note("charging attacks", f"{c.id}: {a.name}")
        if p.initiative_step > 200 or p.dexterity > 255 or p.dexterity < 0:
            note("Initiative step or Dexterity out of the kernel's range", c.id)
    for what, who in found.items():
        # the same feature of many combatants: the first two named, and how many more
        names = ", ".join(who[:2]) + (f" and {len(who) - 2} more" if len(who) > 2 else "")
        out.append(f"{what}: {names}")
    return out


def _check_state(ruleset: Any, state: FightState) -> None:
    found = _obstacles(ruleset, state)
    if found:
        raise Unsupported("; ".join(found))


# ----- exact test outcomes ----------------------------------------------------------------------------------

_TAIL = 1e-18  # exploding dice are followed until a level's chance is below this


def _die_pmf(sides: int) -> np.ndarray:
    """P(total of one exploding die = v), v = 0, 1, ... (reference 1.4: every die explodes on its top
    face)."""
    p = 1.0 / sides
    levels = 1
    while p**levels > _TAIL and levels <= MAX_EXPLOSIONS:
        levels += 1
    out = np.zeros(levels * sides + 1)
    w = p
    for k in range(levels):
        out[k * sides + 1 : k * sides + sides] = w  # faces 1..sides-1 after k explosions
        w *= p
    return out


@lru_cache(maxsize=4096)
def step_outcomes(dice: tuple[int, ...], modifier: int, floor: int, min_ones: int) -> tuple[np.ndarray, ...]:
    """Outcomes of a step test (its dice, every one exploding): values ``total * 2 + rule_of_one`` and their
    probabilities. The Rule of One (every die's first face a 1, at least ``min_ones`` dice) is kept apart
    from the total it shows (reference 1.4); totals below ``floor`` count as ``floor``."""
    pmf = np.array([1.0])
    for sides in dice:
        pmf = np.convolve(pmf, _die_pmf(sides))
    totals = np.maximum(np.arange(pmf.size) + modifier, floor)
    vals = totals * 2
    probs = pmf.copy()
    extra_v: list[int] = []
    extra_p: list[float] = []
    if len(dice) >= min_ones:
        p1 = math.prod(1.0 / s for s in dice)
        n = len(dice)  # the only way to total n is every die showing 1
        probs[n] = 0.0
        extra_v.append(int(max(n + modifier, floor)) * 2 + 1)
        extra_p.append(p1)
    vals = np.concatenate([vals, np.array(extra_v, dtype=np.int64)])
    probs = np.concatenate([probs, np.array(extra_p)])
    keep = probs > 0
    vals, probs = vals[keep], probs[keep]
    # merge equal values (the floor folds several totals into one)
    uv, inv = np.unique(vals, return_inverse=True)
    up = np.bincount(inv, weights=probs)
    return uv.astype(np.int64), up / up.sum()


def _alias(values: np.ndarray, probs: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Walker's alias table of an outcome distribution on the fewest power-of-two cells that hold it."""
    from .ed4_group_core import alias_table

    bits = max(1, int(values.size - 1).bit_length())
    keep, own, alias = alias_table(values.astype(np.int64), probs.astype(np.float64), bits)
    return bits, keep, own, alias


@lru_cache(maxsize=64)
def _tables(
    edition: str, floor: int, min_ones: int, karma_steps: tuple[int, ...], xsd: int
) -> tuple[Any, ...]:
    """Alias tables of every step 1..MAX_STEP (rows 1..100; row 0 unused), then for each Karma step the
    steps 1..``xsd`` with that Karma die added (row base ``KROW``); the cells interleaved as the kernel reads
    them (ed4_group_core.interleave), and the own values and aliases apart."""
    table = step_table(edition)
    rows: list[tuple[tuple[int, ...], int] | None] = [None]
    rows += [(table[s].dice, table[s].modifier) for s in range(1, MAX_STEP + 1)]
    kbase = {}
    for ks in karma_steps:
        kbase[ks] = len(rows) - 1  # row = base + step
        kd = table[ks]
        rows += [(table[s].dice + kd.dice, table[s].modifier + kd.modifier) for s in range(1, xsd + 1)]
    off = np.zeros(len(rows), dtype=np.int64)
    bits = np.zeros(len(rows), dtype=np.int64)
    keeps, owns, aliases = [], [], []
    pos = 0
    for r, spec in enumerate(rows):
        if spec is None:
            spec = ((4,), 0)
        vals, probs = step_outcomes(tuple(spec[0]), int(spec[1]), floor, min_ones)
        b, keep, own, alias = _alias(vals, probs)
        off[r] = pos
        bits[r] = b
        keeps.append(keep)
        owns.append(own)
        aliases.append(alias)
        pos += keep.size
    from .ed4_group_core import interleave

    own, alias = np.concatenate(owns), np.concatenate(aliases)
    return (off, bits, interleave(np.concatenate(keeps), own, alias), own, alias, kbase)


# ----- the kernel -------------------------------------------------------------------------------------------


class Ed4GroupKernel:
    """N against N (any sides) ED4 close combat on the hex grid; see the module docstring."""

    name = "ed4-group"

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        from fracas.rules.earthdawn.actions import can_rouse
        from fracas.rules.ed4 import situation
        from fracas.rules.ed4.options import jump_up_dn
        from fracas.rules.ed4.tactics import KARMA_GAIN, _defense, mean_step, p_hit

        from . import ed4_group_core as core
        from . import ed4_group_options as vet
        from . import ed4_group_senses as senses

        chapter = _check_ruleset(ruleset)
        _check_state(ruleset, state)
        _check_tactics(ruleset, {c.tactic for c in state.combatants.values()})
        from fracas.rules.ed4.ruleset import Ed4Ruleset

        refuses = isinstance(ruleset, Ed4Ruleset)  # the chapter refuses charging attacks on foot
        self.chapter = chapter
        ruleset.pending(state)  # the ED4 chapter reads Movement with the state it last saw
        edition = ruleset.edition  # type: ignore[attr-defined]
        cs = list(state.combatants.values())
        n = len(cs)
        self.ids = tuple(c.id for c in cs)
        self.sides = tuple(state.sides)
        self.max_rounds = int(state.max_rounds)
        # fights per chunk: a few tenths of a second of work (so two cores share 20,000 fights of 8)
        self.chunk = int(min(10_000, max(500, 100_000 // n)))
        opts = state.options
        # classes: combatants with equal profiles share the tactic's tables
        profiles: list[Any] = []
        cls_of = []
        for c in cs:
            try:
                k = profiles.index(c.stats)
            except ValueError:
                k = len(profiles)
                profiles.append(c.stats)
            cls_of.append(k)
        rank = {cid: i for i, cid in enumerate(sorted(self.ids))}
        groups: dict[tuple[str, str], int] = {}
        karma_steps = sorted({c.stats.karma_step for c in cs if c.counters.get("karma", 0) > 0})
        xsd = max(a.step for c in cs for a in c.stats.attacks)
        if any(c.tactic == "veteran" for c in cs):
            xsd += vet.AGGR_STEP  # Aggressive Attack raises an Attack test with Karma above every base step
        off, bits, keep, own, alias, kbase = _tables(
            edition.steps, edition.result_floor, edition.rule_of_one_min_dice, tuple(karma_steps), xsd
        )
        # the kernel reads the cells interleaved (``keep``, ed4_group_core._draw); own and alias stay for the
        # record
        self._tabs = (off, (64 - bits).astype(np.uint64), keep, own, alias)
        na = max(len(c.stats.attacks) for c in cs)
        cst = np.zeros((n, core.NCOL), dtype=np.int64)
        att = np.zeros((n, na, core.NATTCOL), dtype=np.int64)
        big = core.IMMUNE
        from .ed4_group_entangle import fill as entangle_fill

        for i, c in enumerate(cs):
            p = c.stats
            row = cst[i]
            row[core.SIDE] = self.sides.index(c.side)
            row[core.PLAYER] = 1 if c.player else 0
            if c.template and not c.player:
                row[core.GROUP] = groups.setdefault((c.side, c.template), len(groups))
            else:
                row[core.GROUP] = -1
            row[core.INIT] = p.initiative_step
            row[core.DEX] = p.dexterity
            row[core.RANK] = rank[c.id]
            row[core.PD], row[core.MD], row[core.SD] = p.physical_defense, p.mystic_defense, p.social_defense
            row[core.PARM], row[core.MARM] = p.physical_armor, p.mystic_armor
            row[core.WT] = p.wound_threshold
            row[core.UNC] = p.unconsciousness if p.unconsciousness is not None else big
            row[core.DEATH] = p.death
            row[core.KD] = p.knockdown_step
            row[core.KARMA0] = c.counters.get("karma", 0)
            row[core.KROW] = kbase.get(p.karma_step, 0)
            row[core.ACTIONS] = p.actions
            mv = ruleset.movement_hexes(state, c)  # type: ignore[attr-defined]
            row[core.MV] = hexes(p.movement) if c.marks.get("mount") else mv  # a rider's own (fill)
            if row[core.MV] != hexes(p.movement):
                raise Unsupported(f"{c.id}: a Movement the kernel does not mirror")
            row[core.CHAR] = 1 if p.kind == "character" else 0
            row[core.ROUSE] = 1 if can_rouse(c) else 0
            row[core.RECT] = p.recovery_tests
            row[core.RECSTEP] = min(max(p.recovery_step, 1), MAX_STEP)
            row[core.Q0], row[core.R0] = c.pos
            row[core.FACE0] = c.facing
            row[core.CLS] = cls_of[i]
            row[core.NATT] = len(usable_attacks(p, refuses))
            row[core.IKEY] = core.init_key(bool(c.player), p.initiative_step, p.dexterity, rank[c.id])
            row[core.TACTIC] = _TACTICS[c.tactic]
            row[core.JSTEP] = vet.jump_up_step(p)
            row[core.VLEFT] = p.unconsciousness or p.death  # VeteranTactic.options' "left"
            cst[rank[c.id], core.BYRANK] = i
            usable = usable_attacks(p, refuses)
            for ai, a in enumerate(usable):
                att[i, ai, : core.A_SPELL + 1] = (
                    a.step,
                    a.damage,
                    {"physical": 0, "mystic": 1}.get(a.against, 2),
                    {"none": 0, "physical": 1}.get(a.armor, 2),
                    1 if a.close else 0,
                    # the ranges as the yards of the whole hexes they cover (p.372, battle_map)
                    covered_yards(a.short) if a.short is not None else -1,
                    covered_yards(a.long) if (a.long is not None and not a.close) else -1,
                    # the minimum as the least yards a shot may be (beyond the hexes the minimum covers)
                    covered_yards(a.minimum) + 1 if a.minimum else 0,
                    1 if a.kind == "spell" else 0,
                )
            entangle_fill(c, usable, chapter, row, att[i], core)
        # the tactic's tables (tactics.Ed4Tactic.attack_plan, expected_damage, in_danger), by class
        ncls = len(profiles)
        wmax = max(max(a.step, a.damage) for p in profiles for a in p.attacks) + 1
        # the order by target knocked down (+1) and attacker knocked down (+2, a reserved action's only)
        pref = np.full((ncls, ncls, wmax + 1, 4, na), -1, dtype=np.int64)
        kuse = np.zeros((ncls, na, ncls, wmax + 1), dtype=np.bool_)
        flee = np.full((ncls, ncls), big, dtype=np.int64)
        for ci, me in enumerate(profiles):
            for cj, tp in enumerate(profiles):
                for w in range(wmax + 1):
                    for d in range(4):
                        scored = []
                        for ai, a in enumerate(usable_attacks(me, refuses)):
                            dn = _defense(tp, a.against) - (3 if d & 1 else 0)
                            ph = p_hit(a.step - w - (3 if d & 2 else 0), dn, 0)
                            armor = (
                                0
                                if a.armor == "none"
                                else tp.physical_armor
                                if a.armor == "physical"
                                else tp.mystic_armor
                            )
                            scored.append((-(ph * max(0.5, mean_step(a.damage - w) - armor)), ai))
                        scored.sort()
                        order = [ai for _, ai in scored]
                        pref[ci, cj, w, d, : len(order)] = order
                    for ai, a in enumerate(usable_attacks(me, refuses)):
                        if a.karma:
                            dn = _defense(tp, a.against)
                            gain = p_hit(a.step - w, dn, me.karma_step) - p_hit(a.step - w, dn)
                            kuse[ci, ai, cj, w] = gain >= KARMA_GAIN
                if me.kind == "character":
                    worst = max(mean_step(a.damage) - me.physical_armor for a in tp.attacks)
                    if worst > 0:
                        d = 0
                        while not (d + worst >= me.death):
                            d += 1
                        flee[ci, cj] = d
        vt = vet.veteran_tables(profiles, wmax)
        from .ed4_group_mounted import fill

        try:
            riders = fill(state, cs, cst, att, lambda p: usable_attacks(p, refuses), ruleset)
        except ValueError as exc:
            raise Unsupported(str(exc)) from None
        har = situation.table()["harried"]
        flags = np.zeros(core.NFLAG, dtype=np.int64)
        flags[core.F_WP] = 1 if opts.get("wound-penalties", True) else 0
        flags[core.F_TAKE] = 1 if opts.get("take-the-initiative", False) else 0
        flags[core.F_GROUP] = 1 if opts.get("group-initiative", True) else 0
        flags[core.F_CHAPTER] = 1 if chapter else 0
        flags[core.F_MAXR] = self.max_rounds
        flags[core.F_W] = wmax
        flags[core.F_HAR_N] = har.attackers
        flags[core.F_HAR_PEN] = situation.harried_penalty(1)
        flags[core.F_HAR_FUR] = situation.harried_penalty(2) - situation.harried_penalty(1)
        flags[core.F_BLIND_PEN] = situation.table()["blindsided"].defense
        flags[core.F_DOWN_DEF] = situation.table()["knocked-down"].defense
        flags[core.F_DOWN_INIT] = (
            sum(m.value for m in situation.knocked_down_mods())
            if "_p_knocked_down_initiative" in _names(ruleset.step_providers.get("initiative", []))
            else 0
        )
        flags[core.F_DOWN_MV] = hexes(situation.crawl_movement()) if chapter else 1
        flags[core.F_NSIDES] = len(self.sides)
        flags[core.F_MAXSTEP] = MAX_STEP
        flags[core.F_XSD] = xsd
        flags[core.F_LONG_PEN] = -2  # round._long_range (p.390)
        rs: Any = ruleset
        # the providers of every test ("*") and of the Attack test
        attack_steps = _names(rs.step_providers.get("attack", []) + rs.step_providers.get("*", []))
        # EarthdawnProviders._knocked_down_tests (p.389), Ed4Ruleset._reserved_dn (p.375)
        flags[core.F_DOWN_TEST] = -3 if "_knocked_down_tests" in attack_steps else 0
        flags[core.F_RESV_DN] = 2 if "_reserved_dn" in _names(rs.dn_providers) else 0
        flags[core.F_OPTS] = 1 if (cst[:, core.TACTIC] == core.T_VETERAN).any() else 0
        flags[core.F_JUMP_DN] = jump_up_dn()
        flags[core.F_RIDERS] = 1 if riders else 0
        reach = hexes(max([a.long or 0 for c in cs for a in c.stats.attacks if not a.close] + [0]))
        self._width = max(n, 8, reach + 2, core.ROUTE_CELLS)  # the rows pathing.route searches in
        # the occupancy grid: the hexes within 32 of where the combatants start and of the map's blocked
        # hexes (outside it, paths look at every combatant)
        self._grid0, flags = senses.build(ruleset, state, cs, cst, flags)
        self._grid_shape = self._grid0.shape
        self._cst, self._att, self._pref, self._kuse, self._flee, self._flags = (
            cst,
            att,
            pref,
            kuse,
            flee,
            flags,
        )
        self._vt = vt
        self._play = core.play
        self._core = core

    def compile(self) -> float:
        """Compiles (or loads from numba's cache) the kernel; returns the seconds it took."""
        import time

        t = time.perf_counter()
        self.run(1, np.random.default_rng(0))
        return time.perf_counter() - t

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """Plays ``n`` fights with one xoshiro256** stream seeded from ``rng`` (four 64-bit words)."""
        seed = rng.bit_generator.random_raw(4).astype(np.uint64)
        if not seed.any():
            seed[0] = np.uint64(1)
        ns = len(self.sides)
        nc = len(self.ids)
        wins = np.zeros(ns + 2, dtype=np.int64)
        status = np.zeros((nc, 4), dtype=np.int64)
        dealt = np.zeros(nc, dtype=np.int64)
        taken = np.zeros(nc, dtype=np.int64)
        wounds = np.zeros(nc, dtype=np.int64)
        hist = np.zeros(self.max_rounds + 1, dtype=np.int64)
        losses = np.zeros((ns, 2, nc + 1), dtype=np.int64)
        off, shift, keep, own, alias = self._tabs
        core = self._core
        if n > 0:
            self._play(
                n,
                seed,
                self._cst,
                self._att,
                self._pref,
                self._kuse,
                self._flee,
                off,
                shift,
                keep,
                own,
                alias,
                self._flags,
                wins,
                status,
                dealt,
                taken,
                wounds,
                hist,
                losses,
                np.zeros((nc, core.NST), dtype=np.int64),
                np.zeros((core.NWK, self._width), dtype=np.int64),
                self._grid0.copy(),
                self._vt,
            )
        tally = Tally(self.ids, self.sides)
        tally.runs = n
        tally.wins = [int(x) for x in wins[:ns]]
        tally.draws = int(wins[ns])
        tally.wipeouts = int(wins[ns + 1])
        tally.rounds = {r: int(k) for r, k in enumerate(hist) if k}
        names = ("active", "unconscious", "dead", "fled")
        tally.status = [{names[s]: int(status[i, s]) for s in range(4) if status[i, s]} for i in range(nc)]
        tally.dealt = [int(x) for x in dealt]
        tally.taken = [int(x) for x in taken]
        tally.wounds = [int(x) for x in wounds]
        tally.side_dead = [{k: int(c) for k, c in enumerate(losses[s, 0]) if c} for s in range(ns)]
        tally.side_out = [{k: int(c) for k, c in enumerate(losses[s, 1]) if c} for s in range(ns)]
        return tally


def build(ruleset: Ruleset, state: FightState) -> Ed4GroupKernel:
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency
        raise Unsupported("numba is not installed") from None
    return Ed4GroupKernel(ruleset, state)


with contextlib.suppress(ImportError):  # the duel kernel first: it plays two neighbours faster
    from fracas.sim.kernels import ed4_melee as _duel  # noqa: F401
kernels.register("ed4", build)

__all__ = ["Ed4GroupKernel", "build", "step_outcomes"]
