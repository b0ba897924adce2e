"""ED4 situation modifiers in play (000_4b24aca42c3b6366.txt p.386-390)."""

from __future__ import annotations

from ed4_chapter_helpers import act, declare, mica_among_ghouls, mods, start
from ed4_helpers import ATTRIBUTES_12, BLOCK, RULESET, build

from fight_helpers import cmd, of
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.engine.state import Condition
from fracas.rules.earthdawn import combat as edc
from fracas.rules.earthdawn.combat import TestContext as Ctx
from fracas.rules.ed4 import situation


def _defense_mods(state, attacker: str, target: str) -> list[tuple[int, str]]:
    a = state.combatants[attacker]
    ctx = edc.TestContext(state, None, "attack", a, state.combatants[target], a.stats.attacks[0])
    return [(m.value, m.rule) for m in RULESET.defense_mods(ctx)]


def test_mica_harried_by_five_ghouls_pd_10_to_8_and_6_from_behind_p388() -> None:
    state = mica_among_ghouls()
    assert state.combatants["mica"].stats.physical_defense == 10
    front = _defense_mods(state, "ghoul-1", "mica")
    behind = _defense_mods(state, "ghoul-4", "mica")  # at (-1, 0): direction 3, straight behind
    assert 10 + sum(v for v, _ in front) == 8
    assert (-2, "ed4/situation/harried p.388") in front
    assert 10 + sum(v for v, _ in behind) == 6
    assert (-2, "ed4/situation/blindsided p.386") in behind


def test_enemies_overhead_out_of_close_reach_neither_harry_nor_engage_p391_p398() -> None:
    """p.391: close combat reaches 2 yards; p.398: fliers move up and down freely. Two of the five ghouls
    10 yards up cannot attack Mica in close combat, so he faces three attackers, not Harried (p.388). They
    were counted as close combat attackers (Harried, and engaging him for Blindsided)."""
    state = mica_among_ghouls()
    for gid in ("ghoul-2", "ghoul-3"):
        state.combatants[gid].altitude = 10
    rules = [r for _, r in _defense_mods(state, "ghoul-1", "mica")]
    assert "ed4/situation/harried p.388" not in rules


def test_harried_lifts_with_fewer_than_four_attackers_p388() -> None:
    state = mica_among_ghouls()
    for gid in ("ghoul-3", "ghoul-4"):
        state.combatants[gid].status = "dead"
    assert all(r != "ed4/situation/harried p.388" for _, r in _defense_mods(state, "ghoul-1", "mica"))


def ambush(light: str = "full-darkness"):
    return build(
        [
            {
                "name": "Travellers",
                "combatants": [
                    {"template": "tomas", "id": "tomas", "at": [0, 0], "tactic": "hold"},
                    {"template": "mica", "id": "mica", "at": [0, 1], "tactic": "hold"},
                ],
            },
            {
                "name": "Orks",
                "combatants": [
                    {
                        "template": "ork-scorcher",
                        "id": "ork",
                        "at": [3, 0],
                        "hidden": True,
                        "tactic": "hold",
                        "options": {"senses": ["low-light-vision"]},
                    }
                ],
            },
        ],
        map={"light": light},
    )


def test_surprise_perception_against_the_lowest_dexterity_step_p390() -> None:
    state = ambush()
    # Tomas: Perception step 7 (d12) - 4 full darkness = step 3 (d4): 2 -> surprised. Mica: Heat Sight,
    # Perception step 5 (d8): 6 -> not surprised. (The Initiative dice come first: nobody declares.)
    f = Fight(RULESET, state, ScriptedDice([3, 3, 3, 2, 6]))
    f.advance_until_decision()
    events = f.log
    perc = [e for e in of(events, ev.Rolled) if e.test.startswith("Perception")]
    assert {e.actor: e.dn for e in perc} == {"tomas": 6, "mica": 6}  # the ork's Dexterity step 6
    tomas = [e for e in perc if e.actor == "tomas"][0]
    assert (-4, "darkness", "ed4/situation/darkness p.387") in [
        (int(v), w.split()[-1], r) for v, w, r in tomas.modifiers
    ]
    assert "surprised" in state.combatants["tomas"].conditions
    assert "surprised" not in state.combatants["mica"].conditions
    assert (-3, "ed4/situation/surprised p.390") in _defense_mods(state, "ork", "tomas")


def test_a_surprised_character_loses_his_turn_p390() -> None:
    state = ambush()
    f = Fight(RULESET, state, ScriptedDice([3, 3, 3, 2, 6] + [3] * 400))
    for _ in range(60):
        f.step()
        if state.round > 1:
            break
    notes = [e.text for e in of(f.log, ev.Note)]
    assert any("Tomas is surprised and cannot act" in t for t in notes)
    assert "surprised" not in state.combatants["tomas"].conditions  # it lasts to the end of the round


def test_darkness_and_senses_on_attack_tests_p387() -> None:
    state = ambush()
    for who, expect in (("tomas", -4), ("mica", 0), ("ork", -2)):
        c = state.combatants[who]
        ctx = edc.TestContext(state, None, "attack", c, None, c.stats.attacks[0])
        got = sum(m.value for m in RULESET.step_mods(ctx) if m.rule == "ed4/situation/darkness p.387")
        assert got == expect, who


def test_partial_cover_against_shots_p387() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "tomas", "id": "tomas", "at": [0, 0], "tactic": "hold"}],
            },
            {
                "name": "B",
                "combatants": [{"template": "ork-scorcher", "id": "ork", "at": [6, 0], "tactic": "hold"}],
            },
        ],
        map={"cover": [[0, 0]]},
    )
    ork = state.combatants["ork"]
    bow = ork.stats.attack("Light crossbow")
    ctx = edc.TestContext(state, None, "attack", ork, state.combatants["tomas"], bow)
    assert (2, "ed4/situation/cover p.387") in [(m.value, m.rule) for m in RULESET.defense_mods(ctx)]


def test_surprise_needs_hidden_enemies() -> None:
    state = ambush("bright")
    state.combatants["ork"].hidden = False
    f = start(state, [3, 3, 3])
    f.advance_until_decision()
    assert not [e for e in of(f.log, ev.Rolled) if e.test.startswith("Perception")]


def test_defensive_stance_does_not_help_against_a_blindside_p384() -> None:
    state = mica_among_ghouls()
    state.declarations["mica"] = {"action": "attack", "options": ("defensive-stance",)}
    front = _defense_mods(state, "ghoul-1", "mica")
    behind = _defense_mods(state, "ghoul-4", "mica")
    assert (3, "ed4/option/defensive-stance p.384") in front
    assert (3, "ed4/option/defensive-stance p.384") not in behind


def test_knocked_down_mica_minus_3_on_his_next_initiative_p389() -> None:
    from fracas.engine.state import Condition

    state = mica_among_ghouls()
    mica = state.combatants["mica"]
    mica.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    base, mods = RULESET.initiative_step(state, mica, None)
    assert (-3, "ed4/situation/knocked-down p.389") in [(m.value, m.rule) for m in mods]


def test_facing_follows_movement_so_no_blindside_from_the_front_p387() -> None:
    """p.386-387: Blindsided is an attack from the rear of a defender who keeps another enemy in front; a
    combatant faces where it moves, so after walking east (engaged by c) b's shot from the east is from its
    front, not its rear."""

    from fracas.engine.commands import Command
    from fracas.engine.hexgrid import direction_to

    block = {
        **ATTRIBUTES_12,
        "attacks": [
            {"name": "Bow", "step": 10, "damage": 10, "kind": "missile", "range": [20, 40]},
            {"name": "Sword", "step": 10, "damage": 10},
        ],
    }
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "tactic": "person", "stats": block}]},
            {
                "name": "B",
                "combatants": [
                    {"id": "b", "at": [8, 0], "tactic": "hold", "stats": block},
                    {"id": "c", "at": [2, -1], "tactic": "hold", "stats": block},
                ],
            },
        ]
    )
    state.combatants["a"].facing = direction_to((0, 0), (-1, 0))  # facing west, away from b
    f = start(state, [5, 3, 3])
    declare(f, "a")
    act(f, "a", [1] * 6)
    f.submit(Command("a", "move", args={"path": [[1, 0], [2, 0]]}))
    assert f.state.combatants["a"].facing == direction_to((1, 0), (2, 0))
    assert (-2, "ed4/situation/blindsided p.386") not in _defense_mods(f.state, "b", "a")
    f.state.combatants["a"].facing = direction_to((0, 0), (-1, 0))  # had it not turned: b is behind it
    assert (-2, "ed4/situation/blindsided p.386") in _defense_mods(f.state, "b", "a")


def _knocked_down_duel(**extra):
    from fracas.engine.state import Condition

    block = {**ATTRIBUTES_12, "attacks": [{"name": "Sword", "step": 10, "damage": 10}]}
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "stats": block, "tactic": "person"}]},
            {"name": "B", "combatants": [{"id": "b", "at": [9, 0], "stats": block, "tactic": "hold"}]},
        ],
        **extra,
    )
    state.combatants["a"].conditions["knocked-down"] = Condition("knocked-down", None, 3)
    return state


def test_standing_up_then_walking_is_limited_by_impaired_movement_p389() -> None:
    """p.389: heavy impairment reduces the Movement Rate by 10 (never below 1); standing up takes the
    Standard action, and what is walked after it is the Movement Rate on foot. The walk after standing up
    was the unimpaired Movement Rate (6 hexes instead of 1)."""

    from fracas.errors import IllegalCommand

    state = _knocked_down_duel(map={"extra": {"impaired": "heavy"}})
    f = start(state, [3, 3])
    declare(f, "a")
    act(f, "a", [])
    try:
        f.submit(cmd("a", "stand-up", path=[[1, 0], [2, 0]]))
        raise AssertionError("two hexes after standing up in heavy impairment were allowed")
    except IllegalCommand as err:
        assert err.rule == "ed4/situation/knocked-down p.389"
    f.submit(cmd("a", "stand-up", path=[[1, 0]]))
    assert state.combatants["a"].pos == (1, 0) and "knocked-down" not in state.combatants["a"].conditions


def test_crawl_stand_up_and_walk_is_split_movement_p386_p389() -> None:
    """p.389: the knocked down may crawl; standing up takes the Standard action; p.386: moving before and
    after the action needs Splitting Movement, which the knocked down cannot declare (p.382). Crawling one
    hex, standing up and walking on was allowed, with the whole Movement Rate again."""

    from fracas.errors import IllegalCommand

    state = _knocked_down_duel()
    f = start(state, [3, 3])
    declare(f, "a")
    act(f, "a", [])
    f.submit(cmd("a", "move", path=[[1, 0]], end=False))
    try:
        f.submit(cmd("a", "stand-up", path=[[2, 0]]))
        raise AssertionError("crawl, stand up and walk was allowed without Splitting Movement")
    except IllegalCommand as err:
        assert err.rule == "ed4/option/split-movement p.386"
    f.submit(cmd("a", "stand-up"))
    assert state.combatants["a"].pos == (1, 0) and "knocked-down" not in state.combatants["a"].conditions


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


HARRIED = "ed4/situation/harried p.388"
STANCE = "ed4/option/defensive-stance p.384"
KNOCKED_DOWN = "ed4/situation/knocked-down p.389"
WOUNDS = "ed4/wounds/penalties p.381"


def test_initiative_takes_neither_stance_nor_harried_but_wounds_and_knocked_down_p384_p388_p389() -> None:
    state = mica_among_ghouls()
    mica = state.combatants["mica"]
    # Defensive Stance and Splitting Movement declared, five ghouls around him, entangled: harried thrice over
    state.declarations["mica"] = {"action": "attack", "options": ("defensive-stance", "split-movement")}
    mica.conditions["entangled"] = Condition("entangled", None, 8)
    attack = RULESET.step_mods(Ctx(state, None, "attack", mica))
    rules = [m.rule for m in attack]
    assert STANCE in rules and HARRIED in rules  # they are in force on his Action tests
    _, mods = RULESET.initiative_step(state, mica, None)
    assert [m.rule for m in mods] == []  # none of them on his Initiative test
    # Wounds count on every test but Recovery (p.381); knocked down: -3 on his next Initiative test (p.389)
    mica.counters["wounds"] = 2
    mica.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    state.declarations["mica"] = {"action": "attack", "options": ()}
    _, mods = RULESET.initiative_step(state, mica, None)
    assert sorted((m.value, m.rule) for m in mods) == [(-3, KNOCKED_DOWN), (-2, WOUNDS)]
