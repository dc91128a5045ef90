"""A table's audience: the connections of its seats, each told its own message about
every event, and brought up to date when it (re)connects; and its watchers (connections
that hold no seat, in a room that allows them), told the public messages.

Both the table's actor (:class:`~hukum.server.tables.Table`, in the process that owns the
table) and its replicas in the other processes of a cluster
(:class:`~hukum.server.tables.Replica`) tell their connections the same messages, built by
the same code (:mod:`~hukum.server.tables.messages`), from the same state
(:class:`~hukum.server.tables.state.TableState`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hukum.server.db import Store
from hukum.server.tables.config import TableConfig
from hukum.server.tables.errors import TableError
from hukum.server.tables.messages import (
    Viewer,
    event_message,
    event_messages,
    presence,
    presence_message,
    state_message,
)
from hukum.server.tables.messages import public as public_table
from hukum.server.tables.seats import held_by
from hukum.server.tables.state import TableDeal, TableState

if TYPE_CHECKING:
    from hukum.server.analyses import Job

__all__ = ["OFFLINE_GRACE", "RESUME_LIMIT", "Audience", "Send", "reconnect_message"]

log = logging.getLogger("hukum.server")

#: A reconnecting seat that missed at most this many events is sent them one by one;
#: after a longer absence it gets a ``state`` instead.
RESUME_LIMIT = 200

#: Seconds a seat whose last connection ended is still told to the others as connected: a
#: page that reloads, or whose network blinks, connects again within it and nobody sees it
#: go "offline" and back. A seat that connects is told at once.
OFFLINE_GRACE = 0.5

Send = Callable[[dict[str, Any]], None]


def reconnect_message(reason: str) -> dict[str, Any]:
    """The last message of a connection whose table moved to another server process: the
    client reconnects (with the last event it saw) and loses nothing."""
    return {"type": "reconnect", "reason": reason}


@dataclass
class Subscription:
    """One connection that follows the table: whom it is for and how it is sent to."""

    seat: Viewer
    """The seat, or None: a watcher."""
    send: Send


@dataclass
class _Missed:
    """What a reconnecting seat missed: events ``last``+1 … ``upto``, and the events told
    while they are read back (``held``)."""

    send: Send
    held: list[dict[str, Any]]
    last: int
    upto: int
    connections: list[int]


class Audience(TableState):
    """A table's state and the connections of its seats and watchers."""

    def __init__(self, code: str, config: TableConfig, store: Store) -> None:
        super().__init__(code, config)
        self.store = store
        self.lock = asyncio.Lock()
        """Held while the table changes (in the actor, through a move's write)."""
        self.max_move_text = self.spec.max_move_text(config.rules)
        """The longest move text of the table's game under its rules."""
        self.resume_limit = RESUME_LIMIT
        self.analyses: dict[int, Job] = {}
        """The analysis of each finished deal asked for (by deal number), solved once."""
        self._subs: dict[int, Subscription] = {}
        self._next_sub = 0
        self.offline_grace = OFFLINE_GRACE
        self._told_presence = presence(self)
        """Whether each seat was connected, as the connections were last told (by an event's
        table or a ``presence`` message)."""
        self._offline_due: asyncio.TimerHandle | None = None

    def public(self) -> dict[str, Any]:
        """The public table (no tokens, no cards, no player's id)."""
        return public_table(self)

    def apply(self, number: int, kind: str, data: dict[str, Any]) -> object | None:
        """Change the state by stored event ``number`` (:meth:`TableState.apply`), and keep
        the id of the player whose session took a seat (a ``seat`` event's ``player``)."""
        move = super().apply(number, kind, data)
        if kind == "seat":
            self.seats[data["seat"]].player = data.get("player")
        return move

    def seat_of_player(self, player: str | None) -> int | None:
        """The seat player ``player`` (an identity's id) holds, or None."""
        return held_by(self.seats, player)

    @property
    def watched(self) -> bool:
        """Whether any connection of this process follows the table."""
        return bool(self._subs)

    @property
    def watchers(self) -> int:
        """How many watchers (connections without a seat) of this process follow the table."""
        return sum(1 for sub in self._subs.values() if sub.seat is None)

    def _publish(self, kind: str, data: dict[str, Any], move: object | None) -> None:
        """Tell every subscriber about the event just applied: each seat's message built
        once, however many connections it has."""
        self._told_presence = presence(self)
        if not self._subs:
            return
        subs = list(self._subs.values())
        told = event_messages(self, (sub.seat for sub in subs), kind, data, move)
        for sub in subs:
            try:
                sub.send(told[sub.seat])
            except Exception:  # a broken connection must not stop the table
                log.exception("sending to a subscriber of table %s failed", self.code)

    def presence_changed(self, online: bool, joined: Subscription | None = None) -> None:
        """A seat's first connection began (``online``: ``joined``, which its greeting
        told already) or its last one ended: the connections are told at once, or after
        :attr:`offline_grace` (in case it comes back)."""
        if online:
            self.tell_presence(joined)
            return
        if self._offline_due is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a table driven by hand): tell it now
            self.tell_presence()
            return
        self._offline_due = loop.call_later(self.offline_grace, self._offline_now)

    def _offline_now(self) -> None:
        self._offline_due = None
        self.tell_presence()

    def tell_presence(self, joined: Subscription | None = None) -> bool:
        """Tell every connection of this process but ``joined`` whether each seat is
        connected (:func:`~hukum.server.tables.messages.presence_message`), if that changed
        since they were last told; whether it did."""
        now = presence(self)
        if now == self._told_presence:
            return False
        self._told_presence = now
        message = presence_message(self)
        for sub in [s for s in self._subs.values() if s is not joined]:
            try:
                sub.send(message)
            except Exception:  # a broken connection must not stop the table
                log.exception("sending to a subscriber of table %s failed", self.code)
        return True

    def reconnect_all(self, reason: str) -> None:
        """Tell every connection to reconnect (the table moved to another process), and
        forget them."""
        subs = list(self._subs.values())
        self._subs.clear()
        for sub in subs:
            try:
                sub.send(reconnect_message(reason))
            except Exception:
                log.exception("sending to a subscriber of table %s failed", self.code)

    def _join(self, seat: Viewer, send: Send) -> tuple[Subscription, Callable[[], None]]:
        """A new subscription of ``seat`` (None: a watcher), and the function that ends it."""
        key = self._next_sub
        self._next_sub += 1
        sub = self._subs[key] = Subscription(seat, send)

        def unsubscribe() -> None:
            if self._subs.pop(key, None) is not None:
                self._left(seat)

        return sub, unsubscribe

    def _left(self, seat: Viewer) -> None:
        """A connection of ``seat`` (None: a watcher) ended."""

    def _greet(self, sub: Subscription, seat: Viewer, last: int | None) -> _Missed | None:
        """Bring a new subscription up to date (it joined at the current event; in the
        actor, under the lock): a client that saw every event up to ``last`` (at most
        :attr:`resume_limit` behind) is to be sent the events it missed, each exactly as it
        would have been told live (:meth:`_send_missed`), or nothing if it missed none; any
        other client gets a ``state`` now. Events that happen while the missed ones are
        read back from the log are held and sent after them, so the seat sees every event
        once, in order."""
        send, upto = sub.send, self.event
        if last is None or not 0 <= last <= upto or upto - last > self.resume_limit:
            send(state_message(self, seat))
            return None
        if last == upto:
            return None
        held: list[dict[str, Any]] = []
        sub.send = held.append
        return _Missed(send, held, last, upto, [s.connections for s in self.seats])

    async def _send_missed(
        self,
        sub: Subscription,
        seat: Viewer,
        missed: _Missed | None,
        unsubscribe: Callable[[], None],
    ) -> Callable[[], None]:
        """Read the missed events back from the log (in a worker thread) and send them,
        then the events held meanwhile; a ``state`` if the log cannot be read. The
        subscription ends if the caller is cancelled meanwhile; else ``unsubscribe``."""
        if missed is None:
            return unsubscribe
        send = missed.send
        try:
            told = await asyncio.to_thread(
                self.replay, seat, missed.last, missed.upto, missed.connections
            )
        except asyncio.CancelledError:
            unsubscribe()
            raise
        except Exception:
            log.exception("replaying table %s for seat %s failed; sending a state", self.code, seat)
            async with self.lock:
                send(state_message(self, seat))
                sub.send = send
            return unsubscribe
        for message in told + missed.held:
            send(message)
        sub.send = send
        return unsubscribe

    def replay(
        self, seat: Viewer, last: int, upto: int, connections: list[int] | None = None
    ) -> list[dict[str, Any]]:
        """The messages ``seat`` (None: a watcher) was told about events ``last``+1 …
        ``upto``, rebuilt from the stored log (a copy of the table's state replays it; runs
        in a worker thread). The same code builds them as live
        (:mod:`~hukum.server.tables.messages`), so they hold exactly what the seat saw then;
        only the seats' ``connected`` flags are those of now (``connections``)."""
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
                raise TableError("unknown_deal", f"no deal {number} at this table")
            deal = deals[number - 1]
            if not deal.is_over():
                raise TableError("deal_not_over", "a deal is shown once it is over")
            return deal
