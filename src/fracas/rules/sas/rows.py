"""Spells & Swords die tables: the rows of every table of the combat text (faces ``low``..``high`` and the
numbers the procedure named by a row's ``id`` applies), the check that rows run without gaps over the die,
and the lookup of the row a total reads. The files holding them are loaded by :mod:`fracas.rules.sas.tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Row(Strict):
    """One row of a die table: faces ``low``..``high`` (``high`` None = open-ended, e.g. "20+")."""

    low: int
    high: int | None = None
    natural: bool = False
    id: str
    label: str

    def covers(self, total: int) -> bool:
        return self.low <= total and (self.high is None or total <= self.high)


class AttackRow(Row):
    hit: bool
    fumble: bool = False
    foe_attack_next_round: int = 0
    damage_bonus: int = 0


class FumbleRow(Row):
    initiative_next_round: int = 0
    defense_next_round: int = 0
    miss_next_rounds: int = 0
    attack_next: int = 0
    foe_attack_next: int = 0
    foe_damage_next: int = 0


class DamageRow(Row):
    wound: Literal["superficial", "light", "heavy", "mortal"]
    markers: int
    foe_fumble_die: int = 0
    wound_table: Literal["light", "major"] | None = None
    instant_death: bool = False


class EffectRow(Row):
    """A wound/bleed/confusion/body-part row: numbers the procedure named by ``id`` applies."""

    duration: str | None = None
    unit: Literal["rounds", "minutes", "hours", "days", "weeks"] | None = None
    broken_percent: int = 0
    fumble_die: int = 0
    all_rolls: int = 0
    appearance: int = 0
    move: int = 0
    death_in: str | None = None
    death_unit: str | None = None
    markers: int = 0
    strength: int = 0


class BrawlRow(Row):
    attack: int = 0
    damage: int = 0
    two_hands: bool = False
    grapple: bool = False
    no_damage: bool = False
    effect: str | None = None
    part: str | None = None
    percent: int = 0
    initiative: int = 0
    duration: str | None = None
    unit: Literal["rounds", "minutes", "hours"] | None = None
    appearance: int = 0


class SpellCheckRow(Row):
    success: bool
    fatigue: int = 0
    knocked_out: str | None = None
    knocked_out_unit: str | None = None


class SpellFailureRow(Row):
    markers: int = 0


def check_rows(rows: Sequence[Row], die: int, name: str, first: int = 1) -> None:
    """Rows ascend without gaps from ``first``; the last row reaches the die's top face (or is open)."""
    expect = first
    for row in rows:
        if row.low != expect:
            raise ValueError(f"{name}: row {row.id!r} starts at {row.low}, expected {expect}")
        if row.high is not None and row.high < row.low:
            raise ValueError(f"{name}: row {row.id!r} ends before it starts")
        expect = (row.high if row.high is not None else 10**9) + 1
    last = rows[-1]
    if last.high is not None and last.high < die:
        raise ValueError(f"{name}: rows stop at {last.high}, the die has {die} faces")


R = TypeVar("R", bound=Row)
_INDEXES: dict[int, tuple[Any, tuple[Any, ...], tuple[Any, ...], dict[int, Any]]] = {}
"""``DieTable.lookup``'s index of each table (by the table object's id, the table held in the entry)."""
T = TypeVar("T", bound="DieTable[Any]")


class DieTable(Strict, Generic[R]):
    section: str = ""
    die: int
    rows: list[R]

    def lookup(self, total: int, natural: int | None = None) -> R:
        """The row for a modified ``total`` (below the first row reads the first row; above the last, the
        last). A row marked ``natural`` is read on the die face ``natural`` instead of the total.

        Read from an index of the table built on first use (``_index``): the rows marked ``natural``, the
        others, and the row each total from the first row's ``low`` to the last closed ``high`` reads; a
        total beyond that range is looked for among the rows as before."""
        idx = _INDEXES.get(id(self))
        if idx is None or idx[0] is not self:
            idx = self._index()
        naturals, candidates, by_total = idx[1], idx[2], idx[3]
        if natural is not None:
            for row in naturals:
                if row.covers(natural):
                    return row
        if total < candidates[0].low:
            return candidates[0]
        hit = by_total.get(total)
        if hit is not None:
            return hit
        for row in candidates:
            if row.covers(total):
                return row
        return candidates[-1]

    def _index(self) -> tuple[Any, tuple[R, ...], tuple[R, ...], dict[int, R]]:
        naturals = tuple(r for r in self.rows if r.natural)
        candidates = tuple(r for r in self.rows if not r.natural)
        by_total: dict[int, R] = {}
        top = max((r.high if r.high is not None else r.low) for r in candidates)
        for total in range(candidates[0].low, top + 1):
            by_total[total] = next((r for r in candidates if r.covers(total)), candidates[-1])
        idx = (self, naturals, candidates, by_total)
        # the tables are loaded once and frozen: an index per table object (held with it, so its id stays)
        _INDEXES[id(self)] = idx
        return idx

    def row(self, row_id: str) -> R:
        for r in self.rows:
            if r.id == row_id:
                return r
        raise KeyError(row_id)


def contiguous(table: T, name: str) -> T:
    check_rows(list(table.rows), table.die, name)
    return table
