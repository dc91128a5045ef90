"""Issue 41: rate limits (hukum.server.throttle, the ``limits`` library) — a moving window
in memory, the same counts shared by every process on Redis, a socket's messages; a
refusal is 429 with ``Retry-After`` and counts nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import limits.storage.memory
import limits.strategies
import pytest
import redis
from fastapi.testclient import TestClient

from hukum.server import throttle as throttle_module
from hukum.server.app import create_app
from hukum.server.protocol import ProtocolError, http_status
from hukum.server.throttle import MOVING_MAX, Throttle
from tests.server.test_cluster import redis_url

T = TypeVar("T")

__all__ = [
    "redis_url",
    "run",
]  # the fixture: a private redis-server (HUKUM_REQUIRE_REDIS=1: required)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The time the in-memory counts see, moved by the test (a real process's counts,
    with the clock it reads replaced)."""
    now = [1_000_000.0]
    fake = SimpleNamespace(time=lambda: now[0], monotonic=lambda: now[0])
    for module in (limits.storage.memory, limits.strategies, throttle_module):
        monkeypatch.setattr(module, "time", fake)
    yield now


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end, in a thread of its own (the test's thread may already
    run an event loop: Playwright's, in a run with the browser tests)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def refusal(throttle: Throttle, *hits: tuple[str, str]) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        run(throttle.take(*hits))
    return refused.value


def test_a_moving_window_counts_each_hit_for_its_window(clock: list[float]) -> None:
    throttle = Throttle(rates={"claim": "3/hour"})
    take = ("claim", "10.0.0.1")
    for _ in range(3):
        run(throttle.take(take))
        clock[0] += 600
    refused = refusal(throttle, take)
    assert refused.code == "too_many_requests" and http_status(refused.code) == 429
    assert refused.details["retry_after"] == 1801  # when the first is an hour old
    assert "accounts made from this address" in refused.message
    run(throttle.take(("claim", "10.0.0.2")))  # another address is not held back
    clock[0] += 1801
    run(throttle.take(take))  # the first no longer counts
    refusal(throttle, take)  # the second still does: no new window of 3 at a boundary


def test_a_refusal_counts_nothing(clock: list[float]) -> None:
    throttle = Throttle(rates={"sign_in_address": "5/minute", "sign_in_account": "1/minute"})
    run(throttle.take(("sign_in_address", "a"), ("sign_in_account", "tara")))
    for _ in range(5):  # refused on the account: the address's count does not move
        refusal(throttle, ("sign_in_address", "a"), ("sign_in_account", "tara"))
    for name in ("b", "c", "d", "e"):
        run(throttle.take(("sign_in_address", "a"), ("sign_in_account", name)))
    refusal(throttle, ("sign_in_address", "a"), ("sign_in_account", "f"))


def test_rooms_keep_their_code_and_a_lifted_quota_bounded_memory(clock: list[float]) -> None:
    throttle = Throttle(rooms_per_hour=2)
    run(throttle.take(("rooms", "a")))
    run(throttle.take(("rooms", "a")))
    assert refusal(throttle, ("rooms", "a")).code == "too_many_rooms"
    lifted = Throttle(rooms_per_hour=MOVING_MAX * 1000)
    for _ in range(5000):
        clock[0] += 0.06
        run(lifted.take(("rooms", "a")))
    memory = lifted._memory
    assert sum(len(e) for e in memory.events.values()) == 0 and len(memory.storage) <= 2


def test_a_socket_may_send_20_messages_a_second_and_40_at_once(clock: list[float]) -> None:
    throttle = Throttle()
    one, other = throttle.socket(), throttle.socket()
    assert all(one.take() for _ in range(40))
    assert not one.take()  # the 41st at once
    assert other.take()  # each socket its own count
    clock[0] += 0.04
    assert not one.take()  # 0.8 of a message earned back: not yet one
    clock[0] += 0.01
    assert one.take() and not one.take()  # one more after 1/20 s
    clock[0] += 1.0
    assert sum(one.take() for _ in range(45)) == 20  # 20 a second on average
    clock[0] += 10.0
    assert sum(one.take() for _ in range(45)) == 40  # never more than 40 saved up


def test_unknown_rate_names_are_refused() -> None:
    with pytest.raises(ValueError, match="no rate limit"):
        Throttle(rates={"sign_up": "1/hour"})


async def _until_allowed(throttle: Throttle, hit: tuple[str, str], seconds: float) -> float:
    """Take ``hit`` as soon as it is allowed again; how long that took."""
    start = time.monotonic()
    while True:
        try:
            await throttle.take(hit)
            return time.monotonic() - start
        except ProtocolError:
            assert time.monotonic() - start < seconds, "still refused"
            await asyncio.sleep(0.05)


def test_on_redis_every_process_sees_the_same_counts(redis_url: str) -> None:
    """Two processes' throttles on one Redis server (a cluster): the counts are shared."""
    rates = {"claim": "3/2 seconds"}
    first = Throttle(rooms_per_hour=2, redis_url=redis_url, rates=rates)
    other = Throttle(rooms_per_hour=2, redis_url=redis_url, rates=rates)

    async def scenario() -> tuple[ProtocolError, ProtocolError, float]:
        await first.take(("claim", "a"))
        await other.take(("claim", "a"))
        await first.take(("claim", "a"))
        with pytest.raises(ProtocolError) as claims:
            await other.take(("claim", "a"))
        await first.take(("rooms", "a"))
        await other.take(("rooms", "a"))
        with pytest.raises(ProtocolError) as rooms:
            await first.take(("rooms", "a"))
        await other.take(("claim", "b"))  # another address
        waited = await _until_allowed(other, ("claim", "a"), 5)  # the window moves on
        await first.close()
        await other.close()
        return claims.value, rooms.value, waited

    claims, rooms, waited = run(scenario())
    wait, later = claims.details["retry_after"], rooms.details["retry_after"]
    assert claims.code == "too_many_requests" and isinstance(wait, int) and 1 <= wait <= 3
    assert rooms.code == "too_many_rooms" and isinstance(later, int) and later >= 1
    assert 0.5 < waited < 3


def test_an_app_of_a_cluster_counts_on_redis(tmp_path: Path, redis_url: str) -> None:
    """``create_app(redis_url=…)``: the room quota and the guests are counted on Redis."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    app = create_app(
        url, bot_delay=0, redis_url=redis_url, rooms_per_hour=1, rates={"guest": "1/hour"}
    )
    with TestClient(app) as client:
        assert client.app.state.throttle.redis_url == redis_url  # type: ignore[attr-defined]
        assert client.post("/api/tables", json={}).status_code == 200
        r = client.post("/api/tables", json={})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_rooms"
        assert client.post("/api/me/guest").status_code == 200
        client.cookies.clear()
        r = client.post("/api/me/guest")
        assert r.status_code == 429 and "retry-after" in r.headers
    keys = redis.Redis.from_url(redis_url).keys("hukum-limits*")
    assert keys  # the counts are on the Redis server
