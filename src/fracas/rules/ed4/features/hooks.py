"""Where the ED4 chapter changes the Earthdawn round itself (p.382-398): the encounter file's per-combatant
settings (senses, mounts, flight, standing combat options), who declares before Initiative, Movement (Jump
Up, grappled, crawling, flying, mounted, impaired terrain), the surprised who lose their turn (p.390),
what the round start and end add (surprise, Long Falls, Strain owed), what every command may lead to
(falls, holds lost), the commands offered to a person and the narration of the chapter's events.

The ruleset's round methods (:class:`~fracas.rules.ed4.ruleset.Ed4Ruleset`) call these with what the core
answered; nothing else in the chapter overrides the round."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fracas.engine import events as ev
from fracas.engine import taken
from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import neighbours
from fracas.errors import EncounterFileError
from fracas.rules.earthdawn.battle_map import hexes
from fracas.rules.earthdawn.combat import Scratch, TestContext, rolled_event, run_test
from fracas.rules.ed4 import mounted, situation, spells
from fracas.rules.ed4 import options as opt
from fracas.rules.ed4.features.falling import aftermath, long_falls
from fracas.rules.ed4.features.grappling import grapples_seen, holds_kept, may_be_grappled
from fracas.rules.ed4.features.readers import SURPRISE_RULE, impaired, mount_of, race
from fracas.rules.ed4.features.riding import mounts_on_riders
from fracas.rules.ed4.features.strain import strain_owed

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import CombatProfile
    from fracas.rules.ed4.ruleset import Ed4Ruleset


COMBATANT_OPTIONS = ("senses", "rides", "training", "familiar", "flying", "race", "magical_shield")
"""The per-combatant ``options`` of an encounter file the chapter reads (docs/encounter-format.md)."""


def set_up(state: FightState, spec: Any) -> None:
    """Per-combatant chapter settings from the encounter file's ``options`` (senses, mounts, flight) and
    riders placed on their mounts, before the core places the rest."""
    from fracas.engine.encounter import assign_ids

    allowed = set(COMBATANT_OPTIONS)
    if spec is None:
        return
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.combatants):
            bad = [k for k in entry.options if k not in allowed]
            if bad:
                raise EncounterFileError(
                    f"sides.{si}.combatants.{ci}.options.{bad[0]}: unknown; allowed: "
                    f"{', '.join(sorted(allowed))}"
                )
            for cid, _ in assign_ids(entry, "combatant"):
                c = state.combatants.get(cid)
                if c is None:
                    continue
                o = entry.options
                if "senses" in o:
                    c.marks["senses"] = list(o["senses"])
                if "race" in o:
                    c.marks["race"] = str(o["race"])
                if "training" in o:
                    c.marks["training"] = str(o["training"])
                if "familiar" in o:
                    # familiar: false makes the p.395 Trick Riding test due (it was read as absent)
                    c.marks["familiar"] = bool(o["familiar"])
                if o.get("flying"):
                    c.marks["flying"] = True
                if o.get("magical_shield"):
                    c.marks["magical_shield"] = True  # +10 to shatter it (p.385)
                if "rides" in o:
                    m = state.combatants.get(str(o["rides"]))
                    if m is None:
                        raise EncounterFileError(
                            f"sides.{si}.combatants.{ci}.options.rides: no combatant {o['rides']!r}"
                        )
                    c.marks["mount"] = m.id
                    m.marks["rider"] = c.id
                    m.marks.setdefault("training", "combat")
                    if m.pos is not None:
                        c.pos = m.pos
                    c.altitude = m.altitude


def placed(state: FightState, spec: Any) -> None:
    """After the core has placed everyone: riders on their mounts' hexes, and the standing combat options
    checked (:func:`standing_options`)."""
    for c in state.combatants.values():
        if "mount" in c.marks:
            m = state.combatants[c.marks["mount"]]
            c.pos = m.pos
    if spec is not None:
        standing_options(state, spec)


def declarers(state: FightState, core: tuple[str, ...]) -> tuple[str, ...]:
    """The core's roster (combatants whose tactic declares options) and every combatant with standing
    combat options from the encounter file, in the core's order: each declares before Initiative."""
    base = set(core)
    return tuple(
        cid
        for cid, c in state.combatants.items()
        if cid in base or (c.marks.get("combat_options") and c.active)
    )


def pending(state: FightState, d: Decision | None) -> Decision | None:
    """The core's pending decision, except that a surprised combatant takes no actions (p.390): his turn is
    no decision (:func:`advance` ends it)."""
    if d is not None and d.kind == "act":
        c = state.combatants[d.actor]
        if "surprised" in c.conditions:
            return None
    return d


def advance(
    rs: Ed4Ruleset,
    state: FightState,
    dice: DiceSource,
    core: Callable[[FightState, DiceSource], list[ev.Event]],
) -> list[ev.Event]:
    """The round moved on by ``core`` (the Earthdawn round's ``advance``) with the chapter's additions: the
    surprised lose their turn (p.390), the Strain owed at the end of the round (p.382), surprise and Long
    Falls at the round start (p.390, p.398), trained mounts on their riders' Initiative (p.395)."""
    cur = state.current
    if state.phase == "act" and cur is not None and cur not in state.acted:
        c = state.combatants[cur]
        if c.active and "surprised" in c.conditions:
            skipped: list[ev.Event] = [
                ev.Note(f"{c.name} is surprised and cannot act", cur, SURPRISE_RULE),
                ev.TurnEnded(cur),
            ]
            grapples_seen(state, skipped)
            return skipped
    events = core(state, dice)
    if events and isinstance(events[-1], ev.RoundEnded):
        events = strain_owed(rs, state, events)
    if any(isinstance(e, ev.RoundStarted) for e in events):
        events = round_start(rs, state, dice, events)
    if any(isinstance(e, ev.OrderSet) for e in events):
        events = mounts_on_riders(state, events)
    grapples_seen(state, events)
    return events


def resolve(
    rs: Ed4Ruleset, state: FightState, command: Command, dice: DiceSource, events: list[ev.Event]
) -> list[ev.Event]:
    """The consequences every command may have, after the events the round gave it: falls off mounts and out
    of the sky (p.395, p.398), holds lost (p.392)."""
    events = aftermath(rs, state, events, dice)
    held = may_be_grappled(state, events)
    if held:
        events = holds_kept(rs, state, command, events, held)
    grapples_seen(state, events)
    return events


def standing_options(state: FightState, spec: Any) -> None:
    """Each combatant's ``combat_options`` (docs/encounter-format.md): checked now as far as the rules
    can be known before the fight (:func:`.options.standing_problems`: p.382-386), kept in
    ``marks["combat_options"]``; its tactic declares them each round when legal (chapter_tactics)."""
    from fracas.engine.encounter import assign_ids
    from fracas.errors import EncounterFileError

    errors: list[str] = []
    allowed = ", ".join(opt.options_table())
    for si, side in enumerate(spec.sides):
        for ci, entry in enumerate(side.combatants):
            wanted = list(getattr(entry, "combat_options", ()) or ())
            if not wanted:
                continue
            for cid, _ in assign_ids(entry, "combatant"):
                c = state.combatants.get(cid)
                if c is None:
                    continue
                close_weapons = [a for a in c.stats.attacks if a.close and a.kind == "melee"]
                problems = opt.standing_problems(
                    wanted,
                    tskrang=race(c).replace("'", "") == "tskrang",
                    shatter_weapon=any(opt.can_shatter(a.size) for a in close_weapons),
                    long_weapon=any(mounted.is_lance(a.name) or a.size >= 4 for a in close_weapons),
                )
                for i, problem, rule in problems:
                    errors.append(
                        f"sides.{si}.combatants.{ci}.combat_options.{i}: {c.name}: {problem}, "
                        f"by rule {rule} (found {wanted!r}; allowed: {allowed})"
                    )
                if problems:
                    break  # the copies of an entry share its problems
                c.marks["combat_options"] = wanted
    if errors:
        raise EncounterFileError("\n".join(errors))


def movement_hexes(state: FightState, c: Combatant) -> int:
    p: CombatProfile = c.stats
    jumped = c.marks.get("jumped_up")
    if jumped is not None and jumped == state.round:
        return 0  # Jump Up: no other movement that round (p.384)
    if "grappled" in c.conditions or "falling" in c.conditions:
        return 0  # a grappled character cannot move (p.392)
    if "knocked-down" in c.conditions:
        return hexes(situation.crawl_movement())
    rate = p.movement
    if c.altitude > 0 or c.marks.get("flying"):
        src = getattr(p, "source", None)
        fly = getattr(src, "flying_movement", None)
        if fly:
            rate = int(fly)
    m = mount_of(state, c)
    if m is not None:
        rate = m.stats.movement
    rate = situation.impaired_movement(rate, impaired(state, c))
    return hexes(rate)  # rounded up to cover a full hex (p.372): Movement 1 is 1 hex


def standing_hexes(rs: Ed4Ruleset, state: FightState, c: Combatant) -> int:
    """Hexes a knocked-down character may move once he has stood up with his Standard action (p.389):
    his Movement Rate on foot (impaired by the terrain, p.389), less what he crawled this round (p.373:
    one Movement Rate a round)."""
    p: CombatProfile = c.stats
    rate = situation.impaired_movement(p.movement, impaired(state, c))
    return max(hexes(rate) - rs.moved_this_round(state, c), 0)


def round_start(
    rs: Ed4Ruleset, state: FightState, dice: DiceSource, events: list[ev.Event]
) -> list[ev.Event]:
    rnd = next(e.round for e in events if isinstance(e, ev.RoundStarted))
    extra: list[ev.Event] = []
    sc = Scratch(state)
    if rnd == 1:
        surprise(rs, state, dice, sc, rnd)
    if state.options.get("long-falls"):
        long_falls(rs, state, dice, sc, rnd)
    extra = sc.events
    if not extra:
        return events
    i = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundStarted)) + 1
    return events[:i] + extra + events[i:]


def surprise(rs: Ed4Ruleset, state: FightState, dice: DiceSource, sc: Scratch, rnd: int) -> None:
    """Surprise (p.390): when some combatants start hidden, each of their enemies makes a Perception
    test against the lowest Dexterity step among the hidden ones; failing, it is surprised for the
    round: no actions, -3 to Physical and Mystic Defense."""
    hidden = [c for c in state.combatants.values() if c.hidden and c.active]
    if not hidden:
        return
    sides = {c.side for c in hidden}
    for c in state.combatants.values():
        if not c.active or c.hidden or c.side in sides:
            continue
        foes = [h for h in hidden if h.side != c.side]
        if not foes:
            continue
        dn = situation.surprise_dn(h.stats.dex_step for h in foes)
        mods = rs.step_mods(TestContext(state, sc, "perception", c))
        res = run_test(
            dice,
            rs.edition,
            c.stats.per_step,
            mods,
            dn,
            None,
            c.name,
            "Perception (surprise)",
            "surprise DN",
        )
        sc.emit(rolled_event(c.id, "Perception (surprise)", res, SURPRISE_RULE, against="surprise DN"))
        if not res.success:
            sc.emit(ev.ConditionAdded(c.id, "surprised", rnd, 3, "ambush", SURPRISE_RULE))
        else:  # he noticed the ambush: his side's tactics may count the hidden ones among his foes
            sc.emit(ev.Marked(c.id, "noticed_hidden", True, SURPRISE_RULE))


def offered(state: FightState, decision: Decision, base: list[Command]) -> list[Command]:
    """The core's candidates (``base``) plus the chapter's: declarations with each legal option, Jump Up,
    picking up a thrown weapon, tail attacks, breaking free, holding, spells, dismounting, charges (the
    core's ``choices`` keeps those ``validate`` accepts)."""
    me = state.combatants[decision.actor]
    if decision.kind == "declare":
        extra = [
            Command(me.id, "declare", args={"action": "act", "options": [o]}, label=f"Declare {opt.title(o)}")
            for o in opt.options_table()
        ]
        return base + extra
    if decision.kind != "act":
        return base
    foes = [c for c in state.combatants.values() if c.side != me.side and c.status == "active"]
    extra = [
        Command(me.id, "jump-up", args={"end": False}),
        Command(me.id, "pick-up", args={"end": False}),
        Command(me.id, "break-free"),
        Command(me.id, "hold"),
        Command(me.id, "release"),
    ]
    for f in foes:
        extra.append(Command(me.id, "tail-attack", f.id))
        for a in me.stats.attacks:
            if a.kind == "spell" and a.name.lower().replace(" ", "-") in spells.spells():
                extra.append(Command(me.id, "cast", f.id, {"spell": a.name}))
    for a in me.stats.attacks:
        if a.kind == "spell" and a.name.lower().replace(" ", "-") in spells.spells():
            extra.append(Command(me.id, "weave", args={"spell": a.name}))
    if mount_of(state, me) is not None and me.pos is not None:
        blocked = taken.blocked_view(state, me.id)
        free = next((h for h in neighbours(me.pos) if h not in blocked), None)
        if free is not None:
            extra.append(Command(me.id, "dismount", args={"to": list(free)}))
    return base + extra


def narrate(event: ev.Event, state: FightState) -> str | None:
    """The chapter's words for an event, "" to say nothing, None to leave it to the core."""
    if isinstance(event, ev.Moved) and event.mode == "turn":
        return ""
    if isinstance(event, ev.Moved) and event.mode in ("ridden",):
        return ""
    if isinstance(event, (ev.ConditionAdded, ev.ConditionRemoved)) and event.name in ("split-movement",):
        return ""
    if isinstance(event, ev.ConditionAdded) and event.name == "entangled":
        return ""  # the entangling Note says it, with the DN to break free
    if isinstance(event, ev.InitiativeRolled) and event.rule == mounted.SEQUENCE:
        c = state.combatants[event.actor]
        return f"{c.name} acts on its rider's Initiative {event.value} [{event.rule}]"
    if isinstance(event, ev.ConditionAdded) and event.name == "surprised":
        c = state.combatants[event.target]
        return f"  {c.name} is surprised [{event.rule}]"
    return None
