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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fracas.importers.gcs_gear import (
    GearReading,
    label,
    parse_weight,
    slug,
)
from fracas.importers.report import CharacterFileError, Imported, MappingReport, mapping

VERSIONS = (2, 3, 4, 5)
ENCUMBRANCE = ("None", "Light", "Medium", "Heavy", "Extra-Heavy")
_BL_MULTIPLES = (1, 2, 3, 6, 10)  # p.B17
_FLAG_TRAITS = {
    "combat reflexes": "combat_reflexes",
    "high pain threshold": "high_pain_threshold",
    "peripheral vision": "peripheral_vision",
}
_ANIMAL_TRAITS = ("quadruped", "horizontal", "domestic animal", "wild animal", "no fine manipulators")


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
            + ("; open the file in a current GCS and save it again" if version == 1 else "")
        )
    if not isinstance(doc.get("attributes"), list):
        raise CharacterFileError(f"{path}: attributes: missing or not a list (a GCS character has them)")
    return _Reader(path, doc, version).run()


class _Reader(GearReading):
    def __init__(self, path: Path, doc: dict[str, Any], version: int) -> None:
        self.path = path
        self.doc = doc
        self.version = version
        profile = mapping(doc.get("profile"))
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
                    self.report.unused_thing(f"{family} {label(it)!r}", "switched off in the file")
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
        names = {label(t).lower() for t, _ in traits}
        return any(any(a in n for a in _ANIMAL_TRAITS) for n in names)

    def traits(self, traits: list[tuple[dict[str, Any], str]], animal: bool) -> None:
        flight: dict[str, Any] | None = None
        for t, w in traits:
            name = label(t)
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
        winged = any(n.startswith("winged") for n in names) or "winged" in label(t).lower()
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
        calc = mapping(self.doc.get("calc"))
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
        calc = mapping(self.doc.get("calc"))
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
        profile = mapping(self.doc.get("profile"))
        sm = profile.get("SM")
        if isinstance(sm, int) and sm:
            self.stats["sm"] = self.report.take("stats.sm", sm, "profile.SM")


# ----------------------------------------------------------------------------------------- helpers
