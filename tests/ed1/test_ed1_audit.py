"""ED1 rules the session-6 audit found untested (001_694a1556573a8dc9.txt, ch.12, and the shared rules ED1
keeps): Initiative ties and a step below 1, group Initiative off, reserving into a tie, Karma at the turn,
spell attacks against Spell Defense, the charging attack, knocked down and long range, the Wound penalty
options, declarations without a target, movement all at once."""

from __future__ import annotations

from typing import Any

import pytest
from ed1_helpers import ED1, build, decl, declare

from fight_helpers import auto, cmd, fight, of, rolled, two_sides
from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.errors import IllegalCommand
from fracas.rules.earthdawn.combat import TestContext as Ctx

HERO: dict[str, Any] = {
    "kind": "character",
    "dex_step": 5,
    "str_step": 5,
    "toughness": 12,
    "physical_defense": 7,
    "mystic_defense": 8,
    "physical_armor": 3,
    "mystic_armor": 1,
    "movement": 12,
    "karma": 3,
    "karma_step": 4,
    "attacks": [
        {"name": "Sword", "step": 8, "damage": 9, "karma": True},
        {"name": "Bow", "kind": "missile", "step": 8, "damage": 7, "range": [20, 40]},
        {
            "name": "Flame Flash",
            "kind": "spell",
            "step": 9,
            "damage": 8,
            "against": "mystic",
            "armor": "mystic",
        },
    ],
}
FOE: dict[str, Any] = dict(HERO, kind="creature", initiative=5, karma=0)


def duel(
    foe_first: bool = False, options: dict | None = None, foe: dict | None = None, at: tuple = (1, 0)
) -> Any:
    hero = {"id": "hero", "name": "Hero", "player": True, "tactic": "hold", "stats": HERO, "at": [0, 0]}
    them = {"id": "foe", "name": "Foe", "tactic": "hold", "stats": foe or FOE, "at": list(at)}
    if foe_first:
        return build(two_sides(them, hero, ("Foes", "Heroes")), options)
    return build(two_sides(hero, them, ("Heroes", "Foes")), options)


def initiative(state: Any, faces: list[int], plan: dict | None = None) -> Any:
    f = fight(state, faces)
    declare(f, plan or {})
    f.advance_until_decision()
    return f


# ----- Initiative (ch.12§Initiative, §Combat-Round.2) -------------------------------------------------------


def test_a_player_character_acts_before_a_tied_creature_listed_first_ch12_initiative() -> None:
    """ "If a player character ties his Initiative with a creature or gamemaster character, the player
    character always takes his action first": the creature comes first in the file and still goes second."""
    state = duel(foe_first=True)
    f = initiative(state, [4, 4])  # the foe (listed first) and the hero both roll 4 on step 5 (d8)
    assert state.initiative == {"foe": 4, "hero": 4}
    assert state.order == ["hero", "foe"]
    [note] = [e for e in of(f.log, ev.Note) if e.rule.startswith("ed1/initiative/ties")]
    assert "same time" in note.text


def test_reserving_into_a_tie_the_player_character_still_goes_first_ch12_reserved_actions() -> None:
    state = duel()
    f = initiative(state, [2, 6])  # hero 2, foe 6: the foe acts first
    assert state.order == ["foe", "hero"]
    f.submit(cmd("foe", "reserve", initiative=2))
    assert state.initiative["foe"] == 2 and state.order == ["hero", "foe"]


def test_an_initiative_step_below_1_is_rolled_at_step_1() -> None:
    """The text does not say (docs: choices): a step pushed below 1 (Wounds here: 5 - (7 - 1)) rolls at 1."""
    state = duel()
    state.combatants["hero"].counters["wounds"] = 7
    f = initiative(state, [3, 3])
    [init] = [e for e in of(f.log, ev.InitiativeRolled) if e.actor == "hero"]
    assert init.step == 1 and init.value == 1  # d4-2: 3 - 2
    assert init.modifiers[-1][2].startswith("ed1/initiative/step-below-one")
    assert sum(m[0] for m in init.modifiers) == 1 - 5


def test_group_initiative_can_be_switched_off_ch12_initiative() -> None:
    orks = [{"template": "ork-raider", "id": "ork", "count": 2, "at": [[5, 0], [5, 1]], "tactic": "hold"}]
    sides = [
        {"name": "A", "combatants": [{"template": "thom-hammerblade", "id": "thom", "player": True}]},
        {"name": "B", "combatants": orks},
    ]
    for group, rolls in ((True, 1), (False, 2)):
        state = build(sides, {"group-initiative": group})
        f = initiative(state, [2, 3, 4], {"thom": decl("thom", "other")})
        ork = [e for e in of(f.log, ev.InitiativeRolled) if e.actor.startswith("ork")]
        assert sum(e.roll is not None for e in ork) == rolls


# ----- Wound penalty (reference 2.2 [verify]) --------------------------------------------------------------


def test_the_wound_penalty_option_off_and_the_new_wound_of_a_knockdown_test() -> None:
    state = duel()
    hero = state.combatants["hero"]
    hero.counters["wounds"] = 3
    # the Knockdown test a Wound causes does not count that Wound: 3 - 1 new = 2 Wounds, the first free
    [m] = ED1._wound_penalty(Ctx(state, None, "knockdown", hero, extra={"new_wounds": 1}))
    assert m.value == -1 and m.rule.startswith("ed1/wounds/penalty")
    state.options["wound-penalties"] = False
    assert not list(ED1._wound_penalty(Ctx(state, None, "attack", hero)))


# ----- the attack (ch.12§Resolving-Actions, §Difficulty-Number) --------------------------------------------


def at_heros_turn(faces: list[int], plan: dict | None = None, **kw: Any) -> tuple[Any, Any]:
    state = duel(**kw)
    f = fight(state, [6, 2, *faces])  # hero Initiative 6, foe 2
    declare(f, plan or {"hero": decl("hero", "attack", "foe")})
    auto(f, "hero")
    return state, f


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


# ----- the charging attack (Mounted Combat, not held: docs, choices) ----------------------------------------


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


# ----- Movement (ch.12§Movement) --------------------------------------------------------------------------


def test_moving_as_part_of_the_attack_then_again_after_it_is_refused_ch12_movement() -> None:
    state, f = at_heros_turn([3, 2, 1, 1], at=(2, 0))
    f.submit(cmd("hero", "attack", "foe", attack="Sword", path=[[1, 0]], end=False))
    with pytest.raises(IllegalCommand, match="all at once") as exc:
        f.submit(cmd("hero", "move", path=[[1, 1]]))
    assert exc.value.rule.startswith("ed1/movement/all-at-once")


def test_after_a_reserve_the_next_turn_skips_a_combatant_put_out_earlier_ch12_reserved_actions() -> None:
    """Reserving hands the turn to the next combatant who can still act: a companion killed earlier in the
    round keeps his place in the order but is not started ("acts") again."""
    state = build(
        [
            {
                "name": "H",
                "combatants": [
                    {"id": "hero", "player": True, "tactic": "hold", "stats": HERO, "at": [0, 0]},
                    {"id": "pal", "player": True, "tactic": "hold", "stats": HERO, "at": [0, 1]},
                ],
            },
            {"name": "F", "combatants": [{"id": "foe", "tactic": "hold", "stats": FOE, "at": [1, 0]}]},
        ]
    )
    f = initiative(state, [6, 4, 2])  # hero 6, pal 4, foe 2
    assert state.order == ["hero", "pal", "foe"]
    state.combatants["pal"].status = "dead"
    events = f.submit(cmd("hero", "reserve", initiative=1))
    assert state.order == ["pal", "foe", "hero"]
    assert [e.actor for e in of(events, ev.TurnStarted)] == ["foe"]


def test_a_retreat_escapes_beyond_the_enemies_full_movement_ch12_movement() -> None:
    """A retreating character is out of the fight when no enemy could reach him at its Full Movement next
    round (docs: choices). The foe's Full Movement is 6 yards here (3 hexes), its Combat Movement 12: the
    ED4 reach (twice the Combat Movement) would still hold the hero."""
    foe = dict(FOE, full_movement=6)
    state, f = at_heros_turn([], foe=foe, plan={"hero": decl("hero", "run", options=["retreat"])})
    path = [[-i, 0] for i in range(1, 5)]  # to (-4, 0): 5 hexes from the foe, beyond 3 + 1
    events = f.submit(cmd("hero", "run", path=path, flee=True))
    [fled] = [e for e in of(events, ev.StatusChanged) if e.status == "fled"]
    assert fled.rule.startswith("ed1/actions/special-retreat")


def test_a_retreat_within_an_enemys_full_movement_does_not_escape() -> None:
    state, f = at_heros_turn([], plan={"hero": decl("hero", "run", options=["retreat"])})
    events = f.submit(cmd("hero", "run", path=[[-i, 0] for i in range(1, 5)], flee=True))
    assert not [e for e in of(events, ev.StatusChanged) if e.status == "fled"]  # the foe runs 12 hexes


@pytest.mark.parametrize(
    ("declared", "swoop", "plus"), [([], True, 2), (["swoop"], False, 2), (["swoop"], True, 0)]
)
def test_a_swoop_not_declared_or_not_made_is_a_change_ch12_changing_declared_action(
    declared: list[str], swoop: bool, plus: int
) -> None:
    """As a charge: the swooping attack is declared with the action (ch.12§Special-Actions); making one not
    declared, or not making the one declared, changes the declared action (+2)."""
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thom-hammerblade", "id": "thom", "at": [0, 0], "player": True}],
            },
            {"name": "B", "combatants": [{"template": "espagra", "id": "esp", "at": [1, 0], "player": True}]},
        ]
    )
    f = fight(state, [1, 3, 1, *[1] * 12])  # Thom 1, the espagra 3 + 1; its attacks miss (Rule of One)
    declare(
        f,
        {"thom": decl("thom", "other"), "esp": decl("esp", "attack", "thom", options=declared)},
    )
    auto(f, "esp")
    args = {"swoop": True, "after": [[2, 0]]} if swoop else {}
    attacks = rolled(f.submit(cmd("esp", "attack", "thom", attack="Claws", **args)), "Attack")
    assert attacks and {a.dn for a in attacks} == {state.combatants["thom"].stats.physical_defense + plus}


def test_moving_on_after_the_action_is_one_movement_ch12_movement() -> None:
    """Movement after the action ("move and then attack, or vice versa") may go on in a second command: the
    character moved only after his attack, so it is still all at once; it was refused as "moved before"."""
    state, f = at_heros_turn([3, 2, 1, 1])
    f.submit(cmd("hero", "attack", "foe", attack="Sword", after=[[-1, 0]], end=False))
    f.submit(cmd("hero", "move", path=[[-2, 0]]))
    assert state.combatants["hero"].pos == (-2, 0)


def test_armor_heavier_than_the_dexterity_step_still_shows_and_talents_count_once_ch12_combat_round_2() -> (
    None
):
    """Dexterity step 6 (Thom) less 7 steps of armor and shield penalties is -1: the catalog floors its
    derived step at 1, which was taken for an encounter override (the armor not shown, the talent added to
    1). Now: 6 - 7 + 2 (talent) = 1, each piece shown."""
    import dataclasses

    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {
                        "template": "thom-hammerblade",
                        "id": "thom",
                        "player": True,
                        "stats": {"initiative_talents": {"Air Dance": 2}},
                    }
                ],
            },
            {"name": "B", "combatants": [{"template": "bog-gob", "id": "g", "at": [5, 0], "tactic": "hold"}]},
        ]
    )
    thom = state.combatants["thom"]
    thom.stats = dataclasses.replace(thom.stats, armor_penalty=6, shield_penalty=1, initiative_step=1)
    base, mods = ED1.initiative_step(state, thom, None)
    assert base == 6
    assert [m.value for m in mods] == [-6, -1, 2]


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

    state = duel()
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


def test_crawling_then_standing_up_and_moving_on_is_split_movement_ch12_movement() -> None:
    """A knocked-down character who crawls (moves before his action) and then stands up (the action) may not
    move on after it: movement all at once (ch.12§Movement); with Splitting Movement he may, within what is
    left of his Combat Movement."""
    for split in (False, True):
        state, f = at_heros_turn([], options={"split-movement": split}, at=(5, 0))
        hero = state.combatants["hero"]
        hero.conditions["knocked-down"] = Condition("knocked-down")
        f.submit(cmd("hero", "move", path=[[-1, 0]]))  # a crawl: 1 hex
        stand = cmd("hero", "stand-up", path=[[-2, 0]])
        if not split:
            with pytest.raises(IllegalCommand, match="all at once") as exc:
                ED1.validate(state, stand)
            assert exc.value.rule.startswith("ed1/movement/all-at-once")
            continue
        with pytest.raises(IllegalCommand, match="can move 5 hexes"):
            ED1.validate(state, cmd("hero", "stand-up", path=[[-i, 0] for i in range(2, 8)]))
        f.submit(stand)
        assert hero.pos == (-2, 0)


def test_a_character_who_retreated_out_of_the_fight_cannot_be_attacked() -> None:
    state, f = at_heros_turn([], at=(3, 0))
    state.combatants["foe"].status = "fled"
    with pytest.raises(IllegalCommand, match="left the fight") as exc:
        ED1.validate(state, cmd("hero", "attack", "foe", attack="Bow"))
    assert exc.value.rule.startswith("ed1/actions/special-retreat")


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


@pytest.mark.parametrize("action", ["delay", "sustain", "act-now", "wait"])
def test_the_ed4_delayed_and_sustained_actions_are_refused_naming_the_reserved_action(action: str) -> None:
    """ED1 has no delayed or sustained action: a character reserves by choosing a lower Initiative
    (ch.12§Reserved-Actions)."""
    state, f = at_heros_turn([])
    with pytest.raises(IllegalCommand, match="reserve") as exc:
        f.submit(cmd("hero", action))
    assert exc.value.rule.startswith("ed1/actions/reserved")
