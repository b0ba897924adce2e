"""Spells & Swords melee, one against one, as a compiled batch kernel (numba, sas_core.py).

It mirrors, for an encounter it accepts, what the reference engine does with the ``sas`` ruleset and the
``default`` tactic (004 = shared/rules/004_0d1ac50b56c23caf.txt; docs/rulesets/sas.md):

- side INITIATIVE once for the whole combat (1D20 + Initiative, ties rolled again); each round the first
  side attacks, then the other, and an attack's effects are held until its side has attacked;
- on its turn a combatant that lost its action (Disorientated, a Major Wound, a Monster Fumble) does
  nothing; a held one Breaks Free; a prone one Stands Up (Easy check + Swift, -2 for the adjacent foe);
  one apart from its foe (both on a straight line of hexes) Charges if it reaches (CHARGE RULES; a defender
  with a longer weapon strikes first, at once), else Closes to Attack, else Runs (Fatigued), else Walks;
  otherwise it attacks, with a Continued attack (Hack and Slash, or Mighty Blow with a Large weapon) when it
  attacked last round;
- THE BRAWL RULE between humanoids (1-10 on 1D20: a Random Brawl Attack, 1D60, rows needing two free
  hands substituted; a face without a row an unmodified Brawl Attack), the ATTACK TABLE with every modifier
  the duel's state gives (Wounded, Stunned, Dizzy, Partial Blindness, Blinded, prone, Hurt and Broken parts,
  Weapons Locked, Monster Fumbles), the FUMBLE TABLES, the DAMAGE TABLE, the LIGHT and MAJOR WOUND TABLES,
  body parts, dropped and broken weapons, BLEEDING, DEATH BY A THOUSAND CUTS (Heroic characters die in 2D6
  rounds and fight on meanwhile), REGENERATION, Minions (option); the holds of the brawl table (Choke Hold
  and Bear Hug: Immobilized, with CHOKE's Save vs Death; Basic Grab: Partially Immobilized) and Break Free
  (Hard check + Strength);
- a draw at the encounter's round limit.

A fighter left with one hand (an arm or hand broken or lost) brawls with the hands he has, and a
regenerator's hurt and broken parts regrow at the end of their round.

The compiled loop draws its dice in the engine's order, so a fight can be replayed in the engine from the
kernel's faces (:meth:`SasDuelKernel.replay`): the tests do that face by face. The loop may also hand a fight
back (``_run_fight`` returning a ``BACK_*`` reason) at a point it does not model; the engine then replays it
from the dice drawn so far and plays it to the end with fresh ones, which keeps the numbers the engine's.
None of the measured duels needs that (0 in 10^5 fights of fighter v goblin boss and of troll v troll).
Anything else (more than two combatants, apart off a straight line or among walls, other tactics, ranged or
entangling weapons, potions, riders, settings, the Shield Spell reaction...) makes the builder refuse the
encounter with the reason; the simulator then runs the reference engine. tests/sim/test_sim_sas_kernel.py
replays kernel fights in the engine face by face and compares kernel and engine outcomes statistically.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np

from fracas.dice.source import RandomDice
from fracas.engine.hexgrid import DIRECTIONS, direction_to, distance
from fracas.sim import kernels
from fracas.sim.kernels import Unsupported
from fracas.sim.kernels import sas_core as K
from fracas.sim.stats import Tally

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import FightState

_OPTIONS = {"brawl-rule", "auto-reactions", "morale", "minions", "reroll-initiative"}
_STATUS = ("active", "unconscious", "dead")
_BRAWL_EFFECTS = {
    None: K.BE_NONE,
    "initiative-penalty": K.BE_INIT,
    "broken-part": K.BE_BREAK,
    "hurt-part": K.BE_HURT,
    "hurt-or-broken-part": K.BE_HURT_OR_BREAK,
    "prone-distracted": K.BE_PRONE_DISTRACTED,
    "partial-blindness": K.BE_PBLIND,
    "blinded": K.BE_BLINDED,
    "stunned": K.BE_STUNNED,
    "both-stunned": K.BE_BOTH_STUNNED,
    "no-attack-next": K.BE_NO_ATTACK,
    "subdued": K.BE_SUBDUED,
    "subdued-choke": K.BE_SUBDUED_CHOKE,
    "grabbed": K.BE_GRABBED,
    "disarmed": K.BE_DISARM,
    "lose-finger-or-ear": K.BE_PERCENT_ONLY,
    "appearance": K.BE_NOTHING,
    "partial-blindness-timed": K.BE_PBLIND_TIMED,
}
# the default part and dice of a row that names none (procedures.brawl.brawl_effects)
_BRAWL_DEFAULT_PART = {"broken-part": "leg", "hurt-part": "arm", "hurt-or-broken-part": "foot"}
_BRAWL_DEFAULT_DICE = {
    "prone-distracted": "1d6",
    "stunned": "1d4",
    "both-stunned": "1d3",
    "partial-blindness-timed": "1d10",
}
_CUT = {"blunt": 0, "cut": 1, "impale": 2}
TLO, THI = -120, 140  # attack totals tabulated (beyond: the first or last row, as the table reads)
DLO, DHI = -120, 140
TRACE_CAP = 1 << 16  # dice of one traced fight (a 100-round duel draws a few thousand)


def _nds(expr: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)d(\d+)", expr.replace(" ", ""))
    if m is None:
        raise Unsupported(f"a dice expression the kernel does not roll: {expr!r}")
    return int(m.group(1)), int(m.group(2))


def _expect(what: str, got: Any, want: Any) -> None:
    if got != want:
        raise Unsupported(f"the {what} differs from what the kernel mirrors ({got!r}, expected {want!r})")


def _check_tables(t: Any) -> None:
    """The table rows and dice the compiled loop hard-codes (sas_core.py) are the data's."""
    w = t.wounds
    light, major, bleed = w.light, w.major, w.bleed
    _expect(
        "Light Wound Table",
        [r.id for r in light.rows],
        ["knocked-out", "body-part", "fumble", "dazed", "stun", "bad-scar"],
    )
    _expect(
        "Light Wound dice",
        (light.die, light.rows[0].duration, light.rows[2].fumble_die, light.rows[4].duration),
        (6, "2d6", 6, "1d6"),
    )
    _expect(
        "Major Wound Table",
        [(r.id, r.low) for r in major.rows],
        [
            ("broken-body-part", 1),
            ("lose-eye", 2),
            ("skull-crack", 3),
            ("lost-limb", 4),
            ("bleed", 5),
            ("by-weapon", 6),
        ],
    )
    skull, bl = major.row("skull-crack"), major.row("bleed")
    _expect(
        "Major Wound dice",
        (major.die, skull.duration, skull.unit, bl.death_in, bl.death_unit),
        (8, "1d2", "hours", "2d10", "minutes"),
    )
    _expect(
        "Bleed Table",
        [(r.id, r.low) for r in bleed.rows],
        [("life-blood", 1), ("pass-out", 2), ("hazy", 3), ("dizzy", 4), ("weakened", 5)],
    )
    _expect(
        "Bleed dice",
        (
            bleed.die,
            bleed.rows[0].markers,
            bleed.rows[1].duration,
            bleed.rows[3].duration,
            bleed.rows[4].strength,
        ),
        (6, 1, "2d6", "1", -1),
    )
    _expect(
        "Random Body Part Table",
        [r.id for r in w.body_parts.rows],
        ["hand", "foot", "arm", "leg", "knee", "head", "neck", "groin", "chest", "guts"],
    )
    h, b = w.hurt, w.broken
    _expect(
        "Body Part Hurt",
        (h.stunned_parts, h.stunned_duration, sorted(h.limb_parts)),
        (["head"], "1d4", ["arm", "hand"]),
    )
    _expect(
        "Body Part Broken",
        (b.instant_death_parts, b.skull_crack_parts, sorted(b.unusable_parts)),
        (["neck"], ["head"], ["arm", "hand"]),
    )
    _expect("Death by a Thousand Cuts", w.death.heroic_dies_in, "2d6")
    hth = [
        "drop-weapon",
        "weapon-breaks",
        "body-part-hurt",
        "knocked-down",
        "disorientated",
        "stagger",
        "friendly-fire",
        "injure-self",
    ]
    _expect("HTH Fumble Table", [(r.id, r.low, r.high) for r in t.fumbles.hth.rows], [
        (r, i, i) for i, r in enumerate(hth, start=1)])  # fmt: skip
    monster = [
        "miss-next-action",
        "miss-next-attack",
        "attack-penalty",
        "foes-attack-bonus",
        "foes-damage-bonus",
        "knocked-down",
    ]
    _expect("Monster Fumbles", [(r.id, r.low, r.high) for r in t.fumbles.monster.rows], [
        (r, i, i) for i, r in enumerate(monster, start=1)])  # fmt: skip
    _expect("fumble dice", (t.fumbles.hth.die, t.fumbles.monster.die), (8, 6))
    _expect("Brawl Rule dice", (t.brawl.trigger_die, t.brawl.die), (20, 60))
    for i, r in enumerate(t.brawl.rows, start=1):
        _expect("Random Brawl Attacks rows", (r.low, r.high), (i, i))
    choke = t.conditions.conditions["choke"]
    _expect("Choke", (choke.save_fail_duration, choke.save_fail_unit), ("1d10", "minutes"))
    s = t.settings
    _expect("setting damage_below_one", s.damage_below_one, "superficial")
    _expect("setting natural_20_critical", s.natural_20_critical, False)
    _expect("setting brawl_missing_rows", s.brawl_missing_rows, "plain")
    _expect("setting dying_heroes_fight", s.dying_heroes_fight, True)
    _expect("setting subdued_condition", s.subdued_condition, "immobilized")


def _obstacles(ruleset: Any, state: FightState) -> list[str]:
    """Everything in the encounter the duel kernel does not model, each feature once with the combatants it
    concerns (the first two named): the fallback reason, whole, so a game master sees all of it at once."""
    from fracas.rules.sas.procedures.mass import large_creature
    from fracas.rules.sas.ruleset import SasRuleset
    from fracas.rules.sas.tactics import SasTactic

    if not isinstance(ruleset, SasRuleset):
        return ["not the Spells & Swords ruleset"]
    if ruleset.tactics().get("default") != SasTactic():
        return ["the default tactic is not one the kernel mirrors"]
    out: list[str] = []
    cs = list(state.combatants.values())
    duel = len(cs) == 2 and len(state.sides) == 2 and [c.side for c in cs] == list(state.sides)
    if not duel:
        out.append(
            f"the S&S kernel plays one against one only ({len(cs)} combatants, {len(state.sides)} sides)"
        )
    if state.phase != "start" or state.round != 0 or state.extra.get("pending"):
        out.append("a fight already started")
    unknown = set(state.options) - _OPTIONS
    if unknown:
        out.append(f"optional rules the kernel does not know: {', '.join(sorted(unknown))}")
    if state.options.get("reroll-initiative"):
        out.append("optional rule reroll-initiative")
    if state.extra.get("settings"):
        out.append(f"settings: {', '.join(sorted(state.extra['settings']))}")
    extra = set(state.extra) - {"map"}
    if extra:
        out.append(f"fight bookkeeping the kernel does not know: {', '.join(sorted(extra))}")
    mp = dict(state.extra.get("map", {}))
    rest = {k for k, v in mp.items() if v and k not in ("blocked", "cover", "light", "keep_facing")}
    if rest:
        out.append(f"map features: {', '.join(sorted(rest))}")
    from fracas.rules.sas.fold import view
    from fracas.rules.sas.tables import tables

    t = tables()
    found: dict[str, list[str]] = {}

    def note(what: str, who: str) -> None:
        found.setdefault(what, []).append(who)

    for c in cs:
        if c.status != "active" or c.conditions or any(c.counters.values()):
            note("not a fresh combatant (hurt, held, potions...)", c.id)
        marks = set(c.marks) - ({"shares_hex"} if c.stats.mount else set())  # an unridden steed
        if marks != {"weapon"} or c.marks["weapon"] != c.stats.weapons[0]:
            note("mounted or otherwise marked", c.id)
        if c.hidden or c.altitude or c.pos is None:
            note("hidden, above the ground or without a place", c.id)
        if c.tactic != "default":
            note(f"tactic {c.tactic} (the kernel plays the default tactic)", c.id)
        if "shield" in c.stats.spells and state.options.get("auto-reactions", True):
            note("knows the Shield Spell reaction", c.id)
        for w in c.stats.weapons:
            wp = t.weapons[w]
            if wp.ranged or wp.entangle or t.damage.weapon_classes[wp.weapon_class].no_damage:
                note("a ranged, entangling or no-damage weapon", f"{c.id}: {w}")
        if len(c.stats.weapons) + 1 > K.WMAX:
            note(f"more than {K.WMAX - 1} weapons carried", c.id)
    for what, who in found.items():
        names = ", ".join(who[:2]) + (f" and {len(who) - 2} more" if len(who) > 2 else "")
        out.append(f"{what}: {names}")
    if not duel:
        return out
    p0, p1 = cs[0].pos, cs[1].pos
    if p0 is not None and p1 is not None and distance(p0, p1) > 1:
        # apart: they close along the straight line between them (the only shortest path), facing it
        dq, dr = p1[0] - p0[0], p1[1] - p0[1]
        if not (dq == 0 or dr == 0 or dq + dr == 0):
            out.append("the two combatants are apart but not on a straight line of hexes")
        elif mp.get("blocked") or mp.get("keep_facing"):
            out.append("the two combatants are apart on a map with walls or kept facings")
        elif cs[0].facing != direction_to(p0, p1) or cs[1].facing != direction_to(p1, p0):
            out.append("the two combatants are apart and do not face each other")
    f0, f1 = view(state, cs[0]), view(state, cs[1])
    if large_creature(f0, f1) or large_creature(f1, f0):
        out.append("a Large Creature Attack (trample) is possible")
    return out


def _check(ruleset: Any, state: FightState) -> list[Any]:
    """The two combatants of a duel the kernel plays, or Unsupported naming all it does not model."""
    found = _obstacles(ruleset, state)
    if found:
        raise Unsupported("; ".join(found))
    from fracas.rules.sas.tables import tables

    _check_tables(tables())
    return list(state.combatants.values())


class SasDuelKernel:
    """Plays ``n`` duels of one encounter (see the module docstring)."""

    name = "sas-duel"
    chunk = 20_000

    def __init__(self, ruleset: Ruleset, state: FightState) -> None:
        cs = _check(ruleset, state)
        self.ruleset = ruleset
        self.state = state
        self.ids = tuple(state.combatants)
        self.sides = tuple(state.sides)
        self.max_rounds = int(state.max_rounds)
        self._controllers: dict[str, Any] | None = None
        self._tables(ruleset, state, cs)

    # ----- the numbers the compiled loop reads ------------------------------------------------------
    def _tables(self, ruleset: Any, state: FightState, cs: list[Any]) -> None:
        import dataclasses

        from fracas.rules.sas.attack import situation
        from fracas.rules.sas.fold import view
        from fracas.rules.sas.movement import move_spaces
        from fracas.rules.sas.procedures.attack import attack_modifiers
        from fracas.rules.sas.procedures.damage import damage_modifiers
        from fracas.rules.sas.procedures.rolls import save_bonuses
        from fracas.rules.sas.settings import settings_of
        from fracas.rules.sas.tables import tables

        t = tables()
        s = settings_of(state)
        A = t.attack.modifiers
        conds = t.conditions.conditions
        P = np.zeros(K.NPT, np.int64)
        P[K.P_MAX_ROUNDS] = self.max_rounds
        P[K.P_BRAWL] = int(
            bool(state.options.get("brawl-rule", True)) and cs[0].stats.humanoid and cs[1].stats.humanoid
        )
        P[K.P_PERCENT_DIE] = s.percent_die
        P[K.P_CRIT] = t.attack.row("critical-hit").damage_bonus
        P[K.P_LOCKED] = t.attack.row("weapons-locked").foe_attack_next_round
        P[K.P_ATT_PRONE] = A["attacker-prone"].value
        P[K.P_DEF_PRONE] = A["defender-prone"].value
        P[K.P_ATT_BLIND] = A["attacker-blinded"].value
        P[K.P_DEF_BLIND] = A["defender-blinded"].value
        P[K.P_WOUNDED] = t.damage.wounded.all_rolls
        P[K.P_STUN] = conds["stunned"].all_rolls
        P[K.P_DIZZY] = conds["dizzy"].all_rolls
        P[K.P_PBLIND_ATTACK] = -1  # procedures.rolls.roll_penalties: "Partial Blindness (sight)" on attacks
        P[K.P_HURT] = t.wounds.hurt.all_rolls
        P[K.P_HURT_LIMB] = t.wounds.hurt.limb_rolls
        P[K.P_BROKEN] = t.wounds.broken.all_rolls
        stand = t.combat.actions["stand-up"]
        P[K.P_EASY] = t.combat.num("skill_check", stand.check or "easy")
        P[K.P_PER_FOE] = stand.per_adjacent_foe
        P[K.P_MAJOR_PRONE] = int(s.major_wound_prone)
        P[K.P_LEG_PERCENT] = s.lost_limb_leg_percent
        P[K.P_ROUNDS_PER_MINUTE] = s.rounds_per_minute
        P[K.P_KD_DROP] = conds["knocked-down"].drop_percent
        P[K.P_LIGHT_BROKEN] = t.wounds.light.rows[1].broken_percent
        P[K.P_MINIONS] = int(s.minions)
        P[K.P_TRIG] = t.brawl.trigger_high
        P[K.P_NROWS] = len(t.brawl.rows)
        P[K.P_STAGGER_DEF] = t.fumbles.hth.rows[5].defense_next_round
        mon = t.fumbles.monster.rows
        P[K.P_MON_ATT] = mon[2].attack_next
        P[K.P_FOE_ATT] = mon[3].foe_attack_next
        P[K.P_FOE_DMG] = mon[4].foe_damage_next
        P[K.P_TLO] = TLO
        P[K.P_DLO] = DLO
        P[K.P_IMMOB_HIT] = A["defender-immobilized"].value
        P[K.P_PIMMOB_HIT] = A["defender-partially-immobilized"].value
        P[K.P_ATT_PIMMOB] = A["attacker-partially-immobilized"].value
        P[K.P_CHOKE_ROLLS] = conds["choke"].all_rolls
        P[K.P_CHOKE_HIT] = conds["choke"].to_be_hit
        P[K.P_HARD] = t.combat.num("skill_check", s.break_check)
        P[K.P_SAVE] = t.combat.num("save", "target")
        P[K.P_DIST0] = distance(cs[0].pos, cs[1].pos)
        P[K.P_FATIGUED] = A["attacker-fatigued"].value
        P[K.P_FATIGUE_ROUNDS] = s.fatigue_rounds
        P[K.P_CHARGE_DEF] = t.combat.num("charge", "defense")
        P[K.P_PRONE_DAMAGE] = conds["knocked-down"].combat_rolls

        nws = [len(c.stats.weapons) for c in cs]
        mw = max(nws) + 1
        if mw > K.WMAX:
            raise Unsupported(f"more than {K.WMAX - 1} weapons carried")
        S = np.zeros((2, K.NSW), np.int64)  # the static columns of the loop's X: S_* and the weapons
        self._side_of = [self.sides.index(c.side) for c in cs]
        for i, c in enumerate(cs):
            st = c.stats
            S[i] = 0
            S[i, K.S_SIDE] = self.sides.index(c.side)
            S[i, K.S_WL] = st.wound_level
            S[i, K.S_HEROIC] = int(st.heroic and s.heroic_player_characters)
            S[i, K.S_HUMANOID] = int(st.humanoid)
            S[i, K.S_MINION] = st.minion or 0
            S[i, K.S_REGEN] = int(st.regenerates)
            S[i, K.S_INIT] = st.initiative
            S[i, K.S_SWIFT] = st.swift
            S[i, K.S_NW] = nws[i]
            S[i, K.S_SHIELD] = int(st.shield != "none")
            S[i, K.S_DODGE] = st.dodge
            S[i, K.S_BREAK] = st.strength + st.skill("escape-artist")
            S[i, K.S_WALK] = move_spaces(state, c, 1.0)
            S[i, K.S_RUN] = move_spaces(state, c, 2.0)
            S[i, K.S_CHARGE] = move_spaces(state, c, 2.0, charge=True)
            S[i, K.S_SAVE_DEATH] = sum(m.value for m in save_bonuses(st, ("death",)))
            S[i, K.S_REROLLS] = t.saves.rerolls_per_day if st.race in t.saves.reroll_races else 0
            for w, wid in enumerate([*st.weapons, "unarmed"]):
                wp = t.weapons[wid]
                at = K.XW + 4 * w
                S[i, at : at + 4] = (int(wp.weapon_class == "large"), wp.hands, _CUT[wp.cut], wp.reach)
        self.S = S

        # brawl rows (procedures.brawl.brawl_effects)
        parts = [r.id for r in t.wounds.body_parts.rows]
        nrows = len(t.brawl.rows)
        B = np.zeros((nrows + 1, K.BW), np.int64)
        for r, row in enumerate(t.brawl.rows, start=1):
            if row.effect not in _BRAWL_EFFECTS:
                raise Unsupported(f"Random Brawl Attack effect {row.effect!r}")
            part = row.part or _BRAWL_DEFAULT_PART.get(row.effect or "", "")
            n, sides = _nds(row.duration or _BRAWL_DEFAULT_DICE.get(row.effect or "", "1d1"))
            B[r] = (
                _BRAWL_EFFECTS[row.effect],
                int(row.two_hands),
                int(row.no_damage),
                row.percent,
                parts.index(part) + 1 if part else 0,
                n,
                sides,
            )

        # the static part of every attack and damage roll, from the ruleset's own modifiers
        acts = (None, "hack-and-slash", "mighty-blow", "charge", "close-to-attack")
        assert len(acts) == K.NACT
        # every attack is made next to each other, facing each other: where they start, or where the one who
        # closes stops on the line between them
        near = state
        if distance(cs[0].pos, cs[1].pos) > 1:
            near = state.clone()
            a0, a1 = near.combatants[cs[0].id], near.combatants[cs[1].id]
            step = DIRECTIONS[direction_to(a0.pos, a1.pos)]
            a1.pos = (a0.pos[0] + step[0], a0.pos[1] + step[1])
            a0.facing, a1.facing = direction_to(a0.pos, a1.pos), direction_to(a1.pos, a0.pos)
        cs = list(near.combatants.values())
        brows: list[tuple[Any, bool]] = [(None, False), (None, True), *[(row, False) for row in t.brawl.rows]]
        ATK = np.zeros((2, mw, mw, len(acts), len(brows)), np.int64)
        DMG = np.zeros((2, mw, len(acts), len(brows)), np.int64)
        for i in range(2):
            c, o = cs[i], cs[1 - i]
            for wa, wid in enumerate([*c.stats.weapons, "unarmed"]):
                for wd, did in enumerate([*o.stats.weapons, "unarmed"]):
                    att, dfn = view(near, c), view(near, o)
                    att.weapon, dfn.weapon = wid, did
                    for k, act in enumerate(acts):
                        base = situation(near, c, o, act or "attack", weapon=wid)
                        for b, (row, plain) in enumerate(brows):
                            sit = dataclasses.replace(base, brawl=row, brawl_plain=plain)
                            ATK[i, wa, wd, k, b] = sum(m.value for m in attack_modifiers(att, dfn, sit))
                            if wd == 0:
                                DMG[i, wa, k, b] = sum(m.value for m in damage_modifiers(att, dfn, sit))

        codes = np.zeros((20, THI - TLO + 1), np.int64)
        for face in range(1, 21):
            for tot in range(TLO, THI + 1):
                row = t.attack.lookup(tot, natural=face)
                if row.fumble:
                    code = K.A_FUMBLE
                elif row.hit:
                    code = K.A_CRIT if row.id == "critical-hit" else K.A_HIT
                elif row.foe_attack_next_round:
                    code = K.A_LOCKED
                else:
                    code = K.A_MISS
                codes[face - 1, tot - TLO] = code
        wound = {"superficial": 0, "light": 1, "heavy": 2, "mortal": 3}
        wound_table = {None: 0, "light": 1, "major": 2}
        drow = np.zeros((DHI - DLO + 1, 4), np.int64)
        for tot in range(DLO, DHI + 1):
            row = t.damage.lookup(tot)
            w = 3 if row.instant_death else wound[row.wound]
            drow[tot - DLO] = (row.markers, w, row.foe_fumble_die, wound_table[row.wound_table])
        # the tables after the numbers, one array (sas_core: P_ATK...)
        P[K.P_MW] = mw
        P[K.P_NB] = len(brows)
        P[K.P_ACOLS] = codes.shape[1]
        P[K.P_DROWS] = drow.shape[0]
        parts_ = [P]
        at = K.NPT
        for key, table in ((K.P_ATK, ATK), (K.P_DMG, DMG), (K.P_AROW, codes), (K.P_DROW, drow), (K.P_B, B)):
            P[key] = at
            parts_.append(table.ravel())
            at += table.size
        self.P = np.concatenate(parts_)

    def _args(self) -> tuple[Any, ...]:
        return (self.P, self.S)

    # ----- running -----------------------------------------------------------------------------------
    def trace(self, seed: int) -> tuple[int, np.ndarray, np.ndarray]:
        """One fight of stream ``seed`` and its dice: (1 if handed back, its numbers, (sides, faces)).

        ``numbers``: result (winning side's index, 2 draw, 3 nobody standing), round, the two statuses
        (0 active, 1 unconscious, 2 dead), markers dealt, markers taken, Wounds (two each)."""
        back, out, dice, _n = K.trace_fight(*self._args(), np.uint64(seed), TRACE_CAP)
        return int(back), out, dice

    def run(self, n: int, rng: np.random.Generator) -> Tally:
        """``n`` fights, each with its own stream seeded by a 64-bit word of ``rng``."""
        kernels.keep_freed_memory()
        seeds = rng.integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64, endpoint=True)
        return self.run_seeds(seeds)

    def run_seeds(self, seeds: np.ndarray) -> Tally:
        """The fights of these streams (uint64 seeds), tallied as runner.engine_runs tallies the engine's."""
        n = int(seeds.shape[0])
        tally_arr = np.zeros(16, np.int64)
        hist = np.zeros(self.max_rounds + 1, np.int64)
        fallback = np.zeros(n, np.int64)
        nf = K.run_batch(*self._args(), seeds.astype(np.uint64, copy=False), tally_arr, hist, fallback)
        tally = Tally(self.ids, self.sides)
        tally.runs = n - nf
        tally.wins = [int(tally_arr[0]), int(tally_arr[1])]
        tally.draws = int(tally_arr[2])
        tally.wipeouts = int(tally_arr[3])
        tally.rounds = {r: int(c) for r, c in enumerate(hist) if c}
        for i in range(2):
            counts = tally_arr[4 + 3 * i : 7 + 3 * i]
            tally.status[i] = {name: int(c) for name, c in zip(_STATUS, counts, strict=True) if c}
            tally.dealt[i] = int(tally_arr[10 + i])
            tally.taken[i] = int(tally_arr[12 + i])
            tally.wounds[i] = int(tally_arr[14 + i])
        tally.losses_of_one_each(self._side_of)
        if nf:
            tally.merge(self.replay([int(seeds[k]) for k in fallback[:nf]]))
        return tally

    def replay(self, seeds: list[int]) -> Tally:
        """The engine plays the fights of these streams from the dice the kernel drew in them (all of a
        finished fight's, those up to where it stopped of a fight handed back), then fresh dice."""
        from fracas.sim.runner import engine_runs

        if self._controllers is None:
            self._controllers = self.ruleset.tactics()
        prefixes = {s: self.trace(s)[2] for s in seeds}

        def dice_for(s: int) -> PrefixDice:
            return PrefixDice(prefixes[s], RandomDice(s ^ 0x5A5A5A5A5A5A5A5A))

        return engine_runs(self.ruleset, self.state, seeds, self._controllers, dice_for)


class PrefixDice:
    """A DiceSource that gives the faces a kernel drew (checking each die's sides), then another source's."""

    def __init__(self, dice: np.ndarray, then: Any) -> None:
        self.sides = [int(x) for x in dice[0]]
        self.faces = [int(x) for x in dice[1]]
        self.then = then
        self.used = 0

    def roll(self, sides: int, why: str = "") -> int:
        i = self.used
        if i < len(self.faces):
            if self.sides[i] != sides:
                raise RuntimeError(
                    f"the S&S kernel and the engine disagree on die {i + 1}: d{self.sides[i]} drawn, "
                    f"d{sides} asked ({why})"
                )
            self.used = i + 1
            return self.faces[i]
        self.used = i + 1
        return int(self.then.roll(sides, why))


def build(ruleset: Ruleset, state: FightState) -> SasDuelKernel:
    return SasDuelKernel(ruleset, state)


kernels.register("sas", build)

__all__ = ["PrefixDice", "SasDuelKernel", "build"]
