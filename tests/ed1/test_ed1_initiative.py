"""ED1 Initiative (ch.12§Initiative, §Combat-Round.2, §Reserved-Actions): ties, a step below 1, group
Initiative off, reserving into a tie, armor heavier than the Dexterity step, the ED4 actions ED1 lacks.

001 = shared/rules/001_694a1556573a8dc9.txt ("EDRulebook: 12 Combat", cited by section: ch.12§Initiative);
reference = shared/rules/reference (the shared Earthdawn rules ED1 keeps).
"""

from __future__ import annotations

import pytest
from ed1_helpers import ED1, FOE, HERO, after_initiative, at_heros_turn, build, decl, hero_and_foe

from fight_helpers import cmd, of
from fracas.engine import events as ev
from fracas.errors import IllegalCommand


def test_a_player_character_acts_before_a_tied_creature_listed_first_ch12_initiative() -> None:
    """ "If a player character ties his Initiative with a creature or gamemaster character, the player
    character always takes his action first": the creature comes first in the file and still goes second."""
    state = hero_and_foe(foe_first=True)
    f = after_initiative(state, [4, 4])  # the foe (listed first) and the hero both roll 4 on step 5 (d8)
    assert state.initiative == {"foe": 4, "hero": 4}
    assert state.order == ["hero", "foe"]
    [note] = [e for e in of(f.log, ev.Note) if e.rule.startswith("ed1/initiative/ties")]
    assert "same time" in note.text


def test_reserving_into_a_tie_the_player_character_still_goes_first_ch12_reserved_actions() -> None:
    state = hero_and_foe()
    f = after_initiative(state, [2, 6])  # hero 2, foe 6: the foe acts first
    assert state.order == ["foe", "hero"]
    f.submit(cmd("foe", "reserve", initiative=2))
    assert state.initiative["foe"] == 2 and state.order == ["hero", "foe"]


def test_an_initiative_step_below_1_is_rolled_at_step_1() -> None:
    """The text does not say (docs: choices): a step pushed below 1 (Wounds here: 5 - (7 - 1)) rolls at 1."""
    state = hero_and_foe()
    state.combatants["hero"].counters["wounds"] = 7
    f = after_initiative(state, [3, 3])
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
        f = after_initiative(state, [2, 3, 4], {"thom": decl("thom", "other")})
        ork = [e for e in of(f.log, ev.InitiativeRolled) if e.actor.startswith("ork")]
        assert sum(e.roll is not None for e in ork) == rolls


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
    f = after_initiative(state, [6, 4, 2])  # hero 6, pal 4, foe 2
    assert state.order == ["hero", "pal", "foe"]
    state.combatants["pal"].status = "dead"
    events = f.submit(cmd("hero", "reserve", initiative=1))
    assert state.order == ["pal", "foe", "hero"]
    assert [e.actor for e in of(events, ev.TurnStarted)] == ["foe"]


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


@pytest.mark.parametrize("action", ["delay", "sustain", "act-now", "wait"])
def test_the_ed4_delayed_and_sustained_actions_are_refused_naming_the_reserved_action(action: str) -> None:
    """ED1 has no delayed or sustained action: a character reserves by choosing a lower Initiative
    (ch.12§Reserved-Actions)."""
    state, f = at_heros_turn([])
    with pytest.raises(IllegalCommand, match="reserve") as exc:
        f.submit(cmd("hero", action))
    assert exc.value.rule.startswith("ed1/actions/reserved")
