"""The browser view against careless and hostile clients: the token leaves addresses for an HttpOnly,
SameSite=Strict cookie, bodies are limited before they are read, the headers keep pages out of frames,
caches and Referers, the players' address serves the players' view and nothing else, the database is the
owner's alone, and the listening socket lets asyncio turn Nagle off."""

from __future__ import annotations

import asyncio
import socket
import stat
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
import store_toy  # noqa: E402

from fracas.store import FightService, Store  # noqa: E402
from fracas.web.app import create_app  # noqa: E402
from fracas.web.cli import _listen  # noqa: E402

TOKEN = "s3cret-token"
GM = {"X-Fracas-Token": TOKEN}


@pytest.fixture
def served(tmp_path: Path):
    from fracas.rules import registry

    saved = dict(registry.RULESETS)
    store_toy.install()
    service = FightService(Store(tmp_path / "web.sqlite3"))
    fid = service.create(store_toy.TOY_ENCOUNTER, seed=11).record.id
    yield service, fid
    service.store.close()
    registry.RULESETS.clear()
    registry.RULESETS.update(saved)
    registry.get_ruleset.cache_clear()


def test_the_printed_link_trades_the_token_for_a_strict_cookie_and_a_clean_address(served) -> None:
    service, fid = served
    client = TestClient(create_app(service, TOKEN))
    r = client.get(f"/gm/{fid}?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/gm/{fid}"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    page = client.get(f"/gm/{fid}")  # the cookie alone opens the page and changes the fight
    assert page.status_code == 200 and TOKEN not in page.text
    assert client.post(f"/api/fights/{fid}/advance", json={}).json()["status"] == "ok"
    # the token in an API address is not accepted: API clients send the header
    fresh = TestClient(create_app(service, TOKEN))
    assert fresh.get(f"/api/fights/{fid}/gm?token={TOKEN}").status_code == 403
    assert fresh.get(f"/api/fights/{fid}/gm", headers=GM).status_code == 200


def test_every_answer_carries_the_protective_headers(served) -> None:
    service, fid = served
    client = TestClient(create_app(service, TOKEN))
    for url, headers in ((f"/gm/{fid}", GM), (f"/view/{fid}", {}), ("/", {}), (f"/api/fights/{fid}/gm", GM)):
        r = client.get(url, headers=headers)
        assert r.status_code == 200, url
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["cache-control"] == "no-store"
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self' 'nonce-" in csp
    # the page's inline script carries this answer's nonce, or the browser would refuse to run it
    r = client.get(f"/gm/{fid}", headers=GM)
    nonce = r.headers["content-security-policy"].split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">' in r.text


def test_a_body_over_the_limit_is_refused_before_it_is_read(served) -> None:
    service, fid = served
    client = TestClient(create_app(service, TOKEN))
    big = b"x" * 2_000_000
    for headers in ({}, GM):  # with or without the token: the size is checked first
        r = client.post(f"/api/fights/{fid}/advance", content=big, headers={**headers, "content-type": "x"})
        assert r.status_code == 413 and "larger than" in r.json()["error"]

    def chunks():  # no Content-Length: counted while it streams in
        for _ in range(30):
            yield b"y" * 100_000

    r = client.post(f"/api/fights/{fid}/advance", content=chunks(), headers=GM)
    assert r.status_code == 413
    assert client.post(f"/api/fights/{fid}/advance", json={}, headers=GM).json()["status"] == "ok"


def test_without_the_token_the_index_lists_nothing(served) -> None:
    service, fid = served
    text = TestClient(create_app(service, TOKEN)).get("/").text
    assert fid not in text


def test_the_players_address_serves_the_players_view_and_nothing_else(served) -> None:
    service, fid = served
    players = TestClient(create_app(service, TOKEN, players_only=True))
    assert players.get(f"/view/{fid}").status_code == 200
    assert players.get(f"/api/fights/{fid}/player").status_code == 200
    for url in (f"/gm/{fid}", f"/api/fights/{fid}/gm", "/new", f"/gm/{fid}?token={TOKEN}"):
        assert players.get(url, headers=GM).status_code == 404, url
    assert players.post(f"/api/fights/{fid}/advance", json={}, headers=GM).status_code == 404
    assert fid not in players.get(f"/?token={TOKEN}", headers=GM).text


def test_the_database_is_the_owners_alone_and_a_new_token_replaces_the_old(tmp_path: Path) -> None:
    store = Store(tmp_path / "table.sqlite3")
    assert stat.S_IMODE((tmp_path / "table.sqlite3").stat().st_mode) == 0o600
    old = store.gm_token()
    new = store.new_gm_token()
    assert new != old and store.gm_token() == new
    store.close()


def test_the_listening_socket_lets_asyncio_turn_nagle_off() -> None:
    sock = _listen("127.0.0.1", 0, "--port")
    port = sock.getsockname()[1]
    seen: list[int] = []

    async def main() -> None:
        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            s = writer.get_extra_info("socket")
            seen.append(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handler, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.01)
            writer.close()

    asyncio.run(main())
    assert seen and seen[0] != 0


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def test_hostile_names_seeds_and_yaml_are_refused_with_a_sentence(served) -> None:
    service, fid = served
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=False)
    gm = GM
    enc = service.book(fid).record.encounter
    before = len(service.store.fights())
    # a 1,000,000-character fight name: refused (before the body is read), and one just under 1 MB too
    assert (
        client.post(
            "/api/fights", json={"encounter": {**enc, "name": "x" * 1_000_000}}, headers=gm
        ).status_code
        == 413
    )
    r = client.post("/api/fights", json={"encounter": {**enc, "name": "x" * 900_000}}, headers=gm)
    assert r.status_code == 400 and "at most 200 characters" in r.json()["error"]
    r = client.post(f"/api/fights/{fid}/rename", json={"name": "x" * 900_000}, headers=gm)
    assert r.status_code == 400
    # a seed of 2**70: on a new fight and in an import
    r = client.post("/api/fights", json={"encounter": enc, "seed": 2**70}, headers=gm)
    assert r.status_code == 400 and "seed" in r.json()["error"]
    export = client.get(f"/api/fights/{fid}/export", headers=gm).json()
    export["fight"]["seed"] = 2**70
    export["fight"]["id"] = "another"
    r = client.post("/api/fights/import", json=export, headers=gm)
    assert r.status_code == 400 and "seed" in r.json()["error"]
    # a billion laughs in an uploaded file: refused before it is expanded, and not echoed back
    r = client.post("/api/encounters/parse", files={"file": ("bomb.yaml", BOMB)}, headers=gm)
    assert r.status_code == 400 and len(r.text) < 2000, r.text[:300]
    assert "alias" in r.json()["error"] or "nodes" in r.json()["error"]
    assert len(service.store.fights()) == before
