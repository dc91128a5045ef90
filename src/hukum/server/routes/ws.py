"""The game socket: ``/ws/<code>``, whose first message is the hello with the seat's token
(``{"type": "hello", "token": …, "last": N}``; never a token in the URL, which proxies and
access logs keep), or without a token the seat of the player whose session cookie the
handshake carries (``{"type": "hello", "last": N}``), or a watcher's (``{"type": "hello",
"watch": true, "last": N}``, in a room that allows watchers). A suspended player's session
is refused a seat (``suspended``). Only the connection layer lives here; the table is
reached through its narrow interface (subscribe, watch, submit)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from hukum.server.db import now
from hukum.server.deps import get_throttle, ws_registry
from hukum.server.identity.sessions import Suspension, identities, ws_player
from hukum.server.protocol import (
    HELLO_SHAPE,
    Hello,
    ProtocolError,
    TableError,
    close_code,
    error_message,
    foreign_origin,
    parse_client_message,
    parse_hello,
)
from hukum.server.routes import fairplay
from hukum.server.tables import Registry, Room
from hukum.server.tables.commands import Caller, by_message
from hukum.server.throttle import SocketLimit

router = APIRouter()

#: Seconds a new connection has to send its hello (``create_app(hello_timeout=…)``).
HELLO_TIMEOUT = 10.0
#: The close code after a ``reconnect`` message (WebSocket's "service restart").
RECONNECT_CLOSE = 1012
_CLOSE = object()


async def _refuse(websocket: WebSocket, error: TableError) -> None:
    """Refuse a connection: its error, then the close code of its code."""
    await websocket.send_text(json.dumps(error_message(error, None)))
    await websocket.close(close_code(error.code))


async def _hello(websocket: WebSocket, timeout: float) -> Hello | None:
    """The connection's first message, its hello; None if the client went away first.
    Refused (ProtocolError): no hello within ``timeout`` seconds (``hello_timeout``), not
    JSON or not a hello (``bad_json``, ``bad_message``)."""
    try:
        async with asyncio.timeout(timeout):
            frame = await websocket.receive()
    except TimeoutError:
        raise ProtocolError(
            "hello_timeout", f"no hello within {timeout:g} s: send {HELLO_SHAPE} first"
        ) from None
    if frame["type"] == "websocket.disconnect":
        return None
    text = frame.get("text")
    return parse_hello(text if text is not None else frame.get("bytes") or b"")


def _suspension(websocket: WebSocket, player: str | None) -> Suspension | None:
    """Whether a moderator has suspended (or closed) player ``player``: the suspension, or
    None."""
    if player is None:
        return None
    ids = identities(websocket)
    with ids.store.session() as s:
        return ids.suspension(s, player, now())


def _seated(websocket: WebSocket, table: Room, hello: Hello) -> int:
    """The seat a (non-watcher's) hello holds (in a worker thread: it reads the database):
    its token's, else the seat of the player whose session the handshake carries. Refused:
    the connection's player, or the seat's, is suspended (``suspended``, with the reason and
    the end), or no seat (``bad_token``)."""
    me = ws_player(websocket)
    found = me.suspension if me is not None else None
    seat = table.seat_of(hello.token)
    if seat is None and me is not None:
        seat = table.seat_of_player(me.id)
    if found is None and seat is not None:
        holder = table.seats[seat].player
        found = _suspension(websocket, holder if me is None or holder != me.id else None)
    if found is not None:
        raise ProtocolError(
            "suspended", "a moderator has suspended this player from the tables", **found.json()
        )
    if seat is None:
        raise ProtocolError("bad_token", "that token holds no seat here")
    return seat


async def _handle(table: Room, seat: int | None, text: str, by: Caller) -> dict[str, Any] | None:
    """One client message of ``seat`` (None: a watcher): the answer to send (ack, error,
    pong, hint). Every message but ``ping`` is a table command a seated player sends
    (:func:`~hukum.server.tables.commands.by_message`), run by ``by``, this process."""
    message, error = parse_client_message(text, max_move=table.max_move_text)
    if message is None:
        assert error is not None
        return error_message(error, None)
    ref = message.ref
    if message.type == "ping":
        return {"type": "pong", "ref": ref}
    command = by_message(message.type)
    assert command is not None  # parse_client_message knows the same types
    try:
        if seat is None:
            raise ProtocolError("watcher", "a watcher holds no seat and sends nothing but ping")
        if message.seat is not None and message.seat != seat:
            raise ProtocolError(
                "not_your_seat", f"this token holds seat {seat}, not {message.seat}"
            )
        read, reply = command.read, command.reply
        assert read is not None and reply is not None  # a seat's command has both
        result = await table.run(command, read(seat, message), by)
    except TableError as e:
        return error_message(e, ref)
    answer = reply(result)
    return {"type": answer["type"], "ref": ref, **answer}


@router.websocket("/ws/{code}")
async def game_socket(
    websocket: WebSocket,
    code: str,
    registry: Annotated[Registry, Depends(ws_registry)],
    last: str | None = None,
) -> None:
    """One player's (or watcher's) connection to one table: its first message says whose
    (the hello)."""
    await websocket.accept()
    origin = foreign_origin(websocket.headers)
    if origin is not None:  # another site's page with this browser (CSRF)
        await _refuse(websocket, ProtocolError("foreign_origin", f"a page of {origin} is refused"))
        return
    if "token" in websocket.query_params:
        # Refused, not taken: a client that keeps sending it keeps leaking it.
        message = f"never put a token in the URL, which logs keep: send {HELLO_SHAPE} first"
        await _refuse(websocket, ProtocolError("token_in_url", message))
        return
    try:
        table = await registry.get(code)
    except TableError as error:  # damaged_table
        await _refuse(websocket, error)
        return
    if table is None:
        await _refuse(websocket, ProtocolError("unknown_table", f"no table {code!r}"))
        return
    timeout: float = getattr(websocket.app.state, "hello_timeout", HELLO_TIMEOUT)
    try:
        hello = await _hello(websocket, timeout)
        if hello is None:  # the client went away before its hello
            registry.release(table)
            return
        seat: int | None = None
        if hello.watch:
            if not table.config.spectators:
                raise ProtocolError("no_spectators", "this room does not allow watchers")
        else:
            seat = await asyncio.to_thread(_seated, websocket, table, hello)
    except TableError as error:
        await _refuse(websocket, error)
        registry.release(table)
        return
    queue: asyncio.Queue[Any] = asyncio.Queue()
    muted = await fairplay.muting(websocket, table)  # what a blocked player says
    # The missed events since ``last`` (if few), else a ``state``; then every new event.
    seen = int(last) if last and last.isascii() and last.isdigit() and len(last) < 12 else None
    if hello.last is not None:
        seen = hello.last
    try:
        if seat is None:  # a watcher
            unsubscribe = await table.watch(queue.put_nowait, seen)
        else:
            unsubscribe = await table.subscribe(seat, queue.put_nowait, seen)
    except TableError as error:  # the table's owner, another process, did not answer
        await _refuse(websocket, error)
        registry.release(table)
        return

    async def writer() -> None:
        while True:
            item = await queue.get()
            if item is _CLOSE:
                return
            if muted is not None:
                item = await muted(item)
            await websocket.send_text(json.dumps(item, separators=(",", ":")))
            if item.get("type") == "reconnect":  # the table moved to another process
                await websocket.close(RECONNECT_CLOSE)
                return

    send_task = asyncio.create_task(writer())
    # 20 messages a second, 40 at once (hukum.server.throttle.SOCKET_RATE); more: rate_limited.
    throttle = get_throttle(websocket)
    limit: SocketLimit = throttle.socket()
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            if not limit.take():
                queue.put_nowait(
                    error_message(ProtocolError("rate_limited", "too many messages"), None)
                )
                continue
            answer = await _handle(table, seat, text, registry.here)
            if answer is not None:
                queue.put_nowait(answer)
    except WebSocketDisconnect:
        pass
    finally:
        limit.close()
        unsubscribe()
        registry.release(table)  # a finished match nobody watches leaves memory
        queue.put_nowait(_CLOSE)
        # Waited for, not awaited: the writer's error (a socket closed under it), raised
        # here, would hold this frame, and so the table, in a cycle with the task.
        await asyncio.wait([send_task])
        if not send_task.cancelled():
            send_task.exception()
