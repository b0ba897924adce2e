"""Which Spells & Swords commands are legal now (ATTACKING and each action of the COMBAT ROUND ACTIONS
LIST), and the choices offered to a person.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.sas.actions import (
    ALL_ACTIONS,
    ATTACK_ACTIONS,
    CONTINUED,
    CRY_ACTIONS,
    KNOWN_ACTIONS,
    MOVE_ACTIONS,
    MOVING,
    OTHER_ACTIONS,
    PRONE_MOVES,
    RIDER_MOVES,
)
from fracas.rules.sas.actions.charge import hurl_path
from fracas.rules.sas.actions.mass import horde_helpers
from fracas.rules.sas.fold import next_value, view
from fracas.rules.sas.model import Fighter
from fracas.rules.sas.movement import move_spaces, no_room_next_to, no_way_through
from fracas.rules.sas.procedures.attack import RANGE_BANDS, range_band
from fracas.rules.sas.procedures.mass import large_creature
from fracas.rules.sas.procedures.movement import can_charge, zone_of_control_blocks
from fracas.rules.sas.readers import adjacent_foes, dist, dual_weapons, foes_of, hands_left, underwater
from fracas.rules.sas.rules import rule, setting
from fracas.rules.sas.settings import settings_of
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


def validate(state: FightState, command: Command) -> None:
    _validate(state, command)


def _validate(state: FightState, cmd: Command) -> None:
    t = tables()
    if cmd.action not in KNOWN_ACTIONS:
        raise IllegalCommand(
            f"unknown action {cmd.action!r}; known: {', '.join(ALL_ACTIONS)}", rule("actions")
        )
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
    elif a in MOVE_ACTIONS:
        if a == "sneak" and not c.hidden:
            raise IllegalCommand("Sneak is moving while Hidden", rule("actions", "sneak"))
        if "to" not in cmd.args and "toward" not in cmd.args and "away" not in cmd.args:
            raise IllegalCommand(f"{a} needs args to: [q, r], toward: <id> or away: <id>", rule("actions", a))
    elif a == "disengage":
        if not adj:
            raise IllegalCommand("Disengage is for leaving HTH: no foe is adjacent", rule("disengage"))
        if target is not None and (target.side == c.side or dist(c, target) > 1):
            raise IllegalCommand("Disengage from an adjacent foe", rule("disengage"))
        if cmd.args.get("mode", "withdrawal") not in ("withdrawal", "flee"):
            raise IllegalCommand(
                "disengage mode is withdrawal or flee (a Rout is not chosen)", rule("disengage")
            )
    elif a == "change-facing":
        if state.round == 1 and state.extra.get("surprise_side") not in (None, c.side):
            raise IllegalCommand("Cannot change Facing if Surprised", rule("actions", "change-facing"))
        if c.marks.get("free_action_round") == state.round:
            # a Free Action once a turn (docs/rulesets/sas.md): a turn always comes to its action
            raise IllegalCommand(
                f"{c.name} has changed facing this turn already: now the turn's action",
                rule("actions", "change-facing"),
            )
    elif a == "stand-up":
        if not c.has("knocked-down"):
            raise IllegalCommand(f"{c.name} is not prone", rule("actions", "stand-up"))
    elif a == "pick-up":
        if not c.marks.get("dropped"):
            raise IllegalCommand(f"{c.name} has dropped nothing", rule("actions", "pick-up"))
        hands, why, hand_rule = hands_left(c)
        dropped = c.marks["dropped"]
        if hands < 2 and dropped in t.weapons and t.weapons[dropped].hands > 1:
            raise IllegalCommand(f"{c.name} {why}: the {dropped} needs two hands", hand_rule)
    elif a == "mount":
        if target is None or not target.stats.mount or target.side != c.side or target.marks.get("ridden_by"):
            raise IllegalCommand("Mount needs a free steed of your side", rule("actions", "mount"))
        if dist(c, target) > 1 or c.marks.get("mounted_on"):
            raise IllegalCommand(
                "the steed must be adjacent and you not already mounted", rule("actions", "mount")
            )
    elif a == "dismount":
        if not c.marks.get("mounted_on"):
            raise IllegalCommand(f"{c.name} is not mounted", rule("actions", "mount"))
    elif a == "cast-spell":
        spell = cmd.args.get("spell")
        if not isinstance(spell, str) or spell not in c.stats.spells:
            raise IllegalCommand(
                f"{c.name} does not know {spell!r}; known: {', '.join(c.stats.spells) or 'none'}",
                rule("spell-check"),
            )
        if t.magic.spells[spell].reaction:
            raise IllegalCommand(f"{spell} is a reaction, cast during a foe's turn", rule("reactions"))
        if spell in c.marks.get("spells_lost", ()):
            raise IllegalCommand(
                f"{c.name} has lost the use of {t.magic.spells[spell].label} for the day (Fizzle)",
                rule("spell-check", "fizzle"),
            )
        if c.count("pp_used") + 1 > c.stats.power_points:
            raise IllegalCommand(f"{c.name} has no Power Points left", rule("spell-check"))
        if target is None or dist(c, target) > settings_of(state).spell_range_spaces or target.hidden:
            raise IllegalCommand("the spell needs a seen target in range", setting("spell_range_spaces"))
        if target.id == c.id:
            # every cast spell of magic.toml (a setting: no spell list is public) is cast at a foe: a
            # Bolt is an attack (ATTACKING "An Attacker picks his target"), the others a condition the
            # target saves against; a side-mate in range may be aimed at (docs: Game master's calls)
            attack = t.magic.spells[spell].attack_roll
            raise IllegalCommand(
                f"{c.name} cannot cast {t.magic.spells[spell].label} at himself: it is cast at a foe",
                rule("attacking") if attack else rule("spell-check"),
            )
    elif a == "rally":
        if not [
            o
            for o in state.on_side(c.side)
            if o.has("routed") and dist(o, c) <= settings_of(state).rally_range_spaces
        ]:
            raise IllegalCommand("no Panicked (routed) unit in range", rule("actions", "rally"))
    elif a == "set-to-receive-charge":
        if not t.weapons[f.wielded].pole:
            raise IllegalCommand(
                "Set to Receive Charge requires a Spear or Pole-Arm",
                rule("actions", "set-to-receive-charge"),
            )
    elif a == "overwatch":
        if not t.weapons[f.wielded].ranged:
            raise IllegalCommand("Go into Overwatch requires a Ranged Weapon", rule("actions", "overwatch"))
    elif a in ("feint", "intimidate", "taunt"):
        if target is None or target.side == c.side or target.status != "active":
            raise IllegalCommand(f"{a} targets a foe", rule("actions", a))
        reach = 1 if a == "feint" else settings_of(state).intimidate_range_spaces
        if dist(c, target) > reach:
            raise IllegalCommand(f"{target.name} is too far for {a}", rule("actions", a))
    elif a == "quaff":
        if c.count("potions") <= 0:
            raise IllegalCommand(f"{c.name} has no potion", rule("actions", "quaff"))
    elif a == "stop-bleed":
        who = target or c
        if who.count("bleeds") <= 0 or dist(c, who) > 1:
            raise IllegalCommand(
                "Stop Bleed needs a bleeding wound within reach", rule("actions", "stop-bleed")
            )
    elif a == "break-free":
        if not (c.has("immobilized") or c.has("partial-immobilization")):
            raise IllegalCommand(f"{c.name} is not held", rule("immobilized"))
    elif a == "hide":
        if adj:
            raise IllegalCommand("cannot Hide while engaged in HTH", rule("actions", "hide"))
    elif a == "light-fuse" and "bomb" not in c.stats.weapons:
        raise IllegalCommand("Light Fuse needs a Gunpowder Bomb", rule("actions", "light-fuse"))


def _validate_attack(
    state: FightState, c: Combatant, f: Fighter, target: Combatant | None, cmd: Command
) -> None:
    t = tables()
    a = cmd.action
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
    move = move_spaces(state, c, 1.0)
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
    if a == "attack":
        if weapon.ranged or (weapon.band is not None and d > 1):
            if d <= 1:
                raise IllegalCommand(
                    "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
                )
            _check_range(state, c, target, weapon)
            if wid == "bomb" and not c.marks.get("fuse_lit"):
                raise IllegalCommand("Light Fuse first", rule("actions", "light-fuse"))
        elif d > 1:
            raise IllegalCommand(
                f"{target.name} is not adjacent: Close to Attack or Charge",
                rule("actions", "close-to-attack"),
            )
        if cmd.args.get("disarm"):
            held = target.marks.get("weapon") or target.stats.weapons[0]
            if t.weapons[held].hands == 0:  # unarmed, or a bite, claws, hooves: nothing held to lose
                raise IllegalCommand(f"{target.name} holds no weapon to lose", rule("disarmed"))
        if cmd.args.get("dual"):
            hands = dual_weapons(c, t)
            if len(hands) < 2:
                raise IllegalCommand("Dual Wield needs a one-handed weapon in each hand", rule("dual-wield"))
    elif a == "aimed-shot":
        _check_range(state, c, target, weapon)
    elif a in ("close-to-attack", "sneak-attack"):
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
    elif a in ("charge", "hurling-charge"):
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
    elif a == "leap-attack":
        if c.altitude <= target.altitude:
            raise IllegalCommand("Leap Attack is a pounce From Above", rule("actions", a))
        if d > 1 + c.altitude - target.altitude:
            raise IllegalCommand(f"{target.name} is too far to leap on", rule("actions", a))
    elif a in ("horde", "dog-pile"):
        if d - 1 > move:
            raise IllegalCommand(f"{target.name} is out of reach for a {a}", rule("horde-attack"))
        if not horde_helpers(state, c, target):
            raise IllegalCommand(
                f"{a} needs at least 2 attackers", rule("horde-attack" if a == "horde" else "dog-pile")
            )
        if a == "dog-pile" and not smaller_than(c, target):
            raise IllegalCommand("a Dog Pile is smaller races against a larger one", rule("dog-pile"))
    elif a == "trample":
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


def _check_range(state: FightState, c: Combatant, target: Combatant, weapon: Any) -> None:
    d = dist(c, target)
    if d <= 1:
        raise IllegalCommand(
            "too close to use a Ranged Weapon (HTH range)", rule("attack-modifiers", "range-hth")
        )
    band = range_band(d * settings_of(state).meters_per_space, underwater(state))
    limit = weapon.band or "short"
    if band == "beyond" or RANGE_BANDS.index(band) > RANGE_BANDS.index(limit):
        raise IllegalCommand(
            f"{target.name} is beyond {weapon.label} range ({limit})",
            rule("attack-modifiers", f"range-{limit}"),
        )
