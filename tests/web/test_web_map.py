"""The battle map readable at a glance: every combatant in view, names and health on the tokens, the fallen
apart from the standing, zoom and pan in the page; the builder's map reaches every combatant of a file."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_web_browser as end_to_end
from fastapi.testclient import TestClient

from fracas.engine.encounter import read_file
from fracas.store import FightService, Store
from fracas.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "examples" / "sas" / "ambush.yaml"
TOKEN = "tok"
GM = {"X-Fracas-Token": TOKEN}


def _played(tmp_path: Path, steps: int = 40, seed: int = 2) -> tuple[TestClient, str]:
    service = FightService(Store(tmp_path / "m.sqlite3"))
    fid = service.create(read_file(AMBUSH), seed=seed).record.id
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=True)
    for _ in range(steps):
        gm = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
        if gm["ended"] or any(c["status"] != "active" for c in gm["combatants"]):
            break
        path = "advance" if gm["waiting_for_dice"] else "tactic"
        client.post(f"/api/fights/{fid}/{path}", json={"expected": gm["seq"]}, headers=GM)
    return client, fid


def _inside(box: str, x: float, y: float) -> bool:
    x0, y0, w, h = (float(v) for v in box.split())
    return x0 <= x <= x0 + w and y0 <= y <= y0 + h


def test_the_map_fits_every_combatant_and_names_them_with_their_health(tmp_path: Path) -> None:
    client, fid = _played(tmp_path)
    gm = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
    m = gm["map"]
    placed = [c for c in gm["combatants"] if c["pos"] is not None and c["status"] != "fled"]
    assert len(m["tokens"]) == len(placed) == 11
    for t in m["tokens"]:
        assert _inside(m["viewbox"], t["x"], t["y"]) and _inside(m["field"], t["x"] - 40, t["y"] - 40)
        assert t["health"] is not None and t["short"]  # Wound Markers left, for the game master
    page = client.get(f"/gm/{fid}", headers=GM).text
    assert ">Kobold Slinger</text>" not in page  # cut to the label's length
    assert ">Kobold Slin…</text>" in page and ">Bran</text>" in page
    # the players see their own characters' health, never a monster's
    view = client.get(f"/api/fights/{fid}/player").json()
    for t in view["map"]["tokens"]:
        mine = next(c for c in view["combatants"] if c["id"] == t["id"])["player"]
        assert (t["health"] is not None) == mine, t


def test_a_fallen_token_lies_apart_from_one_standing_in_its_hex(tmp_path: Path) -> None:
    client, fid = _played(tmp_path)
    gm = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
    fallen = next(c for c in gm["combatants"] if c["status"] != "active")
    other = next(c for c in gm["combatants"] if c["status"] == "active" and c["id"] != fallen["id"])
    body = {"kind": "move", "target": other["id"], "to": fallen["pos"]}
    r = client.post(f"/api/fights/{fid}/override", json={"expected": gm["seq"], "override": body}, headers=GM)
    assert r.json()["status"] == "ok", r.json()
    view = client.get(f"/api/fights/{fid}/gm?log=false", headers=GM).json()
    tokens = {t["id"]: t for t in view["map"]["tokens"]}
    down, up = tokens[fallen["id"]], tokens[other["id"]]
    assert (down["q"], down["r"]) == (up["q"], up["r"]) and not down["active"] and up["active"]
    # 15 is a standing token's radius, 8 a fallen one's: the two circles do not overlap
    assert ((down["x"] - up["x"]) ** 2 + (down["y"] - up["y"]) ** 2) ** 0.5 >= 15
    page = client.get(f"/gm/{fid}", headers=GM).text
    assert f'class="name fallen" x="{down["x"]}"' in page  # the fallen keep a (smaller) name


browser, server = end_to_end.browser, end_to_end.server  # the fixtures: Chromium, ``fracas serve``
seq_of, settle = end_to_end.seq_of, end_to_end.settle
needs_chromium = pytest.mark.skipif(not end_to_end.CHROMIUM.exists(), reason="needs /usr/bin/chromium")


def _box(page) -> list[float]:
    return [float(v) for v in page.get_attribute("#fight svg.hexmap", "viewBox").split()]


@needs_chromium
def test_the_game_master_zooms_and_pans_the_map_and_keeps_the_view_across_redraws(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.gm)
    fit = _box(page)
    svg = page.locator("#fight svg.hexmap")
    svg.hover()
    page.mouse.wheel(0, -300)
    zoomed = _box(page)
    assert zoomed[2] < fit[2] / 1.1
    bb = svg.bounding_box()
    cx, cy = bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 30, steps=5)
    page.mouse.up()
    panned = _box(page)
    assert panned[2] == pytest.approx(zoomed[2], abs=0.2) and panned[0] < zoomed[0] and panned[1] < zoomed[1]
    # another client acts: the page redraws the fight and keeps the view the game master chose
    before = seq_of(page)
    gm = server.gm_json()
    path = "advance" if gm["waiting_for_dice"] else "tactic"
    assert server.http.post(f"/api/fights/{server.fight}/{path}", json={}).json()["status"] == "ok"
    page.wait_for_function(f"parseInt(document.querySelector('#fight .fight').dataset.seq) > {before}")
    settle(page)
    assert _box(page) == pytest.approx(panned, abs=0.2)
    page.click("#fight .map-tools button[data-zoom=out]")
    assert _box(page)[2] > panned[2]
    page.click("#fight .map-tools button[data-zoom=fit]")
    fit_again = page.get_attribute("#fight svg.hexmap", "data-fit")
    assert _box(page) == pytest.approx([float(v) for v in fit_again.split()])
    assert not errors, errors
    page.close()


@needs_chromium
def test_the_builder_s_map_shows_every_combatant_of_a_file_and_negative_rows(server, browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page.goto(f"{server.base}/new?token={server.token}")
    page.set_input_files("#upload", str(AMBUSH))
    page.wait_for_function("document.getElementById('name').value.startsWith('Kobold ambush')")
    assert page.locator("#builder-map .token").count() == 11  # six kobolds, the slinger, four heroes
    # the players' side has the players' colour, as in the fight
    assert page.locator("#builder-map .token.side0").count() == 4
    box = [float(v) for v in page.get_attribute("#builder-map", "viewBox").split()]
    assert box[1] < -4 * 1.5 * 20  # row -4 (the slinger's) is in view
    entry = page.locator(".entry").nth(2)  # Bran
    entry.locator("button[data-do=place]").click()
    page.locator('#builder-map polygon[data-q="4"][data-r="-5"]').click()
    assert "(4, -5)" in page.locator(".entry").nth(2).inner_text()
    page.close()


@needs_chromium
def test_two_fingers_spread_on_a_phone_zoom_the_map_in(server, browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    page = context.new_page()
    page.goto(server.player)
    page.locator("svg.hexmap").scroll_into_view_if_needed()
    before = [float(v) for v in page.get_attribute("svg.hexmap", "viewBox").split()]
    # two touch pointers on the map move apart (Playwright has no multi-touch: the page's own events)
    page.evaluate(
        """() => {
        const svg = document.querySelector("svg.hexmap"), r = svg.getBoundingClientRect();
        const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
        const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {pointerId: id,
            pointerType: "touch", clientX: x, clientY: cy, bubbles: true, isPrimary: id === 1}));
        fire("pointerdown", 1, cx - 20); fire("pointerdown", 2, cx + 20);
        for (let d = 25; d <= 80; d += 5) { fire("pointermove", 1, cx - d); fire("pointermove", 2, cx + d); }
        fire("pointerup", 1, cx - 80); fire("pointerup", 2, cx + 80);
    }"""
    )
    after = [float(v) for v in page.get_attribute("svg.hexmap", "viewBox").split()]
    assert after[2] < before[2] / 2.5  # spread fourfold: zoomed in about four times
    context.close()
