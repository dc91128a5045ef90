"""Hostile input to the server is refused with the documented error shape and a reason, and
changes nothing (issue 18, defect 2 and part of 5): JSON nested past the parser's depth, a
number of 5,000 digits, bytes that are not UTF-8, a Unicode digit as a seed, bodies over
the size limit (declared or streamed), unknown paths, a turn time limit of a nanosecond."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from hukum.server.app import MAX_BODY, create_app
from hukum.server.protocol import ProtocolError, http_status
from hukum.server.throttle import ROOMS_PER_HOUR, Throttle
from tests.server.conftest import create
from tests.server.helpers import seat_socket
from tests.server.test_throttle import clock, run

__all__ = ["clock"]  # the fixture: the time the rate limits' counts see

NESTED = "[" * 3000 + "]" * 3000
JSON = {"content-type": "application/json"}


def error_of(response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return response.status_code, body["error"]["code"]


@pytest.mark.parametrize(
    "body",
    [NESTED.encode(), b'{"game": "mindi", "bots": ' + b"9" * 5000 + b"}", b"\xff\xfe{"],
    ids=["nested", "5000 digits", "not UTF-8"],
)
def test_a_body_that_is_not_json_is_bad_json(client: TestClient, body: bytes) -> None:
    response = client.post("/api/tables", content=body, headers=JSON)
    assert error_of(response) == (400, "bad_json")
    assert client.get("/api/health").json() == {"ok": True}


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    big = b'{"name": "' + b"a" * (MAX_BODY + 1) + b'"}'
    assert error_of(client.post("/api/tables", content=big, headers=JSON)) == (413, "too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"name": "'
        for _ in range(100):
            yield b"a" * 1024
        yield b'"}'

    streamed = client.post("/api/tables", content=chunks(), headers=JSON)
    assert error_of(streamed) == (413, "too_large")
    assert "code" in create(client)  # a room can still be made


def test_verify_refuses_what_it_cannot_read(client: TestClient) -> None:
    query: dict[str, str | int] = {"commitment": "ab", "seed": "1", "dealer": 0}
    deep = client.get("/api/verify", params={**query, "rules": "[" * 999 + "]" * 999})
    assert error_of(deep) == (400, "bad_rules")
    for seed in ("²", "١٢", "+1", "1e5"):
        assert error_of(client.get("/api/verify", params={**query, "seed": seed})) == (
            400,
            "bad_request",
        ), seed


def test_the_frameworks_own_refusals_have_the_error_shape(client: TestClient) -> None:
    assert error_of(client.get("/api/no/such/thing")) == (404, "not_found")
    assert error_of(client.delete("/api/tables")) == (405, "method_not_allowed")


@pytest.mark.parametrize("limit", [1e-9, 0.5, 0, -1])
def test_a_turn_time_limit_under_a_second_is_refused(client: TestClient, limit: float) -> None:
    response = client.post("/api/tables", json={"turn_timeout": limit})
    assert error_of(response) == (400, "bad_request")
    assert "turn_timeout" in response.json()["error"]["message"]


def test_a_nested_websocket_frame_gets_an_error_and_the_socket_stays(client: TestClient) -> None:
    made = create(client)
    with seat_socket(client, made["code"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        for frame in (NESTED, '{"type": "ping", "ref": ' + "7" * 5000 + "}"):
            ws.send_text(frame)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["error"]["code"] == "bad_json"
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json() == {"type": "pong", "ref": 1}


def test_one_address_may_make_only_so_many_rooms_an_hour(clock: list[float]) -> None:
    """Issue 18 defect 5: anyone could create rooms without limit."""
    quota = Throttle(rooms_per_hour=3)

    def take(address: str) -> None:
        run(quota.take(("rooms", address)))

    for _ in range(3):
        take("10.0.0.1")
    with pytest.raises(ProtocolError) as refused:
        take("10.0.0.1")
    assert refused.value.code == "too_many_rooms" and http_status(refused.value.code) == 429
    assert refused.value.details["retry_after"] == 3601
    take("10.0.0.2")  # another address is not held back
    clock[0] += 3600.5
    take("10.0.0.1")  # an hour later


def test_the_server_refuses_the_room_past_the_quota(tmp_path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'quota.db'}", bot_delay=0, rooms_per_hour=2)
    with TestClient(app) as client:
        assert "code" in create(client) and "code" in create(client)
        response = client.post("/api/tables", json={})
        assert error_of(response) == (429, "too_many_rooms")
        assert (
            client.post("/api/tables", json={"bots": "nobody"}).status_code == 400
        )  # checked first


def test_hukum_serve_help_states_the_default_quota() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hukum", "serve", "--help"], capture_output=True, text=True
    )
    assert f"(default {ROOMS_PER_HOUR})" in " ".join(done.stdout.split())
