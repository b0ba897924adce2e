"""The S&S engine's speed-ups give the answers of the plain computations they replace (no event changes)."""

from __future__ import annotations

from fracas.rules.sas.settings import settings_of


def test_views_held_are_the_states_own() -> None:
    """The remembered views and free hexes live on the state they are of (``FightState.derived``), never on
    a module: the web server plays fights in a thread pool, and a fight held on one thread is not seen
    holding from another fight on another thread."""
    import threading

    from fracas.engine.state import FightState
    from fracas.rules.sas import fold

    state = FightState("sas", "x", {}, [])
    other = FightState("sas", "y", {}, [])
    inside, release = threading.Event(), threading.Event()

    def weigh() -> None:
        with fold.views_held(state):
            assert fold.held(state) is not None
            inside.set()
            release.wait(5)

    t = threading.Thread(target=weigh)
    t.start()
    assert inside.wait(5)
    assert fold.held(other) is None  # the other fight holds nothing
    with fold.views_held(other):
        assert fold.held(other) is not fold.held(state)
    release.set()
    t.join()
    assert fold.held(state) is None and fold.held(other) is None  # let go when the blocks end


def _goblin_state():  # type: ignore[no-untyped-def]
    from pathlib import Path

    from fracas.engine import encounter

    _, state = encounter.load(Path(__file__).resolve().parents[2] / "examples/sas/goblin-horde.yaml")
    return state


def test_a_tactics_memo_serves_only_the_resolution_of_its_command() -> None:
    """``hand_over`` leaves the views found while a command was chosen for that very command object's
    resolution, once, and only while no event has been applied since."""
    from fracas.engine.commands import Command
    from fracas.rules.sas import fold

    state = _goblin_state()
    c = state.combatants["bran"]
    cmd, other = Command("bran", "nothing"), Command("bran", "nothing")
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    with fold.views_held(state, other):  # another command: a memo of its own
        assert fold.view(state, c) is not first
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    with fold.views_held(state, cmd):  # the command handed over: the same views
        assert fold.view(state, c) is first
    with fold.views_held(state, cmd):  # taken up once only
        assert fold.view(state, c) is not first
    with fold.views_held(state):
        first = fold.view(state, c)
        fold.hand_over(state, cmd)
    state.events_applied += 1  # an event was applied in between: the state is not the one weighed
    with fold.views_held(state, cmd):
        assert fold.view(state, c) is not first


def test_held_readings_are_not_those_of_a_copy() -> None:
    """A resolution moves or strikes copies of a combatant (``movement.moved_copy``, ``movement.struck``):
    readings kept under the id of the state's own combatant (adjacent foes, free hexes) are not handed to a
    copy."""
    from fracas.rules.sas import fold

    state = _goblin_state()
    c = state.combatants["bran"]
    moved = c.clone()
    moved.pos = (5, 0)
    with fold.views_held(state):
        assert fold.held(state, c) is not None
        assert fold.held(state, moved) is None
        assert fold.held(state, c, moved) is None


def test_fast_records_keep_their_dataclass_fields() -> None:
    """The S&S records built many times a fight have the events' faster ``__init__``
    (``fast_frozen_init``): each field still gets its default, or the value given, by keyword or place."""
    import dataclasses

    from fracas.rules.sas.procedures.attack import AttackResult, Situation
    from fracas.rules.sas.procedures.brawl import BrawlDecision
    from fracas.rules.sas.procedures.damage import DamageResult
    from fracas.rules.sas.procedures.rolls import Check, Effect, TableRoll

    classes = [Effect, TableRoll, Check, Situation, AttackResult, DamageResult, BrawlDecision]
    for cls in classes:
        assert cls.__init__.__qualname__ == f"{cls.__name__}.__init__"  # not the dataclass one
        fields = dataclasses.fields(cls)
        values = {f.name: object() for f in fields}
        made = cls(**values)
        assert all(getattr(made, f.name) is values[f.name] for f in fields)
        assert cls(*values.values()) == made
        required = {f.name: values[f.name] for f in fields if f.default is dataclasses.MISSING}
        plain = cls(**required)
        for f in fields:
            if f.default is not dataclasses.MISSING:
                assert getattr(plain, f.name) == f.default


def test_deaths_leave_the_held_view_alone() -> None:
    """DEATH BY A THOUSAND CUTS reads a combatant with this batch's markers; an immediate attack calls it
    in the middle of a command whose views are held: the held view keeps the state's markers."""
    from fracas.dice.source import ScriptedDice
    from fracas.rules.sas import fold
    from fracas.rules.sas.round import deaths

    state = _goblin_state()
    bran = state.combatants["bran"]
    with fold.views_held(state):
        before = fold.view(state, bran)
        markers = before.markers
        b = fold.EventBuilder(state)
        b.add_counter("bran", "markers", bran.stats.wound_level)
        deaths(b, state, ScriptedDice([3] * 10))
        assert fold.view(state, bran) is before
        assert before.markers == markers


def test_die_table_lookup_reads_its_index_as_the_rows() -> None:
    """``DieTable.lookup`` reads an index built once per table: for every table, every total and natural
    face, the row a scan of the rows finds (below the first row the first, beyond the last the last)."""
    from fracas.rules.sas.rows import DieTable
    from fracas.rules.sas.tables import tables

    def plain(table: DieTable, total: int, natural: int | None) -> object:  # type: ignore[type-arg]
        if natural is not None:
            for row in table.rows:
                if row.natural and row.covers(natural):
                    return row
        rows = [r for r in table.rows if not r.natural]
        if total < rows[0].low:
            return rows[0]
        return next((r for r in rows if r.covers(total)), rows[-1])

    found: list[DieTable] = []  # type: ignore[type-arg]

    def walk(obj: object, depth: int = 0) -> None:
        if isinstance(obj, DieTable):
            found.append(obj)
        elif isinstance(obj, dict) and depth < 4:
            for v in obj.values():
                walk(v, depth + 1)
        elif depth < 4:
            for k in getattr(type(obj), "model_fields", {}):
                walk(getattr(obj, k), depth + 1)

    t = tables()
    for name in ("attack", "fumbles", "damage", "wounds", "conditions", "brawl", "combat", "magic"):
        walk(getattr(t, name))
    assert len(found) >= 10
    for table in found:
        for total in range(-40, 80):
            for natural in (None, *range(-2, 25)):
                assert table.lookup(total, natural) is plain(table, total, natural)


def _plain_view(state, c):  # type: ignore[no-untyped-def]
    """The combatant's view as it was built before ``_view`` set the slots itself (the constructor)."""
    import dataclasses

    from fracas.rules.sas.fold import DEFENSE_CONDITIONS, DEFENSE_LABELS, next_value
    from fracas.rules.sas.model import Fighter

    stats, marks, counters, rnd = c.stats, c.marks, c.counters, state.round
    if marks.get("shield_dropped") and stats.shield != "none":
        stats = dataclasses.replace(stats, shield="none")
    if counters.get("strength_loss", 0):
        stats = dataclasses.replace(stats, strength=stats.strength - counters["strength_loss"])
    conds = c.conditions
    nxt = {k: next_value(c, k, rnd) for k in marks.get("next", ()) if next_value(c, k, rnd)}
    present = [n for n in DEFENSE_CONDITIONS if n in conds]
    why = ""
    # every Defense change counts: the conditions' and a pending "next" Defense (a Stagger's -1) add
    if present and sum(conds[n].value for n in present) + nxt.get("defense", 0):
        nxt["defense"] = sum(conds[n].value for n in present) + nxt.get("defense", 0)
        why = ", ".join(DEFENSE_LABELS[n] for n in present)
    if marks.get("lost_leg"):
        nxt["move"] = nxt.get("move", 0) - 4
    used = marks.get("shield_used")
    return Fighter(
        c.id,
        stats,
        c.side,
        markers=counters.get("markers", 0),
        burn_markers=counters.get("burn_markers", 0),
        conditions={k: None if v.until_round is None else v.until_round - rnd for k, v in conds.items()},
        hurt=list(marks.get("hurt", ())),
        broken=list(marks.get("broken", ())),
        permanent=list(marks.get("permanent", ())),
        bleeds=counters.get("bleeds", 0),
        next=nxt,
        dead=c.status == "dead",
        dying_rounds=None if marks.get("dying_round") is None else marks["dying_round"] - rnd,
        weapon=marks.get("weapon"),
        shield_used=used[2] if used and (used[0], used[1]) == (rnd, state.extra.get("side_index", 0)) else 0,
        mounted_on=marks.get("mounted_on"),
        mount_moving=marks.get("moved_round") == rnd,
        hits_taken=counters.get("hits", 0),
        defense_why=why,
        lost=tuple(limb for limb in ("leg", "arm") if marks.get(f"lost_{limb}")),
        settings=settings_of(state),
    )


def test_views_are_the_constructors_fighters() -> None:
    """``_view`` fills a Fighter's slots itself: after every step of fights of each example (conditions,
    next-round modifiers, shields, wounds as they come), each combatant's view equals the Fighter the
    constructor builds from the same state."""
    from pathlib import Path

    from fracas.dice.source import RandomDice
    from fracas.engine import encounter
    from fracas.engine.play import Fight
    from fracas.rules.sas.fold import _view
    from fracas.rules.sas.ruleset import RULESET

    root = Path(__file__).resolve().parents[2] / "examples/sas"
    compared = 0
    for path in sorted(root.glob("*.yaml")):
        _, base = encounter.load(path)
        fight = Fight(RULESET, base.clone(), RandomDice(7), log=None)
        for _ in range(120):
            if fight.state.ended:
                break
            fight.step()
            for c in fight.state.combatants.values():
                assert _view(fight.state, c) == _plain_view(fight.state, c)
                compared += 1
    assert compared > 1000


def test_combat_numbers_read_once_are_the_sections_own() -> None:
    """``CombatRules.num`` remembers each number it reads: asked twice, every key of every section of
    combat.toml gives the section's own value."""
    from fracas.rules.sas.tables import tables

    combat = tables().combat
    asked = 0
    for section in type(combat).model_fields:
        extra = getattr(getattr(combat, section), "__pydantic_extra__", None)  # the sections, not the lists
        for key, value in (extra or {}).items():
            assert combat.num(section, key) is value
            assert combat.num(section, key) is value
            asked += 1
    assert asked > 20
