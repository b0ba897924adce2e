"""REACTIONS: Counterspell ("negate a Spell just cast by a Foe before it takes Affect"). The text gives no
opposed roll (reference 5.2 lists it as open); setting ``counterspell_opposed`` makes the counter's check
total match or beat the caster's Spell Check."""

from __future__ import annotations

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

SAS = get_ruleset("sas")


def casters(opposed: bool) -> Fight:
    data = {
        "version": 1,
        "ruleset": "sas",
        "settings": {"counterspell_opposed": opposed},
        "sides": [
            {"name": "a", "combatants": [{"template": "mage", "id": "m1", "at": [0, 0]}]},
            {"name": "b", "combatants": [{"template": "mage", "id": "m2", "at": [5, 0]}]},
        ],
    }
    _, state = encounter.load_data(data)
    fight = Fight(SAS, state, ScriptedDice([20, 1]))  # side a first
    fight.advance_until_decision()
    return fight


def countered(events: list) -> bool:
    return any(isinstance(e, ev.Note) and "counters" in e.text for e in events)


def test_plain_counterspell_needs_only_its_own_spell_check() -> None:
    fight = casters(False)
    fight.dice = ScriptedDice([15, 12])  # Sleep checks 15, Counterspell 12: both succeed (9+)
    assert countered(fight.submit(Command("m1", "cast-spell", "m2", {"spell": "sleep"})))


def test_opposed_counterspell_weaker_lets_the_spell_through() -> None:
    fight = casters(True)
    fight.dice = ScriptedDice([15, 12, 1, 3, 3])  # 12 < 15: Sleep goes on; save 1 fails; 2D6 rounds
    events = fight.submit(Command("m1", "cast-spell", "m2", {"spell": "sleep"}))
    assert not countered(events)
    assert any(isinstance(e, ev.Note) and "weaker" in e.text for e in events)
    assert fight.state.combatants["m2"].has("knocked-out")


def test_opposed_counterspell_equal_or_better_counters() -> None:
    fight = casters(True)
    fight.dice = ScriptedDice([15, 15])
    assert countered(fight.submit(Command("m1", "cast-spell", "m2", {"spell": "sleep"})))
