"""Golden event streams for the bundled Spells & Swords examples: the same file and seed give exactly the
same events (JSON, hashed).

Taken before the speed work on the goblin horde (issue 6): an optimisation that changes any event (a face, a
modifier, its order) fails here. If a rule or an example is deliberately changed, regenerate with
``python tests/sas/test_sas_golden.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import to_json
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/sas").glob("*.yaml"))
SEEDS = (1, 2, 3)


def stream_hash(name: str, seed: int) -> str:
    state = encounter.load(ROOT / name)[1]
    fight = Fight(get_ruleset(state.ruleset), state, RandomDice(seed), seed=seed)
    fight.run()
    h = hashlib.sha256()
    for e in fight.log or ():
        h.update(json.dumps(to_json(e), sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()[:24]


GOLDEN: dict[str, str] = {
    "examples/sas/ambush.yaml#1": "b1ed762678ae1233139de721",
    "examples/sas/ambush.yaml#2": "29b5618c571951e2e1486093",
    "examples/sas/ambush.yaml#3": "63257cb5baa852d8b05e8d67",
    "examples/sas/cavalry-charge.yaml#1": "8d3b8d7676ce53b4aca6b2d5",
    "examples/sas/cavalry-charge.yaml#2": "f50359d62a0c5794a0050c3b",
    "examples/sas/cavalry-charge.yaml#3": "e060d44d867db6170606e20c",
    "examples/sas/dog-pile.yaml#1": "e2c1e7ef018ef7caaede0f9c",
    "examples/sas/dog-pile.yaml#2": "b4929169cd204b00d30f859b",
    "examples/sas/dog-pile.yaml#3": "7015cbfc9eb195dc86873805",
    "examples/sas/goblin-horde.yaml#1": "d86e9d117e68c596b7dcb321",
    "examples/sas/goblin-horde.yaml#2": "38c43b124ce4c0ca9fb585b0",
    "examples/sas/goblin-horde.yaml#3": "69781ff5f9308af6356cca68",
    "examples/sas/underwater.yaml#1": "a90f4edc48f938754beaeb4b",
    "examples/sas/underwater.yaml#2": "1c573a183fae850c4b9372fa",
    "examples/sas/underwater.yaml#3": "39068daa7150aa926aa3ac14",
}

CASES = [(name, seed) for name in FILES for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_sas_event_stream_unchanged(name: str, seed: int) -> None:
    key = f"{name}#{seed}"
    assert key in GOLDEN, f"no golden hash for {key}: regenerate (see the module docstring)"
    assert stream_hash(name, seed) == GOLDEN[key]


if __name__ == "__main__":  # regenerate
    for name, seed in CASES:
        print(f'    "{name}#{seed}": "{stream_hash(name, seed)}",')
