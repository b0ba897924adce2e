"""The GURPS data files (``data/*.toml``), validated at load with pydantic.

Numbers only; each file's header comment names the source of its values (REFERENCE.md ->
reference/gurps.md, or the rules text 002). ``tests/gurps4/test_gurps_data.py`` checks them.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from fracas.errors import FracasError, RuleNotImplemented
from fracas.rules.gurps4.dice import DamageDice, parse_dice

DAMAGE_TYPES = ("cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "tox", "fat")


class DataFileError(FracasError):
    """A GURPS data file that does not validate; names the file and the field."""

    exit_code = 2


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _read(name: str) -> dict[str, Any]:
    text = resources.files("fracas.rules.gurps4").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _validate(name: str, model: type[BaseModel], raw: Any) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise DataFileError(f"gurps4 data/{name}: {where}: {err['msg']}") from None


# ---------------------------------------------------------------- damage by ST (p.B16)


class DamageTable(_Model):
    rows: dict[int, tuple[str, str]]

    @field_validator("rows")
    @classmethod
    def _dice(cls, rows: dict[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
        for st, (thr, sw) in rows.items():
            parse_dice(thr)
            parse_dice(sw)
            if st < 1:
                raise ValueError(f"ST {st} < 1")
        return rows


@cache
def damage_table() -> dict[int, tuple[DamageDice, DamageDice]]:
    t = _validate("damage_by_st.toml", DamageTable, _read("damage_by_st.toml"))
    return {st: (parse_dice(a), parse_dice(b)) for st, (a, b) in t.rows.items()}


# ---------------------------------------------------------------- wounding (p.B379)


class WoundingType(_Model):
    multiplier: float = Field(gt=0)
    min_basic: int = Field(ge=0)


class WoundingTable(_Model):
    types: dict[str, WoundingType]


@cache
def wounding() -> dict[str, WoundingType]:
    t = _validate("wounding.toml", WoundingTable, _read("wounding.toml"))
    unknown = set(t.types) - set(DAMAGE_TYPES)
    if unknown or set(DAMAGE_TYPES) - set(t.types):
        raise DataFileError(f"gurps4 data/wounding.toml: damage types must be exactly {DAMAGE_TYPES}")
    return dict(t.types)


# ---------------------------------------------------------------- hit locations (p.B398-400, B552)


class HitLocation(_Model):
    roll: tuple[int, ...]
    penalty: int = Field(le=0)
    penalty_shield: int | None = None
    extra_dr: int = 0
    multiplier: dict[str, float] = {}
    cap: dict[str, float] = {}
    only_types: tuple[str, ...] = ()
    knockdown_major: int = 0
    shock_knockdown: bool = False
    cripple_divisor: int = 0
    miss_by_one_torso: bool = False

    @field_validator("roll")
    @classmethod
    def _roll(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 3 <= r <= 18 for r in v):
            raise ValueError("3d results are 3..18")
        return v


@cache
def hit_locations(body: str = "humanoid") -> dict[str, HitLocation]:
    raw = _read("hit_locations.toml")
    if body not in raw:
        raise RuleNotImplemented(f"hit location table {body!r} (known: {', '.join(raw)})")
    table = {name: _validate("hit_locations.toml", HitLocation, row) for name, row in raw[body].items()}
    seen = sorted(r for loc in table.values() for r in loc.roll)
    if seen != list(range(3, 19)):
        raise DataFileError(f"gurps4 data/hit_locations.toml: {body} rolls must cover 3..18 once each")
    return table


# ---------------------------------------------------------------- SM and speed/range (p.B550)


class SizeTable(_Model):
    size_modifier: tuple[tuple[float, int], ...]
    speed_range: tuple[tuple[float, int], ...]


@cache
def size_table() -> SizeTable:
    return _validate("size_speed_range.toml", SizeTable, _read("size_speed_range.toml"))


# ---------------------------------------------------------------- posture (p.B551)


class Posture(_Model):
    melee: int
    defense: int
    target: int
    move_fraction: float
    move_yards: int = 0
    hexes: int = 1


@cache
def postures() -> dict[str, Posture]:
    return {k: _validate("postures.toml", Posture, v) for k, v in _read("postures.toml").items()}


# ---------------------------------------------------------------- maneuvers (p.B363-366)


class ManeuverSpec(_Model):
    movement: Literal["none", "step", "half", "full"]
    defense: Literal["any", "none", "dodge_block"]
    retreat: bool
    attacks: int
    skill_bonus_melee: int = 0
    skill_bonus_ranged: int = 0
    skill_cap_melee: int | None = None
    damage_bonus: int = 0
    damage_bonus_per_die: int = 0
    defense_bonus: int = 0


@cache
def maneuvers() -> dict[str, ManeuverSpec]:
    return {k: _validate("maneuvers.toml", ManeuverSpec, v) for k, v in _read("maneuvers.toml").items()}


# ---------------------------------------------------------------- weapons (p.B271-278)


class RangedStats(_Model):
    acc: int
    half: float
    max: float
    mult: bool
    bulk: int
    rof: int = 1
    reload: int = 1
    noisy: bool = False


class WeaponMode(_Model):
    name: str
    damage: str
    type: str
    reach: tuple[int, ...]
    parry: int | Literal["none"] = 0
    unbalanced: bool = False
    fencing: bool = False
    two_handed: bool = False

    @field_validator("type")
    @classmethod
    def _type(cls, v: str) -> str:
        if v not in DAMAGE_TYPES:
            raise ValueError(f"damage type {v!r} not one of {DAMAGE_TYPES}")
        return v

    @field_validator("damage")
    @classmethod
    def _damage(cls, v: str) -> str:
        base = v[:3]
        if base in ("thr", "sw+", "sw-") or v == "sw" or v.startswith("thr"):
            rest = v[3:] if v.startswith("thr") else v[2:]
            if rest and not rest.lstrip("+-").isdigit():
                raise ValueError(f"bad damage {v!r}")
            return v
        parse_dice(v)
        return v


class Weapon(_Model):
    skill: str
    page: str
    min_st: int = 0
    couchable: bool = False
    jousting: bool = False
    skill_modifier: int = 0
    ranged: RangedStats | None = None
    modes: tuple[WeaponMode, ...]


@cache
def weapons() -> dict[str, Weapon]:
    raw = _read("weapons.toml")["weapons"]
    return {k: _validate("weapons.toml", Weapon, v) for k, v in raw.items()}


# ---------------------------------------------------------------- armor, barding, shields (p.B282-287)


class Armor(_Model):
    page: str
    dr: int = Field(ge=0)
    dr_vs_crushing: int | None = None
    locations: tuple[str, ...]
    flexible: bool = False
    move_penalty_per_pair_of_legs: int = 0


class Shield(_Model):
    page: str
    db: int = Field(ge=0)
    dr: int
    hp: int
    attack_penalty: int = 0


class ArmorFile(_Model):
    armor: dict[str, Armor]
    barding: dict[str, Armor]
    shields: dict[str, Shield]


@cache
def armor_file() -> ArmorFile:
    return _validate("armor.toml", ArmorFile, _read("armor.toml"))


# ---------------------------------------------------------------- mounts (p.B459-460)


class NaturalAttack(_Model):
    name: str
    damage: str
    type: str
    reach: tuple[int, ...]
    skill: str

    @field_validator("damage")
    @classmethod
    def _damage(cls, v: str) -> str:
        parse_dice(v)
        return v


class Mount(_Model):
    page: str
    st: int
    hp: int
    dx: int
    iq: int
    ht: int
    will: int
    per: int
    basic_speed: float
    basic_move: int
    enhanced_move: int
    dodge: int
    sm: int
    weight_lb: int
    combat_reflexes: bool = False
    peripheral_vision: bool = False
    war_trained: bool = False
    dr_feet: int = 0
    skills: dict[str, int] = {}
    attacks: tuple[NaturalAttack, ...] = ()


@cache
def mounts() -> dict[str, Mount]:
    raw = _read("mounts.toml")["mounts"]
    out: dict[str, Mount] = {}
    for name, row in raw.items():
        if "based_on" in row:
            base = dict(raw[row["based_on"]])
            base.update({k: v for k, v in row.items() if k != "based_on"})
            row = base
        out[name] = _validate("mounts.toml", Mount, row)
    return out


# ---------------------------------------------------------------- Mount Loss of Control Table (p.B397)

LOSS_EFFECTS = ("out_of_control", "falls", "bolts", "rears", "throws_rider", "stops")


class LossResult(_Model):
    effect: Literal["out_of_control", "falls", "bolts", "rears", "throws_rider", "stops"]
    placeholder: bool
    note: str = ""


class LossTable(_Model):
    results: dict[int, LossResult]

    @field_validator("results")
    @classmethod
    def _cover(cls, v: dict[int, LossResult]) -> dict[int, LossResult]:
        if sorted(v) != list(range(3, 19)):
            raise ValueError("results must cover 3d results 3..18")
        if v[12].effect != "falls":
            raise ValueError("result 12 is 'falls' (rules text 002 p.B397)")
        return v


@cache
def loss_of_control_table() -> dict[int, LossResult]:
    raw = _read("mount_loss_of_control.toml")
    return dict(_validate("mount_loss_of_control.toml", LossTable, raw).results)


# ---------------------------------------------------------------- Spooked Mounts / Riding (p.B397, B217)


class RidingNumbers(_Model):
    not_war_trained_risky_move: int
    well_broken_not_war_trained: int
    not_fully_broken: int
    no_hands_on_reins: int
    one_hand_on_reins: int
    animal_knows_and_likes_rider: int
    not_trained_for_riding: int
    mount_skill_bonus: int
    stirrups_control: int
    war_saddle_stay_seated: int
    war_saddle_unconscious_stay_percent: int
    ready_weapon_on_bucking_mount_dx: int


@cache
def riding_numbers() -> RidingNumbers:
    return _validate("spooked_mounts.toml", RidingNumbers, _read("spooked_mounts.toml")["riding"])
