"""Entangling weapons in ED4 (000_4b24aca42c3b6366.txt p.391-392): the bundled whip, bola and net, the
extra success that entangles, breaking free (and cutting free with a blade, which ruins the weapon), and
the slavers' example fight in which the whole path runs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml
from ed4_chapter_helpers import act, declare, person_registered, start
from ed4_helpers import RULESET, build

from fight_helpers import cmd, of
from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.earthdawn.catalog import load_catalog
from fracas.rules.ed4 import close


@pytest.fixture(autouse=True)
def _person() -> None:
    person_registered()  # another test module may have removed the test's "person" tactic


ROOT = Path(__file__).resolve().parents[2]


def test_the_bundled_entangling_weapons_p391_p392() -> None:
    # p.391 names whips, p.392 bolas and nets as entangling weapons; their numbers are data [verify/choice]
    weapons = load_catalog("ed4").weapons
    assert weapons["whip"].entangling and weapons["whip"].kind == "melee"
    assert weapons["bola"].entangling and weapons["bola"].kind == "thrown"
    assert weapons["net"].entangling and weapons["net"].kind == "thrown"
    table = close.entangling_table()
    assert set(table) == {"whip", "bola", "net"}  # every bundled entangling weapon has its DN row
    assert all(r.confidence == "choice" for r in table.values())  # the text gives no DN: labelled choices
    assert close.entangle_dn("whip", 9) == table["whip"].dn
    assert close.entangle_dn(None, 9) == 9  # a creature's entangling attack: its Damage Step [choice]
    assert close.entangles_only("net") and not close.entangles_only("whip")


def test_one_handed_blades_cut_free_p391() -> None:
    assert close.is_one_handed_blade("Short sword", 2)
    assert close.is_one_handed_blade("Dagger", 1)
    assert not close.is_one_handed_blade("Mace", 3)  # not a blade
    assert not close.is_one_handed_blade("Two-handed sword", 6)  # not one-handed
    assert close.is_one_handed_blade("Troll sword", 4, one_handed_limit=4)


def _whip_duel():
    return build(
        [
            {"name": "A", "combatants": [{"template": "brighton", "at": [0, 0], "tactic": "person"}]},
            {
                "name": "B",
                "combatants": [
                    {
                        "template": "bandit",
                        "id": "whipper",
                        "equipment": {"weapons": ["whip"]},
                        "at": [1, 0],
                        "tactic": "person",
                    }
                ],
            },
        ]
    )


def test_a_whip_entangles_with_an_extra_success_and_a_blade_cuts_free_p391() -> None:
    state = _whip_duel()
    f = start(state, [1, 9])  # Initiative d10 each: Brighton 1, the whipper 9
    declare(f, "brighton")
    declare(f, "whipper")
    # Whip step 9 (d8+d6): 7 + 6! + 1 = 14 against Brighton's PD 8: one extra success -> entangled (p.391)
    act(f, "whipper", [7, 6, 1, 3, 2])
    events = f.submit(cmd("whipper", "attack", "brighton", attack="Whip"))
    added = [e for e in of(events, ev.ConditionAdded) if e.name == "entangled"]
    assert added and added[0].value == close.entangling_table()["whip"].dn
    dmg = [e for e in of(events, ev.Rolled) if e.test == "Whip Damage"][0]
    assert not dmg.modifiers  # the extra success spent on entangling adds no damage (p.391)
    assert f.state.combatants["brighton"].marks["entangled_by"] == ["whipper", "Whip"]
    # Brighton: Strength 5 / Dexterity 6 -> step 6, + his short sword's Damage Step 4 = step 10 (2d8):
    # 4 + 3 = 7 against the whip's DN 7 (p.391)
    act(f, "brighton", [4, 3])
    events = f.submit(cmd("brighton", "break-free"))
    roll = [e for e in of(events, ev.Rolled) if e.test == "Break free (entangled)"][0]
    assert roll.total == 7 and roll.success and any(v == 4 for v, _, _ in roll.modifiers)
    gone = [e for e in of(events, ev.ConditionRemoved) if e.name == "entangled"]
    assert gone and gone[0].why == "cuts free"
    # cutting free ruins the entangling weapon: the whipper has lost his whip (p.391)
    assert "Whip" in f.state.combatants["whipper"].marks["lost_weapons"]
    assert "entangled_by" not in f.state.combatants["brighton"].marks


def test_the_entangled_is_harried_except_to_break_free_p391() -> None:
    state = _whip_duel()
    f = start(state, [1, 9])
    declare(f, "brighton")
    declare(f, "whipper")
    act(f, "whipper", [7, 6, 1, 3, 2])
    f.submit(cmd("whipper", "attack", "brighton", attack="Whip"))
    act(f, "brighton", [5, 3])
    events = f.submit(cmd("brighton", "attack", "whipper", attack="Short sword"))
    att = [e for e in of(events, ev.Rolled) if e.test == "Short sword Attack"][0]
    assert any(v == -2 and "arried" in why for v, why, _ in att.modifiers)


def test_a_thrown_net_only_entangles_and_lies_where_it_fell_p392() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"template": "tomas", "at": [0, 0], "tactic": "person"}]},
            {
                "name": "B",
                "combatants": [
                    {
                        "template": "bandit",
                        "id": "netter",
                        "equipment": {"weapons": ["net"]},
                        "at": [3, 0],
                        "tactic": "person",
                    }
                ],
            },
        ]
    )
    f = start(state, [1, 9])
    declare(f, "tomas")
    declare(f, "netter")
    # Net thrown at 6 yards (short range), step 6 (d10): 10! + 3 = 13 against PD 7: one extra success
    act(f, "netter", [10, 3])
    events = f.submit(cmd("netter", "attack", "tomas", attack="Net"))
    assert [e for e in of(events, ev.ConditionAdded) if e.name == "entangled"][0].value == 10
    assert not [e for e in of(events, ev.Rolled) if "Damage" in e.test]  # a net makes no Damage test
    netter = f.state.combatants["netter"]
    assert netter.marks["thrown_to"] == {"Net": [0, 0]} and "Net" in netter.marks["thrown_away"]
    # Tomas: Strength 5 / Dexterity 5 -> step 5, + his dagger's Damage Step 2 = step 7 (d12): 7 < DN 10
    act(f, "tomas", [7])
    events = f.submit(cmd("tomas", "break-free"))
    assert not [e for e in of(events, ev.ConditionRemoved) if e.name == "entangled"]


def test_the_slavers_example_runs_entangling_and_breaking_free_p391() -> None:
    data = yaml.safe_load((ROOT / "examples/ed4/slavers-nets.yaml").read_text())
    seen: Counter[str] = Counter()
    for seed in (1, 2, 3, 4):
        state = encounter.load_data(data, "slavers-nets.yaml")[1]
        f = Fight(RULESET, state, RandomDice(seed), seed=seed)
        f.run()
        assert f.state.ended
        for e in f.log or ():
            if isinstance(e, ev.ConditionAdded) and e.name == "entangled":
                seen["entangled"] += 1
            if isinstance(e, ev.Rolled) and e.test == "Break free (entangled)":
                seen["break free"] += 1
            if isinstance(e, ev.ConditionRemoved) and e.name == "entangled":
                seen["freed"] += 1
            if isinstance(e, ev.Declared) and e.actor == "slaver-chief":
                assert (
                    "attack-to-stun" in e.options
                    or "surprised" in f.state.combatants["slaver-chief"].conditions
                )
    assert seen["entangled"] and seen["break free"] and seen["freed"]
