"""Spells & Swords reactions and Battle Cry, each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading). What the text
does not decide is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, attacks, goblin, mods, noted, scripted_fight, turn

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand

# ----- 1. a reaction's attack is an attack: it gets the situation's modifiers -----------------------------

DARK_HILL = {"light": "partial-darkness", "extra": {"high": [[0, 0]]}}


def _spearman_charged(set_to_receive: bool) -> list[ev.Event]:
    """Goblin s (a Spear) stands on high ground in the dusk; goblin g charges him from 6 spaces. s first Sets
    to Receive Charge (or does nothing: then only his longer spear strikes first). Dice: s's Attack 5, g's
    Attack 12 and Damage 1."""
    fight = scripted_fight(
        [goblin("g", (6, 0))], [goblin("s", (0, 0), "spear")], [1, 20], DARK_HILL
    )  # s first
    turn(fight, Command("s", "set-to-receive-charge" if set_to_receive else "nothing"), [])
    return turn(fight, Command("g", "charge", "s"), [5, 12, 1])


def test_the_receive_charge_attack_gets_the_situations_modifiers() -> None:
    """004 REACTIONS: "Receive Charge - ... You attack after a Foe moves but before he Attacks";
    ATTACKING: "An Attacker ... rolls 1D20 on the Attack Table. The Attacker adds his Attack Bonuses and
    Subtracts the Targets Defense Bonuses"; ATTACK TABLE MODIFIERS: "Attacker has Height Adv +1 On Slope,
    Stairs. Looking Down", "Attacker Reduced Visibility -2 Fog, Mist, Smoke, Clouds, Dusk". The Receive
    Charge is an attack on the Attack Table and nothing exempts it from the table's modifiers. The engine
    rolled it with an empty situation: 5 + Longer Weapon 1 - Small Shield 1 + Charge Defense 4 = 9, Weapons
    Locked. With the hill and the dusk: 9 + 1 - 2 = 8, a Miss (and no Weapons Locked -2 on g's charge: 12 + 1
    - 1 - 2 = 10, a Hit)."""
    events = _spearman_charged(set_to_receive=True)
    assert noted(events, "receives the charge")
    received, charge = attacks(events)
    assert received.actor == "s"
    assert mods(received) == {
        "Attacker has Longer Weapon": 1,
        "Attacker has Height Adv": 1,
        "Attacker Reduced Visibility": -2,
        "Defender has Small Shield": -1,
        "target's Defense this round (Charge)": 4,
    }
    assert (received.total, received.outcome) == (8, "Miss")
    assert (charge.actor, charge.total, charge.outcome) == ("g", 10, "Hit")


def test_the_receive_charge_is_read_as_the_longer_weapons_first_strike() -> None:
    """The same spearman not set: his longer spear's first strike (CHARGE RULES) was already rolled with the
    situation. Both strikes before the charger's attack now have the same modifiers and result."""
    received = attacks(_spearman_charged(set_to_receive=True))[0]
    first = attacks(_spearman_charged(set_to_receive=False))[0]
    assert received.modifiers == first.modifiers
    assert (received.total, received.outcome) == (first.total, first.outcome)


def test_the_receive_charge_counts_the_foes_round_the_charger_where_he_ends() -> None:
    """ATTACK TABLE MODIFIERS: "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)": g charges home next
    to s and s's side-mate h, so he is surrounded as s receives him (the engine read g where his turn began, 6
    spaces off, alone). s: 5 + 1 - 1 + 4 + 1 = 10, a Hit; damage 1 + 2 (spear) - 1 (armor): Superficial."""
    fight = scripted_fight(
        [goblin("g", (6, 0))], [goblin("s", (0, 0), "spear"), goblin("h", (1, -1))], [1, 20]
    )  # right first
    turn(fight, Command("s", "set-to-receive-charge"), [])
    turn(fight, Command("h", "nothing"), [])
    # g ends on (1, 0) (next to s and to h); s: Attack 5, Damage 1; g: Attack 5 (a Miss)
    events = turn(fight, Command("g", "charge", "s"), [5, 1, 5])
    received = attacks(events)[0]
    assert received.actor == "s" and mods(received)["Defender Surrounded"] == 1
    assert (received.total, received.outcome) == (10, "Hit")


def test_fire_from_overwatch_gets_the_movers_cover() -> None:
    """004 REACTIONS: "Fire from Overwatch - Shoot Foe with Ranged weapon after he moves but before he
    Attacks"; ATTACK TABLE MODIFIERS: "Defender Partial Cover -2 Ranged Attack by Attacker. Behind Low
    Wall". Goblin g walks 6 spaces to a hex behind a low wall; archer a, in Overwatch, shoots him there. The
    engine built the shot from range and movement alone: 12 - Moved 1 - Small Shield 1 = 10, a Hit; behind
    the wall it is 8, a Miss."""
    fight = scripted_fight(
        [goblin("g", (12, 0))], [goblin("a", (0, 0), "short-bow")], [1, 20], {"cover": [[6, 0]]}
    )
    turn(fight, Command("a", "overwatch"), [])
    events = turn(fight, Command("g", "walk", None, {"to": [6, 0]}), [12])
    assert noted(events, "fires from Overwatch")
    (shot,) = attacks(events)
    assert mods(shot) == {
        "Defender Partial Cover": -2,
        "Defender Moved on last Action": -1,
        "Defender has Small Shield": -1,
    }
    assert (shot.total, shot.outcome) == (8, "Miss")


# ----- 2. one reaction per combatant per round: Receive Charge checks it and spends it ---------------------


def test_a_receive_charge_spends_the_round_s_reaction() -> None:
    """docs/rulesets/sas.md: "One reaction per combatant per round" (Game master's calls: REACTIONS lists each
    reaction as something a Character does "during a Foe's Turn", ATTACKING "a single attack per Round").
    Goblin s knows the Shield Spell (a reaction: "Before Foe makes attack roll Quickly cast this") and Sets to
    Receive Charge; he receives g's charge, so he cannot also cast the Shield Spell against g's attack that
    follows. The engine let him do both (a Spell Check before g's attack roll). Dice: s's Attack 5
    (Weapons Locked), g's Attack 12 and Damage 1: nothing more is rolled."""
    s = {"template": "goblin", "id": "s", "at": [0, 0]}
    s["stats"] = {"weapons": ["spear"], "spells": ["shield"], "power_points": 3}
    fight = scripted_fight([goblin("g", (6, 0))], [s], [1, 20])  # s first
    turn(fight, Command("s", "set-to-receive-charge"), [])
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    assert noted(events, "receives the charge")
    assert not any(isinstance(e, ev.Rolled) and e.test.startswith("Spell Check") for e in events)
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    assert "Shield Spell" not in mods(attacks(events)[1])
    assert fight.state.combatants["s"].marks["reacted_round"] == 1


def test_a_spearman_who_has_reacted_this_round_does_not_receive_the_charge() -> None:
    """Goblin s (a Spear, Catch Missile +1) Sets to Receive Charge. In the same round archer a shoots at him
    and misses, and s catches the arrow: his reaction of the round. Then g (a Spear too: no longer weapon, no
    first strike) charges him: s stays set but does not receive the charge; only g attacks. The engine let s
    react twice. Dice: a's Attack 5 (a Miss), s's Catch Missile 20; g's Attack 5 (a Miss)."""
    s = {"template": "goblin", "id": "s", "at": [0, 0]}
    s["stats"] = {"weapons": ["spear"], "skills": {"catch-missile": 1}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow"), goblin("g", (6, 0), "spear")], [s], [1, 20])
    turn(fight, Command("s", "set-to-receive-charge"), [])
    caught = turn(fight, Command("a", "attack", "s"), [5, 20])
    assert noted(caught, "snatches the missile")
    events = turn(fight, Command("g", "charge", "s"), [5])
    assert not noted(events, "receives the charge")
    assert [e.actor for e in attacks(events)] == ["g"]


def test_a_shield_spell_and_a_catch_missile_are_not_both_taken_against_one_shot() -> None:
    """The check reads this command's own events: goblin s knows the Shield Spell and has Catch Missile +1;
    archer a shoots at him. s casts the Shield Spell before the roll (his reaction), the arrow misses, and he
    may not also try to catch it. The engine read the mark from before the shot and let him do both. Dice:
    s's Spell Check 15, a's Attack 8 (8 - Small Shield 1 - Shield Spell 2 = 5, a Miss)."""
    s = {"template": "goblin", "id": "s", "at": [0, 0]}
    s["stats"] = {"spells": ["shield"], "power_points": 3, "skills": {"catch-missile": 1}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow")], [s], [20, 1])  # a first
    events = turn(fight, Command("a", "attack", "s"), [15, 8])
    (shot,) = attacks(events)
    assert (shot.total, shot.outcome) == (5, "Miss") and mods(shot)["Shield Spell"] == -2
    assert not any(isinstance(e, ev.Rolled) and e.test == "Catch Missile" for e in events)


def test_fire_from_overwatch_spends_the_round_s_reaction() -> None:
    """Archer a (Catch Missile +1) in Overwatch shoots g as he walks up (his reaction); g's side-mate h then
    shoots at a and misses: a may not also catch that arrow. Dice: a's Attack 7 (7 - Moved 1 - Small Shield
    1 = 5, a Miss); h's Attack 5 (a Miss)."""
    a = {"template": "goblin", "id": "a", "at": [0, 0]}
    a["stats"] = {"weapons": ["short-bow"], "skills": {"catch-missile": 1}}
    fight = scripted_fight([goblin("g", (12, 0)), goblin("h", (8, 3), "short-bow")], [a], [1, 20])  # a first
    turn(fight, Command("a", "overwatch"), [])
    fired = turn(fight, Command("g", "walk", None, {"to": [6, 0]}), [7])
    assert noted(fired, "fires from Overwatch")
    events = turn(fight, Command("h", "attack", "a"), [5])
    assert not any(isinstance(e, ev.Rolled) and e.test == "Catch Missile" for e in events)


# ----- 3. a Hurling Charge may be combined with a Battle Cry ---------------------------------------------


def _hurler() -> Fight:
    """Goblin g (a Spear, which may be thrown) 14 spaces from goblin s; g's side first."""
    return scripted_fight([goblin("g", (14, 0), "spear")], [goblin("s", (0, 0))], [20, 1])


def test_a_hurling_charge_may_be_combined_with_a_battle_cry() -> None:
    """004 COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1";
    CHARGE RULES: "Characters may charge into HTH Combat. This may be combined with a Battle Cry". A Hurling
    Charge is a charge, so the cry may come with it, raised as he charges: the throw has its Attack +1
    (setting battle_cry_attack). The engine ignored ``battle_cry`` on a Hurling Charge (no cry, no bonus).
    Dice: the cry's 1D2 1 (2 rounds), the throw's Attack 12 (+ 1 - Small Shield 1 = 12, a Hit), Damage 10."""
    fight = _hurler()
    SAS.validate(fight.state, Command("g", "hurling-charge", "s", {"battle_cry": True}))
    events = turn(fight, Command("g", "hurling-charge", "s", {"battle_cry": True}), [1, 12, 10])
    cry = [e for e in events if isinstance(e, ev.ConditionAdded) and e.name == "battle-cry"]
    assert [e.target for e in cry] == ["g"]
    moved = next(i for i, e in enumerate(events) if isinstance(e, ev.Moved))
    assert events.index(cry[0]) < moved  # the cry before the throw
    (throw,) = attacks(events)
    assert mods(throw) == {"Battle Cry": 1, "Defender has Small Shield": -1}
    assert (throw.total, throw.outcome) == (12, "Hit")


def test_a_hurling_charge_without_the_cry_has_no_battle_cry() -> None:
    """The same throw without ``battle_cry``: no cry is rolled, 12 - 1 = 11."""
    events = turn(_hurler(), Command("g", "hurling-charge", "s"), [12, 10])
    assert not any(isinstance(e, ev.ConditionAdded) and e.name == "battle-cry" for e in events)
    (throw,) = attacks(events)
    assert "Battle Cry" not in mods(throw) and throw.total == 11


def test_battle_cry_is_refused_on_actions_that_are_not_charges() -> None:
    """CHARGE RULES combine the cry with a charge only; on any other action ``battle_cry`` was silently
    ignored (no cry, no bonus): it is refused instead (the cry alone is the battle-cry action)."""
    fight = scripted_fight([goblin("g", (1, 0))], [goblin("s", (0, 0))], [20, 1])
    with pytest.raises(IllegalCommand, match="Battle Cry"):
        SAS.validate(fight.state, Command("g", "attack", "s", {"battle_cry": True}))
    SAS.validate(fight.state, Command("g", "battle-cry"))


# ----- 4. Battle Cry "Effects last 1D2 +1 Rounds", counted as every "N Rounds" ---------------------------


def _crier(cry: Command, faces: list[int], at: int = 1) -> tuple[Fight, list[ev.Rolled]]:
    """Goblin g (his side first, ``at`` spaces from goblin s) raises a Battle Cry in round 1 (``cry``, with
    ``faces``), then attacks s in rounds 2, 3 and 4 (each a 5: a Miss); s does nothing. g's attack rolls of
    rounds 2-4."""
    fight = scripted_fight([goblin("g", (at, 0))], [goblin("s", (0, 0))], [20, 1])
    turn(fight, cry, faces)
    turn(fight, Command("s", "nothing"), [])
    out = []
    for _ in (2, 3, 4):
        out += attacks(turn(fight, Command("g", "attack", "s"), [5]))
        turn(fight, Command("s", "nothing"), [])
    return fight, out


def test_a_battle_cry_of_n_rounds_lasts_to_the_end_of_round_r_plus_n() -> None:
    """004 COMBAT ROUND ACTIONS LIST: "Battle Cry - Effects last 1D2 +1 Rounds", the text's phrase for every
    duration ("Stun: Get -2 to all Rolls for 1D6 Rounds", "Get -3 to all Rolls on Next 1D2 Rounds"), which
    the engine counts from the round after the one the effect begins in (docs/rulesets/sas.md, Durations:
    "for N rounds" starting in round r lasts to the end of round r+N). The engine counted the Battle Cry's
    round as its first (to r+N-1), so a cry raised as an action, the crier's whole turn, helped one attack
    of the 2 rounds it was rolled to last. Raised in round 1 with 1D2 1 (N = 2): on g's attacks of rounds 2
    and 3 (its last), not on round 4's (the first without)."""
    fight, (r2, r3, r4) = _crier(Command("g", "battle-cry"), [1])
    assert mods(r2)["Battle Cry"] == 1
    assert mods(r3)["Battle Cry"] == 1
    assert "Battle Cry" not in mods(r4)
    assert "battle-cry" not in fight.state.combatants["g"].conditions


def test_a_battle_cry_of_three_rounds_made_with_a_charge() -> None:
    """With a Charge (CHARGE RULES "may be combined with a Battle Cry") the cry also covers the round it is
    raised in, as every duration does: 1D2 2 (N = 3) in round 1 lasts to the end of round 4. Dice: 1D2 2,
    g's charge Attack 5 (a Miss); then g attacks in rounds 2-4, each with the cry."""
    fight, attacks = _crier(Command("g", "charge", "s", {"battle_cry": True}), [2, 5], at=6)
    assert [mods(a).get("Battle Cry") for a in attacks] == [1, 1, 1]
    assert "battle-cry" not in fight.state.combatants["g"].conditions  # ended with round 4


def test_a_hurling_charge_draws_fire_from_overwatch() -> None:
    """004 REACTIONS: "Fire from Overwatch - Shoot Foe with Ranged weapon after he moves but before he
    Attacks". A Hurling Charge ("Throw Weapon while Charging") is a move, then an attack: archer a, in
    Overwatch, shoots goblin g where his charge stops (10 spaces off, 20 m: Short range), before the throw.
    The engine let a Hurling Charge past every reaction. a rolls 7 (- Moved 1 - Small Shield 1 + the
    charger's Defense -4 = 9, Weapons Locked: docs/rulesets/sas.md, Game master's calls, Hurling Charge):
    the throw, g's next attack, has the -2 (14 - Small Shield 1 - 2 = 11, a Hit; Damage 10)."""
    fight = scripted_fight(
        [goblin("g", (20, 0), "spear")], [goblin("a", (0, 0), "short-bow")], [1, 20]
    )  # a first
    turn(fight, Command("a", "overwatch"), [])
    events = turn(fight, Command("g", "hurling-charge", "a"), [7, 14, 10])
    assert noted(events, "fires from Overwatch")
    shot, throw = attacks(events)
    assert mods(shot)["target's Defense this round (Charge)"] == 4
    assert (shot.actor, shot.total, shot.outcome) == ("a", 9, "Weapons Locked")
    assert throw.actor == "g" and throw.rule.startswith("sas/attack-table/hit")
    assert mods(throw)["effect on the next attack (Feint, Weapons Locked, Monster Fumble)"] == -2
    assert throw.total == 11


def _reaction_marks(events: list[ev.Event]) -> list[str]:
    return [e.rule for e in events if isinstance(e, ev.Marked) and e.key == "reacted_round"]


def test_the_shield_spell_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Shield Spell - Before Foe makes attack roll Quickly cast this"; the mark that spends the
    round's reaction (docs/rulesets/sas.md, Game master's calls) carried no rule id, unlike Receive Charge's
    and Fire from Overwatch's. Dice: s's Spell Check 15, a's Attack 8 (a Miss)."""
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"spells": ["shield"], "power_points": 3}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow")], [s], [20, 1])
    events = turn(fight, Command("a", "attack", "s"), [15, 8])
    assert _reaction_marks(events) == ["sas/reactions/shield-spell (REACTIONS)"]


def test_the_catch_missile_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Catch Missile - If Foe's Attack does not hit make a Hard Skill Check". Dice: a's Attack 5
    (a Miss), s's Catch Missile 20."""
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"skills": {"catch-missile": 1}}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow")], [s], [20, 1])
    events = turn(fight, Command("a", "attack", "s"), [5, 20])
    assert _reaction_marks(events) == ["sas/reactions/catch-missile (REACTIONS)"]


def test_the_counterspell_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Counterspell - Quickly cast this spell to negate a Spell just cast by a Foe". Goblin w
    casts Sleep on s; c, s's side-mate, counters it. Dice: w's Spell Check 15, c's Spell Check 15."""
    w = {"template": "goblin", "id": "w", "at": [4, 0], "stats": {"spells": ["sleep"], "power_points": 1}}
    c = {"template": "goblin", "id": "c", "at": [0, 2]}
    c["stats"] = {"spells": ["counterspell"], "power_points": 1}
    fight = scripted_fight([w], [goblin("s", (0, 0)), c], [20, 1])
    events = turn(fight, Command("w", "cast-spell", "s", {"spell": "sleep"}), [15, 15])
    assert any(isinstance(e, ev.Note) and "counters" in e.text for e in events)
    assert _reaction_marks(events) == ["sas/reactions/counterspell (REACTIONS)"]
