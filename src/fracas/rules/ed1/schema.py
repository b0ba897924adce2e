"""What an ED1 encounter may hold beyond the common format: no per-combatant ``options`` (a mount is a
template with a rider, ch.12), no ``map.extra`` and no ``settings``; typed ``stats`` overrides."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from fracas.engine.bounds import Name, Strict
from fracas.rules.earthdawn.schema import NoExtra, Overrides
from fracas.rules.earthdawn.schema import check_stats as _check_stats

__all__ = ["RIDERS", "RIDES", "EntryOptions", "MapExtra", "Settings", "check_stats"]

RIDES = None
RIDERS = 1


class Ed1Overrides(Overrides):
    spell_defense: Annotated[int, Field(strict=True, ge=1, le=60)] | None = None
    movement: Annotated[int, Field(strict=True, ge=0, le=400)] | None = None
    full_movement: Annotated[int, Field(strict=True, ge=0, le=800)] | None = None
    initiative_talents: (
        Annotated[dict[Name, Annotated[int, Field(strict=True, ge=0, le=30)]], Field(max_length=20)] | None
    ) = None


class EntryOptions(Strict):
    """ED1 reads no per-combatant options."""


MapExtra = NoExtra


class Settings(Strict):
    """ED1 reads no settings."""


def check_stats(entry: Any, where: str) -> list[str]:
    return _check_stats(entry, where, Ed1Overrides)
