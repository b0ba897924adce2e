"""How an Earthdawn fight is shown: the narration of its events, the exact odds of a command before it is
rolled, a combatant's card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.combat import ProbeDice, ProbedTest, current_damage
from fracas.rules.earthdawn.commands import EarthdawnCommands

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile

_SHORT = {"Physical Defense": "PD", "Mystic Defense": "MD", "Social Defense": "SD", "Spell Defense": "SD"}


class EarthdawnShow(EarthdawnCommands):
    """Narration, odds and the card."""

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
