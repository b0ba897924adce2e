"""ED4 core rules one by one (000_4b24aca42c3b6366.txt p.371-384), with scripted dice."""

from __future__ import annotations

import pytest
from ed4_helpers import ATTRIBUTES_12, RULESET, build, pair

from fight_helpers import auto, cmd, fight, rolled
from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.earthdawn.combat import Scratch, damage_events, initiative_order_key, strain_events
from fracas.rules.ed4.ruleset import ED4

BLOCK = {**ATTRIBUTES_12, "attacks": [{"name": "Sword", "step": 10, "damage": 10}]}


def test_initiative_ties_player_characters_first_then_step_p371() -> None:
    assert sorted(
        [
            initiative_order_key(8, False, False, 9, 0, "npc"),
            initiative_order_key(8, False, True, 5, 0, "pc"),
            initiative_order_key(8, False, True, 7, 0, "pc2"),
            initiative_order_key(9, False, False, 1, 0, "fast"),
            initiative_order_key(1, True, True, 1, 0, "forced"),
            initiative_order_key(1, False, False, 1, 0, "slow"),
        ]
    ) == [
        initiative_order_key(9, False, False, 1, 0, "fast"),
        initiative_order_key(8, False, True, 7, 0, "pc2"),
        initiative_order_key(8, False, True, 5, 0, "pc"),
        initiative_order_key(8, False, False, 9, 0, "npc"),
        initiative_order_key(1, False, False, 1, 0, "slow"),
        initiative_order_key(1, True, True, 1, 0, "forced"),
    ]


def test_tie_on_the_table_goes_to_the_player_character_p371() -> None:
    state = pair({"stats": BLOCK, "player": True, "tactic": "hold"}, {"stats": BLOCK, "tactic": "hold"})
    f = fight(state, [4, 4])  # both step 5 (d8): 4 and 4
    f.advance_until_decision()
    assert state.order == ["a", "b"]
    state2 = pair({"stats": BLOCK, "tactic": "hold"}, {"stats": BLOCK, "player": True, "tactic": "hold"})
    f2 = fight(state2, [4, 4])
    f2.advance_until_decision()
    assert state2.order == ["b", "a"]


def test_initiative_forced_below_step_1_acts_last_at_1_p371() -> None:
    state = pair({"stats": {**BLOCK, "initiative": 2}, "tactic": "hold"}, {"stats": BLOCK, "tactic": "hold"})
    state.combatants["a"].counters["wounds"] = 3  # step 2 - 3 Wounds = -1: involuntarily below 1
    f = fight(state, [1])  # only b rolls (d8: 1)
    f.advance_until_decision()
    a = [e for e in f.log if isinstance(e, ev.InitiativeRolled) and e.actor == "a"][0]
    assert (a.value, a.roll, a.rule) == (1, None, "ed4/initiative/below-step-1 p.371")
    assert state.order == ["b", "a"]


def test_group_initiative_for_identical_creatures_p372() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "mica", "player": True, "at": [0, 0], "tactic": "hold"}],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "count": 4, "tactic": "hold", "at": [5, 0]}]},
        ]
    )
    f = fight(state, [5, 6])  # Mica d12: 5; one d12 for the four ghouls: 6
    f.advance_until_decision()
    assert {state.initiative[f"ghoul-{i}"] for i in range(1, 5)} == {6}
    off = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "mica", "player": True, "at": [0, 0], "tactic": "hold"}],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "count": 2, "tactic": "hold", "at": [5, 0]}]},
        ],
        {"group-initiative": False},
    )
    g = fight(off, [5, 6, 7])
    g.advance_until_decision()
    assert (off.initiative["ghoul-1"], off.initiative["ghoul-2"]) == (6, 7)


def test_take_the_initiative_uses_the_step_for_gamemaster_characters_p372() -> None:
    state = pair(
        {"stats": BLOCK, "player": True, "tactic": "hold"},
        {"stats": {**BLOCK, "initiative": 9}, "tactic": "hold"},
        {"take-the-initiative": True},
    )
    f = fight(state, [3])  # only the player character rolls
    f.advance_until_decision()
    assert state.initiative == {"a": 3, "b": 9}


def test_wound_penalties_apply_to_tests_and_can_be_switched_off_p381() -> None:
    for on in (True, False):
        state = pair(
            {"stats": BLOCK, "player": True}, {"stats": BLOCK, "tactic": "hold"}, {"wound-penalties": on}
        )
        state.combatants["a"].counters["wounds"] = 2
        f = fight(state, [3, 1])  # Initiative: a d4 (step 5 - 2 Wounds) or d8: 3; b d8: 1
        auto(f, "a")
        f.dice = ScriptedDice([5, 4, 4, 4, 3, 3, 3])
        events = f.submit(cmd("a", "attack", "b", attack="Sword"))
        att = rolled(events, "Attack")[0]
        if on:
            assert att.step == 8 and (-2, "2 Wounds", "ed4/wounds/penalties p.381") in att.modifiers
        else:
            assert att.step == 10 and att.modifiers == ()


def _scratch(block=BLOCK, **counters):
    state = pair({"stats": block, "player": True}, {"stats": BLOCK})
    state.combatants["a"].counters.update(counters)
    return state, Scratch(state)


def test_armor_wounds_unconsciousness_and_death_by_the_ratings_p379_380() -> None:
    state, sc = _scratch()
    p = state.combatants["a"].stats  # TOU 12: WT 8, Unconsciousness 24, Death 29
    assert (p.wound_threshold, p.unconsciousness, p.death) == (8, 24, 29)
    damage_events(sc, ED4, ScriptedDice([6]), "a", 10, 3, "b", round_no=1)  # 7 < WT: no Wound
    assert sc.get("a").counters == {"damage": 7, "wounds": 0}
    damage_events(sc, ED4, ScriptedDice([6, 6, 6]), "a", 20, 3, "b", round_no=1)  # 17: Wound, now 24
    assert sc.get("a").counters["wounds"] == 1 and sc.get("a").status == "unconscious"
    assert "knocked-down" in sc.get("a").conditions
    damage_events(sc, ED4, ScriptedDice([]), "a", 8, 3, "b", round_no=1)  # 29: dead
    assert sc.get("a").status == "dead"


def test_stun_damage_no_wound_but_harried_never_kills_p383() -> None:
    state, sc = _scratch(damage=20)
    damage_events(sc, ED4, ScriptedDice([6, 6]), "a", 9, 0, "b", stun=True, round_no=2)
    a = sc.get("a")
    assert a.counters["stun"] == 9 and a.counters["wounds"] == 0
    assert a.conditions["harried"].until_round == 2
    assert a.status == "unconscious"  # 20 + 9 >= 24, below Death 29 anyway
    damage_events(sc, ED4, ScriptedDice([]), "a", 30, 0, "b", stun=True, round_no=2)
    assert sc.get("a").status == "unconscious"  # Stun damage cannot kill


def test_unconsciousness_na_is_immune_to_stun_p383() -> None:
    state, sc = _scratch({**BLOCK, "unconsciousness": "NA"})
    damage_events(sc, ED4, ScriptedDice([]), "a", 15, 0, "b", stun=True, round_no=1)
    assert sc.get("a").counters.get("stun", 0) == 0
    assert isinstance(sc.events[0], ev.Note)


def test_strain_is_damage_without_armor_or_wounds() -> None:
    state, sc = _scratch(damage=23)
    strain_events(sc, ED4, "a", 2, "Aggressive Attack", "ed4/option/aggressive-attack p.382")
    d = sc.events[0]
    assert isinstance(d, ev.Damaged) and (d.amount, d.armor, d.damage_type) == (2, 0, "strain")
    assert sc.get("a").counters["wounds"] == 0 and sc.get("a").status == "unconscious"


def test_strain_that_knocks_out_leaves_him_knocked_down_and_starts_the_minute_p380() -> None:
    """p.380: unconscious characters "are considered both Blindsided and Knocked Down" and "may make a
    Recovery test one minute after" falling. Strain (Aggressive Attack, Jump Up, Splitting Movement) that
    knocked a character out left him standing (-2 Blindsided only, not -3 more) and with no time of falling
    (so no Recovery test a minute later)."""
    state, sc = _scratch(damage=23)
    state.round = 4
    strain_events(sc, ED4, "a", 2, "Aggressive Attack", "ed4/option/aggressive-attack p.382")
    a = sc.get("a")
    assert a.status == "unconscious" and "knocked-down" in a.conditions
    assert a.marks["unconscious_since"] == 4


def test_stun_recovery_adds_willpower_to_the_first_test_after_stun_damage_p383() -> None:
    """p.383: "The character adds his Willpower Step as a bonus to the first Recovery test he makes after
    taking Stun damage. This bonus applies only to that test and the result can only be used to recover
    Stun damage." New Stun damage after that makes the next test the first after Stun damage again (the
    bonus was spent once for the whole fight)."""
    from fracas.rules.earthdawn.combat import recovery_events

    state, sc = _scratch(damage=5)
    p = state.combatants["a"].stats
    damage_events(sc, ED4, ScriptedDice([1, 1]), "a", 6, 0, "b", stun=True, round_no=1)  # below WT 8
    first = recovery_events(sc, ED4, RandomDice(1), "a", "test")
    assert first is not None and first.step == p.recovery_step + p.wil_step
    assert (p.wil_step, "Willpower step (Stun damage)", "ed4/damage/stun p.383") in [
        (m.value, m.why, m.rule) for m in first.modifiers
    ]
    a = sc.get("a")
    assert a.counters["stun"] == 0 and a.counters["damage"] == 5  # the result heals Stun damage only
    damage_events(sc, ED4, ScriptedDice([1, 1]), "a", 3, 0, "b", stun=True, round_no=2)
    again = recovery_events(sc, ED4, RandomDice(2), "a", "test")
    assert again is not None and again.step == p.recovery_step + p.wil_step


def test_attacks_against_mystic_and_social_defense_and_mystic_armor_p377_379() -> None:
    caster = {
        **BLOCK,
        "attacks": [
            {
                "name": "Bolt",
                "kind": "spell",
                "step": 10,
                "damage": 10,
                "against": "mystic",
                "armor": "mystic",
                "range": [20, 40],
            },
            {
                "name": "Taunt",
                "kind": "spell",
                "step": 10,
                "damage": 4,
                "against": "social",
                "armor": "none",
                "range": [20, 40],
            },
        ],
    }
    target = {**BLOCK, "mystic_defense": 11, "social_defense": 5, "mystic_armor": 4, "physical_armor": 9}
    state = pair({"stats": caster, "player": True}, {"stats": target, "tactic": "hold"})
    f = fight(state, [6, 1])
    auto(f, "a")
    f.dice = ScriptedDice([8, 5, 6, 3])  # Bolt 2d8 (step 10): 8+5 bonus... see below
    f.dice = ScriptedDice([7, 5, 6, 3])  # step 10 = 2d8: 7+5 = 12 vs MD 11; damage 2d8: 6+3 = 9 - MA 4
    events = f.submit(cmd("a", "attack", "b", attack="Bolt"))
    att = rolled(events, "Attack")[0]
    assert (att.dn, att.against, att.success) == (11, "Mystic Defense", True)
    dmg = [e for e in events if isinstance(e, ev.Damaged)][0]
    assert (dmg.raw, dmg.armor, dmg.amount) == (9, 4, 5)


def test_one_standard_action_and_movement_limits_p373() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"id": "a", "at": [0, 0], "stats": {**BLOCK, "movement": 6}, "player": True}],
            },
            {"name": "B", "combatants": [{"id": "b", "at": [8, 0], "stats": BLOCK, "tactic": "hold"}]},
        ]
    )
    f = fight(state, [6, 1])
    auto(f, "a")
    with pytest.raises(IllegalCommand, match=r"can move 3 hexes.*movement p.373"):
        f.submit(cmd("a", "move", path=[[1, 0], [2, 0], [3, 0], [4, 0]]))
    f.submit(cmd("a", "move", path=[[1, 0], [2, 0]]))  # a Simple move; the turn goes on
    with pytest.raises(IllegalCommand, match="can move 4 hexes"):  # double movement: 6 hexes in all
        f.submit(cmd("a", "run", path=[[3, 0], [4, 0], [5, 0], [6, 0], [7, 0]]))
    events = f.submit(cmd("a", "run", path=[[3, 0], [4, 0], [5, 0], [6, 0]]))
    assert isinstance(events[-1], ev.TurnEnded) and state.combatants["a"].pos == (6, 0)


def test_attack_then_move_away_p373() -> None:
    # "Movement may be done before or after your character's Simple and Standard actions" (p.373): moving only
    # after the attack needs no option (Splitting Movement, p.386, is for moving before *and* after). The core
    # alone, without the p.382-398 features.
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    state = pair({"stats": BLOCK, "player": True}, {"stats": BLOCK, "tactic": "hold"})
    f = Fight(Ed4CoreRuleset(), state, ScriptedDice([6, 1]))
    auto(f, "a")
    f.dice = ScriptedDice([1, 2])  # a miss
    f.submit(cmd("a", "attack", "b", attack="Sword", after=[[-1, 0], [-2, 0]]))
    assert state.combatants["a"].pos == (-2, 0)


def test_declarations_hold_combat_options_and_refuse_unknown_ones_p371() -> None:
    # A combatant whose controller is not an ED4 tactic (a person) is asked to declare.
    built = pair({"stats": BLOCK, "player": True}, {"stats": BLOCK, "tactic": "hold"})
    before = RULESET.tactics().get("person")  # the chapter tests' own person, if loaded: put it back
    RULESET.tactics()["person"] = _Person()
    try:
        built.combatants["a"].tactic = "person"
        f = fight(built, [6, 1])
        d = f.advance_until_decision()
        assert (d.actor, d.kind) == ("a", "declare")
        with pytest.raises(IllegalCommand, match="unknown combat option 'flying-kick'"):
            f.submit(Command("a", "declare", args={"action": "attack", "options": ["flying-kick"]}))
        f.submit(Command("a", "declare", args={"action": "attack", "options": []}))
        assert built.declarations["a"]["action"] == "attack"
    finally:
        if before is None:
            del RULESET.tactics()["person"]
        else:
            RULESET.tactics()["person"] = before


class _Person:
    declares = True

    def choose(self, state, decision, ruleset):  # pragma: no cover - never asked in the test
        raise AssertionError


def test_sustained_action_over_rounds_p373() -> None:
    state = pair({"stats": BLOCK, "player": True}, {"stats": BLOCK, "tactic": "hold"}, max_rounds=5)
    f = Fight(RULESET, state, RandomDice(1))
    for _ in range(2):
        auto(f, "a")
        events = f.submit(cmd("a", "sustain", task="finding the key", rounds=2))
    assert any(isinstance(e, ev.Note) and "completes finding the key" in e.text for e in events)


def test_guard_reserves_and_strikes_the_attacker() -> None:
    state = build(
        [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "at": [0, 0], "tactic": "guard"},
                    {"template": "tomas", "player": True, "at": [1, 0], "tactic": "hold"},
                ],
            },
            {"name": "Dead", "combatants": [{"template": "cadaver-man", "at": [4, -1]}]},
        ],
        max_rounds=3,
    )
    f = Fight(RULESET, state, RandomDice(5))
    f.run()
    reacted = [e for e in f.log if isinstance(e, ev.Rolled) and e.actor == "herekar"]
    assert reacted and any(
        (2, "DN: reserved action", "ed4/actions/reserved p.375") in e.modifiers for e in reacted
    )


def test_revive_an_unconscious_friend_p380() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0]},
                    {"template": "tomas", "player": True, "at": [1, 0], "tactic": "hold"},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [9, 0], "tactic": "hold"}]},
        ]
    )
    tomas = state.combatants["tomas"]
    tomas.counters["damage"] = 23  # Unconsciousness Rating 22
    tomas.status = "unconscious"
    f = fight(state, [9, 1, 1])  # Mica d12: 9; Tomas is out; ghoul d12: 1
    auto(f, "mica")
    f.dice = ScriptedDice([5, 6])  # Tomas' Recovery step 5 (d8): 5; ... (the 6 is spare)
    events = f.submit(f.auto_command(f.pending()))
    assert rolled(events, "Recovery") and state.combatants["tomas"].status == "active"
    assert state.combatants["tomas"].counters["damage"] == 18


def test_a_mount_cannot_revive_only_another_character_can_p380() -> None:
    """p.380: "Another character can use a Standard action to try and revive him" - a war horse is no
    Namegiver character: the command is refused with the rule and the tactic does not try it."""
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0]},
                    {"template": "tomas", "player": True, "at": [1, 0], "tactic": "hold"},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [9, 0], "tactic": "hold"}]},
        ]
    )
    tomas = state.combatants["tomas"]
    tomas.counters["damage"] = 23
    tomas.status = "unconscious"
    f = Fight(RULESET, state, RandomDice(1))
    auto(f, "horse")
    with pytest.raises(IllegalCommand) as err:
        f.submit(Command("horse", "revive", "tomas"))
    assert err.value.rule == "ed4/recovery/unconscious p.380"
    assert f.auto_command(f.pending()).action != "revive"


def test_encounter_errors_name_file_field_found_and_allowed() -> None:
    bad = {
        "version": 1,
        "ruleset": "ed4",
        "sides": [
            {"name": "A", "combatants": [{"template": "nobody"}]},
            {
                "name": "B",
                "combatants": [
                    {"stats": {**BLOCK, "dexterity": 99}},
                    {"template": "ghoul", "tactic": "berserk"},
                ],
            },
        ],
    }
    with pytest.raises(EncounterFileError) as exc:
        encounter.load_data(bad, "bad.yaml")
    text = str(exc.value)
    assert "bad.yaml: sides.0.combatants.0.template: unknown template 'nobody'" in text
    assert "sides.1.combatants.0.stats.dexterity" in text and "99" in text
    assert "sides.1.combatants.1.tactic: unknown tactic 'berserk'; allowed: default, guard, hold" in text


def test_default_tactic_spends_karma_only_when_it_pays_p378() -> None:
    from fracas.rules.ed4.tactics import KARMA_GAIN, TACTICS, p_hit

    hard = {**BLOCK, "karma": 3, "attacks": [{"name": "Sword", "step": 8, "damage": 10, "karma": True}]}
    for pd, expect in ((12, True), (2, False)):
        state = pair(
            {"stats": hard, "player": True}, {"stats": {**BLOCK, "physical_defense": pd}, "tactic": "hold"}
        )
        f = fight(state, [6, 1])
        auto(f, "a")
        chosen = TACTICS["default"].choose(state, f.pending(), RULESET)
        gain = p_hit(8, pd, 4) - p_hit(8, pd)
        assert (gain >= KARMA_GAIN) is expect
        assert bool(chosen.args.get("karma")) is expect
    f.dice = ScriptedDice([1, 1, 1, 1, 1, 1])  # step 8 (2d6) + Karma d6, all ones: the Rule of One
    events = f.submit(cmd("a", "attack", "b", attack="Sword", karma=True))
    karma = [e for e in events if isinstance(e, ev.CounterChanged) and e.counter == "karma"]
    assert karma and karma[0].delta == -1 and state.combatants["a"].counters["karma"] == 2
    att = rolled(events, "Attack")[0]
    assert len(att.roll["dice"]) == 3 and att.outcome == "Rule of One: failure"


def test_unconscious_character_tests_recovery_after_one_minute_p380() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"id": "a", "at": [0, 0], "stats": BLOCK, "player": True, "tactic": "hold"},
                    {"id": "a2", "at": [0, 1], "stats": BLOCK, "player": True, "tactic": "hold"},
                ],
            },
            {"name": "B", "combatants": [{"id": "b", "at": [5, 0], "stats": BLOCK, "tactic": "hold"}]},
        ],
        max_rounds=12,
    )
    a = state.combatants["a"]
    a.counters["damage"] = 25  # Unconsciousness 24
    a.status = "unconscious"
    a.marks["unconscious_since"] = 0
    f = Fight(RULESET, state, RandomDice(4))
    f.run()
    rnd = 0
    seen = []
    for e in f.log:
        if isinstance(e, ev.RoundStarted):
            rnd = e.round
        elif isinstance(e, ev.Rolled) and e.test == "Recovery":
            seen.append(rnd)
    assert seen == [10]  # ten rounds of six seconds after falling; only once (then an hour)


def test_a_failed_revival_means_another_hour_no_second_revival_nor_minute_test_p380() -> None:
    """p.380: "Another character can use a Standard action to try and revive him, allowing the unconscious
    character to make the test immediately. If the unconscious character does not recover enough Damage
    points to regain consciousness, he must wait another hour before he can make another Recovery test."
    The engine let a friend revive him again each round (one Recovery test each) and still gave him the
    one-minute test after a failed revival."""
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0]},
                    {"template": "tomas", "player": True, "at": [1, 0], "tactic": "hold"},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [9, 0], "tactic": "hold"}]},
        ],
        max_rounds=12,
    )
    tomas = state.combatants["tomas"]
    tomas.counters["damage"] = 40  # Unconsciousness Rating 22
    tomas.status = "unconscious"
    tomas.marks["unconscious_since"] = 0
    f = fight(state, [9, 1, 1])
    auto(f, "mica")
    f.dice = ScriptedDice([1, 1])  # Recovery step 5 (d8): 1 -> 1 point healed, still unconscious
    f.submit(cmd("mica", "revive", "tomas"))
    assert tomas.status == "unconscious" and tomas.counters["recovery_used"] == 1
    f.dice = RandomDice(3)
    auto(f, "mica")
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("mica", "revive", "tomas"))
    assert err.value.rule == "ed4/recovery/unconscious p.380"
    assert f.auto_command(f.pending()).action != "revive"
    f.run()
    assert len(rolled(f.log, "Recovery")) == 1  # no one-minute test in round 10 either
    assert tomas.counters["recovery_used"] == 1


def test_a_failed_one_minute_recovery_test_means_no_revival_in_the_fight_p380() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "mica", "player": True, "at": [0, 0], "tactic": "hold"},
                    {"template": "tomas", "player": True, "at": [1, 0], "tactic": "hold"},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [9, 0], "tactic": "hold"}]},
        ],
        max_rounds=12,
    )
    tomas = state.combatants["tomas"]
    tomas.counters["damage"] = 40
    tomas.status = "unconscious"
    tomas.marks["unconscious_since"] = -9  # the minute is up at the start of round 1
    f = fight(state, [1, 1, 9, 1])  # Tomas' Recovery test: 1, then Initiative
    auto(f, "mica")
    assert rolled(f.log, "Recovery")[0].total == 1 and tomas.status == "unconscious"
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("mica", "revive", "tomas"))
    assert "another hour" in str(err.value)


def test_reserved_action_on_any_action_interrupts_the_enemys_move_p375() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": BLOCK, "player": True}]},
            {"name": "B", "combatants": [{"id": "b", "at": [2, 0], "stats": BLOCK}]},
        ]
    )
    f = fight(state, [6, 1])
    auto(f, "a")
    f.submit(cmd("a", "reserve", trigger={"on": "action"}))
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("b", "act")
    out = f.submit(cmd("b", "move", path=[[1, 1]]))
    assert any(isinstance(e, ev.Note) and "interrupts" in e.text for e in out)
    assert not any(isinstance(e, ev.Moved) for e in out)
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("a", "react")
    f.submit(cmd("a", "pass"))
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("b", "act")  # after a pass the same action is not interrupted again
    out = f.submit(cmd("b", "move", path=[[1, 1]]))
    assert any(isinstance(e, ev.Moved) for e in out)


def test_stun_damage_cannot_kill_even_with_lethal_damage_on_top_p383() -> None:
    state, sc = _scratch(stun=20)  # Death Rating 29
    damage_events(sc, ED4, ScriptedDice([]), "a", 10, 0, "b", round_no=1)  # 20 Stun + 10 = 30 >= 29
    assert sc.get("a").status == "unconscious"


def test_chapter_rule_list_rows_p386_p392_p395_p398() -> None:
    """The rules list says what is done and what is the gamemaster's call (p.386 footnote, p.392 grappled
    actions, p.395 unfamiliar mount in any combat, p.398 flier taking to the air again and Long Falls)."""
    rows = {r.id: r for r in RULESET.rules()}
    for rid, page in [
        ("ed4/combat/grappled-other-actions", "p.392"),
        ("ed4/aerial/take-to-the-air-again", "p.398"),
        ("ed4/situation/social-defense", "p.386"),
        ("ed4/mounted/unfamiliar-mount-failure", "p.395"),
    ]:
        assert rows[rid].status == "gm-call" and rows[rid].page == page and rows[rid].note
    assert "cut from the text" not in rows["ed4/aerial/long-falls"].note
    assert "Recovery test" in rows["ed4/aerial/long-falls"].note
    assert "issue" not in rows["ed4/damage/stun"].note


def test_one_who_fled_has_left_the_fight_and_is_nobodys_target_p373() -> None:
    """A character who ran away and escaped (a doubled move, p.373; status fled) has left the battlefield:
    the engine refused only the dead as targets, so a fled ghoul could still be attacked."""
    state = build(
        [
            {"name": "A", "combatants": [{"template": "mica", "player": True, "at": [0, 0]}]},
            {
                "name": "B",
                "combatants": [
                    {"template": "ghoul", "id": "ghoul", "at": [1, 0]},
                    {"template": "ghoul", "id": "other", "at": [9, 0], "tactic": "hold"},
                ],
            },
        ]
    )
    state.combatants["ghoul"].status = "fled"
    f = fight(state, [9, 1])
    auto(f, "mica")
    with pytest.raises(IllegalCommand, match="left the fight") as err:
        f.submit(cmd("mica", "attack", "ghoul", attack="Broadsword"))
    assert err.value.rule == "ed4/actions/movement-double p.373"


def test_the_rules_list_rows_of_gm_calls_and_notes_p382_p392() -> None:
    rows = {r.id: r for r in RULESET.rules()}
    assert rows["ed4/combat/long-reach"].status == "gm-call" and rows["ed4/combat/long-reach"].page == "p.391"
    assert "must beat" in rows["ed4/combat/grappled-other-actions"].note
    assert rows["ed4/option/not-while-knocked-down"].note
    assert rows["ed4/situation/surprised-later"].status == "gm-call"
    assert rows["ed4/situation/surprised-later"].page == "p.390"
