"""What injury does to a figure, tested on the numbers its rolls are made against (reference/gurps.md 1.6,
B419-420): below 1/3 HP Move and Dodge are halved, rounding up; shock is a penalty to DX, IQ and skills on
the next turn; a stunned figure defends at -4 without retreating until its next turn."""

from __future__ import annotations

from scripted import RS, duel, fight_of, offered, play, rolls

from fracas.dice.source import ScriptedDice
from fracas.engine.commands import Command
from fracas.rules.gurps4 import core
from fracas.rules.gurps4.figure import shock_now
from fracas.rules.gurps4.riding import riding_base
from fracas.rules.gurps4.validate import movement_allowance

ARCHER = {"template": "horse_archer", "id": "archer", "at": [0, 0]}  # Dodge 9, Move 6, HP 11, no shield
SPEAR = {"template": "spearman", "id": "spear", "at": [1, 0]}
THRUST = {"weapon": "spear:thrust", "maneuver": "attack"}


def archer_at(hp: int) -> object:
    f = duel(ARCHER, SPEAR)
    f.state.combatants["archer"].counters["injury"] = 11 - hp
    return f


# ------------------------------------------------------------------ below 1/3 HP (B419)


def test_dodge_below_a_third_of_hp_is_halved_rounding_up_offered_and_rolled() -> None:
    # B419: below HP/3 "halve Move and Dodge, rounding up": Dodge 9 at 3 of 11 HP is 5 (the old code wrote
    # a "-4 Dodge halved" line and raised the base by 4, offering and rolling 9)
    f = archer_at(3)
    play(f, [], Command("archer", "do_nothing"))
    play(f, [3, 3, 4], Command("spear", "attack", "archer", THRUST))
    options = offered(f)
    assert options["dodge"] == 5
    assert options["dodge and retreat"] == 8  # the halved 5, +3 for the retreat (B377)
    events = play(f, [2, 2, 2, *[3] * 10], Command("archer", "defend", None, {"defense": "dodge"}))
    dodge = rolls(events, "archer")[0]
    assert dodge.dn == 5
    assert [m[0] for m in dodge.modifiers] == [-4]


def test_dodge_at_a_third_of_hp_is_whole() -> None:
    # 4 of 11 HP is not below 11/3: Dodge 9
    f = archer_at(4)
    play(f, [], Command("archer", "do_nothing"))
    play(f, [3, 3, 4], Command("spear", "attack", "archer", THRUST))
    assert offered(f)["dodge"] == 9


def test_move_below_a_third_of_hp_is_halved_rounding_up() -> None:
    # B419: Move 6 at 3 of 11 HP is 3: a Move takes the archer 3 hexes, and its card says Move 3, Dodge 5
    f = archer_at(3)
    archer = f.state.combatants["archer"]
    assert movement_allowance(f.state, archer, "move") == 3
    card = RS.card(archer)
    assert (card["Move"], card["Dodge"]) == (3, 5)
    play(f, [], Command("archer", "move", None, {"to": [-10, 0]}))
    assert f.state.combatants["archer"].pos == (-3, 0)


# ------------------------------------------------------------------ shock (B419)


def test_shock_comes_off_every_skill_roll_of_the_next_turn_not_only_attacks() -> None:
    # B419 (reference 1.6): shock is "to DX and IQ (and skills) on the next turn only": the rider's Riding
    # rolls on that turn (to stay on, after a noisy shot, B397) and a DX roll to stay standing after
    # knockback (B378) take it as his attacks do; the old code took it off attacks and feints only
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "cavalry_horse", "id": "horse", "at": [0, 0]},
                {"template": "horse_archer", "id": "archer", "options": {"mount": "horse"}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "spear", "at": [3, 0]}]},
        ]
    )  # fmt: skip
    archer = f.state.combatants["archer"]
    before = sum(m.value for m in riding_base(f.state, archer)[1])
    archer.marks["shock_now"] = -2
    assert sum(m.value for m in riding_base(f.state, archer)[1]) == before - 2
    r = core.knockback_fall_roll(13, 2, ScriptedDice([3, 3, 3]), shock_now(archer))
    assert r.effective == 13 - 1 - 2


def test_a_double_shock_is_not_cut_back_by_a_later_hit() -> None:
    # Critical Hit Table 8: double shock, max -8 (B556); a later ordinary hit adds to it (B419: shock from
    # several hits adds up) and cannot lower it to the ordinary cap of -4 (the old code did: -8 -> -4)
    from fracas.engine import events as ev
    from fracas.rules.gurps4.figure import Work, scratch
    from fracas.rules.gurps4.injury import after_injury

    f = duel(ARCHER, SPEAR)
    f.apply([ev.ConditionAdded("archer", "shock", None, -8, "spear", "gurps4/core/shock B419")])
    w = Work(scratch(f.state), ScriptedDice([]))
    archer = w.c("archer")
    inj = core.Injury(3, 2, 1, 1.0, 1, "torso", False, 0, ())
    archer.counters["injury"] = 1
    after_injury(w, w.c("spear"), archer, inj, 3, "cr", 11, None)
    assert w.c("archer").conditions["shock"].value == -8
