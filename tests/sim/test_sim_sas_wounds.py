"""The report's Wounds for Spells & Swords: the Damage Table's Light and Heavy Wounds each combatant took.

S&S has no Wounded event (its Wound Markers are tallied as damage dealt and taken); the simulator counts the
"Damage" rolls whose row is a Light Wound (8-13) or a Heavy Wound (14-18) (004 DAMAGE TABLE)."""

from __future__ import annotations

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import events as ev
from fracas.engine.play import Fight
from fracas.sim.runner import engine_runs, scenario_from_data

DUEL = {
    "version": 1,
    "ruleset": "sas",
    "name": "fighter and goblin boss",
    "max_rounds": 30,
    "sides": [
        {"name": "party", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
        {"name": "goblins", "combatants": [{"template": "goblin-boss", "id": "boss", "at": [1, 0]}]},
    ],
}


def _serious_by_label(events: list[ev.Event]) -> dict[str, int]:
    """Light and Heavy Wounds read from the rolls' outcome words, not from the rule ids the runner reads."""
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, ev.Rolled) and e.test == "Damage" and e.outcome in ("Light Wound", "Heavy Wound"):
            assert e.target is not None
            out[e.target] = out.get(e.target, 0) + 1
    return out


def test_sas_wounds_are_the_light_and_heavy_wounds_taken() -> None:
    sc = scenario_from_data(DUEL)
    seeds = list(range(1, 41))
    tally = engine_runs(sc.ruleset, sc.state, seeds)
    expected = {cid: 0 for cid in sc.ids}
    markers = {cid: 0 for cid in sc.ids}
    for s in seeds:
        fight = Fight(sc.ruleset, sc.state.clone(), RandomDice(s), seed=s)
        fight.run()
        for cid, n in _serious_by_label(fight.log).items():
            expected[cid] += n
        for e in fight.log:
            if isinstance(e, ev.Damaged):
                markers[e.target] += e.amount
    assert dict(zip(sc.ids, tally.wounds, strict=True)) == expected
    assert sum(expected.values()) > 0  # 40 duels without a Light or Heavy Wound would be a broken test
    # every Light or Heavy Wound is 2 or 3 markers (in a duel nothing kills the target before they land)
    for i, cid in enumerate(sc.ids):
        assert tally.taken[i] == markers[cid]
        assert 2 * tally.wounds[i] <= tally.taken[i]


def test_a_charge_ended_by_the_first_strike_tallies_no_wound() -> None:
    """004 CHARGE RULES: the goblin boss's longer spear strikes first; he fumbles (Auto Fumble, 8 Injure Self,
    LIGHT WOUND TABLE 1 Knocked Out 2D6 rounds) and the fight is over. The charger's attack used to follow
    anyway: its Damage roll (a Light Wound, never applied) was tallied as a Wound of the boss."""
    data = {
        **DUEL,
        "options": {"brawl-rule": False},
        "sides": [
            {"name": "party", "combatants": [{"template": "fighter", "id": "bran", "at": [0, 0]}]},
            {"name": "goblins", "combatants": [{"template": "goblin-boss", "id": "boss", "at": [8, 0]}]},
        ],
    }
    sc = scenario_from_data(data)
    # Initiative 20 / 1, bran charges; the boss: Attack 1, Fumble 8, Light Wound Table 1, 2D6 3+3; what
    # bran's attack would roll: Attack 15, Damage 14 (a Light Wound), Light Wound Table 6 Bad Scar
    faces = [20, 1, 1, 8, 1, 3, 3, 15, 14, 6]
    tally = engine_runs(sc.ruleset, sc.state, [1], dice_for=lambda _s: ScriptedDice(list(faces)))
    assert tally.wins == [1, 0]
    assert tally.wounds == [0, 0]
    assert tally.taken == [0, 0]
