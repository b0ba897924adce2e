"""Tests for rows of the session-6 audit of ed4 (docs/rulesets/audit/ed4.md) that had none
(000_4b24aca42c3b6366.txt): the Initiative test takes neither Defensive Stance's -3 nor Harried's -2 (they
fall on Action and Damage tests, p.384 + erratum, p.388; the Initiative test is an Effect test), while the
knocked-down -3 is the text's own exception (p.389) and Wounds count (p.381); and the Trick Riding test to
mount an untrained mount (p.395) is the rider's own test, with his Wounds and Harried."""

from __future__ import annotations

from ed4_chapter_helpers import act, declare, mica_among_ghouls, start
from ed4_helpers import RULESET, build

from fight_helpers import cmd, of
from fracas.engine import events as ev
from fracas.engine.state import Condition
from fracas.rules.earthdawn.combat import TestContext as Ctx

HARRIED = "ed4/situation/harried p.388"
STANCE = "ed4/option/defensive-stance p.384"
KNOCKED_DOWN = "ed4/situation/knocked-down p.389"
WOUNDS = "ed4/wounds/penalties p.381"


def test_initiative_takes_neither_stance_nor_harried_but_wounds_and_knocked_down_p384_p388_p389() -> None:
    state = mica_among_ghouls()
    mica = state.combatants["mica"]
    # Defensive Stance and Splitting Movement declared, five ghouls around him, entangled: harried thrice over
    state.declarations["mica"] = {"action": "attack", "options": ("defensive-stance", "split-movement")}
    mica.conditions["entangled"] = Condition("entangled", None, 8)
    attack = RULESET.step_mods(Ctx(state, None, "attack", mica))
    rules = [m.rule for m in attack]
    assert STANCE in rules and HARRIED in rules  # they are in force on his Action tests
    _, mods = RULESET.initiative_step(state, mica, None)
    assert [m.rule for m in mods] == []  # none of them on his Initiative test
    # Wounds count on every test but Recovery (p.381); knocked down: -3 on his next Initiative test (p.389)
    mica.counters["wounds"] = 2
    mica.conditions["knocked-down"] = Condition("knocked-down", None, 3)
    state.declarations["mica"] = {"action": "attack", "options": ()}
    _, mods = RULESET.initiative_step(state, mica, None)
    assert sorted((m.value, m.rule) for m in mods) == [(-3, KNOCKED_DOWN), (-2, WOUNDS)]


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
