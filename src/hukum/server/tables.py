"""Tables: each room is a small actor owning its engine state.

A :class:`Table` accepts changes one at a time (an :class:`asyncio.Lock`), appends each
accepted change to its event log in the database *before* anyone is told, then pushes a
per-seat message to its subscribers. The database write runs in a worker thread while the
table's lock is held: the table waits for its own write (so the order of its events and
"stored before told" hold), but the event loop, and every other table, does not. Its
state is rebuilt by replaying the log (:meth:`Table.load`), which is how a restarted
server resumes every table. The connection layer sees only the narrow interface: submit
a move or another action for a seat, and subscribe to the table's messages for a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hukum.bots import Bot
from hukum.server.db import Store
from hukum.server.fairness import commitment, new_seed
from hukum.server.games import GAMES, DealInfo, Game
from hukum.server.protocol import ProtocolError, view_message

__all__ = ["Registry", "Table", "TableConfig"]

log = logging.getLogger("hukum.server")

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 8
#: A reconnecting seat that missed at most this many events is sent them one by one;
#: after a longer absence it gets a ``state`` instead.
RESUME_LIMIT = 200

Send = Callable[[dict[str, Any]], None]


def new_code() -> str:
    """A fresh room code (also the invite)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A seat token: 32 hex characters."""
    return secrets.token_hex(16)


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Stale(Exception):
    """A bot's or timer's action whose moment has passed (the table moved on)."""


@dataclass(frozen=True)
class TableConfig:
    """A room's settings, fixed when it is created: the game, its rules (an object of that
    game's engine), the bots that fill seats, the turn limit."""

    rules: Any
    preset: str | None = None
    bots: str = "rules"
    turn_timeout: float | None = 60.0
    game: str = "mindi"

    @property
    def engine(self) -> Game:
        """The game the room plays."""
        return GAMES[self.game]

    def to_dict(self) -> dict[str, Any]:
        """JSON for the ``rooms`` row."""
        return {
            "game": self.game,
            "rules": self.engine.rules_to_dict(self.rules),
            "preset": self.preset,
            "bots": self.bots,
            "turn_timeout": self.turn_timeout,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """Settings from :meth:`to_dict` (rooms stored before Ganjifa existed are Mindi)."""
        game = data.get("game", "mindi")
        rules = GAMES[game].rules_from_dict(data["rules"])
        return cls(rules, data["preset"], data["bots"], data["turn_timeout"], game)


@dataclass
class Seat:
    """One seat's public state (and its token's hash)."""

    kind: str = "empty"
    name: str = ""
    token_hash: str | None = None
    absent: bool = False
    ready: bool = False
    connections: int = 0


@dataclass
class _Sub:
    seat: int
    send: Send


@dataclass
class Table:
    """One room, one match: seats, the engine state, the event counter, subscribers."""

    code: str
    config: TableConfig
    store: Store
    bot_delay: float = 0.6
    seats: list[Seat] = field(default_factory=list)
    event: int = 0
    status: str = "waiting"
    match: Any = None
    commitments: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [Seat() for _ in range(self.game.players(self.config.rules))]
        self.lock = asyncio.Lock()
        self._subs: dict[int, _Sub] = {}
        self._next_sub = 0
        self._task: asyncio.Task[None] | None = None
        self._resuming: set[asyncio.Task[None]] = set()
        self._bots: dict[int, Bot[Any, Any]] = {}
        self.closed = False
        self.resume_limit = RESUME_LIMIT
        self.analyses: dict[int, asyncio.Task[dict[str, Any]]] = {}
        """The analysis of each finished deal asked for (by deal number), solved once."""

    @property
    def game(self) -> Game:
        """The game the table plays."""
        return self.config.engine

    # ------------------------------------------------------------ replay and commit

    @classmethod
    def load(cls, code: str, store: Store, bot_delay: float) -> Table | None:
        """Rebuild a table from the database by replaying its event log."""
        config = store.room(code)
        if config is None:
            return None
        table = cls(code, TableConfig.from_dict(config), store, bot_delay)
        for ev in store.events(code):
            table._apply(ev.number, ev.kind, ev.data)
        return table

    def _apply(self, number: int, kind: str, data: dict[str, Any]) -> None:
        """Change the state by one event: the same code live and on replay."""
        self.event = number
        seat = data.get("seat")
        if kind == "seat":
            assert isinstance(seat, int)
            s = self.seats[seat]
            s.kind, s.name, s.token_hash = data["kind"], data.get("name", ""), data.get("token")
            s.absent = s.ready = False
        elif kind == "start":
            self.match = self.game.new_match(self.config.rules, data["match_seed"])
            self.status = "playing"
        elif kind == "deal":
            assert self.match is not None
            self.match.start_deal(seed=data["seed"])
            self.commitments.append(data["commitment"])
            for s in self.seats:
                s.ready = False
        elif kind == "move":
            deal = self.deal
            assert deal is not None and isinstance(seat, int)
            deal.push(self.game.parse_move(data["move"]), seat=seat)
        elif kind == "match_over":
            self.status = "over"
        elif kind in ("absent", "back", "ready"):
            assert isinstance(seat, int)
            if kind == "ready":
                self.seats[seat].ready = True
            else:
                self.seats[seat].absent = kind == "absent"
        # "deal_over" only marks the end of a deal; the move before it ended it.

    async def _commit(self, kind: str, data: dict[str, Any]) -> int:
        """Store an event, apply it, then tell every subscriber (the lock is held).

        On PostgreSQL the write runs in a worker thread. If the calling task is cancelled
        meanwhile (the server shutting down), the write is still awaited and, once stored,
        the event is applied and told as well, so that memory never differs from the log;
        then the cancellation goes on. If the write fails, nothing is applied and nobody is
        told.
        """
        number = self.event + 1
        if self.store.local:
            # An embedded SQLite file: a write takes well under a millisecond, less than
            # the hand-over to a worker thread, and cannot be interrupted half-way.
            self.store.append(self.code, number, kind, data)
            self._apply(number, kind, data)
            self._publish(kind, data)
            return number
        write = asyncio.ensure_future(
            asyncio.to_thread(self.store.append, self.code, number, kind, data)
        )
        cancelled = False
        while not write.done():
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                cancelled = True
        write.result()
        self._apply(number, kind, data)
        self._publish(kind, data)
        if cancelled:
            raise asyncio.CancelledError
        return number

    # ------------------------------------------------------------ what seats see

    @property
    def deal(self) -> Any:
        """The latest deal (in progress or just over)."""
        if self.match is None or not self.match.deals:
            return None
        return self.match.deals[-1]

    def public(self) -> dict[str, Any]:
        """The public table (no tokens, no cards)."""
        game = self.game
        return {
            "code": self.code,
            "game": game.name,
            "rules": game.rules_to_dict(self.config.rules),
            "preset": self.config.preset,
            "bots": self.config.bots,
            "turn_timeout": self.config.turn_timeout,
            "status": self.status,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "connected": s.connections > 0,
                    "absent": s.absent,
                    "ready": s.ready,
                }
                for i, s in enumerate(self.seats)
            ],
            "scores": list(self.match.scores)
            if self.match is not None
            else game.no_scores(self.config.rules),
            "deal_number": len(self.match.deals) if self.match is not None else 0,
            "event": self.event,
        }

    def _info(self) -> DealInfo | None:
        deal = self.deal
        if deal is None or self.match is None:
            return None
        return DealInfo(len(self.match.deals), self.match.scores, self.commitments[-1], deal.seed)

    def message(
        self,
        kind: str,
        seat: int,
        *,
        about: int | None = None,
        extra: dict[str, Any] | None = None,
        public: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The message for ``seat`` about the current state (kind ``state`` or an event)."""
        deal = self.deal
        info = self._info()
        view = None
        if deal is not None and info is not None:
            view = self.game.view_json(deal.view(seat), info)
        return view_message(
            kind,
            view,
            event=self.event,
            table=public if public is not None else self.public(),
            seat=about,
            extra=extra,
        )

    def _extra(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """The public facts an event message carries besides the view (after the event)."""
        if kind == "deal":
            return {"commitment": data["commitment"], "dealer": data["dealer"]}
        if kind == "deal_over":
            return {"seed": str(data["seed"]), "commitment": self.commitments[-1]}
        if kind == "match_over":
            return dict(data)  # the scores and the winner(s)
        return {}

    def event_message(
        self, seat: int, kind: str, data: dict[str, Any], public: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The message that tells ``seat`` about the event just applied: the same code for
        live messages and for the ones replayed to a reconnecting seat."""
        extra = self._extra(kind, data)
        if kind == "move":
            deal = self.deal
            assert deal is not None
            move = self.game.parse_move(data["move"])
            extra["move"] = self.game.move_text(deal.view(seat), data["seat"], move)
        return self.message(kind, seat, about=data.get("seat"), extra=extra, public=public)

    def _publish(self, kind: str, data: dict[str, Any]) -> None:
        if not self._subs:
            return
        public = self.public()
        cache: dict[int, dict[str, Any]] = {}
        for sub in list(self._subs.values()):
            msg = cache.get(sub.seat)
            if msg is None:
                msg = cache[sub.seat] = self.event_message(sub.seat, kind, data, public)
            try:
                sub.send(msg)
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
        key = self._next_sub
        self._next_sub += 1
        paused = not self.present()
        self.seats[seat].connections += 1
        sub = self._subs[key] = _Sub(seat, send)
        if paused and self.status == "playing":
            self.resume()

        def unsubscribe() -> None:
            if self._subs.pop(key, None) is not None:
                self.seats[seat].connections -= 1

        upto = self.event
        if last is None or not 0 <= last <= upto or upto - last > self.resume_limit:
            send(self.message("state", seat))
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
            missed, held = [self.message("state", seat)], []
        for message in missed + held:
            send(message)
        sub.send = send
        return unsubscribe

    def replay(
        self, seat: int, last: int, upto: int, connections: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """The messages ``seat`` was told about events ``last``+1 … ``upto``, rebuilt from the
        stored log (a copy of the table replays it; runs in a worker thread). The same code
        builds them as live (:meth:`event_message`), so they hold exactly what the seat
        saw then; only the seats' ``connected`` flags are those of now (``connections``).
        """
        copy = Table(self.code, self.config, self.store, self.bot_delay)
        for s, n in zip(copy.seats, connections or [], strict=False):
            s.connections = n
        messages: list[dict[str, Any]] = []
        for ev in self.store.events(self.code, upto=upto):
            if ev.number != copy.event + 1:
                raise RuntimeError(f"table {self.code}: event {ev.number} after {copy.event}")
            copy._apply(ev.number, ev.kind, ev.data)
            if ev.number > last:
                messages.append(copy.event_message(seat, ev.kind, ev.data))
        if copy.event != upto:
            raise RuntimeError(f"table {self.code}: the log ends at {copy.event}, not {upto}")
        return messages

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None."""
        if not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if (
                s.kind == "human"
                and s.token_hash is not None
                and secrets.compare_digest(s.token_hash, h)
            ):
                return i
        return None

    # ------------------------------------------------------------ lobby actions

    def _seat_index(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError(
                "unknown_seat", f"no seat {seat}: seats are 0 to {len(self.seats) - 1}", 404
            )
        return self.seats[seat]

    async def take_seat(self, seat: int, name: str) -> str:
        """Seat a person at an empty seat; their token."""
        async with self.lock:
            if self._seat_index(seat).kind != "empty":
                raise ProtocolError("seat_taken", f"seat {seat} is taken", 409)
            if self.status != "waiting":
                raise ProtocolError("already_started", "the match has started", 409)
            token = new_token()
            await self._commit(
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
                await self._commit("seat", {"seat": i, "kind": "bot", "name": name})

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
            await self._commit("start", {"match_seed": secrets.randbits(64)})
            await self._start_deal()
            await self._schedule()
            return self.event

    async def _start_deal(self) -> None:
        assert self.match is not None
        seed = new_seed()
        data = {"seed": seed, "commitment": commitment(seed), "dealer": self.match.dealer}
        await self._commit("deal", data)

    # ------------------------------------------------------------ play

    def _check_playing(self) -> Any:
        if self.status == "waiting" or self.match is None:
            raise ProtocolError("not_started", "the match has not started")
        if self.status == "over":
            raise ProtocolError("match_over", "the match is over")
        return self.match

    async def submit_move(
        self, seat: int, text: str, *, bot: bool = False, expected: int | None = None
    ) -> int:
        """Make a move for a seat (checked by the engine); the event number it got."""
        async with self.lock:
            if expected is not None and self.event != expected:
                raise Stale
            if bot and not self._may_run(seat):
                raise Stale
            match = self._check_playing()
            deal = match.current
            if deal is None:
                raise ProtocolError("not_your_turn", "the deal is over; the next one has not begun")
            game = self.game
            move = game.parse_move(text)
            if deal.turn != seat:
                raise ProtocolError("not_your_turn", f"seat {deal.turn} is to move")
            game.check(deal, move, seat)
            if not bot and self.seats[seat].absent:
                await self._commit("back", {"seat": seat})
            number = await self._commit("move", {"seat": seat, "move": str(move), "bot": bot})
            if deal.is_over():
                await self._commit("deal_over", {"seed": deal.seed, **game.deal_over(deal)})
                if match.is_over():
                    await self._commit("match_over", game.match_over(match))
            await self._schedule()
            return number

    async def ready(self, seat: int) -> int:
        """The seat is ready for the next deal."""
        async with self.lock:
            match = self._check_playing()
            if match.current is not None:
                raise ProtocolError("not_your_turn", "the deal is still being played")
            if not self.seats[seat].ready:
                await self._commit("ready", {"seat": seat})
            await self._schedule()
            return self.event

    async def take_back(self, seat: int) -> int:
        """An absent player takes the seat back from the bot."""
        async with self.lock:
            self._check_playing()
            if self.seats[seat].absent:
                await self._commit("back", {"seat": seat})
                await self._schedule()
            return self.event

    # ------------------------------------------------------------ bots and timers

    def resume(self) -> None:
        """Start whatever the table waits for (after a load, or when a person comes)."""
        task = asyncio.create_task(self._resume(), name=f"resume {self.code}")
        self._resuming.add(task)
        task.add_done_callback(self._resuming.discard)

    async def _resume(self) -> None:
        async with self.lock:
            await self._schedule()

    def present(self) -> bool:
        """Whether any person seated at the table is connected."""
        return any(s.kind == "human" and s.connections > 0 for s in self.seats)

    def _may_run(self, seat: int | None = None) -> bool:
        """Whether the table may go on by itself: someone is present, or (for ``seat``) a
        bot in a bot seat finishes a trick already begun. A table nobody is at pauses, so
        that a person who comes back does not find the match played out by bots."""
        if self.present():
            return True
        deal = self.deal
        return (
            seat is not None
            and self.seats[seat].kind == "bot"
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

    async def _schedule(self) -> None:
        """Plan the next automatic step: a bot's move, a turn timer, the next deal (the
        lock is held; a next deal everybody is ready for starts at once). With no person
        present only a bot finishing the current trick moves (:meth:`_may_run`)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        if self.closed or self.status != "playing" or self.match is None:
            return
        deal = self.match.current
        timeout = self.config.turn_timeout
        if not self._may_run(deal.turn if deal is not None else None):
            return
        if deal is None:
            waiting = [s for s in self.seats if s.kind == "human" and not s.absent]
            if all(s.ready for s in waiting):
                await self._start_deal()
                await self._schedule()
            elif timeout:
                self._task = asyncio.create_task(
                    self._next_deal_later(timeout, self.event), name="next_deal"
                )
            return
        turn = deal.turn
        assert turn is not None
        s = self.seats[turn]
        if s.kind == "bot" or s.absent:
            self._task = asyncio.create_task(self._bot_turn(turn, self.event), name="bot")
        elif timeout:
            self._task = asyncio.create_task(
                self._timeout(turn, self.event, timeout), name="timeout"
            )

    def _bot(self, seat: int) -> Bot[Any, Any]:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.game.make_bot(self.config.bots, secrets.randbits(32))
        return bot

    async def _bot_turn(self, seat: int, expected: int) -> None:
        await asyncio.sleep(self.bot_delay)
        deal = self.deal
        if self.event != expected or deal is None or deal.turn != seat or not self._may_run(seat):
            return
        view = deal.view(seat)
        try:
            move = await asyncio.to_thread(self._bot(seat).choose, view)
        except Exception:
            log.exception(
                "bot failed at table %s seat %d; playing the first legal move", self.code, seat
            )
            move = view.legal_moves[0]
        with contextlib.suppress(Stale):
            await self.submit_move(seat, str(move), bot=True, expected=expected)

    async def _timeout(self, seat: int, expected: int, timeout: float) -> None:
        await asyncio.sleep(timeout)
        async with self.lock:
            if self.event != expected or not self._may_run():
                return
            await self._commit("absent", {"seat": seat})
            await self._schedule()

    async def _next_deal_later(self, timeout: float, expected: int) -> None:
        await asyncio.sleep(timeout)
        async with self.lock:
            if self.match is None or self.match.current is not None:
                return
            if self.event != expected or not self._may_run():
                return
            await self._start_deal()
            await self._schedule()

    def close(self) -> None:
        """Stop the table's timers (server shutdown)."""
        self.closed = True
        for task in [self._task, *self._resuming]:
            if task is not None:
                task.cancel()


class Registry:
    """Every table of this process, loaded from the database on first use."""

    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Task[Table | None]] = {}

    def _add(self, table: Table) -> Table:
        """Keep a loaded table (unless another load of it won) and resume it."""
        known = self.tables.get(table.code)
        if known is not None:
            return known
        self.tables[table.code] = table
        table.resume()
        return table

    async def _load(self, code: str) -> Table | None:
        table = await asyncio.to_thread(Table.load, code, self.store, self.bot_delay)
        return None if table is None else self._add(table)

    async def get(self, code: str) -> Table | None:
        """The table with this code, or None; read from the database (in a worker thread)
        on first use. Concurrent first uses share one load."""
        table = self.tables.get(code)
        if table is not None:
            return table
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        task = self._loading.get(code)
        if task is None:
            task = self._loading[code] = asyncio.create_task(self._load(code))
            task.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(task)

    async def require(self, code: str) -> Table:
        """The table, or the ``unknown_table`` error."""
        table = await self.get(code)
        if table is None:
            raise ProtocolError("unknown_table", f"no table {code!r}", 404)
        return table

    async def create(self, config: TableConfig, name: str) -> tuple[Table, str]:
        """A new room with its creator at seat 0; the table and the creator's token."""
        while True:
            code = new_code()
            if await asyncio.to_thread(self.store.create_room, code, config.to_dict()):
                break
        table = Table(code, config, self.store, self.bot_delay)
        self.tables[code] = table
        token = await table.take_seat(0, name)
        return table, token

    async def load_active(self) -> int:
        """Load and resume every table whose match is not over; how many."""

        def load() -> list[Table]:
            tables = (Table.load(c, self.store, self.bot_delay) for c in self.store.active_rooms())
            return [t for t in tables if t is not None]

        loaded = await asyncio.to_thread(load)
        for table in loaded:
            self._add(table)
        return len(loaded)

    def close(self) -> None:
        """Stop every table's timers."""
        for table in self.tables.values():
            table.close()
