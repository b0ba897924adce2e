"""What the Spells & Swords rules read off the state: the map (underwater), who is a
foe and who stands next to whom, and the hands and weapons a combatant can still use.
"""

from __future__ import annotations

from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.rules.sas.fold import held
from fracas.rules.sas.model import HAND_PARTS
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import Tables


def dual_weapons(c: Combatant, t: Tables) -> list[str]:
    """DUAL WIELD: the one-handed melee weapons a combatant has in hand to wield, one in each hand (not one
    broken by a fumble, nor one he has dropped and not picked up: FUMBLE TABLE, DISARMED)."""
    gone = (*c.marks.get("broken_weapons", ()), c.marks.get("dropped"))
    return [
        w for w in c.stats.weapons if t.weapons[w].hands == 1 and not t.weapons[w].ranged and w not in gone
    ]


def hands_left(c: Combatant) -> tuple[int, str, str]:
    """The hands a combatant can still use, with why and the rule: MAJOR WOUND TABLE 4 "Lost Limb ... loss of
    Arm or Hand" and BODY PART BROKEN "A Broken Arm or Hand make those parts unusable" leave one hand (a
    second broken arm or hand is not taken to be the other one: the text names no side, docs/rulesets/sas.md
    Game master's calls). A healed break (remove-broken) gives the hand back."""
    if c.marks.get("lost_arm"):
        return 1, "has lost an arm or hand", rule("major-wounds", "lost-limb")
    for part in c.marks.get("broken", ()):
        if part in HAND_PARTS:
            return 1, f"has a broken {part}", rule("body-part-broken")
    return 2, "", ""


def underwater(state: FightState) -> bool:
    return bool(state.extra.get("map", {}).get("underwater"))


def foes_of(state: FightState, c: Combatant, seen_only: bool = True) -> list[Combatant]:
    return [
        f
        for f in state.combatants.values()
        if f.side != c.side and f.status == "active" and not (seen_only and f.hidden)
    ]


def adjacent_foes(state: FightState, c: Combatant) -> list[Combatant]:
    """The foes next to ``c`` (not Knocked Out), remembered while a tactic weighs its proposals (see
    ``fold.views_held``): callers only read the list."""
    memo = held(state, c)
    key = ("adjacent", c.id)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
    out: list[Combatant] = []
    if c.pos is not None:
        cq, cr = c.pos
        side = c.side
        for f in state.combatants.values():
            if f.side == side or f.status != "active" or f.pos is None:
                continue
            a, b = f.pos[0] - cq, f.pos[1] - cr  # within one space (hex distance <= 1)
            if -1 <= a <= 1 and -1 <= b <= 1 and -1 <= a + b <= 1 and "knocked-out" not in f.conditions:
                out.append(f)
    if memo is not None:
        memo[key] = out
    return out


def dist(a: Combatant, b: Combatant) -> int:
    if a.pos is None or b.pos is None:
        return 1
    return distance(a.pos, b.pos)
