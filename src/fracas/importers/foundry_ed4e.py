"""Foundry VTT Earthdawn 4e (``ed4e``, earthdawn-vtt/fvtt-earthdawn4e) actor exports as ``ed4`` stat blocks.

An export is the actor's JSON (``_stats.systemId: "ed4e"``): ``system`` holds the data model of
``module/data/actor`` and ``items`` the embedded items. Foundry saves a data model's *source*: what the
system derives while preparing an actor (a character's attribute steps, Defenses, Armor, ratings) is not in
the file, so for a player character (``type: "character"``) this reader derives it the way the system's
``pc.mjs`` does, from what is stored:

- attribute value = ``initialValue`` + ``timesIncreased``; its step by the ED4 table;
- Defenses from the attribute values (physical DEX, mystical PER, social CHA) plus equipped shields'
  ``defenseBonus``; Physical Armor from equipped armor (``physical.armor`` + ``forgeBonus``), Mystic Armor
  from WIL plus armor's ``mystical.armor``;
- Unconsciousness, Death and Wound Threshold from TOU, with the disciplines' ``durability`` per circle;
- Movement from the namegiver item (``movement.walk``), a tail attack if the namegiver has ``tailAttack``.

Other actor types (``npc``, ``creature``, ...) store their steps and characteristics; those are taken as
written. Attack steps: the rank (``system.level``) of the Melee Weapons, Missile Weapons, Throwing Weapons or
Unarmed Combat talent or skill plus the Dexterity step; damage: the weapon's ``damage.baseStep`` +
``forgeBonus`` + the step of its ``damage.attribute`` (Strength by default) -- ED4 p.377.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from fracas.importers.ecte import ATTACK_ABILITIES, COMBAT_ABILITIES
from fracas.importers.gcs import slug
from fracas.importers.report import CharacterFileError, Imported, MappingReport, mapping
from fracas.rules.earthdawn.characteristics import ABBREVIATIONS

_FULL = ABBREVIATIONS  # the system's attribute keys are the books' abbreviations: dex -> dexterity
ATTRS = tuple(_FULL)
_SKILL_FOR_KIND = {
    "melee": "Melee Weapons",
    "missile": "Missile Weapons",
    "thrown": "Throwing Weapons",
    "unarmed": "Unarmed Combat",
}
_WIELDED = ("mainHand", "offHand", "twoHands", "tail", "equipped")


def read(path: Path, text: str) -> Imported:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CharacterFileError(
            f"{path}: not a Foundry actor export: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    if not isinstance(doc, dict):
        raise CharacterFileError(f"{path}: not a Foundry actor export: the top is not a JSON object")
    stats = doc.get("_stats")
    system_id = stats.get("systemId") if isinstance(stats, dict) else None
    if system_id is not None and system_id not in ("ed4e", "earthdawn4e"):
        raise CharacterFileError(
            f"{path}: _stats.systemId: {system_id!r}; fracas reads Foundry actors of the Earthdawn 4e "
            "system (ed4e)"
        )
    if not isinstance(doc.get("system"), dict):
        raise CharacterFileError(f"{path}: system: missing or not an object (a Foundry actor export has it)")
    if "attributes" not in doc["system"] and "dexterityStep" in doc["system"]:
        doc = _from_legacy(doc)
    if "items" in doc and not isinstance(doc["items"], list):
        raise CharacterFileError(f"{path}: items: expected a list")
    return _Reader(path, doc).run()


# The system before 0.8.2 (earthdawn4e) stored an actor's numbers flat; the system's own migration
# (config systemV0_8_2 and the actor migration) maps them to today's model.
_LEGACY = {
    "physicaldefense": ("characteristics", "defenses", "physical", "value"),
    "mysticdefense": ("characteristics", "defenses", "mystical", "value"),
    "socialdefense": ("characteristics", "defenses", "social", "value"),
    "physicalarmor": ("characteristics", "armor", "physical", "value"),
    "mysticarmor": ("characteristics", "armor", "mystical", "value"),
    "deathThreshold": ("characteristics", "health", "death"),
    "unconsciousThreshold": ("characteristics", "health", "unconscious"),
    "woundThreshold": ("characteristics", "health", "woundThreshold"),
    "movement": ("characteristics", "movement", "walk"),
    "recoverytestsrefresh": ("characteristics", "recoveryTestsResource", "max"),
    "initiativeStep": ("initiative",),
}


def _from_legacy(doc: dict[str, Any]) -> dict[str, Any]:
    """An export of the system before 0.8.2 in today's model (its numbers stored: read as an npc's)."""
    old = doc["system"]
    new: dict[str, Any] = {"attributes": {}, "characteristics": {}, "legacy": True}
    for a, full in _FULL.items():
        new["attributes"][a] = {"step": old.get(f"{full}Step")}
    for key, path in _LEGACY.items():
        if key in old:
            node = new
            for part in path[:-1]:
                node = node.setdefault(part, {})
            node[path[-1]] = old[key]
    if isinstance(old.get("karma"), dict):
        new["karma"] = old["karma"]
    return {**doc, "system": new, "type": "npc", "legacy_type": doc.get("type")}


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class _Reader:
    def __init__(self, path: Path, doc: dict[str, Any]) -> None:
        self.path = path
        self.doc = doc
        self.sys: dict[str, Any] = doc["system"]
        name = doc.get("name")
        self.name = name.strip() if isinstance(name, str) and name.strip() else path.stem
        st = mapping(doc.get("_stats"))
        self.type = str(doc.get("type") or "character")
        version = (
            f"system {st.get('systemVersion', '?')}, Foundry {st.get('coreVersion', '?')}, type {self.type}"
        )
        if self.sys.get("legacy"):
            version += f" (the system before 0.8.2, type {doc.get('legacy_type')!r}: its stored numbers)"
        self.report = MappingReport(str(path), "foundry-ed4e", version, self.name)
        self.stats: dict[str, Any] = {
            "kind": "character" if self.type in ("character", "npc") else "creature"
        }
        self.items = [it for it in doc.get("items") or [] if isinstance(it, dict)]
        self.part = "system"

    def fail(self, where: str, what: str) -> CharacterFileError:
        return CharacterFileError(f"{self.path}: {where}: {what}")

    def get(self, obj: Any, dotted: str) -> Any:
        for key in dotted.split("."):
            if not isinstance(obj, dict):
                return None
            obj = obj.get(key)
        return obj

    def items_of(self, *types: str) -> list[tuple[int, dict[str, Any]]]:
        return [
            (i, it)
            for i, it in enumerate(self.doc.get("items") or [])
            if isinstance(it, dict) and it.get("type") in types
        ]

    def run(self) -> Imported:
        try:
            return self._run()
        except CharacterFileError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as exc:
            raise self.fail(self.part, f"damaged: a value of an unexpected kind ({exc})") from None

    def _run(self) -> Imported:
        self.part = "system.attributes"
        derived = self.type == "character"
        self.steps = self.attributes(derived)
        self.part = "items"
        self.circles = self.disciplines()
        self.part = "system.characteristics"
        self.defenses_and_armor(derived)
        self.health(derived)
        self.part = "system.initiative / karma / movement"
        self.initiative_karma_movement()
        self.part = "items (talents, skills)"
        ranks = self.abilities()
        self.part = "items (weapons)"
        self.attacks(ranks)
        for i, it in self.items_of(
            "equipment",
            "poison",
            "spell",
            "knackAbility",
            "knackManeuver",
            "knackKarma",
            "path",
            "questor",
            "mask",
            "threadItem",
            "specialAbility",
            "power",
            "maneuver",
        ):
            self.report.unused_thing(
                f"items[{i}] {it.get('type')} {it.get('name')!r}", "no combat effect fracas models"
            )
        entry = {"name": self.name, "id": slug(self.name), "stats": self.stats}
        return Imported(entry, self.report, "ed4")

    def attributes(self, derived: bool) -> dict[str, int]:
        from fracas.rules.earthdawn import characteristics as ch

        attrs = self.sys.get("attributes")
        if not isinstance(attrs, dict):
            raise self.fail("system.attributes", "missing or not an object (dex, str, tou, per, wil, cha)")
        steps: dict[str, int] = {}
        self.values: dict[str, int] = {}
        for a in ATTRS:
            entry = attrs.get(a)
            where = f"system.attributes.{a}"
            if not isinstance(entry, dict):
                raise self.fail(where, "missing (an ed4e actor has dex, str, tou, per, wil and cha)")
            if derived:
                init, inc = _num(entry.get("initialValue")), _num(entry.get("timesIncreased", 0))
                if init is None or inc is None:
                    raise self.fail(
                        f"{where}.initialValue", f"expected a number, found {entry.get('initialValue')!r}"
                    )
                value = int(init + inc)
                if not 1 <= value <= 60:
                    raise self.fail(f"{where}.initialValue", f"an attribute value 1-60, found {value}")
                self.values[a] = value
                self.stats[_FULL[a]] = self.report.compute(
                    f"stats.{_FULL[a]}",
                    value,
                    f"{where}.initialValue {int(init)} + timesIncreased {int(inc)}",
                )
                steps[a] = self.report.compute(
                    f"{a} step", ch.attribute_step(value), f"value {value} by the ED4 attribute table"
                )
            else:
                step = _num(entry.get("step"))
                if step is None or not 1 <= step <= 40:
                    raise self.fail(f"{where}.step", f"expected a step 1-40, found {entry.get('step')!r}")
                steps[a] = int(step)
                self.stats[f"{a}_step"] = self.report.take(f"stats.{a}_step", int(step), f"{where}.step")
        return steps

    def disciplines(self) -> list[tuple[int, int]]:
        out = []
        for i, it in self.items_of("discipline"):
            level = _num(self.get(it, "system.level")) or 0
            dur = _num(self.get(it, "system.durability")) or 0
            out.append((int(level), int(dur)))
            self.report.unused_thing(
                f"items[{i}] discipline {it.get('name')!r} circle {int(level)}",
                f"durability {int(dur)} counted in the ratings",
            )
        return out

    def equipped(self, it: dict[str, Any]) -> bool:
        status = self.get(it, "system.itemStatus")
        return status in _WIELDED

    def defenses_and_armor(self, derived: bool) -> None:
        from fracas.rules.earthdawn import characteristics as ch

        shields = [(i, it) for i, it in self.items_of("shield") if self.equipped(it)]
        armors = [(i, it) for i, it in self.items_of("armor") if self.equipped(it)]
        for kind, attr, key in (
            ("physical", "dex", "physical_defense"),
            ("mystical", "per", "mystic_defense"),
            ("social", "cha", "social_defense"),
        ):
            stored = _num(self.get(self.sys, f"characteristics.defenses.{kind}.value"))
            if derived:
                base = ch.defense_rating(self.values[attr])
                bonus = (
                    sum(int(_num(self.get(it, f"system.defenseBonus.{kind}")) or 0) for _, it in shields)
                    if kind != "social"
                    else 0
                )
                self.stats[key] = self.report.compute(
                    f"stats.{key}",
                    base + bonus,
                    f"{attr.upper()} {self.values[attr]} -> Defense {base}"
                    + (f" + shield {bonus}" if bonus else "")
                    + " (ED4, as pc.mjs)",
                )
            elif stored:
                self.stats[key] = self.report.take(
                    f"stats.{key}", int(stored), f"system.characteristics.defenses.{kind}.value"
                )
        if derived:
            pa = sum(
                int(
                    (_num(self.get(it, "system.physical.armor")) or 0)
                    + (_num(self.get(it, "system.physical.forgeBonus")) or 0)
                )
                for _, it in armors
            )
            ma_items = sum(
                int(
                    (_num(self.get(it, "system.mystical.armor")) or 0)
                    + (_num(self.get(it, "system.mystical.forgeBonus")) or 0)
                )
                for _, it in armors
            )
            natural = ch.natural_mystic_armor(self.values["wil"])
            names = ", ".join(repr(it.get("name")) for _, it in armors) or "no armor worn"
            self.stats["physical_armor"] = self.report.compute(
                "stats.physical_armor", pa, f"equipped armor ({names})"
            )
            self.stats["mystic_armor"] = self.report.compute(
                "stats.mystic_armor",
                natural + ma_items,
                f"WIL {self.values['wil']} -> {natural} + armor {ma_items}",
            )
        else:
            for kind, key in (("physical", "physical_armor"), ("mystical", "mystic_armor")):
                v = _num(self.get(self.sys, f"characteristics.armor.{kind}.value"))
                if v is not None:
                    self.stats[key] = self.report.take(
                        f"stats.{key}", int(v), f"system.characteristics.armor.{kind}.value"
                    )
        if derived:
            penalty = sum(
                int(_num(self.get(it, "system.initiativePenalty")) or 0) for _, it in armors + shields
            )
            if penalty:
                self.stats["initiative"] = self.report.compute(
                    "stats.initiative",
                    self.steps["dex"] - penalty,
                    f"Dexterity step {self.steps['dex']} - armor and shield initiativePenalty {penalty}",
                )
        for i, it in self.items_of("armor", "shield"):
            if not self.equipped(it):
                self.report.unused_thing(f"items[{i}] {it.get('type')} {it.get('name')!r}", "not equipped")

    def health(self, derived: bool) -> None:
        from fracas.rules.earthdawn import characteristics as ch

        h = "system.characteristics.health"
        if derived:
            tou = self.values["tou"]
            # durability: the highest of the disciplines at each circle, summed (pc.mjs)
            top = max((c for c, _ in self.circles), default=0)
            dur = sum(max((d for c, d in self.circles if lv <= c), default=0) for lv in range(1, top + 1))
            unc = ch.unconsciousness_rating(tou) + dur
            death = ch.death_rating(tou) + dur + top
            self.stats["unconsciousness"] = self.report.compute(
                "stats.unconsciousness",
                unc,
                f"TOU {tou} -> {ch.unconsciousness_rating(tou)} + durability {dur}",
            )
            self.stats["death"] = self.report.compute(
                "stats.death", death, f"TOU {tou} -> {ch.death_rating(tou)} + durability {dur} + circle {top}"
            )
            self.stats["wound_threshold"] = self.report.compute(
                "stats.wound_threshold", ch.wound_threshold(tou), f"TOU {tou} (ED4)"
            )
        else:
            for key, field in (
                ("unconsciousness", "unconscious"),
                ("death", "death"),
                ("wound_threshold", "woundThreshold"),
            ):
                v = _num(self.get(self.sys, f"characteristics.health.{field}"))
                if v:
                    self.stats[key] = self.report.take(f"stats.{key}", int(v), f"{h}.{field}")
            rec = _num(self.get(self.sys, "characteristics.recoveryTestsResource.max"))
            if rec:
                self.stats["recovery_tests"] = self.report.take(
                    "stats.recovery_tests", int(rec), "system.characteristics.recoveryTestsResource.max"
                )
        for f in ("damage.standard", "damage.stun", "wounds"):
            v = _num(self.get(self.sys, f"characteristics.health.{f}"))
            if v:
                self.report.unusable_thing(f"{h}.{f} = {int(v)}", "a fight starts unhurt")

    def initiative_karma_movement(self) -> None:
        init = _num(self.sys.get("initiative"))
        if init and self.type != "character":
            self.stats["initiative"] = self.report.take("stats.initiative", int(init), "system.initiative")
        karma = mapping(self.sys.get("karma"))
        v, step = _num(karma.get("value")), _num(karma.get("step"))
        if v is not None:
            self.stats["karma"] = self.report.take("stats.karma", max(0, int(v)), "system.karma.value")
        if step:
            self.stats["karma_step"] = self.report.take("stats.karma_step", int(step), "system.karma.step")
        walk = _num(self.get(self.sys, "characteristics.movement.walk"))
        src = "system.characteristics.movement.walk"
        namegivers = self.items_of("namegiver")
        self.tail = False
        if namegivers:
            i, ng = namegivers[0]
            self.report.unused_thing(
                f"items[{i}] namegiver {ng.get('name')!r}", "its movement and tail are read"
            )
            self.tail = bool(self.get(ng, "system.tailAttack"))
            ng_walk = _num(self.get(ng, "system.movement.walk"))
            if self.type == "character" and ng_walk:
                walk, src = ng_walk, f"items[{i}].system.movement.walk (namegiver {ng.get('name')!r})"
        if walk:
            self.stats["movement"] = self.report.take("stats.movement", int(walk), src)
        fly = _num(self.get(self.sys, "characteristics.movement.fly"))
        if fly:
            self.report.unusable_thing(f"movement.fly {int(fly)}", "a stat block has one Movement rate")

    def abilities(self) -> dict[str, tuple[int, str]]:
        ranks: dict[str, tuple[int, str]] = {}
        for i, it in self.items_of("talent", "skill", "devotion"):
            name = str(it.get("name") or "").strip()
            level = int(_num(self.get(it, "system.level")) or _num(self.get(it, "system.ranks")) or 0)
            if level <= 0:
                continue
            src = f"items[{i}] {it.get('type')} {name!r} level {level}"
            canonical = ATTACK_ABILITIES.get(name.lower())
            if canonical is not None:
                if canonical not in ranks or ranks[canonical][0] < level:
                    ranks[canonical] = (level, src)
            elif name.lower() in COMBAT_ABILITIES:
                self.report.unusable_thing(src, "a stat block carries no talents: its effect is not applied")
            else:
                self.report.unused_thing(src, "no combat effect fracas models")
        return ranks

    def weapon_kind(self, it: dict[str, Any]) -> str:
        t = str(self.get(it, "system.weaponType") or "melee").lower()
        if "missile" in t or "bow" in t or "ranged" in t:
            return "missile"
        if "throw" in t:
            return "thrown"
        if "unarmed" in t:
            return "unarmed"
        return "melee"

    def attacks(self, ranks: dict[str, tuple[int, str]]) -> None:
        dex = self.steps["dex"]
        attacks: list[dict[str, Any]] = []
        for i, it in self.items_of("weapon"):
            name = str(it.get("name") or f"weapon {i}")
            where = f"items[{i}]"
            if not self.equipped(it):
                self.report.unused_thing(
                    f"{where} weapon {name!r}",
                    f"not in hand (itemStatus {self.get(it, 'system.itemStatus')!r})",
                )
                continue
            base = _num(self.get(it, "system.damage.baseStep"))
            if base is None:
                base = _num(self.get(it, "system.damagestep"))  # the system before 0.8.2
            if base is None:
                self.report.unusable_thing(
                    f"{where} weapon {name!r}", "no system.damage.baseStep: its damage cannot be read"
                )
                continue
            forge = int(_num(self.get(it, "system.forgeBonus")) or 0)
            attr = str(self.get(it, "system.damage.attribute") or "str")
            if attr not in self.steps:
                self.report.unusable_thing(
                    f"{where} weapon {name!r}", f"damage attribute {attr!r} is not an ED4 attribute"
                )
                continue
            kind = self.weapon_kind(it)
            skill = _SKILL_FOR_KIND[kind]
            rank, src = ranks.get(skill, (0, f"no {skill}: rank 0"))
            attack: dict[str, Any] = {
                "name": name,
                "kind": kind,
                "step": dex + rank,
                "damage": int(base) + forge + self.steps[attr],
            }
            n = len(attacks)
            self.report.compute(
                f"stats.attacks[{n}].step",
                attack["step"],
                f"{skill} rank {rank} ({src}) + Dexterity step {dex} (ED4 p.377)",
            )
            self.report.compute(
                f"stats.attacks[{n}].damage",
                attack["damage"],
                f"{where}.system.damage.baseStep {int(base)} + forgeBonus {forge} + "
                f"{attr.upper()} step {self.steps[attr]} (ED4 p.377)",
            )
            if kind in ("missile", "thrown"):
                short = int(_num(self.get(it, "system.range.shortMax")) or 0)
                long_ = int(_num(self.get(it, "system.range.longMax")) or 0)
                if short < 1 or long_ < short:
                    self.report.unusable_thing(
                        f"{where} weapon {name!r}", f"a {kind} weapon without system.range shortMax/longMax"
                    )
                    continue
                attack["range"] = self.report.take(
                    f"stats.attacks[{n}].range", [short, long_], f"{where}.system.range.shortMax/longMax"
                )
            size = _num(self.get(it, "system.size"))
            if size:
                attack["size"] = int(size)
            attacks.append(attack)
        st = self.steps["str"]
        urank, usrc = ranks.get("Unarmed Combat", (0, "no Unarmed Combat: rank 0"))
        attacks.append({"name": "Unarmed", "kind": "unarmed", "step": dex + urank, "damage": st})
        self.report.compute(
            f"stats.attacks[{len(attacks) - 1}]",
            f"Unarmed step {dex + urank}, damage {st}",
            f"Unarmed Combat rank {urank} ({usrc}) + Dexterity step {dex}; "
            "damage = Strength step (ED4 p.377)",
        )
        if self.tail:
            # an Unarmed Combat test and a Damage test on the Strength step (p.386; the same sums as
            # rules.ed4.options.tail_attack_steps, which sits above the importers' layer)
            step, dmg = dex + urank, st
            attacks.append({"name": "Tail", "kind": "natural", "step": step, "damage": dmg})
            self.report.compute(
                f"stats.attacks[{len(attacks) - 1}]",
                f"Tail step {step}, damage {dmg}",
                f"namegiver tailAttack: Dexterity step {dex} + Unarmed Combat rank {urank}; "
                f"damage Strength step {st} (ED4 p.386)",
            )
        self.stats["attacks"] = attacks
