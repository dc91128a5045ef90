"""Every command a table takes, declared once: :data:`COMMANDS`.

A command is its name, the type of its payload, who may send it, and its handler. Every way
into a table reads this one table:

- the game socket (:mod:`hukum.server.routes.ws`) takes the commands a seated player sends
  (:func:`by_message`, by their WebSocket message type), the payload read from the message;
- the lobby (:mod:`hukum.server.routes.lobby`) runs the commands of its HTTP API;
- a table's replica in another process (:class:`~hukum.server.tables.Replica`) relays a
  command that changes the table to the process that owns it, by its :attr:`Command.name`
  with its payload's fields as arguments, and the owner's registry
  (:meth:`~hukum.server.tables.Registry.command`) finds it here by that name and runs it.

A command that changes the table (:attr:`Command.run`) runs at its owner, in the table's
actor (:class:`~hukum.server.tables.Table`), which stores its events before anyone is told.
A command that only reads the table (:attr:`Command.ask`, a hint) is answered by whichever
copy of the table the connection reached. A refusal is a
:class:`~hukum.server.tables.errors.TableError`, whichever process it comes from.

Adding a command is one :class:`Command` here, added to :data:`COMMANDS`, and its handler
(docs/architecture.md, "How to add a table command").
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from hukum.server.tables.talk import say

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from hukum.server.tables.actor import Table
    from hukum.server.tables.audience import Audience
    from hukum.server.tables.hints import Hint, Hints

__all__ = [
    "ATTACH",
    "COMMANDS",
    "DETACH",
    "FILL_WITH_BOTS",
    "FOLLOW",
    "HINT",
    "MOVE",
    "READY",
    "REMATCH",
    "SAY",
    "START",
    "TAKE_BACK",
    "TAKE_SEAT",
    "UNFOLLOW",
    "AtSeat",
    "Caller",
    "Command",
    "Nothing",
    "Said",
    "Say",
    "Sender",
    "Start",
    "SubmitMove",
    "TakeSeat",
    "WithToken",
    "by_message",
    "message_types",
]

P = TypeVar("P", bound="DataclassInstance")
R = TypeVar("R")


class Sender(enum.Enum):
    """Who may send a command."""

    SEAT = (
        "the person at a seat, on the table's WebSocket (the seat its hello's token holds, "
        "or its handshake's session)"
    )
    HOLDER = (
        "whoever holds a seat, by its token or by the session of the seat's player, "
        "through the lobby's HTTP API"
    )
    ANYONE = "anyone who has the room's code, through the lobby's HTTP API"
    PROCESS = "another server process of the cluster, for its own connections"


@dataclass(frozen=True)
class Caller:
    """Where a command runs from: the process that sent it and the process's hints."""

    process: str
    """The server process that sent the command (this one's own name, or ``""`` alone)."""
    hints: Hints
    """The move suggestions this process works out (:class:`~hukum.server.tables.hints.Hints`)."""


class Said(Protocol):
    """What a seat's WebSocket message said, checked for shape
    (:class:`hukum.server.protocol.ClientMessage`)."""

    @property
    def move(self) -> str | None: ...

    @property
    def event(self) -> int | None: ...

    @property
    def phrase(self) -> str | None: ...

    @property
    def text(self) -> str | None: ...


# ------------------------------------------------------------ payloads


@dataclass(frozen=True)
class Nothing:
    """No payload."""


@dataclass(frozen=True)
class AtSeat:
    """A command for one seat."""

    seat: int


@dataclass(frozen=True)
class SubmitMove:
    """A person's move for a seat, as text (read once, by the game's ``parse_move``)."""

    seat: int
    text: str
    seen: int | None = None
    """The last event the person had seen when choosing it (``stale_move`` if the play has
    gone on since); None: taken for the turn it arrives at."""


@dataclass(frozen=True)
class TakeSeat:
    """A person sits at an empty seat."""

    seat: int
    name: str
    player: str | None = None
    """The id of the player whose session took the seat (stored in the seat's event, never
    told to a client; between processes it travels in this payload only); None: no session."""


@dataclass(frozen=True)
class Say:
    """A seat's line at the table: a quick phrase by key, or free text (tables/talk.py)."""

    seat: int
    phrase: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class WithToken:
    """A lobby action of whoever holds a seat: by its token, or by the session of the seat's
    player (``player``, the player's id)."""

    token: str | None
    player: str | None = None


@dataclass(frozen=True)
class Start:
    """Start the match; with ``fill``, seat bots at the empty seats first. Asked by whoever
    holds a seat, by its token or by its player's session (``player``)."""

    token: str | None
    fill: bool = False
    player: str | None = None


# ------------------------------------------------------------ the command


def ack(event: int) -> dict[str, Any]:
    """The answer to a command that changed the table (or had nothing to change): the
    event number the table is at."""
    return {"type": "ack", "event": event}


def _at_seat(seat: int, said: Said) -> AtSeat:
    return AtSeat(seat)


@dataclass(frozen=True)
class Command(Generic[P, R]):
    """One command a table takes.

    Exactly one of :attr:`run` (it changes the table: it runs at the table's owner) and
    :attr:`ask` (it only reads the table: any copy answers) is given. A command a seated
    player sends (:attr:`sender` :attr:`Sender.SEAT`) has its WebSocket :attr:`message`
    type, the function that :attr:`read` its payload from the message, and its
    :attr:`reply`; no other command has a message type.
    """

    name: str
    """The command's name; a replica sends it so to the owner (on the cluster's channel)."""
    payload: type[P]
    """The payload's type: a frozen dataclass, whose fields are the command's arguments
    on the cluster's channel."""
    sender: Sender
    """Who may send it."""
    run: Callable[[Table, P, Caller], Awaitable[R]] | None = None
    """The handler at the table's owner, in its actor: the command's result (JSON)."""
    ask: Callable[[Audience, P, Caller], Awaitable[R]] | None = None
    """The handler at any copy of the table (this process's actor or replica)."""
    message: str | None = None
    """The WebSocket message type a seated player sends it with."""
    read: Callable[[int, Said], P] | None = None
    """The payload of a seat's message (the seat, and what the message said)."""
    reply: Callable[[R], dict[str, Any]] | None = None
    """The WebSocket answer to the seat (its ``ref`` is added), from the result."""
    loads: bool = True
    """Whether the owner claims and loads the table for it if it is not in memory; False:
    a table not in memory ignores it (the end of a following that no longer matters)."""

    def __post_init__(self) -> None:
        if (self.run is None) == (self.ask is None):
            raise ValueError(f"command {self.name}: give exactly one of run and ask")
        seated = self.sender is Sender.SEAT
        if seated != (self.message is not None) or seated != (self.read is not None):
            raise ValueError(f"command {self.name}: a message and read, for SEAT commands only")
        if seated and self.reply is None:
            raise ValueError(f"command {self.name}: a seat's command needs its reply")
        if self.ask is not None and not seated:
            raise ValueError(f"command {self.name}: only a seat's command may ask a copy")


# ------------------------------------------------------------ the commands


async def _hint(room: Audience, p: AtSeat, by: Caller) -> Hint:
    return await by.hints.ask(room, p.seat)


def _hint_reply(hint: Hint) -> dict[str, Any]:
    return {
        "type": "hint",
        "event": hint.event,
        "move": hint.move,
        "why": hint.why,
        "reason": hint.reason,
    }


async def _follow(table: Table, p: Nothing, by: Caller) -> int:
    table.followers.add(by.process)
    return table.event


async def _unfollow(table: Table, p: Nothing, by: Caller) -> None:
    table.followers.discard(by.process)


async def _detach(table: Table, p: AtSeat, by: Caller) -> None:
    table.detach(p.seat, by.process)


def _seat_action(
    name: str, message: str, act: Callable[[Table, int], Awaitable[int]]
) -> Command[AtSeat, int]:
    """A seated player's command that runs one table method for their seat, answered
    with :func:`ack`."""
    return Command(
        name,
        AtSeat,
        Sender.SEAT,
        run=lambda t, p, by: act(t, p.seat),
        message=message,
        read=_at_seat,
        reply=ack,
    )


MOVE: Command[SubmitMove, int] = Command(
    "submit_move",
    SubmitMove,
    Sender.SEAT,
    run=lambda t, p, by: t.submit_move(p.seat, p.text, p.seen),
    message="move",
    read=lambda seat, said: SubmitMove(seat, said.move or "", said.event),
    reply=ack,
)
READY = _seat_action("ready", "next_deal", lambda t, seat: t.ready(seat))
TAKE_BACK = _seat_action("take_back", "take_back", lambda t, seat: t.take_back(seat))
REMATCH = _seat_action("rematch", "rematch", lambda t, seat: t.rematch(seat))
HINT: Command[AtSeat, Hint] = Command(
    "hint", AtSeat, Sender.SEAT, ask=_hint, message="hint", read=_at_seat, reply=_hint_reply
)
SAY: Command[Say, int] = Command(
    "say",
    Say,
    Sender.SEAT,
    run=lambda t, p, by: say(t, p.seat, p.phrase, p.text),
    message="say",
    read=lambda seat, said: Say(seat, said.phrase, said.text),
    reply=ack,
)
TAKE_SEAT: Command[TakeSeat, str] = Command(
    "take_seat",
    TakeSeat,
    Sender.ANYONE,
    run=lambda t, p, by: t.take_seat(p.seat, p.name, p.player),
)
FILL_WITH_BOTS: Command[WithToken, int] = Command(
    "fill_with_bots",
    WithToken,
    Sender.HOLDER,
    run=lambda t, p, by: t.fill_with_bots(p.token, p.player),
)
START: Command[Start, int] = Command(
    "start",
    Start,
    Sender.HOLDER,
    run=lambda t, p, by: t.start(p.token, fill=p.fill, player=p.player),
)
FOLLOW: Command[Nothing, int] = Command("follow", Nothing, Sender.PROCESS, run=_follow)
UNFOLLOW: Command[Nothing, None] = Command(
    "unfollow", Nothing, Sender.PROCESS, run=_unfollow, loads=False
)
ATTACH: Command[AtSeat, int] = Command(
    "attach", AtSeat, Sender.PROCESS, run=lambda t, p, by: t.attach(p.seat, by.process)
)
DETACH: Command[AtSeat, None] = Command("detach", AtSeat, Sender.PROCESS, run=_detach, loads=False)

#: Every command a table takes, by name.
COMMANDS: dict[str, Command[Any, Any]] = {
    c.name: c
    for c in (
        MOVE,
        READY,
        TAKE_BACK,
        REMATCH,
        HINT,
        SAY,
        TAKE_SEAT,
        FILL_WITH_BOTS,
        START,
        FOLLOW,
        UNFOLLOW,
        ATTACH,
        DETACH,
    )
}


def by_message(kind: str) -> Command[Any, Any] | None:
    """The command a seated player sends with WebSocket message type ``kind``, or None."""
    return next((c for c in COMMANDS.values() if c.message == kind), None)


def message_types() -> tuple[str, ...]:
    """The WebSocket message types of the commands a seated player sends, in the order of
    :data:`COMMANDS`."""
    return tuple(c.message for c in COMMANDS.values() if c.message is not None)
