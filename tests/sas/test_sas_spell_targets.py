"""Spells & Swords: whom a spell or an attack may be aimed at.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading). ATTACKING "An
Attacker picks his target and rolls 1D20 on the Attack Table. The Attacker adds his Attack Bonuses and
Subtracts the Targets Defense Bonuses"; COMBAT ROUND ACTIONS LIST "Cast Spell - No Moving. Make Spell Check".
The spells of data/magic.toml are settings (no spell list is public), every one cast at a foe: a Bolt is an
attack on the Attack Table, the others a condition the target saves against. The engine let a mage Bolt
(or Sleep) himself, and a fighter attack himself. Reference 5.1 = shared/rules/reference/spells-and-swords.md
(Spell Check: "1 Power Point" a spell).
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, goblin, scripted_fight

from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand


def _fight() -> Fight:
    """Mage m and fighter f (left) and fighter b three spaces off (right); left acts first."""
    return scripted_fight(
        [{"template": "mage", "id": "m", "at": [0, 0]}, {"template": "fighter", "id": "f", "at": [0, 1]}],
        {"template": "fighter", "id": "b", "at": [3, 0]},
    )


@pytest.mark.parametrize("spell", ["bolt", "sleep", "web"])
def test_a_spell_is_not_cast_at_its_caster(spell: str) -> None:
    fight = _fight()
    with pytest.raises(IllegalCommand, match="at himself") as exc:
        SAS.validate(fight.state, Command("m", "cast-spell", "m", {"spell": spell}))
    assert exc.value.rule.startswith("sas/attacking" if spell == "bolt" else "sas/spell-check")
    SAS.validate(fight.state, Command("m", "cast-spell", "b", {"spell": spell}))  # the foe: fine


def test_a_spell_may_be_aimed_at_a_side_mate() -> None:
    """A GM's call (docs/rulesets/sas.md): a side-mate in range may be the target (as an `attack` on a
    side-mate is allowed), e.g. to Sleep a berserk friend."""
    fight = _fight()
    SAS.validate(fight.state, Command("m", "cast-spell", "f", {"spell": "bolt"}))
    SAS.validate(fight.state, Command("m", "cast-spell", "f", {"spell": "sleep"}))


def test_an_attack_on_oneself_is_refused() -> None:
    """ATTACKING: an attack is at a target whose Defense is subtracted; not at the attacker himself."""
    fight = _fight()
    with pytest.raises(IllegalCommand, match="cannot attack himself"):
        SAS.validate(fight.state, Command("f", "attack", "f"))
    SAS.validate(fight.state, Command("f", "attack", "m"))  # a side-mate: allowed, as before


def _self_bolt(power_points: int) -> None:
    """Goblin w knows Bolt and the Shield Spell and has ``power_points``; he casts the Bolt at himself. That
    was once allowed (a spell needed only a seen target in range), and a Shield Spell against his own Bolt
    could spend a point the Bolt had just spent; a spell is now never cast at its caster (ATTACKING "An
    Attacker picks his target"; docs/rulesets/sas.md Game master's calls), so it is refused before any point
    is spent."""
    w = {"template": "goblin", "id": "w", "at": [0, 0]}
    w["stats"] = {"spells": ["bolt", "shield"], "power_points": power_points}
    fight = scripted_fight([w], [goblin("s", (5, 0))], [20, 1])
    with pytest.raises(IllegalCommand, match="at himself"):
        SAS.validate(fight.state, Command("w", "cast-spell", "w", {"spell": "bolt"}))
    assert fight.state.combatants["w"].count("pp_used") == 0


@pytest.mark.parametrize("power_points", [1, 2])
def test_a_caster_cannot_bolt_himself_to_shield_against_his_own_spell(power_points: int) -> None:
    """Reference 5.1: a spell costs 1 Power Point. The Bolt at himself is refused, with 1 point or 2."""
    _self_bolt(power_points)
