"""Strain of the combat options on a reserved strike made during someone else's command (000_4b24aca42c3b6366
.txt): a defender's reserved action at a charging rider (p.375, p.385) or at a swooper (p.398) is an Attack
test like any other, so a Called Shot costs its "1 Strain per Attack test" (p.384) and Aggressive Attack its 1
per close combat Attack test (p.382) there too."""

from __future__ import annotations

import dataclasses

from ed4_chapter_helpers import act, declare, person_registered, start
from ed4_helpers import ATTRIBUTES_12, build

from fight_helpers import cmd, of
from fracas.engine import events as ev
from fracas.rules.earthdawn.profile import profile_from_block

SPEAR = {
    **ATTRIBUTES_12,
    "physical_defense": 7,
    "attacks": [{"name": "Spear", "kind": "melee", "step": 10, "damage": 9, "size": 3}],
}
CALLED = "ed4/option/called-shot p.384"
AGGRESSIVE = "ed4/option/aggressive-attack p.382"
SHATTER = "ed4/option/shatter-shield p.385"


def _davon_and_far(shield_shatter: int | None = None):
    davon = {"template": "ork-scorcher", "name": "Davon", "id": "davon", "tactic": "person",
             "options": {"rides": "horse", "familiar": True}}  # fmt: skip
    state = build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "mount",
                     "stats": {"movement": 15}},
                    davon,
                ],
            },
            {"name": "Foes", "combatants": [{"name": "Far", "id": "far", "at": [0, 11], "tactic": "person",
                                             "stats": SPEAR}]},
        ]
    )  # fmt: skip
    state.combatants["far"].stats = profile_from_block(SPEAR, "Far", "test")
    if shield_shatter is not None:  # Davon carries a shield
        d = state.combatants["davon"]
        d.stats = dataclasses.replace(d.stats, shield_shatter=shield_shatter)
    return state


def _strain(events: list[ev.Event], who: str, rule: str) -> list[int]:
    return [
        e.amount
        for e in of(events, ev.Damaged)
        if e.damage_type == "strain" and e.target == who and e.rule == rule
    ]


def _charge_into_far(*options: str) -> tuple[list[ev.Event], list[ev.Event]]:
    person_registered()
    f = start(_davon_and_far(), [3, 3, 3, 8, 1, 3])  # Initiative: Far acts before Davon
    declare(f, "davon")
    declare(f, "far", *options)
    act(f, "far", [])
    f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}))
    # Far's Spear Attack test (step 10, 2d8) misses: 1 + 2 (the rest: Davon's blow and its aftermath)
    act(f, "davon", [1, 2] + [1] * 20)
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    strike = [e for e in of(events, ev.Rolled) if e.actor == "far"][0]
    assert strike.test == "Spear Attack (reserved)"
    while not f.state.ended and f.state.round == 1:
        d = f.advance_until_decision()
        if d is None or f.state.round > 1:
            break
        f.submit(cmd(d.actor, "end"))
    return events, list(f.log)


def test_a_called_shot_at_a_charging_rider_costs_its_strain_p384_p385() -> None:
    """p.384: a Called Shot costs "1 Strain per Attack test"; the reserved strike at the charging rider paid
    none (only the attack command counted its tests)."""
    events, _ = _charge_into_far("called-shot")
    strike = [e for e in of(events, ev.Rolled) if e.actor == "far"][0]
    assert (-3, CALLED) in [(int(v), r) for v, _, r in strike.modifiers]  # the option is in force
    assert _strain(events, "far", CALLED) == [1]


def test_aggressive_attack_on_a_reserved_strike_is_paid_once_p382() -> None:
    """p.382: 1 Strain per close combat Attack test, at least 1 a round: the reserved strike pays its 1 when
    it is made and the end of the round charges no second one."""
    events, log = _charge_into_far("aggressive-attack")
    assert _strain(events, "far", AGGRESSIVE) == [1]
    assert sum(1 for e in of(log, ev.Damaged) if e.damage_type == "strain" and e.target == "far") == 1


def _griffin_over_thrak():
    thrak = {"template": "thrak", "id": "thrak", "at": [0, 0], "tactic": "person"}
    griffin = {
        "template": "griffin",
        "id": "griffin",
        "at": [1, 0],
        "altitude": 10,
        "tactic": "person",
        "options": {"flying": True},
    }
    return build([{"name": "A", "combatants": [thrak]}, {"name": "B", "combatants": [griffin]}])


def test_a_called_shot_intercepting_a_swoop_costs_its_strain_p384_p398() -> None:
    """p.398: a reserved defender with the higher Initiative strikes the swooper as it comes; with a Called
    Shot declared that Attack test costs 1 Strain (p.384). It cost none."""
    person_registered()
    f = start(_griffin_over_thrak(), [7, 1, 1, 1])  # Thrak's Initiative above the griffin's
    declare(f, "thrak", "called-shot")
    declare(f, "griffin", "split-movement")
    f.advance_until_decision()
    assert f.state.initiative["thrak"] > f.state.initiative["griffin"]
    act(f, "thrak", [])
    f.submit(cmd("thrak", "reserve", trigger={"on": "attack"}))
    act(f, "griffin", [1, 2] + [1] * 20)  # Thrak's Battle-axe Attack misses: 1 + 2
    events = f.submit(cmd("griffin", "swoop", "thrak", attack="Claws", after=[[2, 0]], altitude=10))
    strike = [e for e in of(events, ev.Rolled) if e.actor == "thrak"][0]
    assert strike.test.endswith("Attack (intercepting)")
    assert (-3, CALLED) in [(int(v), r) for v, _, r in strike.modifiers]
    assert _strain(events, "thrak", CALLED) == [1]


def test_shattering_the_charging_riders_shield_with_a_reserved_strike_p385() -> None:
    """p.385: Shattering a Shield: a Damage test plus the weapon's Size against the Shatter Threshold, no
    damage, 1 Strain. A reserved strike at a charging rider with the option declared dealt plain damage."""
    person_registered()
    state = _davon_and_far(shield_shatter=15)
    f = start(state, [3, 3, 3, 8, 1, 3])
    declare(f, "davon")
    declare(f, "far", "shatter-shield")
    act(f, "far", [])
    f.submit(cmd("far", "reserve", trigger={"on": "attack", "target": "far"}))
    # Far's Spear Attack (step 10, 2d8) hits: 7 + 7; then the Damage test against the threshold, the rest
    act(f, "davon", [7, 7] + [1] * 30)
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    strike = [e for e in of(events, ev.Rolled) if e.actor == "far"]
    assert strike[0].test == "Spear Attack" and strike[0].success
    assert (2, "ed4/actions/reserved p.375") in [(int(v), r) for v, _, r in strike[0].modifiers]
    assert strike[1].test == "Spear Damage vs Shatter Threshold"
    assert [e for e in of(events, ev.Note) if e.rule == SHATTER and "shield" in e.text]
    assert not [e for e in of(events, ev.Damaged) if e.target == "davon" and e.damage_type != "strain"]
    assert _strain(events, "far", SHATTER) == [1]
