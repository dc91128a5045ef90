"""Quick match across the cluster (issue 43): ``hukum serve`` processes on one PostgreSQL
database and one Redis server share the pools. Players queued at different processes meet
at one table; a process killed while players wait, or between taking tickets and giving
them a table, loses nobody: the other process's next wave seats them.

Real processes, a real Redis and PostgreSQL, as tests/server/test_cluster.py (whose
fixtures these are); skipped where either is missing unless ``HUKUM_REQUIRE_REDIS=1``.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import httpx2 as httpx
import redis.asyncio as aioredis

from hukum.server.play.pool import STRANDED_AFTER, RedisWaiting
from tests.server.test_cluster import Cluster, Node, cluster, redis_url
from tests.server.test_restart import free_port, run, start_server

__all__ = ["cluster", "redis_url"]  # the fixtures


def start(cluster: Cluster, countdown: float) -> Node:
    """A process of the cluster whose pools run a wave every 0.2 s."""
    port = free_port()
    process = start_server(
        cluster.database_url,
        port,
        "info",
        "--redis-url",
        cluster.redis_url,
        "--pool-wave",
        "0.2",
        "--pool-countdown",
        str(countdown),
        log=Path(cluster.logs) / f"server-{port}.log",
    )
    node = Node(port, process)
    cluster.nodes.append(node)
    return node


class Person:
    """A guest using one process (its own cookie jar)."""

    def __init__(self, node: Node) -> None:
        self.use(node)
        r = self.http.post("/api/me/guest")
        assert r.status_code == 200, r.text
        self.name: str = r.json()["player"]["name"]

    def use(self, node: Node) -> None:
        """Go on at another process, with the same session."""
        before: httpx.Client | None = getattr(self, "http", None)
        self.http = httpx.Client(base_url=node.http, timeout=30)
        if before is not None:
            self.http.cookies = before.cookies
            before.close()

    def join(self, pool: str = "mindi") -> dict[str, object]:
        r = self.http.post(f"/api/pool/{pool}", json={})
        assert r.status_code == 200, r.text
        data: dict[str, object] = r.json()
        assert data["status"] == "waiting", data
        return data

    def matched(self, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.http.get("/api/pool", params={"wait": 2}).json()
            if state["status"] == "matched":
                code: str = state["code"]
                return code
            assert state["status"] == "waiting", state
        raise AssertionError(f"{self.name} was not matched in {seconds} s")

    def seat(self, code: str) -> int:
        table = self.http.get(f"/api/tables/{code}").json()
        you = table["you"]
        assert isinstance(you, int), table
        assert table["seats"][you]["name"] == self.name
        return you


def test_players_queued_at_different_processes_meet(cluster: Cluster) -> None:
    a, b = start(cluster, 20.0), start(cluster, 20.0)
    people = [Person(a), Person(b), Person(a), Person(b)]
    for person in people:
        person.join()
    codes = {person.matched() for person in people}
    assert len(codes) == 1, codes
    code = codes.pop()
    assert {person.seat(code) for person in people} == {0, 1, 2, 3}
    # Pressing again at either process while the table plays sends them back to it.
    for person in people:
        again = person.http.post("/api/pool/band", json={}).json()
        assert again == {"status": "matched", "pool": "mindi", "code": code}


def test_a_killed_process_loses_no_waiting_player(cluster: Cluster) -> None:
    """Three people wait at process A, which ran the waves that left them waiting, when it
    is killed; they go on at B, and B's next wave seats them with a fourth who came there."""
    a = start(cluster, 20.0)
    people = [Person(a) for _ in range(3)]
    for person in people:
        person.join()
    time.sleep(0.5)  # A, alone, runs a few waves that leave them waiting
    b = start(cluster, 20.0)
    a.process.send_signal(signal.SIGKILL)
    a.process.wait(timeout=10)
    for person in people:
        person.use(b)
        assert person.http.get("/api/pool").json()["status"] == "waiting"
    people.append(Person(b))
    people[-1].join()
    codes = {person.matched() for person in people}
    assert len(codes) == 1, codes
    code = codes.pop()
    assert {person.seat(code) for person in people} == {0, 1, 2, 3}
    assert cluster.owner(code) == b.name()


def test_tickets_taken_by_a_process_that_died_mid_wave_wait_again(cluster: Cluster) -> None:
    """A process takes a ticket out of the pool for a table (the first step of seating it)
    and is killed before the table is made: the ticket stays taken (its player is told
    they wait, and may not queue elsewhere) until the other process's wave puts it back;
    then it is seated with the people who came meanwhile."""
    a, b = start(cluster, 20.0), start(cluster, 20.0)
    taker = a.name()
    first = Person(b)
    first.join()

    async def take() -> list[str]:
        client = aioredis.Redis.from_url(cluster.redis_url, decode_responses=True)
        try:
            waiting = RedisWaiting(client)
            ids = [e.id for e in await waiting.entries("mindi")]
            assert len(ids) == 1
            assert await waiting.take("mindi", ids, taker, time.time())
            return ids
        finally:
            await client.aclose()

    run(take())  # on a loop of its own: another test's may be running in this thread
    a.process.send_signal(signal.SIGKILL)  # the taker dies between the two steps
    a.process.wait(timeout=10)
    state = first.http.get("/api/pool").json()
    assert state["status"] == "waiting", state  # taken, not lost
    moved = first.http.post("/api/pool/band", json={}).json()
    assert moved["pool"] == "mindi"  # a ticket being seated cannot move
    others = [Person(b) for _ in range(3)]
    for person in others:
        person.join()
    code = first.matched(seconds=STRANDED_AFTER + 20)
    assert {p.matched() for p in others} == {code}
    assert {p.seat(code) for p in [first, *others]} == {0, 1, 2, 3}
