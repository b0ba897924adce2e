"""What a GURPS encounter entry may hold: typed ``stats`` overrides with the Basic Set's ranges,
``equipment``, per-combatant ``options``; no ``map.extra`` and no ``settings``.

Ranges: ST 1-100 (the Basic Damage table, p.B16, runs to ST 100; beyond it the damage dice grow without
end), DX, IQ, HT, Will and Per 1-50, HP 1-500, Basic Move 0-50, Basic Speed 0-50, Dodge 0-30, SM -10-+15
(p.B19), encumbrance level 0-4 (p.B17), Air Move 0-200, skills -10 to 50."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt

from fracas.engine.bounds import Name, Strict, check
from fracas.rules.earthdawn.schema import NoExtra

__all__ = ["RIDERS", "RIDES", "EntryOptions", "MapExtra", "Settings", "check_stats", "is_mount"]

RIDES = "mount"
"""The option naming the mount an entry rides (one id, or one per copy)."""
RIDERS = 2
"""The most combatants one mount carries: a controller and one passenger (Multiple Riders, p.B397)."""


Attribute = Annotated[int, Field(strict=True, ge=1, le=50)]
ST = Annotated[int, Field(strict=True, ge=1, le=100)]
HP = Annotated[int, Field(strict=True, ge=1, le=500)]
Move = Annotated[int, Field(strict=True, ge=0, le=50)]
Dodge = Annotated[int, Field(strict=True, ge=0, le=30)]
SM = Annotated[int, Field(strict=True, ge=-10, le=15)]
Encumbrance = Annotated[int, Field(strict=True, ge=0, le=4)]
AirMove = Annotated[int, Field(strict=True, ge=0, le=200)]
Level = Annotated[int, Field(strict=True, ge=-10, le=50)]
Names = Annotated[list[Name], Field(max_length=20)]


class NaturalAttack(Strict):
    """A stat block's own natural attack (rules/gurps4/stats.py: fixed damage dice, a wounding type)."""

    name: Name
    damage: Annotated[str, Field(pattern=r"^\d{1,2}d([+-]\d{1,2})?$")]
    type: Literal["cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "tox", "fat"]
    reach: Annotated[
        list[Annotated[int, Field(strict=True, ge=0, le=20)]], Field(min_length=1, max_length=10)
    ]
    skill: Name | None = None
    skill_modifier: Annotated[int, Field(strict=True, ge=-20, le=20)] | None = None


class Stats(Strict):
    st: ST | None = None
    dx: Attribute | None = None
    iq: Attribute | None = None
    ht: Attribute | None = None
    hp: HP | None = None
    will: Attribute | None = None
    per: Attribute | None = None
    basic_move: Move | None = None
    basic_speed: Annotated[StrictInt | StrictFloat, Field(ge=0, le=50)] | None = None
    dodge: Dodge | None = None
    sm: SM | None = None
    encumbrance: Encumbrance | None = None
    air_move: AirMove | None = None
    combat_reflexes: StrictBool | None = None
    high_pain_threshold: StrictBool | None = None
    peripheral_vision: StrictBool | None = None
    war_trained: StrictBool | None = None
    iron_horseshoes: StrictBool | None = None
    unused_to_cavalry: StrictBool | None = None
    skills: Annotated[dict[Name, Level], Field(max_length=50)] | None = None
    flight: Literal["none", "flight", "winged"] | None = None
    flight_limitation: Literal["none", "cannot_hover", "controlled_gliding", "gliding"] | None = None
    attacks: Annotated[list[NaturalAttack], Field(min_length=1, max_length=20)] | None = None


class Equipment(Strict):
    weapons: Names | None = None
    shield: Name | None = None
    armor: Names | None = None
    barding: Names | None = None
    saddle: Literal["none", "saddle", "saddle_and_stirrups", "war_saddle"] | None = None
    iron_horseshoes: StrictBool | None = None


class EntryOptions(Strict):
    mount: Name | Annotated[list[Name], Field(min_length=1, max_length=500)] | None = None
    unused_to_cavalry: StrictBool | None = None


MapExtra = NoExtra


class Settings(Strict):
    """GURPS reads no settings."""


def check_stats(entry: Any, where: str) -> list[str]:
    return check(Stats, entry.stats, f"{where}.stats") + check(
        Equipment, entry.equipment, f"{where}.equipment"
    )


def is_mount(combatant: Any) -> bool:
    """A combatant others may ride: a mount template (data/mounts.toml)."""
    return getattr(combatant.stats, "kind", "") == "mount"
