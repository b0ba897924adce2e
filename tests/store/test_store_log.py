"""The SQLite store: schema and migrations, the append-only log, undo/redo markers, typed-in dice, resume,
stale writers, export and import. Runs against the toy ruleset of store_toy.py (installed as "sas")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import store_toy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine import events as ev
from fracas.errors import EncounterFileError, UsageError
from fracas.store import SCHEMA_VERSION, FacesNeeded, FightService, Refused, StaleFight, Store
from fracas.store.db import connect, migrate, schema_version


@pytest.fixture
def toy():
    from fracas.rules import registry

    saved = dict(registry.RULESETS)
    store_toy.install()
    yield
    registry.RULESETS.clear()
    registry.RULESETS.update(saved)
    registry.get_ruleset.cache_clear()


def rows(path: Path, fight_id: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT seq, batch, type, data FROM log WHERE fight_id=? ORDER BY seq", (fight_id,)
        ).fetchall()
    finally:
        conn.close()


def started(tmp_path: Path, seed: int = 5) -> tuple[FightService, str]:
    svc = FightService(Store(tmp_path / "f.sqlite3"))
    book = svc.create(store_toy.TOY_ENCOUNTER, seed=seed)
    return svc, book.record.id


# ----- schema -------------------------------------------------------------------------------------------


def test_new_file_is_wal_at_the_current_schema(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.sqlite3")
    conn = store.db.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert schema_version(conn) == SCHEMA_VERSION


def test_migration_from_version_1_keeps_the_fights(tmp_path: Path, toy) -> None:
    path = tmp_path / "old.sqlite3"
    conn = connect(path)
    migrate(conn, target=1)
    conn.execute(
        "INSERT INTO fights(id, name, ruleset, encounter, seed, created, updated) VALUES (?,?,?,?,?,?,?)",
        ("old-1", "Toy brawl", "sas", json.dumps(store_toy.TOY_ENCOUNTER), 5, 0.0, 0.0),
    )
    conn.close()
    store = Store(path)
    assert schema_version(store.db.conn) == SCHEMA_VERSION
    record = store.get("old-1")
    assert record.status == "" and record.encounter == store_toy.TOY_ENCOUNTER
    book = FightService(store).book("old-1")
    assert book.state.phase == "start" and book.seq == 0


def test_a_file_from_a_newer_fracas_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(UsageError, match="newer than this fracas"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(UsageError, match="not a fracas database"):
        Store(path)


def test_default_path_honours_the_environment(tmp_path: Path, monkeypatch) -> None:
    from fracas.store.db import default_path

    monkeypatch.setenv("FRACAS_DB", str(tmp_path / "x.sqlite3"))
    assert default_path() == tmp_path / "x.sqlite3"
    monkeypatch.delenv("FRACAS_DB")
    assert default_path().name == "fracas.sqlite3" and "fracas" in str(default_path().parent)


# ----- the log ------------------------------------------------------------------------------------------


def test_undo_and_redo_append_markers_and_never_rewrite(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance(None))
    before_attack = svc.book(fid).state.snapshot()
    svc.act(fid, lambda b: b.plan_tactic(None))
    after_attack = svc.book(fid).state.snapshot()
    log_before = rows(svc.store.path, fid)

    svc.act(fid, lambda b: b.plan_undo())
    assert svc.book(fid).state.snapshot() == before_attack
    svc.act(fid, lambda b: b.plan_redo())
    assert svc.book(fid).state.snapshot() == after_attack
    svc.act(fid, lambda b: b.plan_undo())

    log_after = rows(svc.store.path, fid)
    assert log_after[: len(log_before)] == log_before  # nothing changed, nothing deleted
    assert [r[2] for r in log_after[len(log_before) :]] == ["Undo", "Redo", "Undo"]
    # the start of the fight cannot be undone: two more undos take back the Initiative, then refuse
    svc.act(fid, lambda b: b.plan_undo())
    with pytest.raises(Refused, match="nothing to undo"):
        svc.act(fid, lambda b: b.plan_undo())


def test_a_new_command_after_undo_drops_the_redo(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance(None))
    svc.act(fid, lambda b: b.plan_tactic(None))
    svc.act(fid, lambda b: b.plan_undo())
    svc.act(fid, lambda b: b.plan_tactic(None))
    with pytest.raises(Refused, match="nothing to redo"):
        svc.act(fid, lambda b: b.plan_redo())


def test_resume_from_a_fresh_process_gives_the_same_fight(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance(None))
    svc.act(fid, lambda b: b.plan_round())
    svc.act(fid, lambda b: b.plan_undo())
    book = svc.book(fid)
    svc.store.close()
    again = FightService(Store(tmp_path / "f.sqlite3")).book(fid)
    assert again.state.snapshot() == book.state.snapshot()
    assert [line.text for line in again.lines] == [line.text for line in book.lines]
    assert again.redo == book.redo and again.active == book.active


def test_one_transaction_per_command(tmp_path: Path, toy) -> None:
    """A write that fails half way leaves neither the batch nor any of its events, and the book unchanged."""
    svc, fid = started(tmp_path)
    seq = svc.book(fid).seq
    conn = svc.store.db.conn
    conn.execute(
        f"CREATE TRIGGER boom BEFORE INSERT ON log WHEN NEW.seq = {seq + 3} "
        "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
    )
    with pytest.raises(sqlite3.DatabaseError, match="disk trouble"):
        svc.act(fid, lambda b: b.plan_advance(None))
    assert svc.store.last_seq(fid) == seq
    assert conn.execute("SELECT count(*) FROM batches WHERE fight_id=?", (fid,)).fetchone()[0] == 1
    assert svc.book(fid).seq == seq and svc.book(fid).state.round == 1
    conn.execute("DROP TRIGGER boom")
    svc.act(fid, lambda b: b.plan_advance(None))
    assert svc.store.last_seq(fid) > seq + 3


# ----- typed-in dice ------------------------------------------------------------------------------------


def test_typed_faces_too_few_wrong_or_too_many_change_nothing(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance([6, 1, 2, 4, 3]))  # Initiative: Ann first
    book = svc.book(fid)
    assert book.decision().actor == "ann"
    seq = book.seq
    attack = next(c for c in book.choices() if c.target == "ghoul-1").to_json()

    def attack_with(faces):
        return svc.act(fid, lambda b: b.plan_command(b.find_choice(attack), faces))

    with pytest.raises(FacesNeeded) as need:
        attack_with([])
    assert (need.value.sides, need.value.why) == (6, "attack of Ann")
    with pytest.raises(FacesNeeded) as need:
        attack_with([5])  # a hit: the damage die comes next
    assert need.value.why == "damage of Ann" and need.value.used == 1
    with pytest.raises(Refused, match="a d6 shows 1 to 6, not 7"):
        attack_with([5, 7])
    with pytest.raises(Refused, match="3 faces typed but the roll used 2"):
        attack_with([5, 2, 2])
    with pytest.raises(Refused, match="whole number"):
        attack_with([5, True])
    assert svc.store.last_seq(fid) == seq and svc.book(fid).seq == seq

    attack_with([5, 2])
    rolled = [e for e in svc.book(fid).events[svc.book(fid).last_batch] if isinstance(e, ev.Rolled)]
    assert rolled[0].roll["dice"] == [[-6, 5]] and rolled[0].total == 8
    assert svc.book(fid).state.combatants["ghoul-1"].count("damage") == 2


def test_a_command_that_is_not_among_the_choices_is_refused(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance([6, 1, 2, 4, 3]))
    for bad in (
        {"actor": "ann", "action": "fireball", "target": "ghoul-1"},
        {"actor": "bo", "action": "wait"},
        {"action": "wait"},
        {"actor": "ann", "action": "attack", "target": "ann"},
    ):
        with pytest.raises(Refused):
            svc.act(fid, lambda b, bad=bad: b.plan_command(b.find_choice(bad), None))


# ----- two writers --------------------------------------------------------------------------------------


def test_a_stale_view_cannot_overwrite_a_newer_fight(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    seen = svc.book(fid).seq
    svc.act(fid, lambda b: b.plan_advance(None), expected=seen)
    with pytest.raises(StaleFight):
        svc.act(fid, lambda b: b.plan_tactic(None), expected=seen)


def test_two_processes_on_one_file_lose_no_update(tmp_path: Path, toy) -> None:
    a, fid = started(tmp_path)
    b = FightService(Store(tmp_path / "f.sqlite3"))
    b.book(fid)  # b caches the fight
    a.act(fid, lambda bk: bk.plan_advance(None))
    b.act(fid, lambda bk: bk.plan_tactic(None))  # b sees a's Initiative first
    a.act(fid, lambda bk: bk.plan_tactic(None))
    kinds = [r.kind for r in a.store.read(fid)[1]]
    assert kinds == ["start", "advance", "tactic", "tactic"]
    assert a.book(fid).state.snapshot() == b.book(fid).state.snapshot()


# ----- export and import --------------------------------------------------------------------------------


def test_export_import_round_trip(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance(None))
    svc.act(fid, lambda b: b.plan_round())
    svc.act(fid, lambda b: b.plan_undo())
    data = json.loads(json.dumps(svc.export(fid)))
    other = FightService(Store(tmp_path / "other.sqlite3"))
    book = other.import_(data)
    assert book.record.id == fid
    assert book.state.snapshot() == svc.book(fid).state.snapshot()
    assert rows(tmp_path / "other.sqlite3", fid) == rows(tmp_path / "f.sqlite3", fid)
    # importing again into the same file gives a new id
    again = other.import_(data)
    assert again.record.id != fid and again.state.snapshot() == book.state.snapshot()


def test_a_tampered_or_malformed_export_is_refused_and_nothing_is_stored(tmp_path: Path, toy) -> None:
    svc, fid = started(tmp_path)
    svc.act(fid, lambda b: b.plan_advance(None))
    svc.act(fid, lambda b: b.plan_round())
    data = json.loads(json.dumps(svc.export(fid)))
    other = FightService(Store(tmp_path / "other.sqlite3"))

    tampered = json.loads(json.dumps(data))
    for row in tampered["log"]:
        if row["type"] == "Damaged":
            row["data"]["amount"] += 1
            break
    with pytest.raises(EncounterFileError, match="does not follow from the rules"):
        other.import_(tampered)

    broken = json.loads(json.dumps(data))
    del broken["fight"]["seed"]
    with pytest.raises(EncounterFileError, match="fight.seed"):
        other.import_(broken)

    unknown = json.loads(json.dumps(data))
    unknown["log"][3]["type"] = "Teleported"
    with pytest.raises(EncounterFileError, match="not an event"):
        other.import_(unknown)

    gap = json.loads(json.dumps(data))
    del gap["log"][2]
    with pytest.raises(EncounterFileError, match="jumps"):
        other.import_(gap)
    assert other.store.fights() == []


# ----- property: whatever the game master does, the saved fight is the fight in memory ------------------

ACTIONS = st.lists(st.sampled_from(["advance", "tactic", "round", "undo", "redo"]), min_size=1, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS, seed=st.integers(1, 10_000))
def test_any_sequence_of_actions_reloads_identically(tmp_path_factory, toy, actions, seed) -> None:
    path = tmp_path_factory.mktemp("prop") / "p.sqlite3"
    svc = FightService(Store(path))
    fid = svc.create(store_toy.TOY_ENCOUNTER, seed=seed).record.id
    plans = {
        "advance": lambda b: b.plan_advance(None),
        "tactic": lambda b: b.plan_tactic(None),
        "round": lambda b: b.plan_round(),
        "undo": lambda b: b.plan_undo(),
        "redo": lambda b: b.plan_redo(),
    }
    count = 0
    for a in actions:
        try:
            svc.act(fid, plans[a])
            count += 1
        except Refused:
            pass
    book = svc.book(fid)
    assert len(svc.store.read(fid)[1]) == count + 1
    fresh = FightService(Store(path)).book(fid)
    assert fresh.state.snapshot() == book.state.snapshot()
    # the state is the fold of the active batches over the starting state
    state = book.initial.clone()
    for b in book.active:
        for e in book.events[b]:
            e.apply(state)
    assert state.snapshot() == book.state.snapshot()
    svc.store.close()
