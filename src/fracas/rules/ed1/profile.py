"""What the ED1 rules read of a combatant: the shared :class:`CombatProfile` plus the 1st Edition's numbers.

ED1 differs from ED4 in what a combatant's card carries (``001_694a1556573a8dc9.txt``, ch.12):

- **Initiative dice** (§Combat-Round.2): a player or gamemaster *character* rolls his Dexterity dice, lowered
  by armor and shields and raised by talents; a *creature* rolls the Initiative dice of its description.
  The profile keeps the pieces (``armor_penalty``, ``shield_penalty``, ``initiative_talents``) so that every
  Initiative test lists them as modifiers.
- **Combat Movement and Full Movement** (§Movement, the Attribute Table p.52, reference 2.2): ``movement`` is
  the Combat Movement and ``full_movement`` the Full Movement, in yards per round. A rider moves at his
  mount's (``mount`` names it, ``mount_strength`` is its Strength step for a charge) [choice: Mounted Combat
  is not in the text held].

A profile is built from a bundled template (``EarthdawnStats`` of the ED1 data) or from an encounter file's
``stats:`` block; a block's attribute *values* are read through the ED1 Attribute Table
(``ed1/data/attributes.toml``), never the ED4 formulas.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pydantic import Field, ValidationError

from fracas.errors import EncounterFileError, RuleNotImplemented
from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile, StatBlock, profile_from_stats


@dataclass(frozen=True, slots=True)
class Ed1Profile(CombatProfile):
    """:class:`CombatProfile` with the ED1 Initiative pieces and Full Movement (yards per round)."""

    full_movement: int = 24
    armor_penalty: int = 0
    armor_name: str = ""
    shield_penalty: int = 0
    shield_name: str = ""
    initiative_talents: tuple[tuple[str, int], ...] = ()
    mount: str | None = None
    mount_strength: int = 0
    flying: bool = False

    @property
    def character(self) -> bool:
        """Rolls Dexterity dice for Initiative (player and gamemaster characters), not creature dice."""
        return self.kind == "character"


def _base_fields(p: CombatProfile) -> dict[str, Any]:
    return {f.name: getattr(p, f.name) for f in dataclasses.fields(CombatProfile)}


def profile_from_ed1_stats(stats: Any, name: str | None = None, catalog: Any = None) -> Ed1Profile:
    """An ED1 profile from a bundled ED1 ``EarthdawnStats`` (character or creature).

    A mounted character (``stats.mount``) takes its mount's Combat and Full Movement and remembers the
    mount's Strength step (charging attack) [choice].
    """
    base = _base_fields(profile_from_stats(stats, name))
    armor = stats.armor
    shield = stats.shield
    talents = tuple(
        (t, r) for t, r in sorted((getattr(stats, "initiative_talents", None) or {}).items()) if r
    )
    mount_name = None
    mount_strength = 0
    movement = stats.movement
    full = stats.full_movement
    if stats.mount:
        from fracas.rules.earthdawn import catalog as cat_mod

        cat = catalog or cat_mod.get_catalog("ed1")
        mount = cat.template(stats.mount)
        mount_name = mount.name
        mount_strength = mount.strength
        movement, full = mount.movement, mount.full_movement
    base["movement"] = movement
    return Ed1Profile(
        **base,
        full_movement=full,
        armor_penalty=armor.initiative_penalty if armor else 0,
        armor_name=armor.name if armor else "",
        shield_penalty=shield.initiative_penalty if shield else 0,
        shield_name=shield.name if shield else "",
        initiative_talents=talents,
        mount=mount_name,
        mount_strength=mount_strength,
        flying=stats.flying_movement is not None,
    )


class Ed1StatBlock(StatBlock):
    """An ED1 stat block in an encounter file: the ED4 block's fields plus Full Movement, Initiative
    talents and flight. ``movement`` is the Combat Movement (yards); ``full_movement`` defaults to twice it;
    attribute *values* (1-30) go through the ED1 Attribute Table."""

    movement: int = Field(default=24, ge=0, le=400)
    full_movement: int | None = Field(default=None, ge=0, le=800)
    initiative_talents: dict[str, int] = Field(default_factory=dict)
    flying: bool = False
    karma_step: int = Field(default=4, ge=1, le=20)


_ATTRS = ("dexterity", "strength", "toughness", "perception", "willpower", "charisma")
_STEP = {
    "dexterity": "dex_step",
    "strength": "str_step",
    "toughness": "tou_step",
    "perception": "per_step",
    "willpower": "wil_step",
    "charisma": "cha_step",
}


def profile_from_ed1_block(data: dict[str, Any], name: str, where: str) -> Ed1Profile:
    """An ED1 profile from an encounter file's ``stats:`` mapping; errors name ``where`` and the field.

    Characteristics not given are read from the ED1 Attribute Table (values 1-30): steps, Physical Defense
    (DEX), Spell Defense (PER, stored as ``mystic_defense``), Social Defense (CHA), Mystic Armor (WIL),
    Wound Threshold, Unconsciousness and Death Ratings and Recovery tests (TOU); Knockdown = Strength step;
    the creature's Initiative = Dexterity step unless ``initiative`` is given.
    """
    from fracas.rules.earthdawn.catalog import ed1_attribute_row

    try:
        block = Ed1StatBlock.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err["loc"])
            msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
            lines.append(f"{where}.stats.{loc}: {msg} (found {err.get('input')!r})")
        raise EncounterFileError("\n".join(lines)) from None
    errors = []
    rows: dict[str, Any] = {}
    for attr in _ATTRS:
        v = getattr(block, attr)
        if v is not None:
            if v > 30:
                errors.append(
                    f"{where}.stats.{attr}: the ED1 Attribute Table holds values 1-30, found {v}; "
                    f"give {_STEP[attr]} and the characteristics instead"
                )
                continue
            rows[attr] = ed1_attribute_row(v)
    if errors:
        raise EncounterFileError("\n".join(errors))

    def step(attr: str) -> int:
        given = getattr(block, _STEP[attr])
        if given is not None:
            return int(given)
        return rows[attr].step if attr in rows else 5

    tou = rows.get("toughness")
    unc: int | None
    if block.unconsciousness == "NA":
        unc = None
    else:
        unc = block.unconsciousness or (tou.unconsciousness if tou else 20)
    attacks = []
    for i, a in enumerate(block.attacks):
        if a.stun:
            raise RuleNotImplemented(
                f"{where}.stats.attacks.{i}.stun: Stun damage (ed1/damage/stun) is not in the ED1 combat "
                "text held (the Combat Options are not in it); fracas does not carry the ED4 rule over"
            )
        short = long_ = None
        minimum = 0
        if a.range is not None:
            if len(a.range) == 3:
                minimum, short, long_ = a.range
            else:
                short, long_ = a.range
        attacks.append(
            AttackProfile(
                a.name, a.kind, a.step, a.damage, a.against, a.armor, short, long_, minimum,
                a.karma, a.karma_damage, a.stun, a.size,
            )
        )  # fmt: skip
    dex_step = step("dexterity")
    str_step = step("strength")
    return Ed1Profile(
        name=name,
        kind=block.kind,
        dexterity=block.dexterity or 0,
        dex_step=dex_step,
        str_step=str_step,
        tou_step=step("toughness"),
        per_step=step("perception"),
        wil_step=step("willpower"),
        cha_step=step("charisma"),
        initiative_step=block.initiative or dex_step,
        physical_defense=block.physical_defense or (rows["dexterity"].defense if "dexterity" in rows else 7),
        mystic_defense=block.mystic_defense or (rows["perception"].defense if "perception" in rows else 7),
        social_defense=block.social_defense or (rows["charisma"].defense if "charisma" in rows else 7),
        physical_armor=block.physical_armor,
        mystic_armor=(
            block.mystic_armor
            if block.mystic_armor is not None
            else (rows["willpower"].mystic_armor if "willpower" in rows else 0)
        ),
        wound_threshold=block.wound_threshold or (tou.wound_threshold if tou else 8),
        unconsciousness=unc,
        death=block.death or (tou.death if tou else 25),
        recovery_tests=(
            block.recovery_tests if block.recovery_tests is not None else (tou.recovery_tests if tou else 2)
        ),
        recovery_step=step("toughness"),
        knockdown_step=block.knockdown or str_step,
        movement=block.movement,
        karma=block.karma,
        karma_step=block.karma_step,
        actions=block.actions,
        attacks=tuple(attacks),
        full_movement=block.full_movement if block.full_movement is not None else 2 * block.movement,
        initiative_talents=tuple(sorted((k, v) for k, v in block.initiative_talents.items() if v)),
        flying=block.flying,
    )


OVERRIDABLE = {
    "initiative": "initiative_step",
    "physical_defense": "physical_defense",
    "spell_defense": "mystic_defense",
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
    "full_movement": "full_movement",
    "karma": "karma",
    "actions": "actions",
}


def override_ed1(profile: Ed1Profile, data: dict[str, Any], where: str) -> Ed1Profile:
    """A template's ED1 profile with some numbers replaced (``stats:`` next to ``template:``).

    ``initiative_talents: {name: steps}`` adds talents that raise Initiative.
    """
    changes: dict[str, Any] = {}
    errors = []
    for key, value in data.items():
        if key == "initiative_talents":
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in value.items()
            ):
                errors.append(
                    f"{where}.stats.initiative_talents: expected {{talent: steps}}, found {value!r}"
                )
                continue
            changes["initiative_talents"] = tuple(sorted((k, v) for k, v in value.items() if v))
            continue
        if key not in OVERRIDABLE:
            allowed = ", ".join(sorted([*OVERRIDABLE, "initiative_talents"]))
            errors.append(f"{where}.stats.{key}: cannot override {key!r} on a template; allowed: {allowed}")
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
