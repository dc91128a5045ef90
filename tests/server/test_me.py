"""Issue 41: a first visit is a guest at once; the session cookie; the player's name and
preferences kept server-side. Through the real app and a real database."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from hukum.server.app import create_app
from hukum.server.identity.models import PlayerSession
from hukum.server.identity.sessions import COOKIE, session_hash


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0))


def test_a_first_visit_becomes_a_guest_with_an_httponly_cookie(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        assert client.get("/api/me").json() == {"player": None}
        r = client.post("/api/me/guest")
        assert r.status_code == 200
        me = r.json()["player"]
        assert me["guest"] is True and me["username"] is None
        assert me["name"].startswith("Guest ") and len(me["name"]) == 10
        assert "id" not in me
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(COOKIE + "=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        # The same browser stays the same guest; a second POST makes no new one.
        assert client.get("/api/me").json()["player"] == me
        assert client.post("/api/me/guest").json()["player"] == me
        token = client.cookies[COOKIE]
    engine = create_engine(f"sqlite:///{tmp_path / 'h.db'}")
    with engine.connect() as conn:
        kept = conn.execute(select(PlayerSession.token_hash)).scalars().all()
    engine.dispose()
    assert kept == [session_hash(token)]  # the hash, never the token


def test_name_and_preferences_are_kept_with_the_guest(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        client.post("/api/me/guest")
        r = client.patch("/api/me", json={"name": "  <b>Tara</b>\u202e ", "prefs": {"lang": "pa"}})
        assert r.status_code == 200, r.text
        assert r.json()["player"]["name"] == "<b>Tara</b>"
        r = client.patch("/api/me", json={"prefs": {"cards": "four", "sound": True}})
        assert r.json()["player"]["prefs"] == {"lang": "pa", "cards": "four", "sound": True}
        assert client.get("/api/me").json()["player"]["prefs"]["lang"] == "pa"


def test_bad_changes_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        assert client.patch("/api/me", json={"name": "X"}).json()["error"]["code"] == "no_session"
        before = client.post("/api/me/guest").json()["player"]
        for body in ({"name": "   "}, {"prefs": {"lang": "fr"}}, {"prefs": {"colour": 1}}):
            r = client.patch("/api/me", json=body)
            assert r.status_code == 400, body
        assert client.get("/api/me").json()["player"] == before


def test_a_forged_or_unknown_cookie_is_no_session(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        client.cookies.set(COOKIE, "not-a-session")
        assert client.get("/api/me").json() == {"player": None}
        client.cookies.set(COOKIE, "x" * 5000)
        assert client.get("/api/me").json() == {"player": None}
