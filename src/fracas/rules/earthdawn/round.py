"""The Earthdawn combat round on the fracas engine, shared by the editions (ED4 p.371-377).

:class:`EarthdawnRuleset` runs declare -> Initiative -> turns -> end of round, the Standard/Simple actions,
movement, reserved and delayed actions and the Attack/Damage procedure, with every number explained by
:class:`~fracas.rules.base.Modifier` lists. An edition subclass supplies its :class:`Edition` (step table,
rule ids and pages), its rules list, its optional rules, its Initiative step and its movement.

Plug-in points (docs/rulesets/ed4.md "Extending the resolver"):

- ``self.step_providers[test]``: functions ``(TestContext) -> Iterable[Modifier]`` adding step modifiers to
  one kind of test ("initiative", "attack", "damage", "knockdown", "recovery", ...; "*" for every test);
- ``self.defense_providers``: modifiers to the Defense of an attack's target (they change the DN);
- ``self.dn_providers``: modifiers to the DN from the attacker's side (reserved action, ...);
- ``self.armor_providers``: functions ``(target, attack) -> Iterable[Modifier]`` changing the armor an
  attack meets (Earth Darts' armor reduction); :meth:`EarthdawnRuleset.armor_of` is what every attack uses;
- ``self.actions[name]``: an :class:`Action` (validate, resolve, Standard or not): new command types;
- ``self.combat_options[name]``: combat options a declaration may carry (the ED4 chapter registers them).

Commands (``Command.action``): ``declare``, ``attack``, ``move``, ``run``, ``stand-up``, ``revive``,
``reserve``, ``delay``, ``sustain``, ``simple``, ``end``; to a reserved action's trigger ``react`` with
any Standard-action command or ``pass``; a delaying character ``act-now`` or ``wait``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import direction_to, distance
from fracas.engine.tactics import GRID_FROM, Taken
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.base import Modifier, Ruleset
from fracas.rules.earthdawn.battle_map import covered_yards, hexes, inside_minimum, range_hexes, within
from fracas.rules.earthdawn.combat import (
    Edition,
    ProbeDice,
    ProbedTest,
    Provider,
    Scratch,
    TestContext,
    current_damage,
    damage_events,
    initiative_order_key,
    recovery_events,
    roll_step_dice,
    rolled_event,
    run_test,
)
from fracas.rules.earthdawn.profile import CLOSE_KINDS

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.encounter import CombatantSpec
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

ArmorProvider = Callable[["Combatant", "AttackProfile"], Iterable[Modifier]]
"""Modifiers to the armor a target sets against an attack (``EarthdawnRuleset.armor_providers``)."""

ACTION_TESTS = frozenset(
    {"attack", "spellcasting", "knockdown", "attribute", "strength", "dexterity", "break-free"}
)
"""Tests that the Situation Modifiers' "Action test" penalties apply to (not Damage, Initiative, Recovery)."""

STANDARD = "standard"
SIMPLE = "simple"


@dataclass(frozen=True, slots=True)
class Action:
    """A command type: ``kind`` "standard" (uses the Standard action), "simple" or "turn" (ends/shapes the
    turn); ``validate(state, command)`` raises IllegalCommand; ``resolve(state, command, dice, sc)`` emits
    into the scratch."""

    name: str
    kind: str
    validate: Callable[[FightState, Command], None]
    resolve: Callable[[FightState, Command, DiceSource, Scratch], None]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class CombatOption:
    """A combat option a declaration may name (the ED4 chapter registers them; ``check`` raises
    IllegalCommand)."""

    name: str
    rule: str
    check: Callable[[FightState, Command], None] | None = None


class EarthdawnRuleset(Ruleset):
    edition: ClassVar[Edition]
    hex_yards = 2.0
    # is_out reads status only: the engine checks the end after StatusChanged
    out_by_status_only: ClassVar[bool] = True

    def __init__(self) -> None:
        self.step_providers: dict[str, list[Provider]] = {}
        self.defense_providers: list[Provider] = []
        self.dn_providers: list[Provider] = []
        self.armor_providers: list[ArmorProvider] = []
        self.actions: dict[str, Action] = {}
        self.combat_options: dict[str, CombatOption] = {}
        self._tactics: dict[str, Any] | None = None
        self._install_core()

    # ----- edition hooks ----------------------------------------------------------------------------------
    def ref(self, key: str) -> str:
        return self.edition.refs[key]

    def movement_hexes(self, state: FightState, c: Combatant) -> int:
        """Hexes of free movement in a round: the Movement Rate in yards, 2 yards a hex, rounded up to cover a
        full hex (p.372)."""
        p: CombatProfile = c.stats
        if "knocked-down" in c.conditions:
            return 1  # crawling at Movement Rate 2 (p.389)
        return hexes(p.movement)

    # The edition supplies how a stat block, a catalog entry and overrides become a profile.
    def profile_from_block(self, block: dict[str, Any], name: str, where: str) -> CombatProfile:
        raise NotImplementedError

    def profile_from_stats(self, stats: Any, name: str, catalog: Any) -> CombatProfile:
        raise NotImplementedError

    def override_profile(self, profile: CombatProfile, block: dict[str, Any], where: str) -> CombatProfile:
        raise NotImplementedError

    def load_profile(self, spec: CombatantSpec, name: str, where: str) -> CombatProfile:
        """A combatant's profile from an encounter entry: a full ``stats`` block, or a bundled template of
        this edition (characters may change ``equipment``), with ``stats`` as overrides."""
        from fracas.errors import FracasError
        from fracas.rules.earthdawn import catalog

        edition = self.edition.id
        if spec.template is None:
            if spec.equipment:
                raise EncounterFileError(f"{where}.equipment: equipment needs a character template")
            if not spec.stats:
                raise EncounterFileError(
                    f"{where}: give a template (one of: {', '.join(self.templates())}) or stats"
                )
            return self.profile_from_block(spec.stats, name or spec.name or "combatant", where)
        cat = catalog.get_catalog(edition)
        key = catalog.normalize_name(spec.template)
        try:
            if spec.equipment:
                bad = [k for k in spec.equipment if k not in EQUIPMENT_KEYS]
                if bad:
                    raise EncounterFileError(
                        f"{where}.equipment.{bad[0]}: unknown field; allowed: {', '.join(EQUIPMENT_KEYS)}"
                    )
                if key not in cat.characters:
                    raise EncounterFileError(
                        f"{where}.equipment: only character templates take equipment; "
                        f"{spec.template!r} is not one"
                    )
                _check_equipment(cat, spec.equipment, f"{where}.equipment")
                stats = character_with(cat, key, spec.equipment, edition)
            else:
                stats = cat.template(key)
        except EncounterFileError:
            raise
        except FracasError as exc:
            raise EncounterFileError(f"{where}.template: {exc}") from None
        profile = self.profile_from_stats(stats, name or stats.name, cat)
        if spec.stats:
            profile = self.override_profile(profile, spec.stats, where)
        return profile

    # ----- registration -----------------------------------------------------------------------------------
    def add_step_provider(self, test: str, provider: Provider) -> None:
        self.step_providers.setdefault(test, []).append(provider)

    def add_action(self, action: Action) -> None:
        self.actions[action.name] = action

    def _install_core(self) -> None:
        r = self.ref
        self.add_step_provider("*", self._wound_penalty)
        self.add_step_provider("*", self._knocked_down_tests)
        self.add_step_provider("*", self._harried_tests)
        self.add_step_provider("attack", self._long_range)
        self.add_step_provider("damage", self._long_range)
        self.defense_providers += [
            self._knocked_down_defense,
            self._harried_defense,
            self._unconscious_defense,
        ]
        self.dn_providers.append(self._reserved_dn)
        for a in (
            Action("attack", STANDARD, self._v_attack, self._r_attack, r("attack")),
            Action("move", SIMPLE, self._v_move, self._r_move, r("movement")),
            Action("run", STANDARD, self._v_run, self._r_run, r("movement.double")),
            Action("stand-up", STANDARD, self._v_stand_up, self._r_stand_up, r("situation.knocked-down")),
            Action("revive", STANDARD, self._v_revive, self._r_revive, r("recovery.unconscious")),
            Action("sustain", STANDARD, self._v_none, self._r_sustain, r("actions.sustained")),
            Action("simple", SIMPLE, self._v_none, self._r_simple, r("actions.simple")),
            Action("end", "turn", self._v_none, self._r_end, r("round.resolve")),
            Action("reserve", "turn", self._v_reserve, self._r_reserve, r("actions.reserved")),
            Action("delay", "turn", self._v_none, self._r_delay, r("actions.delayed")),
        ):
            self.add_action(a)

    # ----- modifiers --------------------------------------------------------------------------------------
    def step_mods(self, ctx: TestContext) -> list[Modifier]:
        out: list[Modifier] = []
        providers = self.step_providers
        for prov in providers.get("*", ()):
            mods = prov(ctx)
            if mods:
                out.extend(mods)
        for prov in providers.get(ctx.test, ()):
            mods = prov(ctx)
            if mods:
                out.extend(mods)
        return out

    def defense_mods(self, ctx: TestContext) -> list[Modifier]:
        out: list[Modifier] = []
        for prov in self.defense_providers:
            mods = prov(ctx)
            if mods:
                out.extend(mods)
        for prov in self.dn_providers:
            mods = prov(ctx)
            if mods:
                out.extend(mods)
        return out

    def armor_of(self, t: Combatant, a: AttackProfile) -> int:
        """The armor ``t`` sets against attack ``a`` (p.379): physical or mystic armor (none for attacks that
        ignore it), changed by every armor provider, never below 0."""
        p: CombatProfile = t.stats
        kind = a.armor
        base = 0 if kind == "none" else p.physical_armor if kind == "physical" else p.mystic_armor
        for prov in self.armor_providers:
            for m in prov(t, a):
                base += m.value
        return base if base > 0 else 0

    def _wound_penalty(self, ctx: TestContext) -> Iterable[Modifier]:
        w = ctx.actor.counters.get("wounds", 0)
        if w <= 0 or ctx.test == "recovery" or not ctx.state.options.get("wound-penalties", True):
            return ()
        w -= ctx.extra.get("new_wounds", 0)
        if w <= 0:
            return ()
        return (Modifier(-w, f"{w} Wound{'s' if w > 1 else ''}", self.ref("wounds.penalty")),)

    def _knocked_down_tests(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.test in ACTION_TESTS and "knocked-down" in ctx.actor.conditions:
            return (Modifier(-3, "Knocked Down", self.ref("situation.knocked-down")),)
        return ()

    def _harried_tests(self, ctx: TestContext) -> Iterable[Modifier]:
        cond = ctx.actor.conditions.get("harried")
        if cond is not None and ctx.test in ACTION_TESTS:
            return (Modifier(-cond.value or -2, "Harried", self.ref("situation.harried")),)
        return ()

    def _long_range(self, ctx: TestContext) -> Iterable[Modifier]:
        a = ctx.attack
        if a is None or a.short is None or a.kind in CLOSE_KINDS or ctx.target is None:
            return ()
        yards = ctx.extra.get("yards")
        if yards is not None and yards > covered_yards(a.short):  # the short range covers whole hexes (p.372)
            return (Modifier(-2, "Long range", self.ref("situation.range")),)
        return ()

    def _knocked_down_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is not None and "knocked-down" in t.conditions:
            return (Modifier(-3, f"{t.name} Knocked Down", self.ref("situation.knocked-down")),)
        return ()

    def _harried_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is not None and "harried" in t.conditions:
            return (Modifier(-2, f"{t.name} Harried", self.ref("situation.harried")),)
        return ()

    def _unconscious_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        t = ctx.target
        if t is not None and t.status == "unconscious":
            return (Modifier(-2, f"{t.name} unconscious: Blindsided", self.ref("damage.unconscious")),)
        return ()

    def _reserved_dn(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.extra.get("reserved"):
            return (Modifier(2, "DN: reserved action", self.ref("actions.reserved")),)
        return ()

    # ----- building ---------------------------------------------------------------------------------------
    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        from fracas.engine.encounter import assign_ids
        from fracas.engine.state import Combatant

        ids = assign_ids(spec, "combatant")
        profile = self.load_profile(
            spec, ids[0][1] if spec.count == 1 else (spec.name or spec.template or ""), where
        )
        known = self.tactics()
        if spec.tactic not in known:
            raise EncounterFileError(
                f"{where}.tactic: unknown tactic {spec.tactic!r}; allowed: {', '.join(sorted(known))}"
            )
        out = []
        for (cid, name), pos in zip(ids, spec.positions(), strict=True):
            counters = {"damage": 0, "wounds": 0}
            if profile.karma:
                counters["karma"] = profile.karma
            out.append(
                Combatant(
                    cid,
                    name,
                    side,
                    profile,
                    player=spec.player,
                    tactic=spec.tactic,
                    hidden=spec.hidden,
                    template=spec.template or "",
                    pos=pos,
                    facing=spec.facing,
                    altitude=spec.altitude,
                    counters=counters,
                )
            )
        return out

    def prepare(self, state: FightState, spec: Any) -> None:
        """Place combatants without a starting hex on free hexes, in rows (sides 8 hexes apart)."""
        taken = {c.pos for c in state.combatants.values() if c.pos is not None}
        for si, side in enumerate(state.sides):
            q = si * 8
            r = 0
            for c in state.on_side(side):
                if c.pos is not None:
                    continue
                while (q, r) in taken:
                    r += 1
                c.pos = (q, r)
                taken.add((q, r))

    # ----- the round --------------------------------------------------------------------------------------
    def _declarers(self, state: FightState) -> tuple[str, ...]:
        tactics = self.tactics()
        out = []
        for c in state.combatants.values():
            if not c.active:
                continue
            t = tactics.get(c.tactic)
            if t is None or getattr(t, "declares", True):
                out.append(c.id)
        return tuple(out)

    def pending(self, state: FightState) -> Decision | None:
        phase = state.phase
        extra = state.extra
        if phase == "act":
            intr = extra.get("interrupt")
            if intr is not None:
                return Decision(intr["by"], "react", f"reserved action: {intr['actor']} triggers it")
            turn = state.turn
            order = state.order
            cur = order[turn] if 0 <= turn < len(order) else None
            if cur is not None and cur not in state.acted:
                c = state.combatants[cur]
                delayers = extra.get("delayers", ())
                reserved = extra.get("reserved", {})
                if c.active and cur not in delayers and cur not in reserved:
                    return _act_decision(cur)
            delayers = extra.get("delayers")
            if delayers:
                asked = extra.get("delay_asked")
                done = asked["ids"] if asked and asked["at"] == state.turn else ()
                for d in delayers:
                    if d not in done and state.combatants[d].active:
                        last = self._next_index(state) is None
                        return Decision(d, "delayed", "end of round" if last else "between turns")
            return None
        if phase == "declare":
            roster = extra.get("roster", ())
            n = len(state.declarations)
            if n < len(roster):
                return Decision(roster[n], "declare")
        return None

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        phase = state.phase
        if phase == "act":
            nxt = self._next_index(state)
            if nxt is not None:
                cid = state.order[nxt]
                return [ev.TurnStarted(cid, state.initiative.get(cid))]
            return self._end_round(state)
        if phase in ("started", "round-end"):
            return self._start_round(state, dice)
        if phase == "declare":
            return self._initiative(state, dice, state.round)
        raise AssertionError(f"unexpected phase {phase!r}")

    def _next_index(self, state: FightState) -> int | None:
        order = state.order
        acted = state.acted
        cs = state.combatants
        i = state.turn + 1
        n = len(order)
        while i < n:
            cid = order[i]
            if cid not in acted and cs[cid].status == "active":
                return i
            i += 1
        return None

    def _start_round(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        rnd = state.round + 1
        out: list[ev.Event] = [ev.RoundStarted(rnd)]
        # An unconscious character may make a Recovery test one minute after falling (p.380): the
        # edition's rounds in a minute (ED4 10 six-second rounds, ED1 6 ten-second rounds).
        minute = self.edition.rounds_per_minute
        sc: Scratch | None = None
        for c in state.combatants.values():
            if c.status == "unconscious" and not c.marks.get("recovery_tried"):
                since = c.marks.get("unconscious_since", rnd)
                if rnd - since >= minute:
                    sc = sc or Scratch(state)
                    sc.emit(ev.Marked(c.id, "recovery_tried", True, self.ref("recovery.unconscious")))
                    recovery_events(sc, self.edition, dice, c.id, "one minute after falling unconscious")
        if sc is not None:
            out += sc.events
        roster = self._declarers(state)
        if roster:
            out.append(ev.ExtraSet("roster", roster))
            return out
        if "roster" in state.extra:
            out.append(ev.ExtraSet("roster", None))
        out += self._initiative(state, dice, rnd, sc)
        return out

    def initiative_step(
        self, state: FightState, c: Combatant, sc: Scratch | None
    ) -> tuple[int, list[Modifier]]:
        p: CombatProfile = c.stats
        mods = self.step_mods(TestContext(state, sc, "initiative", c))
        return p.initiative_step, mods

    def initiative_leader(self, state: FightState, c: Combatant) -> str | None:
        """The combatant on whose Initiative ``c`` acts, making no test of his own (the ED4 chapter: a
        trained mount, on its rider's, p.395); None here."""
        return None

    def voluntary_initiative_mods(self, state: FightState, c: Combatant) -> list[Modifier]:
        """The modifiers to ``c``'s Initiative step that he chose (a declared combat option): "A character's
        Initiative Step cannot voluntarily be lowered below Step 1" (p.371), so these stop at Step 1 where
        the involuntary ones (:meth:`initiative_step`: Wounds, knocked down, magic) do not. The edition's
        combat options supply them; none here."""
        return []

    def _initiative(
        self, state: FightState, dice: DiceSource, rnd: int, sc: Scratch | None = None
    ) -> list[ev.Event]:
        """Initiative tests (p.371): each active character rolls its Initiative step (armor and shields
        already in it); Wounds and other involuntary penalties below Step 1 mean acting last at 1. Identical
        creatures of a side share one test (group Initiative, p.372); with "take-the-initiative" gamemaster
        characters use their step as the result (p.372); a character who delayed into this round acts at
        one above the highest Initiative (p.376)."""
        options = state.options
        group = options.get("group-initiative", True)
        take = options.get("take-the-initiative", False)
        r_init = self.ref("initiative")
        edition = self.edition
        out: list[ev.Event] = []
        keys: list[tuple[Any, ...]] = []
        groups: dict[tuple[Any, ...], int] = {}
        delayed: list[Combatant] = []
        best = 0
        cs = [c for c in state.combatants.values() if c.status == "active"]
        leaders = {c.id: self.initiative_leader(state, c) for c in cs}
        if any(leaders.values()):  # those who act on another's Initiative come after him
            cs.sort(key=lambda c: leaders[c.id] is not None)
        values: dict[str, int] = {}
        for c in cs:
            if c.marks.get("delay_into") == rnd:
                if not state.declarations.get(c.id, {}).get("roll_initiative"):
                    delayed.append(c)
                    continue
                # Rolling Initiative normally gives up the delayed action (p.376).
                out.append(ev.Marked(c.id, "delay_into", None, self.ref("actions.delayed.next-round")))
            p: CombatProfile = c.stats
            base, mods = self.initiative_step(state, c, sc)
            step = base
            for m in mods:
                step += m.value
            forced = step < 1  # involuntarily below Step 1: acts last at 1 (p.371)
            chosen = self.voluntary_initiative_mods(state, c)
            if chosen and not forced:
                mods = [*mods, *chosen]
                for m in chosen:
                    step += m.value
                if step < 1:  # "cannot voluntarily be lowered below Step 1" (p.371)
                    mods.append(
                        Modifier(1 - step, "not voluntarily below Step 1", self.ref("initiative.below-one"))
                    )
                    step = 1
            elif chosen:
                mods = [*mods, *chosen]
            mt = _mt(mods) if mods else ()
            lead = leaders[c.id]
            if forced:
                value = 1
                out.append(ev.InitiativeRolled(c.id, 1, step, None, mt, self.ref("initiative.below-one")))
            elif lead is not None and lead in values:  # no test of his own (a trained mount, p.395)
                value = values[lead]
                out.append(ev.InitiativeRolled(c.id, value, step, None, mt, r_init))
            elif take and not c.player:
                value = step
                out.append(ev.InitiativeRolled(c.id, value, step, None, mt, self.ref("initiative.take")))
            else:
                gkey = (c.side, c.template, step) if group and c.template and not c.player else None
                if gkey is not None and gkey in groups:
                    value = groups[gkey]
                    out.append(ev.InitiativeRolled(c.id, value, step, None, mt, self.ref("initiative.group")))
                else:
                    if dice.__class__ is RandomDice:  # run_test's roll, without its naming and result
                        roll, value, _ = roll_step_dice(step, dice, edition)
                    else:
                        res = run_test(dice, edition, step, who=c.name, test="Initiative")
                        roll, value = res.roll, res.total
                    if gkey is not None:
                        groups[gkey] = value
                    out.append(ev.InitiativeRolled(c.id, value, step, roll, mt, r_init))
            values[c.id] = value
            if value > best:
                best = value
            # initiative_order_key (combat.py), built in place
            keys.append(
                (1 if forced else 0, -value, 0 if c.player else 1, -p.initiative_step, -p.dexterity, c.id)
            )
        for c in delayed:
            p = c.stats
            value = best + 1
            out.append(ev.Marked(c.id, "delay_into", None, self.ref("actions.delayed")))
            out.append(
                ev.InitiativeRolled(c.id, value, None, None, (), self.ref("actions.delayed.next-round"))
            )
            keys.append(initiative_order_key(value, False, c.player, p.initiative_step, p.dexterity, c.id))
        keys.sort()
        order = tuple(k[-1] for k in keys)
        out.append(ev.OrderSet(order, r_init))
        if order:
            out.append(ev.TurnStarted(order[0], -keys[0][1]))  # the key holds -Initiative
        return out

    def _end_round(self, state: FightState) -> list[ev.Event]:
        rnd = state.round
        out: list[ev.Event] = []
        for c in state.combatants.values():
            for name, cond in c.conditions.items():
                if cond.until_round is not None and cond.until_round <= rnd:
                    out.append(ev.ConditionRemoved(c.id, name, "end of round", cond.rule))
        extra = state.extra
        for key in ("reserved", "delayers", "delay_asked", "interrupt"):
            if key in extra:
                out.append(ev.ExtraSet(key, None))
        out.append(ev.RoundEnded(rnd))
        return out

    # ----- commands ---------------------------------------------------------------------------------------
    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        """What the actor may do now: every command :meth:`offered` lists that ``validate`` accepts, so a
        person (the CLI, the browser) is never offered a choice the rules then refuse."""
        legal = self._is_legal
        return [c for c in self.offered(state, decision) if legal(state, c)]

    def offered(self, state: FightState, decision: Decision) -> list[Command]:
        """The candidate commands of a decision, legal or not (the editions add theirs); :meth:`choices`
        keeps the legal ones."""
        me = state.combatants[decision.actor]
        kind = decision.kind
        if kind == "declare":
            return [Command(me.id, "declare", args={"action": "act"}, label="Declare no combat option")]
        if kind == "delayed":
            last = decision.prompt == "end of round"
            return [
                Command(me.id, "act-now", label="act now"),
                Command(me.id, "wait", label="delay into the next round" if last else "keep waiting"),
            ]
        out: list[Command] = []
        p: CombatProfile = me.stats
        if kind == "react":
            intr = state.extra["interrupt"]
            foe = state.combatants[intr["actor"]]
            for a in p.attacks:
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name})
                if self._is_legal(state, cmd):
                    out.append(cmd)
            out.append(Command(me.id, "pass", label="let it happen (keep the reserved action)"))
            return out
        for foe in state.combatants.values():
            if foe.side == me.side or foe.status != "active":
                continue
            for a in p.attacks:
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name})
                if self._is_legal(state, cmd):
                    out.append(cmd)
        if "knocked-down" in me.conditions:
            out.append(Command(me.id, "stand-up"))
        for ally in state.combatants.values():
            near = me.pos is not None and ally.pos is not None and distance(me.pos, ally.pos) == 1
            if ally.side == me.side and ally.status == "unconscious" and near:
                out.append(Command(me.id, "revive", ally.id))
        out += self._moving_choices(state, me, out)
        out += [
            Command(me.id, "reserve", args={"trigger": {"on": "attack", "target": None}}),
            Command(me.id, "delay"),
            Command(me.id, "end"),
        ]
        return out

    def _moving_choices(self, state: FightState, me: Combatant, listed: list[Command]) -> list[Command]:
        """A person's choices that move (p.373): Karma variants of the attacks listed (p.109), close attacks
        on a foe out of reach with a path toward it, a move and a run toward the nearest foe. The path is a
        suggestion (the default tactic's); a game master may send another, which ``validate`` judges."""
        from fracas.engine.hexgrid import neighbours
        from fracas.rules.ed4.tactics import _blocked, path_towards  # the tactic's path helper

        p: CombatProfile = me.stats
        out: list[Command] = []
        if me.counters.get("karma", 0) > 0:
            for c in listed:
                if c.action == "attack" and not c.args.get("karma"):
                    k = Command(c.actor, c.action, c.target, {**c.args, "karma": True})
                    if self._is_legal(state, k):
                        out.append(k)
        if me.pos is None:
            return out
        left = max(self.movement_hexes(state, me) - self.moved_this_round(state, me), 0)
        blocked = _blocked(state, me)
        foes = [
            f
            for f in state.combatants.values()
            if f.side != me.side and f.status == "active" and f.pos is not None
        ]
        foes.sort(key=lambda f: (distance(me.pos, f.pos), f.id))  # type: ignore[arg-type]
        for foe in foes:
            d = distance(me.pos, foe.pos)  # type: ignore[arg-type]
            if d <= 1 or d - 1 > left:
                continue
            path = path_towards(me.pos, foe.pos, left, blocked)  # type: ignore[arg-type]
            if not path or distance(path[-1], foe.pos) != 1:  # type: ignore[arg-type]
                continue
            for a in p.attacks:
                if not a.close:
                    continue
                cmd = Command(me.id, "attack", foe.id, {"attack": a.name, "path": [list(h) for h in path]})
                if self._is_legal(state, cmd):
                    out.append(cmd)
                    if a.karma and me.counters.get("karma", 0) > 0:
                        k = Command(me.id, "attack", foe.id, {**cmd.args, "karma": True})
                        if self._is_legal(state, k):
                            out.append(k)
        goal = foes[0].pos if foes else None
        run_left = 2 * self.movement_hexes(state, me) - self.moved_this_round(state, me)
        for action, limit in (("move", left), ("run", run_left)):
            if limit <= 0:
                continue
            path = path_towards(me.pos, goal, limit, blocked) if goal is not None else []
            if not path:
                free = [h for h in neighbours(me.pos) if h not in blocked]
                path = free[:1]
            if not path:
                continue
            cmd = Command(me.id, action, args={"path": [list(h) for h in path]})
            if self._is_legal(state, cmd):
                out.append(cmd)
        return out

    def _is_legal(self, state: FightState, cmd: Command) -> bool:
        try:
            self.validate(state, cmd)
        except IllegalCommand:
            return False
        return True

    def validate(self, state: FightState, command: Command) -> None:
        decision = self.pending(state)  # through any subclass's pending (the chapter adds decisions)
        kind = decision.kind if decision is not None and decision.actor == command.actor else "act"
        name = command.action
        if command.actor not in state.combatants:
            raise IllegalCommand(f"no combatant {command.actor!r}")
        if kind == "declare":
            if name != "declare":
                raise IllegalCommand(
                    "declare the round's general action and combat options first", self.ref("round.declare")
                )
            for opt in command.args.get("options", ()) or ():
                spec = self.combat_options.get(opt)
                if spec is None:
                    known = ", ".join(sorted(self.combat_options)) or "none implemented yet"
                    raise IllegalCommand(
                        f"unknown combat option {opt!r}; known: {known}", self.ref("round.declare")
                    )
                if spec.check is not None:
                    spec.check(state, command)
            return
        if kind == "delayed":
            if name not in ("act-now", "wait"):
                raise IllegalCommand(
                    "a delaying character either acts now or keeps waiting", self.ref("actions.delayed")
                )
            return
        if kind == "react":
            if name == "pass":
                return
            action = self.actions.get(name)
            if action is None or action.kind != STANDARD:
                raise IllegalCommand(
                    "a reserved action is a Standard action (or pass)", self.ref("actions.reserved")
                )
            action.validate(state, command)
            return
        action = self.actions.get(name)
        if action is None:
            raise IllegalCommand(f"unknown action {name!r}; known: {', '.join(sorted(self.actions))}")
        me = state.combatants[command.actor]
        if action.kind == STANDARD and me.marks.get("std") == state.round:
            raise IllegalCommand(
                "the Standard action of this round is used already", self.ref("actions.standard")
            )
        action.validate(state, command)

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        sc = Scratch(state)
        decision = self.pending(state)
        kind = decision.kind if decision is not None and decision.actor == command.actor else "act"
        name = command.action
        me = command.actor
        if kind == "declare":
            a = command.args
            sc.emit(
                ev.Declared(
                    me,
                    str(a.get("action", "act")),
                    tuple(a.get("options", ()) or ()),
                    command.target,
                    {k: v for k, v in a.items() if k not in ("action", "options")},
                )
            )
            return sc.events
        if kind == "delayed":
            self._resolve_delayed(state, command, sc)
            return sc.events
        if kind == "react":
            intr = state.extra["interrupt"]
            if name == "pass":
                sc.emit(
                    ev.Marked(
                        me, "passed", [intr["actor"], state.round, state.turn], self.ref("actions.reserved")
                    ),
                    ev.ExtraSet("interrupt", None),
                )
                return sc.events
            reserved = dict(state.extra.get("reserved", {}))
            reserved.pop(me, None)
            order = [c for c in state.order if c != me]
            order.insert(order.index(intr["actor"]), me)
            sc.emit(
                ev.ExtraSet("interrupt", None),
                ev.ExtraSet("reserved", reserved or None),
                ev.OrderSet(tuple(order), self.ref("actions.reserved")),
                ev.TurnStarted(me, state.initiative.get(me)),
            )
            sc.flags["reserved"] = True
            self.actions[name].resolve(state, command, dice, sc)
            if not any(isinstance(e, ev.TurnEnded) for e in sc.events):
                sc.emit(ev.TurnEnded(me))
            return sc.events
        action = self.actions[name]
        # A reserved action's trigger interrupts before the command happens (p.375).
        if (action.kind == STANDARD or name == "move") and state.extra.get("reserved"):
            trig = self._triggered(state, command)
            if trig is not None:
                sc.emit(
                    ev.Note(
                        f"{state.combatants[trig].name} interrupts {state.combatants[me].name} "
                        "with a reserved action",
                        trig,
                        self.ref("actions.reserved"),
                    ),
                    ev.ExtraSet(
                        "interrupt", {"by": trig, "actor": me, "target": command.target, "action": name}
                    ),
                )
                return sc.events
        action.resolve(state, command, dice, sc)
        return sc.events

    def _triggered(self, state: FightState, command: Command) -> str | None:
        reserved = state.extra.get("reserved")
        if not reserved:
            return None
        me = state.combatants[command.actor]
        for rid, trig in reserved.items():
            r = state.combatants[rid]
            if r.side == me.side or r.status != "active":
                continue
            passed = r.marks.get("passed")
            if passed is not None and list(passed) == [me.id, state.round, state.turn]:
                continue
            on = trig.get("on", "attack")
            if on == "action":
                pass
            elif on == "attack":
                if command.action != "attack":
                    continue
                tgt = trig.get("target")
                victim = state.combatants.get(command.target or "")
                if victim is None:
                    continue
                if tgt is None and victim.side != r.side:
                    continue
                if tgt is not None and tgt != victim.id:
                    continue
            else:
                continue
            by = trig.get("by")
            if by is not None and by != me.id:
                continue
            return rid
        return None

    def _resolve_delayed(self, state: FightState, command: Command, sc: Scratch) -> None:
        me = command.actor
        delayers = [d for d in state.extra.get("delayers", ()) if d != me]
        last = self._next_index(state) is None
        if command.action == "act-now":
            cur = state.current
            order = [c for c in state.order if c != me]
            pos = order.index(cur) + 1 if cur in order else len(order)
            order.insert(pos, me)
            sc.emit(
                ev.ExtraSet("delayers", delayers or None),
                ev.OrderSet(tuple(order), self.ref("actions.delayed")),
                ev.TurnStarted(me, state.initiative.get(me)),
            )
            return
        if last:
            sc.emit(
                ev.ExtraSet("delayers", delayers or None),
                ev.Marked(me, "delay_into", state.round + 1, self.ref("actions.delayed.next-round")),
                ev.Note(
                    f"{state.combatants[me].name} delays into the next round",
                    me,
                    self.ref("actions.delayed.next-round"),
                ),
            )
            return
        asked = state.extra.get("delay_asked")
        ids = list(asked["ids"]) if asked and asked["at"] == state.turn else []
        sc.emit(ev.ExtraSet("delay_asked", {"at": state.turn, "ids": [*ids, me]}))

    # ----- geometry ---------------------------------------------------------------------------------------
    def _blocked(self, state: FightState, mover: str) -> Container[tuple[int, int]]:
        """The hexes ``mover`` cannot enter (for ``in`` tests): blocked on the map or taken by someone not
        dead or fled. In big fights a view of the occupancy index, else a set."""
        if len(state.combatants) > GRID_FROM and not state.grid().unplaced:
            return Taken(state, mover)
        blocked: set[Any] = {tuple(h) for h in state.extra.get("map", {}).get("blocked", ())}
        blocked |= state.occupied(mover)
        return blocked

    def _check_path(
        self, state: FightState, me: Combatant, path: Any, limit: int, rule: str, start: Any = None
    ) -> list[tuple[int, int]]:
        if not path:
            return []
        try:
            cells = [(int(h[0]), int(h[1])) for h in path]
        except (TypeError, ValueError, IndexError):
            raise IllegalCommand(f"a path is a list of [q, r] hexes, found {path!r}") from None
        if len(cells) > limit:
            raise IllegalCommand(
                f"{me.name} can move {limit} hex{'es' if limit != 1 else ''} now (2 yards each), "
                f"not {len(cells)}",
                rule,
            )
        blocked = self._blocked(state, me.id)
        prev = start if start is not None else me.pos
        for h in cells:
            if prev is None or distance(prev, h) != 1:
                raise IllegalCommand(f"the path must go hex by hex; {list(h)} is not next to {prev}", rule)
            if h in blocked:
                raise IllegalCommand(f"hex {list(h)} is blocked or taken", rule)
            prev = h
        return cells

    def moved_this_round(self, state: FightState, c: Combatant) -> int:
        m = c.marks.get("moved")
        return m[1] if m is not None and m[0] == state.round else 0

    # ----- actions: validate ------------------------------------------------------------------------------
    def _v_none(self, state: FightState, command: Command) -> None:
        return None

    def _v_active(self, state: FightState, command: Command) -> Combatant:
        me = state.combatants[command.actor]
        if me.status != "active":
            raise IllegalCommand(f"{me.name} is {me.status} and cannot act", self.ref("damage.unconscious"))
        return me

    # the rule by which a combatant leaves the fight (status fled): ED4's run away, a doubled move (p.373)
    FLED_RULE = "movement.double"

    def _target(self, state: FightState, command: Command) -> Combatant:
        """The command's target; one who fled has left the fight and is nobody's target (attack, spell,
        charge, swoop, revival, mount)."""
        t = state.combatants.get(command.target or "")
        if t is None:
            raise IllegalCommand(f"no target {command.target!r}")
        if t.status == "fled":
            raise IllegalCommand(f"{t.name} has left the fight", self.ref(self.FLED_RULE))
        return t

    def _v_attack(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        target = self._target(state, command)
        if target.status == "dead":
            raise IllegalCommand(f"{target.name} is dead already")
        if target.id == me.id:
            raise IllegalCommand("a character does not attack himself")
        p: CombatProfile = me.stats
        a = p.attack(command.args.get("attack"))
        if a is None:
            raise IllegalCommand(
                f"{me.name} has no attack {command.args.get('attack')!r}; "
                f"known: {', '.join(x.name for x in p.attacks)}"
            )
        if command.args.get("karma") and me.counters.get("karma", 0) < 1:
            raise IllegalCommand(f"{me.name} has no Karma left", self.ref("karma"))
        if command.args.get("karma") and not a.karma:
            raise IllegalCommand(f"Karma cannot be spent on {me.name}'s {a.name} test", self.ref("karma"))
        if command.args.get("karma_damage") and not a.karma_damage:
            raise IllegalCommand(
                f"nothing lets {me.name} add Karma to the {a.name} Damage test", self.ref("karma")
            )
        left = self.movement_hexes(state, me) - self.moved_this_round(state, me)
        path = self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement"))
        where = path[-1] if path else me.pos
        if where is None or target.pos is None:
            return
        d = distance(where, target.pos)
        if a.close:
            if d != 1:
                raise IllegalCommand(
                    f"{target.name} is {d} hexes away: close combat needs an adjacent target",
                    self.ref("combat.close"),
                )
        else:
            yards = d * 2
            if a.long is not None and not within(d, a.long):
                raise IllegalCommand(
                    f"{target.name} is {yards} yards away, beyond the {a.name}'s long range {a.long}",
                    self.ref("combat.ranged"),
                )
            if inside_minimum(range_hexes(d, me.altitude, target.altitude), a.minimum):
                raise IllegalCommand(f"{target.name} is inside the minimum range", self.ref("combat.ranged"))
        if command.args.get("after"):
            # Movement may come before or after the action (p.373): what is left of the Movement Rate.
            self._check_path(
                state, me, command.args["after"], max(left - len(path), 0), self.ref("movement"), start=where
            )

    def _v_move(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        left = self.movement_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement"))

    def _v_run(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" in me.conditions:
            raise IllegalCommand(f"{me.name} must stand up first", self.ref("situation.knocked-down"))
        left = 2 * self.movement_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement.double"))

    def _v_stand_up(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" not in me.conditions:
            raise IllegalCommand(f"{me.name} is not knocked down", self.ref("situation.knocked-down"))
        p: CombatProfile = me.stats
        # the walk after standing up is what is left of the round's Movement Rate (p.373: one a round)
        left = max(hexes(p.movement) - self.moved_this_round(state, me), 0)
        self._check_path(state, me, command.args.get("path"), left, self.ref("movement"))

    def _v_revive(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        t = self._target(state, command)
        if t.status != "unconscious":
            raise IllegalCommand(f"{t.name} is not unconscious", self.ref("recovery.unconscious"))
        if not can_rouse(me):
            raise IllegalCommand(
                f"{me.name} is a creature, not a Namegiver character: only another character can try to "
                "revive an unconscious character",
                self.ref("recovery.unconscious"),
            )
        if me.pos and t.pos and distance(me.pos, t.pos) != 1:
            raise IllegalCommand(f"{me.name} must stand next to {t.name}", self.ref("recovery.unconscious"))
        if t.counters.get("recovery_used", 0) >= t.stats.recovery_tests:
            raise IllegalCommand(f"{t.name} has no Recovery test left", self.ref("recovery"))

    def _v_reserve(self, state: FightState, command: Command) -> None:
        self._v_active(state, command)
        trig = command.args.get("trigger") or {"on": "attack"}
        if not isinstance(trig, dict) or trig.get("on", "attack") not in ("attack", "action"):
            raise IllegalCommand(
                "a reserved action names its trigger: {on: attack|action, target: id, by: id}",
                self.ref("actions.reserved"),
            )

    # ----- actions: resolve -------------------------------------------------------------------------------
    def _end_or_mark(self, state: FightState, command: Command, sc: Scratch, standard: bool) -> None:
        if command.args.get("end", True):
            sc.emit(ev.TurnEnded(command.actor))
        elif standard:
            sc.emit(ev.Marked(command.actor, "std", state.round, self.ref("actions.standard")))

    def _emit_move(
        self,
        state: FightState,
        command: Command,
        sc: Scratch,
        path: list[tuple[int, int]],
        mode: str,
        rule: str,
    ) -> None:
        if not path:
            return
        me = sc.get(command.actor)
        moved = self.moved_this_round(state, me) + len(path)
        sc.emit(ev.Moved(command.actor, tuple(path), mode, heading(me.pos, path), None, rule))
        if not command.args.get("end", True) or command.action == "move":
            sc.emit(ev.Marked(command.actor, "moved", [state.round, moved], rule))

    def _r_move(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        path = [tuple(h) for h in command.args.get("path") or ()]
        me = state.combatants[command.actor]
        mode = "crawl" if "knocked-down" in me.conditions else "move"
        self._emit_move(state, command, sc, path, mode, self.ref("movement"))  # type: ignore[arg-type]
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(command.actor))

    def _r_run(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        path = [tuple(h) for h in command.args.get("path") or ()]
        self._emit_move(state, command, sc, path, "run", self.ref("movement.double"))  # type: ignore[arg-type]
        self._flee_check(state, command, sc)
        self._end_or_mark(state, command, sc, True)

    def _flee_check(self, state: FightState, command: Command, sc: Scratch) -> None:
        """A retreating character escapes when no enemy could reach him with a doubled move next round."""
        if not command.args.get("flee"):
            return
        me = sc.get(command.actor)
        if me.pos is None:
            return
        for c in state.combatants.values():
            reach = 2 * self.movement_hexes(state, c) + 1
            if (
                c.side != me.side
                and c.status == "active"
                and c.pos is not None
                and distance(c.pos, me.pos) <= reach
            ):
                return
        sc.emit(ev.StatusChanged(me.id, "fled", self.ref("movement.double")))

    def _r_stand_up(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        sc.emit(
            ev.ConditionRemoved(
                command.actor, "knocked-down", "stands up", self.ref("situation.knocked-down")
            )
        )
        path = [tuple(h) for h in command.args.get("path") or ()]
        self._emit_move(state, command, sc, path, "move", self.ref("movement"))  # type: ignore[arg-type]
        self._end_or_mark(state, command, sc, True)

    def _r_revive(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        recovery_events(
            sc, self.edition, dice, command.target or "", f"revived by {state.combatants[command.actor].name}"
        )
        self._end_or_mark(state, command, sc, True)

    def _r_sustain(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = state.combatants[command.actor]
        task = str(command.args.get("task", "a sustained action"))
        need = int(command.args.get("rounds", 2))
        cur = me.marks.get("sustained")
        done = (cur["done"] if cur and cur["task"] == task else 0) + 1
        if done >= need:
            sc.emit(
                ev.Marked(me.id, "sustained", None, self.ref("actions.sustained")),
                ev.Note(f"{me.name} completes {task} ({need} rounds)", me.id, self.ref("actions.sustained")),
            )
        else:
            sc.emit(
                ev.Marked(
                    me.id,
                    "sustained",
                    {"task": task, "done": done, "of": need},
                    self.ref("actions.sustained"),
                ),
                ev.Note(
                    f"{me.name} works on {task} ({done} of {need} rounds)",
                    me.id,
                    self.ref("actions.sustained"),
                ),
            )
        self._end_or_mark(state, command, sc, True)

    def _r_simple(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        what = str(command.args.get("what", "a simple action"))
        sc.emit(
            ev.Note(
                f"{state.combatants[command.actor].name}: {what}", command.actor, self.ref("actions.simple")
            )
        )
        if command.args.get("end", False):
            sc.emit(ev.TurnEnded(command.actor))

    def _r_end(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        sc.emit(ev.TurnEnded(command.actor))

    def _r_reserve(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        trig = dict(command.args.get("trigger") or {"on": "attack"})
        trig.setdefault("on", "attack")
        reserved = dict(state.extra.get("reserved", {}))
        reserved[command.actor] = trig
        who = state.combatants.get(trig.get("target") or "")
        if who is not None and who.id == command.actor:
            what = "an attack on itself"
        elif who is not None:
            what = f"an attack on {who.name}" if trig["on"] == "attack" else f"{who.name}'s action"
        else:
            what = "any attack on its side" if trig["on"] == "attack" else "any action"
        sc.emit(
            ev.ExtraSet("reserved", reserved),
            ev.Note(
                f"{state.combatants[command.actor].name} reserves its action for {what}",
                command.actor,
                self.ref("actions.reserved"),
            ),
        )

    def _r_delay(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        delayers = [*state.extra.get("delayers", ()), command.actor]
        sc.emit(
            ev.ExtraSet("delayers", delayers),
            ev.ExtraSet("delay_asked", {"at": state.turn, "ids": [command.actor]}),
            ev.Note(
                f"{state.combatants[command.actor].name} delays its action",
                command.actor,
                self.ref("actions.delayed"),
            ),
        )

    # ----- the attack -------------------------------------------------------------------------------------
    def _r_attack(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        """Attack test against the target's Defense (p.377), extra successes (+2 damage steps each against
        Physical Defense), Damage test (weapon + Strength, p.378), Armor, Wounds, knockdown, unconsciousness
        and death (p.379-380). A creature with several Actions makes that many attacks (until the target
        falls)."""
        me_id = command.actor
        args = command.args
        raw_path = args.get("path")
        if raw_path:
            path = [tuple(h) for h in raw_path]
            self._emit_move(state, command, sc, path, "move", self.ref("movement"))  # type: ignore[arg-type]
        combatants = sc.combatants
        me = combatants[me_id]
        p: CombatProfile = me.stats
        a = p.attack(args.get("attack"))
        assert a is not None
        reserved = bool(sc.flags.get("reserved"))  # reacting with a reserved action (+2 to DNs, p.375)
        karma = bool(args.get("karma"))
        karma_damage = bool(args.get("karma_damage"))
        n = p.actions if a.kind != "spell" else 1
        tid = command.target or ""
        for _ in range(n):
            target = combatants[tid]
            if target.status == "dead" or (_ and target.status != "active"):
                break
            self.attack_once(state, sc, dice, me, target, a, command, reserved, karma, karma_damage)
            if karma and me.counters.get("karma", 0) < 1:
                karma = False
            if karma_damage and me.counters.get("karma", 0) < 1:
                karma_damage = False
            if me.status != "active":
                break
        after = [tuple(h) for h in command.args.get("after") or ()]
        if after and me.status == "active" and "knocked-down" not in me.conditions:
            self._emit_move(state, command, sc, after, "move", self.ref("movement"))  # type: ignore[arg-type]
        self._end_or_mark(state, command, sc, True)

    def attack_once(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        target: Combatant,
        a: AttackProfile,
        command: Command | None,
        reserved: bool,
        karma: bool,
        karma_damage: bool,
    ) -> None:
        p: CombatProfile = me.stats
        tp: CombatProfile = target.stats
        refs = self.edition.refs
        mpos = me.pos
        tpos = target.pos
        if mpos is not None and tpos is not None:
            dq = mpos[0] - tpos[0]
            dr = mpos[1] - tpos[1]
            yards = (abs(dq) + abs(dr) + abs(dq + dr)) // 2 * 2
        else:
            yards = 0
        against = a.against
        ctx = TestContext(
            state, sc, "attack", me, target, a, command, against, {"yards": yards, "reserved": reserved}
        )
        smods = self.step_mods(ctx)
        defense = (
            tp.physical_defense
            if against == "physical"
            else tp.mystic_defense
            if against == "mystic"
            else tp.social_defense
        )
        dmods = self.defense_mods(ctx)
        dn = defense
        for m in dmods:
            dn += m.value
        if dn < 1:
            dn = 1
        use_karma = karma and me.counters.get("karma", 0) > 0
        label = _DEFENSE_LABELS[against]
        res = run_test(
            dice,
            self.edition,
            a.step,
            smods,
            dn,
            p.karma_step if use_karma else None,
            me.name,
            f"{a.name} Attack",
            label,
        )
        physical = against == "physical"
        rule = refs["attack.extra-successes"] if res.extra and physical else refs["attack"]
        emit = sc.emit1
        if use_karma:
            emit(ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", refs["karma"]))
        emit(rolled_event(me.id, f"{a.name} Attack", res, rule, target.id, label, dmods, refs["karma"]))
        if not res.success:
            return
        ctx.test = "damage"
        dsm = self.step_mods(ctx)
        if res.extra and physical:
            dsm.append(
                Modifier(
                    res.extra * self.edition.extra_success_damage,
                    f"{res.extra} extra success{'es' if res.extra > 1 else ''}",
                    refs["attack.extra-successes"],
                )
            )
        use_kd = karma_damage and me.counters.get("karma", 0) > 0
        if use_kd:
            emit(ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Damage test", refs["karma"]))
        dres = run_test(
            dice,
            self.edition,
            a.damage,
            dsm,
            None,
            p.karma_step if use_kd else None,
            me.name,
            f"{a.name} Damage",
        )
        emit(
            rolled_event(me.id, f"{a.name} Damage", dres, refs["damage"], target.id, karma_rule=refs["karma"])
        )
        armor = self.armor_of(target, a)
        stun = a.stun or bool(command and command.args.get("stun"))

        def kd_mods(t: Combatant, new_wounds: int) -> list[Modifier]:
            return self.step_mods(TestContext(state, sc, "knockdown", t, extra={"new_wounds": new_wounds}))

        damage_events(
            sc,
            self.edition,
            dice,
            target.id,
            dres.total,
            armor,
            me.id,
            stun=stun,
            damage_type=a.armor if a.armor != "none" else "unarmored",
            knockdown_mods=kd_mods,
            round_no=state.round,
        )

    # ----- showing ----------------------------------------------------------------------------------------
    def _narrate_test(self, e: ev.Rolled, state: FightState) -> str:
        names = state.combatants
        who = names[e.actor].name if e.actor in names else e.actor
        tgt = f" vs {names[e.target].name}" if e.target in names else ""
        dice = list(e.roll.get("dice", ()))
        karma = any(len(m) > 1 and str(m[1]).startswith("Karma die") for m in e.modifiers)
        mods = [m for m in e.modifiers if not (len(m) > 1 and str(m[1]).startswith("Karma die"))]
        if karma and len(dice) > 1:
            text = f"step {e.step} ({_faces(dice[:-1])}) + Karma ({_faces(dice[-1:])})"
        else:
            text = f"step {e.step} ({_faces(dice)})"
        mod = e.roll.get("modifier", 0)
        if mod:
            text += f" {mod:+d}"
        against = ""
        if e.dn is not None:
            against = f" vs {e.against or 'DN'} {e.dn}"
        out = f" -> {e.outcome}" if e.outcome else ""
        extra = f", {e.extra} extra success{'es' if e.extra != 1 else ''}" if e.extra else ""
        why = " [" + "; ".join(f"{int(v):+d} {w} [{r}]" for v, w, r in mods) + "]" if mods else ""
        rule = f" ({e.rule})" if e.rule else ""
        return f"  {who}: {e.test}{tgt}, {text} = {e.total}{against}{out}{extra}{why}{rule}"

    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"

    def odds(self, state: FightState, command: Command) -> str | None:
        """The exact odds of the first test ``command`` would roll, before it is rolled.

        The command is resolved (purely) against a :class:`~fracas.rules.earthdawn.combat.ProbeDice`, which
        stops at the first test: its step, Karma die and DN are the ones the resolver computed, with every
        modifier provider it consults. The odds are exact (:mod:`fracas.dice.exact`); the Rule of One (every
        die a 1 fails the test, reference 1.4) is counted as a failure and named. None when the command is
        illegal or rolls nothing.
        """
        try:
            self.validate(state, command)
        except IllegalCommand:
            return None
        try:
            self.resolve(state, command, ProbeDice())  # type: ignore[arg-type]
        except ProbedTest as t:
            if not t.test:  # a resolver that does not name its tests
                t.test = f"{command.args.get('attack') or command.action} test"
            return self.describe_odds(t)
        return None

    def describe_odds(self, t: ProbedTest) -> str:
        """ "Broadsword Attack step 13 vs PD 8: 78% hit, 31% with an extra success; Rule of One 0.3%"."""
        from fracas.dice.exact import ed4_test, step_distribution

        ed = self.edition
        if not t.step:  # a die rolled outside a step test (scatter, a table...)
            return f"a roll first: {t.test}"
        expr = f"step {t.step}" + (f"+step {t.karma_step}" if t.karma_step is not None else "")
        what = f"{t.test} step {t.step}" + (
            f" + Karma step {t.karma_step}" if t.karma_step is not None else ""
        )
        mods = "; ".join(f"{m.value:+d} {m.why}" for m in t.mods)
        mods = f" ({mods})" if mods else ""
        if t.dn is None:
            if t.karma_step is None:
                mean = step_distribution(t.step, ed.steps).mean
            else:
                mean = ed4_test(expr, 1, ed.steps, ed.rule_of_one_min_dice).mean
            return f"{what}{mods}: {mean:.1f} on average"
        o = ed4_test(expr, t.dn, ed.steps, ed.rule_of_one_min_dice)
        word = "hit" if "Attack" in t.test or "Spellcasting" in t.test else "success"
        against = _SHORT.get(t.against, t.against or "DN")
        text = f"{what}{mods} vs {against} {t.dn}: {_pct(o.p_success)} {word}"
        if ed.extra_success_damage:
            text += f", {_pct(o.p_at_least_extra(1))} with an extra success"
        if o.p_rule_of_one:
            text += f"; Rule of One {_pct(o.p_rule_of_one, 1)}"
        return text

    def card(self, combatant: Combatant) -> dict[str, Any]:
        p: CombatProfile = combatant.stats
        return {
            "damage": current_damage(combatant),
            "unconsciousness": p.unconsciousness,
            "death": p.death,
            "wounds": combatant.count("wounds"),
            "wound_threshold": p.wound_threshold,
            "karma": combatant.count("karma"),
            "strain": combatant.count("strain"),
            "physical_defense": p.physical_defense,
            "mystic_defense": p.mystic_defense,
            "social_defense": p.social_defense,
            "physical_armor": p.physical_armor,
            "mystic_armor": p.mystic_armor,
            "initiative_step": p.initiative_step,
            "movement": p.movement,
            "conditions": sorted(combatant.conditions),
            "attacks": [f"{a.name}: step {a.step}, damage {a.damage}" for a in p.attacks],
        }

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        if isinstance(event, ev.Rolled) and event.step is not None:
            return self._narrate_test(event, state)
        if isinstance(event, ev.TurnStarted):
            c = state.combatants.get(event.actor)
            init = state.initiative.get(event.actor)
            return f"{c.name if c else event.actor} acts" + (
                f" (Initiative {init})" if init is not None else ""
            )
        if isinstance(event, ev.Damaged) and event.damage_type == "strain":
            c = state.combatants[event.target]
            return f"  {c.name} takes {event.amount} Strain [{event.rule}]"
        if isinstance(event, ev.Damaged):
            c = state.combatants[event.target]
            src = state.combatants.get(event.source or "")
            what = "Stun damage" if event.counter == "stun" else "damage"
            armor = f" - {event.armor} {event.damage_type} armor" if event.armor else ""
            return (
                f"  {c.name} takes {event.amount} {what}"
                + (f" from {src.name}" if src else "")
                + (f" ({event.raw}{armor})" if event.raw is not None and event.armor else "")
            )
        if isinstance(event, ev.InitiativeRolled) and event.roll is None:
            c = state.combatants.get(event.actor)
            how = {
                self.ref("initiative.group"): "one test for the group",
                self.ref("initiative.take"): "the step as the result",
                self.ref("initiative.below-one"): "step below 1: acts last",
                self.ref("actions.delayed.next-round"): "delayed from last round: one above the highest",
            }.get(event.rule, event.rule)
            step = f"step {event.step}, " if event.step is not None else ""
            mods = (
                "; " + "; ".join(f"{int(v):+d} {w} [{r}]" for v, w, r in event.modifiers)
                if event.modifiers
                else ""
            )
            return (
                f"{c.name if c else event.actor} Initiative {event.value} ({step}{how} [{event.rule}]){mods}"
            )
        if isinstance(event, ev.Wounded):
            c = state.combatants[event.target]
            return f"  {c.name} takes a Wound [{event.rule}]"
        if isinstance(event, ev.RoundEnded):
            parts = []
            for c in state.combatants.values():
                p: CombatProfile = c.stats
                if c.status in ("dead", "fled") and not current_damage(c):
                    continue
                text = f"{c.name} {current_damage(c)}/{p.unconsciousness or 'NA'}/{p.death}"
                if c.count("wounds"):
                    text += f" W{c.count('wounds')}"
                if c.status != "active":
                    text += f" {c.status}"
                elif "knocked-down" in c.conditions:
                    text += " down"
                parts.append(text)
            return f"  (end of round {event.round} - damage/unconscious/death: " + "; ".join(parts) + ")"
        if isinstance(event, ev.ConditionAdded) and event.name == "knocked-down":
            c = state.combatants[event.target]
            return f"  {c.name} is knocked down [{event.rule}]"
        if isinstance(event, ev.Declared) and event.action == "act" and not event.options:
            return ""
        if isinstance(event, (ev.ExtraSet, ev.Marked)):
            return ""
        return None


_DEFENSE_LABELS = {"physical": "Physical Defense", "mystic": "Mystic Defense", "social": "Social Defense"}

_SHORT = {"Physical Defense": "PD", "Mystic Defense": "MD", "Social Defense": "SD", "Spell Defense": "SD"}


@cache
def _act_decision(cid: str) -> Decision:
    """The "act" decision of combatant ``cid``: Decisions are immutable, so one per id serves every fight."""
    return Decision(cid, "act")


def heading(start: tuple[int, int] | None, path: Iterable[Any]) -> int | None:
    """The facing after moving along ``path`` from ``start``: the direction of the last step (a combatant
    faces where it goes; ED4 Blindsided p.386-387 reads facing), None if it did not move."""
    cells = [(int(h[0]), int(h[1])) for h in path]
    if not cells:
        return None
    prev = cells[-2] if len(cells) > 1 else start
    if prev is None or tuple(prev) == cells[-1]:
        return None
    return direction_to((int(prev[0]), int(prev[1])), cells[-1])


def can_rouse(c: Any) -> bool:
    """Whether a combatant may use a Standard action to revive an unconscious character: "Another
    character can use a Standard action to try and revive him" (ED4 p.380), a Namegiver character, not a
    mount or beast. [choice] The stat blocks name no Namegiver flag: a ``character`` is one, and so is a
    creature-format block that fights with weapons (melee, missile, thrown, unarmed or spell attacks, as an
    ork scorcher does); a creature whose every attack is a natural one (a horse, a griffin) is not."""
    p = c.stats
    if getattr(p, "kind", "creature") == "character":
        return True
    return any(a.kind != "natural" for a in p.attacks)


def _pct(p: float, digits: int = 0) -> str:
    v = 100 * p
    if digits == 0 and 0 < v < 1:
        return "<1%"
    if digits == 0 and 99 < v < 100:
        return ">99%"
    return f"{v:.{digits}f}%"


def _faces(dice: list[Any]) -> str:
    parts = []
    for d in dice:
        faces = [int(f) for f in d[1:]]
        parts.append(
            f"d{abs(int(d[0]))}:" + ("+".join(map(str, faces)) + "!" if len(faces) > 1 else str(faces[0]))
        )
    return " ".join(parts)


def _mt(mods: list[Modifier]) -> tuple[tuple[Any, ...], ...]:
    return tuple((m.value, m.why, m.rule) for m in mods)


EQUIPMENT_KEYS = ("weapons", "armor", "shield")


def _check_equipment(cat: Any, equipment: dict[str, Any], where: str) -> None:
    """Every unknown weapon, armor or shield of an encounter's ``equipment``, each at its own path, in one
    error (the catalog's own message names the first only, and not where it is)."""
    from fracas.rules.earthdawn.catalog import UnknownName

    problems: list[str] = []
    weapons = equipment.get("weapons", [])
    items = [(f"{where}.weapons", weapons)] if isinstance(weapons, str) else []
    if isinstance(weapons, list):
        items = [(f"{where}.weapons.{i}", w) for i, w in enumerate(weapons)]
    elif not isinstance(weapons, str):
        problems.append(f"{where}.weapons: expected a list of weapon names, found {weapons!r}")
    lookups = [(path, name, cat.weapon) for path, name in items]
    for field, look in (("armor", cat.armor_piece), ("shield", cat.shield)):
        if equipment.get(field):  # empty: none worn, as from_character reads it
            lookups.append((f"{where}.{field}", equipment[field], look))
    for path, name, look in lookups:
        if not isinstance(name, str):
            problems.append(f"{path}: expected a name, found {name!r}")
            continue
        try:
            look(name)
        except UnknownName as exc:
            problems.append(f"{path}: {exc}")
    if problems:
        raise EncounterFileError("; ".join(problems))


def character_with(cat: Any, key: str, equipment: dict[str, Any], edition: str) -> Any:
    """A catalog character of ``edition`` with the encounter's equipment in place of its own."""
    from fracas.rules.earthdawn.stats import EarthdawnStats

    row = cat.characters[key]
    weapons = equipment.get("weapons", row.weapons)
    if isinstance(weapons, str):
        weapons = [weapons]
    return EarthdawnStats.from_character(
        row.name,
        edition,
        row.race,
        row.attributes,
        talents=row.talents,
        skills=row.skills,
        weapons=weapons,
        armor=equipment.get("armor", row.armor),
        shield=equipment.get("shield", row.shield),
        circle=row.circle,
        karma=row.karma,
        discipline=row.discipline,
        spells=[s.model_dump() for s in row.spells],
        mount=row.mount,
        catalog=cat,
    )
