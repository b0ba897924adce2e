"""Spells & Swords harmful conditions and how long they last: Stun at the end of its round, Dizzy from the
BLEED TABLE, the Broken Jaw that leaves its victim mute (no Battle Cry).

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, fighters, goblin, scripted_fight, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand


def test_dizzy_from_the_bleed_table_lasts_one_round() -> None:
    """004 BLEEDING: "At the beginning of every Round you start with one or more Bleeds, Roll once on the
    Bleed Table"; BLEED TABLE 4 "Dizzy: Get -2 to all Rolls next Round". Rolled at the beginning of round 1,
    the Dizzy -2 is on the bleeder's rolls of round 1 and gone in round 2 (where the next Bleed roll decides
    anew). The engine kept it to the end of round 2: two rounds of -2 from one roll."""
    fight = scripted_fight(
        {"template": "fighter", "id": "bran", "at": [0, 0]},
        {"template": "goblin", "id": "g", "at": [9, 0]},
    )
    # scripted_fight has played round 1's start already: set the Bleed up and look at round 2's start instead
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


def test_a_stun_renewed_in_the_last_sides_batch_outlasts_the_round() -> None:
    """A condition "for N Rounds" (004 LIGHT WOUND TABLE 5 Stun, 1D6 Rounds) lasts N rounds from when it is
    taken, however long an older one had left. b, Stunned to the end of round 2, fumbles in round 2 (his side
    attacks last) and stuns himself for 4 more rounds: the end of round 2 must read that new Stun (to round
    6), not the old one from before his side's held effects landed."""
    fight = fighters()
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
    fight = fighters()
    turn(fight, Command("a", "attack", "b"), [15, 14, 5, 1])  # b Stunned to the end of round 2
    turn(fight, Command("b", "attack", "a"), [5])
    turn(fight, Command("a", "attack", "b"), [5])
    turn(fight, Command("b", "attack", "a"), [5])
    assert fight.state.round == 3
    assert "stunned" not in fight.state.combatants["b"].conditions
    removed = [e for e in fight.log if isinstance(e, ev.ConditionRemoved) and e.target == "b"]
    assert [e.name for e in removed] == ["stunned"]


def test_a_broken_jaw_leaves_its_victim_mute() -> None:
    """Reference 1.2, Random Brawl Attacks 9: "Break Jaw - foe has a Broken Head and cannot speak". Goblin g's
    attack on s becomes a brawl (Brawl Rule 5, 1D60 9) and hits (12 - Small Shield 1 = 11; Damage 1; the
    Skull Crack's 1D2 1): s is marked mute when g's side's held effects land."""
    fight = scripted_fight([goblin("g", (1, 0))], [goblin("s", (0, 0))], [20, 1])
    fight.state.options["brawl-rule"] = True
    turn(fight, Command("g", "attack", "s"), [5, 9, 12, 1, 1])
    assert fight.state.combatants["s"].marks.get("mute") is True


@pytest.mark.parametrize(
    ("action", "target", "args"),
    [
        ("battle-cry", None, {}),
        ("charge", "s", {"battle_cry": True}),
        ("hurling-charge", "s", {"battle_cry": True}),
    ],
)
def test_a_mute_combatant_cannot_raise_a_battle_cry(action: str, target: str | None, args: dict) -> None:
    """A Battle Cry is a cry: one who "cannot speak" (Break Jaw) cannot raise it, alone or with a charge
    (docs/rulesets/sas.md, Game master's calls). The engine let him. He may still charge without it."""
    fight = scripted_fight([goblin("g", (8, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    fight.state.combatants["g"].marks["mute"] = True
    with pytest.raises(IllegalCommand, match="cannot speak") as refused:
        SAS.validate(fight.state, Command("g", action, target, args))
    assert refused.value.rule == "sas/random-brawl/break-jaw (reference/spells-and-swords.md 1.2)"
    SAS.validate(fight.state, Command("g", "charge", "s"))
