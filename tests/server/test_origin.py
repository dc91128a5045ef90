"""Another site's page cannot act with a player's browser (CSRF): a state-changing request
or a WebSocket handshake whose ``Origin`` is not this server is refused with
``foreign_origin`` (403 / close 4403) and changes nothing; this site's own page and a
program that sends no ``Origin`` go on as before (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hukum.server.app import create_app
from hukum.server.protocol import foreign_origin

ROOM = {"game": "mindi", "preset": "classic", "name": "Asha", "bots": "random"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as c:
        yield c


def test_the_origin_is_judged_by_the_host() -> None:
    assert foreign_origin({"host": "hukum.example:8000"}) is None  # no Origin: a program
    same = {"host": "hukum.example:8000", "origin": "https://HUKUM.example:8000"}
    assert foreign_origin(same) is None
    other = {"host": "hukum.example:8000", "origin": "https://evil.example"}
    assert foreign_origin(other) == "https://evil.example"
    assert foreign_origin({"host": "a:1", "origin": "null"}) == "null"  # a sandboxed page
    assert foreign_origin({"host": "a:1", "origin": "http://a:2"}) == "http://a:2"


def test_another_sites_page_makes_no_room_and_takes_no_seat(client: TestClient) -> None:
    foreign = {"origin": "https://evil.example"}
    refused = client.post("/api/tables", json=ROOM, headers=foreign)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "foreign_origin"
    made = client.post("/api/tables", json=ROOM, headers={"origin": "http://testserver"})
    assert made.status_code == 200, made.text
    code = made.json()["code"]
    seat = client.post(f"/api/tables/{code}/seats/1", json={"name": "Eve"}, headers=foreign)
    assert seat.status_code == 403 and seat.json()["error"]["code"] == "foreign_origin"
    seats = client.get(f"/api/tables/{code}", headers=foreign).json()["seats"]  # reading: fine
    assert seats[1]["kind"] == "empty"
    assert client.post(f"/api/tables/{code}/seats/1", json={"name": "Ravi"}).status_code == 200


def test_another_sites_page_opens_no_game_socket(client: TestClient) -> None:
    code = client.post("/api/tables", json=ROOM).json()["code"]
    with client.websocket_connect(f"/ws/{code}", headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["error"]["code"] == "foreign_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403
