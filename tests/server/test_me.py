"""Issue 41: a first visit is a guest at once; the session cookie; the player's name and
preferences kept server-side; ended sessions and unreachable guests forgotten. Through the
real app and a real database."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

from hukum.server.app import create_app
from hukum.server.db import Store, make_engine, migrate, now
from hukum.server.identity.models import Player, PlayerSession
from hukum.server.identity.sessions import ABSOLUTE, COOKIE, IDLE, Identities, session_hash


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


def _forget_on(url: str) -> None:
    """Ended sessions and unreachable guests are deleted; live ones, and accounts, stay."""
    migrate(url)
    engine = make_engine(url)
    identities = Identities(Store(engine))
    long_ago = now() - IDLE - dt.timedelta(days=1)
    try:
        live, _ = identities.new_guest()
        idle, _ = identities.new_guest()  # its session unused for over IDLE
        old, _ = identities.new_guest()  # its session begun over ABSOLUTE ago, used today
        account, _ = identities.new_guest()  # an account, its session unused for over IDLE
        sessions = update(PlayerSession)
        with identities.store.session() as s:
            s.execute(update(Player).values(seen_at=long_ago))
            s.execute(sessions.where(PlayerSession.player == idle.id).values(seen_at=long_ago))
            s.execute(sessions.where(PlayerSession.player == account.id).values(seen_at=long_ago))
            begun = now() - ABSOLUTE - dt.timedelta(days=1)
            s.execute(sessions.where(PlayerSession.player == old.id).values(created_at=begun))
            named = {"username": "Asha", "username_key": "asha"}
            s.execute(update(Player).where(Player.id == account.id).values(**named))
            s.commit()
        assert identities.forget_expired() == (3, 2)  # idle's, old's, account's; idle, old
        with identities.store.session() as s:
            players = set(s.scalars(select(Player.id)).all())
            kept = set(s.scalars(select(PlayerSession.player)).all())
        assert players == {live.id, account.id} and kept == {live.id}
        assert identities.forget_expired() == (0, 0)
    finally:
        engine.dispose()


def test_ended_sessions_and_unreachable_guests_are_forgotten(tmp_path: Path) -> None:
    _forget_on(f"sqlite:///{tmp_path / 'f.db'}")


def test_ended_sessions_and_unreachable_guests_are_forgotten_on_postgres(
    postgres_url: str,
) -> None:
    _forget_on(postgres_url)
