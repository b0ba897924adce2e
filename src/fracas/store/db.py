"""The SQLite file behind the store: connection settings, the schema and its migrations.

Standard library ``sqlite3`` in WAL mode with ``synchronous=FULL``: a transaction that returned from COMMIT is
on disk, so an acknowledged action survives a killed process. The schema is versioned with
``PRAGMA user_version``; :data:`MIGRATIONS` takes a file from any older version to :data:`SCHEMA_VERSION`, one
step per transaction. A file from a newer fracas is refused rather than guessed at.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from fracas.errors import UsageError

SCHEMA_VERSION = 2

# version -> SQL that takes a file from version-1 to version. Never edit a released step: add a new one.
MIGRATIONS: dict[int, str] = {
    1: """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE fights (
            id        TEXT PRIMARY KEY,
            name      TEXT NOT NULL,
            ruleset   TEXT NOT NULL,
            encounter TEXT NOT NULL,      -- the encounter file as JSON: the fight's starting point
            seed      INTEGER NOT NULL,   -- seeds the server's dice, batch by batch
            created   REAL NOT NULL,
            updated   REAL NOT NULL
        );
        -- What was done, one row per command (or undo/redo), in order.
        CREATE TABLE batches (
            fight_id TEXT NOT NULL REFERENCES fights(id) ON DELETE CASCADE,
            batch    INTEGER NOT NULL,
            kind     TEXT NOT NULL,       -- start, command, tactic, advance, round, undo, redo
            what     TEXT NOT NULL,       -- in words, for the log and the export
            created  REAL NOT NULL,
            PRIMARY KEY (fight_id, batch)
        ) WITHOUT ROWID;
        -- The append-only event log: engine events and the Undo/Redo markers. Rows are never changed.
        CREATE TABLE log (
            fight_id TEXT NOT NULL REFERENCES fights(id) ON DELETE CASCADE,
            seq      INTEGER NOT NULL,
            batch    INTEGER NOT NULL,
            type     TEXT NOT NULL,
            data     TEXT NOT NULL,
            PRIMARY KEY (fight_id, seq)
        ) WITHOUT ROWID;
    """,
    2: """
        ALTER TABLE fights ADD COLUMN status TEXT NOT NULL DEFAULT '';
        CREATE INDEX fights_by_update ON fights(updated);
    """,
}


def default_path() -> Path:
    """``$FRACAS_DB`` if set, else ``fracas.sqlite3`` in the user's data directory (platformdirs)."""
    env = os.environ.get("FRACAS_DB")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("fracas", appauthor=False)) / "fracas.sqlite3"


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the file to ``target``; each step and its version bump commit together. Returns the old one."""
    old = schema_version(conn)
    if old > SCHEMA_VERSION:
        raise UsageError(
            f"this database has schema version {old}, newer than this fracas knows ({SCHEMA_VERSION}); "
            "upgrade fracas or choose another file with --db"
        )
    for version in range(old + 1, target + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # executescript would commit on its own; run the statements one by one inside the transaction.
            for statement in _statements(MIGRATIONS[version]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return old


def _statements(script: str) -> list[str]:
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _create_private(p: Path) -> None:
    """A new database file is made readable by its owner only (0600): it holds the game master's token and
    every hidden combatant; SQLite gives its -wal and -shm files the same mode."""
    try:
        fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise UsageError(f"{p}: cannot create the database ({exc.strerror})") from None
    os.close(fd)


def connect(path: str | Path, make_dir: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), WAL, FULL sync, foreign keys on.

    A missing directory is made only when ``make_dir`` (the default location); a path a person gave must be
    in a directory that exists (a typo should not silently make one)."""
    p = Path(path)
    if str(p) != ":memory:":
        if not p.parent.is_dir():
            if not make_dir:
                raise UsageError(
                    f"{p}: the directory {p.parent} does not exist; create it first (nothing was made)"
                )
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"{p.parent}: cannot make the directory ({exc.strerror})") from None
        if p.is_dir():
            raise UsageError(f"{p}: is a directory, not a database file")
        _create_private(p)
    try:
        conn = sqlite3.connect(str(p), timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        raise UsageError(f"{p}: cannot open the database ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise UsageError(f"{p}: not a fracas database ({exc})") from None
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


T = TypeVar("T")


class _Job:
    __slots__ = ("fn", "result", "error", "done")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any]) -> None:
        self.fn = fn
        self.result: Any = None
        self.error: Exception | None = None
        self.done = threading.Event()


class Database:
    """One SQLite file shared by threads: a connection per thread, writes in ``BEGIN IMMEDIATE`` blocks."""

    def __init__(self, path: str | Path, make_dir: bool = False) -> None:
        self.path = Path(path)
        self.make_dir = make_dir
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._queue: list[_Job] = []
        conn = self.conn
        try:
            migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"{self.path}: not a fracas database ({exc})") from None

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path, self.make_dir)
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: everything inside commits together or not at all."""
        conn = self.conn
        # Writers of this process queue here (SQLite's own busy wait sleeps in steps up to 100 ms); writers
        # of other processes still meet at BEGIN IMMEDIATE.
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def group(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` in a transaction shared with other threads' jobs (group commit).

        Each job runs inside its own SAVEPOINT, so a job that fails is rolled back alone and raises in its own
        thread; the others commit. Whoever holds the write lock takes every job waiting and commits them with
        one fsync; a job returns only after the COMMIT that holds it (acknowledged means durable).
        """
        job = _Job(fn)
        with self._queue_lock:
            self._queue.append(job)
        with self._write_lock:
            if not job.done.is_set():
                with self._queue_lock:
                    jobs, self._queue = self._queue, []
                self._run(jobs)
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    def _run(self, jobs: list[_Job]) -> None:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for job in jobs:
                    conn.execute("SAVEPOINT job")
                    try:
                        job.result = job.fn(conn)
                        conn.execute("RELEASE job")
                    except Exception as exc:
                        conn.execute("ROLLBACK TO job")
                        conn.execute("RELEASE job")
                        job.error = exc
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except BaseException as exc:
            for job in jobs:
                if job.error is None:
                    job.error = exc if isinstance(exc, Exception) else RuntimeError(str(exc))
                    job.result = None
        finally:
            for job in jobs:
                job.done.set()

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                with suppress(sqlite3.Error):
                    conn.close()
            self._all.clear()
        self._local = threading.local()
