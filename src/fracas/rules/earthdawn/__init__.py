"""What both Earthdawn editions share: characteristics, stat blocks and the data layer.

- :mod:`~fracas.rules.earthdawn.characteristics`: attribute values -> steps and derived characteristics
  (ED4 formulas, the ED1 Attribute Table formulas, ED1 movement, karma and wound penalty).
- :mod:`~fracas.rules.earthdawn.stats`: :class:`EarthdawnStats` (one combatant's numbers) and
  :class:`Attack`, built from a character or from a creature stat block.
- :mod:`~fracas.rules.earthdawn.catalog`: the validated TOML data of each edition (weapons, armor,
  shields, races, creatures, example characters) and lookups by name.

Quick use::

    from fracas.rules import earthdawn as ed
    thrak = ed.character("thrak", "ed4")
    thrak.attack("Battle-axe").damage_step      # 14 (ED4 p.377)
    ed.creature("griffin", "ed4").physical_defense  # 7 (ED4 p.377)

See docs/rulesets/earthdawn-data.md for the sources and every value a game master may correct.
"""

from __future__ import annotations

from fracas.rules.earthdawn.catalog import (
    Catalog,
    TemplateInfo,
    UnknownName,
    armor,
    character,
    creature,
    get_catalog,
    list_templates,
    load_catalog,
    shield,
    template,
    weapon,
)
from fracas.rules.earthdawn.stats import ArmorData, Attack, EarthdawnStats, ShieldData, WeaponData

__all__ = [
    "ArmorData",
    "Attack",
    "Catalog",
    "EarthdawnStats",
    "ShieldData",
    "TemplateInfo",
    "UnknownName",
    "WeaponData",
    "armor",
    "character",
    "creature",
    "get_catalog",
    "list_templates",
    "load_catalog",
    "shield",
    "template",
    "weapon",
]
