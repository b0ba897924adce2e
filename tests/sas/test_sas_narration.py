"""How a fight reads to a game master: nouns, causes before deaths, which Defense bonus counts."""

from __future__ import annotations

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.rules.registry import get_ruleset
from fracas.rules.sas.fold import EventBuilder
from fracas.rules.sas.model import fighter
from fracas.rules.sas.procedures.attack import Situation, resolve_attack
from fracas.rules.sas.procedures.rolls import Effect

SAS = get_ruleset("sas")


def state(settings: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {
        "version": 1,
        "ruleset": "sas",
        "sides": [
            {"name": "a", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
            {"name": "b", "combatants": [{"template": "goblin", "id": "gob", "at": [1, 0]}]},
        ],
    }
    if settings:
        data["settings"] = settings
    return encounter.load_data(data)[1]


def test_noun_conditions_read_suffers() -> None:
    """HARMFULL CONDITIONS: "Partial Blindness" is a noun, "Knocked Down" a state."""
    s = state()
    line = SAS.narrate(ev.ConditionAdded("gob", "partial-blindness", None, source="Poke in the Eye"), s)
    assert line is not None and f"{s.combatants['gob'].name} suffers Partial Blindness" in line
    down = SAS.narrate(ev.ConditionAdded("gob", "knocked-down", None, source="Trip"), s)
    assert down is not None and "is Knocked Down" in down


def test_cause_of_death_comes_before_the_death() -> None:
    """DEATH BY A THOUSAND CUTS: the Wound Level line, then the status."""
    s = state()
    b = EventBuilder(s)
    b.effects([Effect("dead", "gob", why="Wound Level reached", rule="sas/death-by-a-thousand-cuts")])
    kinds = [type(e).__name__ for e in b.events]
    assert kinds.index("Note") < kinds.index("StatusChanged")


def test_lowered_defense_names_its_cause() -> None:
    """CHARGE RULES: Defense -4 for the charger; the attacker's modifier says it is the Charge."""
    bran, gob = fighter("bran", "fighter"), fighter("gob", "goblin")
    gob.next["defense"] = -4
    gob.defense_why = "Charge"
    r = resolve_attack(bran, gob, Situation(), ScriptedDice([10]))
    mods = {m.why: m.value for m in r.roll.mods}
    assert mods["target's Defense this round (Charge)"] == 4


def test_long_durations_read_in_hours() -> None:
    """Spell Check 7-8: Knocked Out 1D4 hours (reference 5.1); a round is about 10 seconds."""
    s = state()
    line = SAS.narrate(ev.ConditionAdded("gob", "knocked-out", s.round + 1080, source="Spell Check"), s)
    assert line is not None and "for about 3 hours" in line
    short = SAS.narrate(ev.ConditionAdded("gob", "stunned", s.round + 2, source="x"), s)
    assert short is not None and f"until the end of round {s.round + 2}" in short


def test_durations_read_in_the_encounters_own_rounds_per_minute() -> None:
    """A round is about 10 seconds (6 a minute); an encounter that sets rounds_per_minute reads its
    durations by its own count, not the data file's."""
    s = state({"rounds_per_minute": 10})
    line = SAS.narrate(ev.ConditionAdded("gob", "knocked-out", s.round + 1080, source="Spell Check"), s)
    assert line is not None and "for about 2 hours" in line
    short = SAS.narrate(ev.ConditionAdded("gob", "stunned", s.round + 30, source="x"), s)
    assert short is not None and "for about 3 minutes" in short
