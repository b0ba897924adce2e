"""The Earthdawn modifiers' plug-in points and the core's own modifiers (ED4 p.371-380).

:class:`EarthdawnProviders` is the lowest layer of :class:`~fracas.rules.earthdawn.ruleset.EarthdawnRuleset`:
the edition, its rule ids, and the providers every test consults in registration order (the order is in
the golden digests: the modifiers of a roll are listed as the providers return them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar

from fracas.engine.contract import Ruleset
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.battle_map import covered_yards
from fracas.rules.earthdawn.combat import Edition, Provider, TestContext
from fracas.rules.earthdawn.profile import CLOSE_KINDS

if TYPE_CHECKING:
    from fracas.engine.state import Combatant
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

ArmorProvider = Callable[["Combatant", "AttackProfile"], Iterable[Modifier]]
"""Modifiers to the armor a target sets against an attack (``EarthdawnRuleset.armor_providers``)."""

ACTION_TESTS = frozenset(
    {"attack", "spellcasting", "knockdown", "attribute", "strength", "dexterity", "break-free"}
)
"""Tests that the Situation Modifiers' "Action test" penalties apply to (not Damage, Initiative, Recovery)."""


class EarthdawnProviders(Ruleset):
    """The modifier plug-in points (see :mod:`fracas.rules.earthdawn.ruleset`) and the modifiers of the core
    rules: Wounds, knocked down, Harried, long range, an unconscious target, a reserved action."""

    edition: ClassVar[Edition]
    step_providers: dict[str, list[Provider]]
    defense_providers: list[Provider]
    dn_providers: list[Provider]
    armor_providers: list[ArmorProvider]

    def ref(self, key: str) -> str:
        return self.edition.refs[key]

    def add_step_provider(self, test: str, provider: Provider) -> None:
        self.step_providers.setdefault(test, []).append(provider)

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
