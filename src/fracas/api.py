"""The Python API of fracas: what the command line does, as functions (docs/api.md).

- :func:`load_encounter` reads and checks an encounter (a file, a mapping, or YAML/TOML text);
- :func:`start_fight` makes a :class:`~fracas.engine.play.Fight` from it, to play step by step
  (``fight.step()``, ``fight.pending()`` / ``fight.submit(command)``) or to the end (``fight.run()``);
- :func:`narrate` turns events into the lines ``fracas fight`` prints;
- :func:`simulate` plays many fights (``fracas sim``; the ``[sim]`` extra for the compiled kernels);
- :func:`import_character` reads a character file (``fracas import``) into a combatant entry and its report.

Errors a person can fix are :class:`fracas.errors.FracasError` (an encounter file's errors are
:class:`~fracas.errors.EncounterFileError`, a character file's :class:`CharacterFileError`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fracas.importers import CharacterFileError, Imported, MappingReport, import_file

if TYPE_CHECKING:
    from fracas.engine.encounter import EncounterSpec
    from fracas.engine.events import Event
    from fracas.engine.play import Fight
    from fracas.engine.state import FightState
    from fracas.sim.runner import SimResult

__all__ = [
    "CharacterFileError",
    "Encounter",
    "Imported",
    "MappingReport",
    "import_character",
    "load_encounter",
    "narrate",
    "simulate",
    "start_fight",
]


@dataclass(frozen=True, slots=True)
class Encounter:
    """A checked encounter: its spec (the file's fields), its starting state and where it came from."""

    spec: EncounterSpec
    state: FightState
    source: str
    data: Mapping[str, Any]

    @property
    def ruleset(self) -> str:
        return self.spec.ruleset

    @property
    def name(self) -> str:
        return self.spec.name

    def combatants(self) -> dict[str, str]:
        """Each combatant's id and name, in the order of the file."""
        return {c.id: c.name for c in self.state.combatants.values()}


def load_encounter(source: str | Path | Mapping[str, Any], *, text: bool = False) -> Encounter:
    """An encounter from a file path, a mapping of the file's fields, or (``text=True``) YAML or TOML text.

    ``{from: FILE}`` entries of a file are read relative to the file; of a mapping or text, relative to the
    current folder. Every error is an :class:`~fracas.errors.EncounterFileError` naming the field.
    """
    from fracas.engine import encounter
    from fracas.importers import expand_from_entries

    if isinstance(source, Mapping):
        data = expand_from_entries(dict(source), Path.cwd(), "<encounter>")
        where = "<encounter>"
    elif text:
        where = "<text>"
        raw = str(source)
        data = encounter.read_text(raw, where, toml=_is_toml(raw))
        data = expand_from_entries(data, Path.cwd(), where)
    else:
        where = str(source)
        data = encounter.read_file(source)
        spec, state = encounter.load(source)
        return Encounter(spec, state, where, data)
    spec, state = encounter.load_data(data, where)
    return Encounter(spec, state, where, data)


def _is_toml(raw: str) -> bool:
    import tomllib

    try:
        tomllib.loads(raw)
    except tomllib.TOMLDecodeError:
        return False
    return True


def start_fight(encounter: Encounter, seed: int | None = None, *, record: bool = True) -> Fight:
    """A new fight of the encounter (its own copy of the starting state) with seeded dice.

    ``seed=None`` picks one (``fight.seed`` tells which). ``record=False`` keeps no event log
    (``fight.log`` is then None; listeners still see every event).
    """
    from fracas.dice.source import RandomDice
    from fracas.engine.play import Fight
    from fracas.rules.registry import get_ruleset

    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    fight = Fight(get_ruleset(encounter.ruleset), encounter.state.clone(), RandomDice(seed), seed=seed)
    if not record:
        fight.log = None
    return fight


def narrate(fight: Fight, events: list[Event] | None = None) -> list[str]:
    """The lines ``fracas fight`` prints for ``events`` (default: the fight's whole log)."""
    from fracas.engine.narrate import narrate as one

    if events is None:
        events = list(fight.log or [])
    lines = (one(e, fight.state, fight.ruleset) for e in events)
    return [line for line in lines if line is not None]


def simulate(
    encounter: Encounter | str | Path, runs: int = 1000, seed: int = 1, *, engine: str = "auto"
) -> SimResult:
    """``runs`` fights of an encounter (``fracas sim``): ``result.tally`` holds the counts (wins per side,
    draws, rounds, each combatant's final status, damage); the same seed gives the same counts. ``engine``:
    ``"auto"`` (a compiled kernel when one fits, needing the ``[sim]`` extra), ``"reference"`` (the rules
    engine itself, fight by fight) or a kernel's name."""
    from fracas.sim.runner import SerialBackend, scenario_from_data
    from fracas.sim.runner import simulate as run_many

    if not isinstance(encounter, Encounter):
        encounter = load_encounter(encounter)
    scenario = scenario_from_data(dict(encounter.data), encounter.source)
    return run_many(scenario, runs, seed, engine, SerialBackend())


def import_character(path: str | Path, ruleset: str | None = None) -> Imported:
    """A character file (GCS ``.gcs``, Earthdawn Character Editor ``.xml``, Foundry ed4e ``.json``) as a
    combatant entry (``.entry``, ready for an encounter's ``combatants``) and its mapping report
    (``.report``: taken, computed, unused, unusable)."""
    return import_file(path, ruleset)
