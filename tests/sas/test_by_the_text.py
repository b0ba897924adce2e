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

import pytest
from by_the_text_helpers import Play, mods, start, unit

from fracas.engine import events as ev


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
    """ATTACK TABLE: "20+ Critical Hit - Get +4 Damage Bonus"; DAMAGE TABLE "14-16 Heavy Wound - Get 3
    Wound Markers". Attack +3 and a 17 make 20: a Critical Hit; the damage 10 + 4 = 14 is a Heavy Wound."""
    p = start([unit("x", (0, 0), 0, attack=3)], [unit("y", (1, 0), 3, wound_level_base=9), unit("w", FAR, 3)])
    p.act("attack", "y", faces=[17, 10])
    assert p.rolls("Attack", "x")[-1].outcome == "Critical Hit"
    dmg = p.rolls("Damage", "x")[-1]
    assert dmg.total == 14
    assert p.c("y").counters["markers"] == 3
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


@defect(
    "FUMBLE TABLE (HTH WEAPON) 6 says 'Stagger: Cannot Move next Round'; "
    "fracas removes the Stagger when the staggered one's side starts its next turn, so he may "
    "walk, run and charge in the very next round"
)
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


@defect(
    "FUMBLE TABLE (HTH WEAPON) 6 Stagger's -1 Defense (next round) and the "
    "Defensive Stance's Defense +4 are separate lines and both count; fracas keeps only the "
    "stance's +4 (the foe rolls 10 - 4 = 6, not 10 + 1 - 4 = 7)"
)
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


@defect(
    "DAMAGE TABLE 14-16 is a 'Heavy Wound ... Major Wound' and MAJOR WOUNDS "
    "says most Major Wounds knock the victim Prone and miss their next Action (the tool's "
    "setting major_wound_prone reads 'all do'); fracas knocks down only on 17-18"
)
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


@defect(
    "DEATH BY A THOUSAND CUTS: 'Non-Heroic Foes and Creatures will just die "
    "immediately'; fracas checks it only at the end of a side's turn, so a non-heroic foe "
    "that reaches its Wound Level from the Bleed Table as the round begins lives on and takes "
    "its turn"
)
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


@defect(
    "ATTACK TABLE MODIFIERS 'Defender Surrounded +1 On at least 2 Sides': a "
    "rider and his steed share one space, so one foe beside them is attacked from one side; "
    "fracas counts the two combatants and gives +1"
)
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


@defect(
    "KNOCKED DOWN: 'a 50% the Character will Drop whatever he is holding': "
    "a wolf's bite is not held; fracas has the Knocked Down wolf drop its bite and fight "
    "'unarmed'"
)
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


@defect(
    "reference 2.5 (SSRSKILL): Halflings get +4 on saves vs Death; fracas "
    "rolls a halfling's Save vs Death (CHOKE) without it (10 fails instead of 14 passing)"
)
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


def test_c_human_fails_the_same_save_vs_death() -> None:
    """CHOKE: "Save vs Death or be Knocked out for 1D10 Minutes"; reference 2.5: 13+ succeeds; a human has
    no bonus vs Death. The same Choke Hold with a save of 10 knocks y out for 1D10 = 10 minutes (60
    rounds: "A Combat round is about 10 Seconds")."""
    p = start(
        [unit("x", (0, 0), 0, weapons=["unarmed"])],
        [unit("y", (1, 0), 3), unit("w", FAR, 3)],
        options={"brawl-rule": True},
    )
    p.act("attack", "y", faces=[5, 14, 12, 10, 10, 1])
    y = p.c("y")
    assert y.status == "unconscious"
    assert y.conditions["knocked-out"].until_round == 1 + 60
    p.done()


# --------------------------------------------------------------------------------------------------
# G: time conversions and the day


@defect(
    "reference 5.1 Spell Failure 1-5 'Fizzle: ... lose 1 PP and the use of "
    "that spell for the day'; fracas still offers and accepts the fizzled spell next round"
)
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


@defect(
    "REGENERATION 'Hurt Body Parts regenerate in 1D6 Minutes' and a round is "
    "about 10 seconds (6 rounds a minute); fracas never regenerates a hurt part during a "
    "fight (the docs leave it between fights), so a troll's hurt leg stays hurt"
)
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
