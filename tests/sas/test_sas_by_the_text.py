"""Spells & Swords combat cases written from the rules text alone (004_0d1ac50b56c23caf.txt, no page
numbers: each case names its heading and row) and the facts of reference/spells-and-swords.md.

Every case forces each die with ScriptedDice and checks final values: the number a roll is made against,
the Wound Markers, a condition present or gone in the right round, who may act. The classes in the names:
A timing and duration, B stacking, C final values, D geometry and counting, E what a creature cannot do,
F offered equals legal, G voluntary and involuntary, and time conversions.

A case marked xfail(strict=True) is a reading of the text that fracas does not follow yet; its reason
says what the text says and what fracas does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from sas_by_the_text_helpers import Play, R, mods, start, try_every_offer, unit

from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight


class Cycle:
    """Forced dice for whole fights: the faces 1, 2, ..., 20 in turn, each read on the die asked for."""

    def __init__(self) -> None:
        self.n = 0

    def roll(self, sides: int, why: str = "") -> int:
        self.n += 1
        return (self.n - 1) % 20 % sides + 1


def defect(reason: str) -> pytest.MarkDecorator:
    """A case fracas fails today: the text says one thing, fracas does another (the reason says both)."""
    return pytest.mark.xfail(strict=True, reason=reason)


FAR = (9, 0)  # a bystander far from everyone, so the fight goes on when one foe falls

# --------------------------------------------------------------------------------------------------
# C: final values on the Attack and Damage Tables


def test_c_attack_table_9_weapons_locked_gives_foe_minus_2() -> None:
    """ATTACK TABLE: "9 Weapons Locked - Attack Fails; Foe gets Attack -2 next round".

    x rolls 9 (no modifiers): no damage roll. The foe y attacks next (his side acts after x's in the same
    round) at 10 - 2 = 8: a Miss."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[9])
    locked = p.rolls("Attack", "x")[-1]
    assert (locked.total, locked.outcome) == (9, "Weapons Locked")
    assert not p.rolls("Damage", "x")
    p.act("attack", "x", faces=[10])
    foe = p.rolls("Attack", "y")[-1]
    assert foe.total == 8
    assert foe.outcome == "Miss"
    p.done()


def test_c_attack_table_natural_1_fumbles_whatever_the_bonus() -> None:
    """ATTACK TABLE: "1 Auto Fumble - Attacker Rolls on Fumble Table". With Attack +12 a 1 is still the
    Auto Fumble row, and the attacker rolls 1D8 on the FUMBLE TABLE (HTH WEAPON): "1 Drop Weapon"."""
    p = start([unit("x", (0, 0), 0, attack=12)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[1, 1])
    roll = p.rolls("Attack", "x")[-1]
    assert roll.outcome == "Auto Fumble"
    assert p.rolls("Fumble", "x")[-1].outcome.startswith("Drop")
    assert p.c("x").marks.get("weapon") != "mace"
    assert p.c("y").counters.get("markers", 0) == 0
    p.done()


def test_c_critical_hit_20_plus_adds_4_to_damage() -> None:
    """ATTACK TABLE: "20+ Critical Hit - Get +4 Damage Bonus"; DAMAGE TABLE "8-10 Light Wound - Get 2
    Wound Markers". Attack +3 and a 17 make 20: a Critical Hit; the damage 6 + 4 = 10 is a Light Wound
    (a 6 alone would be a Superficial one)."""
    p = start([unit("x", (0, 0), 0, attack=3)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[17, 6])
    assert p.rolls("Attack", "x")[-1].outcome == "Critical Hit"
    assert p.rolls("Damage", "x")[-1].total == 10
    p.wait_for("x", 2)
    assert p.c("y").counters["markers"] == 2
    p.done()


def test_c_armor_without_helmet_is_one_less() -> None:
    """HELMET RULE: "If you have Armor but no Helmet get Armor -1 (to a minimum of Armor +1)"; DAMAGE TABLE
    MODIFIER LIST "Medium Armor -3". Medium armor without a helmet is Armor 2: damage 10 - 2 = 8, a Light
    Wound (8-10), 2 Wound Markers (with the helmet it would be 7, a Superficial Wound)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, armor="medium", helmet=False), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 10])
    assert p.rolls("Damage", "x")[-1].total == 8
    assert p.c("y").counters["markers"] == 2
    p.done()


def test_c_helmet_alone_is_armor_1() -> None:
    """HELMET RULE: "If you have no Armor except a Helmet get Armor +1". Damage 9 - 1 = 8: a Light Wound,
    2 Wound Markers."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, helmet=True), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 9])
    assert p.rolls("Damage", "x")[-1].total == 8
    assert p.c("y").counters["markers"] == 2
    p.done()


def test_c_wounded_only_above_half_the_wound_level() -> None:
    """WOUNDED CONDITION: "A Unit with more Wound Markers than half their Wound Level gets a -1 to all
    Rolls." Wound Level 4: with 2 markers (exactly half) y attacks at 10; with 3 markers at 10 - 1 = 9."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 8])  # Light Wound: 2 markers
    p.act("attack", "x", faces=[5])
    assert p.c("y").counters["markers"] == 2
    assert p.rolls("Attack", "y")[-1].total == 5
    p.wait_for("x", 2)
    p.act("attack", "y", faces=[12, 1])  # Superficial Wound: 1 marker
    p.act("attack", "x", faces=[5])
    assert p.c("y").counters["markers"] == 3
    assert p.rolls("Attack", "y")[-1].total == 4
    p.done()


# --------------------------------------------------------------------------------------------------
# A: timing and duration


def test_a_stun_counts_on_the_victims_next_attack_and_ends() -> None:
    """LIGHT WOUND TABLE: "5 Stun: Get -2 to all Rolls for 1D6 Rounds". A Stun of 1 round (1D6 = 1) taken
    in round 1 is on y's next attack (10 - 2 = 8) and gone by round 3 (10)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 11, 5, 1])  # Light Wound with the table: 5 Stun, 1 round
    p.act("attack", "x", faces=[10])
    assert p.rolls("Attack", "y")[-1].total == 8
    p.wait_for("y", 3)
    p.act("attack", "x", faces=[5])
    assert p.rolls("Attack", "y")[-1].total == 5
    assert "stunned" not in p.c("y").conditions
    p.done()


def _stagger_round_one(p: Play) -> None:
    """x (side a, first) fumbles with a 2 and rolls 6 on the HTH Fumble Table: Stagger."""
    p.act("attack", "y", faces=[2, 6])
    assert p.rolls("Fumble", "x")[-1].outcome.startswith("Stagger")


def test_a_stagger_cannot_move_in_the_next_round() -> None:
    """FUMBLE TABLE (HTH WEAPON): "6 Stagger: Cannot Move next Round and get -1 Defense Penalty".

    x fumbles in round 1 (his ally z fells the foe beside him, so Zone of Control does not hold him). In
    round 2 no move is offered or legal to x; in round 3 he may walk again."""
    p = start([unit("x", (0, 0), 0), unit("z", (1, -1), 5)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    _stagger_round_one(p)
    p.act("attack", "y", faces=[12, 19])  # z: Instant Death
    assert p.c("y").status == "dead"
    p.wait_for("x", 2)
    assert not [c for c in p.offered() if c.action in ("walk", "run", "charge", "sneak", "close-to-attack")]
    assert not p.legal("walk", None, toward="w")
    p.act("nothing")
    p.wait_for("x", 3)
    assert p.legal("walk", None, toward="w")
    p.done()


def test_a_stagger_defense_penalty_lasts_through_the_next_round() -> None:
    """FUMBLE TABLE (HTH WEAPON): "6 Stagger: Cannot Move next Round and get -1 Defense Penalty".

    x staggers in round 1: y's attacks on him in round 1 and round 2 are at 10 + 1 = 11; in round 3 at 10."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    _stagger_round_one(p)
    totals = []
    for rnd in (1, 2, 3):
        p.wait_for("y", rnd)
        p.act("attack", "x", faces=[10, 1])
        totals.append(p.rolls("Attack", "y")[-1].total)
    assert totals == [11, 11, 10]
    p.done()


def test_b_stagger_and_defensive_stance_both_count() -> None:
    """FUMBLE TABLE (HTH WEAPON) 6 "-1 Defense Penalty" (next round) and COMBAT ROUND ACTIONS LIST
    "Defensive Stance - Get Defense +4 on Foes next Attack". x staggers in round 1 and takes a Defensive
    Stance in round 2: y's attack in round 2 is 10 + 1 - 4 = 7, a Miss."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    _stagger_round_one(p)
    p.wait_for("x", 2)
    p.act("defensive-stance")
    p.act("attack", "x", faces=[10])
    roll = p.rolls("Attack", "y")[-1]
    assert roll.total == 7
    assert roll.outcome == "Miss"
    p.done()


def test_a_feint_defense_2_then_attack_2() -> None:
    """COMBAT ROUND ACTIONS LIST: "Feint - Get Defense +2 on Foes next Attack and Attack +2 on your next
    Attack". y's attack after the Feint is 10 - 2 = 8 (Miss); x's next attack is 8 + 2 = 10 (Hit)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("feint", "y")
    p.act("attack", "x", faces=[10])
    assert p.rolls("Attack", "y")[-1].total == 8
    p.wait_for("x", 2)
    p.act("attack", "y", faces=[8, 1])
    roll = p.rolls("Attack", "x")[-1]
    assert (roll.total, roll.outcome) == (10, "Hit")
    p.done()


def test_a_heavy_wound_14_16_knocks_prone_and_costs_the_next_action() -> None:
    """DAMAGE TABLE: "14-16 Heavy Wound - Get 3 Wound Markers. Major Wound"; MAJOR WOUNDS: "Most Major
    Wounds will Cause the victim to be knocked Prone and miss their next Action per GM" (docs/rulesets/
    sas.md, major_wound_prone: every one does). Damage 15 on y: 3 markers, Knocked Down (the 50% drop
    rolled 60: kept), and y's turn in the same round is lost: side b's next decision is w's."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 15, 60])
    assert p.c("y").counters["markers"] == 3
    assert "knocked-down" in p.c("y").conditions
    assert p.decision.actor == "w"
    p.done()


def test_a_heavy_wound_17_18_knocks_prone_and_costs_the_next_action() -> None:
    """DAMAGE TABLE: "17-18 Heavy Wound - Get 3 Wound Markers. Roll on Major Wound Table"; MAJOR WOUND
    TABLE "2 Lose 1 Eye. Partial Blindness"; MAJOR WOUNDS: knocked Prone and miss their next Action.
    Damage 17, 1D8 = 2, drop roll 60 (kept): y has 3 markers, Partial Blindness, is Knocked Down and
    loses his turn this round."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 17, 2, 60])
    y = p.c("y")
    assert y.counters["markers"] == 3
    assert {"partial-blindness", "knocked-down"} <= set(y.conditions)
    assert y.marks["weapon"] == "mace"
    assert p.decision.actor == "w"
    p.done()


def test_a_bleeding_foe_at_its_wound_level_dies_as_the_round_begins() -> None:
    """BLEEDING: "At the beginning of every Round you start with one or more Bleeds, Roll once on the Bleed
    Table"; BLEED TABLE "1 Life Blood Draining Out: Get 1 Wound Marker"; DEATH BY A THOUSAND CUTS:
    "Non-Heroic Foes and Creatures will just die immediately."

    Side b acts first. In round 1 x gives y (Wound Level 4) a Heavy Wound (3 markers) with Major Wound 5,
    Bleed (dies in 2D10 = 10 minutes). Round 2 begins: the Bleed Table gives 1, the 4th marker: y dies
    then, before his side acts, and never takes a turn in round 2."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)], faces=[1, 20])
    p.act("nothing")  # y
    p.act("nothing")  # w
    p.act("attack", "y", faces=[12, 17, 5, 5, 5, 60], after=[1])
    assert p.state.round == 2
    assert p.c("y").counters["markers"] == 4
    assert p.c("y").status == "dead"
    turns = [e.actor for e in p.log if isinstance(e, ev.TurnStarted)]
    assert turns[-1] == "w" and turns.count("y") == 1
    p.done()


def test_a_non_heroic_foe_dies_when_the_markers_land() -> None:
    """DEATH BY A THOUSAND CUTS: "Non-Heroic Foes and Creatures will just die immediately." y (Wound Level
    4, 2 markers) takes a Light Wound (2 markers): he is dead when his side's turn comes and never acts;
    side b's decision is w's."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 8])
    p.wait_for("x", 2)
    p.act("attack", "y", faces=[12, 8])
    assert p.c("y").counters["markers"] == 4
    assert p.c("y").status == "dead"
    assert p.decision.actor == "w"
    p.done()


def test_a_heroic_character_at_wound_level_dies_in_2d6_rounds() -> None:
    """DEATH BY A THOUSAND CUTS: "A Heroic Player Character that has as many or more Wound Counters then
    their Wound Level will die in 2D6 Rounds." Heroic y (Wound Level 4) takes two Light Wounds (2 + 2
    markers), the second in round 2: he is not dead then; 2D6 = 1 + 1, so he dies 2 rounds later and
    not before (docs: N rounds from round r run to the end of round r + N)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, heroic=True), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 8])
    p.wait_for("x", 2)
    p.act("attack", "y", faces=[12, 8], after=[1, 1])
    assert p.c("y").counters["markers"] == 4
    assert p.c("y").status != "dead"
    p.wait_for("x", 4)
    assert p.c("y").status != "dead"
    p.wait_for("x", 5)
    assert p.c("y").status == "dead"
    p.done()


# --------------------------------------------------------------------------------------------------
# D: geometry and counting


def _mounted_knight() -> list[dict]:
    horse = {"id": "h", "name": "h", "template": "riding-horse", "at": [0, 0], "facing": 0}
    return [horse, unit("x", (0, 0), 0, opts={"mount": "h"}, skills={"ride": 2})]


def test_d_rider_and_steed_are_one_side_not_a_surround() -> None:
    """ATTACK TABLE MODIFIERS: "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)"; docs: steed and
    rider share a hex. A knight on his horse in one hex beside a lone foe y: the horse's attack on y has
    no Surrounded line (hooves 12, Defender Smaller -1 (Big against Human, 3 classes) = 11), nor has the
    rider's (10 + Mounted vs unmounted +1 = 11)."""
    p = start(_mounted_knight(), [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    assert p.c("x").pos == p.c("h").pos
    p.act("attack", "y", faces=[12, 1])  # the horse
    horse = p.rolls("Attack", "h")[-1]
    assert "Defender Surrounded" not in mods(horse)
    assert horse.total == 11
    p.act("attack", "y", faces=[10, 1])  # the rider
    rider = p.rolls("Attack", "x")[-1]
    assert "Defender Surrounded" not in mods(rider)
    assert rider.total == 11
    p.done()


def test_d_two_foes_on_two_sides_surround() -> None:
    """ATTACK TABLE MODIFIERS: "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)". x and z stand on
    two sides of y (west and east; y faces x, so x strikes from the front): x's attack is 10 + 1 = 11."""
    p = start([unit("x", (0, 0), 0), unit("z", (2, 0), 3)], [unit("y", (1, 0), 3), unit("w", (1, 5), 3)])
    p.act("attack", "y", faces=[10, 1])
    roll = p.rolls("Attack", "x")[-1]
    assert mods(roll).get("Defender Surrounded") == 1
    assert roll.total == 11
    p.done()


# --------------------------------------------------------------------------------------------------
# E: what the text says a creature cannot do


def test_e_natural_weapon_is_not_dropped_when_knocked_down() -> None:
    """MONSTER FUMBLES: "6 Monster Knocked Down (Trips over self while giving Chase)"; KNOCKED DOWN:
    "There is a 50% the Character will Drop whatever he is holding." A wolf holds nothing: its bite
    stays its weapon even on the drop roll 1 (of 1D100)."""
    wolf = {"id": "v", "name": "v", "template": "wolf", "at": [0, 0], "facing": 0}
    p = start([wolf], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[1, 6, 1])
    v = p.c("v")
    assert "knocked-down" in v.conditions
    assert v.marks["weapon"] == "bite"
    assert "dropped" not in v.marks
    p.done()


# --------------------------------------------------------------------------------------------------
# C: saves (reference 2.5)


def test_c_halfling_saves_vs_death_at_plus_4() -> None:
    """CHOKE: "The Character must Save vs Death or be Knocked out for 1D10 Minutes"; reference 2.5: saves
    succeed on 13+, "Halflings +4 vs Death". The Random Brawl Attack 14 Choke Hold (reference 1.2) hits
    Pip the halfling rogue (Wound Level 3, Movement 4: reference 2.1's halfling); his save of 10 is 14:
    he is choked but not Knocked Out."""
    pip = {
        "id": "y",
        "name": "y",
        "template": "rogue",
        "at": [1, 0],
        "facing": 3,
        "stats": {"race": "halfling"},
    }
    p = start(
        [unit("x", (0, 0), 0, weapons=["unarmed"])], [pip, unit("w", FAR, 3)], options={"brawl-rule": True}
    )
    assert (p.c("y").stats.wound_level, p.c("y").stats.movement) == (3, 4)
    # brawl? 5 (1-10: a brawl), 1D60 14 Choke Hold, attack 12, the save 10, damage 1 (a Superficial Wound)
    p.act("attack", "y", faces=[5, 14, 12, 10, 1])
    y = p.c("y")
    assert "choke" in y.conditions
    assert "knocked-out" not in y.conditions
    assert y.status == "active"
    p.done()


def test_c_orc_without_a_bonus_fails_the_same_save_vs_death() -> None:
    """CHOKE: "Save vs Death or be Knocked out for 1D10 Minutes"; reference 2.5: 13+ succeeds; an orc
    (a humanoid, no race or class bonus vs Death) has none. The same Choke Hold with a save of 10 knocks
    y out for 1D10 = 10 minutes (60 rounds: "A Combat round is about 10 Seconds")."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["unarmed"])],
        [unit("y", (1, 0), 3, kind="humanoid"), unit("w", FAR, 3)],
        options={"brawl-rule": True},
    )
    p.act("attack", "y", faces=[5, 14, 12, 10, 10, 1])
    y = p.c("y")
    assert y.status == "unconscious"
    assert y.conditions["knocked-out"].until_round == 1 + 60
    p.done()


# --------------------------------------------------------------------------------------------------
# G: time conversions and the day


def test_g_fizzled_spell_cannot_be_cast_again_that_day() -> None:
    """Reference 5.1 (SSSMAGIC): Spell Check 2-4 "Spell Failure", Spell Failure Table "1-5 Fizzle: no
    effect; lose 1 PP and the use of that spell for the day". Ilse the mage fizzles Sleep (check 3,
    failure 2): in round 2 Sleep is neither offered nor legal, her other spells are."""
    mage = {"id": "m", "name": "m", "template": "mage", "at": [0, 0], "facing": 0}
    p = start([mage], [unit("y", (3, 0), 3), unit("w", FAR, 3)])
    p.act("cast-spell", "y", faces=[3, 2], spell="sleep")
    assert p.rolls("Spell Failure", "m")[-1].outcome == "Fizzle"
    p.wait_for("m", 2)
    spells = {c.args.get("spell") for c in p.offered("cast-spell")}
    assert "sleep" not in spells
    assert "web" in spells
    assert not p.legal("cast-spell", "y", spell="sleep")
    p.done()


def test_g_regenerator_heals_a_hurt_part_in_1d6_minutes() -> None:
    """REGENERATION: "Hurt Body Parts regenerate in 1D6 Minutes"; COMBAT ROUNDS: "A Combat round is about
    10 Seconds". A troll's leg is Hurt in round 1 (LIGHT WOUND TABLE 2, 1D100 80: Hurt; body part 4 Leg);
    1D6 = 1 minute, rolled as the part is hurt: 6 rounds. By round 8 the leg is whole."""
    troll = {"id": "t", "name": "t", "template": "troll", "at": [1, 0], "facing": 3}
    p = start([unit("x", (0, 0), 0)], [troll])
    p.act("attack", "t", faces=[15, 15, 2, 80, 4, 1])
    assert p.c("t").marks.get("hurt") == ("leg",) or p.c("t").marks.get("hurt") == ["leg"]
    for rnd in range(2, 9):
        p.wait_for("x", rnd)
    assert not p.c("t").marks.get("hurt")
    p.done()


def test_g_regeneration_removes_one_marker_at_the_end_of_its_round() -> None:
    """REGENERATION: "Units that can Regenerate Remove 1 Wound Counter at the end of every one of their
    rounds." The troll takes a Light Wound (2 markers) in round 1 (damage 12 - its Armor 2 = 10); after
    its side's turn it has 1, after round 2 none, and never fewer."""
    troll = {"id": "t", "name": "t", "template": "troll", "at": [1, 0], "facing": 3}
    p = start([unit("x", (0, 0), 0)], [troll])
    p.act("attack", "t", faces=[15, 12])
    assert p.rolls("Damage", "x")[-1].total == 10
    assert p.decision.actor == "t"
    assert p.c("t").counters["markers"] == 2
    p.act("nothing")
    assert p.c("t").counters["markers"] == 1
    p.wait_for("x", 3)
    assert p.c("t").counters["markers"] == 0
    p.done()


# --------------------------------------------------------------------------------------------------
# A, E: who may act


def test_e_knocked_out_cannot_act_and_is_easier_to_hit() -> None:
    """LIGHT WOUND TABLE: "1 Knocked Out (Unconscious And Prone and Drop Weapon) for 2D6 Rounds"; KNOCKED
    OUT: "He gets no Dodge Bonus and is +3 to be hit"; ATTACK TABLE MODIFIERS "Defender Prone +2".

    y is knocked out in round 1 (2D6 = 1 + 1): he drops his mace, takes no turn in round 2, and x's attack
    on him in round 2 is 5 + 3 + 2 + 1 (Attacker has Longer Weapon: y's hands are empty) = 11, his Dodge 2
    not subtracted: a Hit."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9, dodge=2), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[14, 11, 1, 1, 1])
    y = p.c("y")
    assert y.status == "unconscious"
    assert {"knocked-out", "knocked-down"} <= set(y.conditions)
    assert y.marks["weapon"] != "mace"
    p.wait_for("x", 2)
    p.act("attack", "y", faces=[5, 1])
    roll = p.rolls("Attack", "x")[-1]
    assert (roll.total, roll.outcome) == (11, "Hit")
    assert p.decision.actor == "w"
    assert "y" not in [e.actor for e in p.log if isinstance(e, ev.TurnStarted)]
    p.done()


def test_a_disorientated_does_nothing_on_his_next_round() -> None:
    """FUMBLE TABLE (HTH WEAPON): "5 Disorientated: Do nothing on your next Round." x fumbles (2) and rolls
    5 in round 1: in round 2 he is not asked to act (side b's y decides first); in round 3 he acts."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[2, 5])
    p.wait_for("w")
    p.act("nothing")
    assert (p.state.round, p.decision.actor) == (2, "y")
    p.wait_for("x")
    assert p.state.round == 3
    p.done()


def test_a_dazed_misses_his_next_attack() -> None:
    """LIGHT WOUND TABLE: "4 Dazed: Miss next Attack." y, Dazed in round 1, attacks x: the attack fails
    whatever the die (no die is rolled), x takes no marker; y's attack in round 2 is rolled (10: a Hit)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 11, 4])
    p.act("attack", "x")
    assert not p.rolls("Attack", "y")
    assert p.c("x").counters.get("markers", 0) == 0
    p.wait_for("y", 2)
    p.act("attack", "x", faces=[10, 1])
    assert p.rolls("Attack", "y")[-1].outcome == "Hit"
    p.wait_for("x", 3)
    assert p.c("x").counters["markers"] == 1
    p.done()


# --------------------------------------------------------------------------------------------------
# E: what a creature cannot do


def _shot_in_the_leg() -> Play:
    """Side b's archer y hurts x's leg in round 1: hit 12, damage 11 (Light Wound with the table), LIGHT
    WOUND TABLE 2 (1D100 80: Hurt), RANDOM BODY PART TABLE 4 Leg."""
    p = start(
        [unit("x", (0, 0), 0, wound_level_base=9)],
        [unit("y", (4, 0), 3, weapons=["short-bow"]), unit("w", FAR, 3)],
        faces=[1, 20],
    )
    p.act("attack", "x", faces=[12, 11, 2, 80, 4])
    p.wait_for("x")  # the side's attacks take effect when the whole side has acted
    assert p.c("x").marks.get("hurt") in (("leg",), ["leg"])
    return p


def test_e_hurt_leg_cannot_charge() -> None:
    """CHARGE RULES: "A Combatant who is Fatigued, Encumbered, or has a Hurt or Broken Leg, Knee, or Foot
    may not Charge." x's leg is Hurt: no Charge is offered or legal; he may still walk (Move -2)."""
    p = _shot_in_the_leg()
    assert not p.offered("charge")
    assert not p.legal("charge", "y")
    assert p.legal("walk", None, toward="y")
    p.done()


def test_c_hurt_part_is_minus_1_to_all_rolls() -> None:
    """BODY PART HURT: "The Character will get -1 to All Rolls for any Hurt Part." x, his leg Hurt, closes
    on the archer y (Close to Attack) and attacks at 12 - 1 + 1 (Attacker has Longer Weapon: a mace
    against a bow) = 12; his damage roll is 1 - 1 = 0 too."""
    p = _shot_in_the_leg()
    p.act("close-to-attack", "y", faces=[12, 1])
    assert p.rolls("Attack", "x")[-1].total == 12
    assert p.rolls("Damage", "x")[-1].total == 0
    p.done()


def test_e_fatigued_runner_cannot_charge() -> None:
    """COMBAT ROUND ACTIONS LIST: "Run - Move at Double Speed. Will Result in Fatigue"; CHARGE RULES: "A
    Combatant who is Fatigued ... may not Charge." x runs in round 1; in round 2 no Charge is legal."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (30, 0), 3), unit("w", (30, 3), 3)])
    p.act("run", None, toward="y")
    p.wait_for("x", 2)
    assert not p.offered("charge")
    assert not p.legal("charge", "y")
    p.done()


def test_e_set_to_receive_charge_needs_a_spear() -> None:
    """COMBAT ROUND ACTIONS LIST: "Set to Receive Charge - Requires Spear or Pole-Arm." With a mace it is
    neither offered nor legal; with a spear it is both."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (6, 0), 3), unit("w", FAR, 3)])
    assert not p.offered("set-to-receive-charge")
    assert not p.legal("set-to-receive-charge")
    p = start([unit("x", (0, 0), 0, weapons=["spear"])], [unit("y", (6, 0), 3), unit("w", FAR, 3)])
    assert p.offered("set-to-receive-charge")
    assert p.legal("set-to-receive-charge")
    p.done()


def test_e_overwatch_needs_a_ranged_weapon() -> None:
    """COMBAT ROUND ACTIONS LIST: "Go into Overwatch - Requires Ranged Weapon." A mace-man may not; a
    bowman may."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (6, 0), 3), unit("w", FAR, 3)])
    assert not p.legal("overwatch")
    p = start([unit("x", (0, 0), 0, weapons=["short-bow"])], [unit("y", (6, 0), 3), unit("w", FAR, 3)])
    assert p.legal("overwatch")
    p.done()


def test_e_no_ranged_attack_at_hth_range() -> None:
    """ATTACK TABLE MODIFIERS: "HTH Range (Ranged Weapon) - Point Blank. Too Close to use Ranged Weapons."
    A bowman next to his foe may not shoot him."""
    p = start([unit("x", (0, 0), 0, weapons=["short-bow"])], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    assert not p.legal("attack", "y")
    assert not [c for c in p.offered("attack") if c.target == "y"]
    p.done()


def test_e_continued_attack_only_after_attacking_last_round() -> None:
    """ATTACKING: "If they attacked last Round and they are attacking again this Round, and are not moving,
    this is referred to as a Continued attack"; ACTIONS "Hack and Slash - Continued Attack for HTH (No
    Movement. Get Attack +1)". Round 1: no Hack and Slash; round 2 after an attack: 10 + 1 = 11."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    assert not p.legal("hack-and-slash", "y")
    p.act("attack", "y", faces=[5])
    p.wait_for("x", 2)
    assert p.legal("hack-and-slash", "y")
    p.act("hack-and-slash", "y", faces=[10, 1])
    assert p.rolls("Attack", "x")[-1].total == 11
    p.done()


def test_e_zone_of_control_holds_but_not_a_much_bigger_foe() -> None:
    """ZONE OF CONTROL RULE: "When engaged with a Foe in HTH you cannot move except to Disengage.
    Exception: You are 3+ Size Classes bigger than opponent." x (Human) beside y may not walk away, but
    may Disengage; a Giant (4 classes bigger) beside y may walk."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", (-9, 0), 0)])
    assert not p.legal("walk", None, toward="w")
    assert p.legal("disengage", "y", mode="flee")
    p = start([unit("x", (0, 0), 0, size="giant")], [unit("y", (1, 0), 3), unit("w", (-9, 0), 0)])
    assert p.legal("walk", None, toward="w")
    p.done()


# --------------------------------------------------------------------------------------------------
# D: counting


@pytest.mark.parametrize(("members", "bonus"), [(3, 1), (4, 2)])
def test_d_horde_attack_plus_1_per_2_attackers(members: int, bonus: int) -> None:
    """HORDE ATTACK: "The combined attack gets Attack +1 and Damage +1 per 2 Attackers." Three goblins
    give +1, four +2, on both the attack and the damage roll."""
    around = [(1, 0), (1, -1), (0, -1), (-1, 0)][:members]
    gobs = [unit(f"g{i}", at, 3, size="small", kind="humanoid") for i, at in enumerate(around)]
    p = start(gobs, [unit("y", (0, 0), 0), unit("w", FAR, 3)])
    p.act("horde", "y", faces=[10, 1])
    attack = p.rolls("Attack")[-1]
    assert mods(attack)[f"Horde Attack of {members}"] == bonus
    assert p.rolls("Damage")[-1].total == 1 + bonus
    p.done()


@pytest.mark.parametrize(("face", "stands"), [(9, True), (8, False)])
def test_d_stand_up_minus_2_per_adjacent_foe(face: int, stands: bool) -> None:
    """COMBAT ROUND ACTIONS LIST: "Stand Up - Easy Skill Check Modified by Swift. Get -2 per Adj Foe";
    reference 2.4: Easy is 5. Prone x with two foes beside him: 9 - 4 = 5 stands, 8 - 4 = 4 does not."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("z", (-1, 0), 0), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[2, 4, 60])  # Fumble 4: Trip, Go Prone (the 50% drop: 60, kept)
    assert "knocked-down" in p.c("x").conditions
    p.wait_for("x", 2)
    p.act("stand-up", faces=[face])
    roll = p.rolls("Stand Up", "x")[-1]
    assert roll.total == face - 4
    assert ("knocked-down" not in p.c("x").conditions) is stands
    p.done()


def test_d_flank_and_behind_by_facing() -> None:
    """ATTACK TABLE MODIFIERS: "Attacking from Behind +2", "Attacker making Flank Attack +1 From Side"
    (and "Defender Surrounded +1" for 2 foes). y faces east (toward x at its front); z strikes from
    directly behind: 10 + 2 + 1 = 13."""
    p = start([unit("x", (1, 0), 3), unit("z", (-1, 0), 0)], [unit("y", (0, 0), 0), unit("w", (0, 9), 0)])
    p.act("nothing")
    p.act("attack", "y", faces=[10, 1])
    roll = p.rolls("Attack", "z")[-1]
    assert mods(roll).get("Attacking from Behind") == 2
    assert roll.total == 13
    p.done()


# --------------------------------------------------------------------------------------------------
# C: more final values


@pytest.mark.parametrize(("face", "surprise"), [(10, True), (9, False)])
def test_c_surprise_lowest_stealth_minus_highest_alertness(face: int, surprise: bool) -> None:
    """SURPRISE: "Roll 1D20 and add the lowest Stealth Bonus of the Attacking Group, then subtract the
    highest Alertness Bonus of the Group being Attacked. If the total is 11 or more the attackers get
    Surprise." Stealth +2 and +3 (lowest 2), Alertness +1 and 0 (highest 1): 10 + 2 - 1 = 11 surprises,
    9 + 2 - 1 = 10 does not (then side Initiative is rolled: 20 and 1)."""
    hiders = [unit("x", (0, 0), 0, stealth=2, hidden=True), unit("x2", (0, 1), 0, stealth=3, hidden=True)]
    p = start(
        hiders,
        [unit("y", (6, 0), 3, alertness=1), unit("w", FAR, 3)],
        faces=[face] if surprise else [face, 20, 1],
    )
    assert (p.state.extra.get("surprise_side") == "a") is surprise
    p.done()


def test_c_surprise_gives_plus_2_in_the_first_round() -> None:
    """SURPRISE: "The side with Surprise gets +2 Attack Bonuses in the First Round." Hidden x wins
    Surprise (10 + 5 - 0 = 15) and attacks the adjacent y from hiding: 10 + 2 = 12."""
    p = start(
        [unit("x", (0, 0), 0, stealth=5, hidden=True)], [unit("y", (1, 0), 3), unit("w", FAR, 3)], faces=[10]
    )
    p.act("attack", "y", faces=[10, 1])
    roll = p.rolls("Attack", "x")[-1]
    assert mods(roll).get("Attacker has Surprise") == 2
    assert roll.total == 12
    p.done()


def test_c_side_initiative_uses_the_lowest_bonus() -> None:
    """INITIATIVE: "Each side adds their lowest initiative Bonus to the Roll"; DAMAGE TABLE MODIFIER LIST
    "Heavy Armor -4 ... (Initiative -1 ...)". Side a: one man in heavy armor (Initiative -1), one with
    Initiative +2: 11 - 1 = 10 against side b's 11: side b attacks first."""
    p = start(
        [unit("x", (0, 0), 0, armor="heavy"), unit("x2", (0, 1), 0, initiative=2)],
        [unit("y", (6, 0), 3), unit("w", FAR, 3)],
        faces=[11, 11],
    )
    ini = {r.actor: r.total for r in p.rolls("Side Initiative")}
    assert ini == {"a": 10, "b": 11}
    assert p.decision.actor in ("y", "w")
    p.done()


def test_c_charge_attack_1_damage_2_defense_minus_4() -> None:
    """CHARGE RULES: "They get Attack +1, Swift +2, Damage +2, and Defense -4 for 1 Round." x charges y:
    attack 10 + 1 = 11, damage 5 + 2 = 7 (Superficial, y rolls 1D6 on the Fumble Table: 1 Drop);
    y's reply, bare-handed, is 10 + 4 = 14."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (4, 0), 3), unit("w", FAR, 3)])
    p.act("charge", "y", faces=[10, 5, 1])
    assert p.rolls("Attack", "x")[-1].total == 11
    assert p.rolls("Damage", "x")[-1].total == 7
    assert p.c("x").pos == (3, 0)
    p.wait_for("y")
    p.act("attack", "x", faces=[10, 1])
    assert p.rolls("Attack", "y")[-1].total == 14
    p.done()


# --------------------------------------------------------------------------------------------------
# F: what is offered is legal, and the tactics choose only legal commands


def _offers_ok(p: Play) -> None:
    problems = try_every_offer(p)
    assert not problems, "\n".join(problems)


def test_f_offered_commands_are_legal_in_an_opening_melee() -> None:
    """COMBAT ROUND ACTIONS LIST: every command offered to a fighter beside a foe (and one far off) passes
    validate and resolves with every die at 1, at 10 and at 20."""
    p = start(
        [unit("x", (0, 0), 0), unit("z", (0, 3), 0, weapons=["short-bow"])],
        [unit("y", (1, 0), 3), unit("w", (6, 0), 3, weapons=["spear"])],
    )
    _offers_ok(p)
    p.act("nothing")
    _offers_ok(p)


def test_f_offered_commands_are_legal_for_a_prone_staggered_fighter() -> None:
    """KNOCKED DOWN and FUMBLE TABLE (HTH WEAPON) 4 and 6: every command offered to a prone fighter, then
    to a staggered one, passes validate and resolves."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[2, 4, 60])  # Trip: prone (the mace kept)
    p.wait_for("x", 2)
    _offers_ok(p)
    p.act("attack", "y", faces=[2, 6])  # Stagger
    p.wait_for("x", 3)
    _offers_ok(p)


def test_f_offered_commands_are_legal_for_a_rider_a_mage_and_a_wolf() -> None:
    """MOUNTED COMBAT, Cast Spell, MONSTER FUMBLES: every command offered to a knight on his horse, to the
    horse, to a mage and to a wolf passes validate and resolves."""
    mage = unit("m", (0, 3), 0, template="mage")
    wolf = unit("v", (6, 2), 3, template="wolf")
    p = start([*_mounted_knight(), mage], [unit("y", (1, 0), 3), wolf])
    seen = set()
    while p.decision is not None and p.state.round <= 2:
        seen.add(p.decision.actor)
        _offers_ok(p)
        p.act("nothing")
    assert {"h", "x", "m", "y", "v"} <= seen


@pytest.mark.parametrize("example", ["ambush", "cavalry-charge", "dog-pile", "goblin-horde", "underwater"])
def test_f_every_tactic_choice_is_legal(example: str) -> None:
    """COMBAT ROUND ACTIONS LIST and REACTIONS: in each bundled example, for four rounds, every command the
    combatant's tactic chooses (fight.auto_command) passes validate and resolves. Every die is forced:
    faces cycle through 1..20 (a d6 reads a 7 as 1, and so on)."""
    path = Path(__file__).resolve().parents[2] / "examples" / "sas" / f"{example}.yaml"
    _spec, state = encounter.load_data(yaml.safe_load(path.read_text()), str(path))
    fight = Fight(R, state, Cycle())
    decision = fight.advance_until_decision()
    steps = 0
    while decision is not None and fight.state.round <= 4 and steps < 400:
        cmd = fight.auto_command(decision)
        R.validate(fight.state, cmd)
        fight.submit(cmd)
        decision = fight.advance_until_decision()
        steps += 1
    assert steps > 0


# --------------------------------------------------------------------------------------------------
# G: time conversions, voluntary and involuntary moves


def test_g_skull_crack_knocks_out_for_hours_of_rounds() -> None:
    """MAJOR WOUND TABLE: "3 Skull Crack: Knocked Out (Unconscious) for 1D2 Hours"; COMBAT ROUNDS: "A
    Combat round is about 10 Seconds" (360 rounds an hour). Damage 17, 1D8 = 3, 1D2 = 1 in round 1
    (drop roll 60): y is unconscious to the end of round 1 + 360, and still out ten rounds later."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 17, 3, 1, 60])
    y = p.c("y")
    assert y.status == "unconscious"
    assert y.conditions["knocked-out"].until_round == 1 + 360
    p.wait_for("x", 11)
    assert p.c("y").status == "unconscious"
    p.done()


def test_g_bleed_kills_after_2d10_minutes_of_rounds() -> None:
    """MAJOR WOUND TABLE: "5 Bleed: Victim will Die in 2D10 Minutes if Bleeding not Stopped"; COMBAT
    ROUNDS: "A Combat round is about 10 Seconds". Bleeding from round 1 with 2D10 = 1 + 1 (2 minutes,
    12 rounds): y (Wound Level 40, so the markers do not kill him) lives through round 13's turns and is
    dead when round 14 begins (no Bleed Table roll then). Each round's BLEED TABLE roll is 6 (Weakened:
    Strength -1)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=40), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 17, 5, 1, 1, 60])
    p.wait_for("w")
    for rnd in range(2, 14):
        p.act("nothing", after=[6])  # w ends the round; y's Bleed Table roll as the next one begins
        assert p.state.round == rnd
        p.wait_for("w")
    assert p.c("y").status != "dead"
    p.act("nothing")  # round 13 ends: the bleed's 12 rounds are up
    assert p.state.round == 14
    assert p.c("y").status == "dead"
    p.done()


def test_g_flee_keeps_the_weapon_and_shows_the_back() -> None:
    """DISENGAGE: "Flee: Move away from Foe at full speed with your back to foe. He may chase you to get
    the bonus for attacking from behind. You retain your Weapon and shield while Fleeing." x flees 6
    spaces (Movement 6) still holding his mace; y closes and strikes at 10 + 2 = 12 ("Attacking from
    Behind")."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("disengage", "y", mode="flee")
    x = p.c("x")
    assert x.marks["weapon"] == "mace"
    assert max(abs(x.pos[0]), abs(x.pos[1]), abs(x.pos[0] + x.pos[1])) == 6
    p.act("close-to-attack", "x", faces=[10, 1])
    roll = p.rolls("Attack", "y")[-1]
    assert mods(roll).get("Attacking from Behind") == 2
    assert roll.total == 12
    p.done()


def test_g_a_scattered_horde_is_moved_out_of_the_zone_of_control() -> None:
    """HORDE ATTACK: "If the Attack fails they are scattered"; ZONE OF CONTROL RULE forbids only moving
    oneself ("you cannot move except to Disengage"). Three goblins around y miss (3 + 1 Flank + 1 Larger
    + 1 Surrounded + 1 Horde = 7): each is pushed off, none is left beside y."""
    around = [(1, 0), (1, -1), (0, -1)]
    gobs = [unit(f"g{i}", at, 3, size="small", kind="humanoid") for i, at in enumerate(around)]
    p = start(gobs, [unit("y", (0, 0), 0), unit("w", FAR, 3)])
    p.act("horde", "y", faces=[3])
    assert p.rolls("Attack")[-1].total == 7
    for g in ("g0", "g1", "g2"):
        q, r = p.c(g).pos
        assert max(abs(q), abs(r), abs(q + r)) >= 2
    p.done()


# --------------------------------------------------------------------------------------------------
# C: weapons, armor, size, special combat


def test_c_dual_wield_without_the_skill_is_minus_2_each() -> None:
    """DUAL WIELD: "Without this Skill, Both Attacks are at Attack -2 and Damage -1." Two attacks at 12 - 2
    = 10 (Hits) with damage 9 - 1 = 8 each: 2 + 2 markers."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["mace", "dagger"])],
        [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)],
    )
    p.act("attack", "y", faces=[12, 9, 12, 10], dual=True)
    assert [r.total for r in p.rolls("Attack", "x")] == [10, 10]
    damage = [r.total for r in p.rolls("Damage", "x")]
    assert damage[0] == 8
    assert damage[1] == 10 - 1 - 1  # the off-hand dagger is a Lesser Weapon (-1) as well
    p.wait_for("x", 2)
    assert p.c("y").counters["markers"] == 4
    p.done()


def test_c_disarm_is_attack_minus_4_and_no_damage() -> None:
    """DISARMED: "A character can use a regular Weapon based Attack to Disarm an Opponent. Such an attack
    does no Damage. Attack -4. If Attack hits Foe Disarmed." 14 - 4 = 10 hits: y drops his mace, takes no
    marker, and no damage die is rolled."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[14], disarm=True)
    assert p.rolls("Attack", "x")[-1].total == 10
    assert not p.rolls("Damage", "x")
    y = p.c("y")
    assert y.marks["weapon"] != "mace"
    assert y.counters.get("markers", 0) == 0
    p.done()


def test_c_underwater_swinging_weapon_minus_3_thrusting_none() -> None:
    """UNDERWATER COMBAT: "Blunt, Swinging, Cutting ... Weapons are ineffective underwater. They get
    penalties of Attack and Damage -3. Only Thrusting, Piercing, and Impaling Weapons work Properly"
    (Spears). x's mace: 14 + 1 (Surrounded) - 3 = 12, damage 11 - 3 = 8; x2's spear: 14 + 1 + 1
    (Longer Weapon) = 16, damage 10."""
    p = start(
        [unit("x", (0, 0), 0), unit("x2", (0, 1), 0, weapons=["spear"])],
        [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)],
        map={"extra": {"keep_facing": True, "underwater": True}},
    )
    p.act("attack", "y", faces=[14, 11])
    p.act("attack", "y", faces=[14, 10])
    assert [r.total for r in p.rolls("Attack")] == [12, 16]
    assert [r.total for r in p.rolls("Damage")] == [8, 10]
    p.done()


def test_c_mounted_charge_stacks_charge_mounted_and_momentum() -> None:
    """CHARGE RULES "Attack +1 ... Damage +2"; MOUNTED COMBAT: "Versus Unmounted Foes you get Attack and
    Damage +1. If your Mount is Moving get Damage +1 from Momentum." A knight (Ride +2) charges on his
    horse: attack 10 + 1 + 1 = 12; damage 5 + 2 + 1 + 1 = 9, a Light Wound (2 markers)."""
    p = start(_mounted_knight(), [unit("y", (6, 0), 3), unit("w", (9, 3), 3)])
    p.wait_for("x")
    p.act("charge", "y", faces=[10, 5])
    assert p.rolls("Attack", "x")[-1].total == 12
    assert p.rolls("Damage", "x")[-1].total == 9
    assert p.c("h").pos == p.c("x").pos == (5, 0)
    assert p.c("y").counters["markers"] == 2
    p.done()


@pytest.mark.parametrize(("weapon", "total"), [("great-sword", 10), ("mace", 8), ("dagger", 7), ("torch", 6)])
def test_c_weapon_classes_on_the_damage_roll(weapon: str, total: int) -> None:
    """DAMAGE TABLE MODIFIER LIST: "Large Weapon +2 Two Handed. Great Sword", "Lesser Weapon -1 Knife",
    "Light Weapon -2 ... Torch"; an ordinary mace has none. Damage die 8 (below 8 the Superficial Wound
    makes y roll 1D6 on his Fumble Table: 1)."""
    p = start(
        [unit("x", (0, 0), 0, weapons=[weapon])],
        [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)],
    )
    faces = [15, 8] + ([1] if total < 8 else [])
    p.act("attack", "y", faces=faces)
    assert p.rolls("Damage", "x")[-1].total == total
    p.done()


@pytest.mark.parametrize(("brawl_die", "damage"), [(10, 7), (11, 10)])
def test_c_brawl_rule_turns_half_the_blows_into_brawls(brawl_die: int, damage: int) -> None:
    """THE BRAWL RULE: "There is 50% (1-10 on 1D20) a Melee Attack will become a Random Brawl Attack ... Roll
    for this before making the attack Roll"; DAMAGE TABLE MODIFIER LIST "Brawl Attack -3". A 10 makes
    a brawl (1D60 30: a row not public, an unmodified brawl attack): damage 10 - 3 = 7; an 11 keeps the
    mace: 10."""
    p = start(
        [unit("x", (0, 0), 0)],
        [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)],
        options={"brawl-rule": True},
    )
    faces = [brawl_die, 30, 15, 10, 1] if brawl_die <= 10 else [brawl_die, 15, 10]
    p.act("attack", "y", faces=faces)
    assert p.rolls("Damage", "x")[-1].total == damage
    p.done()


@pytest.mark.parametrize(("size", "mod"), [("large", 1), ("tall", 0), ("small", -1), ("short", 0)])
def test_c_size_modifiers_at_2_classes(size: str, mod: int) -> None:
    """ATTACK TABLE MODIFIERS: "Defender Smaller -1 2 Size Classes or more", "Defender Larger +1 2 Size
    Classes or more" (reference 2.6: ... Small 5, Short 6, Human 7, Tall 8, Large 9). A Human attacks:
    Large +1, Tall none, Small -1, Short none."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, size=size), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[5])
    assert p.rolls("Attack", "x")[-1].total == 5 + mod
    p.done()


def test_c_instant_death_kills_a_heroic_character_too() -> None:
    """DAMAGE TABLE: "19+ Instant Death - Foe Suffers Immediate Gory Death. Mortal Wound" (not the 2D6
    rounds of DEATH BY A THOUSAND CUTS). A heroic y with no markers is dead when the markers land."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, heroic=True), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 19])
    assert p.c("y").status == "dead"
    assert p.decision.actor == "w"
    p.done()


def test_c_fighting_withdrawal_minus_2_attack_plus_1_defense() -> None:
    """DISENGAGE: "Fighting Withdrawal: Move Backwards at half-speed while facing your opponent. Attacks
    you make are at -2. Get Defense +1 while Doing this." x withdraws attacking at 12 - 2 = 10; y
    follows and attacks at 10 - 1 = 9."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("disengage", "y", faces=[12, 1], mode="withdrawal")
    assert p.rolls("Attack", "x")[-1].total == 10
    p.act("close-to-attack", "x", faces=[10])
    assert p.rolls("Attack", "y")[-1].total == 9
    p.done()


# --------------------------------------------------------------------------------------------------
# Batch 3: more timing, stacking and what cannot be done


def test_a_dazed_misses_his_next_attack_even_if_he_waits() -> None:
    """LIGHT WOUND TABLE: "4 Dazed: Miss next Attack." y is Dazed in round 1 and does nothing in rounds 1
    and 2; his next attack, in round 3, still misses: no die is rolled and x takes no marker."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 11, 4])
    p.wait_for("y", 3)
    p.act("attack", "x")
    assert not p.rolls("Attack", "y")
    p.wait_for("x", 4)
    assert p.c("x").counters.get("markers", 0) == 0
    p.done()


def test_e_one_hand_cannot_wield_a_two_handed_weapon() -> None:
    """MAJOR WOUND TABLE "1 Broken Body Part"; RANDOM BODY PART TABLE 3 Arm; BODY PART BROKEN "A Broken Arm
    or Hand make those parts unusable"; DAMAGE TABLE MODIFIER LIST "Large Weapon ... Two Handed. Great
    Sword". x's arm is broken (his great sword falls): he may not attack with it nor pick it up; his mace,
    one-handed, he may use."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["great-sword", "mace"], wound_level_base=9)],
        [unit("y", (1, 0), 3), unit("w", FAR, 3)],
        faces=[1, 20],
    )
    p.act("attack", "x", faces=[12, 17, 1, 3, 60])
    p.wait_for("x")
    assert p.c("x").marks.get("broken") in (("arm",), ["arm"])
    assert p.c("x").marks["weapon"] != "great-sword"
    assert not p.legal("attack", "y", weapon="great-sword")
    assert not p.legal("pick-up")
    assert p.legal("attack", "y", weapon="mace")
    p.done()


def test_e_immobilized_can_neither_move_nor_attack() -> None:
    """IMMOBILIZED: "Paralyzation Spell. Web Spell ... Character cannot move"; ATTACK TABLE MODIFIERS
    "Defender Immobilized +3 - Defender unable to Move or Attack". Webbed y, an orc (the mage's Spell
    Check 15, y's save 1, 1D6 = 3 rounds) is offered no move and no attack, and neither is legal."""
    p = start(
        [unit("m", (0, 0), 0, template="mage")], [unit("y", (3, 0), 3, kind="humanoid"), unit("w", FAR, 3)]
    )
    p.act("cast-spell", "y", faces=[15, 1, 3], spell="web")
    assert p.decision.actor == "y"
    assert "immobilized" in p.c("y").conditions
    moves = {"walk", "run", "sneak", "charge", "close-to-attack", "attack", "disengage", "hurling-charge"}
    assert not [c for c in p.offered() if c.action in moves]
    assert not p.legal("walk", None, toward="m")
    assert not p.legal("close-to-attack", "m")
    p.done()


def test_d_small_shield_defends_against_one_attack_a_turn() -> None:
    """ATTACK TABLE MODIFIERS: "Defender has Small Shield -1 Buckler, Target (Defend vs Max 1 Attack per
    Turn)". x and z (both of side a, on two sides of y) attack y in one turn: x's roll has the shield's
    -1 (5 + 1 Surrounded - 1 = 5), z's has none (5 + 1 + 2 from Behind = 8)."""
    p = start(
        [unit("x", (0, 0), 0), unit("z", (2, 0), 3)],
        [unit("y", (1, 0), 3, shield="small"), unit("w", FAR, 3)],
    )
    p.act("attack", "y", faces=[5])
    p.act("attack", "y", faces=[5])
    first, second = p.rolls("Attack")[-2:]
    assert mods(first).get("Defender has Small Shield") == -1
    assert "Defender has Small Shield" not in mods(second)
    assert (first.total, second.total) == (5, 8)
    p.done()


def test_c_broken_neck_is_instant_death() -> None:
    """BODY PART BROKEN: "A Broken Neck is Instant Death." Damage 17, MAJOR WOUND TABLE 1 Broken Body Part,
    RANDOM BODY PART TABLE 7 Neck: y (Wound Level 9, 3 markers) is dead; side b's decision is w's."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 17, 1, 7, 60])
    assert p.c("y").counters["markers"] == 3
    assert p.c("y").status == "dead"
    assert p.decision.actor == "w"
    p.done()


def test_b_hurt_head_minus_1_and_its_stun_minus_2_both_count() -> None:
    """BODY PART HURT: "-1 to All Rolls for any Hurt Part ... A Hurt Head will also be Stunned for 1D4
    Rounds"; STUNNED "-2 to All Rolls". y's head is Hurt (LIGHT WOUND TABLE 2, 1D100 80, part 6, 1D4 2):
    his attack in the same round is 10 - 1 - 2 = 7."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 11, 2, 80, 6, 2])
    assert "stunned" in p.c("y").conditions
    p.act("attack", "x", faces=[10])
    assert p.rolls("Attack", "y")[-1].total == 7
    p.done()


def test_c_metal_armor_gives_no_armor_against_shock() -> None:
    """SHOCK: "Characters in Metal Armor receive no Bonuses from it when facing a Shock Attack." The mage's
    Bolt (a Lightning Bolt, docs) hits y in chain mail (Medium Armor, -3): damage 10 stays 10, a Light
    Wound of 2 markers; y saves (20, a natural 20) and stays up."""
    p = start(
        [unit("m", (0, 0), 0, template="mage")],
        [unit("y", (3, 0), 3, armor="medium", wound_level_base=9), unit("w", FAR, 3)],
    )
    p.act("cast-spell", "y", faces=[15, 12, 10, 1, 20], spell="bolt")
    assert p.rolls("Damage", "m")[-1].total == 10
    p.wait_for("m", 2)
    assert p.c("y").counters["markers"] == 2
    assert "shock" in p.c("y").conditions  # 1D2 = 1: on through round 2
    assert p.c("y").status == "active"
    p.done()


def test_c_ride_below_2_gives_no_mounted_bonus() -> None:
    """MOUNTED COMBAT: "Mounted Combat requires a character have a skill of Ride +2 or Greater ... Versus
    Unmounted Foes you get Attack and Damage +1." With Ride +1 the rider's damage die 10 stays 10."""
    horse = unit("h", (0, 0), 0, template="riding-horse")
    p = start(
        [horse, unit("x", (0, 0), 0, opts={"mount": "h"}, skills={"ride": 1})],
        [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)],
    )
    p.wait_for("x")
    p.act("attack", "y", faces=[12, 10])
    assert "Mounted vs unmounted" not in mods(p.rolls("Attack", "x")[-1])
    assert p.rolls("Damage", "x")[-1].total == 10
    p.done()


def test_e_surprised_cannot_change_facing() -> None:
    """COMBAT ROUND ACTIONS LIST: "Change Facing - Free Action/Reaction. Cannot change Facing if Surprised."
    x ambushes y with Surprise (10 + 5 - 0 = 15): in round 1 y may not change facing."""
    p = start(
        [unit("x", (0, 0), 0, stealth=5, hidden=True)], [unit("y", (1, 0), 3), unit("w", FAR, 3)], faces=[10]
    )
    p.act("nothing")
    assert p.decision.actor == "y"
    assert not p.offered("change-facing")
    assert not p.legal("change-facing")
    p.done()


def test_e_no_charge_when_adjacent_to_a_foe() -> None:
    """CHARGE RULES: "in a lengthy Combat when a combatant is not adjacent to any Foes, he may make an
    additional charge." x beside y may not charge w four spaces off."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", (4, 0), 3)])
    assert not p.legal("charge", "w")
    assert not p.offered("charge")
    p.done()


def test_c_injure_self_rolls_the_light_wound_table_only() -> None:
    """FUMBLE TABLE (HTH WEAPON): "8 Injure Self: Roll on Light Wound Table"; LIGHT WOUND TABLE "6 Bad
    Scar: Permanent. -1 to Appearance". x fumbles (2), rolls 8, then 6: a scar, and no Wound Marker."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[2, 8, 6])
    assert p.c("x").counters.get("markers", 0) == 0
    assert p.c("x").counters.get("appearance_loss") == 1
    p.done()


# --------------------------------------------------------------------------------------------------
# Batch 4: charges and first strikes, conditions on every roll


def test_a_longer_weapon_strikes_before_the_charger() -> None:
    """CHARGE RULES: "If the Defender has a Longer Weapon and sees the Charge coming, he will automatically
    be able to get an attack in First even if it is out of order"; the charger has "Defense -4". x charges
    y (spear against dagger): y strikes first at 10 + 1 (Longer Weapon) + 4 = 15, and x's marker is on
    him before x rolls his attack (10 + 1 = 11)."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["dagger"])],
        [unit("y", (4, 0), 3, weapons=["spear"]), unit("w", FAR, 3)],
    )
    p.act("charge", "y", faces=[10, 1, 10, 1])
    attacks = p.rolls("Attack")
    assert [(r.actor, r.total) for r in attacks] == [("y", 15), ("x", 11)]
    damaged = [e for e in p.log if isinstance(e, ev.Damaged)]
    first_damage = p.log.index(damaged[0])
    assert damaged[0].target == "x"
    assert first_damage < p.log.index(attacks[1])
    p.done()


def test_a_longer_weapon_first_strike_is_his_attack_of_the_round() -> None:
    """CHARGE RULES: "... he will automatically be able to get an attack in First even if it is out of
    order"; ATTACKING: "Combatants for the most part get a single attack per Round of Combat." y (spear)
    strikes first at x's charge in round 1; when his side's turn comes in round 1 he has no attack left
    (none is offered or legal); in round 2 he attacks again."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["dagger"], wound_level_base=9)],
        [unit("y", (4, 0), 3, weapons=["spear"]), unit("w", FAR, 3)],
    )
    p.act("charge", "y", faces=[10, 1, 10, 1])
    assert (p.state.round, p.decision.actor) == (1, "y")
    assert not p.legal("attack", "x")
    assert not [c for c in p.offered() if c.target == "x" and c.action in ("attack", "hack-and-slash")]
    p.wait_for("y", 2)
    assert p.legal("attack", "x")
    p.done()


def test_a_receive_charge_strikes_after_the_move() -> None:
    """REACTIONS: "Receive Charge - Charging Foe runs straight into your Weapon. You must have taken Set to
    Receive Charge as your previous Action. You attack after a Foe moves but before he Attacks." y, set
    with his spear in round 1, receives x's charge (spear against spear: no longer weapon) in round 2 at
    10 + 4 (the charger's Defense -4) = 14, before x's 10 + 1 = 11."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["spear"])],
        [unit("y", (4, 0), 3, weapons=["spear"]), unit("w", FAR, 3)],
    )
    p.act("nothing")
    p.wait_for("y")
    p.act("set-to-receive-charge")
    p.wait_for("x", 2)
    p.act("charge", "y", faces=[10, 1, 10, 1])
    assert [(r.actor, r.total) for r in p.rolls("Attack")] == [("y", 14), ("x", 11)]
    p.done()


def test_c_monster_fumble_4_gives_each_foe_plus_2_once() -> None:
    """MONSTER FUMBLES: "4 Foes get Attack +2 to next attack vs Monster." The wolf fumbles (1, then 4);
    both x and z then attack it at 10 + 2 and the rest of their lines; in round 2 x has no +2."""
    wolf = unit("v", (1, 0), 3, template="wolf")
    p = start([unit("x", (0, 0), 0), unit("z", (2, 0), 3)], [wolf, unit("w", FAR, 3)], faces=[1, 20])
    p.act("attack", "x", faces=[1, 4])
    p.wait_for("x")
    p.act("attack", "v", faces=[10, 1])
    p.act("attack", "v", faces=[10, 1])
    assert [mods(r).get("Monster Fumble: foes +2") for r in p.rolls("Attack")[-2:]] == [2, 2]
    p.wait_for("x", 2)
    p.act("attack", "v", faces=[10, 1])
    assert "Monster Fumble: foes +2" not in mods(p.rolls("Attack", "x")[-1])
    p.done()


def test_c_partial_blindness_on_sight_rolls_only() -> None:
    """PARTIAL BLINDNESS: "-1 to all Rolls requiring Sight"; MAJOR WOUND TABLE "2 Lose 1 Eye. Partial
    Blindness". One-eyed y (he stood up in round 3) attacks in round 4 at 12 - 1 = 11; his damage roll
    10 is not a sight roll: 10."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=12), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 17, 2, 60])
    p.wait_for("y", 3)
    p.act("stand-up", faces=[15])
    p.wait_for("y", 4)
    p.act("attack", "x", faces=[12, 10])
    assert p.rolls("Attack", "y")[-1].total == 11
    assert p.rolls("Damage", "y")[-1].total == 10
    p.done()


def test_c_stun_is_on_the_damage_roll_too() -> None:
    """STUNNED: "Character Gets -2 to All Rolls"; LIGHT WOUND TABLE "5 Stun: Get -2 to all Rolls for 1D6
    Rounds". Stunned y attacks at 14 - 2 = 12 and rolls damage 10 - 2 = 8."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=12), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[12, 11, 5, 3])
    p.act("attack", "x", faces=[14, 10])
    assert p.rolls("Attack", "y")[-1].total == 12
    assert p.rolls("Damage", "y")[-1].total == 8
    p.done()


def test_c_prone_attacker_is_minus_2_on_damage_too() -> None:
    """KNOCKED DOWN: "Prone Characters get a -2 to all Combat related Rolls"; FUMBLE TABLE (HTH WEAPON) "4
    Trip or Knocked Down: Go Prone". x trips in round 1 (drop roll 60: kept) and attacks from the ground in
    round 2: 14 - 2 = 12, damage 10 - 2 = 8."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3, wound_level_base=12), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[2, 4, 60])
    p.wait_for("x", 2)
    assert "knocked-down" in p.c("x").conditions
    p.act("attack", "y", faces=[14, 10])
    assert p.rolls("Attack", "x")[-1].total == 12
    assert p.rolls("Damage", "x")[-1].total == 8
    p.done()


# --------------------------------------------------------------------------------------------------
# Batch 5: saving throws by race and class (reference 2.5), "next attack"


def _sleep_on(target: dict) -> Play:
    """The mage casts Sleep (a setting spell: Save 13+ or Knocked Out 2D6 rounds) at ``target``: Spell
    Check 15, the target's save die 10."""
    p = start([unit("m", (0, 0), 0, template="mage")], [target, unit("w", FAR, 3)])
    p.act("cast-spell", "y", faces=[15, 10], spell="sleep")
    return p


def test_c_elf_saves_vs_sleep_at_plus_4() -> None:
    """Reference 2.5: saves succeed on 13+; "Elves +4 vs Disease, Paralyzation, Sleep, Aging, Fairy Magic".
    An elf's save of 10 against Sleep is 14: he stays awake."""
    p = _sleep_on(unit("y", (3, 0), 3, race="elf", kind="demi-human"))
    assert p.c("y").status == "active"
    assert "knocked-out" not in p.c("y").conditions
    p.done()


def test_c_mage_saves_vs_spells_at_plus_4() -> None:
    """Reference 2.5: "Mages +4 vs Spells, Fire, Rods, Staves, Wands, Scrying". An enemy mage with no Power
    Points left (so no Counterspell) saves at 10 + 4 = 14 against Sleep: she stays awake."""
    p = _sleep_on(unit("y", (3, 0), 3, template="mage", power_points=0))
    assert p.c("y").status == "active"
    p.done()


def test_c_sleep_knocks_out_a_foe_without_a_bonus() -> None:
    """Reference 2.5: saves succeed on 13+ (1-12 fail); KNOCKED OUT "If not otherwise stated Foe is knocked
    out for 2D6 Rounds". An orc's save of 10 fails: unconscious for 2D6 = 1 + 1 rounds."""
    p = start(
        [unit("m", (0, 0), 0, template="mage")], [unit("y", (3, 0), 3, kind="humanoid"), unit("w", FAR, 3)]
    )
    p.act("cast-spell", "y", faces=[15, 10, 1, 1], spell="sleep")
    assert p.c("y").status == "unconscious"
    assert p.c("y").conditions["knocked-out"].until_round == 1 + 2
    p.done()


def test_c_human_rerolls_one_failed_save_a_day() -> None:
    """Reference 2.5: "Humans - reroll 1 failed Saving Throw per day". A human (race human) fails his Save
    vs Death against a Choke Hold (10), rerolls it (15): he is choked but not Knocked Out."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["unarmed"])],
        [unit("y", (1, 0), 3, race="human"), unit("w", FAR, 3)],
        options={"brawl-rule": True},
    )
    p.act("attack", "y", faces=[5, 14, 12, 10, 15, 1])
    assert "knocked-out" not in p.c("y").conditions
    assert p.c("y").status == "active"
    p.done()


def test_a_feint_bonus_waits_for_the_next_attack() -> None:
    """COMBAT ROUND ACTIONS LIST: "Feint - Get Defense +2 on Foes next Attack and Attack +2 on your next
    Attack." x feints in round 1, waits in round 2 and attacks in round 3 at 8 + 2 = 10: a Hit."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("feint", "y")
    p.wait_for("x", 3)
    p.act("attack", "y", faces=[8, 1])
    assert p.rolls("Attack", "x")[-1].total == 10
    p.done()


# --------------------------------------------------------------------------------------------------
# Batch 6: free actions, what each weapon allows, bleeding once a round


def test_e_change_facing_is_free() -> None:
    """COMBAT ROUND ACTIONS LIST: "Change Facing - Free Action/Reaction." x turns to facing 1 and still
    has his action: he attacks y in the same turn (10: a Hit)."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (1, 0), 3), unit("w", FAR, 3)])
    p.act("change-facing", None, facing=1)
    assert p.c("x").facing == 1
    assert (p.state.round, p.decision.actor) == (1, "x")
    p.act("attack", "y", faces=[10, 1])
    assert p.rolls("Attack", "x")[-1].outcome == "Hit"
    p.done()


@pytest.mark.parametrize(
    ("weapons", "target_at", "allowed"),
    [
        (["mace"], (1, 0), {"hack-and-slash", "mighty-blow", "defensive-stance-attack"}),
        (["short-bow"], (4, 0), {"aimed-shot"}),
    ],
)
def test_e_continued_attacks_by_weapon_kind(
    weapons: list[str], target_at: tuple[int, int], allowed: set
) -> None:
    """COMBAT ROUND ACTIONS LIST: "Hack and Slash - Continued Attack for HTH", "Mighty Blow - Continued
    attack for HTH", "Defensive Stance - Continued attack for HTH", "Aimed Shot - Continued attack for
    Ranged Attack". After an attack in round 1, a mace-man may take the three HTH ones and not Aimed
    Shot; a bowman only Aimed Shot."""
    p = start([unit("x", (0, 0), 0, weapons=weapons)], [unit("y", target_at, 3), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[5])
    p.wait_for("x", 2)
    continued = {"hack-and-slash", "mighty-blow", "defensive-stance-attack", "aimed-shot"}
    assert {a for a in continued if p.legal(a, "y")} == allowed
    p.done()


@pytest.mark.parametrize(("weapon", "legal"), [("javelin", True), ("mace", False)])
def test_e_hurling_charge_needs_a_weapon_to_throw(weapon: str, legal: bool) -> None:
    """COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1";
    ATTACK TABLE MODIFIERS "Short Range ... Most Thrown Weapons". A javelin may be hurled at a foe 6
    spaces off; a mace is no thrown weapon."""
    p = start([unit("x", (0, 0), 0, weapons=[weapon])], [unit("y", (6, 0), 3), unit("w", FAR, 3)])
    assert p.legal("hurling-charge", "y") is legal
    assert bool(p.offered("hurling-charge")) is legal
    p.done()


def test_a_two_bleeds_roll_once_a_round() -> None:
    """BLEEDING: "At the beginning of every Round you start with one or more Bleeds, Roll once on the Bleed
    Table." y takes two Bleeds (MAJOR WOUND TABLE 5, twice) in round 1; as round 2 begins one Bleed Table
    roll is made (6: Weakened), not two."""
    p = start(
        [unit("x", (0, 0), 0), unit("z", (2, 0), 3)],
        [unit("y", (1, 0), 3, wound_level_base=40), unit("w", FAR, 3)],
    )
    p.act("attack", "y", faces=[12, 17, 5, 5, 5, 60])
    p.act("attack", "y", faces=[12, 17, 5, 5, 5, 60])
    p.wait_for("w")
    p.act("nothing", after=[6])
    assert p.state.round == 2
    assert p.c("y").counters["bleeds"] == 2
    assert len(p.rolls("Bleed Table", "y")) == 1
    p.done()


def test_f_offered_commands_are_legal_when_one_handed_webbed_or_surprised() -> None:
    """BODY PART BROKEN (a broken arm), IMMOBILIZED (Web) and SURPRISE: every command offered to a
    one-handed fighter, to a webbed one and to a surprised one passes validate and resolves."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["great-sword", "mace"], wound_level_base=9)],
        [unit("y", (1, 0), 3), unit("w", FAR, 3)],
        faces=[1, 20],
    )
    p.act("attack", "x", faces=[12, 17, 1, 3, 60])
    p.wait_for("x")
    _offers_ok(p)
    p = start(
        [unit("m", (0, 0), 0, template="mage")], [unit("y", (3, 0), 3, kind="humanoid"), unit("w", FAR, 3)]
    )
    p.act("cast-spell", "y", faces=[15, 1, 3], spell="web")
    _offers_ok(p)
    p = start(
        [unit("x", (0, 0), 0, stealth=5, hidden=True)], [unit("y", (1, 0), 3), unit("w", FAR, 3)], faces=[10]
    )
    p.act("nothing")
    _offers_ok(p)


# --------------------------------------------------------------------------------------------------
# Batch 7: movement and a regenerator at its Wound Level


def _spaces(at: tuple[int, int]) -> int:
    q, r = at
    return max(abs(q), abs(r), abs(q + r))


@pytest.mark.parametrize(("action", "spaces"), [("walk", 6), ("run", 12)])
def test_c_walk_normal_speed_run_double(action: str, spaces: int) -> None:
    """COMBAT ROUND ACTIONS LIST: "Walk - Move at Normal Speed", "Run - Move at Double Speed"; reference
    2.1: a Human's Movement Rating is 6. x covers 6 or 12 spaces toward a far foe."""
    p = start([unit("x", (0, 0), 0)], [unit("y", (30, 0), 3), unit("w", (30, 3), 3)])
    p.act(action, None, toward="y")
    assert _spaces(p.c("x").pos) == spaces
    p.done()


def test_c_sneak_is_half_speed_and_stays_hidden() -> None:
    """COMBAT ROUND ACTIONS LIST: "Sneak - Move while Hidden. Half Speed." Hidden x (Surprise: 20 + 3 -
    0) sneaks 3 spaces and is still hidden."""
    p = start(
        [unit("x", (0, 0), 0, stealth=3, hidden=True)],
        [unit("y", (30, 0), 3), unit("w", (30, 3), 3)],
        faces=[20],
    )
    p.act("sneak", None, toward="y")
    assert _spaces(p.c("x").pos) == 3
    assert p.c("x").hidden
    p.done()


def test_c_mount_gets_swift_1_per_level_of_ride() -> None:
    """MOUNTED COMBAT: "For every level of Ride you have, your mount gets Swift +1"; reference 2.6: a horse
    (Big). The riding horse's Movement 12 + Ride 2 = 14 spaces; the horse moves with its rider."""
    p = start(_mounted_knight(), [unit("y", (30, 0), 3), unit("w", (30, 3), 3)])
    p.wait_for("x")
    p.act("walk", None, toward="y")
    assert _spaces(p.c("x").pos) == 14
    assert p.c("h").pos == p.c("x").pos
    p.done()


def test_c_toughness_raises_the_wound_level() -> None:
    """Reference 2.1: "The Toughness skill increases WL" (docs: +1 a level). A Human (Wound Level 4) with
    Toughness +2 has Wound Level 6: two Light Wounds (4 markers) do not kill him."""
    p = start(
        [unit("x", (0, 0), 0), unit("z", (2, 0), 3)], [unit("y", (1, 0), 3, toughness=2), unit("w", FAR, 3)]
    )
    assert p.c("y").stats.wound_level == 6
    p.act("attack", "y", faces=[12, 8])
    p.act("attack", "y", faces=[12, 8])
    p.wait_for("y")
    assert p.c("y").counters["markers"] == 4
    assert p.c("y").status == "active"
    p.done()


def test_a_regenerator_at_its_wound_level_dies_before_it_regenerates() -> None:
    """DEATH BY A THOUSAND CUTS: "Non-Heroic Foes and Creatures will just die immediately"; REGENERATION:
    "Remove 1 Wound Counter at the end of every one of their rounds." A regenerating y (Wound Level 4)
    takes two Light Wounds from x and z in one turn (4 markers): he dies then, and his regeneration at
    the end of his own round never comes."""
    p = start(
        [unit("x", (0, 0), 0), unit("z", (2, 0), 3)],
        [unit("y", (1, 0), 3, regenerates=True), unit("w", FAR, 3)],
    )
    p.act("attack", "y", faces=[12, 8])
    p.act("attack", "y", faces=[12, 8])
    assert p.c("y").status == "dead"
    assert p.decision.actor == "w"
    p.done()
