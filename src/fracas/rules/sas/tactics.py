"""Tactics for automated Spells & Swords combatants: deterministic functions of the state (no dice).

Each tactic proposes commands in order of preference; the first one the ruleset accepts is played, and if
none is, the first legal choice. ``default`` fights in the ordinary way (Stand Up, Break Free, Stop Bleed,
Continued attacks, Charge when it can, Close to Attack, Run toward the nearest foe); the others change its
preferences: ``horde`` (Horde Attacks when side-mates are next to the target), ``dogpile`` (Dog Pile a
larger foe), ``archer`` (shoot, Aimed Shot, keep away from HTH), ``caster`` (spells first), ``cavalry``
(Charge, with a Battle Cry), ``defensive`` (Defensive Stance attacks), ``guard`` (hold the line in
Defensive Stance until a foe comes adjacent), ``hold`` (Set to Receive Charge with a
spear or pole-arm until a foe is adjacent), ``ambush`` (Sneak to the foe and Sneak Attack).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from fracas.engine.commands import Command, Decision
from fracas.engine.hexgrid import distance
from fracas.errors import IllegalCommand
from fracas.rules.sas.fold import hand_over, views_held
from fracas.rules.sas.tables import tables

if TYPE_CHECKING:
    from fracas.engine.contract import Ruleset
    from fracas.engine.state import Combatant, FightState


@dataclass(frozen=True, slots=True)
class SasTactic:
    name: str = "default"
    horde: bool = False
    dogpile: bool = False
    archer: bool = False
    caster: bool = False
    cavalry: bool = False
    defensive: bool = False
    hold: bool = False
    ambush: bool = False
    guard: bool = False

    # every command ``choose`` returns was validated by the fight's ruleset against this very state (or is a
    # legal choice): the engine need not validate it again (``SasRuleset.tactics_legal``)
    legal_by_construction: ClassVar[bool] = True

    def choose(self, state: FightState, decision: Decision, ruleset: Ruleset) -> Command:
        c = state.combatants[decision.actor]
        # the state stands still while the proposals are weighed: each combatant's view is built once
        with views_held(state):
            for cmd in self.proposals(state, c, ruleset):
                try:
                    ruleset.validate(state, cmd)
                except IllegalCommand:
                    continue
                hand_over(state, cmd)  # what was found weighing it serves its resolution
                return cmd
            return ruleset.choices(state, decision)[0]

    # ----------------------------------------------------------------------------------------------
    def proposals(self, state: FightState, c: Combatant, ruleset: Ruleset | None = None) -> Iterator[Command]:
        t = tables()
        me = c.id
        rnd = state.round
        if c.has("immobilized") or c.has("partial-immobilization"):
            yield Command(me, "break-free")
        if c.has("knocked-down"):
            yield Command(me, "stand-up")
        foes, bleeding, hidden_foe, routed = _roster(state, c)
        adjacent = [f for f in foes if _dist(c, f) <= 1]
        yield from _tending(c, bleeding, adjacent)
        if not foes:
            if hidden_foe:
                yield Command(me, "lookout")
            yield Command(me, "nothing")
            return
        if routed and c.stats.skill("leadership") > 0:
            yield Command(me, "rally")
        weapon = c.marks.get("weapon") or c.stats.weapons[0]
        continued = c.marks.get("last_attack_round") == rnd - 1
        # spells first for casters
        if self.caster and c.count("pp_used") < c.stats.power_points:
            yield from _spells(c, foes)
        yield from _attacked_early(c, rnd, adjacent)
        if adjacent:
            yield from self._melee(state, c, ruleset, adjacent, weapon, continued)
        nearest = sorted(foes, key=lambda f: (_dist(c, f), -_hurt(f), f.id))
        # ranged attacks
        shooters = [
            w for w in c.stats.weapons if t.weapons[w].ranged and w not in c.marks.get("broken_weapons", ())
        ]
        if shooters and not adjacent:
            for f in nearest:
                if continued and weapon in shooters:
                    yield Command(me, "aimed-shot", f.id)
                yield Command(me, "attack", f.id, {"weapon": weapon if weapon in shooters else shooters[0]})
        if adjacent:
            return
        yield from self._closing(state, c, ruleset, nearest, weapon)

    def _melee(
        self,
        state: FightState,
        c: Combatant,
        ruleset: Ruleset | None,
        adjacent: list[Combatant],
        weapon: str,
        continued: bool,
    ) -> Iterator[Command]:
        """With a foe adjacent: the hand-to-hand attacks, the one he prefers first."""
        t = tables()
        me = c.id
        ranged = t.weapons[weapon].ranged
        # a Dog Pile is smaller races against a larger one: validate refuses the others (``smaller_than``)
        smaller = getattr(ruleset, "smaller_than", None)
        target = min(adjacent, key=lambda f: (f.has("knocked-out"), -_hurt(f), f.id))
        if any(f.has("immobilized") for f in adjacent):
            held = min((f for f in adjacent if f.has("immobilized")), key=lambda f: f.id)
            yield Command(me, "attack", held.id)
        large = getattr(ruleset, "large_against", None)  # a Trample is refused unless this holds
        if large is None or large(state, c, target):
            yield Command(me, "trample", target.id)
        if self.dogpile:
            for f in sorted(adjacent, key=lambda f: (-f.stats.size_index, f.id)):
                if not f.has("immobilized") and (smaller is None or smaller(c, f)):
                    yield Command(me, "dog-pile", f.id)
        if self.horde and _hard_to_hit(state, c, target, ruleset):
            yield Command(me, "horde", target.id)
        if self.archer and ranged:
            yield Command(me, "disengage", target.id, {"mode": "withdrawal"})
        if self.defensive:
            yield Command(me, "defensive-stance-attack", target.id)
        if continued:
            big = t.weapons[weapon].weapon_class == "large"
            yield Command(me, "mighty-blow" if big else "hack-and-slash", target.id)
        # draw a melee weapon when only a bow is in hand
        if ranged:
            melee = [w for w in c.stats.weapons if not t.weapons[w].ranged]
            if melee:
                yield Command(me, "attack", target.id, {"weapon": melee[0]})
        yield Command(me, "attack", target.id)

    def _closing(
        self, state: FightState, c: Combatant, ruleset: Ruleset | None, nearest: list[Combatant], weapon: str
    ) -> Iterator[Command]:
        """With no foe adjacent and nothing to shoot: hold, sneak, close in (Dog Pile, Horde, Leap, Charge,
        Close to Attack), or move toward the nearest foe."""
        me = c.id
        smaller = getattr(ruleset, "smaller_than", None)
        # a foe with every hex next to him taken refuses every closing attack (``no_room_next_to``): those
        # proposals are not made, so the first one validate accepts is the same, found sooner
        no_room = getattr(ruleset, "no_room_next_to", None)
        room: dict[str, bool] = {}

        def can_close(f: Combatant) -> bool:
            if no_room is None:
                return True
            hit = room.get(f.id)
            if hit is None:
                hit = room[f.id] = not no_room(state, c, f)
            return hit

        # a closing attack that finds no path to the foe this turn is refused (``no_way_through``, the
        # computation validate makes): not proposed either, and the rest of validate is spared
        no_way = getattr(ruleset, "no_way_through", None)

        def way(f: Combatant, action: str) -> bool:
            return no_way is None or not no_way(state, c, f, action)

        # the look for a Charge's longer reach first: when it finds nothing, the shorter reaches asked before
        # the Charge (Horde Attack, Dog Pile) are answered from the memo without a look of their own
        look = getattr(ruleset, "may_close_at", None)

        yield from self._standing(c, weapon)
        target = nearest[0]
        if c.hidden:
            for f in nearest:
                if can_close(f) and way(f, "sneak-attack"):
                    yield Command(me, "sneak-attack", f.id)
            if self.ambush:
                yield Command(me, "sneak", None, {"toward": target.id})
        for f in nearest[:3]:
            if not can_close(f):
                continue
            if look is not None and (self.dogpile or self.horde):
                look(state, c, f, "charge")  # fills the memo only: what is proposed does not change
            if (
                self.dogpile
                and not f.has("immobilized")
                and (smaller is None or smaller(c, f))
                and way(f, "dog-pile")
            ):
                yield Command(me, "dog-pile", f.id)
            if self.horde and way(f, "horde") and _hard_to_hit(state, c, f, ruleset):
                yield Command(me, "horde", f.id)
        yield from self._moving_in(c, nearest, can_close, way)

    def _standing(self, c: Combatant, weapon: str) -> Iterator[Command]:
        """A guard holds the line in Defensive Stance; a holder Sets to Receive Charge with a spear or
        pole-arm, then waits."""
        me = c.id
        if self.guard:
            yield Command(me, "defensive-stance")
        if self.hold and tables().weapons[weapon].pole and c.marks.get("set") != "receive-charge":
            yield Command(me, "set-to-receive-charge")
        if self.hold and c.marks.get("set") == "receive-charge":
            yield Command(me, "nothing")

    def _moving_in(
        self,
        c: Combatant,
        nearest: list[Combatant],
        can_close: Callable[[Combatant], bool],
        way: Callable[[Combatant, str], bool],
    ) -> Iterator[Command]:
        """Leap down on a foe below, Charge or Close to Attack one of the three nearest, else run or walk
        toward the nearest."""
        me = c.id
        target = nearest[0]
        for f in nearest:
            if c.altitude > f.altitude and can_close(f):
                yield Command(me, "leap-attack", f.id)
        for f in nearest[:3]:
            if can_close(f) and way(f, "charge"):
                yield Command(me, "charge", f.id, {"battle_cry": True} if self.cavalry else {})
        for f in nearest[:3]:
            if can_close(f) and way(f, "close-to-attack"):
                yield Command(me, "close-to-attack", f.id)
        if not c.has("fatigued") and not self.archer:
            yield Command(me, "run", None, {"toward": target.id})
        yield Command(me, "walk", None, {"toward": target.id})
        yield Command(me, "nothing")


def _roster(state: FightState, c: Combatant) -> tuple[list[Combatant], list[Combatant], bool, bool]:
    """One pass over the roster (the state stands still while the proposals are weighed): the foes in sight,
    the side-mates with a bleeding wound, whether a foe is hidden and whether a side-mate is routed."""
    side = c.side
    foes: list[Combatant] = []
    bleeding: list[Combatant] = []
    hidden_foe = routed = False
    for f in state.combatants.values():
        if f.side != side:
            if f.status == "active":
                if f.hidden:
                    hidden_foe = True
                else:
                    foes.append(f)
        else:
            if f.id != c.id and f.counters.get("bleeds", 0) > 0:
                bleeding.append(f)
            if "routed" in f.conditions:
                routed = True
    return foes, bleeding, hidden_foe, routed


def _tending(c: Combatant, bleeding: list[Combatant], adjacent: list[Combatant]) -> Iterator[Command]:
    """Stop a bleeding (his own, then a side-mate's next to him), pick up a dropped weapon, quaff a potion
    when more than half his Wound Level is in markers: none of it with a foe adjacent, save the potion."""
    me = c.id
    if c.count("bleeds") > 0 and not adjacent:
        yield Command(me, "stop-bleed", me)
    if not adjacent:  # (with a foe adjacent no side-mate's bleeding is seen to)
        for o in bleeding:
            if _dist(c, o) <= 1 and o.status != "dead":
                yield Command(me, "stop-bleed", o.id)
    if c.marks.get("dropped") and c.marks.get("weapon") == "unarmed" and not adjacent:
        yield Command(me, "pick-up")
    if c.count("potions") and c.count("markers") * 2 > c.stats.wound_level:
        yield Command(me, "quaff")


def _spells(c: Combatant, foes: list[Combatant]) -> Iterator[Command]:
    """A caster's spells, at the nearest foe first (no Sleep or Web at one Knocked Out)."""
    for f in sorted(foes, key=lambda f: (_dist(c, f), f.id)):
        for spell in ("sleep", "web", "confuse", "bolt", "flash", "gust-of-wind"):
            if spell in c.stats.spells and not (spell in ("sleep", "web") and f.has("knocked-out")):
                yield Command(c.id, "cast-spell", f.id, {"spell": spell})


def _attacked_early(c: Combatant, rnd: int, adjacent: list[Combatant]) -> Iterator[Command]:
    """Nothing, when his attack of this round was a first strike at a charge (validate refuses another
    attack: ATTACKING "a single attack per Round") and a foe is at hand."""
    if adjacent and c.marks.get("first_strike_round") == rnd:
        yield Command(c.id, "nothing")


def _dist(a: Combatant, b: Combatant) -> int:
    if a.pos is None or b.pos is None:
        return 1
    return distance(a.pos, b.pos)


def _hard_to_hit(state: FightState, c: Combatant, target: Combatant, ruleset: Ruleset | None) -> bool:
    """A Horde Attack pays when one attacker alone would hit on 14+ (35% or less): then many weak attacks are
    worth less than one strong one. The chance is the one ``odds`` prints (faces 2-20 of 1D20 whose total
    with the modifiers reaches 10), read from the modifiers themselves rather than from the printed text."""
    if ruleset is None:
        return True
    weigh = getattr(ruleset, "attack_modifiers_now", None)
    if weigh is None:  # another ruleset: its printed odds
        text = ruleset.odds(state, Command(c.id, "attack", target.id))
        if not text or not text.startswith("hit "):
            return True
        return int(text[4:].split("%")[0]) <= 35
    found = weigh(state, Command(c.id, "attack", target.id))
    if found is None:
        return True
    m = sum(x.value for x in found[0])
    hits = sum(1 for f in range(2, 21) if f + m >= 10)  # of 20 faces: 5% each
    return hits * 5 <= 35


def _hurt(c: Combatant) -> float:
    return c.count("markers") / max(1, c.stats.wound_level)


TACTICS = {
    "default": SasTactic(),
    "horde": SasTactic("horde", horde=True),
    "dogpile": SasTactic("dogpile", dogpile=True),
    "archer": SasTactic("archer", archer=True),
    "caster": SasTactic("caster", caster=True),
    "cavalry": SasTactic("cavalry", cavalry=True),
    "defensive": SasTactic("defensive", defensive=True),
    "hold": SasTactic("hold", hold=True),
    "ambush": SasTactic("ambush", ambush=True),
    "guard": SasTactic("guard", guard=True),
}
