"""Golden event streams for the bundled Spells & Swords examples: the same file and seed give exactly the
same events (JSON, hashed).

Taken before the speed work on the goblin horde (issue 6): an optimisation that changes any event (a face, a
modifier, its order) fails here. If a rule or an example is deliberately changed, regenerate with
``python tests/sas/test_sas_golden.py`` and say why in the commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import stream_digest
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/sas").glob("*.yaml"))
SEEDS = (1, 2, 3)


def stream_hash(name: str, seed: int) -> str:
    state = encounter.load(ROOT / name)[1]
    fight = Fight(get_ruleset(state.ruleset), state, RandomDice(seed), seed=seed)
    fight.run()
    return stream_digest(fight.log or ())


GOLDEN: dict[str, str] = {
    "examples/sas/ambush.yaml#1": "cbbd1c272e06f9631797d9a5",
    "examples/sas/ambush.yaml#2": "1663cfe33cd51cd4c6428a97",
    "examples/sas/ambush.yaml#3": "c9e3c69dd506d0195e41d9c9",
    "examples/sas/cavalry-charge.yaml#1": "5b4afe45135d2cea69335e94",
    "examples/sas/cavalry-charge.yaml#2": "d2bdd698f473f2f1edd1f675",
    "examples/sas/cavalry-charge.yaml#3": "15cf104979be37fa1fa9bb6c",
    "examples/sas/dog-pile.yaml#1": "42f8fc898ca9575657e19cd4",
    "examples/sas/dog-pile.yaml#2": "f082a398d0e7306ad8fac728",
    "examples/sas/dog-pile.yaml#3": "9be75de247dea6c02c213f59",
    "examples/sas/goblin-horde.yaml#1": "7d05d6a2e2f4470be9d4f864",
    "examples/sas/goblin-horde.yaml#2": "747358c9a183925f8af19a4c",
    "examples/sas/goblin-horde.yaml#3": "9d077c5106bf916a6a895a7b",
    "examples/sas/underwater.yaml#1": "d4826f7f11b31bdaf5ba580c",
    "examples/sas/underwater.yaml#2": "54066c6abb9899027d51970c",
    "examples/sas/underwater.yaml#3": "d062196446a75d65d7508e86",
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
