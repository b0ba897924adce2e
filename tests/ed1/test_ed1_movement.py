"""ED1 movement (ch.12§Movement, §Changing-Declared-Action): moving all at once, before or after the action,
retreats out of the fight, swoops, crawling and standing up.

001 = shared/rules/001_694a1556573a8dc9.txt ("EDRulebook: 12 Combat", cited by section: ch.12§Initiative);
reference = shared/rules/reference (the shared Earthdawn rules ED1 keeps).
"""

from __future__ import annotations

import pytest
from ed1_helpers import ED1, FOE, at_heros_turn, build, decl, declare

from fight_helpers import auto, cmd, fight, of, rolled
from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.errors import IllegalCommand


def test_moving_as_part_of_the_attack_then_again_after_it_is_refused_ch12_movement() -> None:
    state, f = at_heros_turn([3, 2, 1, 1], at=(2, 0))
    f.submit(cmd("hero", "attack", "foe", attack="Sword", path=[[1, 0]], end=False))
    with pytest.raises(IllegalCommand, match="all at once") as exc:
        f.submit(cmd("hero", "move", path=[[1, 1]]))
    assert exc.value.rule.startswith("ed1/movement/all-at-once")


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
