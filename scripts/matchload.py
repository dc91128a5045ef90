"""Quick match under load (issue 43): N simulated people press "Play online", wait for their
table, play it and come back, over real HTTP and WebSockets on 127.0.0.1; print how long the
button takes to the first card, the share of seats given to computer players, whether any
player sat at two unfinished tables at once, the server's errors and the move-to-ack p99.

    .venv/bin/python scripts/matchload.py --people 500 --seconds 180

Each person is a guest (``POST /api/me/guest``, its own address in ``X-Forwarded-For``, as
people behind their own connections: the server trusts 127.0.0.1 as a proxy, and counts the
guests made per address). Then, until the run ends: press the button of a format chosen at
random among ``--formats`` (``POST /api/pool/<format>``), long-poll ``GET
/api/pool?wait=25`` until ``matched``, check the seat (``GET /api/tables/<code>``: ``you``
is a seat holding the person's name), open ``/ws/<code>`` with the session's cookie and a
hello without a token, play each turn after a think time (``--think``, uniform) with a
random legal move, and when the match is over think a little and press again. A share of
matches (``--leave``) the person leaves after a few moves: half of those leave the site,
half press the button again some seconds later and must be sent back to the same unfinished
table. After a match a share of people (``--depart``) leave the site; each who leaves is
replaced by a new person, so that N stay on the site.

Measured: seconds from the button to the table (``matched``) and to the first card played
at it as the person sees it (the first ``move`` event, or the state it connects to if a
card is already down), median and p95 per format; the share of seats given to computer
players (the table's seats when it is first seen); players at two unfinished tables at
once, from the clients (a new table while the last one, ``GET /api/tables/<code>``, is not
over and still the person's) and from the server's database after the run (each player's
``seat`` events to the ``match_over`` of their rooms: no two may overlap), and tables with
a seat given twice; HTTP answers 5xx and other errors; the move-to-ack latency (p50, p99;
moves sent in the first ``--ramp`` seconds, while people arrive, not counted); how many
people wait in the pools at once (sampled each second).

Modes: one ``hukum serve`` on a fresh SQLite (default); ``--cluster``: two ``hukum serve
--redis-url`` processes on ``--database-url`` (PostgreSQL) and a private ``redis-server``
(or ``--redis-url``), each person's requests and sockets going to one chosen at random;
``--url URL`` (repeatable): a server already running (``scripts/load.py --pool-people N``
uses it to put people in the pools beside its own clients).

    .venv/bin/python scripts/matchload.py --people 500 --seconds 180 --cluster \\
        --database-url "$(HUKUM_PG_DATABASE=hukum_load .ci/postgres.sh)"
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import itertools
import json
import os
import random
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import CLIENTS_GC, Server, free_port
from takeover import quantile

#: The session cookie's name (hukum.server.identity.sessions.COOKIE).
COOKIE = "hukum_session"

#: The quick-match pools (hukum.online.pools.POOLS).
FORMATS = ("mindi", "band", "ganjifa")

#: Seconds a long poll may wait at most (the contract's ``wait`` <= 25).
LONG_POLL = 25

#: One TLS context for every person's HTTP client (unused on http://, but made anyway).
SSL = ssl.create_default_context()


@dataclass
class Figures:
    """What the people measured, together."""

    since: float = 0.0
    """Moves sent before this time (while people arrive) are not counted."""
    to_table: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    to_card: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    seat_check: list[float] = field(default_factory=list)
    """Seconds ``GET /api/tables/<code>`` took after ``matched``."""
    handshake: list[float] = field(default_factory=list)
    """Seconds the socket's opening handshake took."""
    to_socket: list[float] = field(default_factory=list)
    """Seconds from the button to the table's first message on the person's socket."""
    to_play: list[float] = field(default_factory=list)
    """Seconds from that message to the first card (the table's start, as seen)."""
    tables: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    """Each table seen: its format, its seats and its computer players' seats."""
    over: set[str] = field(default_factory=set)
    """The tables whose match someone saw end."""
    latencies: list[float] = field(default_factory=list)
    server_errors: int = 0
    """HTTP answers 5xx, and sockets closed with 1011 or 4500."""
    errors: Counter[str] = field(default_factory=Counter)
    two_tables: int = 0
    wrong_seat: int = 0
    arrived: int = 0
    departed: int = 0
    left: int = 0
    came_back: int = 0
    waiting: int = 0
    """People between the button and their table, now."""
    waiting_samples: list[int] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    """How late the clients' own event loop woke up, each 0.1 s (their own delay)."""
    cpu: float = 0.0
    """The clients' CPU, a share of one core."""

    def error(self, code: str, detail: object = "") -> None:
        """Count an error; say the first few of each kind."""
        self.errors[code] += 1
        if self.errors[code] <= 3:
            print(f"error: {code} {detail}", file=sys.stderr)


class Stopped(Exception):
    """The run is over."""


class Person:
    """One simulated person: a guest who queues, plays and comes back until the run ends
    or they leave the site."""

    def __init__(
        self,
        number: int,
        bases: list[str],
        args: argparse.Namespace,
        figures: Figures,
        stop: float,
        rng: random.Random,
    ) -> None:
        self.rng = rng
        self.base = rng.choice(bases)
        self.bases = bases
        self.args = args
        self.figures = figures
        self.stop = stop
        # An address of the person's own (the server trusts 127.0.0.1's X-Forwarded-For).
        self.address = f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"
        self.http = httpx.AsyncClient(
            base_url=self.base,
            timeout=LONG_POLL + 35,
            headers={"X-Forwarded-For": self.address},
            verify=SSL,  # its own would take 0.1 s of the clients' loop to make (CA files)
        )
        self.name = ""
        self.token = ""
        self.last: tuple[str, bool] | None = None
        """The person's last table and whether they saw its match end."""

    async def request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any] | None:
        """An HTTP request; its JSON, or None after counting what went wrong."""
        try:
            r = await self.http.request(method, path, **kwargs)
        except httpx.HTTPError as e:
            self.figures.error(f"http {type(e).__name__}", f"{method} {path}")
            return None
        if r.status_code >= 500:
            self.figures.server_errors += 1
            print(f"5xx: {method} {path} {r.status_code} {r.text[:200]}", file=sys.stderr)
            return None
        if r.status_code >= 400:
            try:
                code = r.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = str(r.status_code)
            self.figures.error(code, f"{method} {path}: {r.text[:200]}")
            return None
        body: dict[str, Any] = r.json()
        return body

    async def live(self) -> None:
        """Arrive, then queue and play until the run ends or the person leaves the site."""
        self.figures.arrived += 1
        try:
            made = await self.request("POST", "/api/me/guest")
            token = self.http.cookies.get(COOKIE)
            if made is None or token is None:
                return
            self.name, self.token = made["player"]["name"], token
            while time.perf_counter() < self.stop:
                if not await self.one_match():
                    self.figures.departed += 1
                    return
                await self.pause(1.0, 4.0)
                if self.rng.random() < self.args.depart:
                    self.figures.departed += 1
                    return
        except Stopped:
            pass
        finally:
            await self.http.aclose()

    async def pause(self, low: float, high: float) -> None:
        """Think for a while; :class:`Stopped` if the run ends meanwhile."""
        wait = self.rng.uniform(low, high)
        if time.perf_counter() + wait >= self.stop:
            raise Stopped
        await asyncio.sleep(wait)

    async def one_match(self) -> bool:
        """Press the button, find the table, play it; whether the person stays on the site."""
        fmt = self.rng.choice(self.args.formats)
        pressed = time.perf_counter()
        self.figures.waiting += 1
        try:
            code = await self.queue(fmt)
        finally:
            self.figures.waiting -= 1
        if code is None:
            return False
        if self.last is not None and self.last[0] != code and not self.last[1]:
            await self.check_left_table(self.last[0])
        back = self.last is not None and self.last[0] == code and not self.last[1]
        if back:
            self.figures.came_back += 1
        else:
            matched = time.perf_counter()
            self.figures.to_table[fmt].append(matched - pressed)
            if not await self.check_seat(code, fmt):
                return False
            self.figures.seat_check.append(time.perf_counter() - matched)
        ended = await self.play(code, fmt, None if back else pressed)
        self.last = (code, ended == "over")
        if ended == "left":
            self.figures.left += 1
            if self.rng.random() < 0.5:
                return False  # gone for good: a computer player finishes the match
            await self.pause(2.0, 6.0)
            return await self.one_match()  # the button again: back to the same table
        return ended == "over"

    async def queue(self, fmt: str) -> str | None:
        """Join the pool and wait for a table: its code, or None (the run ended, an error)."""
        answer = await self.request("POST", f"/api/pool/{fmt}", json={})
        while answer is not None and answer.get("status") != "matched":
            status = answer.get("status")
            left = self.stop - time.perf_counter()
            if left <= 1:
                await self.request("DELETE", "/api/pool")
                raise Stopped
            if status in ("none", "requeue"):
                self.figures.error(f"pool {status}", fmt)
                answer = await self.request("POST", f"/api/pool/{fmt}", json={})
                continue
            wait = int(min(LONG_POLL, left))
            answer = await self.request("GET", f"/api/pool?wait={wait}")
        if answer is None:
            return None
        code: str = answer["code"]
        return code

    async def check_seat(self, code: str, fmt: str) -> bool:
        """The table says the person holds a seat named for them; count its computer
        players the first time anyone sees it."""
        table = await self.request("GET", f"/api/tables/{code}")
        if table is None:
            return False
        you, seats = table.get("you"), table["seats"]
        if not isinstance(you, int) or seats[you]["name"] != self.name:
            self.figures.wrong_seat += 1
            self.figures.error("wrong seat", f"{code}: you {you}, {self.name!r}, {seats}")
            return False
        if code not in self.figures.tables:
            bots = sum(s["kind"] == "bot" for s in seats)
            self.figures.tables[code] = (fmt, len(seats), bots)
        return True

    async def check_left_table(self, code: str) -> None:
        """A new table while the last one was left unfinished: that one must be over, or
        no longer the person's."""
        table = await self.request("GET", f"/api/tables/{code}")
        if table is not None and table["status"] != "over" and table.get("you") is not None:
            self.figures.two_tables += 1
            print(f"two tables: {self.name} still at {code}", file=sys.stderr)

    async def play(self, code: str, fmt: str, pressed: float | None) -> str:
        """Play at the table: ``over`` (the match ended), ``left`` (the person walked away
        mid-match) or ``dropped`` (the socket failed)."""
        figures = self.figures
        url = f"{self.rng.choice(self.bases).replace('http', 'ws')}/ws/{code}"
        headers = {"Cookie": f"{COOKIE}={self.token}", "X-Forwarded-For": self.address}
        leave = self.rng.randint(1, 6) if self.rng.random() < self.args.leave else None
        began = time.perf_counter()
        try:
            async with websockets.connect(
                url, additional_headers=headers, max_queue=None, open_timeout=60
            ) as ws:
                if pressed is not None:
                    self.figures.handshake.append(time.perf_counter() - began)
                await ws.send(json.dumps({"type": "hello"}))  # the session holds the seat
                return await self.turns(ws, code, fmt, pressed, leave)
        except websockets.ConnectionClosed as e:
            if e.rcvd is not None and e.rcvd.code in (1011, 4500):
                figures.server_errors += 1
            figures.error(f"socket closed {e.rcvd.code if e.rcvd else '?'}", f"{code} {e}")
            return "dropped"
        except (OSError, websockets.WebSocketException, TimeoutError) as e:
            figures.error(f"socket {type(e).__name__}", f"{code} {e}")
            return "dropped"

    async def turns(
        self,
        ws: websockets.ClientConnection,
        code: str,
        fmt: str,
        pressed: float | None,
        leave: int | None,
    ) -> str:
        """Answer the table's messages until the match is over (or the person leaves)."""
        figures = self.figures
        sent: dict[int, float] = {}
        latest: dict[str, Any] | None = None
        decided = -1
        ref = moves = 0
        carded = pressed is None
        opened = 0.0
        while True:
            remaining = self.stop - time.perf_counter()
            if remaining <= 0:
                raise Stopped
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=remaining))
            except TimeoutError as e:
                raise Stopped from e
            kind = message.get("type")
            if kind == "ack":
                at = sent.pop(message.get("ref"), None)
                if at is not None and at >= figures.since:
                    figures.latencies.append(time.perf_counter() - at)
            elif kind == "error":
                figures.error(message.get("error", {}).get("code", "?"), message)
                sent.pop(message.get("ref"), None)
                decided = -1
            elif kind in ("state", "event"):
                if latest is None and pressed is not None:
                    opened = time.perf_counter()
                    figures.to_socket.append(opened - pressed)
                latest = message
                view = message.get("view")
                if not carded and pressed is not None:
                    down = view is not None and bool(
                        view.get("trick")
                        or view.get("tricks_played")
                        or view.get("face_down_placed")
                    )
                    if message.get("kind") == "move" or (kind == "state" and down):
                        figures.to_card[fmt].append(time.perf_counter() - pressed)
                        figures.to_play.append(time.perf_counter() - opened)
                        carded = True
                if message.get("kind") == "match_over" or message["table"]["status"] == "over":
                    figures.over.add(code)
                    return "over"
            # Decide on the latest state, once its move is acknowledged (or refused).
            if latest is None or sent or latest["event"] <= decided:
                continue
            view = latest.get("view")
            if view is None or latest["table"]["status"] != "playing":
                continue
            out: dict[str, Any]
            if view["outcome"] is not None:
                if latest["table"]["seats"][view["seat"]]["ready"]:
                    continue
                out = {"type": "next_deal"}
            elif view["turn"] == view["seat"] and (view["legal"] or view.get("need")):
                if leave is not None and moves >= leave:
                    return "left"
                await self.pause(*self.args.think)
                if view.get("phase") == "answer":  # Ganjifa: the answer to a Dukal
                    move = "give " + " ".join(view["allowed"][: view["need"]])
                else:
                    move = self.rng.choice(view["legal"])
                out = {"type": "move", "move": move}
                moves += 1
            else:
                continue
            decided = latest["event"]
            ref += 1
            out["ref"] = ref
            sent[ref] = time.perf_counter()
            await ws.send(json.dumps(out))


async def crowd(bases: list[str], args: argparse.Namespace) -> Figures:
    """``args.people`` places on the site, each held by one person after another until
    ``args.seconds`` are over (people arrive over the first ``args.ramp`` seconds)."""
    start, cpu = time.perf_counter(), time.process_time()
    stop = start + args.seconds
    figures = Figures(since=start + args.ramp)
    rng = random.Random(args.seed)
    numbers = iter(range(1, 1 << 24))

    async def place() -> None:
        while time.perf_counter() < stop - 2:
            person = Person(next(numbers), bases, args, figures, stop, random.Random(rng.random()))
            await person.live()
            await asyncio.sleep(rng.uniform(0.5, 2.0))  # a new person comes

    async def sample() -> None:
        ticks = 0
        while time.perf_counter() < stop:
            asked = time.perf_counter()
            await asyncio.sleep(0.1)
            figures.lag.append(time.perf_counter() - asked - 0.1)
            ticks += 1
            if ticks % 10 == 0:
                figures.waiting_samples.append(figures.waiting)

    tasks = [asyncio.create_task(sample())]
    for _ in range(args.people):
        tasks.append(asyncio.create_task(place()))
        await asyncio.sleep(args.ramp / args.people)
    await asyncio.gather(*tasks)
    figures.cpu = (time.process_time() - cpu) / (time.perf_counter() - start)
    return figures


def seated_twice(database_url: str, since: dt.datetime) -> tuple[int, int, int]:
    """From the server's database, the rooms made since ``since``: the players seated at
    two rooms whose matches overlap (a seat event before the other's ``match_over``), the
    rooms with a seat given twice or a player at two seats, and the players seen."""
    from sqlalchemy import create_engine, select

    from hukum.server.db import EventRow, Room

    engine = create_engine(database_url)
    with engine.connect() as c:
        rows = c.execute(
            select(EventRow.room, EventRow.kind, EventRow.data, EventRow.created_at)
            .join(Room, Room.code == EventRow.room)
            .where(EventRow.kind.in_(["seat", "match_over"]))
        ).all()
    engine.dispose()

    def utc(t: dt.datetime) -> dt.datetime:
        return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)

    end: dict[str, dt.datetime] = {}
    seats: dict[str, list[tuple[int, str | None, dt.datetime]]] = defaultdict(list)
    for room, kind, data, at in rows:
        if kind == "match_over":
            end[room] = utc(at)
        else:
            seats[room].append((data["seat"], data.get("player"), utc(at)))
    spans: dict[str, list[tuple[dt.datetime, dt.datetime]]] = defaultdict(list)
    doubled = 0
    never = dt.datetime.max.replace(tzinfo=dt.UTC)
    for room, taken in seats.items():
        if min(at for _, _, at in taken) < since:
            continue
        numbers = [s for s, _, _ in taken]
        players = [p for _, p, _ in taken if p]
        doubled += len(set(numbers)) != len(numbers) or len(set(players)) != len(players)
        for _, player, at in taken:
            if player:
                spans[player].append((at, end.get(room, never)))
    twice = 0
    for player_spans in spans.values():
        player_spans.sort()
        twice += any(b[0] < a[1] for a, b in itertools.pairwise(player_spans))
    return twice, doubled, len(spans)


def report(
    figures: Figures, args: argparse.Namespace, checked: tuple[int, int, int] | None
) -> None:
    """Print the figures."""
    print(
        f"{'format':8s} {'tables':>6s} {'over':>6s}  {'button->table p50 / p95 (people)':>33s}"
        f"  {'button->first card p50 / p95 (people)':>38s}  {'computer seats':>14s}"
    )

    def spread(values: list[float]) -> str:
        median = statistics.median(values) if values else float("nan")
        return f"{median:6.2f} / {quantile(values, 0.95):6.2f} s ({len(values):5d})"

    for fmt in [*args.formats, "all"]:
        formats = args.formats if fmt == "all" else [fmt]
        table = [x for f in formats for x in figures.to_table[f]]
        card = [x for f in formats for x in figures.to_card[f]]
        mine = [t for t in figures.tables.values() if t[0] in formats]
        over = sum(figures.tables[c][0] in formats for c in figures.over if c in figures.tables)
        seats, bots = sum(t[1] for t in mine), sum(t[2] for t in mine)
        share = f"{bots / seats:.1%}" if seats else "-"
        print(
            f"{fmt:8s} {len(mine):6d} {over:6d}  {spread(table):>33s}  {spread(card):>38s}"
            f"  {share:>14s}"
        )
    print(
        f"on the way: GET /api/tables/<code> {spread(figures.seat_check)}; the socket's "
        f"handshake {spread(figures.handshake)}; button->the table's first message on the "
        f"socket {spread(figures.to_socket)}; then to the first card {spread(figures.to_play)}"
    )
    lat = figures.latencies
    print(
        f"move->ack p50 {quantile(lat, 0.5) * 1000:.1f} ms"
        f"  p99 {quantile(lat, 0.99) * 1000:.1f} ms  ({len(lat)} moves; the clients' CPU "
        f"{figures.cpu:.0%}, their loop late by p99 {quantile(figures.lag, 0.99) * 1000:.0f} ms)"
    )
    samples = figures.waiting_samples
    print(
        f"people: {figures.arrived} arrived, {figures.departed} left the site, "
        f"{figures.left} left a match midway ({figures.came_back} came back to it); "
        f"waiting in the pools at once: mean {statistics.fmean(samples) if samples else 0:.0f}, "
        f"most {max(samples, default=0)}"
    )
    if checked is None:
        print(f"players at two unfinished tables: {figures.two_tables} (the clients' check)")
    else:
        twice, doubled, players = checked
        print(
            f"players at two unfinished tables: {figures.two_tables + twice} (the clients' "
            f"check {figures.two_tables}; the database's {twice} of {players} players); "
            f"tables seated twice: {doubled}"
        )
    errors = ", ".join(f"{k} {v}" for k, v in sorted(figures.errors.items())) or "none"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"the machine's load average at the end: {load} (1, 5, 15 min)")
    print(f"5xx: {figures.server_errors}  wrong seats: {figures.wrong_seat}  errors: {errors}")


class Redis:
    """A private ``redis-server`` on a free port, nothing saved."""

    def __init__(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.port = free_port()
        command = [server, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]  # nothing written to disk
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=500, help="people on the site at once")
    parser.add_argument("--seconds", type=float, default=60, help="the run's length")
    parser.add_argument("--ramp", type=float, default=10, help="seconds the people arrive in")
    parser.add_argument(
        "--formats", nargs="+", choices=FORMATS, default=list(FORMATS), help="pools played"
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(0.3, 1.5),
        metavar=("LOW", "HIGH"),
        help="seconds a person thinks before a move (uniform; default 0.3 1.5)",
    )
    parser.add_argument(
        "--leave", type=float, default=0.05, help="share of matches left midway (default 0.05)"
    )
    parser.add_argument(
        "--depart",
        type=float,
        default=0.2,
        help="share of people leaving the site after a match, each replaced (default 0.2)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.2, help="the server's --bot-delay")
    parser.add_argument("--pool-countdown", type=float, help="the server's --pool-countdown")
    parser.add_argument("--cluster", action="store_true", help="two processes, Redis")
    parser.add_argument("--database-url", help="PostgreSQL for --cluster (or one process)")
    parser.add_argument("--redis-url", help="--cluster's Redis (default: a private one)")
    parser.add_argument(
        "--url", action="append", help="a running server instead (repeat for a cluster)"
    )
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    if args.cluster and not args.database_url:
        parser.error("--cluster needs --database-url (PostgreSQL)")
    gc.set_threshold(*CLIENTS_GC)  # the clients' pauses are not the server's latency
    processes = 2 if args.cluster else 1
    where = (
        f"the server(s) at {' '.join(args.url)}"
        if args.url
        else f"{processes} process(es), {'PostgreSQL' if args.database_url else 'SQLite'}"
    )
    print(
        f"matchload: {args.people} people, formats {' '.join(args.formats)}, think "
        f"{args.think[0]:g}-{args.think[1]:g} s, {args.seconds:g} s ({args.ramp:g} s arriving), "
        f"leave {args.leave:.0%} of matches, depart {args.depart:.0%}, {where}",
        flush=True,
    )
    since = dt.datetime.now(dt.UTC)
    if args.url:
        figures = asyncio.run(crowd(args.url, args))
        checked = seated_twice(args.database_url, since) if args.database_url else None
        report(figures, args, checked)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        redis = Redis() if args.cluster and not args.redis_url else None
        redis_url = args.redis_url or (redis.url if redis else None)
        extra = ["--pool-countdown", str(args.pool_countdown)] if args.pool_countdown else []
        servers: list[Server] = []
        try:
            for _ in range(processes):
                servers.append(
                    Server(tmp, args.database_url, args.bot_delay, None, redis_url, extra)
                )
            cpu = sum(s.cpu() for s in servers)
            began = time.perf_counter()
            figures = asyncio.run(crowd([s.base for s in servers], args))
            used = (sum(s.cpu() for s in servers) - cpu) / (time.perf_counter() - began)
            rss = sum(s.rss() for s in servers)
        finally:
            for s in servers:
                s.stop()
            if redis is not None:
                redis.stop()
        url = args.database_url or f"sqlite:///{Path(tmp) / 'load.db'}"
        report(figures, args, seated_twice(url, since))
        print(f"server CPU {used:.0%} (of one core)  RSS {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
