"""Spells & Swords: one hand left after a lost or broken arm or hand.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading). MAJOR WOUND
TABLE 4 "Lost Limb: Permanent. Move -4 or loss of Arm or Hand"; BODY PART BROKEN "A Broken Arm or Hand make
those parts unusable"; DUAL WIELD "a Weapon in each hand"; WEAPON modifiers "Large Weapon +2 Two Handed". The
engine dropped the weapon and nothing more: the one-armed fighter could take up a Great Sword, Dual Wield, or
make a brawl attack needing two free hands.
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, scripted_fight

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand


def _one_armed(weapons: list[str], how: str = "broken", shield: str | None = None) -> Fight:
    """Fighter a after the wound: the weapon in hand dropped (as the engine records it), the arm broken or
    lost."""
    stats: dict = {"weapons": weapons, "shield": shield or "none"}
    fight = scripted_fight(
        {"template": "fighter", "id": "a", "at": [0, 0], "stats": stats},
        {"template": "fighter", "id": "b", "at": [1, 0]},
    )
    a = fight.state.combatants["a"]
    if how == "broken":
        a.marks["broken"] = ("arm",)
    else:
        a.marks["lost_arm"] = True
    a.marks["dropped"] = weapons[0]
    a.marks["weapon"] = "unarmed"
    return fight


@pytest.mark.parametrize("how", ["broken", "lost"])
def test_a_two_handed_weapon_is_refused_with_one_hand(how: str) -> None:
    """004 BODY PART BROKEN / MAJOR WOUND TABLE 4: a Great Sword (Two Handed) cannot be picked up or drawn."""
    fight = _one_armed(["great-sword", "battle-axe", "dagger"], how)
    rid = "sas/body-part-broken" if how == "broken" else "sas/major-wounds/lost-limb"
    with pytest.raises(IllegalCommand, match="needs two hands") as exc:
        SAS.validate(fight.state, Command("a", "pick-up"))
    assert exc.value.rule.startswith(rid)
    with pytest.raises(IllegalCommand, match="needs two hands"):
        SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "battle-axe"}))
    SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "dagger"}))  # one-handed: fine
    SAS.validate(fight.state, Command("a", "attack", "b"))  # bare-handed: fine


def test_dual_wield_is_refused_with_one_hand() -> None:
    """004 DUAL WIELD "a Weapon in each hand": not with one hand left."""
    fight = _one_armed(["long-sword", "short-sword", "dagger"])
    with pytest.raises(IllegalCommand, match="no Dual Wield"):
        SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "dagger", "dual": True}))
    # healed (the break removed), both hands are back
    fight.state.combatants["a"].marks["broken"] = ()
    SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "short-sword", "dual": True}))


def test_shield_and_weapon_need_two_hands() -> None:
    """One hand left holds the shield or a weapon: drawing a weapon is refused while the shield is held; a
    Pick up Dropped Item sets the shield aside (docs/rulesets/sas.md, Game master's calls)."""
    fight = _one_armed(["long-sword", "dagger"], shield="medium")
    with pytest.raises(IllegalCommand, match="holds the shield"):
        SAS.validate(fight.state, Command("a", "attack", "b", {"weapon": "dagger"}))
    SAS.validate(fight.state, Command("a", "pick-up"))
    fight.dice = ScriptedDice([20])  # the Pick up check
    events = fight.submit(Command("a", "pick-up"))
    a = fight.state.combatants["a"]
    assert a.marks["weapon"] == "long-sword"
    assert a.marks.get("shield_dropped") is True
    assert any(isinstance(e, ev.Note) and "sets the shield aside" in e.text for e in events)


def test_a_brawl_attack_needing_two_hands_is_substituted_with_one_hand() -> None:
    """THE BRAWL RULE with one hand left (004 BODY PART BROKEN, a Broken Hand "unusable"): Random Brawl
    Attacks 7 Thumbs in Both Eyes needs two free hands, so the row below it is made (reference 1.1: the GM
    substitutes the result above or below), as for a fighter whose hands hold a weapon and a shield. The
    engine counted two free hands for a bare-handed fighter with a broken hand."""
    bare = {"weapons": ["long-sword"], "shield": "none"}
    fight = scripted_fight(
        {"template": "fighter", "id": "a", "at": [0, 0], "stats": bare},
        {"template": "fighter", "id": "b", "at": [1, 0]},
        options={"brawl-rule": True},
    )
    a = fight.state.combatants["a"]
    a.marks["broken"] = ("hand",)
    a.marks["dropped"] = "long-sword"
    a.marks["weapon"] = "unarmed"
    dice = ScriptedDice([5, 7, 10])  # Brawl Rule 5 (a brawl), 1D60 7 (Thumbs in Both Eyes), Attack 10 (miss)
    fight.dice = dice
    events = fight.submit(Command("a", "attack", "b"))
    assert dice.position == 3
    rows = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Random Brawl Attacks"]
    assert rows[0].outcome == "Poke in the Eye"
    assert any(isinstance(e, ev.Note) and "needs two free hands" in e.text for e in events)


def _fighter(fid: str, at: list[int], weapons: list[str], shield: str = "none") -> dict:
    return {"template": "fighter", "id": fid, "at": at, "stats": {"weapons": weapons, "shield": shield}}


TWO_HANDED_BRAWL = {
    "version": 1,
    "ruleset": "sas",
    "max_rounds": 40,
    "sides": [
        {"name": "a", "combatants": [
            _fighter("a1", [0, 0], ["great-sword", "dagger"]),
            _fighter("a2", [0, 1], ["long-sword", "dagger"], "medium"),
            _fighter("a3", [0, 2], ["battle-axe"]),
        ]},
        {"name": "b", "combatants": [
            _fighter("b1", [1, 0], ["staff"]),
            _fighter("b2", [1, 1], ["long-sword"], "large"),
            _fighter("b3", [1, 2], ["great-club"]),
        ]},
    ],
}  # fmt: skip


@pytest.mark.parametrize("seed", [22, 30, 45])
def test_the_tactics_fight_on_with_one_hand(seed: int) -> None:
    """Seeds where a two-handed fighter loses an arm (22 a3, 30 b1, 45 b1) or breaks a hand (45 a1): every
    tactic command passes validate (``run_checked``), the fight ends, and no one left with one hand holds a
    Two Handed weapon."""
    from fracas.dice.source import RandomDice
    from fracas.rules.sas.readers import hands_left
    from fracas.rules.sas.tables import tables

    _, state = encounter.load_data(TWO_HANDED_BRAWL)
    Fight(SAS, state, RandomDice(seed), seed=seed).run_checked()
    assert state.ended
    one_handed = [c for c in state.combatants.values() if hands_left(c)[0] == 1]
    assert one_handed
    for c in one_handed:
        held = c.marks.get("weapon") or c.stats.weapons[0]
        assert tables().weapons[held].hands <= 1, (c.id, held)
