"""Property tests over many random fights with the chapter's rules in play (ED4 p.382-398): Strain, Wounds
and conditions stay consistent with the events, and the options' restrictions are never broken."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ed4_helpers import RULESET
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.rules.ed4 import options as o

attr = st.integers(min_value=5, max_value=18)


@st.composite
def stat_block(draw: Any) -> dict:
    ranged = draw(st.booleans())
    step, damage, size = draw(st.integers(5, 14)), draw(st.integers(5, 16)), draw(st.integers(1, 5))
    attacks = [{"name": "Blade", "kind": "melee", "step": step, "damage": damage, "size": size}]
    if ranged:
        attacks.append({"name": "Bow", "kind": "missile", "step": draw(st.integers(5, 14)),
                        "damage": draw(st.integers(5, 12)), "range": [2, 20, 40]})  # fmt: skip
    return {
        "kind": draw(st.sampled_from(["character", "creature"])),
        "dexterity": draw(attr),
        "strength": draw(attr),
        "toughness": draw(attr),
        "perception": draw(attr),
        "willpower": draw(attr),
        "charisma": draw(attr),
        "physical_armor": draw(st.integers(0, 6)),
        "actions": draw(st.integers(1, 2)),
        "attacks": attacks,
    }


@st.composite
def fight_data(draw: Any) -> dict:
    a = [{"stats": draw(stat_block()), "tactic": "veteran", "player": draw(st.booleans())}
         for _ in range(draw(st.integers(1, 3)))]  # fmt: skip
    extra = draw(st.sampled_from(["none", "maloren", "ulm", "silar", "mica"]))
    if extra == "ulm":
        a.append({"template": "ulm", "tactic": "veteran", "equipment": {"weapons": ["spear", "troll-sword"]}})
    elif extra != "none":
        a.append({"template": extra, "tactic": draw(st.sampled_from(["veteran", "sentinel"]))})
    b = [{"stats": draw(stat_block()), "tactic": "veteran", "hidden": draw(st.booleans())}
         for _ in range(draw(st.integers(1, 3)))]  # fmt: skip
    if draw(st.booleans()):
        b.append({"template": "griffin", "tactic": "veteran", "altitude": 8, "options": {"flying": True}})
    if draw(st.booleans()):
        b.append({"template": "war-horse", "id": "horse", "tactic": "mount"})
        b.append({"template": "ork-scorcher", "id": "rider", "tactic": "veteran",
                  "options": {"rides": "horse", "familiar": True}})  # fmt: skip
    for i, c in enumerate(a):
        c["at"] = [0, i * 2]
        c["id"] = f"a{i}"
    for i, c in enumerate(b):
        c.setdefault("id", f"b{i}")
        if c["id"] != "rider":
            c["at"] = [9, i * 2]
    return {
        "version": 1,
        "ruleset": "ed4",
        "name": "random",
        "max_rounds": 25,
        "options": {"long-falls": draw(st.booleans())},
        "map": {"light": draw(st.sampled_from(["bright", "partial-darkness", "full-darkness"]))},
        "sides": [{"name": "A", "combatants": a}, {"name": "B", "combatants": b}],
    }


def check(events: list[ev.Event], initial: Any) -> None:
    state = initial.clone()
    damage: dict[str, int] = defaultdict(int)
    wounds: dict[str, int] = defaultdict(int)
    close_tests: dict[tuple[str, int], int] = defaultdict(int)
    aggr_strain: dict[tuple[str, int], int] = defaultdict(int)
    split_strain: dict[tuple[str, int], int] = defaultdict(int)
    for e in events:
        if isinstance(e, ev.Declared):
            c = state.combatants[e.actor]
            opts = set(e.options)
            assert not (o.AGGRESSIVE in opts and o.DEFENSIVE in opts)
            if "knocked-down" in c.conditions:
                assert opts <= {o.JUMP_UP}
            else:
                assert o.JUMP_UP not in opts
            assert not (opts and "surprised" in c.conditions)
        if isinstance(e, ev.Rolled) and e.test.endswith(" Attack") and e.actor in state.combatants:
            c = state.combatants[e.actor]
            assert c.status == "active", f"{c.id} attacks while {c.status}"
            a = c.stats.attack(e.test[: -len(" Attack")])
            if a is not None and a.close:
                close_tests[(e.actor, state.round)] += 1
        if isinstance(e, ev.Damaged):
            assert e.amount >= 0
            if e.counter == "damage":
                damage[e.target] += e.amount
            if e.damage_type == "strain" and e.rule.startswith("ed4/option/aggressive"):
                aggr_strain[(e.target, state.round)] += e.amount
            if e.damage_type == "strain" and e.rule.startswith("ed4/option/split"):
                split_strain[(e.target, state.round)] += e.amount
        if isinstance(e, ev.CounterChanged) and e.counter == "damage":
            damage[e.target] += e.delta
        if isinstance(e, ev.Wounded):
            wounds[e.target] += e.wounds
        if isinstance(e, ev.ConditionAdded) and e.name == "surprised":
            assert state.round == 1
        state.apply(e)
    for c in state.combatants.values():
        assert c.counters.get("damage", 0) == damage[c.id]
        assert c.counters.get("wounds", 0) == wounds[c.id]
        assert all(v >= 0 for k, v in c.counters.items() if k != "delta")
        p = c.stats
        if c.status == "dead":
            assert c.counters.get("damage", 0) >= p.death
        if c.status == "active":
            assert c.counters.get("damage", 0) < p.death
            if p.unconsciousness is not None:
                assert c.counters.get("damage", 0) + c.counters.get("stun", 0) < p.unconsciousness
        assert "surprised" not in c.conditions or state.round <= 1
    for key, n in aggr_strain.items():
        assert n == close_tests[key] or (close_tests[key] == 0 and n == 1), (key, n, close_tests[key])
    assert all(n == 1 for n in split_strain.values())


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(fight_data(), st.integers(0, 2**31))
def test_strain_wounds_and_conditions_stay_consistent(data: dict, seed: int) -> None:
    spec, initial = encounter.load_data(data, "<random>")
    for s in range(8):  # 250 x 8 = 2,000 fights
        state = initial.clone()
        f = Fight(RULESET, state, RandomDice(seed + s))
        f.run()
        assert state.ended
        check(f.log, initial)
