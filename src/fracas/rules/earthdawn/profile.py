"""What the Earthdawn combat rules read of a combatant: a flat, frozen profile of numbers.

The combat code (``combat.py``) never looks at attributes, equipment or data files; it reads a
:class:`CombatProfile`: steps, Defenses, Armor, the ratings, Movement, Karma and the attacks the combatant
can make, each with its Attack step and its final Damage step. A profile is built

- from the data layer's ``EarthdawnStats`` (bundled characters and creatures, equipment by name) by
  :func:`profile_from_stats`, or
- from a stat block written in an encounter file (``stats:``) by :func:`profile_from_block`, which is
  validated with pydantic and fills every missing characteristic from the attributes (ED4 formulas of
  ``characteristics.py``, reference/earthdawn.md section 2.1).

Both editions use the same profile; the edition decides how the numbers are derived.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from fracas.errors import EncounterFileError

AttackKind = Literal["melee", "unarmed", "natural", "missile", "thrown", "spell"]
Against = Literal["physical", "mystic", "social"]
ArmorKind = Literal["physical", "mystic", "none"]

CLOSE_KINDS = frozenset({"melee", "unarmed", "natural"})


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """One way to attack: the Attack step, the final Damage step (weapon + Strength, or the creature's).

    ``against`` names the Defense that sets the Difficulty Number (ED4 p.377); ``armor`` the Armor that
    reduces its damage (p.379). ``short``/``long`` are the longest short and long ranges in yards (ranged
    and thrown attacks), ``minimum`` the minimum range. ``karma``: Karma may be spent on its Attack test;
    ``karma_damage``: an ability lets Karma be added to its Damage test (p.378).
    """

    name: str
    kind: str = "melee"
    step: int = 5
    damage: int = 5
    against: str = "physical"
    armor: str = "physical"
    short: int | None = None
    long: int | None = None
    minimum: int = 0
    karma: bool = False
    karma_damage: bool = False
    stun: bool = False
    size: int = 0

    @property
    def close(self) -> bool:
        return self.kind in CLOSE_KINDS


@dataclass(frozen=True, slots=True)
class CombatProfile:
    """Every number the Earthdawn combat rules read of one combatant (static during a fight)."""

    name: str
    kind: str = "creature"  # "character" or "creature"
    dexterity: int = 0  # attribute value, 0 if the stat block gives only steps (tie-breaks, p.371)
    dex_step: int = 5
    str_step: int = 5
    tou_step: int = 5
    per_step: int = 5
    wil_step: int = 5
    cha_step: int = 5
    initiative_step: int = 5
    physical_defense: int = 7
    mystic_defense: int = 7
    social_defense: int = 7
    physical_armor: int = 0
    mystic_armor: int = 0
    wound_threshold: int = 8
    unconsciousness: int | None = 20  # None: "NA", immune to Stun damage (p.383)
    death: int = 25
    recovery_tests: int = 2
    recovery_step: int = 5
    knockdown_step: int = 5
    movement: int = 12  # yards per round
    karma: int = 0  # Karma points at the start of the fight
    karma_step: int = 4
    actions: int = 1  # attacks a creature makes with its Standard action
    attacks: tuple[AttackProfile, ...] = ()
    shield_shatter: int | None = None
    tags: frozenset[str] = frozenset()
    source: Any = field(default=None, compare=False, repr=False)

    def attack(self, name: str | None) -> AttackProfile | None:
        if name is None:
            return self.attacks[0] if self.attacks else None
        for a in self.attacks:
            if a.name == name:
                return a
        return None


# ----- from an encounter-file stat block -----------------------------------------------------------------


class _Strict(BaseModel):
    # built at the first stat block validated, not at import: most encounters use templates only (building
    # StatBlock's validator is about 25 ms, measured here, on every start of the command line)
    model_config = ConfigDict(extra="forbid", defer_build=True)


class AttackBlock(_Strict):
    name: str
    kind: AttackKind = "melee"
    step: int = Field(ge=1, le=100)
    damage: int = Field(ge=1, le=100)
    against: Against = "physical"
    armor: ArmorKind = "physical"
    # [short, long] yards, or [minimum, short, long]; at most the map's width (1,001 hexes of 2 yards)
    range: list[Annotated[int, Field(ge=0, le=2000)]] | None = None
    karma: bool = False
    karma_damage: bool = False
    stun: bool = False
    size: int = Field(default=0, ge=0, le=10)  # weapon Size (the Player's Guide's weapons run 1 to 7)

    @model_validator(mode="after")
    def _check_range(self) -> AttackBlock:
        if self.kind in ("missile", "thrown") and (self.range is None or len(self.range) not in (2, 3)):
            raise ValueError(
                "a missile or thrown attack needs range: its short and long range in yards, as a list"
            )
        if self.range is not None and (len(self.range) not in (2, 3) or self.range != sorted(self.range)):
            raise ValueError(
                f"range is [short, long] or [minimum, short, long] in yards, each at least the one before "
                f"(found {self.range})"
            )
        return self


_STEP_KEYS = {
    "dexterity": "dex_step",
    "strength": "str_step",
    "toughness": "tou_step",
    "perception": "per_step",
    "willpower": "wil_step",
    "charisma": "cha_step",
}


class StatBlock(_Strict):
    """A full stat block in an encounter file. Attribute *values* or *steps*; characteristics override."""

    kind: Literal["character", "creature"] = "creature"
    dexterity: int | None = Field(default=None, ge=1, le=60)
    strength: int | None = Field(default=None, ge=1, le=60)
    toughness: int | None = Field(default=None, ge=1, le=60)
    perception: int | None = Field(default=None, ge=1, le=60)
    willpower: int | None = Field(default=None, ge=1, le=60)
    charisma: int | None = Field(default=None, ge=1, le=60)
    dex_step: int | None = Field(default=None, ge=1, le=40)
    str_step: int | None = Field(default=None, ge=1, le=40)
    tou_step: int | None = Field(default=None, ge=1, le=40)
    per_step: int | None = Field(default=None, ge=1, le=40)
    wil_step: int | None = Field(default=None, ge=1, le=40)
    cha_step: int | None = Field(default=None, ge=1, le=40)
    initiative: int | None = Field(default=None, ge=1, le=60)
    physical_defense: int | None = Field(default=None, ge=1, le=60)
    mystic_defense: int | None = Field(default=None, ge=1, le=60)
    social_defense: int | None = Field(default=None, ge=1, le=60)
    physical_armor: int = Field(default=0, ge=0, le=60)
    mystic_armor: int | None = Field(default=None, ge=0, le=60)
    wound_threshold: int | None = Field(default=None, ge=1, le=100)
    unconsciousness: Annotated[int, Field(ge=1, le=500)] | Literal["NA"] | None = None
    death: int | None = Field(default=None, ge=1, le=500)
    recovery_tests: int | None = Field(default=None, ge=0, le=20)
    knockdown: int | None = Field(default=None, ge=1, le=60)
    movement: int = Field(default=12, ge=0, le=200)
    karma: int = Field(default=0, ge=0, le=200)
    karma_step: int = Field(default=4, ge=1, le=20)
    actions: int = Field(default=1, ge=1, le=10)
    attacks: list[AttackBlock] = Field(min_length=1)


def _ed4_derived(block: StatBlock) -> dict[str, Any]:
    """ED4 characteristics from attribute values (characteristics.py; reference/earthdawn.md 2.1)."""
    from fracas.rules.earthdawn import characteristics as ch

    out: dict[str, Any] = {}
    for attr, key in _STEP_KEYS.items():
        given_step = getattr(block, key)
        value = getattr(block, attr)
        out[key] = given_step if given_step is not None else (ch.attribute_step(value) if value else 5)
    dex, tou, per, wil, cha = (
        block.dexterity,
        block.toughness,
        block.perception,
        block.willpower,
        block.charisma,
    )
    out["physical_defense"] = block.physical_defense or (ch.defense_rating(dex) if dex else 7)
    out["mystic_defense"] = block.mystic_defense or (ch.defense_rating(per) if per else 7)
    out["social_defense"] = block.social_defense or (ch.defense_rating(cha) if cha else 7)
    out["mystic_armor"] = (
        block.mystic_armor if block.mystic_armor is not None else (ch.natural_mystic_armor(wil) if wil else 0)
    )
    out["wound_threshold"] = block.wound_threshold or (ch.wound_threshold(tou) if tou else 8)
    if block.unconsciousness == "NA":
        out["unconsciousness"] = None
    else:
        out["unconsciousness"] = block.unconsciousness or (ch.unconsciousness_rating(tou) if tou else 20)
    out["death"] = block.death or (ch.death_rating(tou) if tou else 25)
    out["recovery_tests"] = (
        block.recovery_tests
        if block.recovery_tests is not None
        else (ch.recovery_tests_per_day(tou) if tou else 2)
    )
    out["knockdown_step"] = block.knockdown or out["str_step"]
    out["initiative_step"] = block.initiative or out["dex_step"]
    return out


def profile_from_block(data: dict[str, Any], name: str, where: str) -> CombatProfile:
    """A profile from an encounter file's ``stats:`` mapping; errors name ``where`` and the field."""
    try:
        block = StatBlock.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
            lines.append(f"{where}.stats.{loc}: {msg} (found {err.get('input')!r})")
        raise EncounterFileError("\n".join(lines)) from None
    d = _ed4_derived(block)
    attacks = []
    for a in block.attacks:
        short = long_ = None
        minimum = 0
        if a.range is not None:
            if len(a.range) == 3:
                minimum, short, long_ = a.range
            else:
                short, long_ = a.range
        attacks.append(
            AttackProfile(
                a.name,
                a.kind,
                a.step,
                a.damage,
                a.against,
                a.armor,
                short,
                long_,
                minimum,
                a.karma,
                a.karma_damage,
                a.stun,
                a.size,
            )
        )
    return CombatProfile(
        name=name,
        kind=block.kind,
        dexterity=block.dexterity or 0,
        recovery_step=d["tou_step"],
        physical_armor=block.physical_armor,
        movement=block.movement,
        karma=block.karma,
        karma_step=block.karma_step,
        actions=block.actions,
        attacks=tuple(attacks),
        **d,
    )


# ----- from the data layer ------------------------------------------------------------------------------


def profile_from_stats(stats: Any, name: str | None = None) -> CombatProfile:
    """A profile from an :class:`~fracas.rules.earthdawn.stats.EarthdawnStats` (bundled template or built).

    Karma may be spent on an attack made with a talent (the talent's rank is at least the skill's) when the
    character has Karma; spells are reduced by Mystic Armor, everything else by Physical Armor (p.379: "if
    there is any uncertainty, the gamemaster decides"; docs/rulesets/ed4.md).
    """
    attacks = []
    has_karma = stats.karma_max > 0
    for a in stats.attacks:
        short = a.short_range[1] if a.short_range else None
        long_ = a.long_range[1] if a.long_range else short
        minimum = a.short_range[0] if a.short_range else 0
        talent = a.skill is not None and stats.talents.get(a.skill, 0) >= stats.skills.get(a.skill, 0) > -1
        talent = talent and stats.talents.get(a.skill or "", 0) > 0
        attacks.append(
            AttackProfile(
                name=a.name,
                kind=a.kind,
                step=a.attack_step,
                damage=max(1, a.damage_step),
                against=a.defense,
                armor="mystic" if a.kind == "spell" else "physical",
                short=short,
                long=long_,
                minimum=minimum,
                karma=bool(has_karma and talent),
                karma_damage=False,
                stun=False,
                size=a.size or 0,
            )
        )
    values = stats.attribute_values or {}
    return CombatProfile(
        name=name or stats.name,
        kind=stats.kind,
        dexterity=int(values.get("dexterity", 0)),
        dex_step=stats.dexterity,
        str_step=stats.strength,
        tou_step=stats.toughness,
        per_step=stats.perception,
        wil_step=stats.willpower,
        cha_step=stats.charisma,
        initiative_step=stats.initiative_step,
        physical_defense=stats.physical_defense,
        mystic_defense=stats.mystic_defense,
        social_defense=stats.social_defense,
        physical_armor=stats.physical_armor,
        mystic_armor=stats.mystic_armor,
        wound_threshold=stats.wound_threshold,
        unconsciousness=stats.unconsciousness_rating,
        death=stats.death_rating,
        recovery_tests=stats.recovery_tests_per_day,
        recovery_step=stats.recovery_step,
        knockdown_step=stats.knockdown_step,
        movement=stats.movement,
        karma=stats.karma_max,
        karma_step=stats.karma_step or 4,
        actions=stats.actions,
        attacks=tuple(attacks),
        shield_shatter=stats.shield.shatter_threshold if stats.shield else None,
        source=stats,
    )


OVERRIDABLE = {
    "initiative": "initiative_step",
    "physical_defense": "physical_defense",
    "mystic_defense": "mystic_defense",
    "social_defense": "social_defense",
    "physical_armor": "physical_armor",
    "mystic_armor": "mystic_armor",
    "wound_threshold": "wound_threshold",
    "unconsciousness": "unconsciousness",
    "death": "death",
    "recovery_tests": "recovery_tests",
    "knockdown": "knockdown_step",
    "movement": "movement",
    "karma": "karma",
    "actions": "actions",
}


def override(profile: CombatProfile, data: dict[str, Any], where: str) -> CombatProfile:
    """A template's profile with some numbers replaced (``stats:`` next to ``template:``)."""
    import dataclasses

    changes: dict[str, Any] = {}
    errors = []
    for key, value in data.items():
        if key not in OVERRIDABLE:
            errors.append(
                f"{where}.stats.{key}: cannot override {key!r} on a template; "
                f"allowed: {', '.join(sorted(OVERRIDABLE))}"
            )
            continue
        if key == "unconsciousness" and value == "NA":
            changes["unconsciousness"] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            errors.append(f"{where}.stats.{key}: expected a whole number 0 or more, found {value!r}")
            continue
        changes[OVERRIDABLE[key]] = value
    if errors:
        raise EncounterFileError("\n".join(errors))
    return dataclasses.replace(profile, **changes)
