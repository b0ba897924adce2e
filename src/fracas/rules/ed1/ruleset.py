"""The Earthdawn 1st Edition ruleset ``ed1``: the shared Earthdawn round with the 1st Edition's rules.

Source: ``001_694a1556573a8dc9.txt`` ("EDRulebook: 12 Combat"); rule ids and sections in
``data/rules.toml``. What the shared code (:mod:`fracas.rules.earthdawn`) does for both editions
stays there; this module changes only what the 1st Edition changes:

- the ED1 Step table and success levels (Pathetic ... Extraordinary) instead of extra successes; an
  Excellent or Extraordinary Attack test defeats armor; no extra damage steps;
- declarations that mean something: each character declares the general action (and its target) before
  Initiative; changing it at his turn adds +2 to the Difficulty Number (Thom Hammerblade);
- Initiative: characters roll their Dexterity dice (armor and shields lower them, talents raise them),
  creatures the Initiative dice of their description; ties act together, player characters first;
- Combat Movement when the character also acts, Full Movement when moving is all he does; movement all at
  once before or after the action (Splitting Movement only as the optional rule);
- reserved actions by choosing a lower Initiative number (+2 to the Difficulty Number); no ED4 delayed
  actions; a charging or swooping attacker can be attacked only with a reserved action;
- the ED1 Wound penalty (the first Wound is free).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.dice.exact import ed1_level, ed1_success_levels
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.base import Modifier, OptionalRule, Rule
from fracas.rules.cite import catalog
from fracas.rules.earthdawn.actions import SIMPLE, STANDARD, Action
from fracas.rules.earthdawn.battle_map import hexes
from fracas.rules.earthdawn.combat import (
    Edition,
    Scratch,
    TestContext,
    damage_events,
    rolled_event,
    run_test,
)
from fracas.rules.earthdawn.ruleset import EarthdawnRuleset
from fracas.rules.ed1.profile import Ed1Profile, override_ed1, profile_from_ed1_block, profile_from_ed1_stats

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

ED1 = Edition(
    id="ed1",
    steps="ed1",
    refs=dict(catalog("ed1").refs),
    extra_success_damage=0,
    rule_of_one_min_dice=2,
    result_floor=1,
    rounds_per_minute=6,
)
"""ED1 in the shared rules: the ED1 Step table (reference 1.2), no extra-success damage (success levels
instead, reference 1.5), the Rule of One with two dice or more and results floored at 1 (reference 1.4), a
minute of 6 rounds ("Each Combat Round equals roughly ten seconds", ch.12§Combat-Round)."""

DECLARABLE = ("attack", "spell", "move", "run", "stand-up", "revive", "other")
"""General actions a character declares before Initiative (ch.12§Combat-Round.1): "attack" (a weapon or
unarmed attack, optionally naming its target), "spell" (a spell attack), "move" (moving only), "run" (Full
Movement), "stand-up", "revive" (a Recovery test for an unconscious friend), "other"."""

SPECIAL = ("surrender", "retreat", "charge", "swoop")
"""Special actions declared with the action (ch.12§Special-Actions): surrender and retreat as the text names
them; charge and swoop (the charging and swooping attacks of ch.12§Reserved-Actions)."""

ARMOR_DEFEATING = ("Excellent", "Extraordinary")
SUCCESS = ("Average", "Good", "Excellent", "Extraordinary")


def level_outcome(total: int, dn: int, success: bool, rule_of_one: bool) -> tuple[str, str | None]:
    """The outcome text of an ED1 test and its success level (None above the known rows of the table).

    >>> level_outcome(18, 9, True, False)
    ('Excellent success', 'Excellent')
    >>> level_outcome(20, 15, True, False)[1] is None
    True
    >>> level_outcome(1, 1, True, False)
    ('Average success', 'Average')
    """
    if rule_of_one:
        return "Rule of One: failure", None
    rows = ed1_success_levels()
    # [choice] a DN below the lowest row held (DN 1, after modifiers such as Knocked Down) is graded on that
    # row; a result that reaches the DN is at least Average (a success is never a Poor result)
    level = ed1_level(total, max(dn, min(rows)))
    if level is None:
        top = max(rows)
        what = "success" if success else "failure"
        return f"{what} (success level unknown above DN {top})", None
    if success and level in ("Pathetic", "Poor"):
        level = "Average"
    return f"{level} {'success' if success else 'failure'}", level


class Ed1Ruleset(EarthdawnRuleset):
    id = "ed1"
    name = "Earthdawn 1st Edition"
    source = "001_694a1556573a8dc9.txt"
    hex_yards = 2.0
    edition = ED1
    FLED_RULE = "special.retreat"  # one who retreated has left the fight (ch.12§Special-Actions)

    def __init__(self) -> None:
        super().__init__()
        r = self.ref
        # ED1 has no delayed action and no sustained action: the ED4 commands are refused (validate).
        self.actions.pop("delay", None)
        self.actions.pop("sustain", None)
        for a in (
            Action("attack", STANDARD, self._v_attack_ed1, self._r_attack_ed1, r("attack")),
            Action("move", SIMPLE, self._v_move_ed1, self._r_move, r("movement")),
            Action("run", STANDARD, self._v_run_ed1, self._r_run, r("movement.full")),
            Action("reserve", "turn", self._v_reserve_ed1, self._r_reserve_ed1, r("actions.reserved")),
        ):
            self.add_action(a)
        self.dn_providers.append(self._changed_dn)

    # ----- the book -----------------------------------------------------------------------------------
    def rules(self) -> list[Rule]:
        return list(catalog("ed1").rules)

    def optional_rules(self) -> list[OptionalRule]:
        return [
            OptionalRule(
                "split-movement",
                "Splitting Movement: move, act, then move again (within the Combat Movement)",
                False,
                "ch.12§Movement",
                "off by default; the option's costs are in Combat Options, not in the text held",
            ),
            OptionalRule(
                "group-initiative",
                "One Initiative test for each group of identical gamemaster creatures or characters",
                True,
                "ch.12§Initiative",
                "the text recommends it",
            ),
            OptionalRule(
                "wound-penalties",
                "Wound penalty: Wounds - 1 steps to every test but Recovery tests",
                True,
                "reference 2.2",
                "[verify]",
            ),
            OptionalRule(
                "armor-defeating-hits",
                "An Excellent or Extraordinary Attack test defeats armor",
                True,
                "reference 1.5",
                "[single source, verify]",
            ),
            OptionalRule(
                "charge-damage",
                "A charging rider adds his mount's Strength step to the Damage test",
                True,
                "ED4 p.396 carried over",
                "[choice] the ED1 Mounted Combat section is not in the text held",
            ),
        ]

    def templates(self) -> list[str]:
        from fracas.rules.earthdawn.catalog import list_templates

        return [t.key for t in list_templates("ed1")]

    # ----- building -------------------------------------------------------------------------------------
    def profile_from_block(self, block: dict[str, Any], name: str, where: str) -> CombatProfile:
        return profile_from_ed1_block(block, name, where)

    def profile_from_stats(self, stats: Any, name: str, catalog: Any) -> CombatProfile:
        return profile_from_ed1_stats(stats, name, catalog)

    def override_profile(self, profile: CombatProfile, block: dict[str, Any], where: str) -> CombatProfile:
        return override_ed1(profile, block, where)

    def tactics(self) -> dict[str, Any]:
        if self._tactics is None:
            from fracas.rules.ed1.tactics import TACTICS

            self._tactics = dict(TACTICS)
        return self._tactics

    # ----- movement (ch.12§Movement) ---------------------------------------------------------------------
    def full_hexes(self, state: FightState, c: Combatant) -> int:
        """Hexes of Full Movement (moving is all the character does), 2 yards a hex, rounded up (p.372)."""
        p = c.stats
        if "knocked-down" in c.conditions:
            return 1
        return hexes(int(getattr(p, "full_movement", 2 * p.movement)))

    def _v_move_ed1(self, state: FightState, command: Command) -> None:
        self._v_move(state, command)
        self._all_at_once(state, command)

    def _v_run_ed1(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        if "knocked-down" in me.conditions:
            raise IllegalCommand(f"{me.name} must stand up first", self.ref("situation.knocked-down"))
        left = self.full_hexes(state, me) - self.moved_this_round(state, me)
        self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement.full"))

    def _v_stand_up(self, state: FightState, command: Command) -> None:
        """Standing up is the round's action (the shared Knocked Down rule); a path with it is the movement
        after that action: within what is left of the Combat Movement, and not after crawling before it
        (ch.12§Movement: all at once, unless Splitting Movement). The shared check limits the path to what
        is left of the round's movement."""
        me = state.combatants.get(command.actor)
        if (
            me is not None
            and "knocked-down" in me.conditions
            and command.args.get("path")
            and self.moved_this_round(state, me)
            and not state.options.get("split-movement", False)
        ):
            raise IllegalCommand(
                f"{me.name} moved before standing up: movement takes place all at once, before or after the "
                "action (Splitting Movement is an optional rule, off)",
                self.ref("movement.all-at-once"),
            )
        super()._v_stand_up(state, command)

    def _flee_check(self, state: FightState, command: Command, sc: Scratch) -> None:
        """A retreating character (special action retreat, ch.12§Special-Actions; a run with flee: true)
        escapes when no active enemy could reach him next round at that enemy's Full Movement (ch.12§Movement;
        the shared rule reads the ED4 doubled Movement Rate instead) [choice: the text does not say when a
        retreat takes a character out of the fight]."""
        if not command.args.get("flee"):
            return
        me = sc.get(command.actor)
        if me.pos is None:
            return
        for c in state.combatants.values():
            if (
                c.side != me.side
                and c.status == "active"
                and c.pos is not None
                and distance(c.pos, me.pos) <= self.full_hexes(state, c) + 1
            ):
                return
        sc.emit(ev.StatusChanged(me.id, "fled", self.ref("special.retreat")))

    def _all_at_once(self, state: FightState, command: Command) -> None:
        """Movement after the action is refused when the character moved before it (ch.12§Movement),
        unless the optional rule Splitting Movement is on."""
        if not command.args.get("path") or state.options.get("split-movement", False):
            return
        me = state.combatants[command.actor]
        act = me.marks.get("ed1_action")
        if act is not None and act[0] == state.round and act[1] > 0:
            raise IllegalCommand(
                f"{me.name} moved before his action: movement takes place all at once, before or after "
                "the action (Splitting Movement is an optional rule, off)",
                self.ref("movement.all-at-once"),
            )

    def _end_or_mark(self, state: FightState, command: Command, sc: Scratch, standard: bool) -> None:
        if standard and not command.args.get("end", True):
            # the hexes moved before the action: earlier moves and an attack's own path, not the movement
            # after it (an attack's ``after``, a stand-up's path), which may go on at once
            before = self.moved_this_round(state, state.combatants[command.actor])
            if command.action == "attack":
                before += len(command.args.get("path") or ())
            sc.emit(
                ev.Marked(
                    command.actor, "ed1_action", [state.round, before], self.ref("movement.all-at-once")
                )
            )
        super()._end_or_mark(state, command, sc, standard)

    # ----- Initiative (ch.12§Combat-Round.2, §Initiative) ------------------------------------------------
    def initiative_step(
        self, state: FightState, c: Combatant, sc: Scratch | None
    ) -> tuple[int, list[Modifier]]:
        """A character's Dexterity step less its armor's and shield's Initiative penalties plus talents; a
        creature's Initiative step. Wound penalties and the like follow (step providers)."""
        p = c.stats
        mods: list[Modifier] = []
        if isinstance(p, Ed1Profile) and p.character:
            derived = p.dex_step - p.armor_penalty - p.shield_penalty
            # the catalog floors the Initiative step it derives at 1: a floored step is not an override
            if p.initiative_step != max(1, derived):  # an encounter file overrode the Initiative step
                base = p.initiative_step
            else:
                base = p.dex_step
                if p.armor_penalty:
                    mods.append(
                        Modifier(-p.armor_penalty, f"armor: {p.armor_name}", self.ref("initiative.armor"))
                    )
                if p.shield_penalty:
                    mods.append(
                        Modifier(-p.shield_penalty, f"shield: {p.shield_name}", self.ref("initiative.armor"))
                    )
        else:
            base = p.initiative_step
        for talent, steps in getattr(p, "initiative_talents", ()):
            mods.append(Modifier(steps, f"talent: {talent}", self.ref("initiative.talents")))
        mods.extend(self.step_mods(TestContext(state, sc, "initiative", c)))
        return base, mods

    def _initiative(
        self, state: FightState, dice: DiceSource, rnd: int, sc: Scratch | None = None
    ) -> list[ev.Event]:
        """Initiative tests (ch.12§Combat-Round.2): characters on their Dexterity dice, creatures on their
        Initiative dice; one test for each group of identical gamemaster creatures or characters
        (§Initiative); order by descending result; ties act together, a player character before a tied
        creature or gamemaster character, the others in the gamemaster's order (the encounter file's)."""
        group = state.options.get("group-initiative", True)
        out: list[ev.Event] = []
        roster = {cid: i for i, cid in enumerate(state.combatants)}
        groups: dict[tuple[Any, ...], int] = {}
        keys: list[tuple[int, int, int, str]] = []
        values: dict[str, int] = {}
        for c in state.combatants.values():
            if c.status != "active":
                continue
            base, mods = self.initiative_step(state, c, sc)
            step = base + sum(m.value for m in mods)
            if step < 1:
                mods.append(
                    Modifier(1 - step, "a step below 1 is rolled at Step 1", self.ref("initiative.below-one"))
                )
                step = 1
            gkey = (c.side, c.template, step) if group and c.template and not c.player else None
            if gkey is not None and gkey in groups:
                value = groups[gkey]
                out.append(
                    ev.InitiativeRolled(c.id, value, step, None, _mt(mods), self.ref("initiative.group"))
                )
            else:
                res = run_test(dice, self.edition, step, who=c.name, test="Initiative")
                value = res.total
                if gkey is not None:
                    groups[gkey] = value
                rule = self.ref(
                    "initiative.dexterity"
                    if isinstance(c.stats, Ed1Profile) and c.stats.character
                    else "initiative.creature"
                )
                out.append(ev.InitiativeRolled(c.id, value, step, _roll_json(res.roll), _mt(mods), rule))
            values[c.id] = value
            keys.append((-value, 0 if c.player else 1, roster[c.id], c.id))
        keys.sort()
        order = tuple(k[-1] for k in keys)
        by_value: dict[int, list[str]] = {}
        for cid in order:
            by_value.setdefault(values[cid], []).append(cid)
        for value, ids in by_value.items():
            if len(ids) > 1 and len({state.combatants[i].template or i for i in ids}) > 1:
                names = ", ".join(state.combatants[i].name for i in ids)
                out.append(
                    ev.Note(
                        f"Initiative {value}: {names} act at the same time (player characters first, "
                        "then the gamemaster's order)",
                        None,
                        self.ref("initiative.ties"),
                    )
                )
        out.append(ev.OrderSet(order, self.ref("initiative.order")))
        if order:
            out.append(ev.TurnStarted(order[0], values.get(order[0])))
        return out

    def order_key(self, state: FightState, cid: str, value: int) -> tuple[int, int, int, str]:
        roster = list(state.combatants)
        return (-value, 0 if state.combatants[cid].player else 1, roster.index(cid), cid)

    # ----- reserved actions (ch.12§Reserved-Actions) -----------------------------------------------------
    def _v_reserve_ed1(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        rule = self.ref("actions.reserved")
        if "trigger" in command.args or "initiative" not in command.args:
            raise IllegalCommand(
                "an ED1 reserved action names a new, lower Initiative number: reserve {initiative: N} "
                "(no trigger: that is the ED4 rule)",
                rule,
            )
        n = command.args.get("initiative")
        now = state.initiative.get(me.id)
        if isinstance(n, bool) or not isinstance(n, int):
            raise IllegalCommand(f"the new Initiative must be a whole number, found {n!r}", rule)
        if now is None or n >= now or n < 1:
            raise IllegalCommand(
                f"{me.name}'s new Initiative must be lower than {now} and at least 1, not {n}", rule
            )
        if me.marks.get("std") == state.round or self.moved_this_round(state, me):
            raise IllegalCommand(f"{me.name} has begun his turn already (moved or acted)", rule)

    def _r_reserve_ed1(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        me = command.actor
        n = int(command.args["initiative"])
        old = state.initiative.get(me, n)
        rule = self.ref("actions.reserved")
        done = state.order[: state.turn] if state.turn >= 0 else []
        rest = [c for c in state.order[max(state.turn, 0) :] if c not in done]
        values = dict(state.initiative)
        values[me] = n
        rest.sort(key=lambda cid: self.order_key(state, cid, values.get(cid, 0)))
        # the next turn is the next combatant still able to act (the reserver at the latest): one put out
        # earlier this round keeps his place in the order but takes no turn
        nxt = next(c for c in rest if c == me or state.combatants[c].status == "active")
        sc.emit(
            ev.InitiativeRolled(me, n, None, None, ((n - old, "reserved: a lower Initiative", rule),), rule),
            ev.Marked(me, "ed1_reserved", state.round, rule),
            ev.Note(
                f"{state.combatants[me].name} reserves his action: Initiative {old} -> {n} "
                "(+2 to the Difficulty Number of his action)",
                me,
                rule,
            ),
            ev.OrderSet(tuple(done + rest), rule),
            ev.TurnStarted(nxt, values.get(nxt)),
        )

    def _reserved_dn(self, ctx: TestContext) -> Iterable[Modifier]:
        if ctx.extra.get("reserved"):
            return (Modifier(2, "DN: reserved action", self.ref("actions.reserved")),)
        return ()

    # ----- changing the declared action (ch.12§Changing-Declared-Action) ---------------------------------
    def declared_change(self, state: FightState, command: Command) -> str | None:
        """How ``command`` departs from what its actor declared before Initiative, or None."""
        d = state.declarations.get(command.actor)
        if d is None:
            return None
        act = d.get("action")
        name = command.action
        opts = tuple(d.get("options", ()) or ())
        if name == "attack":
            p: CombatProfile = state.combatants[command.actor].stats
            a = p.attack(command.args.get("attack"))
            kind = "spell" if a is not None and a.kind == "spell" else "attack"
            if act != kind:
                return f"declared {act}, now {'a spell' if kind == 'spell' else 'an attack'}"
            t = d.get("target")
            if t and t != command.target:
                tn = state.combatants[t].name if t in state.combatants else t
                now = state.combatants[command.target].name if command.target in state.combatants else "?"
                return f"declared an attack on {tn}, now on {now}"
            for opt in ("charge", "swoop"):
                if bool(command.args.get(opt)) != (opt in opts):
                    return f"declared a {opt}, now none" if opt in opts else f"a {opt} not declared"
            return None
        if name == "run":
            return None if act in ("run", "move") else f"declared {act}, now running"
        if name in ("stand-up", "revive"):
            return None if act == name else f"declared {act}, now {name}"
        return None

    def _changed_dn(self, ctx: TestContext) -> Iterable[Modifier]:
        why = ctx.extra.get("changed")
        if why and not ctx.extra.get("reserved"):
            return (Modifier(2, f"DN: changed declared action ({why})", self.ref("changed")),)
        return ()

    # ----- declaring (ch.12§Combat-Round.1, §Special-Actions) --------------------------------------------
    def offered(self, state: FightState, decision: Decision) -> list[Command]:
        me = state.combatants[decision.actor]
        if decision.kind == "declare":
            out = []
            p = me.stats
            for foe in state.combatants.values():
                if foe.side != me.side and foe.status == "active":
                    out.append(Command(me.id, "declare", foe.id, {"action": "attack"}))
                    if getattr(p, "mount", None):
                        out.append(
                            Command(me.id, "declare", foe.id, {"action": "attack", "options": ["charge"]})
                        )
            for act in ("move", "run", "other"):
                out.append(Command(me.id, "declare", args={"action": act}))
            out.append(Command(me.id, "declare", args={"action": "run", "options": ["retreat"]}))
            out.append(Command(me.id, "declare", args={"action": "other", "options": ["surrender"]}))
            return out
        out = [c for c in super().offered(state, decision) if c.action not in ("reserve", "delay")]
        now = state.initiative.get(me.id)
        if decision.kind == "act" and now is not None and now > 1 and not self.moved_this_round(state, me):
            out.insert(-1, Command(me.id, "reserve", args={"initiative": now - 1}))
        return out

    def validate(self, state: FightState, command: Command) -> None:
        decision = self.pending(state)
        kind = decision.kind if decision is not None and decision.actor == command.actor else "act"
        if kind != "declare":
            if command.action in ("delay", "sustain", "act-now", "wait"):
                raise IllegalCommand(
                    f"no {command.action!r} in the 1st Edition: a character reserves his action by choosing "
                    "a lower Initiative number (reserve {initiative: N})",
                    self.ref("actions.reserved"),
                )
            super().validate(state, command)
            return
        rule = self.ref("round.declare")
        if command.action != "declare":
            raise IllegalCommand("declare the round's general action first", rule)
        me = state.combatants.get(command.actor)
        if me is None:
            raise IllegalCommand(f"no combatant {command.actor!r}")
        act = command.args.get("action")
        if act not in DECLARABLE:
            raise IllegalCommand(
                f"declare a general action: one of {', '.join(DECLARABLE)} (found {act!r})", rule
            )
        if command.target is not None:
            t = state.combatants.get(command.target)
            if t is None:
                raise IllegalCommand(f"no target {command.target!r}", rule)
            if act in ("attack", "spell") and t.side == me.side:
                raise IllegalCommand(f"{t.name} is on {me.name}'s side", rule)
        opts = command.args.get("options", ()) or ()
        for opt in opts:
            if opt in SPECIAL:
                if opt == "charge" and not getattr(me.stats, "mount", None):
                    raise IllegalCommand(f"{me.name} is not mounted: no charging attack", self.ref("charge"))
                if opt == "swoop" and not getattr(me.stats, "flying", False):
                    raise IllegalCommand(f"{me.name} does not fly: no swooping attack", self.ref("swoop"))
                if opt in ("charge", "swoop") and act != "attack":
                    raise IllegalCommand(f"a {opt} is an attack: declare action attack", self.ref(opt))
                continue
            spec = self.combat_options.get(opt)
            if spec is None:
                raise IllegalCommand(
                    f"unknown special action {opt!r}; known: {', '.join(SPECIAL)} (the Combat Options are "
                    "in a section not held)",
                    self.ref("special"),
                )
            if spec.check is not None:
                spec.check(state, command)

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        decision = self.pending(state)
        kind = decision.kind if decision is not None else "act"
        if kind == "declare":
            a = command.args
            opts = tuple(a.get("options", ()) or ())
            out: list[ev.Event] = [
                ev.Declared(
                    command.actor,
                    str(a.get("action")),
                    opts,
                    command.target,
                    {k: v for k, v in a.items() if k not in ("action", "options")},
                )
            ]
            if "surrender" in opts:
                out.append(ev.StatusChanged(command.actor, "surrendered", self.ref("special.surrender")))
            return out
        events = super().resolve(state, command, dice)
        if kind == "act" and command.action in ("run", "stand-up", "revive"):
            why = self.declared_change(state, command)
            if why:
                events.insert(
                    0,
                    ev.Note(
                        f"{state.combatants[command.actor].name} changes his declared action ({why}): +2 to "
                        "the Difficulty Number of the new action (it has no test here)",
                        command.actor,
                        self.ref("changed"),
                    ),
                )
        return [self._with_level(e) for e in events]

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        return [self._with_level(e) for e in super().advance(state, dice)]

    def _with_level(self, e: ev.Event) -> ev.Event:
        """ED1 grades a test by success level (reference 1.5), never by ED4 extra successes."""
        if not isinstance(e, ev.Rolled) or e.dn is None or e.outcome not in ("success", "failure"):
            return e
        outcome, _ = level_outcome(e.total, e.dn, bool(e.success), False)
        return dataclasses.replace(e, outcome=outcome, extra=0)

    # ----- the attack ---------------------------------------------------------------------------------
    def _r_attack_ed1(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        """The shared attack; a hidden attacker is seen from then on: the other side's tactics know of him
        (they declare against what their characters know, ch.12§Combat-Round.1) [choice: the ED1 text has
        no surprise rule; ED4 reveals an ambusher the same way, p.388]."""
        me = state.combatants[command.actor]
        if me.hidden and not me.marks.get("revealed"):
            sc.emit(ev.Marked(me.id, "revealed", True, self.ref("round.declare")))
        self._r_attack(state, command, dice, sc)

    def _v_attack_ed1(self, state: FightState, command: Command) -> None:
        self._v_attack(state, command)  # a fled target is refused there (_target, FLED_RULE)
        if command.args.get("stun"):
            raise RuleNotImplemented(
                f"Stun damage ({self.ref('damage.stun')}): the ED1 combat text held has no rule for an "
                "attack to stun (the Combat Options are not in it); fracas does not carry the ED4 rule over"
            )
        self._all_at_once(state, command)
        me = state.combatants[command.actor]
        swoop = bool(command.args.get("swoop"))  # a swoop flies in, strikes and flies on (Aerial Combat)
        if command.args.get("after") and not swoop and not state.options.get("split-movement", False):
            before = self.moved_this_round(state, me) + len(command.args.get("path") or ())
            if before:
                raise IllegalCommand(
                    f"{me.name} moves before the attack: movement takes place all at once, before or after "
                    "the action (Splitting Movement is an optional rule, off)",
                    self.ref("movement.all-at-once"),
                )
        target = state.combatants[command.target or ""]
        if self.is_charging(state, target) and me.marks.get("ed1_reserved") != state.round:
            raise IllegalCommand(
                f"{target.name} is making a charging or swooping attack: only a reserved action "
                "(a lower Initiative) can attack him",
                self.ref("reserved.charge"),
            )
        if command.args.get("charge"):
            p = me.stats
            a = p.attack(command.args.get("attack"))
            if not getattr(p, "mount", None):
                raise IllegalCommand(f"{me.name} is not mounted: no charging attack", self.ref("charge"))
            if a is None or not a.close:
                raise IllegalCommand("a charging attack is a close attack", self.ref("charge"))
            path = [tuple(h) for h in command.args.get("path") or ()]
            if len(path) < 2 or not _straight(me.pos, path):
                raise IllegalCommand(
                    "a charging attack needs a run of 2 hexes or more in a straight line into close combat",
                    self.ref("charge"),
                )
        if command.args.get("swoop") and not getattr(me.stats, "flying", False):
            raise IllegalCommand(f"{me.name} does not fly: no swooping attack", self.ref("swoop"))

    def is_charging(self, state: FightState, c: Combatant) -> bool:
        """Using a charging or swooping attack this round (ch.12§Reserved-Actions): made one this round, or
        declared one and can still make it (his turn not taken yet, active, not knocked down: standing up
        takes the action). A declared charger who took his turn without charging, or who fell before it, is
        no longer charging and may be attacked as anyone else."""
        if c.marks.get("ed1_charging") == state.round:
            return True
        if c.id in state.acted or c.status != "active" or "knocked-down" in c.conditions:
            return False
        d = state.declarations.get(c.id) or {}
        opts = d.get("options", ()) or ()
        return "charge" in opts or "swoop" in opts

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
        """One ED1 attack: the Attack test against Physical or Spell Defense (+2 for a changed or reserved
        action), graded by success level; no extra successes; an Excellent or Extraordinary result defeats
        armor (option armor-defeating-hits); the Damage test (a charging rider adds his mount's Strength
        step, option charge-damage); then armor, Wounds, knockdown, unconsciousness and death (shared)."""
        p: CombatProfile = me.stats
        tp: CombatProfile = target.stats
        opts = state.options
        reserved = reserved or me.marks.get("ed1_reserved") == state.round
        changed = self.declared_change(state, command) if command is not None else None
        if command is not None and (command.args.get("charge") or command.args.get("swoop")):
            sc.emit(
                ev.Marked(
                    me.id,
                    "ed1_charging",
                    state.round,
                    self.ref("charge" if command.args.get("charge") else "swoop"),
                )
            )
        yards = distance(me.pos, target.pos) * 2 if me.pos is not None and target.pos is not None else 0
        extra = {"yards": yards, "reserved": reserved, "changed": changed}
        ctx = TestContext(state, sc, "attack", me, target, a, command, a.against, extra)
        smods = self.step_mods(ctx)
        defense = (
            tp.physical_defense
            if a.against == "physical"
            else tp.mystic_defense
            if a.against == "mystic"
            else tp.social_defense
        )
        dmods = self.defense_mods(ctx)
        dn = max(1, defense + sum(m.value for m in dmods))
        use_karma = karma and me.counters.get("karma", 0) > 0
        label = {"physical": "Physical Defense", "mystic": "Spell Defense", "social": "Social Defense"}[
            a.against
        ]
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
        outcome, level = level_outcome(res.total, dn, bool(res.success), res.rule_of_one)
        if use_karma:
            sc.emit(
                ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", self.ref("karma"))
            )
        rolled = rolled_event(
            me.id, f"{a.name} Attack", res, self.ref("attack"), target.id, label, dmods, self.ref("karma")
        )
        sc.emit(dataclasses.replace(rolled, outcome=outcome, extra=0))
        if not res.success:
            return
        ctx.test = "damage"
        dsm = self.step_mods(ctx)
        mount_str = getattr(p, "mount_strength", 0)
        if (
            command is not None
            and command.args.get("charge")
            and mount_str
            and opts.get("charge-damage", True)
        ):
            dsm.append(
                Modifier(
                    mount_str, f"charge: {getattr(p, 'mount', 'mount')}'s Strength step", self.ref("charge")
                )
            )
        use_kd = karma_damage and me.counters.get("karma", 0) > 0
        if use_kd:
            sc.emit(
                ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Damage test", self.ref("karma"))
            )
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
        sc.emit(
            rolled_event(
                me.id, f"{a.name} Damage", dres, self.ref("damage"), target.id, karma_rule=self.ref("karma")
            )
        )
        armor = 0 if a.armor == "none" else tp.physical_armor if a.armor == "physical" else tp.mystic_armor
        if a.armor == "physical" and armor and opts.get("armor-defeating-hits", True):
            if level in ARMOR_DEFEATING:
                sc.emit(
                    ev.Note(
                        f"{level} success: an armor-defeating hit, {target.name}'s {armor} Physical Armor "
                        "does not count",
                        me.id,
                        self.ref("attack.armor-defeating"),
                    )
                )
                armor = 0
            elif level is None and dn > max(ed1_success_levels()):
                sc.emit(
                    ev.Note(
                        f"DN {dn} is above the Success Level Table rows held "
                        f"(DN 2-{max(ed1_success_levels())}): "
                        "the level is unknown, so no armor-defeating hit; armor counts",
                        me.id,
                        self.ref("levels"),
                    )
                )
        stun = a.stun or bool(command and command.args.get("stun"))

        def kd_mods(t: Combatant, new_wounds: int = 0) -> list[Modifier]:
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
            knockdown_mods=kd_mods,  # type: ignore[arg-type]
            round_no=state.round,
        )

    def _unconscious_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        """An unconscious target's Defense -2 (the shared Earthdawn rule, ED4 Blindsided), cited as the
        ED1 choice it is: the ED1 Situation Modifiers are not in the text held."""
        t = ctx.target
        if t is not None and t.status == "unconscious":
            return (Modifier(-2, f"{t.name} unconscious", self.ref("situation.unconscious")),)
        return ()

    def describe_odds(self, t: Any) -> str:
        """The shared odds plus, for an Attack test, the chance of an Excellent or better result (an
        armor-defeating hit, reference 1.5) graded as the fight grades it (DN 1 on the DN 2 row); above the
        rows held, that the level is unknown."""
        text = super().describe_odds(t)
        if not t.step or t.dn is None or "Attack" not in t.test:
            return text
        rows = ed1_success_levels()
        if t.dn > max(rows):
            return f"{text}; success level unknown above DN {max(rows)}"
        from fracas.dice.exact import ed1_test

        expr = f"step {t.step}" + (f"+step {t.karma_step}" if t.karma_step is not None else "")
        o = ed1_test(expr, max(t.dn, min(rows)), self.edition.steps, self.edition.rule_of_one_min_dice)
        levels = o.levels or {}
        p = levels.get("Excellent", 0.0) + levels.get("Extraordinary", 0.0)
        head, sep, tail = text.partition("; Rule of One")
        return f"{head}, {100 * p:.0f}% Excellent or better (armor-defeating){sep}{tail}"

    # ----- Wounds -------------------------------------------------------------------------------------
    def _wound_penalty(self, ctx: TestContext) -> Iterable[Modifier]:
        """ED1 Wound penalty: Wounds - 1 steps (the first Wound is free), not on Recovery tests
        (reference 2.2 [verify]); a Wound does not penalise the Knockdown test it causes."""
        if ctx.test == "recovery" or not ctx.state.options.get("wound-penalties", True):
            return ()
        w = ctx.actor.counters.get("wounds", 0) - ctx.extra.get("new_wounds", 0)
        if w <= 1:
            return ()
        return (Modifier(-(w - 1), f"{w} Wounds (the first is free)", self.ref("wounds.penalty")),)

    # ----- showing --------------------------------------------------------------------------------------
    def card(self, combatant: Combatant) -> dict[str, Any]:
        out = super().card(combatant)
        p = combatant.stats
        out["spell_defense"] = out.pop("mystic_defense")
        out["combat_movement"] = out.pop("movement")
        out["full_movement"] = getattr(p, "full_movement", None)
        if getattr(p, "mount", None):
            out["mount"] = p.mount
        return out

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        if (
            isinstance(event, ev.InitiativeRolled)
            and event.roll is None
            and event.rule == self.ref("actions.reserved")
        ):
            c = state.combatants.get(event.actor)
            return f"{c.name if c else event.actor} reserves: Initiative {event.value} [{event.rule}]"
        if isinstance(event, ev.InitiativeRolled) and event.roll is None:
            c = state.combatants.get(event.actor)
            mods = (
                "; " + "; ".join(f"{int(v):+d} {w} [{r}]" for v, w, r in event.modifiers)
                if event.modifiers
                else ""
            )
            return (
                f"{c.name if c else event.actor} Initiative {event.value} "
                f"(step {event.step}, one test for the group [{event.rule}]){mods}"
            )
        if isinstance(event, ev.Declared):
            c = state.combatants.get(event.actor)
            t = state.combatants.get(event.target or "")
            opts = f" ({', '.join(event.options)})" if event.options else ""
            return (
                f"{c.name if c else event.actor} declares: {event.action}"
                + (f" {t.name}" if t else "")
                + opts
            )
        return super().narrate(event, state)


def _straight(start: tuple[int, int] | None, path: list[tuple[int, int]]) -> bool:
    """The path keeps one hex direction from ``start`` (a charge's "relatively straight line", allowing
    the two directions next to it once each side)."""
    if start is None:
        return False
    from fracas.engine.hexgrid import direction_to

    dirs = []
    prev = start
    for h in path:
        dirs.append(direction_to(prev, h))
        prev = h
    main = max(set(dirs), key=dirs.count)
    return all(d == main or (d - main) % 6 in (1, 5) for d in dirs)


def _roll_json(roll: Any) -> Any:
    """The plain form of a test's roll (the shared TestResult carries it plain, or as a Roll)."""
    return roll if isinstance(roll, dict) else roll.to_json()


def _mt(mods: list[Modifier]) -> tuple[tuple[Any, ...], ...]:
    return tuple((m.value, m.why, m.rule) for m in mods)


RULESET = Ed1Ruleset()
