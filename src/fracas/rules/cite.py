"""Citations, and the rules catalog of each ruleset they point into.

Every number a test adds up and every event names the rule it follows: ``Modifier.rule``, ``Rolled.rule``
and the ``rule`` of the other events carry a citation as text, ``"ed4/situation/harried p.388"``: the
ruleset, the rule's id in that ruleset's catalog, and where the text says it (a page, a section heading, a
reference file). :class:`Cite` is that text's shape; ``str(Cite.parse(text)) == text``.

A ruleset's catalog (``rules/<id>/data/rules.toml``) lists every rule of its text, implemented or not, as
``fracas rules <id>`` prints it: each ``[[rule]]`` row an id, a page, a title, a status ("implemented",
"optional", "gm-call"; "implemented" when not given) and a note; ``keys`` names the keys the shared
Earthdawn code cites the row by (``ruleset.ref("damage.wounds")``); ``part`` the part of a ruleset that
brings the row (ED4: "chapter", the whole chapter beyond the core). ``[[optional]]`` rows are the optional
rules an encounter file switches. tests/test_citations.py checks that every citation the code can emit is a
row of its ruleset's catalog.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from fracas.rules.base import OptionalRule, Rule


@dataclass(frozen=True, slots=True)
class Cite:
    """One citation: ``Cite("ed4", "situation/harried", "p.388")`` is ``"ed4/situation/harried p.388"``.

    ``id`` is the rule's path in its ruleset (the catalog row is ``rule_id``, ``"ed4/situation/harried"``);
    ``locator`` is everything after the first space: a page (ED4 "p.388", GURPS "B419"), a section (ED1
    "ch.12§Movement", S&S "(ATTACK TABLE)"), a reference ("(reference 1.4)"), or nothing.
    """

    ruleset: str
    id: str
    locator: str = ""

    @property
    def rule_id(self) -> str:
        """The id of the catalog row, as ``fracas rules`` lists it."""
        return f"{self.ruleset}/{self.id}"

    def __str__(self) -> str:
        return f"{self.rule_id} {self.locator}" if self.locator else self.rule_id

    @classmethod
    def parse(cls, text: str) -> Cite:
        """The citation a rule string holds; ValueError when it is not one (no ``ruleset/id`` first)."""
        head, _, locator = text.partition(" ")
        ruleset, slash, rid = head.partition("/")
        if not (ruleset and slash and rid) or rid.startswith("/") or rid.endswith("/"):
            raise ValueError(f"not a citation (ruleset/id, then the page or section): {text!r}")
        return cls(ruleset, rid, locator)


ROW_KEYS = frozenset({"id", "title", "page", "status", "note", "keys", "part"})
OPTIONAL_KEYS = frozenset({"id", "title", "default", "page", "note", "part"})
STATUSES = frozenset({"implemented", "optional", "gm-call", "not-implemented"})

Rows = Callable[[str], list[Rule]]
"""Rows a ruleset builds from its other data (S&S: one row per line of a table), given the row's page."""


@dataclass(frozen=True, slots=True)
class Catalog:
    """A ruleset's rules catalog, read from its ``data/rules.toml``."""

    ruleset: str
    rules: tuple[Rule, ...]
    optional: tuple[OptionalRule, ...] = ()
    refs: Mapping[str, str] = field(default_factory=dict)
    """The shared Earthdawn code's keys -> the citation of their row (``"damage.wounds"`` ->
    ``"ed4/damage/wounds p.379"``)."""
    parts: Mapping[str, str] = field(default_factory=dict)
    """Rule or optional rule id -> the part of the ruleset that brings it, for the rows that name one."""

    def rows(self, without: frozenset[str] = frozenset()) -> list[Rule]:
        """The rows in the catalog's order, leaving out those of the parts ``without`` names."""
        return [r for r in self.rules if self.parts.get(r.id, "") not in without]

    def optional_rows(self, without: frozenset[str] = frozenset()) -> list[OptionalRule]:
        """The optional rules in the catalog's order, leaving out those of the parts ``without`` names."""
        return [o for o in self.optional if self.parts.get(o.id, "") not in without]


def read_catalog(ruleset: str, package: str, generated: Mapping[str, Rows] | None = None) -> Catalog:
    """Read ``data/rules.toml`` of ``package``. A ``[[rule]]`` entry ``{rows = NAME, page = ...}`` stands for
    the rows ``generated[NAME](page)`` builds, in its place (rows from the ruleset's tables)."""
    text = resources.files(package).joinpath("data/rules.toml").read_text(encoding="utf-8")
    return _catalog(ruleset, tomllib.loads(text), generated or {}, f"{package}/data/rules.toml")


def _catalog(ruleset: str, data: dict[str, Any], generated: Mapping[str, Rows], where: str) -> Catalog:
    rules: list[Rule] = []
    refs: dict[str, str] = {}
    parts: dict[str, str] = {}
    for i, row in enumerate(data.get("rule", [])):
        at = f"{where}: rule {i + 1}"
        if "rows" in row:
            name = row["rows"]
            if set(row) - {"rows", "page"} or name not in generated:
                raise ValueError(f"{at}: rows = {name!r} is not a table this ruleset lists rows of")
            rules += generated[name](row.get("page", ""))
            continue
        unknown = set(row) - ROW_KEYS
        if unknown or not {"id", "title"} <= set(row):
            raise ValueError(f"{at}: needs id and title; unknown fields {sorted(unknown)}")
        rule = Rule(
            row["id"],
            row["title"],
            row.get("page", ""),
            row.get("status", "implemented"),
            row.get("note", ""),
        )
        if rule.status not in STATUSES or Cite.parse(rule.id).ruleset != ruleset:
            raise ValueError(f"{at}: {rule.id!r} (status {rule.status!r}) is not a {ruleset} rule")
        rules.append(rule)
        for key in row.get("keys", ()):
            refs[key] = str(Cite(ruleset, Cite.parse(rule.id).id, rule.page))
        if row.get("part"):
            parts[rule.id] = row["part"]
    optional = []
    for i, row in enumerate(data.get("optional", [])):
        if set(row) - OPTIONAL_KEYS or not {"id", "title", "default"} <= set(row):
            raise ValueError(f"{where}: optional {i + 1}: needs id, title and default")
        optional.append(
            OptionalRule(row["id"], row["title"], row["default"], row.get("page", ""), row.get("note", ""))
        )
        if row.get("part"):
            parts[row["id"]] = row["part"]
    return Catalog(ruleset, tuple(rules), tuple(optional), refs, parts)


@cache
def catalog(ruleset: str) -> Catalog:
    """The catalog of a ruleset whose rows are all in its rules.toml (none built from other tables)."""
    return read_catalog(ruleset, f"fracas.rules.{ruleset}")
