"""Takeover under kill -9: two ``hukum serve`` processes on one PostgreSQL database and a
private Redis server; each round, K tables owned by one process are played by clients
connected to the other, the owner is killed with SIGKILL in the middle of the play, and the
clients reconnect (on the ``reconnect`` message, or a dropped socket) with the last event
they saw and play on. Prints the time from the kill to each table's next move at its
client, and checks that no move was lost and none duplicated.

    .venv/bin/python scripts/takeover.py --database-url "$(.ci/postgres.sh)" --rounds 20 --tables 8

Rounds alternate the process killed (A, then B, ...): the tables are created through the
process to be killed (so it owns them) and their clients connect to the other, which relays
(``--via owner``: to the owner itself, whose sockets then drop; ``--via both``: half and
half). The killed process is started again (a new process, same port) before the next round.

Time to resume: from the kill to the first ``move`` event the client receives that the
killed process had not stored (the events' ``created_at`` in the log tells which it stored).
At the end, for every table: the event log is numbered 1..n without a gap; every move a
client got an ``ack`` for is in the log, as the move it sent (else it counts as lost); every
event a client was told matches the log, and the numbers a client was told rise by one,
after a reconnection too (a number not above the last one counts as duplicated, one further
on as a gap); the record of the finished deals reads back (the engine replays every move).
Exit status 1 if anything was lost, duplicated, out of order, or a table never resumed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import redis
import websockets
from sqlalchemy import select

from hukum.server.db import EventRow, Store, make_engine

#: Where the clients connect first (``--via``).
VIA = {
    "other": "the process not killed",
    "owner": "the process killed",
    "both": "either process, half and half",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``; NaN if there is none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


class Redis:
    """A private ``redis-server`` on a free port, saving nothing."""

    def __init__(self, logs: Path) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.port = free_port()
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(logs)]
        self.proc = subprocess.Popen(
            command,
            stdout=(logs / "redis.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.client = redis.Redis.from_url(self.url, decode_responses=True)
        for _ in range(200):
            try:
                self.client.ping()
                return
            except redis.ConnectionError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start (see {logs / 'redis.log'})")

    def owner(self, code: str) -> str | None:
        owner = self.client.get(f"hukum:owner:{code}")
        return None if owner is None else str(owner)

    def stop(self) -> None:
        self.client.close()
        self.proc.terminate()
        self.proc.wait()


class Node:
    """One ``hukum serve`` process of the two, on a fixed port (a restart reuses it)."""

    def __init__(self, label: str, args: argparse.Namespace, redis_url: str, logs: Path) -> None:
        self.label = label
        self.port = free_port()
        self.command = [sys.executable, "-m", "hukum", "serve", "--port", str(self.port)]
        self.command += ["--database-url", args.database_url, "--redis-url", redis_url]
        self.command += ["--bot-delay", str(args.bot_delay), "--log-level", "warning"]
        self.command += ["--rooms-per-hour", "1000000"]  # every client here is 127.0.0.1
        self.logs = logs
        self.starts = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.name = ""
        """The process's name in the cluster (``GET /api/health``)."""

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{code}"

    def log(self, start: int | None = None) -> Path:
        return self.logs / f"{self.label}-{self.starts if start is None else start}.log"

    def start(self) -> None:
        self.starts += 1
        out = self.log().open("wb")
        self.proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT)
        for _ in range(1200):
            try:
                self.name = httpx.get(self.http + "/api/health", timeout=2).json()["process"]
                return
            except (httpx.HTTPError, KeyError, ValueError):
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError(f"{self.label} did not start: {self.log().read_text()[-2000:]}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class Seen:
    """A ``state`` or ``event`` message a client received."""

    at: float
    """time.time() when it was read."""
    type: str
    event: int
    kind: str | None
    seat: int | None
    move: str | None
    connection: int
    """Which of the client's connections it came on (1, 2, ...)."""


@dataclass
class Client:
    """One person alone with three bots at one table (the lobby's *Play now*): plays a
    random legal move at each turn and says ready between deals; reconnects with ``last``
    when told to or when its socket drops."""

    code: str
    token: str
    first: str
    """The socket's URL for the first connection."""
    then: str
    """... and for every later one."""
    rng: random.Random
    seen: list[Seen] = field(default_factory=list)
    acked: dict[int, str] = field(default_factory=dict)
    """Event number -> the move the client sent, for each move acknowledged."""
    sent: dict[int, str] = field(default_factory=dict)
    """ref -> the move sent ('' for next_deal)."""
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: list[float] = field(default_factory=list)
    """When a ``reconnect`` message came."""
    closes: list[tuple[float, int | None]] = field(default_factory=list)
    connections: int = 0
    latest: dict[str, Any] | None = None
    last: int | None = None
    pending: bool = False
    decided: int = -1
    ref: int = 0
    stopping: bool = False
    ws: websockets.ClientConnection | None = None

    def moves_seen(self, after_connection: int = 0) -> int:
        return sum(1 for s in self.seen if s.kind == "move" and s.connection > after_connection)

    def mid_deal(self) -> bool:
        view = (self.latest or {}).get("view")
        return view is not None and view["outcome"] is None

    async def run(self) -> None:
        while not self.stopping:
            url = self.first if self.connections == 0 else self.then
            close: int | None = None
            try:
                async with websockets.connect(url, open_timeout=5, max_queue=None) as ws:
                    self.ws = ws
                    self.connections += 1
                    hello: dict[str, Any] = {"type": "hello", "token": self.token}
                    if self.last is not None:
                        hello["last"] = self.last
                    await ws.send(json.dumps(hello))
                    # An unanswered move is seen again in the events; an up-to-date table
                    # sends nothing, so decide on what was seen.
                    self.pending, self.decided = False, -1
                    await self.decide(ws)
                    try:
                        async for text in ws:
                            await self.take(ws, json.loads(text), time.time())
                    except websockets.ConnectionClosed:
                        pass
                    close = ws.close_code
            except (OSError, websockets.WebSocketException, TimeoutError):
                close = None
            self.ws = None
            self.closes.append((time.time(), close))
            if not self.stopping:
                await asyncio.sleep(0.05)

    async def stop(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()

    async def take(self, ws: websockets.ClientConnection, m: dict[str, Any], at: float) -> None:
        kind = m.get("type")
        if kind == "reconnect":
            self.reconnects.append(at)
            return
        if kind in ("state", "event"):
            self.seen.append(
                Seen(
                    at,
                    kind,
                    m["event"],
                    m.get("kind"),
                    m.get("seat"),
                    m.get("move"),
                    self.connections,
                )
            )
            if self.last is None or m["event"] > self.last or kind == "state":
                self.latest, self.last = m, m["event"]
        elif kind == "ack":
            text = self.sent.get(m.get("ref") or 0)
            if text:
                self.acked[m["event"]] = text
            self.pending = False
        elif kind == "error":
            self.errors[m.get("error", {}).get("code", "?")] += 1
            self.pending = False
        await self.decide(ws)

    async def decide(self, ws: websockets.ClientConnection) -> None:
        m = self.latest
        if self.pending or self.stopping or m is None or m["event"] <= self.decided:
            return
        view, table = m.get("view"), m.get("table") or {}
        if view is None or table.get("status") != "playing":
            return
        out: dict[str, Any]
        if view["outcome"] is not None:
            if table["seats"][view["seat"]].get("ready"):
                return
            out = {"type": "next_deal"}
        elif view["turn"] == view["seat"] and view["legal"]:
            out = {"type": "move", "move": self.rng.choice(view["legal"]), "event": m["event"]}
        else:
            return
        self.decided, self.pending = m["event"], True
        self.ref += 1
        out["ref"] = self.ref
        self.sent[self.ref] = out.get("move", "")
        try:
            await ws.send(json.dumps(out))
        except websockets.ConnectionClosed:
            self.pending = False


@dataclass
class Round:
    """What one round measured."""

    victim: str
    clients: list[Client]
    killed_at: float
    mid_deal: int
    resume: dict[str, float | None] = field(default_factory=dict)
    """Per table: seconds from the kill to the first new move at its client (None: never)."""


async def wait_until(condition: Any, timeout: float) -> bool:
    stop = time.monotonic() + timeout
    while time.monotonic() < stop:
        if condition():
            return True
        await asyncio.sleep(0.02)
    return bool(condition())


async def play_round(
    number: int, victim: Node, survivor: Node, args: argparse.Namespace, store: Store, r: Redis
) -> Round:
    rng = random.Random(number)
    body = {"name": "takeover", "start_now": True, "options": {"target": 1000}}
    clients = []
    async with httpx.AsyncClient(base_url=victim.http, timeout=30) as http:
        for k in range(args.tables):
            made = (await http.post("/api/tables", json=body)).json()
            code = made["code"]
            owner = r.owner(code)
            if owner != victim.name:
                print(f"  table {code}: owned by {owner}, not {victim.name}", file=sys.stderr)
            on_owner = args.via == "owner" or (args.via == "both" and k % 2 == 1)
            first = victim.ws(code) if on_owner else survivor.ws(code)
            clients.append(Client(code, made["token"], first, survivor.ws(code), rng))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    try:
        started = await wait_until(
            lambda: all(c.moves_seen() >= args.moves_before for c in clients), 60
        )
        if not started:
            counts = [c.moves_seen() for c in clients]
            raise RuntimeError(f"the tables did not play (move events per table: {counts})")
        await asyncio.sleep(rng.uniform(0, 0.5))  # the kill falls anywhere in a turn
        connections = {c.code: c.connections for c in clients}
        mid_deal = sum(c.mid_deal() for c in clients)
        killed_at = time.time()
        victim.kill()
        dead_at = time.time()  # whatever it stored, it stored before this
        await wait_until(
            lambda: all(
                c.moves_seen(after_connection=connections[c.code]) >= args.moves_after
                for c in clients
            ),
            args.resume_timeout,
        )
    finally:
        for c in clients:
            await c.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
    done = Round(victim.label, clients, killed_at, mid_deal)
    engine = store.engine
    for c in clients:
        with engine.connect() as db:
            rows = db.execute(
                select(EventRow.number, EventRow.created_at).where(EventRow.room == c.code)
            ).all()
        stored = [n for n, at in rows if at.timestamp() <= dead_at]
        before = max(stored, default=0)
        new = [s.at for s in c.seen if s.kind == "move" and s.event > before]
        done.resume[c.code] = min(new) - killed_at if new else None
    return done


@dataclass
class Checked:
    acked: int = 0
    lost: int = 0
    duplicated: int = 0
    gaps: int = 0
    mismatched: int = 0
    events: int = 0
    log_gaps: int = 0
    records: int = 0
    bad_records: int = 0
    notes: list[str] = field(default_factory=list)


def check(clients: list[Client], store: Store, node: Node) -> Checked:
    """Every table's log against what its client was told and acknowledged."""
    out = Checked()
    for c in clients:
        log = store.events(c.code)
        if [e.number for e in log] != list(range(1, len(log) + 1)):
            out.log_gaps += 1
            out.notes.append(f"{c.code}: the log's numbers are not 1..{len(log)}")
        by_number = {e.number: e for e in log}
        for number, text in sorted(c.acked.items()):
            out.acked += 1
            e = by_number.get(number)
            if e is None or e.kind != "move" or e.data.get("seat") != 0:
                out.lost += 1
                out.notes.append(f"{c.code}: acked move {text} (event {number}) not in the log")
            elif e.data.get("move") != text:
                out.lost += 1
                out.notes.append(
                    f"{c.code}: event {number} holds {e.data.get('move')}, the client sent {text}"
                )
        previous: int | None = None
        for s in c.seen:
            out.events += 1
            e = by_number.get(s.event)
            if e is None or (s.type == "event" and e.kind != s.kind):
                out.mismatched += 1
                out.notes.append(f"{c.code}: told {s.kind} {s.event}, the log has {e}")
            elif s.kind == "move" and (
                e.data.get("seat") != s.seat
                or ("??" not in (s.move or "") and e.data.get("move") != s.move)
            ):
                out.mismatched += 1
                out.notes.append(f"{c.code}: told move {s.seat} {s.move} at {s.event}, log {e}")
            if previous is not None:
                if s.type == "event" and s.event <= previous:
                    out.duplicated += 1
                    out.notes.append(f"{c.code}: event {s.event} told again (after {previous})")
                    continue
                if s.type == "event" and s.event > previous + 1:
                    out.gaps += 1
                    out.notes.append(f"{c.code}: events {previous + 1}..{s.event - 1} never told")
                if s.type == "state" and s.event < previous:
                    out.duplicated += 1
                    out.notes.append(f"{c.code}: state {s.event} went back from {previous}")
                    continue
            previous = s.event
        answer = httpx.get(f"{node.http}/api/tables/{c.code}/record", timeout=30)
        if answer.status_code == 200:
            out.records += len(answer.json()["deals"])
        else:
            out.bad_records += 1
            out.notes.append(f"{c.code}: record {answer.status_code} {answer.text[:200]}")
    return out


def errors_in(path: Path) -> list[str]:
    """The lines of a server log that say something went wrong."""
    if not path.exists():
        return []
    lines = path.read_text(errors="replace").splitlines()
    return [line for line in lines if "ERROR" in line or "Traceback" in line]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("HUKUM_TEST_POSTGRES_URL"),
        help="PostgreSQL URL (default $HUKUM_TEST_POSTGRES_URL; .ci/postgres.sh prints one)",
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tables", type=int, default=8, help="tables a round")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument(
        "--via",
        choices=["other", "owner", "both"],
        default="other",
        help="where the clients connect first: the process not killed (default), the owner "
        "(killed: the socket drops), or half and half",
    )
    parser.add_argument(
        "--moves-before", type=int, default=10, help="moves each table plays before the kill"
    )
    parser.add_argument(
        "--moves-after",
        type=int,
        default=52,
        help="moves each table plays after it resumed (52: the deal of the kill ends)",
    )
    parser.add_argument(
        "--resume-timeout", type=float, default=30, help="seconds a table may take to resume"
    )
    parser.add_argument("--logs", help="keep the servers' logs in this directory")
    args = parser.parse_args()
    if not args.database_url:
        parser.error("--database-url (or HUKUM_TEST_POSTGRES_URL) is required")
    if not args.database_url.startswith("postgresql"):
        parser.error("--database-url: several processes need PostgreSQL")

    logs = Path(args.logs or tempfile.mkdtemp(prefix="takeover-"))
    logs.mkdir(parents=True, exist_ok=True)
    print(
        f"takeover: {args.rounds} rounds of {args.tables} tables, bot delay {args.bot_delay} s, "
        f"clients first on {VIA[args.via]}; "
        f"logs in {logs}",
        flush=True,
    )
    store = Store(make_engine(args.database_url))
    r = Redis(logs)
    nodes = [Node("A", args, r.url, logs), Node("B", args, r.url, logs)]
    rounds: list[Round] = []
    failed = ""
    try:
        for node in nodes:
            node.start()
        for number in range(1, args.rounds + 1):
            victim, survivor = nodes[(number - 1) % 2], nodes[number % 2]
            done = asyncio.run(play_round(number, victim, survivor, args, store, r))
            rounds.append(done)
            waits = [t for t in done.resume.values() if t is not None]
            told = [min(c.reconnects) - done.killed_at for c in done.clients if c.reconnects]
            never = len(done.resume) - len(waits)
            print(
                f"round {number:3d}: kill -9 {victim.label} ({done.mid_deal}/{args.tables} "
                f"tables mid-deal); resumed after {min(waits, default=math.nan):.2f}"
                f"-{max(waits, default=math.nan):.2f} s"
                + (f", told to reconnect after {statistics.median(told):.2f} s" if told else "")
                + (f"; {never} never resumed" if never else ""),
                flush=True,
            )
            victim.start()
    except RuntimeError as e:
        failed = str(e)
        print("failed:", failed, file=sys.stderr)
    clients = [c for done in rounds for c in done.clients]
    live = next((n for n in nodes if n.proc is not None and n.proc.poll() is None), None)
    checked = check(clients, store, live) if live is not None and clients else Checked()
    for node in nodes:
        node.stop()
    r.stop()

    waits = [t for done in rounds for t in done.resume.values() if t is not None]
    never = sum(1 for done in rounds for t in done.resume.values() if t is None)
    errors = Counter[str]()
    closes = Counter[str]()  # how the clients' sockets ended, but the last (closed by them)
    for c in clients:
        errors.update(c.errors)
        closes.update("dropped" if code is None else str(code) for _, code in c.closes[:-1])
    logged = [
        line for node in nodes for n in range(1, node.starts + 1) for line in errors_in(node.log(n))
    ]
    print(
        f"rounds {len(rounds)}, tables {len(clients)}, moves acked {checked.acked}, "
        f"events told {checked.events}, finished deals read back {checked.records}"
    )
    print(
        f"lost {checked.lost}, duplicated {checked.duplicated}, gaps {checked.gaps}, "
        f"mismatched {checked.mismatched}, log gaps {checked.log_gaps}, "
        f"unreadable records {checked.bad_records}, never resumed {never}"
    )
    print(
        f"time to resume (kill -9 to the table's next move at its client): "
        f"p50 {quantile(waits, 0.5):.2f} s, p95 {quantile(waits, 0.95):.2f} s, "
        f"max {max(waits, default=math.nan):.2f} s"
    )
    print(
        "client errors: "
        + (", ".join(f"{k} {v}" for k, v in sorted(errors.items())) or "none")
        + "; sockets closed by the server: "
        + (", ".join(f"{k} {v}" for k, v in sorted(closes.items())) or "none")
        + f"; server log lines with ERROR or Traceback: {len(logged)}"
    )
    for note in checked.notes[:20]:
        print("  ", note)
    for line in logged[:10]:
        print("   log:", line)
    bad = (
        checked.lost
        + checked.duplicated
        + checked.gaps
        + checked.mismatched
        + checked.log_gaps
        + checked.bad_records
        + never
    )
    if bad or failed:
        return 1
    if not args.logs:
        shutil.rmtree(logs, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
