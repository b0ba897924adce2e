"""The Spells & Swords combatant: a stat block (:class:`Stats`, fixed) and its fight state (:class:`Fighter`).

The combat text (004_0d1ac50b56c23caf.txt) names Attack, Damage, Defense, Armor, Initiative, Stealth,
Alertness, Swift, Dodge, Wound Level, size classes and skills without defining them; the facts come from
reference/spells-and-swords.md (2.1 races, 2.3 skills, 2.6 sizes, 2.8 the combatant record, 3.3 armor).
Every value no source gives is a setting in ``data/settings.toml`` or marked ``invented`` in the bestiary,
and docs/rulesets/sas.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from fracas.errors import EncounterFileError
from fracas.rules.sas.tables import Creature, Settings, Tables, tables

HUMANOID_KINDS = frozenset({"human", "demi-human", "humanoid"})

# body parts a permanent or broken injury makes unusable for wielding
HAND_PARTS = ("arm", "hand")


@dataclass(frozen=True, slots=True)
class Stats:
    """A combatant's stat block with the armor, helmet and shield side effects already derived.

    ``attack``/``damage``/``defense``/``dodge`` are the printed bonuses ("Attack +2"); ``armor`` is the
    Armor bonus after the Helmet Rule; ``initiative``/``swift``/``stealth``/``alertness`` include the armor,
    helmet and shield penalties of the DAMAGE TABLE MODIFIER LIST and ATTACK TABLE MODIFIERS.
    """

    template: str
    label: str
    kind: str
    size: str
    size_index: int
    wound_level: int
    movement: int
    attack: int = 0
    damage: int = 0
    defense: int = 0
    dodge: int = 0
    armor_class: str = "none"
    armor: int = 0
    metal_armor: bool = False
    helmet: bool = False
    shield: str = "none"
    initiative: int = 0
    stealth: int = 0
    alertness: int = 0
    swift: int = 0
    strength: int = 0
    toughness: int = 0
    skills: tuple[tuple[str, int], ...] = ()
    weapons: tuple[str, ...] = ()
    weapon_bonus: tuple[tuple[str, int], ...] = ()
    spells: tuple[str, ...] = ()
    power_points: int = 0
    minion: int = 0
    heroic: bool = False
    aquatic: bool = False
    regenerates: bool = False
    mount: bool = False
    race: str | None = None
    calling: str | None = None

    @property
    def humanoid(self) -> bool:
        """Humans, Demi-Humans and Humanoids (THE BRAWL RULE, fumble tables vs MONSTER FUMBLES)."""
        return self.kind in HUMANOID_KINDS

    def skill(self, name: str) -> int:
        direct = {"stealth": self.stealth, "alertness": self.alertness, "swift": self.swift}
        if name in direct:
            return direct[name]
        if name == "strength":
            return self.strength
        if name == "dodge":
            return self.dodge
        return dict(self.skills).get(name, 0)

    def bonus_with(self, weapon: str) -> int:
        return dict(self.weapon_bonus).get(weapon, 0)

    def to_json(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__slots__}  # type: ignore[attr-defined]


def armor_value(t: Tables, armor_class: str, helmet: bool, natural: int = 0) -> int:
    """The Armor bonus with the HELMET RULE: a helmet alone gives Armor +1; armor without a helmet -1, to a
    minimum of +1. ``natural`` is a monster's printed "Armor +N" (added; helmets do not apply to it)."""
    base = t.damage.armor_classes[armor_class].armor
    h = t.damage.helmet
    if base == 0:
        worn = h.helmet_only_armor if helmet else 0
    elif helmet:
        worn = base
    else:
        worn = max(base + h.no_helmet_armor, h.no_helmet_min_armor)
    return worn + natural


SHIELD_SWIFT = {"none": 0, "small": 0, "medium": -1, "large": -2}
METAL_ARMOR = frozenset({"light", "medium", "heavy", "very-heavy", "super-heavy"})


def build_stats(template: str, overrides: dict[str, Any] | None = None, where: str = "") -> Stats:
    """A :class:`Stats` from a bestiary entry (``data/bestiary.toml``) and per-encounter overrides.

    ``template`` may be "" to build from ``overrides`` alone (then ``kind``, ``size`` and ``movement`` are
    required). Unknown fields are refused with the path ``where``.
    """
    t = tables()
    raw: dict[str, Any] = {}
    if template:
        if template not in t.bestiary:
            allowed = ", ".join(sorted(t.bestiary))
            raise EncounterFileError(
                f"{where}template: unknown Spells & Swords stat block {template!r}; allowed: {allowed}"
            )
        raw = t.bestiary[template].model_dump()
    raw.update(overrides or {})
    raw.setdefault("label", template or "combatant")
    try:
        c = Creature.model_validate(raw)
    except ValidationError as exc:  # name the field, what was found, what is allowed
        lines = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            found = repr(err.get("input"))[:40]
            if err["type"] == "extra_forbidden":
                allowed = ", ".join(f for f in Creature.model_fields if f != "invented")
                lines.append(f"{where}stats.{loc}: unknown field (found {found}); allowed: {allowed}")
            else:
                lines.append(f"{where}stats.{loc}: {err['msg']} (found {found})")
        raise EncounterFileError("\n".join(lines)) from None
    try:
        size = t.sizes.by_id(c.size)
    except KeyError:
        allowed = ", ".join(s.id for s in t.sizes.sizes)
        raise EncounterFileError(f"{where}size: unknown size {c.size!r}; allowed: {allowed}") from None
    if c.armor not in t.damage.armor_classes:
        allowed = ", ".join(t.damage.armor_classes)
        raise EncounterFileError(f"{where}armor: unknown armor class {c.armor!r}; allowed: {allowed}")
    for w in c.weapons:
        if w not in t.weapons:
            allowed = ", ".join(sorted(t.weapons))
            raise EncounterFileError(f"{where}weapons: unknown weapon {w!r}; allowed: {allowed}")
    s = t.settings
    armor = t.damage.armor_classes[c.armor]
    base_wl = c.wound_level_base if c.wound_level_base is not None else size.wound_level
    helmet_alert = t.damage.helmet.alertness if c.helmet else 0
    return Stats(
        template=template,
        label=c.label,
        kind=c.kind,
        size=c.size,
        size_index=size.index,
        wound_level=base_wl + c.toughness * s.toughness_wound_level,
        movement=c.movement,
        attack=c.attack,
        damage=c.damage,
        defense=c.defense,
        dodge=c.dodge,
        armor_class=c.armor,
        armor=armor_value(t, c.armor, c.helmet, c.armor_bonus),
        metal_armor=c.armor in METAL_ARMOR,
        helmet=c.helmet,
        shield=c.shield,
        initiative=c.initiative + armor.initiative,
        stealth=c.stealth + armor.stealth,
        alertness=c.alertness + c.skills.get("alertness", 0) + helmet_alert,
        swift=c.swift + armor.swift + SHIELD_SWIFT[c.shield],
        strength=c.strength,
        toughness=c.toughness,
        skills=tuple(sorted(c.skills.items())),
        weapons=tuple(c.weapons) or ("unarmed",),
        weapon_bonus=tuple(sorted(c.weapon_bonus.items())),
        spells=tuple(c.spells),
        power_points=c.power_points,
        minion=c.minion,
        heroic=c.heroic,
        aquatic=c.aquatic,
        regenerates=c.regenerates,
        mount=c.mount,
        race=c.race,
        calling=c.calling,
    )


@dataclass(slots=True)
class Fighter:
    """A combatant in a fight, as the pure procedures see it: stats plus everything that changes.

    ``conditions`` maps a condition id (conditions.toml) to the rounds it has left (None: until removed);
    ``next`` holds one-shot modifiers for the combatant's next attack/round ("attack", "defense",
    "initiative", "damage", "foe_attack", "foe_damage", "miss_attack", "miss_action").
    """

    id: str
    stats: Stats
    side: str = ""
    markers: int = 0
    burn_markers: int = 0
    conditions: dict[str, int | None] = field(default_factory=dict)
    hurt: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    permanent: list[str] = field(default_factory=list)
    bleeds: int = 0
    next: dict[str, int] = field(default_factory=dict)
    strength_loss: int = 0
    appearance_loss: int = 0
    dead: bool = False
    dying_rounds: int | None = None
    weapon: str | None = None
    offhand: str | None = None
    shield_used: int = 0
    mounted_on: str | None = None
    mount_moving: bool = False
    hits_taken: int = 0
    defense_why: str = ""
    lost: tuple[str, ...] = ()  # limbs lost (MAJOR WOUND TABLE 4 Lost Limb): "leg", "arm"
    save_rerolls: int = 0  # failed saves rerolled today (reference 2.5, Humans)
    settings: Settings | None = (
        None  # his encounter's settings (``fold.view`` sets them); None: the data file's
    )

    @property
    def in_force(self) -> Settings:
        """The settings this fighter is read under: his encounter's, or the data file's for a fighter made
        outside a fight (procedure tests, ``fighter()``)."""
        s = self.settings
        return tables().settings if s is None else s

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def wielded(self) -> str:
        return self.weapon or self.stats.weapons[0]

    @property
    def wounded(self) -> bool:
        """WOUNDED CONDITION: more Wound Markers than half the Wound Level."""
        return self.markers * 2 > self.stats.wound_level

    @property
    def out(self) -> bool:
        return self.dead or self.has("knocked-out")

    def copy(self) -> Fighter:
        return replace(
            self,
            conditions=dict(self.conditions),
            hurt=list(self.hurt),
            broken=list(self.broken),
            permanent=list(self.permanent),
            next=dict(self.next),
        )


def fighter(fid: str, template: str, side: str = "", **overrides: Any) -> Fighter:
    """A fresh :class:`Fighter` from a bestiary template (a convenience for tests and examples)."""
    return Fighter(fid, build_stats(template, overrides), side)
