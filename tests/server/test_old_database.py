"""A database written before the game API (tests/data/server-2026-12-03.sql: a Mindi room in
its second deal and a Ganjifa room in the middle of a Dukal, saved by the server of
2026-12-03) still loads: each room resumes where it was, its seat is told exactly the view
it was told then (tests/data/server-2026-12-03.json), missed events are replayed from the
old log, and play goes on."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.server.app import create_app
from tests.server.conftest import play
from tests.server.helpers import Player, seat_socket

DATA = Path(__file__).resolve().parent.parent / "data"
SAVED: dict[str, dict[str, Any]] = json.loads(
    (DATA / "server-2026-12-03.json").read_text(encoding="utf-8")
)


@pytest.fixture
def old(tmp_path: Path) -> Iterator[TestClient]:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript((DATA / "server-2026-12-03.sql").read_text(encoding="utf-8"))
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0)) as client:
        yield client


def choose(view: dict[str, Any]) -> str:
    """The first legal move, or in Ganjifa the first ``need`` cards allowed."""
    if view["legal"]:
        return str(view["legal"][0])
    return "give " + " ".join(view["allowed"][: view["need"]])


@pytest.mark.parametrize("game", sorted(SAVED))
def test_an_old_room_resumes_with_the_same_view(old: TestClient, game: str) -> None:
    saved = SAVED[game]
    code, token = saved["code"], saved["token"]
    with seat_socket(old, code, token) as ws:
        state = ws.receive_json()
    assert state["type"] == "state" and state["table"]["game"] == game
    # In the Ganjifa room a bot was answering a Dukal: it may have finished the trick.
    assert state["event"] >= saved["event"]
    if saved["view"]["turn"] == saved["view"]["seat"]:
        assert state["event"] == saved["event"]
    if state["event"] == saved["event"]:
        assert state["view"] == saved["view"]
    # The last events, replayed from the old log exactly as they were told then.
    with seat_socket(old, code, token, saved["event"] - 3) as ws:
        told = [ws.receive_json()]
        while told[-1]["event"] < saved["event"]:
            told.append(ws.receive_json())
        assert [m["event"] for m in told] == list(range(saved["event"] - 2, saved["event"] + 1))
        assert told[-1]["view"] == saved["view"]
        moves = [m["move"] for m in told if m["kind"] == "move"]
        assert moves and all(m in saved["moves"] for m in moves)
        # And the match goes on.
        player = Player(choose)
        for out in player.feed(told[-1]):
            ws.send_json(out)
        play(ws, player, moves=2)
    assert player.moves == 2 and not player.errors


def test_a_damaged_room_keeps_no_other_from_play(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A room whose stored settings cannot be read (here: no rules) is logged and left as it
    is; the server starts and the other rooms resume (it failed to start), and a request for
    it is refused, damaged_table."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript((DATA / "server-2026-12-03.sql").read_text(encoding="utf-8"))
        conn.execute(
            "INSERT INTO rooms (code, config, finished, created_at) "
            "VALUES ('zzzzzzzz', '{}', 0, '2026-12-03 10:00:00')"
        )
    app = create_app(f"sqlite:///{path}", bot_delay=0)
    with caplog.at_level("ERROR", logger="hukum.server"), TestClient(app) as client:
        for saved in SAVED.values():
            table = client.get(f"/api/tables/{saved['code']}").json()
            assert table["status"] == "playing"
        damaged = client.get("/api/tables/zzzzzzzz")
        assert damaged.status_code == 500
        assert damaged.json()["error"]["code"] == "damaged_table"
        with client.websocket_connect("/ws/zzzzzzzz") as ws:
            assert ws.receive_json()["error"]["code"] == "damaged_table"
    assert "table zzzzzzzz cannot be read back" in caplog.text
