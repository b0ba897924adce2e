"""Earthdawn Character Editor XML (lortas/Earthdawn-Character-Editor) as ``ed4`` stat blocks.

Two layouts of the editor's files are read (its XSDs ``config/earthdawncharacter.xsd`` and
``config/earthdawndatatypes.xsd``):

- the current one: root ``EDCHARACTER`` (namespace ``http://earthdawn.com/character``, ``xsd-version``
  1.1, ``rulesetversion``), talents inside ``DISCIPLINE`` with their rank and step in a ``RANK`` child and
  the attribute by name, ``MOVEMENT ground/flight``, ``KARMA step``, ``WEAPON kind``;
- the older one: root ``EDCHARAKTER`` (namespace ``http://earthdawn.com``), talents in ``TALENTS`` and
  skills with ``rank``/``step``/``attribute`` attributes, ``MOVEMENT ground_full/ground_fight``,
  ``PROTECTION mysticamor``.

The entry is a full stat block (docs/encounter-format.md): attribute steps, Defenses, Armor, Wound
Threshold, Unconsciousness and Death Ratings, Initiative, Karma, Movement and one attack per weapon. An
attack step is the rank of Melee Weapons, Missile Weapons or Throwing Weapons (talent or skill, the higher)
plus the Dexterity step; its damage step is the Strength step plus the weapon's Damage Step (ED4 p.377); the
report shows each sum next to the step the editor wrote.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from fracas.importers.gcs import slug
from fracas.importers.report import CharacterFileError, Imported, MappingReport

ATTRS = {
    "DEX": "dex_step",
    "STR": "str_step",
    "TOU": "tou_step",
    "PER": "per_step",
    "WIL": "wil_step",
    "CHA": "cha_step",
}
_SKILL_FOR_KIND = {
    "melee": "Melee Weapons",
    "missile": "Missile Weapons",
    "thrown": "Throwing Weapons",
    "unarmed": "Unarmed Combat",
}
# the editor also writes German names (its ED4 German data): the attack talents and skills by either name
ATTACK_ABILITIES = {
    "melee weapons": "Melee Weapons",
    "nahkampfwaffen": "Melee Weapons",
    "missile weapons": "Missile Weapons",
    "projektilwaffen": "Missile Weapons",
    "fernkampfwaffen": "Missile Weapons",
    "throwing weapons": "Throwing Weapons",
    "wurfwaffen": "Throwing Weapons",
    "unarmed combat": "Unarmed Combat",
    "waffenloser kampf": "Unarmed Combat",
}
# abilities the stat block has no field for, but which change a fight (both Earthdawn readers)
COMBAT_ABILITIES = (
    "avoid blow",
    "ausweichen",
    "riposte",
    "maneuver",
    "acrobatic strike",
    "great leap",
    "wound balance",
    "durability",
    "tiger spring",
    "air dance",
    "second weapon",
    "second attack",
    "anticipate blow",
    "body blade",
    "lion heart",
    "steel thought",
    "shield charge",
    "cobra strike",
    "tail combat",
)


def read(path: Path, text: str) -> Imported:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise CharacterFileError(
            f"{path}: not an Earthdawn Character Editor file: not well-formed XML "
            f"(line {line}, column {col + 1})"
        ) from None
    tag = _local(root.tag)
    if tag not in ("EDCHARACTER", "EDCHARAKTER"):
        raise CharacterFileError(
            f"{path}: not an Earthdawn Character Editor file: the root element is <{tag}>, "
            "not <EDCHARACTER> (or the older <EDCHARAKTER>)"
        )
    return _Reader(path, root, current=tag == "EDCHARACTER").run()


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class _Reader:
    def __init__(self, path: Path, root: ET.Element, *, current: bool) -> None:
        self.path = path
        self.root = root
        self.current = current
        self.name = (root.get("name") or "").strip() or path.stem
        version = (
            f"xsd-version {root.get('xsd-version', '?')}, {root.get('rulesetversion', 'ED3')}"
            if current
            else "EDCHARAKTER (older layout)"
        )
        self.report = MappingReport(str(path), "ecte", version, self.name)
        self.stats: dict[str, Any] = {"kind": "character"}
        self.part = "EDCHARACTER"

    def fail(self, where: str, what: str) -> CharacterFileError:
        return CharacterFileError(f"{self.path}: {where}: {what}")

    def kids(self, el: ET.Element, name: str) -> list[ET.Element]:
        return [c for c in el if _local(c.tag) == name]

    def one(self, name: str) -> ET.Element | None:
        found = self.kids(self.root, name)
        return found[0] if found else None

    def int_attr(self, el: ET.Element, attr: str, where: str, *, required: bool = True) -> int | None:
        raw = el.get(attr)
        if raw is None:
            if required:
                raise self.fail(f"{where}/@{attr}", "missing")
            return None
        try:
            return int(raw.strip())
        except ValueError:
            try:
                f = float(raw.strip())
            except ValueError:
                raise self.fail(f"{where}/@{attr}", f"expected a whole number, found {raw!r}") from None
            if not f.is_integer():
                raise self.fail(f"{where}/@{attr}", f"expected a whole number, found {raw!r}") from None
            return int(f)

    # ----- the parts
    def run(self) -> Imported:
        try:
            return self._run()
        except CharacterFileError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise self.fail(self.part, f"damaged: a value of an unexpected kind ({exc})") from None

    def _run(self) -> Imported:
        if self.current and self.root.get("rulesetversion", "ED3").upper() != "ED4":
            self.report.unusable_thing(
                f"rulesetversion {self.root.get('rulesetversion', 'ED3 (the default)')}",
                "fracas plays ED4: the editor's numbers are used as written",
            )
        self.part = "APPEARANCE"
        app = self.one("APPEARANCE")
        self.race = (app.get("race", "") if app is not None else "").strip()
        if self.race:
            self.report.unused_thing(
                f"APPEARANCE race {self.race!r}", "a stat block has no race (see the attacks)"
            )
        self.part = "ATTRIBUTE"
        self.attributes()
        self.part = "DEFENSE"
        self.defenses()
        self.part = "PROTECTION"
        self.protection()
        self.part = "HEALTH"
        self.health()
        self.part = "INITIATIVE"
        self.initiative()
        self.part = "KARMA"
        self.karma()
        self.part = "MOVEMENT"
        self.movement()
        self.part = "DISCIPLINE/SKILL"
        ranks = self.abilities()
        self.part = "WEAPON"
        self.attacks(ranks)
        for el in self.root:
            t = _local(el.tag)
            if t in (
                "ITEM",
                "COINS",
                "MAGICITEM",
                "PATTERNITEM",
                "THREADITEM",
                "BLOODCHARMITEM",
                "AMMUNITION",
            ):
                self.report.unused_thing(f"{t} {el.get('name', '')!r}", "no combat effect fracas models")
            elif t in ("SPELLS", "OPENSPELL"):
                self.report.unusable_thing(
                    f"{t} {el.get('name', el.get('discipline', ''))!r}", "spells are not imported"
                )
        entry = {"name": self.name, "id": slug(self.name), "stats": self.stats}
        return Imported(entry, self.report, "ed4")

    def attributes(self) -> None:
        from fracas.rules.earthdawn import characteristics as ch

        seen = set()
        for i, el in enumerate(self.kids(self.root, "ATTRIBUTE")):
            where = f"ATTRIBUTE[{i + 1}]"
            name = (el.get("name") or "").upper()
            if name not in ATTRS:
                if name == "NA":
                    continue
                raise self.fail(
                    f"{where}/@name", f"expected DEX, STR, TOU, PER, WIL or CHA, found {el.get('name')!r}"
                )
            key = ATTRS[name]
            step = self.int_attr(el, "step", where, required=False)
            value = self.int_attr(el, "currentvalue", where, required=False)
            if step:
                self.stats[key] = self.report.take(f"stats.{key}", step, f"ATTRIBUTE name={name} @step")
            elif value:
                if not 1 <= value <= 60:
                    raise self.fail(f"{where}/@currentvalue", f"expected 1-60, found {value}")
                self.stats[key] = self.report.compute(
                    f"stats.{key}",
                    ch.attribute_step(value),
                    f"{name} value {value} -> step (ED4 p.? table: ceil(value/3)+1)",
                )
            else:
                raise self.fail(f"{where}", f"{name} has neither step nor currentvalue")
            if value:
                self.report.unused_thing(f"ATTRIBUTE {name} value {value}", "the stat block takes the step")
            seen.add(name)
        missing = [a for a in ATTRS if a not in seen]
        if missing:
            raise self.fail("ATTRIBUTE", f"missing {', '.join(missing)} (the editor writes all six)")

    def defenses(self) -> None:
        el = self.one("DEFENSE")
        if el is None:
            self.report.compute("stats.*_defense", "from the attributes", "no DEFENSE element: ED4 formulas")
            return
        for attr, key in (
            ("physical", "physical_defense"),
            ("spell", "mystic_defense"),
            ("social", "social_defense"),
        ):
            v = self.int_attr(el, attr, "DEFENSE")
            if v is not None and v >= 1:
                self.stats[key] = self.report.take(f"stats.{key}", v, f"DEFENSE @{attr}")

    def protection(self) -> None:
        el = self.one("PROTECTION")
        if el is None:
            return
        pa = self.int_attr(el, "physicalarmor", "PROTECTION")
        mystic_attr = "mysticarmor" if el.get("mysticarmor") is not None else "mysticamor"
        ma = self.int_attr(el, mystic_attr, "PROTECTION")
        self.stats["physical_armor"] = self.report.take(
            "stats.physical_armor", pa, "PROTECTION @physicalarmor"
        )
        self.stats["mystic_armor"] = self.report.take("stats.mystic_armor", ma, f"PROTECTION @{mystic_attr}")
        penalty = self.int_attr(el, "penalty", "PROTECTION", required=False)
        if penalty:
            self.report.unusable_thing(
                f"PROTECTION @penalty {penalty}", "an armor penalty the stat block has no field for"
            )
        for piece in el:
            kind = _local(piece.tag)
            used = piece.get("used", "yes") != "no"
            self.report.unused_thing(
                f"{kind} {piece.get('name', '')!r}" + ("" if used else " (not worn)"),
                "its Armor is in PROTECTION's totals" if used else "not worn",
            )

    def health(self) -> None:
        el = self.one("HEALTH")
        if el is None:
            return
        for part, key in (("UNCONSCIOUSNESS", "unconsciousness"), ("DEATH", "death")):
            sub = self.kids(el, part)
            if not sub:
                continue
            where = f"HEALTH/{part}"
            value = self.int_attr(sub[0], "value", where, required=False)
            if value is None:
                base = self.int_attr(sub[0], "base", where) or 0
                adj = self.int_attr(sub[0], "adjustment", where, required=False) or 0
                value = self.report.compute(
                    f"stats.{key}", base + adj, f"{where} base {base} + adjustment {adj}"
                )
            else:
                self.report.take(f"stats.{key}", value, f"{where} @value")
            if value and value >= 1:
                self.stats[key] = value
        wounds = self.kids(el, "WOUNDS")
        if wounds:
            t = self.int_attr(wounds[0], "threshold", "HEALTH/WOUNDS")
            if t and t >= 1:
                self.stats["wound_threshold"] = self.report.take(
                    "stats.wound_threshold", t, "HEALTH/WOUNDS @threshold"
                )
            n = sum(
                self.int_attr(wounds[0], a, "HEALTH/WOUNDS", required=False) or 0
                for a in ("count", "normal", "blood")
            )
            if n:
                self.report.unusable_thing(f"HEALTH/WOUNDS {n} Wounds", "a fight starts unhurt")
        rec = self.kids(el, "RECOVERY")
        if rec:
            tests = self.int_attr(rec[0], "testsperday", "HEALTH/RECOVERY")
            self.stats["recovery_tests"] = self.report.take(
                "stats.recovery_tests", tests, "HEALTH/RECOVERY @testsperday"
            )
        dmg = self.int_attr(el, "damage", "HEALTH", required=False)
        if dmg:
            self.report.unusable_thing(f"HEALTH @damage {dmg}", "a fight starts unhurt")

    def initiative(self) -> None:
        el = self.one("INITIATIVE")
        if el is None:
            return
        step = self.int_attr(el, "step", "INITIATIVE", required=False)
        if step and step >= 1:
            base = self.int_attr(el, "base", "INITIATIVE", required=False)
            mod = self.int_attr(el, "modification", "INITIATIVE", required=False)
            how = f" (base {base} {mod:+d})" if base is not None and mod is not None else ""
            self.stats["initiative"] = self.report.take("stats.initiative", step, f"INITIATIVE @step{how}")

    def karma(self) -> None:
        el = self.one("KARMA")
        if el is None:
            return
        cur = self.int_attr(el, "current", "KARMA", required=False)
        if cur is not None:
            self.stats["karma"] = self.report.take("stats.karma", max(0, cur), "KARMA @current")
        step = self.int_attr(el, "step", "KARMA", required=False)
        if step:
            self.stats["karma_step"] = self.report.take("stats.karma_step", step, "KARMA @step")
        else:
            self.stats["karma_step"] = self.report.compute(
                "stats.karma_step", 4, "the ED4 Karma step 4 (no KARMA @step)"
            )

    def movement(self) -> None:
        el = self.one("MOVEMENT")
        if el is None:
            return
        attr = "ground" if el.get("ground") is not None else "ground_full"
        v = self.int_attr(el, attr, "MOVEMENT")
        self.stats["movement"] = self.report.take("stats.movement", v, f"MOVEMENT @{attr} (yards per round)")
        for other in ("ground_fight", "flight", "flight_full", "flight_fight"):
            if el.get(other) not in (None, "0", ""):
                self.report.unusable_thing(
                    f"MOVEMENT @{other} {el.get(other)}", "a stat block has one Movement rate"
                )

    def abilities(self) -> dict[str, tuple[int, str]]:
        """Rank of each talent and skill (the higher of the two for one name), with where it was read."""
        ranks: dict[str, tuple[int, str]] = {}
        self.file_steps: dict[str, int | None] = {}
        holders: list[tuple[ET.Element, str, str]] = []  # (element, kind, where)
        for d, disc in enumerate(self.kids(self.root, "DISCIPLINE")):
            circle = disc.get("circle", "?")
            self.report.unused_thing(
                f"DISCIPLINE {disc.get('name', '')!r} circle {circle}", "the stat block takes its numbers"
            )
            for kind in ("DISZIPLINETALENT", "OPTIONALTALENT"):
                for i, t in enumerate(self.kids(disc, kind)):
                    holders.append((t, "talent", f"DISCIPLINE[{d + 1}]/{kind}[{i + 1}]"))
        for d, tal in enumerate(self.kids(self.root, "TALENTS")):
            for kind in ("DISZIPLINETALENT", "OPTIONALTALENT"):
                for i, t in enumerate(self.kids(tal, kind)):
                    holders.append((t, "talent", f"TALENTS[{d + 1}]/{kind}[{i + 1}]"))
        for i, s in enumerate(self.kids(self.root, "SKILL")):
            holders.append((s, "skill", f"SKILL[{i + 1}]"))
        for el, kind, where in holders:
            name = (el.get("name") or "").strip()
            if not name:
                raise self.fail(f"{where}/@name", "missing")
            rank_el = self.kids(el, "RANK")
            src = rank_el[0] if rank_el else el
            rank = self.int_attr(src, "rank", where + ("/RANK" if rank_el else ""), required=False) or 0
            step = self.int_attr(src, "step", where + ("/RANK" if rank_el else ""), required=False)
            if rank <= 0:
                continue
            entry = (
                rank,
                f"{where} {kind} {name!r} rank {rank}" + (f", step {step} in the file" if step else ""),
            )
            canonical = ATTACK_ABILITIES.get(name.lower())
            if canonical is not None:
                if canonical not in ranks or ranks[canonical][0] < rank:
                    ranks[canonical] = entry
                    self.file_steps[canonical] = step
            elif name.lower() in COMBAT_ABILITIES:
                self.report.unusable_thing(
                    f"{kind} {name!r} rank {rank}",
                    "a stat block carries no talents: its effect is not applied",
                )
            else:
                self.report.unused_thing(f"{kind} {name!r} rank {rank}", "no combat effect fracas models")
        return ranks

    def weapon_kind(self, el: ET.Element) -> str:
        kind = (el.get("kind") or "").lower()
        if kind.startswith("missile"):
            return "missile"
        if kind.startswith("throw"):
            return "thrown"
        if kind.startswith("melee"):
            return "melee"
        short = el.get("shortrange")
        return "missile" if short not in (None, "", "0") else "melee"

    def attacks(self, ranks: dict[str, tuple[int, str]]) -> None:
        dex, st = self.stats["dex_step"], self.stats["str_step"]
        attacks: list[dict[str, Any]] = []
        for i, el in enumerate(self.kids(self.root, "WEAPON")):
            where = f"WEAPON[{i + 1}]"
            name = (el.get("name") or "").strip() or f"weapon {i + 1}"
            if el.get("used", "yes") == "no":
                self.report.unused_thing(f"WEAPON {name!r}", "not carried in hand (used=no)")
                continue
            dmg = self.int_attr(el, "damagestep", where)
            kind = self.weapon_kind(el)
            skill = _SKILL_FOR_KIND[kind]
            rank, rank_src = ranks.get(skill, (0, f"no {skill} talent or skill: rank 0"))
            attack = {"name": name, "kind": kind, "step": dex + rank, "damage": st + dmg}  # type: ignore[operator]
            written = self.file_steps.get(skill) if rank else None
            if written and written != attack["step"]:
                self.report.unusable_thing(
                    f"{skill} step {written} written in the file",
                    f"not rank {rank} + Dexterity step {dex} = {attack['step']} (a bonus of the editor's?); "
                    "fracas uses the sum",
                )
            self.report.compute(
                f"stats.attacks[{len(attacks)}].step",
                attack["step"],
                f"{skill} rank {rank} ({rank_src}) + Dexterity step {dex} (ED4 p.377)",
            )
            self.report.compute(
                f"stats.attacks[{len(attacks)}].damage",
                attack["damage"],
                f"Strength step {st} + {name} Damage Step {dmg} ({where} @damagestep; ED4 p.377)",
            )
            if kind in ("missile", "thrown"):
                short = self.int_attr(el, "shortrange", where, required=False) or 0
                long_ = self.int_attr(el, "longrange", where, required=False) or 0
                if short >= 1 and long_ >= short:
                    attack["range"] = self.report.take(
                        f"stats.attacks[{len(attacks)}].range",
                        [short, long_],
                        f"{where} @shortrange, @longrange",
                    )
                else:
                    self.report.unusable_thing(
                        f"WEAPON {name!r}", f"a {kind} weapon without short and long range"
                    )
                    continue
            size = self.int_attr(el, "size", where, required=False)
            if size:
                attack["size"] = size
            attacks.append(attack)
        unarmed_rank, src = ranks.get("Unarmed Combat", (0, "no Unarmed Combat: rank 0"))
        attacks.append({"name": "Unarmed", "kind": "unarmed", "step": dex + unarmed_rank, "damage": st})
        self.report.compute(
            f"stats.attacks[{len(attacks) - 1}]",
            f"Unarmed step {dex + unarmed_rank}, damage {st}",
            f"Unarmed Combat rank {unarmed_rank} ({src}) + Dexterity step {dex}; "
            "damage = Strength step (ED4 p.377)",
        )
        if re.sub(r"[^a-z]", "", self.race.lower()) == "tskrang":
            # an Unarmed Combat test and a Damage test on the Strength step (p.386; the same sums as
            # rules.ed4.options.tail_attack_steps, which sits above the importers' layer)
            step, dmg = dex + unarmed_rank, st
            attacks.append({"name": "Tail", "kind": "natural", "step": step, "damage": dmg})
            self.report.compute(
                f"stats.attacks[{len(attacks) - 1}]",
                f"Tail step {step}, damage {dmg}",
                f"t'skrang tail attack: Dexterity step {dex} + Unarmed Combat rank {unarmed_rank}; "
                f"damage Strength step {st} (ED4 p.386)",
            )
        self.stats["attacks"] = attacks
