"""The daily challenge's storage: each day's challenge and deals (made once, even by two
processes at once), each player's entries, their results as deals end, and what the routes
read (:mod:`hukum.server.routes.challenge`). The rules and the scoring are
:mod:`hukum.online.challenge`'s.

A day's challenge is made by the first request that asks for it: its
:data:`~hukum.online.challenge.DEALS` seeds are drawn then
(:func:`hukum.server.fairness.new_seed`) and stored with their commitments; the row's key,
the day, makes a second maker (another process) fail and read the first's back. An entry
is made when a player starts a deal (started = played) and its result is written when the
table's match (one deal) ends: the registry tells the app (:meth:`Challenges.finished`,
chained after the ratings'), and a catch-up writes the result of any finished challenge
table whose entry has none (a process stopped in between).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from hukum.online.challenge import (
    DEALS,
    Result,
    closes_at,
    dealer_of,
    parse_deal_key,
    percentages,
    preset_of,
)
from hukum.server.db import Room, Store, now
from hukum.server.fairness import commitment, new_seed
from hukum.server.identity.models import Player
from hukum.server.play.models import Challenge, ChallengeDeal, ChallengeEntry
from hukum.server.protocol import ProtocolError
from hukum.server.tables.config import TableConfig
from hukum.server.tables.state import TableState

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table

__all__ = [
    "CATCH_UP_EVERY",
    "Challenges",
    "DayDeal",
    "Entry",
    "Outcome",
    "by_deal",
    "catch_up",
    "closed",
    "day_of",
    "deal_percentages",
    "deal_seed",
    "entries_of_day",
    "entries_of_room",
    "entry_of",
    "insert_day",
    "make_day",
    "outcome_of",
    "outcome_of_room",
    "record",
    "refuse_open",
    "start_entry",
    "today",
    "unrecorded_rooms",
]

log = logging.getLogger("hukum.server")

#: Seconds between two catch-ups of challenge results (:meth:`Challenges.catching_up`).
CATCH_UP_EVERY = 300.0


def today() -> dt.date:
    """The challenge's day now (UTC)."""
    return dt.datetime.now(dt.UTC).date()


def closed(day: dt.date) -> bool:
    """Whether a day's challenge has closed (its seeds and boards are open)."""
    return day < today()


def refuse_open(config: TableConfig) -> None:
    """Refuse, ``challenge_open``, the board (replay, analysis) of a challenge table whose
    day has not closed."""
    if config.challenge is None:
        return
    day, _ = parse_deal_key(config.challenge)
    if not closed(day):
        raise ProtocolError(
            "challenge_open",
            "a daily challenge deal's board opens when its day closes",
            closes_at=closes_at(day).isoformat(),
        )


@dataclass(frozen=True)
class DayDeal:
    """One deal of a day's challenge as stored."""

    number: int
    seed: int
    commitment: str
    dealer: int
    preset: str


@dataclass(frozen=True)
class Entry:
    """A player's play of one deal (:class:`ChallengeEntry` read out of its session)."""

    id: int
    day: dt.date
    number: int
    player: str | None
    name: str
    username: str | None
    room: str
    finished: bool
    tens: int | None
    tricks: int | None
    won: bool | None

    @property
    def result(self) -> Result:
        """The entry as :func:`hukum.online.challenge.percentages` compares it (keyed by
        the entry's id: a deleted account's entry has no player)."""
        return Result(str(self.id), self.tens or 0, self.tricks or 0, bool(self.won), self.finished)


@dataclass(frozen=True)
class Outcome:
    """How a challenge table's deal ended for seat 0's team."""

    tens: int
    tricks: int
    won: bool


def _deals(s: Any, day: dt.date) -> list[DayDeal]:
    rows = s.scalars(
        select(ChallengeDeal).where(ChallengeDeal.day == day).order_by(ChallengeDeal.number)
    )
    return [DayDeal(r.number, int(r.seed), r.commitment, r.dealer, r.preset) for r in rows]


def day_of(store: Store, day: dt.date) -> list[DayDeal] | None:
    """A day's deals, or None if that day has no challenge (its deals are made with it, in
    one transaction). One statement: PostgreSQL ends a transaction left idle for 2 s
    (:data:`hukum.server.db.IDLE_IN_TRANSACTION_MS`), which a loaded machine reached
    between two."""
    with store.session() as s:
        return _deals(s, day) or None


def make_day(store: Store, day: dt.date) -> list[DayDeal]:
    """A day's deals, its challenge made now if it has none (once: a maker that loses the
    race to another reads the winner's deals back)."""
    found = day_of(store, day)
    return found if found is not None else insert_day(store, day)


def insert_day(store: Store, day: dt.date) -> list[DayDeal]:
    """Make a day's challenge and draw its deals; if another maker made it first (the day's
    key refuses this one), its deals. :func:`make_day` without the look first."""
    preset = preset_of(day)
    seeds = [new_seed() for _ in range(DEALS)]  # drawn before the transaction: it is short
    try:
        with store.session() as s:
            # The day's row is written first (the deals refer to it): a second maker is
            # refused by its key, or waits on it until the first commits and is refused then.
            s.add(Challenge(day=day, preset=preset, created_at=now()))
            s.add_all(
                ChallengeDeal(
                    day=day,
                    number=number,
                    seed=str(seed),
                    commitment=commitment(seed),
                    dealer=dealer_of(number),
                    preset=preset,
                )
                for number, seed in enumerate(seeds, start=1)
            )
            s.commit()
    except IntegrityError:
        log.info("the challenge of %s was made by another request meanwhile", day)
    made = day_of(store, day)
    assert made is not None
    return made


def deal_seed(store: Store, key: str) -> int:
    """The stored seed of a challenge deal, by its key (``2026-12-07/3``); KeyError if there
    is none."""
    day, number = parse_deal_key(key)
    with store.session() as s:
        row = s.get(ChallengeDeal, (day, number))
        if row is None:
            raise KeyError(key)
        return int(row.seed)


def _entries(s: Any, *where: Any) -> list[Entry]:
    query = (
        select(ChallengeEntry, Player.name, Player.username)
        .outerjoin(Player, Player.id == ChallengeEntry.player)
        .where(*where)
        .order_by(ChallengeEntry.id)
    )
    return [
        Entry(
            e.id,
            e.day,
            e.number,
            e.player,
            name if name is not None else e.name,
            username,
            e.room,
            e.finished_at is not None,
            e.tens,
            e.tricks,
            e.won,
        )
        for e, name, username in s.execute(query)
    ]


def entry_of(store: Store, day: dt.date, number: int, player: str) -> Entry | None:
    """A player's entry for one deal, or None."""
    with store.session() as s:
        found = _entries(
            s,
            ChallengeEntry.day == day,
            ChallengeEntry.number == number,
            ChallengeEntry.player == player,
        )
    return found[0] if found else None


def entries_of_day(store: Store, day: dt.date) -> list[Entry]:
    """Every entry of a day (every player, every deal)."""
    with store.session() as s:
        return _entries(s, ChallengeEntry.day == day)


def entries_of_room(store: Store, room: str) -> Entry | None:
    """The entry a challenge table belongs to, or None."""
    with store.session() as s:
        found = _entries(s, ChallengeEntry.room == room)
    return found[0] if found else None


def start_entry(
    store: Store, day: dt.date, number: int, player: str, name: str, room: str
) -> tuple[Entry, bool]:
    """Record that a player started a deal at table ``room``; the entry and whether this
    call made it (False: the player had one already, made by a concurrent request, whose
    entry is returned)."""
    try:
        with store.session() as s:
            s.add(
                ChallengeEntry(
                    day=day, number=number, player=player, name=name, room=room, started_at=now()
                )
            )
            s.commit()
        made = True
    except IntegrityError:
        made = False
    found = entry_of(store, day, number, player)
    assert found is not None
    return found, made


def outcome_of(config: TableConfig, state: TableState) -> Outcome | None:
    """Seat 0's team's result at a challenge table whose deal is over (None: not over)."""
    match = state.match
    if config.challenge is None or match is None or not match.deals:
        return None
    outcome: Any = match.deals[0].outcome()  # a Mindi outcome (the challenge is Mindi)
    if outcome is None:
        return None
    return Outcome(int(outcome.tens[0]), int(outcome.tricks[0]), outcome.winner == 0)


def outcome_of_room(store: Store, code: str) -> Outcome | None:
    """:func:`outcome_of` a stored room, replayed from its log (the catch-up)."""
    stored = store.room(code)
    if stored is None:
        return None
    config = TableConfig.from_dict(stored)
    state = TableState(code, config)
    for ev in store.events(code):
        state.apply(ev.number, ev.kind, ev.data)
    return outcome_of(config, state)


def record(store: Store, room: str, outcome: Outcome) -> bool:
    """Write a challenge table's result to its entry (once); whether this call wrote it."""
    with store.session() as s:
        done = s.execute(
            update(ChallengeEntry)
            .where(ChallengeEntry.room == room, ChallengeEntry.finished_at.is_(None))
            .values(finished_at=now(), tens=outcome.tens, tricks=outcome.tricks, won=outcome.won)
        )
        s.commit()
        return bool(getattr(done, "rowcount", 0))


def unrecorded_rooms(store: Store, limit: int = 200) -> list[str]:
    """Finished challenge tables whose entry has no result yet."""
    query = (
        select(ChallengeEntry.room)
        .join(Room, Room.code == ChallengeEntry.room)
        .where(Room.finished.is_(True), ChallengeEntry.finished_at.is_(None))
        .order_by(ChallengeEntry.id)
        .limit(limit)
    )
    with store.session() as s:
        return list(s.scalars(query))


def catch_up(store: Store) -> int:
    """Write the result of every finished challenge table that has none (a process stopped
    between the end and the write); how many this call wrote."""
    written = 0
    for code in unrecorded_rooms(store):
        try:
            outcome = outcome_of_room(store, code)
            if outcome is not None:
                written += record(store, code, outcome)
        except Exception:
            log.exception("challenge table %s: its result cannot be written; tried later", code)
    return written


def deal_percentages(entries: Sequence[Entry], closed: bool) -> dict[int, float]:
    """Each entry's percentage on its deal (the entries of one deal), by entry id: before
    the close among those who finished, after it among everyone who started (an unfinished
    deal scores 0)."""
    field = [e for e in entries if closed or e.finished]
    shares = percentages([e.result for e in field])
    return {e.id: shares[str(e.id)] for e in field}


def by_deal(entries: Sequence[Entry]) -> dict[int, list[Entry]]:
    """Entries grouped by their deal's number."""
    out: dict[int, list[Entry]] = {}
    for e in entries:
        out.setdefault(e.number, []).append(e)
    return out


class Challenges:
    """The app's keeper of challenge results: writes each challenge table's result as its
    deal ends (in a worker thread) and catches up on those no process wrote."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tasks: set[asyncio.Task[bool]] = set()

    def finished(self, table: Table) -> None:
        """A table of this process ended its match (:attr:`Registry.finished
        <hukum.server.tables.registry.Registry.finished>`): write its entry's result if
        it is a challenge table. Called in the event loop."""
        outcome = outcome_of(table.config, table)
        if outcome is None:
            return
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(record, self.store, table.code, outcome),
            name=f"challenge {table.code}",
        )
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[bool]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error(
                "writing a challenge result failed (the catch-up tries again)",
                exc_info=task.exception(),
            )

    async def settle(self) -> None:
        """Wait for the writes under way (tests; the app's shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def catching_up(self, every: float = CATCH_UP_EVERY) -> None:
        """Catch up at start and every ``every`` seconds, for ever (a task of the app)."""
        while True:
            try:
                written = await asyncio.to_thread(catch_up, self.store)
                if written:
                    log.info("wrote %d challenge result(s) that had not been", written)
            except Exception:
                log.exception("catching up on challenge results failed; trying again later")
            await asyncio.sleep(every)
