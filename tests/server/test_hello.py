"""The hello (issue 18 defect 3): a seat's token travels in the game socket's first message,
never in its URL, which proxies, load balancers and access logs keep; a token in the URL is
refused, and a socket that says nothing (or something else) first is closed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from hukum.server.app import create_app
from hukum.server.routes.ws import HELLO_TIMEOUT
from tests.server.conftest import create
from tests.server.helpers import hello, seat_socket


def refused(ws: WebSocketTestSession) -> tuple[str, int]:
    """The error a refused socket is sent, and the code it is closed with."""
    message = ws.receive_json()
    assert message["type"] == "error" and message["ref"] is None, message
    with pytest.raises(WebSocketDisconnect) as info:
        ws.receive_json()
    return message["error"]["code"], info.value.code


def connected(client: TestClient, code: str) -> list[bool]:
    return [s["connected"] for s in client.get(f"/api/tables/{code}").json()["seats"]]


def test_the_page_s_default_wait_is_ten_seconds() -> None:
    assert HELLO_TIMEOUT == 10


def test_a_good_token_gets_its_seat_s_state(client: TestClient) -> None:
    made = create(client, options={"deals": 1})
    code = made["code"]
    other = client.post(f"/api/tables/{code}/seats/2", json={"name": "Ravi"}).json()["token"]
    client.post(f"/api/tables/{code}/bots", json={"token": made["token"]})
    client.post(f"/api/tables/{code}/start", json={"token": made["token"]})
    for seat, token in ((0, made["token"]), (2, other)):
        with seat_socket(client, code, token) as ws:
            state = ws.receive_json()
            assert state["type"] == "state" and state["view"]["seat"] == seat
            assert connected(client, code)[seat]
            ws.send_json({"type": "ping", "ref": 1})
            while (answer := ws.receive_json())["type"] == "event":  # the bots play on
                pass
            assert answer == {"type": "pong", "ref": 1}


@pytest.mark.parametrize("query", ["?token={token}", "?token={token}&last=3", "?last=3&token="])
def test_a_token_in_the_url_is_refused(client: TestClient, query: str) -> None:
    # Refused even with the right token and a hello after it: a client that is let in
    # this way keeps putting its token where logs keep it.
    made = create(client, start_now=True)
    url = f"/ws/{made['code']}" + query.format(token=made["token"])
    with client.websocket_connect(url) as ws:
        ws.send_json(hello(made["token"]))
        message = ws.receive_json()
        assert message["error"]["code"] == "token_in_url"
        assert '"type": "hello"' in message["error"]["message"]  # says what to send instead
        assert made["token"] not in str(message)
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4400
    assert not any(connected(client, made["code"]))


@pytest.mark.parametrize(
    ("message", "code", "close"),
    [
        ({"type": "hello"}, "bad_token", 4401),  # no token: the protocol has no spectators
        ({"type": "hello", "token": None}, "bad_token", 4401),
        ({"type": "hello", "token": ""}, "bad_token", 4401),
        ({"type": "hello", "token": "0" * 32}, "bad_token", 4401),
        ({"type": "hello", "token": 12345}, "bad_message", 4400),
        ({"type": "hello", "token": ["0" * 32]}, "bad_message", 4400),
    ],
)
def test_a_hello_without_a_good_token_is_refused(
    client: TestClient, message: dict[str, Any], code: str, close: int
) -> None:
    made = create(client, start_now=True)
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_json(message)
        assert refused(ws) == (code, close)
    assert not any(connected(client, made["code"]))


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{nope", "bad_json"),
        ("[1]", "bad_message"),
        ('"hello"', "bad_message"),
        ('{"token": "TOKEN"}', "bad_message"),  # no type
        ('{"type": "ping"}', "bad_message"),
        ('{"type": "move", "move": "2C", "token": "TOKEN"}', "bad_message"),
        ('{"type": "HELLO", "token": "TOKEN"}', "bad_message"),
    ],
)
def test_anything_but_a_hello_first_is_refused(client: TestClient, frame: str, code: str) -> None:
    made = create(client, start_now=True)
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_text(frame.replace("TOKEN", made["token"]))
        message = ws.receive_json()
        assert message["error"]["code"] == code
        if code == "bad_message":
            assert '{"type": "hello", "token": "<token>"' in message["error"]["message"]
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4400
    assert not any(connected(client, made["code"]))


def test_a_hello_in_a_binary_frame_is_taken(client: TestClient) -> None:
    made = create(client, start_now=True)
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_bytes(b'{"type": "hello", "token": "%s"}' % made["token"].encode())
        assert ws.receive_json()["type"] == "state"


@pytest.fixture
def impatient(tmp_path: Path) -> Iterator[TestClient]:
    """A server that waits a fifth of a second for a hello."""
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, hello_timeout=0.2)
    with TestClient(app) as c:
        yield c


def test_no_hello_in_time_closes_the_socket(impatient: TestClient) -> None:
    made = create(impatient, start_now=True)
    with impatient.websocket_connect(f"/ws/{made['code']}") as ws:
        message = ws.receive_json()  # nothing sent: the server gives up after 0.2 s
        assert message["error"]["code"] == "hello_timeout"
        assert '{"type": "hello"' in message["error"]["message"]
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == 4408
    assert not any(connected(impatient, made["code"]))


def test_the_wait_is_for_the_first_message_only(impatient: TestClient) -> None:
    made = create(impatient, start_now=True, turn_timeout=None)
    with seat_socket(impatient, made["code"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        time.sleep(0.5)  # quiet for longer than the hello may take: still connected
        ws.send_json({"type": "ping", "ref": "still"})
        while (answer := ws.receive_json()).get("type") != "pong":
            pass
        assert answer["ref"] == "still"


def test_a_second_hello_is_an_ordinary_bad_message(client: TestClient) -> None:
    made = create(client)
    with seat_socket(client, made["code"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json(hello(made["token"]))
        assert ws.receive_json()["error"]["code"] == "bad_message"
        ws.send_json({"type": "ping", "ref": 2})  # and the socket stays
        assert ws.receive_json() == {"type": "pong", "ref": 2}


def test_a_client_gone_before_its_hello_leaves_nothing_behind(client: TestClient) -> None:
    made = create(client, start_now=True)
    with client.websocket_connect(f"/ws/{made['code']}"):
        pass  # closed without a word
    assert not any(connected(client, made["code"]))
    with seat_socket(client, made["code"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"


def test_resume_with_last_in_the_hello(client: TestClient) -> None:
    made = create(client, start_now=True, turn_timeout=None)
    with seat_socket(client, made["code"], made["token"]) as ws:
        newest = ws.receive_json()["event"]
    with seat_socket(client, made["code"], made["token"], newest - 1) as ws:
        missed = ws.receive_json()
        assert missed["type"] == "event" and missed["event"] == newest
