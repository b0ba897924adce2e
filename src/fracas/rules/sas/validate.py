"""Which Spells & Swords commands are legal now (ATTACKING and each action of the COMBAT ROUND ACTIONS
LIST), and the choices offered to a person.
"""

from __future__ import annotations

from fracas.engine.commands import Command, Decision
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import (
    ATTACK_ACTIONS,
    CONTINUED,
    CRY_ACTIONS,
    MOVE_ACTIONS,
    MOVING,
    OTHER_ACTIONS,
    PRONE_MOVES,
    RIDER_MOVES,
)
from fracas.rules.sas.actions.mass import horde_helpers
from fracas.rules.sas.actions.registry import ACTIONS
from fracas.rules.sas.fold import next_value, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import no_room_next_to, no_way_through
from fracas.rules.sas.procedures.movement import zone_of_control_blocks
from fracas.rules.sas.readers import adjacent_foes, dist, foes_of, hands_left
from fracas.rules.sas.rules import rule
from fracas.rules.sas.tables import tables


def choices(state: FightState, decision: Decision) -> list[Command]:
    out: list[Command] = []
    c = state.combatants[decision.actor]
    cands: list[Command] = []
    foes = foes_of(state, c)
    for f in sorted(foes, key=lambda f: (dist(c, f), f.id)):
        for a in ATTACK_ACTIONS:
            if a in ("horde", "dog-pile") and len(horde_helpers(state, c, f)) < 1:
                continue
            cands.append(Command(c.id, a, f.id))
        for a in ("feint", "intimidate", "taunt", "cast-spell", "disengage"):
            if a == "cast-spell":
                for sp in c.stats.spells:
                    cands.append(Command(c.id, a, f.id, {"spell": sp}))
            elif a == "disengage":
                cands.append(Command(c.id, a, f.id, {"mode": "withdrawal"}))
                cands.append(Command(c.id, a, f.id, {"mode": "flee"}))
            else:
                cands.append(Command(c.id, a, f.id))
        for a in MOVE_ACTIONS:
            cands.append(Command(c.id, a, None, {"toward": f.id}))
    for a in OTHER_ACTIONS:
        if a in ("feint", "intimidate", "taunt", "cast-spell", "disengage"):
            continue
        if a in ("stop-bleed", "mount"):
            for o in state.on_side(c.side):
                cands.append(Command(c.id, a, o.id))
            continue
        cands.append(Command(c.id, a))
    t = tables()
    for cmd in cands:
        try:
            validate(state, cmd)
        except IllegalCommand:
            continue
        act = t.combat.actions.get(cmd.action)
        words = {"horde": "Horde Attack", "dog-pile": "Dog Pile", "trample": "Trample (Large Creature)",
                 "break-free": "Break Free", "nothing": "Do nothing", "attack": "Attack",
                 "dismount": "Dismount"}  # fmt: skip
        label = words.get(cmd.action) or (act.label if act else cmd.action)
        if cmd.action == "cast-spell":
            label = f"Cast {t.magic.spells[cmd.args['spell']].label}"
        if cmd.action == "disengage":
            label = "Fighting Withdrawal" if cmd.args.get("mode") == "withdrawal" else "Flee"
        who = state.combatants[cmd.target].name if cmd.target else ""
        toward = cmd.args.get("toward")
        if toward:
            who = f"toward {state.combatants[toward].name}"
        cmd.label = f"{label} {who}".strip()
        out.append(cmd)
    if not out:
        out.append(Command(c.id, "nothing"))
    return out


def validate(state: FightState, cmd: Command) -> None:
    if cmd.action not in ACTIONS:
        raise ACTIONS.unknown(cmd.action, rule("actions"))
    c = state.combatants.get(cmd.actor)
    if c is None:
        raise IllegalCommand(f"no combatant {cmd.actor!r}")
    if c.status != "active":
        raise IllegalCommand(f"{c.name} is {c.status}", rule("knocked-out"))
    a = cmd.action
    f = view(state, c)
    target = state.combatants.get(cmd.target) if cmd.target else None
    if cmd.target and target is None:
        raise IllegalCommand(f"no combatant {cmd.target!r}")
    if c.has("immobilized") and a not in ("break-free", "nothing", "change-facing"):
        raise IllegalCommand(f"{c.name} is Immobilized: cannot move or attack", rule("immobilized"))
    attacks = a in ATTACK_ACTIONS or (a == "disengage" and cmd.args.get("mode", "withdrawal") == "withdrawal")
    if attacks and c.marks.get("first_strike_round") == state.round:
        # ATTACKING "a single attack per Round"; CHARGE RULES "get an attack in First even if it is out
        # of order", REACTIONS Receive Charge: that attack was his attack of this round, taken early
        raise IllegalCommand(
            f"{c.name} has had his attack of this round (a first strike at a charge)", rule("attacking")
        )
    moving = a in MOVING
    held = c.has("partial-immobilization") or c.has("staggered")
    if moving and held and (a in MOVE_ACTIONS or (target and dist(c, target) > 1)):
        why = "Partially Immobilized" if c.has("partial-immobilization") else "Staggered"
        raise IllegalCommand(f"{c.name} is {why} and cannot move", rule("fumble-hth"))
    prone_move = a in PRONE_MOVES
    in_reach = a == "close-to-attack" and target is not None and dist(c, target) <= 1
    if c.has("knocked-down") and prone_move and not in_reach:
        raise IllegalCommand(f"{c.name} is prone: Stand Up first", rule("knocked-down"))
    rider = state.combatants.get(c.marks.get("ridden_by") or "")
    ridden = rider is not None and rider.status == "active"
    if ridden and a in RIDER_MOVES:
        raise IllegalCommand(f"{c.name} is ridden: its rider moves it", rule("mounted"))
    # Zone of Control
    adj = adjacent_foes(state, c)
    needs_move = (
        a in MOVE_ACTIONS or (target is not None and dist(c, target) > 1) or a in ("charge", "hurling-charge")
    )
    zoc = moving and needs_move and a != "trample" and bool(adj)
    if zoc and zone_of_control_blocks(f, [view(state, o) for o in adj]):
        raise IllegalCommand(f"{c.name} is engaged in HTH: only Disengage moves it", rule("zone-of-control"))
    if cmd.args.get("battle_cry") and a not in CRY_ACTIONS:
        # CHARGE RULES: a charge "may be combined with a Battle Cry"; any other action is not (the cry is
        # then its own action, battle-cry)
        raise IllegalCommand(
            "battle_cry combines a Battle Cry with a Charge or Hurling Charge only", rule("charge")
        )
    if (a == "battle-cry" or cmd.args.get("battle_cry")) and c.marks.get("mute"):
        # reference 1.2, Random Brawl Attacks 9 "Break Jaw": the foe "cannot speak"; a Battle Cry is a cry
        # (docs/rulesets/sas.md, Game master's calls)
        raise IllegalCommand(
            f"{c.name} cannot speak (Break Jaw): no Battle Cry", rule("random-brawl", "break-jaw")
        )
    if a in ATTACK_ACTIONS:
        _validate_attack(state, c, f, target, cmd)
    check = ACTIONS[a].validate  # the action's own checks, registered where it lives
    if check is not None:
        check(state, c, f, target, cmd)


def _attack_target(state: FightState, c: Combatant, target: Combatant | None, a: str) -> Combatant:
    """ATTACKING: a foe (not himself) who can be attacked and is seen; a Taunted one attacks his taunter."""
    if target is None:
        raise IllegalCommand(f"{a} needs a target", rule("attacking"))
    if target.id == c.id:
        # ATTACKING "An Attacker picks his target ... Subtracts the Targets Defense Bonuses"
        raise IllegalCommand(f"{c.name} cannot attack himself", rule("attacking"))
    if target.side == c.side and a != "attack":
        raise IllegalCommand("attack a foe", rule("attacking"))
    if target.status != "active" and not target.has("knocked-out") and target.status != "unconscious":
        raise IllegalCommand(f"{target.name} is {target.status}", rule("attacking"))
    if target.status == "dead":
        raise IllegalCommand(f"{target.name} is dead", rule("attacking"))
    if target.hidden and not c.player:
        raise IllegalCommand(f"{target.name} is hidden", rule("surprise"))
    if next_value(c, "miss_attack", state.round) and a not in ("horde", "dog-pile"):
        pass  # the attack is lost when resolved (Dazed, Gut Punch, Monster Fumble)
    taunter = c.marks.get("taunted_by")
    if c.has("taunted") and taunter and taunter != target.id:
        other = state.combatants.get(taunter)
        if other is not None and other.status == "active":
            raise IllegalCommand(
                f"{c.name} was Taunted and must attack {other.name}", rule("actions", "taunt")
            )
    return target


def _attack_weapon(c: Combatant, f: Fighter, cmd: Command) -> str:
    """The weapon the attack is made with: known, his own, not broken, not dropped."""
    t = tables()
    wid = cmd.args.get("weapon") or f.wielded
    if wid not in t.weapons:
        raise IllegalCommand(f"unknown weapon {wid!r}", rule("damage-modifiers"))
    if cmd.args.get("weapon") and wid not in c.stats.weapons:
        raise IllegalCommand(f"{c.name} has no {wid}", rule("attacking"))
    if wid in c.marks.get("broken_weapons", ()):
        raise IllegalCommand(f"{c.name}'s {wid} is broken", rule("fumble-hth"))
    if wid != "unarmed" and wid == c.marks.get("dropped"):
        # FUMBLE TABLE 1 "Drop Weapon", DISARMED "1 Round to retrieve": the Pick up Dropped Item action
        raise IllegalCommand(
            f"{c.name} dropped the {wid}: Pick up Dropped Item first", rule("actions", "pick-up")
        )
    return wid


def _validate_attack(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    """What ATTACKING asks of every attack (a target, a weapon in hand, hands for it, room next to the
    target, a Continued attack's last round); each attack's own checks follow, registered with it."""
    t = tables()
    a = cmd.action
    target = _attack_target(state, c, target, a)
    wid = _attack_weapon(c, f, cmd)
    weapon = t.weapons[wid]
    hands, why, hand_rule = hands_left(c)
    if hands < 2:
        if weapon.hands > 1:
            raise IllegalCommand(f"{c.name} {why}: the {wid} needs two hands", hand_rule)
        if cmd.args.get("dual"):
            raise IllegalCommand(f"{c.name} {why}: no Dual Wield with one hand", hand_rule)
        if wid != "unarmed" and wid != f.wielded and f.stats.shield != "none":
            # drawing a weapon into the one hand that holds the shield (docs: Game master's calls)
            raise IllegalCommand(f"{c.name} {why}: the one hand left holds the shield", hand_rule)
    d = dist(c, target)
    closing = a in (
        "close-to-attack",
        "sneak-attack",
        "charge",
        "horde",
        "dog-pile",
        "trample",
        "leap-attack",
    )
    if closing and d > 1 and target.pos is not None:
        if no_room_next_to(state, c, target):
            raise IllegalCommand(f"no room next to {target.name}", rule("attacking"))
        if no_way_through(state, c, target, a):
            raise IllegalCommand(f"no way through to {target.name} this turn", rule("actions", a))
    if a in CONTINUED:
        if c.marks.get("last_attack_round") != state.round - 1:
            raise IllegalCommand(
                f"{a} is a Continued attack: attack last round and again without moving",
                rule("attacking"),
            )
        if a == "aimed-shot" and not weapon.ranged and weapon.band is None:
            raise IllegalCommand("Aimed Shot is for a Ranged Attack", rule("actions", a))
        if a != "aimed-shot" and (weapon.ranged or d > 1):
            raise IllegalCommand(
                f"{a} is a Continued attack for HTH against an adjacent foe", rule("actions", a)
            )
