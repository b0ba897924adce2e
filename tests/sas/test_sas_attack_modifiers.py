"""Spells & Swords ATTACK TABLE MODIFIERS read in play: Defender Moved on last Action, Defender Surrounded,
the mounted bonuses, underwater combat, the Monster Fumble's bonus to the foes' next attack.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference =
shared/rules/reference/spells-and-swords.md. Each case is a fight played with scripted dice through the
engine; what the text leaves open is in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, scripted_fight, turn

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight


def _moved_mod(events: list) -> int | None:
    from fracas.engine import events as ev

    (shot,) = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    found = [m[0] for m in shot.modifiers if m[1] == "Defender Moved on last Action"]
    return found[0] if found else None


def test_defender_moved_on_last_action_reads_the_defenders_last_turn() -> None:
    """004 ATTACK TABLE MODIFIERS "Defender Moved on last Action -1 Ranged Attack by Attacker. Foe Running
    Away". Goblin g's side acts first; archer a's second. In round 1 g walks, then a shoots him: g's last
    action was that move (-1). In round 2 g stands (nothing), then a shoots: his last action was no move (no
    -1). The engine read "moved in the previous round" whatever the order of the sides: no -1 in round 1, a
    -1 in round 2."""
    fight = scripted_fight(
        {"template": "goblin", "id": "g", "at": [12, 0], "tactic": "hold"},
        {"template": "goblin-archer", "id": "a", "at": [0, 0], "tactic": "hold"},
    )
    turn(fight, Command("g", "walk", None, {"to": [10, 0]}), [])
    events = turn(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])  # a Miss
    assert _moved_mod(events) == -1
    turn(fight, Command("g", "nothing"), [20, 1] if fight.state.round == 1 else [])
    assert fight.state.round == 2
    events = turn(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])
    assert _moved_mod(events) is None


def test_defender_moved_when_his_side_acts_after_the_shooter() -> None:
    """004 ATTACK TABLE MODIFIERS "Defender Moved on last Action": archer a's side first, goblin g's second.
    g walks in round 1; in round 2 a shoots before g has acted again: g's last action was the move (-1)."""
    fight = scripted_fight(
        {"template": "goblin-archer", "id": "a", "at": [0, 0], "tactic": "hold"},
        {"template": "goblin", "id": "g", "at": [12, 0], "tactic": "hold"},
    )
    turn(fight, Command("a", "nothing"), [])
    turn(fight, Command("g", "walk", None, {"to": [10, 0]}), [])
    assert fight.state.round == 2
    events = turn(fight, Command("a", "attack", "g", {"weapon": "short-bow"}), [5])
    assert _moved_mod(events) == -1


def test_mounted_bonuses_count_for_a_shot_from_the_saddle() -> None:
    """004 MOUNTED COMBAT: "Versus Unmounted Foes you get Attack and Damage +1. If your Mount is Moving get
    Damage +1 from Momentum." The text names no kind of attack; the engine gave them to melee attacks only,
    so a horse archer with Ride +2 shooting a man on foot had neither."""
    from fracas.rules.sas.model import fighter
    from fracas.rules.sas.procedures.attack import Situation, attack_modifiers
    from fracas.rules.sas.procedures.damage import damage_modifiers

    rider = fighter("r", "fighter", skills={"ride": 2}, weapons=["short-bow"])
    rider.mounted_on, rider.mount_moving = "horse", True
    foe = fighter("f", "fighter")
    shot = Situation(ranged=True, distance_m=20.0, weapon="short-bow")
    assert sum(m.value for m in attack_modifiers(rider, foe, shot) if "mounted" in m.rule) == 1
    assert sum(m.value for m in damage_modifiers(rider, foe, shot) if "mounted" in m.rule) == 2
    foe.mounted_on = "pony"  # against a mounted foe: the momentum only
    assert not [m for m in attack_modifiers(rider, foe, shot) if "mounted" in m.rule]
    assert sum(m.value for m in damage_modifiers(rider, foe, shot) if "mounted" in m.rule) == 1


def test_underwater_weapon_penalty_is_not_on_a_brawl_or_grapple() -> None:
    """004 UNDERWATER COMBAT: "Blunt, Swinging, Cutting, Slashing, and Slicing Weapons are ineffective
    underwater. They get penalties of Attack and Damage -3." A Random Brawl Attack uses no weapon (THE BRAWL
    RULE: "instead of using a Weapon in hand"), nor does a Dog Pile (a single Grapple Attack). A brawl on a
    table row had no -3, but one whose 1D60 face has no row (an unmodified brawl attack) and a Dog Pile took
    the Long Sword's -3 from the weapon in hand."""
    from fracas.rules.sas.model import fighter
    from fracas.rules.sas.procedures.attack import Situation, attack_modifiers
    from fracas.rules.sas.procedures.damage import damage_modifiers

    a, d = fighter("a", "fighter"), fighter("d", "fighter")
    assert a.wielded == "long-sword"

    def underwater(mods: list) -> list:
        return [m for m in mods if "underwater" in m.rule]

    sword = Situation(underwater=True)
    assert [m.value for m in underwater(attack_modifiers(a, d, sword))] == [-3]
    assert [m.value for m in underwater(damage_modifiers(a, d, sword))] == [-3]
    for sit in (Situation(underwater=True, brawl_plain=True), Situation(underwater=True, dog_pile=4)):
        assert underwater(attack_modifiers(a, d, sit)) == []
        assert underwater(damage_modifiers(a, d, sit)) == []


def test_a_monster_fumbles_foe_bonus_is_each_foes_next_attack_only() -> None:
    """004 MONSTER FUMBLES "4 Foes get Attack +2 to next attack vs Monster". Wolf w (first) fumbles: Auto
    Fumble, Monster Fumble 4. Fighter f attacks it later in round 1 with +2; in round 2 his attack is no
    longer his next one after the fumble: no +2. The engine gave +2 to every foe's attack on the wolf to
    the end of round 2 (here two attacks of one foe)."""
    from fracas.engine import events as ev

    fight = scripted_fight(
        {"template": "wolf", "id": "w", "at": [0, 0], "tactic": "hold"},
        {"template": "fighter", "id": "f", "at": [1, 0], "tactic": "hold"},
    )
    turn(fight, Command("w", "attack", "f"), [1, 4])  # Auto Fumble; MONSTER FUMBLES 4

    def bonus(events: list) -> list:
        (roll,) = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
        return [m[0] for m in roll.modifiers if "monster-fumbles" in m[2]]

    preview = SAS.attack_modifiers_now(fight.state, Command("f", "attack", "w"))
    assert preview is not None and [m.value for m in preview[0] if "monster-fumbles" in m.rule] == [2]
    assert bonus(turn(fight, Command("f", "attack", "w"), [2])) == [2]  # a Miss either way
    turn(fight, Command("w", "nothing"), [])
    assert fight.state.round == 2
    preview = SAS.attack_modifiers_now(fight.state, Command("f", "attack", "w"))  # the odds read it too
    assert preview is not None and [m for m in preview[0] if "monster-fumbles" in m.rule] == []
    assert bonus(turn(fight, Command("f", "attack", "w"), [2])) == []


def _three(left: list[dict]) -> Fight:
    """``left`` against fighter b (brawls off); left acts first."""
    return scripted_fight(left, {"template": "fighter", "id": "b", "at": [0, 0]})


def _surrounded(attack: ev.Rolled) -> bool:
    return any(m[1] == "Defender Surrounded" for m in attack.modifiers)


@pytest.mark.parametrize(
    ("start", "action", "face"),
    [
        # 5 + Long Sword 3 + Behind 2 - Medium Shield 1 - Dodge 1 = 8, a Miss; with Surrounded +1 it is 9
        (-3, "close-to-attack", 5),
        # the same from 6 spaces with a Charge (CHARGE RULES: Attack +1): 4 + 3 + 2 + 1 - 1 + 1 - 1 = 9
        (-6, "charge", 4),
    ],
)
def test_an_attacker_who_moved_in_counts_for_defender_surrounded(start: int, action: str, face: int) -> None:
    """004 ATTACK TABLE MODIFIERS: "Defender Surrounded +1 On at least 2 Sides (2-4+ Foes)", a situation of
    the attack. a Closes to Attack (COMBAT ROUND ACTIONS LIST: "Move at Normal Speed and Attack") or Charges
    to b's back, c already in front of him: two foes adjacent as a swings. The engine counted a where his
    turn began, 3 or 6 spaces off: a Miss at 8; with Surrounded it is 9, Weapons Locked."""
    fight = _three(
        [
            {"template": "fighter", "id": "a", "at": [start, 0]},
            {"template": "fighter", "id": "c", "at": [1, 0]},
        ]
    )
    events = turn(fight, Command("a", action, "b"), [face])
    attack = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack")
    assert _surrounded(attack)
    assert (attack.total, attack.outcome) == (9, "Weapons Locked")


def test_a_lone_attacker_who_closed_in_does_not_surround() -> None:
    """One foe next to b is not "at least 2 Sides": no Surrounded for a who closes in alone."""
    fight = _three([{"template": "fighter", "id": "a", "at": [-3, 0]}])
    events = turn(fight, Command("a", "close-to-attack", "b"), [5])
    attack = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack")
    assert not _surrounded(attack)
