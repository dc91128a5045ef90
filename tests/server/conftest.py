from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from hukum.server.app import create_app
from tests.server.helpers import Player
from tests.server.web import browser, context, server

__all__ = ["browser", "context", "server"]  # the browser tests' fixtures (tests/server/web.py)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0)
    with TestClient(app) as c:
        yield c


POSTGRES_ENV = "HUKUM_TEST_POSTGRES_URL"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The PostgreSQL server of ``HUKUM_TEST_POSTGRES_URL``, in a fresh schema of its own
    (dropped afterwards), so that tests running in parallel never see each other's rooms."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(
            f"{POSTGRES_ENV} is not set (e.g. postgresql+psycopg://user:password@host/db; "
            "`.ci/postgres.sh` installs and starts a server and prints one)"
        )
    schema = "test_" + secrets.token_hex(6)
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def postgres_client(postgres_url: str) -> Iterator[TestClient]:
    app = create_app(postgres_url, bot_delay=0)
    with TestClient(app) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play(ws: Any, player: Player, *, deals: int | None = None, moves: int | None = None) -> None:
    """Drive a TestClient WebSocket with a Player until enough deals/moves or the match ends."""
    # Never more moves than asked: an ack can come after the next turn's event, and deciding
    # on the ack would make one move too many.
    player.limit = moves
    # A move an earlier limit held back may be due now, and nothing more comes from the
    # server until it is made (the table waits for it).
    for out in player.decide():
        ws.send_json(out)
    while not player.match_over:
        if deals is not None and player.deals_over >= deals and not player.pending:
            return
        if moves is not None and player.moves >= moves and not player.pending:
            return
        for out in player.feed(ws.receive_json()):
            ws.send_json(out)
