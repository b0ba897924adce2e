"""The Earthdawn 4th Edition ruleset ``ed4``: the shared Earthdawn round with ED4's numbers and pages.

Core combat (p.371-381) is implemented here and in :mod:`fracas.rules.earthdawn`; combat options,
situation modifiers and the types of combat of p.382-398 plug in as modifier providers and actions
(docs/rulesets/ed4.md "Extending the resolver").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.errors import EncounterFileError, FracasError
from fracas.rules.base import OptionalRule, Rule
from fracas.rules.earthdawn.combat import Edition
from fracas.rules.earthdawn.profile import CombatProfile, override, profile_from_block, profile_from_stats
from fracas.rules.earthdawn.round import EarthdawnRuleset
from fracas.rules.ed4.chapter import ChapterMixin
from fracas.rules.ed4.rules import REFS, RULES

if TYPE_CHECKING:
    from fracas.engine.encounter import CombatantSpec

ED4 = Edition(
    id="ed4", steps="ed4", refs=REFS, extra_success_damage=2, rule_of_one_min_dice=2, result_floor=1
)

EQUIPMENT_KEYS = ("weapons", "armor", "shield")


PLUGINS = ("fracas.rules.ed4.chapter",)
"""Modules that extend the core (combat options, situation modifiers, types of combat of p.382-398): each
has ``install(ruleset)`` and registers modifier providers, actions and combat options
(docs/rulesets/ed4.md "Extending the resolver"). A plug-in that is not there yet is skipped."""


class Ed4CoreRuleset(EarthdawnRuleset):
    """ED4 core combat (p.371-381) alone: what :class:`Ed4Ruleset` adds the rest of the chapter to."""

    refuses_attacks = False  # every attack the tactics plan is legal in the core: no second check

    id = "ed4"
    name = "Earthdawn 4th Edition"
    source = "000_4b24aca42c3b6366.txt"
    hex_yards = 2.0
    edition = ED4

    def __init__(self, plugins: tuple[str, ...] = PLUGINS) -> None:
        super().__init__()
        import importlib

        self.rule_updates: dict[str, Rule] = {}  # plug-ins: a Rule here replaces the one with its id
        self.extra_optional: list[OptionalRule] = []  # plug-ins: more optional rules

        for name in plugins:
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name == name:
                    continue
                raise
            install = getattr(module, "install", None)
            if install is not None:  # a plug-in still being written may not have it yet
                install(self)

    def rules(self) -> list[Rule]:
        known = {r.id for r in RULES}
        out = [self.rule_updates.get(r.id, r) for r in RULES]
        return out + [r for rid, r in self.rule_updates.items() if rid not in known]

    def optional_rules(self) -> list[OptionalRule]:
        return self.extra_optional + [
            OptionalRule(
                "take-the-initiative",
                "Take the Initiative: gamemaster characters use their Initiative step as the result",
                False,
                "p.372",
            ),
            OptionalRule(
                "group-initiative",
                "Speeding up Initiative: one test for each group of identical creatures",
                True,
                "p.372",
                "the text recommends it",
            ),
            OptionalRule(
                "wound-penalties",
                "Wound penalties: -1 per Wound to all tests except Recovery tests",
                True,
                "p.381",
                "not an optional rule, but the text suggests it once the table knows the rules",
            ),
        ]

    def templates(self) -> list[str]:
        from fracas.rules.earthdawn.catalog import list_templates

        return [t.key for t in list_templates("ed4")]

    def load_profile(self, spec: CombatantSpec, name: str, where: str) -> CombatProfile:
        from fracas.rules.earthdawn import catalog

        if spec.template is None:
            if spec.equipment:
                raise EncounterFileError(f"{where}.equipment: equipment needs a character template")
            if not spec.stats:
                raise EncounterFileError(
                    f"{where}: give a template (one of: {', '.join(self.templates())}) or stats"
                )
            return profile_from_block(spec.stats, name or spec.name or "combatant", where)
        cat = catalog.get_catalog("ed4")
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
                stats = _character_with(cat, key, spec.equipment)
            else:
                stats = cat.template(key)
        except EncounterFileError:
            raise
        except FracasError as exc:
            raise EncounterFileError(f"{where}.template: {exc}") from None
        profile = profile_from_stats(stats, name or stats.name)
        if spec.stats:
            profile = override(profile, spec.stats, where)
        return profile

    def tactics(self) -> dict[str, Any]:
        if self._tactics is None:
            from fracas.rules.ed4.tactics import TACTICS

            self._tactics = dict(TACTICS)
        return self._tactics


def _character_with(cat: Any, key: str, equipment: dict[str, Any]) -> Any:
    from fracas.rules.earthdawn.stats import EarthdawnStats

    row = cat.characters[key]
    weapons = equipment.get("weapons", row.weapons)
    if isinstance(weapons, str):
        weapons = [weapons]
    return EarthdawnStats.from_character(
        row.name,
        "ed4",
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


class Ed4Ruleset(ChapterMixin, Ed4CoreRuleset):
    """The whole ED4 combat chapter: the core plus p.382-398 (:mod:`fracas.rules.ed4.chapter`)."""

    refuses_attacks = True  # the chapter may refuse an attack the core allows: tactics check first


RULESET = Ed4Ruleset()
