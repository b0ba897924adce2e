"""The 1st Edition attack (ch.12, reference 1.5): the Attack test against Physical or Spell Defense graded by
success level, an armor-defeating Excellent or Extraordinary hit, charging and swooping attacks that only a
reserved action can meet, the Damage test (a charging rider adds his mount's Strength step)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fracas.dice.exact import ed1_success_levels
from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.base import Modifier
from fracas.rules.earthdawn.combat import Scratch, TestContext, damage_events, rolled_event, run_test
from fracas.rules.ed1.round import Ed1Round, level_outcome

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile

ARMOR_DEFEATING = ("Excellent", "Extraordinary")
SUCCESS = ("Average", "Good", "Excellent", "Extraordinary")


class Ed1Attack(Ed1Round):
    """The attack action by the 1st Edition."""

    def _r_attack_ed1(self, state: FightState, command: Command, dice: DiceSource, sc: Scratch) -> None:
        """The shared attack; a hidden attacker is seen from then on: the other side's tactics know of him
        (they declare against what their characters know, ch.12§Combat-Round.1) [choice: the ED1 text has
        no surprise rule; ED4 reveals an ambusher the same way, p.388]."""
        me = state.combatants[command.actor]
        if me.hidden and not me.marks.get("revealed"):
            sc.emit(ev.Marked(me.id, "revealed", True, self.ref("round.declare")))
        self._r_attack(state, command, dice, sc)

    def _v_attack_ed1(self, state: FightState, command: Command) -> None:
        self._v_attack(state, command)  # a fled target is refused there (_target, FLED_RULE)
        if command.args.get("stun"):
            raise RuleNotImplemented(
                f"Stun damage ({self.ref('damage.stun')}): the ED1 combat text held has no rule for an "
                "attack to stun (the Combat Options are not in it); fracas does not carry the ED4 rule over"
            )
        self._all_at_once(state, command)
        me = state.combatants[command.actor]
        swoop = bool(command.args.get("swoop"))  # a swoop flies in, strikes and flies on (Aerial Combat)
        if command.args.get("after") and not swoop and not state.options.get("split-movement", False):
            before = self.moved_this_round(state, me) + len(command.args.get("path") or ())
            if before:
                raise IllegalCommand(
                    f"{me.name} moves before the attack: movement takes place all at once, before or after "
                    "the action (Splitting Movement is an optional rule, off)",
                    self.ref("movement.all-at-once"),
                )
        target = state.combatants[command.target or ""]
        if self.is_charging(state, target) and me.marks.get("ed1_reserved") != state.round:
            raise IllegalCommand(
                f"{target.name} is making a charging or swooping attack: only a reserved action "
                "(a lower Initiative) can attack him",
                self.ref("reserved.charge"),
            )
        if command.args.get("charge"):
            p = me.stats
            a = p.attack(command.args.get("attack"))
            if not getattr(p, "mount", None):
                raise IllegalCommand(f"{me.name} is not mounted: no charging attack", self.ref("charge"))
            if a is None or not a.close:
                raise IllegalCommand("a charging attack is a close attack", self.ref("charge"))
            path = [tuple(h) for h in command.args.get("path") or ()]
            if len(path) < 2 or not _straight(me.pos, path):
                raise IllegalCommand(
                    "a charging attack needs a run of 2 hexes or more in a straight line into close combat",
                    self.ref("charge"),
                )
        if command.args.get("swoop") and not getattr(me.stats, "flying", False):
            raise IllegalCommand(f"{me.name} does not fly: no swooping attack", self.ref("swoop"))

    def is_charging(self, state: FightState, c: Combatant) -> bool:
        """Using a charging or swooping attack this round (ch.12§Reserved-Actions): made one this round, or
        declared one and can still make it (his turn not taken yet, active, not knocked down: standing up
        takes the action). A declared charger who took his turn without charging, or who fell before it, is
        no longer charging and may be attacked as anyone else."""
        if c.marks.get("ed1_charging") == state.round:
            return True
        if c.id in state.acted or c.status != "active" or "knocked-down" in c.conditions:
            return False
        d = state.declarations.get(c.id) or {}
        opts = d.get("options", ()) or ()
        return "charge" in opts or "swoop" in opts

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
        """One ED1 attack: the Attack test against Physical or Spell Defense (+2 for a changed or reserved
        action), graded by success level; no extra successes; an Excellent or Extraordinary result defeats
        armor (option armor-defeating-hits); the Damage test (a charging rider adds his mount's Strength
        step, option charge-damage); then armor, Wounds, knockdown, unconsciousness and death (shared)."""
        p: CombatProfile = me.stats
        tp: CombatProfile = target.stats
        opts = state.options
        reserved = reserved or me.marks.get("ed1_reserved") == state.round
        changed = self.declared_change(state, command) if command is not None else None
        if command is not None and (command.args.get("charge") or command.args.get("swoop")):
            sc.emit(
                ev.Marked(
                    me.id,
                    "ed1_charging",
                    state.round,
                    self.ref("charge" if command.args.get("charge") else "swoop"),
                )
            )
        yards = distance(me.pos, target.pos) * 2 if me.pos is not None and target.pos is not None else 0
        extra = {"yards": yards, "reserved": reserved, "changed": changed}
        ctx = TestContext(state, sc, "attack", me, target, a, command, a.against, extra)
        smods = self.step_mods(ctx)
        defense = (
            tp.physical_defense
            if a.against == "physical"
            else tp.mystic_defense
            if a.against == "mystic"
            else tp.social_defense
        )
        dmods = self.defense_mods(ctx)
        dn = max(1, defense + sum(m.value for m in dmods))
        use_karma = karma and me.counters.get("karma", 0) > 0
        label = {"physical": "Physical Defense", "mystic": "Spell Defense", "social": "Social Defense"}[
            a.against
        ]
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
        outcome, level = level_outcome(res.total, dn, bool(res.success), res.rule_of_one)
        if use_karma:
            sc.emit(
                ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Attack test", self.ref("karma"))
            )
        rolled = rolled_event(
            me.id, f"{a.name} Attack", res, self.ref("attack"), target.id, label, dmods, self.ref("karma")
        )
        sc.emit(dataclasses.replace(rolled, outcome=outcome, extra=0))
        if not res.success:
            return
        ctx.test = "damage"
        dsm = self.step_mods(ctx)
        mount_str = getattr(p, "mount_strength", 0)
        if (
            command is not None
            and command.args.get("charge")
            and mount_str
            and opts.get("charge-damage", True)
        ):
            dsm.append(
                Modifier(
                    mount_str, f"charge: {getattr(p, 'mount', 'mount')}'s Strength step", self.ref("charge")
                )
            )
        use_kd = karma_damage and me.counters.get("karma", 0) > 0
        if use_kd:
            sc.emit(
                ev.CounterChanged(me.id, "karma", -1, f"Karma on the {a.name} Damage test", self.ref("karma"))
            )
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
        sc.emit(
            rolled_event(
                me.id, f"{a.name} Damage", dres, self.ref("damage"), target.id, karma_rule=self.ref("karma")
            )
        )
        armor = 0 if a.armor == "none" else tp.physical_armor if a.armor == "physical" else tp.mystic_armor
        if a.armor == "physical" and armor and opts.get("armor-defeating-hits", True):
            if level in ARMOR_DEFEATING:
                sc.emit(
                    ev.Note(
                        f"{level} success: an armor-defeating hit, {target.name}'s {armor} Physical Armor "
                        "does not count",
                        me.id,
                        self.ref("attack.armor-defeating"),
                    )
                )
                armor = 0
            elif level is None and dn > max(ed1_success_levels()):
                sc.emit(
                    ev.Note(
                        f"DN {dn} is above the Success Level Table rows held "
                        f"(DN 2-{max(ed1_success_levels())}): "
                        "the level is unknown, so no armor-defeating hit; armor counts",
                        me.id,
                        self.ref("levels"),
                    )
                )
        stun = a.stun or bool(command and command.args.get("stun"))

        def kd_mods(t: Combatant, new_wounds: int = 0) -> list[Modifier]:
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
            knockdown_mods=kd_mods,  # type: ignore[arg-type]
            round_no=state.round,
        )

    def _unconscious_defense(self, ctx: TestContext) -> Iterable[Modifier]:
        """An unconscious target's Defense -2 (the shared Earthdawn rule, ED4 Blindsided), cited as the
        ED1 choice it is: the ED1 Situation Modifiers are not in the text held."""
        t = ctx.target
        if t is not None and t.status == "unconscious":
            return (Modifier(-2, f"{t.name} unconscious", self.ref("situation.unconscious")),)
        return ()

    def describe_odds(self, t: Any) -> str:
        """The shared odds plus, for an Attack test, the chance of an Excellent or better result (an
        armor-defeating hit, reference 1.5) graded as the fight grades it (DN 1 on the DN 2 row); above the
        rows held, that the level is unknown."""
        text = super().describe_odds(t)
        if not t.step or t.dn is None or "Attack" not in t.test:
            return text
        rows = ed1_success_levels()
        if t.dn > max(rows):
            return f"{text}; success level unknown above DN {max(rows)}"
        from fracas.dice.exact import ed1_test

        expr = f"step {t.step}" + (f"+step {t.karma_step}" if t.karma_step is not None else "")
        o = ed1_test(expr, max(t.dn, min(rows)), self.edition.steps, self.edition.rule_of_one_min_dice)
        levels = o.levels or {}
        p = levels.get("Excellent", 0.0) + levels.get("Extraordinary", 0.0)
        head, sep, tail = text.partition("; Rule of One")
        return f"{head}, {100 * p:.0f}% Excellent or better (armor-defeating){sep}{tail}"


def _straight(start: tuple[int, int] | None, path: list[tuple[int, int]]) -> bool:
    """The path keeps one hex direction from ``start`` (a charge's "relatively straight line", allowing
    the two directions next to it once each side)."""
    if start is None:
        return False
    from fracas.engine.hexgrid import direction_to

    dirs = []
    prev = start
    for h in path:
        dirs.append(direction_to(prev, h))
        prev = h
    main = max(set(dirs), key=dirs.count)
    return all(d == main or (d - main) % 6 in (1, 5) for d in dirs)
