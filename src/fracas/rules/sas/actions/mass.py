"""Many against one: HORDE ATTACK, DOG PILE and Break Free (a pile scattered), and the LARGE CREATURE
ATTACKS' Trample.
"""

from __future__ import annotations

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import Hex, direction_to, distance, neighbours
from fracas.engine.state import Combatant, FightState
from fracas.engine.taken import map_blocked
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import Action
from fracas.rules.sas.attack import attack, situation
from fracas.rules.sas.fold import EventBuilder, rolled, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import move_on_path, move_spaces, moved_copy, path_to, struck
from fracas.rules.sas.procedures.damage import resolve_damage
from fracas.rules.sas.procedures.mass import break_free, dog_pile_bonus, large_creature, save_vs_crush
from fracas.rules.sas.procedures.movement import movement
from fracas.rules.sas.reactions import reactions_to_move
from fracas.rules.sas.readers import dist, underwater
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of


def horde_helpers(state: FightState, c: Combatant, target: Combatant) -> list[Combatant]:
    """Side-mates who have not acted this round and are next to the target or can reach it with a Walk
    (Horde Attack, Dog Pile: they throw themselves on the pile)."""
    return [
        o
        for o in state.on_side(c.side)
        if o.id != c.id
        and o.status == "active"
        and o.id not in state.acted
        and not o.has("immobilized")
        and not o.has("routed")
        and dist(o, target) - 1 <= movement(view(state, o), underwater(state))
        and o.id in state.order
    ]


def _horde(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
    pile: bool = False,
) -> None:
    """HORDE ATTACK (and DOG PILE): one combined attack of the actor and the side-mates next to the
    target that have not acted; +1 per 2 attackers. A failed attack scatters them."""
    assert target is not None and target.pos is not None
    taken = set(state.occupied())
    members: list[Combatant] = []
    reacted: list[ev.Event] = []
    walls = map_blocked(state)
    aim = target  # the sort key's target (``target`` is bound again below, so not narrowed in a lambda)
    candidates = sorted(horde_helpers(state, c, target), key=lambda m: (dist(m, aim), m.id))
    for m in [c, *candidates]:
        if dist(m, target) > 1:
            if all(n in taken or n in walls for n in neighbours(target.pos)):
                continue  # no room left next to the target
            taken.discard(m.pos)  # type: ignore[arg-type]
            spaces = movement(view(state, m), underwater(state))
            path = path_to(state, m, target.pos, spaces, True, taken)
            if not path or distance(path[-1], target.pos) > 1:
                taken.add(m.pos)  # type: ignore[arg-type]
                break  # the free hexes next to the target are out of reach: stop searching
            taken.add(path[-1])
            b.events.append(ev.Moved(m.id, tuple(path), "close", direction_to(path[-1], target.pos)))
            # each member's move draws the reactions to a move as he makes it (REACTIONS: "after he
            # moves but before he Attacks"): a leader they stop makes no attack and nobody follows him;
            # a member they stop joins none (his move has spent his turn); the attack reads what they did
            j = len(b.events)
            stopped = reactions_to_move(b, state, m, path, dice, charging=False)
            reacted += b.events[j:]
            if stopped:
                if m.id == c.id or not any(
                    o.side != c.side and b.status(o.id) == "active" for o in state.combatants.values()
                ):
                    return
                b.events.append(ev.TurnEnded(m.id))
                continue
            m = m.clone()
            m.pos = path[-1]
        members.append(m)
    if not members or members[0].id != c.id:
        b.note(f"{c.name} cannot reach {target.name}.", c.id, rule("horde-attack"))
        return
    mc = moved_copy(b, c)
    if reacted:
        before = state
        state, mc = struck(before, reacted, mc)
        members = [struck(before, reacted, m)[1] for m in members]
        target = state.combatants[target.id]
    helpers = members[1:]
    n = len(members)
    if n == 1:
        b.note(f"Nobody joins {c.name}: an ordinary attack.", c.id, rule("horde-attack"))
        attack(b, state, mc, target, situation(state, mc, target, "attack"), dice, "attack")
        return
    rid = rule("dog-pile" if pile else "horde-attack")
    b.note(
        f"{'Dog Pile' if pile else 'Horde Attack'}: "
        + ", ".join(m.name for m in members)
        + f" on {target.name}",
        c.id,
        rid,
    )
    kw = {"dog_pile": n} if pile else {"horde": n}
    lead = max(
        members,
        key=lambda m: (
            m.stats.attack + m.stats.bonus_with(m.marks.get("weapon") or m.stats.weapons[0]),
            m.id,
        ),
    )
    moved = {m.id: m.pos for m in members}
    sit = situation(state, lead, target, "attack", moved=moved, **kw)
    r = attack(b, state, lead, target, sit, dice, "attack")
    for m in helpers:
        b.events.append(ev.TurnEnded(m.id))
        b.set_mark(m.id, "last_attack_round", state.round)
    if r is not None and r.hit and pile:
        b.set_mark(
            target.id,
            "pile",
            {"members": tuple(m.id for m in members), "bonus": dog_pile_bonus(n)},
            rid,
        )
    elif r is not None and not r.hit:
        b.note("The attack fails: they are scattered.", c.id, rid)
        _scatter(b, state, members, target)


def _dog_pile(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    _horde(b, state, c, target, cmd, dice, pile=True)


def _scatter(b: EventBuilder, state: FightState, members: list[Combatant], centre: Combatant) -> None:
    spaces = settings_of(state).horde_scatter_spaces
    taken = set(state.occupied()) | map_blocked(state)
    for m in members:
        if m.pos is None or centre.pos is None:
            continue
        best = None
        for n in neighbours(m.pos):
            if n not in taken and distance(n, centre.pos) > distance(m.pos, centre.pos):
                best = n
                break
        if best is not None and spaces:
            taken.add(best)
            b.events.append(ev.Moved(m.id, (best,), "scatter", rule=setting("horde_scatter_spaces")))


def _trample(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    """LARGE CREATURE ATTACKS: movement and attack in one; the target Saves vs Crush (Swift and Dodge)
    and steps aside, or takes the creature's damage roll. Its movement is a move like any other: it draws
    the reactions to a move (REACTIONS: Fire from Overwatch "after he moves but before he Attacks"; the
    trample is not a charge, so no Receive Charge), and the trample reads what they did."""
    assert target is not None and target.pos is not None
    path: list[Hex] = []
    if dist(c, target) > 1:
        path = path_to(state, c, target.pos, move_spaces(state, c, 1.0), stop_adjacent=True)
        move_on_path(b, state, c, path, "trample", rule("large-creature-attacks"), face_to=target.pos)
    k = len(b.events)
    if reactions_to_move(b, state, c, path, dice, charging=False):
        return
    mc = moved_copy(b, c)
    if len(b.events) > k:  # a reaction struck: the trample reads what it did
        state, mc = struck(state, b.events[k:], mc)
        target = state.combatants[target.id]
        assert target.pos is not None
    made = save_vs_crush(view(state, target), dice)
    for chk in made.rolls:
        b.events.append(rolled(target.id, "Save vs Crush", chk))
    b.effects(made.effects)
    b.set_mark(c.id, "last_attack_round", state.round)
    if chk.success:
        free = [
            n
            for n in neighbours(target.pos)
            if n not in state.occupied()
            and n not in map_blocked(state)
            and (mc.pos is None or distance(n, mc.pos) > 1)
        ]
        if free:
            b.events.append(ev.Moved(target.id, (free[0],), "dodge", rule=rule("large-creature-attacks")))
        return
    dr = resolve_damage(view(state, mc), view(state, target), situation(state, mc, target, "attack"), dice)
    if dr.roll is not None:
        b.events.append(rolled(c.id, "Damage", dr.roll, target.id))
    b.queue(dr.effects)


def _break_free(
    b: EventBuilder,
    state: FightState,
    c: Combatant,
    target: Combatant | None,
    cmd: Command,
    dice: DiceSource,
) -> None:
    pile = c.marks.get("pile")
    bonus = int(pile["bonus"]) if pile else 0
    chk = break_free(view(state, c), bonus, dice)
    b.events.append(rolled(c.id, "Break Free", chk))
    if not chk.success:
        return
    for name in ("immobilized", "partial-immobilization"):
        b.remove_condition(c.id, name, "broke free", rule("immobilized"))
    if pile:
        members = [state.combatants[m] for m in pile["members"] if m in state.combatants]
        b.note("A successful Break scatters them all!", c.id, rule("dog-pile"))
        _scatter(b, state, members, c)
        b.set_mark(c.id, "pile", None)


def _check_break_free(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """Break Free: when held."""
    if not (c.has("immobilized") or c.has("partial-immobilization")):
        raise IllegalCommand(f"{c.name} is not held", rule("immobilized"))


def _check_horde(state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command) -> None:
    """HORDE ATTACK, DOG PILE: within a move, side-mates to join, a Dog Pile on a larger foe."""
    assert target is not None
    a = cmd.action
    d = dist(c, target)
    move = move_spaces(state, c, 1.0)
    if d - 1 > move:
        raise IllegalCommand(f"{target.name} is out of reach for a {a}", rule("horde-attack"))
    if not horde_helpers(state, c, target):
        raise IllegalCommand(
            f"{a} needs at least 2 attackers", rule("horde-attack" if a == "horde" else "dog-pile")
        )
    if a == "dog-pile" and not smaller_than(c, target):
        raise IllegalCommand("a Dog Pile is smaller races against a larger one", rule("dog-pile"))


def _check_trample(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """LARGE CREATURE ATTACKS: big enough, within a move."""
    assert target is not None
    d = dist(c, target)
    move = move_spaces(state, c, 1.0)
    if not large_against(state, c, target):
        raise IllegalCommand(
            f"{c.name} is not {settings_of(state).large_creature_sizes}+ size classes bigger",
            rule("large-creature-attacks"),
        )
    if d - 1 > move:
        raise IllegalCommand(f"{target.name} is out of reach", rule("large-creature-attacks"))


def large_against(state: FightState, c: Combatant, target: Combatant) -> bool:
    """LARGE CREATURE ATTACKS: ``c`` is Large enough, and enough size classes bigger than ``target``, to
    Trample it (the encounter's settings); validate refuses a Trample otherwise, so the tactics ask
    first."""
    return large_creature(view(state, c), view(state, target))


def smaller_than(c: Combatant, target: Combatant) -> bool:
    """DOG PILE: smaller races pile on a larger one; validate refuses a Dog Pile otherwise, so the tactics
    ask first."""
    return bool(c.stats.size_index < target.stats.size_index)


ACTIONS = (
    Action("horde", _horde, _check_horde),
    Action("dog-pile", _dog_pile, _check_horde),
    Action("trample", _trample, _check_trample),
    Action("break-free", _break_free, _check_break_free),
)
