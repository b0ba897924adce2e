"""The ED1 combat round (001_694a1556573a8dc9.txt, ch.12) with scripted dice: declarations, Initiative,
changed and reserved actions, charges, movement, success levels, armor-defeating hits, Wounds."""

from __future__ import annotations

import pytest
from ed1_helpers import ED1, build, decl, declare

from fight_helpers import auto, cmd, fight, of, rolled
from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.errors import EncounterFileError, IllegalCommand, RuleNotImplemented
from fracas.rules.earthdawn.combat import TestContext as Ctx

FRIEND = {
    "kind": "character",
    "dexterity": 10,
    "strength": 12,
    "toughness": 12,
    "perception": 10,
    "willpower": 10,
    "charisma": 10,
    "movement": 20,
    "attacks": [{"name": "Sword", "step": 8, "damage": 9}],
}


def thom_and_orks(options: dict | None = None, ork_tactic: str = "hold", rider: bool = False):
    """Thom Hammerblade and a friend against an ork raider and a second ork who backstabs the friend
    (ch.12§Changing-Declared-Action). Hexes: Thom (0,0), friend (0,1), raider (1,-1) next to Thom, the
    backstabber (1,0) next to both."""
    orks = [
        {"template": "ork-raider", "id": "raider", "at": [1, -1], "tactic": ork_tactic},
        {
            "template": "ork-raider",
            "id": "backstabber",
            "name": "Backstabber",
            "at": [1, 0],
            "tactic": ork_tactic,
        },
    ]
    if rider:
        orks.append({"template": "ork-rider", "id": "rider", "at": [-1, 0], "tactic": ork_tactic})
    return build(
        [
            {
                "name": "Heroes",
                "combatants": [
                    {"template": "thom-hammerblade", "id": "thom", "player": True, "at": [0, 0]},
                    {
                        "id": "friend",
                        "name": "Friend",
                        "player": True,
                        "tactic": "hold",
                        "stats": FRIEND,
                        "at": [0, 1],
                    },
                ],
            },
            {"name": "Orks", "combatants": orks},
        ],
        options,
    )


# Initiative dice in roster order: Thom d4 (Dexterity step 6 - 3 chain mail), the friend d8 (step 5),
# the two ork raiders one d8 for the group (Dexterity step 6 - 1 hide).
INIT = [3, 1, 2]


def at_thoms_turn(faces: list[int], plan: dict | None = None, **kw):
    state = thom_and_orks(**kw)
    f = fight(state, faces)
    declare(f, {"thom": decl("thom", "attack", "raider"), "friend": decl("friend", "other"), **(plan or {})})
    auto(f, "thom")
    return state, f


# ----- Changing a declared action ----------------------------------------------------------------------


def test_thom_changes_his_declared_attack_plus_2_to_the_dn_ch12_changing_declared_action() -> None:
    """Thom declared an attack on the ork raider, then attacks his companion's backstabbing opponent:
    +2 to the Difficulty Number, the target's Physical Defense (7 + 2 = 9)."""
    state, f = at_thoms_turn([*INIT, 5, 3])
    assert state.order == ["thom", "raider", "backstabber", "friend"]
    events = f.submit(cmd("thom", "attack", "backstabber", attack="Broadsword"))
    [attack] = rolled(events, "Attack")
    assert state.combatants["backstabber"].stats.physical_defense == 7
    assert attack.dn == 9
    assert attack.modifiers[0][0] == 2 and attack.modifiers[0][2].startswith(
        "ed1/actions/changing-declared-action"
    )
    assert attack.step == 11 and [d[0] for d in attack.roll["dice"]] == [10, 8]  # ED1 step 11: d10+d8


def test_keeping_the_declared_attack_costs_nothing_ch12_changing_declared_action() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2])
    [attack] = rolled(f.submit(cmd("thom", "attack", "raider", attack="Broadsword")), "Attack")
    assert attack.dn == 7 and attack.modifiers == ()


def test_declaring_needs_a_general_action_ch12_combat_round_1() -> None:
    state = thom_and_orks()
    f = fight(state, INIT)
    d = f.advance_until_decision()
    assert d is not None and d.kind == "declare"
    with pytest.raises(IllegalCommand, match="general action"):
        f.submit(decl(d.actor, "act"))
    with pytest.raises(IllegalCommand, match="special action"):
        f.submit(decl(d.actor, "attack", "raider", options=["aggressive-attack"]))
    with pytest.raises(IllegalCommand, match="not mounted"):
        f.submit(decl(d.actor, "attack", "raider", options=["charge"]))


def test_changed_action_without_a_test_is_noted() -> None:
    state, f = at_thoms_turn([*INIT])
    events = f.submit(cmd("thom", "run", path=[[-1, 0]]))
    [note] = [e for e in of(events, ev.Note) if "changes his declared action" in e.text]
    assert note.rule.startswith("ed1/actions/changing-declared-action")


# ----- Initiative ------------------------------------------------------------------------------------------


def test_characters_roll_dexterity_dice_armor_lowers_them_ch12_combat_round_2() -> None:
    state = thom_and_orks()
    f = fight(state, INIT)
    declare(f, {})
    f.advance_until_decision()
    init = {e.actor: e for e in of(f.log, ev.InitiativeRolled)}
    thom = init["thom"]
    assert thom.step == 3 and thom.roll["dice"][0][0] == 4  # Dexterity step 6 - 3: d4
    assert thom.modifiers == ((-3, "armor: Chain mail", thom.modifiers[0][2]),)
    assert thom.rule.startswith("ed1/initiative/dexterity-dice")
    # one test for the group of identical ork raiders (ch.12§Initiative)
    assert init["raider"].roll is not None and init["backstabber"].roll is None
    assert init["backstabber"].value == init["raider"].value == 2
    assert init["backstabber"].rule.startswith("ed1/initiative/group")


def test_creatures_roll_their_initiative_dice_ch12_combat_round_2() -> None:
    state = build(
        [
            {"name": "A", "combatants": [{"template": "espagra", "id": "e", "at": [0, 0], "tactic": "hold"}]},
            {"name": "B", "combatants": [{"template": "bog-gob", "id": "g", "at": [5, 0], "tactic": "hold"}]},
        ]
    )
    f = fight(state, [2, 3, 4])
    f.advance_until_decision()
    declare(f, {})
    f.advance_until_decision()
    init = {e.actor: e for e in of(f.log, ev.InitiativeRolled)}
    # espagra Initiative 9 (ED1: d8+d6) although its Dexterity step is 9 too; bog gob Initiative 5 (d8)
    assert init["e"].step == 9 and [d[0] for d in init["e"].roll["dice"]] == [8, 6]
    assert init["e"].rule.startswith("ed1/initiative/creature-dice")
    assert init["g"].step == 5 and init["g"].value == 4


def test_ties_player_character_first_then_the_gamemasters_order_ch12_initiative() -> None:
    # the friend (player, d8) and the orks (d8) all roll 2
    state = thom_and_orks()
    f = fight(state, [1, 2, 2])
    declare(f, {})
    f.advance_until_decision()
    assert state.order == ["friend", "raider", "backstabber", "thom"]
    [note] = [e for e in of(f.log, ev.Note) if e.rule.startswith("ed1/initiative/ties")]
    assert "same time" in note.text


def test_talents_raise_initiative_ch12_combat_round_2() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {
                        "template": "thom-hammerblade",
                        "id": "thom",
                        "player": True,
                        "at": [0, 0],
                        "stats": {"initiative_talents": {"Air Dance": 2}},
                    }
                ],
            },
            {"name": "B", "combatants": [{"template": "bog-gob", "id": "g", "at": [5, 0], "tactic": "hold"}]},
        ]
    )
    f = fight(state, [3, 4, 1])
    declare(f, {"thom": decl("thom", "other")})
    f.advance_until_decision()
    [thom] = [e for e in of(f.log, ev.InitiativeRolled) if e.actor == "thom"]
    assert thom.step == 5  # 6 - 3 armor + 2 talent
    assert (2, "talent: Air Dance", thom.modifiers[-1][2]) in thom.modifiers


# ----- Reserved actions --------------------------------------------------------------------------------


def test_reserved_action_lower_initiative_and_plus_2_ch12_reserved_actions() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3])
    with pytest.raises(IllegalCommand, match="lower than 3"):
        f.submit(cmd("thom", "reserve", initiative=3))
    with pytest.raises(IllegalCommand, match="lower Initiative"):
        f.submit(cmd("thom", "reserve", trigger={"on": "attack"}))
    with pytest.raises(IllegalCommand, match="no 'delay'"):
        f.submit(cmd("thom", "delay"))
    f.submit(cmd("thom", "reserve", initiative=1))
    assert state.initiative["thom"] == 1
    # Thom and the friend tie at 1: both players, the encounter file's order
    assert state.order == ["raider", "backstabber", "thom", "friend"]
    auto(f, "thom")
    [attack] = rolled(f.submit(cmd("thom", "attack", "raider", attack="Broadsword")), "Attack")
    assert attack.dn == 9
    assert attack.modifiers == ((2, "DN: reserved action", attack.modifiers[0][2]),)
    assert attack.modifiers[0][2].startswith("ed1/actions/reserved")


def test_reserved_and_changed_is_one_penalty_not_two() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3])
    f.submit(cmd("thom", "reserve", initiative=1))
    auto(f, "thom")
    [attack] = rolled(f.submit(cmd("thom", "attack", "backstabber", attack="Broadsword")), "Attack")
    assert attack.dn == 9  # 7 + 2 (reserved; the change adds nothing more)


def test_charging_attacker_only_attacked_with_a_reserved_action_ch12_reserved_actions() -> None:
    state = thom_and_orks(rider=True)
    f = fight(state, [3, 1, 2, 2, 1])
    plan = {
        "thom": decl("thom", "attack", "rider"),
        "friend": decl("friend", "other"),
        "rider": decl("rider", "attack", "friend", options=["charge"]),
    }
    declare(f, plan)
    auto(f, "thom")
    with pytest.raises(IllegalCommand, match="only a reserved action") as exc:
        ED1.validate(state, cmd("thom", "attack", "rider", attack="Broadsword"))
    assert exc.value.rule.startswith("ed1/actions/reserved-against-charge")
    f.submit(cmd("thom", "reserve", initiative=1))
    assert state.order == ["raider", "backstabber", "rider", "thom", "friend"]
    auto(f, "thom")
    ED1.validate(state, cmd("thom", "attack", "rider", attack="Broadsword"))


def _rider_declares_a_charge(faces: list[int]):
    state = thom_and_orks(rider=True)
    f = fight(state, faces)
    plan = {
        "thom": decl("thom", "attack", "rider"),
        "friend": decl("friend", "other"),
        "rider": decl("rider", "attack", "friend", options=["charge"]),
    }
    declare(f, plan)
    return state, f


def test_a_declared_charger_who_did_not_charge_is_attacked_as_anyone_ch12_reserved_actions() -> None:
    """ch.12§Reserved-Actions: the reserved action is the only way to attack "opponents using charging
    attacks". The rider declared a charge but took his turn without making it: he uses no charging attack,
    so Thom (acting after him) attacks him without reserving and without the +2."""
    state, f = _rider_declares_a_charge([1, 1, 1, 5, 5, 3])  # rider Initiative 5, everyone else 1
    auto(f, "rider")
    f.submit(cmd("rider", "end"))
    auto(f, "thom")
    [attack] = rolled(f.submit(cmd("thom", "attack", "rider", attack="Broadsword")), "Attack")
    assert attack.dn == state.combatants["rider"].stats.physical_defense


def test_a_charger_who_charged_stays_out_of_reach_but_for_a_reserved_action_ch12_reserved_actions() -> None:
    state, f = _rider_declares_a_charge([1, 1, 1, 5, 1, 1])  # the rider's charge misses (Rule of One)
    auto(f, "rider")
    state.combatants["rider"].pos = (-3, 1)  # room for a run in a straight line at the friend (0, 1)
    f.submit(cmd("rider", "attack", "friend", attack="Spear", charge=True, path=[[-2, 1], [-1, 1]]))
    auto(f, "thom")
    with pytest.raises(IllegalCommand, match="only a reserved action"):
        ED1.validate(state, cmd("thom", "attack", "rider", attack="Broadsword"))


def test_a_declared_charger_knocked_down_before_his_turn_can_be_attacked_ch12_reserved_actions() -> None:
    """Standing up takes the knocked-down rider's action: he cannot make his charge this round."""
    state, f = _rider_declares_a_charge([3, 1, 1, 1])  # Thom first (3), the rider last (1)
    auto(f, "thom")
    with pytest.raises(IllegalCommand, match="only a reserved action"):
        ED1.validate(state, cmd("thom", "attack", "rider", attack="Broadsword"))
    state.combatants["rider"].conditions["knocked-down"] = Condition("knocked-down")
    ED1.validate(state, cmd("thom", "attack", "rider", attack="Broadsword"))


# ----- Movement ---------------------------------------------------------------------------------------------


def _line(n: int) -> list[list[int]]:
    return [[-i, 0] for i in range(1, n + 1)]


def test_combat_movement_and_full_movement_ch12_movement() -> None:
    state, f = at_thoms_turn([*INIT])
    thom = state.combatants["thom"]
    assert thom.stats.movement == 26 and thom.stats.full_movement == 52  # yards (Attribute Table, dwarf)
    with pytest.raises(IllegalCommand, match="can move 13 hexes"):
        ED1.validate(state, cmd("thom", "move", path=_line(14)))
    ED1.validate(state, cmd("thom", "move", path=_line(13)))
    ED1.validate(state, cmd("thom", "run", path=_line(26)))
    with pytest.raises(IllegalCommand):
        ED1.validate(state, cmd("thom", "run", path=_line(27)))


def test_movement_all_at_once_before_or_after_the_action_ch12_movement() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2])
    f.submit(cmd("thom", "move", path=[[0, -1]]))
    f.submit(cmd("thom", "attack", "raider", attack="Broadsword", end=False))
    with pytest.raises(IllegalCommand, match="all at once") as exc:
        f.submit(cmd("thom", "move", path=[[-1, -1]]))
    assert exc.value.rule.startswith("ed1/movement/all-at-once")


def test_moving_only_after_the_action_is_allowed_ch12_movement() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2])
    f.submit(cmd("thom", "attack", "raider", attack="Broadsword", end=False))
    f.submit(cmd("thom", "move", path=[[-1, 0]]))
    assert state.combatants["thom"].pos == (-1, 0)


def test_splitting_movement_is_the_optional_rule_ch12_movement() -> None:
    assert {o.id: o.default for o in ED1.optional_rules()}["split-movement"] is False
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2], options={"split-movement": True})
    f.submit(cmd("thom", "move", path=[[0, -1]]))
    f.submit(cmd("thom", "attack", "raider", attack="Broadsword", end=False))
    f.submit(cmd("thom", "move", path=[[-1, -1]]))
    assert state.combatants["thom"].pos == (-1, -1)


def test_one_action_talent_per_round_ch12_talent_tests() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2])
    f.submit(cmd("thom", "attack", "raider", attack="Broadsword", end=False))
    with pytest.raises(IllegalCommand):
        f.submit(cmd("thom", "attack", "raider", attack="Broadsword"))


# ----- success levels, armor-defeating hits, damage ---------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "level", "armor"),
    [
        ([9, 6], "Excellent success", 0),  # 15 vs DN 7: Excellent (15-18) defeats armor
        ([7, 4], "Good success", 5),  # 11: Good (11-14), armor counts
        ([4, 3], "Average success", 5),  # 7: Average
    ],
)
def test_success_level_of_the_attack_and_armor_defeating_hits(
    faces: list[int], level: str, armor: int
) -> None:
    state, f = at_thoms_turn([*INIT, *faces, 5, 5])
    events = f.submit(cmd("thom", "attack", "raider", attack="Broadsword"))
    [attack] = rolled(events, "Attack")
    assert attack.outcome == level and attack.extra == 0
    [damage] = rolled(events, "Damage")
    assert damage.step == 12 and damage.modifiers == ()  # no extra-success damage in ED1
    [hit] = of(events, ev.Damaged)
    assert hit.armor == armor and hit.amount == 10 - armor


def test_armor_defeating_hits_can_be_switched_off() -> None:
    state, f = at_thoms_turn([*INIT, 9, 6, 5, 5], options={"armor-defeating-hits": False})
    [hit] = of(f.submit(cmd("thom", "attack", "raider", attack="Broadsword")), ev.Damaged)
    assert hit.armor == 5


def test_no_extra_successes_in_ed1_even_far_above_the_dn() -> None:
    state, f = at_thoms_turn([*INIT, 9, 7, 5, 5])  # 16 vs DN 7: ED4 would count 1 extra success
    events = f.submit(cmd("thom", "attack", "raider", attack="Broadsword"))
    assert rolled(events, "Attack")[0].extra == 0
    assert rolled(events, "Damage")[0].step == 12


def test_ed1_wound_penalty_first_wound_free() -> None:
    state = thom_and_orks()
    thom = state.combatants["thom"]
    for wounds, expect in [(0, ()), (1, ()), (2, -1), (4, -3)]:
        thom.counters["wounds"] = wounds
        mods = list(ED1._wound_penalty(Ctx(state, None, "attack", thom)))
        assert (mods[0].value if mods else ()) == expect
        assert not list(ED1._wound_penalty(Ctx(state, None, "recovery", thom)))


def test_surrender_is_a_special_action_ch12_special_actions() -> None:
    state = thom_and_orks()
    f = fight(state, INIT)
    declare(
        f,
        {
            "raider": decl("raider", "other", options=["surrender"]),
            "backstabber": decl("backstabber", "other", options=["surrender"]),
        },
    )
    assert state.combatants["raider"].status == "surrendered"
    assert state.ended and state.winner == "Heroes"


def test_swooping_flyer_strikes_in_passing_and_only_a_reserved_action_reaches_it_ch12_reserved() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thom-hammerblade", "id": "thom", "player": True, "at": [0, 0]}],
            },
            {"name": "B", "combatants": [{"template": "espagra", "id": "esp", "at": [1, 0], "player": True}]},
        ]
    )
    f = fight(state, [3, 1, 1])
    declare(
        f, {"thom": decl("thom", "attack", "esp"), "esp": decl("esp", "attack", "thom", options=["swoop"])}
    )
    auto(f, "thom")
    with pytest.raises(IllegalCommand, match="only a reserved action"):
        ED1.validate(state, cmd("thom", "attack", "esp", attack="Broadsword"))
    f.submit(cmd("thom", "reserve", initiative=1))
    auto(f, "esp")
    swoop = cmd("esp", "attack", "thom", attack="Claws", swoop=True, after=[[2, 0], [3, 0]])
    ED1.validate(state, swoop)
    with pytest.raises(IllegalCommand, match="all at once"):
        ED1.validate(state, cmd("esp", "attack", "thom", attack="Claws", path=[[1, -1]], after=[[2, -1]]))
    f.submit(cmd("esp", "end"))
    auto(f, "thom")
    ED1.validate(state, cmd("thom", "attack", "esp", attack="Broadsword"))


def test_one_test_for_five_orks_a_separate_one_for_the_veteran_ch12_initiative() -> None:
    """The text's example: one Initiative test for five identical orks, a separate test for the ork
    veteran with a different Initiative step."""
    state = build(
        [
            {
                "name": "A",
                "combatants": [{"template": "thom-hammerblade", "id": "thom", "player": True, "at": [0, 0]}],
            },
            {
                "name": "Orks",
                "combatants": [
                    {
                        "template": "ork-raider",
                        "id": "ork",
                        "count": 5,
                        "at": [[5, 0], [5, 1], [5, 2], [6, 0], [6, 1]],
                    },
                    {"template": "ork-raider", "id": "veteran", "at": [7, 0], "stats": {"initiative": 8}},
                ],
            },
        ]
    )
    f = fight(state, [2, 6, 3, 4])
    declare(f, {})
    f.advance_until_decision()
    init = {e.actor: e for e in of(f.log, ev.InitiativeRolled)}
    rolls = [cid for cid, e in init.items() if e.roll is not None]
    assert rolls == ["thom", "ork-1", "veteran"]
    assert {init[f"ork-{i}"].value for i in range(1, 6)} == {6}
    assert init["veteran"].step == 8 and init["veteran"].value == 7  # d6:3 + d6:4 (ED1 step 8 = 2d6)


def test_stun_damage_is_not_in_the_ed1_text_and_is_refused() -> None:
    """The ED1 chapter held has no Stun damage (its Combat Options are not in it): an attack to stun is
    refused by name instead of taking the ED4 rule (Harried, no Wound) silently."""
    state, f = at_thoms_turn([*INIT, 5, 3, 6, 6])
    with pytest.raises(RuleNotImplemented, match="ed1/damage/stun"):
        f.submit(cmd("thom", "attack", "raider", attack="Broadsword", stun=True))
    block = dict(FRIEND, attacks=[{"name": "Sap", "step": 8, "damage": 6, "stun": True}])
    with pytest.raises(EncounterFileError, match=r"attacks\.0\.stun: Stun damage \(ed1/damage/stun\)"):
        build(
            [
                {"name": "A", "combatants": [{"id": "a", "stats": block}]},
                {"name": "B", "combatants": [{"template": "ork-raider", "id": "o"}]},
            ]
        )


def test_an_unconscious_target_is_easier_to_hit_cited_as_the_ed1_choice() -> None:
    state, f = at_thoms_turn([*INIT, 5, 3, 2, 2])
    state.combatants["raider"].status = "unconscious"
    [attack] = rolled(f.submit(cmd("thom", "attack", "raider", attack="Broadsword")), "Attack")
    assert attack.dn == 7 - 2
    [(value, _why, rule)] = attack.modifiers
    assert value == -2 and rule.startswith("ed1/situation/unconscious-target")
