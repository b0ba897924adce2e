"""ED4 p.382-398 wired into the Earthdawn round: combat options, situation modifiers, close, ranged, spell,
mounted and aerial combat.

:class:`ChapterMixin` is mixed into :class:`~fracas.rules.ed4.ruleset.Ed4Ruleset`. It uses the round's
plug-in points (docs/rulesets/ed4.md "Extending the resolver"): step, defense and DN providers, the combat
options a declaration may carry, and actions (new command types, and the core's actions wrapped so that
Strain, facing and the options' restrictions apply to them). The rules themselves are the pure functions
of :mod:`.options`, :mod:`.situation`, :mod:`.close`, :mod:`.ranged`, :mod:`.spells`, :mod:`.mounted` and
:mod:`.aerial`.

New commands (``Command.action``; args in docs/rulesets/ed4.md "Chapter rules p.382-398"):
``jump-up``, ``tail-attack``, ``break-free``, ``hold``, ``release``, ``throw-at``, ``weave``, ``cast``,
``mount``, ``dismount``, ``charge``, ``swoop``, ``recover-flight``. ``attack`` takes ``grapple``,
``improvised``, ``called`` and ``options`` (which must have been declared).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import between, distance, line, neighbours
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import STANDARD, Action, CombatOption, heading
from fracas.rules.earthdawn.battle_map import covered_yards, hexes, within
from fracas.rules.earthdawn.combat import (
    Scratch,
    TestContext,
    damage_events,
    extra_successes,
    recovery_events,
    rolled_event,
    run_test,
    strain_events,
)
from fracas.rules.earthdawn.profile import AttackProfile
from fracas.rules.ed4 import aerial, close, mounted, ranged, situation, spells
from fracas.rules.ed4 import options as opt

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile

STRIKE_ARGS = ("attack", "called")
"""Arguments a reserve command may carry for the strike the engine makes for it (p.385, p.398)."""

ACTION_TESTS = frozenset(
    {"attack", "spellcasting", "knockdown", "attribute", "strength", "dexterity", "jump-up", "break-free"}
)
"""Tests Harried counts on (p.388: "Action tests"): Jump Up is a Dexterity test and breaking free a Strength
or Dexterity test (p.384, p.391; the entangled are Harried for any action but breaking free, and other
sources still count then). The core's list (round.py) has no "jump-up": Jump Up "does not suffer the -3
penalty for being knocked down" (p.384)."""
RACE_SENSES = {"dwarf": ("heat-sight",), "troll": ("heat-sight",), "elf": ("low-light-vision",),
               "ork": ("low-light-vision",)}  # fmt: skip
"""Racial senses (ED4 Player's Guide race abilities, named by the text p.387 as Heat Sight p.45 and
Low-Light Vision p.46) [choice: which race has which is not in the combat chapter]."""
ONE_HANDED_LIMIT = {"windling": 1, "troll": 4, "obsidiman": 4}
"""One-handed weapon size limits (reference 2.2, ED1 table; 3 for the other races) [verify for ED4]."""
SURPRISE_RULE = situation.rule("surprised")


# ----- small readers ------------------------------------------------------------------------------------


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


def _adjacent_enemies(state: FightState, view: Any, c: Combatant) -> list[Combatant]:
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


def _direction(a: tuple[int, int], b: tuple[int, int]) -> int:
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


def _light(state: FightState) -> str:
    return str(state.extra.get("map", {}).get("light", "bright"))


def _impaired(state: FightState, c: Combatant) -> str | None:
    m = state.extra.get("map", {}).get("impaired")
    if isinstance(m, str):
        return m
    if isinstance(m, dict) and c.pos is not None:
        for level in ("heavy", "light"):
            if any(tuple(h) == c.pos for h in m.get(level, ())):
                return level
    return None


def _cover(state: FightState, c: Combatant) -> str | None:
    mp = state.extra.get("map", {})
    if c.pos is None:
        return None
    if any(tuple(h) == c.pos for h in mp.get("full_cover", ())):
        return "full"
    if any(tuple(h) == c.pos for h in mp.get("cover", ())):
        return "partial"
    return None


def install(ruleset: Any) -> None:
    """Register the chapter's providers, combat options, actions, rules, optional rules and tactics on an
    ED4 ruleset (called by ``Ed4Ruleset`` for each module of its ``PLUGINS``)."""
    ChapterMixin._install_chapter(ruleset)


class ChapterMixin:
    """The rules of ED4 p.382-398 on top of the Earthdawn round (see the module docstring): the round-level
    behaviour (surprise, mounts on their riders' Initiative, skipped turns, falls, movement rates) that needs
    method overrides; everything else is registered by :func:`install`."""

    # ----- set-up -------------------------------------------------------------------------------------
    def _install_chapter(self) -> None:
        rs: Any = self
        if getattr(rs, "_chapter_installed", False):
            return
        rs._chapter_installed = True
        # Harried (stacking, from numbers, from options) replaces the core's single Harried modifier.
        for prov in (rs._harried_tests,):
            if prov in rs.step_providers.get("*", []):
                rs.step_providers["*"].remove(prov)
        if rs._harried_defense in rs.defense_providers:
            rs.defense_providers.remove(rs._harried_defense)
        rs.add_step_provider("*", self._p_options_tests)
        rs.add_step_provider("*", self._p_harried_tests)
        rs.add_step_provider("*", self._p_sight)
        rs.add_step_provider("initiative", self._p_knocked_down_initiative)
        rs.add_step_provider("attack", self._p_improvised)
        rs.add_step_provider("attack", self._p_long_weapon)
        rs.add_step_provider("damage", self._p_long_weapon)
        rs.add_step_provider("damage", self._p_charge_damage)
        rs.add_step_provider("damage", self._p_flame_weapon)
        rs.defense_providers += [
            self._p_harried_defense,
            self._p_blindsided,  # before the options: Defensive Stance needs to know (p.384)
            self._p_options_defense,
            self._p_cover,
            self._p_surprised,
            self._p_into_close,
        ]
        rs.dn_providers.append(self._p_grappled_dn)
        rs.armor_providers.append(self._p_armor_reduced)
        for name in opt.options_table():
            rs.combat_options[name] = CombatOption(name, opt.rule(name), self._check_options)
        for name, action in list(rs.actions.items()):
            rs.actions[name] = self._wrap(action)
        for a in (
            Action("declare", "turn", self._v_declare_late, self._r_none, opt.DECLARE_RULE),
            Action("jump-up", "simple", self._v_jump_up, self._r_jump_up, opt.rule(opt.JUMP_UP)),
            Action("tail-attack", "simple", self._v_tail, self._r_tail, opt.rule(opt.TAIL)),
            Action("break-free", STANDARD, self._v_break_free, self._r_break_free, close.GRAPPLING_RULE),
            Action("hold", STANDARD, self._v_hold, self._r_hold, close.GRAPPLING_RULE),
            Action("release", "simple", self._v_release, self._r_release, close.GRAPPLING_RULE),
            Action("throw-at", STANDARD, self._v_throw_at, self._r_throw_at, ranged.AREA_RULE),
            Action("pick-up", "simple", self._v_pick_up, self._r_pick_up, ranged.PICK_UP_RULE),
            Action("weave", STANDARD, self._v_weave, self._r_weave, spells.WEAVING_RULE),
            Action("cast", STANDARD, self._v_cast, self._r_cast, spells.SPELL_RULE),
            Action("mount", STANDARD, self._v_mount, self._r_mount, mounted.MOUNTING),
            Action("dismount", "simple", self._v_dismount, self._r_dismount, mounted.DISMOUNTING),
            Action("charge", STANDARD, self._v_charge, self._r_charge, mounted.CHARGE),
            Action("swoop", STANDARD, self._v_swoop, self._r_swoop, aerial.SWOOP),
            Action("gallop", "simple", self._v_gallop, self._r_gallop, mounted.SPLIT),
            Action(
                "recover-flight", STANDARD, self._v_recover_flight, self._r_recover_flight, aerial.LONG_FALLS
            ),
        ):
            rs.actions[a.name] = self._wrap(a)
        from fracas.rules.ed4.chapter_tactics import CHAPTER_TACTICS

        parts = getattr(rs, "catalog_parts", None)
        if parts is not None:
            parts.add("chapter")  # the rows of data/rules.toml (and long-falls) only the whole chapter brings
        from fracas.rules.ed4.chapter_tactics import wrap_tactics

        rs.tactics().update(CHAPTER_TACTICS)
        wrap_tactics(rs.tactics())

    def prepare(self, state: FightState, spec: Any) -> None:
        """Per-combatant chapter settings from the encounter file's ``options`` (senses, mounts, flight)
        and riders placed on their mounts, before the core places the rest."""
        from fracas.engine.encounter import assign_ids

        allowed = {"senses", "rides", "training", "familiar", "flying", "race", "magical_shield"}
        if spec is not None:
            for si, side in enumerate(spec.sides):
                for ci, entry in enumerate(side.combatants):
                    bad = [k for k in entry.options if k not in allowed]
                    if bad:
                        from fracas.errors import EncounterFileError

                        raise EncounterFileError(
                            f"sides.{si}.combatants.{ci}.options.{bad[0]}: unknown; allowed: "
                            f"{', '.join(sorted(allowed))}"
                        )
                    for cid, _ in assign_ids(entry, "combatant"):
                        c = state.combatants.get(cid)
                        if c is None:
                            continue
                        o = entry.options
                        if "senses" in o:
                            c.marks["senses"] = list(o["senses"])
                        if "race" in o:
                            c.marks["race"] = str(o["race"])
                        if "training" in o:
                            c.marks["training"] = str(o["training"])
                        if "familiar" in o:
                            # familiar: false makes the p.395 Trick Riding test due (it was read as absent)
                            c.marks["familiar"] = bool(o["familiar"])
                        if o.get("flying"):
                            c.marks["flying"] = True
                        if o.get("magical_shield"):
                            c.marks["magical_shield"] = True  # +10 to shatter it (p.385)
                        if "rides" in o:
                            m = state.combatants.get(str(o["rides"]))
                            if m is None:
                                from fracas.errors import EncounterFileError

                                raise EncounterFileError(
                                    f"sides.{si}.combatants.{ci}.options.rides: no combatant {o['rides']!r}"
                                )
                            c.marks["mount"] = m.id
                            m.marks["rider"] = c.id
                            m.marks.setdefault("training", "combat")
                            if m.pos is not None:
                                c.pos = m.pos
                            c.altitude = m.altitude
        super().prepare(state, spec)  # type: ignore[misc]
        for c in state.combatants.values():
            if "mount" in c.marks:
                m = state.combatants[c.marks["mount"]]
                c.pos = m.pos
        if spec is not None:
            self._standing_options(state, spec)

    def _standing_options(self, state: FightState, spec: Any) -> None:
        """Each combatant's ``combat_options`` (docs/encounter-format.md): checked now as far as the rules
        can be known before the fight (:func:`.options.standing_problems`: p.382-386), kept in
        ``marks["combat_options"]``; its tactic declares them each round when legal (chapter_tactics)."""
        from fracas.engine.encounter import assign_ids
        from fracas.errors import EncounterFileError

        errors: list[str] = []
        allowed = ", ".join(opt.options_table())
        for si, side in enumerate(spec.sides):
            for ci, entry in enumerate(side.combatants):
                wanted = list(getattr(entry, "combat_options", ()) or ())
                if not wanted:
                    continue
                for cid, _ in assign_ids(entry, "combatant"):
                    c = state.combatants.get(cid)
                    if c is None:
                        continue
                    close_weapons = [a for a in c.stats.attacks if a.close and a.kind == "melee"]
                    problems = opt.standing_problems(
                        wanted,
                        tskrang=race(c).replace("'", "") == "tskrang",
                        shatter_weapon=any(opt.can_shatter(a.size) for a in close_weapons),
                        long_weapon=any(mounted.is_lance(a.name) or a.size >= 4 for a in close_weapons),
                    )
                    for i, problem, rule in problems:
                        errors.append(
                            f"sides.{si}.combatants.{ci}.combat_options.{i}: {c.name}: {problem}, "
                            f"by rule {rule} (found {wanted!r}; allowed: {allowed})"
                        )
                    if problems:
                        break  # the copies of an entry share its problems
                    c.marks["combat_options"] = wanted
        if errors:
            raise EncounterFileError("\n".join(errors))

    def _declarers(self, state: FightState) -> tuple[str, ...]:
        """The core's roster (combatants whose tactic declares options) and every combatant with standing
        combat options from the encounter file, in the core's order: each declares before Initiative."""
        base = set(super()._declarers(state))  # type: ignore[misc]
        return tuple(
            cid
            for cid, c in state.combatants.items()
            if cid in base or (c.marks.get("combat_options") and c.active)
        )

    # ----- movement ---------------------------------------------------------------------------------------
    def movement_hexes(self, state: FightState, c: Combatant) -> int:
        p: CombatProfile = c.stats
        jumped = c.marks.get("jumped_up")
        if jumped is not None and jumped == state.round:
            return 0  # Jump Up: no other movement that round (p.384)
        if "grappled" in c.conditions or "falling" in c.conditions:
            return 0  # a grappled character cannot move (p.392)
        if "knocked-down" in c.conditions:
            return hexes(situation.crawl_movement())
        rate = p.movement
        if c.altitude > 0 or c.marks.get("flying"):
            src = getattr(p, "source", None)
            fly = getattr(src, "flying_movement", None)
            if fly:
                rate = int(fly)
        m = mount_of(state, c)
        if m is not None:
            rate = m.stats.movement
        rate = situation.impaired_movement(rate, _impaired(state, c))
        return hexes(rate)  # rounded up to cover a full hex (p.372): Movement 1 is 1 hex

    def standing_hexes(self, state: FightState, c: Combatant) -> int:
        """Hexes a knocked-down character may move once he has stood up with his Standard action (p.389):
        his Movement Rate on foot (impaired by the terrain, p.389), less what he crawled this round (p.373:
        one Movement Rate a round)."""
        p: CombatProfile = c.stats
        rate = situation.impaired_movement(p.movement, _impaired(state, c))
        return max(hexes(rate) - self.moved_this_round(state, c), 0)  # type: ignore[attr-defined]

    # ----- the round: surprise, mounts on their riders' Initiative, skipped turns, falls -------------------
    def pending(self, state: FightState) -> Decision | None:
        d = super().pending(state)  # type: ignore[misc]
        if d is not None and d.kind == "act":
            c = state.combatants[d.actor]
            if "surprised" in c.conditions:
                return None
        return d

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        cur = state.current
        if state.phase == "act" and cur is not None and cur not in state.acted:
            c = state.combatants[cur]
            if c.active and "surprised" in c.conditions:
                return [
                    ev.Note(f"{c.name} is surprised and cannot act", cur, SURPRISE_RULE),
                    ev.TurnEnded(cur),
                ]
        events = super().advance(state, dice)  # type: ignore[misc]
        if events and isinstance(events[-1], ev.RoundEnded):
            events = self._strain_owed(state, events)
        if any(isinstance(e, ev.RoundStarted) for e in events):
            events = self._round_start(state, dice, events)
        if any(isinstance(e, ev.OrderSet) for e in events):
            events = self._mounts_on_riders(state, events)
        return events

    def _strain_owed(self, state: FightState, events: list[ev.Event]) -> list[ev.Event]:
        """Aggressive Attack's Strain at the end of the round for who declared it and never ended a turn
        (knocked out, say, before acting): "The character always takes at least 1 Strain, even if he doesn't
        end up making any Attack tests during the round" (p.382). Who ended a turn paid it then
        (:meth:`_after_action`); the dead and the fled pay nothing."""
        sc = Scratch(state)
        for cid in state.declarations:
            c = state.combatants.get(cid)
            if c is None or cid in state.acted or c.status in ("dead", "fled"):
                continue
            if opt.AGGRESSIVE not in declared(state, cid):
                continue
            count = c.marks.get("attack_tests")
            if count and count[0] == state.round and len(count) > 2 and count[2] > 0:
                continue  # paid per close Attack test (an interrupt, a reserved action)
            for amount, why, rule in opt.round_strain([opt.AGGRESSIVE], 0):
                strain_events(sc, self.edition, cid, amount, why, rule)  # type: ignore[attr-defined]
        if not sc.events:
            return events
        return events[:-1] + sc.events + events[-1:]

    def _round_start(self, state: FightState, dice: DiceSource, events: list[ev.Event]) -> list[ev.Event]:
        rnd = next(e.round for e in events if isinstance(e, ev.RoundStarted))
        extra: list[ev.Event] = []
        sc = Scratch(state)
        if rnd == 1:
            self._surprise(state, dice, sc, rnd)
        if state.options.get("long-falls"):
            self._long_falls(state, dice, sc, rnd)
        extra = sc.events
        if not extra:
            return events
        i = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundStarted)) + 1
        return events[:i] + extra + events[i:]

    def _surprise(self, state: FightState, dice: DiceSource, sc: Scratch, rnd: int) -> None:
        """Surprise (p.390): when some combatants start hidden, each of their enemies makes a Perception
        test against the lowest Dexterity step among the hidden ones; failing, it is surprised for the
        round: no actions, -3 to Physical and Mystic Defense."""
        hidden = [c for c in state.combatants.values() if c.hidden and c.active]
        if not hidden:
            return
        sides = {c.side for c in hidden}
        for c in state.combatants.values():
            if not c.active or c.hidden or c.side in sides:
                continue
            foes = [h for h in hidden if h.side != c.side]
            if not foes:
                continue
            dn = situation.surprise_dn(h.stats.dex_step for h in foes)
            mods = self.step_mods(TestContext(state, sc, "perception", c))  # type: ignore[attr-defined]
            res = run_test(
                dice,
                self.edition,
                c.stats.per_step,
                mods,
                dn,
                None,
                c.name,
                "Perception (surprise)",
                "surprise DN",
            )  # type: ignore[attr-defined]
            sc.emit(rolled_event(c.id, "Perception (surprise)", res, SURPRISE_RULE, against="surprise DN"))
            if not res.success:
                sc.emit(ev.ConditionAdded(c.id, "surprised", rnd, 3, "ambush", SURPRISE_RULE))
            else:  # he noticed the ambush: his side's tactics may count the hidden ones among his foes
                sc.emit(ev.Marked(c.id, "noticed_hidden", True, SURPRISE_RULE))

    def _mounts_on_riders(self, state: FightState, events: list[ev.Event]) -> list[ev.Event]:
        """A trained mount acts on its rider's Initiative (p.395): its test result becomes the rider's and
        it acts right after him."""
        inits = {e.actor: e for e in events if isinstance(e, ev.InitiativeRolled)}
        changed = False
        out: list[ev.Event] = []
        for e in events:
            if isinstance(e, ev.InitiativeRolled):
                m = state.combatants[e.actor]
                r = rider_of(state, m)
                if (
                    r is not None
                    and r.id in inits
                    and mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat"))
                ):
                    e = ev.InitiativeRolled(
                        e.actor, inits[r.id].value, e.step, None, e.modifiers, mounted.SEQUENCE
                    )
                    changed = True
            out.append(e)
        if not changed:
            return events
        final = []
        for e in out:
            if isinstance(e, ev.OrderSet):
                order = list(e.order)
                for mid in list(order):
                    m = state.combatants[mid]
                    r = rider_of(state, m)
                    if (
                        r is not None
                        and r.id in order
                        and mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat"))
                    ):
                        order.remove(mid)
                        order.insert(order.index(r.id) + 1, mid)
                e = ev.OrderSet(tuple(order), e.rule)
                final.append(e)
                continue
            if isinstance(e, ev.TurnStarted) and final and isinstance(final[-1], ev.OrderSet):
                first = final[-1].order[0]
                rolled = [x.value for x in final if isinstance(x, ev.InitiativeRolled) and x.actor == first]
                e = ev.TurnStarted(first, rolled[-1] if rolled else None)
            final.append(e)
        return final

    def _long_falls(self, state: FightState, dice: DiceSource, sc: Scratch, rnd: int) -> None:
        speed = int(state.extra.get("settings", {}).get("fall_yards_per_round", 20))
        for c in state.combatants.values():
            if "falling" in c.conditions and c.status != "dead":
                drop = aerial.fall_per_round(c.altitude, speed)
                self._fall(state, sc, dice, c.id, drop, aerial.LONG_FALLS, final=c.altitude - drop <= 0)
                now = sc.get(c.id)
                if (
                    now.status == "unconscious"
                    and "falling" in now.conditions
                    and not now.marks.get("fall_roused")
                ):
                    # unconscious and falling: a Recovery test after one round of uncontrolled descent, as
                    # if roused by another character (p.398); conscious, it may then "stand up"
                    sc.emit(ev.Marked(c.id, "fall_roused", rnd, aerial.LONG_FALLS))
                    recovery_events(sc, self.edition, dice, c.id, "after a round of uncontrolled descent")  # type: ignore[attr-defined]

    # ----- resolve: the consequences every command may have (falls off mounts and out of the sky) -------
    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        events = super().resolve(state, command, dice)  # type: ignore[misc]
        events = self._aftermath(state, events, dice)
        if any("grappled" in c.conditions for c in state.combatants.values()) or any(
            isinstance(e, ev.ConditionAdded) and e.name == "grappled" for e in events
        ):
            events = self._holds_kept(state, command, events)
        return events

    def _holds_kept(self, state: FightState, command: Command, events: list[ev.Event]) -> list[ev.Event]:
        """A grapple lasts while the attacker keeps it: "he can maintain the hold by declaring that he is
        doing so as his standard action during consecutive rounds" (p.392). It ends when he spends his
        Standard action on anything else (a new grapple excepted), when he is no longer next to the
        grappled character, or when he falls unconscious, dies or flees."""
        sc = Scratch(state)
        for e in events:
            sc.emit(e)
        start = len(sc.events)
        action = self.actions.get(command.action)  # type: ignore[attr-defined]
        other_standard = (
            action is not None
            and action.kind == STANDARD
            and command.action not in ("hold", "break-free")
            and not any(
                isinstance(e, ev.Marked) and e.key == "holding" and e.target == command.actor for e in events
            )
        )
        for cid in list(state.combatants):
            g = sc.get(cid)
            cond = g.conditions.get("grappled")
            if cond is None or cond.source not in state.combatants:
                continue
            holder = sc.get(cond.source)
            lost = (
                holder.status != "active"
                or holder.marks.get("holding") != cid
                or holder.pos is None
                or g.pos is None
                or distance(holder.pos, g.pos) != 1
                or (holder.id == command.actor and other_standard)
            )
            if lost:
                sc.emit(
                    ev.ConditionRemoved(
                        cid, "grappled", f"{holder.name} no longer holds", close.GRAPPLING_RULE
                    )
                )
                if holder.marks.get("holding") == cid:
                    sc.emit(ev.Marked(holder.id, "holding", None, close.GRAPPLING_RULE))
        return events + sc.events[start:]

    def _aftermath(self, state: FightState, events: list[ev.Event], dice: DiceSource) -> list[ev.Event]:
        downs = [e.target for e in events if isinstance(e, ev.ConditionAdded) and e.name == "knocked-down"]
        if not downs:
            return events
        sc = Scratch(state)
        for e in events:
            sc.emit(e)
        start = len(sc.events)
        for cid in downs:
            c = sc.get(cid)
            rider = rider_of(state, state.combatants[cid])
            if rider is not None:
                # the mount fails a Knockdown test: the rider is knocked down as he falls off (p.395)
                self._unseat(state, sc, dice, rider.id, c.altitude)
            elif mount_of(state, state.combatants[cid]) is not None:
                self._unseat(state, sc, dice, cid, c.altitude)
            elif c.altitude > 0:
                self._knocked_out_of_sky(state, sc, dice, cid)
        return events + sc.events[start:]

    def _unseat(self, state: FightState, sc: Scratch, dice: DiceSource, rider_id: str, altitude: int) -> None:
        r = sc.get(rider_id)
        if not r.marks.get("mount"):
            return
        free = (
            [
                h
                for h in neighbours(r.pos)
                if h not in state.occupied(rider_id)
                and h not in {tuple(b) for b in state.extra.get("map", {}).get("blocked", ())}
            ]
            if r.pos
            else []
        )
        path = (free[0],) if free else ()
        sc.emit(
            ev.Marked(rider_id, "mount", None, mounted.FALL),
            ev.Moved(rider_id, path, "fall", None, 0, mounted.FALL),
            ev.Note(f"{r.name} falls off the mount", rider_id, mounted.FALL),
        )
        if "knocked-down" not in r.conditions:
            sc.emit(ev.ConditionAdded(rider_id, "knocked-down", None, 3, "fall", mounted.FALL))
        step = aerial.falling_step(altitude) if altitude > 2 else mounted.FALL_STEP
        self._fall_damage(
            sc,
            dice,
            rider_id,
            step or mounted.FALL_STEP,
            mounted.FALL if altitude <= 2 else aerial.FLYING_MOUNTS,
        )

    def _knocked_out_of_sky(self, state: FightState, sc: Scratch, dice: DiceSource, cid: str) -> None:
        c = sc.get(cid)
        if state.options.get("long-falls"):
            sc.emit(
                ev.ConditionAdded(
                    cid, "falling", None, c.altitude, "knocked out of the sky", aerial.LONG_FALLS
                )
            )
            sc.emit(ev.Note(f"{c.name} plummets from {c.altitude} yards", cid, aerial.LONG_FALLS))
            return
        self._fall(state, sc, dice, cid, c.altitude, aerial.KNOCKED_OUT, final=True)

    def _fall(
        self, state: FightState, sc: Scratch, dice: DiceSource, cid: str, drop: int, rule: str, final: bool
    ) -> None:
        c = sc.get(cid)
        new_alt = max(0, c.altitude - drop)
        total_fall = c.marks.get("fallen", 0) + drop
        sc.emit(ev.Moved(cid, (), "fall", None, new_alt, rule))
        if not final and new_alt > 0:
            sc.emit(ev.Marked(cid, "fallen", total_fall, rule))
            return
        sc.emit(ev.Marked(cid, "fallen", None, rule))
        if "falling" in c.conditions:
            sc.emit(ev.ConditionRemoved(cid, "falling", "hits the ground", rule))
        step = aerial.falling_step(total_fall)
        sc.emit(ev.Note(f"{c.name} falls {total_fall} yards to the ground", cid, rule))
        if step:
            self._fall_damage(sc, dice, cid, step, rule)

    def _fall_damage(self, sc: Scratch, dice: DiceSource, cid: str, step: int, rule: str) -> None:
        res = run_test(dice, self.edition, step, (), None, None, sc.get(cid).name, "Falling damage")  # type: ignore[attr-defined]
        sc.emit(rolled_event(cid, f"Falling damage (Step {step})", res, rule, cid))
        if sc.get(cid).status != "dead":
            damage_events(
                sc,
                self.edition,
                dice,
                cid,
                res.total,
                0,
                None,
                damage_type="falling",
                round_no=sc.state.round,
            )  # type: ignore[attr-defined]

    # ----- declaring --------------------------------------------------------------------------------------
    def _check_options(self, state: FightState, command: Command) -> None:
        me = state.combatants[command.actor]
        opts = list(command.args.get("options", ()) or ())
        if opts and "surprised" in me.conditions:
            raise IllegalCommand(f"{me.name} is surprised and takes no actions this round", SURPRISE_RULE)
        opt.check_declaration(
            opts, knocked_down="knocked-down" in me.conditions, tskrang=race(me).replace("'", "") == "tskrang"
        )

    def _v_declare_late(self, state: FightState, command: Command) -> None:
        raise IllegalCommand(
            "combat options are declared before the Initiative test, not during the round", opt.DECLARE_RULE
        )

    def _r_none(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        return None

    # ----- wrapping every action: restrictions, Strain, facing --------------------------------------------
    def _wrap(self, action: Action) -> Action:
        def validate(state: FightState, command: Command) -> None:
            self._v_common(state, command, action)
            action.validate(state, command)
            if command.action == "reserve":
                self._v_reserve_strike(state, command)

        def resolve(state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
            before = len(sc.events)
            self._pay_round_strain(state, command, sc)
            if command.action == "attack":
                self._r_attack_chapter(state, command, dice, sc, action)
            elif command.action == "reserve" and any(k in command.args for k in STRIKE_ARGS):
                # the reserved strike's own arguments ride on the trigger (the only thing kept)
                trig = dict(command.args.get("trigger") or {"on": "attack"})
                trig["strike"] = {k: command.args[k] for k in STRIKE_ARGS if k in command.args}
                action.resolve(
                    state, dataclasses.replace(command, args={**command.args, "trigger": trig}), dice, sc
                )
            else:
                action.resolve(state, command, dice, sc)
            self._after_action(state, command, sc, before)

        return Action(action.name, action.kind, validate, resolve, action.rule)

    def _v_reserve_strike(self, state: FightState, command: Command) -> None:
        """A reserve command may name the attack its strike at a charging rider or a swooper will use and a
        Called Shot at a weapon (``attack``, ``called: weapon``; p.375, p.384, p.385, p.398): checked when
        reserving, since the strike itself is made by the engine, with no command of its own."""
        me = state.combatants[command.actor]
        rule = self.ref("actions.reserved")  # type: ignore[attr-defined]
        name = command.args.get("attack")
        if name is not None:
            a = me.stats.attack(str(name))
            if a is None or a.name != name or not a.close:
                raise IllegalCommand(f"reserve: {me.name} has no close combat attack {name!r}", rule)
        called = command.args.get("called")
        if called is not None:
            if called != "weapon":
                raise IllegalCommand("reserve: called may only be 'weapon'", opt.rule(opt.CALLED_SHOT))
            if opt.CALLED_SHOT not in in_force(state, me):
                raise IllegalCommand(
                    f"reserve: {me.name} has not declared Called Shot", opt.rule(opt.CALLED_SHOT)
                )

    def _v_common(self, state: FightState, command: Command, action: Action) -> None:
        me = state.combatants.get(command.actor)
        if me is None:
            return
        mine = declared(state, me.id)
        for o in command.args.get("options", ()) or ():
            if o not in mine:
                raise IllegalCommand(f"{o} was not declared before Initiative", opt.DECLARE_RULE)
        if "grappled" in me.conditions and command.action in ("move", "run", "charge", "swoop"):
            raise IllegalCommand(f"{me.name} is grappled and cannot move", close.GRAPPLING_RULE)
        if rider_of(state, me) is not None and command.action in ("move", "run") and command.args.get("path"):
            raise IllegalCommand(f"{me.name}'s rider controls its movement", mounted.MOVEMENT)
        if command.action == "attack":
            self._v_attack_chapter(state, command, me)
        before = bool(command.args.get("path")) or self.moved_this_round(state, me) > 0  # type: ignore[attr-defined]
        if command.args.get("after") and before and opt.SPLIT not in mine:
            raise IllegalCommand(
                "moving both before and after the action needs the Splitting Movement option",
                opt.rule(opt.SPLIT),
            )
        if command.action == "stand-up" and command.args.get("path"):
            # crawl, stand up (the Standard action), walk on: a move/action/move combination (p.386), which
            # the knocked down cannot declare (p.382); the walk is what is left of his Movement Rate
            if self.moved_this_round(state, me) and opt.SPLIT not in mine:  # type: ignore[attr-defined]
                raise IllegalCommand(
                    f"{me.name} crawled this round: moving again after standing up is moving both before and "
                    "after the Standard action, which needs the Splitting Movement option",
                    opt.rule(opt.SPLIT),
                )
            left = self.standing_hexes(state, me)
            if len(command.args["path"]) > left:
                raise IllegalCommand(
                    f"{me.name} can move {left} hex{'es' if left != 1 else ''} after standing up, "
                    f"not {len(command.args['path'])}",
                    situation.rule("knocked-down"),
                )
        if command.action == "move" and command.args.get("path") and me.marks.get("std") == state.round:
            moved = self.moved_this_round(state, me)  # type: ignore[attr-defined]
            if moved and opt.SPLIT not in mine:
                raise IllegalCommand(
                    "moving both before and after the Standard action needs the Splitting Movement option",
                    opt.rule(opt.SPLIT),
                )

    def _v_attack_chapter(self, state: FightState, command: Command, me: Combatant) -> None:
        t = state.combatants.get(command.target or "")
        if t is None:
            return
        p: CombatProfile = me.stats
        a = p.attack(command.args.get("attack"))
        if a is None:
            return
        if a.name.lower().startswith("charge"):
            raise IllegalCommand(
                f"{a.name} is a charging attack: use the charge command (mount's Strength added then)",
                mounted.CHARGE,
            )
        lost = me.marks.get("lost_weapons") or ()
        if a.name in lost:
            raise IllegalCommand(f"{me.name} has lost the {a.name}", opt.rule(opt.CALLED_SHOT))
        if a.name in (me.marks.get("thrown_away") or ()):
            raise IllegalCommand(
                f"{me.name} has thrown the {_weapon_of(a.name)}: it is gone until picked up",
                ranged.RANGED_RULE,
            )
        if situation.cover_blocks(_cover(state, t)):
            raise IllegalCommand(
                f"{t.name} is in full cover and cannot be attacked", situation.rule("cover-full")
            )
        mine = declared(state, me.id)
        if opt.SHATTER in mine and a.close:
            if not opt.can_shatter(a.size):
                raise IllegalCommand(
                    f"the {a.name} (Size {a.size}) is too small to shatter a shield", opt.rule(opt.SHATTER)
                )
            if t.stats.shield_shatter is None or t.marks.get("shield_shattered"):
                raise IllegalCommand(f"{t.name} has no shield to shatter", opt.rule(opt.SHATTER))
        if command.args.get("grapple") and a.kind not in ("unarmed", "natural"):
            raise IllegalCommand("grappling is an Unarmed Combat attack", close.GRAPPLING_RULE)
        if (
            a.close
            and me.pos is not None
            and t.pos is not None
            and not aerial.in_close_reach(me.altitude, t.altitude)
        ):
            raise IllegalCommand(
                f"{t.name} is {abs(me.altitude - t.altitude)} yards above or below: out of close reach",
                aerial.AERIAL,
            )
        # At most six attackers (p.391): one combatant a hex and six hexes around a defender already
        # enforce it; close.room_for_attacker is for swarms of small creatures sharing places.

    def may_refuse_attack(self, state: FightState, me: Combatant, t: Combatant) -> bool:
        """Whether the chapter could refuse an attack on ``t`` that the core allows (:meth:`_v_common`,
        :meth:`_v_attack_chapter`): only then do the tactics validate their plans (validating costs time).
        Conservative: any sign of a refusal reason says yes."""
        return bool(
            me.altitude != t.altitude
            or me.marks.get("lost_weapons")
            or me.marks.get("thrown_away")
            or me.marks.get("rider")
            or "grappled" in me.conditions
            or state.extra.get("map", {}).get("full_cover")
            or opt.SHATTER in declared(state, me.id)
            or any(a.name.lower().startswith("charge") for a in me.stats.attacks)
        )

    def _pay_round_strain(self, state: FightState, command: Command, sc: Scratch) -> None:
        me = state.combatants[command.actor]
        if me.marks.get("strain_paid") == state.round:
            return
        mine = declared(state, me.id)
        if opt.SPLIT in mine:
            # 1 Strain when he first acts; Harried for the whole round from the declaration (harried_sources)
            sc.emit(ev.Marked(me.id, "strain_paid", state.round, opt.rule(opt.SPLIT)))
            strain_events(sc, self.edition, me.id, 1, "Splitting Movement", opt.rule(opt.SPLIT))  # type: ignore[attr-defined]

    def _after_action(self, state: FightState, command: Command, sc: Scratch, before: int) -> None:
        me_id = command.actor
        me = sc.get(me_id)
        mine = declared(state, me_id)
        new = sc.events[before:]
        tests = [
            e for e in new if isinstance(e, ev.Rolled) and e.actor == me_id and e.test.endswith("Attack")
        ]
        count = me.marks.get("attack_tests")
        close_before = count[2] if count and count[0] == state.round and len(count) > 2 else 0
        close_tests = 0
        if tests:
            close_tests = sum(1 for e in tests if e.target and self._close_test(state, me_id, e))
            self._attack_tests_strain(state, sc, me_id, len(tests), close_tests)
            for e in tests:
                self._face(state, sc, me_id, e.target)
            self._mark_thrown(me, tests, sc)
        ended = any(isinstance(e, ev.TurnEnded) and e.actor == me_id for e in new)
        if (
            ended
            and opt.AGGRESSIVE in mine
            and close_before + close_tests == 0
            and sc.get(me_id).status == "active"
        ):
            # at least 1 Strain in the round, even with no close combat Attack test (p.382)
            for amount, why, rule in opt.round_strain([opt.AGGRESSIVE], 0):
                strain_events(sc, self.edition, me_id, amount, why, rule)  # type: ignore[attr-defined]
        # a rider's movement is the mount's (p.395): the mount goes where he goes
        m = mount_of(state, state.combatants[me_id])
        if m is not None:
            for e in new:
                if isinstance(e, ev.Moved) and e.actor == me_id and e.path and e.mode in ("move", "run"):
                    sc.emit(ev.Moved(m.id, e.path, "ridden", e.facing, e.altitude, mounted.MOVEMENT))
            if command.action == "run":
                sc.emit(ev.Marked(m.id, "std", state.round, mounted.SPLIT))

    def _attack_tests_strain(
        self, state: FightState, sc: Scratch, me_id: str, tests: int, close_tests: int
    ) -> None:
        """Count ``tests`` Attack tests (``close_tests`` of them close combat) of ``me_id`` this round
        (``marks["attack_tests"]``: [round, tests, close tests]) and pay the Strain the declared options cost
        per test: Aggressive Attack 1 per close combat Attack test (p.382), Called Shot 1 per Attack test
        (p.384: "1 Strain per Attack test"), Shattering a Shield 1 (p.385). Every Attack test pays, whatever
        command makes it: his own attack, or his reserved strike at a charging rider (p.375, p.385) or at a
        swooper (p.398) made during their command."""
        me = sc.get(me_id)
        mine = declared(state, me_id)
        count = me.marks.get("attack_tests")
        n_before = count[1] if count and count[0] == state.round else 0
        close_before = count[2] if count and count[0] == state.round and len(count) > 2 else 0
        sc.emit(
            ev.Marked(
                me_id,
                "attack_tests",
                [state.round, n_before + tests, close_before + close_tests],
                opt.DECLARE_RULE,
            )
        )
        for amount, why, rule in opt.attack_strain(mine, close=True):
            n = close_tests if why != "Called Shot" else tests
            if n and sc.get(me_id).status != "dead":
                strain_events(
                    sc,
                    self.edition,
                    me_id,
                    amount * n,
                    f"{why} ({n} attack test{'s' if n > 1 else ''})",
                    rule,
                )  # type: ignore[attr-defined]

    def _strike_strain(self, state: FightState, sc: Scratch, striker_id: str, before: int) -> None:
        """The per-test Strain of a strike ``striker_id`` made during someone else's command (his reserved
        action at a charging rider, p.375/p.385, or at a swooper, p.398): his Attack tests among the events
        since ``before`` pay as any other (:meth:`_attack_tests_strain`)."""
        p: CombatProfile = state.combatants[striker_id].stats
        tests = [
            e
            for e in sc.events[before:]
            if isinstance(e, ev.Rolled)
            and e.actor == striker_id
            and (e.test.endswith(" Attack") or " Attack (" in e.test)
        ]
        if not tests:
            return
        close_tests = 0
        for e in tests:
            a = p.attack(e.test.split(" Attack")[0])
            close_tests += a is None or a.close
        self._attack_tests_strain(state, sc, striker_id, len(tests), close_tests)

    def _mark_thrown(self, me: Combatant, tests: list[ev.Rolled], sc: Scratch) -> None:
        """A thrown weapon leaves the thrower's hand (ranged combat, p.392): after the throw it is gone, its
        thrown and its close combat attack alike, until picked up (``pick-up``, a Simple action [choice]:
        :data:`.ranged.PICK_UP_REACH_HEXES`). It lies where the target stood (``marks["thrown_to"]``)."""
        p: CombatProfile = me.stats
        for e in tests:
            a = p.attack(e.test[: -len(" Attack")])
            if a is None or a.kind != "thrown":
                continue
            landed = sc.flags.get("landed") or {}
            if a.name in landed:
                self._drop(sc, me.id, a, landed[a.name])
                continue
            t = sc.get(e.target) if e.target in sc.state.combatants else None
            self._drop(sc, me.id, a, t.pos if t is not None else None)

    def _drop(self, sc: Scratch, me_id: str, a: AttackProfile, where: tuple[int, int] | None) -> None:
        """The thrown weapon of attack ``a`` leaves ``me_id``'s hand and lies at ``where`` (p.392)."""
        me = sc.get(me_id)
        p: CombatProfile = me.stats
        before = list(me.marks.get("thrown_away") or ())
        gone = list(before)
        weapon = _weapon_of(a.name)
        for x in p.attacks:
            if _weapon_of(x.name) == weapon and x.kind in ("thrown", "melee") and x.name not in gone:
                gone.append(x.name)
        if gone != before:
            sc.emit(ev.Marked(me_id, "thrown_away", gone, ranged.RANGED_RULE))
        lying = dict(me.marks.get("thrown_to") or {})
        lying[weapon] = list(where) if where is not None else None
        sc.emit(ev.Marked(me_id, "thrown_to", lying, ranged.PICK_UP_RULE))

    # ----- picking a thrown weapon up -------------------------------------------------------------------
    def lying_in_reach(self, me: Combatant, state: FightState | None = None) -> list[str]:
        """The thrown weapons of ``me`` lying within reach, nearest first (:func:`.ranged.can_pick_up`)."""
        lying = me.marks.get("thrown_to") or {}
        out = []
        holding = self._entangling_now(me, state) if state is not None else set()
        for w, at in lying.items():
            if w in holding:
                continue  # a net still wrapped round someone is not lying free
            h = tuple(at) if at is not None else None
            if ranged.can_pick_up(me.pos, h):  # type: ignore[arg-type]
                out.append((distance(me.pos, h) if me.pos is not None and h is not None else 0, w))
        return [w for _, w in sorted(out)]

    def _entangling_now(self, me: Combatant, state: FightState) -> set[str]:
        """The weapons of ``me`` entangling someone now (p.391)."""
        return {
            _weapon_of(str(c.marks["entangled_by"][1]))
            for c in state.combatants.values()
            if "entangled" in c.conditions
            and c.marks.get("entangled_by")
            and c.marks["entangled_by"][0] == me.id
        }

    def _v_pick_up(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        lying = me.marks.get("thrown_to") or {}
        if not lying:
            raise IllegalCommand(f"{me.name} has thrown nothing to pick up", ranged.PICK_UP_RULE)
        want = command.args.get("weapon")
        if want is not None and want not in lying:
            raise IllegalCommand(
                f"{me.name} has no thrown {want!r} lying about; thrown: {', '.join(sorted(lying))}",
                ranged.PICK_UP_RULE,
            )
        reach = self.lying_in_reach(me, state)
        if (want if want is not None else (reach[0] if reach else None)) not in reach:
            where = lying[want] if want is not None else next(iter(lying.values()))
            raise IllegalCommand(
                f"the {want or next(iter(lying))} lies at {where}: {me.name} must stand on that hex or "
                "next to it to pick it up",
                ranged.PICK_UP_RULE,
            )

    def _r_pick_up(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        weapon = command.args.get("weapon") or self.lying_in_reach(me, state)[0]
        lying = dict(me.marks.get("thrown_to") or {})
        lying.pop(weapon, None)
        gone = [x for x in me.marks.get("thrown_away") or () if _weapon_of(x) != weapon]
        sc.emit(
            ev.Marked(me.id, "thrown_away", gone or None, ranged.PICK_UP_RULE),
            ev.Marked(me.id, "thrown_to", lying or None, ranged.PICK_UP_RULE),
            ev.Note(f"{me.name} picks up the {weapon}", me.id, ranged.PICK_UP_RULE),
        )
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(me.id))

    def _close_test(self, state: FightState, me_id: str, e: ev.Rolled) -> bool:
        p: CombatProfile = state.combatants[me_id].stats
        name = e.test[: -len(" Attack")]
        a = p.attack(name)
        return a is None or a.close

    def _face(self, state: FightState, sc: Scratch, me_id: str, target_id: str | None) -> None:
        me = sc.get(me_id)
        t = sc.get(target_id) if target_id in state.combatants else None
        if t is None or me.pos is None or t.pos is None or me.pos == t.pos:
            return
        f = _direction(me.pos, t.pos)
        if me.facing != f:
            sc.emit(ev.Moved(me_id, (), "turn", f, None, situation.rule("blindsided")))
        if distance(me.pos, t.pos) == 1 and t.status == "active":
            # in a duel the attacker is the only one who can stand next to the target
            others = []
            if len(state.combatants) > 2:
                others = [o for o in _adjacent_enemies(state, sc, t) if o.id != me_id]
            back = _direction(t.pos, me.pos)
            if not others and t.facing != back:
                sc.emit(ev.Moved(t.id, (), "turn", back, None, situation.rule("blindsided")))

    # ----- providers: combat options ----------------------------------------------------------------------
    def _p_options_tests(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.test == "initiative" and ctx.actor.marks.get("shield_shattered"):
            return list(self._shield_dropped_initiative(ctx)) + list(self._options_tests(ctx))
        return self._options_tests(ctx)

    def _options_tests(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.test == "initiative":
            return ()  # chosen, so kept apart: voluntary_initiative_mods (p.371)
        mine = in_force(ctx.state, ctx.actor)
        if not mine:
            return ()
        a = ctx.attack
        return opt.step_mods(mine, ctx.test, close=a.close if a is not None else True)

    def initiative_leader(self, state: FightState, c: Combatant) -> str | None:
        """The mount "acts on the rider's Initiative" if trained (p.395): a trained mount with its rider
        on its back makes no Initiative test; :meth:`_mounts_on_riders` places it after him."""
        r = rider_of(state, c)
        if r is not None and mounted.mount_acts_on_rider_initiative(c.marks.get("training", "combat")):
            return r.id
        return None

    def voluntary_initiative_mods(self, state: FightState, c: Combatant) -> list[Modifier]:
        """The declared combat options' modifiers to the Initiative step (Tail Attack's -2 to all tests,
        p.386): chosen, they lower it no further than Step 1 (p.371)."""
        mine = in_force(state, c)
        return opt.step_mods(mine, "initiative") if mine else []

    def _p_options_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is None:
            return ()
        out: list[Modifier] = []
        if t.marks.get("shield_shattered"):
            out += self._shattered_shield_defense(t, ctx.against)
        theirs = in_force(ctx.state, t)
        if not theirs:
            return out
        aware = not ctx.extra.get("blindsided") and "surprised" not in t.conditions
        return out + opt.defense_mods(theirs, aware=aware, name=t.name)

    @staticmethod
    def _shattered_shield_defense(t: Combatant, against: str) -> list[Modifier]:
        """A shattered shield "is now useless, and confers no further protective benefits" (p.385): its
        bonus to Physical or Mystic Defense is taken off (a stat block without its shield's numbers keeps
        its Defenses [choice])."""
        shield = getattr(getattr(t.stats, "source", None), "shield", None)
        if shield is None:
            return []
        bonus = {"physical": shield.physical_defense, "mystic": shield.mystic_defense}.get(against, 0)
        return [Modifier(-bonus, f"{t.name}'s shield shattered", opt.rule(opt.SHATTER))] if bonus else []

    @staticmethod
    def _shield_dropped_initiative(ctx: TestContext) -> list[Modifier]:
        """The shattered shield's fragments are dropped (Herekar's opponent, p.385): its Initiative penalty
        goes with it [choice]."""
        from fracas.rules.earthdawn.characteristics import initiative_step

        src = getattr(ctx.actor.stats, "source", None)
        shield = getattr(src, "shield", None)
        if shield is None or not shield.initiative_penalty:
            return []
        armor = getattr(src, "armor", None)
        without = initiative_step(ctx.actor.stats.dex_step, armor.initiative_penalty if armor else 0, 0)
        gain = without - ctx.actor.stats.initiative_step
        return [Modifier(gain, "shield shattered and dropped", opt.rule(opt.SHATTER))] if gain > 0 else []

    # ----- providers: Harried -----------------------------------------------------------------------------
    def harried_sources(
        self,
        state: FightState,
        view: Any,
        c: Combatant,
        test: str = "",
        adjacent: list[Combatant] | None = None,
    ) -> list[str]:
        out = []
        if "harried" in c.conditions:
            out.append("Stun damage" if c.conditions["harried"].source else "harried")
        if "entangled" in c.conditions and test != "break-free":
            out.append("entangled")
        if opt.SPLIT in declared(state, c.id):
            out.append("Splitting Movement")
        if adjacent is None:
            # fewer other combatants than it takes to harry by numbers: no need to look (a duel)
            few = not situation.harried_by_numbers(len(state.combatants) - 1)
            adjacent = [] if few else _adjacent_enemies(state, view, c)
        if situation.harried_by_numbers(len(adjacent)):
            out.append("four or more attackers")
        m = mount_of(state, c) if c.marks.get("mount") else None
        r = rider_of(state, c) if c.marks.get("rider") else None
        pair = (c, m) if m is not None else (r, c) if r is not None else None
        if pair is not None and pair[0] is not None and size(pair[0]) == "small" and size(pair[1]) != "small":
            out += ["windling rider", "windling rider"]
        return out

    def _p_harried_tests(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.test not in ACTION_TESTS:
            return ()
        src = self.harried_sources(ctx.state, ctx.view, ctx.actor, ctx.test)
        if not src:
            return ()
        return situation.harried_mods(len(src), sources=", ".join(sorted(set(src))))

    def _p_harried_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is None:
            return ()
        # in a duel the attacker is the only one who can stand next to the target: too few to harry him by
        # numbers, and no other to engage him (Blindsided reads the list without the attacker)
        adjacent = _adjacent_enemies(ctx.state, ctx.view, t) if len(ctx.state.combatants) > 2 else []
        ctx.extra["target_adjacent"] = adjacent
        src = self.harried_sources(ctx.state, ctx.view, t, adjacent=adjacent)
        ctx.extra["target_harried"] = bool(src)
        if not src:
            return ()
        return situation.harried_mods(len(src), t.name, ", ".join(sorted(set(src))))

    # ----- providers: situation -----------------------------------------------------------------------------
    def _p_blindsided(self, ctx: TestContext) -> Iterable[Modifier]:
        t, me = ctx.target, ctx.actor
        if t is None or t.pos is None or me.pos is None or t.pos == me.pos or t.status != "active":
            return ()
        if "surprised" in t.conditions:
            return ()
        light = _light(ctx.state)
        hidden_attacker = me.hidden and not me.marks.get("revealed")
        if light == "bright":
            attacker_sees = "blinded" not in me.conditions
            sees = not (hidden_attacker or "blinded" in t.conditions)
        else:
            my_light = situation.effective_darkness(light, senses(me))
            their_light = situation.effective_darkness(light, senses(t))
            attacker_sees = "blinded" not in me.conditions and my_light != "full"
            sees = not (hidden_attacker or "blinded" in t.conditions or their_light == "full")
        adjacent = ctx.extra.get("target_adjacent")
        if adjacent is None:
            adjacent = _adjacent_enemies(ctx.state, ctx.view, t)
        engaged = [_direction(t.pos, o.pos) for o in adjacent if o.id != me.id and o.pos]
        harried = bool(ctx.extra.get("target_harried"))
        if sees and attacker_sees and not engaged and not harried:
            return ()  # an unengaged defender who sees the attacker turns to face him
        if situation.is_blindsided(
            t.facing,
            _direction(t.pos, me.pos),
            engaged,
            harried=harried,
            can_see_attacker=sees,
            attacker_can_see=attacker_sees,
        ):
            ctx.extra["blindsided"] = True
            return situation.blindsided_mods(t.name)
        return ()

    def _p_cover(self, ctx: TestContext) -> Iterable[Modifier]:
        """Partial cover against any attack made on the character, close combat included (p.387: "Cover
        modifiers are applied against any attacks made against the character")."""
        t = ctx.target
        if t is None:
            return ()
        return situation.cover_mods(_cover(ctx.state, t), t.name)

    def _p_surprised(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is not None and "surprised" in t.conditions:
            return situation.surprised_mods(t.name)
        return ()

    def _p_sight(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.test not in situation.SIGHT_TESTS:
            return ()
        light = _light(ctx.state)
        c = ctx.actor
        if light == "bright" and "blinded" not in c.conditions and "dazzled" not in c.conditions:
            return ()
        return situation.sight_mods(
            ctx.test, light, senses(c), "blinded" in c.conditions, "dazzled" in c.conditions
        )

    def _p_into_close(self, ctx: TestContext) -> Iterable[Modifier]:
        a, t, me = ctx.attack, ctx.target, ctx.actor
        if a is None or a.close or a.kind == "spell" or t is None or t.pos is None or me.pos is None:
            return ()
        n = len(self.intervening(ctx.state, me, t))
        ctx.extra["intervening"] = n
        return ranged.intervening_mods(n)

    def intervening(self, state: FightState, me: Combatant, t: Combatant) -> list[Combatant]:
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

    def _p_knocked_down_initiative(self, ctx: TestContext) -> Iterable[Modifier]:
        """Knocked down: -3 to his tests, "including his next Initiative test" (Mica, p.389)."""
        if "knocked-down" in ctx.actor.conditions and ctx.actor.status == "active":
            return situation.knocked_down_mods()
        return ()

    def _p_improvised(self, ctx: TestContext) -> Iterable[Modifier]:
        cmd = ctx.command
        return close.improvised_mods(bool(cmd is not None and cmd.args.get("improvised")))

    def _p_long_weapon(self, ctx: TestContext) -> Iterable[Modifier]:
        a, me = ctx.attack, ctx.actor
        if a is None or not a.close or not me.marks.get("mount"):
            return ()
        m = mount_of(ctx.state, me)
        if m is None or m.pos is None:
            return ()
        occupied = ctx.state.occupied(m.id) - {me.pos}
        can_move = any(h not in occupied for h in neighbours(m.pos)) and m.stats.movement >= 2
        pen = mounted.long_weapon_penalty(a.size, ONE_HANDED_LIMIT.get(race(me), 3), can_move)
        return (Modifier(pen, "long weapon in close quarters, mounted", mounted.LONG_WEAPONS),) if pen else ()

    def _p_charge_damage(self, ctx: TestContext) -> Iterable[Modifier]:
        cmd = ctx.command
        if cmd is None or not cmd.args.get("charging"):
            return ()
        m = mount_of(ctx.state, ctx.actor) or ctx.state.combatants.get(ctx.actor.marks.get("mount") or "")
        if m is None:
            return ()
        other = None
        t = ctx.target
        if t is not None and t.marks.get("charged") == [ctx.state.round, ctx.actor.id]:
            tm = ctx.state.combatants.get(t.marks.get("mount") or "")
            other = tm.stats.str_step if tm is not None else None
        return mounted.charge_damage_mods(m.stats.str_step, other)

    def _p_flame_weapon(self, ctx: TestContext) -> Iterable[Modifier]:
        a = ctx.attack
        cond = ctx.actor.conditions.get("flame-weapon")
        if cond is None or a is None or a.kind not in ("melee", "thrown", "missile"):
            return ()
        return (Modifier(cond.value, "Flame Weapon", spells.SPELL_RULE),)

    def _p_grappled_dn(self, ctx: TestContext) -> Iterable[Modifier]:
        c = ctx.actor.conditions.get("grappled")
        t = ctx.target
        if c is None or t is None or ctx.test != "attack":
            return ()
        p: CombatProfile = t.stats
        defense = p.physical_defense if ctx.against == "physical" else p.mystic_defense
        raise_to = close.attack_dn_while_grappled(defense, c.value)
        if raise_to > defense:
            return (
                Modifier(
                    raise_to - defense,
                    f"DN: grappled, must beat the hold's step {c.value}",
                    close.GRAPPLING_RULE,
                ),
            )
        return ()

    # ----- the attack -------------------------------------------------------------------------------------
    def _r_attack_chapter(
        self, state: FightState, command: Command, dice: DiceSource, sc: Scratch, core: Action
    ) -> None:
        me = state.combatants[command.actor]
        p: CombatProfile = me.stats
        a = p.attack(command.args.get("attack"))
        assert a is not None
        if me.hidden and not me.marks.get("revealed"):
            sc.emit(ev.Marked(me.id, "revealed", True, SURPRISE_RULE))
        mid = me.marks.get("mount")
        if (
            mid
            and mid in state.combatants
            and not self._into_combat(state, sc, dice, me, state.combatants[mid])
        ):
            self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]
            return
        special, single, command = self.option_strike(state, me, a, command)
        if not special:
            before = len(sc.events)
            core.resolve(state, command, dice, sc)
            if not a.close and a.kind != "spell":
                victim = self._stray(state, sc, dice, me, command, a, before)
                if a.kind == "thrown":
                    self._scatter_throw(state, sc, dice, me, command, a, before, victim)
            return
        path = [tuple(h) for h in command.args.get("path") or ()]
        self._emit_move(state, command, sc, path, "move", self.ref("movement"))  # type: ignore[attr-defined]
        # a creature with several Actions makes that many attacks until the target falls (as the core does)
        n = 1 if single or a.kind == "spell" else p.actions
        for i in range(n):
            t = sc.get(command.target or "")
            if t.status == "dead" or (i and t.status != "active") or sc.get(me.id).status != "active":
                break
            before = len(sc.events)
            self.special_attack(state, sc, dice, sc.get(me.id), t, a, command, bool(sc.flags.get("reserved")))
            if not a.close and a.kind != "spell":
                # a missed throw of a net or bola is a missed shot like any other: it may strike someone in
                # the way (p.392) and, thrown, it scatters (p.393)
                victim = self._stray(state, sc, dice, me, command, a, before)
                if a.kind == "thrown":
                    self._scatter_throw(state, sc, dice, me, command, a, before, victim)
        after = [tuple(h) for h in command.args.get("after") or ()]
        if after and sc.get(me.id).status == "active":
            self._emit_move(state, command, sc, after, "move", self.ref("movement"))  # type: ignore[attr-defined]
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def option_strike(
        self, state: FightState, me: Combatant, a: AttackProfile, command: Command
    ) -> tuple[bool, bool, Command]:
        """What the options in force make of one strike, whatever command makes it (an attack, a charge, a
        swoop, a reserved strike at a charging rider or a swooper): (special, single, command).

        ``special``: the strike goes through :meth:`special_attack` (grappling, an entangling weapon,
        Attacking to Knockdown, Shattering a Shield, a Called Shot at a weapon); ``single``: one Attack test
        only, whatever the creature's Actions. ``command`` carries ``stun`` when Attacking to Stun is in
        force for a close attack (p.383): every close combat Attack test of the round deals Stun damage.
        """
        mine = in_force(state, me)
        single = bool(
            command.args.get("grapple")
            or (a.close and opt.SHATTER in mine)
            or (opt.CALLED_SHOT in mine and command.args.get("called") == "weapon")
        )
        special = single or (a.close and opt.KNOCKDOWN in mine) or self._entangling(me, a)
        if opt.STUN in mine and a.close and not command.args.get("stun"):
            command = dataclasses.replace(command, args={**command.args, "stun": True})
        return special, single, command

    def _entangling(self, me: Combatant, a: AttackProfile) -> bool:
        src = getattr(me.stats, "source", None)
        for x in getattr(src, "attacks", ()) or ():
            if getattr(x, "name", None) == a.name:
                return bool(getattr(x, "entangling", False))
        return False

    def _weapon_key(self, me: Combatant, a: AttackProfile) -> str | None:
        """The weapons.toml key of the weapon an attack is made with (None for a creature's own attack)."""
        src = getattr(me.stats, "source", None)
        for x in getattr(src, "attacks", ()) or ():
            if getattr(x, "name", None) == a.name:
                return getattr(x, "weapon", None)
        return None

    def attack_test(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        t: Combatant,
        a: AttackProfile,
        command: Command | None,
        reserved: bool,
        label: str = "Attack",
    ) -> tuple[Any, TestContext]:
        yards = distance(me.pos, t.pos) * 2 if me.pos is not None and t.pos is not None else 0
        ctx = TestContext(
            state, sc, "attack", me, t, a, command, a.against, {"yards": yards, "reserved": reserved}
        )
        smods = self.step_mods(ctx)  # type: ignore[attr-defined]
        tp: CombatProfile = t.stats
        defense = {"physical": tp.physical_defense, "mystic": tp.mystic_defense}.get(
            a.against, tp.social_defense
        )
        dmods = self.defense_mods(ctx)  # type: ignore[attr-defined]
        dn = max(1, defense + sum(m.value for m in dmods))
        karma = bool(command is not None and command.args.get("karma")) and a.karma and me.count("karma") > 0
        if karma:
            sc.emit(
                ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", self.ref("karma"))
            )  # type: ignore[attr-defined]
        p: CombatProfile = me.stats
        against = {"physical": "Physical Defense", "mystic": "Mystic Defense"}.get(
            a.against, "Social Defense"
        )
        res = run_test(
            dice,
            self.edition,
            a.step,
            smods,
            dn,
            p.karma_step if karma else None,
            me.name,
            f"{a.name} {label}",
            against,
        )  # type: ignore[attr-defined]
        sc.emit(
            rolled_event(
                me.id, f"{a.name} {label}", res, self.ref("attack"), t.id, against, dmods, self.ref("karma")
            )
        )  # type: ignore[attr-defined]
        return res, ctx

    def damage_test(
        self,
        sc: Scratch,
        dice: DiceSource,
        ctx: TestContext,
        step: int,
        extra_mods: list[Modifier],
        name: str,
        rule: str,
    ) -> Any:
        ctx.test = "damage"
        mods = self.step_mods(ctx) + extra_mods  # type: ignore[attr-defined]
        res = run_test(dice, self.edition, step, mods, None, None, ctx.actor.name, name)  # type: ignore[attr-defined]
        sc.emit(rolled_event(ctx.actor.id, name, res, rule, ctx.target.id if ctx.target else None))
        return res

    def _p_armor_reduced(self, t: Combatant, a: AttackProfile) -> Iterable[Modifier]:
        """Earth Darts and the like: the target's physical armor is reduced while the condition lasts
        (p.393, the spell's effect); an armor provider, so every attack path meets it."""
        red = t.conditions.get("armor-reduced")
        if red is not None and a.armor == "physical":
            return (Modifier(-red.value, "armor reduced", red.rule or spells.SPELL_RULE),)
        return ()

    def special_attack(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        t: Combatant,
        a: AttackProfile,
        command: Command,
        reserved: bool,
    ) -> Any:
        """Attacks whose outcome is not plain damage: grappling (p.392), entangling (p.391), Attacking to
        Knockdown (p.383), Shattering a Shield (p.385), a Called Shot at a held item (p.384). Returns the
        Attack test's result (None when a rider leaping off to grapple is knocked out by the fall)."""
        mine = in_force(state, me)
        leap = bool(command.args.get("grapple")) and mount_of(state, state.combatants[me.id]) is not None
        if leap:
            # throwing himself off his mount to grapple: Step 5/D8 to the rider (p.395)
            self._leap_off(state, sc, dice, me.id, t.id)
            me = sc.get(me.id)
            if me.status != "active":
                return
        res, ctx = self.attack_test(state, sc, dice, me, t, a, command, reserved)
        if not res.success:
            return res
        r = self.ref  # type: ignore[attr-defined]
        if command.args.get("grapple"):
            if leap and close.grapples(res.success, res.extra):
                self._fall_damage(sc, dice, t.id, mounted.FALL_STEP, mounted.JUMP_OFF)
            if close.grapples(res.success, res.extra):
                sc.emit(
                    ev.ConditionAdded(t.id, "grappled", state.round + 1, a.step, me.id, close.GRAPPLING_RULE),
                    ev.Marked(me.id, "holding", t.id, close.GRAPPLING_RULE),
                    ev.Note(f"{me.name} grapples {t.name}", me.id, close.GRAPPLING_RULE),
                )
            else:
                sc.emit(
                    ev.Note(
                        f"{me.name} hits but gets no hold (grappling needs an extra success)",
                        me.id,
                        close.GRAPPLING_RULE,
                    )
                )
            return res
        extra = res.extra if a.against == "physical" else 0
        if a.close and opt.SHATTER in mine:
            dres = self.damage_test(
                sc,
                dice,
                ctx,
                a.damage,
                opt.shatter_step_mods(a.size),
                f"{a.name} Damage vs Shatter Threshold",
                opt.rule(opt.SHATTER),
            )
            thr = t.stats.shield_shatter or 0
            magical = bool(t.marks.get("magical_shield"))
            if magical:
                sc.emit(
                    ev.Note(
                        f"{t.name}'s shield is magical: 10 more to break it", me.id, opt.rule(opt.SHATTER)
                    )
                )
            if opt.shield_shatters(dres.total, thr, magical):
                sc.emit(
                    ev.Marked(t.id, "shield_shattered", True, opt.rule(opt.SHATTER)),
                    ev.Note(
                        f"{t.name}'s shield shatters ({dres.total} against {opt.shatter_dn(thr, magical)})",
                        me.id,
                        opt.rule(opt.SHATTER),
                    ),
                )
            else:
                sc.emit(
                    ev.Note(
                        f"{t.name}'s shield holds ({dres.total} against {opt.shatter_dn(thr, magical)})",
                        me.id,
                        opt.rule(opt.SHATTER),
                    )
                )
            return res
        mods = []
        if self._entangling(me, a):
            left = self._entangle(sc, me, t, a, extra)
            if left is None:
                return res  # a net only entangles: no Damage test [choice, data/entangling.toml]
            extra = left
        if extra:
            mods.append(
                Modifier(
                    extra * 2,
                    f"{extra} extra success{'es' if extra > 1 else ''}",
                    r("attack.extra-successes"),
                )
            )
        if opt.CALLED_SHOT in mine and command.args.get("called") == "weapon":
            weapon, two_handed = self._held_weapon(t)
            dn, hold = opt.called_shot_hold(a.damage, two_handed)
            # a Strength test of the holder's: his Wounds, Harried, Knocked Down... count (p.381, p.388)
            hold = self.step_mods(TestContext(state, sc, "strength", sc.get(t.id))) + hold  # type: ignore[attr-defined]
            tr = run_test(
                dice,
                self.edition,
                t.stats.str_step,
                hold,
                dn,
                None,
                t.name,
                "Strength (hold on)",
                "Damage Step",
            )  # type: ignore[attr-defined]
            sc.emit(
                rolled_event(t.id, "Strength (hold on)", tr, opt.rule(opt.CALLED_SHOT), me.id, "Damage Step")
            )
            if not tr.success and weapon:
                lost = list(t.marks.get("lost_weapons") or ())
                lost += [
                    x.name
                    for x in t.stats.attacks
                    if _weapon_of(x.name) == _weapon_of(weapon) and x.name not in lost
                ]  # its thrown use too
                sc.emit(
                    ev.Marked(t.id, "lost_weapons", lost, opt.rule(opt.CALLED_SHOT)),
                    ev.Note(f"{t.name} loses the {weapon}", t.id, opt.rule(opt.CALLED_SHOT)),
                )
            return res
        dres = self.damage_test(sc, dice, ctx, a.damage, mods, f"{a.name} Damage", r("damage"))
        armor = self.armor_of(t, a)
        if a.close and opt.KNOCKDOWN in mine:
            dn = opt.knockdown_attack_dn(dres.total, armor)
            if "knocked-down" in t.conditions or t.status != "active":
                return res
            kmods = self.step_mods(TestContext(state, sc, "knockdown", t))  # type: ignore[attr-defined]
            kres = run_test(
                dice,
                self.edition,
                t.stats.knockdown_step,
                kmods,
                max(dn, 1),
                None,
                t.name,
                "Knockdown",
                "Knockdown DN",
            )  # type: ignore[attr-defined]
            sc.emit(rolled_event(t.id, "Knockdown", kres, opt.rule(opt.KNOCKDOWN), me.id, "Knockdown DN"))
            if not kres.success:
                sc.emit(ev.ConditionAdded(t.id, "knocked-down", None, 3, me.id, opt.rule(opt.KNOCKDOWN)))
            return res
        self.deal(state, sc, dice, me, t, a, dres.total, armor, command)
        return res

    def _entangle(self, sc: Scratch, me: Combatant, t: Combatant, a: AttackProfile, extra: int) -> int | None:
        """An entangling weapon strikes ``t`` with ``extra`` extra successes (p.391): one entangles him (not
        again if he is entangled already), and the extra successes spent on it add no damage. Returns the
        extra successes left for the Damage test, or None when the weapon makes no Damage test (a net
        [choice, data/entangling.toml])."""
        key = self._weapon_key(me, a)
        if close.entangles(extra, True) and "entangled" not in t.conditions:
            dn = close.entangle_dn(key, a.damage)
            sc.emit(
                ev.ConditionAdded(t.id, "entangled", None, dn, me.id, close.ENTANGLING_RULE),
                ev.Marked(t.id, "entangled_by", [me.id, a.name], close.ENTANGLING_RULE),
                ev.Note(f"{t.name} is entangled (DN {dn} to break free)", me.id, close.ENTANGLING_RULE),
            )
            extra = close.entangled_damage_extra(extra)
        return None if close.entangles_only(key) else extra

    def _held_weapon(self, t: Combatant) -> tuple[str | None, bool]:
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

    def _scatter_throw(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        command: Command,
        a: AttackProfile,
        before: int,
        victim: str | None,
    ) -> None:
        """A thrown object that misses its target scatters (p.393, the Brighton example): D6 for the
        direction, a test at Step (DN - result) for the feet from the target. It lands there (where the
        weapon then lies); one that strikes someone in the way lies at his feet."""
        t = state.combatants.get(command.target or "")
        if t is None:
            return
        miss = next(
            (
                e
                for e in reversed(sc.events[before:])
                if isinstance(e, ev.Rolled) and e.actor == me.id and e.test.endswith("Attack")
            ),
            None,
        )
        if miss is None or miss.success is not False:
            return
        landed = sc.flags.setdefault("landed", {})
        if victim is not None:
            landed[a.name] = sc.get(victim).pos
            return
        at = sc.get(t.id).pos
        if at is None or miss.dn is None:
            return
        s = ranged.scatter(miss.dn, miss.total, dice, self.edition)  # type: ignore[attr-defined]
        where = ranged.scatter_hex(at, s.direction, s.feet)
        landed[a.name] = where
        sc.emit(
            rolled_event(me.id, f"Scatter distance (Step {s.step})", s.test, ranged.SCATTER_RULE),
            ev.Note(
                f"the {_weapon_of(a.name)} scatters {s.feet} feet in direction {s.direction}, "
                f"to {list(where)}",
                me.id,
                ranged.SCATTER_RULE,
            ),
        )

    def _leap_off(
        self, state: FightState, sc: Scratch, dice: DiceSource, rider_id: str, target_id: str
    ) -> None:
        r = sc.get(rider_id)
        t = sc.get(target_id)
        taken = state.occupied(rider_id)
        spot = next((h for h in neighbours(t.pos) if h not in taken), None) if t.pos else None
        sc.emit(
            ev.Marked(rider_id, "mount", None, mounted.JUMP_OFF),
            ev.Moved(rider_id, (spot,) if spot else (), "leap", None, 0, mounted.JUMP_OFF),
            ev.Note(f"{r.name} throws himself off the mount onto {t.name}", rider_id, mounted.JUMP_OFF),
        )
        self._fall_damage(sc, dice, rider_id, mounted.FALL_STEP, mounted.JUMP_OFF)

    def deal(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        t: Combatant,
        a: AttackProfile,
        raw: int,
        armor: int,
        command: Command | None,
    ) -> None:
        def kd_mods(tt: Combatant, new_wounds: int) -> list[Modifier]:
            return self.step_mods(TestContext(state, sc, "knockdown", tt, extra={"new_wounds": new_wounds}))  # type: ignore[attr-defined]

        stun = a.stun or bool(command and command.args.get("stun"))
        damage_events(
            sc,
            self.edition,
            dice,
            t.id,
            raw,
            armor,
            me.id,
            stun=stun,  # type: ignore[attr-defined]
            damage_type=a.armor if a.armor != "none" else "unarmored",
            knockdown_mods=kd_mods,
            round_no=state.round,
        )

    def _stray(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        command: Command,
        a: AttackProfile,
        before: int,
    ) -> str | None:
        """A missed shot into close combat may strike someone in the way, closest first (p.392). Returns
        the id of the one struck, if any."""
        t = state.combatants.get(command.target or "")
        if t is None:
            return None
        for e in sc.events[before:]:
            if (
                isinstance(e, ev.Rolled)
                and e.actor == me.id
                and e.test.endswith("Attack")
                and e.success is False
            ):
                if e.outcome.startswith("Rule of One"):
                    continue
                inter = self.intervening(state, sc.get(me.id), t)
                if not inter:
                    return None
                hit = ranged.stray_hit(e.total, [(c.id, c.stats.physical_defense) for c in inter])
                if hit is None:
                    sc.emit(
                        ev.Note("the missed shot strikes nobody in the way", me.id, ranged.INTO_CLOSE_RULE)
                    )
                    return None
                victim = sc.get(hit)
                sc.emit(
                    ev.Note(f"the missed shot strikes {victim.name} instead", me.id, ranged.INTO_CLOSE_RULE)
                )
                extra = extra_successes(e.total, victim.stats.physical_defense)
                if self._entangling(me, a):
                    # a thrown net or bola strikes him as it would its target (p.391-392)
                    left = self._entangle(sc, sc.get(me.id), victim, a, extra)
                    if left is None:
                        return victim.id
                    extra = left
                ctx = TestContext(
                    state, sc, "damage", sc.get(me.id), victim, a, command, a.against, {"yards": 0}
                )
                mods = (
                    [Modifier(extra * 2, f"{extra} extra successes", self.ref("attack.extra-successes"))]
                    if extra
                    else []
                )  # type: ignore[attr-defined]
                dres = self.damage_test(
                    sc, dice, ctx, a.damage, mods, f"{a.name} Damage", ranged.INTO_CLOSE_RULE
                )
                self.deal(
                    state, sc, dice, sc.get(me.id), victim, a, dres.total, self.armor_of(victim, a), command
                )
                return victim.id
        return None

    # ----- Jump Up, Tail Attack -----------------------------------------------------------------------------
    def _v_jump_up(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if opt.JUMP_UP not in declared(state, me.id):
            raise IllegalCommand("Jump Up must be declared before Initiative", opt.DECLARE_RULE)
        if "knocked-down" not in me.conditions:
            raise IllegalCommand(f"{me.name} is not knocked down", opt.rule(opt.JUMP_UP))
        if state.round in (me.marks.get("jumped_up"), me.marks.get("jump_tried")):
            raise IllegalCommand("Jump Up once a round", opt.rule(opt.JUMP_UP))

    def _r_jump_up(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        rule = opt.rule(opt.JUMP_UP)
        strain_events(sc, self.edition, me.id, 2, "Jump Up", rule)  # type: ignore[attr-defined]
        sc.emit(ev.Marked(me.id, "jump_tried", state.round, rule))
        if sc.get(me.id).status != "active":
            return
        p: CombatProfile = me.stats
        # "the Initiative Penalty of any armor he is wearing" (p.384): the armor's, not the shield's; a stat
        # block without its armor's numbers: what its Initiative step lacks of its Dexterity step [choice]
        src = getattr(p, "source", None)
        if src is not None and hasattr(src, "armor"):
            penalty = src.armor.initiative_penalty if src.armor is not None else 0
        else:
            penalty = max(0, p.dex_step - p.initiative_step)
        mods = self.step_mods(TestContext(state, sc, "jump-up", me)) + opt.jump_up_mods(penalty)  # type: ignore[attr-defined]
        mods += situation.impaired_mods(_impaired(state, me), True)
        res = run_test(
            dice, self.edition, p.dex_step, mods, opt.jump_up_dn(), None, me.name, "Jump Up (Dexterity)", "DN"
        )  # type: ignore[attr-defined]
        sc.emit(rolled_event(me.id, "Jump Up (Dexterity)", res, rule))
        if res.success:
            sc.emit(
                ev.ConditionRemoved(me.id, "knocked-down", "jumps up", rule),
                ev.Marked(me.id, "jumped_up", state.round, rule),
            )
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(me.id))

    def _v_tail(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if opt.TAIL not in declared(state, me.id):
            raise IllegalCommand("Tail Attack must be declared before Initiative", opt.DECLARE_RULE)
        if opt.TAIL not in in_force(state, me):
            raise IllegalCommand(
                f"{me.name} is knocked down: no combat option until he is standing (p.389)",
                opt.KNOCKED_DOWN_RULE,
            )
        if me.marks.get("tail") == state.round:
            raise IllegalCommand("one tail attack a round", opt.rule(opt.TAIL))
        t = self._target(state, command)  # type: ignore[attr-defined]
        if me.pos and t.pos and distance(me.pos, t.pos) != 1:
            raise IllegalCommand("the tail reaches an adjacent opponent only", opt.rule(opt.TAIL))

    def tail_profile(self, me: Combatant) -> AttackProfile:
        p: CombatProfile = me.stats
        step, dmg = opt.tail_attack_steps(p.dex_step, rank(me, "Unarmed Combat"), p.str_step)
        return AttackProfile("Tail", "unarmed", step, dmg)

    def _r_tail(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        a = self.tail_profile(me)
        sc.emit(ev.Marked(me.id, "tail", state.round, opt.rule(opt.TAIL)))
        res, ctx = self.attack_test(state, sc, dice, me, sc.get(command.target or ""), a, command, False)
        if res.success:
            mods = (
                [Modifier(res.extra * 2, f"{res.extra} extra successes", self.ref("attack.extra-successes"))]
                if res.extra
                else []
            )  # type: ignore[attr-defined]
            dres = self.damage_test(sc, dice, ctx, a.damage, mods, "Tail Damage", opt.rule(opt.TAIL))
            t = sc.get(command.target or "")
            self.deal(state, sc, dice, me, t, a, dres.total, self.armor_of(t, a), command)
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(me.id))

    # ----- grappling and entangling -------------------------------------------------------------------------
    def _v_break_free(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if "grappled" not in me.conditions and "entangled" not in me.conditions:
            raise IllegalCommand(f"{me.name} is neither grappled nor entangled", close.GRAPPLING_RULE)

    def _r_break_free(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        p: CombatProfile = me.stats
        unarmed = next((x.step for x in p.attacks if x.kind == "unarmed"), 0)
        if "grappled" in me.conditions:
            cond = me.conditions["grappled"]
            step, dn = close.break_free_grapple(unarmed, p.str_step, cond.value)
            mods = self.step_mods(TestContext(state, sc, "strength", me))  # type: ignore[attr-defined]
            res = run_test(
                dice, self.edition, step, mods, dn, None, me.name, "Break free (grapple)", "hold's step"
            )  # type: ignore[attr-defined]
            sc.emit(
                rolled_event(
                    me.id,
                    "Break free (grapple)",
                    res,
                    close.GRAPPLING_RULE,
                    cond.source,
                    "hold's Unarmed Combat Step",
                )
            )
            if res.success:
                sc.emit(ev.ConditionRemoved(me.id, "grappled", "breaks free", close.GRAPPLING_RULE))
                if cond.source in state.combatants:
                    sc.emit(ev.Marked(cond.source, "holding", None, close.GRAPPLING_RULE))
        else:
            cond = me.conditions["entangled"]
            away = set(me.marks.get("thrown_away") or ()) | set(me.marks.get("lost_weapons") or ())
            blade = next(
                (
                    x.damage - p.str_step
                    for x in p.attacks
                    if x.kind == "melee"
                    and x.name not in away
                    and close.is_one_handed_blade(x.name, x.size, ONE_HANDED_LIMIT.get(race(me), 3))
                ),
                None,
            )
            step, extra, ruins = close.break_free_entangle(p.str_step, p.dex_step, blade)
            mods = self.step_mods(TestContext(state, sc, "break-free", me)) + extra  # type: ignore[attr-defined]
            res = run_test(
                dice,
                self.edition,
                step,
                mods,
                cond.value,
                None,
                me.name,
                "Break free (entangled)",
                "weapon's DN",
            )  # type: ignore[attr-defined]
            sc.emit(
                rolled_event(
                    me.id, "Break free (entangled)", res, close.ENTANGLING_RULE, against="weapon's DN"
                )
            )
            if res.success:
                by = me.marks.get("entangled_by")
                sc.emit(
                    ev.ConditionRemoved(
                        me.id, "entangled", "cuts free" if ruins else "breaks free", close.ENTANGLING_RULE
                    ),
                    ev.Marked(me.id, "entangled_by", None, close.ENTANGLING_RULE),
                )
                if ruins and by:
                    self._ruin_entangler(state, sc, by)
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _ruin_entangler(self, state: FightState, sc: Scratch, by: list[str]) -> None:
        """Cutting free with a blade ruins the entangling weapon (p.391): a whip in its wielder's hand is
        lost to him; a thrown net or bola can no longer be picked up. ``by``: [wielder id, attack name]."""
        if by[0] not in state.combatants:
            return
        owner = sc.get(by[0])
        name = str(by[1])
        sc.emit(ev.Note(f"the {_weapon_of(name)} is ruined", owner.id, close.ENTANGLING_RULE))
        a = owner.stats.attack(name)
        if a is not None and a.kind == "thrown":
            lying = dict(owner.marks.get("thrown_to") or {})
            if lying.pop(_weapon_of(name), 0) != 0:
                sc.emit(ev.Marked(owner.id, "thrown_to", lying or None, close.ENTANGLING_RULE))
            return
        gone = [x.name for x in owner.stats.attacks if _weapon_of(x.name) == _weapon_of(name)]
        lost = list(owner.marks.get("lost_weapons") or ())
        lost += [g for g in gone if g not in lost]
        sc.emit(ev.Marked(owner.id, "lost_weapons", lost, close.ENTANGLING_RULE))

    def _v_hold(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        held = state.combatants.get(me.marks.get("holding") or "")
        if held is None or "grappled" not in held.conditions:
            raise IllegalCommand(f"{me.name} holds nobody", close.GRAPPLING_RULE)

    def _r_hold(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        held = sc.get(me.marks["holding"])
        cond = held.conditions["grappled"]
        sc.emit(
            ev.ConditionAdded(held.id, "grappled", state.round + 1, cond.value, me.id, close.GRAPPLING_RULE),
            ev.Note(f"{me.name} keeps hold of {held.name}", me.id, close.GRAPPLING_RULE),
        )
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _v_release(self, state: FightState, command: Command) -> None:
        me = state.combatants[command.actor]
        if not me.marks.get("holding"):
            raise IllegalCommand(f"{me.name} holds nobody", close.GRAPPLING_RULE)

    def _r_release(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        held = me.marks["holding"]
        sc.emit(ev.Marked(me.id, "holding", None, close.GRAPPLING_RULE))
        if "grappled" in sc.get(held).conditions:
            sc.emit(ev.ConditionRemoved(held, "grappled", "let go", close.GRAPPLING_RULE))

    # ----- throwing at an area ----------------------------------------------------------------------------
    def _v_throw_at(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        at = command.args.get("at")
        if not (isinstance(at, list | tuple) and len(at) == 2):
            raise IllegalCommand("throw-at needs at: [q, r]", ranged.AREA_RULE)
        p: CombatProfile = me.stats
        a = p.attack(command.args.get("attack"))
        if a is None or a.kind not in ("thrown",) and not command.args.get("improvised"):
            raise IllegalCommand(
                "throw a throwing weapon, or an object with improvised: true", ranged.AREA_RULE
            )
        if me.pos is not None:
            apart = distance(me.pos, (int(at[0]), int(at[1])))
            yards = apart * 2
            longest = int(command.args.get("range", a.long or 10))
            if not within(apart, longest):
                raise IllegalCommand(f"the area is {yards} yards away, beyond {longest}", ranged.RANGED_RULE)

    def _r_throw_at(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        a = me.stats.attack(command.args.get("attack"))
        at = (int(command.args["at"][0]), int(command.args["at"][1]))
        ctx = TestContext(state, sc, "attack", me, None, a, command)
        mods = self.step_mods(ctx)  # type: ignore[attr-defined]
        dn_mods = list(self._reserved_dn(ctx))  # type: ignore[attr-defined]
        res = run_test(
            dice,
            self.edition,
            a.step,
            mods,
            ranged.area_dn() + sum(m.value for m in dn_mods),
            None,
            me.name,
            f"{a.name} thrown at an area",
            "DN",
        )  # type: ignore[attr-defined]
        sc.emit(rolled_event(me.id, f"{a.name} thrown at an area", res, ranged.AREA_RULE, dn_mods=dn_mods))
        where = at
        if not res.success:
            s = ranged.scatter(res.dn or ranged.area_dn(), res.total, dice, self.edition)  # type: ignore[attr-defined]
            where = ranged.scatter_hex(at, s.direction, s.feet)
            sc.emit(
                rolled_event(me.id, f"Scatter distance (Step {s.step})", s.test, ranged.SCATTER_RULE),
                ev.Note(
                    f"it scatters {s.feet} feet in direction {s.direction}, to {list(where)}",
                    me.id,
                    ranged.SCATTER_RULE,
                ),
            )
        sc.emit(
            ev.Note(
                f"the {a.name} lands on {list(where)}; what it does there is the gamemaster's call",
                me.id,
                ranged.AREA_RULE,
            )
        )
        if a.kind == "thrown" and not command.args.get("improvised"):
            self._drop(sc, me.id, a, where)  # the throwing weapon lies where it landed (p.392)
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    # ----- spells -------------------------------------------------------------------------------------------
    def _spell_step(self, me: Combatant, spell: spells.SpellData) -> int:
        p: CombatProfile = me.stats
        for a in p.attacks:
            if a.kind == "spell" and a.name.lower() == spell.name.lower():
                return a.step
        best = [a.step for a in p.attacks if a.kind == "spell"]
        if best:
            return max(best)
        rk = rank(me, "Spellcasting")
        if rk:
            return p.per_step + rk
        raise IllegalCommand(f"{me.name} cannot cast spells", spells.SPELL_RULE)

    def _known_spell(self, state: FightState, command: Command) -> tuple[Combatant, spells.SpellData]:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        name = str(command.args.get("spell", ""))
        try:
            spell = spells.get_spell(name)
        except Exception as exc:  # RuleNotImplemented
            raise IllegalCommand(str(exc), spells.SPELL_RULE) from None
        self._spell_step(me, spell)
        return me, spell

    def _v_weave(self, state: FightState, command: Command) -> None:
        me, spell = self._known_spell(state, command)
        woven = (me.marks.get("woven") or {}).get(spell.name, 0)
        if woven >= spell.threads:
            raise IllegalCommand(f"{spell.name} has all its threads woven", spells.WEAVING_RULE)

    def _r_weave(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        spell = spells.get_spell(str(command.args["spell"]))
        mods = self.step_mods(TestContext(state, sc, "spellcasting", me))  # type: ignore[attr-defined]
        res = run_test(
            dice,
            self.edition,
            self._spell_step(me, spell),
            mods,
            spell.weaving,
            None,
            me.name,
            f"Thread Weaving ({spell.name})",
            "weaving difficulty",
        )  # type: ignore[attr-defined]
        sc.emit(
            rolled_event(
                me.id,
                f"Thread Weaving ({spell.name})",
                res,
                spells.WEAVING_RULE,
                against="weaving difficulty",
            )
        )
        if res.success:
            woven = dict(me.marks.get("woven") or {})
            woven[spell.name] = woven.get(spell.name, 0) + 1
            sc.emit(ev.Marked(me.id, "woven", woven, spells.WEAVING_RULE))
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _v_cast(self, state: FightState, command: Command) -> None:
        me, spell = self._known_spell(state, command)
        woven = (me.marks.get("woven") or {}).get(spell.name, 0)
        if woven < spell.threads:
            raise IllegalCommand(
                f"{spell.name} needs {spell.threads} thread(s) woven first ({woven} now)", spells.WEAVING_RULE
            )
        t = self._target(state, command)  # type: ignore[attr-defined]
        if spell.kind == "attack" and t.side == me.side:
            raise IllegalCommand(f"{spell.name} is cast at an opponent", spells.SPELL_RULE)
        if me.pos is not None and t.pos is not None:
            apart = distance(me.pos, t.pos)
            yards = apart * 2
            if not within(apart, max(spell.range, 1)):
                raise IllegalCommand(
                    f"{t.name} is {yards} yards away; {spell.name} reaches {spell.range}", spells.SPELL_RULE
                )

    def _r_cast(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        spell = spells.get_spell(str(command.args["spell"]))
        t = sc.get(command.target or "")
        if spell.threads:
            woven = dict(me.marks.get("woven") or {})
            woven.pop(spell.name, None)
            sc.emit(ev.Marked(me.id, "woven", woven, spells.WEAVING_RULE))
        a = AttackProfile(
            spell.name,
            "spell",
            self._spell_step(me, spell),
            me.stats.wil_step + spell.effect,
            "mystic",
            spell.armor,
        )
        ctx = TestContext(state, sc, "spellcasting", me, t, a, command, "mystic", {})
        smods = self.step_mods(ctx)  # type: ignore[attr-defined]
        dmods = self.defense_mods(ctx) if t.side != me.side else []  # type: ignore[attr-defined]
        dn = max(1, t.stats.mystic_defense + sum(m.value for m in dmods))
        res = run_test(
            dice,
            self.edition,
            a.step,
            smods,
            dn,
            None,
            me.name,
            f"{spell.name} Spellcasting",
            "Mystic Defense",
        )  # type: ignore[attr-defined]
        sc.emit(
            rolled_event(
                me.id, f"{spell.name} Spellcasting", res, spells.SPELL_RULE, t.id, "Mystic Defense", dmods
            )
        )
        if not res.success:
            self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]
            return
        out = spells.outcome(spell, res.extra)
        if spell.kind == "weapon-buff":
            sc.emit(
                ev.ConditionAdded(
                    t.id,
                    "flame-weapon",
                    state.round + out.buff_rounds - 1,
                    out.buff_steps,
                    me.id,
                    spells.SPELL_RULE,
                ),
                ev.Note(
                    f"{t.name}'s weapon burns: +{out.buff_steps} damage steps for {out.buff_rounds} rounds",
                    me.id,
                    spells.SPELL_RULE,
                ),
            )
        else:
            if out.armor_reduction:
                sc.emit(
                    ev.ConditionAdded(
                        t.id,
                        "armor-reduced",
                        state.round + out.armor_rounds - 1,
                        out.armor_reduction,
                        me.id,
                        spells.SPELL_EXTRA_RULE,
                    )
                )
            step, emods = spells.effect_step(me.stats.wil_step, spell)
            ctx.test = "effect"
            mods = emods + list(out.effect_mods) + self.step_mods(ctx)  # type: ignore[attr-defined]
            eres = run_test(dice, self.edition, step, mods, None, None, me.name, f"{spell.name} Effect")  # type: ignore[attr-defined]
            sc.emit(rolled_event(me.id, f"{spell.name} Effect", eres, spells.EFFECT_RULE, t.id))
            self.deal(state, sc, dice, me, t, a, eres.total, self.armor_of(t, a), command)
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    # ----- mounts -----------------------------------------------------------------------------------------
    def _v_mount(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        m = self._target(state, command)  # type: ignore[attr-defined]
        if m.side != me.side or "training" not in m.marks:
            raise IllegalCommand(f"{m.name} is not a mount of {me.name}'s side", mounted.MOUNTING)
        if rider_of(state, m) is not None or me.marks.get("mount"):
            raise IllegalCommand("one rider to a mount", mounted.MOUNTING)
        if me.pos and m.pos and distance(me.pos, m.pos) != 1:
            raise IllegalCommand(f"{me.name} must stand next to {m.name}", mounted.MOUNTING)

    def _r_mount(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        m = sc.get(command.target or "")
        needs = mounted.needs_trick_riding_to_mount(m.marks.get("training", "combat"))
        if needs and not self._trick_riding(state, sc, dice, me, m, "mount", mounted.MOUNTING):
            self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]
            return
        sc.emit(
            ev.Moved(me.id, (m.pos,), "mount", None, m.altitude, mounted.MOUNTING),
            ev.Marked(me.id, "mount", m.id, mounted.MOUNTING),
            ev.Marked(m.id, "rider", me.id, mounted.MOUNTING),
            ev.Note(f"{me.name} mounts {m.name}", me.id, mounted.MOUNTING),
        )
        self._rider_initiative(state, sc, me.id, m)
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _rider_initiative(self, state: FightState, sc: Scratch, rider_id: str, m: Combatant) -> None:
        """A trained mount without a rider at the start of the round takes its rider's Initiative once
        mounted (p.395): if it has not acted yet it acts right after him; the actions it used stay used."""
        if not mounted.mount_acts_on_rider_initiative(m.marks.get("training", "combat")):
            return
        if rider_id not in state.initiative or m.id in state.acted or m.id not in state.order:
            return
        order = [c for c in state.order if c != m.id]
        order.insert(order.index(rider_id) + 1, m.id)
        sc.emit(ev.InitiativeRolled(m.id, state.initiative[rider_id], None, None, (), mounted.SEQUENCE))
        if order != list(state.order):
            sc.emit(ev.OrderSet(tuple(order), mounted.SEQUENCE))

    def _v_dismount(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if mount_of(state, me) is None:
            raise IllegalCommand(f"{me.name} is not mounted", mounted.DISMOUNTING)
        to = command.args.get("to")
        if not (isinstance(to, list | tuple) and len(to) == 2) or me.pos is None:
            raise IllegalCommand(
                "dismount needs to: [q, r], a free hex next to the mount", mounted.DISMOUNTING
            )
        h = (int(to[0]), int(to[1]))
        if distance(h, me.pos) != 1 or h in state.occupied(me.id):
            raise IllegalCommand(f"hex {list(h)} is not a free hex next to the mount", mounted.DISMOUNTING)

    def _r_dismount(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        to = (int(command.args["to"][0]), int(command.args["to"][1]))
        m = mount_of(state, state.combatants[me.id])
        charged = me.marks.get("charged")
        rode = (
            self.moved_this_round(state, me) > 0  # type: ignore[attr-defined]
            or (charged is not None and charged[0] == state.round)
            or (m is not None and self.moved_this_round(state, m) > 0)  # type: ignore[attr-defined]
        )
        sc.emit(
            ev.Marked(me.id, "mount", None, mounted.DISMOUNTING),
            ev.Moved(me.id, (to,), "dismount", None, 0, mounted.DISMOUNTING),
        )
        if rode:
            # he used the mount's movement this round: none of his own, even on foot (p.395)
            sc.emit(ev.Marked(me.id, "moved", [state.round, 10**6], mounted.MOVEMENT))
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(me.id))

    def mount_rate(self, m: Combatant) -> int:
        """The mount's Movement Rate in yards for a charge: its Flying Movement rate while it flies (flying
        charging attacks follow the same rules, p.398), else its Movement Rate (p.396)."""
        if m.altitude > 0 or m.marks.get("flying"):
            fly = getattr(getattr(m.stats, "source", None), "flying_movement", None)
            if fly:
                return int(fly)
        return int(m.stats.movement)

    def _charge_geometry(
        self, state: FightState, command: Command
    ) -> tuple[Combatant, Combatant, Combatant, list[tuple[int, int]], AttackProfile]:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        m = mount_of(state, me)
        if m is None:
            raise IllegalCommand(f"{me.name} is not mounted", mounted.CHARGE)
        t = self._target(state, command)  # type: ignore[attr-defined]
        a = me.stats.attack(command.args.get("attack"))
        if a is None or not a.close:
            raise IllegalCommand("a charging attack is a close combat attack", mounted.CHARGE)
        path = [(int(h[0]), int(h[1])) for h in command.args.get("path") or ()]
        if not path or me.pos is None or t.pos is None:
            raise IllegalCommand("a charge needs path: the hexes the mount runs", mounted.CHARGE)
        if path != line(me.pos, path[-1])[1:]:
            raise IllegalCommand("a charging mount runs in a straight line", mounted.CHARGE)
        if distance(path[-1], t.pos) != 1:
            raise IllegalCommand(f"the charge must end next to {t.name}", mounted.CHARGE)
        blocked = state.occupied(me.id) - {me.pos} | {
            tuple(h) for h in state.extra.get("map", {}).get("blocked", ())
        }
        if any(h in blocked for h in path):
            raise IllegalCommand("the charge path is blocked", mounted.CHARGE)
        rate = self.mount_rate(m)
        if not mounted.charge_eligible(covered_yards(rate), len(path) * 2):
            raise IllegalCommand(
                f"a charge moves more than the mount's Movement Rate {rate}, at most twice it; "
                f"this path is {len(path) * 2} yards",
                mounted.CHARGE,
            )
        if m.marks.get("std") == state.round:
            raise IllegalCommand(f"{m.name} has used its Standard action", mounted.CHARGE)
        return me, m, t, path, a

    def _v_charge(self, state: FightState, command: Command) -> None:
        me, m, t, path, a = self._charge_geometry(state, command)
        after = command.args.get("after")
        if after:
            if opt.SPLIT not in declared(state, me.id):
                raise IllegalCommand("moving after the charge needs Splitting Movement", opt.rule(opt.SPLIT))
            cells = [(int(h[0]), int(h[1])) for h in after]
            if cells != line(path[-1], cells[-1])[1:]:
                raise IllegalCommand("after a charge the mount goes on in a straight line", mounted.CHARGE)
            if (len(path) + len(cells)) * 2 > 2 * covered_yards(self.mount_rate(m)):
                raise IllegalCommand(
                    "the whole charge is at most twice the mount's Movement Rate", mounted.CHARGE
                )

    def _trick_riding(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        m: Combatant,
        why: str,
        rule: str,
    ) -> bool:  # noqa: PLR0913
        """A Trick Riding test (Dexterity + rank, the rider's Action-test modifiers) against the mount's
        Social Defense (p.395-396: to mount an untrained mount, to take an unfamiliar one into combat, to
        charge on one not combat-trained); True if it succeeds."""
        res = run_test(
            dice,
            self.edition,
            me.stats.dex_step + rank(me, "Trick Riding"),
            self.step_mods(TestContext(state, sc, "dexterity", me)),  # type: ignore[attr-defined]
            m.stats.social_defense,
            None,
            me.name,
            f"Trick Riding ({why})",
            "Social Defense",
        )  # type: ignore[attr-defined]
        sc.emit(rolled_event(me.id, f"Trick Riding ({why})", res, rule, m.id, "Social Defense"))
        return bool(res.success)

    def _into_combat(
        self, state: FightState, sc: Scratch, dice: DiceSource, me: Combatant, m: Combatant
    ) -> bool:
        """p.395: a rider not familiar with his mount must succeed at a Trick Riding test against the mount's
        Social Defense to take it into (but not away from) combat. [choice, docs/rulesets/ed4.md] Tested
        before his first attack from its back in the fight (attack or charge); passed, it holds for the
        fight; failed, the mount will not go in: that attack is not made (its action spent), and he may try
        again on a later action. Moving, dismounting or riding away are never tested."""
        if not mounted.needs_trick_riding_into_combat(
            bool(me.marks.get("familiar", True)), me.marks.get("into-combat") == m.id
        ):
            return True
        if self._trick_riding(state, sc, dice, me, m, "into combat", mounted.FAMILIAR):
            sc.emit(ev.Marked(me.id, "into-combat", m.id, mounted.FAMILIAR))
            return True
        sc.emit(
            ev.Note(f"{m.name} will not go into combat: {me.name} makes no attack", me.id, mounted.FAMILIAR)
        )
        return False

    def _r_charge(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me, m, t, path, a = self._charge_geometry(state, command)
        if not self._into_combat(state, sc, dice, me, m):
            sc.emit(ev.Marked(m.id, "std", state.round, mounted.FAMILIAR))
            self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]
            return
        if not self._into_combat(state, sc, dice, me, m):
            sc.emit(ev.Marked(m.id, "std", state.round, mounted.FAMILIAR))
            self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]
            return
        # a flying mount comes down (or up) within close reach of its target: vertical movement is free
        # (p.398)
        alt = None if aerial.in_close_reach(m.altitude, t.altitude) else t.altitude
        sc.emit(
            ev.Marked(m.id, "std", state.round, mounted.CHARGE),
            ev.Marked(me.id, "charged", [state.round, t.id], mounted.CHARGE),
            ev.Moved(me.id, tuple(path), "charge", heading(me.pos, path), alt, mounted.CHARGE),
            ev.Moved(m.id, tuple(path), "charge", heading(m.pos, path), alt, mounted.CHARGE),
            ev.Note(f"{me.name} charges {t.name} ({len(path) * 2} yards)", me.id, mounted.CHARGE),
        )
        charging = True
        if mounted.needs_trick_riding_to_charge(m.marks.get("training", "combat")):
            charging = self._trick_riding(state, sc, dice, me, m, "charge", mounted.CHARGE)
        before = len(sc.events)
        self._set_against(state, sc, dice, me, m, t)
        self._strike_strain(state, sc, t.id, before)
        rider = sc.get(me.id)
        if rider.status == "active" and rider.marks.get("mount") and "knocked-down" not in rider.conditions:
            cmd = dataclasses.replace(command, args={**command.args, "charging": charging})
            # the rider's options work on the charge's strike as on any attack (Attacking to Stun or to
            # Knockdown, Shattering a Shield, a Called Shot at a weapon, an entangling weapon; p.382-385)
            special, _, cmd = self.option_strike(state, rider, a, cmd)
            if special:
                res = self.special_attack(state, sc, dice, rider, sc.get(t.id), a, cmd, False)
            else:
                res, ctx = self.attack_test(state, sc, dice, rider, sc.get(t.id), a, cmd, False)
            if res is not None and res.success and not special:
                mods = (
                    [
                        Modifier(
                            res.extra * 2, f"{res.extra} extra successes", self.ref("attack.extra-successes")
                        )
                    ]
                    if res.extra
                    else []
                )  # type: ignore[attr-defined]
                dres = self.damage_test(
                    sc,
                    dice,
                    ctx,
                    a.damage,
                    mods,
                    f"{a.name} Damage (charging)" if charging else f"{a.name} Damage",
                    mounted.CHARGE,
                )
                tt = sc.get(t.id)
                self.deal(state, sc, dice, rider, tt, a, dres.total, self.armor_of(tt, a), cmd)
            rider = sc.get(me.id)
            if res is not None and res.success and charging:
                sres = run_test(
                    dice,
                    self.edition,
                    rider.stats.str_step,
                    self.step_mods(TestContext(state, sc, "strength", rider)),
                    t.stats.tou_step,
                    None,
                    rider.name,
                    "Strength (after the charge)",
                    "Toughness Step",
                )  # type: ignore[attr-defined]
                sc.emit(
                    rolled_event(
                        me.id,
                        "Strength (after the charge)",
                        sres,
                        mounted.CHARGE_AFTER,
                        t.id,
                        "Toughness Step",
                    )
                )
                after = mounted.charge_aftermath(bool(sres.success), a.name if a.kind == "melee" else None)
                if after.thrown_off:
                    self._unseat(state, sc, dice, me.id, 0)
                elif after.weapon_lost:
                    lost = [*(rider.marks.get("lost_weapons") or ()), a.name]
                    sc.emit(
                        ev.Marked(me.id, "lost_weapons", lost, mounted.CHARGE_AFTER),
                        ev.Note(f"{me.name} loses the {a.name}", me.id, mounted.CHARGE_AFTER),
                    )
        rider = sc.get(me.id)
        after = [(int(h[0]), int(h[1])) for h in command.args.get("after") or ()]
        if after and rider.status == "active" and rider.marks.get("mount"):
            face = heading(rider.pos, after)
            sc.emit(
                ev.Moved(me.id, tuple(after), "charge", face, None, mounted.CHARGE),
                ev.Moved(m.id, tuple(after), "charge", face, None, mounted.CHARGE),
            )
        if rider.marks.get("mount"):
            sc.emit(ev.Marked(me.id, "moved", [state.round, 10**6], mounted.MOVEMENT))
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _set_against(
        self, state: FightState, sc: Scratch, dice: DiceSource, rider: Combatant, m: Combatant, t: Combatant
    ) -> None:
        """The charged defender's reserved action strikes as the rider arrives (p.375: often the only way to
        attack a charging rider). If he declared Setting Against a Charge and holds a long weapon (p.385), his
        damage uses the mount's Strength Step and an extra success makes the rider test Knockdown against the
        damage; with Attacking to Knockdown the blow only knocks (p.385: the options combine)."""
        reserved = dict(state.extra.get("reserved") or {})
        trig = reserved.get(t.id)
        if trig is None or t.status != "active" or (trig.get("target") not in (None, t.id)):
            return
        if trig.get("by") not in (None, rider.id):
            return
        setting = opt.SET_AGAINST_CHARGE in declared(state, t.id)
        close_attacks = [
            x
            for x in t.stats.attacks
            if x.close
            and x.name not in (t.marks.get("lost_weapons") or ())
            and x.name not in (t.marks.get("thrown_away") or ())
        ]
        long = next((x for x in close_attacks if mounted.is_lance(x.name) or x.size >= 4), None)
        a = long if setting and long is not None else (close_attacks[0] if close_attacks else None)
        want = dict(trig.get("strike") or {})
        # the attack named when reserving, if he still holds it (p.375, p.384)
        a = next((x for x in close_attacks if x.name == want.get("attack")), a)
        if a is None:
            return
        setting = setting and a is long
        reserved.pop(t.id)
        rule = mounted.SET_AGAINST if setting else self.ref("actions.reserved")  # type: ignore[attr-defined]
        sc.emit(
            ev.ExtraSet("reserved", reserved or None),
            ev.Note(
                f"{t.name} {'sets against the charge' if setting else 'strikes the charging rider first'}",
                t.id,
                rule,
            ),
        )
        # Attacking to Stun declared: the blow deals Stun damage (p.383); Shattering a Shield or an entangling
        # weapon: the strike is one of theirs (p.385, p.391), with the mount's Strength in no Damage test
        # (shattering deals no damage; an entangling weapon is no long weapon to set against a charge)
        extra = {k: v for k, v in want.items() if k != "attack"}
        special, _, strike = self.option_strike(
            state, t, a, Command(t.id, "attack", rider.id, {**extra, "attack": a.name})
        )
        if special and opt.KNOCKDOWN not in declared(state, t.id):
            self.special_attack(state, sc, dice, sc.get(t.id), sc.get(rider.id), a, strike, True)
            return
        label = "Attack (set against the charge)" if setting else "Attack (reserved)"
        res, ctx = self.attack_test(state, sc, dice, sc.get(t.id), sc.get(rider.id), a, None, True, label)
        if not res.success:
            return
        step = (
            mounted.set_against_charge_damage(a.damage, t.stats.str_step, m.stats.str_step)
            if setting
            else a.damage
        )
        mods = (
            [Modifier(res.extra * 2, f"{res.extra} extra successes", self.ref("attack.extra-successes"))]  # type: ignore[attr-defined]
            if res.extra
            else []
        )
        what = f"{a.name} Damage (mount's Strength)" if setting else f"{a.name} Damage"
        dres = self.damage_test(sc, dice, ctx, step, mods, what, rule)
        armor = self.armor_of(rider, a)
        r = sc.get(rider.id)
        if opt.KNOCKDOWN in declared(state, t.id):
            if "knocked-down" not in r.conditions and r.status == "active":
                kmods = self.step_mods(TestContext(state, sc, "knockdown", r))  # type: ignore[attr-defined]
                kres = run_test(
                    dice,
                    self.edition,
                    r.stats.knockdown_step,
                    kmods,
                    max(1, opt.knockdown_attack_dn(dres.total, armor)),
                    None,
                    r.name,
                    "Knockdown",
                    "Knockdown DN",
                )  # type: ignore[attr-defined]
                sc.emit(
                    rolled_event(rider.id, "Knockdown", kres, opt.rule(opt.KNOCKDOWN), t.id, "Knockdown DN")
                )
                if not kres.success:
                    sc.emit(
                        ev.ConditionAdded(rider.id, "knocked-down", None, 3, t.id, opt.rule(opt.KNOCKDOWN))
                    )
                    self._unseat(state, sc, dice, rider.id, 0)
            return
        self.deal(state, sc, dice, sc.get(t.id), r, a, dres.total, armor, strike)
        r = sc.get(rider.id)
        if setting and res.extra and r.status == "active" and r.marks.get("mount"):
            kmods = self.step_mods(TestContext(state, sc, "knockdown", r))  # type: ignore[attr-defined]
            kres = run_test(
                dice,
                self.edition,
                r.stats.knockdown_step,
                kmods,
                max(1, mounted.unseat_dn(dres.total, armor)),
                None,
                r.name,
                "Knockdown (stay mounted)",
                "Damage less armor",
            )  # type: ignore[attr-defined]
            sc.emit(
                rolled_event(
                    rider.id, "Knockdown (stay mounted)", kres, mounted.SET_AGAINST, t.id, "Damage less armor"
                )
            )
            if not kres.success:
                self._unseat(state, sc, dice, rider.id, 0)

    # ----- galloping: the mount's Standard action moves rider and mount (p.395) ---------------------------
    def _v_gallop(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        m = mount_of(state, me)
        if m is None:
            raise IllegalCommand(f"{me.name} is not mounted", mounted.SPLIT)
        if m.marks.get("std") == state.round and not m.marks.get("galloping") == state.round:
            raise IllegalCommand(f"{m.name} has used its Standard action", mounted.SPLIT)
        left = 2 * hexes(m.stats.movement) - self.moved_this_round(state, me)  # type: ignore[attr-defined]
        self._check_path(state, me, command.args.get("path"), max(left, 0), mounted.SPLIT)  # type: ignore[attr-defined]
        if (
            me.marks.get("std") == state.round
            and self.moved_this_round(state, me)
            and opt.SPLIT not in declared(state, me.id)
        ):  # type: ignore[attr-defined]
            raise IllegalCommand(
                "moving both before and after the Standard action needs the Splitting Movement option",
                opt.rule(opt.SPLIT),
            )

    def _r_gallop(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        m = mount_of(state, state.combatants[me.id])
        assert m is not None
        path = tuple((int(h[0]), int(h[1])) for h in command.args.get("path") or ())
        moved = self.moved_this_round(state, me) + len(path)  # type: ignore[attr-defined]
        sc.emit(
            ev.Marked(m.id, "std", state.round, mounted.SPLIT),
            ev.Marked(m.id, "galloping", state.round, mounted.SPLIT),
            ev.Moved(me.id, path, "gallop", heading(me.pos, path), None, mounted.SPLIT),
            ev.Moved(m.id, path, "gallop", heading(me.pos, path), None, mounted.SPLIT),
            ev.Marked(me.id, "moved", [state.round, moved], mounted.MOVEMENT),
        )
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(me.id))

    # ----- swooping ---------------------------------------------------------------------------------------
    def _v_swoop(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if opt.SPLIT not in declared(state, me.id):
            raise IllegalCommand("a swooping attack needs the Splitting Movement option", aerial.SWOOP)
        if me.altitude <= 0 and not me.marks.get("flying"):
            raise IllegalCommand(f"{me.name} is not flying", aerial.SWOOP)
        t = self._target(state, command)  # type: ignore[attr-defined]
        a = me.stats.attack(command.args.get("attack"))
        if a is None or not a.close:
            raise IllegalCommand("a swooping attack is a close combat attack", aerial.SWOOP)
        left = self.movement_hexes(state, me) - self.moved_this_round(state, me)  # type: ignore[attr-defined]
        inn = self._check_path(state, me, command.args.get("path"), max(left, 0), aerial.SWOOP)  # type: ignore[attr-defined]
        where = inn[-1] if inn else me.pos
        if where is None or t.pos is None or distance(where, t.pos) != 1:
            raise IllegalCommand(f"the swoop must pass next to {t.name}", aerial.SWOOP)
        out = command.args.get("after") or []
        if len(inn) + len(out) > left:
            raise IllegalCommand(f"{me.name} flies {left} hexes this round", aerial.SWOOP)

    def _r_swoop(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        t = sc.get(command.target or "")
        a = me.stats.attack(command.args.get("attack"))
        up = int(command.args.get("altitude", me.altitude))
        inn = tuple((int(h[0]), int(h[1])) for h in command.args.get("path") or ())
        sc.emit(ev.Moved(me.id, inn, "swoop", heading(me.pos, inn), t.altitude, aerial.SWOOP))
        # interception: a defender with a reserved action and a higher Initiative strikes as it comes (p.398)
        reserved = dict(state.extra.get("reserved") or {})
        for rid in list(reserved):
            d = sc.get(rid)
            if d.side == me.side or d.status != "active" or d.pos is None or me.pos is None:
                continue
            if not aerial.may_intercept_swoop(state.initiative.get(rid), state.initiative.get(me.id)):
                continue
            want = dict(reserved[rid].get("strike") or {}) if isinstance(reserved[rid], dict) else {}
            lost = (*(d.marks.get("lost_weapons") or ()), *(d.marks.get("thrown_away") or ()))
            da = next((x for x in d.stats.attacks if x.close and x.name == want.get("attack")), None)
            da = da if da is not None and da.name not in lost else None
            da = da or next((x for x in d.stats.attacks if x.close), None)
            if da is None or distance(d.pos, sc.get(me.id).pos) != 1:
                continue
            reserved.pop(rid)
            sc.emit(
                ev.ExtraSet("reserved", reserved or None),
                ev.Note(f"{d.name} intercepts the swoop", rid, aerial.SWOOP),
            )
            extra = {k: v for k, v in want.items() if k != "attack"}
            strike = Command(d.id, "attack", me.id, {**extra, "attack": da.name})
            special, _, strike = self.option_strike(state, d, da, strike)
            before = len(sc.events)
            if special:
                self.special_attack(state, sc, dice, d, sc.get(me.id), da, strike, True)
                self._strike_strain(state, sc, d.id, before)
                continue
            res, ctx = self.attack_test(
                state, sc, dice, d, sc.get(me.id), da, None, True, "Attack (intercepting)"
            )
            if res.success:
                mods = (
                    [
                        Modifier(
                            res.extra * 2, f"{res.extra} extra successes", self.ref("attack.extra-successes")
                        )
                    ]
                    if res.extra
                    else []
                )  # type: ignore[attr-defined]
                dres = self.damage_test(sc, dice, ctx, da.damage, mods, f"{da.name} Damage", aerial.SWOOP)
                flier = sc.get(me.id)
                self.deal(state, sc, dice, d, flier, da, dres.total, self.armor_of(flier, da), strike)
            self._strike_strain(state, sc, d.id, before)
        me = sc.get(me.id)
        if me.status == "active" and "knocked-down" not in me.conditions:
            n = me.stats.actions
            for i in range(n):
                tt = sc.get(t.id)
                if tt.status == "dead" or (i and tt.status != "active"):
                    break
                # the flier's options work on the swoop's strikes as on any attack (p.382-385)
                special, single, cmd = self.option_strike(state, me, a, command)
                if special:
                    self.special_attack(state, sc, dice, me, tt, a, cmd, False)
                    if single:
                        break
                    continue
                res, ctx = self.attack_test(state, sc, dice, me, tt, a, cmd, False)
                if res.success:
                    mods = (
                        [
                            Modifier(
                                res.extra * 2,
                                f"{res.extra} extra successes",
                                self.ref("attack.extra-successes"),
                            )
                        ]
                        if res.extra
                        else []
                    )  # type: ignore[attr-defined]
                    dres = self.damage_test(
                        sc, dice, ctx, a.damage, mods, f"{a.name} Damage", self.ref("damage")
                    )  # type: ignore[attr-defined]
                    self.deal(state, sc, dice, me, tt, a, dres.total, self.armor_of(tt, a), cmd)
            out = tuple((int(h[0]), int(h[1])) for h in command.args.get("after") or ())
            if sc.get(me.id).status == "active" and "knocked-down" not in sc.get(me.id).conditions:
                sc.emit(ev.Moved(me.id, out, "swoop", heading(sc.get(me.id).pos, out), up, aerial.SWOOP))
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    def _v_recover_flight(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)  # type: ignore[attr-defined]
        if "falling" not in me.conditions:
            raise IllegalCommand(f"{me.name} is not falling", aerial.LONG_FALLS)

    def _r_recover_flight(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = sc.get(command.actor)
        mods = self.step_mods(TestContext(state, sc, "recover-flight", me))  # type: ignore[attr-defined]
        res = run_test(
            dice,
            self.edition,
            me.stats.dex_step,
            mods,
            aerial.long_fall_recovery_dn(),
            None,
            me.name,
            "Dexterity (stop falling)",
            "DN",
        )  # type: ignore[attr-defined]
        sc.emit(rolled_event(me.id, "Dexterity (stop falling)", res, aerial.LONG_FALLS))
        if res.success:
            sc.emit(
                ev.ConditionRemoved(me.id, "falling", "rights itself", aerial.LONG_FALLS),
                ev.ConditionRemoved(me.id, "knocked-down", "rights itself", aerial.LONG_FALLS),
                ev.Marked(me.id, "fallen", None, aerial.LONG_FALLS),
            )
        self._end_or_mark(state, command, sc, True)  # type: ignore[attr-defined]

    # ----- choices for a person ----------------------------------------------------------------------------
    def offered(self, state: FightState, decision: Decision) -> list[Command]:
        """The core's candidates plus the chapter's: declarations with each legal option, Jump Up, picking up
        a thrown weapon, tail attacks, breaking free, holding, spells, dismounting, charges (the core's
        ``choices`` keeps those ``validate`` accepts)."""
        base = super().offered(state, decision)  # type: ignore[misc]
        me = state.combatants[decision.actor]
        if decision.kind == "declare":
            extra = [
                Command(
                    me.id, "declare", args={"action": "act", "options": [o]}, label=f"Declare {opt.title(o)}"
                )
                for o in opt.options_table()
            ]
            return base + extra
        if decision.kind != "act":
            return base
        foes = [c for c in state.combatants.values() if c.side != me.side and c.status == "active"]
        extra = [
            Command(me.id, "jump-up", args={"end": False}),
            Command(me.id, "pick-up", args={"end": False}),
            Command(me.id, "break-free"),
            Command(me.id, "hold"),
            Command(me.id, "release"),
        ]
        for f in foes:
            extra.append(Command(me.id, "tail-attack", f.id))
            for a in me.stats.attacks:
                if a.kind == "spell" and a.name.lower().replace(" ", "-") in spells.spells():
                    extra.append(Command(me.id, "cast", f.id, {"spell": a.name}))
        for a in me.stats.attacks:
            if a.kind == "spell" and a.name.lower().replace(" ", "-") in spells.spells():
                extra.append(Command(me.id, "weave", args={"spell": a.name}))
        if mount_of(state, me) is not None and me.pos is not None:
            free = [h for h in neighbours(me.pos) if h not in state.occupied(me.id)]
            if free:
                extra.append(Command(me.id, "dismount", args={"to": list(free[0])}))
        return base + extra

    # ----- narration --------------------------------------------------------------------------------------
    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        if isinstance(event, ev.Moved) and event.mode == "turn":
            return ""
        if isinstance(event, ev.Moved) and event.mode in ("ridden",):
            return ""
        if isinstance(event, (ev.ConditionAdded, ev.ConditionRemoved)) and event.name in ("split-movement",):
            return ""
        if isinstance(event, ev.ConditionAdded) and event.name == "entangled":
            return ""  # the entangling Note says it, with the DN to break free
        if isinstance(event, ev.InitiativeRolled) and event.rule == mounted.SEQUENCE:
            c = state.combatants[event.actor]
            return f"{c.name} acts on its rider's Initiative {event.value} [{event.rule}]"
        if isinstance(event, ev.ConditionAdded) and event.name == "surprised":
            c = state.combatants[event.target]
            return f"  {c.name} is surprised [{event.rule}]"
        return super().narrate(event, state)  # type: ignore[misc]


def _weapon_of(attack_name: str) -> str:
    """The weapon an attack is made with: ``Spear (thrown)`` and ``Spear`` are one spear."""
    return attack_name.removesuffix(" (thrown)")
