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
    "examples/ed4/ambush-in-the-dark.yaml#1": "e95dd5866d2d2ce478db639d",
    "examples/ed4/ambush-in-the-dark.yaml#2": "460abdc4e710a1b33bc35d8b",
    "examples/ed4/ambush-in-the-dark.yaml#3": "39bdbcffddbe315aa9c40ecb",
    "examples/ed4/ambush-in-the-dark.yaml#4": "fed4d30358c3a31a5db8aa69",
    "examples/ed4/ambush-in-the-dark.yaml#5": "283725a367ba55598e9bfc48",
    "examples/ed4/cavalry-charge.yaml#1": "3606fac922225a936c463da6",
    "examples/ed4/cavalry-charge.yaml#2": "0a5dc3da210ef36394592083",
    "examples/ed4/cavalry-charge.yaml#3": "4cb283fcf536c5d33a78e739",
    "examples/ed4/cavalry-charge.yaml#4": "2c1f9282793cc451765eab62",
    "examples/ed4/cavalry-charge.yaml#5": "b68f37410913c67a5aba20b0",
    "examples/ed4/griffin-swoop.yaml#1": "69b4dd5cfbfd0c94330cdbe5",
    "examples/ed4/griffin-swoop.yaml#2": "c1c0d4849465f52f4a3f44b2",
    "examples/ed4/griffin-swoop.yaml#3": "97729775614890803cd400bb",
    "examples/ed4/griffin-swoop.yaml#4": "1c9de4b0c9cdb82c3ed6a9b8",
    "examples/ed4/griffin-swoop.yaml#5": "ece2e20984012ac72438cddd",
    "examples/ed4/herekar-guards-tairin.yaml#1": "d9be43102316f0a55d90a00e",
    "examples/ed4/herekar-guards-tairin.yaml#2": "13a76fd3e7d5326e1730bd86",
    "examples/ed4/herekar-guards-tairin.yaml#3": "f1153f56020db9789e249455",
    "examples/ed4/herekar-guards-tairin.yaml#4": "d46f7a14ec790e13c549923f",
    "examples/ed4/herekar-guards-tairin.yaml#5": "df9a463a495d0c8d9cb8ea02",
    "examples/ed4/mica-and-the-ghouls.yaml#1": "441107720e9697b1b5131d28",
    "examples/ed4/mica-and-the-ghouls.yaml#2": "18fc123bcef8b804b2973563",
    "examples/ed4/mica-and-the-ghouls.yaml#3": "f49019528813356a9c3a2c99",
    "examples/ed4/mica-and-the-ghouls.yaml#4": "9ae24092646c9e2f0edb698f",
    "examples/ed4/mica-and-the-ghouls.yaml#5": "9fc8964f8f14242ffc131858",
    "examples/ed4/silar-and-the-griffin.yaml#1": "a81b711f8807a97496666990",
    "examples/ed4/silar-and-the-griffin.yaml#2": "476202dd67b0c9177904a89d",
    "examples/ed4/silar-and-the-griffin.yaml#3": "4f182e262bb0224fa3d452da",
    "examples/ed4/silar-and-the-griffin.yaml#4": "343968def07b750dc1be2b47",
    "examples/ed4/silar-and-the-griffin.yaml#5": "7596e4ad699c89b2d7e44eea",
    "examples/ed4/slavers-nets.yaml#1": "bae297db2504917d366ba406",
    "examples/ed4/slavers-nets.yaml#2": "46c14edce7e558dba73462f7",
    "examples/ed4/slavers-nets.yaml#3": "0dc3218a0a4ac172cff5b65a",
    "examples/ed4/slavers-nets.yaml#4": "922f1937b8eb43fcce9f50e2",
    "examples/ed4/slavers-nets.yaml#5": "84779c5578e251d733808623",
    "bench:duel#1": "f7770168b0e966f0a6011af3",
    "bench:duel#2": "133b0e8d466ec7b53a56e9a1",
    "bench:duel#3": "8ffb7a06c52a50e8eb21ac28",
    "bench:duel#4": "18cf740fbc65f47a1ef7f0dd",
    "bench:duel#5": "2f24847e2b69f2d09aeca060",
    "bench:5v5#1": "ca45e7e12165109c73d41976",
    "bench:5v5#2": "1810e6b31ff7a52c2bcfbcaa",
    "bench:5v5#3": "a4fda8522c0275663fe8dace",
    "bench:5v5#4": "107ee38c2dc553932c887280",
    "bench:5v5#5": "a5cc97931a95ac9da077a362",
    "bench:10v10#1": "47e97eb5952988d96e3c6782",
    "bench:10v10#2": "94d12490b4c3a10a13cab357",
    "bench:10v10#3": "2894634bf70875e776441517",
    "bench:10v10#4": "9c267db0f2f4eeb75b5d1ac8",
    "bench:10v10#5": "bb7d06317467e039f3af4975",
    "core:duel#1": "0fcc5e087b0ae3efb9bebfd0",
    "core:duel#2": "554ba63799c358c87cb97339",
    "core:duel#3": "10a93480b9b679f1a99251cc",
    "core:duel#4": "8dc3acb96774554df90704ab",
    "core:duel#5": "667349355b0f4ee8b54742b9",
    "core:5v5#1": "b5cd8e6069ce24db4fbe7504",
    "core:5v5#2": "df54e8bc8b255e511854d2c9",
    "core:5v5#3": "8b9d8f508b1aaee2dc6a901e",
    "core:5v5#4": "9e20092636af4e14445cd185",
    "core:5v5#5": "0e6531fd023d5940b8ccc82c",
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
