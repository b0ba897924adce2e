"""GURPS 4th Edition cases written from the rules texts alone, as a game master checks a referee.

Sources: the mounted and aerial combat text (rules/002_0b9ddace88bc0e75.txt, Basic Set pp.B396-398) and the
combat core it stands on (rules/reference/gurps.md, Basic Set pages as cited there). Every die is forced;
each case asserts on final values: the number a roll is made against, the damage, HP, who may act.

Classes, in the test names: A timing and duration, B stacking, C final values, D geometry and counting,
E what a creature cannot do, F offered equals legal, G voluntary versus involuntary.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from gurps_by_the_text_helpers import (
    R,
    act,
    all_used,
    decision,
    defend,
    defense_value,
    dump,
    injury,
    new_fight,
    offered,
    one_roll,
    rolls,
    script,
    status,
)

from fight_helpers import of
from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight

# Combatant entries used by several cases.
NO_ARMOR = {"weapons": ["broadsword"], "armor": [], "shield": None}


def knight_on_foot(**extra: object) -> dict:
    """A knight (Broadsword 14, Basic Speed 6, Combat Reflexes: Dodge 10; HP 12) without armor or shield."""
    entry = {"template": "knight", "id": "k", "at": [1, 0], "equipment": dict(NO_ARMOR)}
    entry.update(extra)
    return entry


def fast_axeman(**extra: object) -> dict:
    """An axeman (Axe/Mace 13, axe sw 2d+1 cut at ST 13) who acts first."""
    entry = {"template": "axeman", "id": "ax", "at": [0, 0], "stats": {"basic_speed": 7}}
    entry.update(extra)
    return entry


# ----------------------------------------------------------------------------------------------------------
# A: timing and duration
# ----------------------------------------------------------------------------------------------------------


def test_A_shock_lowers_a_mounted_gunners_riding_roll_on_his_next_turn():
    """Shock: "-1 per HP of injury, max -4, to DX and IQ (and skills) on the next turn only" (gurps.md 1.6,
    B419). "If you are firing a noisy weapon (e.g., an unsilenced gun), you must make a Riding roll after each
    attack" (B397). A javelin wounds the mounted gunner for 2 HP; on his next turn he fires: the musket roll
    and the Riding roll after it are both at -2."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "equipment": {"weapons": ["matchlock_musket"]},
                "stats": {"skills": {"Guns (Musket)": 14, "Riding": 13}},
            },
        ],
        [
            {
                "template": "spearman",
                "id": "s",
                "at": [5, 0],
                "equipment": {"weapons": ["javelin"]},
                "stats": {"basic_speed": 7, "skills": {"Thrown Weapon (Spear)": 14}},
            }
        ],
        faces=[2, 3, 3, 3],  # javelin 8 vs 12 hits; damage 1d = 3, DR 2, imp x2 = 2 HP
    )
    act(fight, "s", "attack", "a", weapon="javelin", maneuver="attack")
    defend(fight, "a", "none")
    assert injury(fight, "a") == 2
    script(fight, 6, 5, 5, 4, 4, 4)  # musket 16 misses; Riding 12
    events = act(fight, "a", "attack", "s", weapon="matchlock_musket", maneuver="attack")
    shot = one_roll(events, "matchlock_musket")
    assert shot.dn == 13 - 2 - 2  # lower of Guns 14 / Riding 13, shock -2, range 5 yd -2
    riding = one_roll(events, "Riding")
    # Riding 13, +1 stirrups (B289), -2 shock.
    assert riding.dn == 12, dump(fight, events)


def test_A_shock_applies_to_the_next_turn_only():
    """Shock: "-1 per HP of injury, max -4, to DX and IQ (and skills) on the next turn only" (gurps.md 1.6,
    B419). The knight takes 1 HP: his swing on his next turn is at -1, the swing on the turn after is not."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[3, 3, 4, 3, 3],  # axe 10 hits; damage 2d+1 = 7 vs DR 6: 1 cut, x1.5 = 1 HP
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 1
    script(fight, 5, 5, 5)
    first = one_roll(
        act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack"), "broadsword"
    )
    assert first.dn == 13  # Broadsword 14, shock -1
    act(fight, "ax", "do_nothing")
    script(fight, 5, 5, 5)
    second = one_roll(
        act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack"), "broadsword"
    )
    assert second.dn == 14
    assert all_used(fight)


def test_A_shock_does_not_lower_active_defenses():
    """Shock is a penalty "to DX and IQ (and skills) on the next turn" (gurps.md 1.6, B419); the Basic Set
    does not take it off active defenses. A knight wounded for 1 HP still dodges at 10 when attacked again
    before his turn."""
    fight = new_fight(
        [fast_axeman(), {"template": "swordsman", "id": "sw", "at": [2, 1], "stats": {"basic_speed": 6.5}}],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[3, 3, 4, 3, 3],  # axe hits for 1 HP (see above)
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 1
    script(fight, 3, 3, 4)
    act(fight, "sw", "attack", "k", weapon="broadsword:swing", maneuver="attack")
    # Dodge: Basic Speed 6 + 3 + Combat Reflexes 1 = 10, +2 medium shield DB, -0 shock.
    assert defense_value(fight, "k", "dodge") == 12


def test_A_stun_penalty_lasts_until_the_next_turn_after_recovery():
    """Stun: "defences -4. HT roll at the end of each turn to recover. After recovery the -4 lasts until the
    next turn" (gurps.md 1.6, B420). A failed knockdown roll: "the victim is stunned, falls prone". The knight
    recovers at the end of his turn, and the axeman's next blow still finds him at -4 (and lying, -3)."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        # axe 10 hits; damage 2 + 2 + 1 = 5 cut, x1.5 = 7 HP: a major wound (over HP/2 = 6);
        # knockdown HT 12: 14 fails by 2: stunned.
        faces=[3, 3, 4, 2, 2, 5, 5, 4],
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 7
    n = len(fight.log)
    script(fight, 3, 3, 3)  # the recovery roll at the end of his turn: 9 vs HT 12
    # A stunned figure must Do Nothing: his turn passes without a choice, and the axeman acts next.
    decision(fight, "ax", "act")
    turn = fight.log[n:]
    assert fight.state.combatants["k"].marks.get("maneuver") == "do_nothing"
    assert one_roll(turn, "HT", actor="k").success
    script(fight, 3, 3, 4)
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    # Dodge 10, lying -3, stunned -4 until his next turn.
    assert defense_value(fight, "k", "dodge") == 3


def test_A_aim_is_lost_when_the_aimer_defends():
    """Aim: "+Acc for 1 turn ... any [defence], but defending loses the Aim" (gurps.md 1.3, B364). The archer
    aims his composite bow (Acc 3) at the spearman, dodges a javelin, and shoots with no Aim bonus."""
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0], "stats": {"basic_speed": 7}}],
        [
            {
                "template": "spearman",
                "id": "s",
                "at": [10, 0],
                "equipment": {"weapons": ["javelin"]},
                "stats": {"skills": {"Thrown Weapon (Spear)": 14}},
            }
        ],
        faces=[3, 3, 4, 3, 3, 3],  # javelin 10 vs 10 hits; the dodge 9 vs 9 succeeds
    )
    act(fight, "a", "aim", "s", weapon="composite_bow")
    act(fight, "s", "attack", "a", weapon="javelin", maneuver="attack")
    defend(fight, "a", "dodge", retreat=False)
    script(fight, 6, 5, 5)
    shot = one_roll(
        act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "composite_bow"
    )
    assert shot.dn == 13 - 4  # Bow 13, range 10 yd -4, no Aim
    assert all_used(fight)


def test_A_aim_kept_without_a_defense_adds_the_bow_accuracy():
    """Aim: "+Acc for 1 turn" (gurps.md 1.3, B364). The same archer, not attacked, shoots at Bow 13 - 4
    (range 10 yd) + 3 (composite bow Acc 3)."""
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0], "stats": {"basic_speed": 7}}],
        [{"template": "spearman", "id": "s", "at": [10, 0]}],
        faces=[6, 5, 5],
    )
    act(fight, "a", "aim", "s", weapon="composite_bow")
    act(fight, "s", "do_nothing")
    shot = one_roll(
        act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "composite_bow"
    )
    assert shot.dn == 13 - 4 + 3
    assert all_used(fight)


def test_A_rider_at_minus_2_only_after_his_mount_attacked_on_its_last_turn():
    """ "The rider's attack is at an extra -2 if the mount attacked on its last turn" (B396). The warhorse
    kicks, the knight swings at -2; next round the horse only stands, and the knight swings at full skill."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": {"weapons": ["broadsword"]},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 3}}],
        faces=[6, 6, 5],  # the kick misses (17 vs 12)
    )
    act(fight, "horse", "attack", "s", weapon="kick", maneuver="attack")
    script(fight, 6, 5, 5)
    first = one_roll(
        act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="attack"), "broadsword"
    )
    # Broadsword 14, limited to Riding 13; -2 for the mount's attack.
    assert first.dn == 11
    act(fight, "s", "do_nothing")
    act(fight, "horse", "do_nothing")
    script(fight, 6, 5, 5)
    second = one_roll(
        act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="attack"), "broadsword"
    )
    assert second.dn == 13
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# C: final values
# ----------------------------------------------------------------------------------------------------------


def test_C_knight_below_a_third_of_his_hp_dodges_at_half_rounded_up():
    """HP thresholds: "below HP/3: halve Move and Dodge, rounding up" (gurps.md 1.6, B419). Retreat: "+3 to
    Dodge" (B377). A knight (Dodge 10, HP 12) at 3 HP dodges at 5, and at 8 when he retreats."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        # axe 10 hits; damage 2 + 3 + 1 = 6 cut, x1.5 = 9 HP; the knockdown roll 9 vs HT 12 succeeds
        faces=[3, 3, 4, 2, 3, 3, 3, 3],
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 9
    act(fight, "k", "do_nothing")
    script(fight, 3, 3, 4)
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    offered_dodge = defense_value(fight, "k", "dodge")
    offered_retreat = defense_value(fight, "k", "dodge", retreat=True)
    script(fight, 2, 2, 3, 1, 1)  # the dodge: 7; the axe's damage 1 + 1 + 1 = 3 cut, x1.5 = 4 HP
    dodge = one_roll(defend(fight, "k", "dodge", retreat=False), "Dodge")
    assert (offered_dodge, offered_retreat, dodge.dn) == (5, 8, 5)
    assert not dodge.success  # 7 against 5
    assert injury(fight, "k") == 13
    assert all_used(fight)


def test_C_rider_with_riding_9_defends_at_minus_3():
    """ "For a less-skilled rider, reduce active defenses by the difference between 12 and the rider's skill;
    e.g., someone with Riding-9 would have -3 to all active defenses" (B397). "A cavalryman on horseback is
    effectively three feet above a standing foe" (B397), and the higher fighter defends at +1 at 3 ft
    (gurps.md 2, B402). The knight's Dodge 10 becomes 10 - 3 + 1 = 8."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": dict(NO_ARMOR),
                "stats": {"skills": {"Broadsword": 14, "Riding": 9}},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 4],
    )
    act(fight, "s", "attack", "k", weapon="spear:thrust", maneuver="attack")
    assert defense_value(fight, "k", "dodge") == 8


def test_C_rider_with_riding_12_defends_at_normal_level_plus_height():
    """ "If he has Riding at 12+, all of these defenses are at normal levels" (B397); a rider is three feet
    above a standing foe (B397) and defends at +1 (gurps.md 2, B402): Dodge 10 + 1 = 11."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": dict(NO_ARMOR),
                "stats": {"skills": {"Broadsword": 14, "Riding": 12}},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 4],
    )
    act(fight, "s", "attack", "k", weapon="spear:thrust", maneuver="attack")
    assert defense_value(fight, "k", "dodge") == 11


def lancer_charge(options: dict | None = None, faces: tuple[int, ...] = ()):
    """The text's ST 25 warhorse carries a knight 8 yards, to 4 yards (the lance's reach) from a spearman."""
    fight = new_fight(
        [
            {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [12, 0]}],
        faces=list(faces),
        options=options,
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[8, 0])
    return fight


def test_C_couched_lance_from_the_texts_warhorse_at_move_8_does_2d_plus_3():
    """ "(mount's ST) x (distance moved last turn)/100 dice of damage, rounded down - and add the lance's
    thrust/impaling bonus of +3. Example: A ST 25 warhorse charging at Move 8 inflicts 2d+3 impaling damage"
    (B397). With the velocity bonus off, dice 3 + 3 give 9 imp; DR 2 leaves 7, x2 = 14 HP."""
    fight = lancer_charge({"velocity_with_couched_lance": False})
    script(fight, 3, 3, 3, 3, 3, 3, 3, 3)  # lance 9 hits; damage 3, 3; knockdown roll 9 vs HT 11
    events = act(fight, "k", "attack", "s", weapon="lance", maneuver="attack")
    assert one_roll(events, "lance").dn == 13  # Lance 14 limited to Riding 13
    events = defend(fight, "s", "none")
    damage = one_roll(events, "damage")
    assert damage.expr.replace(" ", "") == "2d+3imp"
    assert damage.total == 9
    assert injury(fight, "s") == 14
    assert all_used(fight)


def test_C_mount_velocity_7_or_more_gives_minus_1_to_hit_plus_1_damage():
    """ "If the mount's velocity is 7 or more relative to the foe, the attack has -1 to hit but +1 damage"
    (B397); the tool applies it to the couched lance too (its default option). Lance 13 - 1 = 12;
    2d+3+1 = 10 imp, DR 2, x2 = 16 HP."""
    fight = lancer_charge()
    script(fight, 3, 3, 3, 3, 3, 3, 3, 3)
    events = act(fight, "k", "attack", "s", weapon="lance", maneuver="attack")
    assert one_roll(events, "lance").dn == 12
    events = defend(fight, "s", "none")
    assert one_roll(events, "damage").total == 10
    assert injury(fight, "s") == 16
    assert all_used(fight)


def test_C_jousting_lance_snaps_above_15_and_does_15_crushing():
    """Jousting lances "inflict the same amount of damage, but it is crushing - and if the damage exceeds 15
    points, the lance snaps, limiting damage to 15 points" (B397). 6 + 6 + 3 + 1 (velocity) = 16 -> 15 cr;
    DR 2 leaves 13 HP."""
    fight = new_fight(
        [
            {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "jousting_knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [12, 0]}],
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[8, 0])
    # lance 9 hits; damage 6 + 6 + 3 + 1 = 16, snaps: 15; knockdown roll 9 vs HT 11; DX roll 9 vs 11
    script(fight, 3, 3, 3, 6, 6, 3, 3, 3, 3, 3, 3)
    act(fight, "k", "attack", "s", weapon="jousting_lance", maneuver="attack")
    events = defend(fight, "s", "none")
    damaged = [e for e in of(events, ev.Damaged) if e.target == "s"]
    assert damaged and damaged[0].raw == 15, dump(fight, events)
    assert damaged[0].damage_type == "cr"
    assert injury(fight, "s") == 13
    # Knockback (B378): 15 / (ST 11 - 2) = 1 yard; DX roll at -(1 - 1) = DX 11.
    assert fight.state.combatants["s"].pos == (13, 0)
    assert one_roll(events, "knockback").dn == 11
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# E: what a creature cannot do
# ----------------------------------------------------------------------------------------------------------


def test_E_a_mount_defends_only_by_dodge():
    """ "A mount's only defense is Dodge" (B397). A spear thrust at the warhorse: it is offered Dodge (with or
    without retreat) or no defense, nothing else; its Dodge is 9 (the heavy warhorse's, with Combat
    Reflexes)."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 4],
    )
    act(fight, "s", "attack", "horse", weapon="spear:thrust", maneuver="attack")
    d = decision(fight, "horse", "react")
    kinds = {c.args["defense"] for c in R.choices(fight.state, d)}
    assert kinds == {"dodge", "none"}
    assert defense_value(fight, "horse", "dodge") == 9
    assert all_used(fight)


def test_E_a_mount_without_war_training_makes_no_attack():
    """ "A war-trained mount can attack if it takes an appropriate maneuver" (B396): a saddle horse is not
    war-trained, so no attack is offered to it even with a foe beside it; the heavy warhorse is offered its
    kick."""
    for template, attacks in (("saddle_horse", False), ("heavy_warhorse", True)):
        fight = new_fight(
            [
                {"template": template, "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
                {"template": "horse_archer", "id": "a", "options": {"mount": "horse"}},
            ],
            [{"template": "spearman", "id": "s", "at": [1, 0]}],
        )
        actions = {(c.action, c.args.get("weapon")) for c in offered(fight, "horse")}
        assert (("attack", "kick") in actions) is attacks, (template, actions)
        assert attacks or not any(a == "attack" for a, _ in actions)


def test_E_no_active_defense_after_an_all_out_attack():
    """All-Out Attack: "Active defence: none" (gurps.md 1.3, B365); "after All-Out Attack: no defence"
    (gurps.md 1.4). The axeman's All-Out Attack (Determined) misses; the knight's swing then finds him with no
    defense: the damage is rolled at once and no defense is asked of him."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[6, 6, 5],  # 17 vs 13 + 4 = 17: a miss (17 always fails), not critical at 17
    )
    miss = one_roll(
        act(fight, "ax", "attack", "k", weapon="axe", maneuver="all_out_attack_determined"), "axe"
    )
    assert (miss.dn, miss.success) == (17, False)
    # broadsword 9 vs 14 hits; sw 1d+3 (ST 12 sw 1d+2, broadsword +1): 3 + 3 = 6 cut, DR 4: 2 x 1.5 = 3 HP
    script(fight, 3, 3, 3, 3)
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    d = decision(fight)
    assert d.actor == "ax" and d.kind == "act", "the axeman was not asked to defend"
    assert injury(fight, "ax") == 3
    assert all_used(fight)


def test_E_move_and_attack_leaves_dodge_or_block_without_retreat():
    """Move and Attack: "Dodge or Block only, no Parry, no Retreat" (gurps.md 1.3, B365). After the
    axeman's Move and Attack, the knight's blow finds him offered Dodge 11 (Basic Speed 7 + 3, small shield
    DB 1) and Block 9 (Shield 11 / 2 + 3, DB 1), no parry, no retreat."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [3, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[6, 5, 5],  # 16 vs 13 - 4 = 9: a miss
    )
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="move_and_attack")
    assert one_roll(events, "axe").dn == 9
    script(fight, 3, 3, 3)
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    d = decision(fight, "ax", "react")
    defenses = {(c.args["defense"], bool(c.args.get("retreat"))) for c in R.choices(fight.state, d)}
    assert defenses == {("none", False), ("dodge", False), ("block", False)}
    assert defense_value(fight, "ax", "dodge") == 11
    assert defense_value(fight, "ax", "block") == 9


def test_E_a_horse_does_not_trample_a_standing_man():
    """Trampling "needs 2+ SM bigger than the foe, or 1+ bigger against a lying foe" (gurps.md 1.9, B404);
    a horse is SM +1 and a man SM 0: the warhorse beside a standing spearman is offered its kick and bite but
    no trample attack."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
    )
    attacks = {c.args["weapon"] for c in offered(fight, "horse") if c.action == "attack"}
    assert attacks == {"kick", "bite"}


def test_E_a_mount_is_offered_all_out_defense_only_for_its_dodge():
    """ "A mount's only defense is Dodge" (B397). All-Out Defense gives "+2 to one of Dodge, Parry or Block"
    or "two different defences against one attack" (gurps.md 1.3, B366): a mount has no Parry or Block and no
    second defense, so only Increased Dodge applies to it."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
    )
    variants = {c.args["variant"] for c in offered(fight, "horse") if c.action == "all_out_defense"}
    assert variants == {"increased_dodge"}


def test_C_17_always_fails_and_is_not_critical_at_skill_16_or_more():
    """ "17 and 18 always fail"; a critical failure is "17 at effective skill <=15 (at skill 16+ a 17 is an
    ordinary failure)" (gurps.md 1.1, B347-348). Axe/Mace 13 + 4 (All-Out Attack, Determined) = 17: a 17 is
    a plain failure, so no Critical Miss is called."""
    fight = new_fight([fast_axeman()], [knight_on_foot()], faces=[6, 6, 5])
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="all_out_attack_determined")
    roll = one_roll(events, "axe")
    assert (roll.dn, roll.total, roll.success, roll.outcome) == (17, 17, False, "failure")
    assert all_used(fight)


def test_C_critical_success_on_5_at_effective_skill_15():
    """Critical success: "a roll of 3-4 always; 5 at effective skill 15+" (gurps.md 1.1, B347); "on any
    critical hit the target gets no active defence" (gurps.md 1.1). The axeman's All-Out Attack (Determined)
    at 17 rolls a 5: a critical hit, and the knight is not asked to defend."""
    # 5 to hit; the Critical Hit Table (B556) 3 + 3 + 4 = 10: normal damage; damage 1 + 1 + 1 = 3 cut: 4 HP
    fight = new_fight([fast_axeman()], [knight_on_foot()], faces=[1, 2, 2, 3, 3, 4, 1, 1])
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="all_out_attack_determined")
    roll = one_roll(events, "axe")
    assert roll.total == 5 and "critical" in roll.outcome
    decision(fight, "k", "act")  # no defense was asked of him
    assert injury(fight, "k") == 4
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# D: geometry and counting
# ----------------------------------------------------------------------------------------------------------


def test_D_mount_and_rider_are_one_position_and_the_rider_does_not_move_alone():
    """A rider is carried by his mount: the mount's Move takes the rider with it (B396-397: the rider's
    velocity is the mount's). The warhorse moves 3 yards and its knight stands in the same hex; the knight is
    offered no Move of his own."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
    )
    act(fight, "horse", "move", to=[-3, 0])
    state = fight.state
    assert state.combatants["horse"].pos == state.combatants["k"].pos == (-3, 0)
    assert not any(c.action == "move" for c in offered(fight, "k"))


def test_D_the_lance_strikes_at_its_reach_of_4_yards_only():
    """Lance weapon: "thr+3 imp, reach 4" (gurps.md 2, B272). Beside the spearman (1 yard) the knight is
    offered no lance attack; after his horse backs off to 4 yards he is."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 3}}],
    )
    act(fight, "horse", "do_nothing")
    assert not any(c.action == "attack" and c.args["weapon"] == "lance" for c in offered(fight, "k"))
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[-3, 0])
    assert any(c.action == "attack" and c.args["weapon"] == "lance" for c in offered(fight, "k"))


@pytest.mark.parametrize(("yards", "penalty"), [(2, 0), (3, -1), (5, -2), (7, -3), (10, -4), (15, -5)])
def test_D_range_penalty_from_the_speed_range_table(yards: int, penalty: int):
    """ "The speed/range penalty uses the same series, negated: <=2 yd 0, 3 yd -1, 5 yd -2, 7 yd -3, 10 yd
    -4, 15 yd -5" (gurps.md 1.9, B550). An archer on foot (Bow 13) shoots at a spearman that far away."""
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0], "stats": {"basic_speed": 7}}],
        [{"template": "spearman", "id": "s", "at": [yards, 0]}],
        faces=[6, 6, 5],
    )
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert shot.dn == 13 + penalty
    assert all_used(fight)


def test_D_a_mounted_archer_shoots_at_the_lower_of_riding_and_bow():
    """ "Roll against the lower of Riding or ranged weapon skill to hit" (B397). Bow 13, Riding 10: the
    mounted archer shoots at 10, -4 for 10 yards: 6."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"skills": {"Bow": 13, "Riding": 10}},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [10, 0]}],
        faces=[6, 6, 5],
    )
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert shot.dn == 6
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# G: voluntary versus involuntary
# ----------------------------------------------------------------------------------------------------------


def mounted_knight(saddle: str = "war_saddle", **stats: object) -> list[dict]:
    knight = {
        "template": "knight",
        "id": "k",
        "options": {"mount": "horse"},
        "equipment": {**NO_ARMOR, "saddle": saddle},
    }
    if stats:
        knight["stats"] = dict(stats)
    return [{"template": "heavy_warhorse", "id": "horse", "at": [0, 0]}, knight]


def test_G_a_stunned_rider_rolls_riding_at_minus_4_or_falls_off():
    """ "A rider who is stunned must make a Riding roll at -4 or fall off" (B397); a war saddle gives "+1 to
    Riding to stay seated" (gurps.md 2, B289). The knight (Riding 13) is stunned by a major wound and rolls
    against 13 - 4 + 1 = 10; a 12 fails: he is off the horse, lying, and the horse has no rider."""
    fight = new_fight(
        mounted_knight(),
        [fast_axeman(at=[1, 0])],
        # axe 10 hits; 2 + 2 + 1 = 5 cut, x1.5 = 7 HP (major); knockdown 14 vs HT 12 fails; Riding 12
        faces=[3, 3, 4, 2, 2, 5, 5, 4, 4, 4, 4],
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    events = defend(fight, "k", "none")
    riding = one_roll(events, "Riding")
    assert (riding.dn, riding.success) == (10, False)
    knight = fight.state.combatants["k"]
    assert knight.marks.get("mount") is None
    assert knight.marks.get("posture") == "lying"
    assert fight.state.combatants["horse"].marks.get("rider") is None
    assert all_used(fight)


@pytest.mark.parametrize(
    ("saddle", "riding_dn"),
    [("war_saddle", 10), ("saddle_and_stirrups", 9), ("none", None)],
)
def test_G_knockback_unseats_a_rider_unless_saddle_and_stirrups_and_riding_at_minus_4_per_yard(
    saddle: str, riding_dn: int | None
):
    """ "A rider who suffers any knockback is automatically knocked off unless he has a saddle and stirrups,
    in which case he gets a Riding roll at -4 per yard of knockback to stay on" (B397). Knockback: "yards =
    floor(basic damage / (ST - 2))" (gurps.md 1.7, B378): a 14-point mace blow on ST 12 is 1 yard. Riding 13
    - 4 (+1 war saddle) = 10, 9 with plain saddle and stirrups; without them, no roll: he falls."""
    fight = new_fight(
        mounted_knight(saddle),
        [fast_axeman(at=[1, 0], equipment={"weapons": ["mace"]})],
    )
    faces = [3, 3, 4, 6, 6, 3, 3, 3] + ([6, 6, 1] if riding_dn else [])  # mace 2d+2 = 14 cr; HT 9; Riding 13
    script(fight, *faces)
    act(fight, "ax", "attack", "k", weapon="mace", maneuver="attack")
    events = defend(fight, "k", "none")
    assert injury(fight, "k") == 14
    found = rolls(events, "Riding")
    if riding_dn is None:
        assert found == []
    else:
        assert [(r.dn, r.success) for r in found] == [(riding_dn, False)]
    assert fight.state.combatants["k"].marks.get("mount") is None
    assert all_used(fight)


def test_G_a_stunned_passenger_stays_on_with_the_lower_of_riding_and_st_at_minus_3_even_below_3():
    """ "The passenger uses the lower of the controlling rider's skill or his own ST on any roll to avoid
    falling off, but do so at -3" (B397), and a stunned rider rolls "at -4 or fall off" (B397). ST 9 is lower
    than the knight's Riding 13: 9 - 3 - 4 = 2. The roll is forced on him, so it is made even below 3
    ("only defence rolls may be attempted" limits what a fighter may choose to try, gurps.md 1.1)."""
    fight = new_fight(
        [
            *mounted_knight(basic_speed=6.5),
            {
                "template": "horse_archer",
                "id": "p",
                "options": {"mount": "horse"},
                "stats": {"st": 9, "skills": {"Bow": 13, "Riding": 14}},
            },
        ],
        [fast_axeman(at=[1, 0])],
        # axe 10 hits; 2 + 3 + 1 = 6 cut, DR 2: 4 x 1.5 = 6 HP, over HP/2 (9 / 2); knockdown 14 vs HT 11
        faces=[3, 3, 4, 2, 3, 5, 5, 4, 1, 1, 1],
    )
    assert fight.state.combatants["horse"].marks.get("passenger") == "p"
    act(fight, "ax", "attack", "p", weapon="axe", maneuver="attack")
    events = defend(fight, "p", "none")
    stay_on = one_roll(events, "Riding", actor="p")
    assert stay_on.dn == 2
    assert stay_on.total == 3  # a 3 is rolled
    assert all_used(fight)


def test_B_the_controlling_rider_has_an_extra_minus_1_to_riding_with_a_passenger():
    """ "The controlling rider has an extra -1 to Riding skill" (B397), and "a rider uses melee weapons at the
    lower of his Melee Weapon skill or Riding skill" (B397): Broadsword 14, Riding 13 - 1 = 12."""
    fight = new_fight(
        [
            *mounted_knight(basic_speed=6.5),
            {"template": "horse_archer", "id": "p", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
        faces=[6, 6, 5],
    )
    swing = one_roll(
        act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="attack"), "broadsword"
    )
    assert swing.dn == 12
    assert all_used(fight)


@pytest.mark.parametrize(
    ("stats", "will_dn"),
    [({}, 10), ({"combat_reflexes": True}, 16), ({"sm": 1}, None)],
)
def test_G_panic_will_roll_against_a_cavalry_charge(stats: dict, will_dn: int | None):
    """Panic (GM's option): "the GM may require him to make a Will roll to stand his ground ... Anyone with
    Combat Reflexes gets +6 to this roll. Those with a SM equal to or greater than that of the mount do not
    have to roll!" (B396). The spearman (Will 10), unused to cavalry, sees the warhorse charge at him."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [10, 0], "stats": {"unused_to_cavalry": True, **stats}}],
        options={"panic": True},
    )
    act(fight, "horse", "move", to=[5, 0])
    act(fight, "k", "do_nothing")
    n = len(fight.log)
    script(fight, *([6, 5, 5] if will_dn else []))  # 16: fails at 10, succeeds at 16
    d = fight.advance_until_decision()
    found = rolls(fight.log[n:], "Will")
    if will_dn is None:
        assert found == []
    else:
        assert [r.dn for r in found] == [will_dn]
    if will_dn == 10:
        assert status(fight, "s") != "active"  # he runs instead
        assert d is None or d.actor != "s"
    else:
        assert d is not None and d.actor == "s" and d.kind == "act"
    assert all_used(fight)


def test_G_a_miss_by_1_at_the_rider_goes_to_the_mount_which_may_dodge():
    """B397: "If any attack aimed at a rider misses by 1, it hits the mount unless it makes its active
    defense roll". The axe misses the knight by 1 (14 vs 13); the horse is asked to defend, dodges at 9,
    and nobody is hurt."""
    fight = new_fight(mounted_knight(), [fast_axeman(at=[1, 0])], faces=[5, 5, 4, 3, 3, 3])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    assert defense_value(fight, "horse", "dodge") == 9
    events = defend(fight, "horse", "dodge", retreat=False)
    assert one_roll(events, "Dodge").success
    assert injury(fight, "horse") == injury(fight, "k") == 0
    assert all_used(fight)


def test_C_a_hit_mount_makes_its_rider_roll_riding_minus_the_mounts_shock():
    """B397: "If the mount is hit, the rider must roll vs. Riding, minus the shock penalty suffered by the
    mount, to keep it from spooking". Shock "at 20+ HP: -1 per full HP/10 of injury" (gurps.md 1.6, B419): a
    horse of 20 HP wounded for 4 HP has shock -2. Riding 13 + 1 (stirrups, "+1 to control the mount", B289)
    - 2 = 12."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"hp": 20}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}, "equipment": dict(NO_ARMOR)},
        ],
        [fast_axeman(at=[1, 0])],
        # axe 10 hits; 1 + 1 + 1 = 3 cut, x1.5 = 4 HP; Riding 12 succeeds
        faces=[3, 3, 4, 1, 1, 4, 4, 4],
    )
    act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack")
    events = defend(fight, "horse", "none")
    assert injury(fight, "horse") == 4
    riding = one_roll(events, "Riding", actor="k")
    assert riding.dn == 12
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# Aerial combat (B398)
# ----------------------------------------------------------------------------------------------------------


def flyers(duelist_altitude: int = 5, warrior_altitude: int = 3) -> list[list[dict]]:
    """A winged spearman (Spear 13, air Move 11) acting first, and a winged duelist (Dodge 9, light shield
    DB 1, Shortsword 14, Aerobatics 12, air Move 12) one yard away."""
    return [
        [
            {
                "template": "winged_warrior",
                "id": "w",
                "at": [0, 0],
                "altitude": warrior_altitude,
                "stats": {"basic_speed": 7},
            }
        ],
        [{"template": "winged_duelist", "id": "d", "at": [1, 0], "altitude": duelist_altitude}],
    ]


def test_aerial_no_penalty_to_attack_or_defense_in_flight_and_height_between_flyers_ignored():
    """ "There is no penalty to attack or defense rolls in flight" and "Don't worry about the relative height
    of two battling flyers - as long as they're close enough to engage at all" (B398). The spear thrust is at
    Spear 13; the duelist, 2 yards higher, dodges at her plain 9 + 1 (DB): no height bonus."""
    fight = new_fight(*flyers(), faces=[3, 3, 3])
    thrust = one_roll(act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack"), "spear")
    assert thrust.dn == 13
    assert defense_value(fight, "d", "dodge") == 10
    assert all_used(fight)


def test_aerial_a_hovering_flyer_retreats_for_1_more():
    """ "If a flyer can hover, and has enough space to move one step up or down, he gets +1 over and above the
    usual retreating bonus when he retreats" (B398); the usual bonus is +3 to Dodge, +1 to Parry or Block
    (gurps.md 1.4, B377). The duelist: Dodge 10 -> 14, shortsword Parry 11 -> 13, Block 8 -> 10."""
    fight = new_fight(*flyers(), faces=[3, 3, 3])
    act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack")
    assert defense_value(fight, "d", "dodge", retreat=True) == 14
    assert defense_value(fight, "d", "parry", retreat=True, weapon="shortsword:swing") == 13
    assert defense_value(fight, "d", "block", retreat=True) == 10


def test_aerial_the_acrobatic_dodge_in_flight_uses_aerobatics():
    """ "To perform an Acrobatic Dodge (p. 375), use Aerobatics skill" (B398). The duelist's Acrobatic Dodge
    rolls against Aerobatics 12 first; on a success her Dodge 10 gets the Acrobatic Dodge bonus (+2 in the
    tool's unverified data, gurps.md 2)."""
    fight = new_fight(*flyers(), faces=[3, 3, 3, 3, 3, 3, 4, 4, 4])
    act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack")
    events = defend(fight, "d", "dodge", retreat=False, acrobatic=True)
    aerobatics = one_roll(events, "Aerobatics")
    assert (aerobatics.dn, aerobatics.success) == (12, True)
    (dodge,) = [r for r in rolls(events) if r.test == "Dodge"]
    assert dodge.dn == 12 and dodge.success
    assert all_used(fight)


def test_aerial_a_flyer_attacking_a_foe_on_the_ground_uses_combat_at_different_levels():
    """ "When flyers attack foes on the ground, use the Combat at Different Levels rules (p. 402)" (B398): the
    lower fighter defends at -1 at 3 ft (gurps.md 2, B402). The duelist, 1 yard (3 ft) up, thrusts at a
    spearman beside her: his Dodge 8 + 2 (medium shield DB) - 1 = 9."""
    fight = new_fight(
        [{"template": "winged_duelist", "id": "d", "at": [0, 0], "altitude": 1, "stats": {"basic_speed": 7}}],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
        faces=[3, 3, 3],
    )
    act(fight, "d", "attack", "s", weapon="shortsword:thrust", maneuver="attack")
    assert defense_value(fight, "s", "dodge") == 9


def test_aerial_cannot_hover_flyer_must_move_a_quarter_of_its_airspeed_or_stall():
    """ "If you are flying under your own power using Flight with the Cannot Hover ... limitation, you must
    take a Move or Move and Attack maneuver and move at least 1/4 your top airspeed each turn, or you'll
    stall" (B398). With air Move 12 (the tool's top airspeed), a 2-yard move or Do Nothing would stall: not
    offered and refused; a 3-yard move is legal."""
    fight = new_fight(
        [
            {
                "template": "winged_duelist",
                "id": "g",
                "at": [0, 0],
                "altitude": 10,
                "stats": {"basic_speed": 7, "flight_limitation": "cannot_hover"},
            }
        ],
        [{"template": "spearman", "id": "s", "at": [20, 0]}],
    )
    choices = offered(fight, "g")
    assert {c.action for c in choices} <= {"move", "attack"}
    assert all(
        c.args.get("maneuver", "move_and_attack") == "move_and_attack"
        for c in choices
        if c.action == "attack"
    )
    for cmd in (
        Command("g", "do_nothing", None, {}),
        Command("g", "move", None, {"to": [2, 0], "altitude": 10}),
    ):
        with pytest.raises(Exception, match="stall"):
            R.validate(fight.state, cmd)
    R.validate(fight.state, Command("g", "move", None, {"to": [3, 0], "altitude": 10}))


def test_D_aerial_diagonal_climb_or_descent_costs_1_5_yards_per_yard():
    """ "Moving a yard vertically and a yard horizontally simultaneously (diagonal movement at 45°) costs the
    same as 1.5 horizontal yards" (B398). 4 yards over and 4 down cost 6 of the flyer's air Move 11."""
    fight = new_fight(
        [
            {
                "template": "winged_warrior",
                "id": "w",
                "at": [0, 0],
                "altitude": 20,
                "stats": {"basic_speed": 7},
            }
        ],
        [{"template": "spearman", "id": "s", "at": [40, 0]}],
    )
    act(fight, "w", "move", to=[4, 0], altitude=16)
    flyer = fight.state.combatants["w"]
    assert (flyer.pos, flyer.altitude) == ((4, 0), 16)
    assert flyer.marks.get("moved") == 6


def test_C_aerial_a_dive_adds_10_to_air_move():
    """ "A diving flyer can accelerate faster: add +10 to basic air Move ... on any turn spent diving and
    doing nothing else (a Move maneuver)" (B398). Straight down, air Move 11 takes the flyer 11 yards; a dive
    takes it 20 yards, to the ground (21 would be allowed)."""
    for dive, altitude in ((False, 9), (True, 0)):
        fight = new_fight(
            [
                {
                    "template": "winged_warrior",
                    "id": "w",
                    "at": [0, 0],
                    "altitude": 20,
                    "stats": {"basic_speed": 7},
                }
            ],
            [{"template": "spearman", "id": "s", "at": [40, 0]}],
        )
        args = {"to": [0, 0], "altitude": 0}
        if dive:
            args["dive"] = True
        act(fight, "w", "move", **args)
        assert fight.state.combatants["w"].altitude == altitude, dive


def test_D_aerial_steps_use_air_move():
    """ "Use your basic air Move to calculate the distance you can step ... flyers are often fast enough to
    step 2+ yards" (B398); a step is "Move/10, rounded up" (gurps.md 1.3, B368). The duelist (air Move 12:
    step 2) 3 yards from a foe may Attack with her reach-1 shortsword; on the ground (Move 6: step 1) she may
    not (only Move and Attack)."""
    for altitude, plain_attack in ((5, True), (0, False)):
        fight = new_fight(
            [
                {
                    "template": "winged_duelist",
                    "id": "d",
                    "at": [0, 0],
                    "altitude": altitude,
                    "stats": {"basic_speed": 7},
                }
            ],
            [{"template": "winged_warrior", "id": "w", "at": [3, 0], "altitude": altitude}],
        )
        maneuvers = {
            c.args["maneuver"]
            for c in offered(fight, "d")
            if c.action == "attack" and c.args["weapon"].startswith("shortsword")
        }
        assert ("attack" in maneuvers) is plain_attack, (altitude, maneuvers)


# ----------------------------------------------------------------------------------------------------------
# More timing, stacking and final values
# ----------------------------------------------------------------------------------------------------------


def test_A_death_checks_at_once_for_each_threshold_then_consciousness_at_his_turn():
    """HP thresholds: at -1xHP "HT roll or die ... Roll again at -2x, -3x and -4xHP, once per threshold
    crossed"; at 0 or less "HT roll at the start of each turn, -1 per full multiple of HP below 0, or fall
    unconscious" (gurps.md 1.6, B419). A knight of 6 HP takes 22 HP (to -16): two death checks at once, in the
    blow's events, then at the start of his turn a consciousness roll at HT 12 - 2."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot(stats={"hp": 6})],
        # axe 10 hits; All-Out Attack (Strong): 6 + 6 + 1 + 2 = 15 cut, x1.5 = 22 HP;
        # knockdown 9; death checks 9, 9; consciousness 9
        faces=[3, 3, 4, 6, 6, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="all_out_attack_strong")
    events = defend(fight, "k", "none")
    assert injury(fight, "k") == 22
    assert [r.dn for r in rolls(events, "death")] == [12, 12]
    n = len(fight.log)
    decision(fight, "k", "act")
    conscious = one_roll(fight.log[n:], "conscious")
    assert conscious.dn == 10
    assert status(fight, "k") == "active"
    assert all_used(fight)


def two_axemen_and_a_knight(faces: list[int]):
    return new_fight(
        [
            fast_axeman(),
            {"template": "axeman", "id": "ax2", "at": [2, -1], "stats": {"basic_speed": 6.5}},
        ],
        [knight_on_foot()],
        faces=faces,
    )


def test_B_a_second_parry_with_the_same_weapon_is_at_minus_4():
    """ "Each parry after the first with the same weapon is -4 cumulative" (gurps.md 1.4, B376). The knight's
    broadsword parry: Broadsword 14 / 2 + 3 + 1 (Combat Reflexes) = 11 against the first axe, 7 against the
    second."""
    fight = two_axemen_and_a_knight([3, 3, 3, 3, 3, 3, 3, 3, 3])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    assert defense_value(fight, "k", "parry", weapon="broadsword:swing") == 11
    defend(fight, "k", "parry", weapon="broadsword:swing", retreat=False)
    act(fight, "ax2", "attack", "k", weapon="axe", maneuver="attack")
    assert defense_value(fight, "k", "parry", weapon="broadsword:swing") == 7
    assert all_used(fight)


def test_B_a_parry_with_another_weapon_is_not_lowered_by_the_first():
    """ "Each parry after the first with the same weapon is -4 cumulative" (gurps.md 1.4, B376). After a
    broadsword parry, the knight's free hand still parries at its full 7 (Brawling 12 / 2 + 3 + 1 - 3 against
    a weapon)."""
    fight = two_axemen_and_a_knight([3, 3, 3, 3, 3, 3, 3, 3, 3])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    assert defense_value(fight, "k", "parry", weapon="punch") == 7
    defend(fight, "k", "parry", weapon="broadsword:swing", retreat=False)
    act(fight, "ax2", "attack", "k", weapon="axe", maneuver="attack")
    assert defense_value(fight, "k", "parry", weapon="punch") == 7


def test_B_shock_from_two_hits_adds_up_and_stops_at_4():
    """B419: "Shock from several hits in a turn adds up, still capped at 4" (gurps.md 1.6). Two axe blows of
    4 HP each before the knight's turn: his swing is at 14 - 4, not 14 - 8."""
    fight = two_axemen_and_a_knight(
        # each axe: 10 hits; 1 + 1 + 1 = 3 cut, x1.5 = 4 HP (rounded down); then the swing misses
        [3, 3, 4, 1, 1, 3, 3, 4, 1, 1, 6, 5, 5]
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    act(fight, "ax2", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 8
    swing = one_roll(act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack"), "broad")
    assert swing.dn == 10
    assert all_used(fight)


def test_B_riding_limits_the_skill_before_the_maneuver_bonus():
    """ "A rider uses melee weapons at the lower of his Melee Weapon skill or Riding skill" (B397); All-Out
    Attack (Determined) is +4 (gurps.md 1.3, B365). Broadsword 14, Riding 12: 12 + 4 = 16 (not 14 capped
    at 12)."""
    fight = new_fight(
        mounted_knight(basic_speed=7, skills={"Broadsword": 14, "Riding": 12}),
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
        faces=[6, 6, 5],
    )
    events = act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="all_out_attack_determined")
    assert one_roll(events, "broadsword").dn == 16
    assert all_used(fight)


def test_C_iron_horseshoes_add_1_to_kicking_damage():
    """B396: "A horse can bite, kick with hooves, or trample; iron horseshoes give +1 to kicking or
    trampling damage". The heavy warhorse's kick, 2d+3 cr, rolls 3 + 3: 9 unshod, 10 shod; the spearman's
    DR 2 leaves 7 and 8 HP."""
    for shod, hurt in ((False, 7), (True, 8)):
        fight = new_fight(
            [
                {
                    "template": "heavy_warhorse",
                    "id": "horse",
                    "at": [0, 0],
                    "stats": {"basic_speed": 7, "iron_horseshoes": shod},
                },
                {"template": "knight", "id": "k", "options": {"mount": "horse"}},
            ],
            [{"template": "spearman", "id": "s", "at": [1, 0]}],
            # kick 9 hits; damage 3 + 3; knockdown 9 vs HT 11; knockback 1 yd: DX 9 vs 11
            faces=[3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
        )
        act(fight, "horse", "attack", "s", weapon="kick", maneuver="attack")
        defend(fight, "s", "none")
        assert injury(fight, "s") == hurt, shod
        assert all_used(fight)


def charge_then_lance(saddle: str, moved: int, faces: list[int]):
    fight = new_fight(
        [
            {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": {"weapons": ["lance"], "saddle": saddle},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [moved + 4, 0]}],
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[moved, 0])
    script(fight, *faces)
    attack = act(fight, "k", "attack", "s", weapon="lance", maneuver="attack")
    return fight, attack, defend(fight, "s", "none")


def test_E_no_couched_lance_without_saddle_and_stirrups():
    """ "To couch a lance, a rider must have a saddle and stirrups" (B397). Without them the knight's lance
    does its own thr+3 (ST 12: 1d-1 + 3 = 1d+2), +1 for the horse's velocity 8: a 3 gives 6 imp, not the
    couched 2d+3."""
    fight, _attack, events = charge_then_lance("none", 8, [3, 3, 3, 3, 3, 3, 3])
    damage = one_roll(events, "damage")
    assert damage.total == 6
    assert "couched" not in damage.test
    assert injury(fight, "s") == 8
    assert all_used(fight)


def test_C_couched_lance_at_move_6_is_1d_plus_3_without_the_velocity_modifiers():
    """Couched lance: "(mount's ST) x (distance moved last turn)/100 dice of damage, rounded down" + 3
    (B397): 25 x 6 / 100 = 1.5 -> 1d+3. Velocity 6 is under 7: no -1 to hit, no +1 damage (B397). Lance 13
    (limited by Riding 13); a 3 on the die: 6 imp, DR 2, x2 = 8 HP."""
    fight, attack, events = charge_then_lance("saddle_and_stirrups", 6, [3, 3, 3, 3, 3, 3, 3])
    assert one_roll(attack, "lance").dn == 13
    damage = one_roll(events, "damage")
    assert damage.expr.replace(" ", "").startswith("1d+3")
    assert damage.total == 6
    assert injury(fight, "s") == 8
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# F: offered equals legal
# ----------------------------------------------------------------------------------------------------------


def test_F_dodge_and_drop_is_offered_against_a_ranged_attack():
    """ "Dodge and Drop (B377): +3 to Dodge against ranged attacks; the defender ends prone" (gurps.md 1.4).
    An arrow at the spearman (Dodge 8 + 2 DB = 10): a drop at 13 is offered, and taking it leaves him
    lying."""
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0], "stats": {"basic_speed": 7}}],
        [{"template": "spearman", "id": "s", "at": [10, 0]}],
        faces=[3, 3, 3, 3, 3, 4],  # the arrow hits; the drop: 10 against 13
    )
    act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack")
    d = decision(fight, "s", "react")
    drops = [c for c in R.choices(fight.state, d) if "drop" in (c.label + str(c.args)).lower()]
    assert len(drops) == 1
    assert drops[0].label.endswith("(13)")
    events = fight.submit(drops[0])
    assert one_roll(events, "Dodge").dn == 13
    assert fight.state.combatants["s"].marks.get("posture") == "lying"
    assert injury(fight, "s") == 0
    assert all_used(fight)


def test_F_no_attack_is_offered_below_effective_skill_3_but_defenses_are():
    """ "With effective skill below 3, only defence rolls may be attempted" (gurps.md 1.1, B344). A
    swordsman (DX 6, Broadsword 6) with shock -4 has effective 2 with sword and fist: no plain Attack is
    offered or accepted, while an All-Out Attack (Determined, +4, effective 6) is; every attack offered is
    at 3 or more, and he may still defend."""
    fight = new_fight(
        [fast_axeman()],
        [
            {
                "template": "swordsman",
                "id": "w",
                "at": [1, 0],
                "stats": {"dx": 6, "skills": {"Broadsword": 6, "Shield": 6}},
                "equipment": dict(NO_ARMOR),
            }
        ],
        faces=[3, 3, 4, 1, 2],  # axe 10 hits; 1 + 2 + 1 = 4 cut, x1.5 = 6 HP: shock -4
    )
    act(fight, "ax", "attack", "w", weapon="axe", maneuver="attack")
    defend(fight, "w", "none")
    attacks = [c for c in offered(fight, "w") if c.action == "attack"]
    assert not any(c.args["maneuver"] == "attack" for c in attacks)
    plain = Command("w", "attack", "ax", {"weapon": "broadsword:swing", "maneuver": "attack"})
    with pytest.raises(Exception, match="below 3"):
        R.validate(fight.state, plain)
    for cmd in attacks:
        R.validate(fight.state, cmd)
        assert "effective" in R.odds(fight.state, cmd)
        effective = int(R.odds(fight.state, cmd).split("effective ")[1].split(":")[0])
        assert effective >= 3, (cmd, effective)
    # He can still defend: the axeman's next blow offers him his Dodge.
    act(fight, "w", "do_nothing")
    script(fight, 3, 3, 4)
    act(fight, "ax", "attack", "w", weapon="axe", maneuver="attack")
    assert defense_value(fight, "w", "dodge") == 8  # Basic Speed 5.75 -> 5 + 3, no shock on defenses
    assert all_used(fight)


def every_offer_resolves(fight, decisions: int) -> int:
    """Play `decisions` decisions; at each, every offered command must validate and resolve (on a copy of
    the state, dice forced to 4s), and the tactic's own choice must validate; that choice is played."""
    checked = 0
    for _ in range(decisions):
        d = fight.advance_until_decision()
        if d is None:
            break
        for cmd in R.choices(fight.state, d):
            R.validate(fight.state, cmd)
            trial = Fight(R, fight.state.clone(), ScriptedDice([4] * 120))
            assert trial.advance_until_decision() == d
            trial.submit(cmd)
            checked += 1
        chosen = fight.auto_command(d)
        R.validate(fight.state, chosen)
        fight.dice = ScriptedDice([4] * 120)
        fight.submit(chosen)
    return checked


def test_F_every_command_offered_in_a_mounted_fight_is_legal_and_resolves():
    """Offered equals legal: every command `choices` offers a knight, his warhorse, a spearman and a foot
    archer passes `validate` and resolves, and each tactic's `auto_command` is legal (B363-366 maneuvers,
    B396-397 mounted rules). Dice are forced (all 4s: every roll succeeds at 12+)."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [
            {"template": "spearman", "id": "s", "at": [1, 0]},
            {"template": "horse_archer", "id": "a", "at": [6, 2]},
        ],
    )
    assert every_offer_resolves(fight, 8) > 50


def test_F_every_command_offered_in_an_aerial_fight_is_legal_and_resolves():
    """Offered equals legal in the air (B398): every command offered the two winged fighters validates and
    resolves, and the tactics' choices are legal."""
    fight = new_fight(*flyers(duelist_altitude=8, warrior_altitude=3))
    assert every_offer_resolves(fight, 8) > 50


# ----------------------------------------------------------------------------------------------------------
# Ranged fire from the saddle, tricks, retreats and caps
# ----------------------------------------------------------------------------------------------------------


def horse_archer_aims_twice(horse_moves: bool):
    """A horse archer aims two turns at a spearman 20 yards off; his horse stands, or rides 5 yards away
    on each of its turns (more than a step), and then he shoots."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 4}},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [20, 0]}],
    )
    for to in ([-5, 0], [-10, 0]):
        act(fight, "a", "aim", "s", weapon="composite_bow")
        act(fight, "s", "do_nothing")
        if horse_moves:
            act(fight, "horse", "move", to=to)
        else:
            act(fight, "horse", "do_nothing")
    script(fight, 6, 5, 5)
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert all_used(fight)
    return shot


def test_A_aim_from_a_moving_mount_gets_no_extra_turns_of_aim():
    """ "You may Aim a ranged weapon while mounted, but if the mount moves more than a step ... you can't
    benefit from extra turns of Aim" (B397); Aim is "+Acc for 1 turn; +1 more after 2 turns" (gurps.md 1.3,
    B364). Two turns of Aim from a standing horse: Bow 13 + 3 + 1 - 6 (20 yd) = 11; from a horse riding off
    5 yards a turn: 13 + 3 - 7 (30 yd) = 9."""
    assert horse_archer_aims_twice(horse_moves=False).dn == 11
    assert horse_archer_aims_twice(horse_moves=True).dn == 9


def gunner_hanging_on_the_far_side(faces: list[int]):
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7, "skills": {"Guns (Musket)": 14, "Riding": 13}},
                "equipment": {"weapons": ["matchlock_musket"]},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 6}}],
        faces=faces,
    )
    events = act(
        fight, "a", "attack", "s", weapon="matchlock_musket", maneuver="attack", trick="hang_on_far_side"
    )
    return fight, events


def test_B_hanging_on_the_far_side_is_minus_6_to_the_shot_and_minus_3_to_riding_that_turn():
    """ "To hang on the far side of the mount and shoot over it or underneath it: -6 to weapon skill, -3 to
    any Riding roll" (B397), and a noisy weapon calls for a Riding roll after the shot (B397). Guns 14
    limited to Riding 13, -6: 7 at 1 yard; the Riding roll: 13 + 1 (stirrups) - 3 = 11."""
    fight, events = gunner_hanging_on_the_far_side([6, 5, 5, 3, 3, 3])
    assert one_roll(events, "musket").dn == 7
    assert one_roll(events, "Riding").dn == 11
    assert all_used(fight)


def test_E_a_rider_hanging_on_the_far_side_offers_only_foot_face_eyes_skull_and_hand():
    """ "This latter move means your foe's only targets are your foot, face, eyes, skull, and one hand. But if
    he attacks and misses by 4 or less, he hits your mount!" (B397). The spearman may not aim at the torso;
    he thrusts at the skull (Spear 12 - 7 = 5), rolls 9 (a miss by 4), and the blow goes to the horse."""
    fight, _events = gunner_hanging_on_the_far_side([6, 5, 5, 3, 3, 3])
    torso = Command("s", "attack", "a", {"weapon": "spear:thrust", "maneuver": "attack", "location": "torso"})
    decision(fight, "s", "act")
    with pytest.raises(Exception, match="far side"):
        R.validate(fight.state, torso)
    script(fight, 3, 3, 3)
    events = act(fight, "s", "attack", "a", weapon="spear:thrust", maneuver="attack", location="skull")
    thrust = one_roll(events, "spear")
    assert (thrust.dn, thrust.total) == (5, 9)
    decision(fight, "horse", "react")
    assert all_used(fight)


def test_B_turning_in_the_saddle_is_minus_4_to_the_shot_and_minus_1_to_riding():
    """ "To turn in the saddle and fire at the foe behind you: -4 to weapon skill, and -1 to any Riding roll
    made that turn" (B397). The gunner's musket: 13 - 4 = 9 at 1 yard; his Riding roll 13 + 1 - 1 = 13."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7, "skills": {"Guns (Musket)": 14, "Riding": 13}},
                "equipment": {"weapons": ["matchlock_musket"]},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 6}}],
        faces=[6, 5, 5, 3, 3, 3],
    )
    events = act(
        fight, "a", "attack", "s", weapon="matchlock_musket", maneuver="attack", trick="turn_in_saddle"
    )
    assert one_roll(events, "musket").dn == 9
    assert one_roll(events, "Riding").dn == 13
    assert all_used(fight)


def test_G_a_mount_spooked_by_a_failed_riding_roll_does_not_obey_on_its_turn():
    """On a failed Riding roll after a noisy shot "the mount is spooked (see Spooked Mounts, above)" (B397).
    Spooked Mounts is not public; the tool's documented placeholder: the mount is out of control on its next
    turn. The gunner rolls 12 against 11: the horse's turn passes with no choice offered, doing nothing."""
    fight, events = gunner_hanging_on_the_far_side([6, 5, 5, 4, 4, 4])
    assert not one_roll(events, "Riding").success
    act(fight, "s", "do_nothing")
    d = decision(fight)
    assert d.actor == "a", "the horse was not asked for a maneuver"
    assert fight.state.combatants["horse"].marks.get("maneuver") == "do_nothing"
    assert all_used(fight)


def test_E_retreat_is_once_per_turn():
    """Retreat: "Once per turn, against melee attacks only" (gurps.md 1.4, B377). The knight dodges and
    retreats from the first axe; against the second axe in the same turn he is offered no retreat."""
    fight = two_axemen_and_a_knight([3, 3, 3, 3, 3, 3, 3, 3, 3])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    assert one_roll(defend(fight, "k", "dodge", retreat=True), "Dodge").dn == 13
    act(fight, "ax2", "attack", "k", weapon="axe", maneuver="attack")
    d = decision(fight, "k", "react")
    assert not any(c.args.get("retreat") for c in R.choices(fight.state, d))
    assert defense_value(fight, "k", "dodge") == 10


def test_C_move_and_attack_melee_skill_is_capped_at_9_after_all_modifiers():
    """Move and Attack: "melee: -4 and skill capped at 9 after all modifiers" (gurps.md 1.3, B365). Axe/Mace
    18 - 4 = 14, capped: 9."""
    fight = new_fight(
        [fast_axeman(stats={"basic_speed": 7, "skills": {"Axe/Mace": 18}})],
        [{"template": "knight", "id": "k", "at": [3, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[6, 5, 5],
    )
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="move_and_attack")
    assert one_roll(events, "axe").dn == 9
    assert all_used(fight)


def test_D_aerial_a_flyer_retreats_vertically():
    """ "If a flyer retreats as part of an active defense, he can specify that he is doing so vertically"
    (B398). The duelist dodges and retreats at 14 (9 + 3 + 1 DB + 1 hover) and rises from 3 to 4 yards,
    staying over the same hex."""
    fight = new_fight(*flyers(duelist_altitude=3), faces=[3, 3, 3, 3, 3, 3])
    act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack")
    assert one_roll(defend(fight, "d", "dodge", retreat=True), "Dodge").dn == 14
    duelist = fight.state.combatants["d"]
    assert (duelist.pos, duelist.altitude) == ((1, 0), 4)
    assert all_used(fight)


def test_A_evaluate_gives_plus_1_to_the_next_attack_on_that_foe():
    """Evaluate: "+1 per turn, max +3, against that foe on the next Attack" (gurps.md 1.3, B364). One turn
    of Evaluate: the axeman's next swing is at Axe/Mace 13 + 1 = 14."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[6, 5, 5],
    )
    act(fight, "ax", "evaluate", "k")
    act(fight, "k", "do_nothing")
    assert one_roll(act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack"), "axe").dn == 14
    assert all_used(fight)


def test_C_high_pain_threshold_ignores_shock():
    """ "High Pain Threshold ignores shock" (gurps.md 1.6, B419). The knight with it takes 4 HP and swings at
    his full Broadsword 14 on his next turn."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot(stats={"high_pain_threshold": True})],
        faces=[3, 3, 4, 1, 1, 6, 5, 5],  # axe hits; 1 + 1 + 1 = 3 cut, x1.5 = 4 HP; the swing misses
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 4
    swing = one_roll(act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack"), "broad")
    assert swing.dn == 14
    assert all_used(fight)


def test_C_exactly_half_hp_is_not_a_major_wound():
    """ "Major wound: more than HP/2 injury from one blow" (gurps.md 1.6, B420). 6 HP on a 12-HP knight is not
    more than half: no knockdown roll is made (7 HP was one, above)."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        faces=[3, 3, 4, 1, 2],  # axe hits; 1 + 2 + 1 = 4 cut, x1.5 = 6 HP
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    events = defend(fight, "k", "none")
    assert injury(fight, "k") == 6
    assert rolls(events, "knockdown") == []
    assert all_used(fight)


def test_E_a_stunned_figure_cannot_retreat():
    """ "No retreat while sitting, kneeling or stunned" (gurps.md 1.4, B377). The knight, stunned (and down)
    by the first axe, is offered no retreat against the second; his Dodge is 10 - 4 (stunned) - 3 (lying)."""
    fight = two_axemen_and_a_knight(
        # axe 10 hits; 2 + 2 + 1 = 5 cut, x1.5 = 7 HP (major); knockdown 14 vs HT 12: stunned
        [3, 3, 4, 2, 2, 5, 5, 4, 3, 3, 3]
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    act(fight, "ax2", "attack", "k", weapon="axe", maneuver="attack")
    d = decision(fight, "k", "react")
    assert not any(c.args.get("retreat") for c in R.choices(fight.state, d))
    assert defense_value(fight, "k", "dodge") == 3
    assert all_used(fight)


def test_C_below_a_third_of_hp_move_is_halved_rounding_up():
    """ "Below HP/3: halve Move and Dodge, rounding up" (gurps.md 1.6, B419). The knight (Move 6) at 3 of 12
    HP moves at most 3 yards."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        faces=[3, 3, 4, 2, 3, 3, 3, 3],  # 9 HP, knockdown roll 9 vs 12 succeeds
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    assert injury(fight, "k") == 9
    act(fight, "k", "move", to=[10, 0])
    assert fight.state.combatants["k"].pos == (4, 0)
    assert all_used(fight)


def test_C_a_rider_with_riding_9_blocks_at_minus_3_too():
    """ "A rider can Dodge, Block, or Parry ... reduce active defenses by the difference between 12 and the
    rider's skill" (B397). Block: Shield 13 / 2 + 3 = 9, +1 Combat Reflexes, +2 medium shield DB = 12; Riding
    9: -3; 3 ft above the spearman: +1. Block 10."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": {"weapons": ["broadsword"], "armor": [], "shield": "medium_shield"},
                "stats": {"skills": {"Broadsword": 14, "Shield": 13, "Riding": 9}},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 4],
    )
    act(fight, "s", "attack", "k", weapon="spear:thrust", maneuver="attack")
    assert defense_value(fight, "k", "block") == 10


# ----------------------------------------------------------------------------------------------------------
# More mounts, riders and heights
# ----------------------------------------------------------------------------------------------------------


def test_E_a_horse_tramples_a_lying_man_who_may_only_dodge():
    """Trampling needs "1+ bigger against a lying foe. It does thrust crushing damage, and the target may only
    dodge" (gurps.md 1.9, B404). The spearman lies down; the warhorse (SM +1) is offered its trample, and
    against it he is offered only Dodge: 10 (Basic Speed 7) + 2 (DB) - 3 (lying) = 9."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 3}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}, "stats": {"basic_speed": 3}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
    )
    act(fight, "s", "change_posture", posture="lying")
    act(fight, "k", "do_nothing")
    attacks = {c.args["weapon"] for c in offered(fight, "horse") if c.action == "attack"}
    assert "trample" in attacks
    script(fight, 3, 3, 3)
    act(fight, "horse", "attack", "s", weapon="trample", maneuver="attack")
    d = decision(fight, "s", "react")
    assert {c.args["defense"] for c in R.choices(fight.state, d)} == {"none", "dodge"}
    assert defense_value(fight, "s", "dodge") == 9
    assert all_used(fight)


def test_E_a_horse_carries_at_most_two_riders():
    """ "On a horse-sized or larger mount, a second human-sized or smaller rider can hang on behind the one
    controlling the mount" (B397): a controller and one passenger; a third rider is refused when the
    encounter is loaded."""
    with pytest.raises(Exception, match="two riders|at most 2"):
        new_fight(
            [
                {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
                {"template": "knight", "id": "k", "options": {"mount": "horse"}},
                {"template": "knight", "id": "k2", "options": {"mount": "horse"}},
                {"template": "knight", "id": "k3", "options": {"mount": "horse"}},
            ],
            [{"template": "spearman", "id": "s", "at": [1, 0]}],
        )


def test_A_a_mounted_archers_shot_is_at_minus_2_after_his_mount_attacked():
    """ "The rider's attack is at an extra -2 if the mount attacked on its last turn" (B396): any attack,
    ranged too. The cavalry horse kicks (and misses); the archer's shot at 1 yard is Bow 13 - 2 = 11."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "horse_archer", "id": "a", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 3}}],
        faces=[6, 6, 5, 6, 5, 5],
    )
    act(fight, "horse", "attack", "s", weapon="kick", maneuver="attack")
    assert one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow").dn == 11
    assert all_used(fight)


def test_D_two_riders_fight_at_the_same_level():
    """ "A cavalryman on horseback is effectively three feet above a standing foe" (B397): against another
    rider there is no height difference, so no Combat at Different Levels bonus: the knight's Dodge is his
    plain 10."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 4}},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": dict(NO_ARMOR),
                "stats": {"basic_speed": 7},
            },
        ],
        [
            {"template": "heavy_warhorse", "id": "h2", "at": [1, 0], "stats": {"basic_speed": 3}},
            {
                "template": "knight",
                "id": "k2",
                "options": {"mount": "h2"},
                "equipment": dict(NO_ARMOR),
                "stats": {"basic_speed": 6.5},
            },
        ],
        faces=[3, 3, 3],
    )
    act(fight, "k", "attack", "k2", weapon="broadsword:swing", maneuver="attack")
    assert defense_value(fight, "k2", "dodge") == 10
    assert all_used(fight)


def test_D_aerial_reach_matters_against_a_flyer_overhead():
    """ "Weapon reach becomes very important!" (B398); heights are counted with the 1.5-per-diagonal-yard rule
    of B398 (the tool's documented reading). A spearman beside a flyer 2 yards up reaches her only with his
    spear held two-handed (reach 2), not with a fist or a one-handed thrust (reach 1); at 1 yard up he
    reaches her with all three."""
    for altitude, expected in (
        (2, {"spear:thrust_two_handed"}),
        (1, {"punch", "spear:thrust", "spear:thrust_two_handed"}),
    ):
        fight = new_fight(
            [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
            [{"template": "winged_duelist", "id": "d", "at": [0, 0], "altitude": altitude}],
        )
        weapons = {
            c.args["weapon"]
            for c in offered(fight, "s")
            if c.action == "attack" and c.args["maneuver"] == "attack"
        }
        assert expected <= weapons and (altitude == 1 or weapons == expected), (altitude, weapons)


def test_A_shock_lowers_a_feint_on_the_next_turn():
    """Shock lowers "DX and IQ (and skills) on the next turn" (gurps.md 1.6, B419); a Feint is a Quick
    Contest of melee skill (gurps.md 1.3, B365). The knight, wounded for 1 HP, feints at Broadsword 14 - 1;
    the axeman resists at his Axe/Mace 13."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[3, 3, 4, 3, 3, 3, 3, 3, 4, 4, 4],  # 1 HP (see above); feint 9; resistance 12
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    events = act(fight, "k", "feint", "ax", weapon="broadsword:swing")
    assert one_roll(events, "feint", actor="k").dn == 13
    assert one_roll(events, "feint", actor="ax").dn == 13
    assert all_used(fight)


def test_C_a_lance_from_a_mount_that_did_not_move_does_its_own_thrust_plus_3():
    """A couched lance's damage "depends on the mount's mass and velocity ... (mount's ST) x (distance moved
    last turn)/100 dice" (B397); the lance itself is "thr+3 imp" (gurps.md 2, B272). From a standing horse
    the knight's lance does thr+3 = 1d-1 + 3 = 1d+2 (ST 12): a 3 gives 5 imp, DR 2, x2 = 6 HP."""
    fight = new_fight(
        [
            {"template": "text_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 3}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}, "stats": {"basic_speed": 7}},
        ],
        [{"template": "spearman", "id": "s", "at": [4, 0]}],
        faces=[3, 3, 3, 3, 3, 3, 3],  # lance 9 hits; damage 3; 6 HP is over HP/2: knockdown roll 9 vs HT 11
    )
    events = act(fight, "k", "attack", "s", weapon="lance", maneuver="attack")
    assert one_roll(events, "lance").dn == 13
    damage = one_roll(defend(fight, "s", "none"), "damage")
    assert damage.total == 5
    assert "couched" not in damage.test
    assert injury(fight, "s") == 6
    assert all_used(fight)


def test_C_a_jousting_lance_at_15_or_less_does_not_snap():
    """The jousting lance snaps only "if the damage exceeds 15 points" (B397): 5 + 6 + 3 + 1 (velocity) = 15
    crushing stays 15, the lance is still in hand; DR 2 leaves 13 HP."""
    fight = new_fight(
        [
            {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "jousting_knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [12, 0]}],
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[8, 0])
    script(fight, 3, 3, 3, 5, 6, 3, 3, 3, 3, 3, 3)
    act(fight, "k", "attack", "s", weapon="jousting_lance", maneuver="attack")
    events = defend(fight, "s", "none")
    assert one_roll(events, "damage").total == 15
    assert fight.state.combatants["k"].marks.get("wielding") == "jousting_lance"
    assert injury(fight, "s") == 13
    assert all_used(fight)


def test_G_a_miss_by_1_at_the_mount_goes_to_the_rider_who_may_defend():
    """ "If any attack aimed at a rider misses by 1, it hits the mount unless it makes its active defense
    roll; the reverse is true for attacks aimed at the mount" (B397). The axe at the horse (13 + 1 for its
    SM +1) rolls 15, a miss by 1: the knight is asked to defend, with Dodge 10 + 1 (3 ft above the axeman)."""
    fight = new_fight(mounted_knight(), [fast_axeman(at=[1, 0])], faces=[5, 5, 5])
    events = act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack")
    roll = one_roll(events, "axe")
    assert (roll.dn, roll.total) == (14, 15)
    assert defense_value(fight, "k", "dodge") == 11
    assert all_used(fight)


def crippled_foreleg():
    """An axe blow of 10 cut at the warhorse's foreleg: x1.5 = 15, a limb is crippled over HP/2 (24 / 2) and
    "injury beyond the threshold is lost" (gurps.md 1.6): 13 HP."""
    fight = new_fight(
        mounted_knight(), [fast_axeman(at=[1, 0], stats={"basic_speed": 7, "skills": {"Axe/Mace": 16}})]
    )
    script(fight, 3, 3, 3)  # axe 9 hits (16 + 1 SM - 2 foreleg = 15)
    act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack", location="foreleg")
    return fight


def test_G_a_crippled_mount_falls_and_its_rider_with_it():
    """ "If the mount is crippled and falls, effects are as per result 12 on the Mount Loss of Control Table"
    (B397); only that result is known: the mount falls (gurps.md 2). The crippled warhorse goes down and the
    knight is off its back."""
    fight = crippled_foreleg()
    # damage 6 + 3 + 1 = 10; Riding 9 vs 13 + 1 (stirrups) - 4 (shock) = 10; the crippling is a major wound:
    # HT 12 for knockdown at once (B420, the case below), 9 succeeds
    script(fight, 6, 3, 3, 3, 3, 3, 3, 3)
    defend(fight, "horse", "none")
    assert injury(fight, "horse") == 13
    assert fight.state.combatants["k"].marks.get("mount") is None
    assert fight.state.combatants["horse"].marks.get("rider") is None


def test_A_a_crippled_mount_rolls_ht_for_knockdown_at_once():
    """ "Major wound: more than HP/2 injury from one blow, or any crippling injury"; "Roll HT immediately
    after a major wound" (gurps.md 1.6, B420). The warhorse's crippled foreleg (13 HP of 24) is a major wound
    both ways: it rolls HT 12 for knockdown and stun among the blow's events."""
    fight = crippled_foreleg()
    script(fight, 6, 3, 3, 3, 3, 3, 3, 3)  # damage 10; Riding 9; knockdown 9
    events = defend(fight, "horse", "none")
    assert injury(fight, "horse") == 13
    assert one_roll(events, "knockdown", actor="horse").dn == 12


def test_A_aim_survives_a_mount_that_moves_only_a_step():
    """ "If the mount moves more than a step" the extra turns of Aim are lost (B397); a step is "Move/10,
    rounded up, at least 1 yard" (gurps.md 1.3): the cavalry horse (Move 8) stepping 1 yard a turn keeps
    the second turn's +1. Bow 13 + 3 + 1 - 7 (22 yd) = 10."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 4}},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [20, 0]}],
        faces=[6, 5, 5],
    )
    for to in ([-1, 0], [-2, 0]):
        act(fight, "a", "aim", "s", weapon="composite_bow")
        act(fight, "s", "do_nothing")
        act(fight, "horse", "move", to=to)
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert shot.dn == 10
    assert all_used(fight)


def test_C_velocity_exactly_7_and_the_st_24_warhorse_couch_1d_plus_3():
    """ "If the mount's velocity is 7 or more relative to the foe, the attack has -1 to hit but +1 damage";
    couched lance "(mount's ST) x (distance moved last turn)/100 dice ..., rounded down" + 3 (B397). The
    heavy warhorse (ST 24) at Move 7: 1.68 -> 1d+3, +1: a 3 gives 7 imp, DR 2, x2 = 10 HP; Lance 13 - 1."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [11, 0]}],
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "move", to=[7, 0])
    script(fight, 3, 3, 3, 3, 3, 3, 3)
    assert one_roll(act(fight, "k", "attack", "s", weapon="lance", maneuver="attack"), "lance").dn == 12
    events = defend(fight, "s", "none")
    assert one_roll(events, "damage").total == 7
    assert injury(fight, "s") == 10
    assert all_used(fight)


def test_G_no_panic_roll_when_the_mount_does_not_charge():
    """Panic: "If a mounted fighter charges directly toward an NPC who is unused to facing cavalry" (B396).
    The warhorse stands still beside the spearman: no Will roll is asked of him."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [3, 0], "stats": {"unused_to_cavalry": True}}],
        options={"panic": True},
    )
    act(fight, "horse", "do_nothing")
    act(fight, "k", "do_nothing")
    n = len(fight.log)
    decision(fight, "s", "act")
    assert rolls(fight.log[n:], "Will") == []
    assert all_used(fight)


def test_G_a_stunned_rider_who_makes_his_riding_roll_stays_on():
    """ "A rider who is stunned must make a Riding roll at -4 or fall off" (B397): a 9 against 13 - 4 + 1
    (war saddle) = 10 keeps the knight on his horse."""
    fight = new_fight(
        mounted_knight(),
        [fast_axeman(at=[1, 0])],
        faces=[3, 3, 4, 2, 2, 5, 5, 4, 3, 3, 3],  # 7 HP; knockdown 14 fails; Riding 9
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    events = defend(fight, "k", "none")
    riding = one_roll(events, "Riding")
    assert (riding.dn, riding.success) == (10, True)
    assert fight.state.combatants["k"].marks.get("mount") == "horse"
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# The combat core under the mounted rules: criticals, locations, knockback, defenses
# ----------------------------------------------------------------------------------------------------------


def test_C_critical_hit_table_5_doubles_the_damage():
    """Critical Hit Table: "5 or 16: double damage"; "on any critical hit the target gets no active
    defence" (gurps.md 1.1, B556). A 3 to hit, the table 1 + 1 + 3 = 5: the axe's 1 + 1 + 1 = 3 becomes 6
    cut, x1.5 = 9 HP (a major wound: HT roll 9 vs 12)."""
    fight = new_fight([fast_axeman()], [knight_on_foot()], faces=[1, 1, 1, 1, 1, 3, 1, 1, 3, 3, 3])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    decision(fight, "k", "act")
    assert injury(fight, "k") == 9
    assert all_used(fight)


def test_G_a_critically_failed_dodge_leaves_the_defender_lying():
    """ "Critical failures: a Dodge: the defender falls" (gurps.md 1.1, B556). The knight rolls 18 on his
    Dodge: he is lying, and the axe hits (3 cut, x1.5 = 4 HP)."""
    fight = new_fight([fast_axeman()], [knight_on_foot()], faces=[3, 3, 4, 6, 6, 6, 1, 1])
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    dodge = one_roll(defend(fight, "k", "dodge", retreat=False), "Dodge")
    assert dodge.outcome == "critical failure"
    assert fight.state.combatants["k"].marks.get("posture") == "lying"
    assert injury(fight, "k") == 4
    assert all_used(fight)


def test_C_a_skull_hit_is_x4_behind_2_more_dr_and_knockdown_at_minus_10():
    """Skull: "-7; DR +2; x4 (not tox); knockdown roll -10"; a failed knockdown roll "by 5+ ... means
    unconscious" (gurps.md 1.5-1.6, B398-400, B420). Axe/Mace 20 - 7 = 13; 2 + 2 + 1 = 5 cut, DR 2 leaves 3,
    x4 = 12 HP; the knockdown roll is at HT 12 - 10 = 2 (rolled though below 3: it is forced), a 9 fails by
    7: unconscious."""
    fight = new_fight(
        [fast_axeman(stats={"basic_speed": 7, "skills": {"Axe/Mace": 20}})],
        [knight_on_foot()],
        faces=[3, 3, 3, 2, 2, 3, 3, 3],
    )
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack", location="skull")
    assert one_roll(events, "axe").dn == 13
    events = defend(fight, "k", "none")
    assert injury(fight, "k") == 12
    assert one_roll(events, "knockdown").dn == 2
    assert status(fight, "k") == "unconscious"
    assert all_used(fight)


def test_B_two_yards_of_knockback_put_a_rider_at_minus_8():
    """ "A Riding roll at -4 per yard of knockback to stay on" (B397); knockback yards = floor(basic damage /
    (ST - 2)) (gurps.md 1.7, B378). A ST 20 axeman's mace (3d+5 cr) rolls 23: 23 / 10 = 2 yards; Riding 13 -
    8 + 1 (war saddle) = 6."""
    fight = new_fight(
        mounted_knight(),
        [
            fast_axeman(
                at=[1, 0], stats={"basic_speed": 7, "st": 20, "hp": 13}, equipment={"weapons": ["mace"]}
            )
        ],
        faces=[3, 3, 3, 6, 6, 6, 3, 3, 3, 3, 3, 3],  # mace hits; 23 cr; knockdown 9 vs 12; Riding 9
    )
    act(fight, "ax", "attack", "k", weapon="mace", maneuver="attack")
    events = defend(fight, "k", "none")
    assert injury(fight, "k") == 23
    riding = one_roll(events, "Riding")
    assert (riding.dn, riding.success) == (6, False)
    assert fight.state.combatants["k"].marks.get("mount") is None
    assert all_used(fight)


def test_G_a_critically_failed_riding_roll_after_a_noisy_shot_loses_control_of_the_mount():
    """ "On a failure, the mount is spooked ...; on a critical failure, you lose control (see Mount Loss of
    Control Table)" (B397). The table is not public: the tool rolls 3d on its placeholder rows (out of
    control for a turn; documented). An 18 on Riding: the table is rolled, and the horse's next turn passes
    without a maneuver chosen for it."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7, "skills": {"Guns (Musket)": 14, "Riding": 13}},
                "equipment": {"weapons": ["matchlock_musket"]},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [5, 0], "stats": {"basic_speed": 6}}],
        faces=[6, 5, 5, 6, 6, 6, 3, 3, 3],  # the shot misses; Riding 18; the table: 9
    )
    events = act(fight, "a", "attack", "s", weapon="matchlock_musket", maneuver="attack")
    assert one_roll(events, "Riding").outcome == "critical failure"
    assert any("Loss of Control" in getattr(e, "text", "") for e in events)
    act(fight, "s", "do_nothing")
    assert decision(fight).actor == "a"
    assert fight.state.combatants["horse"].marks.get("maneuver") == "do_nothing"
    assert all_used(fight)


def test_E_no_flying_above_the_6000_foot_ceiling():
    """ "On Earth, an unprotected human has trouble breathing past 6,000'" (B398); the tool refuses what it
    cannot play (Atmospheric Pressure, B429): a flyer placed at 2,001 yards (6,003 ft) is refused when the
    encounter is loaded, and a climb to it is refused while one to 2,000 yards is legal."""
    with pytest.raises(Exception, match="ceiling"):
        new_fight(
            [{"template": "winged_duelist", "id": "d", "at": [0, 0], "altitude": 2001}],
            [{"template": "spearman", "id": "s", "at": [5, 0]}],
        )
    fight = new_fight(
        [
            {
                "template": "winged_duelist",
                "id": "d",
                "at": [0, 0],
                "altitude": 1995,
                "stats": {"basic_speed": 7},
            }
        ],
        [{"template": "spearman", "id": "s", "at": [5, 0]}],
    )
    decision(fight, "d")
    R.validate(fight.state, Command("d", "move", None, {"to": [0, 0], "altitude": 2000}))
    with pytest.raises(Exception, match="ceiling"):
        R.validate(fight.state, Command("d", "move", None, {"to": [0, 0], "altitude": 2001}))


def test_B_all_out_defense_and_a_deceptive_attack_both_count():
    """All-Out Defense (Increased Dodge): "+2" (gurps.md 1.3, B366); Deceptive Attack: "-1 to the defence for
    every -2 the attacker took" (gurps.md 1.4, B369). The knight (Dodge 10) in All-Out Defense faces a
    Deceptive Attack at -4 (axe 13 - 4 = 9): Dodge 10 + 2 - 2 = 10; his parry, not increased, 11 - 2 = 9."""
    fight = new_fight(
        [{"template": "axeman", "id": "ax", "at": [0, 0], "stats": {"basic_speed": 5}}],
        [knight_on_foot(stats={"basic_speed": 6.5})],
        faces=[3, 3, 3],
    )
    act(fight, "k", "all_out_defense", variant="increased_dodge")
    events = act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack", deceptive=2)
    assert one_roll(events, "axe").dn == 9
    assert defense_value(fight, "k", "dodge") == 10
    assert defense_value(fight, "k", "parry", weapon="broadsword:swing") == 9
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# More timing: how long a maneuver's effects last
# ----------------------------------------------------------------------------------------------------------


def test_A_no_defense_after_all_out_attack_lasts_only_until_the_attackers_next_turn():
    """After All-Out Attack "no defence" (gurps.md 1.3-1.4, B365) until the attacker's next turn. The axeman's
    All-Out Attack: the knight's blow finds him with no defense; next round he takes a plain Attack, and the
    knight's blow then offers him his defenses."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        faces=[6, 6, 5, 6, 5, 5, 6, 6, 5, 3, 3, 3],  # four blows: 17, 16 (missed), 17, then 9: a hit
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="all_out_attack_determined")
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    assert defense_value(fight, "ax", "dodge") == 11  # Basic Speed 7 + 3, small shield DB 1
    assert all_used(fight)


def test_A_a_failed_recovery_roll_keeps_the_figure_stunned_for_another_turn():
    """Stun: "must take Do Nothing ... HT roll at the end of each turn to recover" (gurps.md 1.6, B420). The
    knight fails his first recovery roll (16 vs 12): his next turn again passes in Do Nothing, with a second
    recovery roll."""
    fight = new_fight(
        [fast_axeman()],
        [knight_on_foot()],
        faces=[3, 3, 4, 2, 2, 5, 5, 4, 6, 6, 4, 3, 3, 3],  # 7 HP, knockdown fails; recovery 16, then 9
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack")
    defend(fight, "k", "none")
    act(fight, "ax", "do_nothing")
    act(fight, "ax", "do_nothing")
    recoveries = rolls(fight.log, "recover")
    assert [(r.dn, r.success) for r in recoveries] == [(12, False), (12, True)]
    assert all_used(fight)


def test_A_aim_is_lost_when_the_aimer_takes_another_maneuver():
    """Aim is "+Acc for 1 turn" on the attack that follows it (gurps.md 1.3, B364): an archer who aims, then
    does nothing for a turn, shoots with no Aim bonus: Bow 13 - 4 (10 yd) = 9."""
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0], "stats": {"basic_speed": 7}}],
        [{"template": "spearman", "id": "s", "at": [10, 0]}],
        faces=[6, 5, 5],
    )
    act(fight, "a", "aim", "s", weapon="composite_bow")
    act(fight, "s", "do_nothing")
    act(fight, "a", "do_nothing")
    act(fight, "s", "do_nothing")
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert shot.dn == 9
    assert all_used(fight)


def test_A_evaluate_is_lost_when_the_next_maneuver_is_not_an_attack():
    """Evaluate counts "against that foe on the next Attack, Feint, All-Out Attack or Move and Attack"
    (gurps.md 1.3, B364): after an Evaluate and a turn of Do Nothing, the axeman's swing is at plain 13."""
    fight = new_fight(
        [fast_axeman()],
        [{"template": "knight", "id": "k", "at": [1, 0], "equipment": {"weapons": ["broadsword"]}}],
        faces=[6, 5, 5],
    )
    act(fight, "ax", "evaluate", "k")
    act(fight, "k", "do_nothing")
    act(fight, "ax", "do_nothing")
    act(fight, "k", "do_nothing")
    assert one_roll(act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack"), "axe").dn == 13
    assert all_used(fight)


# ----------------------------------------------------------------------------------------------------------
# More of the mounted and aerial text, clause by clause
# ----------------------------------------------------------------------------------------------------------


def test_C_aerial_a_flyer_that_cannot_hover_gets_only_the_usual_retreat_bonus():
    """ "If a flyer can hover, and has enough space to move one step up or down, he gets +1 over and above the
    usual retreating bonus" (B398): a duelist whose Flight cannot hover (or only glides) retreats at Dodge
    10 + 3 = 13, not 14."""
    for limitation in ("cannot_hover", "gliding", "controlled_gliding"):
        fight = new_fight(
            [
                {
                    "template": "winged_warrior",
                    "id": "w",
                    "at": [0, 0],
                    "altitude": 3,
                    "stats": {"basic_speed": 7},
                }
            ],
            [
                {
                    "template": "winged_duelist",
                    "id": "d",
                    "at": [1, 0],
                    "altitude": 3,
                    "stats": {"flight_limitation": limitation},
                }
            ],
            faces=[3, 3, 3],
        )
        act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack")
        assert defense_value(fight, "d", "dodge", retreat=True) == 13, limitation


def test_C_a_rider_with_riding_9_parries_at_minus_3_once():
    """ "A rider can Dodge, Block, or Parry ... reduce active defenses by the difference between 12 and the
    rider's skill" (B397). Broadsword 14: Parry 7 + 3 + 1 (Combat Reflexes) = 11, -3, +1 (3 ft above the
    spearman) = 9; the -3 is the text's defense penalty, taken once."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": dict(NO_ARMOR),
                "stats": {"skills": {"Broadsword": 14, "Riding": 9}},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 4],
    )
    act(fight, "s", "attack", "k", weapon="spear:thrust", maneuver="attack")
    assert defense_value(fight, "k", "parry", weapon="broadsword:swing") == 9


def test_C_barding_protects_the_mount_and_the_rider_still_rolls_riding():
    """ "Some mounts may have barding ... or natural DR" (B397); full plate barding is DR 5 on the torso
    (gurps.md 2, B286). A 5-point axe blow to the barded torso does no injury; the text's "if the mount is
    hit" Riding roll is still made (the tool's documented reading): 13 + 1 (stirrups), no shock."""
    fight = new_fight(
        [
            {
                "template": "heavy_warhorse",
                "id": "horse",
                "at": [0, 0],
                "equipment": {"barding": ["full_plate_barding"]},
            },
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [fast_axeman(at=[1, 0])],
        faces=[3, 3, 3, 2, 2, 3, 3, 3],
    )
    act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack")
    events = defend(fight, "horse", "none")
    assert injury(fight, "horse") == 0
    assert one_roll(events, "Riding").dn == 14
    assert all_used(fight)


def test_C_iron_horseshoes_do_not_help_a_bite():
    """Iron horseshoes "give +1 to kicking or trampling damage" (B396), not to a bite: the shod warhorse's
    bite (2d-4 cr) rolls 3 + 3 = 2, stopped by the spearman's DR 2."""
    fight = new_fight(
        [
            {
                "template": "heavy_warhorse",
                "id": "horse",
                "at": [0, 0],
                "stats": {"basic_speed": 7, "iron_horseshoes": True},
            },
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
        faces=[3, 3, 3, 3, 3],
    )
    act(fight, "horse", "attack", "s", weapon="bite", maneuver="attack")
    events = defend(fight, "s", "none")
    assert one_roll(events, "damage").total == 2
    assert injury(fight, "s") == 0
    assert all_used(fight)


def test_D_aerial_a_flyer_moves_over_fighters_on_the_ground():
    """ "If the ceiling is high enough, fliers can move over other fighters!" (B398). A row of three
    spearmen bars the way: the winged warrior 3 yards up flies straight over the middle one (2 yards), while
    on the ground he must go around (5 yards)."""
    row = [
        {"template": "spearman", "id": f"s{i}", "at": [1, r], "stats": {"basic_speed": 4 + i / 10}}
        for i, r in enumerate((-1, 0, 1))
    ]
    for altitude, cost in ((3, 2), (0, 5)):
        fight = new_fight(
            [
                {
                    "template": "winged_warrior",
                    "id": "w",
                    "at": [0, 0],
                    "altitude": altitude,
                    "stats": {"basic_speed": 7},
                }
            ],
            row,
        )
        act(fight, "w", "move", to=[2, 0], altitude=altitude)
        flyer = fight.state.combatants["w"]
        assert (flyer.pos, flyer.marks.get("moved")) == ((2, 0), cost), altitude


def test_G_a_passenger_with_a_poor_controller_uses_the_controllers_riding():
    """ "The passenger uses the lower of the controlling rider's skill or his own ST on any roll to avoid
    falling off, but do so at -3" (B397). The controller has Riding 8, the passenger ST 11: stunned, the
    passenger rolls 8 - 3 - 4 = 1 (forced, so rolled)."""
    fight = new_fight(
        [
            *mounted_knight(basic_speed=6.5, skills={"Broadsword": 14, "Riding": 8}),
            {"template": "horse_archer", "id": "p", "options": {"mount": "horse"}},
        ],
        [fast_axeman(at=[1, 0])],
        # axe 10 hits; 2 + 3 + 1 = 6 cut, DR 2: 4 x 1.5 = 6 HP, over HP/2 (11 / 2); knockdown 14 vs HT 11
        faces=[3, 3, 4, 2, 3, 5, 5, 4, 1, 1, 1],
    )
    act(fight, "ax", "attack", "p", weapon="axe", maneuver="attack")
    events = defend(fight, "p", "none")
    assert one_roll(events, "Riding", actor="p").dn == 1
    assert all_used(fight)


def effective_of(cmd: Command, fight) -> int:
    """The effective skill the odds text names ('to hit at effective N: ...')."""
    return int(R.odds(fight.state, cmd).split("effective ")[1].split(":")[0])


def test_F_no_move_and_attack_is_offered_below_effective_skill_3():
    """ "With effective skill below 3, only defence rolls may be attempted" (gurps.md 1.1, B344); Move and
    Attack is -4 in melee (gurps.md 1.3, B365). The axeman (kick: DX 11 - 2 = 9) with shock -3 kicks at 6 by
    a plain Attack, and at 2 by Move and Attack: that one must not be offered, and everything offered must
    resolve."""
    fight = new_fight(
        [
            {
                "template": "knight",
                "id": "k",
                "at": [0, 0],
                "equipment": {"weapons": ["broadsword"]},
                "stats": {"basic_speed": 7},
            },
            {"template": "swordsman", "id": "sw", "at": [3, 0], "stats": {"basic_speed": 6.5}},
        ],
        [{"template": "axeman", "id": "ax", "at": [1, 0]}],
        faces=[3, 3, 3, 3],  # broadsword hits; 3 + 3 = 6 cut, DR 4: 2 x 1.5 = 3 HP: shock -3
    )
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    defend(fight, "ax", "none")
    assert injury(fight, "ax") == 3
    act(fight, "sw", "do_nothing")
    d = decision(fight, "ax", "act")
    attacks = [c for c in R.choices(fight.state, d) if c.action == "attack"]
    low = [(c.target, c.args) for c in attacks if effective_of(c, fight) < 3]
    assert low == []
    for cmd in attacks:
        R.validate(fight.state, cmd)
        trial = Fight(R, fight.state.clone(), ScriptedDice([3] * 30))
        assert trial.advance_until_decision() == d
        trial.submit(cmd)


CYCLE = [2, 5, 6, 1, 3, 4, 6, 2, 5, 3, 1, 4, 4, 6, 3]


def cycled(n: int, offset: int = 0) -> list[int]:
    return [CYCLE[(i + offset) % len(CYCLE)] for i in range(n)]


@pytest.mark.parametrize(
    "example",
    [
        "knights-jousting",
        "horse-archers",
        "winged-duel",
        "fight-on-foot",
    ],
)
def test_F_sixty_decisions_of_each_bundled_example_offer_only_legal_commands(example: str):
    """Offered equals legal, over the bundled encounters (B363-366, B396-398): for 60 decisions, every command
    `choices` offers passes `validate` and resolves on a copy of the state, and the tactic's `auto_command`
    (then played) is legal. The dice are forced: a fixed cycle of faces."""
    path = Path(__file__).resolve().parents[2] / "examples" / "gurps4" / f"{example}.yaml"
    _spec, state = encounter.load_data(yaml.safe_load(path.read_text()), str(path))
    fight = Fight(R, state, ScriptedDice(cycled(4000)))
    for step in range(60):
        d = fight.advance_until_decision()
        if d is None:
            break
        for cmd in R.choices(fight.state, d):
            R.validate(fight.state, cmd)
            trial = Fight(R, fight.state.clone(), ScriptedDice(cycled(400, step)))
            assert trial.advance_until_decision() == d
            trial.submit(cmd)
        chosen = fight.auto_command(d)
        R.validate(fight.state, chosen)
        fight.submit(chosen)


def test_F_a_tumbling_glider_is_offered_something_to_do():
    """ "You must take a Move or Move and Attack maneuver and move at least 1/4 your top airspeed each turn,
    or you'll stall and start to fall ... You may recover from a stall ... Roll vs. DX-4 each turn" (B398).
    A gliding duelist critically fails a Dodge and tumbles (the tool's documented call: she fights as if
    lying until a Change Posture). On her turn she must still have a choice: at least one command is
    offered, each validates, and her tactic's auto_command is legal."""
    fight = new_fight(
        [{"template": "winged_warrior", "id": "w", "at": [0, 0], "altitude": 3, "stats": {"basic_speed": 7}}],
        [
            {
                "template": "winged_duelist",
                "id": "d",
                "at": [1, 0],
                "altitude": 3,
                "stats": {"flight_limitation": "gliding"},
            }
        ],
        faces=[3, 3, 3, 6, 6, 6, 1],  # the thrust hits; the Dodge rolls 18; 1d+1 = 2 imp, stopped by DR 2
    )
    act(fight, "w", "attack", "d", weapon="spear:thrust", maneuver="attack")
    defend(fight, "d", "dodge", retreat=False)
    assert fight.state.combatants["d"].marks.get("posture") == "lying"
    d = decision(fight, "d", "act")
    choices = R.choices(fight.state, d)
    for cmd in choices:
        R.validate(fight.state, cmd)
    assert choices
    R.validate(fight.state, fight.auto_command(d))


def test_C_a_mount_below_a_third_of_its_hp_dodges_at_half():
    """ "Below HP/3: halve Move and Dodge, rounding up" (gurps.md 1.6, B419) holds for a mount, whose only
    defense is Dodge (B397): a warhorse of 12 HP at 3 HP dodges at 9 / 2 -> 5."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"hp": 12}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [fast_axeman(at=[1, 0])],
        # axe 9 hits (13 + 1 SM); 2 + 3 + 1 = 6 cut, x1.5 = 9 HP; Riding 9 vs 10; knockdown 9 vs 12
        faces=[3, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    )
    act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack")
    defend(fight, "horse", "none")
    assert injury(fight, "horse") == 9
    act(fight, "k", "do_nothing")
    act(fight, "horse", "do_nothing")
    act(fight, "ax", "attack", "horse", weapon="axe", maneuver="attack")
    assert defense_value(fight, "horse", "dodge") == 5
    assert all_used(fight)


def test_A_the_mounts_last_turn_counts_when_the_rider_acts_first():
    """ "The rider's attack is at an extra -2 if the mount attacked on its last turn" (B396). The knight acts
    before his horse: in round 1 the horse kicks after him; in round 2 his swing (before the horse's turn)
    is at -2, since the horse's last turn was that kick; in round 3, after a round in which the horse only
    stood, it is at full 13."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 4}},
            {
                "template": "knight",
                "id": "k",
                "options": {"mount": "horse"},
                "equipment": {"weapons": ["broadsword"]},
                "stats": {"basic_speed": 7},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [1, 0]}],
        faces=[6, 6, 5, 6, 5, 5, 6, 5, 5],  # the kick misses, both swings miss
    )
    act(fight, "k", "do_nothing")
    act(fight, "s", "do_nothing")
    act(fight, "horse", "attack", "s", weapon="kick", maneuver="attack")
    first = one_roll(act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="attack"), "broad")
    assert first.dn == 11
    act(fight, "s", "do_nothing")
    act(fight, "horse", "do_nothing")
    second = one_roll(act(fight, "k", "attack", "s", weapon="broadsword:swing", maneuver="attack"), "broad")
    assert second.dn == 13
    assert all_used(fight)


def test_G_a_bow_is_not_noisy_no_riding_roll_after_the_shot():
    """ "If you are firing a noisy weapon (e.g., an unsilenced gun), you must make a Riding roll after each
    attack" (B397): a bow is not noisy, so the mounted archer's shot is the only roll made."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
            {
                "template": "horse_archer",
                "id": "a",
                "options": {"mount": "horse"},
                "stats": {"basic_speed": 7},
            },
        ],
        [{"template": "spearman", "id": "s", "at": [10, 0]}],
        faces=[6, 5, 5],
    )
    events = act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack")
    assert [r.test for r in rolls(events)] == ["composite_bow (Bow)"]
    assert all_used(fight)


def test_B_a_passenger_costs_the_controller_1_on_his_defenses_too():
    """ "The controlling rider has an extra -1 to Riding skill" (B397), and a rider below Riding 12 defends
    at -(12 - Riding) (B397): a knight with Riding 12 carrying a passenger rides at 11 and dodges at
    10 - 1 + 1 (above the spearman) = 10, parries at 11 - 1 + 1 = 11; alone: 11 and 12."""
    for passenger, dodge, parry in ((False, 11, 12), (True, 10, 11)):
        side = mounted_knight(skills={"Broadsword": 14, "Riding": 12})
        if passenger:
            side.append({"template": "horse_archer", "id": "p", "options": {"mount": "horse"}})
        fight = new_fight(
            side, [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}]
        )
        script(fight, 3, 3, 4)
        act(fight, "s", "attack", "k", weapon="spear:thrust", maneuver="attack")
        assert defense_value(fight, "k", "dodge") == dodge, passenger
        assert defense_value(fight, "k", "parry", weapon="broadsword:swing") == parry, passenger


def test_A_a_wounded_mount_kicks_with_its_shock_on_its_next_turn():
    """Shock "-1 per HP of injury, max -4 ... on the next turn only; at 20+ HP: -1 per full HP/10 of injury"
    (gurps.md 1.6, B419). A warhorse of 24 HP takes 5 HP from a mace (5 / 2.4, or 5 / 2: shock -2 either
    way); on its next turn its kick is at Brawling 12 - 2 = 10."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [fast_axeman(at=[1, 0], equipment={"weapons": ["mace"]})],
        # mace 9 hits; 2d+2: 1 + 2 + 2 = 5 cr; the rider's Riding 9 vs 13 + 1 - 2; the kick 17 misses
        faces=[3, 3, 3, 1, 2, 3, 3, 3, 6, 6, 5],
    )
    act(fight, "ax", "attack", "horse", weapon="mace", maneuver="attack")
    events = defend(fight, "horse", "none")
    assert injury(fight, "horse") == 5
    assert one_roll(events, "Riding").dn == 12
    act(fight, "k", "do_nothing")
    kick = one_roll(act(fight, "horse", "attack", "ax", weapon="kick", maneuver="attack"), "kick")
    assert kick.dn == 10
    assert all_used(fight)


def test_B_the_riding_roll_for_a_twice_hit_mount_takes_off_its_whole_shock():
    """ "If the mount is hit, the rider must roll vs. Riding, minus the shock penalty suffered by the mount"
    (B397); "shock from several hits in a turn adds up, still capped at 4" (gurps.md 1.6, B419). A horse of 20
    HP takes two 4-point mace blows in a turn: shock -2, then -4 in all. The rider's rolls: 13 + 1 - 2 = 12,
    then 13 + 1 - 4 = 10."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"hp": 20}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}},
        ],
        [
            fast_axeman(at=[1, 0], equipment={"weapons": ["mace"]}),
            {
                "template": "axeman",
                "id": "ax2",
                "at": [1, -1],
                "stats": {"basic_speed": 6.5},
                "equipment": {"weapons": ["mace"]},
            },
        ],
        # each: the mace hits (9), 1 + 1 + 2 = 4 cr, the Riding roll 9
        faces=[3, 3, 3, 1, 1, 3, 3, 3, 3, 3, 3, 1, 1, 3, 3, 3],
    )
    act(fight, "ax", "attack", "horse", weapon="mace", maneuver="attack")
    first = one_roll(defend(fight, "horse", "none"), "Riding")
    act(fight, "ax2", "attack", "horse", weapon="mace", maneuver="attack")
    second = one_roll(defend(fight, "horse", "none"), "Riding")
    assert injury(fight, "horse") == 8
    assert (first.dn, second.dn) == (12, 10)
    assert all_used(fight)


@pytest.mark.parametrize(("saddle", "seated"), [("war_saddle", True), ("saddle_and_stirrups", False)])
def test_G_an_unconscious_rider_stays_seated_only_by_the_war_saddles_chance(saddle: str, seated: bool):
    """A war saddle gives "a 50% chance to stay seated while unconscious" (gurps.md 2, B289); a rider without
    one falls (B397: he can no longer ride). A skull blow knocks the knight out (HT 12 - 10, a 9 fails by 7):
    with the war saddle a d6 of 3 keeps him on; with a plain saddle he is off, lying."""
    fight = new_fight(
        mounted_knight(saddle),
        [fast_axeman(at=[1, 0], stats={"basic_speed": 7, "skills": {"Axe/Mace": 20}})],
        faces=[3, 3, 3, 2, 2, 3, 3, 3] + ([3] if seated else []),
    )
    act(fight, "ax", "attack", "k", weapon="axe", maneuver="attack", location="skull")
    defend(fight, "k", "none")
    knight = fight.state.combatants["k"]
    assert status(fight, "k") == "unconscious"
    assert (knight.marks.get("mount") == "horse") is seated
    assert all_used(fight)


def test_B_riding_limit_mounts_attack_and_velocity_all_count_on_one_lance_thrust():
    """B397 and B396 together: the lance at "the lower of his Melee Weapon skill or Riding skill" (14 -> 13),
    "-2 if the mount attacked on its last turn", and "-1 to hit" at velocity 7+. The warhorse's Move and
    Attack carries the knight 7 yards and kicks one spearman (Brawling 12 - 4 = 8, a miss); the knight then
    thrusts his lance at another 4 yards off: 13 - 2 - 1 = 10."""
    fight = new_fight(
        [
            {"template": "heavy_warhorse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 4}},
            {"template": "knight", "id": "k", "options": {"mount": "horse"}, "stats": {"basic_speed": 7}},
        ],
        [
            {"template": "spearman", "id": "a", "at": [8, 0], "stats": {"basic_speed": 6}},
            {"template": "spearman", "id": "b", "at": [11, -3], "stats": {"basic_speed": 5}},
        ],
        faces=[6, 5, 5, 6, 5, 5],
    )
    act(fight, "k", "do_nothing")
    act(fight, "a", "do_nothing")
    act(fight, "b", "do_nothing")
    kick = one_roll(act(fight, "horse", "attack", "a", weapon="kick", maneuver="move_and_attack"), "kick")
    assert kick.dn == 8
    assert fight.state.combatants["k"].pos == (7, 0)
    lance = one_roll(act(fight, "k", "attack", "b", weapon="lance", maneuver="attack"), "lance")
    assert lance.dn == 10
    assert all_used(fight)


def feint_then(faces: list[int]):
    fight = new_fight(
        [
            {
                "template": "knight",
                "id": "k",
                "at": [0, 0],
                "equipment": {"weapons": ["broadsword"]},
                "stats": {"basic_speed": 7},
            }
        ],
        [{"template": "axeman", "id": "ax", "at": [1, 0]}],
        faces=faces,
    )
    act(fight, "k", "feint", "ax", weapon="broadsword:swing")
    act(fight, "ax", "do_nothing")
    act(fight, "k", "attack", "ax", weapon="broadsword:swing", maneuver="attack")
    return fight


@pytest.mark.parametrize(
    ("resist", "dodge"),
    [((6, 5, 5), 9 - 8), ((3, 3, 4), 9 - 5)],
)
def test_B_a_feints_margin_comes_off_the_foes_next_defense(resist: tuple[int, int, int], dodge: int):
    """Feint: "If you succeed and the foe fails, your margin of success is taken off the foe's next defence;
    if both succeed, your margin of victory is" (gurps.md 1.3, B365). The knight feints at Broadsword 14 and
    rolls 6 (margin 8); the axeman resists at Axe/Mace 13: a 16 fails (Dodge 9 - 8 = 1), a 10 succeeds by 3
    (Dodge 9 - 5 = 4)."""
    fight = feint_then([2, 2, 2, *resist, 3, 3, 3])
    assert defense_value(fight, "ax", "dodge") == dodge
    assert all_used(fight)


def test_C_the_velocity_modifiers_are_for_melee_weapons_not_a_bow_shot():
    """The -1 to hit and +1 damage at the mount's velocity 7+ belong to the text's "Melee Weapons" paragraph
    (B397); ranged fire from a mount has its own rules (B397: the lower of Riding and weapon skill). The
    cavalry horse rides 8 yards; the archer's shot at 12 yards is Bow 13 - 5 (range), with no velocity
    modifier."""
    fight = new_fight(
        [
            {"template": "cavalry_horse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 7}},
            {"template": "horse_archer", "id": "a", "options": {"mount": "horse"}},
        ],
        [{"template": "spearman", "id": "s", "at": [20, 0], "stats": {"basic_speed": 3}}],
        faces=[6, 5, 5],
    )
    act(fight, "horse", "move", to=[8, 0])
    shot = one_roll(act(fight, "a", "attack", "s", weapon="composite_bow", maneuver="attack"), "bow")
    assert shot.dn == 8
    assert [m[1] for m in shot.modifiers] == ["range 12 yd"]
    assert all_used(fight)


@pytest.mark.parametrize(("faces", "to_the_mount"), [((3, 3, 3), True), ((3, 3, 4), False)])
def test_D_only_a_miss_by_4_or_less_at_a_hanging_rider_hits_the_mount(faces: tuple, to_the_mount: bool):
    """ "If he attacks and misses by 4 or less, he hits your mount!" (B397). At the hanging gunner's skull
    (Spear 12 - 7 = 5) a 9 misses by 4: the horse must defend; a 10 misses by 5: nothing happens, and the
    horse's own turn comes next."""
    fight, _events = gunner_hanging_on_the_far_side([6, 5, 5, 3, 3, 3])
    script(fight, *faces)
    act(fight, "s", "attack", "a", weapon="spear:thrust", maneuver="attack", location="skull")
    d = decision(fight)
    assert (d.actor, d.kind) == (("horse", "react") if to_the_mount else ("horse", "act"))
    assert all_used(fight)


def test_E_dodge_and_drop_only_against_ranged_attacks_and_not_from_the_saddle_or_the_air():
    """Dodge and Drop: "+3 to Dodge against ranged attacks; the defender ends prone" (gurps.md 1.4, B377).
    It is not offered against a spear thrust (melee), nor to a rider (he cannot drop prone in the saddle),
    his mount (its only defense is its Dodge, B397) or a flyer aloft (no ground to drop to, B398)."""

    def drops(fight, defender: str) -> list:
        d = decision(fight, defender, "react")
        return [c for c in R.choices(fight.state, d) if "drop" in (c.label + str(c.args)).lower()]

    javelin = {
        "template": "spearman",
        "id": "s",
        "at": [5, 0],
        "equipment": {"weapons": ["javelin"]},
        "stats": {"basic_speed": 7, "skills": {"Thrown Weapon (Spear)": 14}},
    }
    mounted = [
        {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
        {"template": "horse_archer", "id": "a", "options": {"mount": "horse"}},
    ]
    for target in ("a", "horse"):
        fight = new_fight(mounted, [javelin], faces=[3, 3, 3])
        act(fight, "s", "attack", target, weapon="javelin", maneuver="attack")
        assert drops(fight, target) == [], target
    fight = new_fight(
        [{"template": "winged_duelist", "id": "d", "at": [0, 0], "altitude": 5}], [javelin], faces=[3, 3, 3]
    )
    act(fight, "s", "attack", "d", weapon="javelin", maneuver="attack")
    assert drops(fight, "d") == []
    fight = new_fight(
        [{"template": "horse_archer", "id": "a", "at": [0, 0]}],
        [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"basic_speed": 7}}],
        faces=[3, 3, 3],
    )
    act(fight, "s", "attack", "a", weapon="spear:thrust", maneuver="attack")
    assert drops(fight, "a") == []


def test_E_a_flyer_that_cannot_hover_stalls_on_a_move_and_attack_without_moving():
    """ "You must take a Move or Move and Attack maneuver and move at least 1/4 your top airspeed each turn,
    or you'll stall and start to fall" (B398). The duelist (air Move 12: 3 yards needed) cannot hover and has
    a foe beside her: a Move and Attack that stays in place would stall her, so it is either refused (as the
    tool refuses a stalling Do Nothing) or carries her at least 3 yards."""
    fight = new_fight(
        [
            {
                "template": "winged_duelist",
                "id": "g",
                "at": [0, 0],
                "altitude": 3,
                "stats": {"basic_speed": 7, "flight_limitation": "cannot_hover"},
            }
        ],
        [{"template": "winged_warrior", "id": "w", "at": [1, 0], "altitude": 3}],
        faces=[6, 5, 5],
    )
    decision(fight, "g", "act")
    cmd = Command("g", "attack", "w", {"weapon": "shortsword:swing", "maneuver": "move_and_attack"})
    try:
        R.validate(fight.state, cmd)
    except Exception as refused:
        assert "stall" in str(refused)
        return
    fight.submit(cmd)
    assert (fight.state.combatants["g"].marks.get("moved") or 0) >= 3
