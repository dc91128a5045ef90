"""Issue 41, seats that follow the player (docs/protocol.md, "Seats that follow the player"):
a seat taken with a session keeps the player's id in its stored event, never tells it to
anybody, and is the player's on another device (a hello without a token); the HOLDER
commands take the session in place of a token; a rematch keeps the players; a suspended or
closed player is refused a seat. Through the real app and a real database."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from starlette.testclient import WebSocketTestSession

from hukum.server.app import create_app
from hukum.server.db import EventRow
from hukum.server.identity.models import PlayerSession, Sanction
from hukum.server.identity.sessions import COOKIE, session_hash
from tests.server.conftest import create, play
from tests.server.helpers import Player, hello
from tests.server.test_rematch import answer

ONE_DEAL = {"deals": 1, "target": None}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'h.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0)) as c:
        yield c


def guest(client: TestClient) -> str:
    """A new guest's session token (the client's cookie from now on)."""
    client.cookies.clear()
    assert client.post("/api/me/guest").status_code == 200
    token: str = client.cookies[COOKIE]
    return token


def as_device(client: TestClient, session: str | None) -> None:
    """Make the client a browser holding session ``session`` (None: no session)."""
    client.cookies.clear()
    if session is not None:
        client.cookies.set(COOKIE, session)


def player_id(db: str, session: str) -> str:
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            row = s.get(PlayerSession, session_hash(session))
            assert row is not None
            return row.player
    finally:
        engine.dispose()


def seat_events(db: str, code: str) -> list[dict[str, Any]]:
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            rows = s.scalars(
                select(EventRow).where(EventRow.room == code, EventRow.kind == "seat")
            ).all()
            return [dict(r.data) for r in rows]
    finally:
        engine.dispose()


def sanction(db: str, player: str, kind: str, until: dt.datetime | None) -> None:
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            s.add(Sanction(player=player, kind=kind, reason="rude to the table", until=until))
            s.commit()
    finally:
        engine.dispose()


def refusal(ws: WebSocketTestSession) -> tuple[dict[str, Any], int]:
    """The error a refused connection is sent, and its close code."""
    message: dict[str, Any] = ws.receive_json()
    closed = ws.receive()
    assert closed["type"] == "websocket.close"
    return message["error"], int(closed["code"])


def test_the_seat_keeps_the_player_whom_no_answer_ever_names(client: TestClient, db: str) -> None:
    session = guest(client)
    me = client.get("/api/me").json()["player"]
    made = create(client, start_now=True, bots="random", options=ONE_DEAL)
    code = made["code"]
    pid = player_id(db, session)
    [mine, *bots] = seat_events(db, code)
    assert mine["player"] == pid and mine["seat"] == 0
    assert mine["name"] == me["name"]  # no name given: the player's display name
    assert not any("player" in b for b in bots)
    # The page at another device: no token, the same cookie; it plays the whole match.
    as_device(client, session)
    table = client.get(f"/api/tables/{code}").json()
    assert table["you"] == 0 and table["seats"][0]["name"] == me["name"]
    player = Player()
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(None))
        play(ws, player)
    assert player.match_over and not player.errors, player.errors
    assert player.log[0]["view"]["seat"] == 0
    said = [json.dumps(m) for m in player.log]
    said.append(client.get(f"/api/tables/{code}").text)
    said.append(client.get(f"/api/tables/{code}/record").text)
    said.append(client.get(f"/api/tables/{code}/deals/1").text)
    said.append(client.get(f"/api/tables/{code}/deals/1/analysis").text)
    said.append(client.get("/api/me").text)
    with client.websocket_connect(f"/ws/{code}") as ws:  # a resync from the first event
        ws.send_json({**hello(None), "last": 0})
        said.extend(json.dumps(ws.receive_json()) for _ in range(3))
    assert all('"error"' not in text for text in said[-8:-3]), said[-8:-3]
    assert not [text for text in said if pid in text]
    assert not [text for text in said if '"player"' in text and "view" in text]


def test_a_second_device_is_back_in_the_seat(client: TestClient) -> None:
    asha = guest(client)
    made = create(client, name="Asha", bots="random")
    code = made["code"]
    ravi = guest(client)
    assert client.post(f"/api/tables/{code}/seats/2", json={"name": "Ravi"}).status_code == 200
    assert client.get(f"/api/tables/{code}").json()["you"] == 2
    # Asha's other device: the same session, no token.
    as_device(client, asha)
    assert client.get(f"/api/tables/{code}").json()["you"] == 0
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(None))
        state = ws.receive_json()
        assert state["type"] == "state" and state["table"]["seats"][0]["connected"] is True
    # A token still holds its seat, with or without a session (another player's); a bad
    # token falls back to the session's seat.
    for session in (None, ravi):
        as_device(client, session)
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json(hello(made["token"]))
            assert ws.receive_json()["table"]["event"] >= 1
            ws.send_json({"type": "ping", "ref": 1})
            assert ws.receive_json() == {"type": "pong", "ref": 1}
        assert client.get(f"/api/tables/{code}").json()["you"] == (None if session is None else 2)
    as_device(client, ravi)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello("0" * 32))
        ws.receive_json()
        # Ravi's seat: the message for seat 0 is refused.
        ws.send_json({"type": "next_deal", "seat": 0, "ref": 2})
        assert answer(ws, 2)["error"]["code"] == "not_your_seat"
    # One seat per player and table.
    r = client.post(f"/api/tables/{code}/seats/1", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["kind"] == "empty"


def test_without_a_session_nothing_changes(client: TestClient, db: str) -> None:
    client.cookies.clear()
    made = create(client, name="Asha", bots="random")
    code = made["code"]
    r = client.post(f"/api/tables/{code}/seats/1", json={})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert client.post(f"/api/tables/{code}/seats/2", json={"name": "Ravi"}).status_code == 200
    assert not any("player" in e for e in seat_events(db, code))
    table = client.get(f"/api/tables/{code}").json()
    assert table["you"] is None and [s["name"] for s in table["seats"][:3]] == ["Asha", "", "Ravi"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(None))
        error, close = refusal(ws)
    assert error["code"] == "bad_token" and close == 4401
    for path in ("bots", "start"):
        r = client.post(f"/api/tables/{code}/{path}", json={})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    assert client.get(f"/api/tables/{code}").json()["event"] == table["event"]  # unchanged
    r = client.post(f"/api/tables/{code}/start", json={"token": made["token"], "fill": 1})
    assert r.status_code == 400  # a field no request has


def test_the_seat_s_session_fills_with_bots_and_starts(client: TestClient) -> None:
    asha = guest(client)
    made = create(client, name="Asha", bots="random")
    code = made["code"]
    guest(client)  # somebody else's session holds no seat here
    for path in ("bots", "start"):
        r = client.post(f"/api/tables/{code}/{path}", json={})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    as_device(client, asha)
    r = client.post(f"/api/tables/{code}/bots", json={})
    assert r.status_code == 200, r.text
    assert [s["kind"] for s in r.json()["table"]["seats"]] == ["human", "bot", "bot", "bot"]
    r = client.post(f"/api/tables/{code}/start", json={})
    assert r.status_code == 200 and r.json()["table"]["status"] == "playing"


def test_a_rematch_keeps_each_seat_s_player(client: TestClient, db: str) -> None:
    asha = guest(client)
    made = create(client, start_now=True, bots="random", options=ONE_DEAL, name="Asha")
    pid = player_id(db, asha)
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_json(hello(None))
        play(ws, Player())
        ws.send_json({"type": "rematch", "ref": 50})
        told: list[dict[str, Any]] = []
        assert answer(ws, 50, told)["type"] == "ack"
        new = told[-1]["rematch"]
    assert seat_events(db, new)[0]["player"] == pid
    assert client.get(f"/api/tables/{new}").json()["you"] == 0
    with client.websocket_connect(f"/ws/{new}") as ws:  # the session's hello
        ws.send_json(hello(None))
        state = ws.receive_json()
        assert state["view"]["seat"] == 0 and state["table"]["status"] == "playing"
    as_device(client, None)
    with client.websocket_connect(f"/ws/{new}") as ws:  # and the old token's
        ws.send_json(hello(made["token"]))
        assert ws.receive_json()["view"]["seat"] == 0


@pytest.mark.parametrize("kind", ["suspend", "close"])
def test_a_suspended_player_cannot_sit_but_may_watch(
    client: TestClient, db: str, kind: str
) -> None:
    asha = guest(client)
    made = create(client, name="Asha", bots="random", spectators=True)
    code = made["code"]
    as_device(client, None)
    other = create(client, name="Ravi", bots="random", spectators=True)
    until = dt.datetime.now(dt.UTC) + dt.timedelta(days=3) if kind == "suspend" else None
    sanction(db, player_id(db, asha), kind, until)
    as_device(client, asha)
    before = client.get(f"/api/tables/{code}").json()
    refused = [
        client.post("/api/tables", json={"name": "Asha"}),
        client.post(f"/api/tables/{other['code']}/seats/1", json={"name": "Asha"}),
        client.post(f"/api/tables/{code}/bots", json={"token": made["token"]}),
        client.post(f"/api/tables/{code}/start", json={}),
    ]
    for r in refused:
        assert r.status_code == 403, r.text
        error = r.json()["error"]
        assert error["code"] == "suspended" and error["reason"] == "rude to the table"
        if until is None:
            assert error["until"] is None
        else:
            assert dt.datetime.fromisoformat(error["until"]) == until
    for token in (None, made["token"]):  # neither the session nor a token seats them
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json(hello(token))
            error, close = refusal(ws)
        assert error["code"] == "suspended" and close == 4403
        assert error["reason"] == "rude to the table"
    with client.websocket_connect(f"/ws/{code}") as ws:  # watching is allowed
        ws.send_json(hello(None, watch=True))
        assert ws.receive_json()["type"] == "state"
    assert client.get("/api/me").json()["player"]["suspension"]["reason"] == "rude to the table"
    assert client.get(f"/api/tables/{code}").json() == before
    assert client.get(f"/api/tables/{other['code']}").json()["seats"][1]["kind"] == "empty"
    # Nor the seat's token in another browser: the seat is a suspended player's.
    as_device(client, None)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(made["token"]))
        error, close = refusal(ws)
    assert error["code"] == "suspended" and close == 4403
