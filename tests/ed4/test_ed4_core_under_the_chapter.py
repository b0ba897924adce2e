"""The core (p.371-381) under the chapter's features: armor providers reach every attack path (Earth Darts'
reduction, p.393, is one), revealed ambushers are seen by the core tactics (p.390), and the core's default
and guard tactics plan only attacks the chapter allows (``may_refuse_attack``)."""

from __future__ import annotations

from ed4_helpers import RULESET, build

from fight_helpers import two_sides
from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.engine.state import Condition
from fracas.rules.earthdawn.combat import Scratch
from fracas.rules.ed4.features import providers
from fracas.rules.ed4.ruleset import Ed4CoreRuleset
from fracas.rules.ed4.tactics import Ed4Tactic, GuardTactic, Survey, _enemies


def _duel(thrak: dict | None = None) -> object:
    """Thrak (side A) next to a thundra beast (side B)."""
    return build(
        two_sides(
            {"template": "thrak", "id": "thrak", "at": [0, 0], **(thrak or {})},
            {"template": "thundra-beast", "id": "thundra", "at": [1, 0]},
        )
    )


def test_armor_providers_reach_the_core_attack() -> None:
    core = Ed4CoreRuleset()
    state = _duel()
    t = state.combatants["thundra"]
    a = state.combatants["thrak"].stats.attacks[0]
    assert core.armor_of(t, a) == t.stats.physical_armor
    core.armor_providers.append(lambda tt, aa: (ev_mod(-4),))
    assert core.armor_of(t, a) == max(0, t.stats.physical_armor - 4)
    core.armor_providers.append(lambda tt, aa: (ev_mod(-100),))
    assert core.armor_of(t, a) == 0  # never below 0
    # the core attack uses it: every Damaged event of an attack reports the reduced armor
    for seed in range(30):
        sc = Scratch(state)
        core.attack_once(
            state, sc, RandomDice(seed), sc.get("thrak"), sc.get("thundra"), a, None, False, False, False
        )
        for e in sc.events:
            if isinstance(e, ev.Damaged):
                assert e.armor == 0


def ev_mod(v: int):  # noqa: ANN201
    from fracas.rules.base import Modifier

    return Modifier(v, "test", "test")


def test_the_chapter_reduces_armor_through_the_provider() -> None:
    state = _duel()
    t = state.combatants["thundra"]
    a = state.combatants["thrak"].stats.attacks[0]
    t.conditions["armor-reduced"] = Condition("armor-reduced", 5, 2, "maloren")
    assert RULESET.armor_of(t, a) == t.stats.physical_armor - 2
    assert providers._p_armor_reduced in RULESET.armor_providers


def test_revealed_ambushers_are_seen_by_the_core_tactics() -> None:
    state = _duel({"hidden": True})
    thrak = state.combatants["thrak"]
    beast = state.combatants["thundra"]
    assert _enemies(state, beast) == [] and Survey(state, beast).nearest is None
    thrak.marks["revealed"] = True
    assert _enemies(state, beast) == [thrak] and Survey(state, beast).nearest is thrak


def test_default_and_guard_are_the_core_tactics_and_plan_legal_attacks() -> None:
    tactics = RULESET.tactics()
    # the chapter wraps every tactic (ChapterAware: standing combat options, breaking free, picking up a
    # thrown weapon) and delegates the rest to the core's own tactic
    assert type(tactics["default"].inner) is Ed4Tactic and type(tactics["guard"].inner) is GuardTactic
    state = _duel()
    f = Fight(RULESET, state, RandomDice(2))
    for _ in range(200):
        d = f.advance_until_decision()
        if d is None:
            break
        cmd = f.auto_command(d)
        if d.kind == "act" and cmd.action == "attack":
            assert RULESET._is_legal(f.state, cmd)
        f.submit(cmd)


def test_may_refuse_attack_says_yes_for_each_refusal_reason() -> None:
    state = _duel()
    me, t = state.combatants["thrak"], state.combatants["thundra"]
    assert not RULESET.may_refuse_attack(state, me, t)
    t.altitude = 4
    assert RULESET.may_refuse_attack(state, me, t)  # out of close reach (p.397)
    t.altitude = 0
    me.marks["lost_weapons"] = ["Battle-axe"]
    assert RULESET.may_refuse_attack(state, me, t)  # a weapon lost to a Called Shot
    me.marks.pop("lost_weapons")
    me.conditions["grappled"] = Condition("grappled", None, 5, "thundra")
    assert RULESET.may_refuse_attack(state, me, t)
    me.conditions.pop("grappled")
    state.extra["map"] = {"full_cover": [[5, 5]]}
    assert RULESET.may_refuse_attack(state, me, t)


def test_every_planned_attack_in_the_bundled_fights_is_legal() -> None:
    """With validation skipped where the chapter cannot refuse, plans must still pass it: submit validates."""
    from pathlib import Path

    from fracas.engine import encounter

    for path in sorted(Path(__file__).resolve().parents[2].glob("examples/ed4/*.yaml")):
        for seed in (1, 2):
            state = encounter.load(path)[1]
            f = Fight(RULESET, state, RandomDice(seed), log=None)
            f.run()  # an illegal plan raises IllegalCommand here
            assert f.state.ended
