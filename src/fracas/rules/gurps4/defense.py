"""Active defenses (B374-377; reference/gurps.md 1.4): which are on offer against the waiting attack and at
what, and the attack set waiting for its defense."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.engine.state import Combatant, FightState
from fracas.errors import IllegalCommand, RuleNotImplemented
from fracas.rules.gurps4 import aerial, core, data, mounted
from fracas.rules.gurps4.figure import ATTACK_KEY, S, Work, dodge_now, flying, mount_of
from fracas.rules.gurps4.geometry import height_ft
from fracas.rules.gurps4.modifiers import Modifier, mod
from fracas.rules.gurps4.riding import riding_skill
from fracas.rules.gurps4.stats import Attack

DEFENSES_KEY = "gurps4.defense_options"
"""Where :func:`defense_options` keeps its answer in ``FightState.derived``: (the state's event
count, the waiting attack, the options)."""


@dataclass(frozen=True, slots=True)
class DefenseContext:
    """The facts a defense's value reads that are the same for every defense against one attack
    (:func:`defense_context`)."""

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


def defense_options(state: FightState) -> list[tuple[Command, int]]:
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
    out = _defense_options(state, att)
    state.derived[DEFENSES_KEY] = (state.events_applied, att, tuple(out))
    return out


def _defense_options(state: FightState, att: dict[str, Any]) -> list[tuple[Command, int]]:
    d, a = state.combatants[att["defender"]], state.combatants[att["attacker"]]
    out: list[tuple[Command, int]] = [(Command(d.id, "defend", None, {"defense": "none"}, "no defense"), -99)]
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
    ctx = defense_context(state, d, a, att)
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
                eff, _ = defense_value(state, d, a, att, kind, retreat, weapon, value, base_mods, ctx)
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
                eff, _ = defense_value(state, d, a, att, kind, False, None, value, base_mods, ctx, drop=True)
            except (IllegalCommand, RuleNotImplemented):
                continue
            drop = {"defense": "dodge", "retreat": False, "drop": True}
            out.append((Command(d.id, "defend", None, drop, f"dodge and drop ({eff})"), eff))
    return out


def defense_context(state: FightState, d: Combatant, a: Combatant, att: dict[str, Any]) -> DefenseContext:
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
        ctx = defense_context(state, d, a, att)
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


def carry_defense_options(state: FightState, w: Work) -> None:
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


def offer_defense(
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
    options = defense_options(w.state)
    if len(options) <= 1:  # only "no defense"
        w.emit(ev.ExtraSet(ATTACK_KEY, None))
        why = "no active defense is possible"
        w.note(f"{d.name}: {why}", d.id, "gurps4/core/active-defense B374")
        return False
    return True
