"""ATTACK TABLE MODIFIERS: Good Cover (Behind Parapet) and Good Concealment from the map, and a Friendly Fire
shot that reads the ally's own place."""

from __future__ import annotations

from fracas.engine import encounter
from fracas.rules.sas.attack import situation
from fracas.rules.sas.fold import view
from fracas.rules.sas.procedures.attack import attack_modifiers


def archer_and_target(extra: dict) -> object:
    data = {
        "version": 1,
        "ruleset": "sas",
        "map": {"extra": extra},
        "sides": [
            {"name": "a", "combatants": [{"template": "goblin-archer", "id": "arch", "at": [10, 0]}]},
            {"name": "b", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
        ],
    }
    return encounter.load_data(data)[1]


def lines(state: object) -> dict[str, int]:
    c, t = state.combatants["arch"], state.combatants["bran"]  # type: ignore[attr-defined]
    sit = situation(state, c, t, "attack")  # type: ignore[arg-type]
    mods = attack_modifiers(view(state, c), view(state, t), sit)  # type: ignore[arg-type]
    return {m.why: m.value for m in mods}


def test_good_cover_minus_4_behind_parapet() -> None:
    assert lines(archer_and_target({"good_cover": [[0, 0]]}))["Defender Good Cover"] == -4
    assert "Defender Good Cover" not in lines(archer_and_target({}))


def test_good_concealment_minus_3() -> None:
    assert lines(archer_and_target({"good_concealment": [[0, 0]]}))["Defender Good Concealment"] == -3
