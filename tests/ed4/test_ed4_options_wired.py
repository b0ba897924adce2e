"""ED4 combat options in play (000_4b24aca42c3b6366.txt p.382-386): declared before Initiative, refused
with the rule that forbids them, their modifiers and Strain in the events."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, mods, start
from ed4_helpers import BLOCK, RULESET, build, pair

from fight_helpers import auto, cmd, of
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Condition
from fracas.errors import IllegalCommand
from fracas.rules.ed4 import options as o
from fracas.rules.ed4.features.readers import in_force


def duel(a: dict, b: dict) -> object:
    """A person (the test declares for ``a``) next to ``b``, who holds."""
    return pair({"tactic": "person", **a}, {"tactic": "hold", **b})


def test_aggressive_with_defensive_refused_with_its_rule_p382() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [5, 3])
    with pytest.raises(IllegalCommand) as err:
        declare(f, "a", o.AGGRESSIVE, o.DEFENSIVE)
    assert err.value.rule == "ed4/option/aggressive-attack p.382"


def test_no_option_but_jump_up_while_knocked_down_p382() -> None:
    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    from fracas.engine.state import Condition

    state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    f = start(state, [5, 3])
    with pytest.raises(IllegalCommand) as err:
        declare(f, "a", o.AGGRESSIVE)
    assert err.value.rule == o.KNOCKED_DOWN_RULE


def test_options_are_declared_before_initiative_p382() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [5, 3])
    declare(f, "a")
    act(f, "a", [1, 1])
    with pytest.raises(IllegalCommand) as err:
        f.submit(Command("a", "declare", args={"action": "attack", "options": [o.AGGRESSIVE]}))
    assert err.value.rule == o.DECLARE_RULE
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("a", "attack", "b", attack="Sword", options=[o.AGGRESSIVE]))
    assert err.value.rule == o.DECLARE_RULE


def test_aggressive_attack_in_the_events_p382() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [5, 3])
    declare(f, "a", o.AGGRESSIVE)
    act(f, "a", [6, 6, 6, 6, 1, 5, 5, 4, 4])
    events = f.submit(cmd("a", "attack", "b", attack="Sword"))
    att, dmg = [e for e in of(events, ev.Rolled) if e.actor == "a"][:2]
    assert (3, "ed4/option/aggressive-attack p.382") in mods(att)
    assert (3, "ed4/option/aggressive-attack p.382") in mods(dmg)
    strain = [e for e in of(events, ev.Damaged) if e.damage_type == "strain"]
    assert [(s.target, s.amount) for s in strain] == [("a", 1)]
    # and a's own Defenses are 3 lower against b

    from fracas.rules.earthdawn import combat as edc

    st = f.state
    ctx = edc.TestContext(
        st, None, "attack", st.combatants["b"], st.combatants["a"], st.combatants["b"].stats.attacks[0]
    )
    assert (-3, "ed4/option/aggressive-attack p.382") in [
        (m.value, m.rule) for m in RULESET.defense_mods(ctx)
    ]


def test_thrak_attacks_the_dyre_to_knock_it_down_dn_13_p383() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thrak", "id": "thrak", "at": [0, 0], "tactic": "person"}],
            },
            {"name": "B", "combatants": [{"template": "dyre", "id": "dyre", "at": [1, 0], "tactic": "hold"}]},
        ]
    )
    f = start(state, [5, 3])
    declare(f, "thrak", o.KNOCKDOWN)
    # Battle-axe attack d10+d8 = 10 (one success vs PD 9); damage 2d12 = 21; dyre's Knockdown d12+d8+d6 = 6
    act(f, "thrak", [5, 5, 11, 10, 2, 2, 2])
    events = f.submit(cmd("thrak", "attack", "dyre", attack="Battle-axe"))
    kd = [e for e in of(events, ev.Rolled) if e.test == "Knockdown"]
    assert kd and kd[0].dn == 13 and kd[0].actor == "dyre"
    assert "knocked-down" in f.state.combatants["dyre"].conditions
    assert f.state.combatants["dyre"].counters.get("damage", 0) == 0  # no damage (p.383)


def test_herekar_shatters_the_body_shield_23_vs_21_p385() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "herekar", "id": "herekar", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {
                        "template": "bandit",
                        "id": "foe",
                        "at": [1, 0],
                        "tactic": "hold",
                        "equipment": {"shield": "body-shield"},
                    }
                ],
            },
        ]
    )
    f = start(state, [5, 3])
    declare(f, "herekar", o.SHATTER)
    pd = f.state.combatants["foe"].stats.physical_defense
    # attack d12+d12+... Herekar's Broadsword step 14 (2d12): 6+6 = 12 >= PD, < PD+5;
    # damage 12 + Size 3 = step 15 (d12+2d6): 11+6+6? 6 explodes on a d6, so 11+5+5 = 21 ... use 12 -> explode
    assert pd + 5 > 12 >= pd
    act(f, "herekar", [6, 6, 11, 6, 1, 5])  # d12 11, d6 6+1 (exploded) = 7, d6 5 -> 23
    events = f.submit(cmd("herekar", "attack", "foe", attack="Broadsword"))
    notes = [e.text for e in of(events, ev.Note)]
    assert any("shatters (23 against 21)" in t for t in notes)
    assert f.state.combatants["foe"].marks.get("shield_shattered") is True
    assert f.state.combatants["foe"].counters.get("damage", 0) == 0
    assert [e.amount for e in of(events, ev.Damaged) if e.damage_type == "strain"] == [1]
    # "it is now useless, and confers no further protective benefits" (p.385): its Defense bonuses are gone;
    # "Herekar's opponent drops the fragments": its Initiative penalty too [choice]. They stayed.
    from fracas.rules.earthdawn.combat import TestContext

    foe = f.state.combatants["foe"]
    shield = foe.stats.source.shield
    assert shield.physical_defense > 0
    h = f.state.combatants["herekar"]
    ctx = TestContext(f.state, None, "attack", h, foe, h.stats.attack("Broadsword"))
    got = [(m.value, m.rule) for m in RULESET.defense_mods(ctx)]
    assert (-shield.physical_defense, "ed4/option/shatter-shield p.385") in got
    ctx = TestContext(f.state, None, "attack", h, foe, h.stats.attack("Broadsword"), against="mystic")
    got = [(m.value, m.rule) for m in RULESET.defense_mods(ctx)]
    assert (-shield.mystic_defense, "ed4/option/shatter-shield p.385") in got or not shield.mystic_defense
    init = [(m.value, m.rule) for m in RULESET.step_mods(TestContext(f.state, None, "initiative", foe))]
    if shield.initiative_penalty:
        assert any(r == "ed4/option/shatter-shield p.385" and v > 0 for v, r in init)


def test_jump_up_stands_and_forbids_moving_p384() -> None:
    from fracas.engine.state import Condition

    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    f = start(state, [3, 3])  # knocked down: Initiative step 5 - 3 = 2 (p.389)
    declare(f, "a", o.JUMP_UP)
    act(f, "a", [7])  # Dexterity step 5 (d8) = 7 against 6
    events = f.submit(cmd("a", "jump-up", end=False))
    assert [e.amount for e in of(events, ev.Damaged) if e.damage_type == "strain"] == [2]
    r = [e for e in of(events, ev.Rolled) if e.test.startswith("Jump Up")][0]
    assert r.dn == 6 and all(m[1] != "ed4/situation/knocked-down p.389" for m in mods(r))
    assert "knocked-down" not in f.state.combatants["a"].conditions
    with pytest.raises(IllegalCommand):
        f.submit(cmd("a", "move", path=[[0, 1]]))


def test_attacking_to_stun_deals_stun_damage_p383() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [5, 3])
    declare(f, "a", o.STUN)
    act(f, "a", [6, 6, 6, 6, 1, 5, 5, 4, 4, 1, 1])
    events = f.submit(cmd("a", "attack", "b", attack="Sword"))
    hits = [e for e in of(events, ev.Damaged) if e.target == "b"]
    assert hits and all(h.counter == "stun" for h in hits)
    assert f.state.combatants["b"].counters.get("damage", 0) == 0


def test_called_shot_at_the_weapon_p384() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [5, 3])
    declare(f, "a", o.CALLED_SHOT)
    # Attack step 10 - 3 = 7 (d12): 12+1 = 13 against PD 7; b's Strength step 5 (d8) 2 against Damage Step 10
    act(f, "a", [12, 1, 2])
    events = f.submit(cmd("a", "attack", "b", attack="Sword", called="weapon"))
    att = [e for e in of(events, ev.Rolled) if e.test == "Sword Attack"][0]
    assert (-3, "ed4/option/called-shot p.384") in mods(att)
    hold = [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (hold")][0]
    assert hold.dn == 10 and not hold.success
    assert f.state.combatants["b"].marks["lost_weapons"] == ["Sword"]
    assert [e.amount for e in of(events, ev.Damaged) if e.damage_type == "strain"] == [1]


def test_the_called_shot_hold_test_is_the_holders_own_strength_test_with_his_wounds_p381_p384() -> None:
    """p.384: "the target must make a successful Strength test against the Damage Step of the attack to hold
    on to the item"; his Wounds penalise all his tests (p.381). The hold test was rolled with no modifier."""
    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    state.combatants["b"].counters["wounds"] = 1
    f = start(state, [5, 3])
    declare(f, "a", o.CALLED_SHOT)
    # Attack step 10 - 3 = 7 (d12): 12+1 = 13 against PD 7; b's Strength step 5 - 1 Wound = 4 (d6): 2
    act(f, "a", [12, 1, 2])
    events = f.submit(cmd("a", "attack", "b", attack="Sword", called="weapon"))
    hold = [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (hold")][0]
    assert hold.step == 4 and (-1, "ed4/wounds/penalties p.381") in mods(hold)


def test_a_person_is_offered_only_legal_declarations() -> None:

    from fracas.engine.state import Condition

    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    f = start(state, [5, 3])
    d = auto(f, "a", "declare") or f.advance_until_decision()
    offered = {tuple(c.args.get("options", ())) for c in RULESET.choices(f.state, d)}
    assert (o.AGGRESSIVE,) in offered and (o.DEFENSIVE,) in offered and (o.JUMP_UP,) not in offered
    assert (o.TAIL,) not in offered  # not a t'skrang
    f.state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    offered = {tuple(c.args.get("options", ())) for c in RULESET.choices(f.state, d)}
    assert offered == {(), (o.JUMP_UP,)}


def test_aggressive_attack_costs_1_strain_with_only_a_ranged_attack_p382() -> None:
    """p.382: "The character always takes at least 1 Strain, even if he doesn't end up making any Attack
    tests during the round" - a ranged Attack test is no close combat Attack test, so it is still owed."""
    bow = {
        **BLOCK,
        "attacks": [
            {"name": "Sword", "step": 10, "damage": 10, "size": 3},
            {"name": "Crossbow", "step": 10, "damage": 10, "kind": "missile", "range": [20, 40]},
        ],
    }
    f = start(duel({"stats": bow}, {"stats": BLOCK}), [5, 3])
    declare(f, "a", o.AGGRESSIVE)
    act(f, "a", [1, 1, 1, 1, 1, 1, 1, 1, 1])
    events = f.submit(cmd("a", "attack", "b", attack="Crossbow"))
    strain = [e for e in of(events, ev.Damaged) if e.damage_type == "strain" and e.target == "a"]
    assert [(s.amount, s.rule) for s in strain] == [(1, "ed4/option/aggressive-attack p.382")]


def test_aggressive_attack_strain_is_owed_by_who_never_gets_a_turn_p382() -> None:
    """p.382: at least 1 Strain "even if he doesn't end up making any Attack tests during the round": a
    character who declared Aggressive Attack and was knocked out before his turn pays it at the end of
    the round (here he is made unconscious by hand after Initiative, standing for a blow that felled him)."""
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [3, 5])
    declare(f, "a", o.AGGRESSIVE)
    events: list[ev.Event] = []
    while f.state.phase != "act":
        events += f.step()
    f.state.combatants["a"].status = "unconscious"
    while not any(isinstance(e, ev.RoundEnded) for e in events):
        events += f.step()
    strain = [e for e in of(events, ev.Damaged) if e.damage_type == "strain" and e.target == "a"]
    assert [(s.amount, s.rule) for s in strain] == [(1, "ed4/option/aggressive-attack p.382")]
    assert events.index(strain[0]) < events.index(of(events, ev.RoundEnded)[0])
    assert not [e for e in of(events, ev.TurnEnded) if e.actor == "a"]


def test_jump_up_is_an_action_test_harried_counts_knocked_down_does_not_p384_p388() -> None:
    """p.384: the Jump Up Dexterity (6) test "is modified by the Initiative Penalty of any armor ... but
    does not suffer the -3 penalty for being knocked down"; a Harried character suffers -2 to his Action
    tests (p.388). The test was rolled without the Harried penalty."""
    from fracas.engine.state import Condition

    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    a = state.combatants["a"]
    a.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    a.conditions["harried"] = Condition("harried", 1, 2, "b")  # a Stun hit's Harried, to the end of round 1
    f = start(state, [3, 3])
    declare(f, "a", o.JUMP_UP)
    act(f, "a", [3])  # Dexterity step 5 - 2 Harried = step 3 (d4): 3 against 6
    events = f.submit(cmd("a", "jump-up", end=False))
    r = [e for e in of(events, ev.Rolled) if e.test.startswith("Jump Up")][0]
    rules = [m[1] for m in mods(r)]
    assert r.step == 3 and "ed4/situation/harried p.388" in rules
    assert "ed4/situation/knocked-down p.389" not in rules
    assert "knocked-down" in f.state.combatants["a"].conditions


def test_breaking_free_is_an_action_test_knocked_down_counts_entangled_does_not_p388_p391() -> None:
    """p.391: the entangled character "is considered harried for any actions other than breaking free" -
    the other Action test penalties still apply to breaking free: Knocked Down -3 (p.389), Harried from
    another source -2 (p.388). The break-free test was rolled with none of them."""
    from fracas.engine.state import Condition
    from fracas.rules.earthdawn.combat import TestContext

    state = duel({"stats": BLOCK}, {"stats": BLOCK})
    a = state.combatants["a"]
    a.conditions["entangled"] = Condition("entangled", None, 7, "b")
    a.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    got = [(m.value, m.rule) for m in RULESET.step_mods(TestContext(state, None, "break-free", a))]
    assert got == [(-3, "ed4/situation/knocked-down p.389")]  # not Harried by the net itself
    a.conditions["harried"] = Condition("harried", 1, 2, "b")
    got = [(m.value, m.rule) for m in RULESET.step_mods(TestContext(state, None, "break-free", a))]
    assert sorted(got) == [(-3, "ed4/situation/knocked-down p.389"), (-2, "ed4/situation/harried p.388")]


def test_jump_up_takes_the_armors_initiative_penalty_not_the_shields_p384() -> None:
    """p.384: the Jump Up test "is modified by the Initiative Penalty of any armor he is wearing". The
    penalty was read as everything the Initiative step lacks of the Dexterity step, the shield's included."""
    from fracas.engine.state import Condition

    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {
                        "template": "bandit",
                        "id": "a",
                        "at": [0, 0],
                        "tactic": "person",
                        "equipment": {"shield": "body-shield"},
                    }
                ],
            },
            {"name": "B", "combatants": [{"stats": BLOCK, "id": "b", "at": [3, 0], "tactic": "hold"}]},
        ]
    )
    a = state.combatants["a"]
    src = a.stats.source
    assert src.shield.initiative_penalty == 2
    armor = src.armor.initiative_penalty if src.armor else 0
    a.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    f = start(state, [1, 1, 1, 1])
    declare(f, "a", o.JUMP_UP)
    act(f, "a", [1, 1, 1, 1])
    events = f.submit(cmd("a", "jump-up", end=False))
    r = [e for e in of(events, ev.Rolled) if e.test.startswith("Jump Up")][0]
    assert r.step == a.stats.dex_step - armor
    assert all(v != -(armor + 2) for v, _ in mods(r))


def test_options_declared_are_suspended_while_knocked_down_p382_p389() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [3, 3])
    declare(f, "a", o.AGGRESSIVE)
    a = f.state.combatants["a"]
    assert in_force(f.state, a) == (o.AGGRESSIVE,)
    a.conditions["knocked-down"] = Condition("knocked-down", None, 3)  # knocked down after declaring
    assert in_force(f.state, a) == ()
    act(f, "a", [5])  # Sword step 10 - 3 knocked down = 7 (d12): 5 against PD 7
    events = f.submit(cmd("a", "attack", "b", attack="Sword"))
    att = [e for e in of(events, ev.Rolled) if e.test == "Sword Attack"][0]
    rules = [r for _, r in mods(att)]
    assert o.rule(o.AGGRESSIVE) not in rules  # no +3 while down (p.389: none until standing)
    assert "ed4/situation/knocked-down p.389" in rules


def test_jump_up_stays_in_force_while_knocked_down_p384() -> None:
    f = start(duel({"stats": BLOCK}, {"stats": BLOCK}), [3, 3])
    f.state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    declare(f, "a", o.JUMP_UP)
    assert in_force(f.state, f.state.combatants["a"]) == (o.JUMP_UP,)


def test_a_weapon_held_in_two_hands_gives_plus_3_to_hold_on_p384() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "stats": BLOCK, "at": [0, 0], "tactic": "person"}]},
            {"name": "B", "combatants": [{"template": "herekar", "at": [1, 0], "tactic": "hold",
                                          "equipment": {"weapons": ["two-handed-sword"]}}]},
        ]
    )  # fmt: skip
    f = start(state, [5, 3])
    declare(f, "a", o.CALLED_SHOT)
    # Sword step 10 - 3 = 7 (d12): 12! + 9 = 21 against Herekar's PD; his Strength test 2 + 1 against 10
    act(f, "a", [12, 9, 2, 1, 1, 1])
    events = f.submit(cmd("a", "attack", "herekar", attack="Sword", called="weapon"))
    hold = [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (hold")][0]
    assert (3, o.rule(o.CALLED_SHOT)) in mods(hold)  # a two-handed sword is held in two hands (Size 6)
    lost = f.state.combatants["herekar"].marks.get("lost_weapons")
    assert hold.success or lost == ["Two-handed sword"]


def test_a_magical_shield_needs_10_more_to_shatter_p385() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"template": "herekar", "at": [0, 0], "tactic": "person"}]},
            {
                "name": "B",
                "combatants": [
                    {
                        "template": "bandit",
                        "id": "foe",
                        "at": [1, 0],
                        "tactic": "hold",
                        "equipment": {"shield": "body-shield"},
                        "options": {"magical_shield": True},
                    }
                ],
            },
        ]
    )
    f = start(state, [5, 3])
    declare(f, "herekar", o.SHATTER)
    act(f, "herekar", [6, 6, 11, 6, 1, 5])  # the Herekar example's 23 (p.385)
    events = f.submit(cmd("herekar", "attack", "foe", attack="Broadsword"))
    notes = [e.text for e in of(events, ev.Note)]
    assert any("holds (23 against 31)" in t for t in notes)  # 21 + 10 for a magical shield
    assert not f.state.combatants["foe"].marks.get("shield_shattered")
