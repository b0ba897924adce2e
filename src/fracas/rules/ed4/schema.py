"""What an ED4 encounter may hold beyond the common format (docs/rulesets/ed4.md, "Encounter files"):
per-combatant ``options``, the map's ``extra`` terrain, ``settings``; typed, unknown keys refused."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool

from fracas.engine.bounds import HexList, Strict
from fracas.rules.earthdawn.schema import Impaired, check_stats

__all__ = ["RIDERS", "RIDES", "EntryOptions", "MapExtra", "Settings", "check_stats", "flies"]

RIDES = "rides"
"""The option naming the combatant an entry rides (p.395-396)."""
RIDERS = 1
"""The most combatants one mount carries: a mount carries its rider (p.395-396)."""


Race = Literal["dwarf", "elf", "human", "obsidiman", "ork", "troll", "tskrang", "t'skrang", "windling"]
Sense = Literal["heat-sight", "low-light-vision"]


class EntryOptions(Strict):
    senses: Annotated[list[Sense], Field(max_length=2)] | None = None
    rides: Annotated[str, Field(strict=True, min_length=1, max_length=200)] | None = None
    training: Literal["untrained", "trained", "combat"] | None = None
    familiar: StrictBool | None = None
    flying: StrictBool | None = None
    race: Race | None = None
    magical_shield: StrictBool | None = None


class MapExtra(Strict):
    full_cover: HexList = Field(default_factory=list)
    """Hexes of full cover (p.387)."""
    impaired: Literal["light", "heavy"] | Impaired | None = None
    """Impaired movement (p.389): the whole map, or its hexes by level."""


class Settings(Strict):
    fall_yards_per_round: Annotated[int, Field(strict=True, ge=1, le=1000)] = 20
    """Long Falls (p.398): yards fallen a round."""


def flies(combatant: Any) -> bool:
    """A combatant that may start in the air (``altitude``): a flier by its stat block (a flying Movement
    Rate) or by ``options.flying`` (p.397-398)."""
    source = getattr(combatant.stats, "source", None)
    return bool(combatant.marks.get("flying") or getattr(source, "flying_movement", None))
