"""Golden event streams for the bundled Spells & Swords examples: the same file and seed give exactly the
same events (JSON, hashed).

Taken before the speed work on the goblin horde: an optimisation that changes any event (a face, a
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
    "examples/sas/ambush.yaml#1": "e734ff8bd50da725aa97483a",
    "examples/sas/ambush.yaml#2": "6bcc0fb264b874fcb42903fc",
    "examples/sas/ambush.yaml#3": "5a5d468071ce002fbf3f78bb",
    "examples/sas/cavalry-charge.yaml#1": "f1cf5c31ccdc69b243baf12c",
    "examples/sas/cavalry-charge.yaml#2": "d2bdd698f473f2f1edd1f675",
    "examples/sas/cavalry-charge.yaml#3": "df6a6ab58e63970c8a4dd7d1",
    "examples/sas/dog-pile.yaml#1": "42f8fc898ca9575657e19cd4",
    "examples/sas/dog-pile.yaml#2": "a05389b9c693bbeef44db098",
    "examples/sas/dog-pile.yaml#3": "9be75de247dea6c02c213f59",
    "examples/sas/goblin-horde.yaml#1": "95e2781fae0ff2da6d75059b",
    "examples/sas/goblin-horde.yaml#2": "a776c4c6139cbfe1a069d0ad",
    "examples/sas/goblin-horde.yaml#3": "548137c0784f1d9971a82094",
    "examples/sas/underwater.yaml#1": "30b76235e59688459f225407",
    "examples/sas/underwater.yaml#2": "902e6f0c58bfe5e5fb894833",
    "examples/sas/underwater.yaml#3": "0ba4723085d8261009669a1b",
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
