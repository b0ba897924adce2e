"""The replay check of an imported fight: every batch of its log played again through the rules, from the
encounter, and compared with what the log says; the file is refused at the first row that does not follow.

A batch is what one action appended (store/book.py). It is played again the way it was played: the start
(no dice), an automatic step, a tactic's turn or a round of tactics with the server's dice for that batch
(``book.batch_seed``: the same fight and batch roll the same faces), or with the faces typed in; a person's
command and a game master's override as recorded in the batch's ``Play`` row (a log written before that
row existed: each command the rules offered then is tried). Undo and redo markers move between batches
already checked. A snapshot, if the export has one, must be the state the replay ends in. Nothing is
trusted from the file but the encounter (validated like any encounter file), the seed and the choices a
person made.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any

from fracas.engine import events as ev
from fracas.engine.commands import Command
from fracas.errors import EncounterFileError, FracasError
from fracas.rules.registry import RULESETS
from fracas.store.book import FightBook, Plan
from fracas.store.fights import MARKERS, PLAY, BatchRow, FightRecord, LogRow

MAX_SEED = 2**63 - 1
MAX_ROWS = 200_000
"""The longest log an import may hold (a long fight at the table is a few thousand rows)."""


class DoesNotFollow(EncounterFileError):
    """A log row that the rules do not produce from the state before it: exit code 2."""


def replay_log(
    record: FightRecord, batches: list[BatchRow], rows: list[LogRow], source: str = "<import>"
) -> FightBook:
    """The book of a fight whose every batch was played again through the rules and matched its log rows;
    :class:`DoesNotFollow` (or :class:`EncounterFileError`) at the first row that does not. The web's and
    the command line's imports both call this."""
    _check_header(record, batches, rows, source)
    book = FightBook(record, [], [])  # the encounter, validated; the log is taken in below, batch by batch
    info = {b.batch: b for b in batches}
    for batch, group in _batches(rows):
        where = f"{source}: batch {batch} (log row {group[0].seq} on)"
        first = group[0]
        if first.type in MARKERS:
            _marker(book, first, batch, info, where)
            continue
        b = info[batch]
        play = first.data if first.type == PLAY else None
        recorded = group[1:] if play is not None else group
        if batch != book.last_batch + 1:
            raise DoesNotFollow(
                f"{where}: batch {batch} follows batch {book.last_batch}; batches count up by one"
            )
        plan = _played_again(book, b, play, recorded, where)
        book.take(plan, batch, group[-1].seq, b.created)
    return book


def _check_header(record: FightRecord, batches: list[BatchRow], rows: list[LogRow], source: str) -> None:
    if record.ruleset not in RULESETS:
        raise EncounterFileError(
            f"{source}: fight.ruleset: unknown ruleset {record.ruleset!r}; "
            f"allowed: {', '.join(sorted(RULESETS))}"
        )
    found = record.encounter.get("ruleset") if isinstance(record.encounter, dict) else None
    if found != record.ruleset:
        raise EncounterFileError(
            f"{source}: fight.ruleset is {record.ruleset!r} but its encounter's ruleset is {found!r}"
        )
    if isinstance(record.seed, bool) or not 0 <= record.seed <= MAX_SEED:
        raise EncounterFileError(f"{source}: fight.seed: a whole number 0 to 2**63-1, found {record.seed!r}")
    numbers = [b.batch for b in batches]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise EncounterFileError(f"{source}: batches: batch {twice[0]} is listed twice")
    if len(rows) > MAX_ROWS:
        raise EncounterFileError(f"{source}: log: {len(rows)} rows; the limit is {MAX_ROWS}")
    for i, r in enumerate(rows, 1):
        if r.seq != i:
            raise EncounterFileError(
                f"{source}: the log jumps from row {i - 1} to {r.seq}; rows count up by one from 1"
            )
        if r.type not in ev.REGISTRY and r.type not in MARKERS and r.type != PLAY:
            raise EncounterFileError(f"{source}: log row {i} is not an event: unknown event type {r.type!r}")
    missing = sorted({r.batch for r in rows} - set(numbers))
    if missing:
        raise EncounterFileError(f"{source}: log rows name batches that are not listed: {missing[:5]}")
    unused = sorted(set(numbers) - {r.batch for r in rows})
    if unused:
        raise EncounterFileError(f"{source}: batches: batch {unused[0]} has no log row")


def _batches(rows: list[LogRow]) -> Iterable[tuple[int, list[LogRow]]]:
    """The rows of each batch, in log order; a batch's rows are one run (refused otherwise)."""
    seen: set[int] = set()
    group: list[LogRow] = []
    for r in rows:
        if group and r.batch != group[0].batch:
            yield group[0].batch, group
            group = []
        if not group:
            if r.batch in seen:
                raise DoesNotFollow(f"log row {r.seq}: batch {r.batch} comes back after other batches")
            seen.add(r.batch)
        group.append(r)
    if group:
        yield group[0].batch, group


def _marker(book: FightBook, row: LogRow, batch: int, info: dict[int, BatchRow], where: str) -> None:
    if row.type == "Undo":
        if not book.undoable:
            raise DoesNotFollow(f"{where}: Undo, but there is nothing to undo")
        plan = book.plan_undo()
    else:
        if not book.redo:
            raise DoesNotFollow(f"{where}: Redo, but nothing was undone")
        plan = book.plan_redo()
    want = row.data.get("batch") if isinstance(row.data, dict) else None
    if plan.marker is None or want != plan.marker[1]:
        raise DoesNotFollow(
            f"{where}: {row.type} of batch {want!r}, but the rules take back batch {plan.marker}"
        )
    if batch != book.last_batch + 1:
        raise DoesNotFollow(
            f"{where}: batch {batch} follows batch {book.last_batch}; batches count up by one"
        )
    book.take(plan, batch, row.seq, info[batch].created)


def _played_again(
    book: FightBook, b: BatchRow, play: dict[str, Any] | None, recorded: list[LogRow], where: str
) -> Plan:
    """The plan the rules make for this batch, played as it was; refused where the log differs."""
    if any(r.type in MARKERS or r.type == PLAY for r in recorded):
        bad = next(r for r in recorded if r.type in MARKERS or r.type == PLAY)
        raise DoesNotFollow(f"{where}: log row {bad.seq}: a {bad.type} row inside a batch of events")
    faces = _faces(play, where)
    if book.state.ended and b.kind != "gm":  # a game master may still end it his way (store/overrule.py)
        raise DoesNotFollow(f"{where}: log row {recorded[0].seq if recorded else '?'}: events after the end")
    candidates: list[Callable[[], Plan]]
    if b.kind == "start":
        candidates = [book.plan_start]
    elif b.kind == "advance":
        candidates = [lambda: book.plan_advance(faces)]
    elif b.kind == "tactic":
        candidates = [lambda: book.plan_tactic(faces)]
    elif b.kind == "round":
        candidates = [book.plan_round]
    elif b.kind == "command":
        candidates = _commands(book, play, faces, where)
    elif b.kind == "gm":
        body = None if play is None else play.get("override")
        if not isinstance(body, dict):
            raise DoesNotFollow(f"{where}: a game master's override without the override it made")
        candidates = [lambda: book.plan_override(body)]
    else:
        raise DoesNotFollow(f"{where}: unknown kind of batch {b.kind!r}")
    best: tuple[int, str] | None = None
    for make in candidates:
        try:
            plan = make()
        except FracasError as exc:
            why = f"the rules refuse it: {exc}"
            best = best if best is not None and best[0] > -1 else (-1, why)
            continue
        except Exception as exc:  # noqa: BLE001 - a command no rule expects: said, not a traceback
            best = best if best is not None and best[0] > -1 else (-1, f"{type(exc).__name__}: {exc}")
            continue
        differs = _first_difference(plan, recorded)
        if differs is None:
            return plan
        if best is None or differs[0] > best[0]:
            best = differs
    if best is None:
        raise DoesNotFollow(f"{where}: no command the rules offered then")
    if best[0] < 0:
        raise DoesNotFollow(f"{where} ({b.what}): does not follow from the rules: {best[1]}")
    i = best[0]
    seq = recorded[i].seq if i < len(recorded) else (recorded[-1].seq if recorded else "?")
    raise DoesNotFollow(f"{where}: row {seq} does not follow from the rules ({b.what}): {best[1]}")


def _faces(play: dict[str, Any] | None, where: str) -> list[int] | None:
    faces = None if play is None else play.get("faces")
    if faces is None:
        return None
    if not isinstance(faces, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise DoesNotFollow(f"{where}: the typed faces are not a list of whole numbers")
    return faces


def _commands(
    book: FightBook, play: dict[str, Any] | None, faces: list[int] | None, where: str
) -> list[Callable[[], Plan]]:
    """The command of a person's batch: as recorded, or (an older log) each the rules offered then."""
    cmd = None if play is None else play.get("command")
    if cmd is not None:
        try:
            command = Command.from_json(cmd)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DoesNotFollow(f"{where}: the recorded command is not a command: {cmd!r}") from None
        return [lambda: book.plan_command(command, faces)]
    return [functools.partial(book.plan_command, c, faces) for c in book.choices()]


def _first_difference(plan: Plan, recorded: list[LogRow]) -> tuple[int, str] | None:
    """None when the plan's events are the recorded rows; else (index, what differs) of the first."""
    mine = [ev.to_json(e) for e in plan.events]
    for i, (want, row) in enumerate(zip(mine, recorded, strict=False)):
        got = {**row.data, "type": row.type} if isinstance(row.data, dict) else row.data
        want, got = _plain(want), _plain(got)
        if want != got:
            if isinstance(got, dict) and want.get("type") == got.get("type"):
                fields = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
                said = "; ".join(
                    f"{k}: the rules give {_short(want.get(k))}, the log {_short(got.get(k))}" for k in fields
                )
                return i, f"{want['type']}: {said}"
            return i, f"the rules give {_short(want)}, the log {_short(got)}"
    if len(mine) != len(recorded):
        if len(mine) > len(recorded):
            return len(recorded), f"the batch ends early; the rules go on with {_short(mine[len(recorded)])}"
        return len(mine), f"the rules end the batch here; the log goes on with a {recorded[len(mine)].type}"
    return None


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=list))


def _short(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, default=str)
    return text if len(text) <= 160 else text[:157] + "..."


__all__ = ["DoesNotFollow", "replay_log"]
