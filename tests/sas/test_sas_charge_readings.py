"""Three readings of the Spells & Swords charge and attack rules, each a fight played with scripted dice.

004 = shared/rules/004_0d1ac50b56c23caf.txt (no page numbers: sections are cited by heading). The readings and
why are in docs/rulesets/sas.md, "Game master's calls".
"""

from __future__ import annotations

from sas_by_the_text_helpers import start, unit
from sas_scripted import SAS, attacks, goblin, mods, scripted_fight, turn

from fracas.dice.source import ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight

NEXT_ATTACK = "effect on the next attack (Feint, Weapons Locked, Monster Fumble)"


# ----- 1. a Battle Cry made with a Charge counts on the charge's attack -----------------------------------


def test_a_battle_cry_made_with_a_charge_counts_on_its_attack() -> None:
    """004 CHARGE RULES: "Characters may charge into HTH Combat. This may be combined with a Battle Cry";
    COMBAT ROUND ACTIONS LIST: "Battle Cry – Effects last 1D2 +1 Rounds". The cry is raised as he charges,
    so the charge's own attack has it. The engine added the Battle Cry in the same batch but rolled the
    charge's attack from the charger as he stood before it: 12 + Charge 1 - Small Shield 1 = 12; with the
    Battle Cry (+1, setting battle_cry_attack) it is 13."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0)), [20, 1])
    # 1D2 1 (the cry lasts 2 rounds after this one), g's Attack 12, Damage 1 (+ 2 - 1 = 2: Superficial)
    events = turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 12, 1])
    added = [e.name for e in events if isinstance(e, ev.ConditionAdded) and e.target == "g"]
    assert added[:2] == ["battle-cry", "charging"]  # the cry first, then the charge
    (attack,) = attacks(events)
    assert mods(attack) == {"Battle Cry": 1, "Charge": 1, "Defender has Small Shield": -1}
    assert (attack.total, attack.outcome) == (13, "Hit")
    assert fight.state.combatants["g"].conditions["battle-cry"].until_round == 3  # 1 + 2 (test_sas_reactions)


def test_a_battle_cry_made_with_a_charge_outlasts_the_longer_weapons_first_strike() -> None:
    """The same, when s's longer Spear strikes first (CHARGE RULES): the charger attacks as the strike left
    him, Battle Cry included. s: 4 + Longer Weapon 1 - Small Shield 1 + Charge Defense 4 = 8, a Miss; g: 12
    + Charge 1 + Battle Cry 1 - Small Shield 1 = 13, a Hit."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [20, 1])
    events = turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 4, 12, 1])
    first, charge = attacks(events)
    assert (first.actor, first.total, first.outcome) == ("s", 8, "Miss")
    assert charge.actor == "g" and mods(charge)["Battle Cry"] == 1
    assert (charge.total, charge.outcome) == (13, "Hit")


def test_the_battle_cry_lasts_into_the_next_round() -> None:
    """With 1D2 1 (2 rounds) it is on g's attack in round 2 too (its last round is 3: test_sas_reactions)."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0)), [20, 1])
    turn(fight, Command("g", "charge", "s", {"battle_cry": True}), [1, 5])  # a Miss
    turn(fight, Command("s", "attack", "g"), [5])  # a Miss
    (attack,) = attacks(turn(fight, Command("g", "attack", "s"), [5]))
    assert mods(attack)["Battle Cry"] == 1


# ----- 2. Set to Receive Charge and the longer weapon give one first strike, not two -----------------------


def _spearman_set_to_receive() -> Fight:
    """Goblin s (a Spear, longer than g's weapon) Sets to Receive Charge; goblin g then charges him."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [1, 20])  # right (s) first
    turn(fight, Command("s", "set-to-receive-charge"), [])
    return fight


def test_a_spearman_set_to_receive_the_charge_strikes_first_once() -> None:
    """004 ACTIONS: "Set to Receive Charge – Requires Spear or Pole-Arm. Attack First after Foe Moves on his
    Turn"; REACTIONS: "Receive Charge – ... You attack after a Foe moves but before he Attacks"; CHARGE RULES:
    "If the Defender has a Longer Weapon and sees the Charge coming, he will automatically be able to get an
    attack in First even if it is out of order." Both give the one thing, an attack before the charger's:
    a spearman who has both attacks first once. The engine let s receive the charge and then strike first
    again with his longer spear: two attacks before g's."""
    fight = _spearman_set_to_receive()
    # s: Attack 5 (+ Longer Weapon 1 - Small Shield 1 + Charge Defense 4 = 9: Weapons Locked); g: Attack 12,
    # Damage 1
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    assert any(isinstance(e, ev.Note) and "receives the charge" in e.text for e in events)
    assert not any(isinstance(e, ev.Note) and "strikes first" in e.text for e in events)
    assert fight.state.combatants["s"].marks.get("set") is None


def test_the_receive_charge_is_the_spearmans_first_strike_of_the_round() -> None:
    """The longer weapon's first strike is once a round, and the Receive Charge is it: a second goblin who
    charges s in the same round is not struck first."""
    h = {"template": "goblin", "id": "h", "at": [0, 5]}
    _, state = encounter.load_data({
        "version": 1,
        "ruleset": "sas",
        "options": {"brawl-rule": False},
        "sides": [
            {"name": "left", "combatants": [goblin("g", (6, 0)), h]},
            {"name": "right", "combatants": [goblin("s", (0, 0), "spear")]},
        ],
    })  # fmt: skip
    fight = Fight(SAS, state, ScriptedDice([1, 20]))  # right (s) first
    fight.advance_until_decision()
    turn(fight, Command("s", "set-to-receive-charge"), [])
    # s receives g's charge: 4 + 1 - 1 + 4 = 8, a Miss; g: 5 + 1 - 1 = 5, a Miss
    events = turn(fight, Command("g", "charge", "s"), [4, 5])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    events = turn(fight, Command("h", "charge", "s"), [5])  # h alone attacks: a Miss
    assert [e.actor for e in attacks(events)] == ["h"]


def test_a_spearman_not_set_still_strikes_first_with_the_longer_weapon() -> None:
    """Without Set to Receive Charge the longer weapon alone gives the same one first strike."""
    fight = scripted_fight(goblin("g", (6, 0)), goblin("s", (0, 0), "spear"), [1, 20])
    turn(fight, Command("s", "nothing"), [])
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    assert [e.actor for e in attacks(events)] == ["s", "g"]
    assert any(isinstance(e, ev.Note) and "strikes first" in e.text for e in events)


# ----- 3. Weapons Locked: the -2 is on the foe's next attack ---------------------------------------------


def test_weapons_locked_by_the_receive_charge_is_on_the_charges_attack() -> None:
    """004 ATTACK TABLE: "9 Weapons Locked Attack Fails; Foe gets Attack -2 next round", read as the foe's
    next attack (his next round of attacking, as the FUMBLE TABLE's "Do nothing on your next Round"): s's
    Receive Charge locks weapons (9) and g's charge, in the same round, is that next attack. 12 + Charge 1 -
    Small Shield 1 - 2 = 10."""
    fight = _spearman_set_to_receive()
    events = turn(fight, Command("g", "charge", "s"), [5, 12, 1])
    first, charge = attacks(events)
    assert first.outcome == "Weapons Locked"
    assert mods(charge)[NEXT_ATTACK] == -2
    assert (charge.total, charge.outcome) == (10, "Hit")
    assert "attack" not in fight.state.combatants["g"].marks.get("next", {})  # spent


def test_weapons_locked_is_on_the_foes_attack_later_in_the_round_and_only_that_one() -> None:
    """Fighter a (his side first) rolls 8 + 1 = 9, Weapons Locked; b's attack later in the same round is his
    next one: -2 on it, and none on b's attack of round 2."""
    fighter_a = {"template": "fighter", "id": "a", "at": [0, 0]}
    fighter_b = {"template": "fighter", "id": "b", "at": [1, 0]}
    fight = scripted_fight(fighter_a, fighter_b, [20, 1])
    (locked,) = attacks(turn(fight, Command("a", "attack", "b"), [8]))
    assert (locked.total, locked.outcome) == (9, "Weapons Locked")
    (b1,) = attacks(turn(fight, Command("b", "attack", "a"), [5]))
    assert mods(b1)[NEXT_ATTACK] == -2
    turn(fight, Command("a", "attack", "b"), [5])
    (b2,) = attacks(turn(fight, Command("b", "attack", "a"), [5]))
    assert NEXT_ATTACK not in mods(b2)


def test_no_first_strike_after_his_attack_of_the_round() -> None:
    """CHARGE RULES "an attack in First even if it is out of order"; ATTACKING "a single attack per Round":
    y (spear) has attacked z on his side's turn (a Miss); x's charge later in the same round meets no first
    strike: the only attacks are y's and x's own."""
    p = start(
        [unit("y", (0, 0), 0, weapons=["spear"])],
        [unit("z", (-1, 0), 0), unit("x", (4, 0), 3, weapons=["dagger"])],
    )
    p.act("attack", "z", faces=[5])
    while p.decision is not None and p.decision.actor != "x":
        p.act("nothing")
    p.act("charge", "y", faces=[10, 1])
    assert [r.actor for r in p.rolls("Attack")] == ["y", "x"]
    assert not any(isinstance(e, ev.Note) and "strikes first" in e.text for e in p.log)
