"""The wire protocol (docs/protocol.md): client messages checked, and every refusal as the
client sees it: its code's HTTP status and WebSocket close code (:data:`ERRORS`, the one
place that knows them), its body and its WebSocket message. A table refuses with a
:class:`~hukum.server.tables.errors.TableError` (a game's own errors among them,
:func:`refused`); a request refused before it reaches a table, with a :class:`ProtocolError`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from hukum.server.tables.commands import message_types
from hukum.server.tables.errors import TableError, refused

__all__ = [
    "ERRORS",
    "ClientMessage",
    "Hello",
    "ProtocolError",
    "TableError",
    "client_types",
    "close_code",
    "error_body",
    "error_message",
    "foreign_origin",
    "http_status",
    "load_json",
    "parse_client_message",
    "parse_hello",
    "refused",
]


class ProtocolError(TableError):
    """A request refused before it reaches a table: a message's shape, the rate of
    messages, a quota, a route's own checks."""


#: Every error code a client may be sent: its HTTP status, and the close code of a
#: WebSocket connection refused with it (docs/protocol.md).
ERRORS: dict[str, tuple[int, int]] = {
    # what was sent
    "bad_json": (400, 4400),
    "bad_message": (400, 4400),
    "bad_request": (400, 4400),
    "bad_rules": (400, 4400),
    "invalid_move": (400, 4400),
    "illegal_move": (400, 4400),
    "not_your_turn": (400, 4400),
    "match_over": (400, 4400),
    "stale_move": (400, 4400),
    "not_your_seat": (400, 4400),
    "bad_name": (400, 4400),
    "rate_limited": (400, 4400),
    "bad_password": (400, 4400),  # the password policy (issue 41: accounts)
    "token_in_url": (400, 4400),
    "text_too_long": (400, 4400),  # a free line at a table (fair play)
    "yourself": (400, 4400),  # blocking or reporting oneself
    "not_a_player": (400, 4400),  # a seat of a bot, of nobody, or taken without a session
    # who sent it
    "hello_timeout": (408, 4408),
    "bad_token": (403, 4401),  # a lobby action's token (403); a hello's (4401: forget it)
    "foreign_origin": (403, 4403),
    "no_spectators": (403, 4403),
    "watcher": (403, 4403),
    "no_hints": (403, 4403),
    "no_session": (401, 4401),  # a request that needs a player has no (valid) session
    "suspended": (403, 4403),  # a moderator suspended or closed the player
    "not_moderator": (403, 4403),
    "bad_credentials": (401, 4401),  # a user name and password that open no account
    "not_at_table": (403, 4403),  # a report from someone who did not sit at the table
    "chat_off": (403, 4403),  # free text in a room whose chat is off
    "account_needed": (403, 4403),  # the daily challenge is for accounts, not guests
    "play_first": (403, 4403),  # a challenge deal's field before the caller played it
    "challenge_open": (403, 4403),  # a challenge deal's board before its day closes
    # what a request names
    "unknown_table": (404, 4404),
    "unknown_seat": (404, 4404),
    "unknown_deal": (404, 4404),
    "unknown_pool": (404, 4404),  # a quick-match pool (hukum.online.pools.POOLS)
    "unknown_player": (404, 4404),  # a user name no account has
    "not_found": (404, 4404),
    "unknown_party": (404, 4404),  # quick match: no such party (or it ended)
    "unknown_challenge": (404, 4404),  # a day with no daily challenge (future, or none)
    "method_not_allowed": (405, 4405),
    # the table's state
    "seat_taken": (409, 4409),
    "already_started": (409, 4409),
    "already_seated": (409, 4409),  # a player's session holds another seat of the table
    "seats_empty": (409, 4409),
    "not_started": (409, 4409),
    "not_over": (409, 4409),
    "deal_not_over": (409, 4409),
    "no_analysis": (409, 4409),
    "no_replay": (409, 4409),
    "no_record": (409, 4409),
    "name_taken": (409, 4409),  # a user name, or one that looks like it, is taken
    "already_account": (409, 4409),  # a claim by a player who has an account
    "not_account": (409, 4409),  # a password asked of a guest
    "already_reported": (409, 4409),
    "already_lifted": (409, 4409),
    "party_full": (409, 4409),  # a party has its two players
    "already_played": (409, 4409),  # a challenge deal the player finished
    "challenge_closed": (409, 4409),  # a challenge deal started or played after its close
    "no_rematch": (409, 4409),  # a challenge table's rematch (each deal is played once)
    # limits
    "too_large": (413, 4413),
    "too_many_rooms": (429, 4429),
    "too_many_requests": (429, 4429),  # a rate limit (hukum.server.throttle)
    "busy": (503, 4503),
    "server_full": (503, 4503),
    # the server
    "damaged_table": (500, 4500),
    "hint_failed": (500, 4500),
    "internal_error": (500, 4500),
    "owner_unavailable": (503, 4503),
    "not_owner": (503, 4503),
    "table_moved": (503, 4503),
}


def client_types() -> tuple[str, ...]:
    """The message types a client sends after its hello: the table commands a seated player
    sends (:data:`hukum.server.tables.commands.COMMANDS`), and ``ping``."""
    return (*message_types(), "ping")


def http_status(code: str) -> int:
    """The HTTP status of an error code (:data:`ERRORS`; a code not listed: 400)."""
    return ERRORS.get(code, (400, 4400))[0]


def close_code(code: str) -> int:
    """The close code of a WebSocket connection refused with an error code (:data:`ERRORS`;
    a code not listed: 4400)."""
    return ERRORS.get(code, (400, 4400))[1]


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
    phrase: str | None = None
    """With ``say``: a quick phrase's key."""
    text: str | None = None
    """With ``say``: a free line (checked and cleaned by the table, tables/talk.py)."""


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
    types = client_types()
    if kind not in types:
        return None, ProtocolError("bad_message", "type must be one of " + ", ".join(types))
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
    phrase, said = data.get("phrase"), data.get("text")
    if kind == "say":
        if phrase is not None and (not isinstance(phrase, str) or len(phrase) > 20):
            return None, ProtocolError("bad_message", 'a say message\'s "phrase" is a key')
        if said is not None and not isinstance(said, str):
            return None, ProtocolError("bad_message", 'a say message\'s "text" is a line')
        if said is not None and len(said) > 1000:  # cleaned, at most 200 are kept
            return None, ProtocolError("text_too_long", "a line is at most 200 characters")
    else:
        phrase = said = None
    return ClientMessage(kind, ref, move, seat, event, phrase, said), None


@dataclass(frozen=True)
class Hello:
    """A connection's first message, ``{"type": "hello", "token": …, "last": N}``: the
    token is sent here, inside the socket, never in its URL, where proxies, load balancers
    and access logs would keep it (a token owns its seat). Without a token
    (``{"type": "hello", "last": N}``) the seat is the one held by the player whose session
    cookie the handshake carries (a second device of a signed-in player). A watcher's is
    ``{"type": "hello", "watch": true, "last": N}``."""

    token: str | None
    """The seat's token; None: none was sent (the session's seat, if it holds one; else
    refused with ``bad_token``)."""
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


def error_message(error: TableError, ref: int | str | None) -> dict[str, Any]:
    """A WebSocket error message."""
    return {"type": "error", "ref": ref, **error_body(error.code, error.message, error.details)}


def foreign_origin(headers: Mapping[str, str]) -> str | None:
    """The ``Origin`` a request came from when it is another site's (its host and port are
    not the request's ``Host``): a page elsewhere acting with this browser (CSRF), refused
    on every state-changing request and WebSocket handshake; None when it is this site or
    the client sent none (a program, not a browser page)."""
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host", "")
    return None if urlsplit(origin).netloc.lower() == host.lower() and host else origin
