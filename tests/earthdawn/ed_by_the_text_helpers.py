"""Helpers for the Earthdawn cases written from the rules text alone, both editions
(tests/ed1/test_ed1_by_the_text.py, tests/ed4/test_ed4_by_the_text.py).

Only the public API is used: an encounter mapping, `Fight` with `ScriptedDice`, `Command`, the ruleset's
`choices` / `validate`, and the events a fight writes. What differs between the editions (the Step/Action
Dice Table, the stat block, Take the Initiative, the do-nothing declaration) is an `Edition`; a case file
binds its own: `ED1.start`, `ED1.who`, `ED1.faces`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from fracas.dice.source import RandomDice, ScriptedDice
from fracas.engine import encounter
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

# The Step/Action Dice Tables, steps 1-19 (ED1: reference 1.2; ED4: reference 1.1); steps 1 and 2 take 2 and
# 1 off the total in both.
ED1_DICE: dict[int, tuple[int, ...]] = {
    1: (4,), 2: (4,), 3: (4,), 4: (6,), 5: (8,), 6: (10,), 7: (12,), 8: (6, 6), 9: (8, 6), 10: (10, 6),
    11: (10, 8), 12: (10, 10), 13: (12, 10), 14: (20, 4), 15: (20, 6), 16: (20, 8), 17: (20, 10),
    18: (20, 12), 19: (20, 6, 6),
}  # fmt: skip
ED4_DICE: dict[int, tuple[int, ...]] = {
    1: (4,), 2: (4,), 3: (4,), 4: (6,), 5: (8,), 6: (10,), 7: (12,), 8: (6, 6), 9: (8, 6), 10: (8, 8),
    11: (10, 8), 12: (10, 10), 13: (12, 10), 14: (12, 12), 15: (12, 6, 6), 16: (12, 8, 6), 17: (12, 8, 8),
    18: (12, 10, 8), 19: (20, 6, 6),
}  # fmt: skip
STEP_MOD = {1: -2, 2: -1}

# The entry fields of a combatant (the rest of `who`'s keywords are stat block values)
ENTRY_KEYS = {
    "tactic",
    "combat_options",
    "options",
    "hidden",
    "facing",
    "altitude",
    "template",
    "equipment",
    "count",
}

# The declaration of someone the case does not plan for: ED1 declares a general action before Initiative
# ("other": neither attack nor spell); ED4 declares only combat options ("act": none).
NOTHING_DECLARED = {"ed1": "other", "ed4": "act"}


def faces_for(dice: tuple[int, ...], step: int, total: int) -> list[int]:
    """Faces of `dice` that make a test at `step` total exactly `total`, no die exploding, not every die a
    1."""
    out = [1] * len(dice)
    rest = total - STEP_MOD.get(step, 0) - len(dice)
    assert rest >= 0, f"step {step} cannot total {total}"
    for i, sides in enumerate(dice):
        add = min(rest, sides - 2)
        out[i] += add
        rest -= add
    assert rest == 0, f"step {step} cannot total {total} without a bonus die"
    assert len(dice) < 2 or any(f != 1 for f in out), "that would be the Rule of One"
    return out


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition's fights: its ruleset, its dice table, its plain stat block."""

    id: str
    dice: dict[int, tuple[int, ...]]
    # the Initiative faces of `duel`'s hero and foe (ED4's gamemaster characters take their step: none)
    duel_initiative: tuple[int, ...]

    @property
    def ruleset(self) -> Any:
        return get_ruleset(self.id)

    def faces(self, step: int, total: int, table: dict[int, tuple[int, ...]] | None = None) -> list[int]:
        """Faces that make a test at `step` total exactly `total` (this edition's table unless `table`)."""
        return faces_for((table or self.dice)[step], step, total)

    def block(self, **overrides: Any) -> dict[str, Any]:
        """A creature-format stat block with round numbers: Initiative step 5 (d8), PD 8, WT 8, UR 20, DR
        25, Movement 10 (ED1: Combat Movement 10 and Full Movement 20 yards), a Sword at step 10 with
        damage step 8."""
        stats: dict[str, Any] = {
            "dexterity": 12,
            "strength": 12,
            "toughness": 12,
            "perception": 10,
            "willpower": 10,
            "charisma": 10,
            "initiative": 5,
            "physical_defense": 8,
            "mystic_defense": 8,
            "social_defense": 8,
            "physical_armor": 0,
            "mystic_armor": 0,
            "wound_threshold": 8,
            "unconsciousness": 20,
            "death": 25,
            "knockdown": 5,
            "recovery_tests": 2,
            "movement": 10,
            "attacks": [{"name": "Sword", "kind": "melee", "step": 10, "damage": 8}],
        }
        if self.id == "ed1":
            stats["full_movement"] = 20
        stats.update(overrides)
        return stats

    def who(
        self, cid: str, at: list[int] | None = None, player: bool = False, **extra: Any
    ) -> dict[str, Any]:
        """A combatant entry with a stat block (keys of `extra` that are entry fields go on the entry)."""
        entry: dict[str, Any] = {"id": cid, "name": cid.capitalize(), "player": player}
        if at is not None:
            entry["at"] = at
        stats = {k: v for k, v in extra.items() if k not in ENTRY_KEYS}
        entry.update({k: v for k, v in extra.items() if k in ENTRY_KEYS})
        if "template" not in entry:
            entry["stats"] = self.block(**stats)
        elif stats:
            entry["stats"] = stats
        return entry

    def start(
        self,
        heroes: list[dict[str, Any]],
        foes: list[dict[str, Any]],
        faces: list[int],
        *,
        options: dict[str, Any] | None = None,
        map_: dict[str, Any] | None = None,
        roll_initiative: bool = False,
    ) -> Fight:
        """A fight of two sides. In ED4, unless `roll_initiative`, gamemaster characters take their
        Initiative step as the result (Take the Initiative, p.372), so no Initiative dice are scripted for
        them."""
        options = dict(options or {})
        if not roll_initiative and self.id == "ed4":
            options.setdefault("take-the-initiative", True)
        data: dict[str, Any] = {
            "version": 1,
            "ruleset": self.id,
            "sides": [{"name": "Heroes", "combatants": heroes}, {"name": "Foes", "combatants": foes}],
        }
        if options:
            data["options"] = options
        if map_:
            data["map"] = map_
        _spec, state = encounter.load_data(data, "<by the text>")
        return Fight(self.ruleset, state, ScriptedDice(list(faces)))

    def duel(
        self,
        hero: dict[str, Any] | None = None,
        foe: dict[str, Any] | None = None,
        init: tuple[int, ...] | None = None,
        **kw: Any,
    ) -> Fight:
        """Hero (creature Initiative step 7, d12) next to a foe (step 5, d8); `init`: their Initiative faces
        (ED1: 6 and 3; ED4: none, nobody rolls)."""
        hero = hero or self.who("hero", [0, 0], initiative=7)
        foe = foe or self.who("foe", [1, 0])
        return self.start([hero], [foe], list(self.duel_initiative if init is None else init), **kw)


ED1 = Edition("ed1", ED1_DICE, (6, 3))
ED4 = Edition("ed4", ED4_DICE, ())

# A plan of declarations: actor -> (general action, target[, combat options])
Plan = dict[str, tuple[str, str | None] | tuple[str, str | None, list[str]]]


def passive(fight: Fight, d: Decision, plan: Plan | None = None) -> Command:
    """The answer of someone the case does not play: the declaration of `plan` (or none), end the turn, pass
    a reaction, wait when delayed."""
    if d.kind == "declare":
        entry = (plan or {}).get(d.actor, (NOTHING_DECLARED[fight.ruleset.id], None))
        args: dict[str, Any] = {"action": entry[0]}
        if len(entry) > 2:
            args["options"] = list(entry[2])  # type: ignore[misc]
        return Command(d.actor, "declare", entry[1], args)
    if d.kind == "react":
        return Command(d.actor, "pass", None, {})
    if d.kind == "delayed":
        return Command(d.actor, "wait", None, {})
    return Command(d.actor, "end", None, {})


def until(
    fight: Fight, actor: str, kind: str = "act", faces: list[int] | None = None, plan: Plan | None = None
) -> Decision:
    """Advance until `actor` must decide `kind`, everyone else answering as `passive` does (declarations
    follow `plan`: actor -> (action, target[, options])). `faces` replaces the dice script first."""
    if faces is not None:
        fight.dice = ScriptedDice(list(faces))
    for _ in range(200):
        d = fight.advance_until_decision()
        assert d is not None, f"the fight ended before {actor} had to decide {kind}"
        if d.actor == actor and d.kind == kind:
            return d
        fight.submit(passive(fight, d, plan))
    raise AssertionError(f"{actor} never had to decide {kind}")


def play(fight: Fight, cmd: Command, faces: list[int]) -> list[ev.Event]:
    """Submit `cmd` with exactly `faces` on the dice; every face must be used."""
    dice = ScriptedDice(list(faces))
    fight.dice = dice
    out = fight.submit(cmd)
    assert dice.remaining == 0, f"{dice.remaining} scripted faces left unused: {out}"
    return out


def rolls(events: list[ev.Event], test: str | None = None, actor: str | None = None) -> list[ev.Rolled]:
    out = [e for e in events if isinstance(e, ev.Rolled)]
    if test is not None:
        out = [e for e in out if test.lower() in e.test.lower()]
    if actor is not None:
        out = [e for e in out if e.actor == actor]
    return out


def one_roll(events: list[ev.Event], test: str, actor: str | None = None) -> ev.Rolled:
    found = rolls(events, test, actor)
    assert len(found) == 1, f"expected one {test} test, found {found} in {events}"
    return found[0]


def damaged(events: list[ev.Event], target: str) -> list[ev.Damaged]:
    return [e for e in events if isinstance(e, ev.Damaged) and e.target == target]


def statuses(events: list[ev.Event], target: str) -> list[str]:
    return [e.status for e in events if isinstance(e, ev.StatusChanged) and e.target == target]


def initiative(fight: Fight, actor: str, rnd: int | None = None) -> ev.InitiativeRolled:
    """The Initiative event of `actor` in round `rnd` (the latest when None)."""
    current = 0
    found: ev.InitiativeRolled | None = None
    for e in fight.log:
        if isinstance(e, ev.RoundStarted):
            current = e.round
        if isinstance(e, ev.InitiativeRolled) and e.actor == actor and (rnd is None or current == rnd):
            found = e
    assert found is not None, f"no Initiative for {actor} in round {rnd}"
    return found


def order(fight: Fight, rnd: int | None = None) -> tuple[str, ...]:
    current = 0
    found: tuple[str, ...] | None = None
    for e in fight.log:
        if isinstance(e, ev.RoundStarted):
            current = e.round
        if isinstance(e, ev.OrderSet) and (rnd is None or current == rnd):
            found = tuple(e.order)
    assert found is not None
    return found


def c(fight: Fight, cid: str) -> Any:
    return fight.state.combatants[cid]


def offered_are_legal(path: str, seed: int, decisions: int) -> list[str]:
    """Play the encounter file under its tactics (random dice from `seed`); at each of the first `decisions`
    decisions, every command `choices` offers must pass `validate` and resolve (on a copy of the state).
    Returns the offending commands (empty when offered equals legal)."""
    data = yaml.safe_load(Path(path).read_text())
    ruleset = get_ruleset(data["ruleset"])
    _spec, state = encounter.load_data(data, path)
    fight = Fight(ruleset, state, RandomDice(seed))
    fight.log = None
    bad: list[str] = []
    for i in range(decisions):
        d = fight.advance_until_decision()
        if d is None:
            break
        for cmd in ruleset.choices(fight.state, d):
            try:
                ruleset.validate(fight.state, cmd)
                branch = copy.copy(fight)
                branch.state = copy.deepcopy(fight.state)
                branch.dice = RandomDice(seed * 1000 + i)
                branch.submit(cmd)
            except Exception as e:  # noqa: BLE001 - any refusal or crash of an offered command is the finding
                bad.append(f"round {fight.state.round}: {cmd}: {type(e).__name__}: {e}")
        fight.submit(fight.auto_command(d))
    return bad
