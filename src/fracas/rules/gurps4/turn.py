"""The GURPS turn (B363): what is pending, the round and turn order, and the start and end of a figure's
turn (shock, consciousness, panic, stun)."""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Decision
from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.rules.gurps4 import core, mounted
from fracas.rules.gurps4.figure import ATTACK_KEY, ATTACK_MANEUVERS, S, Work, hp_now, scratch
from fracas.rules.gurps4.injury import knocked_out

STUN_RULE = "gurps4/core/stun B420"


def pending(state: FightState) -> Decision | None:
    if state.ended:
        return None
    att = state.extra.get(ATTACK_KEY)
    if att:
        a, d = state.combatants[att["attacker"]], state.combatants[att["defender"]]
        return Decision(d.id, "react", f"{a.name} attacks {d.name} with {att['attack']}: defend?")
    if state.phase == "act":
        cur = state.current
        if cur is not None and cur not in state.acted and state.combatants[cur].active:
            return Decision(cur, "act", f"{state.combatants[cur].name}: choose a maneuver")
    return None


def advance(state: FightState, dice: DiceSource) -> list[ev.Event]:
    if state.phase in ("start", "started"):
        order = turn_order(state, dice)
        return [
            ev.ExtraSet("gurps_order", tuple(order)),
            ev.RoundStarted(1),
            ev.OrderSet(tuple(order), "gurps4/core/turn-order B363"),
        ]
    if state.phase == "round-end":
        return [
            ev.RoundStarted(state.round + 1),
            ev.OrderSet(tuple(state.extra["gurps_order"]), "gurps4/core/turn-order B363"),
        ]
    cur = state.current
    if cur is not None and cur not in state.acted:
        # the actor dropped out during its own turn (or cannot act): close the turn
        w = Work(scratch(state), dice)
        end_turn(w, w.c(cur))
        return w.events
    nxt = next_actor(state)
    if nxt is None:
        return [ev.RoundEnded(state.round)]
    w = Work(scratch(state), dice)
    start_turn(w, w.c(nxt))
    return w.events


def turn_order(state: FightState, dice: DiceSource) -> list[str]:
    fighters = [(c.id, S(c).basic_speed, S(c).dx) for c in state.combatants.values()]
    return core.turn_order(fighters, dice)


def next_actor(state: FightState) -> str | None:
    start = state.turn + 1 if state.turn >= 0 else 0
    for cid in state.order[start:]:
        if cid not in state.acted and state.combatants[cid].active:
            return cid
    return None


def start_turn(w: Work, c: Combatant) -> None:
    w.emit(ev.TurnStarted(c.id))
    for key, value in (
        ("retreated", None),
        ("parries", None),
        ("blocked", None),
        ("moved", None),
        ("attacked", None),
        ("trick", None),
        ("waiting", None),
    ):
        w.mark(c, key, value)
    if c.marks.get("stun_recovered"):
        # recovered at the end of the last turn: stunned (-4 to defenses, no retreat) until now (B420;
        # reference 1.6: "after recovery the -4 lasts until the next turn")
        w.mark(c, "stun_recovered", None, STUN_RULE)
        w.emit(ev.ConditionRemoved(c.id, "stunned", "recovered at the end of the last turn", STUN_RULE))
    if "shock" in c.conditions:
        w.mark(c, "shock_now", c.conditions["shock"].value, "gurps4/core/shock B419")
        w.emit(ev.ConditionRemoved(c.id, "shock", "applies to this turn only", "gurps4/core/shock B419"))
    if hp_now(c) <= 0:
        r = core.consciousness_roll(S(c).ht, hp_now(c), S(c).hp, w.dice)
        w.rolled(c.id, r, rule="gurps4/core/hp-thresholds B419")
        if not r.success:
            knocked_out(w, c, "unconscious", "gurps4/core/hp-thresholds B419")
            end_turn(w, c)
            return
    if w.option("panic") and S(c).unused_to_cavalry and not c.marks.get("panic_checked"):
        panic(w, c)
        if not c.active:
            return
    if c.has("stunned"):
        w.mark(c, "maneuver", "do_nothing")
        w.note(f"{c.name} is stunned: Do Nothing", c.id, "gurps4/core/stun B420")
        if S(c).flies and c.altitude > 0 and S(c).flight_limitation != "none":
            w.note(
                f"{c.name} cannot hover and stalls: it starts to fall; falling (B431) is not "
                "implemented, the GM resolves the fall (it stays at its altitude here)",
                c.id,
                "gurps4/aerial/stall B398",
            )
        r = core.stun_recovery(S(c).ht, w.dice)
        w.rolled(c.id, r, rule=STUN_RULE)
        if r.success:
            w.mark(c, "stun_recovered", True, STUN_RULE)
            w.note(
                f"{c.name} recovers from the stun: still -4 to defend and no retreat until the next turn",
                c.id,
                STUN_RULE,
            )
        end_turn(w, c)
        return
    if S(c).mount and c.marks.get("out_of_control"):
        w.note(
            f"{c.name} is out of control ({c.marks['out_of_control']}): it obeys no one this turn "
            "(placeholder until the GM completes the table)",
            c.id,
            "gurps4/mounted/loss-of-control B397",
        )
        w.mark(c, "out_of_control", None)
        w.mark(c, "maneuver", "do_nothing")
        end_turn(w, c)


def panic(w: Work, c: Combatant) -> None:
    """Will roll against a cavalry charge (B396): a mounted foe whose mount moved toward this NPC."""
    for m in w.state.combatants.values():
        if m.side == c.side or not S(m).mount or not m.active or not m.marks.get("rider"):
            continue
        if int(m.marks.get("moved_last_turn", 0)) <= 0 or m.pos is None or c.pos is None:
            continue
        if distance(m.pos, c.pos) > max(2, S(m).basic_move):
            continue
        w.mark(c, "panic_checked", True)
        if not mounted.panic_roll_required(S(c).sm, S(m).sm):
            return
        r = mounted.panic_roll(S(c).will, S(c).combat_reflexes, w.dice)
        w.rolled(c.id, r, m.id, "gurps4/mounted/panic B396")
        if not r.success:
            w.emit(ev.StatusChanged(c.id, "fled", "gurps4/mounted/panic B396"))
        return


def end_turn(w: Work, c: Combatant) -> None:
    w.mark(c, "moved_last_turn", int(c.marks.get("moved", 0)) or None)
    w.mark(c, "attacked_last_turn", True if c.marks.get("attacked") else None)
    w.mark(c, "shock_now", None)
    if c.marks.get("maneuver") not in ("aim",) and c.marks.get("aim"):
        w.mark(c, "aim", None)
    if c.marks.get("maneuver") not in ("evaluate",) + ATTACK_MANEUVERS and c.marks.get("evaluate"):
        w.mark(c, "evaluate", None)
    w.emit(ev.TurnEnded(c.id))
