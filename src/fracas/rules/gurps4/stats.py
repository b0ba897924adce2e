"""A GURPS combatant's static numbers (``Combatant.stats``) built from a template and encounter overrides.

Characters come from ``data/templates.toml`` (example characters, not book data); mounts from
``data/mounts.toml`` (Basic Set p.B459-460 via reference/gurps.md). Encounter entries may override stats,
skills and equipment; every bad value is an :class:`~fracas.errors.EncounterFileError` naming the field.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from fracas.errors import EncounterFileError, FracasError
from fracas.rules.gurps4 import data

SADDLES = ("none", "saddle", "saddle_and_stirrups", "war_saddle")
FLIGHT = ("none", "flight", "winged")
FLIGHT_LIMITATIONS = ("none", "cannot_hover", "controlled_gliding", "gliding")


@dataclass(frozen=True, slots=True)
class Attack:
    """One way to attack: a weapon mode (``weapon``/``mode``) or a natural attack of a mount."""

    name: str
    weapon: str
    skill_name: str
    damage: str
    damage_type: str
    reach: tuple[int, ...]
    parry: int | None
    ranged: bool = False
    couchable: bool = False
    jousting: bool = False
    natural: bool = False
    skill_modifier: int = 0
    min_st: int = 0
    unbalanced: bool = False


@dataclass(frozen=True, slots=True)
class GurpsStats:
    kind: str  # "character" or "mount"
    st: int
    dx: int
    iq: int
    ht: int
    hp: int
    will: int
    per: int
    basic_speed: float
    basic_move: int
    sm: int = 0
    body: str = "humanoid"
    skills: dict[str, int] = field(default_factory=dict)
    weapons: tuple[str, ...] = ()
    shield: str | None = None
    armor: tuple[str, ...] = ()
    dr: dict[str, int] = field(default_factory=dict)
    dr_crushing: dict[str, int] = field(default_factory=dict)
    flexible: frozenset[str] = frozenset()
    combat_reflexes: bool = False
    high_pain_threshold: bool = False
    peripheral_vision: bool = False
    encumbrance: int = 0
    saddle: str = "none"
    iron_horseshoes: bool = False
    war_trained: bool = False
    natural_attacks: tuple[Attack, ...] = ()
    air_move: int = 0
    flight: str = "none"
    flight_limitation: str = "none"
    unused_to_cavalry: bool = False
    dodge_override: int | None = None
    _attacks: tuple[Attack, ...] | None = field(default=None, init=False, repr=False, compare=False)
    """The attack list, worked out on first use and kept on the stat block itself (it dies with it)."""

    # ----- derived ---------------------------------------------------------------------------------
    @property
    def mount(self) -> bool:
        return self.kind == "mount"

    @property
    def flies(self) -> bool:
        return self.flight != "none" and self.air_move > 0

    @property
    def can_hover(self) -> bool:
        return self.flies and self.flight_limitation == "none"

    @property
    def saddle_and_stirrups(self) -> bool:
        return self.saddle in ("saddle_and_stirrups", "war_saddle")

    @property
    def riding(self) -> int | None:
        return self.skills.get("Riding")

    def skill(self, name: str) -> int:
        """Skill level; an unlearned weapon skill defaults to DX-5 (Basic Set defaults, reference 2)."""
        if name == "DX":
            return self.dx
        if name in self.skills:
            return self.skills[name]
        if name == "Shield":
            return self.dx - 4
        return self.dx - 5

    def attacks(self) -> list[Attack]:
        kept = self._attacks
        if kept is None:
            kept = tuple(self._build_attacks())
            object.__setattr__(self, "_attacks", kept)  # a cache: frozen otherwise
        return list(kept)

    def _build_attacks(self) -> list[Attack]:
        out: list[Attack] = list(self.natural_attacks)
        table = data.weapons()
        for w in self.weapons:
            wpn = table[w]
            for m in wpn.modes:
                out.append(
                    Attack(
                        name=f"{w}" if len(wpn.modes) == 1 else f"{w}:{m.name}",
                        weapon=w,
                        skill_name=wpn.skill,
                        damage=m.damage,
                        damage_type=m.type,
                        reach=m.reach,
                        parry=None if m.parry == "none" else int(m.parry),
                        ranged=wpn.ranged is not None,
                        couchable=wpn.couchable,
                        jousting=wpn.jousting,
                        skill_modifier=wpn.skill_modifier,
                        min_st=wpn.min_st,
                        unbalanced=m.unbalanced,
                    )
                )
        return out

    def attack(self, name: str) -> Attack | None:
        for a in self.attacks():
            if a.name == name or a.weapon == name:
                return a
        return None

    def shield_db(self) -> int:
        return data.armor_file().shields[self.shield].db if self.shield else 0

    def dodge(self) -> int:
        if self.dodge_override is not None:
            return self.dodge_override
        return math.floor(self.basic_speed) + 3 + (1 if self.combat_reflexes else 0) - self.encumbrance

    def dr_at(self, location: str, damage_type: str) -> int:
        if damage_type == "cr" and location in self.dr_crushing:
            return self.dr_crushing[location]
        return self.dr.get(location, 0)


# ---------------------------------------------------------------- building


@cache
def _templates() -> dict[str, dict[str, Any]]:
    raw = tomllib.loads(
        resources.files("fracas.rules.gurps4").joinpath("data/templates.toml").read_text(encoding="utf-8")
    )
    return dict(raw["characters"])


def template_names() -> list[str]:
    return [*_templates(), *data.mounts()]


_INT_STATS = ("st", "dx", "iq", "ht", "hp", "will", "per", "basic_move", "sm", "encumbrance", "air_move")
_BOOL_STATS = (
    "combat_reflexes",
    "high_pain_threshold",
    "peripheral_vision",
    "war_trained",
    "iron_horseshoes",
    "unused_to_cavalry",
)
STAT_KEYS = (
    *_INT_STATS, "basic_speed", "dodge", *_BOOL_STATS, "skills", "flight", "flight_limitation", "attacks",
)  # fmt: skip
_ATTACK_KEYS = ("name", "damage", "type", "reach", "skill", "skill_modifier")
EQUIPMENT_KEYS = ("weapons", "shield", "armor", "barding", "saddle", "iron_horseshoes")


def _armor_dr(
    names: tuple[str, ...], barding: bool, where: str
) -> tuple[dict[str, int], dict[str, int], set[str]]:
    af = data.armor_file()
    table = af.barding if barding else af.armor
    dr: dict[str, int] = {}
    drc: dict[str, int] = {}
    flex: set[str] = set()
    for n in names:
        if n not in table:
            kind = "barding" if barding else "armor"
            raise EncounterFileError(f"{where}: unknown {kind} {n!r}; allowed: {', '.join(table)}")
        a = table[n]
        for loc in a.locations:
            dr[loc] = dr.get(loc, 0) + a.dr
            drc[loc] = drc.get(loc, 0) + (a.dr_vs_crushing if a.dr_vs_crushing is not None else a.dr)
            if a.flexible:
                flex.add(loc)
    # keep only locations whose crushing DR differs
    drc = {k: v for k, v in drc.items() if v != dr[k]}
    return dr, drc, flex


def _check_entry(template: str | None, stats: dict[str, Any], equipment: dict[str, Any], where: str) -> None:
    """An encounter entry names a known template or gives stats, and only known stats and equipment."""
    chars, mounts = _templates(), data.mounts()
    if template is None and not stats:
        raise EncounterFileError(f"{where}: give a template ({', '.join(template_names())}) or stats")
    if template is not None and template not in chars and template not in mounts:
        raise EncounterFileError(
            f"{where}.template: unknown {template!r}; allowed: {', '.join(template_names())}"
        )
    for key in stats:
        if key not in STAT_KEYS:
            raise EncounterFileError(f"{where}.stats.{key}: unknown stat; allowed: {', '.join(STAT_KEYS)}")
    for key in equipment:
        if key not in EQUIPMENT_KEYS:
            raise EncounterFileError(
                f"{where}.equipment.{key}: unknown; allowed: {', '.join(EQUIPMENT_KEYS)}"
            )


def _check_numbers(base: dict[str, Any], skills: dict[str, Any], where: str) -> None:
    """The four attributes are given (by the template or the entry); stats and skill levels are integers."""
    for k in ("st", "dx", "iq", "ht"):
        if k not in base:
            raise EncounterFileError(f"{where}.stats.{k}: required (no template gives it)")
    for k in _INT_STATS:
        if k in base and not isinstance(base[k], int):
            raise EncounterFileError(f"{where}.stats.{k}: an integer, found {base[k]!r}")
    for name, lvl in skills.items():
        if not isinstance(lvl, int):
            raise EncounterFileError(f"{where}.stats.skills.{name}: an integer level, found {lvl!r}")


def build_stats(
    template: str | None,
    stats: dict[str, Any],
    equipment: dict[str, Any],
    options: dict[str, Any],
    where: str,
) -> GurpsStats:
    """A stat block from a bundled template and the encounter entry's overrides."""
    chars, mounts = _templates(), data.mounts()
    _check_entry(template, stats, equipment, where)
    base: dict[str, Any]
    kind = "mount" if template in mounts else "character"
    if kind == "mount":
        m = mounts[template]  # type: ignore[index]
        base = {
            "st": m.st, "dx": m.dx, "iq": m.iq, "ht": m.ht, "hp": m.hp, "will": m.will, "per": m.per,
            "basic_speed": m.basic_speed, "basic_move": m.basic_move, "sm": m.sm, "dodge": m.dodge,
            "combat_reflexes": m.combat_reflexes, "peripheral_vision": m.peripheral_vision,
            "war_trained": m.war_trained, "skills": dict(m.skills),
        }  # fmt: skip
        natural = tuple(
            Attack(a.name, a.name, a.skill, a.damage, a.type, a.reach, None, natural=True) for a in m.attacks
        )
        dr_feet = m.dr_feet
    else:
        base = dict(chars.get(template or "", {}))
        natural = (
            Attack("punch", "punch", "Brawling", "thr-1", "cr", (0,), 0, natural=True),
            Attack("kick", "kick", "Brawling", "thr", "cr", (0, 1), None, natural=True, skill_modifier=-2),
        )
        dr_feet = 0
    if "attacks" in stats:  # a stat block's own natural attacks (a mount's replace its template's)
        natural = _natural_attacks(stats["attacks"], f"{where}.stats.attacks")
    base.update({k: v for k, v in stats.items() if k not in ("skills", "attacks")})
    skills = dict(base.get("skills", {}))
    if "skills" in stats:
        if not isinstance(stats["skills"], dict):
            raise EncounterFileError(f"{where}.stats.skills: a mapping of skill name to level")
        skills.update(stats["skills"])
    _check_numbers(base, skills, where)
    st_, dx, iq, ht = base["st"], base["dx"], base["iq"], base["ht"]
    speed = float(base.get("basic_speed", (dx + ht) / 4))
    weapons = tuple(equipment.get("weapons", base.get("weapons", ())))
    for w in weapons:
        if w not in data.weapons():
            raise EncounterFileError(
                f"{where}.equipment.weapons: unknown {w!r}; allowed: {', '.join(data.weapons())}"
            )
    shield = equipment.get("shield", base.get("shield"))
    if shield is not None and shield not in data.armor_file().shields:
        raise EncounterFileError(
            f"{where}.equipment.shield: unknown {shield!r}; allowed: {', '.join(data.armor_file().shields)}"
        )
    armor = tuple(equipment.get("armor", base.get("armor", ())))
    barding = tuple(equipment.get("barding", ()))
    if kind == "mount":
        if armor:
            raise EncounterFileError(f"{where}.equipment.armor: a mount wears barding (equipment.barding)")
        dr, drc, flex = _armor_dr(barding, True, f"{where}.equipment.barding")
        if dr_feet:
            dr["foot"] = dr.get("foot", 0) + dr_feet
    else:
        if barding:
            raise EncounterFileError(f"{where}.equipment.barding: only mounts wear barding")
        dr, drc, flex = _armor_dr(armor, False, f"{where}.equipment.armor")
    saddle = equipment.get("saddle", base.get("saddle", "none"))
    if saddle not in SADDLES:
        raise EncounterFileError(f"{where}.equipment.saddle: {saddle!r}; allowed: {', '.join(SADDLES)}")
    flight = base.get("flight", "none")
    if flight not in FLIGHT:
        raise EncounterFileError(f"{where}.stats.flight: {flight!r}; allowed: {', '.join(FLIGHT)}")
    lim = base.get("flight_limitation", "none")
    if lim not in FLIGHT_LIMITATIONS:
        raise EncounterFileError(
            f"{where}.stats.flight_limitation: {lim!r}; allowed: {', '.join(FLIGHT_LIMITATIONS)}"
        )
    result = GurpsStats(
        kind=kind,
        st=st_,
        dx=dx,
        iq=iq,
        ht=ht,
        hp=int(base.get("hp", st_)),
        will=int(base.get("will", iq)),
        per=int(base.get("per", iq)),
        basic_speed=speed,
        basic_move=int(base.get("basic_move", math.floor(speed))),
        sm=int(base.get("sm", 0)),
        body="quadruped" if kind == "mount" else "humanoid",
        skills=skills,
        weapons=weapons,
        shield=shield,
        armor=armor + barding,
        dr=dr,
        dr_crushing=drc,
        flexible=frozenset(flex),
        combat_reflexes=bool(base.get("combat_reflexes", False)),
        high_pain_threshold=bool(base.get("high_pain_threshold", False)),
        peripheral_vision=bool(base.get("peripheral_vision", False)),
        encumbrance=int(base.get("encumbrance", 0)),
        saddle=saddle,
        iron_horseshoes=bool(equipment.get("iron_horseshoes", base.get("iron_horseshoes", False))),
        war_trained=bool(base.get("war_trained", False)),
        natural_attacks=natural,
        air_move=int(base.get("air_move", 0)),
        flight=flight,
        flight_limitation=lim,
        unused_to_cavalry=bool(options.get("unused_to_cavalry", base.get("unused_to_cavalry", False))),
        dodge_override=base.get("dodge") if kind == "mount" or "dodge" in stats else None,
    )
    return result


def _natural_attacks(raw: Any, where: str) -> tuple[Attack, ...]:
    """Natural attacks written in a stat block: ``{name, damage, type, reach[, skill][, skill_modifier]}``
    with fixed damage dice worked out at the creature's ST (``2d+2``, as the mounts of mounts.toml), a
    damage type of wounding.toml and reach in yards (0 = C)."""
    from fracas.rules.gurps4.dice import parse_dice

    if not isinstance(raw, list) or not raw:
        raise EncounterFileError(f"{where}: a list of attacks ({', '.join(_ATTACK_KEYS)})")
    out = []
    for i, a in enumerate(raw):
        w = f"{where}.{i}"
        if not isinstance(a, dict):
            raise EncounterFileError(f"{w}: a mapping ({', '.join(_ATTACK_KEYS)}), found {a!r}")
        for key in a:
            if key not in _ATTACK_KEYS:
                raise EncounterFileError(f"{w}.{key}: unknown; allowed: {', '.join(_ATTACK_KEYS)}")
        name, damage, kind, reach = a.get("name"), a.get("damage"), a.get("type"), a.get("reach")
        if not isinstance(name, str) or not name:
            raise EncounterFileError(f"{w}.name: the attack's name (trample, kick, bite, ...)")
        try:
            parse_dice(str(damage))
        except FracasError:
            raise EncounterFileError(f"{w}.damage: damage dice like 2d+2, found {damage!r}") from None
        if kind not in data.wounding():
            raise EncounterFileError(f"{w}.type: {kind!r}; allowed: {', '.join(data.wounding())}")
        if not (
            isinstance(reach, list) and reach and all(isinstance(r, int) and 0 <= r <= 20 for r in reach)
        ):
            raise EncounterFileError(f"{w}.reach: yards as a list, 0 for C (like [0, 1]), found {reach!r}")
        skill, mod = a.get("skill", "Brawling"), a.get("skill_modifier", 0)
        if not isinstance(skill, str) or not isinstance(mod, int) or isinstance(mod, bool):
            raise EncounterFileError(f"{w}: skill is a skill name (or DX), skill_modifier a whole number")
        out.append(
            Attack(name, name, skill, str(damage), kind, tuple(reach), None, natural=True, skill_modifier=mod)
        )
    return tuple(out)


def with_changes(stats: GurpsStats, **changes: Any) -> GurpsStats:
    return replace(stats, **changes)
