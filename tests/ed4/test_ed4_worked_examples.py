"""The ED4 combat chapter's own worked examples (000_4b24aca42c3b6366.txt), each with its page."""

from __future__ import annotations

from ed4_helpers import RULESET, build

from fight_helpers import auto, cmd, fight, rolled
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.rules.earthdawn.catalog import character
from fracas.rules.earthdawn.combat import (
    Scratch,
    damage_events,
    damage_step,
    extra_success_bonus,
    extra_successes,
    has_higher_initiative,
    knockdown_dn,
    recovered_amount,
    recovery_events,
    run_test,
)
from fracas.rules.earthdawn.profile import profile_from_stats
from fracas.rules.ed4.ruleset import ED4


def test_silar_crossbow_three_successes_step_10_to_14_p377() -> None:
    # "Silar fires a bolt at an attacking griffin, with test result of 18. The griffin's Physical Defense
    # is 7, so Silar scores three successes! ... Silar's crossbow goes from Step 10 to Step 14 damage."
    assert extra_successes(18, 7) == 2
    assert 10 + extra_success_bonus(2, ED4) == 14
    state = build(
        [
            {"name": "Heroes", "combatants": [{"template": "silar", "player": True, "at": [0, 0]}]},
            {"name": "Beasts", "combatants": [{"template": "griffin", "tactic": "hold", "at": [5, 0]}]},
        ],
        {"take-the-initiative": True},
    )
    # Silar's Initiative d12: 3; the griffin takes its step (11) as the result; it holds.
    f = fight(state, [3])
    auto(f, "silar")
    f.dice = ScriptedDice([9, 9, 5, 5])  # Missile Weapons step 13 = d12+d10: 9+9 = 18; damage 2d12: 5+5
    events = f.submit(cmd("silar", "attack", "griffin", attack="Medium crossbow"))
    attack = rolled(events, "Attack")[0]
    assert (attack.total, attack.dn, attack.outcome, attack.extra) == (18, 7, "success", 2)
    assert attack.step == 13 and attack.roll["dice"] == [[12, 9], [10, 9]]
    assert attack.rule == "ed4/attack/extra-successes p.377"
    damage = rolled(events, "Damage")[0]
    assert damage.step == 14
    assert (4, "2 extra successes", "ed4/attack/extra-successes p.377") in damage.modifiers
    hurt = [e for e in events if isinstance(e, ev.Damaged)][0]
    assert (hurt.raw, hurt.armor, hurt.amount) == (10, 4, 6)


def test_thrak_battle_axe_step_14_p377() -> None:
    # "A battle-axe has a Damage Step of 7 ... Thrak has a Strength Step of 7 ... a Step 14 Damage test."
    thrak = profile_from_stats(character("thrak"))
    assert thrak.str_step == 7
    assert damage_step(7, 7) == 14
    assert thrak.attack("Battle-axe").damage == 14


def _scratch_with(template: str, **counters: int):
    state = build(
        [
            {"name": "A", "combatants": [{"template": template, "id": "x", "player": True, "at": [0, 0]}]},
            {"name": "B", "combatants": [{"template": "ghoul", "id": "g", "at": [3, 0]}]},
        ]
    )
    state.combatants["x"].counters.update(counters)
    return state, Scratch(state)


def test_tomas_wound_and_knockdown_7_p379() -> None:
    # "Tomas the Wizard has a Wound Threshold of 8. He is hit ... for 15 damage, after accounting for his
    # armor ... he must make a Knockdown (7) test (15-8 = 7) ... using his Strength Step, and rolls a 5."
    state, sc = _scratch_with("tomas")
    assert state.combatants["x"].stats.wound_threshold == 8
    assert knockdown_dn(15, 8) == 7
    kd = lambda t, new: RULESET.step_mods(  # noqa: E731
        __import__("fracas.rules.earthdawn.combat", fromlist=["TestContext"]).TestContext(
            state, sc, "knockdown", t, extra={"new_wounds": new}
        )
    )
    damage_events(sc, ED4, ScriptedDice([5]), "x", 15, 0, "g", knockdown_mods=kd, round_no=1)
    kinds = [type(e).__name__ for e in sc.events]
    assert kinds == ["Damaged", "Wounded", "Rolled", "ConditionAdded"]
    test = sc.events[2]
    assert (test.test, test.step, test.dn, test.total, test.success) == ("Knockdown", 5, 7, 5, False)
    assert test.modifiers == ()  # the Wound of this very hit does not penalise its Knockdown test
    assert sc.events[3].name == "knocked-down"


def test_no_knockdown_below_threshold_plus_5_p379() -> None:
    assert knockdown_dn(12, 8) is None
    assert knockdown_dn(13, 8) == 5


def test_herekar_recovers_9_of_41_with_3_wounds_p380() -> None:
    # "He is suffering from 3 Wounds and 41 Damage Points ... a Recovery test with a result of 12 ... he only
    # recovers 9 Damage Points (12-3 = 9), bringing his Current Damage down to 32."
    assert recovered_amount(12, 3) == 9
    state, sc = _scratch_with("herekar", damage=41, wounds=3)
    # Toughness step 8 = 2d6: 6 (bonus die 1) + 5 = 12. Wounds do not lower the step (p.380/381).
    res = recovery_events(sc, ED4, ScriptedDice([6, 1, 5]), "x", "test")
    assert res is not None and res.step == 8 and res.total == 12 and res.modifiers == ()
    assert sc.get("x").counters["damage"] == 32
    assert sc.get("x").counters["recovery_used"] == 1


def test_recovery_heals_at_least_1_p380() -> None:
    assert recovered_amount(2, 5) == 1


def test_herekar_reserved_action_adds_2_to_cadaver_mans_defense_p375() -> None:
    # Herekar reserves his action to intercept anyone attacking Tairin; a cadaver man (Initiative 8) moves to
    # attack Tairin; Herekar attacks it first, adding +2 to its Physical Defense; then the cadaver man takes
    # his turn (and may attack Tairin or do something else).
    state = build(
        [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "herekar", "player": True, "at": [0, 0], "tactic": "hold"},
                    {
                        "template": "mica",
                        "id": "tairin",
                        "name": "Tairin",
                        "player": True,
                        "at": [1, 0],
                        "tactic": "hold",
                    },
                ],
            },
            {"name": "Dead", "combatants": [{"template": "cadaver-man", "at": [2, -1]}]},
        ],
        {"take-the-initiative": True},
    )
    # Herekar d10 (step 6): 10 -> bonus 4 = 14; Tairin d12: 2; the cadaver man takes its step 5... set 8:
    state.combatants["cadaver-man"].stats = state.combatants["cadaver-man"].stats.__class__(
        **{
            **{
                f: getattr(state.combatants["cadaver-man"].stats, f)
                for f in state.combatants["cadaver-man"].stats.__dataclass_fields__
            },
            "initiative_step": 8,
        }
    )
    f = fight(state, [10, 4, 2])
    auto(f, "herekar")
    assert state.initiative == {"herekar": 14, "tairin": 2, "cadaver-man": 8}
    f.submit(cmd("herekar", "reserve", trigger={"on": "attack", "target": "tairin"}))
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("cadaver-man", "act")
    # The cadaver man moves to attack Tairin: Herekar's trigger interrupts before anything happens.
    interrupted = f.submit(cmd("cadaver-man", "attack", "tairin", attack="Claws"))
    assert not any(isinstance(e, ev.Rolled) for e in interrupted)
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("herekar", "react")
    # Melee Weapons step 14 = 2d12: 12+3 (bonus die) + 8 = 23 against PD 9 + 2: two extra successes;
    # damage step 12 + 4 = 16 (d12+d8+d6): 10+7+5 = 22, 12 over the Wound Threshold of 10: Knockdown (12)
    # test on its step 8 (2d6): 1+2. "His attack knocks the cadaver man down."
    f.dice = ScriptedDice([12, 3, 8, 10, 7, 5, 1, 2])
    events = f.submit(cmd("herekar", "attack", "cadaver-man", attack="Broadsword", path=[[1, -1]]))
    attack = rolled(events, "Attack")[0]
    pd = state.combatants["cadaver-man"].stats.physical_defense
    assert attack.dn == pd + 2
    assert (2, "DN: reserved action", "ed4/actions/reserved p.375") in attack.modifiers
    assert state.order.index("herekar") < state.order.index("cadaver-man")
    assert "knocked-down" in state.combatants["cadaver-man"].conditions
    # Then the cadaver man takes his turn again and chooses anew.
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("cadaver-man", "act")
    assert "herekar" not in (state.extra.get("reserved") or {})


def test_maloren_delays_and_acts_after_herekar_p376() -> None:
    # "Maloren is first to act during a round ... He decides to delay his action. Later on Initiative count 6
    # ... after Herekar has resolved his action, Maloren steps in and casts the spell." No penalty.
    state = build(
        [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "maloren", "player": True, "at": [0, 0], "tactic": "hold"},
                    {"template": "herekar", "player": True, "at": [0, 1], "tactic": "hold"},
                ],
            },
            {"name": "Dead", "combatants": [{"template": "cadaver-man", "tactic": "hold", "at": [5, 0]}]},
        ],
        {"take-the-initiative": True},
    )
    f = fight(state, [8, 6])  # Maloren d8: 8 -> bonus die 6 = 14... (step 5 = d8) ; Herekar d10: 6
    f.dice = ScriptedDice([7, 6])
    auto(f, "maloren")
    assert state.order[0] == "maloren"
    f.submit(cmd("maloren", "delay"))
    # Maloren is asked between turns; he waits while the cadaver man (5) ... Herekar (6) acts first.
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("maloren", "delayed") or (d.actor, d.kind) == ("herekar", "act")
    seen = []
    for _ in range(10):
        d = f.advance_until_decision()
        seen.append((d.actor, d.kind))
        if d.actor == "herekar" and d.kind == "act":
            f.submit(cmd("herekar", "end"))
        elif d.actor == "maloren" and d.kind == "delayed":
            if state.acted >= {"herekar"}:
                f.submit(cmd("maloren", "act-now"))
                break
            f.submit(cmd("maloren", "wait"))
    d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("maloren", "act")
    assert state.order.index("maloren") == state.order.index("herekar") + 1
    assert state.initiative["maloren"] == 7  # delaying never changes the Initiative result (p.375)


def test_delayed_into_next_round_acts_one_above_the_highest_p376() -> None:
    state = build(
        [
            {
                "name": "Heroes",
                "combatants": [{"template": "kira", "player": True, "at": [0, 0], "tactic": "hold"}],
            },
            {"name": "Dead", "combatants": [{"template": "cadaver-man", "tactic": "hold", "at": [5, 0]}]},
        ],
        {"take-the-initiative": True},
    )
    f = fight(state, [9, 4])  # Kira d12: 9; next round d12: 4 (not used: she keeps her delayed action)
    auto(f, "kira")
    f.submit(cmd("kira", "delay"))
    auto(f, "kira", "delayed")
    d = f.advance_until_decision()
    assert (d.actor, d.kind, d.prompt) == ("kira", "delayed", "end of round")
    f.submit(cmd("kira", "wait"))
    d = f.advance_until_decision()
    assert state.round == 2
    assert state.initiative["kira"] == state.initiative["cadaver-man"] + 1
    assert state.order[0] == "kira"


def test_cobra_strike_compares_initiative_results_not_acting_order_p375() -> None:
    # Kira rolls higher than Herekar, so Cobra Strike gives Herekar no bonus; if Kira delays and Herekar acts
    # first, he still gets none: the Initiative results do not change.
    state = build(
        [
            {
                "name": "H",
                "combatants": [{"template": "herekar", "player": True, "at": [0, 0], "tactic": "hold"}],
            },
            {
                "name": "K",
                "combatants": [{"template": "kira", "player": True, "at": [1, 0], "tactic": "hold"}],
            },
        ]
    )
    f = fight(state, [3, 11])  # Herekar d10: 3; Kira d12: 11
    auto(f, "kira")
    assert not has_higher_initiative(state, "herekar", "kira")
    f.submit(cmd("kira", "delay"))
    d = f.advance_until_decision()
    if d.kind == "delayed":
        f.submit(cmd("kira", "wait"))
        d = f.advance_until_decision()
    assert (d.actor, d.kind) == ("herekar", "act")
    assert not has_higher_initiative(state, "herekar", "kira")
    assert has_higher_initiative(state, "kira", "herekar")


def test_run_test_rule_of_one_fails_whatever_the_total() -> None:
    res = run_test(ScriptedDice([1, 1]), ED4, 9, (), dn=2)  # step 9 = d8+d6, both show 1: total 2 >= DN 2
    assert res.rule_of_one and not res.success and res.total == 2
    single = run_test(
        ScriptedDice([1]), ED4, 7, (), dn=1
    )  # one die: the Rule of One needs two (reference 1.4)
    assert not single.rule_of_one and single.success


def test_silar_at_long_range_13_to_11_and_10_to_8_p390() -> None:
    # "The bandits are currently about 60 yards away - long range for his crossbow ... his Missile Weapons
    # Step 13 drops to 11, and his Damage Step 10 to 8" (Range - Long: -2 to Attack and Damage tests).
    state = build(
        [
            {"name": "Heroes", "combatants": [{"template": "silar", "player": True, "at": [0, 0]}]},
            {"name": "Bandits", "combatants": [{"template": "bandit", "tactic": "hold", "at": [30, 0]}]},
        ],
        {"take-the-initiative": True},
    )
    f = fight(state, [12, 12, 1])  # Silar's Initiative d12: 12 + 12 + 1 (bonus dice) = 25
    auto(f, "silar")
    f.dice = ScriptedDice([10, 9, 6, 1, 1])  # step 11 = d10+d8: 10 (bonus 9) + 6; damage step 8 = 2d6: 1, 1
    events = f.submit(cmd("silar", "attack", "bandit", attack="Medium crossbow"))
    attack, damage = rolled(events, "Attack")[0], rolled(events, "Damage")[0]
    assert attack.step == 11 and (-2, "Long range", "ed4/situation/range p.390") in attack.modifiers
    long_range = (-2, "Long range", "ed4/situation/range p.390")
    extra = [m for m in damage.modifiers if m != long_range]
    assert damage.step == 8 + sum(m[0] for m in extra) and long_range in damage.modifiers
