"""ED4 mounted combat in play (000_4b24aca42c3b6366.txt p.394-398)."""

from __future__ import annotations

import pytest
from ed4_chapter_helpers import act, declare, start
from ed4_helpers import ATTRIBUTES_12, BLOCK, RULESET, build

from fight_helpers import cmd, of
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.ed4.features import falling
from fracas.rules.ed4.features.readers import mount_rate

FOE = {**ATTRIBUTES_12, "physical_defense": 7, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}


def davon():
    # Davon's mount has Movement Rate 15 (p.397); foes 8 hexes away (a 14-yard run) and 11 (a 20-yard run).
    return build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "mount",
                     "stats": {"movement": 15}},
                    {"template": "ork-scorcher", "name": "Davon", "id": "davon", "tactic": "person",
                     "options": {"rides": "horse", "familiar": True}},
                ],
            },
            {
                "name": "Foes",
                "combatants": [
                    {"name": "Near", "id": "near", "at": [8, 0], "tactic": "hold", "stats": FOE},
                    {"name": "Far", "id": "far", "at": [0, 11], "tactic": "hold", "stats": FOE},
                ],
            },
        ]
    )  # fmt: skip


def test_rider_shares_the_mount_hex_and_its_initiative_p395() -> None:
    state = davon()
    assert state.combatants["davon"].pos == state.combatants["horse"].pos == (0, 0)
    f = Fight(RULESET, state, RandomDice(3))

    declare(f, "davon")
    f.advance_until_decision()
    assert f.state.initiative["horse"] == f.state.initiative["davon"]
    order = list(f.state.order)
    assert order.index("horse") == order.index("davon") + 1


def test_davon_charges_only_beyond_the_movement_rate_and_adds_the_mount_strength_p396_p397() -> None:
    state = davon()
    f = start(state, [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [11, 5, 5, 5, 6, 6])  # attack, damage d20+d10+d8, the target's Knockdown, Strength
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("davon", "charge", "near", attack="Battle-axe", path=[[i, 0] for i in range(1, 8)]))
    assert err.value.rule == "ed4/mounted/charging-attack p.396"
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    dmg = [e for e in of(events, ev.Rolled) if "Damage" in e.test][0]
    assert (8, "ed4/mounted/charging-attack p.396") in [(int(v), r) for v, _, r in dmg.modifiers]
    assert dmg.step == 14 + 8
    after = [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (after")][0]
    assert after.dn == f.state.combatants["far"].stats.tou_step
    assert f.state.combatants["horse"].pos == f.state.combatants["davon"].pos == (0, 10)
    assert (
        f.state.combatants["horse"].marks["std"] == f.state.round
    )  # the charge used the mount's Standard action


def test_a_ridden_mount_does_not_move_on_its_own_p395() -> None:
    state = davon()
    f = Fight(RULESET, state, RandomDice(1))

    declare(f, "davon")
    d = f.advance_until_decision()
    while d is not None and d.actor != "horse":
        f.submit(cmd(d.actor, "end")) if d.actor == "davon" else f.submit(f.auto_command(d))
        d = f.advance_until_decision()
    assert d is not None
    with pytest.raises(IllegalCommand) as err:
        f.submit(cmd("horse", "move", path=[[1, 0]]))
    assert err.value.rule == "ed4/mounted/movement p.395"


def test_a_fallen_mount_throws_its_rider_p395() -> None:
    from fracas.dice.source import ScriptedDice
    from fracas.rules.earthdawn.combat import Scratch

    state = davon()
    sc = Scratch(state)
    sc.emit(ev.ConditionAdded("horse", "knocked-down", None, 3, "test", "test"))
    out = falling.aftermath(RULESET, state, list(sc.events), ScriptedDice([4]))
    fall = [e for e in of(out, ev.Rolled) if e.test.startswith("Falling")]
    assert fall and fall[0].step == 5  # Step 5/D8
    assert any(
        isinstance(e, ev.ConditionAdded) and e.target == "davon" and e.name == "knocked-down" for e in out
    )
    assert any(
        isinstance(e, ev.Marked) and e.target == "davon" and e.key == "mount" and e.value is None for e in out
    )


def test_throwing_himself_off_the_mount_to_grapple_p395() -> None:
    wrestler = dict(FOE, attacks=[{"name": "Unarmed", "kind": "unarmed", "step": 10, "damage": 6}])
    state = build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "hold"},
                    {"name": "Rider", "id": "rider", "tactic": "person", "stats": wrestler,
                     "options": {"rides": "horse"}},
                ],
            },
            {"name": "Foes", "combatants": [{"name": "Foe", "id": "foe", "at": [1, 0], "tactic": "hold",
                                             "stats": FOE}]},
        ]
    )  # fmt: skip
    f = start(state, [3, 3, 3, 3])
    declare(f, "rider")
    act(
        f, "rider", [3, 8, 1, 7, 4]
    )  # his fall d8 3; Unarmed 2d8 8+1, 7 = 16 (an extra success); her fall d8 4
    events = f.submit(cmd("rider", "attack", "foe", attack="Unarmed", grapple=True))
    falls = [e for e in of(events, ev.Rolled) if e.test.startswith("Falling")]
    assert [(e.actor, e.step, e.rule) for e in falls] == [
        ("rider", 5, "ed4/mounted/jump-off-to-grapple p.395"),
        ("foe", 5, "ed4/mounted/jump-off-to-grapple p.395"),
    ]
    assert "grappled" in f.state.combatants["foe"].conditions
    assert f.state.combatants["rider"].marks.get("mount") is None
    assert f.state.combatants["rider"].pos != f.state.combatants["horse"].pos


def test_the_mount_standard_action_moves_both_and_the_rider_still_attacks_p395() -> None:
    state = davon()
    f = start(state, [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [1, 1])
    path = [[0, i] for i in range(1, 11)]  # 20 yards: more than the Movement Rate 15, within twice it
    f.submit(cmd("davon", "gallop", path=path))
    assert f.state.combatants["horse"].pos == f.state.combatants["davon"].pos == (0, 10)
    assert f.state.combatants["horse"].marks["std"] == f.state.round
    events = f.submit(cmd("davon", "attack", "far", attack="Battle-axe"))  # his own Standard action
    assert [e.test for e in of(events, ev.Rolled)][0] == "Battle-axe Attack"
    dmg = [e for e in of(events, ev.Rolled) if "Damage" in e.test]
    assert all("ed4/mounted/charging-attack p.396" not in [r for _, _, r in d.modifiers] for d in dmg)


def test_a_reserved_defender_strikes_the_charging_rider_first_p375_p385() -> None:
    state = davon()
    spear = dict(FOE, attacks=[{"name": "Spear", "kind": "melee", "step": 10, "damage": 9, "size": 3}])
    far = state.combatants["far"]
    from fracas.rules.earthdawn.profile import profile_from_block

    far.stats = profile_from_block(spear, "Far", "test")
    far.tactic = "person"
    f = start(state, [3, 3, 3, 8, 1, 3])  # Initiative: Far acts before Davon
    declare(f, "davon")
    declare(f, "far", "set-against-charge")
    act(f, "far", [])
    f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}))
    act(f, "davon", [8, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    first = [e for e in of(events, ev.Rolled)][0]
    assert first.actor == "far" and first.test == "Spear Attack (set against the charge)"
    assert (2, "ed4/actions/reserved p.375") in [(int(v), r) for v, _, r in first.modifiers]
    dmg = [e for e in of(events, ev.Rolled) if e.actor == "far" and "Damage" in e.test][0]
    assert dmg.step == 9 - far.stats.str_step + state.combatants["horse"].stats.str_step


def test_a_rider_knocked_down_by_a_set_spear_falls_off_p383_p385_p395() -> None:
    """p.385 Setting Against a Charge with p.383 Attacking to Knockdown: the Damage test (the mount's
    Strength in it), less the rider's armor, is the DN of the rider's Knockdown test, and he takes no
    damage from the spear; knocked down, he falls from his mount (p.395: falling damage, Step 5)."""
    state = davon()
    spear = dict(FOE, attacks=[{"name": "Spear", "kind": "melee", "step": 10, "damage": 9, "size": 3}])
    far = state.combatants["far"]
    from fracas.rules.earthdawn.profile import profile_from_block

    far.stats = profile_from_block(spear, "Far", "test")
    far.tactic = "person"
    f = start(state, [3, 3, 3, 8, 1, 3])  # Initiative: Far acts before Davon
    declare(f, "davon")
    declare(f, "far", "set-against-charge", "attack-to-knockdown")
    act(f, "far", [])
    f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}))
    # Spear Attack 8!+5, 1 = 14; Damage (step 12) 9+9 = 18; Davon's Knockdown (step 8) 2+2 = 4 against
    # 18 - 5 armor; falling damage (Step 5) 3
    act(f, "davon", [8, 5, 1, 9, 9, 2, 2, 3, 1, 1, 1, 1])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    kd = [e for e in of(events, ev.Rolled) if e.test == "Knockdown"][0]
    assert (kd.actor, kd.dn, kd.success) == ("davon", 13, False)
    assert kd.rule == "ed4/option/attack-to-knockdown p.383"
    davon_now = f.state.combatants["davon"]
    assert "knocked-down" in davon_now.conditions and not davon_now.marks.get("mount")
    fell = [e for e in of(events, ev.Rolled) if e.actor == "davon"][-1]
    assert fell.rule == "ed4/mounted/falling-off p.395"
    assert [e.rule for e in of(events, ev.Damaged) if e.target == "davon"] == ["ed4/damage/armor p.379"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rides": "pegasus"}, "options.rides: no combatant 'pegasus'"),
        (
            {"saddle": True},
            "options.saddle: unknown field (found True); allowed: familiar, flying, magical_shield, race, "
            "rides, senses, training",
        ),
    ],
)
def test_bad_chapter_options_in_an_encounter_file(options: dict, message: str) -> None:
    from fracas.errors import EncounterFileError

    with pytest.raises(EncounterFileError) as err:
        build(
            [
                {
                    "name": "A",
                    "combatants": [
                        {"name": "Rider", "id": "r", "stats": FOE, "at": [0, 0], "options": options}
                    ],
                },
                {"name": "B", "combatants": [{"name": "Foe", "id": "f", "stats": FOE, "at": [3, 0]}]},
            ]
        )
    assert message in str(err.value)


def test_riders_charging_each_other_add_both_mounts_strength_p396() -> None:
    state = build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "hold",
                     "stats": {"movement": 15}},
                    {"template": "ork-scorcher", "id": "davon", "tactic": "person",
                     "options": {"rides": "horse"}},
                ],
            },
            {
                "name": "Knights",
                "combatants": [
                    {"template": "war-horse", "id": "steed", "at": [0, 11], "tactic": "hold"},
                    {"template": "ork-scorcher", "id": "knight", "tactic": "hold",
                     "options": {"rides": "steed"}},
                ],
            },
        ]
    )  # fmt: skip
    state.combatants["knight"].marks["charged"] = [1, "davon"]  # the knight charged Davon earlier this round
    f = start(state, [3, 3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [11, 5, 5, 5, 5] + [2] * 20)  # a hit; damage step 14 + 8 + 8 = 30 (2d20+2d6)
    events = f.submit(
        cmd("davon", "charge", "knight", attack="Battle-axe", path=[[0, i] for i in range(1, 11)])
    )
    dmg = [e for e in of(events, ev.Rolled) if "Damage" in e.test][0]
    charge = [int(v) for v, _, r in dmg.modifiers if r == "ed4/mounted/charging-attack p.396"]
    assert charge == [8, 8]  # both war horses' Strength Steps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_charging_rider_attacking_to_stun_deals_stun_damage_p383_p396(seed: int) -> None:
    """p.383: with Attacking to Stun "any damage inflicted to his opponent is recorded as Stun damage"; a
    charge's strike is a close combat attack like any other (p.396). The charge dealt normal damage."""
    state = davon()
    f = start(state, [3, 3, 3, 3, 3])
    declare(f, "davon", "attack-to-stun")
    act(f, "davon", [])
    f.dice = RandomDice(seed)
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    hits = [e for e in of(events, ev.Damaged) if e.target == "far"]
    attack = [e for e in of(events, ev.Rolled) if e.test == "Battle-axe Attack"][0]
    assert len(hits) == (1 if attack.success else 0)
    assert all(e.counter == "stun" for e in hits)
    assert f.state.combatants["far"].counters.get("wounds", 0) == 0  # Stun damage causes no Wound


def test_a_charging_rider_attacking_to_knockdown_only_knocks_p383_p396() -> None:
    """p.383: Attacking to Knockdown: the Damage test, less armor, is the DN of the target's Knockdown test
    and "the character's opponent takes no damage" - on a charge too (the mount's Strength in the Damage
    test). The charge dealt the damage and the knockdown option was ignored."""
    state = davon()
    f = start(state, [3, 3, 3, 3, 3])
    declare(f, "davon", "attack-to-knockdown")
    # Battle-axe Attack 11 (d20: hits PD 7); Damage d20+d10+d8 (step 22 with the mount's 8): 5+5+5 = 15;
    # Far's Knockdown (Strength step 5, d8): 2 against 15 - 0 armor; Davon's Strength (after the charge): 6
    act(f, "davon", [11, 5, 5, 5, 2, 6])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    assert not [e for e in of(events, ev.Damaged) if e.target == "far"]
    dmg = [e for e in of(events, ev.Rolled) if "Damage" in e.test][0]
    assert (8, "ed4/mounted/charging-attack p.396") in [(int(v), r) for v, _, r in dmg.modifiers]
    kd = [e for e in of(events, ev.Rolled) if e.test == "Knockdown"][0]
    assert (kd.actor, kd.dn, kd.rule) == ("far", 15, "ed4/option/attack-to-knockdown p.383")
    assert "knocked-down" in f.state.combatants["far"].conditions
    assert [e for e in of(events, ev.Rolled) if e.test.startswith("Strength (after")]


def test_trick_riding_to_charge_a_mount_not_combat_trained_is_the_riders_action_test_p396() -> None:
    """p.396: "A charging attack requires a combat-trained mount or a successful Trick Riding test against
    the mount's Social Defense"; the rider's Wounds penalise all his tests (p.381). The test was rolled with
    no modifier at all; failed, the charge adds no mount Strength. (The unfamiliar rider's p.395 test is
    tests/ed4/test_ed4_unfamiliar_mount.py.)"""
    state = davon()
    state.combatants["horse"].marks["training"] = "trained"
    state.combatants["davon"].counters["wounds"] = 1
    f = start(state, [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [])
    f.dice = RandomDice(5)
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    trick = [e for e in of(events, ev.Rolled) if e.test == "Trick Riding (charge)"][0]
    assert trick.dn == state.combatants["horse"].stats.social_defense
    assert (-1, "1 Wound", "ed4/wounds/penalties p.381") in trick.modifiers
    dmg = [e for e in of(events, ev.Rolled) if "Damage" in e.test]
    if not trick.success:
        assert all("ed4/mounted/charging-attack p.396" not in [r for _, _, r in d.modifiers] for d in dmg)


def test_a_trained_mount_mounted_mid_round_takes_the_riders_initiative_p395() -> None:
    state = build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "herekar", "at": [0, 0], "tactic": "person"},
                    {"template": "war-horse", "id": "horse", "at": [1, 0], "tactic": "hold",
                     "options": {"training": "trained"}},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [8, 0], "tactic": "hold"}]},
        ]
    )  # fmt: skip
    f = start(state, [9, 1, 1, 5])  # Initiative: Herekar d10 9, the horse 2d6 1+1, the ghoul d12 5
    declare(f, "herekar")
    act(f, "herekar", [])
    assert f.state.order == ["herekar", "ghoul", "horse"]
    events = f.submit(cmd("herekar", "mount", "horse"))
    init = [e for e in of(events, ev.InitiativeRolled) if e.actor == "horse"]
    assert init and init[0].value == 9 and f.state.initiative["horse"] == 9
    assert f.state.order == ["herekar", "horse", "ghoul"]  # it acts right after its rider
    assert f.state.combatants["herekar"].marks["mount"] == "horse"


def test_a_flying_mount_charges_on_its_flying_movement_and_comes_down_p398() -> None:
    from fracas.rules.ed4 import mounted

    foe = {**BLOCK, "physical_defense": 7}
    state = build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "griffin", "id": "griffin", "at": [0, 0], "altitude": 8, "tactic": "mount",
                     "stats": {"movement": 6}, "options": {"flying": True, "training": "combat"}},
                    {"template": "ork-scorcher", "id": "rider", "tactic": "person",
                     "options": {"rides": "griffin", "familiar": True}},
                ],
            },
            {"name": "Foes", "combatants": [{"id": "foe", "at": [11, 0], "tactic": "hold", "stats": foe}]},
        ]
    )  # fmt: skip
    griffin = state.combatants["griffin"]
    assert mount_rate(griffin) == 18 and griffin.stats.movement == 6
    f = Fight(RULESET, state, RandomDice(3))
    declare(f, "rider")
    act(f, "rider", [])
    f.dice = RandomDice(3)
    path = [[i, 0] for i in range(1, 11)]  # 20 yards: more than the flying rate 18 (not the ground rate 6)
    events = f.submit(cmd("rider", "charge", "foe", attack="Battle-axe", path=path))
    assert any(isinstance(e, ev.Note) and "charges" in e.text and e.rule == mounted.CHARGE for e in events)
    assert f.state.combatants["rider"].altitude == f.state.combatants["griffin"].altitude == 0
    assert [e for e in of(events, ev.Rolled) if e.test == "Battle-axe Attack"]


def _rider_on_horse() -> object:
    return build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "hold"},
                    {"template": "ork-scorcher", "id": "rider", "tactic": "person",
                     "options": {"rides": "horse", "familiar": True}},
                ],
            },
            {"name": "Foes", "combatants": [{"id": "foe", "at": [9, 0], "tactic": "hold", "stats": BLOCK}]},
        ]
    )  # fmt: skip


def test_a_rider_who_has_not_ridden_may_walk_after_dismounting_p395() -> None:
    f = Fight(RULESET, _rider_on_horse(), RandomDice(1))
    declare(f, "rider")
    act(f, "rider", [])
    f.submit(cmd("rider", "dismount", to=[0, 1]))
    assert RULESET._is_legal(f.state, cmd("rider", "move", path=[[1, 1]], end=False))


def test_a_rider_who_rode_this_round_cannot_walk_after_dismounting_p395() -> None:
    f = Fight(RULESET, _rider_on_horse(), RandomDice(1))
    declare(f, "rider")
    act(f, "rider", [])
    f.submit(cmd("rider", "move", path=[[1, 0]], end=False))  # the mount's movement
    f.submit(cmd("rider", "dismount", to=[1, 1]))
    assert not RULESET._is_legal(f.state, cmd("rider", "move", path=[[2, 1]], end=False))


def test_a_rider_dismounts_only_onto_a_hex_he_could_enter_p395() -> None:
    """Dismounting is a Simple action (p.395) that puts the rider on a hex next to his mount: a hex the map
    blocks is no more his to step on than a taken one, and the dismount offered is to a hex he can enter."""
    state = _rider_on_horse()
    state.extra["map"] = {"blocked": [[1, 0]]}
    f = Fight(RULESET, state, RandomDice(1))
    declare(f, "rider")
    act(f, "rider", [])
    assert not RULESET._is_legal(f.state, cmd("rider", "dismount", to=[1, 0]))
    assert RULESET._is_legal(f.state, cmd("rider", "dismount", to=[1, -1]))
    d = f.advance_until_decision()
    assert d is not None and d.actor == "rider"
    assert [c.args["to"] for c in RULESET.choices(f.state, d) if c.action == "dismount"] == [[1, -1]]


def test_a_rider_throwing_himself_off_lands_on_a_hex_he_could_enter_p395() -> None:
    """A rider who throws himself off his mount onto a target (p.395) comes down next to it, on a hex he
    could enter: not one the map blocks."""
    from fracas.rules.earthdawn.combat import Scratch

    state = davon()  # Near stands at [8, 0]; [9, 0] is the first hex next to him
    state.extra["map"] = {"blocked": [[9, 0]]}
    sc = Scratch(state)
    falling.leap_off(RULESET, state, sc, RandomDice(1), "davon", "near")
    assert [e.path for e in of(sc.events, ev.Moved) if e.actor == "davon"] == [((9, -1),)]


def test_a_mount_hemmed_in_by_blocked_hexes_makes_a_long_weapon_unwieldy_p397() -> None:
    """p.397: "If the mount would not be able to move at least 2 yards ... the rider receives the difference
    between the weapon's size and his one-handed size limit as a penalty". Walls hem a mount in as bodies
    do: the Battle-axe's size 5 less the ork's limit 3 is -2; with one hex open there is no penalty."""
    from fracas.engine.hexgrid import neighbours
    from fracas.rules.earthdawn.combat import TestContext
    from fracas.rules.ed4 import mounted
    from fracas.rules.ed4.features import providers

    state = _rider_on_horse()
    rider = state.combatants["rider"]
    ctx = TestContext(state, None, "attack", rider, state.combatants["foe"], rider.stats.attack("Battle-axe"))
    state.extra["map"] = {"blocked": [list(h) for h in neighbours((0, 0))]}
    assert [(m.value, m.rule) for m in providers._p_long_weapon(ctx)] == [(-2, mounted.LONG_WEAPONS)]
    state.extra["map"] = {"blocked": [list(h) for h in neighbours((0, 0))[1:]]}
    assert list(providers._p_long_weapon(ctx)) == []


def test_a_thrown_rider_lands_where_the_command_left_a_hex_free_p395() -> None:
    """A rider thrown in the command that knocked his mount down lands on a free hex as that command left
    them: not on the hex his attacker just stepped into next to the mount (he "could have stepped" there
    only before), and the hex the attacker left is free again."""
    from fracas.rules.earthdawn.combat import Scratch

    state = davon()  # the horse and Davon on [0, 0]; [1, 0] is the first hex next to them
    state.combatants["far"].pos = (1, -1)
    sc = Scratch(state)
    sc.emit(ev.Moved("near", ((1, 0),), "move", 3, None, "test"))
    falling.unseat(RULESET, state, sc, RandomDice(1), "davon", 0)
    assert [e.path for e in of(sc.events, ev.Moved) if e.actor == "davon"] == [((0, -1),)]
    state.combatants["far"].pos = (1, 0)  # Far steps away from the horse: his hex is free again
    sc = Scratch(state)
    sc.emit(ev.Moved("far", ((8, 1),), "move", 0, None, "test"))
    falling.unseat(RULESET, state, sc, RandomDice(1), "davon", 0)
    assert [e.path for e in of(sc.events, ev.Moved) if e.actor == "davon"] == [((1, 0),)]
