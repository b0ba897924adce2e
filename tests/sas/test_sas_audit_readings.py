"""Spells & Swords audit: rules bugs found reading the text section by section, each played
with scripted dice through the engine.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading).
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, scripted_fight, turn

from fracas.dice.source import ScriptedDice
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


def _moved_mod(events: list) -> int | None:
    from fracas.engine import events as ev

    (shot,) = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    found = [m[0] for m in shot.modifiers if m[1] == "Defender Moved on last Action"]
    return found[0] if found else None


def _turn_events(fight: Fight, cmd: Command, faces: list[int]) -> list:
    fight.dice = ScriptedDice(faces)
    events = fight.submit(cmd)
    fight.dice = ScriptedDice([])
    fight.advance_until_decision()
    return events


def test_defender_moved_on_last_action_reads_the_defenders_last_turn() -> None:
    """004 ATTACK TABLE MODIFIERS "Defender Moved on last Action -1 Ranged Attack by Attacker. Foe Running
    Away". Goblin g's side acts first; archer a's second. In round 1 g walks, then a shoots him: g's last
    action was that move (-1). In round 2 g stands (nothing), then a shoots: his last action was no move (no
    -1). The engine read "moved in the previous round" whatever the order of the sides: no -1 in round 1, a
    -1 in round 2."""
    fight = scripted_fight(
        {"template": "goblin", "id": "g", "at": [12, 0], "tactic": "hold"},
        {"template": "goblin-archer", "id": "a", "at": [0, 0], "tactic": "hold"},
    )
    _turn_events(fight, Command("g", "walk", None, {"to": [10, 0]}), [])
    events = _turn_events(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])  # a Miss
    assert _moved_mod(events) == -1
    _turn_events(fight, Command("g", "nothing"), [20, 1] if fight.state.round == 1 else [])
    assert fight.state.round == 2
    events = _turn_events(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])
    assert _moved_mod(events) is None


def test_defender_moved_when_his_side_acts_after_the_shooter() -> None:
    """004 ATTACK TABLE MODIFIERS "Defender Moved on last Action": archer a's side first, goblin g's second.
    g walks in round 1; in round 2 a shoots before g has acted again: g's last action was the move (-1)."""
    fight = scripted_fight(
        {"template": "goblin-archer", "id": "a", "at": [0, 0], "tactic": "hold"},
        {"template": "goblin", "id": "g", "at": [12, 0], "tactic": "hold"},
    )
    _turn_events(fight, Command("a", "nothing"), [])
    _turn_events(fight, Command("g", "walk", None, {"to": [10, 0]}), [])
    assert fight.state.round == 2
    events = _turn_events(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])
    assert _moved_mod(events) == -1


def test_mounted_bonuses_count_for_a_shot_from_the_saddle() -> None:
    """004 MOUNTED COMBAT: "Versus Unmounted Foes you get Attack and Damage +1. If your Mount is Moving get
    Damage +1 from Momentum." The text names no kind of attack; the engine gave them to melee attacks only,
    so a horse archer with Ride +2 shooting a man on foot had neither."""
    from fracas.rules.sas.model import fighter
    from fracas.rules.sas.procedures.attack import Situation, attack_modifiers
    from fracas.rules.sas.procedures.damage import damage_modifiers

    rider = fighter("r", "fighter", skills={"ride": 2}, weapons=["short-bow"])
    rider.mounted_on, rider.mount_moving = "horse", True
    foe = fighter("f", "fighter")
    shot = Situation(ranged=True, distance_m=20.0, weapon="short-bow")
    assert sum(m.value for m in attack_modifiers(rider, foe, shot) if "mounted" in m.rule) == 1
    assert sum(m.value for m in damage_modifiers(rider, foe, shot) if "mounted" in m.rule) == 2
    foe.mounted_on = "pony"  # against a mounted foe: the momentum only
    assert not [m for m in attack_modifiers(rider, foe, shot) if "mounted" in m.rule]
    assert sum(m.value for m in damage_modifiers(rider, foe, shot) if "mounted" in m.rule) == 1


def test_dizzy_from_the_bleed_table_lasts_one_round() -> None:
    """004 BLEEDING: "At the beginning of every Round you start with one or more Bleeds, Roll once on the
    Bleed Table"; BLEED TABLE 4 "Dizzy: Get -2 to all Rolls next Round". Rolled at the beginning of round 1,
    the Dizzy -2 is on the bleeder's rolls of round 1 and gone in round 2 (where the next Bleed roll decides
    anew). The engine kept it to the end of round 2: two rounds of -2 from one roll."""
    fight = scripted_fight(
        {"template": "fighter", "id": "bran", "at": [0, 0]},
        {"template": "goblin", "id": "g", "at": [9, 0]},
    )
    # _duel has played round 1's start already: set the Bleed up and look at round 2's start instead
    bran = fight.state.combatants["bran"]
    bran.counters["bleeds"] = 1
    bran.marks["bleed_death_round"] = 99
    turn(fight, Command("bran", "nothing"), [])
    fight.dice = ScriptedDice([4])  # round 2 begins: Bleed Table 4, Dizzy
    fight.submit(Command("g", "nothing"))
    fight.advance_until_decision()
    assert fight.state.round == 2 and bran.conditions["dizzy"].until_round == 2
    turn(fight, Command("bran", "nothing"), [])
    fight.dice = ScriptedDice([5])  # round 3 begins: Bleed Table 5, Weakened (no Dizzy)
    fight.submit(Command("g", "nothing"))
    fight.advance_until_decision()
    assert fight.state.round == 3 and "dizzy" not in bran.conditions


def test_underwater_weapon_penalty_is_not_on_a_brawl_or_grapple() -> None:
    """004 UNDERWATER COMBAT: "Blunt, Swinging, Cutting, Slashing, and Slicing Weapons are ineffective
    underwater. They get penalties of Attack and Damage -3." A Random Brawl Attack uses no weapon (THE BRAWL
    RULE: "instead of using a Weapon in hand"), nor does a Dog Pile (a single Grapple Attack). A brawl on a
    table row had no -3, but one whose 1D60 face has no row (an unmodified brawl attack) and a Dog Pile took
    the Long Sword's -3 from the weapon in hand."""
    from fracas.rules.sas.model import fighter
    from fracas.rules.sas.procedures.attack import Situation, attack_modifiers
    from fracas.rules.sas.procedures.damage import damage_modifiers

    a, d = fighter("a", "fighter"), fighter("d", "fighter")
    assert a.wielded == "long-sword"

    def underwater(mods: list) -> list:
        return [m for m in mods if "underwater" in m.rule]

    sword = Situation(underwater=True)
    assert [m.value for m in underwater(attack_modifiers(a, d, sword))] == [-3]
    assert [m.value for m in underwater(damage_modifiers(a, d, sword))] == [-3]
    for sit in (Situation(underwater=True, brawl_plain=True), Situation(underwater=True, dog_pile=4)):
        assert underwater(attack_modifiers(a, d, sit)) == []
        assert underwater(damage_modifiers(a, d, sit)) == []


def test_an_unmodified_brawl_attack_wounds_as_a_blunt_blow() -> None:
    """004 MAJOR WOUND TABLE "6+ Break from Blunt Weapon. Amputation from Cut. Bleed from Impale." A Random
    Brawl Attack (Unarmed Strikes, DAMAGE TABLE MODIFIER LIST) reads as blunt; one whose 1D60 face has no row
    read the Long Sword's cut instead (an amputation from a punch)."""
    from fracas.rules.sas.model import fighter
    from fracas.rules.sas.procedures.attack import Situation
    from fracas.rules.sas.procedures.damage import damage_modifiers, resolve_damage

    a, d = fighter("a", "fighter"), fighter("d", "fighter", armor="none", helmet=False)
    sit = Situation(brawl_plain=True)
    face = 17 - sum(m.value for m in damage_modifiers(a, d, sit))  # a Heavy Wound on the Major Wound row
    # Major Wound Table 6 (by weapon), then the RANDOM BODY PART TABLE 9 Chest: Broken (blunt)
    r = resolve_damage(a, d, sit, ScriptedDice([face, 6, 9, 100]))  # (Knocked Down: 100, keeps weapon)
    assert r.roll is not None and r.roll.row == "heavy-table"
    assert [(e.kind, e.name) for e in r.effects][1] == ("broken", "chest")


def test_a_monster_fumbles_foe_bonus_is_each_foes_next_attack_only() -> None:
    """004 MONSTER FUMBLES "4 Foes get Attack +2 to next attack vs Monster". Wolf w (first) fumbles: Auto
    Fumble, Monster Fumble 4. Fighter f attacks it later in round 1 with +2; in round 2 his attack is no
    longer his next one after the fumble: no +2. The engine gave +2 to every foe's attack on the wolf to
    the end of round 2 (here two attacks of one foe)."""
    from fracas.engine import events as ev

    fight = scripted_fight(
        {"template": "wolf", "id": "w", "at": [0, 0], "tactic": "hold"},
        {"template": "fighter", "id": "f", "at": [1, 0], "tactic": "hold"},
    )
    turn(fight, Command("w", "attack", "f"), [1, 4])  # Auto Fumble; MONSTER FUMBLES 4

    def bonus(events: list) -> list:
        (roll,) = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
        return [m[0] for m in roll.modifiers if "monster-fumbles" in m[2]]

    preview = SAS.attack_modifiers_now(fight.state, Command("f", "attack", "w"))
    assert preview is not None and [m.value for m in preview[0] if "monster-fumbles" in m.rule] == [2]
    assert bonus(_turn_events(fight, Command("f", "attack", "w"), [2])) == [2]  # a Miss either way
    _turn_events(fight, Command("w", "nothing"), [])
    assert fight.state.round == 2
    preview = SAS.attack_modifiers_now(fight.state, Command("f", "attack", "w"))  # the odds read it too
    assert preview is not None and [m for m in preview[0] if "monster-fumbles" in m.rule] == []
    assert bonus(_turn_events(fight, Command("f", "attack", "w"), [2])) == []
