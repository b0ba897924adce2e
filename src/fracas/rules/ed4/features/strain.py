"""The Strain the combat options cost (p.382-386): Splitting Movement once a round (p.386), Aggressive
Attack per close combat Attack test and at least 1 in the round (p.382), Called Shot per Attack test
(p.384), Shattering a Shield (p.385); counted for every Attack test, whatever command makes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.rules.earthdawn.combat import Scratch, strain_events
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.readers import declared

if TYPE_CHECKING:
    from fracas.engine.state import FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


def strain_owed(rs: Ed4Ruleset, state: FightState, events: list[ev.Event]) -> list[ev.Event]:
    """Aggressive Attack's Strain at the end of the round for who declared it and never ended a turn
    (knocked out, say, before acting): "The character always takes at least 1 Strain, even if he doesn't
    end up making any Attack tests during the round" (p.382). Who ended a turn paid it then
    (:func:`.declaring._after_action`); the dead and the fled pay nothing."""
    sc = Scratch(state)
    for cid in state.declarations:
        c = state.combatants.get(cid)
        if c is None or cid in state.acted or c.status in ("dead", "fled"):
            continue
        if opt.AGGRESSIVE not in declared(state, cid):
            continue
        count = c.marks.get("attack_tests")
        if count and count[0] == state.round and len(count) > 2 and count[2] > 0:
            continue  # paid per close Attack test (an interrupt, a reserved action)
        for amount, why, rule in opt.round_strain([opt.AGGRESSIVE], 0):
            strain_events(sc, rs.edition, cid, amount, why, rule)
    if not sc.events:
        return events
    return events[:-1] + sc.events + events[-1:]


def pay_round_strain(rs: Ed4Ruleset, state: FightState, command: Command, sc: Scratch) -> None:
    me = state.combatants[command.actor]
    if me.marks.get("strain_paid") == state.round:
        return
    mine = declared(state, me.id)
    if opt.SPLIT in mine:
        # 1 Strain when he first acts; Harried for the whole round from the declaration (harried_sources)
        sc.emit(ev.Marked(me.id, "strain_paid", state.round, opt.rule(opt.SPLIT)))
        strain_events(sc, rs.edition, me.id, 1, "Splitting Movement", opt.rule(opt.SPLIT))


def attack_tests_strain(
    rs: Ed4Ruleset, state: FightState, sc: Scratch, me_id: str, tests: int, close_tests: int
) -> None:
    """Count ``tests`` Attack tests (``close_tests`` of them close combat) of ``me_id`` this round
    (``marks["attack_tests"]``: [round, tests, close tests]) and pay the Strain the declared options cost
    per test: Aggressive Attack 1 per close combat Attack test (p.382), Called Shot 1 per Attack test
    (p.384: "1 Strain per Attack test"), Shattering a Shield 1 (p.385). Every Attack test pays, whatever
    command makes it: his own attack, or his reserved strike at a charging rider (p.375, p.385) or at a
    swooper (p.398) made during their command."""
    me = sc.get(me_id)
    mine = declared(state, me_id)
    count = me.marks.get("attack_tests")
    n_before = count[1] if count and count[0] == state.round else 0
    close_before = count[2] if count and count[0] == state.round and len(count) > 2 else 0
    sc.emit(
        ev.Marked(
            me_id,
            "attack_tests",
            [state.round, n_before + tests, close_before + close_tests],
            opt.DECLARE_RULE,
        )
    )
    for amount, why, rule in opt.attack_strain(mine, close=True):
        n = close_tests if why != "Called Shot" else tests
        if n and sc.get(me_id).status != "dead":
            strain_events(
                sc,
                rs.edition,
                me_id,
                amount * n,
                f"{why} ({n} attack test{'s' if n > 1 else ''})",
                rule,
            )


def strike_strain(rs: Ed4Ruleset, state: FightState, sc: Scratch, striker_id: str, before: int) -> None:
    """The per-test Strain of a strike ``striker_id`` made during someone else's command (his reserved
    action at a charging rider, p.375/p.385, or at a swooper, p.398): his Attack tests among the events
    since ``before`` pay as any other (:func:`attack_tests_strain`)."""
    p: CombatProfile = state.combatants[striker_id].stats
    tests = [
        e
        for e in sc.events[before:]
        if isinstance(e, ev.Rolled)
        and e.actor == striker_id
        and (e.test.endswith(" Attack") or " Attack (" in e.test)
    ]
    if not tests:
        return
    close_tests = 0
    for e in tests:
        a = p.attack(e.test.split(" Attack")[0])
        close_tests += a is None or a.close
    attack_tests_strain(rs, state, sc, striker_id, len(tests), close_tests)
