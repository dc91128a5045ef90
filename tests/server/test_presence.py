"""Presence (issue 40, item 2): whether a seated person is connected is pushed to every
connection of the table as it changes (a ``presence`` message, docs/protocol.md), not
learnt at the next event. Over real WebSockets of a real ``hukum serve``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from websockets.sync.client import ClientConnection, connect

from hukum.server.tables.audience import OFFLINE_GRACE
from tests.server.helpers import hello
from tests.server.web import api

#: How soon every other seat must see a change: a second (the grace of an ending included).
SOON = 1.0


@contextmanager
def socket(base: str, code: str, token: str) -> Iterator[ClientConnection]:
    """A seat's socket to table ``code``, its hello sent."""
    with connect(base.replace("http", "ws", 1) + f"/ws/{code}") as ws:
        ws.send(json.dumps(hello(token)))
        yield ws


def until(ws: ClientConnection, seen: Callable[[dict[str, Any]], bool], within: float) -> float:
    """Read messages until one is ``seen``; how long it took (fails after ``within``)."""
    start = time.monotonic()
    while True:
        left = within - (time.monotonic() - start)
        assert left > 0, f"not seen within {within} s"
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            continue
        if seen(message):
            return time.monotonic() - start


def connected(seat: int, value: bool) -> Callable[[dict[str, Any]], bool]:
    """Whether a message says that ``seat`` is (``value``) connected: a ``presence``, or a
    table in a ``state`` or an ``event``."""

    def seen(message: dict[str, Any]) -> bool:
        if message.get("type") == "presence":
            return bool(message["connected"][seat] is value)
        table = message.get("table")
        return table is not None and table["seats"][seat]["connected"] is value

    return seen


def test_the_others_see_a_seat_online_offline_and_back_within_a_second(server: str) -> None:
    assert OFFLINE_GRACE < SOON
    made = api(server, "POST", "/api/tables", {"name": "Asha"})
    code = made["code"]
    with socket(server, code, made["token"]) as asha:
        until(asha, connected(0, True), SOON)
        ravi_token = api(server, "POST", f"/api/tables/{code}/seats/1", {"name": "Ravi"})["token"]
        until(asha, connected(1, False), SOON)  # seated, its page not connected yet
        with socket(server, code, ravi_token):
            until(asha, connected(1, True), SOON)
        took = until(asha, connected(1, False), SOON)
        assert took >= OFFLINE_GRACE * 0.8  # a reload within the grace shows nothing
        with socket(server, code, ravi_token) as again:
            until(asha, connected(1, True), SOON)
            # The seat that came back is told the others' presence too.
            until(again, connected(0, True), SOON)


def test_a_reload_within_the_grace_is_not_told_as_offline(server: str) -> None:
    made = api(server, "POST", "/api/tables", {"name": "Asha"})
    code = made["code"]
    ravi_token = api(server, "POST", f"/api/tables/{code}/seats/1", {"name": "Ravi"})["token"]
    with socket(server, code, made["token"]) as asha:
        with socket(server, code, ravi_token):
            until(asha, connected(1, True), SOON)
        with socket(server, code, ravi_token):  # the page reloaded: it is back at once
            try:
                until(asha, lambda m: m.get("type") == "presence", OFFLINE_GRACE * 2)
            except AssertionError:
                return
            raise AssertionError("a presence was told though Ravi came back within the grace")
