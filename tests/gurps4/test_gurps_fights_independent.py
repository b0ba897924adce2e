"""Two GURPS fights in one process share the ruleset object (``get_ruleset`` keeps one per process, and the
web server plays fights on parallel threads): neither may change the other's rules. No per-fight data is
kept on the ruleset, its tactics or its modules."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from fight_helpers import seeded
from fracas.engine import encounter
from fracas.engine.events import to_json
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples/gurps4"
PAIRS = [
    ("fight-on-foot.yaml", "knights-jousting.yaml"),
    ("horse-archers.yaml", "winged-duel.yaml"),
    ("knights-jousting.yaml", "horse-archers.yaml"),
]


def _fight(name: str, seed: int) -> Fight:
    return seeded(encounter.load(EXAMPLES / name)[1], seed)


def _alone(name: str, seed: int) -> list[dict[str, Any]]:
    f = _fight(name, seed)
    f.run()
    return [to_json(e) for e in f.log or ()]


def _interleaved(a: tuple[str, int], b: tuple[str, int]) -> tuple[list[Any], list[Any]]:
    """The two fights, each on its own thread, taking turns one engine step at a time (A, B, A, B, ...;
    the one still going plays on alone once the other has ended)."""
    fights = [_fight(*a), _fight(*b)]
    turn = [0]
    done = [False, False]
    cond = threading.Condition()
    errors: list[BaseException] = []

    def play(i: int) -> None:
        f = fights[i]
        try:
            f.start()
            while True:
                with cond:
                    cond.wait_for(lambda: turn[0] == i or done[1 - i], timeout=60)
                    if f.state.ended:
                        break
                    f.step()
                    turn[0] = 1 - i
                    cond.notify_all()
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)
        finally:
            with cond:
                done[i] = True
                turn[0] = 1 - i
                cond.notify_all()

    threads = [threading.Thread(target=play, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    return [to_json(e) for e in fights[0].log or ()], [to_json(e) for e in fights[1].log or ()]


def _attributes() -> dict[str, Any]:
    """What the shared ruleset and its tactics hold as attributes of their own, and how much the GURPS
    modules hold in module-level containers (which would grow with the fights if one kept anything of
    theirs)."""
    rs = get_ruleset("gurps4")
    out: dict[str, Any] = {"ruleset": dict(vars(rs))}
    for name, tactic in rs.tactics().items():
        out[f"tactic {name}"] = dict(getattr(tactic, "__dict__", {}))
    for mod_name, module in sorted(sys.modules.items()):
        if mod_name.startswith("fracas.rules.gurps4"):
            for key, value in vars(module).items():
                if isinstance(value, dict | list | set) and not key.startswith("__"):
                    out[f"{mod_name}.{key}"] = len(value)
    return out


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=lambda p: p.split(".")[0])
def test_interleaved_fights_play_as_alone(a: str, b: str) -> None:
    before = _attributes()
    for seed in (1, 2):
        got_a, got_b = _interleaved((a, seed), (b, seed + 10))
        assert got_a == _alone(a, seed)
        assert got_b == _alone(b, seed + 10)
    # no per-fight data on the shared objects: whatever a fight worked out lives in its own state
    assert _attributes() == before
