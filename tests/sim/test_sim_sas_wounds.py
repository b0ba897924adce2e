"""The report's Wounds for Spells & Swords: the Damage Table's Light and Heavy Wounds each combatant took.

S&S has no Wounded event (its Wound Markers are tallied as damage dealt and taken); the simulator counts the
"Damage" rolls whose row is a Light Wound (8-13) or a Heavy Wound (14-18) (004 DAMAGE TABLE)."""

from __future__ import annotations

from fracas.dice.source import RandomDice
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
