"""The rows of the Earthdawn data files (``src/fracas/rules/<edition>/data/*.toml``), as pydantic models:
each field with the range the rules allow, so a bad entry is refused when the file is loaded
(:func:`fracas.rules.earthdawn.catalog.load_catalog` names the file, the entry and the field)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fracas.errors import UsageError
from fracas.rules.earthdawn import characteristics as ch
from fracas.rules.earthdawn.stats import MIN_RANGE_YARDS, Attack

Confidence = Literal["text", "confirmed", "single", "verify", "choice"]
Size = Literal["tiny", "small", "human", "large", "huge"]
Step = Annotated[int, Field(ge=1, le=100)]
NonNeg = Annotated[int, Field(ge=0, le=500)]


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponRow(_Row):
    name: str
    kind: Literal["melee", "missile", "thrown"]
    damage_step: Annotated[int, Field(ge=0, le=30)]
    size: Annotated[int, Field(ge=1, le=8)]
    strength_min: Annotated[int, Field(ge=0, le=40)]
    short_range: Annotated[int, Field(ge=MIN_RANGE_YARDS, le=1000)] | None = None
    long_range: Annotated[int, Field(ge=MIN_RANGE_YARDS, le=2000)] | None = None
    thrown_short: Annotated[int, Field(ge=MIN_RANGE_YARDS, le=1000)] | None = None
    thrown_long: Annotated[int, Field(ge=MIN_RANGE_YARDS, le=2000)] | None = None
    entangling: bool = False
    two_handed: bool = False
    confidence: Confidence

    @model_validator(mode="after")
    def _ranges(self) -> WeaponRow:
        ranged = self.kind in ("missile", "thrown")
        if ranged and (self.short_range is None or self.long_range is None):
            raise ValueError("a missile or thrown weapon needs short_range and long_range (yards)")
        if not ranged and (self.short_range is not None or self.long_range is not None):
            raise ValueError("a melee weapon has no short_range/long_range; use thrown_short/thrown_long")
        for short, long in ((self.short_range, self.long_range), (self.thrown_short, self.thrown_long)):
            if (short is None) != (long is None):
                raise ValueError("give both the short and the long range, or neither")
            if short is not None and long is not None and long <= short:
                raise ValueError(f"long range {long} must be more than short range {short}")
        return self


class ArmorRow(_Row):
    name: str
    physical: Annotated[int, Field(ge=0, le=30)]
    mystic: Annotated[int, Field(ge=0, le=30)]
    initiative_penalty: Annotated[int, Field(ge=0, le=10)]
    confidence: Confidence


class ShieldRow(_Row):
    name: str
    physical_defense: Annotated[int, Field(ge=0, le=10)]
    mystic_defense: Annotated[int, Field(ge=0, le=10)]
    initiative_penalty: Annotated[int, Field(ge=0, le=10)]
    shatter_threshold: Annotated[int, Field(ge=1, le=60)]
    confidence: Confidence


class Ed4RaceRow(_Row):
    name: str
    karma_modifier: Annotated[int, Field(ge=0, le=10)]
    movement: Annotated[int, Field(ge=1, le=100)]
    flying_movement: Annotated[int, Field(ge=1, le=200)] | None = None
    size: Size
    confidence: Confidence


class Ed1RaceRow(_Row):
    name: str
    karma_step: Annotated[int, Field(ge=1, le=20)]
    starting_karma: Annotated[int, Field(ge=0, le=100)]
    max_karma: Annotated[int, Field(ge=0, le=200)]
    movement_adjustment: Annotated[int, Field(ge=-10, le=10)]
    one_handed: Annotated[int, Field(ge=1, le=8)]
    two_handed: Annotated[int, Field(ge=1, le=8)]
    size: Size
    confidence: Confidence


class Ed1AttributeRowModel(_Row):
    step: Step
    defense: NonNeg
    death: NonNeg
    unconsciousness: NonNeg
    wound_threshold: NonNeg
    recovery_tests: NonNeg
    mystic_armor: NonNeg
    combat_movement: NonNeg
    full_movement: NonNeg


class AttackRow(_Row):
    name: str
    kind: Literal["melee", "missile", "thrown", "unarmed", "natural", "spell"]
    attack_step: Step
    damage_step: Annotated[int, Field(ge=0, le=100)]
    defense: Literal["physical", "mystic", "social"] = "physical"
    size: Annotated[int, Field(ge=1, le=8)] | None = None
    min_range: Annotated[int, Field(ge=0, le=100)] | None = None
    short_range: Annotated[int, Field(ge=1, le=1000)] | None = None
    long_range: Annotated[int, Field(ge=1, le=2000)] | None = None
    entangling: bool = False
    two_handed: bool = False

    @model_validator(mode="after")
    def _ranges(self) -> AttackRow:
        if self.long_range is not None and (self.short_range is None or self.long_range <= self.short_range):
            raise ValueError("long_range needs a short_range below it")
        return self

    def to_attack(self) -> Attack:
        short = long = None
        if self.short_range is not None:
            short = (self.min_range or 0, self.short_range)
            if self.long_range is not None:
                long = (self.short_range + 1, self.long_range)
        return Attack(
            name=self.name,
            kind=self.kind,
            attack_step=self.attack_step,
            damage_step=self.damage_step,
            defense=self.defense,
            short_range=short,
            long_range=long,
            size=self.size,
            entangling=self.entangling,
            two_handed=self.two_handed,
        )


class CreatureRow(_Row):
    name: str
    circle: Annotated[int, Field(ge=1, le=15)] | None = None
    dexterity: Step
    strength: Step
    toughness: Step
    perception: Step
    willpower: Step
    charisma: Step
    initiative: Step
    physical_defense: NonNeg
    mystic_defense: NonNeg
    social_defense: NonNeg
    physical_armor: NonNeg
    mystic_armor: NonNeg
    wound_threshold: Annotated[int, Field(ge=1, le=500)]
    unconsciousness: Annotated[int, Field(ge=1, le=1000)] | Literal["NA"]
    death: Annotated[int, Field(ge=1, le=1000)]
    knockdown: Step
    recovery_tests: NonNeg
    movement: NonNeg
    full_movement: NonNeg | None = None
    flying_movement: NonNeg | None = None
    actions: Annotated[int, Field(ge=1, le=10)] = 1
    size: Size = "human"
    karma_max: NonNeg = 0
    karma_step: Annotated[int, Field(ge=0, le=30)] = 0
    confidence: Confidence
    choices: list[str] = []
    text_values: list[str] = []
    attacks: list[AttackRow] = []
    powers: dict[str, Annotated[int, Field(ge=0, le=100)]] = {}

    @field_validator("choices", "text_values")
    @classmethod
    def _known_fields(cls, names: list[str]) -> list[str]:
        allowed = set(cls.model_fields) - {"name", "confidence", "choices", "text_values"}
        for n in names:
            if n not in allowed:
                raise ValueError(f"{n!r} is not a field; allowed: {', '.join(sorted(allowed))}")
        return names

    @model_validator(mode="after")
    def _ratings(self) -> CreatureRow:
        if self.unconsciousness != "NA" and self.unconsciousness > self.death:
            raise ValueError(f"unconsciousness {self.unconsciousness} is above death {self.death}")
        return self


class SpellRow(_Row):
    name: str
    effect_bonus: Annotated[int, Field(ge=-10, le=50)] = 0
    defense: Literal["physical", "mystic", "social"] = "mystic"
    short_range: Annotated[int, Field(ge=0, le=1000)] | None = None


class CharacterRow(_Row):
    name: str
    race: str
    discipline: str | None = None
    circle: Annotated[int, Field(ge=1, le=15)] | None = None
    attributes: dict[str, Annotated[int, Field(ge=1, le=ch.MAX_ATTRIBUTE_VALUE)]]
    talents: dict[str, Annotated[int, Field(ge=0, le=30)]] = {}
    skills: dict[str, Annotated[int, Field(ge=0, le=30)]] = {}
    weapons: list[str] = []
    armor: str | None = None
    shield: str | None = None
    spells: list[SpellRow] = []
    mount: str | None = None
    karma: NonNeg | None = None
    confidence: Confidence
    text_values: list[str] = []

    @field_validator("attributes")
    @classmethod
    def _six_attributes(cls, values: dict[str, int]) -> dict[str, int]:
        try:
            return ch.normalize_attributes(values)
        except UsageError as exc:
            raise ValueError(str(exc)) from None


def file_model(section: str, row: type[BaseModel], edition: str) -> type[BaseModel]:
    fields: dict[str, Any] = {
        "edition": (Literal[edition], ...),  # type: ignore[valid-type]
        section: (dict[str, row], ...),  # type: ignore[valid-type]
        "confidence": (Confidence | None, None),
    }
    from pydantic import create_model

    return create_model(  # type: ignore[call-overload,no-any-return]
        f"{section.capitalize()}File{edition}", __config__=ConfigDict(extra="forbid"), **fields
    )
