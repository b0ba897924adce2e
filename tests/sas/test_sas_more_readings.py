"""Spells & Swords: Power Points spent within one command, the odds preview of a charge with a Battle Cry,
a mute combatant's Battle Cry, and the reaction marks' rule ids; each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference 5.1
= shared/rules/reference (Spell Check: "1 Power Point" a spell).
"""

from __future__ import annotations

from test_sas_reactions import _attacks, _fight, _goblin, _mods, _turn

from fracas.engine import events as ev
from fracas.engine.commands import Command

# ----- 1. Power Points: what the command has already spent counts ------------------------------------------


def _self_bolt(power_points: int, faces: list[int]) -> tuple[list[ev.Event], int]:
    """Goblin w knows Bolt and the Shield Spell and has ``power_points``; he casts the Bolt at himself (a
    spell needs only a seen target in range), so the Bolt's attack is one the Shield Spell may answer in the
    same command. His events and the Power Points used after it."""
    w = {"template": "goblin", "id": "w", "at": [0, 0]}
    w["stats"] = {"spells": ["bolt", "shield"], "power_points": power_points}
    fight = _fight([w], [_goblin("s", (5, 0))], [20, 1])
    events = _turn(fight, Command("w", "cast-spell", "w", {"spell": "bolt"}), faces)
    return events, fight.state.combatants["w"].count("pp_used")


def test_a_caster_cannot_spend_in_a_reaction_the_point_his_own_spell_just_spent() -> None:
    """Reference 5.1: a spell costs 1 Power Point. w has 1: the Bolt spends it, so he has none for a Shield
    Spell against the Bolt's attack. The engine read the points used from before the command (0) and let him
    cast the Shield Spell too: 2 points spent of 1. Dice: the Bolt's Spell Check 15, its Attack 5 (- Small
    Shield 1 = 4, a Miss)."""
    events, used = _self_bolt(1, [15, 5])
    checks = [e.test for e in events if isinstance(e, ev.Rolled) and e.test.startswith("Spell Check")]
    assert checks == ["Spell Check (Bolt)"]
    assert used == 1
    (bolt,) = _attacks(events)
    assert "Shield Spell" not in _mods(bolt)


def test_a_caster_with_a_point_left_after_his_spell_may_shield() -> None:
    """With 2 Power Points the Shield Spell is still cast (Spell Checks 15 and 15; the Attack 8 - 1 - 2 = 5,
    a Miss): the limit counts the points, it does not forbid the second spell."""
    events, used = _self_bolt(2, [15, 15, 8])
    checks = [e.test for e in events if isinstance(e, ev.Rolled) and e.test.startswith("Spell Check")]
    assert checks == ["Spell Check (Bolt)", "Spell Check (Shield Spell)"]
    assert used == 2
    (bolt,) = _attacks(events)
    assert _mods(bolt)["Shield Spell"] == -2 and bolt.total == 5
