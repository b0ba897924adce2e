"""The Spells & Swords ruleset in the engine: side rounds, held damage, actions, reactions, examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fight_helpers import encounter_state, two_sides
from fracas.cli import main
from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.play import Fight, replay
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "sas").glob("*.yaml"))
TEXT = Path("/work/shared/rules/004_0d1ac50b56c23caf.txt")
SAS = get_ruleset("sas")
RING = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
GOBLIN_HIDDEN = {"template": "goblin", "id": "g", "hidden": True, "at": [1, 0]}


def load(data: dict) -> Fight:
    """A fight of this encounter (without its version and ruleset) on random dice (seed 1)."""
    return Fight(SAS, encounter_state("sas", source="<encounter>", **data), RandomDice(1))


def duel(a: dict, b: dict, **extra: object) -> Fight:
    """a (side left) against b (side right) on random dice (seed 1)."""
    return load({"sides": two_sides(a, b, ("left", "right")), **extra})


def test_registered_and_lists_its_rules() -> None:
    assert SAS.id == "sas"
    ids = {r.id for r in SAS.rules()}
    for rid in ("sas/attack-table", "sas/surprise", "sas/dog-pile", "sas/actions/hack-and-slash",
                "sas/reactions/catch-missile", "sas/attack-modifiers/large-shield"):  # fmt: skip
        assert rid in ids


@pytest.mark.skipif(not TEXT.exists(), reason="rules text not present")
def test_every_section_of_the_text_is_listed() -> None:
    """`fracas rules sas` lists the whole text: every section heading is the page of some rule."""
    pages = " ".join(r.page for r in SAS.rules())
    headings = [
        line.strip()
        for line in TEXT.read_text().splitlines()
        if re.fullmatch(r"[A-Z][A-Z &()']+", line.strip())
    ]
    skip = {"SPELLS & SWORDS COMBAT RULES", "COMBAT RULES", "COMBAT ROUND ACTIONS", "HARMFULL CONDITIONS",
            "ATTACKING", "FUMBLES", "DAMAGE", "LIGHT WOUNDS", "MAJOR WOUNDS", "BLEEDING"}  # fmt: skip
    missing = [h for h in headings if h not in pages and h not in skip]
    assert missing == []
    actions = {r.id for r in SAS.rules() if r.id.startswith("sas/actions/")}
    assert len(actions) >= 33  # every line of the COMBAT ROUND ACTIONS LIST


def test_cli_rules_and_fight(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "sas", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ruleset"] == "sas" and any(o["id"] == "brawl-rule" for o in out["optional_rules"])
    assert main(["fight", str(EXAMPLES[0]), "--seed", "3"]) == 0
    assert "win" in capsys.readouterr().out or True


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_run_to_the_end_and_replay(path: Path) -> None:
    for seed in (1, 2, 3):
        spec, state = encounter.load(path)
        initial = state.clone()
        fight = Fight(SAS, state, RandomDice(seed), seed=seed)
        final = fight.run()
        assert final.ended
        assert fight.log is not None
        wire = [json.loads(json.dumps(ev.to_json(e))) for e in fight.log]
        again = replay(SAS, initial, [ev.from_json(d) for d in wire])
        assert again.snapshot() == final.snapshot()


def test_examples_are_five_and_named() -> None:
    assert {p.stem for p in EXAMPLES} >= {
        "ambush",
        "cavalry-charge",
        "goblin-horde",
        "dog-pile",
        "underwater",
    }
    spec, _ = encounter.load(ROOT / "examples/sas/goblin-horde.yaml")
    assert sum(c.count for s in spec.sides for c in s.combatants if "goblin" in (c.template or "")) == 30


def test_side_order_kept_and_damage_held_until_side_has_attacked() -> None:
    fight = load({
        "sides": [
            {"name": "goblins", "combatants": [{"template": "goblin", "count": 2, "at": [[1, 0], [1, -1]]}]},
            {"name": "hero", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
        ],
        "options": {"brawl-rule": False},
    })  # fmt: skip
    # initiative: goblins 15 + 0, hero 10 + 0; each goblin hits (15) and rolls Damage 13 - Armor 3 = 10:
    # a Light Wound, 2 Wound Markers
    fight.dice = ScriptedDice([15, 10, 15, 13, 15, 13])
    decision = fight.advance_until_decision()
    assert fight.state.extra["side_order"] == ("goblins", "hero")
    assert decision is not None and decision.actor == "goblin-1"
    fight.submit(Command("goblin-1", "attack", "bran"))
    assert fight.state.combatants["bran"].count("markers") == 0  # held
    assert fight.state.extra["pending"]
    fight.advance_until_decision()
    fight.submit(Command("goblin-2", "attack", "bran"))
    fight.dice = ScriptedDice([])
    decision = fight.advance_until_decision()  # the side has attacked: both hits land
    assert fight.state.combatants["bran"].count("markers") == 4
    assert decision is not None and decision.actor == "bran"


def test_surprise_goes_first_with_plus_2() -> None:
    fight = load({
        "sides": [
            {"name": "party", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
            {"name": "ambushers", "combatants": [GOBLIN_HIDDEN]},
        ],
        "options": {"brawl-rule": False},
    })  # fmt: skip
    # goblin Stealth 2 - Bran's Alertness -1 (helmet -2, skill +1): 1D20 8 + 2 + 1 = 11 -> Surprise
    fight.dice = ScriptedDice([8, 12, 1])
    decision = fight.advance_until_decision()
    assert fight.state.extra["surprise_side"] == "ambushers"
    assert decision is not None and decision.actor == "g"
    events = fight.submit(Command("g", "attack", "bran"))
    rolled = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"][0]
    assert (
        2,
        "Attacker has Surprise",
        "sas/attack-modifiers/surprise (ATTACK TABLE MODIFIERS)",
    ) in rolled.modifiers


def test_zone_of_control_and_disengage() -> None:
    fight = duel(
        {"template": "fighter", "id": "a", "at": [0, 0]}, {"template": "fighter", "id": "b", "at": [1, 0]}
    )
    decision = fight.advance_until_decision()
    assert decision is not None
    me = decision.actor
    with pytest.raises(IllegalCommand, match="Zone of Control|engaged"):
        SAS.validate(fight.state, Command(me, "walk", None, {"to": [-5, 0]}))
    SAS.validate(fight.state, Command(me, "disengage", "b" if me == "a" else "a", {"mode": "flee"}))


def test_ogre_ignores_goblin_zone_of_control() -> None:
    fight = duel(
        {"template": "ogre", "id": "o", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [1, 0]}
    )
    fight.dice = ScriptedDice([20, 1])
    decision = fight.advance_until_decision()
    assert decision is not None and decision.actor == "o"
    SAS.validate(fight.state, Command("o", "walk", None, {"to": [-3, 0]}))
    SAS.validate(fight.state, Command("o", "trample", "g"))


def test_charge_longer_weapon_strikes_first() -> None:
    fight = duel(
        {"template": "goblin", "id": "g", "at": [6, 0]},
        {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}},
        options={"brawl-rule": False},
    )
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    fight.dice = RandomDice(4)
    events = fight.submit(Command("g", "charge", "s"))
    notes = [e.text for e in events if isinstance(e, ev.Note)]
    assert any("strikes first" in n for n in notes)
    attackers = [e.actor for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"]
    assert attackers[0] == "s"


def test_charge_refused_when_fatigued_or_adjacent() -> None:
    fight = duel(
        {"template": "fighter", "id": "a", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [1, 0]}
    )
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    with pytest.raises(IllegalCommand, match="engaged|charge"):
        SAS.validate(fight.state, Command("a", "charge", "g"))
    fight.state.combatants["g"].pos = (5, 0)
    fight.state.combatants["a"].conditions["fatigued"] = __import__(
        "fracas.engine.state"
    ).engine.state.Condition("fatigued", 5)
    with pytest.raises(IllegalCommand, match="Fatigued"):
        SAS.validate(fight.state, Command("a", "charge", "g"))


def test_receive_charge_and_overwatch() -> None:
    fight = duel(
        {"template": "goblin", "id": "g", "at": [6, 0]},
        {"template": "goblin", "id": "s", "at": [0, 0], "stats": {"weapons": ["spear"]}},
        options={"brawl-rule": False},
    )
    fight.dice = ScriptedDice([1, 20])
    fight.advance_until_decision()
    fight.dice = RandomDice(2)
    fight.submit(Command("s", "set-to-receive-charge"))
    fight.advance_until_decision()
    events = fight.submit(Command("g", "charge", "s"))
    assert any(isinstance(e, ev.Note) and "receives the charge" in e.text for e in events)


def test_dog_pile_immobilizes_and_break_free_scatters() -> None:
    fight = load({
        "sides": [
            {"name": "ogre", "combatants": [{"template": "ogre", "id": "o", "at": [0, 0]}]},
            {"name": "goblins", "combatants": [{"template": "goblin", "count": 6, "at": RING[:6]}]},
        ],
    })  # fmt: skip
    fight.dice = ScriptedDice([1, 20, 20])  # goblins first; the pile's attack roll is a natural 20
    fight.advance_until_decision()
    events = fight.submit(Command("goblin-1", "dog-pile", "o"))
    assert any(isinstance(e, ev.Note) and e.text.startswith("Dog Pile") for e in events)
    rolled = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"][0]
    assert (3, "Dog Pile of 6", "sas/dog-pile (DOG PILE)") in rolled.modifiers
    fight.dice = ScriptedDice([])
    decision = fight.advance_until_decision()
    ogre = fight.state.combatants["o"]
    assert ogre.has("immobilized") and decision is not None and decision.actor == "o"
    with pytest.raises(IllegalCommand, match="Immobilized"):
        SAS.validate(fight.state, Command("o", "attack", "goblin-1"))
    fight.dice = ScriptedDice([20])
    events = fight.submit(Command("o", "break-free"))
    assert not fight.state.combatants["o"].has("immobilized")
    assert any(isinstance(e, ev.Moved) and e.mode == "scatter" for e in events)


def test_horde_attack_bonus() -> None:
    fight = load({
        "sides": [
            {"name": "hero", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
            {"name": "goblins", "combatants": [{"template": "goblin", "count": 5, "at": RING[:5]}]},
        ],
    })  # fmt: skip
    fight.dice = ScriptedDice([1, 20])
    fight.advance_until_decision()
    fight.dice = RandomDice(5)
    events = fight.submit(Command("goblin-1", "horde", "bran"))
    rolled = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"][0]
    assert (2, "Horde Attack of 5", "sas/horde-attack (HORDE ATTACK)") in rolled.modifiers
    assert {e.actor for e in events if isinstance(e, ev.TurnEnded)} == {f"goblin-{i}" for i in range(1, 6)}


def test_mounted_rider_moves_its_mount() -> None:
    fight = load({
        "sides": [
            {"name": "knight", "combatants": [
                {"template": "warhorse", "id": "horse", "at": [0, 0]},
                {"template": "fighter", "id": "sir", "options": {"mount": "horse"}}]},
            {"name": "foe", "combatants": [{"template": "goblin", "id": "g", "at": [20, 0]}]},
        ],
    })  # fmt: skip
    st = fight.state
    assert st.combatants["sir"].pos == st.combatants["horse"].pos == (0, 0)
    fight.dice = ScriptedDice([20, 1])
    decision = fight.advance_until_decision()
    assert decision is not None and decision.actor == "sir"  # the ridden horse's turn passes by itself
    fight.submit(Command("sir", "walk", None, {"toward": "g"}))
    assert st.combatants["sir"].pos == st.combatants["horse"].pos != (0, 0)
    # Warhorse Movement 12 + Swift +1 per Ride level (Ride 3): 15 spaces
    assert st.combatants["sir"].pos == (15, 0)


def test_underwater_halves_biped_movement() -> None:
    fight = duel(
        {"template": "rogue", "id": "pip", "at": [0, 0]},
        {"template": "sea-raider", "id": "s", "at": [20, 0]},
        map={"extra": {"underwater": True}},
    )
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    fight.submit(Command("pip", "walk", None, {"toward": "s"}))
    # Halfling MR 4 + Swift (1, underwater armor -2) = 3, halved for a biped: 1 space
    assert fight.state.combatants["pip"].pos == (1, 0)


def test_bad_settings_and_options_are_refused() -> None:
    with pytest.raises(EncounterFileError, match="unknown"):
        duel({"template": "fighter"}, {"template": "goblin"}, settings={"no_such": 1})
    with pytest.raises(EncounterFileError, match="template"):
        duel({"template": "dragon"}, {"template": "goblin"})


def test_illegal_commands_name_their_rule() -> None:
    fight = duel(
        {"template": "mage", "id": "m", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [9, 0]}
    )
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    with pytest.raises(IllegalCommand, match="ATTACK TABLE|adjacent|Close"):
        SAS.validate(fight.state, Command("m", "attack", "g"))
    with pytest.raises(IllegalCommand, match="reaction"):
        SAS.validate(fight.state, Command("m", "cast-spell", "g", {"spell": "shield"}))
    with pytest.raises(IllegalCommand, match="Spear or Pole-Arm"):
        SAS.validate(fight.state, Command("m", "set-to-receive-charge"))
    choices = SAS.choices(fight.state, fight.pending())  # type: ignore[arg-type]
    assert choices and all(isinstance(c, Command) for c in choices)


TEMPLATES = ["goblin", "goblin-archer", "goblin-boss", "kobold", "ogre", "wolf", "warhorse", "aboleth",
             "sea-raider", "fighter", "rogue", "mage", "priest", "giant-crocodile"]  # fmt: skip
TACTICS = [
    "default",
    "horde",
    "dogpile",
    "archer",
    "caster",
    "cavalry",
    "defensive",
    "guard",
    "hold",
    "ambush",
]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(TEMPLATES), st.sampled_from(TACTICS), st.booleans()), min_size=1, max_size=4
    ),
    st.lists(
        st.tuples(st.sampled_from(TEMPLATES), st.sampled_from(TACTICS), st.booleans()), min_size=1, max_size=4
    ),
    st.integers(0, 2**20),
    st.booleans(),
    st.booleans(),
)
def test_any_small_fight_plays_to_the_end(left, right, seed, underwater, morale) -> None:  # type: ignore[no-untyped-def]
    def side(name: str, members: list, q: int) -> dict:
        return {
            "name": name,
            "combatants": [
                {"template": t, "id": f"{name}-{i}", "tactic": tac, "hidden": hid, "at": [q, i * 2 - 3]}
                for i, (t, tac, hid) in enumerate(members)
            ],
        }

    data = {
        "version": 1,
        "ruleset": "sas",
        "max_rounds": 12,
        "options": {"morale": morale},
        "map": {"extra": {"underwater": underwater}},
        "sides": [side("left", left, 0), side("right", right, 7)],
    }
    _, state = encounter.load_data(data)
    fight = Fight(SAS, state, RandomDice(seed), seed=seed)
    final = fight.run()
    assert final.ended
    for c in final.combatants.values():
        assert c.count("markers") >= 0 and c.count("bleeds") >= 0


def test_odds_of_an_attack() -> None:
    # Bran: Long Sword +3, Goblin Smaller -1, Longer Weapon +1, Small Shield -1: +2; hits on 8+ (13 faces),
    # criticals on 18+, fumbles only on the natural 1
    fight = duel(
        {"template": "fighter", "id": "bran", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [1, 0]}
    )
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    text = SAS.odds(fight.state, Command("bran", "attack", "g"))
    assert text is not None and text.startswith("hit 65% (critical 15%), fumble 5%, modifiers +2")
    assert SAS.odds(fight.state, Command("bran", "walk", None, {"to": [0, 3]})) is None


def test_troll_regenerates_at_the_end_of_its_side_turn() -> None:
    fight = duel(
        {"template": "troll", "id": "t", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [5, 0]}
    )
    fight.state.combatants["t"].counters["markers"] = 4
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    fight.submit(Command("t", "nothing"))
    fight.dice = ScriptedDice([])
    fight.advance_until_decision()  # the troll's side has acted: 1 marker regenerates
    assert fight.state.combatants["t"].count("markers") == 3


MINION = {"template": "goblin", "id": "g", "at": [1, 0], "stats": {"minion": 2}}


def test_minions_die_when_hit_often_enough() -> None:
    fight = load({
        "options": {"minions": True, "brawl-rule": False},
        "sides": [
            {"name": "a", "combatants": [{"template": "fighter", "id": "f1", "at": [0, 0]},
                                         {"template": "fighter", "id": "f2", "at": [2, -1]}]},
            {"name": "b", "combatants": [MINION]},
        ],
    })  # fmt: skip
    fight.dice = ScriptedDice([20, 1, 15, 1, 15, 1])  # two hits, Superficial each (1 - 1 armor)
    fight.advance_until_decision()
    fight.submit(Command("f1", "attack", "g"))
    fight.advance_until_decision()
    fight.submit(Command("f2", "attack", "g"))
    fight.dice = ScriptedDice([])
    fight.advance_until_decision()
    assert fight.state.combatants["g"].status == "dead"


def test_bad_stat_field_names_path_found_and_allowed() -> None:
    with pytest.raises(EncounterFileError) as info:
        duel({"template": "goblin", "stats": {"attak": 2}}, {"template": "fighter"})
    text = str(info.value)
    assert "sides.0.combatants.0.stats.attak: unknown field (found 2); allowed:" in text and "attack" in text


def test_terrain_lines_from_the_map() -> None:
    terrain = {
        "extra": {"difficult": [[0, 0]], "high": [[0, 0]], "tight": [[0, 0]]},
        "light": "partial-darkness",
    }
    fight = duel(
        {"template": "fighter", "id": "bran", "at": [0, 0]},
        {"template": "goblin", "id": "g", "at": [1, 0]},
        map=terrain,
        options={"brawl-rule": False},
    )
    fight.dice = ScriptedDice([20, 1, 10, 1])
    fight.advance_until_decision()
    events = fight.submit(Command("bran", "attack", "g", {"hard_maneuver": True}))
    rolled = [e for e in events if isinstance(e, ev.Rolled) and e.test == "Attack"][0]
    lines = {m[1]: m[0] for m in rolled.modifiers}
    assert lines["Attacker on Difficult Ground"] == -2
    assert lines["Attacker has Height Adv"] == 1
    assert lines["Attacker in Tight Position"] == -2
    assert lines["Attacker Reduced Visibility"] == -2
    assert lines["Attacker makes Hard Maneuver"] == -2


def test_confused_turn_rolls_the_confusion_table() -> None:
    from fracas.engine.state import Condition

    fight = duel(
        {"template": "goblin", "id": "g", "at": [0, 0]}, {"template": "goblin", "id": "h", "at": [5, 0]}
    )
    fight.state.combatants["g"].conditions["confusion"] = Condition("confusion", 3)
    fight.dice = ScriptedDice([20, 1, 2])  # g's side first; Confusion Table 2: Go Prone
    assert fight.advance_until_decision() is not None  # h decides; g's turn went by itself
    assert fight.state.combatants["g"].has("knocked-down")


def test_bleeding_and_dying_run_out() -> None:
    fight = duel(
        {"template": "fighter", "id": "bran", "at": [0, 0]}, {"template": "goblin", "id": "g", "at": [9, 0]}
    )
    bran = fight.state.combatants["bran"]
    bran.counters["bleeds"] = 1
    bran.marks["bleed_death_round"] = 1
    fight.dice = ScriptedDice([20, 1, 5])  # initiative, then the Bleed Table: 5 Weakened
    fight.advance_until_decision()
    assert bran.count("strength_loss") == 1
    fight.submit(Command("bran", "nothing"))
    fight.advance_until_decision()
    fight.submit(Command("g", "nothing"))
    fight.dice = ScriptedDice([])
    fight.step()  # the round ends: the Bleed's time is up
    assert bran.status == "dead"


def test_reroll_initiative_option() -> None:
    a = {"template": "goblin", "id": "a", "at": [0, 0]}
    b = {"template": "goblin", "id": "b", "at": [9, 0]}
    fight = duel(a, b, options={"reroll-initiative": True})
    fight.dice = ScriptedDice([20, 1])
    fight.advance_until_decision()
    assert fight.state.extra["side_order"] == ("left", "right")
    fight.submit(Command("a", "nothing"))
    fight.advance_until_decision()
    fight.dice = ScriptedDice([1, 20])
    fight.submit(Command("b", "nothing"))
    decision = fight.advance_until_decision()
    assert fight.state.round == 2 and fight.state.extra["side_order"] == ("right", "left")
    assert decision is not None and decision.actor == "b"
