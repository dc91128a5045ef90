"""Rematch (docs/protocol.md): once a match is over each person asks for a rematch (bots
agree by themselves); when every person has asked, a new room is made with the same
settings and the same seats, each person's token holding the same seat there, and its
match starts at once. The old table stores and tells the new code (a ``rematched`` event,
``"rematch"`` in its public table), so that every connection, and a reload, finds it."""

from __future__ import annotations

import functools
import threading
import time
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hukum.server.tables.seats import bot_name
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket
from tests.server.test_pause import on_server

ONE_DEAL = {"deals": 1, "target": None}


def answer(
    ws: WebSocketTestSession, ref: int, before: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The ack or error of message ``ref``; the messages before it go to ``before``."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("ack", "error") and message["ref"] == ref:
            return message
        if before is not None:
            before.append(message)


def until_event(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("kind") == kind:
            return message


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    """A started room of Asha (seat 0), Ravi (seat 2) and two bots; its code and tokens."""
    made = create(client, name="Asha", bots="random", **body)
    code = made["code"]
    ravi = client.post(f"/api/tables/{code}/seats/2", json={"name": "Ravi"}).json()["token"]
    assert client.post(f"/api/tables/{code}/bots", json={"token": made["token"]}).status_code == 200
    assert (
        client.post(f"/api/tables/{code}/start", json={"token": made["token"]}).status_code == 200
    )
    return code, [made["token"], ravi]


def test_both_ask_and_the_same_seats_play_again_at_a_new_table(client: TestClient) -> None:
    code, tokens = two_people(client, options=ONE_DEAL, spectators=True, turn_timeout=120)
    before = client.get(f"/api/tables/{code}").json()
    players = [Player(), Player()]
    with seat_socket(client, code, tokens[0]) as asha, seat_socket(client, code, tokens[1]) as ravi:
        # Each person plays their seat in a thread of their own, until the match is over.
        threads = [
            threading.Thread(target=play, args=(ws, p))
            for ws, p in ((asha, players[0]), (ravi, players[1]))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert all(p.match_over and not p.errors for p in players), [p.errors for p in players]
        over = client.get(f"/api/tables/{code}").json()
        assert over["status"] == "over" and over["rematch"] is None
        # Asha asks: stored and told to everyone; Ravi is still awaited.
        asha.send_json({"type": "rematch", "ref": 100})
        ack = answer(asha, 100)
        assert ack["type"] == "ack"
        told = until_event(ravi, "rematch")
        assert told["seat"] == 0 and told["event"] == ack["event"]
        assert [s["rematch"] for s in told["table"]["seats"]] == [True, False, False, False]
        assert told["table"]["rematch"] is None
        # Asking again changes nothing.
        asha.send_json({"type": "rematch", "ref": 101})
        assert answer(asha, 101) == {"type": "ack", "ref": 101, "event": ack["event"]}
        # Ravi asks: the new room is made, and its code told to both.
        ravi.send_json({"type": "rematch", "ref": 102})
        told_ravi: list[dict[str, Any]] = []
        done = answer(ravi, 102, told_ravi)  # the events come before the ack
        assert done["type"] == "ack" and done["event"] == ack["event"] + 2
        assert [m["kind"] for m in told_ravi[-2:]] == ["rematch", "rematched"]
        for rematched in (told_ravi[-1], until_event(asha, "rematched")):
            new = rematched["rematch"]
            assert rematched["table"]["rematch"] == new and rematched["event"] == done["event"]
        # Asking after the rematch is made changes nothing either.
        ravi.send_json({"type": "rematch", "ref": 103})
        assert answer(ravi, 103)["event"] == done["event"]
    assert new != code
    # The new room: the same settings and seats, its match started at once.
    table = client.get(f"/api/tables/{new}").json()
    assert table["status"] == "playing" and table["deal_number"] == 1
    for key in ("game", "rules", "preset", "bots", "turn_timeout", "spectators"):
        assert table[key] == before[key], key
    same = [(s["kind"], s["name"]) for s in table["seats"]]
    assert same == [(s["kind"], s["name"]) for s in before["seats"]]
    assert same == [
        ("human", "Asha"),
        ("bot", bot_name(code, 1, ["Asha", "", "Ravi", ""])),
        ("human", "Ravi"),
        ("bot", bot_name(code, 3, ["Asha", same[1][1], "Ravi", ""])),
    ]
    assert table["rematch"] is None and not any(s["rematch"] for s in table["seats"])
    # The same tokens hold the same seats there, and play.
    for seat, token in ((0, tokens[0]), (2, tokens[1])):
        with seat_socket(client, new, token) as ws:
            state = ws.receive_json()
            assert state["type"] == "state" and state["view"]["seat"] == seat
            assert len(state["view"]["hand"]) == 13
    with seat_socket(client, new, tokens[0]) as asha, seat_socket(client, new, tokens[1]) as ravi:
        people = {0: asha, 2: ravi}
        seen = asha.receive_json()
        while seen["view"]["turn"] not in people:  # the bots play up to a person's turn
            seen = asha.receive_json()
        ws = people[seen["view"]["turn"]]
        mine = seen if ws is asha else ravi.receive_json()
        while mine["event"] != seen["event"]:  # Ravi's view of that moment
            mine = ravi.receive_json()
        ws.send_json({"type": "move", "move": mine["view"]["legal"][0], "ref": 1})
        assert answer(ws, 1)["type"] == "ack"
    # The old table still points at the new one: a reload, a new connection, and after it
    # has left memory and is read back from its log.
    assert client.get(f"/api/tables/{code}").json()["rematch"] == new
    with seat_socket(client, code, tokens[1]) as ws:
        state = ws.receive_json()
        assert state["table"]["rematch"] == new and state["table"]["status"] == "over"
    app: Any = client.app
    registry = app.state.registry
    for _ in range(400):  # the last connection's end may still be on its way
        old = registry.tables.get(code)
        if old is None or on_server(client, functools.partial(registry.release, old)):
            break
        time.sleep(0.005)
    assert code not in registry.tables
    reread = client.get(f"/api/tables/{code}").json()
    assert reread["rematch"] == new and [s["rematch"] for s in reread["seats"]] == [
        True,
        False,
        True,
        False,
    ]


def test_a_rematch_is_asked_for_once_the_match_is_over(client: TestClient) -> None:
    code, tokens = two_people(client, options=ONE_DEAL)
    with seat_socket(client, code, tokens[0]) as ws:
        ws.send_json({"type": "rematch", "ref": 1})
        refused = answer(ws, 1)
    assert refused["type"] == "error" and refused["error"]["code"] == "not_over"
    table = client.get(f"/api/tables/{code}").json()
    assert table["status"] == "playing" and not any(s["rematch"] for s in table["seats"])
    # Before the match starts, too.
    waiting = create(client)
    with seat_socket(client, waiting["code"], waiting["token"]) as ws:
        ws.send_json({"type": "rematch", "ref": 2})
        assert answer(ws, 2)["error"]["code"] == "not_over"


def test_alone_with_bots_one_ask_is_enough(client: TestClient) -> None:
    made = create(client, start_now=True, bots="random", options=ONE_DEAL, name="Asha")
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
        ws.send_json({"type": "rematch", "ref": 50})
        told: list[dict[str, Any]] = []
        assert answer(ws, 50, told)["type"] == "ack"
        assert [m["kind"] for m in told[-2:]] == ["rematch", "rematched"]
        new = told[-1]["rematch"]
    with seat_socket(client, new, made["token"]) as ws:
        state = ws.receive_json()
        assert state["view"]["seat"] == 0 and state["table"]["status"] == "playing"
