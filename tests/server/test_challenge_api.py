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
from sqlalchemy import select

from hukum.games import game_named
from hukum.online.challenge import DEALS, closes_at, deal_key, preset_of, week_of
from hukum.server.db import Room, Store
from hukum.server.fairness import verify
from hukum.server.play import challenge as stored
from hukum.server.play.models import Challenge, ChallengeDeal, ChallengeEntry
from hukum.server.tables.scheduler import forget_replies
from tests.server.conftest import play
from tests.server.helpers import Player as Scripted
from tests.server.helpers import seat_socket
from tests.server.test_ratings import PASSWORD, account, guest, make_app, me_id, store_of


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
    for bad in ("yesterday", "2026-02-30", "20261207", "2026-12-7"):
        assert error(anyone.get(f"/api/challenge/{bad}")) == "unknown_challenge"
    assert error(anyone.get("/api/challenge/week/2026-W99/leaderboard")) == "unknown_challenge"


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


def test_a_foreign_page_starts_nothing_and_starts_past_the_limit_are_refused(
    client: TestClient,
) -> None:
    asha = account(client, "Asha")
    day = today()
    foreign = asha.post(
        f"/api/challenge/{day}/deals/1/play", headers={"origin": "https://evil.example"}
    )
    assert foreign.status_code == 403 and error(foreign) == "foreign_origin"
    with store_of(client).session() as s:
        assert s.scalars(select(ChallengeEntry)).all() == []
    code = start(asha, day, 1)
    for _ in range(29):  # asked again: the same table, resumed (30 a minute in all)
        assert start(asha, day, 1) == code
    limited = asha.post(f"/api/challenge/{day}/deals/2/play")
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    with store_of(client).session() as s:
        assert [e.number for e in s.scalars(select(ChallengeEntry))] == [1]


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
    assert error(asha.get(f"/api/tables/{code}/record")) == "challenge_open"  # it has the seed
    assert error(asha.get(f"/api/tables/{code}/report")) == "challenge_open"
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
    forget_replies()  # the expert decides again, as another process would
    b = play_deal(bela, start(bela, day, 5))

    def moves(p: Scripted) -> list[tuple[int, str]]:
        return [(m["seat"], m["move"]) for m in p.log if m.get("kind") == "move"]

    assert moves(a) == moves(b) and len(moves(a)) == 52
    results = asha.get(f"/api/challenge/{day}/deals/5/results").json()
    assert [r["percent"] for r in results] == [50.0, 50.0]  # equal results tie
    assert {r["you"] for r in results} == {True, False}


def close_today(client: TestClient, days_ago: int = 7) -> dt.date:
    """Make today's challenge, as played so far, a closed day's: a day ``days_ago`` in the
    past gets today's deals (the same seeds: made in the database directly), and today's
    entries and tables move to it. The day; its tables are read back from the database."""
    store = store_of(client)
    day = today()
    past = day - dt.timedelta(days=days_ago)
    deals = stored.make_day(store, day)
    with store.session() as s:
        s.add(Challenge(day=past, preset=preset_of(day)))
        for d in deals:
            s.add(
                ChallengeDeal(
                    day=past,
                    number=d.number,
                    seed=str(d.seed),
                    commitment=d.commitment,
                    dealer=d.dealer,
                    preset=d.preset,
                )
            )
        s.flush()
        entries = s.scalars(select(ChallengeEntry).where(ChallengeEntry.day == day)).all()
        rooms = [entry.room for entry in entries]
        for entry in entries:
            entry.day = past
            room = s.get(Room, entry.room)
            assert room is not None
            room.config = {**room.config, "challenge": deal_key(past, entry.number)}
        s.commit()
    registry = client.app.state.registry  # type: ignore[attr-defined]
    for code in rooms:
        held = registry.tables.pop(code, None)
        if held is not None:
            held.close()
    return past


def test_a_closed_day_shows_its_seeds_and_opens_its_boards(client: TestClient) -> None:
    asha, bela, cyra = account(client, "Asha"), account(client, "Bela"), account(client, "Cyra")
    code = start(asha, today(), 1)
    first = play_deal(asha, code)
    unfinished = start(bela, today(), 1)  # started, never finished: 0 once closed
    past = close_today(client)
    body = cyra.get(f"/api/challenge/{past}").json()
    assert body["closed"] is True and body["score"] is None
    spec = game_named("mindi")
    for d in body["deals"]:
        assert d["seed"] is not None
        rules = spec.make_rules(body["preset"])
        check = verify(d["commitment"], int(d["seed"]), rules, d["dealer"], spec)
        assert check["commitment_ok"]
    # The seed revealed is the one the table dealt: the hands Asha was dealt.
    dealt = verify(body["deals"][0]["commitment"], int(body["deals"][0]["seed"]), rules, 0, spec)
    hand = sorted(first.log[0]["view"]["hand"])
    assert sorted(dealt["hands"][0]) == hand
    r = asha.post(f"/api/challenge/{past}/deals/2/play")
    assert r.status_code == 409 and error(r) == "challenge_closed"
    board = asha.get(f"/api/challenge/{past}/leaderboard").json()
    assert board["final"] is True and board["me"]["username"] == "Asha"
    assert [(row["username"], row["score"]) for row in board["top"]] == [
        ("Asha", round(100.0 / DEALS, 2)),
        ("Bela", 0.0),
    ]
    # Anyone sees the field and the boards after the close.
    results = cyra.get(f"/api/challenge/{past}/deals/1/results").json()
    assert [(x["username"], x["percent"], x["finished"]) for x in results] == [
        ("Asha", 100.0, True),
        ("Bela", 0.0, False),
    ]
    assert cyra.get(f"/api/tables/{code}/deals/1").status_code == 200
    assert cyra.get(f"/api/tables/{code}/record").status_code == 200
    # The field, at each of Asha's decisions: only she stood there.
    field = asha.get(f"/api/challenge/{past}/deals/1/field").json()
    assert field["room"] == code and field["players"] == 2
    decisions = field["decisions"]
    assert len(decisions) == 13
    mine = [m["move"] for m in first.log if m.get("kind") == "move" and m["seat"] == 0]
    assert [d["played"] for d in decisions] == mine
    for d in decisions:
        assert d["field"] == 1 and d["share"][d["played"]] == 1.0
        assert set(d["share"]) == set(d["legal"]) and d["played"] in d["legal"]
        if d["solver"] is not None:
            assert set(d["solver"]) == set(d["legal"])
            assert all(0 <= v <= 7 for v in d["solver"].values())
    assert decisions[-2]["solver"] is not None or len(decisions[-2]["legal"]) == 1
    assert cyra.get(f"/api/challenge/{past}/deals/1/field").json()["error"]["code"] == (
        "unknown_table"
    )
    assert cyra.get(f"/api/challenge/{past}/deals/1/field?room={code}").status_code == 200
    # Bela's table is still there, but no move of hers counts after the close.
    with seat_socket(bela, unfinished, None) as ws:
        late = Scripted(first_legal)
        late.limit = 1
        for _ in range(20):
            for out in late.feed(ws.receive_json()):
                ws.send_json(out)
            if late.errors:
                break
        assert late.errors[0]["error"]["code"] == "challenge_closed"


def lost_race(store: Store) -> None:
    """A second maker of a day (another process that looked before the first made it) is
    refused by the day's key and reads the first's deals back: one challenge, 8 deals."""
    day = today() - dt.timedelta(days=10)
    first = stored.make_day(store, day)
    second = stored.insert_day(store, day)
    assert second == first and len(first) == DEALS
    assert len({d.seed for d in first}) == DEALS
    with store.session() as s:
        assert len(s.scalars(select(ChallengeDeal).where(ChallengeDeal.day == day)).all()) == 8


def test_a_maker_that_loses_the_race_reads_the_winner_back(client: TestClient) -> None:
    lost_race(store_of(client))


def test_a_result_lost_by_a_stopped_process_is_caught_up(client: TestClient) -> None:
    store = store_of(client)
    asha = account(client, "Asha")
    code = start(asha, today(), 3)
    play_deal(asha, code)
    with store.session() as s:
        entry = s.scalars(select(ChallengeEntry).where(ChallengeEntry.room == code)).one()
        written = (entry.tens, entry.tricks, entry.won)
        assert entry.finished_at is not None and entry.tens is not None
        # As if the process had stopped between the deal's end and the write.
        entry.finished_at, entry.tens, entry.tricks, entry.won = None, None, None, None
        s.commit()
    assert asha.get("/api/challenge").json()["deals"][2]["finished"] is False
    assert stored.unrecorded_rooms(store) == [code]
    assert stored.catch_up(store) == 1
    assert stored.catch_up(store) == 0  # written once
    with store.session() as s:
        entry = s.scalars(select(ChallengeEntry).where(ChallengeEntry.room == code)).one()
        assert (entry.tens, entry.tricks, entry.won) == written
    assert asha.get("/api/challenge").json()["deals"][2]["percent"] == 50.0


def test_a_deleted_account_stays_in_the_field_anonymously(client: TestClient) -> None:
    asha, bela = account(client, "Asha"), account(client, "Bela")
    day = today()
    play_deal(asha, start(asha, day, 4))
    play_deal(bela, start(bela, day, 4))
    r = asha.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    anonymous = r.json()["name"]
    results = bela.get(f"/api/challenge/{day}/deals/4/results").json()
    assert len(results) == 2 and {x["name"] for x in results} == {anonymous, "Bela"}
    assert all(x["username"] is None for x in results if x["name"] == anonymous)
    board = bela.get(f"/api/challenge/{day}/leaderboard").json()
    assert [row["username"] for row in board["top"]] == ["Bela"]


def test_the_same_replies_after_a_restart(db_url: str) -> None:
    """A table stopped in the middle of its deal and read back by a new server process gets
    the same expert replies as a table played through."""
    day = today()

    def moves(client: TestClient, code: str) -> list[tuple[int, str]]:
        events = store_of(client).events(code)
        return [(e.data["seat"], e.data["move"]) for e in events if e.kind == "move"]

    with TestClient(make_app(db_url)) as client:
        asha, bela = account(client, "Asha"), account(client, "Bela")
        through = start(asha, day, 6)
        play_deal(asha, through)
        code = start(bela, day, 6)
        with seat_socket(bela, code, None) as ws:
            play(ws, Scripted(first_legal), moves=4)
        cookies = dict(bela.cookies)
        assert 4 <= len(moves(client, code)) < 52
    forget_replies()  # a new process keeps no replies
    with TestClient(make_app(db_url)) as client:
        again = TestClient(client.app, cookies=cookies)
        again.portal = client.portal
        assert start(again, day, 6) == code  # resumed
        play_deal(again, code)
        assert moves(client, code) == moves(client, through)
        assert len(moves(client, through)) == 52
