"""The web app through its HTTP API (FastAPI's test client), with the toy ruleset of tests/store/store_toy.py:
the token, server-side validation (a refused request changes nothing), typed-in faces, stale views, the
encounter builder's endpoints, export/import, and the player view's secrecy."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
import store_toy  # noqa: E402

from fracas.store import FightService, Store  # noqa: E402
from fracas.web.app import create_app  # noqa: E402

TOKEN = "s3cret-token"
GM = {"X-Fracas-Token": TOKEN}


@pytest.fixture
def toy():
    from fracas.rules import registry

    saved = dict(registry.RULESETS)
    store_toy.install()
    yield
    registry.RULESETS.clear()
    registry.RULESETS.update(saved)
    registry.get_ruleset.cache_clear()


@pytest.fixture
def served(tmp_path: Path, toy):
    service = FightService(Store(tmp_path / "web.sqlite3"))
    fid = service.create(store_toy.TOY_ENCOUNTER, seed=11).record.id
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=False)
    yield client, service, fid
    service.store.close()


def typed(*faces: int) -> dict:
    return {"dice": {"mode": "typed", "faces": list(faces)}}


def seq(client: TestClient, fid: str) -> int:
    return client.get(f"/api/fights/{fid}/version", headers=GM).json()["seq"]


def test_every_change_and_every_secret_page_needs_the_token(served) -> None:
    client, service, fid = served
    before = seq(client, fid)
    posts = {
        f"/api/fights/{fid}/advance": {"dice": {"mode": "server"}},
        f"/api/fights/{fid}/tactic": {},
        f"/api/fights/{fid}/round": {},
        f"/api/fights/{fid}/undo": {},
        f"/api/fights/{fid}/redo": {},
        f"/api/fights/{fid}/command": {"command": {"actor": "ann", "action": "wait"}},
        "/api/fights": {"encounter": store_toy.TOY_ENCOUNTER},
        "/api/fights/import": service.export(fid),
    }
    for url, body in posts.items():
        for headers in ({}, {"X-Fracas-Token": "wrong"}, {"X-Fracas-Token": TOKEN[:-1]}):
            r = client.post(url, json=body, headers=headers)
            assert r.status_code == 403, url
            assert "token" in r.json()["error"]
    secret_pages = (f"/gm/{fid}", f"/gm/{fid}/fragment", f"/api/fights/{fid}/gm", f"/api/fights/{fid}/export")
    for url in (*secret_pages, "/new"):
        assert client.get(url).status_code == 403, url
        assert client.get(url + "?token=nope").status_code == 403, url
    assert seq(client, fid) == before and len(service.store.fights()) == 1
    # with the token, the same request goes through
    assert client.post(f"/api/fights/{fid}/advance", json={}, headers=GM).json()["status"] == "ok"
    assert client.get(f"/gm/{fid}?token={TOKEN}").status_code == 200


def test_malformed_requests_are_refused_with_a_message_and_change_nothing(served) -> None:
    client, service, fid = served
    client.post(f"/api/fights/{fid}/advance", json={}, headers=GM)
    before = seq(client, fid)
    snapshot = service.book(fid).state.snapshot()
    url = f"/api/fights/{fid}/command"
    wait = {"actor": service.book(fid).decision().actor, "action": "wait"}
    bad_bodies = [
        b"not json at all",
        b"[1, 2, 3]",
        json.dumps({"command": wait, "surprise": 1}).encode(),
        json.dumps({"command": wait, "expected": "12"}).encode(),
        json.dumps({"command": wait, "dice": {"mode": "magic"}}).encode(),
        json.dumps({"command": wait, "dice": {"mode": "typed", "faces": ["6"]}}).encode(),
        json.dumps({"command": wait, "dice": {"mode": "typed", "faces": [1] * 501}}).encode(),
        json.dumps({"command": "wait"}).encode(),
        json.dumps({"command": {"action": "wait"}}).encode(),
        json.dumps({"command": {"actor": "ann", "action": "fireball"}}).encode(),
        json.dumps({"command": {**wait, "actor": "lurker"}}).encode(),
        json.dumps({}).encode(),
    ]
    for body in bad_bodies:
        r = client.post(url, content=body, headers={**GM, "Content-Type": "application/json"})
        assert r.status_code == 400, body
        message = r.json()["error"]
        assert message and "Traceback" not in message
    assert client.post(f"/api/fights/{fid}/advance", json={}, headers=GM).status_code == 400  # nothing waits
    assert client.post("/api/fights/no-such-fight/undo", json={}, headers=GM).status_code == 404
    assert client.post("/api/fights/..%2Fetc/undo", json={}, headers=GM).status_code in (400, 404)
    assert client.get("/api/fights/BAD!ID/player").status_code == 400
    assert seq(client, fid) == before
    assert service.book(fid).state.snapshot() == snapshot


def test_typed_faces_through_the_api(served) -> None:
    client, service, fid = served
    r = client.post(f"/api/fights/{fid}/advance", json=typed(6, 1), headers=GM)
    assert r.json()["status"] == "need" and r.json()["need"]["sides"] == 6
    assert "Initiative of Ghoul 1" in r.json()["need"]["why"]
    r = client.post(f"/api/fights/{fid}/advance", json=typed(6, 1, 2, 0, 3), headers=GM)
    assert r.status_code == 400 and "a d6 shows 1 to 6, not 0" in r.json()["error"]
    r = client.post(f"/api/fights/{fid}/advance", json=typed(6, 1, 2, 4, 3, 5), headers=GM)
    assert r.status_code == 400 and "6 faces typed but the roll used 5" in r.json()["error"]
    before = seq(client, fid)
    r = client.post(f"/api/fights/{fid}/advance", json=typed(6, 1, 2, 4, 3), headers=GM)
    assert r.json()["status"] == "ok" and r.json()["seq"] > before
    view = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    assert [o["id"] for o in view["order"]] == ["ann", "ghoul-2", "lurker", "ghoul-1", "bo"]
    assert view["decision"]["actor"] == "ann"
    attack = next(c for c in view["choices"] if c["command"].get("target") == "ghoul-1")
    assert attack["odds"] == "1d6+3 vs Defense 5: 83% hit"
    r = client.post(
        f"/api/fights/{fid}/command",
        json={"command": attack["command"], "expected": view["seq"], **typed(4, 6)},
        headers=GM,
    )
    assert r.json()["status"] == "ok"
    view = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    ghoul = next(c for c in view["combatants"] if c["id"] == "ghoul-1")
    assert ghoul["counters"]["damage"] == 6
    rolled = [line for line in view["log"] if line["type"] == "Rolled"][-1]
    assert "dice: d6:4 +3" in rolled["details"] and "+3 Attack [toy/attack p.1]" in rolled["details"]


def test_a_stale_view_is_refused_with_409(served) -> None:
    client, _, fid = served
    seen = seq(client, fid)
    assert client.post(f"/api/fights/{fid}/advance", json={"expected": seen}, headers=GM).status_code == 200
    r = client.post(f"/api/fights/{fid}/tactic", json={"expected": seen}, headers=GM)
    assert r.status_code == 409 and "changed" in r.json()["error"]


def test_undo_redo_and_the_rest_of_the_round(served) -> None:
    client, service, fid = served
    client.post(f"/api/fights/{fid}/advance", json={}, headers=GM)
    before = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    r = client.post(f"/api/fights/{fid}/round", json={"expected": before["seq"]}, headers=GM).json()
    assert r["status"] == "ok" and "rest of round 1" in r["what"]
    after = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    assert after["round"] == 2 or after["ended"]
    assert after["can_undo"] == r["what"]
    client.post(f"/api/fights/{fid}/undo", json={}, headers=GM)
    undone = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    assert undone["combatants"] == before["combatants"] and undone["log"] == before["log"]
    assert undone["can_redo"] == r["what"]
    client.post(f"/api/fights/{fid}/redo", json={}, headers=GM)
    redone = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    assert redone["combatants"] == after["combatants"] and redone["log"] == after["log"]


PLAYER_FIELDS = {"id", "name", "side", "colour", "player", "status", "out", "pos", "conditions"}
OWN_CARD = {"card", "card_rows", "bar", "card_summary", "card_more"}  # a player character's own card only


def _secrets_absent(text: str, lurker_seen: bool = False) -> None:
    low = text.lower()
    if not lurker_seen:  # a hidden combatant is seen once it attacks or is attacked, never before
        assert "lurker" not in low
    assert store_toy.SECRET_NUMBER not in text
    assert store_toy.SECRET_WORD.lower() not in low
    assert "vs defense" not in low  # a monster's Defense as the Difficulty Number of a player's attack


def test_the_player_view_never_shows_a_hidden_combatant_or_monster_statistics(served) -> None:
    client, service, fid = served
    gm_text = client.get(f"/gm/{fid}?token={TOKEN}").text
    assert "Lurker" in gm_text and store_toy.SECRET_NUMBER in gm_text  # the secrets exist...
    seen_at = None
    while True:
        book = service.book(fid)
        if seen_at is None and "lurker" in book.seen:
            seen_at = book.seq
        player_json = client.get(f"/api/fights/{fid}/player")
        for text in (
            player_json.text,
            client.get(f"/view/{fid}").text,
            client.get(f"/view/{fid}/fragment").text,
            client.get("/").text,
        ):
            _secrets_absent(text, seen_at is not None)  # ...and never reach the players
        view = player_json.json()
        for c in view["map"]["tokens"]:
            assert not c["hidden"]
        for c in view["combatants"]:
            assert set(c) <= PLAYER_FIELDS | (OWN_CARD if c["player"] else set())
            assert ("card" in c) == c["player"]
        assert TOKEN not in player_json.text
        if view["ended"]:
            break
        gm = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
        if gm["waiting_for_dice"]:
            client.post(f"/api/fights/{fid}/advance", json={}, headers=GM)
        else:
            client.post(f"/api/fights/{fid}/tactic", json={}, headers=GM)
    gm_log = " ".join(line["text"] for line in client.get(f"/api/fights/{fid}/gm", headers=GM).json()["log"])
    assert "Lurker" in gm_log  # the hidden ghoul did fight
    assert seen_at is not None  # ...and was seen doing so
    lines = [line["text"] for line in client.get(f"/api/fights/{fid}/player").json()["log"]]
    assert all("unseen" not in t for t in lines)  # once seen, it is named
    first = next(t for t in lines if "Lurker" in t)  # the first line about it is its attack (or one on it)
    assert " vs " in first or " takes " in first, first


def test_the_index_shows_game_master_links_only_with_the_token(served) -> None:
    client, _, fid = served
    public = client.get("/").text
    # without the token nothing is listed: the players open the link the game master gives them
    assert f"/view/{fid}" not in public and f"/gm/{fid}" not in public and TOKEN not in public
    private = client.get(f"/?token={TOKEN}")  # the printed link: a cookie, then the clean address
    assert private.url.path == "/" and not private.url.query
    assert f'href="/gm/{fid}"' in private.text and 'href="/new"' in private.text and TOKEN not in private.text


def test_creating_an_encounter_from_the_builder_or_an_uploaded_file(served) -> None:
    client, service, _ = served
    rulesets = client.get("/api/rulesets", headers=GM).json()
    toy_rs = next(r for r in rulesets if r["id"] == "sas")
    assert toy_rs["available"] and toy_rs["templates"] == ["fighter", "ghoul"]
    assert toy_rs["tactics"] == ["default"]

    import yaml

    text = yaml.safe_dump(store_toy.TOY_ENCOUNTER)
    r = client.post("/api/encounters/parse", files={"file": ("brawl.yaml", text, "text/yaml")}, headers=GM)
    assert r.json()["status"] == "ok" and r.json()["encounter"] == store_toy.TOY_ENCOUNTER
    bad = {"file": ("bad.yaml", "sides: [unclosed", "text/yaml")}
    r = client.post("/api/encounters/parse", files=bad, headers=GM)
    assert r.status_code == 400 and "not valid YAML" in r.json()["error"]
    wrong = json.loads(json.dumps(store_toy.TOY_ENCOUNTER))
    wrong["sides"][1]["combatants"][0]["template"] = "dragon"
    r = client.post(
        "/api/encounters/parse", files={"file": ("w.yaml", yaml.safe_dump(wrong), "text/yaml")}, headers=GM
    )
    assert r.status_code == 400 and "sides.1.combatants.0.template" in r.json()["error"]
    r = client.post("/api/fights", json={"encounter": wrong}, headers=GM)
    assert r.status_code == 400 and "dragon" in r.json()["error"]
    wrong["sides"][1]["combatants"][0]["at"] = "here"
    r = client.post("/api/fights", json={"encounter": wrong}, headers=GM)
    assert r.status_code == 400 and "at" in r.json()["error"]
    assert len(service.store.fights()) == 1

    placed = json.loads(json.dumps(store_toy.TOY_ENCOUNTER))
    placed["name"] = "Built in the browser"
    placed["sides"][0]["combatants"][0]["at"] = [3, 3]
    r = client.post("/api/fights", json={"encounter": placed, "seed": 4}, headers=GM).json()
    assert r["status"] == "ok" and r["id"].startswith("built-in-the-browser-")
    view = client.get(r["gm"], headers=GM).text
    assert "Built in the browser" in view
    assert re.search(r'data-id="ann"', view)
    gm = client.get(f"/api/fights/{r['id']}/gm", headers=GM).json()
    assert next(c for c in gm["combatants"] if c["id"] == "ann")["pos"] == [3, 3]


def test_export_and_import_through_the_api(served) -> None:
    client, _, fid = served
    client.post(f"/api/fights/{fid}/advance", json={}, headers=GM)
    client.post(f"/api/fights/{fid}/round", json={}, headers=GM)
    r = client.get(f"/api/fights/{fid}/export", headers=GM)
    assert r.headers["content-disposition"].startswith("attachment")
    data = r.json()
    new = client.post("/api/fights/import", json=data, headers=GM).json()
    assert new["status"] == "ok" and new["id"] != fid
    a = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    b = client.get(f"/api/fights/{new['id']}/gm", headers=GM).json()
    assert a["combatants"] == b["combatants"] and a["log"] == b["log"]
    data["log"][4]["data"] = {"nonsense": True}
    r = client.post("/api/fights/import", json=data, headers=GM)
    assert r.status_code == 400


def test_the_builder_defaults_are_heroes_against_monsters_and_make_a_valid_fight(tmp_path: Path) -> None:
    service = FightService(Store(tmp_path / "defaults.sqlite3"))
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=False)
    for rs in client.get("/api/rulesets", headers=GM).json():
        if not rs["available"]:
            continue
        d = rs["defaults"]
        assert d["heroes"] and d["monsters"] and set(d["heroes"] + d["monsters"]) <= set(rs["templates"])
        sides = []
        for name, temps, col in (("heroes", d["heroes"], 2), ("monsters", d["monsters"], 8)):
            entries = [
                {"template": t, "player": name == "heroes", "at": [col - i, 1 + 2 * i]}
                for i, t in enumerate(temps)
            ]
            for i, e in enumerate(entries):
                e["id"] = f"{name}-{i}"
            sides.append({"name": name, "combatants": entries})
        enc = {"version": 1, "ruleset": rs["id"], "name": "Defaults", "sides": sides}
        r = client.post("/api/fights", json={"encounter": enc}, headers=GM)
        assert r.status_code == 200, (rs["id"], r.json())
    ed4 = next(rs for rs in client.get("/api/rulesets", headers=GM).json() if rs["id"] == "ed4")
    assert "bandit" not in ed4["defaults"]["heroes"] and "war-horse" not in ed4["defaults"]["monsters"]
    service.store.close()
