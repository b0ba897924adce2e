"""At a real table, in Debian's Chromium (the server and browser of test_web_browser.py): the game master
overrules with a click or two and undoes it, the page holds still while another client acts (the log's
place, open sections, pushed updates), a stale dice dialog closes, and a phone opens the players' link."""

from __future__ import annotations

import json

import pytest
import test_web_browser as tb
import yaml
from test_web_browser import ARTIFACTS, EXAMPLE, Server, settle

browser = tb.browser  # the module's Chromium, a fixture

pytestmark = pytest.mark.skipif(
    not __import__("pathlib").Path("/usr/bin/chromium").exists(), reason="chromium"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("table") / "fights.sqlite3")
    yield s
    s.stop()


def _fight(server: Server, name: str, seed: int = 5) -> tuple[str, str]:
    data = json.loads(json.dumps(yaml.safe_load(EXAMPLE.read_text())))
    data["name"] = name
    created = server.http.post("/api/fights", json={"encounter": data, "seed": seed}).json()
    return created["id"], server.base + created["gm"] + f"?token={server.token}"


def _play(server: Server, fid: str, actions: int) -> None:
    for _ in range(actions):
        v = server.gm_json(fid)
        if v["ended"]:
            return
        path = "advance" if v["waiting_for_dice"] else "tactic"
        assert (
            server.http.post(f"/api/fights/{fid}/{path}", json={"expected": v["seq"]}).json()["status"]
            == "ok"
        )


def _seq(page) -> int:
    return int(page.get_attribute("#fight .fight", "data-seq"))


def _wait_seq(page, seq: int) -> None:
    page.wait_for_function(
        f"() => parseInt(document.querySelector('#fight .fight').dataset.seq) === {seq}", timeout=15_000
    )


def _card(page, cid: str):
    return page.locator(f'#fight .cards article[data-id="{cid}"]')


def _tools(page, cid: str):
    card = _card(page, cid)
    d = card.locator("details.gm-tools")
    if not d.evaluate("d => d.open"):
        d.locator("summary").click()
    return d


def _undo(page, server: Server, fid: str, before: dict) -> None:
    page.locator("button[data-act=undo]").click()
    settle(page)
    after = server.gm_json(fid)
    assert after["combatants"] == before["combatants"] and after["order"] == before["order"]
    assert after["ended"] == before["ended"]


def test_each_override_in_one_or_two_clicks_then_undo(server, browser) -> None:
    fid, url = _fight(server, "Overruled")
    _play(server, fid, 3)
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    v = server.gm_json(fid)
    mica = next(c for c in v["combatants"] if c["id"] == "mica")
    ghoul = next(c for c in v["combatants"] if not c["player"])

    def overrule(do, check) -> None:
        before = server.gm_json(fid)
        seq = before["seq"]
        do()
        settle(page)
        after = server.gm_json(fid)
        assert after["seq"] > seq, page.inner_text("#message")
        assert any(line["text"].strip().startswith("GM: ") for line in after["log"][-10:])
        assert check(after), after["log"][-3:]
        _undo(page, server, fid, before)

    def who(v: dict, cid: str) -> dict | None:
        return next((c for c in v["combatants"] if c["id"] == cid), None)

    def damage() -> None:
        t = _tools(page, "mica")
        t.locator("input[name=counter]").fill("damage")
        t.locator("input[name=amount]").fill("4")
        t.locator("button[data-gm=damage]").click()

    overrule(damage, lambda v: who(v, "mica")["counters"]["damage"] == mica["counters"]["damage"] + 4)

    def heal() -> None:
        t = _tools(page, "mica")
        t.locator("input[name=counter]").fill("karma")
        t.locator("input[name=amount]").fill("2")
        t.locator("button[data-gm=heal]").click()

    overrule(heal, lambda v: who(v, "mica")["counters"]["karma"] == mica["counters"]["karma"] - 2)

    def set_karma() -> None:
        t = _tools(page, "mica")
        t.locator("input[name=counter]").fill("karma")
        t.locator("input[name=amount]").fill("9")
        t.locator("button[data-gm=set]").click()

    overrule(set_karma, lambda v: who(v, "mica")["counters"]["karma"] == 9)

    def condition() -> None:
        t = _tools(page, ghoul["id"])
        t.locator("input[name=name]").fill("blinded")
        t.locator("input[name=rounds]").fill("2")
        t.locator("button[data-gm=condition]").click()

    overrule(condition, lambda v: any(d["name"] == "blinded" for d in who(v, ghoul["id"])["conditions"]))

    # a condition removed with its x: add one (not undone), remove it, undo both
    condition()
    settle(page)
    with_it = server.gm_json(fid)
    overrule(
        lambda: _card(page, ghoul["id"]).locator("button[data-gm=uncondition][data-name=blinded]").click(),
        lambda v: not any(d["name"] == "blinded" for d in who(v, ghoul["id"])["conditions"]),
    )
    assert server.gm_json(fid)["combatants"] == with_it["combatants"]  # the removal undone
    page.locator("button[data-act=undo]").click()
    settle(page)
    assert not any(d["name"] == "blinded" for d in who(server.gm_json(fid), ghoul["id"])["conditions"])

    def status() -> None:
        t = _tools(page, ghoul["id"])
        t.locator("select[name=status]").select_option("unconscious")
        t.locator("button[data-gm=status]").click()

    overrule(status, lambda v: who(v, ghoul["id"])["status"] == "unconscious")
    overrule(
        lambda: _tools(page, ghoul["id"]).locator("button[data-gm=hide]").click(),
        lambda v: who(v, ghoul["id"])["hidden"],
    )

    taken = [c["pos"] for c in server.gm_json(fid)["combatants"]]
    cells = page.evaluate(
        "() => [...document.querySelectorAll('svg.hexmap .cell:not(.blocked)')]"
        ".map(c => [parseInt(c.dataset.q), parseInt(c.dataset.r)])"
    )
    near = [c for c in cells if c not in taken and c != mica["pos"]]
    free = min(near, key=lambda h: abs(h[0] - mica["pos"][0]) + abs(h[1] - mica["pos"][1]) + (h[0] == 0) * 0)

    def move() -> None:
        _tools(page, "mica").locator("button[data-gm=move]").click()
        page.locator(f'svg.hexmap .cell[data-q="{free[0]}"][data-r="{free[1]}"]').click()

    overrule(move, lambda v: who(v, "mica")["pos"] == free)
    overrule(
        lambda: _tools(page, ghoul["id"]).locator("button[data-gm=remove]").click(),
        lambda v: who(v, ghoul["id"]) is None,
    )

    def bar():
        d = page.locator("details.gm-bar")
        if not d.evaluate("d => d.open"):
            d.locator("summary").click()
        return d

    def add() -> None:
        b = bar()
        b.locator("select[name=template]").select_option("ghoul")
        b.locator("input[name=name]").fill("Late Ghoul")
        b.locator("button[data-gm=add]").click()
        page.locator(f'svg.hexmap .cell[data-q="{free[0]}"][data-r="{free[1]}"]').click()

    overrule(add, lambda v: any(c["name"] == "Late Ghoul" and c["pos"] == free for c in v["combatants"]))
    if len(server.gm_json(fid)["order"]) > 1:
        second = server.gm_json(fid)["order"][1]["id"]
        overrule(
            lambda: page.locator(f'#fight .order button[data-gm=up][data-id="{second}"]').click(),
            lambda v: v["order"][0]["id"] == second,
        )
    if server.gm_json(fid)["overrule"]["can_end_round"]:
        r0 = server.gm_json(fid)["round"]
        overrule(
            lambda: bar().locator("button[data-gm=end-round]").click(),
            lambda v: v["round"] > r0 or v["phase"] == "round-end",
        )

    def end() -> None:
        b = bar()
        b.locator("select[name=winner]").select_option(mica["side"])
        b.locator("button[data-gm=end-fight]").click()

    overrule(end, lambda v: v["ended"] and v["winner"] == mica["side"])
    assert not errors, errors
    page.screenshot(path=str(ARTIFACTS / "gm-overrule.png"), full_page=True)
    page.close()


def test_the_log_scrolled_up_stays_put_while_another_client_acts(server, browser) -> None:
    fid, url = _fight(server, "Holding still", seed=9)
    _play(server, fid, 25)
    page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    page.goto(url)
    box = page.locator("#fight .log .lines")
    assert box.evaluate("b => b.scrollHeight > b.clientHeight + 200")
    box.evaluate("b => { b.scrollTop = 120; }")
    where = (
        "b => { const li = [...b.children].find(li => li.offsetTop + li.offsetHeight > b.scrollTop);"
        " return li.offsetTop - b.scrollTop; }"
    )
    top = box.evaluate(where)
    first = box.evaluate(
        "b => [...b.children].find(li => li.offsetTop + li.offsetHeight > b.scrollTop).dataset.n"
    )
    # open a log line's details, a card's "more" and its GM tools
    page.locator("#fight .log details").first.evaluate("d => { d.open = true; }")
    n_open = page.locator("#fight .log details[open]").count()
    card = page.locator("#fight .cards article").first
    card.locator("details.more").evaluate("d => { d.open = true; }")
    card.locator("details.gm-tools").evaluate("d => { d.open = true; }")
    for _ in range(3):  # another client acts: the page is told (pushed) and redraws
        seq = _seq(page)
        _play(server, fid, 1)
        _wait_seq(page, server.gm_json(fid)["seq"])
        settle(page)
        assert _seq(page) > seq
        now_first = box.evaluate(
            "b => [...b.children].find(li => li.offsetTop + li.offsetHeight > b.scrollTop).dataset.n"
        )
        assert now_first == first
        assert abs(box.evaluate(where) - top) <= 2  # the same line, at the same height in the box
        assert page.locator("#fight .log details[open]").count() == n_open
        card = page.locator("#fight .cards article").first
        assert card.locator("details.more").evaluate("d => d.open")
        assert card.locator("details.gm-tools").evaluate("d => d.open")
    page.close()


def test_updates_are_pushed_and_a_stale_dice_dialog_closes(server, browser) -> None:
    fid, url = _fight(server, "Pushed", seed=4)
    page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if r.url.endswith("/version") else None)
    page.goto(url)
    settle(page)
    # the dice dialog of a typed roll is open when another client rolls on the server
    page.locator("button[data-act=advance][data-mode=typed]").click()
    settle(page)
    assert page.locator("#dice-dialog").evaluate("d => d.open")
    _play(server, fid, 1)
    page.wait_for_function("() => !document.getElementById('dice-dialog').open", timeout=10_000)
    assert "moved on" in page.inner_text("#message")
    page.wait_for_timeout(2500)
    assert polls == []  # pushed, not polled
    page.close()


def test_a_phone_opens_the_players_link_on_another_address(tmp_path, browser) -> None:
    """``fracas serve --players-host 127.0.0.2``: the GM page shows the players' link and its QR code; a
    phone (390 px wide) opens that link, sees the fight, follows it live and finds no game master's page."""
    s = Server(tmp_path / "phone.sqlite3", extra=("--players-host", "127.0.0.2"))
    try:
        assert s.player.startswith("http://127.0.0.2:"), s.player
        gm = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
        gm.goto(s.gm)
        assert gm.locator("#players-link img").get_attribute("src").startswith("data:image/svg+xml")
        assert gm.locator("#players-link a").get_attribute("href") == s.player
        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2
        )
        p = phone.new_page()
        p.goto(s.player)
        assert p.locator("#fight .log").is_visible() and p.locator("#fight svg.hexmap").count() == 1
        assert p.evaluate("document.documentElement.scrollWidth") <= 391  # nothing wider than the phone
        seq = _seq(p)
        _play(s, s.fight, 2)
        p.wait_for_function(f"() => parseInt(document.querySelector('#fight .fight').dataset.seq) !== {seq}")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        p.screenshot(path=str(ARTIFACTS / "player-phone.png"), full_page=True)
        gm_on_phone_host = s.player.split("/view/")[0] + f"/gm/{s.fight}?token={s.token}"
        assert p.goto(gm_on_phone_host).status == 404  # the players' address serves nothing else
        phone.close()
        gm.close()
    finally:
        s.stop()


def test_the_message_after_an_action_covers_no_card_action_or_log_line(server, browser) -> None:
    fid, url = _fight(server, "Toasts", seed=6)
    _play(server, fid, 2)
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page.goto(url)
    for scroll in (0, 400):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        page.locator("button[data-act=tactic][data-mode=server]").click()
        settle(page)
        assert page.locator("#message").is_visible()
        overlaps = page.evaluate(
            """() => {
              const m = document.getElementById('message').getBoundingClientRect();
              const hit = (r) => r.width && r.height && !(r.right <= m.left || r.left >= m.right ||
                                                          r.bottom <= m.top || r.top >= m.bottom);
              return [...document.querySelectorAll('#fight .cards article, #fight .actions, #fight .log,'
                                                   + ' #fight .order, #fight .map, #fight .bar button')]
                .filter((el) => hit(el.getBoundingClientRect())).map((el) => el.className || el.tagName);
            }"""
        )
        if scroll == 0:
            assert overlaps == [], overlaps
        # scrolled: the message is in the header, which stays in view over whatever scrolls under it
        inside = page.evaluate(
            """() => {
              const m = document.getElementById('message').getBoundingClientRect();
              const b = document.querySelector('#fight .bar').getBoundingClientRect();
              return m.top >= b.top && m.bottom <= b.bottom && b.top === 0;
            }"""
        )
        assert inside
    page.close()
