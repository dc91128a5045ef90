"""Rating a rated table when its match ends (:mod:`hukum.online.ratings` decides, this
module reads the table and writes the rows).

A table the quick-match pools made (its settings' ``pool``) is rated once its ``match_over``
event is stored: the registry tells the app (:attr:`Registry.finished
<hukum.server.tables.registry.Registry.finished>`) and :class:`Ratings` rates it in a worker
thread. A process killed in between loses nothing: :meth:`Ratings.catching_up` rates, at
start and every few minutes, each finished rated room that has no :class:`RatedMatch` row,
from its stored events.

Each rating is one transaction: the :class:`RatedMatch` row first (its primary key, the
room, makes the rating once only: a second attempt, by this process or another, finds it or
is refused by the database and changes nothing), then a :class:`RatedSeat` per seat and
each person's :class:`Rating` in the pool (a first rated match starts it at the model's
start). A person who was absent at the end (a computer player was playing for them) left the
match.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hukum.online.ratings import START_MU, START_SIGMA, Member, Side, rate_match
from hukum.server.db import Room, Store, StoredEvent, now
from hukum.server.play.models import RatedMatch, RatedSeat, Rating
from hukum.server.tables.config import TableConfig

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table
    from hukum.server.tables.seats import Seat

__all__ = [
    "CATCH_UP_BATCH",
    "CATCH_UP_EVERY",
    "Ratings",
    "SeatAtEnd",
    "at_end",
    "catch_up",
    "rate",
    "rate_room",
    "unrated_rooms",
]

log = logging.getLogger("hukum.server")

#: Seconds between two catch-ups (:meth:`Ratings.catching_up`).
CATCH_UP_EVERY = 300.0
#: The most rooms one catch-up rates (the next one takes the rest).
CATCH_UP_BATCH = 200
#: Tries of a rating whose transaction a concurrent one refused (a first Rating row of the
#: same person written by another rating meanwhile).
TRIES = 3


@dataclass(frozen=True)
class SeatAtEnd:
    """A seat as the match ended."""

    kind: str
    """``human`` or ``bot`` (``empty``: never at a started table)."""
    name: str
    player: str | None
    """The person's player id (None: a computer player, or a seat taken without a session)."""
    absent: bool
    """A computer player was playing for the person: they left."""


def at_end(seats: Sequence[Seat]) -> list[SeatAtEnd]:
    """The seats of a table now (called as its match ends)."""
    return [SeatAtEnd(s.kind, s.name, s.player, s.absent) for s in seats]


def _replay(events: Sequence[StoredEvent]) -> tuple[list[SeatAtEnd], dict[str, Any]] | None:
    """The seats and the match result at a room's ``match_over`` event, from its log (None:
    its match is not over)."""
    seats: dict[int, SeatAtEnd] = {}
    for ev in events:
        seat = ev.data.get("seat")
        if ev.kind == "seat" and isinstance(seat, int):
            seats[seat] = SeatAtEnd(
                ev.data["kind"], str(ev.data.get("name", "")), ev.data.get("player"), False
            )
        elif ev.kind in ("absent", "back") and isinstance(seat, int) and seat in seats:
            known = seats[seat]
            seats[seat] = SeatAtEnd(known.kind, known.name, known.player, ev.kind == "absent")
        elif ev.kind == "match_over":
            return [seats[i] for i in sorted(seats)], dict(ev.data)
    return None


def _sides(seats: Sequence[SeatAtEnd], result: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Each seat's side, and each side's place (0 first; equal places drew): Mindi's two
    teams (seats 0, 2 and 1, 3) from the ``winner`` (None: level); Ganjifa's seats each
    their own side, placed by their scores (else by ``winners``)."""
    if "winner" in result:
        winner = result["winner"]
        places = [0 if winner is None or winner == team else 1 for team in (0, 1)]
        return [i % 2 for i in range(len(seats))], places
    scores = result.get("scores")
    if isinstance(scores, list) and len(scores) == len(seats):
        places = [sum(1 for other in scores if other > mine) for mine in scores]
    else:
        winners = set(result.get("winners", ()))
        places = [0 if i in winners else 1 for i in range(len(seats))]
    return list(range(len(seats))), places


def _words(places: Sequence[int]) -> list[str]:
    """``win`` (first alone), ``draw`` (first with others) or ``loss`` for each place."""
    best = min(places)
    shared = sum(1 for p in places if p == best) > 1
    return ["loss" if p != best else "draw" if shared else "win" for p in places]


def rate(
    store: Store, code: str, config: TableConfig, seats: Sequence[SeatAtEnd], result: dict[str, Any]
) -> bool:
    """Rate the match of rated room ``code``, which ended with these seats and this result
    (its ``match_over`` event's data), in one transaction; whether this call rated it
    (False: it was rated already, or is not a rated room)."""
    if config.pool is None:
        return False
    with store.lock("ratings"):
        for attempt in range(TRIES):
            try:
                with store.session() as s:
                    return _rate(s, code, config, seats, result)
            except IntegrityError:
                with store.session() as s:
                    if s.get(RatedMatch, code) is not None:
                        return False  # another process rated it meanwhile
                if attempt == TRIES - 1:
                    raise
    return False


def _rate(
    s: Session,
    code: str,
    config: TableConfig,
    seats: Sequence[SeatAtEnd],
    result: dict[str, Any],
) -> bool:
    """:func:`rate` in session ``s``."""
    assert config.pool is not None
    if s.get(RatedMatch, code) is not None:
        return False
    at = now()
    # The match's row first: a concurrent rating of the same room waits on it and is refused.
    s.add(RatedMatch(room=code, pool=config.pool, rated_at=at))
    s.flush()
    people = sorted({seat.player for seat in seats if seat.kind == "human" and seat.player})
    rows: dict[str, Rating] = {}
    if people:
        query = (
            select(Rating)
            .where(Rating.pool == config.pool, Rating.player.in_(people))
            .order_by(Rating.player)
            .with_for_update()
        )
        rows = {row.player: row for row in s.scalars(query)}
    team_of, places = _sides(seats, result)
    members: list[list[tuple[int, Member]]] = [[] for _ in places]
    for i, seat in enumerate(seats):
        if seat.kind == "human":
            row = rows.get(seat.player or "")
            mu, sigma = (row.mu, row.sigma) if row else (START_MU, START_SIGMA)
            member = Member(mu, sigma, left=seat.absent)
        else:
            member = Member.computer(config.game, config.bots)
        members[team_of[i]].append((i, member))
    sides = [Side(tuple(m for _, m in side), places[t]) for t, side in enumerate(members)]
    new = rate_match(sides)
    leaving = [t for t, side in enumerate(sides) if any(m.left for m in side.members)]
    board = _words(places)
    rated_words = list(board)
    if len(leaving) == 1:
        # The leaver's side is last; the others are placed among themselves.
        others = [t for t in range(len(sides)) if t != leaving[0]]
        for t, word in zip(others, _words([places[t] for t in others]), strict=True):
            rated_words[t] = word
    # Each seat's member (its rating before) and new rating (None: it does not move).
    by_seat: dict[int, tuple[Member, tuple[float, float] | None]] = {}
    for t, side in enumerate(members):
        for j, (i, member) in enumerate(side):
            by_seat[i] = (member, new[t][j])
    for i, seat in enumerate(seats):
        member, moved = by_seat[i]
        word = "loss" if seat.absent else rated_words[team_of[i]] if moved else board[team_of[i]]
        s.add(
            RatedSeat(
                room=code,
                seat=i,
                player=seat.player if seat.kind == "human" else None,
                bot=config.bots if seat.kind != "human" else None,
                name=seat.name,
                team=team_of[i],
                result=word,
                left=seat.kind == "human" and seat.absent,
                mu_before=member.mu if moved else None,
                sigma_before=member.sigma if moved else None,
                mu_after=moved[0] if moved else None,
                sigma_after=moved[1] if moved else None,
            )
        )
        if seat.kind != "human" or not seat.player:
            continue
        row = rows.get(seat.player)
        if row is None:
            row = rows[seat.player] = Rating(
                player=seat.player,
                pool=config.pool,
                mu=START_MU,
                sigma=START_SIGMA,
                games=0,
                wins=0,
                finished=0,
                left=0,
            )
            s.add(row)
        if moved is not None:
            row.mu, row.sigma = moved
            row.games += 1
            row.wins += word == "win"
        if seat.absent:
            row.left += 1
        else:
            row.finished += 1
        row.updated_at = at
    s.commit()
    return True


def rate_room(store: Store, code: str) -> bool:
    """Rate a finished rated room from its stored events (the catch-up); whether this call
    rated it."""
    stored = store.room(code)
    if stored is None:
        return False
    config = TableConfig.from_dict(stored)
    if config.pool is None:
        return False
    ended = _replay(store.events(code))
    if ended is None:
        return False
    seats, result = ended
    return rate(store, code, config, seats, result)


def unrated_rooms(store: Store, limit: int = CATCH_UP_BATCH) -> list[str]:
    """The finished rooms with a pool whose match has no :class:`RatedMatch` row, oldest
    first."""
    query = (
        select(Room.code)
        .outerjoin(RatedMatch, RatedMatch.room == Room.code)
        .where(
            Room.finished.is_(True),
            RatedMatch.room.is_(None),
            Room.config["pool"].as_string().is_not(None),
        )
        .order_by(Room.created_at)
        .limit(limit)
    )
    with store.session() as s:
        return list(s.scalars(query))


def catch_up(store: Store) -> int:
    """Rate every finished rated room not rated yet (a process stopped between a match's end
    and its rating); how many this call rated. A room that cannot be rated is logged and
    left (the next catch-up tries it again)."""
    rated = 0
    for code in unrated_rooms(store):
        try:
            rated += rate_room(store, code)
        except Exception:
            log.exception("rated room %s cannot be rated; tried again later", code)
    return rated


class Ratings:
    """The app's rater: rates each rated table of this process as its match ends (in a
    worker thread, off the event loop) and catches up on the ones no process rated."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tasks: set[asyncio.Task[bool]] = set()
        self.caught_up = asyncio.Event()
        """Set once the first catch-up (at start) is done."""

    def finished(self, table: Table) -> None:
        """A table of this process ended its match (:attr:`Registry.finished`): rate it if
        it is rated. Called in the event loop, right after ``match_over`` is stored."""
        if table.config.pool is None or table.match is None:
            return
        seats = at_end(table.seats)
        result = table.spec.match_result(table.match)
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(rate, self.store, table.code, table.config, seats, result),
            name=f"rate {table.code}",
        )
        self._tasks.add(task)  # kept, so that it is not collected before it is done
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[bool]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("rating a match failed (the catch-up tries again)", exc_info=task.exception())

    async def settle(self) -> None:
        """Wait for the ratings under way (tests; the app's shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def catching_up(self, every: float = CATCH_UP_EVERY) -> None:
        """Catch up at start and every ``every`` seconds, for ever (a task of the app)."""
        while True:
            try:
                rated = await asyncio.to_thread(catch_up, self.store)
                if rated:
                    log.info("rated %d finished match(es) that had not been", rated)
            except Exception:
                log.exception("catching up on ratings failed; trying again later")
            self.caught_up.set()
            await asyncio.sleep(every)
