"""The attacks that move first: Close to Attack, Sneak Attack, Charge (CHARGE RULES), Hurling Charge
and Leap Attack.
"""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import Hex, distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.actions.other import battle_cry
from fracas.rules.sas.attack import attack, situation, thrown
from fracas.rules.sas.fold import EventBuilder, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import (
    after_reactions,
    move_on_path,
    move_spaces,
    moved_copy,
    path_to,
    struck,
    with_batch,
)
from fracas.rules.sas.procedures.movement import can_charge
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.readers import adjacent_foes, dist
from fracas.rules.sas.rules import rule
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import tables


def _approach(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant,
    speed: float,
    mode: str,
    dice: DiceSource,
    charge: bool = False,
) -> int | None:
    """Move next to ``target``. None if stopped (a reaction dropped the mover or ended the fight), else
    where in ``b.events`` the reactions to the move begin (``len(b.events)``: none happened). A charger
    (``charge``) who reaches his foe takes the Charge's Defense -4 before the reactions to his move
    (CHARGE RULES: "Defense -4 for 1 Round", from the charge on)."""
    if dist(c, target) <= 1:
        if charge:
            _charging(b, c)
        return len(b.events)
    spaces = move_spaces(state, c, speed, charge)
    assert target.pos is not None
    path = path_to(state, c, target.pos, spaces, stop_adjacent=True)
    word = {"close-to-attack": "close", "hurling-charge": "charge"}.get(mode, mode)
    move_on_path(b, state, c, path, word, rule("actions", mode), face_to=target.pos)
    if not path or distance(path[-1], target.pos) > 1:
        b.note(f"{c.name} cannot reach {target.name}.", c.id, rule("actions", mode))
        return None
    if charge:
        _charging(b, c)
    k = len(b.events)
    return None if reactions_to_move(b, state, c, path, dice, charging=charge) else k


def _charging(b: EventBuilder, c: Combatant) -> None:
    """CHARGE RULES: "They get Attack +1, Swift +2, Damage +2, and Defense -4 for 1 Round": the
    Defense -4 is the charge's own, so it is on the charger from the moment he charges home (a Receive
    Charge, Fire from Overwatch or longer weapon's first strike against him sees it) until his side acts
    again."""
    defense = tables().combat.num("charge", "defense")
    b.add_condition(c.id, "charging", None, defense, "Charge", rule("charge"))


def _with_charge(b: EventBuilder, c: Combatant) -> Combatant:
    """``c`` (or a copy) as the charge's strikes read him: with this batch's Charge Defense -4 (an attack
    against him sees it) and the Battle Cry made with the charge (his own attack sees it: CHARGE RULES
    "This may be combined with a Battle Cry", the cry raised as he charges, before he strikes)."""
    return with_batch(b, c, ("charging", "battle-cry"))


def _close_to_attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    k = _approach(b, state, c, target, 1.0, cmd.action, dice)
    if k is None:
        return
    state, mc, target = after_reactions(b, state, c, target, k)
    attack(b, state, mc, target, situation(state, mc, target, cmd.action), dice, cmd.action)


def _sneak_attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None
    k = _approach(b, state, c, target, 0.5, "sneak", dice)
    if k is None:
        return
    state, mc, target = after_reactions(b, state, c, target, k)
    attack(b, state, mc, target, situation(state, mc, target, cmd.action), dice, cmd.action)


def _charge(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    """CHARGE RULES: double speed, Attack +1, Swift +2, Damage +2, Defense -4 for 1 round; a defender
    with a Longer Weapon who sees it coming strikes first."""
    assert target is not None
    t = tables()
    if cmd.args.get("battle_cry"):
        battle_cry(b, state, c, None, cmd, dice)
    k = _approach(b, state, c, target, 2.0, "charge", dice, charge=True)
    if k is None:
        return
    # Receive Charge or Fire from Overwatch struck: what follows reads what it did
    state, mc, target = after_reactions(b, state, c, target, k)
    mc = _with_charge(b, mc)  # the first strike sees his Defense -4 (CHARGE RULES)
    # the defender with the longer weapon strikes first (once a round)
    tw = t.weapons[view(state, target).wielded]
    cw = t.weapons[view(state, c).wielded]
    sees = not c.hidden and not (state.round == 1 and state.extra.get("surprise_side") == c.side)
    if (
        tw.reach > cw.reach
        and not tw.ranged
        and sees
        and target.marks.get("first_strike_round") != state.round
        # the first strike is his attack of the round (ATTACKING "a single attack per Round"): not when
        # he has attacked already this round (his side acted before the charger's)
        and b.mark(target.id, "last_attack_round") != state.round
        and b.status(target.id) == "active"
        and not b.has(target.id, "immobilized")
    ):
        b.note(f"{target.name}'s longer {tw.label} strikes first!", target.id, rule("charge"))
        b.set_mark(target.id, "first_strike_round", state.round)
        k = len(b.events)
        attack(
            b,
            state,
            target,
            mc,
            situation(state, target, mc, "attack"),
            dice,
            "attack",
            immediate=True,
        )
        if b.status(c.id) != "active" or b.has(c.id, "knocked-down"):
            return
        if not any(o.side != c.side and b.status(o.id) == "active" for o in state.combatants.values()):
            # the first strike ended the fight (its striker fell to his own fumble, the last of his
            # side): no attack follows whose held effects could never land
            return
        # "get an attack in First": the charger attacks as the first strike left both (a Stun, Wound
        # Markers, a dropped spear...), not as they stood before it
        state, mc = struck(state, b.events[k:], mc)
        target = state.combatants[target.id]
    mc = _with_charge(b, mc)  # a Battle Cry raised with the charge counts on its attack
    attack(b, state, mc, target, situation(state, mc, target, "charge"), dice, "charge")


def _hurling_charge(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    """COMBAT ROUND ACTIONS LIST: "Hurling Charge - Throw Weapon while Charging. It gets Damage +1": a
    charge at double speed that stops where the throw is possible. It is a charge, so it "may be combined
    with a Battle Cry" (CHARGE RULES): with ``battle_cry`` the cry is raised as he charges and counts on
    the throw. Like every move before an attack it draws the reactions to a move (REACTIONS: Fire from
    Overwatch "after he moves but before he Attacks"; Receive Charge if he charges home next to a spearman
    set for it), and the throw reads what they did."""
    assert target is not None
    if cmd.args.get("battle_cry"):
        battle_cry(b, state, c, None, cmd, dice)
    path = hurl_path(state, c, target)
    move_on_path(b, state, c, path, "hurling-charge", rule("actions", "hurling-charge"), face_to=target.pos)
    _charging(b, c)  # he is "Charging": the Charge's Defense -4 is on him (Game master's calls)
    k = len(b.events)
    if reactions_to_move(b, state, c, path, dice, charging=True):
        return
    mc = _with_charge(b, moved_copy(b, c))  # with the Battle Cry raised as he charged
    if len(b.events) > k:  # a reaction struck (Fire from Overwatch): the throw reads what it did
        state, mc = struck(state, b.events[k:], mc)
        target = state.combatants[target.id]
    if dist(mc, target) <= 1:
        attack(b, state, mc, target, situation(state, mc, target, "attack"), dice, "attack")
        return
    sit = situation(state, mc, target, "hurling-charge")
    attack(b, state, mc, target, sit, dice, "hurling-charge")
    thrown(b, c, sit.weapon or "unarmed")


def hurl_path(state: FightState, c: Combatant, target: Combatant) -> list[Hex]:
    """A Hurling Charge's move: a charge toward the target that stops at the first hex where the throw
    is possible (2+ spaces away, within Short range)."""
    t = tables()
    reach = int(t.attack.modifiers["range-short"].max_m / settings_of(state).meters_per_space)
    spaces = move_spaces(state, c, 2.0, True)
    assert target.pos is not None and c.pos is not None
    path = path_to(state, c, target.pos, spaces, stop_adjacent=True)
    for i, h in enumerate(path):
        if 2 <= distance(h, target.pos) <= reach:
            return path[: i + 1]
    return path


def _leap_attack(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    assert target is not None and target.pos is not None
    path: list[Hex] = []
    if dist(c, target) > 1:
        path = path_to(state, c, target.pos, dist(c, target), stop_adjacent=True)
        move_on_path(b, state, c, path, "leap", rule("actions", "leap-attack"), face_to=target.pos)
    b.events.append(ev.Moved(c.id, (), "leap", None, target.altitude, rule("actions", "leap-attack")))
    k = len(b.events)
    if reactions_to_move(b, state, c, path or ([c.pos] if c.pos else []), dice, charging=False):
        return
    state, mc, target = after_reactions(b, state, c, target, k)  # the leap reads what a reaction did
    attack(b, state, mc, target, situation(state, mc, target, "leap-attack"), dice, "leap-attack")


def _check_closing(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Close to Attack, Sneak Attack: a HTH attack within the move (a Sneak Attack from hiding)."""
    assert target is not None
    a = cmd.action
    weapon = tables().weapons[cmd.args.get("weapon") or f.wielded]
    d = dist(c, target)
    move = move_spaces(state, c, 1.0)
    speed = 0.5 if a == "sneak-attack" else 1.0
    if weapon.ranged:
        raise IllegalCommand(f"{a} is a HTH attack", rule("actions", a))
    if a == "sneak-attack" and not c.hidden:
        raise IllegalCommand("Sneak Attack is made from hiding", rule("actions", a))
    if d - 1 > int(move * speed):
        raise IllegalCommand(
            f"{target.name} is {d} spaces away; {c.name} moves {int(move * speed)}",
            rule("actions", a),
        )


def _check_charge(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """CHARGE RULES: may he charge; within double speed (a Hurling Charge: a throw within Short range)."""
    assert target is not None
    a = cmd.action
    t = tables()
    weapon = t.weapons[cmd.args.get("weapon") or f.wielded]
    d = dist(c, target)
    why = can_charge(f, len(adjacent_foes(state, c)), hidden=c.hidden)
    if why:
        raise IllegalCommand(f"{c.name} may not charge: {why}", rule("charge"))
    cmove = move_spaces(state, c, 2.0, charge=True)
    if a == "hurling-charge":
        if not weapon.thrown and weapon.band is None:
            raise IllegalCommand("Hurling Charge throws a weapon", rule("actions", a))
        reach = int(t.attack.modifiers["range-short"].max_m / settings_of(state).meters_per_space)
        if d - cmove > reach:
            raise IllegalCommand(f"{target.name} is out of reach", rule("actions", a))
        path = hurl_path(state, c, target)
        end = path[-1] if path else c.pos
        assert end is not None and target.pos is not None
        if distance(end, target.pos) <= 1:
            # the charge toward him passes no hex 2+ spaces away to throw from (docs: Game master's
            # calls): it would be a Charge, not a throw
            raise IllegalCommand(
                f"{target.name} is too close to throw while charging: Charge instead",
                rule("actions", a),
            )
        if distance(end, target.pos) > reach:
            raise IllegalCommand(f"{target.name} is out of reach", rule("actions", a))
    elif weapon.ranged or d - 1 > cmove:
        raise IllegalCommand(f"{target.name} is {d} spaces away; a charge covers {cmove}", rule("charge"))


def _check_leap_attack(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Leap Attack: a pounce From Above, as far as the height allows."""
    assert target is not None
    a = cmd.action
    d = dist(c, target)
    if c.altitude <= target.altitude:
        raise IllegalCommand("Leap Attack is a pounce From Above", rule("actions", a))
    if d > 1 + c.altitude - target.altitude:
        raise IllegalCommand(f"{target.name} is too far to leap on", rule("actions", a))


ACTIONS = (
    Action("close-to-attack", _close_to_attack, _check_closing),
    Action("charge", _charge, _check_charge),
    Action("hurling-charge", _hurling_charge, _check_charge),
    Action("sneak-attack", _sneak_attack, _check_closing),
    Action("leap-attack", _leap_attack, _check_leap_attack),
)
