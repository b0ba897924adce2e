"""Helpers for the Spells & Swords cases written from the rules text (004_0d1ac50b56c23caf.txt).

Each case builds a small encounter, forces every die with ScriptedDice and plays it through the public
engine API (Fight, Command, the ruleset's choices and validate), then reads final values from the state
and the events.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from fight_helpers import encounter_state, fight, two_sides
from fracas.dice.source import DiceError, ScriptedDice
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.play import Fight
from fracas.errors import IllegalCommand
from fracas.rules.registry import get_ruleset

R = get_ruleset("sas")

# A plain human: no armor, helmet, shield, skill or bonus, an ordinary weapon (mace), Wound Level 4.
PLAIN: dict[str, Any] = {
    "kind": "human",
    "size": "human",
    "movement": 6,
    "wound_level_base": 4,
    "weapons": ["mace"],
}


def unit(
    uid: str,
    at: tuple[int, int] | list[int],
    facing: int | None = None,
    opts: dict | None = None,
    *,
    template: str | None = None,
    hidden: bool = False,
    **stats: Any,
) -> dict[str, Any]:
    """A combatant entry: the plain human (or a bestiary ``template``) with the given stat overrides."""
    entry: dict[str, Any] = {"id": uid, "name": uid, "at": list(at)}
    if template:
        entry["template"] = template
        if stats:
            entry["stats"] = dict(stats)
    else:
        entry["stats"] = {**PLAIN, **stats}
    if facing is not None:
        entry["facing"] = facing
    if opts:
        entry["options"] = opts
    if hidden:
        entry["hidden"] = True
    return entry


@contextmanager
def _forced() -> Iterator[None]:
    """A die the case did not force is a die the text does not roll there: an assertion, not a crash."""
    try:
        yield
    except DiceError as exc:
        raise AssertionError(f"a die the case did not force was rolled: {exc}") from exc


@dataclass(slots=True)
class Play:
    """A fight driven one forced step at a time; ``log`` keeps every event since the start."""

    fight: Fight
    log: list[ev.Event] = field(default_factory=list)
    decision: Decision | None = None
    unused: list[int] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.fight.state

    def c(self, uid: str) -> Any:
        return self.fight.state.combatants[uid]

    def advance(self, faces: list[int] | tuple[int, ...] = ()) -> Decision | None:
        """Run the automatic events (round starts, bleeds, ...) with exactly ``faces``."""
        self.fight.dice = ScriptedDice(list(faces))
        n = len(self.fight.log)
        with _forced():
            self.decision = self.fight.advance_until_decision()
        self.log.extend(self.fight.log[n:])
        self.unused.extend(self.fight.dice.faces[self.fight.dice.position :])
        return self.decision

    def act(
        self,
        action: str,
        target: str | None = None,
        faces: list[int] | tuple[int, ...] = (),
        after: list[int] | tuple[int, ...] = (),
        **args: Any,
    ) -> list[ev.Event]:
        """The deciding combatant does ``action`` with exactly ``faces``; then play on to the next
        decision with exactly ``after``. Returns the events of both."""
        assert self.decision is not None, "no decision pending"
        cmd = Command(self.decision.actor, action, target, dict(args))
        self.fight.dice = ScriptedDice(list(faces))
        n = len(self.fight.log)
        with _forced():
            self.fight.submit(cmd)
        self.log.extend(self.fight.log[n:])
        self.unused.extend(self.fight.dice.faces[self.fight.dice.position :])
        self.advance(after)
        out = self.fight.log[n:]
        return out

    def wait_for(self, actor: str, rnd: int | None = None) -> None:
        """Everyone else does nothing (no dice) until ``actor`` decides (in round ``rnd`` when given)."""
        while self.decision is not None and (
            self.decision.actor != actor or (rnd is not None and self.fight.state.round != rnd)
        ):
            self.act("nothing")
        assert self.decision is not None, "the fight ended"

    def done(self) -> None:
        """Every forced face was used: the case forced exactly the dice the rules rolled."""
        assert not self.unused, f"faces forced but never rolled: {self.unused}"

    def offered(self, action: str | None = None) -> list[Command]:
        """The commands offered to the deciding combatant (of one action when named)."""
        assert self.decision is not None
        return [c for c in R.choices(self.fight.state, self.decision) if action is None or c.action == action]

    def legal(self, action: str, target: str | None = None, **args: Any) -> bool:
        """Whether ``validate`` accepts the command for the deciding combatant."""
        assert self.decision is not None
        try:
            R.validate(self.fight.state, Command(self.decision.actor, action, target, dict(args)))
        except IllegalCommand:
            return False
        return True

    def rolls(self, test: str, actor: str | None = None) -> list[ev.Rolled]:
        return [
            e
            for e in self.log
            if isinstance(e, ev.Rolled) and e.test == test and (actor is None or e.actor == actor)
        ]

    def show(self) -> str:
        return "\n".join(json.dumps(ev.to_json(e)) for e in self.log)


def start(
    side_a: list[dict],
    side_b: list[dict],
    faces: list[int] | tuple[int, ...] = (20, 1),
    *,
    options: dict | None = None,
    settings: dict | None = None,
    map: dict | None = None,
    side_c: list[dict] | None = None,
) -> Play:
    """An encounter of the given sides; side a wins Initiative with the default faces (20 against 1).
    The Brawl Rule is off unless ``options`` turns it on, so a melee attack is a weapon attack."""
    sides = two_sides(side_a, side_b, ("a", "b"))
    if side_c:
        sides.append({"name": "c", "combatants": side_c})
    top: dict[str, Any] = {"settings": settings} if settings else {}
    options = {"brawl-rule": False, **(options or {})}
    map_ = {"extra": {"keep_facing": True}, **(map or {})}
    state = encounter_state("sas", sides, source="<by-the-text>", options=options, map=map_, **top)
    play = Play(fight(state))
    play.advance(faces)
    return play


def mods(roll: ev.Rolled) -> dict[str, int]:
    """The modifiers of a roll by their reason (summed when one reason appears twice)."""
    out: dict[str, int] = {}
    for value, why, _rule in roll.modifiers:
        out[why] = out.get(why, 0) + value
    return out


@dataclass(slots=True)
class SameFace:
    """Every die shows ``face`` (or its largest face when smaller): forced dice for cases that try every
    offered command, where each command rolls its own number of dice."""

    face: int

    def roll(self, sides: int, why: str = "") -> int:
        return min(self.face, sides)


def try_every_offer(play: Play, faces: tuple[int, ...] = (1, 10, 20)) -> list[str]:
    """Every command offered to the deciding combatant passes ``validate`` and resolves on a copy of the
    fight, with every die at each of ``faces``. Returns the problems found (empty when all is well)."""
    problems: list[str] = []
    state = play.fight.state
    for cmd in R.choices(state, play.decision):
        try:
            R.validate(state, cmd)
        except IllegalCommand as exc:
            problems.append(f"offered but refused: {cmd.action} {cmd.target} {cmd.args}: {exc}")
            continue
        for face in faces:
            copy = Fight(R, state.clone(), SameFace(face))
            try:
                copy.submit(cmd)
                copy.advance_until_decision()
            except Exception as exc:  # noqa: BLE001 - any crash of an offered command is the finding
                problems.append(
                    f"offered but fails with dice {face}: {cmd.action} {cmd.target} {cmd.args}: "
                    f"{type(exc).__name__}: {exc}"
                )
    return problems
