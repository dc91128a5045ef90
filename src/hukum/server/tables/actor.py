"""The table: one room as a small actor owning its engine state.

A :class:`Table` accepts changes one at a time (an :class:`asyncio.Lock`), appends each
accepted change to its event log in the database *before* anyone is told, then tells each
subscribed seat its own message (:mod:`hukum.server.tables.messages`). The write goes
through the process's journal (:mod:`hukum.server.tables.journal`), which commits the
events of many tables together, while the table's lock is held: the table waits for its
own write (so the order of its events and "stored before told" hold), but the event loop,
and every other table, does not. Its state is rebuilt by replaying the log (:meth:`Table.load`),
which is how a restarted server resumes every table. The connection layer sees only the
narrow interface: submit a move or another action for a seat, and subscribe to the
table's messages for a seat.

A person's move is read once from its text (the game's ``parse_move``) and pushed once on
the engine's deal, which checks it (an illegal move leaves the deal as it was); the move is
then stored, and taken back if it cannot be. Whatever tells a seat about the table reads it
under the lock, so nobody is told of a move before it is stored.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hukum.game import GameError, IllegalMoveError
from hukum.server.db import NewEvent
from hukum.server.fairness import commitment, new_seed
from hukum.server.protocol import ProtocolError, refused
from hukum.server.tables.config import TableConfig
from hukum.server.tables.journal import Journal, to_the_end
from hukum.server.tables.messages import event_message, event_messages, state_message
from hukum.server.tables.messages import public as public_table
from hukum.server.tables.scheduler import Scheduler, Stale
from hukum.server.tables.seats import Seat, new_token, token_hash
from hukum.server.tables.state import TableDeal, TableMatch, TableState

__all__ = ["RESUME_LIMIT", "Send", "Table"]

log = logging.getLogger("hukum.server")

#: A reconnecting seat that missed at most this many events is sent them one by one;
#: after a longer absence it gets a ``state`` instead.
RESUME_LIMIT = 200

Send = Callable[[dict[str, Any]], None]


@dataclass
class _Sub:
    seat: int
    send: Send


class Table(TableState):
    """One room, one match: seats, the engine state, the event counter, subscribers."""

    def __init__(
        self, code: str, config: TableConfig, journal: Journal, bot_delay: float = 0.6
    ) -> None:
        super().__init__(code, config)
        self.journal = journal
        self.store = journal.store
        self.bot_delay = bot_delay
        self.lock = asyncio.Lock()
        self.max_move_text = self.spec.max_move_text(config.rules)
        """The longest move text of the table's game under its rules."""
        self.resume_limit = RESUME_LIMIT
        self.scheduler = Scheduler(self)
        self.analyses: dict[int, asyncio.Task[dict[str, Any]]] = {}
        """The analysis of each finished deal asked for (by deal number), solved once."""
        self._subs: dict[int, _Sub] = {}
        self._next_sub = 0

    # ------------------------------------------------------------ replay and commit

    @classmethod
    def load(cls, code: str, journal: Journal, bot_delay: float) -> Table | None:
        """Rebuild a table from the database by replaying its event log."""
        config = journal.store.room(code)
        if config is None:
            return None
        table = cls(code, TableConfig.from_dict(config), journal, bot_delay)
        for ev in journal.store.events(code):
            table.apply(ev.number, ev.kind, ev.data)
        return table

    async def _store(self, number: int, kind: str, data: dict[str, Any]) -> bool:
        """Append an event to the log (the lock is held); whether the calling task was
        cancelled meanwhile.

        If the calling task is cancelled while the journal writes (the server shutting
        down), the write is still awaited, so that the caller applies and tells the stored
        event before the cancellation goes on and memory never differs from the log. A
        failed write raises.
        """
        return await to_the_end(self.journal.append(NewEvent(self.code, number, kind, data)))

    async def commit(self, kind: str, data: dict[str, Any]) -> int:
        """Store an event, apply it, then tell every subscriber (the lock is held); its
        number. If the write fails, nothing is applied and nobody is told."""
        number = self.event + 1
        cancelled = await self._store(number, kind, data)
        move = self.apply(number, kind, data)
        self._publish(kind, data, move)
        if cancelled:
            raise asyncio.CancelledError
        return number

    async def _commit_move(self, deal: TableDeal, seat: int, move: object, bot: bool) -> int:
        """Push a move on the deal (the engine checks it), store it, then tell every
        subscriber (the lock is held); its event number. A move that cannot be stored is
        taken back."""
        try:
            deal.push(move, seat=seat)
        except IllegalMoveError as e:
            raise refused(e) from None
        number = self.event + 1
        data = {"seat": seat, "move": str(move), "bot": bot}
        try:
            cancelled = await self._store(number, "move", data)
        except BaseException:
            deal.pop()
            raise
        self.event = self.turn_event = number
        self._publish("move", data, move)
        if cancelled:
            raise asyncio.CancelledError
        return number

    # ------------------------------------------------------------ what seats see

    def public(self) -> dict[str, Any]:
        """The public table (no tokens, no cards)."""
        return public_table(self)

    def _publish(self, kind: str, data: dict[str, Any], move: object | None) -> None:
        """Tell every subscriber about the event just applied: each seat's message built
        once, however many connections it has."""
        if not self._subs:
            return
        subs = list(self._subs.values())
        told = event_messages(self, (sub.seat for sub in subs), kind, data, move)
        for sub in subs:
            try:
                sub.send(told[sub.seat])
            except Exception:  # a broken connection must not stop the table
                log.exception("sending to a subscriber of table %s failed", self.code)

    async def subscribe(self, seat: int, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive this seat's messages; returns the function that ends the subscription.

        First the seat is brought up to date. A client that saw every event up to ``last``
        (at most :attr:`resume_limit` behind) is sent the events it missed, each exactly
        as it would have been told live (:meth:`replay`), or nothing if it missed none;
        any other client gets a ``state``. Events that happen while the missed ones are
        read back from the log are held and sent after them, so the seat sees every event
        once, in order.
        """
        async with self.lock:  # never between a move and its write
            key = self._next_sub
            self._next_sub += 1
            paused = not self.present()
            self.seats[seat].connections += 1
            sub = self._subs[key] = _Sub(seat, send)
            unsubscribe = self._unsubscriber(key, seat)
            if paused and self.status == "playing":
                self.resume()
            upto = self.event
            if last is None or not 0 <= last <= upto or upto - last > self.resume_limit:
                send(state_message(self, seat))
                return unsubscribe
            if last == upto:
                return unsubscribe
            held: list[dict[str, Any]] = []
            sub.send = held.append
            connections = [s.connections for s in self.seats]
        try:
            missed = await asyncio.to_thread(self.replay, seat, last, upto, connections)
        except asyncio.CancelledError:
            unsubscribe()
            raise
        except Exception:
            log.exception("replaying table %s for seat %d failed; sending a state", self.code, seat)
            async with self.lock:
                send(state_message(self, seat))
                sub.send = send
            return unsubscribe
        for message in missed + held:
            send(message)
        sub.send = send
        return unsubscribe

    def _unsubscriber(self, key: int, seat: int) -> Callable[[], None]:
        def unsubscribe() -> None:
            if self._subs.pop(key, None) is not None:
                self.seats[seat].connections -= 1

        return unsubscribe

    def replay(
        self, seat: int, last: int, upto: int, connections: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """The messages ``seat`` was told about events ``last``+1 … ``upto``, rebuilt from the
        stored log (a copy of the table's state replays it; runs in a worker thread). The
        same code builds them as live (:mod:`~hukum.server.tables.messages`), so they hold
        exactly what the seat saw then; only the seats' ``connected`` flags are those of now
        (``connections``)."""
        copy = TableState(self.code, self.config)
        for s, n in zip(copy.seats, connections or [], strict=False):
            s.connections = n
        told: list[dict[str, Any]] = []
        for ev in self.store.events(self.code, upto=upto):
            if ev.number != copy.event + 1:
                raise RuntimeError(f"table {self.code}: event {ev.number} after {copy.event}")
            move = copy.apply(ev.number, ev.kind, ev.data)
            if ev.number > last:
                told.append(event_message(copy, seat, ev.kind, ev.data, move))
        if copy.event != upto:
            raise RuntimeError(f"table {self.code}: the log ends at {copy.event}, not {upto}")
        return told

    async def finished_deal(self, number: int) -> TableDeal:
        """Deal ``number`` (from 1) once it is over, when all its cards are public (read under
        the lock: never a deal whose last move is still being stored); ``unknown_deal`` or
        ``deal_not_over`` otherwise."""
        async with self.lock:
            deals = list(self.match.deals) if self.match is not None else []
            if not 1 <= number <= len(deals):
                raise ProtocolError("unknown_deal", f"no deal {number} at this table", 404)
            deal = deals[number - 1]
            if not deal.is_over():
                raise ProtocolError("deal_not_over", "a deal is shown once it is over", 409)
            return deal

    # ------------------------------------------------------------ lobby actions

    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                "unknown_seat", f"no seat {seat}: seats are 0 to {len(self.seats) - 1}", 404
            )
        return self.seats[seat]

    async def take_seat(self, seat: int, name: str) -> str:
        """Seat a person at an empty seat; their token."""
        async with self.lock:
            if self._seat(seat).kind != "empty":
                raise ProtocolError("seat_taken", f"seat {seat} is taken", 409)
            if self.status != "waiting":
                raise ProtocolError("already_started", "the match has started", 409)
            token = new_token()
            await self.commit(
                "seat", {"seat": seat, "kind": "human", "name": name, "token": token_hash(token)}
            )
            return token

    def _holder(self, token: str | None) -> int:
        seat = self.seat_of(token)
        if seat is None:
            raise ProtocolError("bad_token", "that token holds no seat at this table", 403)
        return seat

    async def fill_with_bots(self, token: str | None) -> int:
        """Seat a bot at every empty seat; the last event number."""
        async with self.lock:
            self._holder(token)
            if self.status != "waiting":
                raise ProtocolError("already_started", "the match has started", 409)
            await self._fill()
            return self.event

    async def _fill(self) -> None:
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                name = f"{self.config.bots} bot"
                await self.commit("seat", {"seat": i, "kind": "bot", "name": name})

    async def start(self, token: str | None, *, fill: bool = False) -> int:
        """Start the match once every seat is filled; the last event number."""
        async with self.lock:
            self._holder(token)
            if self.status != "waiting":
                raise ProtocolError("already_started", "the match has started", 409)
            if fill:
                await self._fill()
            if any(s.kind == "empty" for s in self.seats):
                raise ProtocolError("seats_empty", "every seat needs a player or a bot", 409)
            await self.commit("start", {"match_seed": secrets.randbits(64)})
            await self.start_deal()
            await self.scheduler.schedule()
            return self.event

    async def start_deal(self) -> None:
        """Deal the next deal from a fresh seed, publishing its commitment (lock held)."""
        assert self.match is not None
        seed = new_seed()
        data = {"seed": seed, "commitment": commitment(seed), "dealer": self.match.dealer}
        await self.commit("deal", data)

    # ------------------------------------------------------------ play

    def _playing(self) -> TableMatch:
        if self.status == "waiting" or self.match is None:
            raise ProtocolError("not_started", "the match has not started")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        return self.match

    def _in_play(self) -> tuple[TableMatch, TableDeal]:
        match = self._playing()
        deal = match.current
        if deal is None:
            raise ProtocolError(
                "not_your_turn", "the deal is over; the next one has not begun", turn=None
            )
        return match, deal

    async def submit_move(self, seat: int, text: str, seen: int | None = None) -> int:
        """A person's move for a seat, as text (read once, checked by the engine); the
        event number it got. ``seen``: the last event the person had seen when choosing it;
        if a move (or a new deal) has been made since, the move answers a turn that has
        passed and is refused, ``stale_move``, changing nothing."""
        async with self.lock:
            if seen is not None and seen > self.event:
                raise ProtocolError("bad_message", f"event {seen} has not happened yet")
            if seen is not None and seen < self.turn_event:
                raise ProtocolError(
                    "stale_move",
                    f"the move answers event {seen}, but the play has gone on since event "
                    f"{self.turn_event}",
                    event=self.event,
                    turn=self.deal.turn if self.deal is not None else None,
                )
            match, deal = self._in_play()
            try:
                move: object = self.spec.parse_move(text)
            except GameError as e:
                raise refused(e) from None
            return await self._play(match, deal, seat, move, bot=False)

    async def submit_bot_move(self, seat: int, move: object, expected: int) -> int:
        """A bot's move for a seat, chosen at event ``expected``; Stale if the table has
        moved on since."""
        async with self.lock:
            if self.event != expected or not self.scheduler.may_run(seat):
                raise Stale
            match, deal = self._in_play()
            return await self._play(match, deal, seat, move, bot=True)

    async def _play(
        self, match: TableMatch, deal: TableDeal, seat: int, move: object, *, bot: bool
    ) -> int:
        if deal.turn != seat:
            raise ProtocolError("not_your_turn", f"seat {deal.turn} is to move", turn=deal.turn)
        if not bot and self.seats[seat].absent:
            # The person takes the seat back first, but only with a move the rules allow.
            try:
                deal.check(move, seat=seat)
            except IllegalMoveError as e:
                raise refused(e) from None
            await self.commit("back", {"seat": seat})
        number = await self._commit_move(deal, seat, move, bot)
        if deal.is_over():
            await self.commit("deal_over", {"seed": deal.seed, **self.spec.deal_result(deal)})
            if match.is_over():
                await self.commit("match_over", self.spec.match_result(match))
        await self.scheduler.schedule()
        return number

    async def ready(self, seat: int) -> int:
        """The seat is ready for the next deal."""
        async with self.lock:
            match = self._playing()
            if match.current is not None:
                raise ProtocolError("not_your_turn", "the deal is still being played")
            if not self.seats[seat].ready:
                await self.commit("ready", {"seat": seat})
            await self.scheduler.schedule()
            return self.event

    async def take_back(self, seat: int) -> int:
        """An absent player takes the seat back from the bot."""
        async with self.lock:
            self._playing()
            if self.seats[seat].absent:
                await self.commit("back", {"seat": seat})
                await self.scheduler.schedule()
            return self.event

    # ------------------------------------------------------------ bots and timers

    def resume(self) -> None:
        """Start whatever the table waits for (after a load, or when a person comes)."""
        self.scheduler.resume()

    @property
    def planned(self) -> str | None:
        """The automatic step the table waits for (``bot``, ``timeout``, ``next_deal``,
        ``resume``), or None: waiting for a person, paused, or over."""
        return self.scheduler.planned

    def close(self) -> None:
        """Stop the table's timers (server shutdown)."""
        self.scheduler.close()
