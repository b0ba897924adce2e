"""Active defenses (B374-377; reference/gurps.md 1.4): which are on offer against the waiting attack and at
what, and the defense roll with what follows it (retreat, Dodge and Drop, criticals, a second defense)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.combat import (
    ATTACK_KEY,
    S,
    Work,
    apply_hit,
    dodge_now,
    flying,
    height_ft,
    mount_of,
    move_figure,
    path_towards,
    riding_skill,
    scratch,
    unhorse,
)
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.parts import Parts
from fracas.rules.gurps4.stats import Attack

if TYPE_CHECKING:
    pass

DEFENSES_KEY = "gurps4.defense_options"
"""Where :meth:`GurpsRuleset.defense_options` keeps its answer in ``FightState.derived``: (the state's event
count, the waiting attack, the options)."""


@dataclass(frozen=True, slots=True)
class DefenseContext:
    """The facts a defense's value reads that are the same for every defense against one attack
    (:meth:`GurpsRuleset.defense_context`)."""

    maneuver: str
    retreated: str | None  # whom the defender retreated from this turn (reference 1.4, B377)
    mounted: bool
    feint: int
    rider_penalty: Modifier | None
    flying: bool
    posture: str
    stunned: bool
    shield_db: int
    deceptive: int
    parries: tuple[str, ...]  # the weapons parried with this turn, one entry a parry (B376)
    height_ft: float
    ranged: bool


class Defenses(Parts):
    """The part of :class:`~fracas.rules.gurps4.ruleset.GurpsRuleset` in this module."""

    # ----- defenses ---------------------------------------------------------------------------------
    def defense_options(self, state: FightState) -> list[tuple[Command, int]]:
        """Every legal defense against the waiting attack, with its effective value. Kept in the state's
        ``derived`` (it lives and dies with the fight, never on this shared object) for as long as the
        state has had no further event and waits for the same attack: the tactic, ``validate`` and
        ``choices`` each ask for them."""
        att = state.extra.get(ATTACK_KEY)
        if not att:
            return []
        kept = state.derived.get(DEFENSES_KEY)
        if kept is not None and kept[0] == state.events_applied and kept[1] is att:
            return list(kept[2])
        out = self._defense_options(state, att)
        state.derived[DEFENSES_KEY] = (state.events_applied, att, tuple(out))
        return out

    def _defense_options(self, state: FightState, att: dict[str, Any]) -> list[tuple[Command, int]]:
        d, a = state.combatants[att["defender"]], state.combatants[att["attacker"]]
        out: list[tuple[Command, int]] = [
            (Command(d.id, "defend", None, {"defense": "none"}, "no defense"), -99)
        ]
        kinds: list[tuple[str, str | None, int, tuple[Modifier, ...]]] = []
        ds = S(d)
        dodge, dodge_mods = dodge_now(d)
        kinds.append(("dodge", None, dodge, dodge_mods))
        if not ds.mount:
            if not att["ranged"]:
                for w in ds.attacks():
                    if w.parry is None or w.ranged or w.weapon in d.marks.get("broken", ()):
                        continue
                    if not w.natural and (w.weapon != d.marks.get("wielding") or d.marks.get("unready")):
                        continue
                    if w.natural and w.name != "punch":
                        continue
                    if w.unbalanced and d.marks.get("attacked_last_turn"):
                        continue
                    val, mods = core.parry_score(
                        S(d).skill(w.skill_name)
                        if not w.natural
                        else max(ds.skills.get("Brawling", ds.dx), ds.dx),
                        w.parry,
                        ds.combat_reflexes,
                    )
                    kinds.append(("parry", w.name, val, mods))
            if ds.shield and not d.marks.get("blocked") and not d.marks.get("shield_unready"):
                val, mods = core.block_score(ds.skill("Shield"), ds.combat_reflexes)
                kinds.append(("block", None, val, mods))
        tried = set(att.get("tried", ()))
        trample = att["attack"] == "trample" and S(a).mount
        ctx = self.defense_context(state, d, a, att)
        for kind, weapon, value, base_mods in kinds:
            if kind in tried:
                continue
            for retreat in (False, True):
                cmd_args: dict[str, Any] = {"defense": kind, "retreat": retreat}
                if weapon:
                    cmd_args["weapon"] = weapon
                try:
                    if ds.mount:
                        mounted.mount_defense_allowed(kind)  # type: ignore[arg-type]
                    if trample:
                        mounted.trample_defense_allowed(kind)  # type: ignore[arg-type]
                    eff, _ = self.defense_value(
                        state, d, a, att, kind, retreat, weapon, value, base_mods, ctx
                    )
                except (IllegalCommand, RuleNotImplemented):
                    continue
                shown = " " + core.weapon_words(weapon) if weapon else ""
                label = f"{kind}{shown}{' and retreat' if retreat else ''} ({eff})"
                out.append((Command(d.id, "defend", None, cmd_args, label), eff))
                if kind == "dodge" and flying(d) and "Aerobatics" in ds.skills:
                    acro = {**cmd_args, "acrobatic": True}
                    label = f"acrobatic dodge (Aerobatics {ds.skills['Aerobatics']})" + (
                        " and retreat" if retreat else ""
                    )
                    out.append((Command(d.id, "defend", None, acro, label), eff))
            if kind == "dodge" and att["ranged"]:
                try:
                    eff, _ = self.defense_value(
                        state, d, a, att, kind, False, None, value, base_mods, ctx, drop=True
                    )
                except (IllegalCommand, RuleNotImplemented):
                    continue
                drop = {"defense": "dodge", "retreat": False, "drop": True}
                out.append((Command(d.id, "defend", None, drop, f"dodge and drop ({eff})"), eff))
        return out

    def defense_context(
        self, state: FightState, d: Combatant, a: Combatant, att: dict[str, Any]
    ) -> DefenseContext:
        """What a defense of ``d`` against the waiting attack depends on besides its kind, retreat and
        weapon: worked out once for all the defenses on offer instead of once for each."""
        ranged = bool(att["ranged"])
        mounted_now = mount_of(state, d) is not None
        f = d.marks.get("feinted")
        return DefenseContext(
            maneuver=d.marks.get("maneuver") or "do_nothing",
            retreated=d.marks.get("retreated") or None,
            mounted=mounted_now,
            feint=int(f[1]) if f and f[0] == a.id else 0,
            rider_penalty=mounted.rider_defense_penalty(riding_skill(state, d)) if mounted_now else None,
            flying=flying(d),
            posture=d.marks.get("posture", "standing"),
            stunned=d.has("stunned"),
            shield_db=S(d).shield_db(),
            deceptive=2 * int(att.get("deceptive", 0)),
            parries=tuple(d.marks.get("parries") or ()),
            height_ft=0.0 if ranged else height_ft(d, a, state),
            ranged=ranged,
        )

    def defense_value(
        self,
        state: FightState,
        d: Combatant,
        a: Combatant,
        att: dict[str, Any],
        kind: str,
        retreat: bool,
        weapon: str | None,
        value: int,
        base_mods: tuple[Modifier, ...],
        ctx: DefenseContext | None = None,
        drop: bool = False,
    ) -> tuple[int, list[Modifier]]:
        if ctx is None:
            ctx = self.defense_context(state, d, a, att)
        ds = S(d)
        if drop and (ctx.mounted or ctx.flying or ds.mount or ctx.posture in ("lying", "crawling")):
            # Dodge and Drop: down to the ground (B377); not from the saddle, in the air, by a mount (a
            # rider's horse), or when already down (documented readings)
            raise IllegalCommand(
                "Dodge and Drop is dropping prone from one's feet",
                "gurps4/core/active-defense/dodge-and-drop B377",
            )
        maneuver = ctx.maneuver
        if retreat:
            if ctx.retreated and ctx.retreated != a.id:
                # one retreat per turn; its bonus lasts against the same attacker (reference 1.4, B377)
                raise IllegalCommand("one retreat per turn", "gurps4/core/active-defense/retreat B377")
            if ctx.mounted:
                raise IllegalCommand(
                    "a rider cannot step back from the saddle", "gurps4/mounted/rider-defense B397"
                )
        weapon_attack = ds.attack(weapon) if weapon else None
        fencing = (
            bool(weapon_attack and data.weapons()[weapon_attack.weapon].modes[0].fencing)
            if weapon_attack
            else False
        )
        aod_bonus = (
            core.maneuver(maneuver).defense_bonus if maneuver == f"all_out_defense_increased_{kind}" else 0
        )
        extra: list[Modifier] = []
        if kind == "parry" and weapon_attack is not None and weapon_attack.natural:
            attacker_atk = S(a).attack(att["attack"])
            if (
                attacker_atk is not None
                and not attacker_atk.natural
                and not attacker_atk.damage.startswith("thr")
            ):
                extra.append(
                    mod(-3, "unarmed parry against a weapon", "gurps4/core/active-defense/parry", "B376")
                )
        if ctx.rider_penalty:
            extra.append(ctx.rider_penalty)
        if retreat and ctx.flying:
            hb = aerial.hover_retreat_bonus(ds.can_hover, True)
            if hb:
                extra.append(hb)
        sit = core.DefenseSituation(
            kind=kind,  # type: ignore[arg-type]
            maneuver=maneuver,
            retreat=retreat,
            posture=ctx.posture,
            stunned=ctx.stunned,
            shield_db=ctx.shield_db,
            deceptive=ctx.deceptive,
            feint=ctx.feint,
            # "each parry after the first with the same weapon" (B376): counted per weapon, a sword's swing
            # and thrust one weapon, the free hand another
            earlier_parries=ctx.parries.count(weapon_attack.weapon)
            if kind == "parry" and weapon_attack is not None
            else 0,
            fencing=fencing,
            height_above_attacker_ft=ctx.height_ft,
            ranged_attack=ctx.ranged,
            dodge_and_drop=drop,
            all_out_defense_bonus=aod_bonus,
            extra=tuple(extra),
        )
        core.defense_allowed(sit)
        mods = [*base_mods, *core.defense_modifiers(sit)]
        return value - sum(x.value for x in base_mods) + sum(x.value for x in mods), mods

    def _carry_defense_options(self, state: FightState, w: Work) -> None:
        """An attack that waits for its defense worked out the defenses on offer on the scratch copy (to see
        whether there are any); the tactic, ``validate`` and ``choices`` then ask again of the real state,
        which is the same once the engine has applied these events. So the options are kept in the real
        state's ``derived`` under its event count as it will be, when nothing but Notes (which change
        nothing) came after the event that set the attack. Saves working them out twice per attack."""
        kept = w.state.derived.get(DEFENSES_KEY)
        if kept is None:
            return
        applied, att, options = kept
        if applied != w.state.events_applied:
            return
        events = w.events
        setters = 0
        last_change = None
        for e in events:
            if type(e) is ev.Note:
                continue
            last_change = e
            if type(e) is ev.ExtraSet and e.key == ATTACK_KEY and e.value is att:
                setters += 1
        if (
            setters != 1
            or last_change is None
            or type(last_change) is not ev.ExtraSet
            or last_change.value is not att
        ):
            return
        state.derived[DEFENSES_KEY] = (state.events_applied + len(events), att, options)

    def _offer_defense(
        self,
        w: Work,
        a: Combatant,
        d: Combatant,
        atk: Attack,
        maneuver: str,
        loc: str,
        args: dict[str, Any],
        attacks_left: int,
    ) -> bool:
        if not d.active:
            return False
        att = {
            "attacker": a.id,
            "defender": d.id,
            "attack": atk.name,
            "maneuver": maneuver,
            "location": loc,
            "deceptive": int(args.get("deceptive", 0)),
            "attacks_left": attacks_left,
            "ranged": atk.ranged,
            "target": args.get("target", d.id),
            "args": {k: v for k, v in args.items() if k != "target"},
        }
        w.emit(ev.ExtraSet(ATTACK_KEY, att))
        options = self.defense_options(w.state)
        if len(options) <= 1:  # only "no defense"
            w.emit(ev.ExtraSet(ATTACK_KEY, None))
            why = "no active defense is possible"
            w.note(f"{d.name}: {why}", d.id, "gurps4/core/active-defense B374")
            return False
        return True

    def _defend(self, w: Work, cmd: Command) -> None:
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
                    (v, c.args.get("weapon"))
                    for c, v in self._options_for(w, att)
                    if c.args["defense"] == "parry"
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
            eff, mods = self.defense_value(
                w.state, d, a, att, kind, retreat, weapon, value, base_mods, drop=drop
            )
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
            if retreat and d.marks.get("retreated") == a.id:
                pass  # the same retreat, still good against this attacker: no second step (B377)
            elif retreat:
                w.mark(d, "retreated", a.id)
                if flying(d):
                    w.emit(ev.Moved(d.id, (), "retreat", None, d.altitude + 1, "gurps4/aerial/retreat B398"))
                elif a.pos is not None:
                    path = path_towards(w.state, d, a.pos, 1, away=True)
                    if path:
                        moved = d.marks.get("moved")
                        move_figure(w, d, path, None, "retreat", "gurps4/core/active-defense/retreat B377")
                        w.mark(d, "moved", moved)  # a retreat is not the mount's own movement
            if r.critical_failure:
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
                        w.note(
                            f"{d.name} falls down (critical failure on a Dodge)", d.id, "gurps4/core/critical"
                        )
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
        if (
            hit
            and kind != "none"
            and d.marks.get("maneuver") == "all_out_defense_double"
            and not att.get("tried")
        ):
            again = {**att, "tried": (kind,)}
            w.emit(ev.ExtraSet(ATTACK_KEY, again))
            if len(self.defense_options(w.state)) > 1:
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
        self._follow_up(
            w, a, target, atk, att["maneuver"], dict(att.get("args", {})), int(att["attacks_left"])
        )

    def _options_for(self, w: Work, att: dict[str, Any]) -> list[tuple[Command, int]]:
        probe = scratch(w.state)
        probe.extra[ATTACK_KEY] = att
        return self.defense_options(probe)
