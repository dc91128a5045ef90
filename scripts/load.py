"""Load test: start ``hukum serve`` and let N WebSocket clients (4 people per table) play
full deals against each other; report moves per second and move-to-update latency.

    .venv/bin/python scripts/load.py --clients 40 --seconds 20

Latency is measured from sending a move to receiving the ``move`` event for it (the
event is stored in the database before it is sent).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def client(url: str, stop: float, latencies: list[float], counts: list[int]) -> None:
    async with websockets.connect(url, max_queue=None) as ws:
        sent: float | None = None
        decided = -1
        while time.perf_counter() < stop:
            try:
                remaining = max(0.01, stop - time.perf_counter())
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=remaining))
            except TimeoutError:
                continue
            if message.get("type") == "error":
                sent = None
                decided = -1
            view = message.get("view")
            if message.get("type") not in ("state", "event") or view is None:
                continue
            if (
                sent is not None
                and message.get("kind") == "move"
                and message["seat"] == view["seat"]
            ):
                latencies.append(time.perf_counter() - sent)
                counts[0] += 1
                sent = None
            if message["event"] <= decided:
                continue
            if view["outcome"] is not None:
                if not message["table"]["seats"][view["seat"]]["ready"]:
                    decided = message["event"]
                    await ws.send(json.dumps({"type": "next_deal"}))
            elif view["turn"] == view["seat"] and view["legal"] and sent is None:
                decided = message["event"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": view["legal"][-1]}))


async def run(base: str, clients: int, seconds: float) -> tuple[float, list[float]]:
    urls: list[str] = []
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(clients // 4):
            made = (await http.post("/api/tables", json={"options": {"target": 1000}})).json()
            code = made["code"]
            urls.append(f"{base.replace('http', 'ws')}/ws/{code}?token={made['token']}")
            for seat in (1, 2, 3):
                taken = (await http.post(f"/api/tables/{code}/seats/{seat}", json={})).json()
                urls.append(f"{base.replace('http', 'ws')}/ws/{code}?token={taken['token']}")
            await http.post(f"/api/tables/{code}/start", json={"token": made["token"]})
    latencies: list[float] = []
    counts = [0]
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(client(u, stop, latencies, counts) for u in urls))
    return counts[0] / (min(time.perf_counter(), stop) - start), latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[40])
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = Path(tmp) / "load.db"
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hukum",
                "serve",
                "--port",
                str(port),
                "--bot-delay",
                "0",
                "--database-url",
                f"sqlite:///{db}",
                "--log-level",
                "warning",
                "--rooms-per-hour",  # every client of the load test comes from 127.0.0.1
                "1000000",
            ],
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    httpx.get(base + "/api/health")
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
            for n in args.clients:
                rate, lat = asyncio.run(run(base, n - n % 4, args.seconds))
                lat.sort()
                p50 = statistics.median(lat) * 1000 if lat else float("nan")
                p99 = lat[int(len(lat) * 0.99) - 1] * 1000 if lat else float("nan")
                print(f"clients {n:5d}  moves/s {rate:8.1f}  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms")
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
