"""Rated play through the real app (issue 43): a table a pool would make (``registry.spawn``
with a pool in its settings), its seats played over the game socket by the players' own
sessions, is rated when its match ends; a leaver loses and the partner is unchanged; rating
twice changes nothing; the catch-up rates what a stopped process did not; leaderboards and
profiles show it, with no player id anywhere. On SQLite, and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import select
from sqlalchemy.orm import Session

from hukum.games import game_named
from hukum.online.pools import POOLS
from hukum.online.ratings import (
    BOT_RATINGS,
    START_MU,
    START_SIGMA,
    Member,
    Side,
    rate_match,
    shown,
)
from hukum.server.app import create_app
from hukum.server.db import Store, make_engine
from hukum.server.identity.models import Player
from hukum.server.identity.passwords import Passwords
from hukum.server.play import results
from hukum.server.play.models import RatedMatch, RatedSeat, Rating
from hukum.server.tables import Registry
from hukum.server.tables.config import TableConfig
from hukum.server.tables.seats import Seat, bot_name
from tests.server.conftest import play
from tests.server.helpers import Player as Scripted
from tests.server.helpers import seat_socket

PASSWORD = "correct horse battery"
CHEAP = Passwords(PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),)))


def make_app(url: str, **kw: Any) -> Any:
    return create_app(url, bot_delay=0, passwords=CHEAP, rates={"claim": "1000/hour"}, **kw)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rated.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_url)) as c:
        yield c


def store_of(client: TestClient) -> Store:
    found: Store = client.app.state.store  # type: ignore[attr-defined]
    return found


def registry_of(client: TestClient) -> Registry:
    found: Registry = client.app.state.registry  # type: ignore[attr-defined]
    return found


def browser(client: TestClient) -> TestClient:
    """Another browser on the same app (its own cookies)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def account(client: TestClient, username: str) -> TestClient:
    """A new browser whose guest claimed the account ``username``."""
    c = browser(client)
    assert c.post("/api/me/guest").status_code == 200
    assert c.patch("/api/me", json={"name": username}).status_code == 200
    r = c.post("/api/account/claim", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return c


def guest(client: TestClient, name: str) -> TestClient:
    c = browser(client)
    assert c.post("/api/me/guest").status_code == 200
    assert c.patch("/api/me", json={"name": name}).status_code == 200
    return c


def me_id(c: TestClient) -> str:
    """The id of a browser's player (read from the database: no response says it)."""
    name = c.get("/api/me").json()["player"]["name"]
    with store_of(c).session() as s:
        ids = s.scalars(select(Player.id).where(Player.name == name)).all()
    assert len(ids) == 1
    return ids[0]


def rated_table(
    client: TestClient,
    pool: str,
    people: dict[int, TestClient],
    *,
    bots: str = "random",
    turn_timeout: float | None = 30.0,
) -> str:
    """A rated room as the pools make one: these people at these seats (by session), the
    other seats computer players; its match started. Its code."""
    spec = game_named(POOLS[pool].game)
    the_pool = POOLS[pool]
    config = TableConfig(
        spec.make_rules(the_pool.preset, the_pool.options),
        the_pool.preset,
        bots,
        turn_timeout,
        spec.name,
        pool=pool,
    )
    seats: list[Seat] = []
    names = {i: c.get("/api/me").json()["player"]["name"] for i, c in people.items()}
    for i in range(the_pool.seats):
        if i in people:
            seats.append(Seat("human", names[i], None, player=me_id(people[i])))
        else:
            seats.append(Seat("bot", bot_name("x", i, list(names.values()))))
    assert client.portal is not None
    code: str = client.portal.call(registry_of(client).spawn, config, seats)
    return code


def choose(view: dict[str, Any]) -> str:
    """The first legal move; a Ganjifa answer gives the first cards asked for."""
    if view.get("need"):
        return "give " + " ".join(view["allowed"][: view["need"]])
    move: str = view["legal"][0]
    return move


def play_out(code: str, players: list[TestClient]) -> None:
    """Each browser plays its seat over its own game socket (the seat follows the session:
    hello without a token) until the match is over, all at once."""

    def one(c: TestClient) -> None:
        with seat_socket(c, code, None) as ws:
            play(ws, Scripted(choose))

    with ThreadPoolExecutor(len(players)) as pool:
        for done in [pool.submit(one, c) for c in players]:
            done.result(timeout=120)


def settle(client: TestClient) -> None:
    """Wait for the ratings under way."""
    assert client.portal is not None
    rater: results.Ratings = client.app.state.ratings  # type: ignore[attr-defined]
    client.portal.call(rater.settle)


def ratings(client: TestClient, pool: str) -> dict[str, Rating]:
    with store_of(client).session() as s:
        return {r.player: r for r in s.scalars(select(Rating).where(Rating.pool == pool))}


def seats_of(client: TestClient, code: str) -> list[RatedSeat]:
    with store_of(client).session() as s:
        return list(
            s.scalars(select(RatedSeat).where(RatedSeat.room == code).order_by(RatedSeat.seat))
        )


def no_ids(body: Any, ids: list[str]) -> None:
    text = str(body)
    for player_id in ids:
        assert player_id not in text


# ----------------------------------------------------------------------- rating a match


def four_people_rated(client: TestClient) -> tuple[str, list[TestClient], list[str]]:
    people = [account(client, f"Rater{i}") for i in range(4)]
    ids = [me_id(c) for c in people]
    code = rated_table(client, "mindi", dict(enumerate(people)))
    play_out(code, people)
    settle(client)
    return code, people, ids


def check_four_people(client: TestClient) -> None:
    code, people, ids = four_people_rated(client)
    rows = ratings(client, "mindi")
    assert set(rows) == set(ids)
    seats = seats_of(client, code)
    assert [s.player for s in seats] == ids and [s.team for s in seats] == [0, 1, 0, 1]
    words = {s.result for s in seats}
    assert words in ({"win", "loss"}, {"draw"})
    for seat in seats:
        row = rows[seat.player or ""]
        assert (row.games, row.finished, row.left) == (1, 1, 0)
        assert row.wins == (seat.result == "win")
        assert not seat.left and seat.bot is None
        assert (seat.mu_before, seat.sigma_before) == (START_MU, START_SIGMA)
        assert (seat.mu_after, seat.sigma_after) == (row.mu, row.sigma)
        assert row.sigma < START_SIGMA
        if seat.result == "win":
            assert row.mu > START_MU
        elif seat.result == "loss":
            assert row.mu < START_MU
    # Once only: the live rating, a second attempt, and the catch-up change nothing.
    before = {p: (r.mu, r.sigma, r.games) for p, r in rows.items()}
    assert not results.rate_room(store_of(client), code)
    assert results.catch_up(store_of(client)) == 0
    assert {p: (r.mu, r.sigma, r.games) for p, r in ratings(client, "mindi").items()} == before
    with store_of(client).session() as s:
        assert s.scalar(select(RatedMatch.pool).where(RatedMatch.room == code)) == "mindi"
    # The leaderboard (one game is enough here) and the profiles show it, with no id.
    r = people[0].get("/api/leaderboard/mindi")
    assert r.status_code == 200
    assert r.json()["top"] == [] and r.json()["me"]["games"] == 1  # 1 < MIN_GAMES
    profile = people[0].get("/api/players/Rater1").json()
    assert profile["username"] == "Rater1" and profile["ratings"]["mindi"]["games"] == 1
    assert profile["matches"][0]["room"] == code
    no_ids([r.json(), profile, people[0].get("/api/me/profile").json()], ids)


def test_a_rated_mindi_match_rates_each_person_once(client: TestClient) -> None:
    check_four_people(client)


def test_on_postgresql(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as c:
        check_four_people(c)
        check_concurrent_attempts(c)


def check_concurrent_attempts(client: TestClient) -> None:
    """Two processes may both try to rate a match: exactly one does."""
    c = account(client, "Racer")
    code = rated_table(client, "mindi", {0: c})
    registry_of(client).finished = None  # as if the process stopped before it rated
    play_out(code, [c])
    assert results.unrated_rooms(store_of(client)) == [code]
    # Four "processes": each its own store (engine, connections) on the database.
    url = str(store_of(client).engine.url.render_as_string(hide_password=False))
    stores = [Store(make_engine(url)) for _ in range(4)]
    barrier = threading.Barrier(4)

    def rate(store: Store) -> bool:
        barrier.wait()
        return results.rate_room(store, code)

    try:
        with ThreadPoolExecutor(4) as pool:
            done = list(pool.map(rate, stores))
    finally:
        for store in stores:
            store.engine.dispose()
    assert sorted(done) == [False, False, False, True]
    assert len(seats_of(client, code)) == 4
    assert ratings(client, "mindi")[me_id(c)].games == 1


def test_concurrent_attempts_rate_once(client: TestClient) -> None:
    check_concurrent_attempts(client)


def test_a_leaver_loses_and_the_partner_who_stayed_is_unchanged(client: TestClient) -> None:
    stayer, leaver = account(client, "Stayer"), account(client, "Leaver")
    # The leaver never comes: their turn times out and a computer player finishes for them.
    code = rated_table(client, "mindi", {0: stayer, 2: leaver}, turn_timeout=1.5)
    play_out(code, [stayer])
    settle(client)
    rows = ratings(client, "mindi")
    s_id, l_id = me_id(stayer), me_id(leaver)
    assert (rows[s_id].mu, rows[s_id].sigma) == (START_MU, START_SIGMA)
    assert (rows[s_id].games, rows[s_id].finished, rows[s_id].left) == (0, 1, 0)
    assert rows[l_id].mu < START_MU
    assert (rows[l_id].games, rows[l_id].wins, rows[l_id].finished, rows[l_id].left) == (1, 0, 0, 1)
    seats = seats_of(client, code)
    assert [s.bot for s in seats] == [None, "random", None, "random"]
    assert seats[2].left and seats[2].result == "loss" and seats[2].mu_after == rows[l_id].mu
    assert not seats[0].left and seats[0].mu_after is None
    assert seats[1].mu_after is None and seats[3].mu_after is None  # computer players: fixed
    # The leaver's loss is the model's: the side with the computer partner against two
    # computer players at their fixed ratings, the leaver last.
    bot = Member(*BOT_RATINGS["mindi"]["random"], bot=True)
    expected = rate_match(
        [
            Side((Member(START_MU, START_SIGMA, left=True), Member(START_MU, START_SIGMA)), 0),
            Side((bot, bot), 0),
        ]
    )[0][0]
    assert expected is not None and rows[l_id].mu == pytest.approx(expected[0])
    leaving = leaver.get("/api/me/profile").json()
    assert leaving["finish_rate"] == 0.0 and (leaving["finished"], leaving["left"]) == (0, 1)
    match = leaving["matches"][0]
    assert match["left"] and match["result"] == "loss" and match["change"] < 0
    staying = stayer.get("/api/players/stayer").json()  # user names compare folded
    assert staying["finish_rate"] == 1.0 and staying["ratings"]["mindi"]["rating"] == 1500
    assert staying["matches"][0]["change"] is None


def test_ganjifa_three_sides(client: TestClient) -> None:
    c = account(client, "Ganji")
    code = rated_table(client, "ganjifa", {1: c})
    play_out(code, [c])
    settle(client)
    seats = seats_of(client, code)
    assert [s.team for s in seats] == [0, 1, 2]
    assert [s.bot for s in seats] == ["random", None, "random"]
    row = ratings(client, "ganjifa")[me_id(c)]
    assert row.games == 1 and seats[1].mu_after == row.mu
    assert (row.mu > START_MU) == (seats[1].result == "win")
    assert row.wins == (seats[1].result == "win")
    profile = c.get("/api/me/profile").json()
    assert set(profile["ratings"]) == {"ganjifa"}
    assert [p["bot"] for p in profile["matches"][0]["players"]] == ["random", None, "random"]


def test_a_casual_room_is_not_rated(client: TestClient) -> None:
    c = account(client, "Casual")
    one_deal = {"deals": 1, "target": None}
    body = {"name": "Casual", "bots": "random", "start_now": True, "options": one_deal}
    made = c.post("/api/tables", json=body)
    code = made.json()["code"]
    with seat_socket(c, code, made.json()["token"]) as ws:
        play(ws, Scripted())
    settle(client)
    assert results.unrated_rooms(store_of(client)) == []
    assert not results.rate_room(store_of(client), code)
    assert ratings(client, "mindi") == {}


def test_the_catch_up_rates_what_a_stopped_process_did_not(db_url: str) -> None:
    with TestClient(make_app(db_url)) as first:
        c, d = account(first, "Caught"), account(first, "Caught2")
        code = rated_table(first, "band", {0: c, 1: d})
        registry_of(first).finished = None  # the process "stops" between match_over and rating
        play_out(code, [c, d])
        assert results.unrated_rooms(store_of(first)) == [code]
        assert ratings(first, "band") == {}
    # The next process catches up at its start.
    with TestClient(make_app(db_url)) as second:
        assert second.portal is not None
        rater: results.Ratings = second.app.state.ratings  # type: ignore[attr-defined]
        second.portal.call(rater.caught_up.wait)
        rows = ratings(second, "band")
        assert len(rows) == 2 and all(r.games == 1 for r in rows.values())
        assert len(seats_of(second, code)) == 4
        assert results.unrated_rooms(store_of(second)) == []


def test_a_match_ending_while_the_rating_runs_is_kept_apart(client: TestClient) -> None:
    """Ratings of one process run one at a time: two matches of the same person rated at
    once both count, neither overwrites the other."""
    c = account(client, "Twice")
    codes = [rated_table(client, "mindi", {0: c}) for _ in range(2)]
    registry_of(client).finished = None
    for code in codes:
        play_out(code, [c])
    barrier = threading.Barrier(2)

    def rate(code: str) -> bool:
        barrier.wait()
        return results.rate_room(store_of(client), code)

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(rate, codes)) == [True, True]
    row = ratings(client, "mindi")[me_id(c)]
    assert row.games == 2
    seats = [seats_of(client, code)[0] for code in codes]
    first, second = sorted(seats, key=lambda s: s.sigma_after or 0.0, reverse=True)
    assert second.mu_before == first.mu_after  # the second rating started from the first


# ----------------------------------------------------------------------- leaderboards


def put_rating(
    client: TestClient, player_id: str, pool: str, mu: float, sigma: float, games: int, days: int
) -> None:
    """A rating as if earned (its figures chosen for the test of the order and filters)."""
    with store_of(client).session() as s:
        s.merge(
            Rating(
                player=player_id,
                pool=pool,
                mu=mu,
                sigma=sigma,
                games=games,
                wins=games // 2,
                finished=games,
                left=0,
                updated_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=days),
            )
        )
        s.commit()


def test_the_leaderboard_filters_and_orders(client: TestClient) -> None:
    players = {name: account(client, name) for name in ("Alpha", "Beta", "Gamma", "Delta")}
    few, old = account(client, "Fewgames"), account(client, "Oldtimer")
    someone = guest(client, "Guesty")
    ids = {name: me_id(c) for name, c in players.items()}
    # Gamma has the highest mu but a wide sigma: the conservative figure puts Beta first.
    put_rating(client, ids["Alpha"], "mindi", 28.0, 2.0, 20, 1)  # 22
    put_rating(client, ids["Beta"], "mindi", 30.0, 2.0, 30, 2)  # 24
    put_rating(client, ids["Gamma"], "mindi", 38.0, 5.5, 9, 3)  # 21.5
    put_rating(client, ids["Delta"], "mindi", 20.0, 1.5, 50, 29)  # 15.5
    put_rating(client, me_id(few), "mindi", 40.0, 1.0, 4, 1)  # too few games
    put_rating(client, me_id(old), "mindi", 40.0, 1.0, 40, 31)  # none recent
    put_rating(client, me_id(someone), "mindi", 40.0, 1.0, 40, 1)  # a guest: never listed
    put_rating(client, ids["Alpha"], "band", 25.0, 2.0, 10, 1)
    board = players["Alpha"].get("/api/leaderboard/mindi").json()
    assert [row["username"] for row in board["top"]] == ["Beta", "Alpha", "Gamma", "Delta"]
    assert [row["rank"] for row in board["top"]] == [1, 2, 3, 4]
    assert board["top"][0] == {
        "rank": 1,
        "name": "Beta",
        "username": "Beta",
        "rating": shown(30.0),
        "deviation": 120,
        "games": 30,
        "provisional": False,
    }
    assert board["top"][2]["provisional"]  # Gamma has played fewer than 10 rated matches
    assert board["me"] == {
        "rank": 2,
        "rating": 1680,
        "deviation": 120,
        "games": 20,
        "provisional": False,
    }
    assert [row["username"] for row in board["around"]] == ["Beta", "Alpha", "Gamma", "Delta"]
    # The ones left out see their own figures but no place.
    mine = few.get("/api/leaderboard/mindi").json()
    assert mine["me"]["rank"] is None and mine["around"] == [] and mine["me"]["games"] == 4
    assert someone.get("/api/leaderboard/mindi").json()["me"]["rank"] is None
    anonymous = browser(client).get("/api/leaderboard/mindi").json()
    assert anonymous["me"] is None and len(anonymous["top"]) == 4
    assert [r["username"] for r in client.get("/api/leaderboard/band").json()["top"]] == ["Alpha"]
    assert client.get("/api/leaderboard/ganjifa").json()["top"] == []
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_pool"
    no_ids([board, mine, anonymous], [*ids.values(), me_id(few), me_id(old), me_id(someone)])


def test_around_me_is_the_five_above_and_below(db_url: str) -> None:
    with TestClient(make_app(db_url, leaderboard_min_games=1)) as client:
        people = [account(client, f"P{i:02d}") for i in range(15)]
        for i, c in enumerate(people):
            put_rating(client, me_id(c), "mindi", 40.0 - i, 1.0, 1, 0)
        around = people[9].get("/api/leaderboard/mindi").json()
        assert around["me"]["rank"] == 10
        assert [row["rank"] for row in around["around"]] == list(range(5, 16))
        assert around["around"][5]["username"] == "P09"
        top = people[1].get("/api/leaderboard/mindi").json()["around"]
        assert [row["rank"] for row in top] == list(range(1, 8))


# ----------------------------------------------------------------------- profiles


def test_profiles_and_their_privacy(client: TestClient) -> None:
    c = account(client, "Profiled")
    other = guest(client, "Quietguest")
    code = rated_table(client, "mindi", {0: c, 1: other})
    play_out(code, [c, other])
    settle(client)
    profile = client.get("/api/players/Profiled").json()
    assert set(profile) == {
        "name",
        "username",
        "member_since",
        "finish_rate",
        "finished",
        "left",
        "ratings",
        "matches",
    }
    assert profile["name"] == "Profiled" and profile["username"] == "Profiled"
    assert dt.date.fromisoformat(profile["member_since"]) == dt.datetime.now(dt.UTC).date()
    assert (profile["finish_rate"], profile["finished"], profile["left"]) == (1.0, 1, 0)
    rating = profile["ratings"]["mindi"]
    assert set(rating) == {"rating", "deviation", "provisional", "games", "wins", "history"}
    assert rating["provisional"] and rating["games"] == 1
    [[at, shown_after]] = rating["history"]
    assert dt.datetime.fromisoformat(at).tzinfo is not None and shown_after == rating["rating"]
    [match] = profile["matches"]
    assert set(match) == {
        "room", "seat", "pool", "at", "result", "left", "change", "players", "board"
    }  # fmt: skip
    assert (
        match["room"] == code
        and match["seat"] == 0
        and match["pool"] == "mindi"
        and match["board"] == f"/t/{code}/deals/1"
    )
    assert match["change"] == rating["rating"] - 1500
    assert [p["seat"] for p in match["players"]] == [0, 1, 2, 3]
    assert [p["name"] for p in match["players"]][:2] == ["Profiled", "Quietguest"]
    assert [p["bot"] for p in match["players"]] == [None, None, "random", "random"]
    # The guest sees their own profile; nobody else can (no user name, no route by id).
    own = other.get("/api/me/profile").json()
    assert own["username"] is None and own["ratings"]["mindi"]["games"] == 1
    for name in ("Quietguest", "nobody"):
        r = client.get(f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_player"
    assert browser(client).get("/api/me/profile").json()["error"]["code"] == "no_session"
    no_ids([profile, own], [me_id(c), me_id(other)])


def test_the_download_has_the_ratings_and_deletion_removes_them(client: TestClient) -> None:
    c, partner = account(client, "Deleted"), account(client, "Keeper")
    player_id = me_id(c)
    code = rated_table(client, "mindi", {0: c, 2: partner})
    play_out(code, [c, partner])
    settle(client)
    data = c.get("/api/account/data").json()
    [rating] = data["ratings"]
    assert rating["pool"] == "mindi" and rating["games"] == 1 and rating["finished"] == 1
    [seat] = data["rated_seats"]
    assert seat["room"] == code and seat["seat"] == 0 and seat["name"] == "Deleted"
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    with store_of(client).session() as s:
        assert s.scalars(select(Rating).where(Rating.player == player_id)).all() == []
        gone = s.get(RatedSeat, (code, 0))
        assert gone is not None and gone.player is None and gone.name.startswith("Former player")
        assert gone.mu_after is not None  # the match stays whole
    assert ratings(client, "mindi").keys() == {me_id(partner)}
    shown_to_partner = partner.get("/api/me/profile").json()["matches"][0]["players"]
    assert shown_to_partner[0]["name"].startswith("Former player")
    assert client.get("/api/players/Deleted").status_code == 404


# ----------------------------------------------------------------------- hukum serve


def test_hukum_serve_takes_the_leaderboards_minimum(tmp_path: Path) -> None:
    from hukum.cli import _parser
    from hukum.server.routes import players

    assert _parser().parse_args(["serve"]).leaderboard_min_games == players.MIN_GAMES
    database = f"sqlite:///{tmp_path / 'serve.db'}"
    args = ["serve", "--port", "0", "--database-url", database, "--log-level", "warning"]
    with subprocess.Popen(
        [sys.executable, "-m", "hukum", *args, "--leaderboard-min-games", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    ) as proc:
        assert proc.stdout is not None
        timer = threading.Timer(120, proc.kill)
        timer.start()
        try:
            said = b""
            while not said.endswith(b"(Ctrl-C stops it)"):
                chunk = os.read(proc.stdout.fileno(), 1)
                assert chunk, said.decode()
                said += chunk
            opened = re.search(r"open (http://127\.0\.0\.1:\d+/) ", said.decode())
            assert opened, said
            # An account with one rated match, in the server's database.
            engine = make_engine(database)
            with Session(engine) as s:
                s.add(Player(id="p" * 32, name="Solo", username="Solo", username_key="solo"))
                s.add(Rating(player="p" * 32, pool="mindi", mu=26.0, sigma=7.0, games=1,
                             wins=1, finished=1, left=0))  # fmt: skip
                s.commit()
            engine.dispose()
            url = opened.group(1) + "api/leaderboard/mindi"
            with urllib.request.urlopen(url, timeout=30) as answer:
                board = json.loads(answer.read())
            assert [row["username"] for row in board["top"]] == ["Solo"]
            assert "p" * 32 not in str(board)
        finally:
            timer.cancel()
            proc.terminate()
            proc.wait(timeout=30)


# ----------------------------------------------------------------------- endings


ENDED = itertools.count()


def ended(client: TestClient, pool: str, seats: list[results.SeatAtEnd], result: Any) -> str:
    """Rate a room of ``pool`` that ended with these seats and this result; its code."""
    spec, the_pool = game_named(POOLS[pool].game), POOLS[pool]
    rules = spec.make_rules(the_pool.preset, the_pool.options)
    config = TableConfig(rules, the_pool.preset, "rules", 30.0, spec.name, pool=pool)
    code = f"ended{next(ENDED):03d}"
    assert store_of(client).create_room(code, config.to_dict())
    assert results.rate(store_of(client), code, config, seats, result)
    return code


def test_a_level_match_and_leavers_on_both_sides(client: TestClient) -> None:
    ids = [me_id(account(client, f"End{i}")) for i in range(4)]
    people = [results.SeatAtEnd("human", f"End{i}", ids[i], False) for i in range(4)]
    level = ended(client, "mindi", people, {"scores": [0, 0], "winner": None})
    assert {s.result for s in seats_of(client, level)} == {"draw"}
    rows = ratings(client, "mindi")
    assert all(r.mu == pytest.approx(START_MU) and r.games == 1 for r in rows.values())
    before = {p: (r.mu, r.sigma) for p, r in rows.items()}
    # Seats 0 and 1 left (a computer player finished for each): only they move, each a loss.
    left = [results.SeatAtEnd("human", s.name, s.player, i < 2) for i, s in enumerate(people)]
    code = ended(client, "mindi", left, {"scores": [1, 0], "winner": 0})
    seats, rows = seats_of(client, code), ratings(client, "mindi")
    assert [s.result for s in seats] == ["loss", "loss", "win", "loss"]  # the board's for 2, 3
    assert [s.left for s in seats] == [True, True, False, False]
    for i in (0, 1):
        assert rows[ids[i]].mu < before[ids[i]][0] and rows[ids[i]].left == 1
    for i in (2, 3):
        assert (rows[ids[i]].mu, rows[ids[i]].sigma) == before[ids[i]]
        assert rows[ids[i]].games == 1 and rows[ids[i]].finished == 2
        assert seats[i].mu_after is None


def test_ganjifa_places_by_score_and_a_shared_first_place(client: TestClient) -> None:
    ids = [me_id(account(client, f"Gj{i}")) for i in range(3)]
    three = [results.SeatAtEnd("human", f"Gj{i}", ids[i], False) for i in range(3)]
    code = ended(client, "ganjifa", three, {"scores": [30, 50, 40], "winners": [1]})
    assert [s.result for s in seats_of(client, code)] == ["loss", "win", "loss"]
    rows = ratings(client, "ganjifa")
    assert rows[ids[1]].mu > rows[ids[2]].mu > rows[ids[0]].mu
    shared = ended(client, "ganjifa", three, {"scores": [45, 45, 30], "winners": [0, 1]})
    assert [s.result for s in seats_of(client, shared)] == ["draw", "draw", "loss"]
    # A leaver in Ganjifa is last; the two others keep their order between them.
    gone = [results.SeatAtEnd("human", s.name, s.player, i == 0) for i, s in enumerate(three)]
    last = ended(client, "ganjifa", gone, {"scores": [60, 20, 40], "winners": [0]})
    assert [s.result for s in seats_of(client, last)] == ["loss", "loss", "win"]
