"""Every rule id the Earthdawn code can cite is listed by ``fracas rules ed4`` / ``fracas rules ed1``: the
ids are read from the source (every string constant that starts with ``ed4/`` or ``ed1/``, the editions'
reference tables, the ids built from the combat-options and situation tables), not from what the bundled
examples happen to emit."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from fracas.rules.cite import catalog
from fracas.rules.ed4 import options, situation
from fracas.rules.registry import get_ruleset

SRC = Path(__file__).resolve().parents[2] / "src" / "fracas" / "rules"
RULE_ID = re.compile(r"(ed4|ed1)/[a-z0-9][a-z0-9/.\-]*[a-z0-9]")


def _source_ids() -> dict[str, str]:
    """Rule ids in string constants of the Earthdawn rules code, with the file that holds each."""
    found: dict[str, str] = {}
    for folder in ("ed4", "ed1", "earthdawn"):
        for path in sorted((SRC / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    m = RULE_ID.match(node.value)
                    if m and (len(node.value) == m.end() or node.value[m.end()] == " "):
                        found.setdefault(m.group(0), f"{folder}/{path.name}")
    return found


def _cited() -> dict[str, set[str]]:
    ids: dict[str, set[str]] = {"ed4": set(), "ed1": set()}
    for rid in _source_ids():
        ids[rid.split("/")[0]].add(rid)
    for refs, name in ((catalog("ed4").refs, "ed4"), (catalog("ed1").refs, "ed1")):
        ids[name] |= {v.split(" ")[0] for v in refs.values()}
    ids["ed4"] |= {options.rule(o).split(" ")[0] for o in options.options_table()}
    ids["ed4"] |= {situation.rule(s).split(" ")[0] for s in situation.table()}
    return ids


def test_the_scan_finds_the_citations() -> None:
    """The scan reads the code: ids known to be cited are among those found (a scan finding nothing would
    pass the next test)."""
    found = _source_ids()
    assert {
        "ed4/combat/spell-threads",
        "ed4/mounted/charging-attack",
    } <= set(found)
    assert len(found) > 30


@pytest.mark.parametrize("name", ["ed4", "ed1"])
def test_every_rule_id_the_code_can_cite_is_listed(name: str) -> None:
    listed = {r.id for r in get_ruleset(name).rules()}
    missing = sorted(_cited()[name] - listed)
    assert missing == [], f"cited by the code but not listed by `fracas rules {name}`: {missing}"
