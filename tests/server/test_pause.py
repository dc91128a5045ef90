"""A table with no person connected pauses (bots at most finish the trick in progress),
and goes on when a person connects: nobody comes back to a match the bots played out."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from hukum.mindi import Deal
from hukum.server.tables import Table
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket

T = TypeVar("T")


def table_of(client: TestClient, made: dict[str, Any]) -> Table:
    app: Any = client.app
    table: Table = app.state.registry.tables[made["code"]]
    return table


def on_server(client: TestClient, read: Callable[[], T]) -> T:
    """Read the table's state on the server's own event loop."""
    assert client.portal is not None
    return client.portal.call(read)


def until_paused(client: TestClient, table: Table) -> None:
    """Wait until nobody is connected and no automatic step is planned (a bot in the middle
    of its move finishes it first). No time is asserted: the wait only ends sooner."""
    for _ in range(2000):
        if on_server(client, lambda: not table.present() and table.planned is None):
            return
        time.sleep(0.005)
    raise AssertionError(f"the table did not pause: {on_server(client, lambda: table.planned)}")


def snapshot(table: Table) -> tuple[int, int, int, int, bool]:
    deal = table.deal
    assert isinstance(deal, Deal)
    return (
        table.event,
        len(table.match.deals if table.match else []),
        len(deal.tricks),
        len(deal.trick),
        deal.is_over(),
    )


def test_nobody_there_nothing_happens_until_someone_comes(client: TestClient) -> None:
    # A bot-heavy table whose only person never connects: with the old behaviour the
    # person's turn timed out at once and the bots played the match out in milliseconds.
    made = create(client, start_now=True, turn_timeout=1, options={"deals": 1})
    table = table_of(client, made)
    until_paused(client, table)
    event, deals, tricks, in_trick, over = on_server(client, lambda: snapshot(table))
    assert (deals, tricks, in_trick, over) == (1, 0, 0, False)  # not a card played
    assert on_server(client, lambda: table.status) == "playing"
    # Someone comes: play goes on (the person's own moves, and the bots').
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["event"] == event
        for out in player.feed(first):
            ws.send_json(out)
        play(ws, player, moves=3)
    assert on_server(client, lambda: table.event) > event + 3


def test_bots_finish_the_trick_then_wait(client: TestClient) -> None:
    made = create(client, start_now=True, turn_timeout=None, options={"deals": 1})
    table = table_of(client, made)
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        for out in player.feed(ws.receive_json()):
            ws.send_json(out)
        play(ws, player, moves=2)  # the person leaves right after a card of theirs
    until_paused(client, table)
    event, _, _, in_trick, over = on_server(client, lambda: snapshot(table))
    turn = on_server(client, lambda: table.deal.turn if table.deal else None)
    # The bots finished the trick, and did not begin the next; or (if the connection was
    # still there while they played on) they stopped at the person's own turn.
    assert not over and (in_trick == 0 or turn == 0)
    with seat_socket(client, made["code"], made["token"]) as ws:
        state = ws.receive_json()
        assert state["type"] == "state" and state["event"] == event
        for out in player.feed(state):
            ws.send_json(out)
        play(ws, player, moves=4)


def test_no_bot_plays_for_an_absent_person_while_nobody_is_there(client: TestClient) -> None:
    # Two people; seat 0 lets its turns time out (absent: a bot plays for it), seat 2 never
    # comes. Once seat 0's connection is gone, its bot stops as well.
    made = create(client, turn_timeout=1, options={"deals": 1})
    code, token = made["code"], made["token"]
    client.post(f"/api/tables/{code}/seats/2", json={"name": "B"})
    client.post(f"/api/tables/{code}/bots", json={"token": token})
    client.post(f"/api/tables/{code}/start", json={"token": token})
    table = table_of(client, made)
    with seat_socket(client, code, token) as ws:
        seen: set[int] = set()
        while not {0, 2} <= seen:  # both people time out; bots play for them
            m = ws.receive_json()
            if m.get("kind") == "absent":
                seen.add(m["seat"])
        while True:  # and a bot has played for seat 0
            m = ws.receive_json()
            if m.get("kind") == "move" and m["seat"] == 0:
                break
    until_paused(client, table)
    event, _, _, in_trick, over = on_server(client, lambda: snapshot(table))
    deal = on_server(client, lambda: table.deal)
    assert deal is not None and not over
    turn = on_server(client, lambda: deal.turn)
    # Paused at an absent person's turn, or between tricks (never in a trick at a bot's).
    assert turn in (0, 2) or in_trick == 0
    with seat_socket(client, code, token) as ws:
        assert ws.receive_json()["event"] == event
        while ws.receive_json()["event"] < event + 2:  # going on again
            pass
