"""Load benchmark: start ``hukum serve`` and let N WebSocket clients play full deals, each
taking a think time before every move; print the move-to-ack latency (p50, p99), the moves
played and the server's CPU and memory.

    .venv/bin/python scripts/load.py --mode bots --clients 100 500 1000 --seconds 60
    .venv/bin/python scripts/load.py --mode people --clients 2000 --seconds 60

``--mode bots``: each client is alone at a table with three rules bots (the lobby's *Play
now*; bots wait ``--bot-delay`` seconds, the server's default, before they play).
``--mode people``: four clients a table. A client thinks a random 50–150% of ``--think``
seconds before each move. The latency runs from sending a move to receiving its ``move``
event (stored in the database before anyone is told). Issue 18's targets: p99 < 100 ms
with 1,000 clients alone with bots and with 2,000 clients at four-person tables, think
time 1 s, on one process.

``--processes N`` (with ``--database-url`` of PostgreSQL and ``--redis-url``): N server
processes, a cluster; the tables are made at each in turn and each client connects to one
chosen at random, as behind a load balancer (so most clients' moves are relayed to the
table's owner when N > 1). CPU and memory are the processes' sums.

    redis-server --port 6390 --save '' &
    .venv/bin/python scripts/load.py --mode bots --clients 1000 --processes 2 \
        --database-url "$(HUKUM_PG_DATABASE=load .ci/postgres.sh)" --redis-url redis://127.0.0.1:6390

``--pool-people N``: N more people use quick match at the same server meanwhile
(scripts/matchload.py, in a process of its own: they press "Play online", wait in the
pools, play their tables and queue again); both scripts' figures are printed. Issue 43's
target: moves answered at p99 < 100 ms with 1,000 clients alone with bots and 2,000 people
in the pools beside them.

    .venv/bin/python scripts/load.py --mode bots --clients 1000 --pool-people 2000 --seconds 60

``--soak MINUTES``: the clients play one-deal matches with bots, each at a new table, one
after another; a line a minute gives the matches finished and the server's memory (the
issue's target: flat within 10% over 30 minutes of finished matches).

    .venv/bin/python scripts/load.py --clients 40 --think 0.05 --bot-delay 0.05 --soak 30

``--trace-memory DIR`` (with ``--soak``): the server traces its allocations
(:mod:`tracemalloc`, slower) and writes a snapshot each minute to ``DIR``
(``minute005.snap`` …) with its live objects counted by type (``minute005.types``); at the
end the script prints what grew, by where it was allocated, from minute ``--trace-from``
(default 5) to the last.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx
import websockets

#: The clients' garbage collector thresholds.
CLIENTS_GC = (50_000, 20, 100)

#: Seconds the server's bots wait before they play (``hukum serve --bot-delay``'s default).
BOT_DELAY = 0.6

#: ``--pool-people``: seconds the people stay beyond the warm-up and the measuring (this
#: script makes its tables before its warm-up begins: about 10 s for 1,000).
MAKING = 15.0

#: ``--trace-memory``: the frames of each traced allocation kept (more make the traced
#: server slower still).
TRACED_FRAMES = 8

#: ``--trace-memory``: how the server is started instead of ``python -m hukum``, with
#: tracemalloc on and a thread that writes a snapshot, and the count of the live objects of
#: each type, at the end of each minute (arguments: the directory, the frames kept).
TRACED_SERVER = """
import collections, gc, runpy, sys, threading, time, tracemalloc
out, frames = sys.argv[1], int(sys.argv[2])
del sys.argv[1:3]
tracemalloc.start(frames)
def dump():
    start = time.monotonic()
    for minute in range(1, 100_000):
        time.sleep(max(0.0, start + minute * 60 - time.monotonic()))
        tracemalloc.take_snapshot().dump(f"{out}/minute{minute:03d}.snap")
        kinds = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
        with open(f"{out}/minute{minute:03d}.types", "w") as f:
            f.writelines(f"{n} {kind}\\n" for kind, n in kinds.most_common(60))
threading.Thread(target=dump, daemon=True).start()
runpy.run_module("hukum", run_name="__main__", alter_sys=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Tally:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    since: float = 0.0
    """Moves sent before this time (the warm-up) are not counted."""
    marks: tuple[float, ...] = ()
    """What ``measure()`` gave when the measuring began."""
    errors: dict[str, int] = field(default_factory=dict)
    dropped: int = 0
    matches: int = 0
    """Matches played to their end (``--soak``)."""


async def client(
    seat: tuple[str, str], think: float, stop: float, tally: Tally, rng: random.Random
) -> None:
    """Play until ``stop``: a move (the last legal one) after a think time at each turn,
    ready for the next deal at the end of one. ``seat``: the socket's URL and the token."""
    url, token = seat
    try:
        async with websockets.connect(url, max_queue=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))  # never in the URL
            await _play(ws, think, stop, tally, rng)
    except (OSError, websockets.WebSocketException, TimeoutError) as e:
        tally.dropped += 1
        if tally.dropped <= 3:
            print("dropped:", type(e).__name__, e, file=sys.stderr)


async def _play(
    ws: websockets.ClientConnection, think: float, stop: float, tally: Tally, rng: random.Random
) -> None:
    sent: float | None = None
    decided = -1
    readied = 0  # the last deal this client said it is ready after
    last = 0
    while time.perf_counter() < stop:
        try:
            remaining = max(0.01, stop - time.perf_counter())
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=remaining))
        except TimeoutError:
            continue
        if message.get("type") == "error":
            code = message.get("error", {}).get("code", "?")
            tally.errors[code] = tally.errors.get(code, 0) + 1
            if tally.errors[code] <= 3:  # what the first few said
                print("error:", message, file=sys.stderr)
            sent = None
            decided = -1
        view = message.get("view")
        if message.get("type") not in ("state", "event") or view is None:
            continue
        if message.get("table", {}).get("status") == "over":
            tally.matches += 1
            return
        last = message["event"]
        if sent is not None and message.get("kind") == "move" and message["seat"] == view["seat"]:
            if sent >= tally.since:
                tally.latencies.append(time.perf_counter() - sent)
            sent = None
        if message["event"] <= decided:
            continue
        if view["outcome"] is not None:
            # Once a deal: the move that ends it already shows its outcome.
            if view["deal_number"] != readied:
                readied = view["deal_number"]
                decided = message["event"]
                await ws.send(json.dumps({"type": "next_deal"}))
        elif view["turn"] == view["seat"] and view["legal"] and sent is None:
            decided = message["event"]
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.perf_counter() >= stop:
                return
            sent = time.perf_counter()
            move = {"type": "move", "move": view["legal"][-1], "event": last}
            await ws.send(json.dumps(move))


async def tables(
    bases: list[str], mode: str, clients: int, rng: random.Random
) -> list[tuple[str, str]]:
    """Create the tables, one after another at each server process (which then owns it);
    the WebSocket address of each client's table, at a process chosen at random as a load
    balancer would, and its token."""
    urls: list[tuple[str, str]] = []

    def at(code: str) -> str:
        return f"{rng.choice(bases).replace('http', 'ws')}/ws/{code}"

    async with httpx.AsyncClient(timeout=60) as http:
        if mode == "bots":
            for i in range(clients):
                body = {"options": {"target": 1000}, "start_now": True, "bots": "rules"}
                made = (await http.post(f"{bases[i % len(bases)]}/api/tables", json=body)).json()
                urls.append((at(made["code"]), made["token"]))
            return urls
        for i in range(clients // 4):
            base = bases[i % len(bases)]
            body = {"options": {"target": 1000}}
            made = (await http.post(f"{base}/api/tables", json=body)).json()
            code = made["code"]
            urls.append((at(code), made["token"]))
            for seat in (1, 2, 3):
                taken = await http.post(f"{base}/api/tables/{code}/seats/{seat}", json={})
                urls.append((at(code), taken.json()["token"]))
            await http.post(f"{base}/api/tables/{code}/start", json={"token": made["token"]})
    return urls


async def run(
    bases: list[str],
    mode: str,
    clients: int,
    think: float,
    seconds: float,
    warmup: float,
    measure: Callable[[], tuple[float, ...]] = tuple,
) -> Tally:
    """N clients arriving over the first half of ``warmup`` seconds, then measured for
    ``seconds`` (``measure()`` is called when that begins); what they measured."""
    rng = random.Random(clients)
    seats = await tables(bases, mode, clients, rng)
    tally = Tally(since=time.perf_counter() + warmup)
    start = time.perf_counter()
    stop = start + warmup + seconds
    tasks = []
    for seat in seats:
        tasks.append(asyncio.create_task(client(seat, think, stop, tally, rng)))
        await asyncio.sleep(warmup / 2 / len(seats))
    await asyncio.sleep(max(0.0, tally.since - time.perf_counter()))
    tally.marks = measure()
    await asyncio.gather(*tasks)
    return tally


async def soak_client(
    base: str, think: float, stop: float, tally: Tally, rng: random.Random
) -> None:
    """Until ``stop``: a one-deal match alone with three rules bots, then another at a new
    table; each finished match is left, for the server to give its memory back."""
    ws = base.replace("http", "ws")
    body = {"options": {"deals": 1, "target": None}, "start_now": True, "bots": "rules"}
    # The connection kept between matches is let go before uvicorn closes it (5 s idle):
    # else a request sent as the server closes it fails (ReadError), once in ~20,000.
    limits = httpx.Limits(keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        while time.perf_counter() < stop:
            try:
                made = (await http.post("/api/tables", json=body)).json()
            except httpx.HTTPError as e:  # counted, and the client goes on
                tally.dropped += 1
                print("dropped:", type(e).__name__, e, file=sys.stderr)
                continue
            await client((f"{ws}/ws/{made['code']}", made["token"]), think, stop, tally, rng)


async def soak(
    base: str, clients: int, think: float, minutes: int, rss: Callable[[], float]
) -> None:
    """``clients`` playing one-deal matches for ``minutes``; a line a minute: matches
    finished, the server's memory, the minute's latency."""
    tally = Tally()
    rng = random.Random(clients)
    start = time.perf_counter()
    stop = start + minutes * 60
    tasks = []
    for _ in range(clients):
        tasks.append(asyncio.create_task(soak_client(base, think, stop, tally, rng)))
        await asyncio.sleep(10 / clients)
    for minute in range(1, minutes + 1):
        await asyncio.sleep(max(0.0, start + minute * 60 - time.perf_counter()))
        lat, tally.latencies = sorted(tally.latencies), []
        p99 = lat[max(0, int(len(lat) * 0.99) - 1)] * 1000 if lat else float("nan")
        print(
            f"minute {minute:3d}  matches {tally.matches:6d}  RSS {rss():6.0f} MB"
            f"  p99 {p99:7.1f} ms  dropped {tally.dropped}",
            flush=True,
        )
    await asyncio.gather(*tasks)


class Server:
    """``hukum serve`` on a fresh SQLite file or on ``--database-url``, and its CPU time;
    ``extra``: more of its options."""

    def __init__(
        self,
        tmp: str,
        database_url: str | None,
        bot_delay: float,
        trace: str | None = None,
        redis_url: str | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        self.port = free_port()
        url = database_url or f"sqlite:///{Path(tmp) / 'load.db'}"
        command = [sys.executable, "-m", "hukum"]
        if trace is not None:
            command = [sys.executable, "-c", TRACED_SERVER, trace, str(TRACED_FRAMES)]
        command += ["serve", "--port", str(self.port)]
        command += ["--bot-delay", str(bot_delay), "--database-url", url]
        command += ["--log-level", "warning"]
        command += ["--rooms-per-hour", "1000000"]  # every client here is 127.0.0.1
        if redis_url is not None:
            command += ["--redis-url", redis_url]
        command += extra  # more of hukum serve's options (scripts/matchload.py's)
        self.proc = subprocess.Popen(command)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(400 if trace is None else 4000):  # traced, it starts slowly
            try:
                httpx.get(self.base + "/api/health")
                break
            except httpx.HTTPError:
                time.sleep(0.05)

    def cpu(self) -> float:
        """Seconds of CPU the server process has used."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self) -> float:
        """The server's resident memory, MB."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait()


def pool_people(
    bases: list[str], database_url: str, people: int, args: argparse.Namespace
) -> subprocess.Popen[str]:
    """``--pool-people``: scripts/matchload.py's people at these servers, in the quick-match
    pools beside this script's clients: arriving over the warm-up, until the measuring is
    over (and :data:`MAKING` more seconds, the tables' making before the warm-up)."""
    command = [sys.executable, str(Path(__file__).with_name("matchload.py"))]
    command += ["--people", str(people), "--ramp", str(args.warmup)]
    command += ["--seconds", str(args.warmup + args.seconds + MAKING)]
    command += ["--database-url", database_url]
    for base in bases:
        command += ["--url", base]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def grown(trace: str, since: int, top: int = 15) -> None:
    """Print what the traced server's allocations grew by from minute ``since`` to the last
    snapshot written in ``trace``, largest first, by the lines that allocated it."""
    import tracemalloc

    snaps = sorted(Path(trace).glob("minute*.snap"))
    first = Path(trace) / f"minute{since:03d}.snap"
    if first not in snaps or snaps[-1] == first:
        print(f"memory trace: no snapshots of minute {since} and later in {trace}")
        return
    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    old = tracemalloc.Snapshot.load(str(first)).filter_traces(keep)
    new = tracemalloc.Snapshot.load(str(snaps[-1])).filter_traces(keep)
    total = sum(s.size for s in new.statistics("filename")) - sum(
        s.size for s in old.statistics("filename")
    )
    print(f"memory trace: {first.stem} to {snaps[-1].stem}: {total / 1024:+.0f} KiB traced")
    for diff in new.compare_to(old, "traceback")[:top]:
        print(f"{diff.size_diff / 1024:+9.1f} KiB {diff.count_diff:+8d} blocks")
        for line in diff.traceback.format(limit=6, most_recent_first=True):
            print("    " + line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["bots", "people"], default="people")
    parser.add_argument("--clients", type=int, nargs="+", default=[40])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--bot-delay", type=float, default=BOT_DELAY)
    parser.add_argument(
        "--warmup", type=float, default=10, help="seconds the clients arrive in, not measured"
    )
    parser.add_argument("--database-url", help="e.g. a PostgreSQL URL; default a fresh SQLite")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="N server processes on --database-url (PostgreSQL) and --redis-url; tables are "
        "made at each in turn, and each client connects to one chosen at random",
    )
    parser.add_argument("--redis-url", help="the Redis server of --processes")
    parser.add_argument(
        "--pool-people",
        type=int,
        metavar="N",
        help="also N people using quick match at the same servers (scripts/matchload.py, "
        "in a process of its own); its figures are printed after this script's",
    )
    parser.add_argument(
        "--soak",
        type=int,
        metavar="MINUTES",
        help="instead: the clients play one-deal matches with bots for MINUTES; the server's "
        "memory each minute",
    )
    parser.add_argument(
        "--trace-memory",
        metavar="DIR",
        help="with --soak: trace the server's allocations (slower), a snapshot a minute in "
        "DIR; print what grew",
    )
    parser.add_argument(
        "--trace-from", type=int, default=5, metavar="MINUTE", help="see --trace-memory"
    )
    args = parser.parse_args()
    # The clients' own pauses are not the server's latency: collect garbage seldom. (Not by
    # the clock as hukum serve does, hukum.server.garbage: the clients' collections of
    # their middle generation took CPU the server needed, p50 15-18 ms instead of 6.)
    gc.set_threshold(*CLIENTS_GC)
    if args.soak:
        print(
            f"soak: {args.clients[0]} clients, one-deal matches with bots, think {args.think} s, "
            f"bot delay {args.bot_delay} s, {args.soak} min"
        )
    else:
        print(
            f"mode {args.mode}, think {args.think} s, bot delay {args.bot_delay} s, "
            f"{args.warmup:g} s warm-up then {args.seconds:g} s measured, "
            f"{'PostgreSQL' if args.database_url else 'SQLite'}, {args.processes} process(es)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        trace = args.trace_memory if args.soak else None
        if trace is not None:
            Path(trace).mkdir(parents=True, exist_ok=True)
        if args.processes > 1 and not (args.database_url and args.redis_url):
            parser.error("--processes needs --database-url (PostgreSQL) and --redis-url")
        redis_url = args.redis_url if args.processes > 1 else None
        servers = [
            Server(tmp, args.database_url, args.bot_delay, trace, redis_url)
            for _ in range(args.processes)
        ]
        server = servers[0]
        bases = [s.base for s in servers]

        def cpu() -> float:
            return sum(s.cpu() for s in servers)

        def rss() -> float:
            return sum(s.rss() for s in servers)

        def measure() -> tuple[float, ...]:
            return cpu(), time.process_time(), time.perf_counter()

        if args.soak:
            try:
                asyncio.run(soak(server.base, args.clients[0], args.think, args.soak, server.rss))
            finally:
                for s in servers:
                    s.stop()
            if trace is not None:
                grown(trace, args.trace_from)
            return 0

        try:
            for n in args.clients:
                n = n - n % 4 if args.mode == "people" else n
                people = None
                if args.pool_people:
                    url = args.database_url or f"sqlite:///{Path(tmp) / 'load.db'}"
                    people = pool_people(bases, url, args.pool_people, args)
                tally = asyncio.run(
                    run(bases, args.mode, n, args.think, args.seconds, args.warmup, measure)
                )
                cpu_then, mine, start = tally.marks
                took = time.perf_counter() - start
                used = (cpu() - cpu_then) / took
                clients_cpu = (time.process_time() - mine) / took
                lat = sorted(tally.latencies)
                p50 = statistics.median(lat) * 1000 if lat else float("nan")
                p99 = lat[max(0, int(len(lat) * 0.99) - 1)] * 1000 if lat else float("nan")
                rate = len(lat) / args.seconds
                errors = ", ".join(f"{k} {v}" for k, v in sorted(tally.errors.items())) or "none"
                print(
                    f"clients {n:5d}  moves/s {rate:8.1f}  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
                    f"  server CPU {used:4.0%}  RSS {rss():6.0f} MB"
                    f"  clients' CPU {clients_cpu:4.0%}"
                    f"  dropped {tally.dropped}  errors {errors}"
                )
                if people is not None:
                    out, _ = people.communicate()
                    print(f"beside them, {args.pool_people} people in the pools (matchload.py):")
                    print(out, end="", flush=True)
        finally:
            for s in servers:
                s.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
