"""Rate limits (the ``limits`` library): how often one address, one account or one socket
may do something, so that nobody can guess passwords, fill the database or flood a table.

Each named limit (:data:`RATES`) counts hits in a moving window (a hit counts for exactly
its window: "10 per 15 minutes" is never 20 across a boundary). In one process the counts
are kept in memory; in a cluster (``create_app(redis_url=…)``) on the Redis server, so that
every process sees the same counts, through ``limits``' asyncio API (a round trip to Redis
never holds the event loop). A moving window keeps a time for each hit it counts, so a
limit of more than :data:`MOVING_MAX` (the room quota lifted for a load test) counts in a
sliding window of two counters instead, its memory bounded whatever the traffic.

A socket's messages (:meth:`Throttle.socket`) are counted by the socket itself, a token
bucket in the process's memory (a socket lives in one process), not in ``limits``' memory
storage: that storage expires its entries with a timer thread, started again 10 ms after
any hit, that walks every key it holds — with 1,000 sockets sending a message a second
between them it cost 1.3 s of CPU in 10 s (13% of a core, beside 0.45 s for the loop
alone), where a bucket costs a subtraction (``/tmp``-free micro-benchmark in the issue 41
note). The address and account limits are hit rarely and keep ``limits``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, RateLimitItemPerHour, parse
from limits import strategies as sync_strategies
from limits.aio import strategies as aio_strategies
from limits.aio.storage import RedisStorage
from limits.storage import MemoryStorage

from hukum.server.protocol import ProtocolError

__all__ = [
    "MOVING_MAX",
    "RATES",
    "ROOMS_PER_HOUR",
    "SOCKET_BURST",
    "SOCKET_RATE",
    "SocketLimit",
    "Throttle",
]

#: How many rooms one client address may create an hour, by default (``hukum serve
#: --rooms-per-hour``).
ROOMS_PER_HOUR = 100

#: The named limits, as ``limits`` reads them (``create_app(rates={name: "5/minute"})``
#: changes one): what is counted, per what.
RATES: dict[str, str] = {
    # Sign-in attempts, from one address and on one account (whoever tries).
    "sign_in_address": "20/10 minutes",
    "sign_in_account": "10/15 minutes",
    # Accounts claimed (created) from one address.
    "claim": "10/hour",
    # Guests made from one address (a first visit makes one).
    "guest": "300/hour",
    # Passwords changed and accounts deleted by one player (each checks a password).
    "password": "10/15 minutes",
    # Reports made by one player.
    "report": "10/hour",
    # Quick-match joins (POST /api/pool/<pool>) and parties made or joined, by one player.
    "pool": "30/minute",
    "party": "20/minute",
    # Daily challenge deals started (or resumed) by one player.
    "challenge": "30/minute",
}

#: What a refusal says was too many, by limit.
WHAT = {
    "sign_in_address": "sign-in attempts from this address",
    "sign_in_account": "sign-in attempts on this account",
    "claim": "accounts made from this address",
    "guest": "guests made from this address",
    "password": "password checks for this player",
    "report": "reports made by this player",
    "pool": "quick-match joins by this player",
    "party": "parties made or joined by this player",
    "challenge": "challenge deals started by this player",
    "rooms": "rooms made from this address",
}

#: Messages a socket may send: 20 a second on average, 40 at once (a token bucket).
SOCKET_RATE, SOCKET_BURST = 20.0, 40.0

#: The largest amount a moving window counts; a larger limit is a sliding window counter.
MOVING_MAX = 1000


@dataclass(frozen=True)
class _Limit:
    name: str
    item: RateLimitItem
    moving: bool


class Throttle:
    """The app's rate limits (``app.state.throttle``): :meth:`take` counts a request
    against one or more limits, or refuses it with 429 and ``Retry-After``."""

    def __init__(
        self,
        rooms_per_hour: int = ROOMS_PER_HOUR,
        redis_url: str | None = None,
        rates: Mapping[str, str] | None = None,
    ) -> None:
        self.limits: dict[str, _Limit] = {}
        for name, text in {**RATES, **(rates or {})}.items():
            if name not in WHAT:
                raise ValueError(f"no rate limit {name!r}")
            self._add(name, parse(text))
        self._add("rooms", RateLimitItemPerHour(max(rooms_per_hour, 0)))
        self.rooms_per_hour = rooms_per_hour
        self.redis_url = redis_url
        self._memory = MemoryStorage()
        self._storage: Any = self._memory
        self._strategies: dict[bool, Any] = {
            True: sync_strategies.MovingWindowRateLimiter(self._memory),
            False: sync_strategies.SlidingWindowCounterRateLimiter(self._memory),
        }
        if redis_url:
            self._storage = RedisStorage(
                "async+" + redis_url, implementation="redispy", key_prefix="hukum-limits"
            )
            self._strategies = {
                True: aio_strategies.MovingWindowRateLimiter(self._storage),
                False: aio_strategies.SlidingWindowCounterRateLimiter(self._storage),
            }

    def _add(self, name: str, item: RateLimitItem) -> None:
        self.limits[name] = _Limit(name, item, item.amount <= MOVING_MAX)

    async def _call(self, method: str, limit: _Limit, key: str) -> Any:
        """One call of a strategy (awaited when the counts are on Redis)."""
        result = getattr(self._strategies[limit.moving], method)(limit.item, limit.name, key)
        if self.redis_url:
            result = await result
        return result

    async def take(self, *hits: tuple[str, str]) -> None:
        """Count one request against each ``(limit, key)`` (the key: an address, an account),
        or refuse it (``too_many_requests``; ``too_many_rooms`` for rooms) and count nothing
        when any of them is used up."""
        limits = [(self._limit(name), key) for name, key in hits]
        for limit, key in limits:
            if not await self._call("test", limit, key):
                await self._refuse(limit, key)
        for limit, key in limits:
            if not await self._call("hit", limit, key):  # another request was first
                await self._refuse(limit, key)

    def _limit(self, name: str) -> _Limit:
        return self.limits[name]

    async def _refuse(self, limit: _Limit, key: str) -> None:
        stats = await self._call("get_window_stats", limit, key)
        wait = max(1, int(stats.reset_time - time.time()) + 1)
        item = limit.item
        code = "too_many_rooms" if limit.name == "rooms" else "too_many_requests"
        raise ProtocolError(
            code,
            f"too many {WHAT[limit.name]}: at most {item.amount} in "
            f"{item.multiples} {item.GRANULARITY.name}(s); try again in {wait} s",
            retry_after=wait,
        )

    def socket(self) -> SocketLimit:
        """The limit of one new socket's messages (in this process's memory)."""
        return SocketLimit()

    async def close(self) -> None:
        """Let the connection to Redis go (the app's end)."""
        if self.redis_url:
            connection = self._storage.bridge.get_connection()
            await connection.aclose()


class SocketLimit:
    """How fast one socket sends, a token bucket (:data:`SOCKET_RATE` a second,
    :data:`SOCKET_BURST` at once): :meth:`take` is False when it sends too fast."""

    __slots__ = ("level", "stamp")

    def __init__(self) -> None:
        self.level = SOCKET_BURST
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Count one message; False: over the rate (the message is refused)."""
        now = time.monotonic()
        self.level = min(SOCKET_BURST, self.level + (now - self.stamp) * SOCKET_RATE)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True

    def close(self) -> None:
        """Nothing to forget: the bucket goes with its socket."""
