"""Every citation the code can emit is a row of its ruleset's rules catalog (``rules/<id>/data/rules.toml``,
what ``fracas rules <id>`` lists), and every rule string has the one shape :class:`Cite` reads."""

from __future__ import annotations

import pytest

from fracas.rules.cite import Cite


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
