"""Regression tests of Spells & Swords rules bugs, each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. The S&S duel kernel mirrors each fix
(tests/sim/test_sim_sas_kernel.py replays kernel fights that hit these cases in the engine).
"""

from __future__ import annotations

import pytest
from sas_scripted import scripted_fight, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight


def _duel(a: dict, b: dict, **extra: object) -> Fight:
    """a (left) against b (right), the Brawl Rule on unless ``options`` say otherwise."""
    return scripted_fight(a, b, **{"options": {}, **extra})


def _fighters(**extra: object) -> Fight:
    return _duel(
        {"template": "fighter", "id": "a", "at": [0, 0]},
        {"template": "fighter", "id": "b", "at": [1, 0]},
        **extra,
    )


def _charge_into_a_spear() -> Fight:
    """Goblin g charges goblin s, whose Spear is longer than g's weapon (brawls off)."""
    return _duel(
        {"template": "goblin", "id": "g", "at": [6, 0]},
        {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}},
        options={"brawl-rule": False},
    )


# ----- 1. a missed Head Butt keeps the attacker's own fumble Stun -----------------------------------------


def test_missed_head_butt_keeps_the_attackers_fumble_stun() -> None:
    """Reference 1.2 row 16 (SSSUC.html, Random Brawl Attacks): Head Butt stuns attacker and foe 1D3 rounds
    *if it hits*; a miss does nothing of the row's. A fumble is the ATTACK TABLE's own (004: 1 Auto Fumble,
    roll on the FUMBLE TABLE): 8 Injure Self -> LIGHT WOUND TABLE 5 "Stun: Get -2 to all Rolls for 1D6
    Rounds". The engine dropped every Stunned of the attacker from a missed Head Butt, this one included."""
    fight = _fighters()
    # Brawl Rule 5 (1-10: a Random Brawl Attack), 1D60 16 Head Butt, Attack 1 Auto Fumble, Fumble 8 Injure
    # Self, Light Wound Table 5 Stun, 1D6 3 rounds
    events = turn(fight, Command("a", "attack", "b"), [5, 16, 1, 8, 5, 3])
    rolled = {e.test: e.outcome for e in events if isinstance(e, ev.Rolled)}
    assert rolled["Random Brawl Attacks"] == "Head Butt"
    assert rolled["Attack"] == "Auto Fumble" and rolled["Fumble"] == "Injure Self"
    a = fight.state.combatants["a"]
    assert "stunned" in a.conditions  # the side's attacks have taken effect
    assert a.conditions["stunned"].until_round == 1 + 3
    assert a.conditions["stunned"].rule.startswith("sas/light-wounds/stun")
    assert "stunned" not in fight.state.combatants["b"].conditions


def test_head_butt_that_hits_stuns_both_and_one_that_misses_neither() -> None:
    """Reference 1.2 row 16: on a hit, attacker and foe Stunned 1D3 rounds (Attack +1 on the row)."""
    fight = _fighters()
    # Brawl 5, Head Butt 16, Attack 15 (Hit), the row's 1D3s: attacker 2, foe 3, then Damage 4 (Superficial)
    turn(fight, Command("a", "attack", "b"), [5, 16, 15, 2, 3, 4])
    a, b = fight.state.combatants["a"], fight.state.combatants["b"]
    assert a.conditions["stunned"].until_round == 1 + 2
    assert b.conditions["stunned"].until_round == 1 + 3
    fight = _fighters()
    turn(fight, Command("a", "attack", "b"), [5, 16, 6])  # Attack 6: a Miss
    assert "stunned" not in fight.state.combatants["a"].conditions
    assert "stunned" not in fight.state.combatants["b"].conditions


# ----- 2. the end of the round reads the conditions the last side's batch left ---------------------------


def test_a_stun_renewed_in_the_last_sides_batch_outlasts_the_round() -> None:
    """A condition "for N Rounds" (004 LIGHT WOUND TABLE 5 Stun, 1D6 Rounds) lasts N rounds from when it is
    taken, however long an older one had left. b, Stunned to the end of round 2, fumbles in round 2 (his side
    attacks last) and stuns himself for 4 more rounds: the end of round 2 must read that new Stun (to round
    6), not the old one from before his side's held effects landed."""
    fight = _fighters(options={"brawl-rule": False})
    # round 1: a hits (15), Damage 14 - Armor 3 = 11 Light Wound and the table: 5 Stun, 1D6 1 round
    turn(fight, Command("a", "attack", "b"), [15, 14, 5, 1])
    turn(fight, Command("b", "attack", "a"), [5])  # a Miss
    assert fight.state.combatants["b"].conditions["stunned"].until_round == 2
    # round 2: a misses; b rolls 1 (Auto Fumble), Fumble 8 Injure Self, Light Wound Table 5 Stun, 1D6 4
    turn(fight, Command("a", "attack", "b"), [5])
    turn(fight, Command("b", "attack", "a"), [1, 8, 5, 4])
    assert fight.state.round == 3
    b = fight.state.combatants["b"]
    assert "stunned" in b.conditions
    assert b.conditions["stunned"].until_round == 2 + 4
    removed = [e for e in fight.log if isinstance(e, ev.ConditionRemoved) and e.target == "b"]
    assert removed == []


def test_a_stun_that_runs_out_still_goes_at_the_end_of_its_round() -> None:
    fight = _fighters(options={"brawl-rule": False})
    turn(fight, Command("a", "attack", "b"), [15, 14, 5, 1])  # b Stunned to the end of round 2
    turn(fight, Command("b", "attack", "a"), [5])
    turn(fight, Command("a", "attack", "b"), [5])
    turn(fight, Command("b", "attack", "a"), [5])
    assert fight.state.round == 3
    assert "stunned" not in fight.state.combatants["b"].conditions
    removed = [e for e in fight.log if isinstance(e, ev.ConditionRemoved) and e.target == "b"]
    assert [e.name for e in removed] == ["stunned"]


# ----- 3. a charger attacks as the defender's first strike left him ---------------------------------------


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


# ----- 4. a first strike that ends the fight is the end of the charge -------------------------------------


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


# ----- 3 and 4 for the reactions that strike a mover before he attacks ------------------------------------


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


# ----- 5. the strike against a charger sees his Defense -4 ------------------------------------------------


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


# ----- 6. Defender Surrounded counts the attacker where his move put him ----------------------------------


def _three(left: list[dict]) -> Fight:
    """``left`` against fighter b (brawls off); left acts first."""
    return scripted_fight(left, {"template": "fighter", "id": "b", "at": [0, 0]})


def _surrounded(attack: ev.Rolled) -> bool:
    return any(m[1] == "Defender Surrounded" for m in attack.modifiers)


@pytest.mark.parametrize(
    ("start", "action", "face"),
    [
        # 5 + Long Sword 3 + Behind 2 - Medium Shield 1 - Dodge 1 = 8, a Miss; with Surrounded +1 it is 9
        (-3, "close-to-attack", 5),
        # the same from 6 spaces with a Charge (CHARGE RULES: Attack +1): 4 + 3 + 2 + 1 - 1 + 1 - 1 = 9
        (-6, "charge", 4),
    ],
)
def test_an_attacker_who_moved_in_counts_for_defender_surrounded(start: int, action: str, face: int) -> None:
    """004 ATTACK TABLE MODIFIERS: "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)", a situation of
    the attack. a Closes to Attack (COMBAT ROUND ACTIONS LIST: "Move at Normal Speed and Attack") or Charges
    to b's back, c already in front of him: two foes adjacent as a swings. The engine counted a where his
    turn began, 3 or 6 spaces off: a Miss at 8; with Surrounded it is 9, Weapons Locked."""
    fight = _three(
        [
            {"template": "fighter", "id": "a", "at": [start, 0]},
            {"template": "fighter", "id": "c", "at": [1, 0]},
        ]
    )
    events = turn(fight, Command("a", action, "b"), [face])
    attack = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack")
    assert _surrounded(attack)
    assert (attack.total, attack.outcome) == (9, "Weapons Locked")


def test_a_lone_attacker_who_closed_in_does_not_surround() -> None:
    """One foe next to b is not "at least 2 Sides": no Surrounded for a who closes in alone."""
    fight = _three([{"template": "fighter", "id": "a", "at": [-3, 0]}])
    events = turn(fight, Command("a", "close-to-attack", "b"), [5])
    attack = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack")
    assert not _surrounded(attack)
