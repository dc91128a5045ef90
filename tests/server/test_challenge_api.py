"""The daily challenge through the real app and a real database (issue 42): accounts start
their table of a deal, play it to the end over the game socket against the real expert,
and the result is stored and matchpointed; guests are refused, a deal is played once, the
field is hidden until one has played, boards are locked until the close; a past day (made
in the database directly) shows its seeds, which ``hukum.server.fairness.verify`` accepts;
equal moves get equal expert replies at two accounts' tables."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from hukum.games import game_named
from hukum.online.challenge import DEALS, closes_at, preset_of, week_of
from hukum.server.db import Room, Store
from hukum.server.fairness import verify
from hukum.server.play import challenge as stored
from hukum.server.play.models import ChallengeEntry
from tests.server.conftest import play
from tests.server.helpers import Player as Scripted
from tests.server.helpers import seat_socket
from tests.server.test_ratings import account, guest, make_app, me_id, store_of


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'challenge.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_url)) as c:
        yield c


def today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def first_legal(view: dict[str, Any]) -> str:
    move: str = view["legal"][0]
    return move


def play_deal(c: TestClient, code: str) -> Scripted:
    """The browser's person plays seat 0 of a challenge table to the end (the first legal
    card each time), the expert at the other seats; their scripted player."""
    me = Scripted(first_legal)
    with seat_socket(c, code, None) as ws:
        play(ws, me)
    settle(c)
    return me


def settle(c: TestClient) -> None:
    assert c.portal is not None
    keeper: stored.Challenges = c.app.state.challenges  # type: ignore[attr-defined]
    c.portal.call(keeper.settle)


def start(c: TestClient, day: dt.date, n: int) -> str:
    r = c.post(f"/api/challenge/{day}/deals/{n}/play")
    assert r.status_code == 200, r.text
    code: str = r.json()["code"]
    return code


def error(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_today_shows_eight_committed_deals_and_no_seed(client: TestClient) -> None:
    anyone = guest(client, "Watcher")
    r = anyone.get("/api/challenge")
    assert r.status_code == 200, r.text
    body = r.json()
    day = today()
    assert body["day"] == day.isoformat() and body["closed"] is False
    assert body["preset"] == preset_of(day) and body["week"] == week_of(day)
    assert body["closes_at"] == closes_at(day).isoformat()
    assert [d["number"] for d in body["deals"]] == list(range(1, DEALS + 1))
    assert [d["dealer"] for d in body["deals"]] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(d["seed"] is None and len(d["commitment"]) == 64 for d in body["deals"])
    assert body["score"] is None
    # The same day asked again is the same challenge (made once).
    again = anyone.get(f"/api/challenge/{day}").json()
    assert [d["commitment"] for d in again["deals"]] == [d["commitment"] for d in body["deals"]]
    assert error(anyone.get(f"/api/challenge/{day + dt.timedelta(days=1)}")) == "unknown_challenge"
    assert error(anyone.get("/api/challenge/2020-01-01")) == "unknown_challenge"
    assert error(anyone.get("/api/challenge/yesterday")) == "unknown_challenge"


def test_guests_and_bad_deals_are_refused(client: TestClient) -> None:
    g = guest(client, "Visitor")
    day = today()
    r = g.post(f"/api/challenge/{day}/deals/1/play")
    assert r.status_code == 403 and error(r) == "account_needed"
    asha = account(client, "Asha")
    assert error(asha.post(f"/api/challenge/{day}/deals/9/play")) == "unknown_deal"
    assert error(asha.post(f"/api/challenge/{day}/deals/0/play")) == "unknown_deal"
    nobody = TestClient(client.app)
    nobody.portal = client.portal
    assert nobody.post(f"/api/challenge/{day}/deals/1/play").status_code == 401
    with store_of(client).session() as s:
        assert s.scalars(select(ChallengeEntry)).all() == []


def test_a_deal_played_to_the_end_is_scored_once(client: TestClient) -> None:
    day = today()
    asha, bela = account(client, "Asha"), account(client, "Bela")
    code = start(asha, day, 2)
    assert start(asha, day, 2) == code  # resumed, not a second table
    # The deal's commitment is the published one, and the table says no seed.
    published = asha.get("/api/challenge").json()["deals"][1]
    table = asha.get(f"/api/tables/{code}").json()
    assert table["challenge"] == f"{day}/2" and table["turn_timeout"] is None
    assert table["spectators"] is False and table["hints"] is False
    assert "seed" not in str(table["rules"])
    # Before playing, the field is hidden; the board of the table is locked.
    assert error(asha.get(f"/api/challenge/{day}/deals/2/results")) == "play_first"
    me = play_deal(asha, code)
    first = me.log[0]["view"]  # the table dealt as it was made: its state tells the deal
    assert first["commitment"] == published["commitment"]
    assert first["dealer"] == published["dealer"] == 1
    over = [m for m in me.log if m.get("kind") == "deal_over"]
    assert over and over[0]["seed"] is None and over[0]["view"]["seed"] is None
    assert error(asha.get(f"/api/tables/{code}/deals/1")) == "challenge_open"
    assert error(asha.get(f"/api/tables/{code}/deals/1/analysis")) == "challenge_open"
    r = asha.post(f"/api/challenge/{day}/deals/2/play")
    assert r.status_code == 409 and error(r) == "already_played"
    body = asha.get("/api/challenge").json()
    mine = body["deals"][1]
    assert mine["played"] and mine["finished"] and mine["room"] == code
    assert mine["percent"] == 50.0 and mine["field"] == 1  # alone on the deal
    assert body["score"] == pytest.approx(50.0 / DEALS)
    results = asha.get(f"/api/challenge/{day}/deals/2/results").json()
    assert len(results) == 1 and results[0]["you"] and results[0]["username"] == "Asha"
    assert set(results[0]) >= {"name", "username", "tens", "tricks", "won", "percent"}
    # Bela has not played deal 2: hidden; sees no room of Asha's.
    assert error(bela.get(f"/api/challenge/{day}/deals/2/results")) == "play_first"
    assert bela.get("/api/challenge").json()["deals"][1]["room"] is None
    board = bela.get(f"/api/challenge/{day}/leaderboard").json()
    assert board["final"] is False and board["me"] is None
    assert [(row["rank"], row["username"], row["played"]) for row in board["top"]] == [
        (1, "Asha", 1)
    ]
    assert me_id(asha) not in str(board) and me_id(asha) not in str(results)
    week = bela.get(f"/api/challenge/week/{week_of(day)}/leaderboard").json()
    assert week["top"][0]["username"] == "Asha"
    assert week["top"][0]["score"] == pytest.approx(round(50.0 / DEALS / 7, 2))
    assert error(asha.get(f"/api/challenge/{day}/deals/2/field")) == "challenge_open"
    # A rematch of a challenge table is refused: each deal is played once.
    with seat_socket(asha, code, None) as ws:
        ws.receive_json()
        ws.send_json({"type": "rematch", "ref": 1})
        reply = ws.receive_json()
        while reply["type"] != "error":
            reply = ws.receive_json()
        assert reply["error"]["code"] == "no_rematch"


def test_equal_moves_get_equal_replies(client: TestClient) -> None:
    day = today()
    asha, bela = account(client, "Asha"), account(client, "Bela")
    a = play_deal(asha, start(asha, day, 5))
    b = play_deal(bela, start(bela, day, 5))

    def moves(p: Scripted) -> list[tuple[int, str]]:
        return [(m["seat"], m["move"]) for m in p.log if m.get("kind") == "move"]

    assert moves(a) == moves(b) and len(moves(a)) == 52
    results = asha.get(f"/api/challenge/{day}/deals/5/results").json()
    assert [r["percent"] for r in results] == [50.0, 50.0]  # equal results tie
    assert {r["you"] for r in results} == {True, False}


def past_day(store: Store, days_ago: int = 3) -> dt.date:
    """A challenge of a past day, made in the database directly (closed now)."""
    day = today() - dt.timedelta(days=days_ago)
    stored.make_day(store, day)
    return day


def test_a_closed_day_shows_its_seeds_and_opens_its_boards(client: TestClient) -> None:
    store = store_of(client)
    asha = account(client, "Asha")
    day = today()
    code = start(asha, day, 1)
    play_deal(asha, code)
    past = past_day(store)
    # Asha's table was of today's deal: move it to the past day (the closed state).
    key = f"{past}/1"
    with store.session() as s:
        s.execute(update(ChallengeEntry).values(day=past))
        s.commit()
    with store.session() as s:
        room = s.get(Room, code)
        assert room is not None
        room.config = {**room.config, "challenge": key}
        s.commit()
    registry = client.app.state.registry  # type: ignore[attr-defined]
    held = registry.tables.pop(code, None)  # read back from the database with its new settings
    if held is not None:
        held.close()
    body = asha.get(f"/api/challenge/{past}").json()
    assert body["closed"] is True
    spec = game_named("mindi")
    for d in body["deals"]:
        assert d["seed"] is not None
        rules = spec.make_rules(body["preset"])
        check = verify(d["commitment"], int(d["seed"]), rules, d["dealer"], spec)
        assert check["commitment_ok"]
    r = asha.post(f"/api/challenge/{past}/deals/2/play")
    assert r.status_code == 409 and error(r) == "challenge_closed"
    board = asha.get(f"/api/challenge/{past}/leaderboard").json()
    assert board["final"] is True and board["me"]["username"] == "Asha"
    # Anyone sees the field after the close.
    other = account(client, "Bela")
    assert other.get(f"/api/challenge/{past}/deals/1/results").status_code == 200
    assert other.get(f"/api/tables/{code}/deals/1").status_code == 200
