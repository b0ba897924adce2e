"""A small ruleset for the store and web tests: Initiative rolled with 1d6, attack 1d6 + Attack vs Defense,
damage 1d6, out when damage reaches Health. It is installed under the id "sas" for a test (``install``) so
encounter files can name it; the real rulesets are tested in their own folders.

Monster statistics carry sentinel values (Lore 9137, the modifier "Ghoulish Cunning") that the player view
must never show.
"""

from __future__ import annotations

from typing import Any

from fracas.dice.roll import roll_dice
from fracas.engine import events as ev
from fracas.engine.commands import Command, Decision
from fracas.engine.contract import FirstChoice, Ruleset
from fracas.engine.encounter import assign_ids
from fracas.engine.state import Combatant, FightState
from fracas.errors import EncounterFileError, IllegalCommand
from fracas.rules.base import Rule

TEMPLATES: dict[str, dict[str, int]] = {
    "fighter": {"attack": 3, "defense": 4, "health": 14},
    "ghoul": {"attack": 2, "defense": 5, "health": 7, "lore": 9137},
}
SECRET_NUMBER = "9137"
SECRET_WORD = "Ghoulish Cunning"

TOY_ENCOUNTER: dict[str, Any] = {
    "version": 1,
    "ruleset": "sas",
    "name": "Toy brawl",
    "max_rounds": 30,
    "sides": [
        {
            "name": "heroes",
            "combatants": [
                {"template": "fighter", "id": "ann", "name": "Ann", "player": True, "at": [0, 0]},
                {"template": "fighter", "id": "bo", "name": "Bo", "player": True, "at": [0, 1]},
            ],
        },
        {
            "name": "monsters",
            "combatants": [
                {"template": "ghoul", "count": 2, "at": [[2, 0], [2, 1]]},
                {"template": "ghoul", "id": "lurker", "name": "Lurker", "hidden": True, "at": [5, -1]},
            ],
        },
    ],
}


class Toy(Ruleset):
    id = "sas"
    name = "Toy"
    source = "toy.txt"

    def rules(self) -> list[Rule]:
        return [Rule("toy/attack", "Attack", "p.1")]

    def templates(self) -> list[str]:
        return sorted(TEMPLATES)

    def make_combatants(self, spec: Any, side: str, where: str) -> list[Combatant]:
        if spec.template not in TEMPLATES:
            raise EncounterFileError(f"{where}.template: unknown {spec.template!r}; allowed: fighter, ghoul")
        stats = {**TEMPLATES[spec.template], **spec.stats}
        out = []
        for (cid, name), pos in zip(assign_ids(spec, spec.template), spec.positions(), strict=True):
            out.append(
                Combatant(
                    cid,
                    name,
                    side,
                    stats,
                    spec.player,
                    spec.tactic,
                    spec.hidden,
                    spec.template,
                    pos,
                    spec.facing,
                )
            )
        return out

    def pending(self, state: FightState) -> Decision | None:
        if state.phase == "act" and state.current is not None and state.current not in state.acted:
            return Decision(state.current, "act", "attack or wait")
        return None

    def advance(self, state: FightState, dice: Any) -> list[ev.Event]:
        if state.phase in ("started", "round-end"):
            return [ev.RoundStarted(state.round + 1)]
        if state.phase == "declare":
            out: list[ev.Event] = []
            rolls = {}
            for c in state.combatants.values():
                if c.active:
                    r = roll_dice([6], dice, explode=False, why=f"Initiative of {c.name}")
                    rolls[c.id] = r.total
                    rule = "toy/initiative p.1"
                    out.append(ev.InitiativeRolled(c.id, r.total, roll=r.to_json(), rule=rule))
            order = tuple(sorted(rolls, key=lambda k: (-rolls[k], k)))
            return [*out, ev.OrderSet(order), ev.TurnStarted(order[0])]
        if state.phase == "act":
            nxt = state.turn + 1
            while nxt < len(state.order) and not state.combatants[state.order[nxt]].active:
                nxt += 1
            if nxt < len(state.order):
                return [ev.TurnStarted(state.order[nxt])]
            return [ev.RoundEnded(state.round)]
        raise AssertionError(state.phase)

    def choices(self, state: FightState, decision: Decision) -> list[Command]:
        me = state.combatants[decision.actor]
        foes = [c for c in state.combatants.values() if c.side != me.side and c.active]
        out = [Command(me.id, "attack", f.id, label=f"Attack {f.name}") for f in foes]
        return [*out, Command(me.id, "wait", label="Wait")]

    def validate(self, state: FightState, command: Command) -> None:
        if command.action not in ("attack", "wait"):
            raise IllegalCommand(f"no action {command.action!r}", "toy/attack p.1")
        if command.action == "attack":
            t = state.combatants.get(command.target or "")
            if t is None or not t.active or t.side == state.combatants[command.actor].side:
                raise IllegalCommand("attack an active enemy", "toy/attack p.1")

    def resolve(self, state: FightState, command: Command, dice: Any) -> list[ev.Event]:
        me = state.combatants[command.actor]
        out: list[ev.Event] = []
        if command.action == "attack":
            target = state.combatants[command.target]
            mods = [(me.stats["attack"], "Attack", "toy/attack p.1")]
            if me.template == "ghoul":
                mods.append((0, SECRET_WORD, "toy/ghoul p.2"))
            r = roll_dice([6], dice, modifier=me.stats["attack"], explode=False, why=f"attack of {me.name}")
            hit = r.total >= target.stats["defense"]
            out.append(
                ev.Rolled(
                    me.id,
                    "attack",
                    r.total,
                    r.to_json(),
                    expr="1d6",
                    target=target.id,
                    against="Defense",
                    dn=target.stats["defense"],
                    outcome="hit" if hit else "miss",
                    success=hit,
                    modifiers=tuple(mods),
                    rule="toy/attack p.1",
                )
            )
            if hit:
                d = roll_dice([6], dice, explode=False, why=f"damage of {me.name}")
                out.append(ev.Damaged(target.id, d.total, me.id, rule="toy/damage p.1"))
                if target.count("damage") + d.total >= target.stats["health"]:
                    out.append(ev.StatusChanged(target.id, "unconscious", "toy/out p.1"))
        out.append(ev.TurnEnded(me.id))
        return out

    def tactics(self) -> dict[str, Any]:
        return {"default": FirstChoice()}

    def card(self, combatant: Combatant) -> dict[str, Any]:
        s = combatant.stats
        out = {
            "Attack": s["attack"],
            "Defense": s["defense"],
            "Damage": f"{combatant.count('damage')} / {s['health']}",
        }
        if "lore" in s:
            out["Lore"] = s["lore"]
        return out

    def odds(self, state: FightState, command: Command) -> str | None:
        if command.action != "attack":
            return None
        me = state.combatants[command.actor]
        t = state.combatants[command.target]
        need = t.stats["defense"] - me.stats["attack"]
        p = sum(1 for f in range(1, 7) if f >= need) / 6
        return f"1d6+{me.stats['attack']} vs Defense {t.stats['defense']}: {p:.0%} hit"


RULESET = Toy()


def install() -> None:
    """Make the id "sas" load this toy ruleset (for a test process or a test server)."""
    from fracas.rules import registry

    registry.RULESETS["sas"] = ("store_toy", "Toy")
    registry.get_ruleset.cache_clear()
