"""A replica: a table owned by another server process of the cluster, as this process's
connections see it (:mod:`hukum.server.cluster`).

The replica follows the owner: it reads the table's log up to the event the owner names
when asked to be followed, then applies every event the owner sends, in order, with the
same code as the owner (:meth:`~hukum.server.tables.state.TableState.apply`), and tells its
own connections the same messages the owner would (:class:`~hukum.server.tables.audience.Audience`).
Commands (a move, a seat, the start…) are sent to the owner, which checks and stores them;
its answer, or its refusal, is the replica's. An event the replica missed (a gap in the
numbers) is read back from the log, where the owner stored it before sending it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hukum.server.db import Store
from hukum.server.protocol import ProtocolError
from hukum.server.tables.audience import Audience, Send
from hukum.server.tables.config import TableConfig
from hukum.server.tables.messages import Viewer

if TYPE_CHECKING:
    from hukum.server.cluster import Cluster

__all__ = ["Replica"]

log = logging.getLogger("hukum.server")

#: The owner's answers that mean it no longer holds the table (or is gone).
GONE = ("not_owner", "owner_unavailable")


class Replica(Audience):
    """A table owned by another process, followed from it."""

    def __init__(
        self,
        code: str,
        config: TableConfig,
        store: Store,
        cluster: Cluster,
        owner: str,
        gone: Callable[[Replica, str], None],
    ) -> None:
        super().__init__(code, config, store)
        self.cluster = cluster
        self.owner = owner
        """The process that owns the table."""
        self._gone = gone
        self._backlog: list[dict[str, Any]] | None = []
        """Events received while the log is read (None once the replica is up to date)."""
        self._task: asyncio.Task[None] | None = None

    async def follow(self) -> None:
        """Be followed by the owner, then read the log up to where its events begin."""
        upto = int(await self._call("follow"))
        for ev in await asyncio.to_thread(self.store.events, self.code, upto):
            self.apply(ev.number, ev.kind, ev.data)
        self._drain()

    def close(self) -> None:
        """Stop following (the owner stops sending once it is told, or is gone)."""
        if self._task is not None:
            self._task.cancel()
        self._backlog = None

    def unfollow(self) -> None:
        """Tell the owner to stop sending this table's events."""
        self.cluster.command(self.owner, "unfollow", self.code)

    # ------------------------------------------------------------ the owner's events

    def deliver(self, message: dict[str, Any]) -> None:
        """An event from the owner: applied and told at once (so that the connections hear
        of it before the acknowledgement that follows it), unless older events are still
        being read."""
        if self._backlog is not None:
            self._backlog.append(message)
        elif message["n"] > self.event + 1:  # a gap: read the missed events first
            self._backlog = [message]
            self._task = asyncio.get_running_loop().create_task(self._fill())
        else:
            self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        if message["n"] != self.event + 1:
            return  # one read from the log already
        for seat, n in zip(self.seats, message["conn"], strict=False):
            seat.connections = n
        move = self.apply(message["n"], message["kind"], message["data"])
        self._publish(message["kind"], message["data"], move)

    async def _fill(self) -> None:
        assert self._backlog
        try:
            events = await asyncio.to_thread(
                self.store.events, self.code, self._backlog[0]["n"] - 1
            )
        except Exception:
            log.exception("reading table %s's missed events failed", self.code)
            self._gone(self, "the table's events could not be read")
            return
        for ev in events:
            if ev.number == self.event + 1:
                move = self.apply(ev.number, ev.kind, ev.data)
                self._publish(ev.kind, ev.data, move)
        self._drain()

    def _drain(self) -> None:
        backlog, self._backlog = self._backlog or [], None
        for message in backlog:
            self.deliver(message)

    # ------------------------------------------------------------ commands, at the owner

    async def _call(self, op: str, **args: Any) -> Any:
        try:
            return await self.cluster.call(self.owner, op, self.code, **args)
        except ProtocolError as e:
            if e.code in GONE:
                self._gone(self, e.message)
            raise

    async def subscribe(self, seat: int, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive this seat's messages (as :meth:`Table.subscribe`); the owner counts the
        connection."""
        await self._call("attach", seat=seat)
        sub, unsubscribe = self._join(seat, send)
        missed = self._greet(sub, seat, last)  # the replica changes only between awaits
        return await self._send_missed(sub, seat, missed, unsubscribe)

    async def watch(self, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive a watcher's messages (as :meth:`Table.watch`); the owner is not told (a
        watcher is nobody at the table), this process follows the table for it."""
        sub, unsubscribe = self._join(None, send)
        missed = self._greet(sub, None, last)
        return await self._send_missed(sub, None, missed, unsubscribe)

    def _left(self, seat: Viewer) -> None:
        if seat is not None:
            self.cluster.command(self.owner, "detach", self.code, seat=seat)

    async def take_seat(self, seat: int, name: str) -> str:
        return str(await self._call("take_seat", seat=seat, name=name))

    async def fill_with_bots(self, token: str | None) -> int:
        return int(await self._call("fill_with_bots", token=token))

    async def start(self, token: str | None, *, fill: bool = False) -> int:
        return int(await self._call("start", token=token, fill=fill))

    async def submit_move(self, seat: int, text: str, seen: int | None = None) -> int:
        return int(await self._call("submit_move", seat=seat, text=text, seen=seen))

    async def ready(self, seat: int) -> int:
        return int(await self._call("ready", seat=seat))

    async def take_back(self, seat: int) -> int:
        return int(await self._call("take_back", seat=seat))

    async def rematch(self, seat: int) -> int:
        return int(await self._call("rematch", seat=seat))
