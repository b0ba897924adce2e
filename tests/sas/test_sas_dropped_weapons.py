"""Spells & Swords weapons out of hand: FUMBLE TABLE "Drop Weapon or Item", DISARMED, "Pick up Dropped Item";
a dropped weapon is neither wielded, dual wielded nor shot.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, scripted_fight, turn

from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand


def _fumbled_sword() -> Fight:
    """Fighter a fumbles (Auto Fumble, HTH Fumble 1 Drop Weapon) and drops his Long Sword; b passes."""
    fight = scripted_fight(
        {"template": "fighter", "id": "a", "at": [0, 0], "stats": {"weapons": ["long-sword", "dagger"]}},
        {"template": "fighter", "id": "b", "at": [1, 0]},
    )
    turn(fight, Command("a", "attack", "b"), [1, 1])
    assert fight.state.combatants["a"].marks["dropped"] == "long-sword"
    turn(fight, Command("b", "nothing"), [])
    return fight


def test_a_dropped_weapon_is_not_wielded_by_naming_it() -> None:
    """004 FUMBLE TABLE (HTH WEAPON) 1 "Drop Weapon or Item"; DISARMED "Target Loses his Weapon ... 1 Round to
    retrieve"; COMBAT ROUND ACTIONS LIST "Pick up Dropped Item". The engine let a fighter who had dropped his
    Long Sword attack with it again at once by naming it (`weapon: long-sword`)."""
    fight = _fumbled_sword()
    with pytest.raises(IllegalCommand, match="Pick up Dropped Item"):
        SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "long-sword"}))
    SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "dagger"}))  # another weapon: fine
    # picked up (Easy check + Search: 20), it is his again
    turn(fight, Command("a", "pick-up"), [20])
    turn(fight, Command("b", "nothing"), [])
    SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "long-sword"}))


def test_dual_wield_needs_two_weapons_still_in_hand() -> None:
    """004 DUAL WIELD "a Weapon in each hand"; a dropped weapon (FUMBLE TABLE 1) is not in his hand: Dual
    Wield with a Long Sword on the ground and a Dagger is refused."""
    fight = _fumbled_sword()
    with pytest.raises(IllegalCommand, match="Dual Wield"):
        SAS.validate(fight.state, Command("a", "attack", "b", {"dual": True}))


def test_an_archer_who_dropped_his_bow_does_not_shoot_it() -> None:
    """004 FUMBLE TABLE (RANGED WEAPON) 1-3 "Drop Weapon or Ammo": a shot naming the dropped bow was taken."""
    fight = scripted_fight(
        {"template": "goblin-archer", "id": "g", "at": [0, 0], "tactic": "archer"},
        {"template": "fighter", "id": "b", "at": [8, 0], "tactic": "hold"},
    )
    # Attack: Auto Fumble; Ranged Fumble 1: Drop Weapon or Ammo
    turn(fight, Command("g", "attack", "b", {"weapon": "short-bow"}), [1, 1])
    assert fight.state.combatants["g"].marks["dropped"] == "short-bow"
    turn(fight, Command("b", "nothing"), [])
    with pytest.raises(IllegalCommand, match="Pick up Dropped Item"):
        SAS.validate(fight.state, Command("g", "attack", "b", {"weapon": "short-bow"}))
