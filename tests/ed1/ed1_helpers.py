"""Helpers for the ED1 tests: fights from small encounter mappings (tests/fight_helpers.py plays them), the
declarations before Initiative, a hero and a foe."""

from __future__ import annotations

from typing import Any

from fight_helpers import auto, encounter_state, fight, two_sides
from fracas.engine.commands import Command
from fracas.engine.play import Fight
from fracas.rules.registry import get_ruleset

ED1 = get_ruleset("ed1")
TEXT = "001_694a1556573a8dc9.txt"


def build(
    sides: list[dict[str, Any]], options: dict[str, Any] | None = None, ruleset: str = "ed1", **extra: Any
) -> Any:
    return encounter_state(ruleset, sides, name="test", options=options or {}, **extra)


def declare(f: Fight, plan: dict[str, Command]) -> None:
    """Submit the declarations of ``plan`` (actor -> declare command); tactics declare for the others."""
    for _ in range(100):
        d = f.advance_until_decision()
        if d is None or d.kind != "declare":
            return
        f.submit(plan.get(d.actor) or f.auto_command(d))
    raise AssertionError("declarations never ended")


def decl(actor: str, what: str, target: str | None = None, **args: Any) -> Command:
    """A declaration before Initiative: the general action ``what`` (and its target, options)."""
    return Command(actor, "declare", target, {"action": what, **args})


# A player character and a creature for the chapter's cases: the hero (Sword with Karma, Bow, Flame Flash)
# at (0, 0) and the foe next to him, both held by the hold tactic unless a case plays them.
HERO: dict[str, Any] = {
    "kind": "character",
    "dex_step": 5,
    "str_step": 5,
    "toughness": 12,
    "physical_defense": 7,
    "mystic_defense": 8,
    "physical_armor": 3,
    "mystic_armor": 1,
    "movement": 12,
    "karma": 3,
    "karma_step": 4,
    "attacks": [
        {"name": "Sword", "step": 8, "damage": 9, "karma": True},
        {"name": "Bow", "kind": "missile", "step": 8, "damage": 7, "range": [20, 40]},
        {
            "name": "Flame Flash",
            "kind": "spell",
            "step": 9,
            "damage": 8,
            "against": "mystic",
            "armor": "mystic",
        },
    ],
}
FOE: dict[str, Any] = dict(HERO, kind="creature", initiative=5, karma=0)


def hero_and_foe(
    foe_first: bool = False, options: dict | None = None, foe: dict | None = None, at: tuple = (1, 0)
) -> Any:
    """The state: the hero at (0, 0), the foe (``foe`` stats or FOE) at ``at``; the foes' side listed first
    when ``foe_first``."""
    hero = {"id": "hero", "name": "Hero", "player": True, "tactic": "hold", "stats": HERO, "at": [0, 0]}
    them = {"id": "foe", "name": "Foe", "tactic": "hold", "stats": foe or FOE, "at": list(at)}
    if foe_first:
        return build(two_sides(them, hero, ("Foes", "Heroes")), options)
    return build(two_sides(hero, them, ("Heroes", "Foes")), options)


def after_initiative(state: Any, faces: list[int], plan: dict | None = None) -> Any:
    """A fight of ``state`` past the declarations of ``plan`` and the Initiative tests (dice ``faces``)."""
    f = fight(state, faces)
    declare(f, plan or {})
    f.advance_until_decision()
    return f


def at_heros_turn(faces: list[int], plan: dict | None = None, **kw: Any) -> tuple[Any, Any]:
    """The hero's turn (Initiative 6 against the foe's 2), the hero having declared by ``plan`` (an attack on
    the foe); then the dice ``faces``."""
    state = hero_and_foe(**kw)
    f = fight(state, [6, 2, *faces])  # hero Initiative 6, foe 2
    declare(f, plan or {"hero": decl("hero", "attack", "foe")})
    auto(f, "hero")
    return state, f
