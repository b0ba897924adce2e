"""Spells & Swords brawls: the Brawl Rule's Random Brawl Attacks (Head Butt) and the unmodified brawl attack.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

from sas_scripted import fighters, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command


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


def test_missed_head_butt_keeps_the_attackers_fumble_stun() -> None:
    """Reference 1.2 row 16 (SSSUC.html, Random Brawl Attacks): Head Butt stuns attacker and foe 1D3 rounds
    *if it hits*; a miss does nothing of the row's. A fumble is the ATTACK TABLE's own (004: 1 Auto Fumble,
    roll on the FUMBLE TABLE): 8 Injure Self -> LIGHT WOUND TABLE 5 "Stun: Get -2 to all Rolls for 1D6
    Rounds". The engine dropped every Stunned of the attacker from a missed Head Butt, this one included."""
    fight = fighters(brawls=True)
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
    fight = fighters(brawls=True)
    # Brawl 5, Head Butt 16, Attack 15 (Hit), the row's 1D3s: attacker 2, foe 3, then Damage 4 (Superficial)
    turn(fight, Command("a", "attack", "b"), [5, 16, 15, 2, 3, 4])
    a, b = fight.state.combatants["a"], fight.state.combatants["b"]
    assert a.conditions["stunned"].until_round == 1 + 2
    assert b.conditions["stunned"].until_round == 1 + 3
    fight = fighters(brawls=True)
    turn(fight, Command("a", "attack", "b"), [5, 16, 6])  # Attack 6: a Miss
    assert "stunned" not in fight.state.combatants["a"].conditions
    assert "stunned" not in fight.state.combatants["b"].conditions
