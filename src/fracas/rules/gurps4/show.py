"""How the GURPS ruleset shows a fight: a line of the narrated log for an event, a combatant's card, the odds
of an attack before it is rolled."""

from __future__ import annotations

from typing import Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import core
from fracas.rules.gurps4.attack_roll import attack_roll_parts
from fracas.rules.gurps4.figure import ATTACK_MANEUVERS, S, dodge_now, hp_now, move_now


def narrate(event: ev.Event, state: FightState) -> str | None:
    from fracas.engine.narrate import modifiers_text

    if isinstance(event, ev.Rolled):
        who = state.combatants[event.actor].name if event.actor in state.combatants else event.actor
        test = core.ids_in_words(event.test)
        tgt = f" vs {state.combatants[event.target].name}" if event.target in state.combatants else ""
        faces = "+".join(str(d[1]) for d in event.roll.get("dice", ()))
        mods = f" [{modifiers_text(event.modifiers)}]" if event.modifiers else ""
        if event.under:
            verdict = event.outcome + (f" by {abs(event.extra)}" if event.extra else " by 0")
            roll = f"3d6 ({faces}) = {event.total} vs {event.dn}"
            return f"  {who}: {test}{tgt}: {roll} -> {verdict}{mods}"
        return f"  {who}: {test}{tgt}: {event.expr} ({faces}) = {event.total}{mods} [{event.rule}]"
    if isinstance(event, ev.Moved) and (event.altitude is not None or not event.path):
        c = state.combatants.get(event.actor)
        if c is None or (not event.path and event.altitude is None):
            return ""
        up = f"{event.altitude} yd up" if event.altitude else "on the ground"
        if not event.path and event.mode == "retreat":
            return f"  {c.name} retreats 1 yd upward (now {up}) [{event.rule}]"
        if not event.path:
            verb = {"step": "steps", "move": "moves", "ride": "rides"}.get(event.mode, event.mode + "s")
            return f"  {c.name} {verb} straight up or down (now {up}) [{event.rule}]"
        where = f"to ({event.path[-1][0]}, {event.path[-1][1]})"
        return f"  {c.name} {event.mode}s {where}, {up} [{event.rule}]"
    if isinstance(event, ev.ConditionRemoved) and event.name == "shock":
        return ""  # the shock penalty shows on the rolls it changes
    if isinstance(event, ev.FightEnded) and event.winner:
        fighters = [c for c in state.combatants.values() if c.side == event.winner and not S(c).mount]
        verb = "wins" if len(fighters) == 1 else "win"
        rounds = f"{event.rounds} round{'s' if event.rounds != 1 else ''}"
        return f"\n== {event.winner} {verb} after {rounds} ({event.reason})."
    if isinstance(event, ev.Damaged):
        t = state.combatants.get(event.target)
        left = f", {hp_now(t)}/{S(t).hp} HP left" if t else ""
        return (
            f"  {t.name if t else event.target} takes {event.amount} injury"
            f" ({event.raw} {event.damage_type} - DR {event.armor}){left} [{event.rule}]"
        )
    if isinstance(event, ev.ConditionAdded) and event.name == "shock":
        name = state.combatants[event.target].name
        return f"  {name}: shock {event.value} on the next turn [{event.rule}]"
    if isinstance(event, ev.Marked) and event.target in state.combatants:
        line = _mark_line(event, state.combatants[event.target], state)
        if line is not None:
            return line
    if isinstance(event, ev.Marked) and event.key == "maneuver" and event.value not in ATTACK_MANEUVERS:
        c = state.combatants.get(event.target)
        if event.value in ("move", "wait", "aim", "evaluate", "ready", None) or c is None:
            return ""  # a Move shows as its movement; Wait, Aim, Evaluate and Ready by what they do
        return f"  {c.name}: {core.maneuver_words(str(event.value))}"
    if isinstance(event, ev.Marked | ev.ExtraSet):
        return ""
    return None


def _mark_line(event: ev.Marked, c: Combatant, state: FightState) -> str | None:
    """Aim, Evaluate and Ready read by what they do (B364-366)."""
    rule = f" [{event.rule}]" if event.rule else ""

    def name(cid: Any) -> str:
        return state.combatants[cid].name if cid in state.combatants else str(cid)

    if event.key == "aim" and event.value:
        tid, weapon, turns = event.value
        turns_text = f"{turns} turn{'s' if turns != 1 else ''}"
        return f"  {c.name}: Aim {core.weapon_words(weapon)} at {name(tid)} ({turns_text}){rule}"
    if event.key == "evaluate" and event.value:
        return f"  {c.name}: Evaluate {name(event.value[0])} (+{event.value[1]}){rule}"
    if event.key == "wielding" and event.rule:
        return f"  {c.name}: Ready {core.weapon_words(str(event.value))}{rule}"
    if event.key == "shield_unready" and event.value is None and event.rule:
        return f"  {c.name}: Ready (shield){rule}"
    if event.key in ("reload", "unready") and event.rule and c.marks.get("maneuver") == "ready":
        weapon = core.weapon_words(c.marks.get("wielding") or "weapon")
        if event.value:
            return f"  {c.name}: Ready ({weapon}: {event.value} more Ready to go){rule}"
        return f"  {c.name}: Ready ({weapon} ready to use){rule}"
    return None


def card(combatant: Combatant) -> dict[str, Any]:
    st = S(combatant)
    return {
        "HP": f"{hp_now(combatant)}/{st.hp}",
        "Basic Speed": st.basic_speed,
        "Move": move_now(combatant)
        if not st.flies
        else f"{move_now(combatant)} (air {move_now(combatant, air=True)})",
        "Dodge": dodge_now(combatant)[0],
        "posture": combatant.marks.get("posture", "standing"),
        "altitude": combatant.altitude,
        "riding": combatant.marks.get("mount"),
        "rider": combatant.marks.get("rider"),
        "conditions": sorted(combatant.conditions),
    }


def odds(state: FightState, command: Command) -> str | None:
    if command.action != "attack" or command.target not in state.combatants:
        return None
    a, t = state.combatants[command.actor], state.combatants[command.target or ""]
    atk = S(a).attack(command.args.get("weapon", ""))
    if atk is None:
        return None
    base, mods, cap = attack_roll_parts(
        state, a, t, atk, command.args.get("maneuver", "attack"), command.args
    )
    eff, _ = core.effective_value(base, mods, cap)
    kind = "ranged" if atk.ranged else "melee"
    return f"to hit at effective {eff}: {100 * core.success_odds(eff, kind):.1f}% before {t.name}'s defense"
