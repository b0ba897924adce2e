"""GURPS Character Sheet (``.gcs``) files, data versions 2 to 5 (GCS 4.20 and later), as gurps4 combatants.

The format is GCS's own (richardwilkes/gcs, ``model/jio/version.go``: data versions 2 to 5; weapons carry a
sub-version ``sv`` since GCS 5.38). Its ``calc`` blocks hold the values GCS worked out, so no GURPS arithmetic
is redone here: ``attributes[].calc.value``, ``calc.move[5]`` and ``calc.dodge[5]`` by encumbrance level,
``skills[].calc.level``, weapons' ``calc.level`` and ``calc.damage``, DR per hit location under the body
type's ``locations[].calc.dr``. Only the encumbrance level is not stored: it is the carried weight against
Basic Lift (p.B17: None up to 1x, Light 2x, Medium 3x, Heavy 6x, Extra-Heavy 10x Basic Lift).

fracas's ``gurps4`` stat block names its weapons, armor and shields by rows of its own tables
(``rules/gurps4/data``); an item of the file is matched to a row by its name, and the report says what the
row gives where it differs from the file. Version differences read here: versions 2 and 3 call traits
``advantages`` and the body ``hit_locations`` and mark each item's kind with ``type``; version 4 says
``traits`` and ``body_type``; version 5 drops ``type`` for the first letter of each item's ``id`` (``t``/``T``
trait/container, ``s`` skill, ``q`` technique, ``e``/``E`` equipment/container, ``w``/``W`` melee/ranged
weapon), and weapons saved by GCS 5.38 or later carry ``sv``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fracas.importers.report import CharacterFileError, Imported, MappingReport

VERSIONS = (2, 3, 4, 5)
ENCUMBRANCE = ("None", "Light", "Medium", "Heavy", "Extra-Heavy")
_BL_MULTIPLES = (1, 2, 3, 6, 10)  # p.B17
_LB = {
    "lb": 1.0,
    "#": 1.0,
    "oz": 1 / 16,
    "kg": 2.0,
    "g": 0.002,
    "tn": 2000.0,
    "t": 2000.0,
}  # p.B17: 1 kg = 2 lb

# A name in the file (lower case, without TL) -> a row of rules/gurps4/data/weapons.toml
_WEAPONS = {
    "broadsword": "broadsword",
    "thrusting broadsword": "broadsword",
    "shortsword": "shortsword",
    "short sword": "shortsword",
    "axe": "axe",
    "mace": "mace",
    "spear": "spear",
    "dagger": "dagger",
    "lance": "lance",
    "jousting lance": "jousting_lance",
    "short bow": "short_bow",
    "regular bow": "regular_bow",
    "bow": "regular_bow",
    "composite bow": "composite_bow",
    "javelin": "javelin",
    "matchlock musket": "matchlock_musket",
    "musket": "matchlock_musket",
}
_SHIELDS = {
    "buckler": "light_shield",
    "light shield": "light_shield",
    "small shield": "small_shield",
    "medium shield": "medium_shield",
    "large shield": "large_shield",
}
_ARMOR = {
    "leather armor": "leather_armor",
    "mail shirt": "mail_shirt",
    "scale armor": "scale_armor",
    "steel corselet": "steel_corselet",
    "plate arms": "plate_arms",
    "heavy plate arms": "plate_arms",
    "plate legs": "plate_legs",
    "heavy plate legs": "plate_legs",
    "pot helm": "pot_helm",
    "pot-helm": "pot_helm",
}
_NATURAL = ("punch", "kick", "kick w/boots", "bite", "trample", "butt", "claw", "strike", "hooves", "teeth")
# traits that change a gurps4 stat block: trait name (lower case) -> stat
_FLAG_TRAITS = {
    "combat reflexes": "combat_reflexes",
    "high pain threshold": "high_pain_threshold",
    "peripheral vision": "peripheral_vision",
}
_ANIMAL_TRAITS = ("quadruped", "horizontal", "domestic animal", "wild animal", "no fine manipulators")
# mount templates of rules/gurps4/data/mounts.toml, chosen by a word of the animal's name
_MOUNT_WORDS = (
    ("warhorse", "heavy_warhorse"),
    ("war horse", "heavy_warhorse"),
    ("heavy", "heavy_warhorse"),
    ("destrier", "heavy_warhorse"),
    ("cavalry", "cavalry_horse"),
    ("draft", "draft_horse"),
    ("race", "race_horse"),
    ("pony", "pony"),
    ("saddle", "saddle_horse"),
)


# ----------------------------------------------------------------------------------------- reading


def read(path: Path, text: str) -> Imported:
    """A ``.gcs`` file's text -> one combatant entry and its report (errors name the file and field)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.lstrip().startswith("<"):
            raise CharacterFileError(
                f"{path}: an XML character file (GCS before 4.20); open it in GCS 4.20 or later and save it "
                "to write the JSON format fracas reads (data versions 2 to 5)"
            ) from None
        raise CharacterFileError(
            f"{path}: not a GCS character file: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    if not isinstance(doc, dict):
        raise CharacterFileError(f"{path}: not a GCS character file: the top is not a JSON object")
    version = doc.get("version")
    if "version" not in doc:
        raise CharacterFileError(f"{path}: version: missing (a GCS character file has a data version 2-5)")
    if not isinstance(version, int) or isinstance(version, bool) or version not in VERSIONS:
        raise CharacterFileError(
            f"{path}: version: {version!r} is not a GCS data version fracas reads (2 to 5: GCS 4.20 to 5.x)"
        )
    if not isinstance(doc.get("attributes"), list):
        raise CharacterFileError(f"{path}: attributes: missing or not a list (a GCS character has them)")
    return _Reader(path, doc, version).run()


class _Reader:
    def __init__(self, path: Path, doc: dict[str, Any], version: int) -> None:
        self.path = path
        self.doc = doc
        self.version = version
        profile = doc.get("profile") if isinstance(doc.get("profile"), dict) else {}
        name = profile.get("name") if isinstance(profile.get("name"), str) and profile.get("name") else None
        self.name = name or path.stem
        self.report = MappingReport(str(path), "gcs", f"version {version}", self.name)
        self.stats: dict[str, Any] = {}
        self.equipment: dict[str, Any] = {}

    # ----- helpers
    def fail(self, where: str, what: str) -> CharacterFileError:
        return CharacterFileError(f"{self.path}: {where}: {what}")

    def _number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            if isinstance(value, str):
                try:
                    return float(value)
                except ValueError:
                    pass
            raise self.fail(where, f"expected a number, found {value!r}")
        return float(value)

    def _kind(self, item: dict[str, Any], family: str) -> str:
        """'item' or 'container' (versions 2-4: ``type``; version 5: the first letter of ``id``)."""
        t = item.get("type")
        if isinstance(t, str):
            return "container" if t.endswith("_container") else "item"
        if isinstance(item.get("children"), list):
            return "container"
        ident = item.get("id")
        if isinstance(ident, str) and ident[:1].isupper():
            return "container"
        return "item"

    def walk(self, key: str, family: str) -> Iterator[tuple[dict[str, Any], str]]:
        """Every enabled item of a list and its containers, with its path in the file."""
        top = self.doc.get(key)
        if top is None:
            return
        if not isinstance(top, list):
            raise self.fail(key, f"expected a list, found {type(top).__name__}")

        def go(items: list[Any], where: str) -> Iterator[tuple[dict[str, Any], str]]:
            for i, it in enumerate(items):
                w = f"{where}[{i}]"
                if not isinstance(it, dict):
                    raise self.fail(w, f"expected an object, found {it!r}")
                if it.get("disabled") is True:
                    self.report.unused_thing(f"{family} {_label(it)!r}", "switched off in the file")
                    continue
                if self._kind(it, family) == "container":
                    kids = it.get("children", [])
                    if not isinstance(kids, list):
                        raise self.fail(f"{w}.children", "expected a list")
                    yield it, w  # a container may carry features (meta-traits) and weapons
                    yield from go(kids, f"{w}.children")
                else:
                    yield it, w

        yield from go(top, key)

    # ----- the parts
    def run(self) -> Imported:
        # each part names itself in ``self.part``: a value of a type no GCS writes, met deep inside a part,
        # is still reported with the file and the part instead of a traceback
        try:
            return self._run()
        except CharacterFileError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as exc:
            raise self.fail(self.part, f"damaged: a value of an unexpected kind ({exc})") from None

    def _run(self) -> Imported:
        self.part = "attributes"
        self.attributes()
        self.part = "traits" if "traits" in self.doc else "advantages"
        traits = list(self.walk(self.part, "trait"))
        animal = self.is_animal(traits)
        self.traits(traits, animal)
        self.part = "skills"
        self.skills()
        self.part = "equipment (carried weight) or calc.basic_lift"
        level = self.encumbrance()
        self.part = "calc.move / calc.dodge"
        self.move_and_dodge(level)
        self.part = "profile.SM"
        self.size()
        self.part = "equipment (weapons, shields, armor)"
        self.weapons_and_gear(traits, animal)
        entry: dict[str, Any] = {"name": self.name, "id": slug(self.name)}
        self.template = self.mount_template() if animal else None
        if self.template is not None:
            entry["template"] = self.template
        self.part = "settings.body_type.locations"
        self.hit_locations()
        entry["stats"] = self.stats
        if self.equipment:
            entry["equipment"] = self.equipment
        return Imported(entry, self.report, "gurps4")

    def attributes(self) -> None:
        attrs: dict[str, tuple[dict[str, Any], str]] = {}
        for i, a in enumerate(self.doc["attributes"]):
            w = f"attributes[{i}]"
            if not isinstance(a, dict) or not isinstance(a.get("attr_id"), str):
                raise self.fail(f"{w}.attr_id", "missing (each attribute names its attr_id)")
            attrs[a["attr_id"]] = (a, w)

        def value(attr: str, *, required: bool = True) -> float | None:
            if attr not in attrs:
                if required:
                    raise self.fail("attributes", f"no {attr!r} attribute (attr_id)")
                return None
            a, w = attrs[attr]
            calc = a.get("calc")
            if not isinstance(calc, dict) or "value" not in calc:
                raise self.fail(f"{w}.calc.value", f"missing for {attr!r} (GCS writes the final value there)")
            return self._number(calc["value"], f"{w}.calc.value")

        for attr in ("st", "dx", "iq", "ht"):
            v = value(attr)
            self.stats[attr] = self.report.take(f"stats.{attr}", int(v), f"attributes[{attr}].calc.value")  # type: ignore[arg-type]
        for attr, key in (("hp", "hp"), ("will", "will"), ("per", "per")):
            v = value(attr, required=False)
            if v is None:
                base = self.stats["st"] if attr == "hp" else self.stats["iq"]
                self.stats[key] = self.report.compute(
                    f"stats.{key}", base, f"{'ST' if attr == 'hp' else 'IQ'} {base} (no {attr} attribute)"
                )
            else:
                self.stats[key] = self.report.take(f"stats.{key}", int(v), f"attributes[{attr}].calc.value")
        speed = value("basic_speed", required=False)
        if speed is None:
            speed = (self.stats["dx"] + self.stats["ht"]) / 4
            self.report.compute(
                "stats.basic_speed", speed, f"(DX {self.stats['dx']} + HT {self.stats['ht']}) / 4"
            )
        else:
            self.report.take("stats.basic_speed", speed, "attributes[basic_speed].calc.value")
        self.stats["basic_speed"] = float(speed)
        move = value("basic_move", required=False)
        self.basic_move = int(move) if move is not None else math.floor(speed)
        hp = attrs.get("hp")
        if hp is not None:
            cur = hp[0].get("calc", {}).get("current")
            if isinstance(cur, int | float) and cur < self.stats["hp"]:
                self.report.unusable_thing(
                    f"attributes[hp].calc.current = {cur}", f"a fight starts unhurt at HP {self.stats['hp']}"
                )
        fp = attrs.get("fp")
        if fp is not None:
            f = fp[0].get("calc", {})
            self.report.unused_thing(
                f"attributes[fp] = {f.get('value')} (current {f.get('current', f.get('value'))})",
                "gurps4 combat does not spend Fatigue Points",
            )
        for attr in attrs:
            if attr not in ("st", "dx", "iq", "ht", "hp", "will", "per", "basic_speed", "basic_move", "fp"):
                self.report.unused_thing(f"attributes[{attr}]", "no combat effect fracas models")

    def is_animal(self, traits: list[tuple[dict[str, Any], str]]) -> bool:
        body = self.body()
        body_name = str((body or {}).get("name", "")) + " " + str((body or {}).get("id", ""))
        if "quadruped" in body_name.lower():
            return True
        names = {_label(t).lower() for t, _ in traits}
        return any(any(n.startswith(a) for a in _ANIMAL_TRAITS) for n in names)

    def traits(self, traits: list[tuple[dict[str, Any], str]], animal: bool) -> None:
        flight: dict[str, Any] | None = None
        for t, w in traits:
            name = _label(t)
            low = name.lower()
            if self._kind(t, "trait") == "container" and not t.get("weapons") and not t.get("features"):
                continue
            if low in _FLAG_TRAITS:
                self.stats[_FLAG_TRAITS[low]] = self.report.take(
                    f"stats.{_FLAG_TRAITS[low]}", True, f"{w} {name!r}"
                )
            elif low == "flight" or low.startswith("flight "):
                flight = t
                self.flight(t, w)
            elif t.get("weapons"):
                pass  # natural attacks: weapons_and_gear
            elif low.startswith(("enhanced move", "increased move", "super jump")):
                self.report.unused_thing(
                    f"trait {name!r}", "top speed over several turns; a turn's Move is Basic Move"
                )
            else:
                self.report.unused_thing(f"trait {name!r}", "no combat effect fracas models")
        self.flies = flight is not None

    def flight(self, t: dict[str, Any], w: str) -> None:
        mods = [m for m in t.get("modifiers", []) if isinstance(m, dict) and not m.get("disabled")]
        names = [str(m.get("name", "")).lower() for m in mods]
        winged = any(n.startswith("winged") for n in names)
        self.stats["flight"] = self.report.take(
            "stats.flight",
            "winged" if winged else "flight",
            f"{w} 'Flight'" + (" with 'Winged'" if winged else ""),
        )
        limitation = "none"
        for n, lim in (
            ("cannot hover", "cannot_hover"),
            ("controlled gliding", "controlled_gliding"),
            ("gliding", "gliding"),
        ):
            if any(x.startswith(n) for x in names):
                limitation = lim
                break
        if limitation != "none":
            self.stats["flight_limitation"] = self.report.take(
                "stats.flight_limitation", limitation, f"{w}.modifiers"
            )
        air = math.floor(self.stats["basic_speed"] * 2)
        self.stats["air_move"] = self.report.compute(
            "stats.air_move",
            air,
            f"Basic Speed {self.stats['basic_speed']} x 2, rounded down (Flight, p.B56)",
        )
        for m in mods:
            n = str(m.get("name", ""))
            if not n.lower().startswith(("winged", "cannot hover", "controlled gliding", "gliding")):
                self.report.unused_thing(f"Flight modifier {n!r}", "no combat effect fracas models")

    def skills(self) -> None:
        best: dict[str, tuple[int, str]] = {}
        for s, w in self.walk("skills", "skill"):
            if self._kind(s, "skill") == "container":
                continue
            name = s.get("name")
            if not isinstance(name, str) or not name:
                raise self.fail(f"{w}.name", "missing (each skill has a name)")
            calc = s.get("calc")
            if not isinstance(calc, dict) or "level" not in calc:
                raise self.fail(f"{w}.calc.level", f"missing for skill {name!r} (GCS writes the final level)")
            level = int(self._number(calc["level"], f"{w}.calc.level"))
            spec = s.get("specialization")
            ident = s.get("id")
            technique = s.get("type") == "technique" or (isinstance(ident, str) and ident.startswith("q"))
            if technique:
                self.report.unused_thing(f"technique {name!r} ({level})", "fracas models no techniques")
                continue
            full = f"{name} ({spec})" if isinstance(spec, str) and spec else name
            # fracas names a skill without its specialization, except a few that keep it
            key = full if name in ("Thrown Weapon", "Guns") else name
            if key in best and best[key][0] >= level:
                self.report.unused_thing(f"skill {full!r} ({level})", f"a higher {key} is taken")
                continue
            best[key] = (level, f"{w}.calc.level ({full!r})")
        if best:
            self.stats["skills"] = {
                k: self.report.take(f"stats.skills.{k}", lv, src) for k, (lv, src) in best.items()
            }

    def body(self) -> dict[str, Any] | None:
        settings = self.doc.get("settings")
        if not isinstance(settings, dict):
            return None
        body = settings.get("body_type", settings.get("hit_locations"))
        return body if isinstance(body, dict) else None

    def carried_weight(self) -> float:
        total = 0.0
        items = self.doc.get("equipment") or []
        if not isinstance(items, list):
            raise self.fail("equipment", f"expected a list, found {type(items).__name__}")
        for i, it in enumerate(items):
            if isinstance(it, dict):
                total += self.item_weight(it, f"equipment[{i}]")
        return total

    def item_weight(self, it: dict[str, Any], where: str) -> float:
        calc = it.get("calc")
        if isinstance(calc, dict) and isinstance(calc.get("extended_weight"), str):
            return parse_weight(calc["extended_weight"], self.fail, f"{where}.calc.extended_weight")
        qty = it.get("quantity", 1)
        qty = 1 if not isinstance(qty, int | float) or self._kind(it, "equipment") == "container" else qty
        own = parse_weight(it.get("weight", "0 lb"), self.fail, f"{where}.weight") * qty
        kids = it.get("children") or []
        return own + sum(
            self.item_weight(k, f"{where}.children[{j}]") for j, k in enumerate(kids) if isinstance(k, dict)
        )

    def encumbrance(self) -> int:
        calc = self.doc.get("calc") if isinstance(self.doc.get("calc"), dict) else {}
        st = self.stats["st"]
        if isinstance(calc.get("basic_lift"), str):
            bl = parse_weight(calc["basic_lift"], self.fail, "calc.basic_lift")
            bl_how = f"calc.basic_lift {calc['basic_lift']}"
        else:
            bl = st * st / 5
            bl = round(bl) if bl >= 10 else bl
            bl_how = f"ST {st} x ST {st} / 5 (p.B15; no calc.basic_lift)"
        carried = self.carried_weight()
        level = 4
        for i, mult in enumerate(_BL_MULTIPLES):
            if carried <= bl * mult:
                level = i
                break
        else:
            self.report.unusable_thing(
                f"carried weight {carried:g} lb",
                f"over 10 x Basic Lift ({bl * 10:g} lb): cannot move; taken as Extra-Heavy",
            )
        self.stats["encumbrance"] = self.report.compute(
            "stats.encumbrance",
            level,
            f"{ENCUMBRANCE[level]}: carried {carried:g} lb against Basic Lift {bl:g} lb ({bl_how}); "
            f"up to {_BL_MULTIPLES[level]} x BL (p.B17)",
        )
        return level

    def move_and_dodge(self, level: int) -> None:
        calc = self.doc.get("calc") if isinstance(self.doc.get("calc"), dict) else {}
        move, dodge = calc.get("move"), calc.get("dodge")
        if isinstance(move, list) and len(move) == 5:
            self.stats["basic_move"] = self.report.take(
                "stats.basic_move",
                int(self._number(move[level], f"calc.move[{level}]")),
                f"calc.move[{level}] (Move at {ENCUMBRANCE[level]} encumbrance; "
                f"Basic Move {self.basic_move})",
            )
        else:
            self.stats["basic_move"] = self.report.compute(
                "stats.basic_move",
                max(1, math.floor(self.basic_move * (1 - 0.2 * level))) if level else self.basic_move,
                f"Basic Move {self.basic_move} x {1 - 0.2 * level:g} at {ENCUMBRANCE[level]} encumbrance "
                "(p.B17; no calc.move)",
            )
        if isinstance(dodge, list) and len(dodge) == 5:
            self.stats["dodge"] = self.report.take(
                "stats.dodge",
                int(self._number(dodge[level], f"calc.dodge[{level}]")),
                f"calc.dodge[{level}] (Dodge at {ENCUMBRANCE[level]} encumbrance)",
            )
        else:
            d = (
                math.floor(self.stats["basic_speed"])
                + 3
                + (1 if self.stats.get("combat_reflexes") else 0)
                - level
            )
            self.stats["dodge"] = self.report.compute(
                "stats.dodge",
                d,
                f"Basic Speed {self.stats['basic_speed']} rounded down + 3"
                + (" + 1 Combat Reflexes" if self.stats.get("combat_reflexes") else "")
                + f" - {level} encumbrance (p.B374; no calc.dodge)",
            )
        if isinstance(calc, dict):
            for k in ("thrust", "swing"):
                if k in calc:
                    self.report.unused_thing(
                        f"calc.{k} = {calc[k]}", "fracas works out thr/sw from ST for its weapon rows (p.B16)"
                    )

    def size(self) -> None:
        profile = self.doc.get("profile") if isinstance(self.doc.get("profile"), dict) else {}
        sm = profile.get("SM")
        if isinstance(sm, int) and sm:
            self.stats["sm"] = self.report.take("stats.sm", sm, "profile.SM")

    # ----- weapons, shields, armor, saddles
    def weapons_and_gear(self, traits: list[tuple[dict[str, Any], str]], animal: bool) -> None:
        weapons: list[str] = []
        armor: list[str] = []
        self.natural: list[str] = []
        for t, w in traits:
            for j, wp in enumerate(t.get("weapons") or []):
                self.weapon(_label(t), wp, f"{w}.weapons[{j}]", weapons, natural=True, animal=animal)
        stirrups = False
        saddle: str | None = None
        for it, w in self.walk("equipment", "equipment"):
            if (
                self._kind(it, "equipment") == "container"
                and not it.get("weapons")
                and not it.get("features")
            ):
                continue
            name = _label(it)
            low = _plain(name)
            if it.get("equipped") is False:
                self.report.unused_thing(f"equipment {name!r}", "carried but not equipped")
                continue
            used = False
            for j, wp in enumerate(it.get("weapons") or []):
                used = (
                    self.weapon(name, wp, f"{w}.weapons[{j}]", weapons, natural=False, animal=animal) or used
                )
            if low in _SHIELDS:
                self.equipment["shield"] = self.report.take(
                    "equipment.shield", _SHIELDS[low], f"{w} {name!r}"
                )
                used = True
            elif low in _ARMOR:
                armor.append(self.report.take("equipment.armor", _ARMOR[low], f"{w} {name!r}"))
                used = True
            elif "stirrup" in low:
                stirrups, used = True, True
            elif "saddle" in low:
                saddle = "war_saddle" if "war" in low else "saddle"
                used = True
            if not used:
                if _gives_dr(it):
                    self.report.unusable_thing(
                        f"equipment {name!r}",
                        "armor with no row of that name in fracas's armor table: its DR is not applied",
                    )
                elif not it.get("weapons"):
                    self.report.unused_thing(f"equipment {name!r}", "no combat effect fracas models")
        for it, _w in self.walk("other_equipment", "equipment"):
            low = _plain(_label(it))
            if "stirrup" in low:
                stirrups = True
            elif "saddle" in low and saddle is None:
                saddle = "war_saddle" if "war" in low else "saddle"
        if saddle is not None or stirrups:
            kind = saddle or "none"
            if kind == "saddle" and stirrups:
                kind = "saddle_and_stirrups"
            if animal:
                self.report.unused_thing(
                    f"equipment saddle ({kind})",
                    "fracas gives the saddle to the rider: put equipment.saddle on the rider's entry",
                )
            elif kind != "none":
                self.equipment["saddle"] = self.report.take(
                    "equipment.saddle", kind, "equipment (saddle" + (", stirrups)" if stirrups else ")")
                )
        if weapons and not animal:
            self.equipment["weapons"] = weapons
        if armor:
            self.equipment["armor"] = armor

    def weapon(
        self, owner: str, wp: Any, where: str, weapons: list[str], *, natural: bool, animal: bool
    ) -> bool:
        if not isinstance(wp, dict):
            raise self.fail(where, f"expected a weapon object, found {wp!r}")
        calc = wp.get("calc") if isinstance(wp.get("calc"), dict) else {}
        usage = wp.get("usage") if isinstance(wp.get("usage"), str) else ""
        damage = calc.get("damage") if isinstance(calc.get("damage"), str) else None
        level = calc.get("level")
        label = f"{owner}" + (f" ({usage})" if usage else "")
        what = f"{'ranged' if _is_ranged(wp) else 'melee'} weapon {label!r}"
        sv = f", sv {wp['sv']}" if "sv" in wp else ""
        if damage is None:
            self.report.unusable_thing(what, f"no calc.damage at {where} (its damage cannot be read){sv}")
            return False
        detail = f"damage {damage}, skill level {level}{sv}"
        low = _plain(owner)
        if natural or low in _NATURAL or _plain(usage) in _NATURAL:
            if animal:
                self.natural.append(f"{label}: {detail}")
            elif _plain(usage) in ("punch", "kick", "kick w/boots") or low in ("punch", "kick"):
                self.report.unused_thing(
                    what, f"{detail}: every fracas fighter has its own punch and kick (thr-1 / thr, p.B271)"
                )
            else:
                self.report.unusable_thing(what, f"{detail}: fracas gives natural attacks to mounts only")
            return True
        row = _WEAPONS.get(low)
        if row is None:
            self.report.unusable_thing(
                what,
                f"{detail}: no row of that name in fracas's weapon table "
                f"({', '.join(sorted(set(_WEAPONS.values())))})",
            )
            return False
        theirs = _row_damage(row, self.stats["st"])
        same = _norm_damage(damage) in theirs
        if not same:
            self.report.unusable_thing(
                f"damage {damage} of {what}",
                f"fracas's {row} row gives {' / '.join(theirs)} at ST {self.stats['st']} and uses that",
            )
        if row not in weapons:
            weapons.append(row)
            self.report.take(
                "equipment.weapons",
                row,
                f"{where} {label!r} ({detail}; fracas's {row} row: {' / '.join(theirs)}"
                + (", the same" if same else "")
                + ")",
            )
        else:
            self.report.unused_thing(what, f"{detail}: another mode of the {row} row fracas already has")
        skill = _row_skill(row)
        have = self.stats.get("skills", {}).get(skill)
        if isinstance(level, int | float) and have is not None and int(level) != have:
            self.report.unusable_thing(
                f"skill level {int(level)} of {what}",
                f"fracas rolls against the {skill} skill ({have}); the file's weapon level includes "
                "the weapon's own bonuses or penalties",
            )
        return True

    def hit_locations(self) -> None:
        body = self.body()
        if body is None:
            self.report.unused_thing("settings.body_type", "missing: no DR by location to compare")
            return
        drs = []
        for i, loc in enumerate(body.get("locations") or []):
            if not isinstance(loc, dict):
                continue
            dr = (loc.get("calc") or {}).get("dr") if isinstance(loc.get("calc"), dict) else None
            if isinstance(dr, dict) and dr.get("all"):
                drs.append(f"{loc.get('id', i)} {dr['all']}")
        if not drs:
            return
        theirs = _rows_dr(self.equipment.get("armor", []))
        if self.template is not None:  # a mount's hooves (mounts.toml dr_feet)
            from fracas.rules.gurps4 import data

            theirs["foot"] = theirs.get("foot", 0) + data.mounts()[self.template].dr_feet
        differ = []
        for i, loc in enumerate(body.get("locations") or []):
            if not isinstance(loc, dict) or not isinstance(loc.get("calc"), dict):
                continue
            dr = loc["calc"].get("dr")
            file_dr = dr.get("all", 0) if isinstance(dr, dict) else 0
            ident = str(loc.get("id", i))
            bonus = loc.get("dr_bonus")
            if ident == "skull" and isinstance(bonus, int) and isinstance(file_dr, int):
                file_dr -= bonus  # the skull's own DR 2, which fracas adds itself (p.B399)
            if ident in _DR_LOCATIONS and file_dr != theirs.get(ident, 0):
                differ.append(f"{loc.get('table_name', ident)} {file_dr} (fracas {theirs.get(ident, 0)})")
        if differ:
            self.report.unusable_thing(
                "DR by location " + ", ".join(differ),
                "fracas takes DR from the armor rows in equipment.armor; the file's DR from other sources "
                "(traits, armor without a row) is not applied",
            )
        else:
            self.report.compute(
                "DR by location", ", ".join(drs), "the armor rows in equipment.armor give the file's DR"
            )

    def mount_template(self) -> str:
        from fracas.rules.gurps4 import data

        mounts = data.mounts()
        low = self.name.lower()
        for word, tmpl in _MOUNT_WORDS:
            if word in low and tmpl in mounts:
                how = f"the word {word!r} in its name"
                break
        else:
            st = self.stats["st"]
            tmpl = min((m for m in mounts if m != "text_warhorse"), key=lambda m: (abs(mounts[m].st - st), m))
            how = f"the nearest ST ({mounts[tmpl].st}) to the file's ST {st}"
        self.report.compute(
            "template", tmpl, f"a mount of fracas's table, by {how}: its numbers are overridden by the file's"
        )
        war = "Brawling" in self.stats.get("skills", {}) or bool(self.stats.get("combat_reflexes"))
        self.stats["war_trained"] = self.report.compute(
            "stats.war_trained",
            war,
            "has Brawling or Combat Reflexes (a war-trained mount, p.B396)"
            if war
            else "no Brawling nor Combat Reflexes",
        )
        for a in mounts[tmpl].attacks:
            self.report.compute(
                f"attack {a.name}", f"{a.damage} {a.type}", f"the {tmpl} template's natural attack"
            )
        for n in self.natural:
            self.report.unusable_thing(
                f"natural attack {n}", f"fracas's mounts attack with their template's attacks ({tmpl})"
            )
        return tmpl


# ----------------------------------------------------------------------------------------- helpers


def _label(item: dict[str, Any]) -> str:
    for key in ("name", "description"):
        v = item.get(key)
        if isinstance(v, str) and v:
            return v
    return "(unnamed)"


def _plain(name: str) -> str:
    """Lower case, without a tech level suffix or a parenthesis: 'Jousting Lance/TL3' -> 'jousting lance'."""
    low = re.sub(r"/tl\d+.*$", "", name.lower().strip())
    low = re.sub(r"\s*\(.*\)\s*$", "", low)
    return low.replace(",", "").strip()


def _is_ranged(wp: dict[str, Any]) -> bool:
    t = wp.get("type")
    if isinstance(t, str):
        return t == "ranged_weapon"
    ident = wp.get("id")
    if isinstance(ident, str) and ident[:1] in ("w", "W"):
        return ident[0] == "W"
    return any(k in wp for k in ("range", "accuracy", "rate_of_fire"))


_DR_LOCATIONS = ("skull", "face", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot")


def _row_damage(row: str, st: int) -> list[str]:
    """A fracas weapon row's damage at ST, each mode ('1d+3 cut')."""
    from fracas.rules.gurps4 import core, data

    out = []
    for m in data.weapons()[row].modes:
        try:
            out.append(f"{core.weapon_damage(st, m.damage)} {m.type}")
        except Exception:  # a ST outside the damage table: show the row's formula
            out.append(f"{m.damage} {m.type}")
    return out


def _row_skill(row: str) -> str:
    from fracas.rules.gurps4 import data

    return data.weapons()[row].skill


def _rows_dr(rows: list[str]) -> dict[str, int]:
    """DR by GCS location id from fracas armor rows (their right_arm/left_arm are GCS's arm)."""
    from fracas.rules.gurps4 import data

    table = data.armor_file().armor
    out: dict[str, int] = {}
    for r in rows:
        a = table[r]
        for key in {loc.replace("right_", "").replace("left_", "") for loc in a.locations}:
            out[key] = out.get(key, 0) + a.dr
    return out


def _norm_damage(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


def _gives_dr(item: dict[str, Any]) -> bool:
    return any(isinstance(f, dict) and f.get("type") == "dr_bonus" for f in item.get("features") or [])


def parse_weight(text: Any, fail: Any, where: str) -> float:
    """'13 lb', '1.5 kg', '12 oz', '3 lb 4 oz' -> pounds (p.B17 counts in pounds; 1 kg = 2 lb in GURPS)."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text)
    if not isinstance(text, str):
        raise fail(where, f"expected a weight such as '13 lb', found {text!r}")
    total = 0.0
    parts = re.findall(r"(-?[\d.,]+)\s*([a-z#]*)", text.strip().lower())
    if not parts:
        raise fail(where, f"expected a weight such as '13 lb', found {text!r}")
    for num, unit in parts:
        try:
            n = float(num.replace(",", ""))
        except ValueError:
            raise fail(where, f"expected a weight such as '13 lb', found {text!r}") from None
        if unit not in _LB and unit != "":
            raise fail(where, f"unknown weight unit {unit!r} in {text!r} (lb, oz, kg, g, tn)")
        total += n * _LB.get(unit or "lb", 1.0)
    return total


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "character"
