"""``fracas fights import`` (and the web's import) plays every batch of the log again through the rules,
from the encounter, and refuses the file at the first row that does not follow, snapshot or not; the
ruleset must exist and match; the seed is bounded; a batch listed twice is refused. Nothing refused is
stored. ED4, Mica against three ghouls (examples/ed4/mica-and-the-ghouls.yaml)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from fracas.cli import main
from fracas.errors import EncounterFileError
from fracas.store import FightService, Store

MICA = Path(__file__).resolve().parents[2] / "examples/ed4/mica-and-the-ghouls.yaml"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A fight played every way a saved fight is played: rounds of tactics, a person's command, a game
    master's override, an undo and a redo; to the end."""
    svc = FightService(Store(tmp_path_factory.mktemp("db") / "f.sqlite3"))
    fid = svc.create(yaml.safe_load(MICA.read_text()), seed=7).record.id
    svc.act(fid, lambda b: b.plan_advance(None))  # Initiative, server dice
    book = svc.book(fid)
    if book.decision() is not None:
        choice = book.choices()[-1]
        svc.act(fid, lambda b: b.plan_command(choice))
    svc.act(fid, lambda b: b.plan_round())
    svc.act(
        fid,
        lambda b: b.plan_override({"kind": "damage", "target": "ghoul-1", "counter": "damage", "amount": 2}),
    )
    svc.act(fid, lambda b: b.plan_undo())
    svc.act(fid, lambda b: b.plan_redo())
    for _ in range(60):
        book = svc.book(fid)
        if book.state.ended:
            break
        svc.act(fid, lambda b: b.plan_round())
    assert svc.book(fid).state.ended
    return json.loads(json.dumps(svc.export(fid)))


def _import(tmp_path: Path, data: dict[str, Any]) -> FightService:
    svc = FightService(Store(tmp_path / "other.sqlite3"))
    svc.import_(data)
    return svc


def test_a_true_export_imports_with_or_without_its_snapshot(tmp_path: Path, exported: dict[str, Any]) -> None:
    svc = _import(tmp_path, exported)
    bare = {k: v for k, v in exported.items() if k != "snapshot"}
    bare["fight"] = {**bare["fight"], "id": "other-id"}
    svc.import_(bare)
    assert len(svc.store.fights()) == 2


def _rows(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [r for r in data["log"] if r["type"] == kind]


def _set(kind: str, field: str, value: Any, nth: int = 0) -> Callable[[dict[str, Any]], None]:
    def forge(data: dict[str, Any]) -> None:
        _rows(data, kind)[nth]["data"][field] = value

    return forge


def _occupied(data: dict[str, Any]) -> None:
    row = _rows(data, "Moved")[0]
    row["data"]["path"] = [[0, 0]]  # Mica's hex (or the ghoul's own start: either way not where it went)


def _dead_moves(data: dict[str, Any]) -> None:
    dead = next(r for r in data["log"] if r["type"] == "StatusChanged")
    moved = next(r for r in data["log"] if r["type"] == "Moved" and r["seq"] > dead["seq"])
    moved["data"]["actor"] = dead["data"]["target"]


def _after_the_end(data: dict[str, Any]) -> None:
    last = data["log"][-1]
    row = {
        "seq": last["seq"] + 1,
        "batch": last["batch"],
        "type": "Damaged",
        "data": dict(_rows(data, "Damaged")[0]["data"]),
    }
    data["log"].append(row)


def _order_unknown(data: dict[str, Any]) -> None:
    row = _rows(data, "OrderSet")[0]
    row["data"]["order"] = ["nobody", *row["data"]["order"][1:]]


def _override_changed(data: dict[str, Any]) -> None:
    play = next(r for r in data["log"] if r["type"] == "Play" and "override" in r["data"])
    play["data"]["override"]["amount"] = 3


def _batch_twice(data: dict[str, Any]) -> None:
    data["batches"].append(dict(data["batches"][-1]))


FORGERIES = {
    "huge damage": _set("Damaged", "amount", 10**9),
    "negative damage": _set("Damaged", "amount", -5),
    "onto an occupied hex": _occupied,
    "a dead combatant moves": _dead_moves,
    "status zombie": _set("StatusChanged", "status", "zombie"),
    "round -5": _set("RoundStarted", "round", -5),
    "events after the end": _after_the_end,
    "won by Martians": _set("FightEnded", "winner", "Martians"),
    "an order of unknown ids": _order_unknown,
    "a batch listed twice": _batch_twice,
    "an override other than the one logged": _override_changed,
}


@pytest.mark.parametrize("snapshot", [True, False], ids=["snapshot", "no-snapshot"])
@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_log_is_refused_and_nothing_is_stored(
    name: str, snapshot: bool, tmp_path: Path, exported: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(exported))
    if not snapshot:
        data.pop("snapshot")
    FORGERIES[name](data)
    store = Store(tmp_path / "other.sqlite3")
    with pytest.raises(EncounterFileError):
        FightService(store).import_(data)
    assert store.fights() == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["fight"].update(ruleset="dnd5"), "unknown ruleset 'dnd5'"),
        (lambda d: d["fight"].update(ruleset="sas"), "its encounter's ruleset is 'ed4'"),
        (lambda d: d["fight"].update(seed=10**30), "fight.seed"),
        (lambda d: d["fight"].update(seed=-1), "fight.seed"),
    ],
)
def test_the_header_is_checked(
    change: Callable[[dict[str, Any]], None], expected: str, tmp_path: Path, exported: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(exported))
    change(data)
    store = Store(tmp_path / "other.sqlite3")
    with pytest.raises(EncounterFileError, match=expected):
        FightService(store).import_(data)
    assert store.fights() == []


def test_the_command_line_refuses_with_exit_2(
    tmp_path: Path, exported: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("huge damage", "a batch listed twice"):
        data = json.loads(json.dumps(exported))
        data.pop("snapshot")
        FORGERIES[name](data)
        f = tmp_path / "forged.json"
        f.write_text(json.dumps(data))
        assert main(["fights", "import", str(f), "--db", str(tmp_path / "db.sqlite3")]) == 2
        err = capsys.readouterr().err
        assert "internal error" not in err
    assert main(["fights", "list", "--db", str(tmp_path / "db.sqlite3")]) == 0
    assert "mica" not in capsys.readouterr().out.lower()


def test_json_nested_too_deep_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["fights", "import", str(f), "--db", str(tmp_path / "db.sqlite3")]) == 2
    assert "nested too deep" in capsys.readouterr().err


def test_an_encounter_nested_too_deep_in_an_export_is_refused(
    tmp_path: Path, exported: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(exported))
    deep: list[Any] = []
    for _ in range(200):
        deep = [deep]
    data["fight"]["encounter"]["settings"] = {"x": deep}
    with pytest.raises(EncounterFileError, match="nested more than 32 levels"):
        FightService(Store(tmp_path / "other.sqlite3")).import_(data)
