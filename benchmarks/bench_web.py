"""Bounded load test of ``fracas serve`` on loopback: N concurrent fights driven through the HTTP API.

Starts the real server (``fracas serve --port 0 --db <tmp> --no-browser``, one uvicorn process), creates
``--fights`` fights from the bundled ED4 example, and for ``--seconds`` runs one client task per fight that
reads the game master's view and posts the next action (an automatic step or the tactic's turn, rolled on the
server), starting a new fight when one ends. Every request is timed.

Beside each fight's game master, ``--watch`` puts a players' page: ``poll`` asks ``/version`` each second and
fetches the players' fragment when it moved (the pages before updates were pushed), ``push`` listens to
``/stream`` (server-sent events) and fetches the fragment when told; ``none`` has no watcher. ``--nagle``
serves from a socket made with protocol 0, as ``fracas serve`` did before TCP_NODELAY (asyncio then leaves
Nagle's algorithm on). ``--compare`` runs the four settings one after the other (each ``--seconds`` long).

At the end it checks that nothing was lost: for every fight, the events the server acknowledged add up to the
event rows in the fight's export (and the batches match one for one), and no request failed.

    python benchmarks/bench_web.py                       # 50 fights, 60 seconds, players' pages pushed
    python benchmarks/bench_web.py --fights 10 --seconds 5
    python benchmarks/bench_web.py --compare --seconds 20

Measured numbers go in docs/web.md (with the machine); this script never asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "ed4" / "mica-and-the-ghouls.yaml"


# ``fracas serve`` as it was before TCP_NODELAY: the same app on a socket made with protocol 0
NAGLE_SERVER = """
import socket, sys
import uvicorn
from fracas.store import FightService, Store
from fracas.web.app import create_app
store = Store(sys.argv[1])
token = store.gm_token()
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", 0))
sock.listen(128)
print(f"fracas is serving on http://127.0.0.1:{sock.getsockname()[1]} /?token={token}")
print("Press Ctrl+C to stop.", flush=True)
config = uvicorn.Config(create_app(FightService(store), token), log_level="warning", access_log=False,
                        timeout_graceful_shutdown=2, timeout_keep_alive=30)
uvicorn.Server(config).run(sockets=[sock])
"""


def start_server(db: Path, nagle: bool = False) -> tuple[subprocess.Popen, str, str]:
    code = "import sys; from fracas.cli import main; sys.exit(main())"
    args = ["serve", "--port", "0", "--db", str(db), "--no-browser"]
    if nagle:
        code, args = NAGLE_SERVER, [str(db)]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "300"},
    )
    assert proc.stdout is not None
    text = ""
    for line in proc.stdout:
        text += line
        if "Press Ctrl+C" in line:
            break
    m = re.search(r"serving on (http://\S+).*?token=(\S+)", text, re.S)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start:\n{text}")
    return proc, m.group(1), m.group(2)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.watch_latencies: list[float] = []  # the players' pages' requests
        self.seen_after: list[float] = []  # from an action's answer to its players' page knowing of it
        self.last_ack: dict[str, float] = {}
        self.errors: list[str] = []
        self.acked: dict[str, list[tuple[str, int]]] = {}  # fight -> [(what, events)]
        self.fights_done = 0


async def timed(stats: Stats, call) -> httpx.Response | None:
    t = time.perf_counter()
    try:
        r = await call
    except httpx.HTTPError as exc:
        stats.errors.append(f"{type(exc).__name__}: {exc}")
        return None
    stats.latencies.append(time.perf_counter() - t)
    if r.status_code >= 400:
        stats.errors.append(f"{r.status_code}: {r.text[:200]}")
        return None
    return r


async def new_fight(client: httpx.AsyncClient, stats: Stats, data: dict, seed: int) -> str | None:
    r = await timed(stats, client.post("/api/fights", json={"encounter": data, "seed": seed}))
    if r is None:
        return None
    fid = r.json()["id"]
    stats.acked[fid] = []
    return fid


async def driver(
    client: httpx.AsyncClient, stats: Stats, data: dict, seed: int, until: float, watch: str = "none"
) -> None:
    fid = await new_fight(client, stats, data, seed)
    watchers = []
    if fid is not None and watch != "none":
        watchers.append(asyncio.create_task(watcher(client, stats, fid, watch, until)))
    try:
        await _drive(client, stats, data, seed, until, fid, watch, watchers)
    finally:
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)


async def _drive(client, stats, data, seed, until, fid, watch, watchers) -> None:  # noqa: ANN001
    while fid is not None and time.monotonic() < until:
        r = await timed(stats, client.get(f"/api/fights/{fid}/gm", params={"log": "false"}))
        if r is None:
            return
        view = r.json()
        if view["ended"]:
            stats.fights_done += 1
            seed += 1000
            fid = await new_fight(client, stats, data, seed)
            if fid is not None and watch != "none":
                watchers.append(asyncio.create_task(watcher(client, stats, fid, watch, until)))
            continue
        path = "advance" if view["waiting_for_dice"] else "tactic"
        r = await timed(stats, client.post(f"/api/fights/{fid}/{path}", json={"expected": view["seq"]}))
        if r is None:
            return
        body = r.json()
        stats.acked[fid].append((body["what"], body["events"]))
        stats.last_ack.setdefault(fid, time.monotonic())


async def watcher(client: httpx.AsyncClient, stats: Stats, fid: str, mode: str, until: float) -> None:
    """A players' page on ``fid``: told of each change (``push``) or asking each second (``poll``); on a new
    version it fetches the players' fragment, as the page does. Errors count like the drivers'."""
    players = {"X-Fracas-Token": ""}  # the players' page carries no token

    async def fetch() -> None:
        ack = stats.last_ack.get(fid)
        if ack is not None:
            stats.seen_after.append(time.monotonic() - ack)
            stats.last_ack.pop(fid, None)
        t = time.perf_counter()
        r = await client.get(f"/view/{fid}/fragment", headers=players)
        stats.watch_latencies.append(time.perf_counter() - t)
        if r.status_code >= 400:
            stats.errors.append(f"watch {r.status_code}: {r.text[:200]}")

    last = None
    try:
        if mode == "poll":
            while time.monotonic() < until:
                t = time.perf_counter()
                r = await client.get(f"/api/fights/{fid}/version", headers=players)
                stats.watch_latencies.append(time.perf_counter() - t)
                seq = r.json()["seq"]
                if seq != last:
                    last = seq
                    await fetch()
                await asyncio.sleep(1.0)
            return
        async with client.stream("GET", f"/api/fights/{fid}/stream", headers=players) as r:
            async for line in r.aiter_lines():
                if time.monotonic() >= until:
                    return
                if line.startswith("data: "):
                    seq = json.loads(line[6:])["seq"]
                    if seq != last:
                        last = seq
                        await fetch()
    except httpx.HTTPError as exc:
        if time.monotonic() < until:
            stats.errors.append(f"watch {type(exc).__name__}: {exc}")


async def verify(client: httpx.AsyncClient, stats: Stats) -> tuple[int, int, list[str]]:
    """(events acknowledged, event rows found, problems) over every fight."""
    acked = found = 0
    problems = []
    for fid, actions in stats.acked.items():
        r = await client.get(f"/api/fights/{fid}/export")
        data = r.json()
        batches = [b for b in data["batches"] if b["kind"] != "start"]
        start = {b["batch"] for b in data["batches"] if b["kind"] == "start"}
        rows = [row for row in data["log"] if row["batch"] not in start]
        acked += sum(n for _, n in actions)
        found += len(rows)
        if [b["what"] for b in batches] != [w for w, _ in actions]:
            problems.append(f"{fid}: batches differ from the acknowledged actions")
        if len(rows) != sum(n for _, n in actions):
            problems.append(f"{fid}: {sum(n for _, n in actions)} events acknowledged, {len(rows)} stored")
    return acked, found, problems


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), 0.0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


async def run(fights: int, seconds: float, base: str, token: str, pid: int, watch: str = "none") -> dict:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    stats = Stats()
    limits = httpx.Limits(max_connections=3 * fights + 10, max_keepalive_connections=3 * fights + 10)
    async with httpx.AsyncClient(
        base_url=base, headers={"X-Fracas-Token": token}, timeout=60, limits=limits
    ) as client:
        t0 = time.monotonic()
        cpu0 = cpu_seconds(pid)
        load0 = os.getloadavg()[0]
        until = t0 + seconds
        await asyncio.gather(*(driver(client, stats, data, i + 1, until, watch) for i in range(fights)))
        elapsed = time.monotonic() - t0
        cpu = cpu_seconds(pid) - cpu0
        load = (load0 + os.getloadavg()[0]) / 2
        acked, found, problems = await verify(client, stats)
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
    wl = sorted(stats.watch_latencies)
    wq = statistics.quantiles(wl, n=100) if len(wl) >= 2 else [0.0] * 99
    seen = sorted(stats.seen_after)
    sq = statistics.quantiles(seen, n=100) if len(seen) >= 2 else [0.0] * 99
    return {
        "watch": watch,
        "watch_requests": len(wl),
        "watch_p95_ms": round(wq[94] * 1000, 1),
        "players_see_an_action_after_ms": {"p50": round(sq[49] * 1000, 1), "p95": round(sq[94] * 1000, 1)},
        "fights_concurrent": fights,
        "seconds": round(elapsed, 1),
        "requests": len(lat),
        "requests_per_second": round(len(lat) / elapsed, 1),
        "latency_ms": {
            "p50": round(q[49] * 1000, 1),
            "p95": round(q[94] * 1000, 1),
            "p99": round(q[98] * 1000, 1),
            "max": round(lat[-1] * 1000, 1) if lat else 0,
        },
        "server_cpu_seconds": round(cpu, 1),
        "server_cpu_ms_per_request": round(1000 * cpu / max(len(lat), 1), 2),
        "load_average": round(load, 1),
        "fights_finished": stats.fights_done,
        "fights_started": len(stats.acked),
        "actions_acknowledged": sum(len(a) for a in stats.acked.values()),
        "events_acknowledged": acked,
        "events_stored": found,
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
        "lost": problems[:5],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }


def measure(fights: int, seconds: float, nagle: bool, watch: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, token = start_server(Path(tmp) / "load.sqlite3", nagle=nagle)
        try:
            result = asyncio.run(run(fights, seconds, base, token, proc.pid, watch))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    result["tcp_nodelay"] = not nagle
    return result


def report(result: dict) -> None:
    lat = result["latency_ms"]
    seen = result["players_see_an_action_after_ms"]
    print(
        f"[{'TCP_NODELAY' if result['tcp_nodelay'] else 'Nagle on'}, players' pages: {result['watch']}] "
        f"{result['fights_concurrent']} concurrent fights for {result['seconds']} s: "
        f"{result['requests']} requests, {result['requests_per_second']} requests/s, "
        f"latency p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    if result["watch"] != "none":
        print(
            f"  players' pages: {result['watch_requests']} requests, p95 {result['watch_p95_ms']} ms; "
            f"an action reaches them after p50 {seen['p50']} ms, p95 {seen['p95']} ms"
        )
    print(
        f"  {result['actions_acknowledged']} actions acknowledged in {result['fights_started']} fights "
        f"({result['fights_finished']} finished); events acknowledged {result['events_acknowledged']}, "
        f"stored {result['events_stored']}; errors {result['errors']}; lost: {result['lost'] or 'none'}"
    )
    print(
        f"  server CPU {result['server_cpu_seconds']} s "
        f"({result['server_cpu_ms_per_request']} ms a request); "
        f"{result['machine']}, load average {result['load_average']}"
    )
    for e in result["first_errors"]:
        print("  error:", e)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--watch", choices=("push", "poll", "none"), default="push")
    ap.add_argument("--nagle", action="store_true", help="serve as before TCP_NODELAY (protocol 0 socket)")
    ap.add_argument("--compare", action="store_true", help="Nagle + polling, Nagle + push, NODELAY + each")
    ap.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = ap.parse_args()
    if not (1 <= args.fights <= 200 and 0 < args.seconds <= 600):
        raise SystemExit("--fights 1 to 200, --seconds up to 600: a bounded test")
    settings = [(args.nagle, args.watch)]
    if args.compare:
        settings = [(True, "poll"), (False, "poll"), (True, "push"), (False, "push")]
    results = [measure(args.fights, args.seconds, nagle, watch) for nagle, watch in settings]
    if args.json:
        print(json.dumps(results if args.compare else results[0], indent=1))
    else:
        for r in results:
            report(r)
    ok = all(
        r["errors"] == 0 and not r["lost"] and r["events_acknowledged"] == r["events_stored"] for r in results
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
