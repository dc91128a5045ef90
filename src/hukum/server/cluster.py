"""Many server processes over one database and one Redis server (``hukum serve
--redis-url``).

Every process serves every table: a player may connect to any of them (behind any load
balancer). Each table is *owned* by one process at a time, the only one that changes it
(its actor, :class:`~hukum.server.tables.Table`, is there); the other processes keep a
*replica* of the tables their players sit at (:class:`~hukum.server.tables.Replica`), send
the players' commands to the owner and receive the owner's events, in order, through Redis
pub/sub. Redis holds no table state, only who owns what and who is alive:

- ``<prefix>alive:<process>``: set by each process and renewed every ``ttl / 3`` seconds;
  it expires ``ttl`` seconds after the process stops renewing it (killed, hung).
- ``<prefix>owner:<code>``: the process that owns a table; ``<prefix>owned:<process>``:
  the tables a process owns; ``<prefix>processes``: the processes that ever started.
- ``<prefix>p:<process>``: each process's channel. Everything sent to one process (a
  command, its answer, the events of the tables it follows) goes on its channel, so it
  arrives in the order it was sent: a move's event before the move's acknowledgement.

A table is claimed atomically (a Lua script): by the first process asked for it, or from an
owner no longer alive. Every process checks every second for processes whose key expired and
claims their tables (several may try; one wins each), loads each from its event log and
resumes it, so a table whose owner was killed goes on within about ``ttl`` + 1 seconds. The
replicas of the dead owner's tables tell their players to reconnect (a ``reconnect``
message, then close code 1012); a player's client reconnects with the last event it saw and
loses nothing. A process that finds its own key expired (it was stopped longer than
``ttl``) gives up every table it had, since another process may own them now. The event log
is the fence: two processes can never both store an event with the same number, so an owner
that lost its table cannot change what the new owner stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from typing import Any, Protocol

import redis.asyncio as redis

from hukum.server.protocol import http_status
from hukum.server.tables.errors import TableError

__all__ = ["CALL_TIMEOUT", "TTL", "Cluster", "Handlers"]

log = logging.getLogger("hukum.server")

#: Seconds a process's key lives unless renewed: a killed owner's tables are taken over
#: this long (plus up to a second) after it last renewed it.
TTL = 3.0
#: Seconds a command waits for its owner's answer.
CALL_TIMEOUT = 5.0

_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then return owner end
if owner and redis.call('EXISTS', ARGV[2] .. 'alive:' .. owner) == 1 then return owner end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
if owner then redis.call('SREM', ARGV[2] .. 'owned:' .. owner, ARGV[3]) end
return ARGV[1]
"""

_DISOWN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', ARGV[2] .. 'owned:' .. ARGV[1], ARGV[3])
return 1
"""

_RENEW = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

# A dead process leaves the list only if it is still dead and owns nothing: one that came
# back to life meanwhile (its key set again) must stay listed, or nobody would ever check it.
_FORGET = """
if redis.call('EXISTS', ARGV[1] .. 'alive:' .. ARGV[2]) == 1 then return 0 end
if redis.call('SCARD', ARGV[1] .. 'owned:' .. ARGV[2]) > 0 then return 0 end
redis.call('SREM', KEYS[1], ARGV[2])
return 1
"""


def _unavailable(code: str) -> TableError:
    return TableError(
        "owner_unavailable",
        f"the server process that holds table {code} did not answer; try again",
    )


class Handlers(Protocol):
    """What a process does with what the cluster tells it (the registry of tables)."""

    async def command(self, sender: str, op: str, code: str, args: dict[str, Any]) -> Any:
        """Run a command another process sent for a table this process owns; its result
        (JSON), or a TableError."""

    def event(self, sender: str, message: dict[str, Any]) -> None:
        """An event of a table this process follows, from its owner."""

    async def dead(self, process: str) -> None:
        """``process`` is dead: forget what came from it and take over its tables."""

    def lost(self) -> None:
        """This process was taken for dead: give up every table it had."""


class Cluster:
    """This process's membership of the cluster: its liveness, the tables it owns, its
    channel, and the commands it sends to other processes."""

    def __init__(self, url: str, *, prefix: str = "hukum:", ttl: float = TTL) -> None:
        self.url = url
        self.prefix = prefix
        self.ttl = ttl
        self.id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        """This process's name in the cluster."""
        self.redis: redis.Redis = redis.Redis.from_url(url, decode_responses=True)
        self._pubsub = self.redis.pubsub()
        self._handlers: Handlers | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: asyncio.Queue[tuple[str, str, str | None]] = asyncio.Queue()
        """Messages to publish: channel, text, and the reference of a command's call."""
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._running: set[asyncio.Task[None]] = set()
        self._burying: dict[str, asyncio.Task[None]] = {}
        self._claim = self.redis.register_script(_CLAIM)
        self._disown = self.redis.register_script(_DISOWN)
        self._renew = self.redis.register_script(_RENEW)
        self._forget = self.redis.register_script(_FORGET)

    def channel(self, process: str) -> str:
        return f"{self.prefix}p:{process}"

    # ------------------------------------------------------------ life

    async def start(self, handlers: Handlers) -> None:
        """Join: listen on this process's channel, say it is alive, and from now on renew
        that and watch the others."""
        self._handlers = handlers
        await self._pubsub.subscribe(self.channel(self.id))
        await self._alive()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(), name="cluster-listen"),
            loop.create_task(self._send(), name="cluster-send"),
            loop.create_task(self._watch(), name="cluster-watch"),
        ]

    async def _alive(self) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{self.prefix}alive:{self.id}", "1", px=int(self.ttl * 1000))
            pipe.sadd(f"{self.prefix}processes", self.id)
            await pipe.execute()

    async def stop(self) -> None:
        """Leave: stop listening and renewing (the tables this process owned are taken over
        by the others once its key expires; a clean stop deletes it at once)."""
        tasks = [*self._tasks, *self._burying.values(), *self._running]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        with contextlib.suppress(Exception):
            await self.redis.delete(f"{self.prefix}alive:{self.id}")
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        await self.redis.aclose()

    async def _watch(self) -> None:
        """Renew this process's key; find dead processes and let the registry take their
        tables over."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._check()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster check failed; trying again")

    async def _check(self) -> None:
        assert self._handlers is not None
        alive = f"{self.prefix}alive:{self.id}"
        if not await self._renew(keys=[alive], args=[int(self.ttl * 1000)]):
            log.warning("this process was taken for dead; it gives up its tables")
            self._handlers.lost()
            await self._alive()
        processes = await self.redis.smembers(f"{self.prefix}processes")
        others = sorted(str(p) for p in processes if p != self.id)
        if not others:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in others:
                pipe.exists(f"{self.prefix}alive:{p}")
            exists = await pipe.execute()
        for process, up in zip(others, exists, strict=True):
            if not up and process not in self._burying:
                # Apart, so that taking many tables over never delays this process's renewal.
                self._burying[process] = asyncio.get_running_loop().create_task(self._bury(process))

    async def _bury(self, process: str) -> None:
        assert self._handlers is not None
        try:
            await self._handlers.dead(process)
        except Exception:
            log.exception("taking over the tables of process %s failed; trying again", process)
        finally:
            self._burying.pop(process, None)

    async def forget(self, process: str) -> bool:
        """Drop a dead process from the list once none of its tables is left, in one step
        with the checks (a process that woke up and said it is alive again stays listed);
        whether it was dropped."""
        dropped: int = await self._forget(
            keys=[f"{self.prefix}processes"], args=[self.prefix, process]
        )
        return bool(dropped)

    # ------------------------------------------------------------ ownership

    async def claim(self, code: str) -> str:
        """The owner of table ``code`` after claiming it: this process if nobody owned it,
        its owner is dead, or it was this process already; else the living owner."""
        owner: str = await self._claim(
            keys=[f"{self.prefix}owner:{code}"], args=[self.id, self.prefix, code]
        )
        return owner

    async def disown(self, code: str) -> None:
        """Give a table up (a finished table that leaves memory)."""
        await self._disown(keys=[f"{self.prefix}owner:{code}"], args=[self.id, self.prefix, code])

    async def owned_by(self, process: str) -> set[str]:
        """The tables ``process`` owns."""
        codes = await self.redis.smembers(f"{self.prefix}owned:{process}")
        return {str(c) for c in codes}

    # ------------------------------------------------------------ messages

    def tell(self, process: str, message: dict[str, Any], call: str | None = None) -> None:
        """Send a message to a process, after everything sent before (no answer; ``call``:
        the reference of the call waiting for its answer)."""
        text = json.dumps(message, separators=(",", ":"))
        self._outbox.put_nowait((self.channel(process), text, call))

    def command(self, process: str, op: str, code: str, **args: Any) -> None:
        """Send a command whose answer nobody waits for."""
        self.tell(process, {"op": op, "code": code, "args": args, "ref": "", "from": self.id})

    async def call(self, process: str, op: str, code: str, **args: Any) -> Any:
        """Run a command on table ``code`` at its owner ``process``; its result. The
        owner's refusal is raised as the same TableError; an owner that does not answer
        within :data:`CALL_TIMEOUT`, or that nobody listens for (it is dead: its tables are
        taken over within seconds), gives ``owner_unavailable``."""
        ref = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[ref] = future
        message = {"op": op, "code": code, "args": args, "ref": ref, "from": self.id}
        self.tell(process, message, call=ref)
        try:
            async with asyncio.timeout(CALL_TIMEOUT):
                return await future
        except TimeoutError:
            raise _unavailable(code) from None
        finally:
            self._calls.pop(ref, None)

    async def _send(self) -> None:
        """Publish what was told, in order, many messages a round trip."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text, _ in batch:
                        pipe.publish(channel, text)
                    receivers = await pipe.execute()
                for (_, text, call), heard in zip(batch, receivers, strict=True):
                    future = self._calls.get(call) if call else None
                    if not heard and future is not None and not future.done():
                        future.set_exception(_unavailable(json.loads(text)["code"]))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("publishing %d message(s) to the cluster failed", len(batch))

    async def _listen(self) -> None:
        """Read this process's channel: answers to its commands, commands for the tables it
        owns, events of the tables it follows."""
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=None
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading the cluster channel failed; trying again")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                self._dispatch(json.loads(message["data"]))
            except Exception:
                log.exception("a cluster message could not be handled")

    def _dispatch(self, message: dict[str, Any]) -> None:
        assert self._handlers is not None
        if "re" in message:  # the answer to a command this process sent
            future = self._calls.get(message["re"])
            if future is not None and not future.done():
                error = message.get("error")
                if error is not None:
                    future.set_exception(
                        TableError(error["code"], error["message"], **error["details"])
                    )
                else:
                    future.set_result(message.get("result"))
        elif "op" in message:  # a command for a table this process owns
            task = asyncio.get_running_loop().create_task(self._run(message))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        else:  # an event of a table this process follows
            self._handlers.event(message["from"], message)

    async def _run(self, message: dict[str, Any]) -> None:
        assert self._handlers is not None
        answer: dict[str, Any] = {"re": message["ref"]}
        try:
            answer["result"] = await self._handlers.command(
                message["from"], message["op"], message["code"], message["args"]
            )
        except TableError as e:
            answer["error"] = {
                "code": e.code,
                "message": e.message,
                "status": http_status(e.code),  # read by processes of older versions
                "details": e.details,
            }
        except Exception:
            log.exception("command %s on table %s failed", message["op"], message["code"])
            answer["error"] = {
                "code": "internal_error",
                "message": "the command failed on the server process that holds the table",
                "status": http_status("internal_error"),
                "details": {},
            }
        if message["ref"]:
            self.tell(message["from"], answer)
