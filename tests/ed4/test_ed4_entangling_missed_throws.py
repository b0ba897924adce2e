"""A missed throw of an entangling weapon (000_4b24aca42c3b6366.txt p.391-393). A net or bola is a thrown
weapon (p.392: "Some thrown weapons, like bolas and nets, are entangling weapons"), so a missed throw is a
missed ranged attack like any other: it may strike the first character in the way whose Physical Defense the
result reaches (p.392, the Silar/Ulm example), who is then entangled by an extra success against his own
Physical Defense (p.391); and a thrown object that misses scatters (p.393, the Brighton example). The miss
struck nobody and lay on the target's hex."""

from __future__ import annotations

from ed4_chapter_helpers import act, declare, person_registered, start
from ed4_helpers import build

from fight_helpers import cmd, of
from fracas.engine import events as ev
from fracas.rules.ed4 import close, ranged


def _line(weapon: str, victim_pd: int | None):
    a_side = [
        {"template": "bandit", "id": "target", "at": [0, 0], "tactic": "hold",
         "stats": {"physical_defense": 20}},
    ]  # fmt: skip
    if victim_pd is not None:
        a_side.append(
            {"template": "bandit", "id": "victim", "at": [1, 0], "tactic": "hold",
             "stats": {"physical_defense": victim_pd}}
        )  # fmt: skip
    thrower = {
        "template": "bandit",
        "id": "thrower",
        "equipment": {"weapons": [weapon]},
        "at": [3, 0],
        "tactic": "person",
    }
    return build([{"name": "A", "combatants": a_side}, {"name": "B", "combatants": [thrower]}])


def _throw(weapon: str, victim_pd: int | None, faces: list[int]) -> tuple[object, list[ev.Event]]:
    person_registered()
    state = _line(weapon, victim_pd)
    f = start(state, [1] * (len(state.combatants) - 1) + [9])  # the thrower acts first
    declare(f, "thrower")
    act(f, "thrower", faces)
    return f, f.submit(cmd("thrower", "attack", "target", attack=weapon.capitalize()))


def test_a_missed_net_entangles_the_character_in_the_way_it_strikes_p391_p392() -> None:
    # Net step 6 (d10): 10! + 3 = 13 against the target's PD 20 + 1 (one character in the way): a miss.
    # 13 against the victim's PD 5: struck, with one extra success: entangled (p.391); a net makes no
    # Damage test [choice, data/entangling.toml]
    f, events = _throw("net", 5, [10, 3])
    attack = [e for e in of(events, ev.Rolled) if e.test == "Net Attack"][0]
    assert (attack.total, attack.dn, attack.success) == (13, 21, False)
    notes = [e.text for e in of(events, ev.Note) if e.rule == ranged.INTO_CLOSE_RULE]
    assert any("strikes" in n and "instead" in n for n in notes)
    added = [e for e in of(events, ev.ConditionAdded) if e.name == "entangled"]
    assert [(e.target, e.value) for e in added] == [("victim", close.entangling_table()["net"].dn)]
    assert f.state.combatants["victim"].marks["entangled_by"] == ["thrower", "Net"]
    assert "entangled" not in f.state.combatants["target"].conditions
    assert not [e for e in of(events, ev.Rolled) if "Damage" in e.test or "Scatter" in e.test]
    assert f.state.combatants["thrower"].marks["thrown_to"] == {"Net": [1, 0]}  # at the victim's feet


def test_a_missed_bola_strikes_the_one_in_the_way_entangling_without_extra_damage_p391_p392() -> None:
    # Bola: 13 against PD 21 misses; against the victim's PD 5 it strikes with one extra success, spent on
    # entangling: a Damage test with no extra-success bonus (p.391)
    f, events = _throw("bola", 5, [10, 3] + [2] * 10)
    added = [e for e in of(events, ev.ConditionAdded) if e.name == "entangled"]
    assert [e.target for e in added] == ["victim"]
    dmg = [e for e in of(events, ev.Rolled) if e.test == "Bola Damage"]
    assert len(dmg) == 1 and not dmg[0].modifiers
    assert dmg[0].rule == ranged.INTO_CLOSE_RULE


def test_a_missed_net_striking_nobody_scatters_p393() -> None:
    # Net: 10! + 3 = 13 against PD 21 misses; the victim's PD 15 is not reached: nobody struck. The net
    # scatters: D6 direction 2, Step 21 - 13 = 8 (2d6: 1 + 1) feet, and lies there (p.393)
    f, events = _throw("net", 15, [10, 3, 2] + [1] * 6)
    notes = [e.text for e in of(events, ev.Note) if e.rule == ranged.INTO_CLOSE_RULE]
    assert notes == ["the missed shot strikes nobody in the way"]
    scatter = [e for e in of(events, ev.Rolled) if e.test.startswith("Scatter distance")]
    assert len(scatter) == 1 and scatter[0].test == "Scatter distance (Step 8)"
    assert not [e for e in of(events, ev.ConditionAdded) if e.name == "entangled"]
    landed = f.state.combatants["thrower"].marks["thrown_to"]["Net"]
    where = [e for e in of(events, ev.Note) if e.rule == ranged.SCATTER_RULE][0].text
    assert where.endswith(f"to {landed}")
