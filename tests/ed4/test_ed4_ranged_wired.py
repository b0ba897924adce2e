"""ED4 ranged combat in play (000_4b24aca42c3b6366.txt p.392-393)."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import ATTRIBUTES_12, build

from fight_helpers import cmd, of
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.errors import IllegalCommand
from fracas.rules.ed4 import ranged


def block(pd: int) -> dict:
    return {**ATTRIBUTES_12, "physical_defense": pd, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}


def melee():
    return build(
        [
            {
                "name": "Silar's friends",
                "combatants": [
                    {"template": "silar", "id": "silar", "at": [0, 0], "tactic": "person"},
                    {"template": "ulm", "id": "ulm", "at": [2, 0], "tactic": "hold"},
                    {"name": "Friend", "id": "friend", "at": [3, 0], "tactic": "hold", "stats": block(7)},
                ],
            },
            {
                "name": "Bandits",
                "combatants": [
                    {"name": "Bandit", "id": "near", "at": [1, 0], "tactic": "hold", "stats": block(10)},
                    {"name": "Bandit", "id": "other", "at": [4, 0], "tactic": "hold", "stats": block(9)},
                    {
                        "name": "Target",
                        "id": "target",
                        "at": [5, 0],
                        "facing": 3,
                        "tactic": "hold",
                        "stats": block(9),
                    },
                ],
            },
        ]
    )


def test_silar_into_the_melee_dn_13_result_9_hits_ulm_p392() -> None:
    state = melee()
    assert state.combatants["ulm"].stats.physical_defense == 8
    f = start(state, [3] * 6)
    declare(f, "silar")
    act(f, "silar", [5, 4, 4, 4])  # d12 5 + d10 4 = 9 against 9 + 4 = 13; then the bolt's damage 2d8
    events = f.submit(cmd("silar", "attack", "target", attack="Medium crossbow"))
    shot = [e for e in of(events, ev.Rolled) if e.test == "Medium crossbow Attack"][0]
    assert (shot.total, shot.dn, shot.success) == (9, 13, False)
    assert (4, "ed4/combat/ranged-into-close-combat p.392") in [(int(v), r) for v, _, r in shot.modifiers]
    hit = [e for e in of(events, ev.Damaged) if e.source == "silar"]
    assert [h.target for h in hit] == ["ulm"]
    assert any("strikes Ulm instead" in e.text for e in of(events, ev.Note))


def test_beyond_long_range_and_inside_the_minimum_refused_p392() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "silar", "id": "silar", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {"name": "Far", "id": "far", "at": [41, 0], "tactic": "hold", "stats": block(7)}
                ],
            },
        ]
    )
    f = start(state, [3, 3])
    declare(f, "silar")
    act(f, "silar", [])
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("silar", "attack", "far", attack="Medium crossbow"))
    assert err.value.rule == "ed4/combat/ranged p.392"


def test_throw_at_an_area_dn_7_and_scatter_p393() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "brighton", "id": "brighton", "at": [0, 0], "tactic": "person"}],
            },
            {
                "name": "B",
                "combatants": [
                    {"name": "Foe", "id": "foe", "at": [6, 0], "tactic": "hold", "stats": block(9)}
                ],
            },
        ]
    )
    for seed in range(8):
        st = state.clone()
        f = start(st, [1, 1])
        declare(f, "brighton")
        act(f, "brighton", [])
        f.dice = RandomDice(seed)
        events = f.submit(cmd("brighton", "throw-at", attack="Dagger (thrown)", at=[5, 0]))
        throw = [e for e in of(events, ev.Rolled) if e.test.endswith("thrown at an area")][0]
        assert throw.dn == 7
        scatter = [e for e in of(events, ev.Rolled) if e.test.startswith("Scatter")]
        if throw.success:
            assert not scatter
        else:
            assert scatter and scatter[0].step == max(1, 7 - throw.total)


def test_a_thrown_spear_is_gone_until_picked_up_p392() -> None:
    """A thrown weapon leaves the hand (ranged combat, p.392): after the throw neither the thrown nor the
    close combat attack of that spear can be made again, and the tactic picks another weapon."""
    from fracas.engine.commands import Command
    from fracas.rules.ed4 import ranged as rg

    block = {
        **ATTRIBUTES_12,
        "attacks": [
            {"name": "Spear", "step": 10, "damage": 10, "size": 4},
            {"name": "Spear (thrown)", "step": 10, "damage": 10, "kind": "thrown", "range": [10, 20]},
            {"name": "Dagger (thrown)", "step": 8, "damage": 8, "kind": "thrown", "range": [10, 20]},
        ],
    }
    state = build(
        [
            {"name": "A", "combatants": [{"id": "a", "at": [0, 0], "tactic": "person", "stats": block}]},
            {"name": "B", "combatants": [{"id": "b", "at": [3, 0], "tactic": "hold", "stats": block}]},
        ]
    )
    f = start(state, [5, 3])
    declare(f, "a")
    act(f, "a", [1] * 10)
    f.submit(Command("a", "attack", "b", args={"attack": "Spear (thrown)"}))
    assert sorted(f.state.combatants["a"].marks["thrown_away"]) == ["Spear", "Spear (thrown)"]
    for name in ("Spear (thrown)", "Spear"):
        with pytest.raises(IllegalCommand) as err:
            f.ruleset.validate(f.state, Command("a", "attack", "b", args={"attack": name}))
        assert err.value.rule == rg.RANGED_RULE
    f.ruleset.validate(f.state, Command("a", "attack", "b", args={"attack": "Dagger (thrown)"}))


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
