"""The game socket: ``/ws/<code>?token=…&last=N``. Only the connection layer lives here;
the table is reached through its narrow interface (subscribe, submit)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from hukum.server.deps import ws_registry
from hukum.server.protocol import ProtocolError, error_message, parse_client_message
from hukum.server.tables import Registry, Table

router = APIRouter()

#: Messages a connection may send per second on average, and in a burst.
RATE, BURST = 20.0, 40.0
_CLOSE = object()


class Bucket:
    """A token bucket: ``take()`` is False when a client sends too fast."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst, self.level = rate, burst, burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


async def _refuse(websocket: WebSocket, error: ProtocolError, close_code: int) -> None:
    await websocket.send_text(json.dumps(error_message(error, None)))
    await websocket.close(close_code)


async def _handle(table: Table, seat: int, text: str) -> dict[str, Any] | None:
    """One client message: the answer to send (ack, error, pong)."""
    message, error = parse_client_message(text, max_move=table.max_move_text)
    if message is None:
        assert error is not None
        return error_message(error, None)
    ref = message.ref
    try:
        if message.type == "ping":
            return {"type": "pong", "ref": ref}
        if message.seat is not None and message.seat != seat:
            raise ProtocolError(
                "not_your_seat", f"this token holds seat {seat}, not {message.seat}"
            )
        if message.type == "move":
            assert message.move is not None
            event = await table.submit_move(seat, message.move, message.event)
        elif message.type == "next_deal":
            event = await table.ready(seat)
        else:
            event = await table.take_back(seat)
    except ProtocolError as e:
        return error_message(e, ref)
    return {"type": "ack", "ref": ref, "event": event}


@router.websocket("/ws/{code}")
async def game_socket(
    websocket: WebSocket,
    code: str,
    registry: Annotated[Registry, Depends(ws_registry)],
    token: str | None = None,
    last: str | None = None,
) -> None:
    """One player's connection to one table."""
    await websocket.accept()
    table = await registry.get(code)
    if table is None:
        await _refuse(websocket, ProtocolError("unknown_table", f"no table {code!r}"), 4404)
        return
    seat = table.seat_of(token)
    if seat is None:
        await _refuse(websocket, ProtocolError("bad_token", "that token holds no seat here"), 4401)
        return
    queue: asyncio.Queue[Any] = asyncio.Queue()
    # The missed events since ``last`` (if few), else a ``state``; then every new event.
    seen = int(last) if last and last.isascii() and last.isdigit() and len(last) < 12 else None
    unsubscribe = await table.subscribe(seat, queue.put_nowait, seen)

    async def writer() -> None:
        while True:
            item = await queue.get()
            if item is _CLOSE:
                return
            await websocket.send_text(json.dumps(item, separators=(",", ":")))

    send_task = asyncio.create_task(writer())
    bucket = Bucket()
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            if not bucket.take():
                queue.put_nowait(
                    error_message(ProtocolError("rate_limited", "too many messages"), None)
                )
                continue
            answer = await _handle(table, seat, text)
            if answer is not None:
                queue.put_nowait(answer)
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        registry.release(table)  # a finished match nobody watches leaves memory
        queue.put_nowait(_CLOSE)
        with contextlib.suppress(Exception):
            await send_task
