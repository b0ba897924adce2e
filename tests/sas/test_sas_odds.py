"""Spells & Swords odds preview: the chance shown before a command is the roll's, with the same modifiers.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, attacks, goblin, mods, scripted_fight, turn

from fracas.engine.commands import Command


def _preview_and_roll(
    action: str, at: int, args: dict, faces: list[int], hidden: bool = False, altitude: int = 0
) -> tuple[dict[str, int], dict[str, int]]:
    """Goblin g (a Spear: longer than s's dagger, and it may be thrown) ``at`` spaces from goblin s; g's side
    first. The modifiers ``attack_modifiers_now`` previews for ``action`` and those of the attack it rolls."""
    fight = scripted_fight([goblin("g", (at, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    g = fight.state.combatants["g"]
    g.hidden, g.altitude = hidden, altitude
    cmd = Command("g", action, "s", args)
    found = SAS.attack_modifiers_now(fight.state, cmd)
    assert found is not None
    preview = {m.why: m.value for m in found[0]}
    rolled = mods(attacks(turn(fight, cmd, faces))[-1])
    return preview, rolled


@pytest.mark.parametrize(
    ("action", "at", "args", "faces", "hidden", "altitude"),
    [
        ("charge", 6, {"battle_cry": True}, [1, 12, 1], False, 0),  # 1D2 1, Attack 12, Damage 1
        ("charge", 6, {}, [12, 1], False, 0),
        ("hurling-charge", 14, {"battle_cry": True}, [1, 12, 1], False, 0),
        ("close-to-attack", 3, {}, [12, 1], False, 0),
        ("sneak-attack", 2, {}, [12, 1], True, 0),
        ("leap-attack", 2, {}, [12, 1], False, 1),
    ],
)
def test_the_odds_preview_has_the_modifiers_of_the_roll(
    action: str, at: int, args: dict, faces: list[int], hidden: bool, altitude: int
) -> None:
    """The preview (``attack_modifiers_now``, behind ``odds``) showed a charge combined with a Battle Cry
    without the cry (CHARGE RULES: "may be combined with a Battle Cry"; the roll has had it since the cry is
    raised as he charges), and read every closing attack from where the attacker stood, not where his move
    ends and the roll is made: a Spear 6 spaces off was previewed as a throw (no "Attacker has Longer
    Weapon"). Each action's preview is now the roll's modifiers."""
    preview, rolled = _preview_and_roll(action, at, args, faces, hidden, altitude)
    assert preview == rolled


def test_the_odds_of_a_charge_with_a_battle_cry() -> None:
    """Charge +1, Battle Cry +1, Longer Weapon +1, Small Shield -1: +2, a hit on 8+ (faces 8-20: 65%); the
    engine printed +0 (55%)."""
    fight = scripted_fight([goblin("g", (6, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    text = SAS.odds(fight.state, Command("g", "charge", "s", {"battle_cry": True}))
    assert text is not None and text.startswith("hit 65% (critical 15%), fumble 5%, modifiers +2")


def test_no_odds_for_a_charge_that_cannot_reach() -> None:
    """A closing attack whose move cannot end next to the target makes no attack roll: no odds (validate
    refuses it too)."""
    fight = scripted_fight([goblin("g", (30, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    assert SAS.attack_modifiers_now(fight.state, Command("g", "close-to-attack", "s")) is None
