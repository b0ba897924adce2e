"""ED4 p.395: a rider not familiar with his mount must succeed at a Trick Riding test against the mount's
Social Defense to take it into (but not away from) combat (000_4b24aca42c3b6366.txt)."""

from __future__ import annotations

from ed4_chapter_helpers import act, declare, start
from ed4_helpers import ATTRIBUTES_12, build

from fight_helpers import cmd, of
from fracas.engine import events as ev

FOE = {**ATTRIBUTES_12, "physical_defense": 7, "attacks": [{"name": "Sword", "step": 8, "damage": 8}]}
# Davon: Dexterity step 6 + Trick Riding -> step 13 (d12+d10); the war-horse's Social Defense is 9.
FAIL = [2, 3]
PASS = [6, 5]


def unfamiliar(familiar: bool = False):
    return build(
        [
            {
                "name": "Riders",
                "combatants": [
                    {"template": "war-horse", "id": "horse", "at": [0, 0], "tactic": "mount"},
                    {"template": "ork-scorcher", "name": "Davon", "id": "davon", "tactic": "person",
                     "options": {"rides": "horse", "familiar": familiar}},
                ],
            },
            {
                "name": "Foes",
                "combatants": [
                    {"name": "Near", "id": "near", "at": [1, 0], "tactic": "hold", "stats": FOE},
                    {"name": "Far", "id": "far", "at": [0, 11], "tactic": "hold", "stats": FOE},
                ],
            },
        ]
    )  # fmt: skip


def rolled_tests(events: list[ev.Event]) -> list[str]:
    return [e.test for e in of(events, ev.Rolled)]


def test_an_unfamiliar_rider_who_fails_trick_riding_makes_no_attack_from_the_saddle_p395() -> None:
    """p.395: "characters not familiar with their mounts must succeed at a Trick Riding test against the
    mount's Social Defense to take their mounts into (but not away from) combat". The engine tested it only
    on a charge: an unfamiliar rider attacked from the saddle untested. Failed (5 vs 9), no attack is made."""
    f = start(unfamiliar(), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [*FAIL, 12, 12, 12, 12, 12, 12])
    events = f.submit(cmd("davon", "attack", "near", attack="Battle-axe"))
    trick = [e for e in of(events, ev.Rolled) if e.test == "Trick Riding (into combat)"]
    assert len(trick) == 1 and trick[0].dn == 9 and not trick[0].success
    assert trick[0].rule == "ed4/mounted/unfamiliar-mount p.395"
    assert rolled_tests(events) == ["Trick Riding (into combat)"]
    assert not of(events, ev.Damaged)
    assert "into-combat" not in f.state.combatants["davon"].marks


def test_a_passed_trick_riding_takes_the_mount_into_combat_for_the_fight_p395() -> None:
    """Passed (11 vs 9), he attacks at once, and is not tested again on his next attack [choice: once per
    fight, docs/rulesets/ed4.md]."""
    f = start(unfamiliar(), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [*PASS, 2, 2, 2, 2, 2, 2])
    events = f.submit(cmd("davon", "attack", "near", attack="Battle-axe"))
    assert rolled_tests(events)[0] == "Trick Riding (into combat)" and len(rolled_tests(events)) > 1
    assert f.state.combatants["davon"].marks["into-combat"] == "horse"
    f.dice.faces = [3] * 20  # type: ignore[attr-defined]
    declare(f, "davon")
    act(f, "davon", [2, 2, 2, 2, 2, 2])
    events = f.submit(cmd("davon", "attack", "near", attack="Battle-axe"))
    assert rolled_tests(events) and "Trick Riding (into combat)" not in rolled_tests(events)


def test_a_familiar_rider_is_not_tested_p395() -> None:
    f = start(unfamiliar(familiar=True), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [2, 2, 2, 2, 2, 2])
    events = f.submit(cmd("davon", "attack", "near", attack="Battle-axe"))
    assert "Trick Riding (into combat)" not in rolled_tests(events)


def test_an_unfamiliar_rider_who_fails_does_not_charge_p395_p396() -> None:
    """The charge takes the mount into combat: failed, it does not move and no attack is made."""
    f = start(unfamiliar(), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [*FAIL, 12, 12, 12, 12, 12, 12])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    assert rolled_tests(events) == ["Trick Riding (into combat)"]
    assert f.state.combatants["davon"].pos == (0, 0) and not of(events, ev.Moved)


def test_an_unfamiliar_rider_who_passes_charges_after_one_test_p395_p396() -> None:
    """p.395: one Trick Riding test takes the mount into combat. The charge tested it twice: the second
    read the rider's marks from before the first had passed, so a passed test could still be lost to a
    second roll (here 3+2 = 5 against 9) and the charge refused."""
    f = start(unfamiliar(), [3, 3, 3, 3, 3])
    declare(f, "davon")
    act(f, "davon", [*PASS, *FAIL, 2, 2, 2, 2, 2, 2, 2, 2])
    events = f.submit(cmd("davon", "charge", "far", attack="Battle-axe", path=[[0, i] for i in range(1, 11)]))
    assert rolled_tests(events).count("Trick Riding (into combat)") == 1
    assert f.state.combatants["davon"].pos == (0, 10)
    assert f.state.combatants["davon"].marks["into-combat"] == "horse"


HARRIED = "ed4/situation/harried p.388"
WOUNDS = "ed4/wounds/penalties p.381"


def _herekar_and_a_wild_horse():
    return build(
        [
            {
                "name": "A",
                "combatants": [
                    {"template": "herekar", "at": [0, 0], "tactic": "person"},
                    {"template": "war-horse", "id": "horse", "at": [1, 0], "tactic": "hold",
                     "options": {"training": "untrained"}},
                ],
            },
            {"name": "B", "combatants": [{"template": "ghoul", "at": [8, 0], "tactic": "hold"}]},
        ]
    )  # fmt: skip


def test_trick_riding_to_mount_an_untrained_mount_is_the_riders_own_test_p381_p395() -> None:
    """p.395: "An untrained mount requires the character to make a Trick Riding test against the mount's
    Social Defense"; the rider's Wounds (p.381) and Harried (p.388, Splitting Movement p.386) count on it."""
    state = _herekar_and_a_wild_horse()
    state.combatants["herekar"].counters["wounds"] = 1
    f = start(state, [7, 1, 1, 5])  # Initiative: Herekar (1 Wound: d8) 7, the horse 2d6 1+1, the ghoul d12 5
    declare(f, "herekar", "split-movement")
    act(f, "herekar", [1, 1])
    events = f.submit(cmd("herekar", "mount", "horse"))
    trick = [e for e in of(events, ev.Rolled) if e.test == "Trick Riding (mount)"]
    assert len(trick) == 1
    assert trick[0].dn == state.combatants["horse"].stats.social_defense
    rules = [(int(v), r) for v, _, r in trick[0].modifiers]
    assert (-1, WOUNDS) in rules and (-2, HARRIED) in rules
    assert not trick[0].success
    assert "mount" not in f.state.combatants["herekar"].marks  # failed: he is not mounted


def test_a_trained_mount_needs_no_trick_riding_test_p395() -> None:
    state = _herekar_and_a_wild_horse()
    state.combatants["horse"].marks["training"] = "trained"
    f = start(state, [9, 1, 1, 5])
    declare(f, "herekar")
    act(f, "herekar", [])
    events = f.submit(cmd("herekar", "mount", "horse"))
    assert not of(events, ev.Rolled)
    assert f.state.combatants["herekar"].marks["mount"] == "horse"
