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
    "examples/sas/ambush.yaml#1": "40e62f2dc959b78dd5bdcf70",
    "examples/sas/ambush.yaml#2": "bbdd16bc7506f982c11504ca",
    "examples/sas/ambush.yaml#3": "7c51c0fe03fc8af565fd6b23",
    "examples/sas/cavalry-charge.yaml#1": "77f58609f358ab843787f018",
    "examples/sas/cavalry-charge.yaml#2": "0f4b23cf046300e3fe95e27e",
    "examples/sas/cavalry-charge.yaml#3": "b4b5b264af121efce8fa268a",
    "examples/sas/dog-pile.yaml#1": "0da29ee99492aa58f094baf1",
    "examples/sas/dog-pile.yaml#2": "b74618f315fd82e5f52190df",
    "examples/sas/dog-pile.yaml#3": "77a5a5857db48cab2ac58949",
    "examples/sas/goblin-horde.yaml#1": "488d1443cb06d6eaefb36e8d",
    "examples/sas/goblin-horde.yaml#2": "86c09a6b3a5248bbecf800e5",
    "examples/sas/goblin-horde.yaml#3": "e733ade64c37eb202a74595c",
    "examples/sas/underwater.yaml#1": "1c7f78011c9e246e0041ea72",
    "examples/sas/underwater.yaml#2": "96c93fa5082e9748f7973447",
    "examples/sas/underwater.yaml#3": "316778bf7de6a7c53d5533a2",
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
