"""ED1 attacks (ch.12§Resolving-Actions, §Difficulty-Number, Mounted Combat): Karma at the test, spell attacks
against Spell Defense, knocked down and long range, armor and the success levels, the charging attack, the
Wound penalty options, the odds and the dice asked of a person.

001 = shared/rules/001_694a1556573a8dc9.txt ("EDRulebook: 12 Combat", cited by section: ch.12§Initiative);
reference = shared/rules/reference (the shared Earthdawn rules ED1 keeps).
"""

from __future__ import annotations

from typing import Any

import pytest
from ed1_helpers import ED1, FOE, at_heros_turn, build, decl, declare, hero_and_foe

from fight_helpers import auto, cmd, fight, of, rolled
from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.combat import TestContext as Ctx


def test_the_wound_penalty_option_off_and_the_new_wound_of_a_knockdown_test() -> None:
    state = hero_and_foe()
    hero = state.combatants["hero"]
    hero.counters["wounds"] = 3
    # the Knockdown test a Wound causes does not count that Wound: 3 - 1 new = 2 Wounds, the first free
    [m] = ED1._wound_penalty(Ctx(state, None, "knockdown", hero, extra={"new_wounds": 1}))
    assert m.value == -1 and m.rule.startswith("ed1/wounds/penalty")
    state.options["wound-penalties"] = False
    assert not list(ED1._wound_penalty(Ctx(state, None, "attack", hero)))


def test_karma_is_announced_with_the_test_and_rolled_with_it_ch12_resolving_actions() -> None:
    state, f = at_heros_turn([3, 2, 4, 1, 1])  # 2d6 (step 8): 3 + 2, Karma d6 (step 4): 4; damage 1 + 1
    events = f.submit(cmd("hero", "attack", "foe", attack="Sword", karma=True))
    [attack] = rolled(events, "Attack")
    assert [d[0] for d in attack.roll["dice"]] == [6, 6, 6] and attack.total == 9
    [spent] = [e for e in of(events, ev.CounterChanged) if e.counter == "karma"]
    assert spent.delta == -1 and spent.rule.startswith("ed1/round/karma-at-the-turn")
    assert state.combatants["hero"].counters["karma"] == 2
    with pytest.raises(IllegalCommand, match="Karma cannot be spent"):
        ED1.validate(state, cmd("hero", "attack", "foe", attack="Bow", karma=True))


def test_a_spell_attack_tests_against_spell_defense_and_meets_mystic_armor_ch12_difficulty_number() -> None:
    """ "Tests made for combat talents use either the target's Physical Defense Rating or Spell Defense
    Rating as the Difficulty Number": the spell against Spell Defense 8, its damage against Mystic Armor 1
    (an Excellent result defeats Physical Armor only: docs, choices)."""
    state, f = at_heros_turn([8, 1, 6, 2, 3, 3], plan={"hero": decl("hero", "spell", "foe")})
    events = f.submit(cmd("hero", "attack", "foe", attack="Flame Flash"))
    [attack] = rolled(events, "Attack")
    assert attack.dn == 8 and attack.against == "Spell Defense" and attack.modifiers == ()
    assert attack.outcome == "Excellent success"  # d8:8+1 d6:6+2 = 17 vs DN 8 (step 9, bonus dice)
    [hit] = of(events, ev.Damaged)
    assert hit.armor == 1 and hit.damage_type == "mystic"
    assert not [e for e in of(events, ev.Note) if "armor-defeating" in e.text]


def test_declaring_a_spell_then_striking_with_a_weapon_is_a_change_ch12_changing_declared_action() -> None:
    state, f = at_heros_turn([3, 2, 1, 1], plan={"hero": decl("hero", "spell", "foe")})
    [attack] = rolled(f.submit(cmd("hero", "attack", "foe", attack="Sword")), "Attack")
    assert attack.dn == 9 and attack.modifiers[0][2].startswith("ed1/actions/changing-declared-action")


def test_a_declaration_without_a_target_accepts_any_target() -> None:
    state, f = at_heros_turn([3, 2, 1, 1], plan={"hero": decl("hero", "attack")})
    [attack] = rolled(f.submit(cmd("hero", "attack", "foe", attack="Sword")), "Attack")
    assert attack.dn == 7 and attack.modifiers == ()


def test_knocked_down_attacker_and_target_minus_3() -> None:
    state, f = at_heros_turn([3, 2, 1, 1])
    state.combatants["hero"].conditions["knocked-down"] = Condition("knocked-down")
    state.combatants["foe"].conditions["knocked-down"] = Condition("knocked-down")
    [attack] = rolled(f.submit(cmd("hero", "attack", "foe", attack="Sword")), "Attack")
    assert attack.dn == 7 - 3 and attack.step == 8 - 3
    assert [m[0] for m in attack.modifiers] == [-3, -3]
    assert all(m[2].startswith("ed1/situation/knocked-down") for m in attack.modifiers)


def test_long_range_minus_2_steps_to_attack_and_damage() -> None:
    state, f = at_heros_turn([8, 5], at=(11, 0))  # 22 yards: beyond the bow's short range 20
    events = f.submit(cmd("hero", "attack", "foe", attack="Bow"))
    [attack] = rolled(events, "Attack")
    [damage] = rolled(events, "Damage")
    assert attack.modifiers[0][0] == -2 and attack.modifiers[0][2].startswith("ed1/situation/range")
    assert damage.modifiers[0][0] == -2
    assert [d[0] for d in attack.roll["dice"]] == [10]  # step 8 - 2 = 6: d10 (ED1 Step table)


def test_armor_counts_when_the_dn_is_above_the_success_level_rows_held() -> None:
    """The Success Level Table is held for DN 2-13: above it the level is unknown, so no armor-defeating
    hit, and the log says so (docs: Success levels above DN 13)."""
    state, f = at_heros_turn([6, 5, 4, 3, 3], foe=dict(FOE, physical_defense=14))
    events = f.submit(cmd("hero", "attack", "foe", attack="Sword"))
    [attack] = rolled(events, "Attack")
    assert attack.dn == 14 and attack.outcome.startswith("success (success level unknown")
    [hit] = of(events, ev.Damaged)
    assert hit.armor == 3
    assert [e for e in of(events, ev.Note) if e.rule.startswith("ed1/test/success-levels")]


def rider_at_its_turn(options: dict | None = None) -> tuple[Any, Any]:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {
                        "template": "thom-hammerblade",
                        "id": "thom",
                        "player": True,
                        "at": [0, 0],
                        "tactic": "hold",
                    }
                ],
            },
            {
                "name": "B",
                "combatants": [{"template": "ork-rider", "id": "rider", "at": [4, 0], "player": True}],
            },
        ],
        options,
    )
    f = fight(state, [1, 5, 9, 5, 5, 5, 1, 1, 1, 1])  # Thom 1, rider 5; Attack 9+5, Damage: the rest
    declare(f, {"rider": decl("rider", "attack", "thom", options=["charge"]), "thom": decl("thom", "other")})
    auto(f, "rider")
    return state, f


def test_a_charge_runs_straight_and_adds_the_mounts_strength_step() -> None:
    state, f = rider_at_its_turn()
    crooked = [[3, 0], [3, 1], [2, 1], [1, 1], [1, 0]]
    with pytest.raises(IllegalCommand, match="straight line") as exc:
        ED1.validate(state, cmd("rider", "attack", "thom", attack="Spear", charge=True, path=crooked))
    assert exc.value.rule.startswith("ed1/mounted/charging-attack")
    events = f.submit(
        cmd("rider", "attack", "thom", attack="Spear", charge=True, path=[[3, 0], [2, 0], [1, 0]])
    )
    [damage] = rolled(events, "Damage")
    [(value, why, rule)] = damage.modifiers
    assert value == 8 and "War horse" in why and rule.startswith("ed1/mounted/charging-attack")


def test_the_charge_damage_option_off() -> None:
    state, f = rider_at_its_turn({"charge-damage": False})
    events = f.submit(
        cmd("rider", "attack", "thom", attack="Spear", charge=True, path=[[3, 0], [2, 0], [1, 0]])
    )
    [damage] = rolled(events, "Damage")
    assert damage.modifiers == ()


def test_dice_asked_of_a_person_name_the_test_and_the_odds_name_the_attack() -> None:
    """Rolling one's own dice (AskedDice) the ED1 prompts say whose test it is; the odds say "Sword Attack
    ... vs PD 7: ... hit". The ED1 attack and Initiative rolled without names (a blank prompt)."""
    from fracas.dice.source import AskedDice
    from fracas.engine.play import Fight

    asked: list[str] = []
    faces = iter([6, 2, 3, 4, 2, 2])

    def ask(sides: int, why: str) -> int:
        asked.append(why)
        return next(faces)

    state = hero_and_foe()
    f = Fight(ED1, state, AskedDice(ask))
    declare(f, {"hero": decl("hero", "attack", "foe")})
    auto(f, "hero")
    assert ED1.odds(state, cmd("hero", "attack", "foe", attack="Sword")) == (
        "Sword Attack step 8 vs PD 7: 58% hit, 10% Excellent or better (armor-defeating); Rule of One 2.8%"
    )
    f.submit(cmd("hero", "attack", "foe", attack="Sword"))
    assert asked[:2] == ["Hero: Initiative test, step 5", "Foe: Initiative test, step 5"]
    assert asked[2:4] == ["Hero: Sword Attack test, step 8"] * 2
    assert asked[4] == "Hero: Sword Damage test, step 9"


def test_the_odds_of_an_armor_defeating_hit_match_the_success_level_table() -> None:
    """Step 8 (2d6, bonus dice) against DN 7: Excellent from 15 (reference 1.5 row DN 7). 2d6 reaches 15 only
    through a 6 rolled again: the exact chance is summed here over the first two faces."""
    from fractions import Fraction

    from fracas.dice.exact import step_distribution

    d6 = step_distribution(4, "ed1")  # one exploding d6 (ED1 step 4)
    p = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            first = Fraction(1, 36)
            if a < 6 and b < 6:
                continue  # at most 10
            # an exploding die that shows 6 is 6 + another exploding d6
            if a == 6 and b == 6:
                p += first * Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= 3), 36)
            else:
                other = b if a == 6 else a
                need = 15 - 6 - other
                p += first * Fraction(round(d6.at_least(need) * 10**12), 10**12)
    state, f = at_heros_turn([])
    text = ED1.odds(state, cmd("hero", "attack", "foe", attack="Sword"))
    assert f", {round(100 * float(p))}% Excellent or better" in text
