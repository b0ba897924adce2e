"""What a creature cannot do: its natural weapon (claws, a bite: a weapon with no hands in weapons.toml) is
part of it. KNOCKED DOWN "Drop whatever he is holding" never drops it; FUMBLE TABLE (HTH WEAPON) "2 Weapon
or Shield or Item Breaks" never breaks it."""

from __future__ import annotations

from sas_by_the_text_helpers import start, unit


def test_a_trolls_claws_do_not_break_on_a_fumble() -> None:
    """A troll (a humanoid: it fumbles on the HTH table) rolls a 1 (Auto Fumble), then 2 on the 1D8: its
    claws stay whole and in use."""
    troll = {"id": "t", "name": "t", "template": "troll", "at": [0, 0], "facing": 0}
    p = start([troll], [unit("y", (1, 0), 3), unit("w", (9, 0), 3)])
    p.act("attack", "y", faces=[1, 2])
    assert p.rolls("Fumble", "t")[-1].outcome.startswith("Weapon or Shield")
    assert not p.c("t").marks.get("broken_weapons")
    assert p.c("t").marks.get("weapon") in (None, "claws")
