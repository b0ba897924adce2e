"""Two Spells & Swords fights in one process never change each other: played interleaved, step by step, on
one thread or on two (the web server plays fights in a thread pool), each gives exactly the events it gives
alone. One has its own ``settings:`` (settings.toml: lost limbs, Major Wound prone, fatigue), the other
the data file's."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from fracas.dice.source import RandomDice
from fracas.engine.events import Event
from fracas.engine.play import Fight
from fracas.sim.runner import load_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "sas"


def _fight(name: str, seed: int) -> Fight:
    sc = load_scenario(str(EXAMPLES / name))
    state = sc.state.clone()
    if name == "goblin-horde.yaml":
        state.extra["settings"] = {
            "lost_limb_leg_percent": 0,
            "major_wound_prone": False,
            "fatigue_rounds": 5,
        }
    return Fight(sc.ruleset, state, RandomDice(seed), [])


PAIRS = [("goblin-horde.yaml", 3), ("ambush.yaml", 4)]


def _alone() -> list[list[Event]]:
    out = []
    for name, seed in PAIRS:
        f = _fight(name, seed)
        f.run()
        out.append(list(f.log or []))
    return out


def test_two_fights_interleaved_on_one_thread_give_their_own_events() -> None:
    alone = _alone()
    fights = [_fight(name, seed) for name, seed in PAIRS]
    while not all(f.state.ended for f in fights):
        for f in fights:
            if not f.state.ended:
                f.step()
    assert [list(f.log or []) for f in fights] == alone


def test_two_fights_interleaved_on_two_threads_give_their_own_events() -> None:
    alone = _alone()
    fights = [_fight(name, seed) for name, seed in PAIRS]
    turn = threading.Condition()
    state: dict[str, Any] = {"next": 0, "errors": []}

    def play(i: int) -> None:
        f = fights[i]
        try:
            while True:
                with turn:
                    # strictly in turn: one step of this fight, then one of the other
                    turn.wait_for(lambda: state["next"] == i or fights[1 - i].state.ended, timeout=30)
                    done = f.state.ended
                    if not done:
                        f.step()
                    state["next"] = 1 - i
                    turn.notify_all()
                if done:
                    return
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            state["errors"].append(e)
            with turn:
                state["next"] = 1 - i
                turn.notify_all()

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not state["errors"]
    assert [list(f.log or []) for f in fights] == alone
