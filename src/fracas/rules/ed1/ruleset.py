"""The Earthdawn 1st Edition ruleset ``ed1``: the shared Earthdawn round with the 1st Edition's rules.

Source: ``001_694a1556573a8dc9.txt`` ("EDRulebook: 12 Combat"); rule ids and sections in
``data/rules.toml``. What the shared code (:mod:`fracas.rules.earthdawn`) does for both editions
stays there; the 1st Edition changes, each in the module of its rule area
(:mod:`~fracas.rules.ed1.movement` < :mod:`~fracas.rules.ed1.round` < :mod:`~fracas.rules.ed1.attack` <
this module, each class extending the one before):

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

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.rules.base import Modifier, OptionalRule, Rule
from fracas.rules.cite import catalog
from fracas.rules.earthdawn.actions import SIMPLE, STANDARD, Action
from fracas.rules.earthdawn.combat import Edition, TestContext
from fracas.rules.ed1.attack import Ed1Attack
from fracas.rules.ed1.profile import override_ed1, profile_from_ed1_block, profile_from_ed1_stats

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile

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


class Ed1Ruleset(Ed1Attack):
    id = "ed1"
    name = "Earthdawn 1st Edition"
    source = "001_694a1556573a8dc9.txt"
    hex_yards = 2.0
    edition = ED1
    FLED_RULE = "special.retreat"  # one who retreated has left the fight (ch.12§Special-Actions)

    def __init__(self) -> None:
        super().__init__()
        self.dn_providers.append(self._changed_dn)

    def core_actions(self) -> tuple[Action, ...]:
        """The shared round's commands with the 1st Edition's attack, movement and reserved action in their
        places; ED1 has no delayed action and no sustained action, so those commands are refused
        (validate)."""
        r = self.ref
        ed1 = {
            a.name: a
            for a in (
                Action("attack", STANDARD, self._v_attack_ed1, self._r_attack_ed1, r("attack")),
                Action("move", SIMPLE, self._v_move_ed1, self._r_move, r("movement")),
                Action("run", STANDARD, self._v_run_ed1, self._r_run, r("movement.full")),
                Action("reserve", "turn", self._v_reserve_ed1, self._r_reserve_ed1, r("actions.reserved")),
            )
        }
        shared = super().core_actions()
        return tuple(ed1.get(a.name, a) for a in shared if a.name not in ("delay", "sustain"))

    # ----- the book -----------------------------------------------------------------------------------
    def rules(self) -> list[Rule]:
        return list(catalog("ed1").rules)

    def optional_rules(self) -> list[OptionalRule]:
        return list(catalog("ed1").optional)

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


RULESET = Ed1Ruleset()
