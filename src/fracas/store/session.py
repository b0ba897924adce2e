"""Running saved fights safely from many threads (the web server) or one terminal.

:class:`FightService` keeps each open fight's :class:`~fracas.store.book.FightBook` in memory and serialises
the actions on one fight with a lock. An action is planned on a copy, written in one transaction (which also
checks that nobody appended since: the caller's ``expected`` log position, then the book's), and only then
taken into memory -- acknowledged means durable, and a stale view never overwrites a newer fight.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fracas import __version__
from fracas.engine import encounter
from fracas.engine.encounter import explain
from fracas.errors import EncounterFileError, FracasError, UsageError
from fracas.store.book import FightBook, Plan, Planner
from fracas.store.fights import BatchRow, FightRecord, LogRow, StaleFight, Store, check_id
from fracas.store.replay import MAX_SEED, replay_log

T = TypeVar("T")
EXPORT_FORMAT = "fracas-fight"
EXPORT_VERSION = 1
MAX_NAME = 200  # a fight's name, as an encounter's (fracas.engine.bounds.MAX_TEXT)


class FightService:
    """The store plus the open fights, with one lock per fight."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._books: dict[str, FightBook] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, fight_id: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(fight_id)
            if lock is None:
                lock = self._locks[fight_id] = threading.Lock()
            return lock

    # ----- reading ---------------------------------------------------------------------------------
    def _load(self, fight_id: str) -> FightBook:
        record, batches, rows = self.store.read(fight_id)
        book = FightBook(record, batches, rows)
        self._books[fight_id] = book
        return book

    def _current(self, fight_id: str) -> FightBook:
        """The book, re-read if another process appended to the file since (caller holds the lock)."""
        book = self._books.get(fight_id)
        if book is None or self.store.last_seq(fight_id) != book.seq:
            book = self._load(fight_id)
        return book

    def book(self, fight_id: str) -> FightBook:
        check_id(fight_id)
        with self._lock(fight_id):
            return self._current(fight_id)

    def view(self, fight_id: str, fn: Callable[[FightBook], T]) -> T:
        """``fn(book)`` with the fight's lock held: a consistent picture while other threads act on it."""
        check_id(fight_id)
        with self._lock(fight_id):
            return fn(self._current(fight_id))

    # ----- writing ---------------------------------------------------------------------------------
    def act(self, fight_id: str, planner: Planner, expected: int | None = None) -> tuple[FightBook, Plan]:
        """Plan with ``planner`` on the current book, write the plan, take it in. Nothing changes on error.

        ``expected``: the log position the caller's view showed; if the fight moved on since, the action
        is refused with :class:`StaleFight` (no lost update between two tabs).
        """
        check_id(fight_id)
        with self._lock(fight_id):
            book = self._current(fight_id)
            if expected is not None and expected != book.seq:
                raise StaleFight(
                    f"the fight changed since your view was drawn (at {expected}, now {book.seq}): "
                    "the view has been refreshed; check it and try again"
                )
            plan = planner(book)
            try:
                batch, seq = self.store.append(
                    fight_id, book.seq, plan.kind, plan.what, plan.rows(), _status(book, plan)
                )
            except StaleFight:
                self._books.pop(fight_id, None)
                raise
            book.take(plan, batch, seq, time.time())
            plan.seq = seq
            return book, plan

    def create(self, data: dict[str, Any], seed: int | None = None, source: str = "<encounter>") -> FightBook:
        """A new saved fight from an encounter (the mapping of an encounter file), started."""
        spec, _ = encounter.load_data(data, source)
        name = spec.name or "fight"
        fight_id = self.store.new_id(name)
        if seed is None:
            seed = secrets.randbelow(2**31 - 1) + 1
        if isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise UsageError(f"seed: a whole number 0 to 2**63-1, found {seed!r}")
        now = time.time()
        record = FightRecord(fight_id, name, spec.ruleset, _plain(data), seed, now, now)
        book = FightBook(record, [], [])
        plan = book.plan_start()
        encoded = [(t, json.dumps(d, separators=(",", ":"))) for t, d in plan.rows()]
        with self._lock(fight_id), self.store.db.write() as conn:
            self.store.insert_fight(conn, fight_id, name, spec.ruleset, record.encounter, seed, now)
            status = _status(book, plan)
            batch, seq = self.store._append(conn, fight_id, 0, plan.kind, plan.what, encoded, status)
        book.take(plan, batch, seq, now)
        with self._guard:
            self._books[fight_id] = book
        return book

    def rename(self, fight_id: str, name: str) -> None:
        """A fight's new name (not an event: the name is the store's, not the fight's)."""
        check_id(fight_id)
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise UsageError(f"a fight's name has 1 to {MAX_NAME} characters")
        with self._lock(fight_id):
            if not self.store.exists(fight_id):
                raise UsageError(f"no saved fight with id {fight_id!r}")
            with self.store.db.write() as conn:
                conn.execute("UPDATE fights SET name=? WHERE id=?", (name, fight_id))
            self._books.pop(fight_id, None)

    def delete(self, fight_id: str) -> None:
        check_id(fight_id)
        with self._lock(fight_id):
            if not self.store.exists(fight_id):
                raise UsageError(f"no saved fight with id {fight_id!r}")
            self.store.delete(fight_id)
            self._books.pop(fight_id, None)

    # ----- export and import -----------------------------------------------------------------------
    def export(self, fight_id: str) -> dict[str, Any]:
        """The whole fight as one JSON-able mapping: encounter, every batch, every log row, the end state."""
        book = self.book(fight_id)
        record, batches, rows = self.store.read(fight_id)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "fracas": __version__,
            "fight": {
                "id": record.id,
                "name": record.name,
                "ruleset": record.ruleset,
                "seed": record.seed,
                "created": record.created,
                "encounter": record.encounter,
            },
            "batches": [
                {"batch": b.batch, "kind": b.kind, "what": b.what, "created": b.created} for b in batches
            ],
            "log": [{"seq": r.seq, "batch": r.batch, "type": r.type, "data": r.data} for r in rows],
            "snapshot": _plain(book.state.snapshot()),
        }

    def import_(self, data: Any, source: str = "<import>") -> FightBook:
        """A fight from an export: checked row by row and replayed (to the exported state) before saving.

        It keeps its id unless that id is taken in this file, then it gets a new one. All or nothing.
        """
        try:
            doc = _Export.model_validate(data)
        except ValidationError as exc:
            raise EncounterFileError("\n".join(explain(exc, source))) from None
        f = doc.fight
        fight_id = f.id if (_valid_id(f.id) and not self.store.exists(f.id)) else self.store.new_id(f.name)
        record = FightRecord(fight_id, f.name, f.ruleset, f.encounter, f.seed, f.created, time.time())
        batches = [BatchRow(b.batch, b.kind, b.what, b.created) for b in doc.batches]
        rows = [LogRow(r.seq, r.batch, r.type, r.data) for r in doc.log]
        try:
            book = replay_log(record, batches, rows, source)
        except EncounterFileError:
            raise
        except FracasError as exc:
            raise EncounterFileError(f"{source}: {exc}") from None
        if doc.snapshot is not None and _plain(book.state.snapshot()) != _plain(doc.snapshot):
            raise EncounterFileError(f"{source}: the log does not replay to the exported state")
        with self._lock(fight_id), self.store.db.write() as conn:
            self.store.insert_fight(conn, fight_id, f.name, f.ruleset, f.encounter, f.seed, f.created)
            for b in batches:
                conn.execute(
                    "INSERT INTO batches(fight_id, batch, kind, what, created) VALUES (?, ?, ?, ?, ?)",
                    (fight_id, b.batch, b.kind, b.what, b.created),
                )
            conn.executemany(
                "INSERT INTO log(fight_id, seq, batch, type, data) VALUES (?, ?, ?, ?, ?)",
                [(fight_id, r.seq, r.batch, r.type, json.dumps(r.data, separators=(",", ":"))) for r in rows],
            )
            conn.execute("UPDATE fights SET status=? WHERE id=?", (book.status_text(), fight_id))
        with self._guard:
            self._books[fight_id] = book
        return book


def _status(book: FightBook, plan: Plan) -> str:
    if plan.state is None:
        return book.status_text()
    s = plan.state
    if s.ended:
        return f"ended after round {s.round}: " + (f"{s.winner} won" if s.winner else "no winner")
    return f"round {s.round}" if s.round else "not started"


def _valid_id(fight_id: str) -> bool:
    try:
        check_id(fight_id)
    except UsageError:
        return False
    return True


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=list))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Fight(_Strict):
    id: str = Field(max_length=200)
    name: str = Field(max_length=200)
    ruleset: str
    seed: int = Field(ge=0, le=MAX_SEED, strict=True)
    created: float
    encounter: dict[str, Any]


class _Batch(_Strict):
    batch: int = Field(ge=1, le=10**9)
    kind: str = Field(max_length=40)
    what: str = Field(max_length=2000)
    created: float


class _Row(_Strict):
    seq: int = Field(ge=1, le=10**9)
    batch: int = Field(ge=1, le=10**9)
    type: str
    data: dict[str, Any]


class _Export(_Strict):
    format: Literal["fracas-fight"]
    version: Literal[1]
    fracas: str = ""
    fight: _Fight
    batches: list[_Batch]
    log: list[_Row]
    snapshot: dict[str, Any] | None = None
