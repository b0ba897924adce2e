"""Golden event streams of the GURPS examples: the same encounter and seed give exactly the same events
(JSON, hashed), as tests/engine/test_engine_golden.py does for ED4 and ED1.

The hashes were taken before the GURPS speed work and guard it: an optimisation that changes any
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
    "examples/gurps4/fight-on-foot.yaml#1": "cb6f142de2ef0db583e9d280",
    "examples/gurps4/fight-on-foot.yaml#2": "ff957d8639df64fb61a7a37c",
    "examples/gurps4/fight-on-foot.yaml#3": "eeccc1b017c756191d13209a",
    "examples/gurps4/fight-on-foot.yaml#4": "522ab0ed16e731ac8d48e01f",
    "examples/gurps4/fight-on-foot.yaml#5": "1c5d88f0ad45b0ab39a30a4f",
    "examples/gurps4/fight-on-foot.yaml#10": "a7b56de015902b53df287cf6",
    "examples/gurps4/horse-archers.yaml#1": "2fc6c7c082007e0c1124c357",
    "examples/gurps4/horse-archers.yaml#2": "ff1646ce7e5f4e0e8eb50779",
    "examples/gurps4/horse-archers.yaml#3": "4e2944fa6cea36ac4bf245f2",
    "examples/gurps4/horse-archers.yaml#4": "107486891601a48557ee0f0a",
    "examples/gurps4/horse-archers.yaml#5": "8fe503820e24a4677c2d9068",
    "examples/gurps4/horse-archers.yaml#10": "1f1701da3457bc9f3f165ce7",
    "examples/gurps4/knights-jousting.yaml#1": "464ac89885d8e0c2c568618a",
    "examples/gurps4/knights-jousting.yaml#2": "88984209747c72f04de8fee3",
    "examples/gurps4/knights-jousting.yaml#3": "5f3f80abcfcecdcf61b9079d",
    "examples/gurps4/knights-jousting.yaml#4": "bda136d4048b19df1f8a904d",
    "examples/gurps4/knights-jousting.yaml#5": "d70385eed66e35c3b34477ae",
    "examples/gurps4/knights-jousting.yaml#10": "cff736b52015e5d19e7bf8cb",
    "examples/gurps4/winged-duel.yaml#1": "4577ee8142bbdc32892d9289",
    "examples/gurps4/winged-duel.yaml#2": "b790be628b1f6b0a9233c2cc",
    "examples/gurps4/winged-duel.yaml#3": "fa487ad60c90d5e6666dfc83",
    "examples/gurps4/winged-duel.yaml#4": "a8d991e53999b7c25f5cd88f",
    "examples/gurps4/winged-duel.yaml#5": "d74b4cd05f2ee7305631a8e3",
    "examples/gurps4/winged-duel.yaml#10": "2e9f82f1913582aa712186e5",
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
