"""Tactics that use the ED4 combat options and the mounted and aerial rules (p.382-398). Deterministic.

- ``veteran``: the default tactic plus combat options where they pay: Jump Up when knocked down (if the 2
  Strain is affordable), Defensive Stance when three or more enemies are next to it or a hit could kill it,
  Aggressive Attack when it is fresh and the +3 raises its expected damage more than the -3 to its
  Defenses costs (a close-combat fighter with few enemies near); fliers swoop (Splitting Movement) and
  riders charge when a target lies beyond the mount's Movement Rate.
- ``mount``: a ridden combat mount attacks an adjacent enemy with its Standard action when the rider has not
  used it to move; unridden, it fights as ``default``.

Every ED4 tactic (the core's and these) is wrapped in :class:`ChapterAware`, which adds what the chapter asks
of any combatant whatever its tactic: it declares the combat options its encounter file gives it
(``combat_options``) each round when they are legal, and acts on them (Jump Up, the tail attack, Setting
Against a Charge, Shattering a Shield, Called Shots at the weapon); it breaks free when grappled or
entangled (p.391-392); and a thrower whose thrown weapon was its last one goes to pick it up (p.392).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from fracas.engine import pathing, taken
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance, line, neighbours
from fracas.rules.earthdawn.battle_map import covered_yards, within
from fracas.rules.earthdawn.combat import current_damage
from fracas.rules.ed4 import mounted
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.readers import declared, lying_in_reach, mount_of, mount_rate, rider_of
from fracas.rules.ed4.tactics import (
    Ed4Tactic,
    GuardTactic,
    _enemies,
    _nearest,
    expected_damage,
    mean_step,
)

if TYPE_CHECKING:
    from fracas.engine.state import Combatant, FightState


class VeteranTactic(Ed4Tactic):
    name = "veteran"
    declares = True

    def choose(self, state: FightState, decision: Decision, ruleset: Any) -> Command:
        if decision.kind == "declare":
            me = state.combatants[decision.actor]
            return Command(me.id, "declare", args={"action": "attack", "options": self.options(state, me)})
        return super().choose(state, decision, ruleset)

    def options(self, state: FightState, me: Combatant) -> list[str]:
        p = me.stats
        if "surprised" in me.conditions:
            return []
        left = (p.unconsciousness or p.death) - current_damage(me)
        if "knocked-down" in me.conditions:
            return [opt.JUMP_UP] if left > 6 else []
        foes = _enemies(state, me)
        near = [f for f in foes if f.pos and me.pos and distance(f.pos, me.pos) <= 1]
        if self.flier(me) and any(a.close for a in p.attacks) and left > 4:
            return [opt.SPLIT]
        if not near and self.can_set_against(state, me, foes):
            return [opt.SET_AGAINST_CHARGE]
        if len(near) >= 3 or (near and self.in_danger(me, near)):
            return [opt.DEFENSIVE]
        close_att = [a for a in p.attacks if a.close]
        if not close_att or left <= 8:
            return []
        target = _nearest(me, foes)
        if target is None or me.pos is None or target.pos is None or distance(me.pos, target.pos) > 4:
            return []
        a = max(close_att, key=lambda x: expected_damage(me, target, x))
        gain = self._aggr_gain(me, target, a)
        threat = sum(mean_step(x.damage) for f in near for x in f.stats.attacks[:1]) * 0.15
        return [opt.AGGRESSIVE] if gain > threat + 1.0 else []

    def _aggr_gain(self, me: Combatant, target: Combatant, a: Any) -> float:
        import dataclasses

        better = dataclasses.replace(a, step=a.step + 3, damage=a.damage + 3)
        return expected_damage(me, target, better) - expected_damage(me, target, a)

    def can_set_against(self, state: FightState, me: Combatant, foes: list[Combatant]) -> bool:
        """A long weapon and a mounted enemy who could charge: wait for him (p.385)."""
        if not any(a.close and (mounted.is_lance(a.name) or a.size >= 4) for a in me.stats.attacks):
            return False
        return any(mount_of(state, f) is not None for f in foes)

    def flier(self, me: Combatant) -> bool:
        return me.altitude > 0 or bool(me.marks.get("flying"))

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        mine = declared(state, me.id)
        if (
            "knocked-down" in me.conditions
            and opt.JUMP_UP in mine
            and me.marks.get("jump_tried") != state.round
        ):
            cmd = Command(me.id, "jump-up", args={"end": False})
            if ruleset._is_legal(state, cmd):  # not after jumping up this round and falling again (p.384)
                return cmd
        if "grappled" in me.conditions or "entangled" in me.conditions:
            cmd = Command(me.id, "break-free")
            if ruleset._is_legal(state, cmd):
                return cmd
        if "falling" in me.conditions:
            cmd = Command(me.id, "recover-flight")
            if ruleset._is_legal(state, cmd):
                return cmd
        if (
            opt.SET_AGAINST_CHARGE in mine
            and me.pos is not None
            and not any(f.pos and distance(f.pos, me.pos) <= 1 for f in _enemies(state, me))
        ):
            cmd = Command(me.id, "reserve", args={"trigger": {"on": "attack", "target": me.id}})
            if ruleset._is_legal(state, cmd):
                return cmd
        if opt.SPLIT in mine and self.flier(me):
            cmd = self.swoop(state, me, ruleset)
            if cmd is not None:
                return cmd
        if mount_of(state, me) is not None:
            cmd = self.charge(state, me, ruleset)
            if cmd is not None:
                return cmd
        cmd = self.spell(state, me, ruleset)
        if cmd is not None:
            return cmd
        return super().act(state, me, ruleset)

    def spell(self, state: FightState, me: Combatant, ruleset: Any) -> Command | None:
        """A spellcaster with a bundled attack spell weaves its threads and casts it at the nearest enemy in
        range, unless an enemy is next to it (p.393, p.373)."""
        from fracas.rules.ed4 import spells

        known = [
            a for a in me.stats.attacks if a.kind == "spell" and spells.spell_key(a.name) in spells.spells()
        ]
        foes = _enemies(state, me)
        if not known or me.pos is None or any(f.pos and distance(f.pos, me.pos) <= 1 for f in foes):
            return None
        sp = spells.get_spell(known[0].name)
        if sp.kind != "attack":
            return None
        target = _nearest(me, foes)
        if target is None or target.pos is None or not within(distance(me.pos, target.pos), max(sp.range, 1)):
            return None
        woven = (me.marks.get("woven") or {}).get(sp.name, 0)
        cmd = (
            Command(me.id, "weave", args={"spell": sp.name})
            if woven < sp.threads
            else Command(me.id, "cast", target.id, {"spell": sp.name})
        )
        return cmd if ruleset._is_legal(state, cmd) else None

    def swoop(self, state: FightState, me: Combatant, ruleset: Any) -> Command | None:
        foes = [f for f in _enemies(state, me) if f.altitude <= 2 and f.pos is not None]
        if me.pos is None or not foes:
            return None
        a = max((x for x in me.stats.attacks if x.close), key=lambda x: x.damage, default=None)
        if a is None:
            return None
        left = ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)
        blocked = taken.blocked(state, me.id)
        for t in sorted(foes, key=lambda f: (distance(me.pos, f.pos), f.id)):
            inn = pathing.towards(me.pos, t.pos, left, blocked) if distance(me.pos, t.pos) > 1 else []  # type: ignore[arg-type]
            end = inn[-1] if inn else me.pos
            if distance(end, t.pos) != 1:
                continue
            out = pathing.away(end, (t.pos,), left - len(inn), blocked | {end})  # type: ignore[arg-type]
            cmd = Command(
                me.id,
                "swoop",
                t.id,
                {
                    "attack": a.name,
                    "path": [list(h) for h in inn],
                    "after": [list(h) for h in out],
                    "altitude": max(me.altitude, 6),
                },
            )
            return cmd if ruleset._is_legal(state, cmd) else None
        return None

    def charge(self, state: FightState, me: Combatant, ruleset: Any) -> Command | None:
        m = mount_of(state, me)
        if m is None or me.pos is None or m.marks.get("std") == state.round:
            return None
        usable = [
            x
            for x in me.stats.attacks
            if x.close
            and x.name not in (me.marks.get("lost_weapons") or ())
            and not x.name.startswith("Charge")
        ]
        a = max(usable, key=lambda x: x.damage, default=None)
        if a is None:
            return None
        blocked = taken.blocked(state, me.id) - {m.pos}
        best = None
        for t in _enemies(state, me):
            if t.pos is None:
                continue
            for end in neighbours(t.pos):
                # the line is drawn only when the run can be a charge: its cost grows with the distance
                if not mounted.charge_eligible(mount_rate(m), distance(me.pos, end) * 2):
                    continue
                path = line(me.pos, end)[1:]
                if not path or any(h in blocked for h in path):
                    continue
                if not mounted.charge_eligible(covered_yards(mount_rate(m)), len(path) * 2):
                    continue
                key = (len(path), t.id, end)
                if best is None or key < best[0]:
                    best = (key, t, path)
        if best is None:
            return None
        _, t, path = best
        cmd = Command(me.id, "charge", t.id, {"attack": a.name, "path": [list(h) for h in path]})
        return cmd if ruleset._is_legal(state, cmd) else None


class SentinelTactic(GuardTactic):
    """``guard`` (its plans are legal: the core tactic checks them): holds its ground, reserves its action
    to strike whoever attacks its side (intercepting swoops when its Initiative is higher, p.398)."""

    name = "sentinel"


class MountTactic(Ed4Tactic):
    name = "mount"

    def act(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        r = rider_of(state, me)
        if r is None:
            return super().act(state, me, ruleset)
        if me.marks.get("std") == state.round or me.pos is None:
            return Command(me.id, "end")
        for f in sorted(_enemies(state, me), key=lambda c: c.id):
            if f.pos is not None and distance(f.pos, me.pos) == 1 and f.altitude <= 2:
                for a in me.stats.attacks:
                    cmd = Command(me.id, "attack", f.id, {"attack": a.name})
                    if ruleset._is_legal(state, cmd):
                        return cmd
        return Command(me.id, "end")

    def react(self, state: FightState, me: Combatant, ruleset: Any) -> Command:
        return Command(me.id, "pass")


CHAPTER_TACTICS: dict[str, Ed4Tactic] = {
    "veteran": VeteranTactic(),
    "mount": MountTactic(),
    "sentinel": SentinelTactic(),
}


# ----- the chapter's behaviour for every tactic ------------------------------------------------------------

WEAPON_KINDS = ("melee", "missile", "thrown")


class ChapterAware:
    """A tactic with the chapter's standing behaviour around it (module docstring). It answers what the
    wrapped tactic answers except where the chapter has something to add; ``hold`` is left alone."""

    __slots__ = ("inner",)

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def declares(self) -> bool:
        return bool(getattr(self.inner, "declares", True))

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    def choose(self, state: FightState, decision: Decision, ruleset: Any) -> Command:
        inner = self.inner
        kind = decision.kind
        if kind == "declare":
            cmd = inner.choose(state, decision, ruleset)
            me = state.combatants[decision.actor]
            if me.marks.get("combat_options"):
                cmd = declare_standing(state, me, cmd, ruleset)
            return cmd
        if kind == "act" and inner.name != "hold":
            me = state.combatants[decision.actor]
            if me.conditions or me.marks.get("thrown_to") or me.marks.get("combat_options"):
                cmd = chapter_act(state, me, ruleset, inner)
                if cmd is not None:
                    return cmd
            cmd = inner.choose(state, decision, ruleset)
            if cmd.action == "attack" and opt.CALLED_SHOT in (me.marks.get("combat_options") or ()):
                cmd = called_at_weapon(state, cmd, ruleset)
            return cmd
        return inner.choose(state, decision, ruleset)


def declare_standing(state: FightState, me: Combatant, cmd: Command, ruleset: Any) -> Command:
    """The tactic's declaration with the encounter file's combat options added, those legal this round
    (:func:`.options.round_declaration`); the file's options win over the tactic's own when they conflict."""
    standing = me.marks.get("combat_options") or ()
    shield_foe = any(
        f.stats.shield_shatter is not None and not f.marks.get("shield_shattered")
        for f in _enemies(state, me)
    )
    now = opt.round_declaration(
        standing,
        knocked_down="knocked-down" in me.conditions,
        surprised="surprised" in me.conditions,
        shield_foe=shield_foe,
    )
    chosen = list(cmd.args.get("options", ()) or ())
    for options in (opt.merge_declaration(now, chosen), now):
        if options == chosen:
            return cmd
        new = dataclasses.replace(cmd, args={**cmd.args, "options": options})
        if ruleset._is_legal(state, new):
            return new
    return cmd


def called_at_weapon(state: FightState, cmd: Command, ruleset: Any) -> Command:
    """A Called Shot from the encounter file aims at the target's weapon, the one Called Shot whose effect
    the text gives (p.384: a Strength test to hold on to it) [choice]; at a target without a melee weapon
    it is an ordinary attack with the Called Shot penalty (another body part: the gamemaster's call)."""
    t = state.combatants.get(cmd.target or "")
    if t is None or "called" in cmd.args:
        return cmd
    lost = t.marks.get("lost_weapons") or ()
    if not any(x.kind == "melee" and x.name not in lost for x in t.stats.attacks):
        return cmd
    new = dataclasses.replace(cmd, args={**cmd.args, "called": "weapon"})
    return new if ruleset._is_legal(state, new) else cmd


def chapter_act(state: FightState, me: Combatant, ruleset: Any, inner: Any) -> Command | None:
    """The chapter's move for ``me`` before its own tactic's, or None (module docstring)."""
    legal = ruleset._is_legal
    mine = declared(state, me.id)
    standing = me.marks.get("combat_options") or ()
    conds = me.conditions
    std_free = me.marks.get("std") != state.round
    if (
        "knocked-down" in conds
        and opt.JUMP_UP in mine
        and me.marks.get("jump_tried") != state.round
        and me.marks.get("jumped_up") != state.round
    ):
        cmd = Command(me.id, "jump-up", args={"end": False})
        if legal(state, cmd):
            return cmd
    if ("grappled" in conds or "entangled" in conds) and std_free:
        cmd = Command(me.id, "break-free")
        if legal(state, cmd):
            return cmd
    if me.pos is None:
        return None
    if opt.TAIL in mine and me.marks.get("tail") != state.round:
        for f in sorted(_enemies(state, me), key=lambda c: c.id):
            if f.pos is not None and distance(f.pos, me.pos) == 1:
                cmd = Command(me.id, "tail-attack", f.id, {"end": False})
                if legal(state, cmd):
                    return cmd
    if opt.SET_AGAINST_CHARGE in standing and opt.SET_AGAINST_CHARGE in mine and std_free:
        foes = _enemies(state, me)
        if not any(f.pos and distance(f.pos, me.pos) <= 1 for f in foes) and any(
            mount_of(state, f) is not None for f in foes
        ):
            cmd = Command(me.id, "reserve", args={"trigger": {"on": "attack", "target": me.id}})
            if legal(state, cmd):
                return cmd
    if opt.SHATTER in standing and opt.SHATTER in mine and std_free and hasattr(inner, "attack_plan"):
        shields = [
            f
            for f in _enemies(state, me)
            if f.stats.shield_shatter is not None and not f.marks.get("shield_shattered") and f.pos
        ]
        left = max(0, ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me))
        for f in sorted(shields, key=lambda c: (distance(c.pos, me.pos), c.id)):
            cmd = inner.attack_plan(state, me, f, ruleset, left)
            if cmd is not None:
                return cmd
    if me.marks.get("thrown_to") and "knocked-down" not in conds:
        return fetch_thrown(state, me, ruleset)
    return None


def fetch_thrown(state: FightState, me: Combatant, ruleset: Any) -> Command | None:
    """A thrower with no weapon left in hand (Unarmed aside) goes for a thrown weapon it can reach: picks it
    up when it lies in reach (``pick-up``, a Simple action [choice], p.392), else moves next to it with its
    free movement, else runs there when no enemy is next to it. Otherwise its tactic fights on as it can."""
    gone = set(me.marks.get("thrown_away") or ()) | set(me.marks.get("lost_weapons") or ())
    if any(a.kind in WEAPON_KINDS and a.name not in gone for a in me.stats.attacks):
        return None
    legal = ruleset._is_legal
    if lying_in_reach(me, state):
        cmd = Command(me.id, "pick-up", args={"end": False})
        return cmd if legal(state, cmd) else None
    lying = [
        (distance(me.pos, tuple(at)), w, tuple(at))
        for w, at in (me.marks.get("thrown_to") or {}).items()
        if at is not None and me.pos is not None
    ]
    if not lying:
        return None
    _, _, at = min(lying)
    blocked = taken.blocked(state, me.id)

    left = ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)
    path = pathing.towards(me.pos, at, max(0, left), blocked)  # type: ignore[arg-type]
    if path and distance(path[-1], at) <= 1:
        cmd = Command(me.id, "move", args={"path": [list(h) for h in path], "end": False})
        if legal(state, cmd):
            return cmd
    foes = _enemies(state, me)
    if me.marks.get("std") == state.round or any(f.pos and distance(f.pos, me.pos) <= 1 for f in foes):
        return None
    path = pathing.towards(
        me.pos,  # type: ignore[arg-type]
        at,
        max(0, 2 * ruleset.movement_hexes(state, me) - ruleset.moved_this_round(state, me)),
        blocked,
    )
    if path:
        cmd = Command(me.id, "run", args={"path": [list(h) for h in path]})
        if legal(state, cmd):
            return cmd
    return None


def wrap_tactics(tactics: dict[str, Any]) -> None:
    """Put every tactic of ``tactics`` inside :class:`ChapterAware` (once)."""
    for k, t in list(tactics.items()):
        if not isinstance(t, ChapterAware):
            tactics[k] = ChapterAware(t)
