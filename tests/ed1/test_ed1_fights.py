"""Whole ED1 fights: the bundled examples end, replay from their JSON events and are reproducible by seed;
random stat blocks keep the books balanced (hypothesis); the command lines docs/rulesets/ed1.md shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ed1_helpers import ED1, TEXT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fight_helpers import seeded
from fracas.cli import main
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight, replay
from fracas.rules.cite import catalog

EXAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("examples", "ed1").glob("*.yaml"))


def _run(state, seed: int) -> Fight:
    f = seeded(state, seed, ED1)
    f.run()
    return f


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_ends_replays_and_is_reproducible(path: Path) -> None:
    assert EXAMPLES, "no ED1 examples found"
    for seed in (1, 3, 7, 11):
        _, initial = encounter.load(path)
        f = _run(initial.clone(), seed)
        assert f.state.ended and f.state.winner is not None
        wire = [json.loads(json.dumps(ev.to_json(e))) for e in f.log]
        again = replay(ED1, initial, [ev.from_json(d) for d in wire])
        assert again.snapshot() == f.state.snapshot()
        g = _run(encounter.load(path)[1], seed)
        assert [ev.to_json(e) for e in g.log] == [ev.to_json(e) for e in f.log]
        _check_books(f)


def test_the_skirmish_shows_the_ed1_rules() -> None:
    """Across a few seeds the ork riders charge, someone reserves against them, a declaration changes
    (+2), tests report ED1 success levels and an armor-defeating hit happens."""
    path = next(p for p in EXAMPLES if "ork-rider" in p.name)
    seen: set[str] = set()
    for seed in range(1, 13):
        f = _run(encounter.load(path)[1], seed)
        for e in f.log:
            rule = getattr(e, "rule", "") or ""
            for key in ("charge", "actions.reserved", "changed", "attack.armor-defeating"):
                if rule == catalog("ed1").refs[key]:
                    seen.add(key)
            for _v, _w, r in getattr(e, "modifiers", ()) or ():
                if r == catalog("ed1").refs["changed"]:
                    seen.add("changed")
            if isinstance(e, ev.Rolled) and e.dn is not None:
                assert e.extra == 0
                if e.outcome.split()[0] in ("Good", "Excellent", "Extraordinary"):
                    seen.add("levels")
    assert seen == {"charge", "actions.reserved", "changed", "attack.armor-defeating", "levels"}


def _check_books(f: Fight) -> None:
    damage: dict[str, int] = {cid: 0 for cid in f.state.combatants}
    dead: set[str] = set()
    for e in f.log:
        if isinstance(e, ev.Damaged):
            assert e.counter == "damage"
            damage[e.target] += e.amount
            assert e.amount >= 0 and e.target not in dead
        elif isinstance(e, ev.CounterChanged) and e.counter == "damage":
            damage[e.target] += e.delta
        elif isinstance(e, ev.StatusChanged) and e.status == "dead":
            dead.add(e.target)
        elif isinstance(e, ev.InitiativeRolled):
            assert e.value >= 1 and e.actor not in dead
        elif isinstance(e, ev.Rolled | ev.Moved | ev.TurnStarted | ev.Declared):
            assert e.actor not in dead, f"{e.actor} acts after death: {e}"
    for cid, c in f.state.combatants.items():
        assert c.count("damage") == damage[cid]
        if c.status == "dead":
            assert c.count("damage") >= c.stats.death
        if c.status == "active":
            assert c.count("damage") < c.stats.death


_attack = st.fixed_dictionaries(
    {"name": st.sampled_from(["Claws", "Sword"]), "step": st.integers(1, 25), "damage": st.integers(1, 25)}
)
_block = st.fixed_dictionaries(
    {
        "dexterity": st.integers(1, 30),
        "strength": st.integers(1, 30),
        "toughness": st.integers(1, 30),
        "perception": st.integers(1, 30),
        "willpower": st.integers(1, 30),
        "charisma": st.integers(1, 30),
        "movement": st.integers(4, 40),
        "kind": st.sampled_from(["character", "creature"]),
        "attacks": st.lists(_attack, min_size=1, max_size=2, unique_by=lambda a: a["name"]),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=_block, b=_block, n=st.integers(1, 3), seed=st.integers(0, 10_000), split=st.booleans())
def test_random_fights_end_and_balance(a: dict, b: dict, n: int, seed: int, split: bool) -> None:
    data = {
        "version": 1,
        "ruleset": "ed1",
        "name": "random",
        "max_rounds": 40,
        "options": {"split-movement": split},
        "sides": [
            {"name": "A", "combatants": [{"stats": a, "count": n, "player": True, "id": "hero"}]},
            {"name": "B", "combatants": [{"stats": b, "count": 2, "id": "foe"}]},
        ],
    }
    _, state = encounter.load_data(data)
    f = _run(state, seed)
    assert f.state.ended
    _check_books(f)


# ----- command lines ----------------------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, _err = capsys.readouterr()
    return code, out


def test_fracas_rules_ed1_lists_the_chapter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(capsys, "rules", "ed1", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["source"] == TEXT
    ids = [r["id"] for r in obj["rules"]]
    assert len(ids) == len(set(ids)) == len(catalog("ed1").rules)
    assert all(i.startswith("ed1/") and r["page"] for i, r in zip(ids, obj["rules"], strict=True))
    # every section of the chapter has its rules
    pages = " ".join(r["page"] for r in obj["rules"])
    for section in (
        "Combat-Round.1",
        "Combat-Round.2",
        "Combat-Round.3",
        "Combat-Round.4",
        "§Initiative",
        "§Actions",
        "§Movement",
        "§Simple-Actions",
        "§Talent-Tests",
        "§Special-Actions",
        "§Changing-Declared-Action",
        "§Resolving-Actions",
        "§Difficulty-Number",
        "§Reserved-Actions",
    ):
        assert section in pages, section
    assert {o["id"] for o in obj["optional_rules"]} >= {"split-movement", "group-initiative"}


def test_fracas_odds_step_13_dn_9_ed1_success_levels(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _cli(capsys, "odds", "step 13", "--dn", "9", "--ruleset", "ed1", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["dice_notation"] == "d12!+d10!"
    levels = obj["success_levels"]
    assert set(levels) >= {"Pathetic", "Poor", "Average", "Good", "Excellent", "Extraordinary"}
    # DN 9 row: Pathetic 1-4: d12+d10 at most 4 in 6 of 120 ways, less the Rule of One (1,1)
    assert levels["Pathetic"] == pytest.approx(5 / 120)
    assert sum(levels.values()) == pytest.approx(1.0)


def test_fracas_fight_ed1_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(next(p for p in EXAMPLES if "ork-rider" in p.name))
    code, out = _cli(capsys, "fight", path, "--seed", "3", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert lines[-1]["type"] == "FightEnded"
