"""What an attack command would roll, before it is made: its attack modifiers (read from where its move
would end) and its exact odds on the ATTACK TABLE.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command
from fracas.engine.hexgrid import Hex, direction_to, distance
from fracas.engine.state import Combatant, Condition, FightState
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.sas.actions import ATTACK_ACTIONS, CRY_ACTIONS, PREVIEW_MOVES
from fracas.rules.sas.actions.charge import hurl_path
from fracas.rules.sas.actions.mass import horde_helpers
from fracas.rules.sas.attack import foe_bonus_view, situation
from fracas.rules.sas.fold import view
from fracas.rules.sas.movement import closing_reach, path_to
from fracas.rules.sas.procedures.attack import Situation, attack_modifiers
from fracas.rules.sas.procedures.brawl import brawl_applies
from fracas.rules.sas.readers import dist
from fracas.rules.sas.tables import tables


def attack_modifiers_now(state: FightState, command: Command) -> tuple[list[Modifier], Situation] | None:
    """The modifiers of the attack roll ``command`` would make now, and its situation (ATTACK TABLE
    MODIFIERS): a closing attack is read from where its move would end, a charge with ``battle_cry``
    with the cry, as the roll is (what reactions to the move would do is not foreseen); None for a
    command that makes no attack roll this can weigh (not an attack, a Trample, no such combatant, a
    closing move that cannot end next to the target, a ranged weapon out of its reach)."""
    if command.action not in ATTACK_ACTIONS or command.action == "trample" or not command.target:
        return None
    c = state.combatants.get(command.actor)
    target = state.combatants.get(command.target)
    if c is None or target is None:
        return None
    if command.args.get("battle_cry") and command.action in CRY_ACTIONS and not c.has("battle-cry"):
        # CHARGE RULES "may be combined with a Battle Cry": the cry is raised as he charges and counts on
        # the charge's own attack (``actions.charge._with_charge``); the preview has it too (its length does
        # not matter)
        c = c.clone()
        c.conditions["battle-cry"] = Condition("battle-cry", state.round + 1, 0, "Battle Cry")
    kw: dict[str, Any] = {"weapon": command.args.get("weapon")}
    if command.action in PREVIEW_MOVES and dist(c, target) > 1 and target.pos is not None:
        # the attack is rolled where the move ends (next to the target; a Hurling Charge where the
        # throw becomes possible): read it from there, as the roll does (``movement.moved_copy``)
        end = _preview_end(state, c, target, command.action)
        if end is None:
            return None  # he cannot get there this turn: no attack roll
        c = c.clone()
        c.pos, c.facing = end, direction_to(end, target.pos)
        c.marks["moved_round"] = state.round
    if command.action in ("horde", "dog-pile"):
        n = 1 + len(horde_helpers(state, c, target))
        kw["horde" if command.action == "horde" else "dog_pile"] = n
    try:
        sit = situation(state, c, target, command.action, **kw)
        if sit.ranged is False and dist(c, target) > 1 and tables().weapons[sit.weapon or "unarmed"].ranged:
            return None
        dfn, _ = foe_bonus_view(view(state, target), target.marks.get("foe_bonus_used"), c.id)
        return attack_modifiers(view(state, c), dfn, sit), sit
    except IllegalCommand:
        return None


def _preview_end(state: FightState, c: Combatant, target: Combatant, action: str) -> Hex | None:
    """Where ``action``'s move would leave ``c`` before its attack roll (the path the action itself
    takes), or None when that is not next to the target (a Hurling Charge throws from wherever it
    stops)."""
    assert target.pos is not None
    if action == "hurling-charge":  # he throws where the charge stops (where he stands if it cannot go)
        path = hurl_path(state, c, target)
        return path[-1] if path else c.pos
    spaces = (
        dist(c, target)  # Leap Attack: a pounce from above, as far as its height allows
        if action == "leap-attack"
        else closing_reach(state, c, action)
    )
    path = path_to(state, c, target.pos, spaces, stop_adjacent=True)
    return path[-1] if path and distance(path[-1], target.pos) <= 1 else None


def odds(state: FightState, command: Command) -> str | None:
    """Exact odds of an attack roll on the ATTACK TABLE (1D20, every face equally likely), with the
    modifiers ``attack_modifiers_now`` finds (a closing attack's from where its move would end)."""
    found = attack_modifiers_now(state, command)
    if found is None:
        return None
    mods, sit = found
    c = state.combatants[command.actor]
    target = state.combatants[command.target or ""]
    m = sum(x.value for x in mods)
    faces = range(2, 21)
    hit = sum(1 for f in faces if f + m >= 10) / 20
    crit = sum(1 for f in faces if f + m >= 20) / 20
    fumble = (1 + sum(1 for f in faces if f + m <= 3)) / 20
    brawl = (
        state.options.get("brawl-rule", True)
        and brawl_applies(view(state, c), view(state, target), sit.ranged)
        and command.action not in ("horde", "dog-pile")
    )
    note = "; 50% of melee attacks become Random Brawl Attacks" if brawl else ""
    return f"hit {hit:.0%} (critical {crit:.0%}), fumble {fumble:.0%}, modifiers {m:+d}{note}"
