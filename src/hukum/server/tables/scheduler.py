"""A table's automatic steps: a bot's move, a turn timer, the next deal, and the pause of
a table nobody is at.

A table runs by itself only while a person seated there is connected; with nobody there
only a bot in a bot seat finishes the trick already begun, so that a person who comes back
does not find the match played out by bots (docs/protocol.md, "the table pauses").
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from hukum.game import Player
from hukum.games import make_bot
from hukum.online.challenge import bot_seed
from hukum.server.tables.errors import TableError
from hukum.server.workers import start_worker, stop_pool

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table

__all__ = [
    "BOT_NICE",
    "BOT_THREADS",
    "REPLIES_KEPT",
    "Scheduler",
    "Stale",
    "bot_processes",
    "bot_threads",
    "close_bot_processes",
    "decide",
    "forget_replies",
]

log = logging.getLogger("hukum.server")

#: Threads that make the slower computer players' decisions (the expert's, the search
#: player's), at most this many at once: one a core, as a decision is nearly all CPU.
BOT_THREADS = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)

#: Challenge positions whose expert reply this process keeps (the latest used): a reply is
#: the same at every table of the deal (:meth:`Scheduler._bot`), and the whole field of a
#: deal meets its first positions, whose decisions cost the most.
REPLIES_KEPT = 20_000

_replies: OrderedDict[Hashable, Any] = OrderedDict()


_replies_lock = threading.Lock()  # apps on event loops of their own share the replies


def _kept(position: Hashable) -> Any:
    """The kept reply to a challenge position, or None."""
    with _replies_lock:
        move = _replies.get(position)
        if move is not None:
            _replies.move_to_end(position)
        return move


def _keep(position: Hashable, move: Any) -> None:
    with _replies_lock:
        _replies[position] = move
        if len(_replies) > REPLIES_KEPT:
            _replies.popitem(last=False)


def forget_replies() -> None:
    """Forget the kept challenge replies (a test that checks that the expert itself gives
    equal replies at two tables, as two processes would)."""
    with _replies_lock:
        _replies.clear()


_bot_threads: ThreadPoolExecutor | None = None
_bot_threads_made = threading.Lock()


def bot_threads() -> ThreadPoolExecutor:
    """The computer players' own threads (:data:`BOT_THREADS`), shared by every table: a
    slower player's decision waits here for its turn, then is made in a process of
    :func:`bot_processes` while its thread waits.

    Not the event loop's default executor: that one stores every table's moves (the
    journal) and reads the database, and with a crowd of expert decisions queued in it a
    person's move waited behind them before it was stored and acknowledged (issue 42,
    docs/scale.md "Daily challenge under load"). Here the decisions wait for each other
    only."""
    global _bot_threads
    with _bot_threads_made:
        if _bot_threads is None:
            _bot_threads = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="hukum-bot")
        return _bot_threads


#: How much lower the bot processes' priority is than the server's (POSIX ``nice``): a
#: person's move is stored and acknowledged first when the cores are all busy.
BOT_NICE = 5

_bot_processes: ProcessPoolExecutor | None = None
_bot_processes_made = threading.Lock()


def bot_processes() -> ProcessPoolExecutor:
    """The processes that make the slower computer players' decisions (as many as the bot
    threads, at :data:`BOT_NICE`), started on first use. The search player is pure Python:
    on threads of the server's process it held the GIL while it searched, and the event
    loop waited for it at each step of a person's move (move -> ack p99 over a second with
    300 people at the daily challenge, docs/scale.md)."""
    global _bot_processes
    with _bot_processes_made:
        if _bot_processes is None:
            _bot_processes = ProcessPoolExecutor(
                BOT_THREADS,
                mp_context=multiprocessing.get_context("spawn"),  # never fork a threaded server
                initializer=start_worker,
                initargs=(BOT_NICE,),
            )
        return _bot_processes


def _forget_processes(pool: ProcessPoolExecutor) -> None:
    global _bot_processes
    with _bot_processes_made:
        if _bot_processes is pool:
            _bot_processes = None
    stop_pool(pool)


def close_bot_processes() -> None:
    """Stop the bot processes (the app's shutdown; the next decision starts new ones): a
    decision under way is made again on its thread."""
    pool = _bot_processes
    if pool is not None:
        _forget_processes(pool)


def decide(game: str, level: str, seed: int, view: Any) -> Any:
    """The move of a new ``level`` computer player of ``game`` seeded ``seed`` at ``view``:
    made in a bot process, waited for on the calling thread (a bot thread); made here if
    the processes broke (one died, or the app's shutdown stopped them), and the next
    decision starts new ones. The same arguments give the same move wherever it is made."""
    pool = bot_processes()
    try:
        return pool.submit(_decide, game, level, seed, view).result()
    except BrokenProcessPool:
        log.warning("the bot processes stopped (one died, or the server stops); deciding here")
        _forget_processes(pool)
        return _decide(game, level, seed, view)


def _decide(game: str, level: str, seed: int, view: Any) -> Any:
    return make_bot(game, level, seed=seed).choose(view)


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
        """A quick computer player's seat's bot, kept for the table."""
        bot = self._bots.get(seat)
        if bot is None:
            spec, name = self.table.spec, self.table.config.bots
            bot = self._bots[seat] = spec.make_bot(name, seed=secrets.randbits(32))
        return bot

    def _seed(self, seat: int) -> int:
        """The seed of a slower computer player's next decision at ``seat``: at a daily
        challenge table a hash of the position, so that the same moves get the same reply,
        at any table of the deal and after a restart; elsewhere a random one."""
        deal = self.table.deal
        if self.table.config.challenge is not None and deal is not None and deal.seed is not None:
            return bot_seed(deal.seed, seat, len(deal.moves))
        return secrets.randbits(32)

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
            quick = table.config.bots in table.spec.quick_bots
            seed = 0 if quick else self._seed(seat)  # a quick bot keeps its own
            position: Hashable = None
            if table.config.challenge is not None and deal.seed is not None:
                position = (table.config.bots, deal.seed, tuple(deal.moves))
        try:
            kept = _kept(position) if position is not None else None
            if kept is not None:
                move = kept
            elif quick:
                move = self._bot(seat).choose(view)  # quicker than the hand-over to a thread
            else:  # a new bot for each decision, in a bot process
                loop = asyncio.get_running_loop()
                move = await loop.run_in_executor(
                    bot_threads(), decide, table.spec.name, table.config.bots, seed, view
                )
                if position is not None:
                    _keep(position, move)
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
