"""A table's automatic steps: a bot's move, a turn timer, the next deal, and the pause of
a table nobody is at.

A table runs by itself only while a person seated there is connected; with nobody there
only a bot in a bot seat finishes the trick already begun, so that a person who comes back
does not find the match played out by bots (docs/protocol.md, "the table pauses").
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from typing import TYPE_CHECKING, Any

from hukum.game import Player
from hukum.online.challenge import bot_seed
from hukum.server.tables.errors import TableError

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table

__all__ = ["Scheduler", "Stale"]

log = logging.getLogger("hukum.server")


class Stale(Exception):
    """A bot's or timer's action whose moment has passed (the table moved on)."""


class Scheduler:
    """Plans one table's next automatic step (at most one at a time) and runs it through
    the table's own interface, under the table's lock."""

    def __init__(self, table: Table) -> None:
        self._table = weakref.ref(table)
        self.closed = False
        self._task: asyncio.Task[None] | None = None
        self._resuming: set[asyncio.Task[None]] = set()
        self._bots: dict[int, Player[Any, Any]] = {}

    @property
    def table(self) -> Table:
        """The table (held weakly, so that a table that leaves memory is freed at once, not
        by the next full collection of garbage: hukum.server.garbage)."""
        table = self._table()
        if table is None:
            raise Stale("the table has left memory")
        return table

    @property
    def bot_wait(self) -> float:
        """How long a computer player waits before its move: the server's ``bot_delay`` at
        the room's speed (slow twice as long, fast 0.4 of it; 0 stays 0)."""
        table = self.table
        return table.config.bot_wait(table.bot_delay)

    def may_run(self, seat: int | None = None) -> bool:
        """Whether the table may go on by itself: someone is present, or (for ``seat``) a
        bot in a bot seat finishes a trick already begun."""
        table = self.table
        if table.present():
            return True
        deal = table.deal
        return (
            seat is not None
            and table.seats[seat].kind == "bot"
            and deal is not None
            and not deal.is_over()
            and bool(deal.trick)
        )

    @property
    def planned(self) -> str | None:
        """The automatic step the table waits for (``bot``, ``timeout``, ``next_deal``,
        ``resume``), or None: waiting for a person, paused, or over."""
        if any(not t.done() for t in self._resuming):
            return "resume"
        if self._task is None or self._task.done():
            return None
        return self._task.get_name().split()[0]

    def resume(self) -> None:
        """Start whatever the table waits for (after a load, or when a person comes)."""
        task = asyncio.create_task(self._resume(), name=f"resume {self.table.code}")
        self._resuming.add(task)
        task.add_done_callback(self._resuming.discard)

    async def _resume(self) -> None:
        async with self.table.lock:
            await self.schedule()

    async def schedule(self) -> None:
        """Plan the next automatic step (the table's lock is held): a bot's move, a turn
        timer, or the next deal (one everybody is ready for starts at once). With no person
        present only a bot finishing the current trick moves (:meth:`may_run`)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        table = self.table
        match = table.match
        if self.closed or table.status != "playing" or match is None:
            return
        deal = match.current
        timeout = table.config.turn_timeout
        if not self.may_run(deal.turn if deal is not None else None):
            return
        if deal is None:
            waiting = [s for s in table.seats if s.kind == "human" and not s.absent]
            if all(s.ready for s in waiting):
                await table.start_deal()
                await self.schedule()
            elif timeout:
                self._task = asyncio.create_task(
                    self._next_deal_later(timeout, table.step), name="next_deal"
                )
            return
        turn = deal.turn
        assert turn is not None
        s = table.seats[turn]
        if s.kind == "bot" or s.absent:
            self._task = asyncio.create_task(self._bot_turn(turn, table.step), name="bot")
        elif timeout:
            self._task = asyncio.create_task(
                self._timeout(turn, table.step, timeout), name="timeout"
            )

    def _bot(self, seat: int) -> Player[Any, Any]:
        table = self.table
        deal = table.deal
        if table.config.challenge is not None and deal is not None and deal.seed is not None:
            # A new bot for each decision, seeded by the position: the same moves get the
            # same reply, at any table of the deal and after a restart.
            seed = bot_seed(deal.seed, seat, len(deal.moves))
            return table.spec.make_bot(table.config.bots, seed=seed)
        bot = self._bots.get(seat)
        if bot is None:
            spec, name = self.table.spec, self.table.config.bots
            bot = self._bots[seat] = spec.make_bot(name, seed=secrets.randbits(32))
        return bot

    async def _bot_turn(self, seat: int, expected: int) -> None:
        table = self.table
        await asyncio.sleep(self.bot_wait)
        async with table.lock:
            deal = table.deal
            if table.step != expected or deal is None or deal.turn != seat:
                return
            if not self.may_run(seat):
                return
            view = deal.view(seat)
        bot = self._bot(seat)
        try:
            if table.config.bots in table.spec.quick_bots:
                move = bot.choose(view)  # quicker than the hand-over to a thread
            else:
                move = await asyncio.to_thread(bot.choose, view)
        except Exception:
            log.exception(
                "bot failed at table %s seat %d; playing the first legal move", table.code, seat
            )
            move = view.legal_moves[0]
        try:
            await table.submit_bot_move(seat, move, expected)
        except Stale:
            pass
        except TableError as e:
            if e.code != "table_moved":  # else the table is read again from its log
                raise

    async def _timeout(self, seat: int, expected: int, timeout: float) -> None:
        await asyncio.sleep(timeout)
        table = self.table
        async with table.lock:
            if table.step != expected or not self.may_run():
                return
            await table.commit("absent", {"seat": seat})
            await self.schedule()

    async def _next_deal_later(self, timeout: float, expected: int) -> None:
        await asyncio.sleep(timeout)
        table = self.table
        async with table.lock:
            if table.match is None or table.match.current is not None:
                return
            if table.step != expected or not self.may_run():
                return
            await table.start_deal()
            await self.schedule()

    def close(self) -> None:
        """Stop the table's timers (server shutdown)."""
        self.closed = True
        for task in [self._task, *self._resuming]:
            if task is not None:
                task.cancel()
