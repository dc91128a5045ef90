"""Group commit: the events of every table of the process reach the database together.

A table appends one event at a time and waits until it is committed before it tells
anyone (its lock held). The journal collects the events the tables append within one turn
of the event loop, and while a write is under way, and writes them in one transaction
(:meth:`hukum.server.db.Store.append_many`): one commit for many tables instead of one
each, which is most of what a move cost the server. A table still waits only for its own
event; the order of each table's events is kept because a table never has two events
waiting. If a transaction fails, its events are written again one by one, so that only the
event at fault (e.g. a number another process has written) fails, and only its table is
told so.
"""

from __future__ import annotations

import asyncio

from hukum.server.db import NewEvent, Store

__all__ = ["Journal", "to_the_end"]

STOPPED = "the server stopped before the event was written"


class Journal:
    """The event log writer of one server process, shared by all its tables."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[NewEvent, asyncio.Future[None]]] = []
        self._batch: list[tuple[NewEvent, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    def append(self, event: NewEvent) -> asyncio.Future[None]:
        """Queue an event; the future is done once the event is committed, or holds the
        error that kept it from being written."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((event, future))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(), name="journal")
            self._writer.add_done_callback(self._written)
        return future

    async def _write(self) -> None:
        """Write what is pending, batch after batch, until nothing is. Cancelled (the
        server stopping), it fails what it has not written: no table waits in vain."""
        try:
            await asyncio.sleep(0)  # the events appended in this turn of the loop join in
            while self._pending:
                self._batch, self._pending = self._pending, []
                await self._commit(self._batch)
        except asyncio.CancelledError:
            left, self._pending = self._batch + self._pending, []
            _settle(left, RuntimeError(STOPPED))
            raise
        finally:
            self._batch = []
            self._writer = None

    def _written(self, writer: asyncio.Task[None]) -> None:
        """A writer cancelled before it began never ran its ``finally``: what was queued
        for it fails."""
        if self._writer is writer:
            self._writer = None
            left, self._pending = self._pending, []
            _settle(left, RuntimeError(STOPPED))

    async def _commit(self, batch: list[tuple[NewEvent, asyncio.Future[None]]]) -> None:
        """Write a batch in one transaction (on a database server in a worker thread, which
        is awaited to its end even if the journal is cancelled meanwhile), then tell each
        event's future."""
        events = [event for event, _ in batch]
        try:
            if self.store.local:
                self.store.append_many(events)
            else:
                write = asyncio.ensure_future(asyncio.to_thread(self.store.append_many, events))
                if await to_the_end(write):
                    _settle(batch, None)
                    raise asyncio.CancelledError
        except Exception as error:
            if len(batch) == 1:
                _settle(batch, error)
            else:
                for one in batch:
                    await self._commit([one])
            return
        _settle(batch, None)


async def to_the_end(future: asyncio.Future[None]) -> bool:
    """Wait for ``future`` to its end even if the waiting task is cancelled meanwhile (so
    that memory never differs from the log); whether it was. The future's error is raised."""
    cancelled = False
    while not future.done():
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            cancelled = True
    future.result()
    return cancelled


def _settle(batch: list[tuple[NewEvent, asyncio.Future[None]]], error: Exception | None) -> None:
    for _, future in batch:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)
