"""An encounter's ``settings:`` are in force only on the thread playing it (the web server plays several
encounters at once, in threads)."""

from __future__ import annotations

import threading

from fracas.engine.state import FightState
from fracas.rules.sas.settings import encounter_settings
from fracas.rules.sas.tables import tables


def test_two_threads_each_see_their_own_encounter_settings() -> None:
    own = tables().settings
    barrier = threading.Barrier(2, timeout=10)
    seen: dict[str, list[int]] = {"a": [], "b": []}
    errors: list[BaseException] = []

    def play(name: str, rounds: int) -> None:
        state = FightState("sas", name, {}, [])
        state.extra["settings"] = {"rounds_per_minute": rounds}
        try:
            with encounter_settings(state):
                barrier.wait()  # both encounters' settings are in force at once from here
                seen[name].append(tables().settings.rounds_per_minute)
                barrier.wait()
                seen[name].append(tables().settings.rounds_per_minute)
            seen[name].append(tables().settings.rounds_per_minute)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    threads = [
        threading.Thread(target=play, args=("a", own.rounds_per_minute + 1)),
        threading.Thread(target=play, args=("b", own.rounds_per_minute + 2)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    base = own.rounds_per_minute
    assert seen == {"a": [base + 1, base + 1, base], "b": [base + 2, base + 2, base]}
    assert tables().settings is own  # the main thread never saw either
