"""reference/spells-and-swords.md 2.5 (SSRSKILL): "Humans - reroll 1 failed Saving Throw per day"."""

from __future__ import annotations

from fracas.dice.source import ScriptedDice
from fracas.rules.sas.model import Fighter, build_stats
from fracas.rules.sas.procedures.rolls import save


def who(**kw: object) -> Fighter:
    base: dict[str, object] = {"kind": "human", "size": "human", "movement": 6}
    base.update(kw)
    return Fighter("y", build_stats("", base))


def test_a_human_rerolls_his_first_failed_save_only() -> None:
    """The first failure (4) is rolled again (15: made) and the day's reroll is used; a second failure
    stands."""
    h = who(race="human")
    s = save(h, [], ScriptedDice([4, 15]), "save")
    assert [c.face for c in s.rolls] == [4, 15] and s.success
    assert [e.kind for e in s.effects] == ["save-reroll"]
    h.save_rerolls = 1
    s = save(h, [], ScriptedDice([4]), "save")
    assert [c.face for c in s.rolls] == [4] and not s.success


def test_a_made_save_is_not_rerolled_and_other_races_do_not_reroll() -> None:
    assert len(save(who(race="human"), [], ScriptedDice([15]), "save").rolls) == 1
    assert len(save(who(race="elf"), [], ScriptedDice([4]), "save").rolls) == 1
    # kind "human" (THE BRAWL RULE's category) without a race: the race is said by ``race``
    assert len(save(who(), [], ScriptedDice([4]), "save").rolls) == 1


def test_the_reroll_is_counted_on_the_combatant() -> None:
    """Through the engine: the Choke Hold's failed Save vs Death (10) is rerolled (15) and counted."""
    from sas_by_the_text_helpers import start, unit

    p = start(
        [unit("x", (0, 0), 0, weapons=["unarmed"])],
        [unit("y", (1, 0), 3, race="human"), unit("w", (9, 0), 3)],
        options={"brawl-rule": True},
    )
    p.act("attack", "y", faces=[5, 14, 12, 10, 15, 1])
    assert p.c("y").count("save_rerolls") == 1
