"""Golden event streams of the GURPS examples: the same encounter and seed give exactly the same events
(JSON, hashed), as tests/engine/test_engine_golden.py does for ED4 and ED1.

The hashes were taken before the GURPS speed work (issue 9) and guard it: an optimisation that changes any
event (a face, a modifier, a hex of a path, their order) fails here. If a rule is deliberately changed,
regenerate with ``python tests/gurps4/test_gurps_golden.py`` and say why in the commit.
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
FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/gurps4").glob("*.yaml"))
SEEDS = (1, 2, 3, 4, 5, 10)  # seed 10 of horse-archers is a long chase round a friend (the path search)


def stream_hash(name: str, seed: int) -> str:
    state = encounter.load(ROOT / name)[1]
    fight = Fight(get_ruleset(state.ruleset), state, RandomDice(seed), seed=seed)
    fight.run()
    return stream_digest(fight.log or ())


GOLDEN: dict[str, str] = {
    "examples/gurps4/fight-on-foot.yaml#1": "e50429828916b32324fc5b3f",
    "examples/gurps4/fight-on-foot.yaml#2": "cc54dce570e4e935e8fd8dc6",
    "examples/gurps4/fight-on-foot.yaml#3": "fe80cf8e51483dc4adf786c2",
    "examples/gurps4/fight-on-foot.yaml#4": "dc3016622e935d8b644ed6a9",
    "examples/gurps4/fight-on-foot.yaml#5": "fdc2addaea677eca5ef0d644",
    "examples/gurps4/fight-on-foot.yaml#10": "1bb653aed5f388c9352fd9fb",
    "examples/gurps4/horse-archers.yaml#1": "759b67472197d3aa6a728839",
    "examples/gurps4/horse-archers.yaml#2": "c25481a2255b91c2e7675f30",
    "examples/gurps4/horse-archers.yaml#3": "346fabfef2344d713f72bf44",
    "examples/gurps4/horse-archers.yaml#4": "1deefb8d9a404812050eeaf0",
    "examples/gurps4/horse-archers.yaml#5": "7845bfdff687c3c5a5ea5ba2",
    "examples/gurps4/horse-archers.yaml#10": "5f081e7537137b2e78f1c34c",
    "examples/gurps4/knights-jousting.yaml#1": "464ac89885d8e0c2c568618a",
    "examples/gurps4/knights-jousting.yaml#2": "88984209747c72f04de8fee3",
    "examples/gurps4/knights-jousting.yaml#3": "5f3f80abcfcecdcf61b9079d",
    "examples/gurps4/knights-jousting.yaml#4": "bda136d4048b19df1f8a904d",
    "examples/gurps4/knights-jousting.yaml#5": "d70385eed66e35c3b34477ae",
    "examples/gurps4/knights-jousting.yaml#10": "cff736b52015e5d19e7bf8cb",
    "examples/gurps4/winged-duel.yaml#1": "dc53259383f7486e0833ab98",
    "examples/gurps4/winged-duel.yaml#2": "49a3a622f7b49cfd09ebe155",
    "examples/gurps4/winged-duel.yaml#3": "8e3be2501db2903204ae2841",
    "examples/gurps4/winged-duel.yaml#4": "3aa18424142dd1ca7b0cb3a5",
    "examples/gurps4/winged-duel.yaml#5": "16f96e19883376eb04f0a28c",
    "examples/gurps4/winged-duel.yaml#10": "2a479902daf132b415f41cd0",
}

CASES = [(name, seed) for name in FILES for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_gurps_event_stream_unchanged(name: str, seed: int) -> None:
    key = f"{name}#{seed}"
    assert key in GOLDEN, f"no golden hash for {key}: regenerate (see the module docstring)"
    assert stream_hash(name, seed) == GOLDEN[key]


if __name__ == "__main__":
    for name, seed in CASES:
        print(f'    "{name}#{seed}": "{stream_hash(name, seed)}",')
