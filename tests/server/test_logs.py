"""Seat tokens stay out of the server's logs (issue 18 defect 3): a token owns its seat,
and the access log printed ``WebSocket /ws/<code>?token=<token>`` at the default level.
The token now travels in the socket's first message (the hello), never in its URL; an old
client's URL with a token is refused, and its log line is redacted."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
import websockets

from hukum.server.app import RedactTokens
from tests.server.helpers import Player, hello
from tests.server.test_restart import free_port, run, start_server


def test_the_filter_redacts_a_token_in_a_request_line() -> None:
    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws/abc?token=s3cr3t-Tok_en&last=4"),
        None,
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "WebSocket /ws/abc?token=…&last=4" [accepted]'


@pytest.mark.parametrize(
    "frame",
    [
        '{"type":"hello","token":"s3cr3t","last":4}',  # the page's JSON.stringify
        '{"type": "hello", "token": "s3cr3t"}',
        '{"token" : "s3cr3t", "type": "hello"}',
    ],
)
def test_the_filter_redacts_a_token_in_a_logged_frame(frame: str) -> None:
    # ``--log-level debug``: the websockets library logs every frame, the hello among them.
    record = logging.LogRecord(
        "uvicorn.error", logging.DEBUG, __file__, 1, "< %s", (f"TEXT {frame!r} [40 bytes]",), None
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == f"< TEXT {frame.replace('s3cr3t', '…')!r} [40 bytes]"


def test_an_old_client_s_token_in_the_url_is_refused_and_logged_redacted(tmp_path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'logs.db'}", port, log_level="info")
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(base + "/api/tables", json={"start_now": True}).json()
        token = made["token"]

        async def connect() -> dict[str, Any]:
            url = f"ws://127.0.0.1:{port}/ws/{made['code']}?token={token}"
            async with websockets.connect(url) as ws:
                answer: dict[str, Any] = json.loads(await ws.recv())
                return answer

        # In a thread of its own: the test's own thread may already run an event loop.
        with ThreadPoolExecutor(1) as pool:
            answer = pool.submit(asyncio.run, connect()).result()
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[1].decode()
    assert answer["error"]["code"] == "token_in_url"
    assert f"/ws/{made['code']}?token=…" in log  # the connection was logged, redacted
    assert token not in log


async def _seat(url: str, token: str, player: Player, last: int | None = None) -> None:
    """One person's page: open the socket, say hello, play until the match is over."""
    async with websockets.connect(url) as ws:
        # Compact JSON, as the page's static/table/connection.js sends it.
        await ws.send(json.dumps(hello(token, last), separators=(",", ":")))
        while not player.match_over:
            for out in player.feed(json.loads(await asyncio.wait_for(ws.recv(), timeout=60))):
                await ws.send(json.dumps(out, separators=(",", ":")))


async def _table(url: str, tokens: list[str], players: list[Player]) -> None:
    await asyncio.gather(*(_seat(url, t, p) for t, p in zip(tokens, players, strict=True)))


@pytest.mark.parametrize("level", ["info", "debug"])
def test_a_whole_game_through_the_page_s_protocol_logs_no_token(tmp_path, level: str) -> None:
    # Two people and two bots play a match to its end the way the page does (the lobby's
    # HTTP calls, then a socket each, the token in its hello), one comes back with
    # ``last``; at ``debug`` every frame is logged, the hellos among them.
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'logs.db'}", port, log_level=level)
    try:
        base = f"http://127.0.0.1:{port}"
        body = {"options": {"deals": 1, "target": None}, "bots": "rules", "name": "Asha"}
        made = httpx.post(base + "/api/tables", json=body).json()
        code = made["code"]
        guest = httpx.post(f"{base}/api/tables/{code}/seats/2", json={"name": "Ravi"}).json()
        tokens = [made["token"], guest["token"]]
        for path in ("bots", "start"):
            r = httpx.post(f"{base}/api/tables/{code}/{path}", json={"token": tokens[0]})
            assert r.status_code == 200, r.text
        players = [Player(), Player()]
        url = f"ws://127.0.0.1:{port}/ws/{code}"
        run(_table(url, tokens, players))
        assert all(p.match_over and not p.errors for p in players)
        latest = players[1].latest
        assert latest is not None
        back = Player()
        run(_seat(url, tokens[1], back, last=latest["event"] - 1))
        assert back.log[0]["type"] == "event" and back.log[0]["event"] == latest["event"]
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[1].decode()
    assert f'"WebSocket /ws/{code}" [accepted]' in log  # the sockets were logged
    if level == "debug":
        assert '"token":"…"' in log  # the hellos were logged, redacted
    for token in tokens:
        assert token not in log
