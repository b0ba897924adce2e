"""Which active defenses a defender is offered, and at what (B374-377; reference/gurps.md 1.4)."""

from __future__ import annotations

from scripted import RS, duel, fight_of, offered, play, rolls

from fracas.engine.commands import Command
from fracas.rules.gurps4.defense import defense_options

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
    for cmd, _ in defense_options(f.state):
        RS.validate(f.state, cmd)
    chosen = f.auto_command(f.pending())
    assert not chosen.args.get("drop")


# ------------------------------------------------------------------ several parries (B376)


def test_parries_are_counted_per_weapon() -> None:
    # B376 (reference 1.4): "each parry after the first with the same weapon is -4 cumulative": after a
    # broadsword parry the sword is at -4 (its thrust too: one weapon) and the free hand is not; the old
    # code counted every parry of the turn against every weapon
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "axeman", "id": "ax", "at": [0, 0], "stats": {"basic_speed": 7}},
                {"template": "axeman", "id": "ax2", "at": [2, -1], "stats": {"basic_speed": 6.5}},
            ]},
            {"name": "B", "combatants": [
                {"template": "knight", "id": "k", "at": [1, 0],
                 "equipment": {"weapons": ["broadsword"], "armor": [], "shield": None}},
            ]},
        ]
    )  # fmt: skip
    f.advance_until_decision()
    play(f, [3, 3, 3], Command("ax", "attack", "k", {"weapon": "axe"}))
    first = offered(f)
    play(f, [3, 3, 3], Command("k", "defend", None, {"defense": "parry", "weapon": "broadsword:swing"}))
    play(f, [3, 3, 3], Command("ax2", "attack", "k", {"weapon": "axe"}))
    second = offered(f)
    assert second["parry broadsword swing"] == first["parry broadsword swing"] - 4 == 7
    assert second["parry broadsword thrust"] == first["parry broadsword thrust"] - 4
    assert second["parry punch"] == first["parry punch"] == 7


# ------------------------------------------------------------------ All-Out Defense (B366)


def test_all_out_defense_raises_only_a_defense_the_figure_has() -> None:
    # a mount defends by Dodge only (B397): Increased Dodge, nothing else; a figure without a shield has no
    # Block to raise (B375). The old code offered a horse Increased Parry, Increased Block, Double Defense
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "cavalry_horse", "id": "horse", "at": [0, 0], "stats": {"basic_speed": 9}},
                {"template": "horse_archer", "id": "archer", "options": {"mount": "horse"}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "spear", "at": [9, 0]}]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d.actor == "horse"
    aod = {c.args["variant"] for c in RS.choices(f.state, d) if c.action == "all_out_defense"}
    assert aod == {"increased_dodge"}
    play(f, [], Command("horse", "do_nothing"))
    d = f.pending()
    assert d.actor == "archer"
    aod = {c.args["variant"] for c in RS.choices(f.state, d) if c.action == "all_out_defense"}
    assert aod == {"increased_dodge", "increased_parry", "double"}  # no shield: no Increased Block
