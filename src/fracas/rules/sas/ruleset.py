"""The Spells & Swords ruleset for the encounter engine (rules/base.py, docs/architecture.md).

A round (COMBAT ROUNDS): one side attacks, then the other, in the side order fixed in round 1 by Surprise or
side Initiative (SURPRISE, INITIATIVE). Within a side every member takes one action of the COMBAT ROUND
ACTIONS LIST; its attack and damage rolls are made at once, but what they do is held until the whole side
has attacked ("All combatants on the same side make their Attacks Simultaneously") and then applied. Out of
order attacks (a defender's longer weapon against a Charge, Receive Charge, Fire from Overwatch) apply at
once. Reactions are taken automatically when they are possible (docs/rulesets/sas.md).

Command actions and their args (every action id is a line of the list in data/combat.toml):
    attack (target; args weapon, dual (bool), target2, disarm (bool)), hack-and-slash, mighty-blow,
    defensive-stance-attack, aimed-shot (target), close-to-attack (target), charge (target; args
    battle_cry), hurling-charge (target; args battle_cry), sneak-attack (target), leap-attack (target),
    walk / run / sneak (args to [q, r] or toward <id>), disengage (args mode withdrawal|flee, target), hide,
    lookout, change-facing (args facing), stand-up, pick-up, mount (target), dismount, battle-cry, cast-spell
    (target; args spell), rally, set-to-receive-charge, overwatch, feint (target), defensive-stance,
    light-fuse, apply-poison, rummage, quaff, stop-bleed (target), intimidate (target), taunt (target),
    horde (target), dog-pile (target), break-free, trample (target), nothing.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.dice.source import DiceSource
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.contract import Ruleset
from fracas.engine.encounter import CombatantSpec, EncounterSpec, assign_ids
from fracas.engine.hexgrid import direction_to, distance
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.base import Modifier, OptionalRule, Rule
from fracas.rules.sas.actions import ATTACK_ACTIONS
from fracas.rules.sas.actions.mass import large_against, smaller_than
from fracas.rules.sas.actions.registry import ACTIONS
from fracas.rules.sas.automatic import automatic_turn
from fracas.rules.sas.fold import DEFENSE_CONDITIONS, TURN_SCOPED, EventBuilder, HiddenSet, views_held
from fracas.rules.sas.model import build_stats
from fracas.rules.sas.movement import may_close_at, no_room_next_to, no_way_through
from fracas.rules.sas.preview import attack_modifiers_now, odds
from fracas.rules.sas.procedures.attack import Situation
from fracas.rules.sas.round import auto_turn, next_actor, round_start, side_end, side_start
from fracas.rules.sas.rules import catalog, rule, rule_list
from fracas.rules.sas.settings import settings_of
from fracas.rules.sas.tables import Settings, tables
from fracas.rules.sas.validate import choices, validate

# condition labels that are nouns: "suffers Shock", not "is Shock"
NOUN_CONDITIONS = frozenset(
    {"Partial Blindness", "Chill", "Hypothermia", "Shock", "Burn", "Confusion", "Madness", "Choke"}
    | {"Partial Immobilization"}
)


GAINED_CONDITIONS = frozenset({"Shield Spell", "Battle Cry"})


class SasRuleset(Ruleset):
    id = "sas"
    name = "Spells & Swords"
    source = "004_0d1ac50b56c23caf.txt"
    hex_yards = 2.0 / 0.9144  # one space, 2 meters by default (setting meters_per_space)
    tactics_legal = True
    """The S&S tactics (``legal_by_construction``) hand back only a command this ruleset's ``validate`` has
    just accepted against the same unchanged state: the engine does not check it twice (engine/play.py
    ``Fight.step``; ``Fight.run_checked`` still does)."""

    def rules(self) -> list[Rule]:
        return rule_list()

    def optional_rules(self) -> list[OptionalRule]:
        return list(catalog().optional)

    def templates(self) -> list[str]:
        return sorted(tables().bestiary)

    def make_combatants(self, spec: CombatantSpec, side: str, where: str) -> list[Combatant]:
        overrides = dict(spec.stats)
        if spec.equipment:
            for key in ("weapons", "armor", "helmet", "shield"):
                if key in spec.equipment:
                    overrides[key] = spec.equipment[key]
        unknown_eq = set(spec.equipment) - {"weapons", "armor", "helmet", "shield", "potions", "bandages"}
        if unknown_eq:
            raise EncounterFileError(
                f"{where}.equipment: unknown item(s) {sorted(unknown_eq)}; "
                "allowed: weapons, armor, helmet, shield, potions"
            )
        if not spec.template and "label" not in overrides:
            overrides["label"] = spec.name or "combatant"
        stats = build_stats(spec.template or "", overrides, f"{where}.")
        if spec.options:
            unknown = set(spec.options) - {"mount", "heroic"}
            if unknown:
                raise EncounterFileError(
                    f"{where}.options: unknown {sorted(unknown)}; allowed: mount, heroic"
                )
            if "heroic" in spec.options:
                stats = dataclasses.replace(stats, heroic=bool(spec.options["heroic"]))
        out = []
        for (cid, name), pos in zip(assign_ids(spec, stats.label), spec.positions(), strict=True):
            c = Combatant(
                cid,
                spec.name
                if spec.name and spec.count == 1
                else name
                if spec.name or spec.template
                else stats.label,
                side,
                stats,
                player=spec.player,
                tactic=spec.tactic,
                hidden=spec.hidden,
                template=spec.template or "",
                pos=pos,
                facing=spec.facing,
                altitude=spec.altitude,
            )
            c.marks["weapon"] = stats.weapons[0]
            if spec.options.get("mount"):
                c.marks["mount_id"] = str(spec.options["mount"])
                c.marks["shares_hex"] = True
            if stats.mount:
                c.marks["shares_hex"] = True
            if spec.equipment.get("potions"):
                c.counters["potions"] = int(spec.equipment["potions"])
            out.append(c)
        return out

    def prepare(self, state: FightState, spec: EncounterSpec) -> None:
        known = set(Settings.model_fields)
        bad = set(state.extra.get("settings", {})) - known
        if bad:
            raise EncounterFileError(f"settings: unknown {sorted(bad)}; allowed: {', '.join(sorted(known))}")
        try:
            Settings.model_validate({**tables().settings.model_dump(), **state.extra.get("settings", {})})
        except Exception as exc:
            raise EncounterFileError(f"settings: {exc}".replace("\n", "; ")) from None
        # riders on their mounts
        for c in state.combatants.values():
            mid = c.marks.get("mount_id")
            if mid is None:
                continue
            mount = state.combatants.get(mid)
            if mount is None or not mount.stats.mount:
                raise EncounterFileError(f"{c.id}.options.mount: {mid!r} is not a mount in this encounter")
            c.marks["mounted_on"] = mid
            mount.marks["ridden_by"] = c.id
            if c.pos is None:
                c.pos = mount.pos
            mount.pos = c.pos
        # combatants without a position: each side in columns, facing the other sides
        occupied = {c.pos for c in state.combatants.values() if c.pos is not None}
        for si, side in enumerate(state.sides):
            n = 0
            for c in state.on_side(side):
                if c.pos is not None:
                    continue
                if c.marks.get("mounted_on") and state.combatants[c.marks["mounted_on"]].pos is not None:
                    c.pos = state.combatants[c.marks["mounted_on"]].pos
                    continue
                while True:
                    pos = (si * 8 + (n // 10) * (1 if si == 0 else -1) * -1, n % 10 - 5)
                    n += 1
                    if pos not in occupied:
                        break
                c.pos = pos
                occupied.add(pos)
                c.facing = 0 if si == 0 else 3
                rid = c.marks.get("ridden_by")
                if rid:
                    state.combatants[rid].pos = pos

        # everyone starts facing the nearest foe (map extra keep_facing: true keeps the file's facings)
        if not state.extra.get("map", {}).get("keep_facing"):
            for c in state.combatants.values():
                foes = [o for o in state.combatants.values() if o.side != c.side and o.pos is not None]
                if c.pos is None or not foes:
                    continue
                near = min(foes, key=lambda o: (distance(c.pos, o.pos), o.id))  # type: ignore[arg-type]
                if near.pos != c.pos:
                    c.facing = direction_to(c.pos, near.pos)  # type: ignore[arg-type]

    def is_out(self, combatant: Combatant) -> bool:
        return combatant.status != "active"

    def pending(self, state: FightState) -> Decision | None:
        if state.phase != "act" or state.ended:
            return None
        cid = state.current
        if cid is None or cid in state.acted:
            return None
        c = state.combatants[cid]
        if c.status != "active" or auto_turn(state, c):
            return None
        return Decision(cid, "act", f"{c.name}: choose an action")

    def advance(self, state: FightState, dice: DiceSource) -> list[ev.Event]:
        if state.phase in ("started", "round-end"):
            return [ev.RoundStarted(state.round + 1)]
        if state.phase == "declare":
            return round_start(state, dice)
        if state.phase == "side-start":
            return side_start(state)
        if state.phase == "act":
            cid = state.current
            if cid is not None and cid not in state.acted:
                c = state.combatants[cid]
                if c.status != "active":
                    return [ev.TurnEnded(cid)]
                return automatic_turn(state, c, dice)
            nxt = next_actor(state)
            if nxt is not None:
                return [ev.TurnStarted(nxt)]
            return side_end(state, dice)
        raise IllegalCommand(f"the Spells & Swords round has no phase {state.phase!r}")

    def resolve(self, state: FightState, command: Command, dice: DiceSource) -> list[ev.Event]:
        # the state stands still while a command is resolved (its events are applied after): each
        # combatant's view is built once, or taken over from the tactic that chose this command
        with views_held(state, command):
            return self._resolve(state, command, dice)

    def _resolve(self, state: FightState, cmd: Command, dice: DiceSource) -> list[ev.Event]:
        c = state.combatants[cmd.actor]
        b = EventBuilder(state)
        a = cmd.action
        target = state.combatants.get(cmd.target) if cmd.target else None
        if c.marks.get("set") and a not in ("set-to-receive-charge", "overwatch"):
            b.set_mark(c.id, "set", None)
        action = ACTIONS.get(a)
        if action is None:  # pragma: no cover - validate refuses an unknown action
            raise IllegalCommand(f"no handler for {a}")
        action.resolve(b, state, c, target, cmd, dice)
        if c.has("taunted") and a in ATTACK_ACTIONS:
            b.remove_condition(c.id, "taunted")
        act = tables().combat.actions.get(a)
        if act is not None and act.free:
            # COMBAT ROUND ACTIONS LIST "Change Facing - Free Action": the turn's action is still to come
            b.set_mark(c.id, "free_action_round", state.round, rule("actions", a))
            return b.finish()
        events = b.finish()
        if not any(isinstance(e, ev.TurnEnded) and e.actor == c.id for e in events):
            events.append(ev.TurnEnded(c.id))
        return events

    # what the engine and the tactics ask the ruleset: each a function of its rule area
    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        return choices(state, decision)

    def validate(self, state: FightState, command: Command) -> None:
        validate(state, command)

    def large_against(self, state: FightState, c: Combatant, target: Combatant) -> bool:
        return large_against(state, c, target)

    @staticmethod
    def smaller_than(c: Combatant, target: Combatant) -> bool:
        return smaller_than(c, target)

    def no_room_next_to(self, state: FightState, c: Combatant, target: Combatant) -> bool:
        return no_room_next_to(state, c, target)

    def may_close_at(self, state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
        return may_close_at(state, c, target, action)

    def no_way_through(self, state: FightState, c: Combatant, target: Combatant, action: str) -> bool:
        return no_way_through(state, c, target, action)

    def attack_modifiers_now(
        self, state: FightState, command: Command
    ) -> tuple[list[Modifier], Situation] | None:
        return attack_modifiers_now(state, command)

    def odds(self, state: FightState, command: Command) -> str | None:
        return odds(state, command)

    def tactics(self) -> dict[str, Any]:
        from fracas.rules.sas.tactics import TACTICS

        return dict(TACTICS)

    def card(self, combatant: Combatant) -> dict[str, Any]:
        s = combatant.stats
        return {
            "Wound Markers": f"{combatant.count('markers')} / {s.wound_level}",
            "Attack": s.attack,
            "Damage": s.damage,
            "Defense": s.defense,
            "Dodge": s.dodge,
            "Armor": s.armor,
            "Weapon": combatant.marks.get("weapon"),
            "Hurt": ", ".join(combatant.marks.get("hurt", ())),
            "Broken": ", ".join(combatant.marks.get("broken", ())),
            "Bleeds": combatant.count("bleeds"),
        }

    def narrate(self, event: ev.Event, state: FightState) -> str | None:
        if isinstance(event, HiddenSet):
            name = state.combatants[event.target].name
            return f"  {name} {'hides' if event.hidden else 'is seen'}."
        if isinstance(event, ev.ExtraSet | ev.PhaseChanged | ev.Marked):
            return ""
        if isinstance(event, ev.ConditionRemoved) and event.name in TURN_SCOPED:
            return ""
        plain = isinstance(event, ev.ConditionAdded) and event.name not in ("battle-cry", *DEFENSE_CONDITIONS)
        if plain and event.name in tables().conditions.conditions:  # type: ignore[union-attr]
            c = state.combatants[event.target]  # type: ignore[union-attr]
            label = tables().conditions.conditions[event.name].label  # type: ignore[union-attr]
            rnd = event.until_round  # type: ignore[union-attr]
            until = f" until the end of round {rnd}" if rnd is not None else ""
            left = (rnd - state.round) if rnd is not None else 0
            per_minute = settings_of(state).rounds_per_minute
            if left >= 60 * per_minute:  # hours: say so (a round is about 10 seconds)
                n = round(left / (60 * per_minute))
                until = f" for about {n} hour{'s' if n != 1 else ''} (to round {rnd})"
            elif left >= 2 * per_minute:
                until = f" for about {round(left / per_minute)} minutes (to round {rnd})"
            verb = "suffers" if label in NOUN_CONDITIONS else "gains" if label in GAINED_CONDITIONS else "is"
            return f"  {c.name} {verb} {label}{until} ({event.source}) [{event.rule}]"  # type: ignore[union-attr]
        if isinstance(event, ev.ConditionAdded) and event.name == "battle-cry":
            c = state.combatants[event.target]
            return f"  {c.name} raises a Battle Cry ({event.source}) [{event.rule}]"
        if isinstance(event, ev.ConditionAdded) and event.name in DEFENSE_CONDITIONS:
            c = state.combatants[event.target]
            return f"  {c.name}: {event.source or event.name}, Defense {event.value:+d} [{event.rule}]"
        if isinstance(event, ev.CounterChanged) and event.counter in ("hits", "pp_used", "burn_markers"):
            return ""
        if isinstance(event, ev.Damaged) and event.counter == "markers":
            c = state.combatants[event.target]
            word = "Wound Marker" + ("s" if event.amount != 1 else "")
            src = f" from {state.combatants[event.source].name}" if event.source in state.combatants else ""
            wl = c.stats.wound_level
            return f"  {c.name} gets {event.amount} {word}{src} (Wound Level {wl}) [{event.rule}]"
        if isinstance(event, ev.CounterChanged) and event.counter == "markers":
            c = state.combatants[event.target]
            word = "Wound Marker" + ("s" if abs(event.delta) != 1 else "")
            sign = "gets" if event.delta > 0 else "loses"
            wl = c.stats.wound_level
            return f"  {c.name} {sign} {abs(event.delta)} {word} (Wound Level {wl}) [{event.rule}]"
        return None


RULESET = SasRuleset()
