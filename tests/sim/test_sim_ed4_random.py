"""The ED4 kernels (``ed4-duel``, ``ed4-group``) against the reference engine on random legal encounters.

random_encounter(seed) builds an encounter from the bundled ED4 templates (characters and creatures,
src/fracas/rules/ed4/data/) with equipment drawn from the bundled weapons, armor and shields, two or three
sides of one to three combatants (a duel of neighbours now and then; now and then a creature riding a war
horse), random facings, the three Initiative and wound options drawn on or off, on a map with blocked hexes,
cover, full cover and darkness or none (random_map), some hidden (an ambush, with Surprise) or with senses
of their own (hide_some), a third of the combatants under the ``veteran`` tactic (random_tactics), under the
whole combat chapter or the core rules alone. Only encounters a
kernel takes are kept: case i takes the first seed from 1000 i up that the wanted kernel qualifies (the
others use charging riders, Attacking to Stun under the core rules, ...). The seeds are fixed, so the test
is deterministic.

Statistics (test_random_encounters_agree_with_engine): the kernel's 20,000 fights and the engine's 800
(FRACAS_SIM_ENGINE_RUNS=N for more) agree on each side's wins, the draws, each combatant's final status,
each number of rounds and the casualties (fights by how many of a side ended dead, out of the fight), and on
each combatant's Wounds and damage taken per fight (_means_differ), at the 99.9% level for the encounter's
tests taken together: each of its m tests at 1 - 0.001/m (Bonferroni; a random encounter has some fifty to
a hundred, and that many at 99.9% each would fail a right kernel about one time in twelve).
"""

from __future__ import annotations

import os
import random
from statistics import NormalDist

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("fracas.rules.ed4.ruleset")

from fracas.sim.kernels import find_kernel  # noqa: E402
from fracas.sim.runner import Scenario, engine_runs, run_seeds, scenario_from_data  # noqa: E402
from fracas.sim.stats import Tally  # noqa: E402

ENGINE_RUNS = int(os.environ.get("FRACAS_SIM_ENGINE_RUNS", 800))
KERNEL_RUNS = 20_000

CHARACTERS = ("herekar", "kira", "maloren", "mica", "silar", "thrak", "tomas", "ulm", "brighton", "bandit")
CREATURES = ("cadaver-man", "ghoul", "griffin", "dyre", "thundra-beast", "ork-scorcher", "war-horse")
# weapons.toml: close weapons, missile weapons; thrown and entangling ones only come with the templates
CLOSE = (
    "short-sword", "broadsword", "battle-axe", "long-spear", "pole-arm", "halberd", "two-handed-sword",
    "troll-sword", "warhammer", "mace", "spiked-mace",
)  # fmt: skip
MISSILE = ("short-bow", "longbow", "elven-warbow", "light-crossbow", "medium-crossbow", "sling")
ARMOR = (
    "", "padded-cloth", "leather", "hardened-leather", "hide", "ring-mail", "chain-mail", "plate-mail",
    "fernweave", "wyvern-skin",
)  # fmt: skip
SHIELD = ("", "", "buckler", "footmans-shield", "ferndask", "crystal-raider-shield")
ENTANGLING = ("whip", "net", "bola")  # p.391-392, data/entangling.toml
THROWN = ("throwing-dagger", "throwing-axe")


def _combatant(rnd: random.Random, cid: str, at: list[int], more: random.Random) -> dict:
    """A bundled character (now and then with other equipment: a close weapon, maybe a missile weapon,
    armor, a shield; often a player character) or creature, facing a random way. From ``more`` (its own
    stream, so that the rest of the draws are those of the encounters drawn before it): now and then an
    entangling weapon (whip, net, bola) or a thrown weapon added to the equipment, and Attacking to Stun
    declared (``combat_options``)."""
    entry: dict = {"id": cid, "at": at}
    if rnd.random() < 0.5:
        entry["template"] = rnd.choice(CHARACTERS)
        if rnd.random() < 0.6:
            weapons = [rnd.choice(CLOSE)] + ([rnd.choice(MISSILE)] if rnd.random() < 0.3 else [])
            armor, shield = rnd.choice(ARMOR), rnd.choice(SHIELD)
            if more.random() < 0.35:
                weapons.insert(more.randint(0, 1), more.choice(ENTANGLING))
            elif more.random() < 0.2:
                weapons.append(more.choice(THROWN))
            entry["equipment"] = {"weapons": weapons, "armor": armor, "shield": shield}
        if rnd.random() < 0.6:
            entry["player"] = True
    else:
        entry["template"] = rnd.choice(CREATURES)
    entry["facing"] = rnd.randint(0, 5)
    if more.random() < 0.2:
        entry["combat_options"] = ["attack-to-stun"]
    return entry


def random_encounter(seed: int) -> dict:
    """A random legal ED4 encounter: two or three sides of one to three bundled templates each (_combatant;
    a quarter of the two-side ones a duel of neighbours), grouped round a centre per side, a round limit of
    4 to 15, the Initiative and wound options on or off."""
    rnd = random.Random(seed)
    more = random.Random(-seed - 1)
    taken: set[tuple[int, int]] = set()

    def free(centre: tuple[int, int]) -> list[int]:
        while True:
            h = (centre[0] + rnd.randint(-2, 2), centre[1] + rnd.randint(-2, 2))
            if h not in taken:
                taken.add(h)
                return list(h)

    n_sides = rnd.choice((2, 2, 2, 3))
    duel = n_sides == 2 and rnd.random() < 0.25
    centres = [(0, 0), (rnd.randint(2, 7), rnd.randint(-3, 3)), (rnd.randint(-6, -2), rnd.randint(2, 6))]
    sides = []
    for s in range(n_sides):
        combatants = [
            _combatant(rnd, f"s{s}c{c}", [s, 0] if duel else free(centres[s]), more)
            for c in range(1 if duel else rnd.randint(1, 3))
        ]
        sides.append({"name": f"Side {s}", "combatants": combatants})
    if not duel:  # a duel of neighbours stays one (the duel kernel takes no riders)
        _riders(random.Random(f"riders {seed}"), sides)
    options = {o: rnd.random() < 0.5 for o in ("group-initiative", "wound-penalties", "take-the-initiative")}
    data = {
        "version": 1, "ruleset": "ed4", "name": f"random ED4 encounter {seed}",
        "max_rounds": rnd.randint(4, 15), "options": options, "sides": sides,
    }  # fmt: skip
    if not duel:  # a duel of neighbours stays in bright light on an open field (the duel kernel's)
        data["map"] = random_map(
            rnd, {tuple(c["at"]) for side in sides for c in side["combatants"] if "at" in c}
        )
        hide_some(rnd, sides)
    random_tactics(seed, sides)
    return data


def random_tactics(seed: int, sides: list[dict]) -> None:
    """A third of the combatants under the ``veteran`` tactic (combat options, chapter_tactics), except
    under the core rules alone (random_scenario), which have none; drawn from a stream of their own, so the
    rest of the encounter is what the seed drew before."""
    if seed % 3 == 2:
        return
    rnd = random.Random(seed * 31 + 7)
    for side in sides:
        for c in side["combatants"]:
            # a ridden horse keeps the mount tactic, a rider the default one (a veteran rider charges)
            if rnd.random() < 1 / 3 and "tactic" not in c and "rides" not in c.get("options", {}):
                c["tactic"] = "veteran"


def random_map(rnd: random.Random, taken: set[tuple[int, int]]) -> dict:
    """The battle map: half the time one to eight blocked hexes (walls and boulders among the combatants,
    never on one); a third of the time partial cover on one to four hexes, a fifth of the time full cover
    on one or two (combatants may stand on those); the light bright, partial or full darkness."""
    mp: dict = {}
    cells = [(q, r) for q in range(-6, 9) for r in range(-4, 7)]
    if rnd.random() < 0.5:
        mp["blocked"] = [list(h) for h in rnd.sample([h for h in cells if h not in taken], rnd.randint(1, 8))]
    if rnd.random() < 0.33:
        mp["cover"] = [list(h) for h in rnd.sample(cells, rnd.randint(1, 4))]
    if rnd.random() < 0.2:
        mp["extra"] = {"full_cover": [list(h) for h in rnd.sample(cells, rnd.randint(1, 2))]}
    mp["light"] = rnd.choice(("bright", "bright", "partial-darkness", "full-darkness"))
    return mp


def _riders(rnd: random.Random, sides: list[dict]) -> None:
    """One side in four has one of its creatures (not a horse) ride a war horse of its own, trained or
    combat-trained, under the ``mount`` tactic, on the creature's hex (ED4 p.394-398). A stream of its
    own, so the rest of the encounter is what it was without riders."""
    for side in sides:
        riders = [
            c for c in side["combatants"] if c["template"] in CREATURES and "horse" not in c["template"]
        ]
        if not riders or rnd.random() >= 0.25:
            continue
        c = rnd.choice(riders)
        horse = {"id": f"{c['id']}-horse", "template": "war-horse", "tactic": "mount", "at": c.pop("at")}
        horse["options"] = {"training": rnd.choice(("trained", "combat"))}
        horse["facing"] = c.get("facing", 0)
        c["options"] = {"rides": horse["id"]}
        side["combatants"].append(horse)


def hide_some(rnd: random.Random, sides: list[dict]) -> None:
    """Two encounters in five: the combatants of one side hidden (an ambush), now and then only some of
    them; one in three of the combatants with the senses of their own (options.senses)."""
    if rnd.random() < 0.4:
        for c in rnd.choice(sides)["combatants"]:
            c["hidden"] = rnd.random() < 0.8
    for side in sides:
        for c in side["combatants"]:
            if rnd.random() < 0.33:
                c.setdefault("options", {})["senses"] = rnd.choice((["low-light-vision"], ["heat-sight"], []))


def random_scenario(seed: int) -> Scenario:
    """random_encounter(seed) under the whole chapter, or (one seed in three) the core rules alone."""
    from fracas.rules.ed4.ruleset import Ed4CoreRuleset

    sc = scenario_from_data(random_encounter(seed))
    if seed % 3 == 2:
        return Scenario(Ed4CoreRuleset(), sc.state, sc.name, sc.source)
    return sc


def qualifying(case: int, kernel_name: str, at_least: int = 2):  # noqa: ANN201
    """The first random scenario from seed 1000 ``case`` up with ``at_least`` combatants that
    ``kernel_name`` takes, with its kernel."""
    for seed in range(1000 * case, 1000 * case + 200):
        sc = random_scenario(seed)
        if len(sc.state.combatants) < at_least:
            continue
        kernel, _ = find_kernel(sc.ruleset, sc.state)
        if kernel is not None and kernel.name == kernel_name:
            return seed, sc, kernel
    raise AssertionError(f"no random encounter from seed {1000 * case} that {kernel_name} takes")


def _same(k1: int, n1: int, k2: int, n2: int, z: float) -> bool:
    """A two-proportion z-test at ``z``, where valid (5 expected in the smaller sample)."""
    p = (k1 + k2) / (n1 + n2)
    if p * min(n1, n2) < 5:
        return True
    sd = (p * (1 - p) * (1 / n1 + 1 / n2)) ** 0.5
    return abs(k1 / n1 - k2 / n2) <= z * sd + 1e-12


def _outcomes(t, rounds: int) -> dict[str, int]:  # noqa: ANN001
    out = {f"wins {s}": w for s, w in zip(t.sides, t.wins, strict=True)}
    out["draws"] = t.draws
    for cid, st in zip(t.ids, t.status, strict=True):
        for s in ("active", "unconscious", "dead", "fled"):
            out[f"{cid} {s}"] = st.get(s, 0)
    for r in range(1, rounds + 1):
        out[f"rounds {r}"] = t.rounds.get(r, 0)
    for side, dead, gone in zip(t.sides, t.side_dead, t.side_out, strict=True):
        for k in range(len(t.ids) + 1):
            out[f"{side}: {k} dead"] = dead.get(k, 0)
            out[f"{side}: {k} out"] = gone.get(k, 0)
    return out


# the group kernel: mostly three combatants or more (the larger an encounter, the likelier something in it
# is refused, so the first seed taken is often a duel at a distance); the duel kernel: neighbours
CASES = (
    [(i, "ed4-group", 3) for i in range(18)]
    + [(i, "ed4-group", 2) for i in range(18, 24)]
    + [(i, "ed4-duel", 2) for i in range(24, 32)]
)


def _means_differ(kt, per_fight: list, z: float) -> list[str]:  # noqa: ANN001
    """Each combatant's Wounds and damage taken per fight, kernel against engine: a z-test on the
    difference of the means, the variance from the engine's fights (the kernel keeps only sums; under
    agreement both have the same variance)."""
    bad = []
    n = len(per_fight)
    for what in ("wounds", "taken"):
        for i, cid in enumerate(kt.ids):
            xs = [getattr(t, what)[i] for t in per_fight]
            mean = sum(xs) / n
            var = sum((x - mean) ** 2 for x in xs) / (n - 1)
            got = getattr(kt, what)[i] / kt.runs
            # a rare event the engine's fights never saw (or saw once or twice) has too little variance
            # there: at least that of a rare count with the pooled mean, each time the size the engine's
            # fights saw it take (Wounds and damage come in whole numbers, at least 1): var >= mean * size
            pooled = (sum(xs) + getattr(kt, what)[i]) / (n + kt.runs)
            hits = [x for x in xs if x]
            size = sum(hits) / len(hits) if hits else 1.0
            var = max(var, pooled * size * (1 - min(pooled / size, 1.0)))
            if abs(got - mean) > z * (var * (1 / n + 1 / kt.runs)) ** 0.5 + 1e-12:
                bad.append(f"{cid} {what} per fight: kernel {got:.3f}, engine {mean:.3f}")
    return bad


@pytest.mark.parametrize(("case", "kernel_name", "at_least"), CASES)
def test_random_encounters_agree_with_engine(case: int, kernel_name: str, at_least: int) -> None:
    seed, sc, kernel = qualifying(case, kernel_name, at_least)
    kt = kernel.run(KERNEL_RUNS, np.random.default_rng(seed))
    per_fight = [engine_runs(sc.ruleset, sc.state, [s]) for s in run_seeds(17, seed, ENGINE_RUNS)]
    et = Tally(kt.ids, kt.sides)
    for t in per_fight:
        et.merge(t)
    assert kt.runs == KERNEL_RUNS and et.runs == ENGINE_RUNS
    ko, eo = _outcomes(kt, sc.state.max_rounds), _outcomes(et, sc.state.max_rounds)
    z = NormalDist().inv_cdf(1 - 0.0005 / (len(ko) + 2 * len(kt.ids)))
    bad = [
        f"{k}: kernel {ko[k] / kt.runs:.4f}, engine {eo[k] / et.runs:.4f}"
        for k in ko
        if not _same(ko[k], kt.runs, eo[k], et.runs, z)
    ]
    bad += _means_differ(kt, per_fight, z)
    assert not bad, f"seed {seed}: " + "; ".join(bad)
    assert sum(kt.wins) + kt.draws + kt.wipeouts == kt.runs
    assert sum(kt.rounds.values()) == kt.runs
    assert all(sum(s.values()) == kt.runs for s in kt.status)
