"""A replica: a table owned by another server process of the cluster, as this process's
connections see it (:mod:`hukum.server.cluster`).

The replica follows the owner: it reads the table's log up to the event the owner names
when asked to be followed, then applies every event the owner sends, in order, with the
same code as the owner (:meth:`~hukum.server.tables.state.TableState.apply`), and tells its
own connections the same messages the owner would (:class:`~hukum.server.tables.audience.Audience`).
The commands that change the table (a move, a seat, the start…;
:mod:`~hukum.server.tables.commands`) are sent to the owner, which checks and stores them;
its answer, or its refusal, is the replica's. An event the replica missed (a gap in the
numbers) is read back from the log, where the owner stored it before sending it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, TypeVar, cast

from hukum.server.db import Store
from hukum.server.tables.audience import Audience, Send
from hukum.server.tables.commands import (
    ATTACH,
    DETACH,
    FOLLOW,
    UNFOLLOW,
    AtSeat,
    Caller,
    Command,
    Nothing,
)
from hukum.server.tables.config import TableConfig
from hukum.server.tables.errors import TableError
from hukum.server.tables.messages import Viewer

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from hukum.server.cluster import Cluster

__all__ = ["Replica"]

P = TypeVar("P", bound="DataclassInstance")
R = TypeVar("R")

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
        upto = await self._call(FOLLOW, Nothing())
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
        self._tell(UNFOLLOW, Nothing())

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

    def presence(self, message: dict[str, Any]) -> None:
        """The owner's seats' connection counts changed between events: this process's
        connections are told (:meth:`Audience.tell_presence`). Dropped while older events are
        still being read or applied: the next event carries the counts again."""
        if self._backlog is None and message["n"] == self.event:
            for seat, n in zip(self.seats, message["presence"], strict=False):
                seat.connections = n
            self.tell_presence()

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

    async def run(self, command: Command[P, R], payload: P, by: Caller) -> R:
        """Run a command of :mod:`~hukum.server.tables.commands`: one that changes the
        table is sent to the owner (by its name, its payload's fields the arguments), whose
        answer or refusal is this one's; one that only reads it is answered here."""
        if command.run is None:
            assert command.ask is not None
            return await command.ask(self, payload, by)
        return await self._call(command, payload)

    async def _call(self, command: Command[P, R], payload: P) -> R:
        try:
            result = await self.cluster.call(self.owner, command.name, self.code, **asdict(payload))
        except TableError as e:
            if e.code in GONE:
                self._gone(self, e.message)
            raise
        return cast(R, result)

    def _tell(self, command: Command[P, Any], payload: P) -> None:
        """Send the owner a command whose answer nobody waits for."""
        self.cluster.command(self.owner, command.name, self.code, **asdict(payload))

    async def subscribe(self, seat: int, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive this seat's messages (as :meth:`Table.subscribe`); the owner counts the
        connection."""
        await self._call(ATTACH, AtSeat(seat))
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
            self._tell(DETACH, AtSeat(seat))
