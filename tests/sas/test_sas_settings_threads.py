"""An encounter's ``settings:`` travel with its state (``settings.settings_of``): the web server plays several
encounters at once, in threads, and none sees another's."""

from __future__ import annotations

import threading

from fight_helpers import encounter_state, two_sides
from fracas.dice.source import ScriptedDice
from fracas.engine.state import FightState
from fracas.rules.sas.fold import view
from fracas.rules.sas.model import fighter
from fracas.rules.sas.procedures.rolls import to_rounds
from fracas.rules.sas.procedures.wounds import major_wound_prone
from fracas.rules.sas.settings import settings_of
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
            barrier.wait()  # both encounters are read at once from here
            seen[name].append(settings_of(state).rounds_per_minute)
            barrier.wait()
            seen[name].append(settings_of(state).rounds_per_minute)
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
    assert seen == {"a": [base + 1, base + 1], "b": [base + 2, base + 2]}
    assert tables().settings is own  # the data file's are never changed


def _duel(settings: dict[str, object]) -> FightState:
    """Bran (side a) next to a goblin (side b), the encounter's ``settings`` as given."""
    bran = {"template": "fighter", "id": "bran", "at": [0, 0]}
    gob = {"template": "goblin", "id": "gob", "at": [1, 0]}
    return encounter_state("sas", two_sides(bran, gob, ("a", "b")), settings=settings)


def test_a_fighters_view_carries_its_encounters_settings() -> None:
    """MAJOR WOUNDS "knocked Prone ... per GM" is setting major_wound_prone: a procedure given a fighter's
    view reads his encounter's setting wherever it is called, not the data file's (nothing to enter
    first); a fighter made outside a fight reads the data file's."""
    own = tables().settings
    assert own.major_wound_prone
    state = _duel({"major_wound_prone": False, "rounds_per_minute": own.rounds_per_minute + 4})
    bran = view(state, state.combatants["bran"])
    assert bran.in_force is settings_of(state)
    assert major_wound_prone(bran, ScriptedDice([])) == []
    assert major_wound_prone(fighter("bran", "fighter"), ScriptedDice([100] * 4)) != []
    assert to_rounds(1, "minutes", bran.in_force) == own.rounds_per_minute + 4
