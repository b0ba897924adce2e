"""Helpers for the tests of ED4 p.382-398 wired into the ruleset: a person who declares, duels."""

from __future__ import annotations

from typing import Any

from ed4_helpers import RULESET, build

from fight_helpers import auto, fight
from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight


class Person:
    """A combatant driven by the test: asked to declare (the test submits); never chooses by itself."""

    name = "person"
    declares = True

    def choose(self, state: Any, decision: Any, ruleset: Any) -> Any:  # pragma: no cover - tests submit
        raise AssertionError(f"the test should decide for {decision.actor} ({decision.kind})")


def person_registered() -> None:
    RULESET.tactics()["person"] = Person()


person_registered()


def start(state: Any, init_faces: list[int]) -> Fight:
    person_registered()
    return fight(state, init_faces)


def declare(f: Fight, actor: str, *options: str) -> list[ev.Event]:
    auto(f, actor, "declare")
    return f.submit(Command(actor, "declare", args={"action": "attack", "options": list(options)}))


def act(f: Fight, actor: str, faces: list[int]) -> None:
    auto(f, actor, "act")
    f.dice = ScriptedDice(faces)


def mods(e: ev.Rolled) -> list[tuple[int, str]]:
    return [(int(v), str(r)) for v, _, r in e.modifiers]


def mica_among_ghouls():
    # Mica faces direction 0 (towards +q); five ghouls around him, two of them behind (directions 3 and 4).
    return build(
        [
            {"name": "Mica", "combatants": [{"template": "mica", "id": "mica", "at": [0, 0], "facing": 0}]},
            {
                "name": "Ghouls",
                "combatants": [
                    {
                        "template": "ghoul",
                        "count": 5,
                        "tactic": "hold",
                        "at": [[1, 0], [1, -1], [0, 1], [-1, 0], [-1, 1]],
                    }
                ],
            },
        ]
    )
