"""Fair-play screening on the server: each person's seat of every finished rated or
challenge deal is screened (:func:`hukum.screening.screen`) in worker processes at a low
priority, and the counts, the evidence and each player's tally
(:class:`hukum.online.screening.Tally`) are written once; a player whose verdict becomes
``flag`` gets a report in the moderators' queue (reason ``screening``, no reporter), never a
sanction.

When a table made by the pools (:attr:`TableConfig.pool
<hukum.server.tables.config.TableConfig.pool>`) or a challenge table ends its match (one
deal each), the registry tells the app (:meth:`Screenings.finished`, chained after the
ratings and the challenge results): its log is read in a thread, screened in one of
``workers`` processes (``nice``: below the server and the analyses), and the rows are
written in a thread. Only Mindi with four players is screened (the solver is Mindi's);
Ganjifa rooms are marked screened with no deals. Computer players are never screened, nor
a person's moves a computer player made for them (their ``move`` event says ``bot``).

The queue is bounded: at most ``workers + waiting`` rooms are being screened or wait for a
worker; a room that ends when it is full is not dropped, it is left to the catch-up
(:meth:`Screenings.catching_up`), which every few minutes (every few seconds while it
finds a backlog) screens the finished rated and challenge rooms with no
:class:`ScreenedRoom` row, oldest first, as far as the queue has room. A process stopped in
between loses nothing the same way.

Written once: the :class:`ScreenedRoom` row is the transaction's first write (its key the
room), so a second screening of the room, by this process or another, is refused by the
database or finds it and changes nothing (two processes of a cluster may both spend the CPU
on one room from their catch-ups; only one writes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hukum.online.fairplay import SCREENING
from hukum.online.screening import Tally, step
from hukum.server.db import Room, Store, now
from hukum.server.identity.models import Report
from hukum.server.play.models import ScreenedRoom, ScreenedSeat, ScreeningTally
from hukum.server.tables.config import TableConfig
from hukum.server.workers import start_worker, stop_pool

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table

__all__ = [
    "BACKLOG_EVERY",
    "CATCH_UP_EVERY",
    "SCREENED_GAME",
    "Screenings",
    "SeatScreening",
    "board_link",
    "evidence_of",
    "screen_events",
    "tally_of",
    "unscreened_rooms",
    "write",
]

log = logging.getLogger("hukum.server")

#: Seconds between two catch-ups (:meth:`Screenings.catching_up`).
CATCH_UP_EVERY = 300.0
#: Seconds between two catch-ups while there is a backlog (the last one queued rooms).
BACKLOG_EVERY = 10.0
#: The game the screening judges (its solver).
SCREENED_GAME = "mindi"
#: Tries of a write a concurrent one refused (a first tally row of the same player).
TRIES = 3
#: The most hit decisions the moderators' page shows of a player (newest first).
EVIDENCE_SHOWN = 50


@dataclass(frozen=True)
class SeatScreening:
    """One person's seat of one screened deal, as written."""

    deal: int
    """The deal's number at the table, from 1."""
    seat: int
    player: str
    decisions: int
    matters: int
    hits: int
    unjudged: int
    llr: float
    """The deal's log-likelihood ratio of the seat: :func:`hukum.online.screening.step`
    summed over its own decisions that matter."""
    evidence: tuple[dict[str, Any], ...]
    """The hit decisions: ``{"number", "card", "best", "viewed", "chance"}``."""


def board_link(room: str, deal: int, number: int) -> str:
    """The board at the position before move ``number`` (from 1) of a deal."""
    return f"/t/{room}/deals/{deal}?move={number - 1}"


def _seed(room: str, deal: int) -> int:
    """The screening's seed of a deal: from the room and the deal (the same on any process)."""
    digest = hashlib.sha256(f"hukum-screening:{room}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def screen_events(
    code: str, config: dict[str, Any], events: Sequence[tuple[int, str, dict[str, Any]]]
) -> tuple[int, list[SeatScreening]]:
    """Screen every finished deal of a room from its log (in a worker process): the deals
    screened and each person's seat (0 deals: not a 4-player Mindi room)."""
    from hukum.screening import screen
    from hukum.server.tables.state import TableState

    table = TableConfig.from_dict(config)
    if table.game != SCREENED_GAME or table.spec.players(table.rules) != 4:
        return 0, []
    state = TableState(code, table)
    people: dict[int, str | None] = {}
    by_bot: list[set[int]] = []  # per deal, the move numbers a computer player made
    ended: list[dict[int, str]] = []  # per deal, the people seated as it ended
    for number, kind, data in events:
        state.apply(number, kind, data)
        seat = data.get("seat")
        if kind == "seat" and isinstance(seat, int):
            player = data.get("player")
            people[seat] = player if data.get("kind") == "human" and player else None
        elif kind == "deal":
            by_bot.append(set())
        elif kind == "move" and state.deal is not None:
            if data.get("bot"):
                by_bot[-1].add(len(state.deal.history))
            if state.deal.is_over():
                ended.append({s: p for s, p in people.items() if p})
    out: list[SeatScreening] = []
    for index, seated in enumerate(ended):
        if not seated:
            continue
        assert state.match is not None
        deal: Any = state.match.deals[index]  # a Mindi deal (the game was checked)
        report = screen(deal, seats=sorted(seated), seed=_seed(code, index + 1))
        for totals in report.totals:
            mine = [
                d
                for d in report.decisions
                if d.seat == totals.seat and d.number not in by_bot[index]
            ]
            out.append(
                SeatScreening(
                    deal=index + 1,
                    seat=totals.seat,
                    player=seated[totals.seat],
                    decisions=len(mine),
                    matters=sum(d.matters for d in mine),
                    hits=sum(d.hit for d in mine),
                    unjudged=totals.unjudged,
                    llr=sum(step(d.chance, d.hit) for d in mine if d.matters),
                    evidence=tuple(
                        {
                            "number": d.number,
                            "card": str(d.card),
                            "best": [str(m) for m in d.best],
                            "viewed": [str(m) for m in d.viewed],
                            "chance": round(d.chance, 4),
                        }
                        for d in mine
                        if d.hit
                    ),
                )
            )
    return len(ended), out


def write(store: Store, code: str, deals: int, seats: Sequence[SeatScreening]) -> bool:
    """Write a room's screening, each seat's row and each player's tally, in one
    transaction; a report for each player whose verdict became ``flag``. Whether this call
    wrote it (False: the room was screened already)."""
    with store.lock("screening"):
        for attempt in range(TRIES):
            try:
                with store.session() as s:
                    return _write(s, code, deals, seats)
            except IntegrityError:
                with store.session() as s:
                    if s.get(ScreenedRoom, code) is not None:
                        return False  # another process wrote it meanwhile
                if attempt == TRIES - 1:
                    raise
    return False


def _write(s: Session, code: str, deals: int, seats: Sequence[SeatScreening]) -> bool:
    """:func:`write` in session ``s``."""
    if s.get(ScreenedRoom, code) is not None:
        return False
    at = now()
    # The room's row first: a concurrent write of the same room waits on it and is refused.
    s.add(ScreenedRoom(room=code, deals=deals, screened_at=at))
    s.flush()
    people = sorted({seat.player for seat in seats})
    rows: dict[str, ScreeningTally] = {}
    if people:
        query = (
            select(ScreeningTally)
            .where(ScreeningTally.player.in_(people))
            .order_by(ScreeningTally.player)
            .with_for_update()
        )
        rows = {row.player: row for row in s.scalars(query)}
    for seat in seats:
        s.add(
            ScreenedSeat(
                room=code,
                deal=seat.deal,
                seat=seat.seat,
                player=seat.player,
                decisions=seat.decisions,
                matters=seat.matters,
                hits=seat.hits,
                unjudged=seat.unjudged,
                llr=seat.llr,
                evidence=list(seat.evidence),
                screened_at=at,
            )
        )
        row = rows.get(seat.player)
        if row is None:
            row = rows[seat.player] = ScreeningTally(
                player=seat.player, matters=0, hits=0, llr=0.0, peak=0.0, deals=0, verdict="clear"
            )
            s.add(row)
        before = row.verdict
        tally = _tally(row).add(seat.matters, seat.hits, seat.llr)
        row.matters, row.hits, row.deals = tally.matters, tally.hits, tally.deals
        row.llr, row.peak = tally.llr, tally.peak
        row.verdict = tally.verdict()
        row.updated_at = at
        if row.verdict == "flag" and before != "flag":
            s.add(
                Report(
                    reporter=None,
                    reported=seat.player,
                    room=code,
                    reason=SCREENING,
                    note=f"{tally.hits} of {tally.matters} decisions that matter over "
                    f"{tally.deals} deals were best only with the hidden hands",
                    created_at=at,
                )
            )
    s.commit()
    return True


def _tally(row: ScreeningTally) -> Tally:
    """A stored tally as the statistic's."""
    return Tally(row.matters, row.hits, row.llr, row.peak, row.deals)


def tally_of(store: Store, player: str) -> dict[str, Any] | None:
    """A player's tally and verdict (their own data download; the moderators' page)."""
    with store.session() as s:
        row = s.get(ScreeningTally, player)
        if row is None:
            return None
        return {
            "deals": row.deals,
            "matters": row.matters,
            "hits": row.hits,
            "llr": round(row.llr, 3),
            "peak": round(row.peak, 3),
            "verdict": row.verdict,
            "updated": row.updated_at.isoformat(),
        }


def evidence_of(store: Store, player: str, limit: int = EVIDENCE_SHOWN) -> list[dict[str, Any]]:
    """A player's hit decisions, newest first, each with a link to its position on the
    board (moderators only)."""
    query = (
        select(ScreenedSeat)
        .where(ScreenedSeat.player == player, ScreenedSeat.hits > 0)
        .order_by(ScreenedSeat.screened_at.desc(), ScreenedSeat.room, ScreenedSeat.deal)
    )
    out: list[dict[str, Any]] = []
    with store.session() as s:
        for row in s.scalars(query):
            for hit in row.evidence:
                number = int(hit["number"])
                out.append(
                    {
                        "table": row.room,
                        "deal": row.deal,
                        "seat": row.seat,
                        "number": number,
                        "card": hit["card"],
                        "best": list(hit["best"]),
                        "viewed": list(hit["viewed"]),
                        "chance": hit.get("chance"),
                        "board": board_link(row.room, row.deal, number),
                    }
                )
                if len(out) >= limit:
                    return out
    return out


def unscreened_rooms(store: Store, limit: int) -> list[str]:
    """Finished rated or challenge rooms with no :class:`ScreenedRoom` row, oldest first."""
    query = (
        select(Room.code)
        .outerjoin(ScreenedRoom, ScreenedRoom.room == Room.code)
        .where(
            Room.finished.is_(True),
            ScreenedRoom.room.is_(None),
            or_(
                Room.config["pool"].as_string().is_not(None),
                Room.config["challenge"].as_string().is_not(None),
            ),
        )
        .order_by(Room.created_at)
        .limit(limit)
    )
    with store.session() as s:
        return list(s.scalars(query))


def _read(store: Store, code: str) -> tuple[dict[str, Any], list[tuple[int, str, dict[str, Any]]]]:
    """A room's settings and log, as the worker process takes them."""
    config = store.room(code)
    if config is None:
        raise LookupError(f"no room {code}")
    return config, [(e.number, e.kind, dict(e.data)) for e in store.events(code)]


def _screenable(config: dict[str, Any]) -> bool:
    """Whether a room is screened: rated or a challenge's, and Mindi."""
    table = TableConfig.from_dict(config)
    return (table.pool is not None or table.challenge is not None) and (table.game == SCREENED_GAME)


class Screenings:
    """The screenings of one server process (see the module): a bounded queue in front of
    ``workers`` worker processes."""

    def __init__(self, store: Store, workers: int = 1, waiting: int = 32, nice: int = 10) -> None:
        if workers < 1 or waiting < 0:
            raise ValueError(f"workers={workers}, waiting={waiting}: at least 1 and 0")
        self.store = store
        self.workers = workers
        self.waiting = waiting
        self.nice = nice
        self.screened = 0
        """Rooms this process wrote."""
        self.deferred = 0
        """Rooms left to the catch-up because the queue was full."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._rooms: dict[str, asyncio.Task[bool]] = {}

    def finished(self, table: Table) -> None:
        """A table of this process ended its match (:attr:`Registry.finished
        <hukum.server.tables.registry.Registry.finished>`): screen it if it is rated or a
        challenge's. Called in the event loop."""
        if table.config.pool is None and table.config.challenge is None:
            return
        if not self.submit(table.code):
            log.info("screening queue full: room %s is left to the catch-up", table.code)

    def submit(self, code: str) -> bool:
        """Queue a finished room's screening; False when the queue is full (or the room is
        queued already): the catch-up screens it later."""
        if code in self._rooms or len(self._rooms) >= self.workers + self.waiting:
            self.deferred += code not in self._rooms
            return False
        task = asyncio.get_running_loop().create_task(self._run(code), name=f"screen {code}")
        self._rooms[code] = task
        task.add_done_callback(lambda t: self._done(code, t))
        return True

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),  # never fork a threaded server
                initializer=start_worker,
                initargs=(self.nice,),
            )
        return self._pool

    async def _run(self, code: str) -> bool:
        """Read the room, screen it in a worker process, write it (each off the loop)."""
        config, events = await asyncio.to_thread(_read, self.store, code)
        if _screenable(config):
            loop = asyncio.get_running_loop()
            deals, seats = await loop.run_in_executor(
                self._executor(), screen_events, code, config, events
            )
        else:
            deals, seats = 0, []
        wrote = await asyncio.to_thread(write, self.store, code, deals, seats)
        self.screened += wrote
        return wrote

    def _done(self, code: str, task: asyncio.Task[bool]) -> None:
        self._rooms.pop(code, None)
        if not task.cancelled() and task.exception() is not None:
            log.error(
                "screening room %s failed (the catch-up tries again)",
                code,
                exc_info=task.exception(),
            )

    def free(self) -> int:
        """Rooms the queue takes now."""
        return max(0, self.workers + self.waiting - len(self._rooms))

    async def settle(self) -> None:
        """Wait for the screenings under way (tests; the app's shutdown)."""
        while self._rooms:
            await asyncio.gather(*list(self._rooms.values()), return_exceptions=True)

    async def catch_up(self) -> int:
        """Queue the finished rooms nobody screened, as far as the queue has room; how many
        were queued."""
        free = self.free()
        if not free:
            return 0
        codes = await asyncio.to_thread(unscreened_rooms, self.store, free + len(self._rooms))
        return sum(self.submit(code) for code in codes if code not in self._rooms)

    async def catching_up(self, every: float = CATCH_UP_EVERY) -> None:
        """Catch up at start and every ``every`` seconds, for ever (a task of the app); every
        :data:`BACKLOG_EVERY` seconds while a catch-up finds rooms to queue, so that a
        backlog drains as fast as the workers screen."""
        while True:
            queued = 0
            try:
                queued = await self.catch_up()
                if queued:
                    log.info("screening %d finished room(s) that had not been", queued)
            except Exception:
                log.exception("catching up on screening failed; trying again later")
            await asyncio.sleep(min(every, BACKLOG_EVERY) if queued else every)

    async def stop(self) -> None:
        """Cancel the screenings under way (each is left to a catch-up: nothing of it was
        written) and stop the worker processes (the app's shutdown)."""
        tasks = list(self._rooms.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Stop the worker processes at once: a screening under way is not waited for (at
        nice 10 on a busy machine one can take minutes, and the server's exit waited for it;
        nothing of it was written: the catch-up screens the room later)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)
