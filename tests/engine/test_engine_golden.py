"""Golden event streams: the same encounter and seed give exactly the same events (JSON, hashed).

The hashes were taken before the engine's speed work and guard it: an optimisation that changes any event
(a face, a modifier, its order) fails here. Files: every bundled examples/ed4 and examples/ed1 encounter and
the benchmark's duel and 5v5, seeds 1..5. If a rule is deliberately changed, regenerate with
``python tests/engine/test_engine_golden.py`` and say why in the commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import stream_digest
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    str(p.relative_to(ROOT)) for d in ("examples/ed4", "examples/ed1") for p in (ROOT / d).glob("*.yaml")
)
SEEDS = (1, 2, 3, 4, 5)


def _bench(left: list[str], right: list[str]) -> Any:
    return encounter.facing_lines(left, right, name="bench", max_rounds=100)


HEROES = ["mica", "thrak", "herekar", "kira", "silar"]
BENCH = {
    "bench:duel": (["mica"], ["ghoul"]),
    "bench:5v5": (HEROES, ["ghoul"] * 5),
    "bench:10v10": (HEROES * 2, ["ghoul"] * 10),
    "core:duel": (["mica"], ["ghoul"]),
    "core:5v5": (HEROES, ["ghoul"] * 5),
}


def stream_hash(name: str, seed: int) -> str:
    state = _bench(*BENCH[name]) if name in BENCH else encounter.load(ROOT / name)[1]
    if name.startswith("core:"):
        from fracas.rules.ed4.ruleset import Ed4CoreRuleset

        ruleset = Ed4CoreRuleset()
    else:
        ruleset = get_ruleset(state.ruleset)
    fight = Fight(ruleset, state, RandomDice(seed), seed=seed)
    fight.run()
    return stream_digest(fight.log or ())


GOLDEN: dict[str, str] = {
    "examples/ed1/ork-rider-skirmish.yaml#1": "2f9d9e61699783e07c1b852a",
    "examples/ed1/ork-rider-skirmish.yaml#2": "a43fccc453b7bd809605a43d",
    "examples/ed1/ork-rider-skirmish.yaml#3": "7ecb4eeedc708c3853d47782",
    "examples/ed1/ork-rider-skirmish.yaml#4": "04d263819c985b72f16e63bf",
    "examples/ed1/ork-rider-skirmish.yaml#5": "4fa835c17dc4418951fee47f",
    "examples/ed1/thom-hammerblade.yaml#1": "72edb803af77659289870e0a",
    "examples/ed1/thom-hammerblade.yaml#2": "ab2dec8bcd719ed88d3fa9ec",
    "examples/ed1/thom-hammerblade.yaml#3": "4a8e0a1b89ce813311980780",
    "examples/ed1/thom-hammerblade.yaml#4": "9a0718e3066f6d428dd9dbff",
    "examples/ed1/thom-hammerblade.yaml#5": "199fd564ab55d1ae9339a569",
    "examples/ed4/ambush-in-the-dark.yaml#1": "c3065c1b947bd9ac9367ca92",
    "examples/ed4/ambush-in-the-dark.yaml#2": "b9d4c0e8f855d51a210979ad",
    "examples/ed4/ambush-in-the-dark.yaml#3": "316288c8e6a60c04ecd01e1f",
    "examples/ed4/ambush-in-the-dark.yaml#4": "0d40fa25ee6cb1402e70af96",
    "examples/ed4/ambush-in-the-dark.yaml#5": "969344518ef48b0dcb292d18",
    "examples/ed4/cavalry-charge.yaml#1": "d0663e868413371ffd05a071",
    "examples/ed4/cavalry-charge.yaml#2": "b4d42a94d0395dd74b8b2096",
    "examples/ed4/cavalry-charge.yaml#3": "35e5729f57a83cd84e933d7c",
    "examples/ed4/cavalry-charge.yaml#4": "8cba72c0fc07772dd2e8cf83",
    "examples/ed4/cavalry-charge.yaml#5": "6f673554426ad0135fa27868",
    "examples/ed4/griffin-swoop.yaml#1": "b6eb94bc45e954be847c75c1",
    "examples/ed4/griffin-swoop.yaml#2": "d2f57fc671d4d311ae241337",
    "examples/ed4/griffin-swoop.yaml#3": "b0503a40adab98fd4a1b7ed0",
    "examples/ed4/griffin-swoop.yaml#4": "62befd2ef3448ca05bcfd6b4",
    "examples/ed4/griffin-swoop.yaml#5": "978a785df410cd3a71042dec",
    "examples/ed4/herekar-guards-tairin.yaml#1": "d294d7470fd7bc52f75f4cc1",
    "examples/ed4/herekar-guards-tairin.yaml#2": "e7d1dbc5a7d5c9a29f0c12a9",
    "examples/ed4/herekar-guards-tairin.yaml#3": "8aa4e01101690407ac062358",
    "examples/ed4/herekar-guards-tairin.yaml#4": "11eca760805bc8c08259d97c",
    "examples/ed4/herekar-guards-tairin.yaml#5": "ad7fbed5cbda5d359d865f8a",
    "examples/ed4/mica-and-the-ghouls.yaml#1": "099cdf2ae02de7cd98cd558b",
    "examples/ed4/mica-and-the-ghouls.yaml#2": "772a847459127fcbd626b34f",
    "examples/ed4/mica-and-the-ghouls.yaml#3": "1cde4c7e0d75ed83e84d313f",
    "examples/ed4/mica-and-the-ghouls.yaml#4": "6da4c0c98e0df4868dc886c4",
    "examples/ed4/mica-and-the-ghouls.yaml#5": "b4ab74b9e03a259147c6b1e9",
    "examples/ed4/silar-and-the-griffin.yaml#1": "3a95561b5f4a0565de73efa3",
    "examples/ed4/silar-and-the-griffin.yaml#2": "eb5d18813ab830bdb0738da1",
    "examples/ed4/silar-and-the-griffin.yaml#3": "fc76f7c1a693d9ea73cd83fa",
    "examples/ed4/silar-and-the-griffin.yaml#4": "597c85a113f688b5c4eeb9fe",
    "examples/ed4/silar-and-the-griffin.yaml#5": "9627cd2decef3a14a41f82a9",
    "examples/ed4/slavers-nets.yaml#1": "49c0863ecfa4084ac16b18da",
    "examples/ed4/slavers-nets.yaml#2": "abc301419c7f9f3c0011ed19",
    "examples/ed4/slavers-nets.yaml#3": "dabaccd2a286d681b37063c5",
    "examples/ed4/slavers-nets.yaml#4": "437ee748e3d20fb73f83dde9",
    "examples/ed4/slavers-nets.yaml#5": "a07241007b2cfa6cdf7393ca",
    "bench:duel#1": "7fa1b034610e2ba6caf73d16",
    "bench:duel#2": "c065fbb94dfc1c738d452021",
    "bench:duel#3": "c25531dbab7a1540903c4477",
    "bench:duel#4": "265575942dcfefe363d6f84b",
    "bench:duel#5": "510bdf9fb61c30c76f9868c7",
    "bench:5v5#1": "cdee04d989cfd1c6be08e7f6",
    "bench:5v5#2": "032b3eaaa01317ec0004d2a2",
    "bench:5v5#3": "22ab23f6a88bc3512c666d05",
    "bench:5v5#4": "4b5778757f1d4f35bf907648",
    "bench:5v5#5": "38e74a85e601d9f2dc2e2b22",
    "bench:10v10#1": "c96596028bf3c170f79f0d57",
    "bench:10v10#2": "220ef05a858ff099937b8d40",
    "bench:10v10#3": "a2ce7b22555cb2e004a60258",
    "bench:10v10#4": "bf4ade951439044227531825",
    "bench:10v10#5": "1df155378215e3d7ca8687b4",
    "core:duel#1": "17bc15410c7af71d29e4a05c",
    "core:duel#2": "69b6e11c7d1e5d07584b906e",
    "core:duel#3": "38c080e5eaa8f4215941c548",
    "core:duel#4": "4d5e181cd06747601f764580",
    "core:duel#5": "6006566592b07864126421e0",
    "core:5v5#1": "5ec957532a36fefbca485b82",
    "core:5v5#2": "fb1a26f34798254439e378f2",
    "core:5v5#3": "9c285794a65c5fc960127719",
    "core:5v5#4": "d01d2da5a861d4646233b181",
    "core:5v5#5": "aafaad073b2799bcaa7421bb",
}

CASES = [(name, seed) for name in [*FILES, *BENCH] for seed in SEEDS]


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_event_stream_unchanged(name: str, seed: int) -> None:
    key = f"{name}#{seed}"
    assert key in GOLDEN, f"no golden hash for {key}: regenerate (see the module docstring)"
    assert stream_hash(name, seed) == GOLDEN[key]


if __name__ == "__main__":  # regenerate
    for name, seed in CASES:
        print(f'    "{name}#{seed}": "{stream_hash(name, seed)}",')
