"""A real ``hukum serve`` process, killed in the middle of a deal and started again on the
same database: every table continues exactly where it was."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx2 as httpx
import websockets

from tests.server.helpers import Player, hello

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a fresh event loop in its own thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    database_url: str,
    port: int,
    log_level: str = "warning",
    *extra: str,
    log: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``hukum serve`` on ``port`` (with ``extra`` arguments), once it answers; its log on
    ``stderr``, or appended to the file ``log``."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hukum",
            "serve",
            "--port",
            str(port),
            "--bot-delay",
            "0",
            "--database-url",
            database_url,
            "--log-level",
            log_level,
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if log is None else log.open("ab"),
    )
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            return process
        except httpx.HTTPError as e:
            if process.poll() is not None:
                stderr = process.stderr.read().decode() if process.stderr else "died"
                if log is not None:
                    stderr = log.read_text()
                raise RuntimeError(stderr) from e
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


async def drive(url: str, token: str, player: Player, moves: int) -> dict[str, Any]:
    """Play until ``moves`` own moves are made and it is this seat's turn again."""
    player.limit = player.moves + moves
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps(hello(token)))
        while True:
            message = json.loads(await ws.recv())
            for out in player.feed(message):
                await ws.send(json.dumps(out))
            latest = player.latest
            if (
                player.moves >= player.limit
                and not player.pending
                and latest is not None
                and latest["view"] is not None
                and latest["view"]["turn"] == 0
                and latest["view"]["outcome"] is None
            ):
                return latest


async def first_state(url: str, token: str) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps(hello(token)))
        message: dict[str, Any] = json.loads(await ws.recv())
        return message


def test_restart_in_the_middle_of_a_deal(tmp_path: Path) -> None:
    db = tmp_path / "hukum.db"
    restart_in_the_middle_of_a_deal(f"sqlite:///{db}")
    assert os.path.exists(db)


def restart_in_the_middle_of_a_deal(database_url: str) -> None:
    """Play five moves, kill the server, start it again: the same state, and play goes on."""
    port = free_port()
    server = start_server(database_url, port)
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"start_now": True, "preset": "hidden", "options": {"deals": 2, "target": None}},
        ).json()
        url, token = f"ws://127.0.0.1:{port}/ws/{made['code']}", made["token"]
        before = run(drive(url, token, Player(), moves=5))
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    assert not before["view"]["outcome"] and before["view"]["tricks_played"] >= 4
    server = start_server(database_url, port)
    try:
        after = run(first_state(url, token))
        assert after["type"] == "state" and after["event"] == before["event"]
        assert after["view"] == before["view"]
        strip = ("seats",)
        assert {k: v for k, v in after["table"].items() if k not in strip} == {
            k: v for k, v in before["table"].items() if k not in strip
        }
        player = Player()
        run(drive(url, token, player, moves=3))
        assert not player.errors
        table = httpx.get(f"http://127.0.0.1:{port}/api/tables/{made['code']}").json()
        assert table["event"] > before["event"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
