"""Presence (issue 40, item 2): whether a seated person is connected is pushed to every
connection of the table as it changes (a ``presence`` message, docs/protocol.md), not
learnt at the next event. Over real WebSockets of a real ``hukum serve``, and in two real
browsers."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, expect
from websockets.sync.client import ClientConnection, connect

from hukum.server.tables.audience import OFFLINE_GRACE
from tests.server.helpers import hello
from tests.server.web import api, keep_token

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
            closing = time.monotonic()  # the server sees the end after this
        until(asha, connected(1, False), SOON)
        assert time.monotonic() - closing >= OFFLINE_GRACE  # a reload within it shows nothing
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


def test_two_browsers_in_a_private_room_see_each_other_come_and_go(
    browser: Browser, server: str
) -> None:
    """Asha's page shows Ravi online within a second of his sitting down in his own browser,
    offline within a second of his page closing, online again when he comes back."""
    made = api(server, "POST", "/api/tables", {"name": "Asha"})
    code = made["code"]
    asha_context = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-US")
    ravi_context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        asha = asha_context.new_page()
        keep_token(asha, server, code, made["token"])
        asha.goto(f"{server}/t/{code}")
        ravi_row = asha.locator('.seat-row[data-seat="1"]')
        expect(ravi_row).to_contain_text("empty")
        expect(asha.locator("#fill-bots")).to_be_visible()  # Asha's socket is open

        ravi = ravi_context.new_page()
        ravi.goto(f"{server}/t/{code}")
        ravi.fill("#name", "Ravi")
        ravi.click("#sit-1")
        expect(ravi.locator('.seat-row[data-seat="1"] .tag.you')).to_be_visible()
        expect(ravi_row).to_contain_text("Ravi", timeout=2_000)  # the seat event
        expect(ravi_row.locator(".tag.off")).to_have_count(0, timeout=SOON * 1000)

        ravi.close()
        expect(ravi_row.locator(".tag.off")).to_have_count(1, timeout=SOON * 1000)

        ravi = ravi_context.new_page()
        ravi.goto(f"{server}/t/{code}")
        expect(ravi_row.locator(".tag.off")).to_have_count(0, timeout=SOON * 1000)
    finally:
        asha_context.close()
        ravi_context.close()
