"""The Earthdawn combat round (ED4 p.371-376): who declares, Initiative, the order of turns, the end of the
round; group Initiative, taking the initiative, delayed actions carried into the next round."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from fracas.dice.source import RandomDice
from fracas.engine import events as ev
from fracas.engine.commands import Decision
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.attack import EarthdawnAttack
from fracas.rules.earthdawn.combat import (
    Scratch,
    TestContext,
    initiative_order_key,
    recovery_events,
    roll_step_dice,
    run_test,
)

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile


class EarthdawnRound(EarthdawnAttack):
    """The round: declare -> Initiative -> turns -> end of round, the decisions pending at each phase."""

    def _declarers(self, state: FightState) -> tuple[str, ...]:
        tactics = self.tactics()
        out = []
        for c in state.combatants.values():
            if not c.active:
                continue
            t = tactics.get(c.tactic)
            if t is None or getattr(t, "declares", True):
                out.append(c.id)
        return tuple(out)

    def pending(self, state: FightState) -> Decision | None:
        phase = state.phase
        extra = state.extra
        if phase == "act":
            intr = extra.get("interrupt")
            if intr is not None:
                return Decision(intr["by"], "react", f"reserved action: {intr['actor']} triggers it")
            turn = state.turn
            order = state.order
            cur = order[turn] if 0 <= turn < len(order) else None
            if cur is not None and cur not in state.acted:
                c = state.combatants[cur]
                delayers = extra.get("delayers", ())
                reserved = extra.get("reserved", {})
                if c.active and cur not in delayers and cur not in reserved:
                    return _act_decision(cur)
            delayers = extra.get("delayers")
            if delayers:
                asked = extra.get("delay_asked")
                done = asked["ids"] if asked and asked["at"] == state.turn else ()
                for d in delayers:
                    if d not in done and state.combatants[d].active:
                        last = self._next_index(state) is None
                        return Decision(d, "delayed", "end of round" if last else "between turns")
            return None
        if phase == "declare":
            roster = extra.get("roster", ())
            n = len(state.declarations)
            if n < len(roster):
                return Decision(roster[n], "declare")
        return None

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        phase = state.phase
        if phase == "act":
            nxt = self._next_index(state)
            if nxt is not None:
                cid = state.order[nxt]
                return [ev.TurnStarted(cid, state.initiative.get(cid))]
            return self._end_round(state)
        if phase in ("started", "round-end"):
            return self._start_round(state, dice)
        if phase == "declare":
            return self._initiative(state, dice, state.round)
        raise AssertionError(f"unexpected phase {phase!r}")

    def _next_index(self, state: FightState) -> int | None:
        order = state.order
        acted = state.acted
        cs = state.combatants
        i = state.turn + 1
        n = len(order)
        while i < n:
            cid = order[i]
            if cid not in acted and cs[cid].status == "active":
                return i
            i += 1
        return None

    def _start_round(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        rnd = state.round + 1
        out: list[ev.Event] = [ev.RoundStarted(rnd)]
        # An unconscious character may make a Recovery test one minute after falling (p.380): the
        # edition's rounds in a minute (ED4 10 six-second rounds, ED1 6 ten-second rounds).
        minute = self.edition.rounds_per_minute
        sc: Scratch | None = None
        for c in state.combatants.values():
            if c.status == "unconscious" and not c.marks.get("recovery_tried"):
                since = c.marks.get("unconscious_since", rnd)
                if rnd - since >= minute:
                    sc = sc or Scratch(state)
                    sc.emit(ev.Marked(c.id, "recovery_tried", True, self.ref("recovery.unconscious")))
                    recovery_events(sc, self.edition, dice, c.id, "one minute after falling unconscious")
        if sc is not None:
            out += sc.events
        roster = self._declarers(state)
        if roster:
            out.append(ev.ExtraSet("roster", roster))
            return out
        if "roster" in state.extra:
            out.append(ev.ExtraSet("roster", None))
        out += self._initiative(state, dice, rnd, sc)
        return out

    def initiative_step(
        self, state: FightState, c: Combatant, sc: Scratch | None
    ) -> tuple[int, list[Modifier]]:
        p: CombatProfile = c.stats
        mods = self.step_mods(TestContext(state, sc, "initiative", c))
        return p.initiative_step, mods

    def initiative_leader(self, state: FightState, c: Combatant) -> str | None:
        """The combatant on whose Initiative ``c`` acts, making no test of his own (the ED4 chapter: a
        trained mount, on its rider's, p.395); None here."""
        return None

    def voluntary_initiative_mods(self, state: FightState, c: Combatant) -> list[Modifier]:
        """The modifiers to ``c``'s Initiative step that he chose (a declared combat option): "A character's
        Initiative Step cannot voluntarily be lowered below Step 1" (p.371), so these stop at Step 1 where
        the involuntary ones (:meth:`initiative_step`: Wounds, knocked down, magic) do not. The edition's
        combat options supply them; none here."""
        return []

    def _initiative(
        self, state: FightState, dice: DiceSource, rnd: int, sc: Scratch | None = None
    ) -> list[ev.Event]:
        """Initiative tests (p.371): each active character rolls its Initiative step (armor and shields
        already in it); Wounds and other involuntary penalties below Step 1 mean acting last at 1. Identical
        creatures of a side share one test (group Initiative, p.372); with "take-the-initiative" gamemaster
        characters use their step as the result (p.372); a character who delayed into this round acts at
        one above the highest Initiative (p.376)."""
        options = state.options
        group = options.get("group-initiative", True)
        take = options.get("take-the-initiative", False)
        r_init = self.ref("initiative")
        edition = self.edition
        out: list[ev.Event] = []
        keys: list[tuple[Any, ...]] = []
        groups: dict[tuple[Any, ...], int] = {}
        delayed: list[Combatant] = []
        best = 0
        cs = [c for c in state.combatants.values() if c.status == "active"]
        leaders = {c.id: self.initiative_leader(state, c) for c in cs}
        if any(leaders.values()):  # those who act on another's Initiative come after him
            cs.sort(key=lambda c: leaders[c.id] is not None)
        values: dict[str, int] = {}
        for c in cs:
            if c.marks.get("delay_into") == rnd:
                if not state.declarations.get(c.id, {}).get("roll_initiative"):
                    delayed.append(c)
                    continue
                # Rolling Initiative normally gives up the delayed action (p.376).
                out.append(ev.Marked(c.id, "delay_into", None, self.ref("actions.delayed.next-round")))
            p: CombatProfile = c.stats
            base, mods = self.initiative_step(state, c, sc)
            step = base
            for m in mods:
                step += m.value
            forced = step < 1  # involuntarily below Step 1: acts last at 1 (p.371)
            chosen = self.voluntary_initiative_mods(state, c)
            if chosen and not forced:
                mods = [*mods, *chosen]
                for m in chosen:
                    step += m.value
                if step < 1:  # "cannot voluntarily be lowered below Step 1" (p.371)
                    mods.append(
                        Modifier(1 - step, "not voluntarily below Step 1", self.ref("initiative.below-one"))
                    )
                    step = 1
            elif chosen:
                mods = [*mods, *chosen]
            mt = _mt(mods) if mods else ()
            lead = leaders[c.id]
            if forced:
                value = 1
                out.append(ev.InitiativeRolled(c.id, 1, step, None, mt, self.ref("initiative.below-one")))
            elif lead is not None and lead in values:  # no test of his own (a trained mount, p.395)
                value = values[lead]
                out.append(ev.InitiativeRolled(c.id, value, step, None, mt, r_init))
            elif take and not c.player:
                value = step
                out.append(ev.InitiativeRolled(c.id, value, step, None, mt, self.ref("initiative.take")))
            else:
                gkey = (c.side, c.template, step) if group and c.template and not c.player else None
                if gkey is not None and gkey in groups:
                    value = groups[gkey]
                    out.append(ev.InitiativeRolled(c.id, value, step, None, mt, self.ref("initiative.group")))
                else:
                    if dice.__class__ is RandomDice:  # run_test's roll, without its naming and result
                        roll, value, _ = roll_step_dice(step, dice, edition)
                    else:
                        res = run_test(dice, edition, step, who=c.name, test="Initiative")
                        roll, value = res.roll, res.total
                    if gkey is not None:
                        groups[gkey] = value
                    out.append(ev.InitiativeRolled(c.id, value, step, roll, mt, r_init))
            values[c.id] = value
            if value > best:
                best = value
            # initiative_order_key (combat.py), built in place
            keys.append(
                (1 if forced else 0, -value, 0 if c.player else 1, -p.initiative_step, -p.dexterity, c.id)
            )
        for c in delayed:
            p = c.stats
            value = best + 1
            out.append(ev.Marked(c.id, "delay_into", None, self.ref("actions.delayed")))
            out.append(
                ev.InitiativeRolled(c.id, value, None, None, (), self.ref("actions.delayed.next-round"))
            )
            keys.append(initiative_order_key(value, False, c.player, p.initiative_step, p.dexterity, c.id))
        keys.sort()
        order = tuple(k[-1] for k in keys)
        out.append(ev.OrderSet(order, r_init))
        if order:
            out.append(ev.TurnStarted(order[0], -keys[0][1]))  # the key holds -Initiative
        return out

    def _end_round(self, state: FightState) -> list[ev.Event]:
        rnd = state.round
        out: list[ev.Event] = []
        for c in state.combatants.values():
            for name, cond in c.conditions.items():
                if cond.until_round is not None and cond.until_round <= rnd:
                    out.append(ev.ConditionRemoved(c.id, name, "end of round", cond.rule))
        extra = state.extra
        for key in ("reserved", "delayers", "delay_asked", "interrupt"):
            if key in extra:
                out.append(ev.ExtraSet(key, None))
        out.append(ev.RoundEnded(rnd))
        return out

    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"


@cache
def _act_decision(cid: str) -> Decision:
    """The "act" decision of combatant ``cid``: Decisions are immutable, so one per id serves every fight."""
    return Decision(cid, "act")


def _mt(mods: list[Modifier]) -> tuple[tuple[Any, ...], ...]:
    return tuple((m.value, m.why, m.rule) for m in mods)
