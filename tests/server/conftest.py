from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.server.app import create_app
from tests.server.helpers import Player


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0)
    with TestClient(app) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play(ws: Any, player: Player, *, deals: int | None = None, moves: int | None = None) -> None:
    """Drive a TestClient WebSocket with a Player until enough deals/moves or the match ends."""
    while not player.match_over:
        if deals is not None and player.deals_over >= deals and not player.pending:
            return
        if moves is not None and player.moves >= moves and not player.pending:
            return
        for out in player.feed(ws.receive_json()):
            ws.send_json(out)
