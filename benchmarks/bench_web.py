"""Bounded load test of ``fracas serve`` on loopback: N concurrent fights driven through the HTTP API.

Starts the real server (``fracas serve --port 0 --db <tmp> --no-browser``, one uvicorn process), creates
``--fights`` fights from the bundled ED4 example, and for ``--seconds`` runs one client task per fight that
reads the game master's view and posts the next action (an automatic step or the tactic's turn, rolled on the
server), starting a new fight when one ends. Every request is timed.

At the end it checks that nothing was lost: for every fight, the events the server acknowledged add up to the
event rows in the fight's export (and the batches match one for one), and no request failed.

    python benchmarks/bench_web.py                       # 50 fights, 60 seconds
    python benchmarks/bench_web.py --fights 10 --seconds 5

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


def start_server(db: Path) -> tuple[subprocess.Popen, str, str]:
    code = "import sys; from fracas.cli import main; sys.exit(main())"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", "0", "--db", str(db), "--no-browser"],
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


async def driver(client: httpx.AsyncClient, stats: Stats, data: dict, seed: int, until: float) -> None:
    fid = await new_fight(client, stats, data, seed)
    while fid is not None and time.monotonic() < until:
        r = await timed(stats, client.get(f"/api/fights/{fid}/gm", params={"log": "false"}))
        if r is None:
            return
        view = r.json()
        if view["ended"]:
            stats.fights_done += 1
            seed += 1000
            fid = await new_fight(client, stats, data, seed)
            continue
        path = "advance" if view["waiting_for_dice"] else "tactic"
        r = await timed(stats, client.post(f"/api/fights/{fid}/{path}", json={"expected": view["seq"]}))
        if r is None:
            return
        body = r.json()
        stats.acked[fid].append((body["what"], body["events"]))


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


async def run(fights: int, seconds: float, base: str, token: str, pid: int) -> dict:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    stats = Stats()
    limits = httpx.Limits(max_connections=fights + 10, max_keepalive_connections=fights + 10)
    async with httpx.AsyncClient(
        base_url=base, headers={"X-Fracas-Token": token}, timeout=60, limits=limits
    ) as client:
        t0 = time.monotonic()
        cpu0 = cpu_seconds(pid)
        load0 = os.getloadavg()[0]
        until = t0 + seconds
        await asyncio.gather(*(driver(client, stats, data, i + 1, until) for i in range(fights)))
        elapsed = time.monotonic() - t0
        cpu = cpu_seconds(pid) - cpu0
        load = (load0 + os.getloadavg()[0]) / 2
        acked, found, problems = await verify(client, stats)
    lat = sorted(stats.latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
    return {
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, token = start_server(Path(tmp) / "load.sqlite3")
        try:
            result = asyncio.run(run(args.fights, args.seconds, base, token, proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        lat = result["latency_ms"]
        print(
            f"{result['fights_concurrent']} concurrent fights for {result['seconds']} s: "
            f"{result['requests']} requests, {result['requests_per_second']} requests/s, "
            f"latency p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms"
        )
        print(
            f"{result['actions_acknowledged']} actions acknowledged in {result['fights_started']} fights "
            f"({result['fights_finished']} finished); events acknowledged {result['events_acknowledged']}, "
            f"stored {result['events_stored']}; errors {result['errors']}; lost: {result['lost'] or 'none'}"
        )
        print(
            f"server CPU {result['server_cpu_seconds']} s "
            f"({result['server_cpu_ms_per_request']} ms a request); "
            f"{result['machine']}, load average {result['load_average']}"
        )
        for e in result["first_errors"]:
            print("error:", e)
    same = result["events_acknowledged"] == result["events_stored"]
    ok = result["errors"] == 0 and not result["lost"] and same
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
