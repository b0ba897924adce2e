"""Rule ids of the Spells & Swords combat text, each with the section it comes from: the catalog
``data/rules.toml`` (what ``fracas rules sas`` lists) and the citations built from it.

The text (/work/shared/rules/004_0d1ac50b56c23caf.txt) has no page numbers, so a rule id cites its section
heading: ``rule("attack-table")`` -> ``"sas/attack-table (ATTACK TABLE)"``. Facts from
reference/spells-and-swords.md cite that file and its section; settings cite docs/rulesets/sas.md.
"""

from __future__ import annotations

import functools
from typing import Any

from fracas.rules.base import Rule
from fracas.rules.cite import Catalog, Rows, read_catalog
from fracas.rules.sas.tables import Settings, tables

GM_VALUE = ("gm-call", "a value no source gives")


def _faces(r: Any) -> str:
    return f"{r.low}" if r.high == r.low else f"{r.low}+" if r.high is None else f"{r.low}-{r.high}"


def _table(prefix: str, table: Any) -> Rows:
    """One row per line of a die table: ``sas/<prefix>/<line id>``, titled with its faces and label."""
    return lambda page: [Rule(f"sas/{prefix}/{r.id}", f"{_faces(r)}: {r.label}", page) for r in table().rows]


def _actions(page: str) -> list[Rule]:
    return [Rule(f"sas/actions/{aid}", a.label, page) for aid, a in tables().combat.actions.items()]


def _reactions(page: str) -> list[Rule]:
    return [Rule(f"sas/reactions/{rid}", a.label, page) for rid, a in tables().combat.reactions.items()]


def _attack_modifiers(page: str) -> list[Rule]:
    mods = tables().attack.modifiers.items()
    return [Rule(f"sas/attack-modifiers/{key}", f"{m.label} {m.value:+d}", page) for key, m in mods]


def _weapon_classes(page: str) -> list[Rule]:
    classes = tables().damage.weapon_classes.items()
    return [
        Rule(f"sas/damage-modifiers/{k}", f"{w.label} {w.value:+d}", page)
        for k, w in classes
        if not w.not_in_text
    ]


def _armor_classes(page: str) -> list[Rule]:
    classes = tables().damage.armor_classes.items()
    return [Rule(f"sas/damage-modifiers/{k}", f"{a.label} -{a.armor}", page) for k, a in classes]


def _spell_failure(page: str) -> list[Rule]:
    return [
        Rule(f"sas/spell-check/{r.id}", f"Spell Failure: {r.label}", page)
        for r in tables().magic.failure.rows
    ]


def _saves(page: str) -> list[Rule]:
    sv = tables().saves
    return [
        Rule(f"sas/save/{source}-{who}", f"{who}: {sv.bonus:+d} vs {', '.join(threats)}", page)
        for source, lists in (("race", sv.race), ("calling", sv.calling))
        for who, threats in lists.items()
    ]


def _spells(page: str) -> list[Rule]:
    spells = tables().magic.spells.items()
    return [
        Rule(
            f"sas/setting/spells.{sid}",
            f"{spell.label}: its effect (no spell list is public)",
            page,
            *GM_VALUE,
        )
        for sid, spell in spells
    ]


def _settings(page: str) -> list[Rule]:
    values = tables().settings
    return [
        Rule(f"sas/setting/{name}", f"{name} = {getattr(values, name)!r}", page, *GM_VALUE)
        for name in Settings.model_fields
    ]


GENERATED: dict[str, Rows] = {
    "actions": _actions,
    "reactions": _reactions,
    "attack-table": _table("attack-table", lambda: tables().attack),
    "fumble-hth": _table("fumble-hth", lambda: tables().fumbles.hth),
    "fumble-ranged": _table("fumble-ranged", lambda: tables().fumbles.ranged),
    "monster-fumbles": _table("monster-fumbles", lambda: tables().fumbles.monster),
    "damage-table": _table("damage-table", lambda: tables().damage),
    "light-wounds": _table("light-wounds", lambda: tables().wounds.light),
    "major-wounds": _table("major-wounds", lambda: tables().wounds.major),
    "bleeding": _table("bleeding", lambda: tables().wounds.bleed),
    "random-body-part": _table("random-body-part", lambda: tables().wounds.body_parts),
    "confusion-table": _table("confusion-table", lambda: tables().conditions.confusion_table),
    "random-brawl": _table("random-brawl", lambda: tables().brawl),
    "attack-modifiers": _attack_modifiers,
    "weapon-classes": _weapon_classes,
    "armor-classes": _armor_classes,
    "spell-check": _table("spell-check", lambda: tables().magic),
    "spell-failure": _spell_failure,
    "saves": _saves,
    "spells": _spells,
    "settings": _settings,
}
"""The rows built from the tables, by the name a ``rows = NAME`` entry of data/rules.toml gives."""


@functools.cache
def catalog() -> Catalog:
    """The S&S rules catalog: data/rules.toml with the rows of the tables in their places."""
    return read_catalog("sas", "fracas.rules.sas", GENERATED)


@functools.cache
def _sections() -> dict[str, str]:
    return {r.id.removeprefix("sas/"): r.page for r in catalog().rules}


@functools.lru_cache(maxsize=4096)
def rule(rule_id: str, detail: str = "") -> str:
    """The id a :class:`~fracas.rules.base.Modifier` or event carries: ``sas/<id> (SECTION)``. Remembered:
    a pure function of two strings over the fixed catalog, asked tens of thousands of times a fight."""
    section = _sections()[rule_id]
    return f"sas/{rule_id}{'/' + detail if detail else ''} ({section})"


def setting(name: str) -> str:
    return f"sas/setting/{name} (docs/rulesets/sas.md)"


def rule_list() -> list[Rule]:
    return list(catalog().rules)
