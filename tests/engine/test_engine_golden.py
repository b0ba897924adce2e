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
    "examples/ed1/ork-rider-skirmish.yaml#1": "12bd44eea378172d7519cb94",
    "examples/ed1/ork-rider-skirmish.yaml#2": "adf89906dd663659c0a7db16",
    "examples/ed1/ork-rider-skirmish.yaml#3": "571e181c29a06ec9c0320e5d",
    "examples/ed1/ork-rider-skirmish.yaml#4": "1e86216dde5e5e104238d97a",
    "examples/ed1/ork-rider-skirmish.yaml#5": "a1c5c154d89a1c9ff9d19651",
    "examples/ed1/thom-hammerblade.yaml#1": "1f6e6737fd8e2314d434e856",
    "examples/ed1/thom-hammerblade.yaml#2": "f2643703cd9559ae99a0fa7f",
    "examples/ed1/thom-hammerblade.yaml#3": "742f28a204424054060f29e5",
    "examples/ed1/thom-hammerblade.yaml#4": "ca813c27995b5e3b98c38771",
    "examples/ed1/thom-hammerblade.yaml#5": "8a14bebcf753c25af9127a4a",
    "examples/ed4/ambush-in-the-dark.yaml#1": "eeaa615aa546cbd0f37aff95",
    "examples/ed4/ambush-in-the-dark.yaml#2": "b84b0f335f383000335c770b",
    "examples/ed4/ambush-in-the-dark.yaml#3": "2a7d368fc384c1897191eb29",
    "examples/ed4/ambush-in-the-dark.yaml#4": "35eb8388d606c3ea7cb725dc",
    "examples/ed4/ambush-in-the-dark.yaml#5": "a62c0943df2ea901c9b5c851",
    "examples/ed4/cavalry-charge.yaml#1": "3ca9774c5cc0696d6f9f5041",
    "examples/ed4/cavalry-charge.yaml#2": "a79443cdb9a87facceb7aa6c",
    "examples/ed4/cavalry-charge.yaml#3": "095061262e2514f7deb158f4",
    "examples/ed4/cavalry-charge.yaml#4": "dd9420592359927d1e568e63",
    "examples/ed4/cavalry-charge.yaml#5": "e53766b78cae22425699d4a2",
    "examples/ed4/griffin-swoop.yaml#1": "fd57e9315019487e89a79d42",
    "examples/ed4/griffin-swoop.yaml#2": "4f746c5c413bbecf600db26a",
    "examples/ed4/griffin-swoop.yaml#3": "f78fcaf0cca0d2e6c7133f5b",
    "examples/ed4/griffin-swoop.yaml#4": "46d6b3183e0f06c3e3abf18f",
    "examples/ed4/griffin-swoop.yaml#5": "5eade361fd30f4dfaa567d0d",
    "examples/ed4/herekar-guards-tairin.yaml#1": "a788bf0760d3e91387285a18",
    "examples/ed4/herekar-guards-tairin.yaml#2": "a7b01c239d20e096381b13a2",
    "examples/ed4/herekar-guards-tairin.yaml#3": "f5322d0978bb8c4d3334ed01",
    "examples/ed4/herekar-guards-tairin.yaml#4": "e272eff2c5c69c6f914e1fb6",
    "examples/ed4/herekar-guards-tairin.yaml#5": "676b78db2a959f2c17261f5f",
    "examples/ed4/mica-and-the-ghouls.yaml#1": "54c0297330856b72b35fd6a2",
    "examples/ed4/mica-and-the-ghouls.yaml#2": "687a57c63decea7b02d05480",
    "examples/ed4/mica-and-the-ghouls.yaml#3": "0d8ccbfa5bcecf90c5a7ff3d",
    "examples/ed4/mica-and-the-ghouls.yaml#4": "a8a9fdd18cfea4008d82577a",
    "examples/ed4/mica-and-the-ghouls.yaml#5": "0d048648d016767b374befea",
    "examples/ed4/silar-and-the-griffin.yaml#1": "9f421fefc830fe4ed6a4cea4",
    "examples/ed4/silar-and-the-griffin.yaml#2": "0708262a9baecf3570826c30",
    "examples/ed4/silar-and-the-griffin.yaml#3": "d438b3ccb032c2b75dde6bea",
    "examples/ed4/silar-and-the-griffin.yaml#4": "2aa83d0a0ee786710dcc24a4",
    "examples/ed4/silar-and-the-griffin.yaml#5": "5fd4b4545106d23d4ef33781",
    "bench:duel#1": "503cf6460af1f30410d6c28f",
    "bench:duel#2": "321317f76d3418cd3bb4a6b8",
    "bench:duel#3": "861fb18548642393acd7a0a6",
    "bench:duel#4": "03c5290b8a10e3026e093021",
    "bench:duel#5": "ad5c0c19dcf3bb32d855281a",
    "bench:5v5#1": "ecbaeb292375fcd32d5691b4",
    "bench:5v5#2": "9e0a848cfea6226f660f5542",
    "bench:5v5#3": "39713580b5c5fcc171bd7dbb",
    "bench:5v5#4": "38b94e4e7de1040f20d8e240",
    "bench:5v5#5": "7abc3ed53f20c4136ef08a78",
    "bench:10v10#1": "6af307290759e7f9bd9275aa",
    "bench:10v10#2": "2f5b1fd648ff810f5410acdc",
    "bench:10v10#3": "0da71373f548d66dbf9e5fff",
    "bench:10v10#4": "d47f571ed107035878d734a9",
    "bench:10v10#5": "f564cfbfb2fc4cccb2883ac1",
    "core:duel#1": "7c33244ea5e84af635d686ed",
    "core:duel#2": "a6c277719d592ecd8d4337df",
    "core:duel#3": "6ee49be19ec28b8202f91743",
    "core:duel#4": "3382b06f637301b8f8b8a86e",
    "core:duel#5": "1fee30cbbdfe8f5d1795a6a0",
    "core:5v5#1": "826fcca893b56985f83483ca",
    "core:5v5#2": "229ad6e57bb487a5597d7cef",
    "core:5v5#3": "a8fb1a45bda2b8d8706f06ae",
    "core:5v5#4": "3c11237270d89debfee8c2bb",
    "core:5v5#5": "d0fc144db2fe92c692b57d3d",
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
