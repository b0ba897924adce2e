"""The mounted-combat rules of rules text 002 (Basic Set pp.B396-397) as tests: its numbers, then its rules
played through real commands in a fight (each of those failed on the code before its fix)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted import RS, fight_of, flyer_data, foot_turn, rolls

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.gurps4 import data, mounted
from fracas.rules.gurps4.defense import defense_options
from fracas.rules.gurps4.dice import DamageDice


def test_couched_lance_text_example_st25_move8_is_2d_plus_3() -> None:
    # "A ST 25 warhorse charging at Move 8 inflicts 2d+3 impaling damage." (002, p.B397)
    w = data.mounts()["text_warhorse"]
    assert (w.st, w.basic_move) == (25, 8)
    assert mounted.couched_lance_dice(w.st, w.basic_move) == DamageDice(2, 3)


def test_couched_lance_rounds_down_and_needs_stirrups() -> None:
    # reference 2: the library's heavy warhorse is ST 24 -> 1.92 -> 1d+3 at Move 8, 2d+3 from Move 9
    assert mounted.couched_lance_dice(24, 8) == DamageDice(1, 3)
    assert mounted.couched_lance_dice(24, 9) == DamageDice(2, 3)
    with pytest.raises(IllegalCommand, match="saddle and stirrups"):
        mounted.couched_lance_dice(25, 8, saddle_and_stirrups=False)


@settings(max_examples=200, derandomize=True)
@given(st.integers(1, 60), st.integers(0, 30))
def test_couched_lance_formula(mount_st: int, yards: int) -> None:
    d = mounted.couched_lance_dice(mount_st, yards)
    assert d.adds == 3 and d.dice * 100 <= mount_st * yards < (d.dice + 1) * 100


def test_jousting_lance_snaps_above_15() -> None:
    assert mounted.jousting_lance(15) == (15, False)
    assert mounted.jousting_lance(16) == (15, True)
    assert mounted.jousting_lance(23) == (15, True)
    assert data.weapons()["jousting_lance"].modes[0].type == "cr"
    assert data.weapons()["lance"].modes[0].type == "imp"


def test_riding_9_gives_minus_3_to_active_defenses() -> None:
    assert mounted.rider_defense_penalty(9).value == -3
    assert mounted.rider_defense_penalty(12) is None and mounted.rider_defense_penalty(15) is None
    assert mounted.rider_defense_penalty(11).value == -1


def test_lower_of_weapon_skill_and_riding() -> None:
    base, mods = mounted.mounted_skill(14, 11)
    assert base + sum(m.value for m in mods) == 11
    assert mounted.mounted_skill(12, 14) == (12, [])


def test_velocity_seven_or_more() -> None:
    assert mounted.velocity_modifiers(6) == ([], [])
    hit, dmg = mounted.velocity_modifiers(7)
    assert hit[0].value == -1 and dmg[0].value == 1


def test_mount_attacks_horseshoes_and_rider_penalty() -> None:
    assert (
        mounted.rider_after_mount_attack(True).value == -2 and mounted.rider_after_mount_attack(False) is None
    )
    assert (
        mounted.horseshoe_bonus("kick", True).value == 1
        and mounted.horseshoe_bonus("trample", True).value == 1
    )
    assert mounted.horseshoe_bonus("bite", True) is None
    with pytest.raises(IllegalCommand, match="war-trained"):
        mounted.mount_can_attack(war_trained=False)


def test_panic() -> None:
    assert mounted.panic_roll_required(foe_sm=0, mount_sm=1)
    assert not mounted.panic_roll_required(foe_sm=1, mount_sm=1)
    r = mounted.panic_roll(10, True, ScriptedDice([6, 5, 4]))
    assert r.effective == 16 and r.success


def test_noisy_weapon_riding_roll() -> None:
    assert mounted.noisy_shot(12, [], ScriptedDice([3, 3, 3]))[1] == "steady"
    assert mounted.noisy_shot(12, [], ScriptedDice([5, 5, 4]))[1] == "spooked"
    assert mounted.noisy_shot(12, [], ScriptedDice([6, 6, 6]))[1] == "lost_control"


def test_aim_and_tricks() -> None:
    assert mounted.aim_turns_that_count(3, mount_moved_yards=1, mount_move=8) == 3
    assert mounted.aim_turns_that_count(3, mount_moved_yards=5, mount_move=8) == 1
    skill, riding = mounted.trick("turn_in_saddle")
    assert (skill.value, riding.value) == (-4, -1)
    skill, riding = mounted.trick("hang_on_far_side")
    assert (skill.value, riding.value) == (-6, -3)
    mounted.hanging_rider_target_allowed("face")
    with pytest.raises(IllegalCommand):
        mounted.hanging_rider_target_allowed("torso")
    assert [mounted.miss_hits_mount_of_hanging_rider(m) for m in (-1, -4, -5, 0)] == [
        True,
        True,
        False,
        False,
    ]


def test_defenses_height_and_results() -> None:
    mounted.mount_defense_allowed("dodge")
    with pytest.raises(IllegalCommand, match="only defense is Dodge"):
        mounted.mount_defense_allowed("parry")
    assert mounted.rider_height_ft(True, False) == 3.0 and mounted.rider_height_ft(False, True) == -3.0
    assert mounted.stunned_rider_roll(12, [], ScriptedDice([3, 3, 3])).effective == 8
    roll, fell = mounted.knockback_unseat(2, True, 14, [], ScriptedDice([2, 2, 2]))
    assert roll.effective == 6 and not fell
    assert mounted.knockback_unseat(1, False, 14, [], ScriptedDice([])) == (None, True)
    assert mounted.miss_by_one_redirect("rider", -1) == "mount"
    assert mounted.miss_by_one_redirect("mount", -1) == "rider"
    assert mounted.miss_by_one_redirect("rider", -2) is None
    assert mounted.mount_hit_spook_roll(12, -3, [], ScriptedDice([3, 3, 3])).effective == 9


def test_loss_of_control_table_only_12_is_known() -> None:
    assert mounted.crippled_mount_falls().effect == "falls"
    assert not mounted.crippled_mount_falls().placeholder
    others = [mounted.loss_of_control_result(r) for r in range(3, 19) if r != 12]
    assert all(o.placeholder and o.effect == "out_of_control" for o in others)
    assert mounted.loss_of_control(ScriptedDice([4, 4, 4])).effect == "falls"


def test_multiple_riders() -> None:
    assert mounted.controller_penalty(True).value == -1
    r = mounted.passenger_stay_on_roll(13, 10, ScriptedDice([3, 3, 1]))
    assert (r.base, r.effective) == (10, 7)
    mounted.passenger_allowed(1, 0)
    with pytest.raises(IllegalCommand):
        mounted.passenger_allowed(0, 0)


def test_riding_modifiers() -> None:
    total = sum(
        m.value for m in mounted.riding_modifiers(war_trained=False, hands_on_reins=1, stirrups=False)
    )
    assert total == -4
    total = sum(m.value for m in mounted.riding_modifiers(has_passenger=True, trick_name="hang_on_far_side"))
    assert total == 1 - 1 - 3


# ----- the same rules played through real commands in a fight ----------------------------------------


def rider_next_to_foot(riding: int = 12, foot_at: tuple[int, int] = (1, 0), **rider: Any) -> Fight:
    """A knight (Broadsword 14, the given Riding) on the text's warhorse, a spearman beside them; the
    knight's turn (Basic Speed 6 acts first)."""
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"},
                 "stats": {"skills": {"Riding": riding}}, "equipment": {"weapons": ["broadsword", "lance"]},
                 **rider},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": list(foot_at)}]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d is not None and d.actor == "knight"
    return f


def test_riding_limits_the_skill_before_the_maneuver_adds_to_it() -> None:
    # 002 p.B397 "A rider uses melee weapons at the lower of his Melee Weapon skill or Riding skill":
    # Broadsword 14, Riding 12 -> skill 12, and All-Out Attack (Determined) +4 makes 16. The engine took the
    # lower of Riding and (14 + 4), so the +4 was lost (effective 12).
    f = rider_next_to_foot(riding=12)
    f.dice = ScriptedDice([6, 6, 4, *[3] * 40])  # 16: a hit at 16, a miss at 12 (by 4: no mount rule)
    events = f.submit(
        Command(
            "knight",
            "attack",
            "foot",
            {"weapon": "broadsword:swing", "maneuver": "all_out_attack_determined"},
        )
    )
    roll = rolls(events, "knight")[0]
    assert roll.dn == 16 and roll.success
    assert [m[0] for m in roll.modifiers][:2] == [-2, 4]


def test_shock_comes_off_the_lower_of_weapon_skill_and_riding() -> None:
    # Broadsword 14, Riding 12, shock -3: 12 - 3 = 9 (the engine gave 11: the -3 vanished under the cap)
    f = rider_next_to_foot(riding=12)
    f.state.combatants["knight"].marks["shock_now"] = -3
    f.dice = ScriptedDice([4, 3, 3, *[3] * 40])  # 10: a miss at 9
    events = f.submit(
        Command("knight", "attack", "foot", {"weapon": "broadsword:swing", "maneuver": "attack"})
    )
    assert rolls(events, "knight")[0].dn == 9


def barded_horse() -> Fight:
    """As :func:`rider_next_to_foot`, the warhorse in full plate barding (DR 5 on the torso)."""
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0],
                 "equipment": {"barding": ["full_plate_barding"]}},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"},
                 "stats": {"skills": {"Riding": 12}}, "equipment": {"weapons": ["broadsword", "lance"]}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": [1, 0]}]},
        ]
    )  # fmt: skip
    f.advance_until_decision()
    return f


def test_a_miss_by_1_at_a_hanging_riders_skull_hits_the_mount_not_his_torso() -> None:
    # 002 p.B397: hanging on the far side, "your foe's only targets are your foot, face, eyes, skull, and one
    # hand. But if he attacks and misses by 4 or less, he hits your mount!" The engine sent a miss by 1 at
    # the skull to the rider's torso first (the hit-location miss-by-1 rule), a target the trick hides.
    f = rider_next_to_foot()
    foot_turn(f)
    f.state.combatants["knight"].marks["trick"] = "hang_on_far_side"
    f.dice = ScriptedDice([1, 2, 3, *[3] * 40])  # Spear 12 - 7 (skull) = 5: rolled 6, a miss by 1
    events = f.submit(Command("foot", "attack", "knight", {"weapon": "spear:thrust", "location": "skull"}))
    assert not any(isinstance(e, ev.Note) and "hits the torso" in e.text for e in events)
    d = f.pending()
    assert d is not None and d.kind == "react" and d.actor == "horse"  # the mount may Dodge (GM's call)


def test_after_a_miss_by_1_goes_to_the_mount_the_second_attack_of_a_double_is_at_the_rider() -> None:
    # 002 p.B397: a miss by 1 at a rider hits the mount unless it defends. All-Out Attack (Double) then
    # makes its second attack at the target chosen (the rider); after the mount's defense the engine turned
    # it on the mount instead.
    f = rider_next_to_foot()
    foot_turn(f)
    f.dice = ScriptedDice([4, 4, 5, *[3] * 60])  # Spear 12: rolled 13, a miss by 1
    args = {"weapon": "spear:thrust", "maneuver": "all_out_attack_double"}
    f.submit(Command("foot", "attack", "knight", args))
    d = f.pending()
    assert d is not None and d.kind == "react" and d.actor == "horse"
    events = f.submit(Command("horse", "defend", None, {"defense": "none"}))
    second = [e for e in rolls(events, "foot") if e.test.startswith("spear")]
    assert second and second[0].target == "knight"


def test_a_hit_on_the_mount_that_its_barding_stops_still_calls_for_the_riders_roll() -> None:
    # 002 p.B397 "If the mount is hit, the rider must roll vs. Riding, minus the shock penalty suffered by the
    # mount, to keep it from spooking." A hit that DR stops is a hit with no shock: the roll is at Riding
    # (+1 stirrups). The engine rolled only when the hit did injury.
    f = barded_horse()
    foot_turn(f)
    f.dice = ScriptedDice([3, 3, 3, 1, 4, 4, 4, *[3] * 40])  # hit on 9; damage 1d+1 rolls 1: 2 vs DR 5
    f.submit(Command("foot", "attack", "horse", {"weapon": "spear:thrust", "maneuver": "attack"}))
    events = f.submit(Command("horse", "defend", None, {"defense": "none"}))
    assert not any(isinstance(e, ev.Damaged) for e in events)
    spook = [e for e in rolls(events, "knight") if "spooking" in e.test]
    assert len(spook) == 1 and spook[0].dn == 12 + 1 and spook[0].success


def test_a_passenger_stays_on_by_the_controlling_riders_default_riding_when_he_has_no_skill() -> None:
    # 002 p.B397 "The passenger uses the lower of the controlling rider's skill or his own ST on any roll to
    # avoid falling off, but do so at -3." A controller without Riding rides at its default DX-5 (B217): DX
    # 11 -> 6. The engine took the passenger's own DX-5 (DX 14 -> 9) instead.
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
                {"template": "spearman", "id": "driver", "options": {"mount": "horse"}},
                {"template": "knight", "id": "pillion", "options": {"mount": "horse"}, "stats": {"dx": 14}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": [3, 0]}]},
        ]
    )  # fmt: skip
    from fracas.rules.gurps4.riding import riding_base

    assert f.state.combatants["horse"].marks["passenger"] == "pillion"
    base, mods = riding_base(f.state, f.state.combatants["pillion"])
    assert base == 11 - 5 and [m.value for m in mods] == [-3]


def horse_turn(f: Fight) -> None:
    while (d := f.advance_until_decision()) is not None and d.actor != "horse":
        f.submit(Command(d.actor, "do_nothing"))


def test_a_horse_tramples_a_man_only_when_he_is_down_and_he_may_only_dodge() -> None:
    # 002 p.B396 "A horse can bite, kick with hooves, or trample ... see Chapter 16 for details"; the details
    # (reference 1.9, B404): trampling needs a foe 2+ SM smaller, or 1+ if he is lying down, and the victim
    # may only Dodge. The engine let a horse (SM +1) trample a standing man (SM 0), who could parry or block.
    f = rider_next_to_foot()
    horse_turn(f)
    trample = Command("horse", "attack", "foot", {"weapon": "trample", "maneuver": "attack"})
    try:
        RS.validate(f.state, trample)
        raise AssertionError("a standing man was trampled")
    except IllegalCommand as e:
        assert "trample" in e.rule
    RS.validate(f.state, Command("horse", "attack", "foot", {"weapon": "kick", "maneuver": "attack"}))
    f.state.combatants["foot"].marks["posture"] = "lying"
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])  # Brawling 12: a hit on 10
    f.submit(trample)
    d = f.pending()
    assert d is not None and d.kind == "react" and d.actor == "foot"
    assert {c.args["defense"] for c, _ in defense_options(f.state)} == {"none", "dodge"}


def test_iron_horseshoes_add_one_to_a_kick_in_play() -> None:
    # 002 p.B396 "iron horseshoes give +1 to kicking or trampling damage"
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0],
                 "equipment": {"iron_horseshoes": True}},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": [1, 0]}]},
        ]
    )  # fmt: skip
    horse_turn(f)
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])
    f.submit(Command("horse", "attack", "foot", {"weapon": "kick", "maneuver": "attack"}))
    events = f.submit(Command("foot", "defend", None, {"defense": "none"}))
    dmg = [e for e in events if isinstance(e, ev.Rolled) and e.test.startswith("damage")][0]
    assert [m[0] for m in dmg.modifiers] == [1] and "horseshoes" in dmg.modifiers[0][1]


def test_the_riders_attack_is_at_minus_2_after_his_mount_attacked_on_its_last_turn_in_play() -> None:
    # 002 p.B396 "The rider's attack is at an extra -2 if the mount attacked on its last turn."
    f = rider_next_to_foot(riding=14)
    f.state.combatants["horse"].marks["attacked_last_turn"] = True
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])
    events = f.submit(
        Command("knight", "attack", "foot", {"weapon": "broadsword:swing", "maneuver": "attack"})
    )
    roll = rolls(events, "knight")[0]
    assert roll.dn == 14 - 2 and [m[0] for m in roll.modifiers] == [-2]


def archer_on_horse(weapon: str = "composite_bow", skill: dict[str, int] | None = None) -> Fight:
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "cavalry_horse", "id": "h", "at": [0, 0]},
                {"template": "horse_archer", "id": "r", "options": {"mount": "h"},
                 "equipment": {"weapons": [weapon]}, "stats": {"skills": skill or {}}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [10, 0]}]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d is not None and d.actor == "r"
    return f


def test_aiming_from_a_mount_that_moved_more_than_a_step_gives_no_extra_aim_turns_in_play() -> None:
    # 002 p.B397: if the mount moves more than a step, no benefit from extra turns of Aim (Acc still counts)
    f = archer_on_horse()
    f.state.combatants["r"].marks["aim"] = ("s", "composite_bow", 3)
    f.state.combatants["h"].marks["moved_last_turn"] = 1  # a step (Move 8: 1 yd)
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])
    still = rolls(f.submit(Command("r", "attack", "s", {"weapon": "composite_bow"})), "r")[0]
    assert [m[0] for m in still.modifiers if "Aim" in m[1]] == [3, 2]  # Acc 3, +2 after 3 turns
    f = archer_on_horse()
    f.state.combatants["r"].marks["aim"] = ("s", "composite_bow", 3)
    f.state.combatants["h"].marks["moved_last_turn"] = 5
    f.dice = ScriptedDice([3, 3, 4, *[3] * 40])
    moving = rolls(f.submit(Command("r", "attack", "s", {"weapon": "composite_bow"})), "r")[0]
    assert [m[0] for m in moving.modifiers if "Aim" in m[1]] == [3]


def test_turning_in_the_saddle_is_minus_4_to_the_shot_and_minus_1_to_that_turns_riding_roll() -> None:
    # 002 p.B397 "To turn in the saddle and fire at the foe behind you: -4 to weapon skill, and -1 to any
    # Riding roll made that turn." A noisy weapon calls for the Riding roll after the shot.
    f = archer_on_horse("matchlock_musket", {"Guns (Musket)": 13})
    f.dice = ScriptedDice([3, 3, 4, 3, 3, 3, *[3] * 40])
    events = f.submit(Command("r", "attack", "s", {"weapon": "matchlock_musket", "trick": "turn_in_saddle"}))
    shot, riding = rolls(events, "r")[:2]
    assert -4 in [m[0] for m in shot.modifiers]
    assert riding.test.startswith("Riding") and riding.dn == 13 + 1 - 1  # Riding 13, stirrups +1, trick -1


def mace_on_rider(saddle: str) -> list[ev.Event]:
    """The spearman hits the knight with a mace for 10 crushing (1d+4 rolls 6): 1 yd of knockback."""
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"},
                 "equipment": {"saddle": saddle}},
            ]},
            {"name": "B", "combatants": [
                {"template": "spearman", "id": "foot", "at": [1, 0],
                 "equipment": {"weapons": ["mace"]}, "stats": {"skills": {"Axe/Mace": 14}}},
            ]},
        ]
    )  # fmt: skip
    f.advance_until_decision()
    foot_turn(f)
    f.dice = ScriptedDice([3, 3, 3, 6, *[3] * 40])
    f.submit(Command("foot", "attack", "knight", {"weapon": "mace", "maneuver": "attack"}))
    return f.submit(Command("knight", "defend", None, {"defense": "none"}))


def test_knockback_unhorses_a_rider_without_stirrups_and_costs_riding_4_a_yard_with_them() -> None:
    # 002 p.B397 "A rider who suffers any knockback is automatically knocked off unless he has a saddle and
    # stirrups, in which case he gets a Riding roll at -4 per yard of knockback to stay on."
    events = mace_on_rider("war_saddle")
    stay = [e for e in rolls(events, "knight") if "knockback" in e.test]
    # Riding 13, -4 for 1 yd, +1 war saddle (B289: +1 to stay seated)
    assert len(stay) == 1 and stay[0].dn == 13 - 4 + 1 and stay[0].success
    events = mace_on_rider("saddle")
    assert not [e for e in rolls(events, "knight") if "knockback" in e.test]
    assert any(
        isinstance(e, ev.Marked) and e.target == "knight" and e.key == "mount" and e.value is None
        for e in events
    )


def test_a_mounted_feint_is_at_the_lower_of_skill_and_riding_and_shock_counts() -> None:
    # 002 p.B397: a rider uses melee weapons at the lower of weapon skill and Riding; shock (B419, reference
    # 1.6) is off DX-based skills on the next turn. The engine rolled a feint at the bare weapon skill (14).
    f = rider_next_to_foot(riding=12)
    f.state.combatants["knight"].marks["shock_now"] = -2
    f.dice = ScriptedDice([3, 3, 3, *[3] * 40])
    events = f.submit(Command("knight", "feint", "foot", {"weapon": "broadsword:swing"}))
    assert rolls(events, "knight")[0].dn == 12 - 2


def test_a_lancers_mount_chased_by_a_swordsman_keeps_the_lances_reach() -> None:
    # Couched lance (B397, text): damage comes from the mount's movement, the lance strikes at reach 4.
    # A foe with no lance who closes in is not outrun (same Move): the mount circles at 4 yards instead.
    from fracas.engine.commands import Decision
    from fracas.engine.hexgrid import distance

    data = {
        "version": 1,
        "ruleset": "gurps4",
        "name": "chase",
        "sides": [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "h1", "at": [0, 0]},
                {"template": "jousting_knight", "id": "k1", "options": {"mount": "h1"}},
            ]},
            {"name": "B", "combatants": [
                {"template": "text_warhorse", "id": "h2", "at": [1, 0]},
                {"template": "jousting_knight", "id": "k2", "options": {"mount": "h2"},
                 "equipment": {"weapons": ["broadsword"]}},
            ]},
        ],
    }  # fmt: skip
    _, state = encounter.load_data(data, "<test>")
    cmd = RS.tactics()["default"].choose(state, Decision("h1", "act", ""), RS)
    assert cmd.action == "move"
    assert distance(tuple(cmd.args["to"]), (1, 0)) == 4


def test_a_rider_on_an_unknown_mount_is_told_which_mounts_there_are() -> None:
    data = flyer_data(0)
    data["sides"][1]["combatants"].append({"template": "knight", "id": "k", "options": {"mount": "nag"}})
    with pytest.raises(EncounterFileError, match=r"'nag' is not a mount in this encounter \(mounts: none"):
        encounter.load_data(data, "<test>")
