"""Every rule id the GURPS code can cite is a rule listed by ``fracas rules gurps4`` (its id exactly): the
source is walked for every string that names a rule, not only what the bundled examples happen to emit."""

from __future__ import annotations

import ast
from pathlib import Path

from fracas.rules.cite import catalog
from fracas.rules.gurps4 import data
from fracas.rules.gurps4.combat import ATTACK_MANEUVERS

SRC = Path(__file__).resolve().parents[2] / "src/fracas/rules/gurps4"

# what each name that an f-string puts into a rule id can be (a name not here fails the walk: add it)
DYNAMIC: dict[tuple[str, str], tuple[str, ...]] = {
    ("maneuvers.py", "maneuver"): ATTACK_MANEUVERS,
    # attack_modifiers: the maneuvers that add to the attack roll
    ("rolls.py", "name"): tuple(
        n for n, m in data.maneuvers().items() if m.skill_bonus_melee or m.skill_bonus_ranged
    ),
    ("maneuvers.py", "section"): ("tricks", "results"),
}


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level NAME = "string" assignments (the rule-id prefixes such as R_DEFENSE)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Name) and isinstance(node.value.value, str):
                    out[t.id] = node.value.value
    return out


def _expand(node: ast.JoinedStr, consts: dict[str, str], where: str) -> list[str]:
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
        elif isinstance(v, ast.Name) and (where.split(":")[0], v.id) in DYNAMIC:
            texts = [t + x for t in texts for x in DYNAMIC[(where.split(":")[0], v.id)]]
        else:
            raise AssertionError(
                f"{where}: a rule id built from {ast.unparse(v)}: list its values in DYNAMIC"
            )
    return texts


def cited_ids() -> dict[str, str]:
    """Every rule id the GURPS source can cite -> where it is."""
    found: dict[str, str] = {}
    imported: dict[str, str] = {}
    trees = {p: ast.parse(p.read_text()) for p in sorted(SRC.glob("*.py"))}
    for tree in trees.values():
        imported.update(_constants(tree))
    for path, tree in trees.items():
        if path.name == "cite.py":
            continue
        consts = {**imported, **_constants(tree)}
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
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
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
                    texts = _expand(node, consts, where)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and node.value.startswith("gurps4/")
            ):
                texts = [node.value]
            for t in texts:
                found.setdefault(t.split()[0], where)
    return found


def test_the_walk_finds_the_citations() -> None:
    ids = cited_ids()
    # a literal, a prefix constant with a literal, a prefix with a maneuver name, an f-string with a part
    for expected in (
        "gurps4/core/shock",
        "gurps4/core/active-defense/retreat",
        "gurps4/core/maneuver/all_out_attack_determined",
        "gurps4/mounted/tricks",
    ):
        assert expected in ids
    assert len(ids) > 60


def test_every_cited_rule_is_listed() -> None:
    listed = catalog("gurps4").ids()
    missing = {i: w for i, w in cited_ids().items() if i not in listed}
    assert not missing, "cited but not listed by `fracas rules gurps4`: " + ", ".join(
        f"{i} ({w})" for i, w in sorted(missing.items())
    )


def test_every_rule_the_bundled_fights_cite_is_listed() -> None:
    """The same from the other end: every rule id in the events of the bundled GURPS fights."""
    import json

    from fracas.dice.source import RandomDice
    from fracas.engine import encounter
    from fracas.engine.events import to_json
    from fracas.engine.play import Fight
    from fracas.rules.registry import get_ruleset

    listed = catalog("gurps4").ids()
    walked = set(cited_ids())
    seen: set[str] = set()
    for path in sorted((SRC.parents[3] / "examples/gurps4").glob("*.yaml")):
        state = encounter.load(path)[1]
        fight = Fight(get_ruleset("gurps4"), state, RandomDice(1), seed=1)
        fight.run()
        for e in fight.log or ():
            text = json.dumps(to_json(e))
            for part in text.split('"')[1:]:
                if part.startswith("gurps4/"):
                    seen.add(part.split()[0])
    assert seen, "no citation found in the events"
    assert seen <= listed, sorted(seen - listed)
    assert seen <= walked, sorted(seen - walked)  # the walk finds what the fights cite
