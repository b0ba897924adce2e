"""Spells & Swords: Power Points spent within one command, the odds preview of a charge with a Battle Cry,
a mute combatant's Battle Cry, and the reaction marks' rule ids; each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading); reference 5.1
= shared/rules/reference (Spell Check: "1 Power Point" a spell).
"""

from __future__ import annotations

import pytest
from sas_scripted import SAS, attacks, goblin, mods, scripted_fight, turn

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import IllegalCommand

# ----- 1. Power Points: what the command has already spent counts ------------------------------------------


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


# ----- 2. the odds preview is the roll's: a Battle Cry with a charge, the attack where the move ends ----


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


# ----- 3. a combatant who cannot speak raises no Battle Cry ------------------------------------------------


def test_a_broken_jaw_leaves_its_victim_mute() -> None:
    """Reference 1.2, Random Brawl Attacks 9: "Break Jaw - foe has a Broken Head and cannot speak". Goblin g's
    attack on s becomes a brawl (Brawl Rule 5, 1D60 9) and hits (12 - Small Shield 1 = 11; Damage 1; the
    Skull Crack's 1D2 1): s is marked mute when g's side's held effects land."""
    fight = scripted_fight([goblin("g", (1, 0))], [goblin("s", (0, 0))], [20, 1])
    fight.state.options["brawl-rule"] = True
    turn(fight, Command("g", "attack", "s"), [5, 9, 12, 1, 1])
    assert fight.state.combatants["s"].marks.get("mute") is True


@pytest.mark.parametrize(
    ("action", "target", "args"),
    [
        ("battle-cry", None, {}),
        ("charge", "s", {"battle_cry": True}),
        ("hurling-charge", "s", {"battle_cry": True}),
    ],
)
def test_a_mute_combatant_cannot_raise_a_battle_cry(action: str, target: str | None, args: dict) -> None:
    """A Battle Cry is a cry: one who "cannot speak" (Break Jaw) cannot raise it, alone or with a charge
    (docs/rulesets/sas.md, Game master's calls). The engine let him. He may still charge without it."""
    fight = scripted_fight([goblin("g", (8, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    fight.state.combatants["g"].marks["mute"] = True
    with pytest.raises(IllegalCommand, match="cannot speak") as refused:
        SAS.validate(fight.state, Command("g", action, target, args))
    assert refused.value.rule == "sas/random-brawl/break-jaw (reference/spells-and-swords.md 1.2)"
    SAS.validate(fight.state, Command("g", "charge", "s"))


# ----- 4. the Hurling Charge: the line's Damage +1 for the throw, the Charge's Defense -4 on the charger ----


def test_a_hurling_charge_throw_has_its_damage_bonus_and_not_the_charge_s() -> None:
    """004 COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1";
    CHARGE RULES: those who "charge into HTH Combat ... get Attack +1, Swift +2, Damage +2, and Defense -4
    for 1 Round" (docs/rulesets/sas.md, Game master's calls): the throw has the line's Damage +1, not the
    Charge's Attack +1 and Damage +2. Goblin g (a Spear) starts 6 spaces from s, already within Short range:
    he still charges, one space, and throws (12 - Small Shield 1 = 11, a Hit; Damage 1 + 1 - Armor 1)."""
    fight = scripted_fight([goblin("g", (6, 0), "spear")], [goblin("s", (0, 0), "short-bow")], [20, 1])
    events = turn(fight, Command("g", "hurling-charge", "s"), [12, 1])
    (moved,) = [e for e in events if isinstance(e, ev.Moved)]
    assert moved.path == ((5, 0),)
    (throw,) = attacks(events)
    assert mods(throw) == {"Defender has Small Shield": -1}
    damage = next(e for e in events if isinstance(e, ev.Rolled) and e.test == "Damage")
    assert mods(damage) == {"Hurling Charge": 1, "target's Armor (very-light)": -1}


def test_a_hurling_charger_has_the_charge_s_defense_minus_four() -> None:
    """He is "Charging": the Charge's Defense -4 "for 1 Round" is on him until his side acts again, so s's
    arrow in reply has +4 (5 - Small Shield 1 + 4 = 8). The engine gave the Hurling Charge the Charge's
    Swift +2 but not its Defense -4. (g's charge was his last action: Defender Moved on last Action -1 too,
    ATTACK TABLE MODIFIERS: 5 - 1 + 4 - 1 = 7.)"""
    fight = scripted_fight([goblin("g", (6, 0), "spear")], [goblin("s", (0, 0), "short-bow")], [20, 1])
    turn(fight, Command("g", "hurling-charge", "s"), [12, 1])
    (shot,) = attacks(turn(fight, Command("s", "attack", "g"), [5]))
    assert mods(shot)["target's Defense this round (Charge)"] == 4
    assert mods(shot)["Defender Moved on last Action"] == -1
    assert shot.total == 7


def test_a_hurling_charge_that_would_end_next_to_the_target_is_refused() -> None:
    """Two spaces off, the charge toward s passes no hex 2+ spaces from him to throw from: it would end next
    to him, a Charge and not a throw. The engine let it run home and strike as a plain attack (neither the
    throw's Damage +1 nor the Charge's bonuses); it is refused, naming the Charge."""
    fight = scripted_fight([goblin("g", (2, 0), "spear")], [goblin("s", (0, 0))], [20, 1])
    with pytest.raises(IllegalCommand, match="too close to throw while charging"):
        SAS.validate(fight.state, Command("g", "hurling-charge", "s"))
    SAS.validate(fight.state, Command("g", "charge", "s"))


# ----- 5. every reaction's mark names its rule -------------------------------------------------------------


def _reaction_marks(events: list[ev.Event]) -> list[str]:
    return [e.rule for e in events if isinstance(e, ev.Marked) and e.key == "reacted_round"]


def test_the_shield_spell_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Shield Spell - Before Foe makes attack roll Quickly cast this"; the mark that spends the
    round's reaction (docs/rulesets/sas.md, Game master's calls) carried no rule id, unlike Receive Charge's
    and Fire from Overwatch's. Dice: s's Spell Check 15, a's Attack 8 (a Miss)."""
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"spells": ["shield"], "power_points": 3}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow")], [s], [20, 1])
    events = turn(fight, Command("a", "attack", "s"), [15, 8])
    assert _reaction_marks(events) == ["sas/reactions/shield-spell (REACTIONS)"]


def test_the_catch_missile_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Catch Missile - If Foe's Attack does not hit make a Hard Skill Check". Dice: a's Attack 5
    (a Miss), s's Catch Missile 20."""
    s = {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"skills": {"catch-missile": 1}}}
    fight = scripted_fight([goblin("a", (8, 3), "short-bow")], [s], [20, 1])
    events = turn(fight, Command("a", "attack", "s"), [5, 20])
    assert _reaction_marks(events) == ["sas/reactions/catch-missile (REACTIONS)"]


def test_the_counterspell_s_reaction_mark_names_its_rule() -> None:
    """REACTIONS: "Counterspell - Quickly cast this spell to negate a Spell just cast by a Foe". Goblin w
    casts Sleep on s; c, s's side-mate, counters it. Dice: w's Spell Check 15, c's Spell Check 15."""
    w = {"template": "goblin", "id": "w", "at": [4, 0], "stats": {"spells": ["sleep"], "power_points": 1}}
    c = {"template": "goblin", "id": "c", "at": [0, 2]}
    c["stats"] = {"spells": ["counterspell"], "power_points": 1}
    fight = scripted_fight([w], [goblin("s", (0, 0)), c], [20, 1])
    events = turn(fight, Command("w", "cast-spell", "s", {"spell": "sleep"}), [15, 15])
    assert any(isinstance(e, ev.Note) and "counters" in e.text for e in events)
    assert _reaction_marks(events) == ["sas/reactions/counterspell (REACTIONS)"]
