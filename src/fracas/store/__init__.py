"""Saved fights: an SQLite event store (append-only log, undo/redo markers, export/import) and its runner."""

from __future__ import annotations

from fracas.store.book import FacesNeeded, FightBook, Plan, Refused, TypedDice
from fracas.store.db import SCHEMA_VERSION, default_path
from fracas.store.fights import FightRecord, StaleFight, Store
from fracas.store.session import FightService

__all__ = [
    "SCHEMA_VERSION",
    "FacesNeeded",
    "FightBook",
    "FightRecord",
    "FightService",
    "Plan",
    "Refused",
    "StaleFight",
    "Store",
    "TypedDice",
    "default_path",
]
