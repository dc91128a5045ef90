"""How many tables a process holds: a table nobody is at leaves memory after a while and
comes back from its log when asked for; beyond ``max_tables`` tables in play a new room is
refused with a clear error."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2 as httpx
from fastapi.testclient import TestClient

from hukum.server.app import create_app
from hukum.server.tables import Registry, Table
from tests.server.conftest import create, play
from tests.server.helpers import Player, hello
from tests.server.test_restart import free_port, start_server


def registry_of(client: TestClient) -> Registry:
    registry: Registry = client.app.state.registry  # type: ignore[attr-defined]
    return registry


def wait_paused(table: Table) -> None:
    """Until the table waits for nobody: no bot move, timer or next deal planned."""
    for _ in range(200):
        if table.planned is None:
            return
        time.sleep(0.01)
    raise AssertionError(table.planned)


def test_a_paused_match_leaves_memory_and_resumes_from_its_log(client: TestClient) -> None:
    """A match whose player went away pauses; once quiet for ``idle_seconds`` it leaves
    memory (not before, and not while anyone is connected); the player comes back to the
    same position, and plays on."""
    made = create(client, start_now=True, options={"deals": 1, "target": None}, turn_timeout=None)
    code, token = made["code"], made["token"]
    registry = registry_of(client)
    player = Player()
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(token))
        play(ws, player, moves=3)
        table = registry.tables[code]
        assert isinstance(table, Table)
        assert registry.sweep(0.0) == 0
        assert registry.sweep(registry.idle_seconds + 1) == 0  # someone is there
    assert player.latest is not None
    before = player.latest["event"]
    wait_paused(table)
    now = 1_000_000.0
    assert registry.sweep(now) == 0  # quiet from now on
    assert code in registry.tables
    assert registry.sweep(now + registry.idle_seconds - 1) == 0
    assert registry.sweep(now + registry.idle_seconds) == 1
    assert code not in registry.tables
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json(hello(token, before))
        play(ws, player, moves=6)
    assert not player.errors, player.errors
    assert player.moves == 6
    assert registry.tables[code] is not table  # read again from the log


def test_a_room_nobody_came_to_leaves_memory(client: TestClient) -> None:
    made = create(client, name="Asha")
    registry = registry_of(client)
    assert registry.sweep(0.0) == 0
    assert registry.sweep(registry.idle_seconds) == 1
    table = client.get(f"/api/tables/{made['code']}").json()
    assert table["seats"][0]["name"] == "Asha" and table["status"] == "waiting"


def test_beyond_max_tables_a_new_room_is_refused(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, max_tables=2)
    with TestClient(app) as client:
        create(client)
        create(client)
        refused = client.post("/api/tables", json={})
        assert refused.status_code == 503
        error = refused.json()["error"]
        assert error["code"] == "server_full" and error["retry_after"] == 60, error
        assert "2 tables in play" in error["message"]


def test_behind_a_load_balancer_the_quota_counts_the_forwarded_address(tmp_path: Path) -> None:
    """``hukum serve`` believes ``X-Forwarded-For`` from the addresses of
    ``--forwarded-allow-ips`` (127.0.0.1 by default, where a local load balancer is): each
    client behind it has its own quota of rooms."""
    port = free_port()
    server = start_server(
        f"sqlite:///{tmp_path / 'hukum.db'}", port, "warning", "--rooms-per-hour", "1"
    )
    try:
        url = f"http://127.0.0.1:{port}/api/tables"

        def made(address: str) -> int:
            return httpx.post(url, json={}, headers={"X-Forwarded-For": address}).status_code

        assert made("203.0.113.7") == 200
        assert made("203.0.113.7") == 429  # that client's one room an hour
        assert made("198.51.100.4") == 200  # another client behind the same balancer
    finally:
        server.terminate()
        server.wait(timeout=30)
