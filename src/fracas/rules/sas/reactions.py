"""REACTIONS to a move: Receive Charge and Fire from Overwatch, taken by the foes set for them after the
mover moves and before he attacks.
"""

from __future__ import annotations

import dataclasses

from fracas.dice.source import DiceSource
from fracas.engine.hexgrid import Hex, distance
from fracas.engine.state import Combatant, FightState
from fracas.rules.sas.attack import attack, situation
from fracas.rules.sas.fold import EventBuilder, view
from fracas.rules.sas.movement import moved_copy, with_batch
from fracas.rules.sas.procedures.attack import RANGE_BANDS, range_band
from fracas.rules.sas.readers import foes_of, underwater
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


def reactions_to_move(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    path: list[Hex],
    dice: DiceSource,
    charging: bool,
) -> bool:
    """Foes set for it react after the mover moves and before he attacks; True if the mover is stopped.

    A reaction's attack is an attack (ATTACKING, ATTACK TABLE MODIFIERS): it is read from where the move
    left the mover (his new place and facing, the foes now round him, his cover) and from the reactor's
    own place (height, difficult ground, tight position, light), as any attack is.

    One reaction a combatant a round (docs/rulesets/sas.md, "Game master's calls"): a foe who has
    already reacted this round (a Shield Spell, Catch Missile, Counterspell, an earlier Receive Charge or
    Fire from Overwatch) stays set but does not react; one who reacts has spent his reaction."""
    if not path or not state.options.get("auto-reactions", True):
        return False
    foes = [o for o in foes_of(state, c, False) if b.mark(o.id, "set")]
    if not foes:
        return False  # nobody is set for it (most moves): no copy of the mover is made
    end = path[-1]
    moved = moved_copy(b, c)  # where the move left him: the reaction's attack is read from there
    # what he moves with: a charger's Defense -4 (CHARGE RULES), a Fighting Withdrawal's Defense +1, a
    # fleer's back to the foe (DISENGAGE)
    mover = with_batch(b, moved, ("charging", "battle-cry", "withdrawal", "fleeing"))
    for o in foes:
        mark = b.mark(o.id, "set")
        if not mark or o.pos is None or b.status(o.id) != "active":
            continue
        if b.mark(o.id, "reacted_round") == state.round:
            continue  # his one reaction of the round is spent
        d = distance(o.pos, end)
        if mark == "receive-charge" and charging and d <= 1:
            rid = rule("reactions", "receive-charge")
            b.note(f"{o.name} receives the charge!", o.id, rid)
            b.set_mark(o.id, "reacted_round", state.round, rid)
            # Receive Charge ("Attack First after Foe Moves") and the longer weapon's first strike (CHARGE
            # RULES: "get an attack in First") grant the same one attack before the charger's: a spearman
            # who has both strikes once, and this is his first strike of the round
            b.set_mark(o.id, "first_strike_round", state.round, rid)
            sit = situation(state, o, mover, "attack", weapon=view(state, o).wielded)
            attack(b, state, o, mover, sit, dice, "attack", immediate=True)
            b.set_mark(o.id, "set", None)
        elif mark == "overwatch" and d > 1:
            wid = view(state, o).wielded
            weapon = tables().weapons[wid]
            band = range_band(d * settings_of(state).meters_per_space, underwater(state))
            if (
                weapon.ranged
                and band != "beyond"
                and RANGE_BANDS.index(band) <= RANGE_BANDS.index(weapon.band or "short")
            ):
                rid = rule("reactions", "fire-from-overwatch")
                b.note(f"{o.name} fires from Overwatch!", o.id, rid)
                b.set_mark(o.id, "reacted_round", state.round, rid)
                # ATTACK TABLE MODIFIERS "Defender Moved on last Action": he is moving now
                sit = dataclasses.replace(
                    situation(state, o, mover, "attack", weapon=wid), defender_moved=True
                )
                attack(b, state, o, mover, sit, dice, "attack", immediate=True)
                b.set_mark(o.id, "set", None)
        if b.status(c.id) != "active" or b.has(c.id, "knocked-down"):
            return True
        if not any(f.side != c.side and b.status(f.id) == "active" for f in state.combatants.values()):
            return True  # the reaction ended the fight (its taker, the last standing, fell to a fumble)
    return False
