"""Modifiers that explain themselves, as the engine carries them: ``Modifier(value, why, rule)``.

The rule string names the ruleset, the rule and the Basic Set page the rules text
(``rules/002_0b9ddace88bc0e75.txt``, pp.B396-398) or REFERENCE.md (reference/gurps.md) gives for it, e.g.
``"gurps4/mounted/couched-lance B397"``. :func:`mod` builds one from the rule id and the page.
"""

from __future__ import annotations

from collections.abc import Iterable

from fracas.rules.base import Modifier

TEXT = "002_0b9ddace88bc0e75.txt"

# Pages of the rules text's sections (reference/gurps.md: the text is Basic Set pp.B396-398).
P_MOUNTED = "B396"
P_CAVALRY = "B397"
P_AERIAL = "B398"

__all__ = ["Modifier", "mod", "total", "explain", "P_MOUNTED", "P_CAVALRY", "P_AERIAL", "TEXT"]


def mod(value: int, why: str, rule: str, page: str = "") -> Modifier:
    """A :class:`Modifier` whose rule string is ``"<rule id> <page>"``."""
    return Modifier(value, why, f"{rule} {page}".strip())


def total(mods: Iterable[Modifier]) -> int:
    return sum(m.value for m in mods)


def explain(base: int, base_why: str, mods: Iterable[Modifier]) -> str:
    """``"Broadsword 14 -2 ... = 12"``: a one-line account of an effective value."""
    mods = list(mods)
    parts = [f"{base_why} {base}"] + [str(m) for m in mods]
    return " ".join(parts) + f" = {base + total(mods)}"
