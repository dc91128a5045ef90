"""Issue 41, accounts: claim, sign in and out, change the password, sign out everywhere,
the sessions, download my data, delete — through the real app on a real database, with
real Argon2id hashes (cheap parameters, but for the rehash test).

Security: no answer (nor its work) tells whether a user name exists; sessions rotate at
sign-in and are revoked at sign-out; rate limits refuse with 429 and ``Retry-After`` and
change nothing; passwords never reach a log or an error message."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import select, update

from hukum.server.app import create_app
from hukum.server.db import EventRow, Store
from hukum.server.identity.models import Block, Player, PlayerSession, Report
from hukum.server.identity.passwords import Passwords
from hukum.server.identity.sessions import ABSOLUTE, COOKIE, IDLE, session_hash
from tests.server.conftest import create, play
from tests.server.helpers import Player as Bot
from tests.server.helpers import seat_socket

PASSWORD = "correct horse battery"
OTHER = "a different sentence"


class Counting(Argon2Hasher):
    """A real Argon2id hasher (cheap parameters) that counts its verifications."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**{"time_cost": 1, "memory_cost": 1024, "parallelism": 1, **params})
        self.verified = 0

    def verify(self, password: str | bytes, hash: str | bytes) -> bool:
        self.verified += 1
        return super().verify(password, hash)


@pytest.fixture
def hasher() -> Counting:
    return Counting()


def make_app(tmp_path: Path, hasher: Argon2Hasher, **kw: Any) -> Any:
    passwords = Passwords(PasswordHash((hasher,)))
    return create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0, passwords=passwords, **kw)


@pytest.fixture
def client(tmp_path: Path, hasher: Counting) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path, hasher)) as c:
        yield c


def store(client: TestClient) -> Store:
    found: Store = client.app.state.store  # type: ignore[attr-defined]
    return found


def error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def claimed(client: TestClient, username: str = "Tara_07", password: str = PASSWORD) -> Any:
    """A guest, then an account."""
    client.post("/api/me/guest")
    r = client.post("/api/account/claim", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    return r.json()["player"]


def second(client: TestClient) -> TestClient:
    """Another browser on the same app (its own cookies)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def sign_in(c: TestClient, username: str = "Tara_07", password: str = PASSWORD) -> Any:
    return c.post("/api/account/sign-in", json={"username": username, "password": password})


def test_a_guest_claims_an_account_and_keeps_its_name_and_preferences(client: TestClient) -> None:
    client.post("/api/me/guest")
    client.patch("/api/me", json={"name": "Tara Devi", "prefs": {"lang": "hi"}})
    guest_token = client.cookies[COOKIE]
    me = claimed(client)
    assert me["username"] == "Tara_07" and me["guest"] is False
    assert me["name"] == "Tara Devi" and me["prefs"] == {"lang": "hi"}
    assert client.cookies[COOKIE] != guest_token  # the session was renewed
    with store(client).session() as s:
        players = s.scalars(select(Player)).all()
        assert len(players) == 1  # the same row: its games stay
        hashed = players[0].password_hash or ""
        assert hashed.startswith("$argon2id$") and PASSWORD not in hashed
        assert s.get(PlayerSession, session_hash(guest_token)) is None
    assert client.get("/api/me").json()["player"]["username"] == "Tara_07"


def test_a_bad_claim_is_refused_and_changes_nothing(client: TestClient) -> None:
    body = {"username": "Tara_07", "password": PASSWORD}
    assert error(client.post("/api/account/claim", json=body)) == (401, "no_session")
    client.post("/api/me/guest")
    refused = {
        ("ab", PASSWORD): (400, "bad_name"),
        ("Tara 07", PASSWORD): (400, "bad_name"),
        ("Tara_07", "short"): (400, "bad_password"),
        ("Tara_07", "x" * 129): (400, "bad_password"),
        ("Tara_07", "aaaaaaaaaaaa"): (400, "bad_password"),
        ("Tara_07", "QwertyUiop"): (400, "bad_password"),  # a most common one
        ("Tara_07", "tara_07tara_07"): (400, "bad_password"),  # the user name
    }
    for (username, password), expected in refused.items():
        r = client.post("/api/account/claim", json={"username": username, "password": password})
        assert error(r) == expected, (username, password)
        assert password not in r.text or password == "short"
    assert client.get("/api/me").json()["player"]["guest"] is True
    claimed(client)
    assert error(client.post("/api/account/claim", json=body)) == (409, "already_account")


def test_a_user_name_and_its_look_alikes_are_taken(client: TestClient) -> None:
    claimed(client, "Raju_07")
    other = second(client)
    other.post("/api/me/guest")
    for name in ("raju_07", "RAJU-O7", "Raju-07"):
        r = other.post("/api/account/claim", json={"username": name, "password": PASSWORD})
        assert error(r) == (409, "name_taken"), name
    assert other.get("/api/me").json()["player"]["guest"] is True


def test_sign_in_says_the_same_for_an_unknown_name_and_a_wrong_password(
    client: TestClient, hasher: Counting
) -> None:
    claimed(client)
    other = second(client)
    hasher.verified = 0
    wrong = sign_in(other, "Tara_07", OTHER)
    assert hasher.verified == 1
    unknown = sign_in(other, "Nobody_here", OTHER)
    assert hasher.verified == 2  # the dummy hash: the same work as a wrong password
    assert error(wrong) == error(unknown) == (401, "bad_credentials")
    assert wrong.json() == unknown.json()
    assert COOKIE not in other.cookies
    assert OTHER not in wrong.text


def test_sign_in_starts_a_new_session_and_ends_the_old_one(client: TestClient) -> None:
    claimed(client)
    other = second(client)
    other.post("/api/me/guest")
    before = other.cookies[COOKIE]
    r = sign_in(other, "tara_07")  # user names are not case-sensitive
    assert r.status_code == 200, r.text
    assert r.json()["player"]["username"] == "Tara_07"
    after = other.cookies[COOKIE]
    assert after != before  # rotated: a token planted before sign-in opens nothing
    with store(client).session() as s:
        assert s.get(PlayerSession, session_hash(before)) is None
        assert s.get(PlayerSession, session_hash(after)) is not None
    assert other.get("/api/me").json()["player"]["username"] == "Tara_07"


def test_sign_out_revokes_the_session(client: TestClient) -> None:
    claimed(client)
    token = client.cookies[COOKIE]
    r = client.post("/api/account/sign-out")
    assert r.json() == {"player": None}
    assert COOKIE not in client.cookies
    client.cookies.set(COOKIE, token)  # sent again: it opens nothing
    assert client.get("/api/me").json() == {"player": None}
    assert sign_in(client).status_code == 200


def test_change_password_ends_the_other_sessions(client: TestClient) -> None:
    claimed(client)
    other = second(client)
    assert sign_in(other).status_code == 200
    r = client.post("/api/account/password", json={"current": OTHER, "new": OTHER + "!"})
    assert error(r) == (401, "bad_credentials")
    r = client.post("/api/account/password", json={"current": PASSWORD, "new": "short"})
    assert error(r) == (400, "bad_password")
    assert other.get("/api/me").json()["player"] is not None  # nothing changed
    r = client.post("/api/account/password", json={"current": PASSWORD, "new": OTHER})
    assert r.status_code == 200 and r.json() == {"ended": 1}
    assert other.get("/api/me").json() == {"player": None}
    assert client.get("/api/me").json()["player"]["username"] == "Tara_07"
    assert error(sign_in(other)) == (401, "bad_credentials")
    assert sign_in(other, password=OTHER).status_code == 200


def test_a_guest_has_no_password_to_change(client: TestClient) -> None:
    client.post("/api/me/guest")
    r = client.post("/api/account/password", json={"current": PASSWORD, "new": OTHER})
    assert error(r) == (409, "not_account")


def test_sign_out_everywhere_ends_every_session(client: TestClient) -> None:
    claimed(client)
    others = [second(client) for _ in range(2)]
    for other in others:
        assert sign_in(other).status_code == 200
    r = client.post("/api/account/sign-out-everywhere")
    assert r.json()["ended"] == 3
    for c in (client, *others):
        assert c.get("/api/me").json() == {"player": None}
    with store(client).session() as s:
        assert s.scalars(select(PlayerSession)).all() == []


def test_the_sessions_list_says_which_is_this_one_and_no_token(client: TestClient) -> None:
    agent = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"
    client.headers["user-agent"] = agent
    claimed(client)
    other = second(client)
    other.headers["user-agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0"
    sign_in(other)
    r = client.get("/api/account/sessions")
    listed = r.json()["sessions"]
    assert len(listed) == 2
    mine = [s for s in listed if s["current"]]
    assert len(mine) == 1 and mine[0]["browser"] == "Chrome on Android"
    assert {s["browser"] for s in listed} == {"Chrome on Android", "Firefox on Linux"}
    for token in (client.cookies[COOKIE], other.cookies[COOKIE]):
        assert token not in r.text and session_hash(token) not in r.text
    assert error(second(client).get("/api/account/sessions")) == (401, "no_session")


def test_sessions_expire_when_idle_and_at_their_absolute_end(client: TestClient) -> None:
    claimed(client)
    token = client.cookies[COOKIE]
    key = session_hash(token)
    long_ago = dt.datetime.now(dt.UTC) - IDLE - dt.timedelta(minutes=1)
    with store(client).session() as s:
        s.execute(update(PlayerSession).values(seen_at=long_ago))
        s.commit()
    assert client.get("/api/me").json() == {"player": None}  # idle too long
    with store(client).session() as s:
        assert s.get(PlayerSession, key) is None  # and deleted
    assert sign_in(client).status_code == 200
    key = session_hash(client.cookies[COOKIE])
    now = dt.datetime.now(dt.UTC)
    with store(client).session() as s:
        s.execute(
            update(PlayerSession).values(
                created_at=now - ABSOLUTE - dt.timedelta(minutes=1), seen_at=now
            )
        )
        s.commit()
    assert client.get("/api/me").json() == {"player": None}  # used daily, but a year old
    with store(client).session() as s:
        assert s.get(PlayerSession, key) is None


def test_sign_in_attempts_are_limited_per_account_and_change_nothing(
    tmp_path: Path, hasher: Counting
) -> None:
    app = make_app(tmp_path, hasher, rates={"sign_in_account": "3/hour"})
    with TestClient(app) as client:
        claimed(client)
        other = second(client)
        for _ in range(3):
            assert error(sign_in(other, password=OTHER)) == (401, "bad_credentials")
        hasher.verified = 0
        r = sign_in(other)  # the right password, but too late
        assert error(r) == (429, "too_many_requests")
        assert 3500 <= int(r.headers["retry-after"]) <= 3601
        assert r.json()["error"]["retry_after"] == int(r.headers["retry-after"])
        assert hasher.verified == 0 and COOKIE not in other.cookies  # nothing was done
        assert error(sign_in(other, "RAJU")) == (401, "bad_credentials")  # another account


def test_sign_in_attempts_are_limited_per_address(tmp_path: Path, hasher: Counting) -> None:
    app = make_app(tmp_path, hasher, rates={"sign_in_address": "2/minute"})
    with TestClient(app) as client:
        for name in ("one_name", "two_name"):
            assert error(sign_in(client, name)) == (401, "bad_credentials")
        r = sign_in(client, "three_name")
        assert error(r) == (429, "too_many_requests") and "retry-after" in r.headers


def test_claims_and_guests_are_limited_per_address(tmp_path: Path, hasher: Counting) -> None:
    app = make_app(tmp_path, hasher, rates={"claim": "1/hour", "guest": "2/hour"})
    with TestClient(app) as client:
        claimed(client, "First_one")
        other = second(client)
        assert other.post("/api/me/guest").status_code == 200
        r = other.post("/api/account/claim", json={"username": "Second", "password": PASSWORD})
        assert error(r) == (429, "too_many_requests") and "retry-after" in r.headers
        assert other.get("/api/me").json()["player"]["guest"] is True
        third = second(client)
        r = third.post("/api/me/guest")
        assert error(r) == (429, "too_many_requests") and "retry-after" in r.headers
        assert COOKIE not in third.cookies
        with store(client).session() as s:
            assert len(s.scalars(select(Player)).all()) == 2


def test_an_old_hash_is_replaced_at_sign_in(tmp_path: Path) -> None:
    """verify_and_update: a hash made with other parameters is made again."""
    cheap = Counting()
    with TestClient(make_app(tmp_path, cheap)) as client:
        claimed(client)
    with TestClient(make_app(tmp_path, Counting(time_cost=2))) as client:
        with store(client).session() as s:
            old = s.scalar(select(Player.password_hash)) or ""
        assert "t=1" in old
        assert sign_in(client).status_code == 200
        with store(client).session() as s:
            new = s.scalar(select(Player.password_hash)) or ""
        assert new != old and "t=2" in new


def seated_room(client: TestClient, name: str) -> tuple[str, str]:
    """A real room of one deal: Asha, with no session, makes it at seat 0, and the player
    takes seat 1 with their session (so its seat event names them); played to its end.
    Its code and the player's seat token."""
    asha = second(client)
    made = create(asha, options={"deals": 1, "target": None}, name="Asha")
    code = made["code"]
    r = client.post(f"/api/tables/{code}/seats/1", json={"name": name})
    assert r.status_code == 200, r.text
    seat_token = r.json()["token"]
    for path in ("bots", "start"):
        r = asha.post(f"/api/tables/{code}/{path}", json={"token": made["token"]})
        assert r.status_code == 200, r.text

    def person(token: str) -> None:
        with seat_socket(client, code, token) as ws:
            play(ws, Bot())

    with ThreadPoolExecutor(2) as pool:  # two people at the table, each on its socket
        for done in [pool.submit(person, t) for t in (made["token"], seat_token)]:
            done.result(timeout=120)
    return code, seat_token


def test_download_my_data(client: TestClient) -> None:
    me = claimed(client)
    client.patch("/api/me", json={"prefs": {"cards": "four"}})
    code, _ = seated_room(client, me["name"])
    r = client.get("/api/account/data")
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment;")
    data = r.json()
    assert data["player"]["username"] == "Tara_07" and data["player"]["prefs"] == {"cards": "four"}
    assert data["player"]["role"] == "player" and data["sanctions"] == []
    assert len(data["sessions"]) == 1 and data["sessions"][0]["current"] is True
    [game] = data["games"]
    assert game["code"] == code and game["game"] == "mindi" and game["seats"] == [1]
    assert game["names"][:2] == ["Asha", me["name"]] and game["finished"] is True
    assert len(game["record"]["deals"]) == 1
    text = r.text
    assert client.cookies[COOKIE] not in text and session_hash(client.cookies[COOKIE]) not in text
    with store(client).session() as s:
        player = s.scalars(select(Player)).one()
        assert player.id not in text and (player.password_hash or "") not in text


def test_delete_anonymises_the_seats_and_removes_the_player(client: TestClient) -> None:
    me = claimed(client)
    code, _ = seated_room(client, me["name"])
    other = second(client)
    other.post("/api/me/guest")
    with store(client).session() as s:
        ids = dict(s.execute(select(Player.username, Player.id)).all())
        mine, theirs = ids["Tara_07"], ids[None]
        s.add(Block(player=mine, blocked=theirs))
        s.add(Report(reporter=mine, reported=theirs, room=code, reason="abuse"))
        s.commit()
    r = client.request("DELETE", "/api/account", json={"password": OTHER})
    assert error(r) == (401, "bad_credentials")
    assert error(client.request("DELETE", "/api/account", json={})) == (401, "bad_credentials")
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    anonymous = r.json()["name"]
    assert anonymous.startswith("Former player ") and r.json()["seats"] == 1
    assert client.get("/api/me").json() == {"player": None}
    with store(client).session() as s:
        assert s.get(Player, mine) is None
        assert s.scalars(select(PlayerSession).where(PlayerSession.player == mine)).all() == []
        assert s.scalars(select(Block)).all() == []
        report = s.scalars(select(Report)).one()
        assert report.reporter is None and report.reported == theirs
        seats = [e.data for e in s.scalars(select(EventRow).where(EventRow.kind == "seat"))]
    assert all("player" not in d for d in seats)
    assert [d["name"] for d in seats if d["seat"] == 1] == [anonymous]
    # The record and the table in memory name the seat anonymously too.
    record = client.get(f"/api/tables/{code}/record").json()
    assert me["name"] not in str(record)
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] == anonymous
    assert error(sign_in(client)) == (401, "bad_credentials")  # the name is free again
    assert other.get("/api/me").json()["player"] is not None


def test_a_guest_may_delete_itself(client: TestClient) -> None:
    client.post("/api/me/guest")
    r = client.request("DELETE", "/api/account")
    assert r.status_code == 200 and r.json()["deleted"] is True
    with store(client).session() as s:
        assert s.scalars(select(Player)).all() == []


def test_passwords_never_reach_a_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    claimed(client)
    sign_in(client, password=OTHER)
    sign_in(client, "nobody_at_all", OTHER)
    client.post("/api/account/password", json={"current": OTHER, "new": "tiny"})
    client.post("/api/account/claim", json={"username": "x", "password": OTHER})
    client.post("/api/account/sign-in", json={"username": "Tara_07", "password": OTHER, "x": 1})
    assert caplog.records  # the server did log
    for secret in (PASSWORD, OTHER, "tiny"):
        assert secret not in caplog.text
