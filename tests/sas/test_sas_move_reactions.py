"""Spells & Swords: every move draws the reactions to a move, each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading). REACTIONS: "Fire
from Overwatch - Shoot Foe with Ranged weapon after he moves but before he Attacks"; COMBAT ROUND ACTIONS
LIST: "Go into Overwatch - Requires Ranged Weapon. Attack First after Foe Moves on his Turn". The text ties
the reaction to a move, any move: Close to Attack, Charge, Hurling Charge and Walk/Run/Sneak drew it; Leap
Attack, Trample (LARGE CREATURE ATTACKS), Fighting Withdrawal and Flee (DISENGAGE) did not.
"""

from __future__ import annotations

from sas_scripted import attacks, goblin, mods, noted, scripted_fight, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.engine.state import Condition


def _watched(left: list[dict], right: list[dict]) -> Fight:
    """The right side acts first (1D20s 1 and 20): its archer ``a`` Goes into Overwatch, the others wait."""
    fight = scripted_fight(left, right, [1, 20])
    for c in right:
        turn(fight, Command(c["id"], "overwatch" if c["id"] == "a" else "nothing"), [])
    return fight


def _order(events: list[ev.Event]) -> list[str]:
    """The moves, the Overwatch note and the rolls, in the order they happened."""
    out = []
    for e in events:
        if isinstance(e, ev.Moved):
            out.append(f"{e.actor} moves")
        elif isinstance(e, ev.Note) and "fires from Overwatch" in e.text:
            out.append(f"{e.actor} fires")
        elif isinstance(e, ev.Rolled):
            out.append(f"{e.actor} {e.test}")
    return out


def test_a_flee_draws_fire_from_overwatch() -> None:
    """DISENGAGE: "Flee: Move away from Foe at full speed with your back to foe". Goblin g, next to s, flees
    6 spaces; archer a (Overwatch, 8+ spaces off) shoots him where he stops. The engine let him flee past the
    archer. Dice: a's Attack 12 (- Moved 1 - Small Shield 1 = 10, a Hit), Damage 1."""
    fight = _watched([goblin("g", (6, 0))], [goblin("s", (5, 0)), goblin("a", (0, 4), "short-bow")])
    events = turn(fight, Command("g", "disengage", "s", {"mode": "flee"}), [12, 1])
    assert _order(events) == ["g moves", "a fires", "a Attack", "a Damage"]
    (shot,) = attacks(events)
    assert (shot.total, shot.outcome) == (10, "Hit")
    assert fight.state.combatants["a"].marks["reacted_round"] == 1
    assert "fleeing" in fight.state.combatants["g"].conditions


def test_a_fighting_withdrawal_draws_fire_from_overwatch_which_sees_its_defense() -> None:
    """DISENGAGE: "Fighting Withdrawal: Move Backwards at half-speed while facing your opponent. Attacks you
    make are at -2. Get Defense +1 while Doing this." Goblin g attacks s (8 - 2 - Small Shield 1 = 5, a Miss)
    and withdraws 3 spaces; archer a shoots him after the move, and the shot sees the withdrawal's Defense
    +1: 12 - Moved 1 - Small Shield 1 - 1 = 9, Weapons Locked."""
    fight = _watched([goblin("g", (6, 0))], [goblin("s", (5, 0)), goblin("a", (0, 4), "short-bow")])
    events = turn(fight, Command("g", "disengage", "s", {"mode": "withdrawal"}), [8, 12])
    assert _order(events) == ["g Attack", "g moves", "a fires", "a Attack"]
    _, shot = attacks(events)
    assert mods(shot)["target's Defense this round (Fighting Withdrawal)"] == -1
    assert (shot.total, shot.outcome) == (9, "Weapons Locked")


def test_a_leap_attack_draws_fire_from_overwatch_before_the_leap() -> None:
    """COMBAT ROUND ACTIONS LIST: "Leap Attack - (Pounce) From Above". Goblin g, 2 levels up, moves 2 spaces
    and leaps on s; archer a shoots him after he moves, before he attacks (REACTIONS). Dice: a's Attack 12
    (a Hit), Damage 1; g's Attack 12 (+ Height 1 + Leap 1 - Small Shield 1 = 13, a Hit), Damage 1."""
    fight = _watched([goblin("g", (3, 0))], [goblin("s", (0, 0)), goblin("a", (-8, 0), "short-bow")])
    fight.state.combatants["g"].altitude = 2
    events = turn(fight, Command("g", "leap-attack", "s"), [12, 1, 12, 1])
    assert _order(events) == ["g moves", "g moves", "a fires", "a Attack", "a Damage", "g Attack", "g Damage"]


def test_a_leap_attacker_struck_down_by_the_shot_does_not_leap() -> None:
    """A reaction that drops the mover ends his action (as for a charge): a's Critical Hit (natural 20, +4
    Damage) with Damage 20 kills goblin g, who makes no attack."""
    fight = _watched([goblin("g", (3, 0))], [goblin("s", (0, 0)), goblin("a", (-8, 0), "short-bow")])
    fight.state.combatants["g"].altitude = 2
    events = turn(fight, Command("g", "leap-attack", "s"), [20, 20])
    assert [e.actor for e in attacks(events)] == ["a"]
    assert fight.state.combatants["g"].status != "active"


def test_a_trample_draws_fire_from_overwatch_before_the_save() -> None:
    """LARGE CREATURE ATTACKS: "Movement and attacks combine into one". Ogre o moves 5 spaces to trample s;
    archer a shoots it after the move, before s's Save vs Crush. Dice: a's Attack 9 (+ Defender Larger 1 -
    Moved 1 = 9, Weapons Locked), s's Save vs Crush 2 (failed), o's Damage 5."""
    ogre = {"template": "ogre", "id": "o", "at": [6, 0]}
    fight = _watched([ogre], [goblin("s", (0, 0)), goblin("a", (-3, 4), "short-bow")])
    events = turn(fight, Command("o", "trample", "s"), [9, 2, 5])
    assert _order(events) == ["o moves", "a fires", "a Attack", "s Save vs Crush", "o Damage"]
    (shot,) = attacks(events)
    assert (shot.total, shot.outcome) == (9, "Weapons Locked")


def test_a_trample_is_not_a_charge_for_a_spearman_set_to_receive_one() -> None:
    """REACTIONS: "Receive Charge - Charging Foe runs straight into your Weapon": a Trample is not a Charge
    (docs/rulesets/sas.md, Game master's calls), so goblin s, set to receive a charge, does not strike the
    ogre that tramples up to him: only the Save vs Crush (20, made) is rolled."""
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}}
    fight = scripted_fight([{"template": "ogre", "id": "o", "at": [6, 0]}], [s], [1, 20])
    turn(fight, Command("s", "set-to-receive-charge"), [])
    events = turn(fight, Command("o", "trample", "s"), [20])
    assert not noted(events, "receives the charge")
    assert _order(events) == ["o moves", "s Save vs Crush", "s moves"]


def _horde(g_at: tuple[int, int]) -> Fight:
    """Goblins g (at ``g_at``) and h (4 spaces off) against goblin s; archer a, 8 spaces behind s, in
    Overwatch."""
    return _watched(
        [goblin("g", g_at), goblin("h", (4, 1))], [goblin("s", (0, 0)), goblin("a", (-8, 0), "short-bow")]
    )


def test_a_horde_attack_draws_fire_from_overwatch_at_the_first_to_move() -> None:
    """HORDE ATTACK: the members move next to the target and attack together. Goblin g leads the Horde
    Attack and moves first: archer a shoots him (12 - 2 = 10, a Hit; Damage 1, a Superficial Wound), his
    one reaction of the round spent; h then joins unshot, and the Horde Attack (h the lead, 12, Damage 1)
    reads g's wound."""
    fight = _horde((4, 0))
    events = turn(fight, Command("g", "horde", "s"), [12, 1, 12, 1])
    assert _order(events) == ["g moves", "a fires", "a Attack", "a Damage", "h moves", "h Attack", "h Damage"]
    assert noted(events, "Horde Attack: Goblin, Goblin on Goblin")


def test_a_horde_leader_struck_down_as_he_moves_leads_nobody() -> None:
    """The shot kills g as he moves (20: 18, a Hit; Damage 20 - Armor 1 = 19, Instant Death): no attack is
    made and h, who has not moved, keeps his turn."""
    fight = _horde((4, 0))
    events = turn(fight, Command("g", "horde", "s"), [20, 20])
    assert _order(events) == ["g moves", "a fires", "a Attack", "a Damage"]
    assert fight.state.combatants["h"].pos == (4, 1)
    decision = fight.pending()
    assert decision is not None and decision.actor == "h"


def test_a_horde_member_struck_down_as_he_moves_joins_no_attack() -> None:
    """g already stands next to s; h moves to join him and is shot dead on the way: nobody joins g, who
    makes an ordinary attack (12 - Small Shield 1 = 11, a Hit; Damage 1); h's move spent his turn."""
    fight = _horde((1, 0))
    events = turn(fight, Command("g", "horde", "s"), [20, 20, 12, 1])
    assert _order(events) == ["h moves", "a fires", "a Attack", "a Damage", "g Attack", "g Damage"]
    assert noted(events, "Nobody joins Goblin: an ordinary attack.")
    assert fight.state.combatants["h"].status == "dead"
    assert [e.actor for e in events if isinstance(e, ev.TurnEnded)] == ["h", "g"]


def test_a_rout_draws_fire_from_overwatch() -> None:
    """DISENGAGE: "Rout: ... Run away from Danger at Swift +2": a move on his own turn, if not of his choosing
    (COMBAT ROUND ACTIONS LIST, Overwatch: "Attack First after Foe Moves on his Turn"). Routed goblin g runs;
    archer a shoots him where he stops (12: 10, a Hit; Damage 1)."""
    fight = scripted_fight(
        [goblin("g", (6, 0))], [goblin("s", (5, 0)), goblin("a", (2, 4), "short-bow")], [1, 20]
    )
    fight.state.combatants["g"].conditions["routed"] = Condition("routed", None, 0, "a failed Morale save")
    turn(fight, Command("s", "nothing"), [])
    fight.dice = ScriptedDice([12, 1])
    fight.submit(Command("a", "overwatch"))
    k = len(fight.log)
    fight.advance_until_decision()
    events = fight.log[k:]
    assert _order(events)[:4] == ["g moves", "a fires", "a Attack", "a Damage"]
    assert next(e for e in events if isinstance(e, ev.Moved)).rule == "sas/disengage/rout (DISENGAGE)"


def test_a_confused_wanderer_draws_fire_from_overwatch() -> None:
    """CONFUSION TABLE 9: "Move random Direction, full Speed": the Confused goblin g moves on his turn, so
    archer a's Overwatch shoots him where he stops. Dice: Confusion 9, direction 1, a's Attack 12 (a Hit),
    Damage 1."""
    right = [goblin("s", (0, -6)), goblin("a", (2, 4), "short-bow")]
    fight = scripted_fight([goblin("g", (6, 0))], right, [1, 20])
    fight.state.combatants["g"].conditions["confusion"] = Condition("confusion", None, 0, "a spell")
    turn(fight, Command("s", "nothing"), [])
    fight.dice = ScriptedDice([9, 1, 12, 1])
    fight.submit(Command("a", "overwatch"))
    k = len(fight.log)
    fight.advance_until_decision()
    events = fight.log[k:]
    assert _order(events)[:5] == ["g Confusion Table", "g moves", "a fires", "a Attack", "a Damage"]
