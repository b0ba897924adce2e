"""Every citation the code can emit is a row of its ruleset's rules catalog (``rules/<id>/data/rules.toml``,
what ``fracas rules <id>`` lists), and every rule string has the one shape :class:`Cite` reads.

Two ends: the fights (every rule an event or a modifier of the bundled examples cites, several seeds) and the
source (every citation literal, every key the Earthdawn code cites a row by, every id a call builds from a
table, an action or a setting, enumerated from the data the code reads it from). The source walk must find
everything the fights cite: a walk that misses a way of citing fails here, not silently.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import to_json
from fracas.engine.play import Fight
from fracas.rules.cite import Cite, catalog
from fracas.rules.registry import RULESETS, get_ruleset

ROOT = Path(__file__).resolve().parents[1]
RULES_SRC = ROOT / "src/fracas/rules"
SEEDS = (1, 2, 3)

# a rule id that two rows share: "light" names both a weapon class (-2) and an armor class (-2) in the DAMAGE
# TABLE MODIFIER LIST; a citation of it is ambiguous (to be split into two ids, a change of the fights' text)
SHARED_IDS = {"sas/damage-modifiers/light"}


@cache
def listed(ruleset: str) -> dict[str, str]:
    """The rows ``fracas rules <ruleset>`` lists: id -> page (optional rules too)."""
    rs = get_ruleset(ruleset)
    rows = {o.id: o.page for o in rs.optional_rules()}
    rows.update({r.id: r.page for r in reversed(rs.rules())})
    return rows


def locator_of(cite: Cite, page: str) -> str | None:
    """The locator a citation of a row with ``page`` carries; None where it may carry another (GURPS cites
    the Basic Set page of the detail within a row's range, and notes such as "(x2 imp at torso)")."""
    if cite.ruleset == "gurps4":
        return None
    return f"({page})" if cite.ruleset == "sas" else page


def check(texts: dict[str, str], ruleset: str) -> list[str]:
    """The citations among ``texts`` (text -> where) that are not rows of the catalog, or cite another
    page than their row's."""
    rows = listed(ruleset)
    bad = []
    for text, where in sorted(texts.items()):
        try:
            cite = Cite.parse(text)
        except ValueError:
            bad.append(f"{where}: {text!r} is not a citation")
            continue
        if cite.ruleset != ruleset or cite.rule_id not in rows:
            bad.append(f"{where}: {text!r} is not a row of `fracas rules {ruleset}`")
        elif cite.locator and (want := locator_of(cite, rows[cite.rule_id])) not in (None, cite.locator):
            bad.append(f"{where}: {text!r} cites {cite.locator!r}, its row says {want!r}")
    return bad


# ----- the shape --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cite"),
    [
        ("ed4/situation/harried p.388", Cite("ed4", "situation/harried", "p.388")),
        ("ed4/test/rule-of-one (reference 1.4)", Cite("ed4", "test/rule-of-one", "(reference 1.4)")),
        (
            "ed1/attack/test ch.12§Resolving-Attacks (reference 1.5)",
            Cite("ed1", "attack/test", "ch.12§Resolving-Attacks (reference 1.5)"),
        ),
        ("gurps4/core/critical", Cite("gurps4", "core/critical")),
        (
            "gurps4/core/damage/dr B378-379 (x2 imp at torso)",
            Cite("gurps4", "core/damage/dr", "B378-379 (x2 imp at torso)"),
        ),
        (
            "sas/fumble-hth/stagger (FUMBLE TABLE (HTH WEAPON))",
            Cite("sas", "fumble-hth/stagger", "(FUMBLE TABLE (HTH WEAPON))"),
        ),
    ],
)
def test_a_citation_reads_back_as_written(text: str, cite: Cite) -> None:
    assert Cite.parse(text) == cite
    assert str(cite) == text
    assert cite.rule_id == text.split(" ")[0]


@pytest.mark.parametrize("text", ["", "ed4", "ed4/ p.3", "/situation p.3", "harried p.388", "ed4/situation/"])
def test_what_is_not_a_citation_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a citation"):
        Cite.parse(text)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_each_row_is_listed_once_under_its_ruleset(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    ids = [r.id for r in rs.rules()] + [o.id for o in rs.optional_rules()]
    assert all(Cite.parse(i).ruleset == ruleset for i in ids if "/" in i)
    twice = {i for i in ids if ids.count(i) > 1}
    assert twice <= SHARED_IDS, sorted(twice)


def test_the_earthdawn_keys_cite_their_rows() -> None:
    """A key of the shared Earthdawn code cites its row's id and page, in each edition."""
    for ed in ("ed4", "ed1"):
        cat = catalog(ed)
        pages = {r.id: r.page for r in cat.rules}
        for key, text in cat.refs.items():
            cite = Cite.parse(text)
            assert pages[cite.rule_id] == cite.locator, (ed, key)
    assert catalog("ed4").refs["damage.wounds"] == "ed4/damage/wounds p.379"
    assert catalog("ed1").refs["movement"] == "ed1/movement/combat-movement ch.12§Movement"


# ----- the fights -------------------------------------------------------------------------------------------


def _rule_strings(obj: object, out: set[str]) -> None:
    """The rule strings of an event in its JSON form: every ``rule`` field, every modifier's third element."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "rule" and isinstance(value, str):
                if value:
                    out.add(value)
            elif key == "modifiers" and isinstance(value, list):
                out.update(m[2] for m in value if isinstance(m, list) and len(m) > 2 and m[2])
            else:
                _rule_strings(value, out)
    elif isinstance(obj, list):
        for value in obj:
            _rule_strings(value, out)


@cache
def fight_citations(ruleset: str) -> dict[str, str]:
    """Every rule string the bundled examples of a ruleset emit (seeds 1-3) -> the first fight that does."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "examples" / ruleset).glob("*.yaml")):
        for seed in SEEDS:
            fight = Fight(get_ruleset(ruleset), encounter.load(path)[1], RandomDice(seed), seed=seed)
            fight.run()
            texts: set[str] = set()
            for e in fight.log or ():
                _rule_strings(to_json(e), texts)
            for t in texts:
                found.setdefault(t, f"{path.name} seed {seed}")
    return found


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_citation_of_the_bundled_fights_is_a_row(ruleset: str) -> None:
    cited = fight_citations(ruleset)
    assert len(cited) > 15, "the fights cite (almost) nothing: the events are not read"
    assert check(cited, ruleset) == []


# ----- the source -------------------------------------------------------------------------------------------


def _trees(*folders: str) -> dict[str, ast.Module]:
    """The modules of ``rules/<folder>`` (sub-packages too), by path under rules/."""
    return {
        p.relative_to(RULES_SRC).as_posix(): ast.parse(p.read_text("utf-8"))
        for folder in folders
        for p in sorted((RULES_SRC / folder).rglob("*.py"))
    }


def _functions(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """(the innermost function holding it, node) for every node of a module ("" at module level)."""
    out: list[tuple[str, ast.AST]] = []

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
            out.append((inner, child))
            visit(child, inner)

    visit(tree, "")
    return out


def _string_constants(tree: ast.Module, module_level: bool = False) -> dict[str, str]:
    """NAME = "string" assignments anywhere in a module (module constants, class attributes), or only at its
    top level."""
    out = {}
    for node in tree.body if module_level else ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Name) and isinstance(node.value.value, str):
                    out[t.id] = node.value.value
    return out


# --- Earthdawn: citation literals, and the keys the code cites rows by

ED_CITE = re.compile(r"(ed4|ed1)/[a-z0-9][a-z0-9/.\-]*[a-z0-9]")

# keys a call takes that are not literals where it is made: function -> the keys it can take
ED_DYNAMIC_KEYS: dict[str, tuple[str, ...]] = {
    "validate": ("charge", "swoop"),  # ED1: a special action declared without the attack
}
ED_EDITIONS = {"earthdawn": ("ed4", "ed1"), "ed4": ("ed4",), "ed1": ("ed1",)}


def _key_values(arg: ast.AST, consts: dict[str, str]) -> list[str] | None:
    """The keys an argument can be: a literal, a class constant (``self.FLED_RULE``), either branch of a
    conditional; None when it cannot be read from the source."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.Attribute) and arg.attr in consts:
        return [consts[arg.attr]]
    if isinstance(arg, ast.IfExp):
        body, orelse = _key_values(arg.body, consts), _key_values(arg.orelse, consts)
        return None if body is None or orelse is None else body + orelse
    return None


@cache
def earthdawn_source() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(citation literals -> where, {edition: {key -> where}}) of rules/earthdawn, ed4 and ed1."""
    literals: dict[str, str] = {}
    keys: dict[str, dict[str, str]] = {"ed4": {}, "ed1": {}}
    trees = _trees("earthdawn", "ed4", "ed1")
    for name, tree in trees.items():
        consts = _string_constants(tree)
        aliases = {
            t.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Attribute) and n.value.attr == "ref"
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        editions = ED_EDITIONS[name.split("/")[0]]
        for scope, node in _functions(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                m = ED_CITE.match(node.value)
                if m and (len(node.value) == m.end() or node.value[m.end()] == " "):
                    literals.setdefault(node.value, where)
            arg: ast.AST | None = None
            if isinstance(node, ast.Call) and node.args and scope != "ref":
                f = node.func
                if (isinstance(f, ast.Attribute) and f.attr == "ref") or (
                    isinstance(f, ast.Name) and f.id in aliases
                ):
                    arg = node.args[0]
            elif isinstance(node, ast.Subscript) and scope != "ref":
                v = node.value
                if (isinstance(v, ast.Attribute) and v.attr == "refs") or (
                    isinstance(v, ast.Name) and v.id == "refs"
                ):
                    arg = node.slice
            if arg is None:
                continue
            found = _key_values(arg, consts)
            if found is None and scope in ED_DYNAMIC_KEYS:
                found = list(ED_DYNAMIC_KEYS[scope])
            if found is None:
                raise AssertionError(
                    f"{where}: a rule key from {ast.unparse(arg)}: list it in ED_DYNAMIC_KEYS"
                )
            for ed in editions:
                for key in found:
                    keys[ed].setdefault(key, where)
    return literals, keys


def earthdawn_cited(edition: str) -> dict[str, str]:
    """Every citation the Earthdawn code can emit under an edition -> where."""
    from fracas.rules.ed4 import options, situation

    literals, keys = earthdawn_source()
    refs = catalog(edition).refs
    out = {t: w for t, w in literals.items() if t.startswith(edition + "/")}
    out.update({refs.get(k, f"{edition}/? key {k}"): w for k, w in keys[edition].items()})
    if edition == "ed4":
        out.update({options.rule(o): "ed4/options.py rule()" for o in options.options_table()})
        out.update({situation.rule(s): "ed4/situation.py rule()" for s in situation.table()})
    return out


@pytest.mark.parametrize("edition", ["ed4", "ed1"])
def test_every_key_the_earthdawn_code_cites_is_in_the_catalog(edition: str) -> None:
    missing = {k: w for k, w in earthdawn_source()[1][edition].items() if k not in catalog(edition).refs}
    assert missing == {}, f"keys with no row in {edition}/data/rules.toml (add the key to a row): {missing}"


# --- GURPS: literals and f-strings that start with "gurps4/"


# what each name that an f-string puts into a rule id can be (a name not here fails the walk: add it)
@cache
def _gurps_dynamic() -> dict[tuple[str, str], tuple[str, ...]]:
    from fracas.rules.gurps4 import data
    from fracas.rules.gurps4.figure import ATTACK_MANEUVERS

    return {
        ("attack.py", "maneuver"): ATTACK_MANEUVERS,
        # attack_modifiers: the maneuvers that add to the attack roll
        ("rolls.py", "name"): tuple(
            n for n, m in data.maneuvers().items() if m.skill_bonus_melee or m.skill_bonus_ranged
        ),
        ("attack.py", "section"): ("tricks", "results"),
    }


def _gurps_expand(node: ast.JoinedStr, consts: dict[str, str], file: str, where: str) -> list[str]:
    dynamic = _gurps_dynamic()
    texts = [""]
    for part in node.values:
        if isinstance(part, ast.Constant):
            text = str(part.value)
            head = text.split(maxsplit=1)[0] if text[:1].strip() else ""
            texts = [t + head for t in texts]
            if head != text:
                break  # the id ends at the first space: what follows is the page or a note
            continue
        assert isinstance(part, ast.FormattedValue)
        v = part.value
        if isinstance(v, ast.Name) and v.id in consts:
            texts = [t + consts[v.id] for t in texts]
        elif isinstance(v, ast.Name) and (file, v.id) in dynamic:
            texts = [t + x for t in texts for x in dynamic[(file, v.id)]]
        else:
            raise AssertionError(f"{where}: a rule id built from {ast.unparse(v)}: list its values")
    return texts


@cache
def gurps_cited() -> dict[str, str]:
    """Every rule id the GURPS source can cite -> where (ids only: see ``locator_of``)."""
    found: dict[str, str] = {}
    trees = _trees("gurps4")
    imported: dict[str, str] = {}  # module constants, as any module may import them (R_DEFENSE)
    for tree in trees.values():
        imported.update(_string_constants(tree, module_level=True))
    for name, tree in trees.items():
        consts = {**imported, **_string_constants(tree)}
        # the parts of an f-string are read with it; a module's prefix constants (R = "gurps4/mounted") are
        # read where they are used
        inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        inner |= {
            id(n.value)
            for n in tree.body
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and (t.id == "R" or t.id.startswith("R_")) for t in n.targets)
        }
        for node in ast.walk(tree):
            if id(node) in inner:
                continue
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            texts: list[str] = []
            if isinstance(node, ast.JoinedStr):
                first = node.values[0] if node.values else None
                head = (
                    first.value
                    if isinstance(first, ast.Constant)
                    else consts.get(first.value.id, "")
                    if isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name)
                    else ""
                )
                if str(head).startswith("gurps4/"):
                    texts = _gurps_expand(node, consts, Path(name).name, where)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("gurps4/")
            ):
                texts = [node.value]
            for t in texts:
                found.setdefault(t.split()[0], where)
    return found


# --- S&S: rule() and setting() calls

# rule ids that are not literals where they are cited: enclosing function -> the ids they take
SAS_DYNAMIC_BASES: dict[str, tuple[str, ...]] = {
    "roll_fumble": ("fumble-hth", "fumble-ranged", "monster-fumbles"),
    "_defender_state": ("confusion", "choke"),
    "action_check": ("actions", "reactions"),
    "_horde": ("dog-pile", "horde-attack"),
    "_check_horde": ("dog-pile", "horde-attack"),
}


def _sas_dynamic(scope: str) -> tuple[str, ...]:
    if scope == "roll_penalties":
        from fracas.rules.sas.procedures.rolls import _PENALTY_CONDITIONS

        return (*_PENALTY_CONDITIONS.values(), "blinded", "partial-blindness")
    return SAS_DYNAMIC_BASES.get(scope, ())


def _sas_family(base: str) -> set[str]:
    """The details a ``rule(base, <not a literal>)`` can take, from the data the code reads them from."""
    from fracas.rules.sas.tables import tables

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


@cache
def sas_cited() -> dict[str, str]:
    """Every citation the S&S source can emit (through rule() and setting()) -> where."""
    from fracas.rules.sas.rules import rule, setting
    from fracas.rules.sas.tables import Settings, tables

    out: dict[str, str] = {}
    for name, tree in _trees("sas").items():
        for scope, node in _functions(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("rule", "setting") or scope in ("rule", "setting"):
                continue
            where = f"{name}:{node.lineno}"
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            if node.func.id == "setting":
                names = (
                    [args[0]]
                    if args and args[0] is not None
                    else [*Settings.model_fields, *(f"spells.{s}" for s in tables().magic.spells)]
                )
                out.update({setting(n): where for n in names})
                continue
            bases = [args[0]] if args[0] is not None else list(_sas_dynamic(scope))
            assert bases, f"{where}: rule() of an id that is not a literal (list it in SAS_DYNAMIC_BASES)"
            for base in bases:
                if f"sas/{base}" not in listed("sas"):
                    out[f"sas/{base} (?)"] = where
                    continue
                if len(args) == 1:
                    out.setdefault(rule(base), where)
                    continue
                details = {args[1]} if args[1] is not None else _sas_family(base)
                for d in details:
                    try:
                        out.setdefault(rule(base, d), where)
                    except KeyError:
                        out[f"sas/{base}/{d} (?)"] = where
    return out


def test_each_listed_sas_function_still_builds_a_rule_id() -> None:
    """SAS_DYNAMIC_BASES names functions: one renamed or gone would leave a stale row (its new name fails the
    walk above)."""
    builders = {
        scope
        for tree in _trees("sas").values()
        for scope, node in _functions(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "rule"
        and node.args
        and not isinstance(node.args[0], ast.Constant)
    }
    assert set(SAS_DYNAMIC_BASES) | {"roll_penalties"} <= builders


SOURCE_WALKS = {
    "ed4": lambda: earthdawn_cited("ed4"),
    "ed1": lambda: earthdawn_cited("ed1"),
    "gurps4": gurps_cited,
    "sas": sas_cited,
}


def test_the_walks_find_the_citations() -> None:
    """Citations known to be in the code, each made another way, are found (a walk finding nothing would
    pass the next test)."""
    assert {"ed4/combat/spell-threads", "ed4/mounted/charging-attack"} <= {
        t.split(" ")[0] for t in earthdawn_source()[0]
    }
    assert {"damage.wounds", "movement.double", "special.retreat"} <= set(earthdawn_source()[1]["ed1"])
    assert {
        "gurps4/core/shock",
        "gurps4/core/active-defense/retreat",
        "gurps4/core/maneuver/all_out_attack_determined",
        "gurps4/mounted/tricks",
    } <= set(gurps_cited())
    assert {
        "sas/knocked-down (KNOCKED DOWN)",
        "sas/attack-table/critical-hit (ATTACK TABLE)",
        "sas/setting/break_check (docs/rulesets/sas.md)",
    } <= set(sas_cited())


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_citation_the_source_can_emit_is_a_row(ruleset: str) -> None:
    cited = SOURCE_WALKS[ruleset]()
    assert len(cited) > 30
    assert check(cited, ruleset) == []


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_source_walk_finds_what_the_fights_cite(ruleset: str) -> None:
    walked = {Cite.parse(t).rule_id for t in SOURCE_WALKS[ruleset]()}
    unseen = {t: w for t, w in fight_citations(ruleset).items() if Cite.parse(t).rule_id not in walked}
    assert unseen == {}, (
        f"cited by a fight, not found by the walk of the source: {json.dumps(unseen, indent=1)}"
    )
