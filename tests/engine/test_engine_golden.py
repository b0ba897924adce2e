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
    "examples/ed4/ambush-in-the-dark.yaml#1": "a592cdca4530d3f07222e2a4",
    "examples/ed4/ambush-in-the-dark.yaml#2": "ec098578c9ee44b473069142",
    "examples/ed4/ambush-in-the-dark.yaml#3": "173d00a18cd562dfacf2a1c7",
    "examples/ed4/ambush-in-the-dark.yaml#4": "81d5405162331e30d6294fea",
    "examples/ed4/ambush-in-the-dark.yaml#5": "cf1f0bcc232cad046f321bae",
    "examples/ed4/cavalry-charge.yaml#1": "951167ddcabbb9b04d94befb",
    "examples/ed4/cavalry-charge.yaml#2": "998bccbe6844cbb5ad101161",
    "examples/ed4/cavalry-charge.yaml#3": "1ad39d852c711550d7fba98f",
    "examples/ed4/cavalry-charge.yaml#4": "fed240e4a89276cd4afa36c2",
    "examples/ed4/cavalry-charge.yaml#5": "50f84ac6e281a5d755375bdd",
    "examples/ed4/griffin-swoop.yaml#1": "188c480aea4e5596a1103c21",
    "examples/ed4/griffin-swoop.yaml#2": "06151c0807e353026f248cd6",
    "examples/ed4/griffin-swoop.yaml#3": "76e3d01045fc57d0cd1829fe",
    "examples/ed4/griffin-swoop.yaml#4": "02191dc47db748513963e08e",
    "examples/ed4/griffin-swoop.yaml#5": "37c1224f3df344fbf842afb3",
    "examples/ed4/herekar-guards-tairin.yaml#1": "5117cfda2d6dbce451329fea",
    "examples/ed4/herekar-guards-tairin.yaml#2": "aaae20ceefcfab722f02a80a",
    "examples/ed4/herekar-guards-tairin.yaml#3": "bf33980e5929c882d00bf4f9",
    "examples/ed4/herekar-guards-tairin.yaml#4": "688a6b201e950f5abebb4e6b",
    "examples/ed4/herekar-guards-tairin.yaml#5": "d088d20be7df6f6df045cbc9",
    "examples/ed4/mica-and-the-ghouls.yaml#1": "7021bf32605939d293e40874",
    "examples/ed4/mica-and-the-ghouls.yaml#2": "f0a6b5c3a60785659990fe29",
    "examples/ed4/mica-and-the-ghouls.yaml#3": "d24d5e449cbd67cd740740a4",
    "examples/ed4/mica-and-the-ghouls.yaml#4": "3bde35e86e27ea48bc1d1e6c",
    "examples/ed4/mica-and-the-ghouls.yaml#5": "d933a25af393008a8392c974",
    "examples/ed4/silar-and-the-griffin.yaml#1": "cbba7f1abb8125fd17a29a76",
    "examples/ed4/silar-and-the-griffin.yaml#2": "3608f47ce8e69e0011d90297",
    "examples/ed4/silar-and-the-griffin.yaml#3": "7582ba60b86b60638e2be632",
    "examples/ed4/silar-and-the-griffin.yaml#4": "133ba01c1fa19dda5eade444",
    "examples/ed4/silar-and-the-griffin.yaml#5": "7253f99c84d06ae1a03e2c9d",
    "bench:duel#1": "572d2044bb10e0b430b24799",
    "bench:duel#2": "6950fa1b24e7a61e1791c6de",
    "bench:duel#3": "156387035da2724a820f59b2",
    "bench:duel#4": "5e9b8ba52700c9ffdd9418f4",
    "bench:duel#5": "4e93190bd2c300e6525443ba",
    "bench:5v5#1": "87804b339412fff8641d8a40",
    "bench:5v5#2": "37095452556d2e0c31f21f15",
    "bench:5v5#3": "26bd7f871d8663d4f1d04871",
    "bench:5v5#4": "f88c130367c23876a41be967",
    "bench:5v5#5": "5e4a7d04a05e42430ce6034d",
    "bench:10v10#1": "a9b35929748b1257223febbc",
    "bench:10v10#2": "5d760fc29294b4c06397431e",
    "bench:10v10#3": "0dd5ae1b195180ba4882d313",
    "bench:10v10#4": "af7dbb0afda00352b96e3105",
    "bench:10v10#5": "d674a51e28e6dc92079b5174",
    "core:duel#1": "7c33244ea5e84af635d686ed",
    "core:duel#2": "a6c277719d592ecd8d4337df",
    "core:duel#3": "6ee49be19ec28b8202f91743",
    "core:duel#4": "3382b06f637301b8f8b8a86e",
    "core:duel#5": "1fee30cbbdfe8f5d1795a6a0",
    "core:5v5#1": "826fcca893b56985f83483ca",
    "core:5v5#2": "ce74aeb3fae04549ed5566b6",
    "core:5v5#3": "ffc80d5cfa72adb115afe5cb",
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
