"""Golden event streams: the same encounter and seed give exactly the same events (JSON, hashed).

The hashes were taken before the speed work of issue 3 and guard it: an optimisation that changes any event
(a face, a modifier, its order) fails here. Files: every bundled examples/ed4 and examples/ed1 encounter and
the benchmark's duel and 5v5, seeds 1..5. If a rule is deliberately changed, regenerate with
``python tests/engine/test_engine_golden.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from fracas.dice.source import RandomDice
from fracas.engine import encounter
from fracas.engine.events import to_json
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    str(p.relative_to(ROOT)) for d in ("examples/ed4", "examples/ed1") for p in (ROOT / d).glob("*.yaml")
)
SEEDS = (1, 2, 3, 4, 5)


def _bench(left: list[str], right: list[str]) -> Any:
    def side(name: str, templates: list[str], q: int) -> dict[str, Any]:
        return {
            "name": name,
            "combatants": [
                {"template": t, "id": f"{name.lower()}-{i}", "at": [q, i]} for i, t in enumerate(templates)
            ],
        }

    data = {
        "version": 1,
        "ruleset": "ed4",
        "name": "bench",
        "max_rounds": 100,
        "sides": [side("Heroes", left, 0), side("Foes", right, 3)],
    }
    return encounter.load_data(data, "<bench>")[1]


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

        ruleset = Ed4CoreRuleset(plugins=())
    else:
        ruleset = get_ruleset(state.ruleset)
    fight = Fight(ruleset, state, RandomDice(seed), seed=seed)
    fight.run()
    h = hashlib.sha256()
    for e in fight.log or ():
        h.update(json.dumps(to_json(e), sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()[:24]


GOLDEN: dict[str, str] = {
    "examples/ed1/ork-rider-skirmish.yaml#1": "b89b4cb3edea7e0250b37fa8",
    "examples/ed1/ork-rider-skirmish.yaml#2": "040be9e6471d8e2eb66e43eb",
    "examples/ed1/ork-rider-skirmish.yaml#3": "80d824aad7cb2d5c24f574df",
    "examples/ed1/ork-rider-skirmish.yaml#4": "7b744324fdfb7ef15341c3fd",
    "examples/ed1/ork-rider-skirmish.yaml#5": "aa70cc329dda405f20c6581b",
    "examples/ed1/thom-hammerblade.yaml#1": "9976bb11b967f291ca4bb57c",
    "examples/ed1/thom-hammerblade.yaml#2": "329b5c2c5fa0bfc680045da7",
    "examples/ed1/thom-hammerblade.yaml#3": "01028ba7f7252afaae4cb83c",
    "examples/ed1/thom-hammerblade.yaml#4": "5e1288a1deb591bfe124e958",
    "examples/ed1/thom-hammerblade.yaml#5": "065ba72486cb283dd21d1fce",
    "examples/ed4/ambush-in-the-dark.yaml#1": "e9fe27379ec466a258772496",
    "examples/ed4/ambush-in-the-dark.yaml#2": "2affb7707c9300733dc4fe95",
    "examples/ed4/ambush-in-the-dark.yaml#3": "5008a010bf031a3e5857ddfa",
    "examples/ed4/ambush-in-the-dark.yaml#4": "9abb5a640b9fba7399a6bbec",
    "examples/ed4/ambush-in-the-dark.yaml#5": "d6fba3816e7060a5a6ce8267",
    "examples/ed4/cavalry-charge.yaml#1": "7bcdeb0016e32a2b81e9e628",
    "examples/ed4/cavalry-charge.yaml#2": "0a5dc3da210ef36394592083",
    "examples/ed4/cavalry-charge.yaml#3": "f1c6118bd6d266ba32779012",
    "examples/ed4/cavalry-charge.yaml#4": "2c1f9282793cc451765eab62",
    "examples/ed4/cavalry-charge.yaml#5": "1999124da1dd9095b9026dd3",
    "examples/ed4/griffin-swoop.yaml#1": "69b4dd5cfbfd0c94330cdbe5",
    "examples/ed4/griffin-swoop.yaml#2": "c1c0d4849465f52f4a3f44b2",
    "examples/ed4/griffin-swoop.yaml#3": "97729775614890803cd400bb",
    "examples/ed4/griffin-swoop.yaml#4": "1c9de4b0c9cdb82c3ed6a9b8",
    "examples/ed4/griffin-swoop.yaml#5": "ece2e20984012ac72438cddd",
    "examples/ed4/herekar-guards-tairin.yaml#1": "708f107ab2fbfea9c7cfd5a0",
    "examples/ed4/herekar-guards-tairin.yaml#2": "f3924a4f8cedd3865d6eda9d",
    "examples/ed4/herekar-guards-tairin.yaml#3": "3dfcef42f8f59922ebd7de49",
    "examples/ed4/herekar-guards-tairin.yaml#4": "c71ae3966cc4a659181ee055",
    "examples/ed4/herekar-guards-tairin.yaml#5": "d4f4bdef28d5ec18573a3fde",
    "examples/ed4/mica-and-the-ghouls.yaml#1": "7f905bb5351d3b3d9f5c9df8",
    "examples/ed4/mica-and-the-ghouls.yaml#2": "00518250f428120bc27f7613",
    "examples/ed4/mica-and-the-ghouls.yaml#3": "0794a90f20bd6919478ea710",
    "examples/ed4/mica-and-the-ghouls.yaml#4": "c03cc58f45880237f34aedc7",
    "examples/ed4/mica-and-the-ghouls.yaml#5": "36a7d1f7af570262f69d1204",
    "examples/ed4/silar-and-the-griffin.yaml#1": "a81b711f8807a97496666990",
    "examples/ed4/silar-and-the-griffin.yaml#2": "476202dd67b0c9177904a89d",
    "examples/ed4/silar-and-the-griffin.yaml#3": "4f182e262bb0224fa3d452da",
    "examples/ed4/silar-and-the-griffin.yaml#4": "343968def07b750dc1be2b47",
    "examples/ed4/silar-and-the-griffin.yaml#5": "7596e4ad699c89b2d7e44eea",
    "examples/ed4/slavers-nets.yaml#1": "7d8629cce96898fc96e6ac52",
    "examples/ed4/slavers-nets.yaml#2": "15512a930fc977861885137d",
    "examples/ed4/slavers-nets.yaml#3": "239184ab898b9fc29e92e41d",
    "examples/ed4/slavers-nets.yaml#4": "96b0e7986ae05b8b1b5369e6",
    "examples/ed4/slavers-nets.yaml#5": "0a2690555e33ac7f6f1dc897",
    "bench:duel#1": "f7770168b0e966f0a6011af3",
    "bench:duel#2": "133b0e8d466ec7b53a56e9a1",
    "bench:duel#3": "8ffb7a06c52a50e8eb21ac28",
    "bench:duel#4": "18cf740fbc65f47a1ef7f0dd",
    "bench:duel#5": "2f24847e2b69f2d09aeca060",
    "bench:5v5#1": "9f5df6a2465ffdebe905ab9e",
    "bench:5v5#2": "a3d50b5d9c1f3532f6afd3aa",
    "bench:5v5#3": "1b851634a65e223a82b68ca3",
    "bench:5v5#4": "6487233277ffb9ed69c69e71",
    "bench:5v5#5": "4fd3b22726d4f7423a77989f",
    "bench:10v10#1": "c00616129fbae773d1a49e52",
    "bench:10v10#2": "64418ce38175920563e4f06e",
    "bench:10v10#3": "6f4a1d2fc015d05ff84b226b",
    "bench:10v10#4": "6ce68f76dc6f573a29d31d16",
    "bench:10v10#5": "7dd0b842905944e7959070ba",
    "core:duel#1": "0fcc5e087b0ae3efb9bebfd0",
    "core:duel#2": "554ba63799c358c87cb97339",
    "core:duel#3": "10a93480b9b679f1a99251cc",
    "core:duel#4": "8dc3acb96774554df90704ab",
    "core:duel#5": "667349355b0f4ee8b54742b9",
    "core:5v5#1": "abd7d1356f10eca30823c643",
    "core:5v5#2": "c5180cae851f6500767ab437",
    "core:5v5#3": "f30cd9981beda61fefb65cf3",
    "core:5v5#4": "346154b901a75b2d8942e471",
    "core:5v5#5": "252fe47c3b006dc6b9723802",
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
