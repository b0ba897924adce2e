"""Fixes from the line-by-line acceptance pass over ED4 p.382-398 (000_4b24aca42c3b6366.txt): options
suspended while knocked down, the two-handed hold against a Called Shot, magical shields, a missed throw
scattering (the Brighton example), and the rules list rows the pass added."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import RULESET, act, build, cmd, declare, mods, of, person_registered, start
from ed4_helpers import BLOCK

from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.rules.ed4 import options as o
from fracas.rules.ed4 import ranged, situation
from fracas.rules.ed4.features.readers import in_force, mount_rate


@pytest.fixture(autouse=True)
def _person() -> None:
    person_registered()  # another test module may have removed the test's "person" tactic


def duel(a: dict, b: dict, b_tactic: str = "hold") -> object:
    return build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "tactic": "person", **a}]},
            {"name": "B", "combatants": [{"id": "b", "at": [1, 0], "tactic": b_tactic, **b}]},
        ]
    )


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


def test_brightons_missed_throw_scatters_step_3_p393() -> None:
    # Brighton throws at an enemy with Physical Defense 9 and rolls 6: direction 5, Step 3 (9 - 6), 5 feet
    state = build(
        [
            {"name": "A", "combatants": [{"template": "brighton", "at": [0, 0], "tactic": "person"}]},
            {"name": "B", "combatants": [{"template": "ghoul", "at": [4, 0], "tactic": "hold"}]},
        ]
    )
    assert state.combatants["ghoul"].stats.physical_defense == 9
    f = start(state, [5, 3])
    declare(f, "brighton")
    # Dagger (thrown) step 9 (d8+d6): 4 + 2 = 6; scatter D6 = 5; Step 3 (d4): 4! + 1 = 5 feet
    act(f, "brighton", [4, 2, 5, 4, 1])
    events = f.submit(cmd("brighton", "attack", "ghoul", attack="Dagger (thrown)"))
    att = [e for e in of(events, ev.Rolled) if e.test == "Dagger (thrown) Attack"][0]
    assert att.total == 6 and att.dn == 9 and not att.success
    sc = [e for e in of(events, ev.Rolled) if e.test.startswith("Scatter distance")][0]
    assert sc.test == "Scatter distance (Step 3)" and sc.total == 5
    where = ranged.scatter_hex((4, 0), 5, 5)
    assert any(f"scatters 5 feet in direction 5, to {list(where)}" in e.text for e in of(events, ev.Note))
    assert f.state.combatants["brighton"].marks["thrown_to"] == {"Dagger": list(where)}


def test_the_rules_list_rows_of_the_pass() -> None:
    rows = {r.id: r for r in RULESET.rules()}
    assert rows["ed4/combat/long-reach"].status == "gm-call" and rows["ed4/combat/long-reach"].page == "p.391"
    assert "must beat" in rows["ed4/combat/grappled-other-actions"].note
    assert rows["ed4/option/not-while-knocked-down"].note
    assert rows["ed4/situation/surprised-later"].status == "gm-call"
    assert rows["ed4/situation/surprised-later"].page == "p.390"


def test_a_trained_mount_mounted_mid_round_takes_the_riders_initiative_p395() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "herekar", "at": [0, 0], "tactic": "person"},
                    {"template": "war-horse", "id": "horse", "at": [1, 0], "tactic": "hold",
                     "options": {"training": "trained"}},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [8, 0], "tactic": "hold"}]},
        ]
    )  # fmt: skip
    f = start(state, [9, 1, 1, 5])  # Initiative: Herekar d10 9, the horse 2d6 1+1, the ghoul d12 5
    declare(f, "herekar")
    act(f, "herekar", [])
    assert f.state.order == ["herekar", "ghoul", "horse"]
    events = f.submit(cmd("herekar", "mount", "horse"))
    init = [e for e in of(events, ev.InitiativeRolled) if e.actor == "horse"]
    assert init and init[0].value == 9 and f.state.initiative["horse"] == 9
    assert f.state.order == ["herekar", "horse", "ghoul"]  # it acts right after its rider
    assert f.state.combatants["herekar"].marks["mount"] == "horse"


def test_a_flying_mount_charges_on_its_flying_movement_and_comes_down_p398() -> None:
    from fracas.dice.source import RandomDice
    from fracas.engine.play import Fight
    from fracas.rules.ed4 import mounted

    foe = {**BLOCK, "physical_defense": 7}
    state = build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "griffin", "id": "griffin", "at": [0, 0], "altitude": 8, "tactic": "mount",
                     "stats": {"movement": 6}, "options": {"flying": True, "training": "combat"}},
                    {"template": "ork-scorcher", "id": "rider", "tactic": "person",
                     "options": {"rides": "griffin", "familiar": True}},
                ],
            },
            {"name": "Foes", "combatants": [{"id": "foe", "at": [11, 0], "tactic": "hold", "stats": foe}]},
        ]
    )  # fmt: skip
    griffin = state.combatants["griffin"]
    assert mount_rate(griffin) == 18 and griffin.stats.movement == 6
    f = Fight(RULESET, state, RandomDice(3))
    declare(f, "rider")
    act(f, "rider", [])
    f.dice = RandomDice(3)
    path = [[i, 0] for i in range(1, 11)]  # 20 yards: more than the flying rate 18 (not the ground rate 6)
    events = f.submit(cmd("rider", "charge", "foe", attack="Battle-axe", path=path))
    assert any(isinstance(e, ev.Note) and "charges" in e.text and e.rule == mounted.CHARGE for e in events)
    assert f.state.combatants["rider"].altitude == f.state.combatants["griffin"].altitude == 0
    assert [e for e in of(events, ev.Rolled) if e.test == "Battle-axe Attack"]


def _rider_on_horse() -> object:
    return build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "hold"},
                    {"template": "ork-scorcher", "id": "rider", "tactic": "person",
                     "options": {"rides": "horse", "familiar": True}},
                ],
            },
            {"name": "Foes", "combatants": [{"id": "foe", "at": [9, 0], "tactic": "hold", "stats": BLOCK}]},
        ]
    )  # fmt: skip


def test_a_rider_who_has_not_ridden_may_walk_after_dismounting_p395() -> None:
    from fracas.dice.source import RandomDice
    from fracas.engine.play import Fight

    f = Fight(RULESET, _rider_on_horse(), RandomDice(1))
    declare(f, "rider")
    act(f, "rider", [])
    f.submit(cmd("rider", "dismount", to=[0, 1]))
    assert RULESET._is_legal(f.state, cmd("rider", "move", path=[[1, 1]], end=False))


def test_a_rider_who_rode_this_round_cannot_walk_after_dismounting_p395() -> None:
    from fracas.dice.source import RandomDice
    from fracas.engine.play import Fight

    f = Fight(RULESET, _rider_on_horse(), RandomDice(1))
    declare(f, "rider")
    act(f, "rider", [])
    f.submit(cmd("rider", "move", path=[[1, 0]], end=False))  # the mount's movement
    f.submit(cmd("rider", "dismount", to=[1, 1]))
    assert not RULESET._is_legal(f.state, cmd("rider", "move", path=[[2, 1]], end=False))


def test_partial_cover_counts_against_close_attacks_too_p387() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "stats": BLOCK, "at": [0, 0], "tactic": "person"}]},
            {"name": "B", "combatants": [{"id": "b", "stats": BLOCK, "at": [1, 0], "tactic": "hold"}]},
        ],
        map={"cover": [[1, 0]]},
    )
    f = start(state, [5, 3])
    declare(f, "a")
    act(f, "a", [3, 2])  # Sword step 10 (2d8): a miss
    events = f.submit(cmd("a", "attack", "b", attack="Sword"))
    att = [e for e in of(events, ev.Rolled) if e.test == "Sword Attack"][0]
    assert (2, situation.rule("cover-partial")) in mods(att)
