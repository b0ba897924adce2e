"""The defense (B374-377; reference/gurps.md 1.4): the ``defend`` command that answers an attack waiting for
its defense, the defense roll and what follows it (retreat, Dodge and Drop, criticals, a second defense)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand
from fracas.rules.gurps4 import aerial, core, mounted
from fracas.rules.gurps4.attack import follow_up
from fracas.rules.gurps4.defense import defense_options, defense_value
from fracas.rules.gurps4.figure import ATTACK_KEY, S, Work, dodge_now, flying, mount_of, scratch
from fracas.rules.gurps4.geometry import move_figure, path_towards
from fracas.rules.gurps4.injury import apply_hit
from fracas.rules.gurps4.riding import unhorse
from fracas.rules.gurps4.validate import Maneuver


class Defend(Maneuver):
    """The react decision: ``args.defense`` (dodge | parry | block | none), ``retreat`` (bool), ``weapon``
    (for a parry), ``acrobatic``, ``drop``: one of the defenses on offer against the waiting attack."""

    name = "defend"
    decision = "react"
    rule = "gurps4/core/active-defense B374"

    def offered(self, state: FightState, actor: Combatant) -> Iterable[Command]:
        return [cmd for cmd, _ in defense_options(state)]

    def validate(self, state: FightState, command: Command) -> None:
        a = state.combatants[command.actor]
        att = state.extra.get(ATTACK_KEY)
        if not att or att["defender"] != a.id:
            raise IllegalCommand(
                f"{a.name} has no attack to defend against now", "gurps4/core/active-defense"
            )
        args = command.args

        def key(x: dict[str, Any]) -> tuple[str, bool, bool, bool]:
            return (
                x.get("defense", "none"),
                bool(x.get("retreat", False)),
                bool(x.get("acrobatic", False)),
                bool(x.get("drop", False)),
            )

        for cmd, _ in defense_options(state):
            if key(cmd.args) == key(args) and args.get("weapon") in (None, cmd.args.get("weapon")):
                return
        explain_defense_refusal(state, a, command)

    def resolve(self, w: Work, cmd: Command) -> None:
        att = dict(w.state.extra[ATTACK_KEY])
        d, a = w.c(att["defender"]), w.c(att["attacker"])
        atk = S(a).attack(att["attack"])
        assert atk is not None
        kind = cmd.args.get("defense", "none")
        retreat = bool(cmd.args.get("retreat", False))
        drop = bool(cmd.args.get("drop", False))
        weapon = cmd.args.get("weapon")
        w.emit(ev.ExtraSet(ATTACK_KEY, None))
        hit = True
        if kind != "none":
            if kind == "parry" and weapon is None:  # the best parry on offer
                parries = [
                    (v, c.args.get("weapon")) for c, v in _options_for(w, att) if c.args["defense"] == "parry"
                ]
                weapon = max(parries, key=lambda p: p[0])[1] if parries else None
            ds = S(d)
            if kind == "dodge":
                value, base_mods = dodge_now(d)
            elif kind == "parry":
                pw = ds.attack(weapon)
                assert pw is not None and pw.parry is not None
                value, base_mods = core.parry_score(
                    ds.skill(pw.skill_name)
                    if not pw.natural
                    else max(ds.skills.get("Brawling", ds.dx), ds.dx),
                    pw.parry,
                    ds.combat_reflexes,
                )
            else:
                value, base_mods = core.block_score(ds.skill("Shield"), ds.combat_reflexes)
            eff, mods = defense_value(w.state, d, a, att, kind, retreat, weapon, value, base_mods, drop=drop)
            if cmd.args.get("acrobatic"):
                ra, am = aerial.acrobatic_dodge(S(d).skills["Aerobatics"], w.dice)
                w.rolled(d.id, ra, a.id, "gurps4/aerial/acrobatic-dodge B375, B398")
                mods.append(am)
            raw_base = value - sum(m.value for m in base_mods)
            r = core.success_roll(
                kind.title() + (f" ({weapon})" if weapon else ""), raw_base, mods, w.dice, "defense"
            )
            w.rolled(d.id, r, a.id, "gurps4/core/active-defense B374")
            hit = not r.success
            if d.marks.get("aim"):
                # any active defense spoils an Aim (B364; reference 1.3: "defending loses the Aim")
                w.mark(d, "aim", None, "gurps4/core/maneuver/aim B364")
                w.note(f"{d.name} loses the Aim by defending", d.id, "gurps4/core/maneuver/aim B364")
            if drop:  # prone, whether the Dodge succeeded or not (B377)
                w.mark(d, "posture", "lying", "gurps4/core/active-defense/dodge-and-drop B377")
            if kind == "parry":
                used = ds.attack(weapon or "")
                assert used is not None
                w.mark(d, "parries", (*tuple(d.marks.get("parries") or ()), used.weapon))
            if kind == "block":
                w.mark(d, "blocked", True)
            if d.marks.get("feinted") and d.marks["feinted"][0] == a.id:
                w.mark(d, "feinted", None)
            if retreat:
                _retreat(w, d, a)
            if r.critical_failure:
                _critical_failure(w, d, kind)
        if (
            hit
            and kind != "none"
            and d.marks.get("maneuver") == "all_out_defense_double"
            and not att.get("tried")
        ):
            again = {**att, "tried": (kind,)}
            w.emit(ev.ExtraSet(ATTACK_KEY, again))
            if len(defense_options(w.state)) > 1:
                w.note(
                    f"{d.name} tries a second, different defense (All-Out Defense, Double Defense)",
                    d.id,
                    "gurps4/core/maneuver/all-out-defense B366",
                )
                return
            w.emit(ev.ExtraSet(ATTACK_KEY, None))
        if hit:
            apply_hit(w, a, d, atk, att["location"], att["maneuver"], False)
        target = w.c(att.get("target", d.id)) if att.get("target") in w.state.combatants else d
        follow_up(w, a, target, atk, att["maneuver"], dict(att.get("args", {})), int(att["attacks_left"]))


def _options_for(w: Work, att: dict[str, Any]) -> list[tuple[Command, int]]:
    probe = scratch(w.state)
    probe.extra[ATTACK_KEY] = att
    return defense_options(probe)


def explain_defense_refusal(state: FightState, d: Combatant, command: Command) -> None:
    kind = command.args.get("defense", "none")
    if S(d).mount and kind != "dodge":
        mounted.mount_defense_allowed(kind)
    att = state.extra.get(ATTACK_KEY) or {}
    a = state.combatants.get(att.get("attacker", ""))
    if a is not None and S(a).mount and att.get("attack") == "trample" and kind != "dodge":
        mounted.trample_defense_allowed(kind)
    raise IllegalCommand(
        f"{d.name} cannot {kind}{' and retreat' if command.args.get('retreat') else ''} now "
        f"(allowed: {', '.join(c.describe() for c, _ in defense_options(state))})",
        "gurps4/core/active-defense B374",
    )


def _retreat(w: Work, d: Combatant, a: Combatant) -> None:
    """A Retreat with the defense (B377): a step away from the attacker (a flyer climbs a yard, B398)."""
    if d.marks.get("retreated") == a.id:
        return  # the same retreat, still good against this attacker: no second step (B377)
    w.mark(d, "retreated", a.id)
    if flying(d):
        w.emit(ev.Moved(d.id, (), "retreat", None, d.altitude + 1, "gurps4/aerial/retreat B398"))
    elif a.pos is not None:
        path = path_towards(w.state, d, a.pos, 1, away=True)
        if path:
            moved = d.marks.get("moved")
            move_figure(w, d, path, None, "retreat", "gurps4/core/active-defense/retreat B377")
            w.mark(d, "moved", moved)  # a retreat is not the mount's own movement


def _critical_failure(w: Work, d: Combatant, kind: str) -> None:
    """A defense's critical failure (B377, B556): a Dodge falls (or unseats a rider), a Block unreadies the
    shield, a Parry's Critical Miss Table is the game master's."""
    if kind == "dodge" and mount_of(w.state, d) is not None:
        unhorse(w, d, "critical failure on a Dodge")
    elif kind == "dodge":
        w.mark(d, "posture", "lying", "gurps4/core/critical B377")
        if flying(d):
            w.note(
                f"{d.name} tumbles in the air (critical failure on a Dodge): it fights as if "
                "fallen down until it takes a Change Posture",
                d.id,
                "gurps4/core/critical",
            )
        else:
            w.note(f"{d.name} falls down (critical failure on a Dodge)", d.id, "gurps4/core/critical")
    elif kind == "block":
        w.mark(d, "shield_unready", True, "gurps4/core/critical")
        w.note(
            f"{d.name}'s shield is unreadied (critical failure on a Block)",
            d.id,
            "gurps4/core/critical",
        )
    else:
        w.note(
            "critical failure on a Parry: the Critical Miss Table (B556) is a GM's call",
            d.id,
            "gurps4/core/critical B556",
        )
