"""Live updates and the rest of the round: pushed versions (server-sent events) and one press, one round."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from fastapi.testclient import TestClient

from fracas.engine.encounter import read_file
from fracas.store import FightService, Store
from fracas.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
GM = {"X-Fracas-Token": "tok"}


def _serve(tmp_path: Path, example: str) -> tuple[TestClient, FightService, str]:
    service = FightService(Store(tmp_path / "l.sqlite3"))
    fid = service.create(read_file(ROOT / "examples" / example), seed=1).record.id
    return TestClient(create_app(service, "tok")), service, fid


def test_the_rest_of_the_round_plays_one_whole_round_each_press(tmp_path: Path) -> None:
    """ED4 stops at the end of a round, before the next round's Initiative (p.371): the next press plays the
    next round to its end, not only its start."""
    client, service, fid = _serve(tmp_path, "ed4/mica-and-the-ghouls.yaml")
    for want in (1, 2, 3):
        v = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
        if v["ended"]:
            break
        r = client.post(f"/api/fights/{fid}/round", json={"expected": v["seq"]}, headers=GM).json()
        assert r["status"] == "ok"
        v = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
        at_end = v["round"] == want and v["phase"] == "round-end"
        assert v["ended"] or at_end, (want, v["round"], v["phase"])


def _first_data(client: TestClient, url: str, headers: dict) -> dict:
    with client.stream("GET", url, headers=headers) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:])
    raise AssertionError("no data")


def test_the_stream_pushes_the_version_each_view_polls(tmp_path: Path) -> None:
    client, service, fid = _serve(tmp_path, "sas/ambush.yaml")
    gm = _first_data(client, f"/api/fights/{fid}/stream", GM)
    players = _first_data(client, f"/api/fights/{fid}/stream", {})
    assert gm["seq"] == client.get(f"/api/fights/{fid}/version", headers=GM).json()["seq"]
    assert players["seq"] == client.get(f"/api/fights/{fid}/player").json()["seq"] != gm["seq"]
    assert client.get("/api/fights/no-such-fight/stream").status_code == 404


def test_an_action_wakes_the_stream_at_once(tmp_path: Path) -> None:
    client, service, fid = _serve(tmp_path, "ed4/mica-and-the-ghouls.yaml")
    seen: list[int] = []
    done = threading.Event()

    def read() -> None:
        with client.stream("GET", f"/api/fights/{fid}/stream", headers=GM) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:])["seq"])
                    if len(seen) == 2:
                        done.set()
                        return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    while not seen:
        done.wait(0.05)
    client.post(f"/api/fights/{fid}/advance", json={}, headers=GM)
    assert done.wait(1.5)  # well before the store is looked at again (STREAM_CHECK, 2 s)
    assert seen[1] > seen[0]
