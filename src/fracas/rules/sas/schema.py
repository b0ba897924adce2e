"""What a Spells & Swords encounter may hold beyond the common format (docs/rulesets/sas.md, "Encounter
files"): typed ``stats`` overrides of a bestiary entry, ``equipment``, per-combatant ``options``, the map's
``extra`` terrain and ``settings``; unknown keys refused.

Ranges: printed bonuses (Attack +2, Swift +1, ...) are 0 to +20 on a d20 game; Movement 0-30 spaces (the
bestiary's fastest is 12); Wound Level base 1-200 (the size chart runs to 200); Minion hits 0-3 (reference
2.6); dice settings are ``NdS+M`` with at most 20 dice of at most 100 faces."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictFloat, StrictInt

from fracas.engine.bounds import HexList, Name, Strict, check
from fracas.errors import UsageError
from fracas.rules.sas.procedures.rolls import sas_dice

__all__ = ["RIDERS", "RIDES", "EntryOptions", "MapExtra", "Settings", "check_stats", "is_mount"]

RIDES = "mount"
"""The option naming the steed a rider sits on (Mounted Combat)."""
RIDERS = 1
"""The most combatants one mount carries: a steed carries its rider (Mounted Combat)."""


Bonus = Annotated[int, Field(strict=True, ge=0, le=20)]
Count = Annotated[int, Field(strict=True, ge=0, le=100)]
Names = Annotated[list[Name], Field(max_length=20)]


def _rollable(text: str) -> str:
    """The pattern (kept for the JSON Schema editors read) lets through dice no rule can roll ("0d6", "1d0",
    digits of other scripts): the rules' own reading of S&S dice refuses them as the file is read."""
    try:
        sas_dice(text)
    except UsageError as exc:
        raise ValueError(str(exc)) from None
    return text


Dice = Annotated[
    str,
    Field(strict=True, pattern=r"^\s*(\d{1,2})?[dD]\d{1,3}\s*([+-]\s*\d{1,3})?\s*$|^\d{1,3}$"),
    AfterValidator(_rollable),
]
Difficulty = Literal["easy", "moderate", "hard", "heroic"]


class Stats(Strict):
    label: Name | None = None
    kind: Literal["human", "demi-human", "humanoid", "beast", "monster", "undead"] | None = None
    race: Name | None = None
    size: Name | None = None
    movement: Annotated[int, Field(strict=True, ge=0, le=30)] | None = None
    wound_level_base: Annotated[int, Field(strict=True, ge=1, le=200)] | None = None
    attack: Bonus | None = None
    damage: Bonus | None = None
    defense: Bonus | None = None
    dodge: Bonus | None = None
    armor: Name | None = None
    armor_bonus: Bonus | None = None
    helmet: StrictBool | None = None
    shield: Literal["none", "small", "medium", "large"] | None = None
    initiative: Bonus | None = None
    stealth: Bonus | None = None
    alertness: Bonus | None = None
    swift: Bonus | None = None
    strength: Bonus | None = None
    toughness: Bonus | None = None
    skills: Annotated[dict[Name, Bonus], Field(max_length=50)] | None = None
    weapons: Names | None = None
    weapon_bonus: Annotated[dict[Name, Bonus], Field(max_length=20)] | None = None
    spells: Names | None = None
    power_points: Count | None = None
    minion: Annotated[int, Field(strict=True, ge=0, le=3)] | None = None
    heroic: StrictBool | None = None
    aquatic: StrictBool | None = None
    regenerates: StrictBool | None = None
    mount: StrictBool | None = None


class Equipment(Strict):
    weapons: Names | None = None
    armor: Name | None = None
    helmet: StrictBool | None = None
    shield: Literal["none", "small", "medium", "large"] | None = None
    potions: Annotated[int, Field(strict=True, ge=0, le=20)] | None = None
    bandages: Annotated[int, Field(strict=True, ge=0, le=20)] | None = None


class EntryOptions(Strict):
    mount: Name | None = None
    heroic: StrictBool | None = None


class MapExtra(Strict):
    underwater: StrictBool = False
    keep_facing: StrictBool = False
    slippery: StrictBool = False
    good_cover: HexList = Field(default_factory=list)
    good_concealment: HexList = Field(default_factory=list)
    concealment: HexList = Field(default_factory=list)
    high: HexList = Field(default_factory=list)
    difficult: HexList = Field(default_factory=list)
    tight: HexList = Field(default_factory=list)


def _n(lo: int, hi: int) -> Any:
    return Field(default=None, ge=lo, le=hi)


class Settings(Strict):
    """Every setting of data/settings.toml may be given; each within the range it is meaningful in."""

    meters_per_space: StrictInt | StrictFloat | None = Field(default=None, gt=0, le=100)
    percent_die: StrictInt | None = _n(2, 1000)
    damage_below_one: Literal["superficial", "no-wound"] | None = None
    natural_20_critical: StrictBool | None = None
    toughness_wound_level: StrictInt | None = _n(0, 10)
    swift_movement: StrictInt | None = _n(0, 10)
    major_wound_prone: StrictBool | None = None
    lost_limb_leg_percent: StrictInt | None = _n(0, 100)
    broken_heal: Dice | None = None
    brawl_missing_rows: Literal["plain", "reroll"] | None = None
    subdued_condition: Name | None = None
    fatigue_rounds: StrictInt | None = _n(0, 100)
    rout_rounds: StrictInt | None = _n(0, 100)
    battle_cry_attack: StrictInt | None = _n(0, 20)
    hide_check: Difficulty | None = None
    intimidate_check: Difficulty | None = None
    taunt_check: Difficulty | None = None
    shield_spell_defense: StrictInt | None = _n(0, 20)
    break_check: Difficulty | None = None
    large_creature_sizes: StrictInt | None = _n(1, 20)
    large_creature_min_size: StrictInt | None = _n(1, 20)
    horde_scatter_spaces: StrictInt | None = _n(0, 20)
    grapple_brawl_bonus: StrictInt | None = _n(0, 20)
    morale: StrictBool | None = None
    minions: StrictBool | None = None
    heroic_player_characters: StrictBool | None = None
    dying_heroes_fight: StrictBool | None = None
    rounds_per_minute: StrictInt | None = _n(1, 60)
    counterspell_opposed: StrictBool | None = None
    spell_range_spaces: StrictInt | None = _n(0, 1000)
    rally_range_spaces: StrictInt | None = _n(0, 1000)
    intimidate_range_spaces: StrictInt | None = _n(0, 1000)
    potion_heal: Dice | None = None
    poison_rounds: Dice | None = None
    morale_leadership: StrictBool | None = None
    exhaustion_rounds: StrictInt | None = _n(0, 100)


def check_stats(entry: Any, where: str) -> list[str]:
    return check(Stats, entry.stats, f"{where}.stats") + check(
        Equipment, entry.equipment, f"{where}.equipment"
    )


def is_mount(combatant: Any) -> bool:
    """A combatant others may ride: a steed of the bestiary (``mount = true``)."""
    return bool(getattr(combatant.stats, "mount", False))
