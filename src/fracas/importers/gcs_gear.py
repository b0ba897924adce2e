"""What a GURPS Character Sheet file's gear becomes in a gurps4 stat block: rows of fracas's tables.

fracas's ``gurps4`` stat block names weapons, armor and shields by rows of ``rules/gurps4/data``
(``weapons.toml``, ``armor.toml``); an item of a ``.gcs`` file is matched to a row by its name, and the
report compares the row with the file (damage at the wielder's ST, DR by location). Weights are read the way
GCS writes them ("13 lb", "1,400 lb", "1.5 kg"; p.B17 counts in pounds, 1 kg = 2 lb).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from fracas.importers.report import mapping

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from fracas.importers.report import CharacterFileError, MappingReport

LB = {
    "lb": 1.0,
    "#": 1.0,
    "oz": 1 / 16,
    "kg": 2.0,
    "g": 0.002,
    "tn": 2000.0,
    "t": 2000.0,
}  # p.B17: 1 kg = 2 lb

# A name in the file (lower case, without TL) -> a row of rules/gurps4/data/weapons.toml
WEAPONS = {
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
SHIELDS = {
    "buckler": "light_shield",
    "light shield": "light_shield",
    "small shield": "small_shield",
    "medium shield": "medium_shield",
    "large shield": "large_shield",
}
ARMOR = {
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
NATURAL = ("punch", "kick", "kick w/boots", "bite", "trample", "butt", "claw", "strike", "hooves", "teeth")
# traits that change a gurps4 stat block: trait name (lower case) -> stat


DR_LOCATIONS = ("skull", "face", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot")


def row_damage(row: str, st: int) -> list[str]:
    """A fracas weapon row's damage at ST, each mode ('1d+3 cut'): thr/sw of data/damage_by_st.toml (p.B16)
    plus the row's adds, as ``rules.gurps4.core.weapon_damage`` works it out (read here from the data
    layer: the importers sit below the rules engine, which the encounter loader calls them from)."""
    from fracas.rules.gurps4 import data
    from fracas.rules.gurps4.dice import parse_dice

    table = data.damage_table()
    out = []
    for m in data.weapons()[row].modes:
        text = f"{m.damage} {m.type}"  # a ST outside the table: the row's formula
        for base, idx in (("thr", 0), ("sw", 1)):
            if m.damage.startswith(base) and st in table:
                rest = m.damage[len(base) :]
                text = f"{table[st][idx].plus(int(rest) if rest else 0)} {m.type}"
        if not m.damage.startswith(("thr", "sw")):
            text = f"{parse_dice(m.damage)} {m.type}"
        out.append(text)
    return out


# A weapon without a row of its name takes the row of the skill it is used with (its first skill default):
# the report then compares the row's damage with the file's.
SKILL_ROWS = {
    "broadsword": "broadsword",
    "shortsword": "shortsword",
    "knife": "dagger",
    "spear": "spear",
    "lance": "lance",
    "bow": "regular_bow",
    "thrown weapon (spear)": "javelin",
    "guns (musket)": "matchlock_musket",
}


def row_for_skill(wp: dict[str, Any], damage: str) -> str | None:
    for d in wp.get("defaults") or []:
        if not isinstance(d, dict) or str(d.get("type", "")).lower() != "skill":
            continue
        name = str(d.get("name", "")).lower()
        spec = str(d.get("specialization", "") or "").lower()
        if name == "axe/mace":
            return "mace" if " cr" in f" {damage}" else "axe"
        row = SKILL_ROWS.get(f"{name} ({spec})" if spec else name) or SKILL_ROWS.get(name)
        if row is not None:
            return row
    return None


def row_skill(row: str) -> str:
    from fracas.rules.gurps4 import data

    return data.weapons()[row].skill


def rows_dr(rows: list[str]) -> dict[str, int]:
    """DR by GCS location id from fracas armor rows (their right_arm/left_arm are GCS's arm)."""
    from fracas.rules.gurps4 import data

    table = data.armor_file().armor
    out: dict[str, int] = {}
    for r in rows:
        a = table[r]
        for key in {loc.replace("right_", "").replace("left_", "") for loc in a.locations}:
            out[key] = out.get(key, 0) + a.dr
    return out


def norm_damage(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


def gives_dr(item: dict[str, Any]) -> bool:
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
        if unit not in LB and unit != "":
            raise fail(where, f"unknown weight unit {unit!r} in {text!r} (lb, oz, kg, g, tn)")
        total += n * LB.get(unit or "lb", 1.0)
    return total


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "character"


# mount templates of rules/gurps4/data/mounts.toml, chosen by a word of the animal's name
MOUNT_WORDS = (
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


def label(item: dict[str, Any]) -> str:
    for key in ("name", "description"):
        v = item.get(key)
        if isinstance(v, str) and v:
            return v
    return "(unnamed)"


def plain(name: str) -> str:
    """Lower case, without a tech level suffix or a parenthesis: 'Jousting Lance/TL3' -> 'jousting lance'."""
    low = re.sub(r"/tl\d+.*$", "", name.lower().strip())
    low = re.sub(r"\s*\(.*\)\s*$", "", low)
    return low.replace(",", "").strip()


def is_ranged(wp: dict[str, Any]) -> bool:
    t = wp.get("type")
    if isinstance(t, str):
        return t == "ranged_weapon"
    ident = wp.get("id")
    if isinstance(ident, str) and ident[:1] in ("w", "W"):
        return ident[0] == "W"
    return any(k in wp for k in ("range", "accuracy", "rate_of_fire"))


_DAMAGE = re.compile(
    r"^(?P<dice>\d+d(?:\s*[+-]\s*\d+)?)\s*(?P<rest>(?:\(\d+(?:\.\d+)?\)|x\d+)?)\s*(?P<type>[a-z+-]+)"
)


class GearReading:
    """The gear part of the ``.gcs`` reader (``gcs._Reader``): weapons, shields, armor, saddles, DR by
    location and, for an animal, the mount template."""

    report: MappingReport
    stats: dict[str, Any]
    equipment: dict[str, Any]
    doc: dict[str, Any]
    name: str
    template: str | None
    natural: list[tuple[dict[str, Any], str, str]]
    fail: Callable[[str, str], CharacterFileError]
    walk: Callable[[str, str], Iterator[tuple[dict[str, Any], str]]]
    _kind: Callable[[dict[str, Any], str], str]
    body: Callable[[], dict[str, Any] | None]

    # ----- weapons, shields, armor, saddles
    def weapons_and_gear(self, traits: list[tuple[dict[str, Any], str]], animal: bool) -> None:
        weapons: list[str] = []
        armor: list[str] = []
        self.natural: list[tuple[dict[str, Any], str, str]] = []  # (weapon, label, where)
        for t, w in traits:
            for j, wp in enumerate(t.get("weapons") or []):
                self.weapon(label(t), wp, f"{w}.weapons[{j}]", weapons, natural=True, animal=animal)
        stirrups = False
        saddle: str | None = None
        for it, w in self.walk("equipment", "equipment"):
            if (
                self._kind(it, "equipment") == "container"
                and not it.get("weapons")
                and not it.get("features")
            ):
                continue
            name = label(it)
            low = plain(name)
            if not it.get("equipped"):  # GCS omits "equipped" when false
                self.report.unused_thing(f"equipment {name!r}", "carried but not equipped")
                continue
            used = False
            for j, wp in enumerate(it.get("weapons") or []):
                used = (
                    self.weapon(name, wp, f"{w}.weapons[{j}]", weapons, natural=False, animal=animal) or used
                )
            if low in SHIELDS:
                self.equipment["shield"] = self.report.take("equipment.shield", SHIELDS[low], f"{w} {name!r}")
                used = True
            elif low in ARMOR:
                armor.append(self.report.take("equipment.armor", ARMOR[low], f"{w} {name!r}"))
                used = True
            elif "stirrup" in low:
                stirrups, used = True, True
            elif "saddle" in low:
                saddle = "war_saddle" if "war" in low else "saddle"
                used = True
            if not used:
                if gives_dr(it):
                    self.report.unusable_thing(
                        f"equipment {name!r}",
                        "armor with no row of that name in fracas's armor table: its DR is not applied",
                    )
                elif not it.get("weapons"):
                    self.report.unused_thing(f"equipment {name!r}", "no combat effect fracas models")
        self.riding_gear(saddle, stirrups, animal)
        if weapons and not animal:
            self.equipment["weapons"] = weapons
        if armor:
            self.equipment["armor"] = armor

    def riding_gear(self, saddle: str | None, stirrups: bool, animal: bool) -> None:
        """The saddle and stirrups, equipped or among the other equipment: the rider's equipment.saddle
        (on a mount's sheet they are reported unused: fracas gives the saddle to the rider)."""
        for it, _w in self.walk("other_equipment", "equipment"):
            low = plain(label(it))
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

    def weapon(
        self, owner: str, wp: Any, where: str, weapons: list[str], *, natural: bool, animal: bool
    ) -> bool:
        if not isinstance(wp, dict):
            raise self.fail(where, f"expected a weapon object, found {wp!r}")
        calc = mapping(wp.get("calc"))
        usage = str(wp["usage"]) if isinstance(wp.get("usage"), str) else ""
        damage = calc.get("damage") if isinstance(calc.get("damage"), str) else None
        level = calc.get("level")
        label = f"{owner}" + (f" ({usage})" if usage else "")
        what = f"{'ranged' if is_ranged(wp) else 'melee'} weapon {label!r}"
        sv = f", sv {wp['sv']}" if "sv" in wp else ""
        if damage is None:
            self.report.unusable_thing(what, f"no calc.damage at {where} (its damage cannot be read){sv}")
            return False
        detail = f"damage {damage}, skill level {level}{sv}"
        low = plain(owner)
        if natural or low in NATURAL or plain(usage) in NATURAL:
            if animal:
                self.natural.append((wp, label, where))
            elif plain(usage) in ("punch", "kick", "kick w/boots") or low in ("punch", "kick"):
                self.report.unused_thing(
                    what, f"{detail}: every fracas fighter has its own punch and kick (thr-1 / thr, p.B271)"
                )
            else:
                self.report.unusable_thing(what, f"{detail}: fracas gives natural attacks to mounts only")
            return True
        row = WEAPONS.get(low)
        if row is None:
            row = row_for_skill(wp, damage)
            if row is None:
                self.report.unusable_thing(
                    what,
                    f"{detail}: no row of that name or skill in fracas's weapon table "
                    f"({', '.join(sorted(set(WEAPONS.values())))})",
                )
                return False
            self.report.compute(
                "equipment.weapons", row, f"{label!r} has no row of its name: the row of its skill ({row})"
            )
        theirs = row_damage(row, self.stats["st"])
        same = norm_damage(damage) in theirs
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
        skill = row_skill(row)
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
        theirs = rows_dr(self.equipment.get("armor", []))
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
            if ident in DR_LOCATIONS and file_dr != theirs.get(ident, 0):
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
        for word, tmpl in MOUNT_WORDS:
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
        attacks = [a for a in (self.natural_attack(*n) for n in self.natural) if a is not None]
        if attacks:
            self.stats["attacks"] = attacks
        else:
            for a in mounts[tmpl].attacks:
                self.report.compute(
                    f"attack {a.name}", f"{a.damage} {a.type}", f"the {tmpl} template's (the file has none)"
                )
        return tmpl

    def natural_attack(self, wp: dict[str, Any], label: str, where: str) -> dict[str, Any] | None:
        """An animal's own attack (``stats.attacks``): GCS's final damage dice and level, its reach."""
        from fracas.rules.gurps4 import data

        calc = mapping(wp.get("calc"))
        damage = str(calc.get("damage", ""))
        m = _DAMAGE.match(damage.strip())
        if m is None or m.group("type") not in data.wounding():
            self.report.unusable_thing(
                f"natural attack {label} ({damage})",
                "damage fracas cannot read (dice and a type of wounding.toml)",
            )
            return None
        if m.group("rest").strip():
            self.report.unusable_thing(
                f"{m.group('rest').strip()!r} of natural attack {label}",
                "an armor divisor or other damage modifier",
            )
        reach = [
            0 if r == "C" else int(r)
            for r in re.findall(r"C|\d+", str(calc.get("reach") or wp.get("reach") or "C"))
        ]
        usage = str(wp["usage"]) if isinstance(wp.get("usage"), str) and wp["usage"] else label
        attack: dict[str, Any] = {
            "name": plain(usage).replace(" ", "_"),
            "damage": m.group("dice").replace(" ", ""),
            "type": m.group("type"),
            "reach": sorted(set(reach)) or [0],
        }
        skills = self.stats.get("skills", {})
        skill = "Brawling" if "Brawling" in skills else "DX"
        base = skills["Brawling"] if skill == "Brawling" else self.stats["dx"]
        level = calc.get("level")
        attack["skill"] = skill
        if isinstance(level, int | float) and not isinstance(level, bool) and int(level) != base:
            attack["skill_modifier"] = int(level) - base
        how = f"{where}.calc.damage {damage!r}, calc.level {level} ({skill} {base}"
        how += f" {attack.get('skill_modifier', 0):+d})" if level is not None else ")"
        self.report.take(f"stats.attacks.{attack['name']}", f"{attack['damage']} {attack['type']}", how)
        return attack
