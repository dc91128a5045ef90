"""Seat tokens stay out of the server's logs (issue 18 defect 3): a token owns its seat,
and the access log printed ``WebSocket /ws/<code>?token=<token>`` at the default level."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import httpx2 as httpx
import websockets

from hukum.server.app import RedactTokens
from tests.server.test_restart import free_port, start_server


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


def test_a_running_server_logs_no_token(tmp_path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'logs.db'}", port, log_level="info")
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(base + "/api/tables", json={"start_now": True}).json()
        token = made["token"]

        async def connect() -> None:
            url = f"ws://127.0.0.1:{port}/ws/{made['code']}?token={token}"
            async with websockets.connect(url) as ws:
                await ws.recv()

        # In a thread of its own: the test's own thread may already run an event loop.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, connect()).result()
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[1].decode()
    assert f"/ws/{made['code']}?token=…" in log  # the connection was logged, redacted
    assert token not in log
