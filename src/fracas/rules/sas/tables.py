"""Spells & Swords tables, read from ``data/*.toml`` and validated with pydantic at load.

Every table of the combat text (/work/shared/rules/004_0d1ac50b56c23caf.txt) is a data file a reader can hold
against the text line by line; this module loads each file and checks it (and the files against each other).
The rows, their checks (contiguous, covering the die) and their lookup are :mod:`fracas.rules.sas.rows`'s;
the procedures that use them live in :mod:`fracas.rules.sas.procedures`.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fracas.rules.sas.rows import (
    AttackRow,
    BrawlRow,
    DamageRow,
    DieTable,
    EffectRow,
    FumbleRow,
    SpellCheckRow,
    SpellFailureRow,
    Strict,
    check_rows,
    contiguous,
)

SOURCE = "004_0d1ac50b56c23caf.txt"


class AttackModifier(Strict):
    label: str
    value: int
    ranged_only: bool = False
    special: str | None = None
    size_classes: int = 0
    min_m: int = 0
    max_m: int = 0
    min_foes: int = 0
    other_grappler_percent: int = 0
    max_attacks_per_turn: int = 0
    swift: int = 0


class AttackTable(DieTable[AttackRow]):
    modifiers: dict[str, AttackModifier]

    @model_validator(mode="after")
    def _rows(self) -> AttackTable:
        # the natural-1 row also reads totals of 1 on a modified roll below 2 (see lookup: first row)
        check_rows(self.rows, self.die, "attack.toml")
        return self


class FumbleTables(Strict):
    hth: DieTable[FumbleRow]
    ranged: DieTable[FumbleRow]
    monster: DieTable[FumbleRow]

    @model_validator(mode="after")
    def _rows(self) -> FumbleTables:
        for name in ("hth", "ranged", "monster"):
            contiguous(getattr(self, name), f"fumbles.toml [{name}]")
        return self


class WeaponClass(Strict):
    label: str
    value: int
    no_damage: bool = False
    not_in_text: bool = False


class ArmorClass(Strict):
    label: str
    armor: int
    initiative: int = 0
    swift: int = 0
    stealth: int = 0
    not_in_text: bool = False


class Helmet(Strict):
    section: str
    alertness: int
    helmet_only_armor: int
    no_helmet_armor: int
    no_helmet_min_armor: int


class Wounded(Strict):
    section: str
    all_rolls: int


class DamageTable(DieTable[DamageRow]):
    weapon_classes: dict[str, WeaponClass]
    armor_classes: dict[str, ArmorClass]
    helmet: Helmet
    wounded: Wounded

    @model_validator(mode="after")
    def _rows(self) -> DamageTable:
        check_rows(self.rows, self.die, "damage.toml")
        return self


class WoundTable(DieTable[EffectRow]):
    heal: str | None = None
    heal_unit: str | None = None


class PartEffects(Strict):
    section: str
    all_rolls: int
    move: int
    move_parts: list[str]
    stunned_parts: list[str] = Field(default_factory=list)
    stunned_duration: str | None = None
    limb_parts: list[str] = Field(default_factory=list)
    limb_rolls: int = 0
    skull_crack_parts: list[str] = Field(default_factory=list)
    instant_death_parts: list[str] = Field(default_factory=list)
    unusable_parts: list[str] = Field(default_factory=list)
    heal: str | None = None
    heal_unit: str | None = None
    heal_weeks_min: int = 0
    heal_weeks_max: int = 0
    regenerate: str
    regenerate_unit: str


class PermanentEffect(Strict):
    all_rolls: int = 0
    swift: int = 0
    strength: int = 0
    dodge: int = 0
    hand_rolls: int = 0
    toughness: int = 0


class Permanent(Strict):
    section: str
    percent: int
    effects: dict[str, PermanentEffect]


class Death(Strict):
    section: str
    heroic_dies_in: str
    heroic_dies_unit: str


class Healing(Strict):
    section: str
    per_day: str
    full_rest_extra: str
    herbalist_factor: int


class Regeneration(Strict):
    section: str
    markers_per_round: int


class WoundTables(Strict):
    light: WoundTable
    major: WoundTable
    bleed: DieTable[EffectRow]
    body_parts: DieTable[EffectRow]
    hurt: PartEffects
    broken: PartEffects
    permanent: Permanent
    death: Death
    healing: Healing
    regeneration: Regeneration

    @model_validator(mode="after")
    def _rows(self) -> WoundTables:
        for name in ("light", "major", "bleed", "body_parts"):
            contiguous(getattr(self, name), f"wounds.toml [{name}]")
        parts = {r.id for r in self.body_parts.rows}
        for group in (self.hurt, self.broken):
            for field in ("move_parts", "stunned_parts", "limb_parts", "skull_crack_parts", "unusable_parts"):
                unknown = set(getattr(group, field)) - parts
                if unknown:
                    raise ValueError(
                        f"wounds.toml [{group.section}] {field}: unknown parts {sorted(unknown)}"
                    )
        if set(self.permanent.effects) - parts:
            raise ValueError("wounds.toml [permanent.effects]: unknown body part")
        return self


class Condition(Strict):
    label: str
    all_rolls: int = 0
    sight_rolls: int = 0
    combat_rolls: int = 0
    attack: int = 0
    to_be_hit: int = 0
    no_dodge: bool = False
    speed: str | None = None
    cannot_move: bool = False
    duration: str | None = None
    unit: str | None = None
    after: str | None = None
    after_unit: str | None = None
    save: str | None = None
    save_every: str | None = None
    save_fail_duration: str | None = None
    save_fail_unit: str | None = None
    metal_armor_ignored: bool = False
    damage_next_turn: int = 0
    ambush_bonus: int = 0
    check_every: str | None = None
    check_every_unit: str | None = None
    drop_percent: int = 0
    stand_up_rounds: int = 0
    spaces: str | None = None
    wall_damage: int = 0
    drop_m: str | None = None
    retrieve_rounds: int = 0
    disarm_attack: int = 0


class ConditionTables(Strict):
    conditions: dict[str, Condition]
    confusion_table: DieTable[EffectRow]

    @model_validator(mode="after")
    def _rows(self) -> ConditionTables:
        contiguous(self.confusion_table, "conditions.toml [confusion_table]")
        return self


class BrawlTable(DieTable[BrawlRow]):
    trigger_die: int
    trigger_high: int

    @model_validator(mode="after")
    def _rows(self) -> BrawlTable:
        # rows from 1 without gaps; may stop short of 60 (missing rows fall back, see procedures)
        expect = 1
        for row in self.rows:
            if row.low != expect:
                raise ValueError(f"brawl.toml: row {row.id!r} starts at {row.low}, expected {expect}")
            expect = (row.high or row.low) + 1
        if expect - 1 > self.die:
            raise ValueError("brawl.toml: rows beyond 60")
        return self

    def find(self, face: int) -> BrawlRow | None:
        """The row for a 1D60 face, or None when the book's row is not in the data file."""
        for row in self.rows:
            if row.covers(face):
                return row
        return None


class Action(Strict):
    label: str
    speed: float | None = None
    fatigue: bool = False
    skill: str | None = None
    check: Literal["easy", "moderate", "hard", "heroic"] | None = None
    continued: bool = False
    melee: bool = False
    ranged: bool = False
    attack: int = 0
    damage: int = 0
    defense: int = 0
    attack_next: int = 0
    miss_fumbles: bool = False
    free: bool = False
    per_adjacent_foe: int = 0
    slippery_ground: int = 0
    duration: str | None = None
    unit: str | None = None
    requires: str | None = None
    min_level: int = 0


class _Section(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    section: str


_NUMS: dict[int, tuple[Any, dict[tuple[str, str], Any]]] = {}
"""``CombatRules.num``'s numbers read so far, per (frozen) CombatRules object (held in the entry)."""
_NOT_READ = object()


class CombatRules(Strict):
    surprise: _Section
    initiative: _Section
    skill_check: _Section
    save: _Section
    actions: dict[str, Action]
    reactions: dict[str, Action]
    zone_of_control: _Section
    disengage: _Section
    dual_wield: _Section
    charge: _Section
    mounted: _Section
    underwater: _Section
    dog_pile: _Section
    horde: _Section

    def num(self, section: str, key: str) -> Any:
        """``section.key`` of combat.toml. The sections keep their numbers as pydantic extra fields (read
        through a slow ``__getattr__``): each is read once per loaded table and remembered."""
        hit = _NUMS.get(id(self))
        if hit is None or hit[0] is not self:
            hit = _NUMS[id(self)] = (self, {})
        known = hit[1]
        value = known.get((section, key), _NOT_READ)
        if value is _NOT_READ:
            value = known[(section, key)] = getattr(getattr(self, section), key)
        return value


class Size(Strict):
    index: int
    id: str
    wound_level: int


class Sizes(Strict):
    sizes: list[Size]

    @model_validator(mode="after")
    def _order(self) -> Sizes:
        if [s.index for s in self.sizes] != list(range(1, len(self.sizes) + 1)):
            raise ValueError("sizes.toml: size indexes must run 1, 2, 3, ...")
        return self

    def by_id(self, size_id: str) -> Size:
        for s in self.sizes:
            if s.id == size_id:
                return s
        raise KeyError(size_id)


class Weapon(Strict):
    label: str
    weapon_class: str = Field(alias="class")
    cut: Literal["blunt", "cut", "impale"]
    reach: int = 1
    thrust: bool = False
    pole: bool = False
    ranged: bool = False
    thrown: bool = False
    band: Literal["close", "short", "medium", "long", "far"] | None = None
    hands: int = 1
    entangle: str | None = None


class Weapons(Strict):
    weapons: dict[str, Weapon]


class Spell(Strict):
    label: str
    condition: str | None = None
    duration: str | None = None
    unit: str | None = None
    save: bool = False
    damage: int = 0
    attack_roll: bool = False
    reaction: bool = False


class MagicTables(DieTable[SpellCheckRow]):
    power_points: int
    failure: DieTable[SpellFailureRow]
    spells: dict[str, Spell]

    @model_validator(mode="after")
    def _rows(self) -> MagicTables:
        check_rows(self.rows, self.die, "magic.toml")
        contiguous(self.failure, "magic.toml [failure]")
        return self


class Creature(Strict):
    label: str
    kind: Literal["human", "demi-human", "humanoid", "beast", "monster", "undead"]
    race: str | None = None
    calling: Literal["fighter", "priest", "rogue", "mage"] | None = None  # reference 2.5 (saves)
    size: str
    movement: int
    wound_level_base: int | None = None
    attack: int = 0
    damage: int = 0
    defense: int = 0
    dodge: int = 0
    armor: str = "none"
    armor_bonus: int = 0
    helmet: bool = False
    shield: Literal["none", "small", "medium", "large"] = "none"
    initiative: int = 0
    stealth: int = 0
    alertness: int = 0
    swift: int = 0
    strength: int = 0
    toughness: int = 0
    skills: dict[str, int] = Field(default_factory=dict)
    weapons: list[str] = Field(default_factory=list)
    weapon_bonus: dict[str, int] = Field(default_factory=dict)
    spells: list[str] = Field(default_factory=list)
    power_points: int = 0
    minion: int = 0
    heroic: bool = False
    aquatic: bool = False
    regenerates: bool = False
    mount: bool = False
    invented: list[str] = Field(default_factory=list)


class Bestiary(Strict):
    creatures: dict[str, Creature]


class SaveBonuses(Strict):
    """reference 2.5 Saving throws: the threats each race and calling saves against at ``bonus``."""

    bonus: int
    reroll_races: list[str]
    rerolls_per_day: int
    race: dict[str, list[str]]
    calling: dict[str, list[str]]
    spell: dict[str, list[str]]


class Settings(Strict):
    meters_per_space: float
    percent_die: int
    damage_below_one: Literal["superficial", "no-wound"]
    natural_20_critical: bool
    toughness_wound_level: int
    swift_movement: int
    major_wound_prone: bool
    lost_limb_leg_percent: int
    broken_heal: str
    brawl_missing_rows: Literal["plain", "reroll"]
    subdued_condition: str
    fatigue_rounds: int
    rout_rounds: int
    battle_cry_attack: int
    hide_check: Literal["easy", "moderate", "hard", "heroic"]
    intimidate_check: Literal["easy", "moderate", "hard", "heroic"]
    taunt_check: Literal["easy", "moderate", "hard", "heroic"]
    shield_spell_defense: int
    break_check: Literal["easy", "moderate", "hard", "heroic"]
    large_creature_sizes: int
    large_creature_min_size: int
    horde_scatter_spaces: int
    grapple_brawl_bonus: int
    morale: bool
    minions: bool
    heroic_player_characters: bool
    dying_heroes_fight: bool
    rounds_per_minute: int
    counterspell_opposed: bool
    spell_range_spaces: int
    rally_range_spaces: int
    intimidate_range_spaces: int
    potion_heal: str
    poison_rounds: str
    morale_leadership: bool
    exhaustion_rounds: int


def _load(name: str) -> dict[str, Any]:
    text = resources.files("fracas.rules.sas").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return tomllib.loads(text)


class Tables:
    """All Spells & Swords data, loaded once (see :func:`tables`)."""

    __slots__ = (
        "attack",
        "fumbles",
        "damage",
        "wounds",
        "conditions",
        "brawl",
        "combat",
        "sizes",
        "weapons",
        "magic",
        "bestiary",
        "saves",
        "settings",
    )

    def __init__(self) -> None:
        self.attack = AttackTable.model_validate(_load("attack.toml"))
        self.fumbles = FumbleTables.model_validate(_load("fumbles.toml"))
        self.damage = DamageTable.model_validate(_load("damage.toml"))
        self.wounds = WoundTables.model_validate(_load("wounds.toml"))
        self.conditions = ConditionTables.model_validate(_load("conditions.toml"))
        self.brawl = BrawlTable.model_validate(_load("brawl.toml"))
        self.combat = CombatRules.model_validate(_load("combat.toml"))
        self.sizes = Sizes.model_validate(_load("sizes.toml"))
        self.weapons = Weapons.model_validate(_load("weapons.toml")).weapons
        self.magic = MagicTables.model_validate(_load("magic.toml"))
        self.bestiary = Bestiary.model_validate(_load("bestiary.toml")).creatures
        self.saves = SaveBonuses.model_validate(_load("saves.toml"))
        # the data file's settings; an encounter's own are ``settings.settings_of(state)``
        self.settings = Settings.model_validate(_load("settings.toml"))
        self._cross_check()

    def _cross_check(self) -> None:
        for wid, w in self.weapons.items():
            if w.weapon_class not in self.damage.weapon_classes:
                raise ValueError(f"weapons.toml {wid}: unknown class {w.weapon_class!r}")
        size_ids = {s.id for s in self.sizes.sizes}
        for cid, c in self.bestiary.items():
            if c.size not in size_ids:
                raise ValueError(f"bestiary.toml {cid}: unknown size {c.size!r}")
            if c.armor not in self.damage.armor_classes:
                raise ValueError(f"bestiary.toml {cid}: unknown armor {c.armor!r}")
            for weapon in c.weapons:
                if weapon not in self.weapons:
                    raise ValueError(f"bestiary.toml {cid}: unknown weapon {weapon!r}")
            for s in c.spells:
                if s not in self.magic.spells:
                    raise ValueError(f"bestiary.toml {cid}: unknown spell {s!r}")
        for cid, c in self.bestiary.items():
            if c.race is not None and c.race not in self.saves.race and c.race != "human":
                raise ValueError(f"bestiary.toml {cid}: race {c.race!r} is not in saves.toml")
        for sid in self.saves.spell:
            if sid not in self.magic.spells:
                raise ValueError(f"saves.toml: unknown spell {sid!r}")
        for spell in self.magic.spells.values():
            if spell.condition and spell.condition not in self.conditions.conditions:
                raise ValueError(f"magic.toml: unknown condition {spell.condition!r}")


@cache
def tables() -> Tables:
    """The loaded and validated tables (cached)."""
    return Tables()
