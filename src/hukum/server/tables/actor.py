"""The table: one room as a small actor owning its engine state.

A :class:`Table` accepts changes one at a time (an :class:`asyncio.Lock`), appends each
accepted change to its event log in the database *before* anyone is told, then tells each
subscribed seat its own message (:mod:`hukum.server.tables.messages`). The write goes
through the process's journal (:mod:`hukum.server.tables.journal`), which commits the
events of many tables together, while the table's lock is held: the table waits for its
own write (so the order of its events and "stored before told" hold), but the event loop,
and every other table, does not. Its state is rebuilt by replaying the log (:meth:`Table.load`),
which is how a restarted server resumes every table. The connection layer sees only the
narrow interface: run a command (:mod:`~hukum.server.tables.commands`: a move or another
action for a seat), and subscribe to the table's messages for a seat.

A person's move is read once from its text (the game's ``parse_move``) and pushed once on
the engine's deal, which checks it (an illegal move leaves the deal as it was); the move is
then stored, and taken back if it cannot be. Whatever tells a seat about the table reads it
under the lock, so nobody is told of a move before it is stored.

In a cluster of server processes (:mod:`hukum.server.cluster`) the table's actor lives in
the process that owns the table; the others keep replicas
(:mod:`~hukum.server.tables.replica`), whose commands it runs and which it sends every
event it stores (:attr:`Table.followers`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import IntegrityError

from hukum.game import GameError, IllegalMoveError
from hukum.online.challenge import closes_at, dealer_of, match_seed_for, parse_deal_key
from hukum.server.db import NewEvent
from hukum.server.fairness import commitment, new_seed
from hukum.server.tables.audience import Audience, Send, Subscription
from hukum.server.tables.commands import Caller, Command
from hukum.server.tables.config import TableConfig
from hukum.server.tables.errors import TableError, refused
from hukum.server.tables.journal import Journal, to_the_end
from hukum.server.tables.messages import Viewer
from hukum.server.tables.scheduler import Scheduler, Stale
from hukum.server.tables.seats import Seat, bot_name, new_token, token_hash
from hukum.server.tables.state import TableDeal, TableMatch

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from hukum.server.cluster import Cluster

__all__ = ["Table"]

P = TypeVar("P", bound="DataclassInstance")
R = TypeVar("R")

log = logging.getLogger("hukum.server")


class Table(Audience):
    """One room, one match: seats, the engine state, the event counter, subscribers."""

    def __init__(
        self,
        code: str,
        config: TableConfig,
        journal: Journal,
        bot_delay: float = 0.6,
        cluster: Cluster | None = None,
    ) -> None:
        super().__init__(code, config, journal.store)
        self.journal = journal
        self.bot_delay = bot_delay
        self.cluster = cluster
        """The cluster this process is part of (None: the only process)."""
        self.followers: set[str] = set()
        """The other processes that follow the table (they are sent its events)."""
        self.remote: dict[str, list[int]] = {}
        """Each other process's connections, by seat (counted in the seats' connections)."""
        self.forked: Callable[[Table], None] | None = None
        """Told when the log holds an event this table does not (another process changed
        the table): its memory is behind the log and must be read again."""
        self.spawn: Callable[[TableConfig, list[Seat]], Awaitable[str]] | None = None
        """Makes a new room with these settings and these seats (each person's token kept)
        and starts its match; its code (the rematch, :meth:`rematch`). Set by the registry."""
        self.over: Callable[[Table], None] | None = None
        """Told when this process stores the table's ``match_over`` event (a rated table's
        match is rated then, :mod:`hukum.server.play.results`). Set by the registry."""
        self.challenge_seed: Callable[[str], Awaitable[int]] | None = None
        """Looks up the stored seed of a daily challenge's deal by its key (a table with
        :attr:`TableConfig.challenge <hukum.server.tables.config.TableConfig.challenge>`
        deals it). Set by the registry."""
        self.scheduler = Scheduler(self)

    # ------------------------------------------------------------ replay and commit

    @classmethod
    def load(
        cls, code: str, journal: Journal, bot_delay: float, cluster: Cluster | None = None
    ) -> Table | None:
        """Rebuild a table from the database by replaying its event log."""
        config = journal.store.room(code)
        if config is None:
            return None
        table = cls(code, TableConfig.from_dict(config), journal, bot_delay, cluster)
        for ev in journal.store.events(code):
            table.apply(ev.number, ev.kind, ev.data)
        return table

    async def _store(self, number: int, kind: str, data: dict[str, Any]) -> bool:
        """Append an event to the log (the lock is held); whether the calling task was
        cancelled meanwhile.

        If the calling task is cancelled while the journal writes (the server shutting
        down), the write is still awaited, so that the caller applies and tells the stored
        event before the cancellation goes on and memory never differs from the log. A
        failed write raises; one whose number another process stored first (it took the
        table over while this one was stopped) tells :attr:`forked` and raises
        ``table_moved``.
        """
        try:
            return await to_the_end(self.journal.append(NewEvent(self.code, number, kind, data)))
        except IntegrityError:
            log.warning("table %s: event %d was stored by another process", self.code, number)
            if self.forked is not None:
                self.forked(self)
            raise TableError(
                "table_moved", "the table has moved to another server process: reconnect"
            ) from None

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
        self.event = self.turn_event = self.step = number
        self._publish("move", data, move)
        if cancelled:
            raise asyncio.CancelledError
        return number

    # ------------------------------------------------------------ commands

    async def run(self, command: Command[P, R], payload: P, by: Caller) -> R:
        """Run a command of :mod:`~hukum.server.tables.commands` here, at its owner; its
        result, or TableError."""
        if command.run is not None:
            return await command.run(self, payload, by)
        assert command.ask is not None
        return await command.ask(self, payload, by)

    # ------------------------------------------------------------ what seats see

    def _publish(self, kind: str, data: dict[str, Any], move: object | None) -> None:
        """Tell every subscriber of this process, and every process that follows the table,
        about the event just applied."""
        super()._publish(kind, data, move)
        if self.followers and self.cluster is not None:
            message = {
                "from": self.cluster.id,
                "code": self.code,
                "n": self.event,
                "kind": kind,
                "data": data,
                "conn": [s.connections for s in self.seats],
            }
            for process in self.followers:
                self.cluster.tell(process, message)

    def tell_presence(self, joined: Subscription | None = None) -> bool:
        """Tell every connection of this process but ``joined``, and every process that
        follows the table (the seats' connection counts, :meth:`Replica.presence
        <hukum.server.tables.replica.Replica.presence>`), whether each seat is connected,
        if that changed; whether it did."""
        if not super().tell_presence(joined):
            return False
        if self.followers and self.cluster is not None:
            message = {
                "from": self.cluster.id,
                "code": self.code,
                "n": self.event,
                "presence": [s.connections for s in self.seats],
            }
            for process in self.followers:
                self.cluster.tell(process, message)
        return True

    async def subscribe(self, seat: int, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive this seat's messages; returns the function that ends the subscription.
        First the seat is brought up to date (:meth:`Audience._greet`): the events it
        missed since ``last``, or a ``state``."""
        async with self.lock:  # never between a move and its write
            paused = not self.present()
            self.seats[seat].connections += 1
            sub, unsubscribe = self._join(seat, send)
            if paused and self.status == "playing":
                self.resume()
            missed = self._greet(sub, seat, last)
            self.presence_changed(online=True, joined=sub)
        return await self._send_missed(sub, seat, missed, unsubscribe)

    async def watch(self, send: Send, last: int | None = None) -> Callable[[], None]:
        """Receive a watcher's messages (the public ones); returns the function that ends
        the subscription. Brought up to date as a seat is (:meth:`subscribe`). A watcher is
        nobody at the table: it neither resumes a paused table nor keeps it going."""
        async with self.lock:
            sub, unsubscribe = self._join(None, send)
            missed = self._greet(sub, None, last)
        return await self._send_missed(sub, None, missed, unsubscribe)

    def _left(self, seat: Viewer) -> None:
        if seat is not None:
            self.seats[seat].connections -= 1
            if not self.seats[seat].connections:
                self.presence_changed(online=False)

    async def attach(self, seat: int, process: str) -> int:
        """A connection of ``seat`` at another process (which follows the table from now
        on); the last event number."""
        async with self.lock:
            self._seat(seat)
            paused = not self.present()
            self.seats[seat].connections += 1
            self.remote.setdefault(process, [0] * len(self.seats))[seat] += 1
            self.followers.add(process)
            if paused and self.status == "playing":
                self.resume()
            self.presence_changed(online=True)
            return self.event

    def detach(self, seat: int, process: str) -> None:
        """A connection of ``seat`` at another process ended."""
        counts = self.remote.get(process)
        if counts is not None and 0 <= seat < len(counts) and counts[seat] > 0:
            counts[seat] -= 1
            self.seats[seat].connections -= 1
            if not self.seats[seat].connections:
                self.presence_changed(online=False)

    def forget_process(self, process: str) -> None:
        """Another process is dead: its connections and its following end."""
        self.followers.discard(process)
        for seat, n in enumerate(self.remote.pop(process, [])):
            self.seats[seat].connections -= n
        self.presence_changed(online=False)

    # ------------------------------------------------------------ lobby actions

    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise TableError(
                "unknown_seat", f"no seat {seat}: seats are 0 to {len(self.seats) - 1}"
            )
        return self.seats[seat]

    async def take_seat(self, seat: int, name: str, player: str | None = None) -> str:
        """Seat a person at an empty seat; their token. ``player``: the id of the player
        whose session takes it (stored in the seat's event, never told), who may hold one
        seat of the table (``already_seated``)."""
        async with self.lock:
            if self._seat(seat).kind != "empty":
                raise TableError("seat_taken", f"seat {seat} is taken")
            if self.status != "waiting":
                raise TableError("already_started", "the match has started")
            held = self.seat_of_player(player)
            if held is not None:
                raise TableError("already_seated", f"you sit at seat {held} of this table")
            token = new_token()
            data = {"seat": seat, "kind": "human", "name": name, "token": token_hash(token)}
            await self.commit("seat", {**data, "player": player} if player else data)
            return token

    def _holder(self, token: str | None, player: str | None = None) -> int:
        """The seat a token holds, else the seat of the player whose session asks; else
        ``bad_token``."""
        seat = self.seat_of(token)
        if seat is None:
            seat = self.seat_of_player(player)
        if seat is None:
            raise TableError("bad_token", "that token holds no seat at this table")
        return seat

    async def fill_with_bots(self, token: str | None, player: str | None = None) -> int:
        """Seat a bot at every empty seat (asked by whoever holds a seat, by its token or
        its player's session); the last event number."""
        async with self.lock:
            self._holder(token, player)
            if self.status != "waiting":
                raise TableError("already_started", "the match has started")
            await self._fill()
            return self.event

    async def _fill(self) -> None:
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                name = bot_name(self.code, i, [t.name for t in self.seats])
                await self.commit("seat", {"seat": i, "kind": "bot", "name": name})

    async def start(
        self, token: str | None, *, fill: bool = False, player: str | None = None
    ) -> int:
        """Start the match once every seat is filled (asked by whoever holds a seat, by its
        token or its player's session); the last event number."""
        async with self.lock:
            self._holder(token, player)
            if self.status != "waiting":
                raise TableError("already_started", "the match has started")
            if fill:
                await self._fill()
            if any(s.kind == "empty" for s in self.seats):
                raise TableError("seats_empty", "every seat needs a player or a bot")
            await self.commit("start", {"match_seed": await self._match_seed()})
            await self.start_deal()
            await self.scheduler.schedule()
            return self.event

    async def _challenge(self) -> tuple[int, int]:
        """The stored seed and the dealer of the challenge deal this table plays."""
        key = self.config.challenge
        assert key is not None
        if self.challenge_seed is None:
            raise TableError("unknown_deal", f"no daily challenge deal {key!r} here")
        _, number = parse_deal_key(key)
        return await self.challenge_seed(key), dealer_of(number)

    async def _match_seed(self) -> int:
        """A new match's seed: random, or for a challenge deal one whose first dealer is
        the deal's."""
        if self.config.challenge is None:
            return secrets.randbits(64)
        seed, dealer = await self._challenge()
        return match_seed_for(self.config.rules, dealer, seed)

    async def start_deal(self) -> None:
        """Deal the next deal from a fresh seed (a challenge deal: its stored seed),
        publishing its commitment (lock held)."""
        assert self.match is not None
        if self.config.challenge is None:
            seed = new_seed()
        else:
            seed, dealer = await self._challenge()
            if self.match.dealer != dealer:
                raise TableError("damaged_table", "the challenge deal's dealer is not drawn")
        data = {"seed": seed, "commitment": commitment(seed), "dealer": self.match.dealer}
        await self.commit("deal", data)

    # ------------------------------------------------------------ play

    def _playing(self) -> TableMatch:
        if self.status == "waiting" or self.match is None:
            raise TableError("not_started", "the match has not started")
        if self.status == "over":
            raise TableError("match_over", "the match is over")
        return self.match

    def _in_play(self) -> tuple[TableMatch, TableDeal]:
        match = self._playing()
        deal = match.current
        if deal is None:
            raise TableError(
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
                raise TableError("bad_message", f"event {seen} has not happened yet")
            if seen is not None and seen < self.turn_event:
                raise TableError(
                    "stale_move",
                    f"the move answers event {seen}, but the play has gone on since event "
                    f"{self.turn_event}",
                    event=self.event,
                    turn=self.deal.turn if self.deal is not None else None,
                )
            match, deal = self._in_play()
            self._refuse_after_close()
            try:
                move: object = self.spec.parse_move(text)
            except GameError as e:
                raise refused(e) from None
            return await self._play(match, deal, seat, move, bot=False)

    def _refuse_after_close(self) -> None:
        """A daily challenge deal is played until its day closes: a person's move after
        that is refused, ``challenge_closed`` (the deal scores 0, unfinished)."""
        key = self.config.challenge
        if key is None:
            return
        day, _ = parse_deal_key(key)
        if dt.datetime.now(dt.UTC) >= closes_at(day):
            raise TableError("challenge_closed", f"the challenge of {day} has closed")

    async def submit_bot_move(self, seat: int, move: object, expected: int) -> int:
        """A bot's move for a seat, chosen at event ``expected``; Stale if the table has
        moved on since."""
        async with self.lock:
            if self.step != expected or not self.scheduler.may_run(seat):
                raise Stale
            match, deal = self._in_play()
            return await self._play(match, deal, seat, move, bot=True)

    async def _play(
        self, match: TableMatch, deal: TableDeal, seat: int, move: object, *, bot: bool
    ) -> int:
        if deal.turn != seat:
            raise TableError("not_your_turn", f"seat {deal.turn} is to move", turn=deal.turn)
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
                if self.over is not None:
                    self.over(self)
        await self.scheduler.schedule()
        return number

    async def ready(self, seat: int) -> int:
        """The seat is ready for the next deal."""
        async with self.lock:
            match = self._playing()
            if match.current is not None:
                raise TableError("not_your_turn", "the deal is still being played")
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

    # ------------------------------------------------------------ rematch

    async def rematch(self, seat: int) -> int:
        """The seat's player asks for a rematch once the match is over (``not_over``
        before); asking again changes nothing. When every person has asked (bots agree by
        themselves) a new room is made with the same settings and seats, each person's
        token holding the same seat there, its match started (:attr:`spawn`), and its code
        is stored and told (a ``rematched`` event). The last event number."""
        async with self.lock:
            self._seat(seat)
            if self.status != "over":
                raise TableError("not_over", "a rematch may be asked for once the match is over")
            if self.config.challenge is not None:
                raise TableError("no_rematch", "a daily challenge deal is played once")
            if self.rematch_code is not None:
                return self.event
            if seat not in self.rematch_asked:
                await self.commit("rematch", {"seat": seat})
            if not self.rematch_waiting() and self.spawn is not None:
                seats = [Seat(s.kind, s.name, s.token_hash, player=s.player) for s in self.seats]
                code = await self.spawn(self.config, seats)
                await self.commit("rematched", {"code": code})
            return self.event

    async def open_with(self, seats: list[Seat]) -> int:
        """Seat these seats (a person's seat with its token's hash and its player, so that
        the token, or the player's session, that held it at another table holds it here)
        and start the match: a rematch's new room, or a quick match's. A computer player's
        seat given no name is named now, by :func:`bot_name` (it needs the room's code).
        The last event number."""
        async with self.lock:
            if self.status != "waiting" or self.event:
                raise TableError("already_started", "the room is not new")
            names = [s.name for s in seats]
            for i, s in enumerate(seats):
                if s.kind == "bot" and not s.name:
                    names[i] = bot_name(self.code, i, [n for n in names if n])
            for i, s in enumerate(seats):
                data: dict[str, Any] = {"seat": i, "kind": s.kind, "name": names[i]}
                if s.kind == "human":
                    data["token"] = s.token_hash
                    if s.player:
                        data["player"] = s.player
                await self.commit("seat", data)
            await self.commit("start", {"match_seed": await self._match_seed()})
            await self.start_deal()
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

    def idle(self) -> bool:
        """Nobody is at the table, here or at another process, and nothing is planned:
        it may leave memory."""
        return (
            not self.watched
            and not self.followers
            and not any(s.connections for s in self.seats)
            and self.planned is None
            and not self.lock.locked()
        )

    def close(self) -> None:
        """Stop the table's timers (server shutdown)."""
        self.scheduler.close()
