"""End to end: ``fracas serve`` in a subprocess, driven by Playwright in a real headless Chromium (Debian's
/usr/bin/chromium), on the bundled ED4 example (Mica and the ghouls).

A game master runs a whole fight with typed-in and server rolls, undoes an action and reloads the page; the
players' view never shows a hidden combatant; two tabs lose no update; a server killed with SIGKILL in the
middle of a fight comes back with every acknowledged action. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)"
)
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("FRACAS_ARTIFACTS", ROOT / "artifacts"))
EXAMPLE = ROOT / "examples" / "ed4" / "mica-and-the-ghouls.yaml"


class Server:
    """``fracas serve --port 0 --db DB --no-browser`` in a subprocess, with the links it printed."""

    def __init__(self, db: Path, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        code = "import sys; from fracas.cli import main; sys.exit(main())"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--port", "0", "--db", str(db), "--no-browser", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "300"},
        )
        self.lines: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())
            if "Press Ctrl+C" in line:
                break
        text = "\n".join(self.lines)
        m = re.search(r"Game master: (http://\S+/gm/(\S+)\?token=(\S+))", text)
        assert m, text
        self.gm, self.fight, self.token = m.group(1), m.group(2), m.group(3)
        self.base = self.gm.split("/gm/")[0]
        self.player = re.search(r"Players: +(\S+)", text).group(1)
        threading.Thread(target=self._drain, daemon=True).start()
        self.http = httpx.Client(base_url=self.base, headers={"X-Fracas-Token": self.token}, timeout=30)
        for _ in range(100):
            try:
                if self.http.get(f"/api/fights/{self.fight}/version").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())

    def gm_json(self, fight: str | None = None) -> dict:
        return self.http.get(f"/api/fights/{fight or self.fight}/gm").json()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("serve") / "fights.sqlite3")
    yield s
    s.stop()


def settle(page) -> None:
    """Wait until the page has no request in flight."""
    page.wait_for_function("window.fracasPending === 0", timeout=20_000)


def seq_of(page) -> int:
    return int(page.get_attribute("#fight .fight", "data-seq"))


def answer_dice(page, faces: list[int | str]) -> int:
    """Type faces into the dice dialog until it closes: the listed ones first, then a face that does not
    explode (1 below the maximum). Returns how many faces were typed."""
    dialog = page.locator("#dice-dialog")
    for typed in range(60):
        settle(page)
        if not dialog.evaluate("d => d.open"):
            return typed
        sides = int(page.inner_text("#dice-die").lstrip("d"))
        face = faces.pop(0) if faces else max(1, sides - 1)
        page.fill("#dice-face", str(face))
        page.click("#dice-ok")
    raise AssertionError("the dice dialog never closed")


def test_the_game_master_runs_a_whole_fight_with_typed_and_server_rolls(server, browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.gm)
    assert "Mica and the ghouls" in page.title()

    # Round 1's Initiative: typed in; a face the die cannot show is refused and nothing changes.
    start = seq_of(page)
    page.locator(".actions button[data-act=advance][data-mode=typed]").click()
    settle(page)
    sides = int(page.inner_text("#dice-die").lstrip("d"))
    page.fill("#dice-face", str(sides + 1))
    page.click("#dice-ok")
    settle(page)
    assert f"a d{sides} shows 1 to {sides}, not {sides + 1}" in page.inner_text("#dice-error")
    assert server.http.get(f"/api/fights/{server.fight}/version").json()["seq"] == start
    assert answer_dice(page, []) >= 1
    settle(page)
    assert seq_of(page) > start
    assert page.locator(".order li.current").count() == 1

    # A dozen actions, alternating server rolls and typed-in faces, chosen actions and tactics.
    typed_rolls = server_rolls = 0
    undo_checked = False
    for i in range(12):
        view = server.gm_json()
        if view["ended"]:
            break
        before = seq_of(page)
        if view["waiting_for_dice"]:
            mode = "server" if i % 2 else "typed"
            page.locator(f".actions button[data-act=advance][data-mode={mode}]").click()
        elif any(c["command"]["action"] == "attack" for c in view["choices"]):
            mode = "typed" if i % 2 else "server"
            choice = page.locator(".choice[data-action=attack]").first
            choice.locator(f"button[data-mode={mode}]").click()
        else:
            mode = "typed" if i % 3 == 0 else "server"
            page.locator(f"header button[data-act=tactic][data-mode={mode}]").click()
        settle(page)
        if mode == "typed":
            answer_dice(page, [])
            typed_rolls += 1
        else:
            server_rolls += 1
        settle(page)
        after = seq_of(page)
        assert after > before, page.inner_text("#message")
        if i == 5:
            page.evaluate("document.getElementById('message').hidden = true")
            page.screenshot(path=str(ARTIFACTS / "gm-view.png"), full_page=True)
        if not undo_checked and i >= 3:
            # undo the action just taken: the fight is as it was before it
            state_after = server.gm_json()
            page.locator("header button[data-act=undo]").click()
            settle(page)
            undone = server.gm_json()
            assert undone["seq"] > after  # undo appends a marker
            assert undone["combatants"] == _without_seq(view)["combatants"]
            assert undone["log"] == view["log"]
            assert page.locator("header button[data-act=redo]").is_enabled()
            page.locator("header button[data-act=redo]").click()
            settle(page)
            assert server.gm_json()["log"] == state_after["log"]
            undo_checked = True
    assert typed_rolls >= 3 and server_rolls >= 3 and undo_checked

    # Reload: the fight is intact, line for line.
    log_before = page.inner_text("#fight .log")
    cards_before = page.inner_text("#fight .cards")
    page.reload()
    assert page.inner_text("#fight .log") == log_before
    assert page.inner_text("#fight .cards") == cards_before

    # The tactics play the rest of the fight, round by round.
    for _ in range(60):
        if page.locator(".actions", has_text="The fight is over").count():
            break
        if page.locator(".actions button[data-act=advance][data-mode=server]").count():
            page.locator(".actions button[data-act=advance][data-mode=server]").click()
        else:
            page.locator("header button[data-act=round]").click()
        settle(page)
    assert page.locator(".actions", has_text="The fight is over").count() == 1
    page.screenshot(path=str(ARTIFACTS / "gm-view-end.png"), full_page=True)
    final = server.gm_json()
    assert final["ended"] and final["winner"] in ("Heroes", "Ghouls")
    assert not errors, errors
    page.close()


def _without_seq(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "seq"}


def test_the_players_view_never_shows_a_hidden_combatant(server, browser) -> None:
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text())
    data["name"] = "Ambush"
    data["sides"][1]["combatants"].append(
        {"template": "ghoul", "id": "lurking-ghoul", "name": "Lurking Ghoul", "hidden": True, "at": [4, -3]}
    )
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 3}).json()
    fid = created["id"]
    page = browser.new_page(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    bodies: list[str] = []

    def keep(response) -> None:
        if "/view/" in response.url or "/player" in response.url or "/version" in response.url:
            bodies.append(response.text())

    page.on("response", keep)
    hidden_until = 0
    page.goto(server.base + created["player"])
    gm_text = server.http.get(created["gm"]).text
    assert "Lurking Ghoul" in gm_text  # the game master sees it
    for step in range(80):
        view = server.gm_json(fid)
        if view["ended"]:
            break
        path = "advance" if view["waiting_for_dice"] else "round"
        r = server.http.post(f"/api/fights/{fid}/{path}", json={})
        assert r.json()["status"] == "ok"
        if step < 3:  # live updates: the open page redraws itself
            page.wait_for_function(
                f"() => parseInt(document.querySelector('#fight .fight').dataset.seq) >= {r.json()['seq']}",
                timeout=10_000,
            )
            settle(page)
        else:
            page.reload()
        html = page.content()
        gm_lines = [line["text"] for line in server.gm_json(fid)["log"]]
        # seen once it attacks or is attacked (an Attack line naming it), never before
        seen = any("Lurking Ghoul" in t and "Attack" in t for t in gm_lines)
        if not seen:
            assert "Lurking" not in html and "lurking" not in html
            hidden_until = len(bodies)
        assert "Claws: step" not in html  # a monster's statistics
    assert server.gm_json(fid)["ended"]
    gm_log = " ".join(line["text"] for line in server.gm_json(fid)["log"])
    assert "Lurking Ghoul" in gm_log  # it was in the fight all along
    player_json = server.http.get(f"/api/fights/{fid}/player").text
    for i, text in enumerate([*bodies, player_json]):
        if i < hidden_until:
            assert "lurking" not in text.lower()
        assert "Claws: step" not in text  # the ghouls' card (their attacks) never reaches the players
    page.screenshot(path=str(ARTIFACTS / "player-view.png"), full_page=True)
    page.close()


CLICK_NEXT = """() => {
  const b = document.querySelector(".actions button[data-act=advance][data-mode=server]")
    || document.querySelector("header button[data-act=tactic][data-mode=server]");
  if (!b || b.disabled) return false;
  b.click();
  return true;
}"""


def test_two_tabs_on_one_fight_lose_no_update(server, browser) -> None:
    data = json.loads(json.dumps(__import__("yaml").safe_load(EXAMPLE.read_text())))
    data["name"] = "Two tabs"
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 8}).json()
    fid = created["id"]
    url = server.base + created["gm"] + f"?token={server.token}"
    a = browser.new_page(bypass_csp=True)
    b = browser.new_page(bypass_csp=True)
    acknowledged: list[str] = []

    def track(response) -> None:
        if response.request.method == "POST" and "/api/fights/" in response.url:
            body = response.json()
            if body.get("status") == "ok":
                acknowledged.append(body["what"])

    for p in (a, b):
        p.on("response", track)
        p.goto(url)
    for _ in range(6):
        # both tabs show the same fight; tab a acts, then tab b acts from its (now stale) view
        for p in (a, b):
            # find and press the button in one go: the page may redraw itself between two steps
            p.evaluate(CLICK_NEXT)
            settle(p)
    kinds = server.http.get(f"/api/fights/{fid}/export").json()["batches"]
    actions = [b["what"] for b in kinds if b["kind"] != "start"]
    assert actions == acknowledged  # every acknowledged action is there, once, and nothing else
    assert len(acknowledged) >= 6
    # both tabs end up showing the same, latest fight
    latest = server.gm_json(fid)["seq"]
    for p in (a, b):
        p.wait_for_function(
            f"() => parseInt(document.querySelector('#fight .fight').dataset.seq) === {latest}",
            timeout=10_000,
        )
    assert a.inner_text("#fight .log") == b.inner_text("#fight .log")
    a.close()
    b.close()


def test_a_killed_server_comes_back_with_every_acknowledged_action(tmp_path: Path, browser) -> None:
    db = tmp_path / "kill.sqlite3"
    s = Server(db)
    acknowledged: list[tuple[int, str]] = []
    stop = threading.Event()

    def play() -> None:
        client = httpx.Client(base_url=s.base, headers={"X-Fracas-Token": s.token}, timeout=10)
        try:
            while not stop.is_set():
                view = client.get(f"/api/fights/{s.fight}/gm?log=false").json()
                if view["ended"]:
                    client.post(f"/api/fights/{s.fight}/undo", json={})
                    continue
                path = "advance" if view["waiting_for_dice"] else "tactic"
                r = client.post(f"/api/fights/{s.fight}/{path}", json={"expected": view["seq"]})
                body = r.json()
                if body.get("status") == "ok":
                    acknowledged.append((body["seq"], body["what"]))
        except (httpx.TransportError, json.JSONDecodeError):
            return  # the server died under us: the action in flight was never acknowledged
        finally:
            client.close()

    worker = threading.Thread(target=play)
    worker.start()
    deadline = time.monotonic() + 90  # a generous bound for a busy machine; 15 actions take a second or two
    while len(acknowledged) < 15 and time.monotonic() < deadline:
        time.sleep(0.01)
    s.proc.send_signal(signal.SIGKILL)  # mid-fight, probably mid-request
    s.proc.wait(10)
    stop.set()
    worker.join(15)
    s.http.close()
    assert len(acknowledged) >= 15

    again = Server(db)
    try:
        assert again.fight == s.fight  # the saved fight is the one shown first
        exported = again.http.get(f"/api/fights/{s.fight}/export").json()
        last_seq = exported["log"][-1]["seq"]
        whats = [b["what"] for b in exported["batches"][1:]]
        assert last_seq >= acknowledged[-1][0]
        assert whats[: len(acknowledged)] == [w for _, w in acknowledged]
        assert len(whats) - len(acknowledged) <= 1  # at most the one in flight, committed but not answered
        page = browser.new_page(bypass_csp=True)
        page.goto(again.gm)
        assert page.locator("#fight .log .line").count() > 10
        page.close()
    finally:
        again.stop()


def test_the_game_master_builds_an_encounter_in_the_browser(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/new?token={server.token}")
    assert page.input_value("#ruleset") == "ed4"
    # from the templates: one player character placed by clicking a hex, two ghouls
    page.fill("#name", "Built by hand")
    first = page.locator(".entry").first
    first.locator("select[data-f=template]").select_option("mica")
    first.locator("button[data-do=place]").click()
    page.locator('#builder-map polygon[data-q="2"][data-r="3"]').click()
    assert "(2, 3)" in page.locator(".entry").first.inner_text()
    page.locator(".entry").nth(1).locator("select[data-f=template]").select_option("ghoul")
    page.click("#create")
    page.wait_for_url(re.compile(r"/gm/built-by-hand-"))
    fid = page.url.split("/gm/")[1].split("?")[0]
    mica = next(c for c in server.gm_json(fid)["combatants"] if c["template"] == "mica")
    assert mica["pos"] == [2, 3] and mica["player"]
    # from an uploaded encounter file, with a mistake first: the server names the field
    page.goto(f"{server.base}/new?token={server.token}")
    bad = EXAMPLE.read_text().replace("template: thrak", "template: thrakk")
    upload = {"name": "bad.yaml", "mimeType": "text/yaml", "buffer": bad.encode()}
    page.set_input_files("#upload", files=[upload])
    page.wait_for_function("document.getElementById('errors').textContent.length > 0")
    assert "sides.0.combatants.1" in page.inner_text("#errors") and "thrakk" in page.inner_text("#errors")
    page.set_input_files("#upload", str(EXAMPLE))
    page.wait_for_function("document.getElementById('name').value === 'Mica and the ghouls'")
    assert page.locator(".entry").count() == 4
    page.click("#create")
    page.wait_for_url(re.compile(r"/gm/mica-and-the-ghouls-"))
    assert page.locator(".card").count() == 8  # three heroes and five ghouls
    # a saved fight exported and imported again from the list of fights
    fid = page.url.split("/gm/")[1].split("?")[0]
    export = server.http.get(f"/api/fights/{fid}/export").content
    page.goto(f"{server.base}/?token={server.token}")
    junk = {"name": "junk.json", "mimeType": "application/json", "buffer": b'{"format": "nope"}'}
    page.set_input_files("#import", files=[junk])
    page.wait_for_function("document.getElementById('import-error').textContent.length > 0")
    assert "format" in page.inner_text("#import-error")
    saved = {"name": "f.json", "mimeType": "application/json", "buffer": export}
    page.set_input_files("#import", files=[saved])
    page.wait_for_url(re.compile(r"/gm/mica-and-the-ghouls-"))
    assert page.url.split("/gm/")[1].split("?")[0] != fid and page.locator(".card").count() == 8
    assert not errors, errors
    page.close()


def _until_player_acts(server, fid: str, who: str = "thrak") -> dict:
    for _ in range(40):
        view = server.gm_json(fid)
        d = view["decision"]
        if d and d["actor"] == who and d["kind"] == "act":
            return view
        path = "advance" if view["waiting_for_dice"] else "tactic"
        assert server.http.post(f"/api/fights/{fid}/{path}", json={}).json()["status"] == "ok"
    raise AssertionError(f"{who} never had to act")


def test_the_game_master_moves_a_character_by_picking_a_hex_on_the_map(server, browser) -> None:
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text())
    data["name"] = "Moving Thrak"
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 3}).json()
    fid = created["id"]
    view = _until_player_acts(server, fid)
    start = view["combatants"][[c["id"] for c in view["combatants"]].index("thrak")]["pos"]
    page = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.base + created["gm"] + f"?token={server.token}")
    move = page.locator(".choice[data-action=move]").first
    # too far: the rules refuse with their reason, shown on the page, and nothing changes
    before = seq_of(page)
    from fracas.engine.hexgrid import distance

    cells = page.eval_on_selector_all(
        "svg.hexmap .cell",
        """els => { const box = els[0].ownerSVGElement.getBoundingClientRect();
          return els.filter(e => { const b = e.getBoundingClientRect();
            return b.top >= box.top && b.bottom <= box.bottom
              && b.left >= box.left && b.right <= box.right; })
          .map(e => [+e.dataset.q, +e.dataset.r]); }""",
    )
    taken = [c["pos"] for c in view["combatants"] if c["pos"]]
    far = max((c for c in cells if c not in taken), key=lambda c: distance(tuple(c), tuple(start)))
    move.locator("button[data-pick]").click()
    page.locator(f"svg.hexmap .cell[data-q='{far[0]}'][data-r='{far[1]}']").click()
    assert "to (" in move.inner_text()
    move.locator("button[data-act=command]").first.click()
    settle(page)
    assert "not one of the actions" not in page.inner_text("#message")
    assert page.inner_text("#message").strip()
    assert seq_of(page) == before
    # one hex away: Thrak goes there
    move = page.locator(".choice[data-action=move]").first
    move.locator("button[data-pick]").click()
    dest = [start[0] - 1, start[1] + 1]
    page.locator(f"svg.hexmap .cell[data-q='{dest[0]}'][data-r='{dest[1]}']").click()
    move.locator("button[data-act=command]").first.click()
    settle(page)
    after = server.gm_json(fid)
    assert after["combatants"][[c["id"] for c in after["combatants"]].index("thrak")]["pos"] == dest
    page.screenshot(path=str(ARTIFACTS / "gm-move.png"), full_page=False)
    assert not errors, errors
    page.close()


def test_the_dice_dialog_names_each_die_s_test_and_says_when_a_die_explodes(server, browser) -> None:
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text())
    data["name"] = "Typed dice"
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 4}).json()
    page = browser.new_page(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page.goto(server.base + created["gm"] + f"?token={server.token}")
    page.locator(".actions button[data-act=advance][data-mode=typed]").click()
    settle(page)
    what = page.inner_text("#dice-what")
    assert "Initiative test, step" in what, what  # the ruleset's purpose of the die
    sides = int(page.inner_text("#dice-die").lstrip("d"))
    page.fill("#dice-face", str(sides))  # its maximum: Earthdawn step dice explode
    page.click("#dice-ok")
    settle(page)
    assert "explodes" in page.inner_text("#dice-what"), page.inner_text("#dice-what")
    typed = page.inner_text("#dice-so-far")
    assert f"d{sides} = {sides}" in typed and "Initiative test" in typed and "maximum" in typed
    page.screenshot(path=str(ARTIFACTS / "gm-dice-dialog.png"))
    answer_dice(page, [])
    settle(page)
    assert server.gm_json(created["id"])["round"] == 1
    page.close()


def test_on_a_laptop_screen_the_log_and_the_actions_are_in_view(server, browser) -> None:
    import yaml

    data = yaml.safe_load(EXAMPLE.read_text())
    data["name"] = "Laptop"
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 3}).json()
    fid = created["id"]
    _until_player_acts(server, fid, "silar")  # several foes in range: grouped attack choices
    page = browser.new_page(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page.goto(server.base + created["gm"] + f"?token={server.token}")
    for section in (".actions", ".log", ".map", ".order"):
        box = page.locator(f"#fight {section}").bounding_box()
        assert box is not None and box["y"] < 768 and box["x"] + 100 < 1366, (section, box)
    log_lines = page.locator("#fight .log .lines li").last.bounding_box()
    assert log_lines is not None and log_lines["y"] < 768  # the latest line is on screen, not below the cards
    actions = page.inner_text("#fight .actions")
    assert "trigger" not in actions and "target: )" not in actions
    assert "Reserve the action: strike whoever attacks" in actions
    groups = page.locator("#fight .actions .group h3").all_inner_texts()
    assert any(t.startswith("Attack Ghoul 1") for t in groups), groups
    assert len(groups) == len(set(groups))  # one group per target, the weapons inside
    first = page.locator("#fight .actions .group").first
    assert first.locator(".choice").count() >= 2  # e.g. the crossbow, with Karma, the thrown dagger
    # compact cards: a damage bar against the Unconsciousness and Death Ratings
    mica = page.locator("#fight .card[data-id=mica]")
    assert mica.locator(".bar-dmg").count() == 1
    assert "Unconsciousness 30, Death 36" in mica.inner_text()
    page.screenshot(path=str(ARTIFACTS / "gm-laptop.png"))
    page.close()


def test_the_encounter_builder_starts_with_heroes_against_monsters_for_each_ruleset(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base}/new?token={server.token}")

    def sides() -> list[list[str]]:
        return [
            fs.locator("select[data-f=template]").evaluate_all("els => els.map(e => e.value)")
            for fs in page.locator("#sides fieldset").all()
        ]

    expected = {
        "ed4": [["mica", "thrak"], ["ghoul"]],
        "ed1": [["thom-hammerblade"], ["ork-raider"]],
        "gurps4": [["swordsman"], ["axeman", "spearman"]],
        "sas": [["fighter", "priest"], ["goblin"]],
    }
    page.select_option("#ruleset", "ed4")
    assert sides() == expected["ed4"]
    players = page.locator("#sides fieldset").nth(0).locator("input[data-f=player]")
    assert all(players.nth(i).is_checked() for i in range(players.count()))
    assert not page.locator("#sides fieldset").nth(1).locator("input[data-f=player]").first.is_checked()
    assert page.locator("#builder-map .token").count() == 4  # Mica, Thrak, two ghouls, all placed
    for rid, want in expected.items():
        page.select_option("#ruleset", rid)
        assert sides() == want, rid
    # the defaults make a valid fight (Spells & Swords here; the others in test_web_api)
    page.click("#create")
    page.wait_for_url("**/gm/**", timeout=15_000)
    assert not errors, errors
    page.close()


def test_the_pages_run_under_their_content_security_policy(server, browser) -> None:
    """No CSP bypass here: the game master's page runs its script (the nonce matches) and an action works,
    and the token is gone from the address after the printed link is opened."""
    data = json.loads(json.dumps(__import__("yaml").safe_load(EXAMPLE.read_text())))
    created = server.http.post("/api/fights", json={"encounter": data, "seed": 5}).json()
    page = browser.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(server.base + created["gm"] + f"?token={server.token}")
    assert "token=" not in page.url and page.url.endswith(created["gm"])
    before = seq_of(page)
    page.click("button[data-act='round']")
    page.wait_for_timeout(300)
    for _ in range(100):
        if seq_of(page) != before:
            break
        page.wait_for_timeout(100)
    assert seq_of(page) != before
    assert not violations, violations
    page.close()
