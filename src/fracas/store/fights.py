"""Saved fights: the rows of the SQLite file (fights, batches, the append-only log) and their transactions.

A fight is its encounter (the encounter file as JSON, its starting point) plus an append-only log. The log
is grouped in *batches*: everything one command produced, in one transaction. Undo and redo are batches too,
each holding one marker row (``Undo``/``Redo`` naming the batch); nothing is ever deleted or rewritten.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.errors import FracasError, UsageError
from fracas.store.db import Database, default_path

MARKERS = ("Undo", "Redo")
PLAY = "Play"
"""A log row before a batch's events saying how the batch was played: the person's command and the faces
typed in, when there were any (``{"command": {...} | null, "faces": [...] | null}``); with it every batch
replays exactly through the rules (store/replay.py)."""


class StaleFight(FracasError):
    """The fight changed since the caller read it (another tab, another process): nothing was written."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class FightRecord:
    id: str
    name: str
    ruleset: str
    encounter: dict[str, Any]
    seed: int
    created: float
    updated: float
    status: str = ""


@dataclass(frozen=True, slots=True)
class BatchRow:
    batch: int
    kind: str
    what: str
    created: float


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    batch: int
    type: str
    data: dict[str, Any]


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:40] or "fight"


_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


def check_id(fight_id: str) -> str:
    if not isinstance(fight_id, str) or not _ID.match(fight_id):
        raise UsageError(f"{fight_id!r} is not a fight id (lower-case letters, digits and dashes)")
    return fight_id


class Store:
    """The saved fights of one SQLite file (``--db PATH``; default :func:`fracas.store.db.default_path`)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        # only the default location (the user's data directory) is made when missing
        self.db = Database(self.path, make_dir=path is None and not os.environ.get("FRACAS_DB"))

    def close(self) -> None:
        self.db.close()

    # ----- the game master's secret ----------------------------------------------------------------
    def gm_token(self) -> str:
        """The secret that the game master's link carries; made once per database file."""
        row = self.db.conn.execute("SELECT value FROM meta WHERE key='gm_token'").fetchone()
        if row:
            return str(row[0])
        with self.db.write() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key='gm_token'").fetchone()
            if row:
                return str(row[0])
            token = secrets.token_urlsafe(18)
            conn.execute("INSERT INTO meta(key, value) VALUES ('gm_token', ?)", (token,))
            return token

    def new_gm_token(self) -> str:
        """Replace the game master's secret (``fracas serve --new-token``): every old link and cookie stops
        working."""
        token = secrets.token_urlsafe(18)
        with self.db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('gm_token', ?)", (token,))
        return token

    # ----- fights ------------------------------------------------------------------------------------
    def new_id(self, name: str) -> str:
        base = _slug(name)
        while True:
            fid = f"{base}-{secrets.token_hex(3)}"
            if not self.exists(fid):
                return fid

    def exists(self, fight_id: str) -> bool:
        return self.db.conn.execute("SELECT 1 FROM fights WHERE id=?", (fight_id,)).fetchone() is not None

    def insert_fight(
        self,
        conn: Any,
        fight_id: str,
        name: str,
        ruleset: str,
        encounter: dict[str, Any],
        seed: int,
        created: float | None = None,
    ) -> FightRecord:
        now = time.time()
        created = now if created is None else created
        conn.execute(
            "INSERT INTO fights(id, name, ruleset, encounter, seed, created, updated, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, '')",
            (fight_id, name, ruleset, json.dumps(encounter, sort_keys=True), seed, created, now),
        )
        return FightRecord(fight_id, name, ruleset, encounter, seed, created, now)

    def get(self, fight_id: str) -> FightRecord:
        row = self.db.conn.execute(
            "SELECT id, name, ruleset, encounter, seed, created, updated, status FROM fights WHERE id=?",
            (fight_id,),
        ).fetchone()
        if row is None:
            raise UsageError(f"no saved fight with id {fight_id!r} in {self.path}")
        return FightRecord(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5], row[6], row[7])

    def fights(self) -> list[FightRecord]:
        """Every saved fight, the most recently changed first."""
        rows = self.db.conn.execute(
            "SELECT id, name, ruleset, encounter, seed, created, updated, status FROM fights "
            "ORDER BY updated DESC, id"
        ).fetchall()
        return [FightRecord(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7]) for r in rows]

    def delete(self, fight_id: str) -> None:
        with self.db.write() as conn:
            conn.execute("DELETE FROM log WHERE fight_id=?", (fight_id,))
            conn.execute("DELETE FROM batches WHERE fight_id=?", (fight_id,))
            conn.execute("DELETE FROM fights WHERE id=?", (fight_id,))

    # ----- the log -----------------------------------------------------------------------------------
    def last_seq(self, fight_id: str) -> int:
        row = self.db.conn.execute(
            "SELECT coalesce(max(seq), 0) FROM log WHERE fight_id=?", (fight_id,)
        ).fetchone()
        return int(row[0])

    def read(self, fight_id: str) -> tuple[FightRecord, list[BatchRow], list[LogRow]]:
        """The fight and its whole log, read in one transaction (a consistent picture)."""
        conn = self.db.conn
        conn.execute("BEGIN")
        try:
            record = self.get(fight_id)
            batches = [
                BatchRow(*r)
                for r in conn.execute(
                    "SELECT batch, kind, what, created FROM batches WHERE fight_id=? ORDER BY batch",
                    (fight_id,),
                )
            ]
            rows = [
                LogRow(r[0], r[1], r[2], json.loads(r[3]))
                for r in conn.execute(
                    "SELECT seq, batch, type, data FROM log WHERE fight_id=? ORDER BY seq", (fight_id,)
                )
            ]
        finally:
            conn.execute("COMMIT")
        return record, batches, rows

    def append(
        self,
        fight_id: str,
        expected_seq: int,
        kind: str,
        what: str,
        rows: list[tuple[str, dict[str, Any]]],
        status: str = "",
    ) -> tuple[int, int]:
        """Append one batch in one transaction, if the log still ends at ``expected_seq``.

        Returns (batch number, last seq). Raises :class:`StaleFight` (and writes nothing) if someone else
        appended first.
        """
        encoded = [(t, json.dumps(d, separators=(",", ":"))) for t, d in rows]
        return self.db.group(
            lambda conn: self._append(conn, fight_id, expected_seq, kind, what, encoded, status)
        )

    def _append(
        self,
        conn: Any,
        fight_id: str,
        expected_seq: int,
        kind: str,
        what: str,
        encoded: list[tuple[str, str]],
        status: str,
        created: float | None = None,
    ) -> tuple[int, int]:
        seq = int(
            conn.execute("SELECT coalesce(max(seq), 0) FROM log WHERE fight_id=?", (fight_id,)).fetchone()[0]
        )
        if seq != expected_seq:
            raise StaleFight(
                f"the fight {fight_id} changed since it was read (log at {seq}, expected {expected_seq}); "
                "reload it and try again"
            )
        batch = int(
            conn.execute(
                "SELECT coalesce(max(batch), 0) FROM batches WHERE fight_id=?", (fight_id,)
            ).fetchone()[0]
        )
        batch += 1
        now = time.time()
        conn.execute(
            "INSERT INTO batches(fight_id, batch, kind, what, created) VALUES (?, ?, ?, ?, ?)",
            (fight_id, batch, kind, what, now if created is None else created),
        )
        conn.executemany(
            "INSERT INTO log(fight_id, seq, batch, type, data) VALUES (?, ?, ?, ?, ?)",
            [(fight_id, seq + i + 1, batch, t, d) for i, (t, d) in enumerate(encoded)],
        )
        conn.execute("UPDATE fights SET updated=?, status=? WHERE id=?", (now, status, fight_id))
        return batch, seq + len(encoded)
