"""Moving in the game master's view: the Earthdawn rules list moves, runs, attacks with a path toward a foe
out of reach and Karma variants (ED4 p.373 movement before or after the action, p.109 Karma); the server takes
a listed action with another path (a hex picked on the map, ``to``) and lets the rules judge it."""

from __future__ import annotations

import yaml
from fastapi.testclient import TestClient

from fracas.engine.hexgrid import distance
from fracas.store import FightService, Store
from fracas.web.app import create_app
from fracas.web.cli import bundled_example

TOKEN = "tok"
GM = {"X-Fracas-Token": TOKEN}


def _to_thrak(tmp_path):
    """The bundled Mica example, played by the tactics until Thrak (player) must act."""
    service = FightService(Store(tmp_path / "moves.sqlite3"))
    data = yaml.safe_load(bundled_example().read_text())  # type: ignore[union-attr]
    fid = service.create(data, seed=3).record.id
    client = TestClient(create_app(service, TOKEN), raise_server_exceptions=True)
    for _ in range(40):
        gm = client.get(f"/api/fights/{fid}/gm", headers=GM, params={"log": "false"}).json()
        d = gm["decision"]
        if d and d["actor"] == "thrak" and d["kind"] == "act":
            return service, client, fid, gm
        path = "advance" if gm["waiting_for_dice"] else "tactic"
        r = client.post(f"/api/fights/{fid}/{path}", json={"expected": gm["seq"]}, headers=GM)
        assert r.json()["status"] == "ok", r.json()
    raise AssertionError("Thrak never had to act")


def test_a_character_out_of_reach_may_move_run_and_charge_with_karma(tmp_path) -> None:
    service, client, fid, gm = _to_thrak(tmp_path)
    cmds = [c["command"] for c in gm["choices"]]
    actions = {c["action"] for c in cmds}
    assert {"move", "run"} <= actions, actions
    state = service.book(fid).state
    thrak = state.combatants["thrak"]
    for c in cmds:
        if c["action"] == "attack" and "path" in c.get("args", {}):
            end = tuple(c["args"]["path"][-1])
            assert distance(end, state.combatants[c["target"]].pos) == 1
    if thrak.counters.get("karma", 0) > 0:
        assert any(c["action"] == "attack" and c.get("args", {}).get("karma") for c in cmds)
    assert any(c["moves"] for c in gm["choices"])
    service.store.close()


def test_a_hex_picked_on_the_map_moves_there_and_an_illegal_one_is_refused_with_the_reason(tmp_path) -> None:
    service, client, fid, gm = _to_thrak(tmp_path)
    move = next(c["command"] for c in gm["choices"] if c["command"]["action"] == "move")
    start = service.book(fid).state.combatants["thrak"].pos
    # too far for a move: the rules refuse it and say why; nothing changes
    far = [start[0] - 20, start[1]]
    r = client.post(
        f"/api/fights/{fid}/command", json={"command": move, "to": far, "expected": gm["seq"]}, headers=GM
    )
    assert r.status_code == 400, r.json()
    assert "not one of the actions" not in r.json()["error"]
    # a path sent directly (different from the listed one) goes through the same validation
    r = client.post(
        f"/api/fights/{fid}/command",
        json={"command": {**move, "args": {"path": [[start[0] - 1, start[1]]]}}, "expected": gm["seq"]},
        headers=GM,
    )
    assert r.status_code == 200 and r.json()["status"] == "ok", r.json()
    assert tuple(service.book(fid).state.combatants["thrak"].pos) == (start[0] - 1, start[1])
    client.post(f"/api/fights/{fid}/undo", json={}, headers=GM)
    # a hex picked on the map: the server finds the path
    dest = [start[0] - 1, start[1] + 1]
    r = client.post(
        f"/api/fights/{fid}/command", json={"command": move, "to": dest, "expected": None}, headers=GM
    )
    assert r.status_code == 200, r.json()
    assert list(service.book(fid).state.combatants["thrak"].pos) == dest
    # malformed movement is refused, not crashed on
    gm = client.get(f"/api/fights/{fid}/gm", headers=GM).json()
    for bad in ("x", [[1]], [[1, "a"]], [[True, 2]]):
        run = next((c["command"] for c in gm["choices"] if c["command"]["action"] == "run"), None)
        if run is None:
            break
        r = client.post(
            f"/api/fights/{fid}/command",
            json={"command": {**run, "args": {"path": bad}}, "expected": gm["seq"]},
            headers=GM,
        )
        assert r.status_code == 400, (bad, r.json())
    service.store.close()


def test_a_blow_from_a_still_unseen_attacker_says_an_unseen_attacker_and_nothing_of_it() -> None:
    from fracas.engine import events as ev
    from fracas.engine.encounter import load
    from fracas.web.players import _unseen

    _, state = load(bundled_example())  # type: ignore[arg-type]
    visible = {c for c in state.combatants if c != "ghoul-1"}
    hit = _unseen(ev.Damaged("mica", 7, "ghoul-1", raw=10, armor=3), state, visible)
    assert hit == "  Mica takes 7 damage from an unseen attacker"
    roll = ev.Rolled("ghoul-1", "Claws Attack", 17, {}, step=11, target="mica", outcome="success")
    assert _unseen(roll, state, visible) == "An unseen attacker attacks Mica -> success"
    assert _unseen(ev.Moved("ghoul-1", ((1, 1),)), state, visible) is None  # nothing else about it
