"""The gurps4 ruleset in the encounter engine: the text's numbers through real commands, refusals, purity,
replay, and the bundled examples run to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fight_helpers import encounter_state
from fracas.cli import main
from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.errors import EncounterFileError, IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4.defense import defense_options
from fracas.rules.registry import get_ruleset

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "gurps4").glob("*.yaml"))
RS = get_ruleset("gurps4")


def fight_of(sides: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Fight:
    """A fight of these sides on random dice (seed 0) until a test scripts them."""
    return Fight(RS, encounter_state("gurps4", sides, name="test", options=options or {}), RandomDice(0))


def lancer_vs_spearman(riding: int = 13, weapon: str = "lance") -> Fight:
    f = fight_of(
        [
            {"name": "A", "combatants": [
                {"template": "text_warhorse", "id": "horse", "at": [0, 0]},
                {"template": "knight", "id": "knight", "options": {"mount": "horse"},
                 "stats": {"skills": {"Riding": riding}}, "equipment": {"weapons": [weapon, "broadsword"]}},
            ]},
            {"name": "B", "combatants": [{"template": "spearman", "id": "foot", "at": [4, 0]}]},
        ]
    )  # fmt: skip
    d = f.advance_until_decision()
    assert d is not None and d.actor == "knight"  # Basic Speed 6 acts before the horse (5.25) and foot (5.5)
    f.state.combatants["horse"].marks["moved_last_turn"] = 8  # the mount charged 8 yards on its last turn
    return f


def rolled(events: list[ev.Event]) -> list[ev.Rolled]:
    return [e for e in events if isinstance(e, ev.Rolled)]


def test_couched_lance_st25_move8_does_2d_plus_3_imp_in_play() -> None:
    f = lancer_vs_spearman()
    # hit on 6; the foot soldier's best defense fails on 18; damage 3+4; then 3s for any later roll
    f.dice = ScriptedDice([2, 2, 2, 6, 6, 6, 3, 4, *([3] * 30)])
    f.submit(Command("knight", "attack", "foot", {"weapon": "lance", "maneuver": "attack"}))
    react = f.pending()
    assert react is not None and react.kind == "react" and react.actor == "foot"
    best = RS.choices(f.state, react)[-1]
    events = f.submit(best)
    dmg = [r for r in rolled(events) if r.test.startswith("damage")][0]
    assert dmg.expr == "2d+3 imp" and dmg.rule.startswith("gurps4/mounted/couched-lance")
    assert dmg.total == 3 + 4 + 3 + 1  # +1 damage: the mount's velocity 8 >= 7 (B397)
    hurt = [e for e in events if isinstance(e, ev.Damaged)][0]
    assert hurt.amount == (11 - 2) * 2  # leather DR 2, impaling x2


def test_riding_9_gives_minus_3_to_the_riders_defenses_in_play() -> None:
    f = lancer_vs_spearman(riding=9)
    f.submit(Command("knight", "do_nothing"))
    # the foot soldier attacks the rider: the rider's defense options carry -3 (12 - Riding 9)
    while (d := f.advance_until_decision()) is not None and d.actor != "foot":
        f.submit(Command(d.actor, "do_nothing"))
    f.state.combatants["foot"].pos = (1, 0)
    f.dice = ScriptedDice([1, 2, 3])
    f.submit(Command("foot", "attack", "knight", {"weapon": "spear:thrust", "maneuver": "attack"}))
    options = defense_options(f.state)
    dodge = [c for c, _ in options if c.args["defense"] == "dodge" and not c.args.get("retreat")][0]
    eff = dict((c.describe(), v) for c, v in options)[dodge.describe()]
    # Dodge floor(6)+3 +1 Combat Reflexes = 10, +2 medium shield DB, -3 Riding 9, +1 rider 3 ft above the foe
    assert eff == 10 + 2 - 3 + 1
    assert not any(c.args.get("retreat") for c, _ in options)  # no retreat from the saddle


def test_jousting_lance_snaps_above_15() -> None:
    f = lancer_vs_spearman(weapon="jousting_lance")
    f.dice = ScriptedDice([2, 2, 2, 6, 6, 6, 6, 6])  # damage 6+6+3+1 = 16 crushing: snaps, 15
    f.submit(Command("knight", "attack", "foot", {"weapon": "jousting_lance", "maneuver": "attack"}))
    f.dice = ScriptedDice([6, 6, 6, 6, 6, *([3] * 30)])
    events = f.submit(RS.choices(f.state, f.pending())[-1])  # type: ignore[arg-type]
    assert any(isinstance(e, ev.Note) and "snaps" in e.text for e in events)
    hurt = [e for e in events if isinstance(e, ev.Damaged)][0]
    assert hurt.raw == 15 and hurt.damage_type == "cr"
    assert "jousting_lance" in f.state.combatants["knight"].marks["broken"]


def test_mount_defends_only_by_dodge_and_miss_by_one_goes_to_it() -> None:
    f = lancer_vs_spearman()
    f.submit(Command("knight", "do_nothing"))
    while (d := f.advance_until_decision()) is not None and d.actor != "foot":
        f.submit(Command(d.actor, "do_nothing"))
    f.state.combatants["foot"].pos = (1, 0)
    # Spear 12 +1 (the horse's SM counts only against the horse) vs the rider: roll 13 misses by 1
    f.dice = ScriptedDice([5, 4, 4, 1, 1, 1])
    events = f.submit(Command("foot", "attack", "knight", {"weapon": "spear:thrust", "maneuver": "attack"}))
    assert any(isinstance(e, ev.Note) and "by 1" in e.text for e in events)
    react = f.pending()
    assert react is not None and react.actor == "horse"
    kinds = {c.args["defense"] for c in RS.choices(f.state, react)}
    assert kinds == {"dodge", "none"}


def test_move_and_attack_is_capped_at_9() -> None:
    f = fight_of([
        {"name": "A", "combatants": [{"template": "knight", "id": "k", "at": [0, 0],
                                      "stats": {"skills": {"Broadsword": 18}},
                                      "equipment": {"weapons": ["broadsword"]}}]},
        {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [4, 0]}]},
    ])  # fmt: skip
    f.advance_until_decision()
    f.dice = ScriptedDice([3, 3, 3])
    events = f.submit(
        Command("k", "attack", "s", {"weapon": "broadsword:swing", "maneuver": "move_and_attack"})
    )
    r = rolled(events)[0]
    assert r.dn == 9 and sum(m[0] for m in r.modifiers) == 9 - 18


def test_refusals_name_their_rule() -> None:
    f = lancer_vs_spearman()
    with pytest.raises(IllegalCommand, match="moving his mount"):
        RS.validate(f.state, Command("knight", "move", None, {"to": [3, 0]}))
    with pytest.raises(IllegalCommand, match="Ready broadsword"):
        RS.validate(f.state, Command("knight", "attack", "foot", {"weapon": "broadsword:swing"}))
    f.state.combatants["foot"].pos = (2, 0)  # a lance strikes at reach 4 only
    with pytest.raises(IllegalCommand, match="reach"):
        RS.validate(f.state, Command("knight", "attack", "foot", {"weapon": "lance"}))
    with pytest.raises(IllegalCommand, match="unknown attack maneuver"):
        RS.validate(f.state, Command("knight", "attack", "foot", {"weapon": "lance", "maneuver": "wait"}))
    g = fight_of([
        {"name": "A", "combatants": [{"template": "saddle_horse", "id": "h", "at": [0, 0]}]},
        {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [1, 0]}]},
    ])  # fmt: skip
    while (d := g.advance_until_decision()) is not None and d.actor != "h":
        g.submit(Command(d.actor, "do_nothing"))
    with pytest.raises(IllegalCommand, match="war-trained"):
        RS.validate(g.state, Command("h", "attack", "s", {"weapon": "trample"}))


def test_cannot_hover_flyer_stalling_is_refused_as_not_implemented() -> None:
    f = fight_of([
        {"name": "A", "combatants": [{"template": "winged_duelist", "id": "g", "at": [0, 0], "altitude": 5,
                                      "stats": {"flight_limitation": "gliding"}}]},
        {"name": "B", "combatants": [{"template": "winged_warrior", "id": "w", "at": [1, 0], "altitude": 5}]},
    ])  # fmt: skip
    assert f.advance_until_decision().actor == "g"  # type: ignore[union-attr]
    with pytest.raises(RuleNotImplemented, match="stall"):
        RS.validate(
            f.state, Command("g", "attack", "w", {"weapon": "shortsword:swing", "maneuver": "attack"})
        )
    # Move and Attack too must cover 1/4 of the top airspeed (B398): at a foe beside her it moves nothing
    close = Command("g", "attack", "w", {"weapon": "shortsword:swing", "maneuver": "move_and_attack"})
    with pytest.raises(RuleNotImplemented, match="stall"):
        RS.validate(f.state, close)
    with pytest.raises(RuleNotImplemented, match="1/4"):  # air Move 12: at least 3 yards a turn
        RS.validate(f.state, Command("g", "move", None, {"to": [2, 0]}))
    RS.validate(f.state, Command("g", "move", None, {"to": [3, -3]}))


@pytest.mark.parametrize(
    "entry,field",
    [
        ({"template": "knight", "stats": {"strength": 3}}, "stats.strength"),
        ({"template": "knight", "equipment": {"weapons": ["laser"]}}, "equipment.weapons"),
        ({"template": "knight", "altitude": 3}, "altitude"),
        ({"template": "knight", "options": {"mount": "nobody"}}, "options.mount"),
        ({"template": "dragon"}, "template"),
    ],
)
def test_bad_encounter_entries_name_the_field(entry: dict[str, Any], field: str) -> None:
    entry = {"at": [0, 0], **entry} if "mount" not in entry.get("options", {}) else entry
    with pytest.raises(EncounterFileError, match=field.split(".")[-1]):
        fight_of(
            [{"name": "A", "combatants": [entry]}, {"name": "B", "combatants": [{"template": "spearman"}]}]
        )


def test_resolve_is_pure() -> None:
    f = lancer_vs_spearman()
    before = f.state.snapshot()
    RS.resolve(f.state, Command("knight", "attack", "foot", {"weapon": "lance"}), RandomDice(3))
    assert f.state.snapshot() == before


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_examples_run_to_the_end_and_replay(path: Path, seed: int) -> None:
    _, state = encounter.load(path)
    fight = Fight(RS, state, RandomDice(seed), seed=seed)
    end = fight.run()
    assert end.ended and end.end_reason
    _, again = encounter.load(path)
    twin = Fight(RS, again, RandomDice(seed), seed=seed)
    twin.run()
    assert twin.state.snapshot() == end.snapshot()
    assert [ev.to_json(e) for e in twin.log or []] == [ev.to_json(e) for e in fight.log or []]


def test_example_names() -> None:
    assert {p.stem for p in EXAMPLES} >= {"knights-jousting", "horse-archers", "winged-duel", "fight-on-foot"}


def test_cli_fight_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fight", str(EXAMPLES[0]), "--seed", "4"]) == 0
    out_text = capsys.readouterr().out
    assert "begins (gurps4, seed 4)" in out_text and "\n== " in out_text
    assert main(["rules", "gurps4", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    ids = {r["id"] for r in out["rules"]}
    assert {"gurps4/mounted/couched-lance", "gurps4/mounted/loss-of-control", "gurps4/aerial/dive"} <= ids


def test_acrobatic_dodge_in_flight_rolls_aerobatics() -> None:
    f = fight_of([
        {"name": "A", "combatants": [{"template": "winged_duelist", "id": "k", "at": [0, 0], "altitude": 5}]},
        {"name": "B", "combatants": [{"template": "winged_warrior", "id": "w", "at": [1, 0], "altitude": 5}]},
    ])  # fmt: skip
    assert f.advance_until_decision().actor == "k"  # type: ignore[union-attr]
    f.dice = ScriptedDice([1, 2, 3])
    f.submit(Command("k", "attack", "w", {"weapon": "shortsword:swing"}))
    f.dice = ScriptedDice([3, 3, 3, 3, 3, 3, *([3] * 20)])
    events = f.submit(Command("w", "defend", None, {"defense": "dodge", "retreat": True, "acrobatic": True}))
    tests = [r.test for r in rolled(events)]
    assert tests[:2] == ["Aerobatics (Acrobatic Dodge)", "Dodge"]
    dodge = rolled(events)[1]
    # Dodge 8 +3 retreat +1 hovering flyer retreats up or down +2 Acrobatic Dodge (data, unverified)
    assert dodge.dn == 8 + 3 + 1 + 2
    assert f.state.combatants["w"].altitude == 6


def test_noisy_shot_from_a_mount_calls_for_riding() -> None:
    f = fight_of([
        {"name": "A", "combatants": [
            {"template": "cavalry_horse", "id": "h", "at": [0, 0]},
            {"template": "horse_archer", "id": "r", "options": {"mount": "h"},
             "equipment": {"weapons": ["matchlock_musket"]}, "stats": {"skills": {"Guns (Musket)": 12}}},
        ]},
        {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [10, 0]}]},
    ])  # fmt: skip
    assert f.advance_until_decision().actor == "r"  # type: ignore[union-attr]
    f.dice = ScriptedDice([6, 6, 5, 6, 5, 5])  # a miss (17), then Riding 16 vs 14: failure -> spooked
    events = f.submit(Command("r", "attack", "s", {"weapon": "matchlock_musket"}))
    riding = [r for r in rolled(events) if r.test.startswith("Riding")]
    assert riding and not riding[0].success
    assert f.state.combatants["h"].marks["out_of_control"] == "spooked"


def test_passenger_costs_the_controller_one_riding() -> None:
    f = fight_of([
        {"name": "A", "combatants": [
            {"template": "cavalry_horse", "id": "h", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "h"}},
            {"template": "spearman", "id": "p", "options": {"mount": "h"}},
        ]},
        {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [4, 0]}]},
    ])  # fmt: skip
    from fracas.rules.gurps4.riding import riding_base, riding_skill

    st = f.state
    assert st.combatants["h"].marks["rider"] == "k" and st.combatants["h"].marks["passenger"] == "p"
    assert riding_skill(st, st.combatants["k"]) == 13 - 1
    base, mods = riding_base(st, st.combatants["p"])
    assert base == min(13, 11) and [m.value for m in mods] == [-3]


def test_panic_against_a_charge_is_a_will_roll_when_the_gm_turns_it_on() -> None:
    sides = [
        {"name": "A", "combatants": [
            {"template": "cavalry_horse", "id": "h", "at": [0, 0]},
            {"template": "knight", "id": "k", "options": {"mount": "h"}},
        ]},
        {"name": "B", "combatants": [
            {"template": "spearman", "id": "s", "at": [6, 0], "options": {"unused_to_cavalry": True}},
        ]},
    ]  # fmt: skip
    f = fight_of(sides, {"panic": True})
    f.advance_until_decision()
    f.state.combatants["h"].marks["moved_last_turn"] = 8
    f.submit(Command("k", "do_nothing"))
    f.dice = ScriptedDice([6, 5, 5])  # Will 10 vs 16: the spearman runs
    f.advance_until_decision()
    events = f.log or []
    will = [e for e in events if isinstance(e, ev.Rolled) and e.test.startswith("Will")]
    assert will and will[-1].dn == 10 and not will[-1].success
    assert f.state.combatants["s"].status == "fled"
    quiet = fight_of(sides)  # off by default: no roll
    quiet.advance_until_decision()
    quiet.state.combatants["h"].marks["moved_last_turn"] = 8
    quiet.submit(Command("k", "do_nothing"))
    quiet.advance_until_decision()
    assert not any(isinstance(e, ev.Rolled) and e.test.startswith("Will") for e in quiet.log or [])


def test_events_round_trip_through_json() -> None:
    _, state = encounter.load(EXAMPLES[0])
    f = Fight(RS, state, RandomDice(5), seed=5)
    f.run()
    for e in f.log or []:
        assert ev.to_json(ev.from_json(ev.to_json(e))) == ev.to_json(e)


def test_a_crippled_mount_falls_and_its_rider_with_it() -> None:
    f = fight_of([
        {"name": "A", "combatants": [
            {"template": "cavalry_horse", "id": "h", "at": [0, 0]},
            {"template": "horse_archer", "id": "r", "options": {"mount": "h"}},
        ]},
        {"name": "B", "combatants": [{"template": "spearman", "id": "s", "at": [1, 0], "stats": {"st": 30}}]},
    ])  # fmt: skip
    while (d := f.advance_until_decision()) is not None and d.actor != "s":
        f.submit(Command(d.actor, "do_nothing"))
    f.dice = ScriptedDice([2, 3, 4])
    f.submit(Command("s", "attack", "h", {"weapon": "spear:thrust", "location": "foreleg"}))
    f.dice = ScriptedDice(
        [6, 6, 6, *([3] * 30)]
    )  # 3d+2 = 20 imp, x1 in a leg: crippled over 11, capped at 12
    events = f.submit(Command("h", "defend", None, {"defense": "none"}))
    hurt = [e for e in events if isinstance(e, ev.Damaged)][0]
    assert hurt.amount == 12
    notes = " | ".join(e.text for e in events if isinstance(e, ev.Note))
    assert "Mount Loss of Control 12: falls" in notes and "falls off" in notes
    assert "mount" not in f.state.combatants["r"].marks


def on_foot() -> Fight:
    f = fight_of([
        {"name": "A", "combatants": [{"template": "swordsman", "id": "a", "at": [0, 0]}]},
        {"name": "B", "combatants": [{"template": "axeman", "id": "b", "at": [1, 0]}]},
    ])  # fmt: skip
    assert f.advance_until_decision().actor == "a"  # type: ignore[union-attr]
    return f


def test_all_out_defense_double_gives_a_second_different_defense() -> None:
    f = on_foot()
    f.submit(Command("a", "all_out_defense", None, {"variant": "double"}))
    f.advance_until_decision()
    f.dice = ScriptedDice([2, 3, 4])
    f.submit(Command("b", "attack", "a", {"weapon": "axe"}))
    f.dice = ScriptedDice([6, 5, 5, 1, 2, 3])  # the Block fails on 16 ... then the Parry holds
    events = f.submit(Command("a", "defend", None, {"defense": "block"}))
    assert any(isinstance(e, ev.Note) and "second, different defense" in e.text for e in events)
    react = f.pending()
    assert react is not None and react.actor == "a"
    assert "block" not in {c.args["defense"] for c in RS.choices(f.state, react)}
    events = f.submit(Command("a", "defend", None, {"defense": "parry"}))
    assert [r.test for r in rolled(events)] == ["Parry (broadsword:swing)"]
    assert not any(isinstance(e, ev.Damaged) for e in events)


def test_all_out_attack_feint_feints_then_attacks() -> None:
    f = on_foot()
    f.dice = ScriptedDice([1, 2, 3, 5, 5, 5, 2, 2, 2])  # feint: 6 vs 15 (foe fails), then the attack
    events = f.submit(
        Command("a", "attack", "b", {"weapon": "broadsword:swing", "maneuver": "all_out_attack_feint"})
    )
    tests = [r.test for r in rolled(events)]
    assert tests[:3] == ["Broadsword (feint)", "resist feint", "broadsword:swing (Broadsword)"]
    assert f.state.combatants["b"].marks["feinted"] == ("a", 13 - 6)
    options = dict((c.args["defense"] + str(c.args.get("retreat")), v) for c, v in defense_options(f.state))
    assert options["dodgeFalse"] == 8 + 1 - 7  # Dodge 8, small shield DB 1, feinted by 7


def test_a_glider_duel_runs_to_the_end_without_stalling() -> None:
    f = fight_of([
        {"name": "A", "combatants": [{"template": "winged_duelist", "id": "g", "at": [0, 0], "altitude": 5,
                                      "stats": {"flight_limitation": "cannot_hover"}}]},
        {"name": "B", "combatants": [{"template": "winged_warrior", "id": "w", "at": [8, 0], "altitude": 5}]},
    ])  # fmt: skip
    f.state.max_rounds = 40
    f.run()
    assert f.state.ended
    maneuvers = [
        e.value for e in f.log or [] if isinstance(e, ev.Marked) and e.target == "g" and e.key == "maneuver"
    ]
    assert maneuvers and set(maneuvers) <= {"move", "move_and_attack", "do_nothing"}
    stalls = [e for e in f.log or [] if isinstance(e, ev.Note) and e.actor == "g" and "stalls" in e.text]
    stunned = [e for e in f.log or [] if isinstance(e, ev.Note) and e.actor == "g" and "stunned" in e.text]
    assert len(stalls) == len(stunned)  # only when stunned: the stall is logged for the GM
