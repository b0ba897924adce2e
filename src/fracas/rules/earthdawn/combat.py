"""Earthdawn combat rules shared by both editions: tests, successes, damage, Wounds, knockdown, recovery.

Everything here is pure: numbers, a :class:`~fracas.dice.source.DiceSource` and the edition's settings in,
results and events out. Page numbers and rule ids come from the edition (:class:`Edition.refs`), so the 1st
Edition ruleset reuses these functions with its own step table, ids and pages.

ED4 text (``000_4b24aca42c3b6366.txt``) pages behind the functions: p.377 (Attack tests, Difficulty
Numbers, extra successes), p.378 (Damage tests, Karma on damage), p.379 (Armor, Wounds), p.379-380
(knockdown, unconsciousness, death), p.380 (Recovery tests), p.381 (Wound penalties), p.383 (Stun damage).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from fracas.dice.roll import MAX_EXPLOSIONS, Roll
from fracas.dice.source import RandomDice
from fracas.dice.steps import step_table
from fracas.engine import events as ev
from fracas.rules.base import Modifier

if TYPE_CHECKING:
    from fracas.dice.source import DiceSource
    from fracas.engine.commands import Command
    from fracas.engine.state import Combatant, FightState
    from fracas.rules.earthdawn.profile import AttackProfile, CombatProfile


@dataclass(frozen=True, slots=True)
class Edition:
    """What differs between the Earthdawn editions in the shared rules.

    ``refs`` maps a rule key ("attack.extra-successes") to its rule id with page
    ("ed4/attack/extra-successes p.377"). ``extra_success_damage``: damage steps per extra success against
    Physical Defense. ``rule_of_one_min_dice``: how many dice must all show 1 (reference 1.4).
    ``result_floor``: the smallest result of a test (reference 1.4, fvtt #496).
    ``rounds_per_minute``: how many of the edition's combat rounds make a minute.
    """

    id: str
    steps: str
    refs: dict[str, str]
    extra_success_damage: int = 2
    rule_of_one_min_dice: int = 2
    result_floor: int = 1
    hex_yards: int = 2
    rounds_per_minute: int = 10
    """Combat rounds in the text's "one minute" (the unconscious character's Recovery test): ED4's round is
    "roughly six seconds" (p.371), 10 a minute; ED1's "roughly ten seconds" (ch.12), 6 a minute."""

    def ref(self, key: str) -> str:
        return self.refs[key]


# ----- tests -----------------------------------------------------------------------------------------------


class TestResult(NamedTuple):
    """One rolled test (immutable). ``roll`` is the plain form of :class:`~fracas.dice.roll.Roll` (every
    face; ``Roll.from_json`` reads it back); ``step`` is the step rolled (after step modifiers), ``dn`` the
    Difficulty Number after its modifiers."""

    roll: dict[str, Any]
    step: int
    total: int
    dn: int | None
    success: bool | None
    extra: int
    rule_of_one: bool
    modifiers: tuple[Modifier, ...]
    karma: bool = False


_TABLES: dict[str, dict[int, tuple[tuple[int, ...], int]]] = {}


def _table(edition: str) -> dict[int, tuple[tuple[int, ...], int]]:
    t = _TABLES.get(edition)
    if t is None:
        t = {k: (v.dice, v.modifier) for k, v in step_table(edition).items()}
        _TABLES[edition] = t
    return t


def roll_step_dice(
    step: int, dice: DiceSource, edition: Edition, karma_step: int | None = None, why: str = ""
) -> tuple[dict[str, Any], int, bool]:
    """Roll ``step`` (every die exploding: bonus dice, reference 1.4) plus a Karma die at ``karma_step``.

    Returns the roll in :meth:`Roll.to_json` form, its total (never below the edition's floor) and whether
    the Rule of One struck (every die's first face a 1, with at least ``rule_of_one_min_dice`` dice).
    ``why`` is what each die is rolled for (a person typing physical dice sees it).
    """
    table = _TABLES.get(edition.steps) or _table(edition.steps)
    sizes, modifier = table[step]
    if karma_step is not None:
        ksizes, kmod = table[karma_step]
        sizes = sizes + ksizes
        modifier += kmod
    out = []
    total = modifier
    ones = 0
    if dice.__class__ is RandomDice:
        # The same faces as RandomDice.roll (int(random() * sides) + 1), without a method call per die.
        rnd = dice._random  # type: ignore[attr-defined]
        for sides in sizes:
            face = int(rnd() * sides) + 1
            if face == 1:
                ones += 1
            if face == sides and sides > 1:
                faces = [sides, face]
                n = 0
                while face == sides and n < MAX_EXPLOSIONS:
                    face = int(rnd() * sides) + 1
                    faces.append(face)
                    n += 1
                total += sum(faces) - sides
                out.append(faces)
            else:
                total += face
                out.append([sides, face])
    else:
        roll = dice.roll
        for sides in sizes:
            face = roll(sides, why)
            if face == 1:
                ones += 1
            if face == sides and sides > 1:
                faces = [sides, face]
                n = 0
                while face == sides and n < MAX_EXPLOSIONS:
                    face = roll(sides, why)
                    faces.append(face)
                    n += 1
                total += sum(faces) - sides
                out.append(faces)
            else:
                total += face
                out.append([sides, face])
    floor = edition.result_floor
    if total < floor:
        total = floor
    data: dict[str, Any] = {"dice": out, "total": total}
    if modifier:
        data["modifier"] = modifier
    data["floor"] = floor
    return data, total, ones == len(sizes) and len(sizes) >= edition.rule_of_one_min_dice


class ProbedTest(Exception):  # noqa: N818 - a signal, not an error
    """The first test a command would roll, met by :class:`ProbeDice` (nothing is rolled)."""

    def __init__(
        self,
        who: str,
        test: str,
        step: int,
        karma_step: int | None,
        dn: int | None,
        against: str,
        mods: tuple[Modifier, ...],
    ) -> None:
        super().__init__(f"{who}: {test} step {step}")
        self.who = who
        self.test = test
        self.step = step
        self.karma_step = karma_step
        self.dn = dn
        self.against = against
        self.mods = mods


class ProbeDice:
    """A dice source that stops a resolver at its first test (:class:`ProbedTest`) without rolling."""

    def roll(self, sides: int, why: str = "") -> int:
        raise ProbedTest("", why or "a roll", 0, None, None, "", ())


def extra_successes(total: int, dn: int) -> int:
    """Extra successes of a successful test: one per full 5 points over the DN (ED4 p.377; reference 1.5)."""
    return (total - dn) // 5 if total >= dn else 0


def is_rule_of_one(roll: Roll, edition: Edition) -> bool:
    """Every die shows 1 (counting at least ``rule_of_one_min_dice`` dice): the test fails (reference 1.4)."""
    return len(roll.dice) >= edition.rule_of_one_min_dice and roll.all_ones


def run_test(
    dice: DiceSource,
    edition: Edition,
    base_step: int,
    step_mods: Sequence[Modifier] = (),
    dn: int | None = None,
    karma_step: int | None = None,
    who: str = "",
    test: str = "",
    against: str = "",
) -> TestResult:
    """Roll a test at ``base_step`` plus its step modifiers against ``dn``.

    Modifiers to a test change its step (ED4: Silar's long-range shot, Step 13 -> 11, p.390); a step below
    1 is rolled at Step 1 (the text does not say; docs/rulesets/ed4.md). The Rule of One fails the test
    whatever its total.

    ``who`` and ``test`` name the roll for the dice source ("Mica: Broadsword Attack test, step 13");
    ``against`` names the DN ("Physical Defense"). A :class:`ProbeDice` source is never rolled: the test it
    meets is raised as :class:`ProbedTest` (how :meth:`~EarthdawnRuleset.odds` reads the resolver's numbers).
    """
    step = base_step
    for m in step_mods:
        step += m.value
    if step < 1:
        step = 1
    if test and dice.__class__ is not RandomDice:  # RandomDice never reads why: no string to build
        why = f"{who}: {test} test, step {step}" if who else f"{test} test, step {step}"
        if karma_step is not None:
            why += f" + Karma step {karma_step}"
    else:
        why = ""
    if dice.__class__ is ProbeDice:
        raise ProbedTest(who, test, step, karma_step, dn, against, tuple(step_mods))
    roll, total, r1 = roll_step_dice(step, dice, edition, karma_step, why)
    mods = tuple(step_mods)
    if dn is None:
        return TestResult(roll, step, total, None, None, 0, r1, mods, karma_step is not None)
    success = total >= dn and not r1
    extra = (total - dn) // 5 if success else 0
    return TestResult(roll, step, total, dn, success, extra, r1, mods, karma_step is not None)


def mods_tuple(mods: Iterable[Modifier]) -> tuple[tuple[Any, ...], ...]:
    return tuple((m.value, m.why, m.rule) for m in mods)


def rolled_event(
    actor: str,
    test: str,
    result: TestResult,
    rule: str,
    target: str | None = None,
    against: str = "",
    dn_mods: Sequence[Modifier] = (),
    karma_rule: str = "karma",
) -> ev.Rolled:
    """The ``Rolled`` event of a test: every face, step, DN, outcome, extra successes, every modifier.

    Step modifiers and Difficulty Number modifiers travel in one list; DN modifiers say so in their
    ``why`` ("DN: ...").
    """
    if result.dn is None:
        outcome = "Rule of One" if result.rule_of_one else ""
    elif result.rule_of_one:
        outcome = "Rule of One: failure"
    else:
        outcome = "success" if result.success else "failure"
    mods = mods_tuple(result.modifiers)
    if dn_mods:
        mods += tuple((m.value, m.why if m.why.startswith("DN") else f"DN: {m.why}", m.rule) for m in dn_mods)
    if result.karma:
        mods += ((0, "Karma die added (its faces are the last die)", karma_rule),)
    return ev.Rolled(
        actor,
        test,
        result.total,
        result.roll,
        result.step,
        "",
        target,
        against,
        result.dn,
        False,
        outcome,
        result.success,
        result.extra,
        mods,
        rule,
    )


# ----- a scratch view for pure resolution ------------------------------------------------------------------


class _CopyOnRead(dict):  # type: ignore[type-arg]
    """Combatants of a state, each cloned the first time it is read (so events can be applied locally)."""

    __slots__ = ("base",)

    def __init__(self, base: dict[str, Combatant]) -> None:
        super().__init__()
        self.base = base

    def __missing__(self, key: str) -> Combatant:
        c = self.base[key].clone()
        self[key] = c
        return c


class Scratch:
    """What a command's own events have done so far, without touching the real state (resolve is pure).

    Events that change combatants only (Damaged, Wounded, CounterChanged, Condition*, StatusChanged, Marked,
    Moved) are applied here as they are produced, so the next test of the same command sees them.
    """

    __slots__ = ("state", "combatants", "events", "flags")

    def __init__(self, state: FightState) -> None:
        self.state = state
        self.combatants: dict[str, Combatant] = _CopyOnRead(state.combatants)
        self.events: list[ev.Event] = []
        self.flags: dict[str, Any] = {}

    def emit(self, *events: ev.Event) -> None:
        append = self.events.append
        for e in events:
            append(e)
            if (
                e.changes_combatant
            ):  # Damaged, Wounded, CounterChanged, Condition*, StatusChanged, Marked, Moved
                e.apply(self)  # type: ignore[arg-type]

    def emit1(self, e: ev.Event) -> None:
        """:meth:`emit` of one event (no argument tuple)."""
        self.events.append(e)
        if e.changes_combatant:
            e.apply(self)  # type: ignore[arg-type]

    def get(self, cid: str) -> Combatant:
        return self.combatants[cid]


_COMBATANT_EVENTS = (
    ev.Damaged,
    ev.Wounded,
    ev.CounterChanged,
    ev.ConditionAdded,
    ev.ConditionRemoved,
    ev.StatusChanged,
    ev.Marked,
    ev.Moved,
)
"""The events a :class:`Scratch` applies as they are emitted (``Event.changes_combatant``)."""


# ----- context for modifier providers ---------------------------------------------------------------------


@dataclass(slots=True)
class TestContext:
    """What a modifier provider sees: the test, who rolls it, against whom, with what, under which command.

    ``view`` is the current picture of the combatants (the :class:`Scratch` during a command).
    """

    state: FightState
    view: Scratch | None
    test: str
    actor: Combatant
    target: Combatant | None = None
    attack: AttackProfile | None = None
    command: Command | None = None
    against: str = "physical"
    extra: dict[str, Any] = field(default_factory=dict)


Provider = Callable[[TestContext], Iterable[Modifier]]


def current_damage(c: Combatant) -> int:
    """Current Damage: damage points (Strain included) plus Stun damage (p.383)."""
    counters = c.counters
    return counters.get("damage", 0) + counters.get("stun", 0)


# ----- damage, Wounds, knockdown, unconsciousness, death --------------------------------------------------


def damage_events(
    sc: Scratch,
    edition: Edition,
    dice: DiceSource,
    target_id: str,
    raw: int,
    armor: int,
    source: str | None,
    *,
    stun: bool = False,
    damage_type: str = "physical",
    knockdown_mods: Callable[[Combatant, int], list[Modifier]] | None = None,
    round_no: int = 0,
) -> int:
    """Emit what a Damage test result does to ``target_id``; returns the damage that got through.

    - Armor is subtracted (p.379); what is left is added to Current Damage (``Damaged``).
    - Damage at least the Wound Threshold causes a Wound (p.379), recorded even if the target falls; Stun
      damage causes no Wound but leaves the target Harried for the round (p.383).
    - Damage exceeding the Wound Threshold by 5 or more calls for a Knockdown test: Strength (knockdown)
      step against DN = damage - Wound Threshold (p.379); a target already knocked down does not test.
    - Damage other than Stun at the Death Rating kills (Stun damage cannot, p.383); at the Unconsciousness
      Rating (Current Damage, Stun included) the target falls unconscious and is knocked down (p.380). A
      target with Unconsciousness "NA" is immune to Stun damage (p.383).
    """
    t = sc.get(target_id)
    p: CombatProfile = t.stats
    refs = edition.refs
    emit = sc.emit1
    if stun and p.unconsciousness is None:
        emit(ev.Note(f"{t.name} is immune to Stun damage", target_id, refs["damage.stun"]))
        return 0
    amount = raw - armor
    if amount < 0:
        amount = 0
    emit(
        ev.Damaged(
            target_id,
            amount,
            source,
            "stun" if stun else "damage",
            raw,
            armor,
            "stun" if stun else damage_type,
            refs["damage.stun"] if stun else refs["damage.armor"],
        )
    )
    if amount == 0:
        return 0
    if stun and t.marks.get("stun_bonus_used"):
        # new Stun damage: the next Recovery test is again "the first ... after taking Stun damage" (p.383)
        emit(ev.Marked(target_id, "stun_bonus_used", None, refs["damage.stun"]))
    wt = p.wound_threshold
    new_wounds = 0
    if amount >= wt:
        if stun:
            emit(ev.ConditionAdded(target_id, "harried", round_no, 2, source or "", refs["damage.stun"]))
        else:
            emit(ev.Wounded(target_id, 1, "wounds", refs["damage.wounds"]))
            new_wounds = 1
    total = current_damage(t)
    # Stun damage counts toward the Current Damage but cannot kill (p.383): death needs the damage that is not
    # Stun damage (Strain included) to reach the Death Rating.
    if not stun and t.counters.get("damage", 0) >= p.death:
        emit(ev.StatusChanged(target_id, "dead", refs["damage.death"]))
        return amount
    if p.unconsciousness is not None and total >= p.unconsciousness and t.status == "active":
        emit(ev.StatusChanged(target_id, "unconscious", refs["damage.unconscious"]))
        emit(ev.Marked(target_id, "unconscious_since", round_no, refs["damage.unconscious"]))
        if "knocked-down" not in t.conditions:
            emit(
                ev.ConditionAdded(
                    target_id, "knocked-down", None, 3, "unconscious", refs["damage.unconscious"]
                )
            )
        return amount
    if amount - wt >= 5 and "knocked-down" not in t.conditions and t.status == "active":
        dn = amount - wt
        # The Wound this damage causes does not penalise its own Knockdown test (p.379: Tomas "makes the
        # test using his Strength Step"); earlier Wounds do (p.381).
        mods = knockdown_mods(t, new_wounds) if knockdown_mods else []
        res = run_test(dice, edition, p.knockdown_step, mods, dn, None, t.name, "Knockdown", "Knockdown DN")
        emit(rolled_event(target_id, "Knockdown", res, refs["damage.knockdown"], against="Knockdown DN"))
        if not res.success:
            emit(
                ev.ConditionAdded(target_id, "knocked-down", None, 3, source or "", refs["damage.knockdown"])
            )
    return amount


def strain_events(sc: Scratch, edition: Edition, target_id: str, amount: int, why: str, rule: str) -> None:
    """Strain: damage that ignores armor and causes no Wound, but counts toward the ratings (reference 2.1);
    Strain that knocks a character out leaves him unconscious as damage does (knocked down, p.380).

    It is recorded as ``Damaged(..., damage_type="strain")`` so that damage totals always equal the sum of
    Damaged events.
    """
    if amount <= 0:
        return
    t = sc.get(target_id)
    p: CombatProfile = t.stats
    sc.emit(ev.Damaged(target_id, amount, target_id, "damage", amount, 0, "strain", rule))
    total = current_damage(t)
    if t.counters.get("damage", 0) >= p.death:
        sc.emit(ev.StatusChanged(target_id, "dead", edition.ref("damage.death")))
    elif p.unconsciousness is not None and total >= p.unconsciousness and t.status == "active":
        # as damage_events: unconscious characters are Blindsided and Knocked Down, and may make a Recovery
        # test one minute after falling (p.380)
        rule = edition.ref("damage.unconscious")
        sc.emit(
            ev.StatusChanged(target_id, "unconscious", rule),
            ev.Marked(target_id, "unconscious_since", sc.state.round, rule),
        )
        if "knocked-down" not in t.conditions:
            sc.emit(ev.ConditionAdded(target_id, "knocked-down", None, 3, "unconscious", rule))


def recovery_events(
    sc: Scratch,
    edition: Edition,
    dice: DiceSource,
    target_id: str,
    why: str,
    *,
    stun_bonus: bool = True,
) -> TestResult | None:
    """A Recovery test (p.380): Toughness (Recovery) step; Wounds reduce the result, never the step;
    at least 1 point is recovered. Stun damage: the first Recovery test after it adds the Willpower step
    (p.383) and heals Stun damage only. Uses one Recovery test; wakes an unconscious character whose Current
    Damage drops below the Unconsciousness Rating.
    """
    t = sc.get(target_id)
    p: CombatProfile = t.stats
    r = edition.ref
    if t.count("recovery_used") >= p.recovery_tests:
        sc.emit(ev.Note(f"{t.name} has no Recovery test left", target_id, r("recovery")))
        return None
    stun = t.count("stun")
    mods: list[Modifier] = []
    use_stun_bonus = stun_bonus and stun > 0 and not t.marks.get("stun_bonus_used")
    if use_stun_bonus:
        mods.append(Modifier(p.wil_step, "Willpower step (Stun damage)", r("damage.stun")))
    res = run_test(dice, edition, p.recovery_step, mods, None, None, t.name, "Recovery")
    wounds = t.count("wounds")
    healed = res.total - wounds
    if healed < 1:
        healed = 1
    sc.emit(
        rolled_event(target_id, "Recovery", res, r("recovery")),
        ev.CounterChanged(target_id, "recovery_used", 1, why, r("recovery")),
    )
    if use_stun_bonus:
        heal_stun = min(stun, healed)
        sc.emit(
            ev.Marked(target_id, "stun_bonus_used", True, r("damage.stun")),
            ev.CounterChanged(
                target_id, "stun", -heal_stun, f"recovers {heal_stun} Stun damage", r("damage.stun")
            ),
        )
    else:
        heal_stun = min(stun, healed)
        heal_damage = min(t.count("damage"), healed - heal_stun)
        if heal_stun:
            sc.emit(ev.CounterChanged(target_id, "stun", -heal_stun, "recovered", r("recovery")))
        if heal_damage:
            sc.emit(
                ev.CounterChanged(
                    target_id,
                    "damage",
                    -heal_damage,
                    f"Recovery {res.total} - {wounds} Wounds = {healed}" if wounds else "recovered",
                    r("recovery.wounds"),
                )
            )
    if t.status == "unconscious" and p.unconsciousness is not None and current_damage(t) < p.unconsciousness:
        sc.emit(ev.StatusChanged(target_id, "active", r("recovery")))
    return res


def recovered_amount(result: int, wounds: int) -> int:
    """Damage a Recovery test heals: the result minus one per Wound, at least 1 (p.380, Herekar: 12-3=9)."""
    return max(1, result - wounds)


def damage_step(weapon_step: int, strength_step: int) -> int:
    """Damage step of a weapon attack: the weapon's Damage Step plus the Strength Step (p.378, Thrak 7+7)."""
    return weapon_step + strength_step


def extra_success_bonus(extra: int, edition: Edition) -> int:
    """Damage steps gained from extra successes against Physical Defense (p.377: +2 each)."""
    return extra * edition.extra_success_damage


def knockdown_dn(damage: int, wound_threshold: int) -> int | None:
    """DN of the Knockdown test for ``damage`` that got through armor, or None if no test (p.379)."""
    return damage - wound_threshold if damage - wound_threshold >= 5 else None


def initiative_order_key(
    value: int, forced_last: bool, player: bool, initiative_step: int, dexterity: int, cid: str
) -> tuple[int, int, int, int, int, str]:
    """Sort key of the acting order (ED4 p.371): highest Initiative first; a character whose step was
    forced below 1 acts last; ties go to player characters, then the higher Initiative step, then the higher
    Dexterity value (the text's two suggested tie-breaks), then the id (stable)."""
    return (1 if forced_last else 0, -value, 0 if player else 1, -initiative_step, -dexterity, cid)


def has_higher_initiative(state: FightState, a: str, b: str) -> bool:
    """``a``'s Initiative test *result* is higher than ``b``'s (p.375): delaying or reserving never changes
    the result, so talents such as Cobra Strike look at the rolled values, not at who acts first."""
    ia = state.initiative.get(a)
    ib = state.initiative.get(b)
    return ia is not None and ib is not None and ia > ib
