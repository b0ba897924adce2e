"""Every rule id the Spells & Swords code can cite is listed by ``fracas rules sas``.

Two walks: the source (every ``rule(...)`` and ``setting(...)`` call of src/fracas/rules/sas: literal ids
exactly, and each id a call builds from a table row, an action or a setting, enumerated from the data), and
the fights (every rule an event or a modifier of the bundled examples cites).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset
from fracas.rules.sas.procedures.rolls import _PENALTY_CONDITIONS
from fracas.rules.sas.tables import Settings, tables

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src/fracas/rules/sas"
SAS = get_ruleset("sas")
LISTED = {r.id for r in SAS.rules()}


# rule ids that are not literals where they are cited: (file, function) -> the ids they take
DYNAMIC_BASES = {
    ("procedures/wounds.py", "roll_fumble"): ("fumble-hth", "fumble-ranged", "monster-fumbles"),
    ("procedures/rolls.py", "roll_penalties"): (
        *_PENALTY_CONDITIONS.values(),
        "blinded",
        "partial-blindness",
    ),
    ("procedures/attack.py", "attack_modifiers"): ("confusion", "choke"),
    ("procedures/rolls.py", "action_check"): ("actions", "reactions"),
    ("ruleset.py", "_do_horde"): ("dog-pile", "horde-attack"),
    ("ruleset.py", "_validate_attack"): ("dog-pile", "horde-attack"),
}


def _calls() -> list[tuple[str, tuple[str | None, ...], str, tuple[str, str]]]:
    """(function, its arguments: the string when literal, else None, where, (file, enclosing function)) of
    every rule()/setting() call."""
    out = []
    for path in sorted(SOURCE.rglob("*.py")):
        name = path.relative_to(SOURCE).as_posix()
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                if node.func.id in ("rule", "setting"):
                    args = tuple(a.value if isinstance(a, ast.Constant) else None for a in node.args)
                    out.append((node.func.id, args, f"{name}:{node.lineno}", (name, fn.name)))
    return out


def _family(base: str) -> set[str]:
    """The details a ``rule(base, <not a literal>)`` can take, from the data the code reads them from."""
    t = tables()
    rows = {
        "attack-table": t.attack,
        "damage-table": t.damage,
        "light-wounds": t.wounds.light,
        "major-wounds": t.wounds.major,
        "bleeding": t.wounds.bleed,
        "random-body-part": t.wounds.body_parts,
        "confusion-table": t.conditions.confusion_table,
        "random-brawl": t.brawl,
        "fumble-hth": t.fumbles.hth,
        "fumble-ranged": t.fumbles.ranged,
        "monster-fumbles": t.fumbles.monster,
    }
    if base in rows:
        return {r.id for r in rows[base].rows}
    if base == "actions":
        return set(t.combat.actions)
    if base == "reactions":
        return set(t.combat.reactions)
    if base == "attack-modifiers":
        return set(t.attack.modifiers)
    if base == "damage-modifiers":  # a weapon class whose modifier is 0 is never a line
        return {k for k, w in t.damage.weapon_classes.items() if w.value} | set(t.damage.armor_classes)
    if base == "skill-check":
        return {"easy", "moderate", "hard", "heroic"}
    if base == "spell-check":
        return {r.id for r in t.magic.rows} | {r.id for r in t.magic.failure.rows}
    if base == "save":
        return {f"race-{r}" for r in t.saves.race} | {f"calling-{c}" for c in t.saves.calling}
    raise AssertionError(f"rule({base!r}, ...) with a detail this test cannot enumerate: add it here")


def test_every_rule_id_the_source_can_cite_is_listed() -> None:
    missing = []
    for fn, args, where, scope in _calls():
        if fn == "rule" and args and args[0] is None and scope in DYNAMIC_BASES:
            for base in DYNAMIC_BASES[scope]:
                if len(args) == 1:
                    ids = {f"sas/{base}"}
                else:
                    ids = {f"sas/{base}/{d}" for d in ({args[1]} if args[1] is not None else _family(base))}
                missing += [f"{where}: {i}" for i in sorted(ids - LISTED)]
            continue
        if fn == "setting":
            ids = (
                {f"sas/setting/{args[0]}"}
                if args and args[0] is not None
                else {f"sas/setting/{n}" for n in Settings.model_fields}
                | {f"sas/setting/spells.{s}" for s in tables().magic.spells}
            )
        elif args[0] is None:
            missing.append(f"{where}: rule() of an id that is not a literal (add it to DYNAMIC_BASES)")
            continue
        elif len(args) == 1:
            ids = {f"sas/{args[0]}"}
        elif args[1] is not None:
            ids = {f"sas/{args[0]}/{args[1]}"}
        else:
            ids = {f"sas/{args[0]}/{d}" for d in _family(args[0])}
        missing += [f"{where}: {i}" for i in sorted(ids - LISTED)]
    assert not missing


def _cited(e: ev.Event) -> list[str]:
    out = [getattr(e, "rule", "") or ""]
    out += [m[2] for m in getattr(e, "modifiers", ()) or () if len(m) > 2]
    return [r.split(" (")[0] for r in out if r.startswith("sas/")]


@pytest.mark.parametrize("path", sorted((ROOT / "examples/sas").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_rule_the_bundled_fights_cite_is_listed(path: Path) -> None:
    cited: set[str] = set()
    for seed in (1, 2):
        state = encounter.load(path)[1]
        fight = Fight(SAS, state, RandomDice(seed), seed=seed)
        fight.run()
        for e in fight.log or ():
            cited.update(_cited(e))
    assert cited and not sorted(cited - LISTED)
