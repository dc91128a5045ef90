"""Issue 41, fair play: quick phrases and chat at a table (the ``say`` message, the ``said``
event), blocks (a blocked player's lines are not sent to the blocker), reports from a
finished table, and the moderators' sanctions (logged, lifted, the suspension they make).
Through the real app, its real database and real WebSockets.

Until the "seats" part stores each seat's player in its ``seat`` event, the tables whose
seats belong to players are written into the database as that part writes them
(``"player": "<id>"``), and the app loads them from there as it loads any table."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.testclient import WebSocketTestSession

from hukum.mindi import Rules
from hukum.online.fairplay import PHRASES, REASONS, blocked_pairs, may_sit_together
from hukum.server.app import create_app
from hukum.server.db import Store
from hukum.server.identity.models import Player, Sanction
from hukum.server.identity.sessions import COOKIE
from hukum.server.tables import TableConfig, new_code, talk
from hukum.server.tables.seats import token_hash
from hukum.server.throttle import Throttle
from tests.server.conftest import create, play
from tests.server.helpers import Player as Bot
from tests.server.helpers import seat_socket


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'fp.db'}", bot_delay=0)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """No wait between two lines of a seat (the rate's own test keeps it)."""
    monkeypatch.setattr(talk, "SAY_EVERY", 0.0)


def store(client: TestClient) -> Store:
    found: Store = client.app.state.store  # type: ignore[attr-defined]
    return found


def guest(client: TestClient, name: str) -> tuple[str, str]:
    """A new guest named ``name``: its player id and session token."""
    me, token = client.app.state.identities.new_guest()  # type: ignore[attr-defined]
    with store(client).session() as s:
        s.execute(update(Player).where(Player.id == me.id).values(name=name))
        s.commit()
    return me.id, token


def as_(client: TestClient, session: str | None) -> TestClient:
    """The client, its requests now from the browser of ``session`` (None: no session)."""
    client.cookies.clear()
    if session is not None:
        client.cookies.set(COOKIE, session)
    return client


def room(
    client: TestClient,
    seats: list[tuple[str, str | None] | None],
    *,
    chat: bool = False,
    over: bool = False,
) -> tuple[str, list[str]]:
    """A four-seat room written into the database: each seat a person ``(name, player)``
    with a token, or a bot (None); ``over``: its match over. Its code and the tokens."""
    code = new_code()
    config = TableConfig(Rules(), "classic", "random", None, chat=chat)
    db = store(client)
    assert db.create_room(code, config.to_dict())
    tokens: list[str] = []
    number = 0
    for i, seat in enumerate(seats):
        number += 1
        if seat is None:
            db.append(code, number, "seat", {"seat": i, "kind": "bot", "name": f"Bot{i}"})
            tokens.append("")
            continue
        name, player = seat
        token = secrets.token_hex(16)
        data: dict[str, Any] = {
            "seat": i,
            "kind": "human",
            "name": name,
            "token": token_hash(token),
        }
        if player is not None:
            data["player"] = player
        db.append(code, number, "seat", data)
        tokens.append(token)
    if over:
        db.append(code, number + 1, "match_over", {"scores": [0, 0], "winner": 0})
    return code, tokens


#: The messages each socket was told while :func:`answer` waited for an answer.
_HELD: dict[int, list[dict[str, Any]]] = {}


def said(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next ``said`` event a socket is told (other messages passed over)."""
    held = _HELD.setdefault(id(ws), [])
    while True:
        message: dict[str, Any] = held.pop(0) if held else ws.receive_json()
        if message.get("kind") == "said":
            return message
        assert message["type"] != "error", message


def answer(ws: WebSocketTestSession, message: dict[str, Any]) -> dict[str, Any]:
    """Send a message; the server's answer to it (its ack or error)."""
    ws.send_json({**message, "ref": "r"})
    held = _HELD.setdefault(id(ws), [])
    while True:
        got: dict[str, Any] = ws.receive_json()
        if got.get("ref") == "r" or (got["type"] == "error" and got.get("ref") is None):
            return got  # a message of the wrong shape is answered without its ref
        held.append(got)


# ------------------------------------------------------------ saying


def test_quick_phrases_by_key_and_no_free_text_where_chat_is_off(
    client: TestClient, quick: None
) -> None:
    made = create(client, name="Asha")
    assert client.get(f"/api/tables/{made['code']}").json()["chat"] is False
    with seat_socket(client, made["code"], made["token"]) as ws:
        assert ws.receive_json()["type"] == "state"
        for key in PHRASES:
            assert answer(ws, {"type": "say", "phrase": key})["type"] == "ack"
            told = said(ws)
            assert (told["seat"], told["phrase"], "text" in told) == (0, key, False)
        refused = answer(ws, {"type": "say", "text": "10S is trump"})
        assert refused["error"]["code"] == "chat_off"
        for bad in ({"phrase": "10S"}, {}, {"phrase": "gl", "text": "x"}, {"phrase": 7}):
            got = answer(ws, {"type": "say", **bad})
            assert got["error"]["code"] == "bad_message", bad
    kinds = [e.kind for e in store(client).events(made["code"])]
    assert kinds.count("said") == len(PHRASES)  # what was refused changed nothing


def test_free_text_where_the_creator_turned_chat_on(client: TestClient, quick: None) -> None:
    made = create(client, name="Asha", chat=True)
    assert client.get(f"/api/tables/{made['code']}").json()["chat"] is True
    with seat_socket(client, made["code"], made["token"]) as ws:
        ws.receive_json()
        line = "  <b>hi</b>\x00 there\u202e\n\n<script>x</script> "
        assert answer(ws, {"type": "say", "text": line})["type"] == "ack"
        told = said(ws)
        assert told["text"] == "<b>hi</b> there <script>x</script>"  # as text, escaped by pages
        assert answer(ws, {"type": "say", "text": "ਸਤ ਸ੍ਰੀ ਅਕਾਲ"})["type"] == "ack"
        assert said(ws)["text"] == "ਸਤ ਸ੍ਰੀ ਅਕਾਲ"
        for text, code in (("x" * 201, "text_too_long"), ("x" * 5000, "text_too_long")):
            assert answer(ws, {"type": "say", "text": text})["error"]["code"] == code
        assert answer(ws, {"type": "say", "text": " \x07 "})["error"]["code"] == "bad_message"
        assert answer(ws, {"type": "say", "text": "y" * 200})["type"] == "ack"
    talk_url = f"/api/tables/{made['code']}/talk"
    assert client.post(talk_url, json={}).json()["error"]["code"] == "no_spectators"
    assert client.post(talk_url, json={"token": "x" * 32}).status_code == 403
    lines = client.post(talk_url, json={"token": made["token"]}).json()["lines"]
    assert [(x["name"], x["text"][:9]) for x in lines] == [
        ("Asha", "<b>hi</b>"),
        ("Asha", "ਸਤ ਸ੍ਰੀ ਅਕਾਲ"[:9]),
        ("Asha", "y" * 9),
    ]


def test_one_line_every_two_seconds_per_seat(client: TestClient) -> None:
    made = create(client, name="Asha")
    with seat_socket(client, made["code"], made["token"]) as ws:
        ws.receive_json()
        assert answer(ws, {"type": "say", "phrase": "gl"})["type"] == "ack"
        refused = answer(ws, {"type": "say", "phrase": "gl"})["error"]
        assert refused["code"] == "rate_limited" and refused["retry_after"] >= 1
    assert [e.kind for e in store(client).events(made["code"])].count("said") == 1


class Quiet(Bot):
    """A scripted player that hears what is said and plays on (it decides on the play's
    events, as the page does, not again on a ``said`` one)."""

    def feed(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        if message.get("kind") == "said":
            self.log.append(message)
            return []
        return super().feed(message)


def test_talk_keeps_the_play_going_and_the_records_whole(client: TestClient, quick: None) -> None:
    """A ``said`` event between moves: the bots still move, the match is played out, the
    record, the replay of a deal and the fairness commitments are those of the play."""
    made = create(
        client, name="Asha", start_now=True, bots="random", options={"deals": 1, "target": None}
    )
    code = made["code"]
    with seat_socket(client, code, made["token"]) as ws:
        player = Quiet()
        for out in player.feed(ws.receive_json()):
            ws.send_json(out)
        ws.send_json({"type": "say", "phrase": "gl"})
        play(ws, player, moves=2)
        ws.send_json({"type": "say", "phrase": "oops"})
        play(ws, player)
        assert player.match_over and not player.errors
        assert answer(ws, {"type": "say", "phrase": "wp"})["type"] == "ack"
    kinds = [e.kind for e in store(client).events(code)]
    assert kinds.count("said") == 3 and kinds[-1] == "said"
    record = client.get(f"/api/tables/{code}/record")
    assert record.status_code == 200 and record.json()["deals"]
    assert client.get(f"/api/tables/{code}/deals/1").status_code == 200
    talk_url = f"/api/tables/{code}/talk"
    assert [
        x["phrase"] for x in client.post(talk_url, json={"token": made["token"]}).json()["lines"]
    ] == [
        "gl",
        "oops",
        "wp",
    ]


def test_a_watcher_sees_the_phrases_and_says_nothing(client: TestClient) -> None:
    made = create(client, name="Asha", spectators=True)
    with (
        seat_socket(client, made["code"], made["token"]) as ws,
        seat_socket(client, made["code"], None, watch=True) as watcher,
    ):
        ws.receive_json()
        watcher.receive_json()
        assert answer(watcher, {"type": "say", "phrase": "gl"})["error"]["code"] == "watcher"
        answer(ws, {"type": "say", "phrase": "thanks"})
        assert said(watcher)["phrase"] == "thanks"


# ------------------------------------------------------------ blocks


def test_a_blocked_players_lines_are_not_sent_to_the_blocker(
    client: TestClient, quick: None
) -> None:
    asha, asha_s = guest(client, "Asha")
    ravi, ravi_s = guest(client, "Ravi")
    meena, meena_s = guest(client, "Meena")
    code, tokens = room(client, [("Asha", asha), ("Ravi", ravi), ("Meena", meena), None])
    r = as_(client, asha_s).post("/api/blocks", json={"table": code, "seat": 1})
    assert r.status_code == 200, r.text
    handle = r.json()["block"]["handle"]
    assert r.json()["block"]["name"] == "Ravi" and ravi not in handle
    listed = client.get("/api/blocks", params={"table": code}).json()
    assert listed["seats"] == [{"seat": 1, "handle": handle}]
    assert [(b["name"], b["handle"]) for b in listed["blocks"]] == [("Ravi", handle)]
    assert ravi not in str(listed) and asha not in str(listed)
    # Blocking again changes nothing.
    assert (
        client.post("/api/blocks", json={"table": code, "seat": 1}).json()["block"]["handle"]
        == handle
    )
    assert len(client.get("/api/blocks").json()["blocks"]) == 1

    as_(client, asha_s)
    with seat_socket(client, code, tokens[0]) as a:
        as_(client, meena_s)
        with seat_socket(client, code, tokens[2]) as m:
            as_(client, ravi_s)
            with seat_socket(client, code, tokens[1]) as r_ws:
                for ws in (a, m, r_ws):
                    ws.receive_json()
                answer(r_ws, {"type": "say", "phrase": "oops"})
                answer(m, {"type": "say", "phrase": "gl"})
                hidden, shown = said(a), said(m)
                assert hidden["seat"] == 1 and hidden["hidden"] is True
                assert "phrase" not in hidden and "text" not in hidden
                assert shown["phrase"] == "oops" and "hidden" not in shown
                assert said(a)["phrase"] == "gl"  # Meena's line reaches Asha

    def talk_of(session: str | None) -> list[str]:
        lines = as_(client, session).post(f"/api/tables/{code}/talk", json={}).json()["lines"]
        return [f"{x['name']}:{x['phrase']}" for x in lines]

    assert talk_of(asha_s) == ["Meena:gl"]
    assert talk_of(meena_s) == ["Ravi:oops", "Meena:gl"]
    r = as_(client, guest(client, "Stranger")[1]).post(f"/api/tables/{code}/talk", json={})
    assert r.json()["error"]["code"] == "no_spectators"  # the room allows no watchers
    # Unblocked, Ravi is heard again.
    assert as_(client, asha_s).delete(f"/api/blocks/{handle}").status_code == 200
    assert client.delete(f"/api/blocks/{handle}").json()["error"]["code"] == "not_found"
    assert talk_of(asha_s) == ["Ravi:oops", "Meena:gl"]


def test_who_may_be_blocked(client: TestClient) -> None:
    asha, asha_s = guest(client, "Asha")
    code, _ = room(client, [("Asha", asha), ("Ravi", None), None, ("Tara", guest(client, "T")[0])])
    as_(client, None)
    assert client.post("/api/blocks", json={"table": code, "seat": 3}).status_code == 401
    as_(client, asha_s)
    for body, code_ in (
        ({"table": code, "seat": 0}, "yourself"),
        ({"table": code, "seat": 1}, "not_a_player"),  # a seat taken without a session
        ({"table": code, "seat": 2}, "not_a_player"),  # a bot
        ({"table": "nope", "seat": 3}, "unknown_table"),
        ({"table": code, "seat": -1}, "bad_request"),
    ):
        assert client.post("/api/blocks", json=body).json()["error"]["code"] == code_, body
    assert client.get("/api/blocks").json()["blocks"] == []


def test_blocked_pairs_for_the_matchmaker() -> None:
    pairs = blocked_pairs([("a", "b"), ("c", "a"), ("b", "a"), ("d", "d")])
    assert pairs == {frozenset("ab"), frozenset("ac")}
    assert may_sit_together(["b", "c", "d"], pairs)
    assert not may_sit_together(["d", "c", "a"], pairs)


# ------------------------------------------------------------ reports


def test_report_rules(client: TestClient) -> None:
    asha, asha_s = guest(client, "Asha")
    ravi, ravi_s = guest(client, "Ravi")
    _, stranger_s = guest(client, "Stranger")
    seats: list[tuple[str, str | None] | None] = [("Asha", asha), ("Ravi", ravi), None, None]
    playing, _ = room(client, seats)
    over, _ = room(client, seats, over=True)
    as_(client, asha_s)

    def report(**body: Any) -> Any:
        return client.post("/api/reports", json={"reason": "abuse", **body})

    assert report(table=playing, seat=1).json()["error"]["code"] == "not_over"
    assert report(table=over, seat=2).json()["error"]["code"] == "not_a_player"
    assert report(table=over, seat=0).json()["error"]["code"] == "yourself"
    assert report(table=over, seat=1, reason="rude").json()["error"]["code"] == "bad_request"
    assert report(table=over, seat=1, note="x" * 501).json()["error"]["code"] == "bad_request"
    assert (
        as_(client, stranger_s)
        .post("/api/reports", json={"table": over, "seat": 1, "reason": "other"})
        .json()["error"]["code"]
        == "not_at_table"
    )
    as_(client, asha_s)
    r = report(table=over, seat=1, note="  said  rude things ")
    assert r.status_code == 200, r.text
    assert report(table=over, seat=1, reason="cheating").json()["error"]["code"] == (
        "already_reported"
    )
    # Ravi reports Asha: a report each; then the hour's limit.
    client.app.state.throttle = Throttle(rates={"report": "1/hour"})  # type: ignore[attr-defined]
    as_(client, ravi_s)
    assert report(table=over, seat=0, reason="stalling").status_code == 200
    another, _ = room(client, seats, over=True)
    limited = report(table=another, seat=0)
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "too_many_requests"
    assert int(limited.headers["retry-after"]) >= 1
    assert set(REASONS) == {"cheating", "abuse", "stalling", "bad_name", "other"}


# ------------------------------------------------------------ moderators


def make_moderator(client: TestClient, player: str, username: str) -> None:
    with store(client).session() as s:
        s.execute(
            update(Player)
            .where(Player.id == player)
            .values(username=username, username_key=username.casefold(), role="moderator")
        )
        s.commit()


def test_moderators_sanction_and_lift_and_the_player_sees_why(
    client: TestClient, quick: None
) -> None:
    asha, asha_s = guest(client, "Asha")
    ravi, ravi_s = guest(client, "Ravi")
    mod, mod_s = guest(client, "Mod")
    code, _ = room(client, [("Asha", asha), ("Ravi", ravi), None, None], over=True)
    store(client).append(code, 6, "said", {"seat": 1, "text": "<i>rude</i>"})
    as_(client, asha_s).post(
        "/api/reports", json={"table": code, "seat": 1, "reason": "abuse", "note": "rude"}
    )
    # Nobody but a moderator.
    assert as_(client, None).get("/api/moderation/reports").status_code == 401
    for who in (asha_s, mod_s):
        r = as_(client, who).get("/api/moderation/reports")
        assert (r.status_code, r.json()["error"]["code"]) == (403, "not_moderator")
    make_moderator(client, mod, "mod")
    reports = as_(client, mod_s).get("/api/moderation/reports").json()["reports"]
    assert len(reports) == 1
    one = reports[0]
    assert (one["reported"]["name"], one["reporter"], one["reason"], one["note"]) == (
        "Ravi",
        "Asha",
        "abuse",
        "rude",
    )
    assert (one["record"], one["board"], one["seat"]) == (f"/t/{code}", f"/t/{code}/deals/1", 1)
    assert [x["text"] for x in one["talk"]] == ["<i>rude</i>"]
    assert ravi not in str(one) and asha not in str(one)
    number = one["id"]

    def act(**body: Any) -> Any:
        return as_(client, mod_s).post(f"/api/moderation/reports/{number}/sanctions", json=body)

    assert act(kind="suspend", reason="x").json()["error"]["code"] == "bad_request"
    assert act(kind="warn", reason="x", days=2).json()["error"]["code"] == "bad_request"
    assert act(kind="warn", reason="").json()["error"]["code"] == "bad_request"
    warned = act(kind="warn", reason="Be kind at the table")
    assert warned.status_code == 200 and warned.json()["sanction"]["by"] == "Mod"
    mine = as_(client, ravi_s).get("/api/me/sanctions").json()
    assert [(x["kind"], x["reason"]) for x in mine["sanctions"]] == [
        ("warn", "Be kind at the table")
    ]
    assert mine["suspension"] is None

    suspended = act(kind="suspend", reason="Abusive messages", days=3).json()["sanction"]
    until = dt.datetime.fromisoformat(suspended["until"])
    assert dt.timedelta(days=2.9) < until - dt.datetime.now(dt.UTC) < dt.timedelta(days=3.1)
    me = as_(client, ravi_s).get("/api/me").json()["player"]
    assert me["suspension"] == {"reason": "Abusive messages", "until": suspended["until"]}
    identities = client.app.state.identities  # type: ignore[attr-defined]
    assert identities.by_token(ravi_s).suspension.reason == "Abusive messages"

    # Lifted, with a reason: logged, and the suspension ends.
    lift = f"/api/moderation/sanctions/{suspended['id']}/lift"
    assert as_(client, ravi_s).post(lift, json={"reason": "x"}).status_code == 403
    assert as_(client, mod_s).post(lift, json={"reason": "Appeal heard"}).status_code == 200
    assert client.post(lift, json={"reason": "again"}).json()["error"]["code"] == "already_lifted"
    assert as_(client, ravi_s).get("/api/me").json()["player"]["suspension"] is None
    with store(client).session() as s:
        row = s.get(Sanction, suspended["id"])
        assert row is not None and row.lifted_by == mod and row.lift_reason == "Appeal heard"
        assert row.moderator == mod and row.reason == "Abusive messages"

    # Closed for good: no end.
    act(kind="close", reason="Repeated abuse")
    assert as_(client, ravi_s).get("/api/me").json()["player"]["suspension"] == {
        "reason": "Repeated abuse",
        "until": None,
    }
    logged = as_(client, mod_s).get(f"/api/moderation/reports/{number}").json()["report"]
    assert [x["kind"] for x in logged["sanctions"]] == ["warn", "suspend", "close"]
    assert logged["sanctions"][1]["lift_reason"] == "Appeal heard"
    closed = client.post(f"/api/moderation/reports/{number}/close").json()["report"]
    assert closed["closed"] is not None
    assert client.get("/api/moderation/reports").json()["reports"] == []
    assert len(client.get("/api/moderation/reports?closed=true").json()["reports"]) == 1
    assert client.get("/api/moderation/reports/999").json()["error"]["code"] == "not_found"
    with store(client).session() as s:
        kinds = s.scalars(select(Sanction.kind).order_by(Sanction.id)).all()
    assert kinds == ["warn", "suspend", "close"]  # every action kept


def test_seats_taken_with_sessions_are_blocked_and_muted(client: TestClient) -> None:
    """The seats part's own way: a session that makes a room or takes a seat is that
    seat's player (its ``seat`` event keeps it), whom the others may block."""
    _, asha_s = guest(client, "Asha")
    _, ravi_s = guest(client, "Ravi")
    made = as_(client, asha_s).post("/api/tables", json={"name": "Asha"}).json()
    code = made["code"]
    ravi_token = as_(client, ravi_s).post(f"/api/tables/{code}/seats/1", json={}).json()["token"]
    r = as_(client, asha_s).post("/api/blocks", json={"table": code, "seat": 1})
    assert r.status_code == 200, r.text
    assert r.json()["block"]["name"] == "Ravi"
    assert client.post("/api/blocks", json={"table": code, "seat": 0}).json()["error"]["code"] == (
        "yourself"
    )
    with seat_socket(client, code, made["token"]) as a:
        a.receive_json()
        as_(client, ravi_s)
        with seat_socket(client, code, ravi_token) as r_ws:
            r_ws.receive_json()
            answer(r_ws, {"type": "say", "phrase": "gl"})
            assert said(r_ws)["phrase"] == "gl"
        told = said(a)
        assert told["hidden"] is True and "phrase" not in told
