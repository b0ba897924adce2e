"""The chapter's example encounters (cavalry charge, griffin swoop, ambush in the dark) run to the end with
`fracas fight`, are reproducible by seed, and their JSON events replay to the same final state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.play import Fight, replay
from fracas.rules.registry import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ed4"
NAMES = ["cavalry-charge", "griffin-swoop", "ambush-in-the-dark"]


@pytest.mark.parametrize("name", NAMES)
def test_example_ends_reproducibly_and_replays(name: str) -> None:
    rs = get_ruleset("ed4")
    finals = []
    for _ in range(2):
        _, state = encounter.load(EXAMPLES / f"{name}.yaml")
        initial = state.clone()
        f = Fight(rs, state, RandomDice(11))
        f.run()
        assert state.ended
        events = [ev.from_json(json.loads(json.dumps(ev.to_json(e)))) for e in f.log]
        assert replay(rs, initial, events).snapshot() == state.snapshot()
        finals.append(state.snapshot())
    assert finals[0] == finals[1]


@pytest.mark.parametrize("name", NAMES)
def test_example_runs_in_fracas_fight(name: str) -> None:
    from fracas.cli import app

    out = CliRunner().invoke(app, ["fight", str(EXAMPLES / f"{name}.yaml"), "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert "Victory for " in out.output or "draw" in out.output


def test_examples_use_the_chapter() -> None:
    rs = get_ruleset("ed4")
    seen: set[str] = set()
    for name in NAMES:
        for seed in range(6):
            _, state = encounter.load(EXAMPLES / f"{name}.yaml")
            f = Fight(rs, state, RandomDice(seed))
            f.run()
            for e in f.log:
                rule = getattr(e, "rule", "") or ""
                seen.add(rule.split(" ")[0])
                for m in getattr(e, "modifiers", ()) or ():
                    seen.add(str(m[2]).split(" ")[0])
    for rule in (
        "ed4/mounted/charging-attack",
        "ed4/mounted/rider-and-mount-act",
        "ed4/aerial/swooping-attack",
        "ed4/option/split-movement",
        "ed4/situation/surprised",
        "ed4/situation/darkness",
        "ed4/option/aggressive-attack",
    ):
        assert rule in seen, rule
