"""The daily challenge under load (issue 42): N simulated account holders play the day's
deals at once, each alone with the expert at three seats, over real HTTP and WebSockets on
127.0.0.1; print the expert's decision time (p50, p95), the people's move-to-ack latency
(p50, p99), the server's errors, the deals finished and the server's CPU.

    .venv/bin/python scripts/challengeload.py --people 300 --seconds 180

Each person arrives (over ``--ramp`` seconds) as a guest (``POST /api/me/guest``) and claims
an account (``POST /api/account/claim``, user name and password), from an address of their
own in ``X-Forwarded-For`` as people behind their own connections (the server trusts
127.0.0.1 as a proxy; the claim limit, ``claim`` in hukum.server.throttle.RATES, counts per
address, so it is never reached and the server runs with its limits as they are). Then
``GET /api/challenge`` and the day's deals one after the other: ``POST
/api/challenge/<day>/deals/<n>/play``, the table's socket ``/ws/<code>`` with the session's
cookie and a hello without a token, a random legal card at each turn after a think time
(``--think``, uniform), the next deal after a pause once the table is over; until the run
ends (``--seconds``) or the eight deals are played.

Measured: the expert's decision time, seen by the person (from the event before the
expert's move, the person's own move or the deal, to the expert's ``move`` event) and by
the server (the same two events' times in its database after the run, each written as its
batch is stored); both include the server's ``--bot-delay`` wait before a computer player
plays, the script also prints them less it. The move-to-ack latency of the people's moves
(moves sent in the first ``--ramp`` seconds, while people arrive and claim, not counted),
HTTP answers 5xx and sockets closed 1011/4500, other errors, deals started and finished,
the server process's CPU (share of one core) and memory.

``--database-url URL``: the server on that database (PostgreSQL) instead of a fresh SQLite
file. ``--url URL``: a server already running (its database is not read then).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import json
import math
import os
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import CLIENTS_GC, Server
from matchload import COOKIE, Figures, Person, Stopped
from takeover import quantile

#: The seat a person holds at a challenge table (hukum.online.challenge.SEAT).
SEAT = 0


@dataclass
class Tally(Figures):
    """What the people measured: :class:`matchload.Figures` (latencies, errors, 5xx, the
    clients' own CPU and loop lag) and the challenge's own figures."""

    expert: list[float] = field(default_factory=list)
    """Seconds from the event before an expert's move to that move's event, as seen."""
    accounts: int = 0
    started: int = 0
    finished: int = 0
    day: str = ""
    claiming: float = 0.0
    """Seconds the accounts took to make, before the run."""
    measured_from: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    """When the people had all arrived (the server's events counted from then)."""
    server_cpu: float = math.nan
    """The server process's CPU during the run, a share of one core."""


class Player(Person):
    """One simulated person with an account who plays the day's deals in order."""

    figures: Tally

    async def claim(self) -> bool:
        """Arrive as a guest and claim an account: whether it was made."""
        self.figures.arrived += 1
        if await self.request("POST", "/api/me/guest") is None:
            return False
        name = f"load{secrets.token_hex(3)}{self.address.replace('.', '')[2:]}"
        body = {"username": name[:20], "password": f"pw-{secrets.token_urlsafe(12)}"}
        claimed = await self.request("POST", "/api/account/claim", json=body)
        token = self.http.cookies.get(COOKIE)
        if claimed is None or token is None:
            return False
        self.token = token
        self.figures.accounts += 1
        return True

    async def live(self) -> None:
        """Play the day's deals one after the other until the run ends."""
        figures = self.figures
        try:
            challenge = await self.request("GET", "/api/challenge")
            if challenge is None:
                return
            figures.day = day = challenge["day"]
            for deal in challenge["deals"]:
                if time.perf_counter() >= self.stop - 1:
                    break
                started = await self.request(
                    "POST", f"/api/challenge/{day}/deals/{deal['number']}/play"
                )
                if started is None:
                    return
                figures.started += 1
                if await self.play_deal(started["code"]):
                    figures.finished += 1
                await self.pause(1.0, 4.0)
        except Stopped:
            pass
        finally:
            await self.http.aclose()

    async def play_deal(self, code: str) -> bool:
        """Play the table's deal to its end: whether it ended (not the run nor a failure)."""
        url = f"{self.base.replace('http', 'ws')}/ws/{code}"
        headers = {"Cookie": f"{COOKIE}={self.token}", "X-Forwarded-For": self.address}
        try:
            async with websockets.connect(
                url, additional_headers=headers, max_queue=None, open_timeout=60
            ) as ws:
                await ws.send(json.dumps({"type": "hello"}))  # the session holds seat 0
                return await self.turns_of(ws)
        except websockets.ConnectionClosed as e:
            if e.rcvd is not None and e.rcvd.code in (1011, 4500):
                self.figures.server_errors += 1
            self.figures.error(f"socket closed {e.rcvd.code if e.rcvd else '?'}", f"{code} {e}")
        except (OSError, websockets.WebSocketException, TimeoutError) as e:
            self.figures.error(f"socket {type(e).__name__}", f"{code} {e}")
        return False

    async def turns_of(self, ws: websockets.ClientConnection) -> bool:
        """Answer the table until its deal (its match) is over; the expert's decision times
        are taken on the way."""
        figures = self.figures
        sent: dict[int, float] = {}
        latest: dict[str, Any] | None = None
        decided = ref = 0
        previous: float | None = None  # when the last event of the deal came
        while True:
            remaining = self.stop - time.perf_counter()
            if remaining <= 0:
                raise Stopped
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=remaining))
            except TimeoutError as e:
                raise Stopped from e
            at = time.perf_counter()
            kind = message.get("type")
            if kind == "ack":
                was = sent.pop(message.get("ref"), None)
                if was is not None and was >= figures.since:
                    figures.latencies.append(at - was)
                continue
            if kind == "error":
                figures.error(message.get("error", {}).get("code", "?"), message)
                sent.pop(message.get("ref"), None)
                decided = 0
                continue
            if kind not in ("state", "event"):
                continue
            latest = message
            if kind == "event":
                expert = message.get("kind") == "move" and message.get("seat") != SEAT
                if expert and previous is not None and previous >= figures.since:
                    figures.expert.append(at - previous)
                previous = at
            if message.get("kind") == "match_over" or message["table"]["status"] == "over":
                return True
            view = latest.get("view")
            if sent or view is None or latest["event"] <= decided:
                continue
            if latest["table"]["status"] != "playing" or view["outcome"] is not None:
                continue
            if view["turn"] != view["seat"] or not view["legal"]:
                continue
            await self.pause(*self.args.think)
            decided = latest["event"]
            ref += 1
            sent[ref] = time.perf_counter()
            move = self.rng.choice(view["legal"])
            await ws.send(json.dumps({"type": "move", "move": move, "ref": ref}))


async def crowd(
    base: str, args: argparse.Namespace, server_cpu: Callable[[], float] | None = None
) -> Tally:
    """Make ``args.people`` accounts (``args.claims`` at a time), then let them play, arriving
    over ``args.ramp`` seconds, until ``args.seconds`` are over; ``server_cpu``: the server
    process's CPU seconds so far, read as the run begins and ends."""
    tally = Tally()
    rng = random.Random(args.seed)
    people = [
        Player(n, [base], args, tally, math.inf, random.Random(rng.random()))
        for n in range(1, args.people + 1)
    ]
    began, at_once = time.perf_counter(), asyncio.Semaphore(args.claims)

    async def claim(person: Player) -> bool:
        async with at_once:
            return await person.claim()

    made = await asyncio.gather(*(claim(p) for p in people))
    tally.claiming = time.perf_counter() - began
    print(f"{sum(made)} accounts claimed in {tally.claiming:.0f} s; playing", flush=True)
    start, cpu = time.perf_counter(), time.process_time()
    served = server_cpu() if server_cpu is not None else 0.0
    stop = start + args.seconds
    tally.since = start + args.ramp
    tally.measured_from = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=args.ramp)

    async def sample() -> None:
        while time.perf_counter() < stop:
            asked = time.perf_counter()
            await asyncio.sleep(0.1)
            tally.lag.append(time.perf_counter() - asked - 0.1)

    tasks = [asyncio.create_task(sample())]
    for person, ok in zip(people, made, strict=True):
        person.stop = stop
        if ok:
            tasks.append(asyncio.create_task(person.live()))
            await asyncio.sleep(args.ramp / args.people)
        else:
            await person.http.aclose()
    await asyncio.gather(*tasks)
    took = time.perf_counter() - start
    tally.cpu = (time.process_time() - cpu) / took
    if server_cpu is not None:
        tally.server_cpu = (server_cpu() - served) / took
    return tally


def ready(base: str, timeout: float = 180) -> None:
    """Wait until the server answers (on a busy machine it starts slower than
    :class:`load.Server` waits for)."""
    give_up = time.perf_counter() + timeout
    while True:
        try:
            httpx.get(base + "/api/health").raise_for_status()
            return
        except httpx.HTTPError:
            if time.perf_counter() > give_up:
                raise
            time.sleep(0.2)


def server_decisions(database_url: str, since: dt.datetime) -> list[float]:
    """From the server's database: for each expert move at a challenge table stored since
    ``since`` (the people had arrived), the seconds from the event before it to it, by the
    events' stored times."""
    from sqlalchemy import create_engine, select

    from hukum.server.db import EventRow, Room

    engine = create_engine(database_url)
    with engine.connect() as c:
        rows = c.execute(
            select(EventRow.room, EventRow.number, EventRow.kind, EventRow.data)
            .add_columns(EventRow.created_at)
            .join(Room, Room.code == EventRow.room)
            .order_by(EventRow.room, EventRow.number)
        ).all()
    engine.dispose()

    def utc(t: dt.datetime) -> dt.datetime:
        return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)

    out: list[float] = []
    last: tuple[str, int, dt.datetime] | None = None
    for room, number, kind, data, stored in rows:
        at = utc(stored)
        follows = last is not None and last[0] == room and last[1] == number - 1
        if follows and at >= since and kind == "move" and data.get("seat") != SEAT:
            assert last is not None
            out.append((at - last[2]).total_seconds())
        last = (room, number, at)
    return out


def spread(values: list[float], high: float = 0.95) -> str:
    """``p50 / p<high>`` in ms, and how many."""
    return (
        f"p50 {quantile(values, 0.5) * 1000:.0f} ms  p{high * 100:g} "
        f"{quantile(values, high) * 1000:.0f} ms  ({len(values)})"
    )


def report(tally: Tally, args: argparse.Namespace, server: list[float] | None) -> None:
    """Print the figures."""
    wait = args.bot_delay
    print(
        f"day {tally.day}: {tally.accounts} of {tally.arrived} accounts claimed (in "
        f"{tally.claiming:.0f} s, before the run); deals started {tally.started}, finished "
        f"{tally.finished}"
    )
    less = [x - wait for x in tally.expert]
    print(f"expert decision, seen by the people: {spread(tally.expert)}")
    print(f"  less the bot delay ({wait:g} s): {spread(less)}")
    if server is not None:
        print(f"expert decision, the server's event times: {spread(server)}")
        print(f"  less the bot delay ({wait:g} s): {spread([x - wait for x in server])}")
    lat = tally.latencies
    print(
        f"move->ack p50 {quantile(lat, 0.5) * 1000:.1f} ms"
        f"  p99 {quantile(lat, 0.99) * 1000:.1f} ms  ({len(lat)} moves; the clients' CPU "
        f"{tally.cpu:.0%}, their loop late by p99 {quantile(tally.lag, 0.99) * 1000:.0f} ms)"
    )
    errors = ", ".join(f"{k} {v}" for k, v in sorted(tally.errors.items())) or "none"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"the machine's load average at the end: {load} (1, 5, 15 min)")
    print(f"5xx: {tally.server_errors}  errors: {errors}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=300, help="people playing at once")
    parser.add_argument("--seconds", type=float, default=180, help="the run's length")
    parser.add_argument("--ramp", type=float, default=20, help="seconds the people arrive in")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(1.0, 4.0),
        metavar=("LOW", "HIGH"),
        help="seconds a person thinks before a card (uniform; default 1 4)",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, help="the server's --bot-delay (default 0.6)"
    )
    parser.add_argument("--database-url", help="the server's database (default: a new SQLite)")
    parser.add_argument("--url", help="a running server instead")
    parser.add_argument(
        "--claims", type=int, default=4, help="accounts claimed at once before the run (4)"
    )
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    gc.set_threshold(*CLIENTS_GC)  # the clients' pauses are not the server's latency
    where = args.url or ("PostgreSQL" if args.database_url else "SQLite")
    print(
        f"challengeload: {args.people} people, think {args.think[0]:g}-{args.think[1]:g} s, "
        f"{args.seconds:g} s ({args.ramp:g} s arriving), bot delay {args.bot_delay:g} s, "
        f"{where}",
        flush=True,
    )
    if args.url:
        report(asyncio.run(crowd(args.url, args)), args, None)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(tmp, args.database_url, args.bot_delay)
        try:
            ready(server.base)
            tally = asyncio.run(crowd(server.base, args, server.cpu))
            rss = server.rss()
        finally:
            server.stop()
        url = args.database_url or f"sqlite:///{Path(tmp) / 'load.db'}"
        report(tally, args, server_decisions(url, tally.measured_from))
        print(f"server CPU {tally.server_cpu:.0%} (of one core)  RSS {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
