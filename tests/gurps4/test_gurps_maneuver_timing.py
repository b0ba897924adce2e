"""When what a maneuver or an injury gives starts and ends (reference/gurps.md 1.3, 1.6; B364, B420): an
Aim is spoiled by defending and, unless a Will roll succeeds, by being hurt; a stunned figure who recovers
still defends at -4 without retreating until its next turn."""

from __future__ import annotations

from scripted import duel, offered, play, rolls

from fracas.engine.commands import Command

ARCHER = {"template": "horse_archer", "id": "archer", "at": [0, 0], "stats": {"basic_speed": 7}}  # Will 10
THROWER = {
    "template": "spearman",
    "id": "spear",
    "at": [10, 0],
    "equipment": {"weapons": ["javelin"]},
    "stats": {"skills": {"Thrown Weapon (Spear)": 14}},
}
AIM = Command("archer", "aim", "spear", {"weapon": "composite_bow"})
JAVELIN = Command("spear", "attack", "archer", {"weapon": "javelin", "maneuver": "attack"})
SHOOT = Command("archer", "attack", "spear", {"weapon": "composite_bow", "maneuver": "attack"})


def hurt_while_aiming(will_faces: list[int]) -> int:
    """The archer aims, takes a javelin (no defense), rolls Will with these faces, then shoots: the number
    the shot is rolled against."""
    f = duel(ARCHER, THROWER)
    play(f, [], AIM)
    play(f, [3, 3, 4], JAVELIN)  # 10 hits
    events = play(f, [3, *will_faces], Command("archer", "defend", None, {"defense": "none"}))
    assert f.state.combatants["archer"].counters["injury"] > 0
    will = [r for r in rolls(events, "archer") if r.test.startswith("Will")]
    assert len(will) == 1 and will[0].dn == 10
    shot = play(f, [6, 6, 6], SHOOT)
    return rolls(shot, "archer")[0].dn


def test_hurt_while_aiming_a_will_roll_keeps_the_aim() -> None:
    # B364: injured while aiming, a Will roll or the Aim is lost. Will 10: 9 keeps it, 11 loses it.
    # Bow 13, range 10 yd -4, shock -(injury); +3 Acc only with the Aim kept
    kept = hurt_while_aiming([3, 3, 3])
    lost = hurt_while_aiming([4, 4, 3])
    assert kept - lost == 3


def test_a_defense_spoils_the_aim() -> None:
    # B364 (reference 1.3: "any [defense], but defending loses the Aim"): the archer dodges the javelin and
    # shoots without the +3 of the bow's Acc
    f = duel(ARCHER, THROWER)
    play(f, [], AIM)
    play(f, [3, 3, 4], JAVELIN)
    play(f, [3, 3, 3], Command("archer", "defend", None, {"defense": "dodge"}))
    assert f.state.combatants["archer"].marks.get("aim") is None
    assert rolls(play(f, [6, 6, 6], SHOOT), "archer")[0].dn == 13 - 4


def test_no_defense_keeps_the_aim() -> None:
    f = duel(ARCHER, THROWER)
    play(f, [], AIM)
    play(f, [6, 6, 5], JAVELIN)  # 17 misses
    assert rolls(play(f, [6, 6, 6], SHOOT), "archer")[0].dn == 13 - 4 + 3


# ------------------------------------------------------------------ stun (B420)

AXEMAN = {"template": "axeman", "id": "ax", "at": [0, 0], "stats": {"basic_speed": 7}}
KNIGHT = {
    "template": "knight",
    "id": "k",
    "at": [1, 0],
    "equipment": {"weapons": ["broadsword"], "armor": []},
}
AXE = Command("ax", "attack", "k", {"weapon": "axe", "maneuver": "attack"})


def test_a_recovered_stun_lasts_until_the_next_turn() -> None:
    # B420 (reference 1.6): stunned, defenses -4 and no retreat; "HT roll at the end of each turn to recover.
    # After recovery the -4 lasts until the next turn". The old code lifted both at the recovery roll.
    f = duel(AXEMAN, KNIGHT)
    # axe 10 hits; 2d+1 = 5 cut, x1.5 = 7 HP, a major wound; knockdown HT 12 rolls 14: stunned, prone;
    # then the knight's stunned turn: HT 9 recovers
    play(f, [3, 3, 4], AXE)
    play(f, [2, 2, 5, 5, 4, 3, 3, 3], Command("k", "defend", None, {"defense": "none"}))
    knight = f.state.combatants["k"]
    assert knight.has("stunned") and knight.marks.get("stun_recovered")
    assert f.pending().actor == "ax"  # the knight's turn passed (Do Nothing)
    play(f, [3, 3, 4], AXE)
    defenses = offered(f)
    # Dodge 10 + shield DB 2, lying -3, stunned -4; no retreat while stunned (B377)
    assert defenses["dodge"] == 5
    assert not [k for k in defenses if "retreat" in k]
    play(f, [1, 2, 2], Command("k", "defend", None, {"defense": "dodge"}))  # 5 against 5
    decision = f.pending()
    assert decision.actor == "k" and decision.kind == "act"
    assert not f.state.combatants["k"].has("stunned")  # his turn: free to act
