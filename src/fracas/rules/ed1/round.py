"""The 1st Edition round (ch.12§Combat-Round): declarations that mean something, Initiative on the Dexterity
or Initiative dice with ties acting together, reserved actions by a lower Initiative number, the +2 to the
Difficulty Number of a changed declared action, and every test graded by success level."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.dice.exact import ed1_level, ed1_success_levels
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.combat import Scratch, TestContext, run_test
from fracas.rules.ed1.movement import Ed1Movement
from fracas.rules.ed1.profile import Ed1Profile

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile

DECLARABLE = ("attack", "spell", "move", "run", "stand-up", "revive", "other")
"""General actions a character declares before Initiative (ch.12§Combat-Round.1): "attack" (a weapon or
unarmed attack, optionally naming its target), "spell" (a spell attack), "move" (moving only), "run" (Full
Movement), "stand-up", "revive" (a Recovery test for an unconscious friend), "other"."""

SPECIAL = ("surrender", "retreat", "charge", "swoop")
"""Special actions declared with the action (ch.12§Special-Actions): surrender and retreat as the text names
them; charge and swoop (the charging and swooping attacks of ch.12§Reserved-Actions)."""


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


class Ed1Round(Ed1Movement):
    """Declaring, Initiative, reserved actions and changed declarations (ch.12§Combat-Round)."""

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


def _roll_json(roll: Any) -> Any:
    """The plain form of a test's roll (the shared TestResult carries it plain, or as a Roll)."""
    return roll if isinstance(roll, dict) else roll.to_json()


def _mt(mods: list[Modifier]) -> tuple[tuple[Any, ...], ...]:
    return tuple((m.value, m.why, m.rule) for m in mods)
