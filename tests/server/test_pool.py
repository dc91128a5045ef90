"""Quick match (issue 43): the pools' routes on a real app and a real database, several
guest sessions on one app (each request carries its own session cookie), the matchmaker's
waves running as they do in ``hukum serve`` (every 0.1 s here)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from hukum.online.pools import POOLS
from hukum.server.app import create_app
from hukum.server.db import Store, make_engine
from hukum.server.identity.models import Block, PlayerSession, Sanction
from hukum.server.identity.sessions import COOKIE, session_hash
from hukum.server.play.models import RatedMatch, RatedSeat
from hukum.server.play.pool import LEAVER_LEFT, Matchmaker
from hukum.server.play.results import Ratings
from tests.server.conftest import play
from tests.server.helpers import Player, hello
from tests.server.test_cluster import redis_url
from tests.server.test_hello import refused

__all__ = ["redis_url"]  # the fixture


@dataclass
class Guest:
    """A guest's session on the shared client: every request carries its cookie."""

    client: TestClient
    token: str
    id: str
    name: str

    def call(self, method: str, url: str, **kw: Any) -> Any:
        return self.client.request(method, url, headers={"cookie": f"{COOKIE}={self.token}"}, **kw)

    def join(self, pool: str = "mindi") -> dict[str, Any]:
        r = self.call("POST", f"/api/pool/{pool}", json={})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def state(self, wait: float = 0) -> dict[str, Any]:
        r = self.call("GET", f"/api/pool?wait={wait}")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def matched(self, seconds: float = 10) -> str:
        """The code of the table the pools gave this guest (waiting at most ``seconds``)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state(wait=1)
            if state["status"] == "matched":
                code: str = state["code"]
                return code
            assert state["status"] == "waiting", state
        raise AssertionError(f"{self.name} was not matched in {seconds} s")

    def table(self, code: str) -> dict[str, Any]:
        r = self.call("GET", f"/api/tables/{code}")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


def new_guest(client: TestClient, db: str) -> Guest:
    client.cookies.clear()
    r = client.post("/api/me/guest")
    assert r.status_code == 200, r.text
    token = client.cookies[COOKIE]
    client.cookies.clear()
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            row = s.get(PlayerSession, session_hash(token))
            assert row is not None
            player = row.player
    finally:
        engine.dispose()
    return Guest(client, token, player, r.json()["player"]["name"])


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'pool.db'}"


@pytest.fixture(params=["memory", "redis"])
def waiting(request: pytest.FixtureRequest) -> str | None:
    """Where the pools keep who waits: in the process's memory, or on a private Redis
    server (the cluster's store, here with one process)."""
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue("redis_url")
    return url


def app_client(db: str, countdown: float, redis_url: str | None) -> TestClient:
    app = create_app(db, bot_delay=0, pool_countdown=countdown, pool_wave=0.1, redis_url=redis_url)
    return TestClient(app)


@pytest.fixture
def client(db: str, waiting: str | None) -> Iterator[TestClient]:
    """An app whose countdown is long: only people meet."""
    with app_client(db, 20.0, waiting) as c:
        yield c


@pytest.fixture
def quick(db: str, waiting: str | None) -> Iterator[TestClient]:
    """An app whose countdown is short: computer players come within a second."""
    with app_client(db, 0.5, waiting) as c:
        yield c


def matchmaker(client: TestClient) -> Matchmaker:
    found: Matchmaker = client.app.state.matchmaker  # type: ignore[attr-defined]
    return found


def add_rows(db: str, *rows: Any) -> None:
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            for row in rows:
                s.add(row)
                s.flush()
            s.commit()
    finally:
        engine.dispose()


def test_four_people_meet_at_one_table(client: TestClient, db: str) -> None:
    people = [new_guest(client, db) for _ in range(4)]
    for i, person in enumerate(people):
        joined = person.join()
        assert joined["status"] == "waiting" and joined["pool"] == "mindi"
        assert joined["since"] == 0.0 and joined["countdown"] == 20.0
        assert joined["waiting"] == i + 1
    codes = {p.matched() for p in people}
    assert len(codes) == 1
    code = codes.pop()
    seats = set()
    for person in people:
        table = person.table(code)
        assert table["you"] is not None
        seats.add(table["you"])
        seat = table["seats"][table["you"]]
        assert seat["kind"] == "human" and seat["name"] == person.name
    assert seats == {0, 1, 2, 3}
    table = people[0].table(code)
    assert table["status"] == "playing"
    assert table["turn_timeout"] == 30.0 and table["preset"] == "classic"
    assert not table["spectators"] and not table["hints"] and not table["chat"]
    store = Store(make_engine(db))
    room = store.room(code)
    store.close()
    assert room is not None and room["pool"] == "mindi"
    text = str(table)
    for person in people:
        assert person.id not in text  # never a player's internal id
    # Asked again while the table plays, a player is sent back to it.
    assert people[0].join() == {"status": "matched", "pool": "mindi", "code": code}
    assert people[1].join("band")["code"] == code


def test_a_single_person_gets_computer_players_after_the_countdown(
    quick: TestClient, db: str
) -> None:
    person = new_guest(quick, db)
    joined = person.join()
    assert joined["status"] == "waiting" and 0 < joined["countdown"] <= 0.5
    code = person.matched()
    table = person.table(code)
    kinds = [s["kind"] for s in table["seats"]]
    assert kinds.count("human") == 1 and kinds.count("bot") == 3
    names = [s["name"] for s in table["seats"]]
    assert all(names) and len(set(names)) == 4
    assert table["seats"][table["you"]]["name"] == person.name
    assert table["status"] == "playing"
    # A rated table is never watched, live or later in the deal (no second account sees
    # the cards): a watcher's hello is refused.
    with quick.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "watch": True})
        assert refused(ws) == ("no_spectators", 4403)


def test_a_party_sits_opposite(client: TestClient, db: str) -> None:
    leader, friend, a, b = (new_guest(client, db) for _ in range(4))
    made = leader.call("POST", "/api/parties").json()
    assert made["leader"] is True and made["members"] == [leader.name]
    assert made["link"] == f"/party/{made['party']}"
    seen = friend.call("GET", f"/api/parties/{made['party']}").json()
    assert seen == {**made, "leader": False, "you": False, "full": False}
    joined = friend.call("POST", f"/api/parties/{made['party']}/join").json()
    assert joined["members"] == [leader.name, friend.name] and joined["you"] is True
    assert joined["full"] is True and joined["leader"] is False
    full = a.call("POST", f"/api/parties/{made['party']}/join")
    assert full.status_code == 409 and full.json()["error"]["code"] == "party_full"
    assert leader.join()["status"] == "waiting"
    assert friend.state()["status"] == "waiting"  # the leader queued the friend too
    a.join()
    b.join()
    code = leader.matched()
    assert friend.matched() == code and a.matched() == code and b.matched() == code
    ours = {leader.table(code)["you"], friend.table(code)["you"]}
    assert ours in ({0, 2}, {1, 3})
    # The friend leaves the party, then the leader ends it.
    party = made["party"]
    assert friend.call("DELETE", f"/api/parties/{party}").json()["left"] is True
    assert leader.call("GET", f"/api/parties/{party}").json()["members"] == [leader.name]
    leader.call("DELETE", f"/api/parties/{party}")
    gone = friend.call("GET", f"/api/parties/{party}")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_party"


def test_a_party_queues_as_one_ticket_and_leaves_as_one(client: TestClient, db: str) -> None:
    leader, friend = new_guest(client, db), new_guest(client, db)
    party = leader.call("POST", "/api/parties").json()["party"]
    friend.call("POST", f"/api/parties/{party}/join")
    assert friend.join("band")["waiting"] == 1  # a member queues the party: one ticket
    assert leader.state()["pool"] == "band"
    assert leader.call("DELETE", "/api/pool").json() == {"status": "none"}
    assert friend.state() == {"status": "none"}


def test_blocked_players_are_never_together(quick: TestClient, db: str) -> None:
    people = [new_guest(quick, db) for _ in range(4)]
    add_rows(db, Block(player=people[0].id, blocked=people[1].id))
    for person in people:
        person.join()
    codes = [p.matched() for p in people]
    assert codes[0] != codes[1]
    for code in set(codes):
        held = {p.id for p, c in zip(people, codes, strict=True) if c == code}
        assert not {people[0].id, people[1].id} <= held


def make_leaver(db: str, player: str) -> None:
    store = Store(make_engine(db))
    config = POOLS["mindi"]
    rows: list[Any] = []
    for i in range(LEAVER_LEFT):
        code = f"LEFT{i:02d}"
        store.create_room(code, {"game": config.game, "rules": {}, "preset": None, "bots": "rules"})
        rows.append(RatedMatch(room=code, pool="mindi"))
        rows.append(
            RatedSeat(room=code, seat=0, player=player, name="x", team=0, result="loss", left=True)
        )
    store.close()
    add_rows(db, *rows)


def test_leavers_wait_longer_and_sit_only_with_leavers(client: TestClient, db: str) -> None:
    leaver, *others = (new_guest(client, db) for _ in range(5))
    make_leaver(db, leaver.id)
    joined = leaver.join()
    assert joined["countdown"] > 20.0  # a leaver's countdown is longer
    for other in others:
        assert other.join()["countdown"] == 20.0
    code = others[0].matched()
    for other in others:
        assert other.matched() == code
        assert other.table(code)["you"] is not None
    assert leaver.state()["status"] == "waiting"  # never with the others
    assert leaver.table(code)["you"] is None
    assert leaver.call("DELETE", "/api/pool").json() == {"status": "none"}


def test_a_suspended_player_is_refused(client: TestClient, db: str) -> None:
    person = new_guest(client, db)
    until = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    add_rows(db, Sanction(player=person.id, kind="suspend", reason="rude", until=until))
    r = person.call("POST", "/api/pool/mindi", json={})
    assert r.status_code == 403 and r.json()["error"]["code"] == "suspended"
    assert person.state() == {"status": "none"}


def test_leaving_the_queue(quick: TestClient, db: str) -> None:
    person = new_guest(quick, db)
    person.join()
    assert person.call("DELETE", "/api/pool").json() == {"status": "none"}
    assert person.state() == {"status": "none"}
    time.sleep(1.0)  # past the countdown: nobody made a table for the ticket that left
    assert person.state() == {"status": "none"}
    assert matchmaker(quick).made == 0


def test_queuing_again_moves_the_player(client: TestClient, db: str) -> None:
    person = new_guest(client, db)
    person.join("mindi")
    moved = person.join("band")
    assert moved["pool"] == "band" and moved["waiting"] == 1
    assert person.state()["pool"] == "band"
    assert person.join("ganjifa")["waiting"] == 1
    r = person.call("GET", "/api/pool")
    assert r.json()["pool"] == "ganjifa"


def test_a_player_is_never_at_two_tables(quick: TestClient, db: str) -> None:
    people = [new_guest(quick, db) for _ in range(6)]
    for person in people:
        person.join()
    for person in people:  # pressing again and again while waiting and once seated
        person.join()
    codes = [p.matched() for p in people]
    for person, code in zip(people, codes, strict=True):
        assert person.join("band") == {"status": "matched", "pool": "mindi", "code": code}
    seen: dict[str, str] = {}
    for code in set(codes):
        for person in people:
            you = person.table(code)["you"]
            if you is not None:
                assert person.id not in seen, "one player at two tables"
                seen[person.id] = code
    assert len(seen) == 6


def test_a_ticket_nobody_asks_about_leaves(client: TestClient, db: str) -> None:
    matchmaker(client).unseen = 0.5
    person, other = new_guest(client, db), new_guest(client, db)
    person.join()
    other.join()
    for _ in range(10):  # one asks every 0.1 s, the other never
        assert other.state()["status"] == "waiting"
        time.sleep(0.1)
    assert person.state() == {"status": "none"}  # it left unseen
    assert other.state()["waiting"] == 1


def test_bad_input(client: TestClient, db: str) -> None:
    person = new_guest(client, db)
    r = person.call("POST", "/api/pool/chess", json={})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_pool"
    r = client.post("/api/pool/mindi", json={})
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_session"
    r = person.call("POST", "/api/pool/mindi", json={"rating": 3000})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    for code in ("nope", "x" * 200, "AAAAAAAAAA", "../../etc"):
        r = person.call("GET", f"/api/parties/{code}")
        assert r.status_code == 404, code
        assert r.json()["error"]["code"] in {"unknown_party", "not_found"}
        r = person.call("POST", f"/api/parties/{code}/join")
        assert r.status_code in {404, 405}, code
    r = person.call("GET", "/api/pool?wait=26")
    assert r.status_code == 400
    assert person.state() == {"status": "none"}  # nothing changed


def test_once_the_match_is_over_the_player_may_queue_again(quick: TestClient, db: str) -> None:
    """A person alone with computer players plays the deal at the table the pool made (the
    seat follows the session: hello without a token); once the match is over the pool no
    longer sends them back to it, and the match is rated."""
    person = new_guest(quick, db)
    person.join()
    code = person.matched()
    headers = {"cookie": f"{COOKIE}={person.token}"}
    with quick.websocket_connect(f"/ws/{code}", headers=headers) as ws:
        ws.send_json(hello(None))
        play(ws, Player())
    assert person.table(code)["status"] == "over"
    assert person.state() == {"status": "none"}
    again = person.join()
    assert again["status"] == "waiting"
    assert person.matched() != code
    assert quick.portal is not None
    rater: Ratings = quick.app.state.ratings  # type: ignore[attr-defined]
    quick.portal.call(rater.settle)
    engine = create_engine(db)
    try:
        with Session(engine) as s:
            seats = s.scalars(select(RatedSeat).where(RatedSeat.room == code)).all()
    finally:
        engine.dispose()
    assert [r.player for r in seats if r.player is not None] == [person.id]


def test_a_long_poll_does_not_keep_the_server_from_stopping(tmp_path: Path) -> None:
    """``hukum serve`` stopped while a player's long poll waits: the poll is answered (still
    waiting) and the process ends, where uvicorn would otherwise wait for the poll's 25 s."""
    import subprocess
    import sys
    import threading

    import httpx2 as httpx

    from tests.server.web import free_port

    port = free_port()
    command = [sys.executable, "-m", "hukum", "serve", "--port", str(port), "--log-level"]
    command += ["warning", "--database-url", f"sqlite:///{tmp_path / 'db.sqlite'}"]
    proc = subprocess.Popen([*command, "--pool-countdown", "600"], cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    client = httpx.Client(base_url=base, headers={"Origin": base}, timeout=60)
    polled: dict[str, Any] = {}

    def poll() -> None:
        polled["answer"] = client.get("/api/pool?wait=25").json()

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                client.get("/api/rules")
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, "no server"
                time.sleep(0.2)
        assert client.post("/api/me/guest").status_code == 200
        assert client.post("/api/pool/mindi", json={}).json()["status"] == "waiting"
        waiter = threading.Thread(target=poll)
        waiter.start()
        time.sleep(1)  # the poll waits now
        proc.terminate()
        # Well before the poll's own end: the process stops because the poll answered.
        proc.wait(timeout=15)  # uvicorn stops, then dies of the signal it caught (-15)
        waiter.join(timeout=15)
        assert polled["answer"]["status"] == "waiting", polled
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_guessing_party_codes_or_queuing_past_the_limit_is_refused(db: str) -> None:
    """A player who tries party codes one after another (or presses a pool's button over and
    over) is refused ``too_many_requests`` with Retry-After once past their limit, and the
    refused request changes nothing."""
    rates = {"party": "3/minute", "pool": "2/minute"}
    app = create_app(db, bot_delay=0, pool_wave=0.1, rates=rates)
    with TestClient(app) as client:
        host, guesser = new_guest(client, db), new_guest(client, db)
        party = host.call("POST", "/api/parties").json()["party"]
        for code in ("aaaaaaaa", "bbbbbbbb", "cccccccc"):
            assert guesser.call("POST", f"/api/parties/{code}/join").status_code == 404
        r = guesser.call("POST", f"/api/parties/{party}/join")  # the right code, too late
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
        assert int(r.headers["Retry-After"]) > 0
        assert host.call("GET", f"/api/parties/{party}").json()["members"] == [host.name]
        assert guesser.join()["status"] == "waiting"
        assert guesser.call("DELETE", "/api/pool").status_code == 200
        assert guesser.join()["status"] == "waiting"
        guesser.call("DELETE", "/api/pool")
        r = guesser.call("POST", "/api/pool/mindi", json={})
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert guesser.state() == {"status": "none"}
