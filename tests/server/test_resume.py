"""Reconnecting with ``last=N``: the missed events, exactly as they were told live, or a
``state`` when the gap is too long or ``last`` makes no sense."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hukum.server.tables import Table
from tests.server.conftest import create, play
from tests.server.helpers import Player, check_no_leaks, seat_socket


def connect(
    client: TestClient, made: dict[str, Any], last: Any = None
) -> AbstractContextManager[WebSocketTestSession]:
    """The creator's socket, ``last`` in its hello."""
    return seat_socket(client, made["code"], made["token"], last)


def table_of(client: TestClient, made: dict[str, Any]) -> Table:
    app: Any = client.app
    table: Table = app.state.registry.tables[made["code"]]
    return table


def until_idle(ws: Any, player: Player) -> None:
    """Read (and let ``player`` see) messages until it is seat 0's turn: with no time limit
    the table then waits for seat 0, which has stopped playing."""
    while True:
        latest = player.latest
        if latest is not None and latest["view"] is not None:
            view = latest["view"]
            if view["turn"] == 0 and view["outcome"] is None:
                return
        player.feed(ws.receive_json())


def test_missed_events_are_what_the_seat_was_told_live(client: TestClient) -> None:
    # A hidden-trump match with one person (seat 0) and no time limit: the table waits for
    # seat 0, so what happens while a second connection of seat 0 is away is fixed.
    made = create(
        client,
        start_now=True,
        preset="hidden",
        turn_timeout=None,
        options={"deals": 3, "target": None},
    )
    table = table_of(client, made)
    live = Player()
    with connect(client, made) as ws:
        for out in live.feed(ws.receive_json()):
            ws.send_json(out)
        with connect(client, made) as away:
            last = away.receive_json()["event"]
        # Away for the rest of this deal and a few moves of the next.
        play(ws, live, deals=1)
        play(ws, live, moves=live.moves + 3)
        until_idle(ws, live)
        gap = table.event - last
        assert 60 < gap <= table.resume_limit
        back = Player()
        with connect(client, made, last) as again:
            while back.latest is None or back.latest["event"] < table.event:
                back.feed(again.receive_json())
        told = [m for m in live.log if m["type"] == "event" and m["event"] > last]
        assert back.log == told
        kinds = {m["kind"] for m in told}
        assert {"move", "deal_over", "ready", "deal"} <= kinds
        assert [m["event"] for m in back.log] == list(range(last + 1, table.event + 1))
        before = [m for m in live.log if m["type"] in ("state", "event") and m["event"] <= last]
        assert check_no_leaks(before + back.log, seat=0) == 1


def test_nothing_missed_nothing_sent(client: TestClient) -> None:
    made = create(client, start_now=True, turn_timeout=None, options={"deals": 1})
    table = table_of(client, made)
    player = Player()
    with connect(client, made) as ws:
        player.feed(ws.receive_json())
        until_idle(ws, player)
        assert player.latest is not None and player.latest["view"]["turn"] == 0
        with connect(client, made, table.event) as again:
            again.send_json({"type": "ping", "ref": "p"})
            assert again.receive_json() == {"type": "pong", "ref": "p"}  # nothing came first
            move = player.latest["view"]["legal"][0]
            again.send_json({"type": "move", "move": move, "ref": 1})
            first = again.receive_json()
            assert first["type"] == "event" and first["kind"] == "move"
            assert first["event"] == player.latest["event"] + 1


@pytest.mark.parametrize("last", ["-1", "x", "", "999999", "10" * 8, "²"])
def test_unusable_last_in_the_url_gets_a_state(client: TestClient, last: str) -> None:
    made = create(client, start_now=True, turn_timeout=None)
    with seat_socket(client, made["code"], made["token"], query=f"?last={last}") as ws:
        assert ws.receive_json()["type"] == "state"


@pytest.mark.parametrize("last", [-1, "3", 1.5, True, [2], {}, 999999, 10**30])
def test_unusable_last_in_the_hello_gets_a_state(client: TestClient, last: Any) -> None:
    made = create(client, start_now=True, turn_timeout=None)
    with connect(client, made, last) as ws:
        assert ws.receive_json()["type"] == "state"


def test_last_in_the_url_still_resumes_and_the_hello_s_wins(client: TestClient) -> None:
    # ``?last=N`` is no secret: an older page's way to say it still works. A hello that
    # says ``last`` too is believed over the URL.
    made = create(client, start_now=True, turn_timeout=None)
    table = table_of(client, made)
    player = Player()
    with connect(client, made) as ws:
        player.feed(ws.receive_json())
        until_idle(ws, player)
        newest, query = table.event, f"?last={table.event - 2}"
        with seat_socket(client, made["code"], made["token"], query=query) as again:
            assert [again.receive_json()["event"] for _ in range(2)] == [newest - 1, newest]
        with seat_socket(client, made["code"], made["token"], newest - 1, query) as again:
            assert again.receive_json()["event"] == newest
            again.send_json({"type": "ping", "ref": "p"})
            assert again.receive_json() == {"type": "pong", "ref": "p"}  # nothing else came


def test_a_long_absence_gets_a_state(client: TestClient) -> None:
    made = create(client, start_now=True, turn_timeout=None)
    table = table_of(client, made)
    table.resume_limit = 3
    player = Player()
    with connect(client, made) as ws:
        player.feed(ws.receive_json())
        until_idle(ws, player)
        assert table.event > 4
        for last, kind in [(table.event - 4, "state"), (table.event - 3, "event")]:
            with connect(client, made, last) as again:
                assert again.receive_json()["type"] == kind
