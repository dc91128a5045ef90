"""Issue 41, preferences: every preference of ``PATCH /api/me`` validated and kept with the
player (a second device with the same session sees them), and the computer players' speed
of a room (``bot_speed`` of ``POST /api/tables``) kept in its settings, surviving a restart,
and setting the scheduler's wait before a bot's move (the delay computed, never timed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.games import game_named
from hukum.server.app import create_app
from hukum.server.identity.sessions import COOKIE
from hukum.server.tables import Table, TableConfig
from hukum.server.tables.config import BOT_SPEEDS

#: Every preference and every value it takes (docs/protocol.md, "Preferences").
CHOICES: dict[str, list[Any]] = {
    "lang": ["en", "hi", "pa"],
    "cards": ["two", "four"],
    "contrast": ["normal", "high"],
    "temperature": ["neutral", "warm", "cool"],
    "motion": ["system", "reduce", "full"],
    "sound": [True, False],
    "bot_speed": ["slow", "normal", "fast"],
}


def _app(tmp_path: Path, bot_delay: float = 0.5) -> Any:
    return create_app(f"sqlite:///{tmp_path / 'prefs.db'}", bot_delay=bot_delay)


def _table(client: TestClient, code: str) -> Table:
    app: Any = client.app
    table: Table = app.state.registry.tables[code]
    return table


def test_every_preference_is_validated_and_kept(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        client.post("/api/me/guest")
        for name, values in CHOICES.items():
            for value in values:
                r = client.patch("/api/me", json={"prefs": {name: value}})
                assert r.status_code == 200, (name, value, r.text)
                assert r.json()["player"]["prefs"][name] == value
        chosen: dict[str, Any] = {"lang": "pa", "cards": "four", "contrast": "high"}
        chosen |= {"temperature": "warm"}
        chosen |= {"motion": "reduce", "sound": True, "bot_speed": "fast"}
        assert client.patch("/api/me", json={"prefs": chosen}).status_code == 200
        # A change names only what it changes: the rest is kept.
        r = client.patch("/api/me", json={"prefs": {"temperature": "cool"}})
        assert r.json()["player"]["prefs"] == chosen | {"temperature": "cool"}
        kept = client.get("/api/me").json()["player"]
        assert kept["prefs"] == chosen | {"temperature": "cool"}
        # Bad values, unknown names and wrong types: refused with a clear error, nothing changed.
        bad = [
            {"cards": "six"},
            {"contrast": "max"},
            {"temperature": "hot"},
            {"motion": "none"},
            {"sound": "loud"},
            {"bot_speed": "instant"},
            {"lang": "de"},
            {"font": "big"},
            {"cards": None, "theme": "dark"},
        ]
        for body in bad:
            r = client.patch("/api/me", json={"prefs": body})
            assert r.status_code == 400, body
            assert r.json()["error"]["code"] == "bad_request", r.text
        assert client.get("/api/me").json()["player"] == kept
        # A second device of the same player (the same session) sees the same preferences.
        token = client.cookies[COOKIE]
    with TestClient(_app(tmp_path)) as other:
        other.cookies.set(COOKIE, token)
        assert other.get("/api/me").json()["player"]["prefs"] == kept["prefs"]


def test_preferences_need_a_session(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        r = client.patch("/api/me", json={"prefs": {"cards": "four"}})
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"


@pytest.mark.parametrize("speed", sorted(BOT_SPEEDS))
def test_a_rooms_bot_speed_sets_the_wait_before_a_bots_move(tmp_path: Path, speed: str) -> None:
    with TestClient(_app(tmp_path, bot_delay=0.5)) as client:
        made = client.post("/api/tables", json={"bot_speed": speed, "start_now": True}).json()
        table = _table(client, made["code"])
        assert table.config.bot_speed == speed
        assert table.scheduler.bot_wait == pytest.approx(0.5 * BOT_SPEEDS[speed])
    assert BOT_SPEEDS == {"slow": 2.0, "normal": 1.0, "fast": 0.4}
    # Kept with the room's settings: after a restart the table reads it back.
    with TestClient(_app(tmp_path, bot_delay=0.5)) as client:
        assert client.get(f"/api/tables/{made['code']}").status_code == 200
        table = _table(client, made["code"])
        assert table.config.bot_speed == speed
        assert table.scheduler.bot_wait == pytest.approx(0.5 * BOT_SPEEDS[speed])


def test_a_room_without_a_speed_plays_at_normal_and_no_delay_stays_none(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, bot_delay=0.5)) as client:
        made = client.post("/api/tables", json={}).json()
        assert _table(client, made["code"]).config.bot_speed == "normal"
        assert _table(client, made["code"]).scheduler.bot_wait == pytest.approx(0.5)
    with TestClient(_app(tmp_path, bot_delay=0)) as client:
        made = client.post("/api/tables", json={"bot_speed": "slow"}).json()
        assert _table(client, made["code"]).scheduler.bot_wait == 0  # tests' bots stay instant


def test_a_bad_speed_is_refused_and_makes_no_room(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        for speed in ("instant", "", 2, None):
            r = client.post("/api/tables", json={"bot_speed": speed})
            assert r.status_code == 400, speed
            assert r.json()["error"]["code"] == "bad_request"
        app: Any = client.app
        assert app.state.registry.tables == {}


def test_old_rooms_play_at_normal_speed() -> None:
    config = TableConfig(game_named("mindi").make_rules(), bot_speed="fast")
    stored = config.to_dict()
    assert stored["bot_speed"] == "fast"
    assert TableConfig.from_dict(stored).bot_speed == "fast"
    del stored["bot_speed"]  # a room stored before bot speeds
    assert TableConfig.from_dict(stored).bot_speed == "normal"
    assert TableConfig.from_dict(stored).bot_wait(0.6) == pytest.approx(0.6)
    assert TableConfig.from_dict({**stored, "bot_speed": "warp"}).bot_speed == "normal"
