"""Which active defenses a defender is offered, and at what (B374-377; reference/gurps.md 1.4)."""

from __future__ import annotations

from scripted import RS, duel, fight_of, offered, play, rolls

from fracas.engine.commands import Command

ARCHER = {"template": "horse_archer", "id": "archer", "at": [0, 0], "stats": {"basic_speed": 7}}
SPEAR = {"template": "spearman", "id": "spear", "at": [10, 0]}  # Dodge 8, medium shield DB 2
SHOOT = Command("archer", "attack", "spear", {"weapon": "composite_bow", "maneuver": "attack"})
DROP = Command("spear", "defend", None, {"defense": "dodge", "retreat": False, "drop": True})


def test_dodge_and_drop_is_offered_against_a_ranged_attack_and_leaves_the_defender_prone() -> None:
    # B377: Dodge and Drop, +3 to Dodge against ranged attacks; the defender ends prone (even when the Dodge
    # fails). Never offered before: the +3 existed in the code, no defender was offered it
    f = duel(ARCHER, SPEAR)
    play(f, [3, 3, 3], SHOOT)
    assert offered(f)["dodge and drop"] == offered(f)["dodge"] + 3 == 13
    events = play(f, [6, 6, 2, 1], DROP)  # 14 fails against 13; damage 1d
    assert rolls(events, "spear")[0].dn == 13
    assert f.state.combatants["spear"].marks["posture"] == "lying"


def test_dodge_and_drop_is_not_offered_against_melee_nor_from_the_ground_nor_the_saddle() -> None:
    # melee: no (B377, ranged attacks only)
    f = duel({**ARCHER, "equipment": {"weapons": ["shortsword"]}}, {**SPEAR, "at": [1, 0]})
    play(f, [3, 3, 3], Command("archer", "attack", "spear", {"weapon": "shortsword:swing"}))
    assert "dodge and drop" not in offered(f)
    # already lying: no
    f = duel(ARCHER, SPEAR)
    f.state.combatants["spear"].marks["posture"] = "lying"
    play(f, [3, 3, 3], SHOOT)
    assert "dodge and drop" not in offered(f)
    # a rider: no (he cannot drop from the saddle)
    f = fight_of(
        [
            {"name": "A", "combatants": [ARCHER]},
            {"name": "B", "combatants": [
                {"template": "cavalry_horse", "id": "horse", "at": [10, 0]},
                {"template": "knight", "id": "spear", "options": {"mount": "horse"}},
            ]},
        ]
    )  # fmt: skip
    f.advance_until_decision()
    play(f, [3, 3, 3], SHOOT)
    assert "dodge" in offered(f) and "dodge and drop" not in offered(f)


def test_every_offered_defense_validates_and_the_default_tactic_stays_on_its_feet() -> None:
    f = duel(ARCHER, SPEAR)
    play(f, [3, 3, 3], SHOOT)
    for cmd, _ in RS.defense_options(f.state):
        RS.validate(f.state, cmd)
    chosen = f.auto_command(f.pending())
    assert not chosen.args.get("drop")
