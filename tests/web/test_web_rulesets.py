"""The browser view is ruleset-agnostic: every bundled example of every available ruleset plays in it.

For each examples/<ruleset>/*.yaml: a saved fight is created, played a few actions by its tactics (automatic
steps rolled on the server), and at every step the game master's and the players' pages render, and no
combatant hidden at that moment (name or id) reaches the players' HTML or JSON (a hidden combatant is
seen once it attacks or is attacked, or when its rules reveal it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fracas.engine.encounter import read_file
from fracas.errors import RuleNotImplemented
from fracas.rules.registry import get_ruleset
from fracas.store import FightService, Store
from fracas.store.book import concealed
from fracas.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
STEPS = 12


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_plays_in_the_browser_view(example: Path, tmp_path: Path) -> None:
    data = read_file(example)
    try:
        get_ruleset(data["ruleset"])
    except RuleNotImplemented as exc:
        pytest.skip(str(exc))
    service = FightService(Store(tmp_path / "rs.sqlite3"))
    fid = service.create(data, seed=1).record.id
    client = TestClient(create_app(service, "tok"), raise_server_exceptions=True)
    for _ in range(STEPS):
        book = service.book(fid)
        hidden = [
            w for c in book.state.combatants.values() if concealed(c, book.seen) for w in (c.id, c.name)
        ]
        gm = client.get(f"/gm/{fid}?token=tok")
        assert gm.status_code == 200
        gm_json = client.get(f"/api/fights/{fid}/gm", headers={"X-Fracas-Token": "tok"}).json()
        player_html = client.get(f"/view/{fid}").text
        player_json = json.dumps(client.get(f"/api/fights/{fid}/player").json())
        for word in hidden:
            assert word in gm.text
            assert word not in player_html and word not in player_json
        if gm_json["ended"]:
            break
        path = "advance" if gm_json["waiting_for_dice"] else "tactic"
        r = client.post(
            f"/api/fights/{fid}/{path}", json={"expected": gm_json["seq"]}, headers={"X-Fracas-Token": "tok"}
        )
        assert r.json()["status"] == "ok", r.json()
    service.store.close()
