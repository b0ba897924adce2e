"""The Earthdawn attack (ED4 p.377-380): Attack test against a Defense, extra successes, Damage test, armor,
Wounds, knockdown; a creature with several Actions attacks that many times."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.actions import EarthdawnActions
from fracas.rules.earthdawn.battle_map import inside_minimum, range_hexes, within
from fracas.rules.earthdawn.combat import Scratch, TestContext, damage_events, rolled_event, run_test

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

_DEFENSE_LABELS = {"physical": "Physical Defense", "mystic": "Mystic Defense", "social": "Social Defense"}


class EarthdawnAttack(EarthdawnActions):
    """The ``attack`` action: its validation (reach, range, Karma, the path before and after) and the Attack
    and Damage tests of each blow."""

    def _v_attack(self, state: FightState, command: Command) -> None:
        me = self._v_active(state, command)
        target = self._target(state, command)
        if target.status == "dead":
            raise IllegalCommand(f"{target.name} is dead already")
        if target.id == me.id:
            raise IllegalCommand("a character does not attack himself")
        p: CombatProfile = me.stats
        a = p.attack(command.args.get("attack"))
        if a is None:
            raise IllegalCommand(
                f"{me.name} has no attack {command.args.get('attack')!r}; "
                f"known: {', '.join(x.name for x in p.attacks)}"
            )
        if command.args.get("karma") and me.counters.get("karma", 0) < 1:
            raise IllegalCommand(f"{me.name} has no Karma left", self.ref("karma"))
        if command.args.get("karma") and not a.karma:
            raise IllegalCommand(f"Karma cannot be spent on {me.name}'s {a.name} test", self.ref("karma"))
        if command.args.get("karma_damage") and not a.karma_damage:
            raise IllegalCommand(
                f"nothing lets {me.name} add Karma to the {a.name} Damage test", self.ref("karma")
            )
        left = self.movement_hexes(state, me) - self.moved_this_round(state, me)
        path = self._check_path(state, me, command.args.get("path"), max(left, 0), self.ref("movement"))
        where = path[-1] if path else me.pos
        if where is None or target.pos is None:
            return
        d = distance(where, target.pos)
        if a.close:
            if d != 1:
                raise IllegalCommand(
                    f"{target.name} is {d} hexes away: close combat needs an adjacent target",
                    self.ref("combat.close"),
                )
        else:
            yards = d * 2
            if a.long is not None and not within(d, a.long):
                raise IllegalCommand(
                    f"{target.name} is {yards} yards away, beyond the {a.name}'s long range {a.long}",
                    self.ref("combat.ranged"),
                )
            if inside_minimum(range_hexes(d, me.altitude, target.altitude), a.minimum):
                raise IllegalCommand(f"{target.name} is inside the minimum range", self.ref("combat.ranged"))
        if command.args.get("after"):
            # Movement may come before or after the action (p.373): what is left of the Movement Rate.
            self._check_path(
                state, me, command.args["after"], max(left - len(path), 0), self.ref("movement"), start=where
            )

    def _r_attack(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        """Attack test against the target's Defense (p.377), extra successes (+2 damage steps each against
        Physical Defense), Damage test (weapon + Strength, p.378), Armor, Wounds, knockdown, unconsciousness
        and death (p.379-380). A creature with several Actions makes that many attacks (until the target
        falls)."""
        me_id = command.actor
        args = command.args
        raw_path = args.get("path")
        if raw_path:
            path = [tuple(h) for h in raw_path]
            self._emit_move(state, command, sc, path, "move", self.ref("movement"))  # type: ignore[arg-type]
        combatants = sc.combatants
        me = combatants[me_id]
        p: CombatProfile = me.stats
        a = p.attack(args.get("attack"))
        assert a is not None
        reserved = bool(sc.flags.get("reserved"))  # reacting with a reserved action (+2 to DNs, p.375)
        karma = bool(args.get("karma"))
        karma_damage = bool(args.get("karma_damage"))
        n = p.actions if a.kind != "spell" else 1
        tid = command.target or ""
        for _ in range(n):
            target = combatants[tid]
            if target.status == "dead" or (_ and target.status != "active"):
                break
            self.attack_once(state, sc, dice, me, target, a, command, reserved, karma, karma_damage)
            if karma and me.counters.get("karma", 0) < 1:
                karma = False
            if karma_damage and me.counters.get("karma", 0) < 1:
                karma_damage = False
            if me.status != "active":
                break
        after = [tuple(h) for h in command.args.get("after") or ()]
        if after and me.status == "active" and "knocked-down" not in me.conditions:
            self._emit_move(state, command, sc, after, "move", self.ref("movement"))  # type: ignore[arg-type]
        self._end_or_mark(state, command, sc, True)

    def attack_once(
        self,
        state: FightState,
        sc: Scratch,
        dice: DiceSource,
        me: Combatant,
        target: Combatant,
        a: AttackProfile,
        command: Command | None,
        reserved: bool,
        karma: bool,
        karma_damage: bool,
    ) -> None:
        p: CombatProfile = me.stats
        tp: CombatProfile = target.stats
        refs = self.edition.refs
        mpos = me.pos
        tpos = target.pos
        if mpos is not None and tpos is not None:
            dq = mpos[0] - tpos[0]
            dr = mpos[1] - tpos[1]
            yards = (abs(dq) + abs(dr) + abs(dq + dr)) // 2 * 2
        else:
            yards = 0
        against = a.against
        ctx = TestContext(
            state, sc, "attack", me, target, a, command, against, {"yards": yards, "reserved": reserved}
        )
        smods = self.step_mods(ctx)
        defense = (
            tp.physical_defense
            if against == "physical"
            else tp.mystic_defense
            if against == "mystic"
            else tp.social_defense
        )
        dmods = self.defense_mods(ctx)
        dn = defense
        for m in dmods:
            dn += m.value
        if dn < 1:
            dn = 1
        use_karma = karma and me.counters.get("karma", 0) > 0
        label = _DEFENSE_LABELS[against]
        res = run_test(
            dice,
            self.edition,
            a.step,
            smods,
            dn,
            p.karma_step if use_karma else None,
            me.name,
            f"{a.name} Attack",
            label,
        )
        physical = against == "physical"
        rule = refs["attack.extra-successes"] if res.extra and physical else refs["attack"]
        emit = sc.emit1
        if use_karma:
            emit(ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", refs["karma"]))
        emit(rolled_event(me.id, f"{a.name} Attack", res, rule, target.id, label, dmods, refs["karma"]))
        if not res.success:
            return
        ctx.test = "damage"
        dsm = self.step_mods(ctx)
        if res.extra and physical:
            dsm.append(
                Modifier(
                    res.extra * self.edition.extra_success_damage,
                    f"{res.extra} extra success{'es' if res.extra > 1 else ''}",
                    refs["attack.extra-successes"],
                )
            )
        use_kd = karma_damage and me.counters.get("karma", 0) > 0
        if use_kd:
            emit(ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Damage test", refs["karma"]))
        dres = run_test(
            dice,
            self.edition,
            a.damage,
            dsm,
            None,
            p.karma_step if use_kd else None,
            me.name,
            f"{a.name} Damage",
        )
        emit(
            rolled_event(me.id, f"{a.name} Damage", dres, refs["damage"], target.id, karma_rule=refs["karma"])
        )
        armor = self.armor_of(target, a)
        stun = a.stun or bool(command and command.args.get("stun"))

        def kd_mods(t: Combatant, new_wounds: int) -> list[Modifier]:
            return self.step_mods(TestContext(state, sc, "knockdown", t, extra={"new_wounds": new_wounds}))

        damage_events(
            sc,
            self.edition,
            dice,
            target.id,
            dres.total,
            armor,
            me.id,
            stun=stun,
            damage_type=a.armor if a.armor != "none" else "unarmored",
            knockdown_mods=kd_mods,
            round_no=state.round,
        )
