"""Spells & Swords charges: CHARGE RULES (the charge and its attack, the longer weapon's first strike, Set
to Receive Charge, Weapons Locked, the Charge's Defense -4), the Battle Cry raised with a charge, the Hurling
Charge.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_by_the_text_helpers import start, unit
from sas_scripted import SAS, attacks, goblin, mods, scripted_fight, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand

NEXT_ATTACK = "effect on the next attack (Feint, Weapons Locked, Monster Fumble)"


def _charge_into_a_spear() -> Fight:
    """Goblin g charges goblin s, whose Spear is longer than g's weapon (brawls off)."""
    return scripted_fight(
        {"template": "goblin", "id": "g", "at": [6, 0]},
        {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}},
    )


def test_the_charger_attacks_stunned_and_wounded_by_the_first_strike() -> None:
    """004 CHARGE RULES: "If the Defender has a Longer Weapon and sees the Charge coming, he will
    automatically be able to get an attack in First even if it is out of order." First: its effects land
    before the charger swings (out-of-order attacks apply at once). s hits (15) for a Light Wound (Damage 13 -
    Armor 1 = 12: 2 markers, LIGHT WOUND TABLE 5 Stun, 1D6 3): g (Wound Level 3) charges in Wounded (-1,
    WOUNDED CONDITION) and Stunned (-2). The engine read g as he stood before the strike."""
    fight = _charge_into_a_spear()
    fight.dice = ScriptedDice([15, 13, 5, 3, 12, 1])
    events = fight.submit(Command("g", "charge", "s"))
    attacks = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    assert [e.actor for e in attacks] == ["s", "g"]
    charge = attacks[1]
    why = [m[1] for m in charge.modifiers]
    assert "Wounded" in why and "Stunned" in why and "Charge" in why
    # 12 + Charge 1 - Wounded 1 - Stunned 2 - Small Shield 1 = 9: Weapons Locked, no Damage roll
    assert (charge.total, charge.outcome) == (9, "Weapons Locked")
    assert not any(isinstance(e, ev.Rolled) and e.test == "Damage" and e.actor == "g" for e in events)


def test_a_charger_dazed_by_the_first_strike_loses_his_attack() -> None:
    """LIGHT WOUND TABLE 4 "Dazed: Miss next Attack": the charge's attack is that next attack."""
    fight = _charge_into_a_spear()
    fight.dice = ScriptedDice([15, 13, 4])  # s hits, Light Wound, table 4 Dazed
    events = fight.submit(Command("g", "charge", "s"))
    assert [e.actor for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"] == ["s"]
    assert any(isinstance(e, ev.Note) and "misses this attack" in e.text for e in events)
    assert "miss_attack" not in fight.state.combatants["g"].marks.get("next", {})


def test_a_first_strike_that_ends_the_fight_ends_the_charge() -> None:
    """004 CHARGE RULES (the longer weapon strikes first) and FUMBLE TABLE (HTH WEAPON) 8 Injure Self ->
    LIGHT WOUND TABLE 1 Knocked Out 2D6 Rounds: s knocks himself out with his first strike, the last of his
    side, and the fight is over. The engine still rolled g's attack and Damage: held effects that never
    landed, yet a Light Wound in the log and in the simulator's Wounds."""
    fight = _charge_into_a_spear()
    # s: Attack 1 (Auto Fumble), Fumble 8, Light Wound Table 1, 2D6 6+4; then what g's attack would roll:
    # Attack 15, Damage 13 (a Light Wound), Light Wound Table 5, 1D6 3
    fight.dice = ScriptedDice([1, 8, 1, 6, 4, 15, 13, 5, 3])
    events = fight.submit(Command("g", "charge", "s"))
    assert fight.state.ended and fight.state.winner == "left"
    assert fight.state.combatants["s"].status == "unconscious"
    assert [e.actor for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"] == ["s"]
    assert not any(isinstance(e, ev.Rolled) and e.test == "Damage" for e in events)


def _receive_the_charge(charger_weapon: str | None = None) -> Fight:
    """Goblin s (a Spear) Sets to Receive Charge; goblin g is about to charge him (brawls off)."""
    g: dict = {"template": "goblin", "id": "g", "at": [6, 0]}
    if charger_weapon:
        g["stats"] = {"weapons": [charger_weapon]}
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}}
    fight = scripted_fight(g, s, [1, 20])  # side Initiative: right first
    turn(fight, Command("s", "set-to-receive-charge"), [])
    return fight


def test_the_charger_attacks_as_receive_charge_left_him() -> None:
    """004 REACTIONS, Receive Charge: "You attack after a Foe moves but before he Attacks" (applied at once).
    s hits (15) for a Light Wound and a Stun (Damage 13 - 1 = 12, LIGHT WOUND TABLE 5, 1D6 3); g, with a
    spear as long (no first strike), charges in Wounded and Stunned: 12 + 1 - 1 - 2 - 1 = 9 Weapons Locked."""
    fight = _receive_the_charge("spear")
    fight.dice = ScriptedDice([15, 13, 5, 3, 12, 1])
    events = fight.submit(Command("g", "charge", "s"))
    assert any(isinstance(e, ev.Note) and "receives the charge" in e.text for e in events)
    attacks = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    assert [e.actor for e in attacks] == ["s", "g"]
    assert {"Wounded", "Stunned"} <= {m[1] for m in attacks[1].modifiers}
    assert (attacks[1].total, attacks[1].outcome) == (9, "Weapons Locked")


def test_a_receive_charge_that_ends_the_fight_ends_the_charge() -> None:
    """s fumbles his Receive Charge (Attack 1, Fumble 8 Injure Self, LIGHT WOUND TABLE 1 Knocked Out 2D6):
    the fight is over. The engine then let the unconscious s (from the turn's state, still active and holding
    the spear he had dropped) strike first again, and g attack."""
    fight = _receive_the_charge()
    fight.dice = ScriptedDice([1, 8, 1, 6, 4, 15, 13, 5, 3])
    events = fight.submit(Command("g", "charge", "s"))
    assert fight.state.ended and fight.state.winner == "left"
    assert [e.actor for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"] == ["s"]
    assert not any(isinstance(e, ev.Note) and "strikes first" in e.text for e in events)


def _charge_modifier(attack: ev.Rolled) -> int:
    return sum(m[0] for m in attack.modifiers if m[1] == "target's Defense this round (Charge)")


def test_the_first_strike_against_a_charger_sees_his_defense_minus_4() -> None:
    """004 CHARGE RULES: "They get Attack +1, Swift +2, Damage +2, and Defense -4 for 1 Round" (the charge's
    own, from the charge on) and "If the Defender has a Longer Weapon and sees the Charge coming, he will
    automatically be able to get an attack in First". The engine added the Defense -4 in the same batch but
    struck at g as he stood before it: s's 6 + Longer Weapon 1 - Small Shield 1 = 6 was a Miss; with the
    charger's Defense -4 (+4 to hit him) it is 10, a Hit (Damage 4 - Armor 1 = 3, Superficial)."""
    fight = _charge_into_a_spear()
    fight.dice = ScriptedDice([6, 4, 5])  # s: Attack 6, Damage 4; g: Attack 5 (a Miss)
    events = fight.submit(Command("g", "charge", "s"))
    attacks = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    assert [e.actor for e in attacks] == ["s", "g"]
    assert _charge_modifier(attacks[0]) == 4
    assert (attacks[0].total, attacks[0].outcome) == (10, "Hit")
    assert any(isinstance(e, ev.Rolled) and e.test == "Damage" and e.actor == "s" for e in events)
    assert fight.state.combatants["g"].conditions["charging"].value == -4


def test_receive_charge_sees_the_chargers_defense_minus_4() -> None:
    """004 REACTIONS, Receive Charge: "Charging Foe runs straight into your Weapon ... You attack after a Foe
    moves but before he Attacks": he is charging, so his Defense -4 (CHARGE RULES) is on him already. s's 7 -
    Small Shield 1 = 6 was a Miss; + 4 it is 10, a Hit."""
    fight = _receive_the_charge("spear")  # as long as s's: no first strike after the reaction
    fight.dice = ScriptedDice([7, 4, 5])  # s: Attack 7, Damage 4; g: Attack 5
    events = fight.submit(Command("g", "charge", "s"))
    attacks = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    assert [e.actor for e in attacks] == ["s", "g"]
    assert _charge_modifier(attacks[0]) == 4
    assert (attacks[0].total, attacks[0].outcome) == (10, "Hit")


def test_a_battle_cry_made_with_a_charge_counts_on_its_attack() -> None:
    """004 CHARGE RULES: "Characters may charge into HTH Combat. This may be combined with a Battle Cry";
    COMBAT ROUND ACTIONS LIST: "Battle Cry – Effects last 1D2 +1 Rounds". The cry is raised as he charges,
    so the charge's own attack has it. The engine added the Battle Cry in the same batch but rolled the
    charge's attack from the charger as he stood before it: 12 + Charge 1 - Small Shield 1 = 12; with the
    Battle Cry (+1, setting battle_cry_attack) it is 13."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0)), [20, 1])
    # 1D2 1 (the cry lasts 2 rounds after this one), g's Attack 12, Damage 1 (+ 2 - 1 = 2: Superficial)
    events = turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 12, 1])
    added = [e.name for e in events if isinstance(e, ev.ConditionAdded) and e.target == "g"]
    assert added[:2] == ["battle-cry", "charging"]  # the cry first, then the charge
    (attack,) = attacks(events)
    assert mods(attack) == {"Battle Cry": 1, "Charge": 1, "Defender has Small Shield": -1}
    assert (attack.total, attack.outcome) == (13, "Hit")
    assert fight.state.combatants["g"].conditions["battle-cry"].until_round == 3  # 1 + 2 (test_sas_reactions)


def test_a_battle_cry_made_with_a_charge_outlasts_the_longer_weapons_first_strike() -> None:
    """The same, when s's longer Spear strikes first (CHARGE RULES): the charger attacks as the strike left
    him, Battle Cry included. s: 4 + Longer Weapon 1 - Small Shield 1 + Charge Defense 4 = 8, a Miss; g: 12
    + Charge 1 + Battle Cry 1 - Small Shield 1 = 13, a Hit."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [20, 1])
    events = turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 4, 12, 1])
    first, charge = attacks(events)
    assert (first.actor, first.total, first.outcome) == ("s", 8, "Miss")
    assert charge.actor == "g" and mods(charge)["Battle Cry"] == 1
    assert (charge.total, charge.outcome) == (13, "Hit")


def test_the_battle_cry_lasts_into_the_next_round() -> None:
    """With 1D2 1 (2 rounds) it is on g's attack in round 2 too (its last round is 3: test_sas_reactions)."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0)), [20, 1])
    turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 5])  # a Miss
    turn(fight, Command("s", "attack", "g"), [5])  # a Miss
    (attack,) = attacks(turn(fight, Command("g", "attack", "s"), [5]))
    assert mods(attack)["Battle Cry"] == 1


def _spearman_set_to_receive() -> Fight:
    """Goblin s (a Spear, longer than g's weapon) Sets to Receive Charge; goblin g then charges him."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [1, 20])  # right (s) first
    turn(fight, Command("s", "set-to-receive-charge"), [])
    return fight


def test_a_spearman_set_to_receive_the_charge_strikes_first_once() -> None:
    """004 ACTIONS: "Set to Receive Charge – Requires Spear or Pole-Arm. Attack First after Foe Moves on his
    Turn"; REACTIONS: "Receive Charge – ... You attack after a Foe moves but before he Attacks"; CHARGE RULES:
    "If the Defender has a Longer Weapon and sees the Charge coming, he will automatically be able to get an
    attack in First even if it is out of order." Both give the one thing, an attack before the charger's:
    a spearman who has both attacks first once. The engine let s receive the charge and then strike first
    again with his longer spear: two attacks before g's."""
    fight = _spearman_set_to_receive()
    # s: Attack 5 (+ Longer Weapon 1 - Small Shield 1 + Charge Defense 4 = 9: Weapons Locked); g: Attack 12,
    # Damage 1
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    assert any(isinstance(e, ev.Note) and "receives the charge" in e.text for e in events)
    assert not any(isinstance(e, ev.Note) and "strikes first" in e.text for e in events)
    assert fight.state.combatants["s"].marks.get("set") is None


def test_the_receive_charge_is_the_spearmans_first_strike_of_the_round() -> None:
    """The longer weapon's first strike is once a round, and the Receive Charge is it: a second goblin who
    charges s in the same round is not struck first."""
    h = {"template": "goblin", "id": "h", "at": [0, 5]}
    _, state = encounter.load_data({
        "version": 1,
        "ruleset": "sas",
        "options": {"brawl-rule": False},
        "sides": [
            {"name": "left", "combatants": [goblin("g", (6, 0)), h]},
            {"name": "right", "combatants": [goblin("s", (0, 0), "spear")]},
        ],
    })  # fmt: skip
    fight = Fight(SAS, state, ScriptedDice([1, 20]))  # right (s) first
    fight.advance_until_decision()
    turn(fight, Command("s", "set-to-receive-charge"), [])
    # s receives g's charge: 4 + 1 - 1 + 4 = 8, a Miss; g: 5 + 1 - 1 = 5, a Miss
    events = turn(fight, Command("g", "charge", "s"), [4, 5])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    events = turn(fight, Command("h", "charge", "s"), [5])  # h alone attacks: a Miss
    assert [e.actor for e in attacks(events)] == ["h"]


def test_a_spearman_not_set_still_strikes_first_with_the_longer_weapon() -> None:
    """Without Set to Receive Charge the longer weapon alone gives the same one first strike."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [1, 20])
    turn(fight, Command("s", "nothing"), [])
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    assert any(isinstance(e, ev.Note) and "strikes first" in e.text for e in events)


def test_weapons_locked_by_the_receive_charge_is_on_the_charges_attack() -> None:
    """004 ATTACK TABLE: "9 Weapons Locked Attack Fails; Foe gets Attack -2 next round", read as the foe's
    next attack (his next round of attacking, as the FUMBLE TABLE's "Do nothing on your next Round"): s's
    Receive Charge locks weapons (9) and g's charge, in the same round, is that next attack. 12 + Charge 1 -
    Small Shield 1 - 2 = 10."""
    fight = _spearman_set_to_receive()
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    first, charge = attacks(events)
    assert first.outcome == "Weapons Locked"
    assert mods(charge)[NEXT_ATTACK] == -2
    assert (charge.total, charge.outcome) == (10, "Hit")
    assert "attack" not in fight.state.combatants["g"].marks.get("next", {})  # spent


def test_weapons_locked_is_on_the_foes_attack_later_in_the_round_and_only_that_one() -> None:
    """Fighter a (his side first) rolls 8 + 1 = 9, Weapons Locked; b's attack later in the same round is his
    next one: -2 on it, and none on b's attack of round 2."""
    fighter_a = {"template": "fighter", "id": "a", "at": [0, 0]}
    fighter_b = {"template": "fighter", "id": "b", "at": [1, 0]}
    fight = scripted_fight(fighter_a, fighter_b, [20, 1])
    (locked,) = attacks(turn(fight, Command("a", "attack", "b"), [8]))
    assert (locked.total, locked.outcome) == (9, "Weapons Locked")
    (b1,) = attacks(turn(fight, Command("b", "attack", "a"), [5]))
    assert mods(b1)[NEXT_ATTACK] == -2
    turn(fight, Command("a", "attack", "b"), [5])
    (b2,) = attacks(turn(fight, Command("b", "attack", "a"), [5]))
    assert NEXT_ATTACK not in mods(b2)


def test_no_first_strike_after_his_attack_of_the_round() -> None:
    """CHARGE RULES "an attack in First even if it is out of order"; ATTACKING "a single attack per Round":
    y (spear) has attacked z on his side's turn (a Miss); x's charge later in the same round meets no first
    strike: the only attacks are y's and x's own."""
    p = start(
        [unit("y", (0, 0), 0, weapons=["spear"])],
        [unit("z", (-1, 0), 0), unit("x", (4, 0), 3, weapons=["dagger"])],
    )
    p.act("attack", "z", faces=[5])
    while p.decision is not None and p.decision.actor != "x":
        p.act("nothing")
    p.act("charge", "y", faces=[10, 1])
    assert [r.actor for r in p.rolls("Attack")] == ["y", "x"]
    assert not any(isinstance(e, ev.Note) and "strikes first" in e.text for e in p.log)


def test_a_hurling_charge_throw_has_its_damage_bonus_and_not_the_charge_s() -> None:
    """004 COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1";
    CHARGE RULES: those who "charge into HTH Combat ... get Attack +1, Swift +2, Damage +2, and Defense -4
    for 1 Round" (docs/rulesets/sas.md, Game master's calls): the throw has the line's Damage +1, not the
    Charge's Attack +1 and Damage +2. Goblin g (a Spear) starts 6 spaces from s, already within Short range:
    he still charges, one space, and throws (12 - Small Shield 1 = 11, a Hit; Damage 1 + 1 - Armor 1)."""
    fight = scripted_fight([goblin("g", (6, 0), "spear")], [goblin("s", (0, 0), "short-bow")], [20, 1])
    events = turn(fight, Command("g", "hurling-charge", "s"), [12, 1])
    (moved,) = [e for e in events if isinstance(e, ev.Moved)]
    assert moved.path == ((5, 0),)
    (throw,) = attacks(events)
    assert mods(throw) == {"Defender has Small Shield": -1}
    damage = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Damage")
    assert mods(damage) == {"Hurling Charge": 1, "target's Armor (very-light)": -1}


def test_a_hurling_charger_has_the_charge_s_defense_minus_four() -> None:
    """He is "Charging": the Charge's Defense -4 "for 1 Round" is on him until his side acts again, so s's
    arrow in reply has +4 (5 - Small Shield 1 + 4 = 8). The engine gave the Hurling Charge the Charge's
    Swift +2 but not its Defense -4. (g's charge was his last action: Defender Moved on last Action -1 too,
    ATTACK TABLE MODIFIERS: 5 - 1 + 4 - 1 = 7.)"""
    fight = scripted_fight([goblin("g", (6, 0), "spear")], [goblin("s", (0, 0), "short-bow")], [20, 1])
    turn(fight, Command("g", "hurling-charge", "s"), [12, 1])
    (shot,) = attacks(turn(fight, Command("s", "attack", "g"), [5]))
    assert mods(shot)["target's Defense this round (Charge)"] == 4
    assert mods(shot)["Defender Moved on last Action"] == -1
    assert shot.total == 7


def test_a_hurling_charge_that_would_end_next_to_the_target_is_refused() -> None:
    """Two spaces off, the charge toward s passes no hex 2+ spaces from him to throw from: it would end next
    to him, a Charge and not a throw. The engine let it run home and strike as a plain attack (neither the
    throw's Damage +1 nor the Charge's bonuses); it is refused, naming the Charge."""
    fight = scripted_fight([goblin("g", (2, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    with pytest.raises(IllegalCommand, match="too close to throw while charging"):
        SAS.validate(fight.state, Command("g", "hurling-charge", "s"))
    SAS.validate(fight.state, Command("g", "charge", "s"))
