"""The wire protocol (docs/protocol.md): client messages checked, errors (a game's own
errors among them), and the envelope of every message to a seat (its view is built by
:mod:`hukum.server.tables.messages` from that seat's engine view and nothing else: M-20,
G-11)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hukum.game import GameError, IllegalMoveError, InvalidMoveError, RulesError

__all__ = [
    "ClientMessage",
    "Hello",
    "ProtocolError",
    "error_body",
    "error_message",
    "load_json",
    "parse_client_message",
    "parse_hello",
    "refused",
    "view_message",
]

CLIENT_TYPES = ("move", "next_deal", "take_back", "rematch", "hint", "ping")


class ProtocolError(Exception):
    """A refused request: a stable ``code``, a message (English, for logs and programs; the
    page writes its own sentence from the code and ``details``) and ``details``: more fields
    of the error for programs, e.g. ``rule_ids`` or ``turn``."""

    def __init__(self, code: str, message: str, status: int = 400, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details = details


#: The error code of each kind of game error (:mod:`hukum.game`); any other is ``bad_request``.
GAME_ERROR_CODES: tuple[tuple[type[GameError], str], ...] = (
    (InvalidMoveError, "invalid_move"),
    (IllegalMoveError, "illegal_move"),
    (RulesError, "bad_rules"),
)


#: A rule id of docs/rules.md as the engines cite them in their messages: ``M-8``, ``G-7``.
RULE_ID = re.compile(r"\b[A-Z]-\d+\b")


def refused(error: GameError) -> ProtocolError:
    """A game's error (any game's) as the error the client is sent, with its message and
    the ids of the rules it names (``rule_ids``, in order, once each; none named: none)."""
    code = next((c for kind, c in GAME_ERROR_CODES if isinstance(error, kind)), "bad_request")
    message = str(error)
    refusal = ProtocolError(code, message)
    ids = list(dict.fromkeys(RULE_ID.findall(message)))
    if ids:
        refusal.details["rule_ids"] = ids
    return refusal


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The shape of every error: ``{"error": {"code", "message", ...details}}``."""
    return {"error": {**(details or {}), "code": code, "message": message}}


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message."""

    type: str
    ref: int | str | None = None
    move: str | None = None
    seat: int | None = None
    event: int | None = None
    """With a move: the last event the client had seen when it chose it (a move chosen for
    a turn that has passed since is refused, ``stale_move``)."""


def load_json(text: str | bytes) -> Any:
    """JSON from a client, or ProtocolError ``bad_json``: not UTF-8, not JSON, nested too
    deep for the parser (a RecursionError), or a number of more digits than Python reads."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json", "the message is not JSON") from None


def parse_client_message(
    text: str | bytes, *, max_move: int
) -> tuple[ClientMessage | None, ProtocolError | None]:
    """Parse one WebSocket text frame: the message, or the error to send back. A move's
    text is at most ``max_move`` characters (the longest move of the table's game)."""
    try:
        data = load_json(text)
    except ProtocolError as error:
        return None, error
    if not isinstance(data, dict):
        return None, ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        return None, ProtocolError("bad_message", "type must be one of " + ", ".join(CLIENT_TYPES))
    ref = data.get("ref")
    if ref is not None and (isinstance(ref, bool) or not isinstance(ref, int | str)):
        return None, ProtocolError("bad_message", "ref must be a number or a string")
    if isinstance(ref, str) and len(ref) > 64:
        return None, ProtocolError("bad_message", "ref is at most 64 characters")
    seat = data.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        return None, ProtocolError("bad_message", "seat must be a whole number")
    event = data.get("event")
    if event is not None and (isinstance(event, bool) or not isinstance(event, int) or event < 0):
        return None, ProtocolError("bad_message", "event must be a whole number, 0 or more")
    move = data.get("move")
    if kind == "move":
        if not isinstance(move, str) or not move.strip() or len(move) > max_move:
            return None, ProtocolError(
                "bad_message", 'a move message needs "move": a move in engine notation'
            )
    else:
        move = None
    return ClientMessage(kind, ref, move, seat, event), None


@dataclass(frozen=True)
class Hello:
    """A connection's first message, ``{"type": "hello", "token": …, "last": N}``: the
    token is sent here, inside the socket, never in its URL, where proxies, load balancers
    and access logs would keep it (a token owns its seat). A watcher's is
    ``{"type": "hello", "watch": true, "last": N}``."""

    token: str | None
    """The seat's token; None: none was sent (refused with ``bad_token``)."""
    last: int | None
    """The last event the client saw (it overrides the URL's ``?last=``); None: not said,
    or not a whole number."""
    watch: bool = False
    """``"watch": true``: a watcher, who holds no seat and sees what everybody may see (in a
    room that allows watchers); its token, if any, is not read."""


HELLO_SHAPE = '{"type": "hello", "token": "<token>", "last": <event>}'


def parse_hello(text: str | bytes) -> Hello:
    """Check a connection's first message: the hello, or ProtocolError (``bad_json``, or
    ``bad_message`` for anything but a hello, e.g. a move sent first)."""
    data = load_json(text)
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise ProtocolError("bad_message", f"the first message must be {HELLO_SHAPE}")
    token = data.get("token")
    if token is not None and not isinstance(token, str):
        raise ProtocolError("bad_message", "token must be a string")
    watch = data.get("watch", False)
    if not isinstance(watch, bool):
        raise ProtocolError("bad_message", "watch must be true or false")
    last = data.get("last")
    # As ``?last=`` always was: anything but a whole number asks for a full resync.
    whole = isinstance(last, int) and not isinstance(last, bool) and last >= 0
    return Hello(token, last if whole else None, watch)


def error_message(error: ProtocolError, ref: int | str | None) -> dict[str, Any]:
    """A WebSocket error message."""
    return {"type": "error", "ref": ref, **error_body(error.code, error.message, error.details)}


def view_message(
    kind: str,
    view: dict[str, Any] | None,
    *,
    event: int,
    table: dict[str, Any],
    seat: int | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every message to one seat: ``state`` (full resync) or an ``event`` of some kind.

    ``view`` is the receiving seat's own view as it goes on the wire
    (:func:`hukum.server.tables.messages.seat_view`; None before the first deal); ``extra``
    holds the public facts of the event (the move as the seat may see it, the commitment,
    the outcome and revealed seed).
    """
    if kind == "state":
        return {"type": "state", "event": event, "table": table, "view": view}
    message: dict[str, Any] = {"type": "event", "event": event, "kind": kind, "seat": seat}
    if extra:
        message.update(extra)
    message["table"] = table
    message["view"] = view
    return message
