"""A gurps4 stat block's own natural attacks (stats.attacks): a mount imported from a character file keeps
its trample, kick and bite at the damage its file gives; a bad attack is refused naming the field."""

from __future__ import annotations

import pytest

from fracas.engine.encounter import load_data
from fracas.errors import EncounterFileError


def _enc(stats: dict) -> dict:
    return {
        "version": 1,
        "ruleset": "gurps4",
        "sides": [
            {
                "name": "A",
                "combatants": [{"template": "cavalry_horse", "id": "h", "at": [0, 0], "stats": stats}],
            },
            {"name": "B", "combatants": [{"template": "spearman", "at": [6, 0]}]},
        ],
    }


def test_a_mounts_own_attacks_replace_its_templates() -> None:
    attacks = [
        {
            "name": "trample",
            "damage": "2d+1",
            "type": "cr",
            "reach": [0, 1],
            "skill": "DX",
            "skill_modifier": -2,
        }
    ]
    _, state = load_data(_enc({"attacks": attacks}))
    st = state.combatants["h"].stats
    (a,) = st.attacks()
    assert (a.name, a.damage, a.damage_type, a.reach, a.natural) == ("trample", "2d+1", "cr", (0, 1), True)
    assert st.skill(a.skill_name) + a.skill_modifier == 9 - 2  # DX 9 of the cavalry horse, -2


@pytest.mark.parametrize(
    ("attack", "field"),
    [
        ({"name": "bite", "damage": "lots", "type": "cr", "reach": [0]}, "attacks.0.damage"),
        ({"name": "bite", "damage": "1d", "type": "zap", "reach": [0]}, "attacks.0.type"),
        ({"name": "bite", "damage": "1d", "type": "cr", "reach": "C"}, "attacks.0.reach"),
        ({"name": "bite", "damage": "1d", "type": "cr", "reach": [0], "color": 1}, "attacks.0.color"),
    ],
)
def test_a_bad_attack_is_refused_naming_the_field(attack: dict, field: str) -> None:
    with pytest.raises(EncounterFileError, match=field.replace(".", r"\.")):
        load_data(_enc({"attacks": [attack]}))
