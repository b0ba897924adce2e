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
    "examples/sas/ambush.yaml#1": "ae76ac8aece4e382d49c20e3",
    "examples/sas/ambush.yaml#2": "67f03d0a31aaca2f577f28dd",
    "examples/sas/ambush.yaml#3": "91f83dc6482f8bd63b9d3328",
    "examples/sas/cavalry-charge.yaml#1": "105f25342aefad110975feee",
    "examples/sas/cavalry-charge.yaml#2": "09e43ffae2e5238cb0f5517a",
    "examples/sas/cavalry-charge.yaml#3": "ae715594edff974628233304",
    "examples/sas/dog-pile.yaml#1": "42f8fc898ca9575657e19cd4",
    "examples/sas/dog-pile.yaml#2": "768f0aab76b082f3bc20c33d",
    "examples/sas/dog-pile.yaml#3": "9be75de247dea6c02c213f59",
    "examples/sas/goblin-horde.yaml#1": "e764974cdf1e74f2c0bf275d",
    "examples/sas/goblin-horde.yaml#2": "d3160cf0e627bbf56a45fe86",
    "examples/sas/goblin-horde.yaml#3": "5255caa04b5652fcefd684c8",
    "examples/sas/underwater.yaml#1": "7b532bb7d607560b4e9ac603",
    "examples/sas/underwater.yaml#2": "39ec8df3fbdd1f76b5fa1f7d",
    "examples/sas/underwater.yaml#3": "dfd06f7d5af37e733f9a6dc2",
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
