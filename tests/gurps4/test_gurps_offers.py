"""Offered equals legal (B344: "with effective skill below 3, only defence rolls may be attempted"; reference
1.1): no attack below effective 3 is offered or validated, also one that closes in first, and a combatant
whose every attack is below 3 still finds something legal to do."""

from __future__ import annotations

from scripted import RS, duel

from fracas.dice.source import RandomDice
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import core
from fracas.rules.gurps4.attack_roll import attack_roll_parts

# Spear 1 (thrust 1 - 0 = 1): every spear attack is below 3; the punch and kick (DX 11, B271) are not
HOPELESS = {"template": "spearman", "id": "spear", "at": [0, 0], "stats": {"skills": {"Spear": 1}}}
FOE = {"template": "swordsman", "id": "sw", "at": [4, 0], "stats": {"basic_speed": 5}}


def effective(f: Fight, cmd: Command) -> int:
    a, t = f.state.combatants[cmd.actor], f.state.combatants[cmd.target or ""]
    atk = a.stats.attack(cmd.args["weapon"])
    base, mods, cap = attack_roll_parts(f.state, a, t, atk, cmd.args.get("maneuver", "attack"), cmd.args)
    return core.effective_value(base, mods, cap)[0]


def test_an_attack_that_closes_in_first_is_not_offered_below_effective_3() -> None:
    # the swordsman is 4 yd off: the spear attacks would step (Attack) or move (Move and Attack) first; the
    # old code checked effective skill only for a foe already in reach, offered them, and resolve refused
    f = duel(HOPELESS, FOE)
    attacks = [c for c in RS.choices(f.state, f.pending()) if c.action == "attack"]
    assert attacks and all(effective(f, c) >= 3 for c in attacks)
    plain = {(c.args["weapon"], c.args["maneuver"]) for c in attacks}
    assert ("spear:thrust_two_handed", "attack") not in plain  # 1
    assert ("spear:thrust_two_handed", "all_out_attack_determined") in plain  # 1 + 4
    cmd = Command("spear", "attack", "sw", {"weapon": "spear:thrust", "maneuver": "move_and_attack"})
    try:
        RS.validate(f.state, cmd)
    except IllegalCommand as e:
        assert "below 3" in str(e)
    else:
        raise AssertionError("a Move and Attack at effective -3 validated")


def test_a_fighter_with_no_attack_of_3_or_more_plays_on() -> None:
    # his tactic always finds a legal command, and the fight is played to its end without an error
    for seed in range(1, 6):
        f = duel({**HOPELESS, "stats": {"skills": {"Spear": 1}, "dx": 4}}, FOE)
        f.dice = RandomDice(seed)
        f.run()
        assert f.state.ended
