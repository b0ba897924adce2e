"""Action labels in the rules' words, not their ids: what the game master reads on each button."""

from __future__ import annotations

from pathlib import Path

from fracas.engine.commands import Command
from fracas.engine.encounter import load_data, read_file
from fracas.store.words import describe

ROOT = Path(__file__).resolve().parents[2]


def _state(example: str):
    return load_data(read_file(ROOT / "examples" / example), "x")[1]


def test_gurps_attacks_name_the_weapon_and_the_maneuver_as_the_book_does() -> None:
    """B324: All-Out Attack (Determined); B365: Move and Attack; B366: All-Out Defense (Increased Dodge)."""
    state = _state("gurps4/fight-on-foot.yaml")
    foe = next(iter(state.combatants.values()))
    spear = Command(
        "x", "attack", foe.id, {"weapon": "spear:thrust_two_handed", "maneuver": "all_out_attack_determined"}
    )
    text = describe(spear, state)
    assert text == f"Attack {foe.name} with spear (thrust two handed): All-Out Attack (Determined)"
    assert "_" not in text and "maneuver" not in text
    assert describe(Command("x", "all_out_defense", None, {"variant": "increased_dodge"}), state) == (
        "All-Out Defense (Increased Dodge)"
    )
    plain = Command("x", "attack", foe.id, {"weapon": "broadsword:swing", "maneuver": "attack"})
    assert describe(plain, state) == f"Attack {foe.name} with broadsword (swing)"


def test_earthdawn_first_edition_declarations_read_as_declarations() -> None:
    """ED1 p.208: each character declares his action (and options such as Retreat) before Initiative."""
    state = _state("ed1/thom-hammerblade.yaml")
    assert describe(Command("thom", "declare", None, {"action": "run", "options": ["retreat"]}), state) == (
        "Declare: run, with retreat"
    )
    foe = next(c for c in state.combatants.values() if not c.player)
    assert (
        describe(Command("thom", "declare", foe.id, {"action": "attack"}), state)
        == f"Declare: attack {foe.name}"
    )


def test_the_log_reads_a_roll_under_and_a_wound_in_words() -> None:
    """S&S's Brawl Rule is a roll of 10 or less on 1D20; a single Wound is "a Wound" (ED4 p.379)."""
    from fracas.engine import events as ev
    from fracas.engine.narrate import narrate

    state = _state("sas/ambush.yaml")
    roll = ev.Rolled(
        "bran", "Brawl Rule", 12, {"d20": [12]}, expr="1d20", dn=10, under=True, outcome="weapon attack"
    )
    line = narrate(roll, state, None)
    assert "<=" not in line and "needs 10 or less -> weapon attack" in line
    hurt = narrate(ev.Wounded("bran", 1, rule="x"), state, None)
    assert "takes a Wound" in hurt and "1 wounds" not in hurt
