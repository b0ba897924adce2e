"""Earthdawn stat blocks: every number the combat rules need, whatever the edition.

:class:`EarthdawnStats` is one combatant's numbers. It is built either

- from a character (race, attribute *values*, talents, skills, equipment names, circle, karma) with
  :meth:`EarthdawnStats.from_character`, using the ED4 formulas or the ED1 Attribute Table
  (:mod:`fracas.rules.earthdawn.characteristics`) and the equipment data of the edition
  (:mod:`fracas.rules.earthdawn.catalog`); or
- from a creature stat block whose steps and ratings are given directly, as the books print creature
  entries, with :meth:`EarthdawnStats.from_creature`.

Conventions (the combat rules rely on them):

- Attributes are stored as **steps** (``dexterity`` = Dexterity step); characters also keep their
  ``attribute_values``.
- ``physical_defense``/``mystic_defense`` include the shield's bonuses and ``initiative_step`` includes
  armor and shield penalties (never below Step 1, ED4 p.371); ``shield`` and ``armor`` keep the parts, so
  a shattered shield (ED4 p.385) can be taken off again. ``physical_armor``/``mystic_armor`` include worn
  armor (and natural Mystic Armor from Willpower).
- ``mystic_defense`` is the ED1 *Spell Defense* (:attr:`EarthdawnStats.spell_defense` is an alias).
- ``movement`` is the ED4 Movement Rate or the ED1 Combat Movement; ``full_movement`` is the ED1 Full
  Movement, and for ED4 twice the Movement Rate (moving with the Standard action, ED4 p.373), in yards.
- ``unconsciousness_rating`` is ``None`` for "NA": immune to Stun damage (ED4 p.384).
- Attack steps: a character's attack is the Dexterity step plus the rank of Melee Weapons, Missile Weapons,
  Throwing Weapons or Unarmed Combat (talent or skill, the higher); its damage is the Strength step plus
  the weapon's Damage Step (ED4 p.377). Unarmed damage is the Strength step. A spell's attack is the
  Perception step plus the Spellcasting rank, its effect the Willpower step plus the spell's bonus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from fracas.errors import UsageError
from fracas.rules.earthdawn import characteristics as ch

if TYPE_CHECKING:
    from fracas.rules.earthdawn.catalog import Catalog

Edition = Literal["ed4", "ed1"]
EDITIONS: tuple[str, ...] = ("ed4", "ed1")
AttackKind = Literal["melee", "missile", "thrown", "unarmed", "natural", "spell"]
ATTACK_KINDS: tuple[str, ...] = ("melee", "missile", "thrown", "unarmed", "natural", "spell")
Defense = Literal["physical", "mystic", "social"]
SKILL_FOR_KIND = {
    "melee": "Melee Weapons",
    "missile": "Missile Weapons",
    "thrown": "Throwing Weapons",
    "unarmed": "Unarmed Combat",
}
"""The talent or skill whose rank adds to the Dexterity step for each kind of attack (ED4 p.376)."""

MIN_RANGE_YARDS = 2
"""Minimum range of ranged weapons whose data lacks one [choice] (close combat reaches 2 yards, p.391)."""


@dataclass(frozen=True, slots=True)
class Attack:
    """One way a combatant attacks: its test step, damage (or effect) step and the data the rules need.

    Ranges are ``(min, max)`` in yards, inclusive; ``None`` for close combat. ``defense`` names the
    Defense the attack test is made against (Physical for weapons, Mystic for most spells, ED4 p.376).
    """

    name: str
    kind: AttackKind
    attack_step: int
    damage_step: int
    defense: Defense = "physical"
    short_range: tuple[int, int] | None = None
    long_range: tuple[int, int] | None = None
    size: int | None = None
    entangling: bool = False
    two_handed: bool = False
    weapon: str | None = None
    skill: str | None = None

    @property
    def ranged(self) -> bool:
        return self.short_range is not None

    def range_band(self, yards: float) -> Literal["short", "long"] | None:
        """``"short"``, ``"long"`` or ``None`` (out of range, or within the minimum) for a distance."""
        for band, rng in (("short", self.short_range), ("long", self.long_range)):
            if rng is not None and rng[0] <= yards <= rng[1]:
                return band  # type: ignore[return-value]
        return None


@dataclass(frozen=True, slots=True)
class WeaponData:
    """A weapon of an edition's ``weapons.toml``. ``thrown_range`` is for melee weapons that can be thrown."""

    key: str
    name: str
    edition: str
    kind: Literal["melee", "missile", "thrown"]
    damage_step: int
    size: int
    strength_min: int
    short_range: tuple[int, int] | None
    long_range: tuple[int, int] | None
    thrown_short: tuple[int, int] | None
    thrown_long: tuple[int, int] | None
    entangling: bool
    two_handed: bool
    confidence: str


@dataclass(frozen=True, slots=True)
class ArmorData:
    """Worn armor: Physical and Mystic Armor it adds and its Initiative penalty."""

    key: str
    name: str
    edition: str
    physical: int
    mystic: int
    initiative_penalty: int
    confidence: str = "choice"


@dataclass(frozen=True, slots=True)
class ShieldData:
    """A shield: its bonuses to Physical and Mystic Defense, Initiative penalty and Shatter Threshold."""

    key: str
    name: str
    edition: str
    physical_defense: int
    mystic_defense: int
    initiative_penalty: int
    shatter_threshold: int
    confidence: str = "choice"


@dataclass(slots=True)
class EarthdawnStats:
    """Every number the Earthdawn combat rules need about one combatant (see the module docstring)."""

    name: str
    edition: str
    kind: Literal["character", "creature"]
    race: str
    size: str
    dexterity: int
    strength: int
    toughness: int
    perception: int
    willpower: int
    charisma: int
    initiative_step: int
    physical_defense: int
    mystic_defense: int
    social_defense: int
    physical_armor: int
    mystic_armor: int
    wound_threshold: int
    unconsciousness_rating: int | None
    death_rating: int
    recovery_tests_per_day: int
    recovery_step: int
    knockdown_step: int
    movement: int
    full_movement: int
    flying_movement: int | None = None
    karma_max: int = 0
    karma_step: int = 0
    actions: int = 1
    circle: int | None = None
    discipline: str | None = None
    talents: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    powers: dict[str, int] = field(default_factory=dict)
    attacks: list[Attack] = field(default_factory=list)
    armor: ArmorData | None = None
    shield: ShieldData | None = None
    attribute_values: dict[str, int] | None = None
    mount: str | None = None

    # ---- convenience --------------------------------------------------------------------------

    @property
    def spell_defense(self) -> int:
        """ED1 name of the Mystic Defense."""
        return self.mystic_defense

    @property
    def immune_to_stun(self) -> bool:
        """Unconsciousness Rating "NA": immune to Stun damage (ED4 p.384)."""
        return self.unconsciousness_rating is None

    def rank(self, ability: str) -> int:
        """The rank of a talent or skill (the higher of the two), 0 if the combatant lacks it."""
        return max(self.talents.get(ability, 0), self.skills.get(ability, 0))

    def attack(self, name: str) -> Attack:
        """The attack called ``name`` (case-insensitive)."""
        for a in self.attacks:
            if a.name.lower() == name.lower():
                return a
        known = ", ".join(a.name for a in self.attacks) or "none"
        raise UsageError(f"{self.name} has no attack {name!r}; attacks: {known}")

    # ---- constructors -------------------------------------------------------------------------

    @classmethod
    def from_character(
        cls,
        name: str,
        edition: str,
        race: str,
        attributes: Mapping[str, int],
        *,
        talents: Mapping[str, int] | None = None,
        skills: Mapping[str, int] | None = None,
        weapons: Iterable[str] = (),
        armor: str | None = None,
        shield: str | None = None,
        circle: int | None = None,
        karma: int | None = None,
        discipline: str | None = None,
        spells: Iterable[Mapping[str, object]] = (),
        mount: str | None = None,
        catalog: Catalog,
    ) -> EarthdawnStats:
        """A character from attribute values, by the edition's rules.

        ``edition`` is ``"ed4"`` (formulas of reference §2.1) or ``"ed1"`` (Attribute Table of reference
        §2.2). ``weapons``, ``armor`` and ``shield`` name entries of that edition's data files.
        ``circle`` ``None`` means a non-adept: no Karma. ``karma`` overrides the maximum Karma.
        ``spells`` entries have ``name``, ``effect_bonus`` and optionally ``defense`` and ``short_range``.
        ``catalog`` is the data to read equipment and races from (the bundled data:
        :func:`fracas.rules.earthdawn.catalog.get_catalog`; given by the caller, so that the stat blocks
        do not import the catalog that builds them).
        """
        _check_edition(edition)
        data = catalog
        if data.edition != edition:
            raise UsageError(f"the catalog holds {data.edition} data, not {edition}")
        values = ch.normalize_attributes(dict(attributes))
        steps = {a: ch.attribute_step(v) for a, v in values.items()}
        talents = dict(talents or {})
        skills = dict(skills or {})
        armor_data = data.armor_piece(armor) if armor else None
        shield_data = data.shield(shield) if shield else None
        worn_pa = armor_data.physical if armor_data else 0
        worn_ma = armor_data.mystic if armor_data else 0
        sh_pd = shield_data.physical_defense if shield_data else 0
        sh_md = shield_data.mystic_defense if shield_data else 0
        race_data = data.race(race)
        tou, dex = values["toughness"], values["dexterity"]

        if edition == "ed4":
            pd = ch.defense_rating(dex)
            md = ch.defense_rating(values["perception"])
            sd = ch.defense_rating(values["charisma"])
            natural_ma = ch.natural_mystic_armor(values["willpower"])
            wt = ch.wound_threshold(tou)
            ur: int = ch.unconsciousness_rating(tou)
            dr = ch.death_rating(tou)
            rec = ch.recovery_tests_per_day(tou)
            movement = race_data.movement
            full = 2 * movement
            flying = race_data.flying_movement
            karma_step = ch.ED4_KARMA_STEP
            karma_max = ch.ed4_karma_max(race_data.karma_modifier, circle) if circle else 0
        else:
            row = data.ed1_attribute_row
            pd = row(dex).defense
            md = row(values["perception"]).defense
            sd = row(values["charisma"]).defense
            natural_ma = row(values["willpower"]).mystic_armor
            trow = row(tou)
            wt, ur, dr, rec = trow.wound_threshold, trow.unconsciousness, trow.death, trow.recovery_tests
            moved = min(max(dex + race_data.movement_adjustment, 1), 30)
            movement, full = row(moved).combat_movement, row(moved).full_movement
            flying = None
            karma_step = race_data.karma_step
            karma_max = race_data.max_karma if circle else 0

        if karma is not None:
            if karma < 0:
                raise UsageError(f"karma must be 0 or more, found {karma}")
            karma_max = karma
        init = ch.initiative_step(
            steps["dexterity"],
            armor_data.initiative_penalty if armor_data else 0,
            shield_data.initiative_penalty if shield_data else 0,
        )
        stats = cls(
            name=name,
            edition=edition,
            kind="character",
            race=race_data.name,
            size=race_data.size,
            initiative_step=init,
            physical_defense=pd + sh_pd,
            mystic_defense=md + sh_md,
            social_defense=sd,
            physical_armor=worn_pa,
            mystic_armor=natural_ma + worn_ma,
            wound_threshold=wt,
            unconsciousness_rating=ur,
            death_rating=dr,
            recovery_tests_per_day=rec,
            recovery_step=steps["toughness"],
            knockdown_step=steps["strength"],
            movement=movement,
            full_movement=full,
            flying_movement=flying,
            karma_max=karma_max,
            karma_step=karma_step,
            circle=circle,
            discipline=discipline,
            talents=talents,
            skills=skills,
            armor=armor_data,
            shield=shield_data,
            attribute_values=values,
            mount=mount,
            **steps,
        )
        stats.attacks = _character_attacks(stats, [data.weapon(w) for w in weapons], spells)
        return stats

    @classmethod
    def from_creature(
        cls,
        name: str,
        edition: str,
        *,
        dexterity: int,
        strength: int,
        toughness: int,
        perception: int,
        willpower: int,
        charisma: int,
        initiative: int,
        physical_defense: int,
        mystic_defense: int,
        social_defense: int,
        physical_armor: int,
        mystic_armor: int,
        wound_threshold: int,
        unconsciousness: int | None,
        death: int,
        knockdown: int,
        recovery_tests: int,
        movement: int,
        full_movement: int | None = None,
        flying_movement: int | None = None,
        actions: int = 1,
        attacks: Iterable[Attack] = (),
        powers: Mapping[str, int] | None = None,
        circle: int | None = None,
        size: str = "human",
        race: str | None = None,
        karma_max: int = 0,
        karma_step: int = 0,
    ) -> EarthdawnStats:
        """A creature from its stat block: steps and ratings as printed (ED4 Gamemaster's Guide, ED1 book).

        ``unconsciousness`` ``None`` is "NA" (immune to Stun). The Recovery step is the Toughness step.
        ``full_movement`` defaults to twice ``movement``.
        """
        _check_edition(edition)
        return cls(
            name=name,
            edition=edition,
            kind="creature",
            race=race or name,
            size=size,
            dexterity=dexterity,
            strength=strength,
            toughness=toughness,
            perception=perception,
            willpower=willpower,
            charisma=charisma,
            initiative_step=initiative,
            physical_defense=physical_defense,
            mystic_defense=mystic_defense,
            social_defense=social_defense,
            physical_armor=physical_armor,
            mystic_armor=mystic_armor,
            wound_threshold=wound_threshold,
            unconsciousness_rating=unconsciousness,
            death_rating=death,
            recovery_tests_per_day=recovery_tests,
            recovery_step=toughness,
            knockdown_step=knockdown,
            movement=movement,
            full_movement=full_movement if full_movement is not None else 2 * movement,
            flying_movement=flying_movement,
            karma_max=karma_max,
            karma_step=karma_step,
            actions=actions,
            circle=circle,
            powers=dict(powers or {}),
            attacks=list(attacks),
        )


def _check_edition(edition: str) -> None:
    if edition not in EDITIONS:
        raise UsageError(f"unknown edition {edition!r}; allowed: {', '.join(EDITIONS)}")


def _ranges(short: int, long: int) -> tuple[tuple[int, int], tuple[int, int]]:
    return (MIN_RANGE_YARDS, short), (short + 1, long)


def weapon_attack(stats: EarthdawnStats, weapon: WeaponData, *, thrown: bool = False) -> Attack:
    """The attack a character makes with a weapon (thrown: a melee weapon with a throwing range)."""
    kind = "thrown" if thrown else weapon.kind
    skill = SKILL_FOR_KIND[kind]
    if thrown:
        if weapon.thrown_short is None or weapon.thrown_long is None:
            raise UsageError(f"{weapon.name} cannot be thrown")
        short, long = weapon.thrown_short, weapon.thrown_long
    else:
        short, long = weapon.short_range, weapon.long_range
    return Attack(
        name=f"{weapon.name} (thrown)" if thrown else weapon.name,
        kind=kind,  # type: ignore[arg-type]
        attack_step=stats.dexterity + stats.rank(skill),
        damage_step=stats.strength + weapon.damage_step,
        short_range=short,
        long_range=long,
        size=weapon.size,
        entangling=weapon.entangling,
        two_handed=weapon.two_handed,
        weapon=weapon.key,
        skill=skill,
    )


def _character_attacks(
    stats: EarthdawnStats, weapons: list[WeaponData], spells: Iterable[Mapping[str, object]]
) -> list[Attack]:
    attacks = []
    for w in weapons:
        attacks.append(weapon_attack(stats, w))
        if w.kind == "melee" and w.thrown_short is not None:
            attacks.append(weapon_attack(stats, w, thrown=True))
    attacks.append(
        Attack(
            name="Unarmed",
            kind="unarmed",
            attack_step=stats.dexterity + stats.rank("Unarmed Combat"),
            damage_step=stats.strength,
            skill="Unarmed Combat",
        )
    )
    for spell in spells:
        short = spell.get("short_range")
        rng = ((0, int(short)), None) if isinstance(short, int) else (None, None)
        attacks.append(
            Attack(
                name=str(spell["name"]),
                kind="spell",
                attack_step=stats.perception + stats.rank("Spellcasting"),
                damage_step=stats.willpower + int(spell.get("effect_bonus", 0)),  # type: ignore[call-overload]
                defense=str(spell.get("defense", "mystic")),  # type: ignore[arg-type]
                short_range=rng[0],
                long_range=rng[1],
                skill="Spellcasting",
            )
        )
    return attacks
