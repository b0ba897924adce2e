"""What an Earthdawn encounter entry may hold (both editions): the typed ``stats`` overrides of a template,
``equipment`` and the map's ``extra`` terrain, each with the ranges of the edition's stat block
(:class:`~fracas.rules.earthdawn.profile.StatBlock`: the step and rating ranges the Step table and the
characteristics tables cover). A full stat block (``stats`` without ``template``) is read by the edition's
own block model, which has the same ranges.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from fracas.engine.bounds import HexList, Strict, check

Rating = Annotated[int, Field(strict=True, ge=1, le=60)]
Armor = Annotated[int, Field(strict=True, ge=0, le=60)]


class Overrides(Strict):
    """Numbers of a template replaced by ``stats:`` (ranges of the stat block written in a file)."""

    initiative: Rating | None = None
    physical_defense: Rating | None = None
    mystic_defense: Rating | None = None
    social_defense: Rating | None = None
    physical_armor: Armor | None = None
    mystic_armor: Armor | None = None
    wound_threshold: Annotated[int, Field(strict=True, ge=1, le=100)] | None = None
    unconsciousness: Annotated[int, Field(strict=True, ge=1, le=500)] | Literal["NA"] | None = None
    death: Annotated[int, Field(strict=True, ge=1, le=500)] | None = None
    recovery_tests: Annotated[int, Field(strict=True, ge=0, le=20)] | None = None
    knockdown: Rating | None = None
    movement: Annotated[int, Field(strict=True, ge=0, le=200)] | None = None
    karma: Annotated[int, Field(strict=True, ge=0, le=200)] | None = None
    actions: Annotated[int, Field(strict=True, ge=1, le=10)] | None = None


def check_stats(entry: Any, where: str, overrides: type[Strict] = Overrides) -> list[str]:
    """The shape and ranges of an entry's ``stats`` overrides on a template (its ``equipment`` names are
    checked against the catalog, each at its own path, by the ruleset: ``ruleset._check_equipment``)."""
    return check(overrides, entry.stats, f"{where}.stats") if entry.template is not None else []


class NoExtra(Strict):
    """A ruleset that reads no terrain beyond ``map.blocked``, ``cover`` and ``light``."""


class Impaired(Strict):
    light: HexList = Field(default_factory=list)
    heavy: HexList = Field(default_factory=list)


__all__ = ["Impaired", "NoExtra", "Overrides", "check_stats"]
