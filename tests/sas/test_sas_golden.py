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
    "examples/sas/ambush.yaml#1": "01ceb7055bf8abe11728a898",
    "examples/sas/ambush.yaml#2": "f309560490f4baea8e6fafb3",
    "examples/sas/ambush.yaml#3": "cbe43d8959cbdaefd20f775b",
    "examples/sas/cavalry-charge.yaml#1": "4d32a91a56f40a7fa8fa0d69",
    "examples/sas/cavalry-charge.yaml#2": "88e98e38baf5ba6662ae0043",
    "examples/sas/cavalry-charge.yaml#3": "285223e4f13a2d762c2b39c1",
    "examples/sas/dog-pile.yaml#1": "3ca75b86d5b1f03b55781faa",
    "examples/sas/dog-pile.yaml#2": "b4929169cd204b00d30f859b",
    "examples/sas/dog-pile.yaml#3": "ec9ecf02c96f69d24b230ff1",
    "examples/sas/goblin-horde.yaml#1": "dd205954b6045d8914f5e97c",
    "examples/sas/goblin-horde.yaml#2": "d1db24ae280b0e7df1cd7e81",
    "examples/sas/goblin-horde.yaml#3": "83de274520bb9ba18e83cd64",
    "examples/sas/underwater.yaml#1": "a90f4edc48f938754beaeb4b",
    "examples/sas/underwater.yaml#2": "1c573a183fae850c4b9372fa",
    "examples/sas/underwater.yaml#3": "f1902da9181138c5ccc8d0a3",
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
