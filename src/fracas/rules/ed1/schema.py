"""What an ED1 encounter may hold beyond the common format: no per-combatant ``options`` (a mount is a
template with a rider, ch.12), no ``map.extra`` and no ``settings``; typed ``stats`` overrides."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas.engine.bounds import Name, Strict, check
from fracas.rules.earthdawn.schema import NoExtra, Overrides
from fracas.rules.earthdawn.schema import check_stats as _check_stats

__all__ = ["RIDERS", "RIDES", "EntryOptions", "MapExtra", "Settings", "check_stats", "flies"]

RIDES = None
RIDERS = 1


Talents = Annotated[dict[Name, Annotated[int, Field(strict=True, ge=0, le=30)]], Field(max_length=20)]


class Ed1Overrides(Overrides):
    spell_defense: Annotated[int, Field(strict=True, ge=1, le=60)] | None = None
    movement: Annotated[int, Field(strict=True, ge=0, le=400)] | None = None
    full_movement: Annotated[int, Field(strict=True, ge=0, le=800)] | None = None
    initiative_talents: Talents | None = None

    @model_validator(mode="after")
    def _talents_within_the_step_table(self) -> Ed1Overrides:
        _within_the_step_table(self.initiative_talents)
        return self


MAX_TALENT_STEPS = 30


def _within_the_step_table(talents: dict[str, int] | None) -> None:
    """Initiative (at most 60) plus the talents' steps stays within the Step table (steps 1-100)."""
    total = sum((talents or {}).values())
    if total > MAX_TALENT_STEPS:
        raise ValueError(
            f"initiative_talents add {total} steps; at most {MAX_TALENT_STEPS} in all (the Step table ends "
            "at step 100)"
        )


class EntryOptions(Strict):
    """ED1 reads no per-combatant options."""


MapExtra = NoExtra


class Settings(Strict):
    """ED1 reads no settings."""


class _BlockTalents(BaseModel):
    """The Initiative talents of a full stat block (its other fields: ``profile.Ed1StatBlock``)."""

    model_config = ConfigDict(extra="ignore")
    initiative_talents: Talents | None = None

    @model_validator(mode="after")
    def _talents_within_the_step_table(self) -> _BlockTalents:
        _within_the_step_table(self.initiative_talents)
        return self


def check_stats(entry: Any, where: str) -> list[str]:
    if entry.template is None and isinstance(entry.stats, dict):
        return check(_BlockTalents, entry.stats, f"{where}.stats")
    return _check_stats(entry, where, Ed1Overrides)


def flies(combatant: Any) -> bool:
    """A combatant that may start in the air (``altitude``): a flier by its stat block (ch.12)."""
    return bool(getattr(combatant.stats, "flying", False))
