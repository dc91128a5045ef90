"""Watchers (docs/protocol.md, "watchers"): a room made with ``"spectators": true`` may be
followed by connections that hold no seat. A watcher is told every event, built for no
seat: the public table and the public view of the deal (cards played, whose turn, trump
once it is public, counts of cards in hands, scores), never a card of a hand before it is
played or shown, a face-down trump before it is turned up, legal moves, or a seed before
its deal is over. A watcher sends nothing but ping, is nobody at the table (the table still
pauses) and is refused where the room does not allow watchers."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hukum.games import game_named
from tests.server.conftest import create, play
from tests.server.helpers import (
    CARD,
    GANJIFA_CARD,
    Player,
    hello,
    seat_socket,
    shown_in,
    strings,
)
from tests.server.test_ganjifa import choose as ganjifa_choose
from tests.server.test_hello import refused
from tests.server.test_pause import on_server, table_of, until_paused

#: Keys whose values are never a card of the deal, though they may read like one.
NOT_CARDS = ("name", "code", "commitment", "seed")


def watch_hello(last: int | None = None) -> dict[str, Any]:
    """A watcher's first message: no token."""
    return hello(None, last, watch=True)


class Watching:
    """A watcher's socket whose ``presence`` messages (a seat's connection opened or ended,
    told between events) are set aside in :attr:`presence`, each checked to hold nothing
    but the seats' flags: what it reads are the state and the events."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.presence: list[list[bool]] = []

    def send_json(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive_json(self) -> Any:
        while True:
            message = self.ws.receive_json()
            if message.get("type") != "presence":
                return message
            assert set(message) == {"type", "event", "connected"}, message
            self.presence.append(message["connected"])


@contextmanager
def watcher_socket(client: TestClient, code: str, last: int | None = None) -> Iterator[Watching]:
    """A TestClient socket watching table ``code``, its hello sent."""
    with seat_socket(client, code, None, last, watch=True) as ws:
        yield Watching(ws)


def check_no_watcher_leaks(log: list[dict[str, Any]]) -> int:
    """Check every message a watcher received: the view of no seat (no hand, no legal move,
    no face-down card); no card of any hand before it is played or shown (a face-down card
    reads ``hide ??``); no trump, and no play marked a trump, before trump is public; no
    seed before the deal is over; no deck, tokens or match seed. The number of finished
    deals checked."""
    deals: dict[int, list[dict[str, Any]]] = {}
    for message in log:
        for key in ("hands", "deck", "dealt", "match_seed", "token"):
            assert key not in str(list(message)), message
        view = message.get("view")
        if view is None:
            continue
        assert view["seat"] is None, view
        assert not view.get("hand") and not view.get("legal") and not view.get("allowed"), view
        assert view.get("face_down") is None, view
        if "trump_known" in view and not view["trump_known"]:  # Mindi, trump not public
            assert view["trump"] is None, view
            plays = [*view["trick"], *((view["last_trick"] or {}).get("plays") or [])]
            assert not any(p["trump"] for p in plays), view
        deals.setdefault(view["deal_number"], []).append(message)
    checked = 0
    for messages in deals.values():
        ganjifa = messages[0]["view"]["game"] == "ganjifa"
        card = GANJIFA_CARD if ganjifa else CARD
        public: set[str] = set()
        over = False
        for m in messages:
            v = m["view"]
            if m.get("kind") == "deal_over" or v.get("outcome") is not None:
                over = True
                break  # the deal is over: its cards and seed are public
            assert m.get("seed") is None and v["seed"] is None, f"seed before the end: {m}"
            if m.get("kind") == "move":
                words = m["move"].split()
                if words[0] == "hide":
                    assert words == ["hide", "??"], m  # the face-down card is nobody's to see
                public.update(w for w in words if card.match(w))
            public.update(shown_in(m))
            for key, text in strings(m):
                if key in NOT_CARDS:
                    continue
                for word in text.split():
                    assert not card.match(word) or word in public, (word, key, m)
        checked += over
    return checked


def read_until(ws: Watching, kind: str) -> list[dict[str, Any]]:
    """Every message until (and with) the first event of ``kind``."""
    log: list[dict[str, Any]] = []
    while not log or log[-1].get("kind") != kind:
        log.append(ws.receive_json())
    return log


def mindi_last(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal"]
    return legal[-1]


class Paced:
    """A socket whose messages go out at most 25 a second: a whole Ganjifa match played at
    full speed would outrun the rate limit (40 in a burst, 20 a second)."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws

    def send_json(self, message: dict[str, Any]) -> None:
        time.sleep(0.04)
        self.ws.send_json(message)

    def receive_json(self) -> Any:
        return self.ws.receive_json()


CASES: list[tuple[str, str | None, dict[str, Any], Callable[[dict[str, Any]], str]]] = [
    ("mindi", "hidden", {}, mindi_last),  # band hukum: a face-down trump, turned up at a void
    ("mindi", "hidden", {"reveal": "on_request"}, mindi_last),
    ("mindi", "classic", {}, mindi_last),
    ("mindi", "dehla-pakad", {}, mindi_last),
    ("ganjifa", None, {"time": "night"}, ganjifa_choose),
]


@pytest.mark.parametrize(("game", "preset", "options", "choose"), CASES)
def test_a_watcher_follows_a_whole_match_and_sees_no_hidden_card(
    client: TestClient,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    choose: Callable[[dict[str, Any]], str],
) -> None:
    deals = 2
    length = {"deals": deals} if game == "ganjifa" else {"deals": deals, "target": None}
    made = create(
        client,
        game=game,
        preset=preset,
        options={**options, **length},
        bots="random",
        start_now=True,
        spectators=True,
    )
    code = made["code"]
    assert client.get(f"/api/tables/{code}").json()["spectators"] is True
    player = Player(choose=choose)
    with watcher_socket(client, code) as watcher:
        first = watcher.receive_json()
        assert first["type"] == "state" and first["view"]["seat"] is None
        assert first["table"]["seats"][0]["connected"] is False  # a watcher is nobody
        with seat_socket(client, code, made["token"]) as ws:
            play(ws if game == "mindi" else Paced(ws), player)
        log = [first, *read_until(watcher, "match_over")]
    assert player.match_over and not player.errors, player.errors
    assert watcher.presence[0][0] is True  # told at once that the seat connected
    # Every event, once, in order; as many as the seat was told.
    numbers = [m["event"] for m in log]
    assert numbers == list(range(first["event"], first["event"] + len(log)))
    assert numbers[-1] == player.log[-1]["event"] or player.log[-1]["type"] == "ack"
    assert check_no_watcher_leaks(log) == deals
    # The check is not vacuous: the seat's own messages show its hand.
    with pytest.raises(AssertionError):
        check_no_watcher_leaks(player.log)
    # What the watcher was told matches the seat's messages in everything public.
    seat_events = {m["event"]: m for m in player.log if m["type"] == "event"}
    for m in log[1:]:
        mine = seat_events[m["event"]]
        assert m["kind"] == mine["kind"] and m["table"]["scores"] == mine["table"]["scores"]
        assert m["view"]["hand_sizes"] == mine["view"]["hand_sizes"]
        assert m["view"]["trick"] == mine["view"]["trick"]
        assert m["view"]["turn"] == mine["view"]["turn"]
        if m["kind"] == "move" and not mine["move"].startswith("hide"):
            assert m["move"] == mine["move"]
        if game == "mindi" and mine["view"]["trump_known"]:
            assert m["view"]["trump"] == mine["view"]["trump"]
    # Once a deal is over it is public: its seed, its outcome.
    ends = [m for m in log if m.get("kind") == "deal_over"]
    assert len(ends) == deals and all(m["view"]["seed"] == m["seed"] for m in ends)
    assert all(m["view"]["outcome"] is not None for m in ends)
    if preset == "hidden":  # the face-down card was laid, and read "hide ??"
        hides = [m for m in log if m.get("kind") == "move" and m["move"].startswith("hide")]
        assert len(hides) == deals and all(m["move"] == "hide ??" for m in hides)
        views = [m["view"] for m in log if m["view"] is not None]
        assert any(v["face_down_placed"] and not v["trump_known"] for v in views)
        if not options:  # turned up at the first void: then trump is public
            turned = [v for v in views if v["reveal"] is not None and v["outcome"] is None]
            assert turned and all(v["trump_known"] and v["trump"] for v in turned)
    # A watcher that comes back with the last event it saw is told the events it missed,
    # exactly as it was told them live (rebuilt from the log), and no hidden card either.
    since = max(first["event"] + 5, numbers[-1] - 150)  # at most 200 are sent one by one
    with watcher_socket(client, code, last=since) as again:
        missed = [again.receive_json() for _ in range(numbers[-1] - since)]
    assert [m["event"] for m in missed] == numbers[numbers.index(since) + 1 :]

    def plain(m: dict[str, Any]) -> dict[str, Any]:
        return {**m, "table": {**m["table"], "seats": None}}  # "connected": those of now

    assert [plain(m) for m in missed] == [plain(m) for m in log[numbers.index(since) + 1 :]]
    # And one that comes late is sent the state of now: the finished match, all public.
    with watcher_socket(client, code) as late:
        state = late.receive_json()
    assert state["type"] == "state" and state["table"]["status"] == "over"
    assert state["view"]["seed"] is not None and state["view"]["hand"] == []


def test_a_public_view_holds_no_card_of_a_hand_from_the_start() -> None:
    # Band hukum after the card is laid face down: no seat's view but the chooser's has it
    # (nor the trump), and the public view has neither; every hand is out of it.
    spec = game_named("mindi")
    deal = spec.new_match(spec.make_rules("hidden"), seed=5).start_deal()
    chooser = deal.chooser
    face_down = deal.legal_moves()[0]
    deal.push(face_down)
    public = spec.public_view_to_dict(deal)
    assert public["seat"] is None and public["hand"] == [] and public["legal"] == []
    assert public["face_down"] is None and public["trump"] is None
    assert public["face_down_placed"] is True and public["chooser"] == chooser
    assert public["hand_sizes"] == spec.view_to_dict(deal.view(0))["hand_sizes"]
    text = str(public)
    for seat in range(4):
        for card in deal.hand(seat).codes():
            assert re.search(rf"'{card}'", text) is None, card
    assert str(face_down).split()[-1] not in text
    # Ganjifa: nothing of the 120 cards in the hands.
    g = game_named("ganjifa")
    gdeal = g.new_match(g.make_rules(), seed=5).start_deal()
    gpublic = g.public_view_to_dict(gdeal)
    assert gpublic["hand"] == [] and gpublic["legal"] == [] and gpublic["allowed"] == []
    assert gpublic["hand_sizes"] == [40, 40, 40] and gpublic["seat"] is None
    assert not [w for _, s in strings(gpublic) for w in s.split() if GANJIFA_CARD.match(w)]


def test_a_room_that_allows_no_watchers_refuses_them(client: TestClient) -> None:
    made = create(client, start_now=True)
    assert client.get(f"/api/tables/{made['code']}").json()["spectators"] is False
    with watcher_socket(client, made["code"]) as ws:
        assert refused(ws.ws) == ("no_spectators", 4403)
    # A watch that is not true or false is no hello.
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_json({"type": "hello", "watch": "yes"})
        assert refused(ws) == ("bad_message", 4400)


def test_a_watcher_sends_nothing_but_ping(client: TestClient) -> None:
    made = create(client, start_now=True, spectators=True)
    code = made["code"]
    with watcher_socket(client, code) as ws:
        state = ws.receive_json()
        event = state["event"]
        turn = state["view"]["turn"]
        messages: list[dict[str, Any]] = [
            {"type": "move", "move": "2C", "ref": 1, "seat": turn},
            {"type": "move", "move": "2C", "ref": 2},
            {"type": "next_deal", "ref": 3},
            {"type": "take_back", "ref": 4},
            {"type": "rematch", "ref": 5},
        ]
        for n, message in enumerate(messages, start=1):
            ws.send_json(message)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["ref"] == n, answer
            assert answer["error"]["code"] == "watcher"
        ws.send_json({"type": "ping", "ref": 6})
        assert ws.receive_json() == {"type": "pong", "ref": 6}
    # Nothing changed, and a token sent with a watcher's hello gives it no seat either.
    assert client.get(f"/api/tables/{code}").json()["event"] == event
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "watch": True, "token": made["token"]})
        state = ws.receive_json()
        assert state["view"]["seat"] is None and state["view"]["hand"] == []
        ws.send_json({"type": "next_deal", "ref": 1})
        assert ws.receive_json()["error"]["code"] == "watcher"
        assert not client.get(f"/api/tables/{code}").json()["seats"][0]["connected"]


def test_watchers_do_not_keep_a_table_going(client: TestClient) -> None:
    made = create(client, start_now=True, spectators=True, turn_timeout=1, options={"deals": 1})
    code = made["code"]
    table = table_of(client, made)
    with watcher_socket(client, code) as watcher:
        state = watcher.receive_json()
        # Nobody seated is connected: the table waits, watched or not.
        until_paused(client, table)
        time.sleep(1.2)  # a turn would have timed out by now
        assert on_server(client, lambda: table.event) == state["event"]
        assert on_server(client, lambda: (table.watchers, table.present())) == (1, False)
        # A person comes and plays; the watcher is told; the person leaves: it pauses again.
        player = Player()
        with seat_socket(client, code, made["token"]) as ws:
            play(ws, player, moves=2)
        until_paused(client, table)
        paused = on_server(client, lambda: table.event)
        time.sleep(1.2)
        assert on_server(client, lambda: table.event) == paused
        told = [watcher.receive_json() for _ in range(paused - state["event"])]
        assert told[-1]["event"] == paused
        assert sum(m.get("kind") == "move" and m["seat"] == 0 for m in told) == 2
        # Seats are never a watcher's: no "connected" seat, no seat in the table for it.
        table_now = client.get(f"/api/tables/{code}").json()
        assert not any(s["connected"] for s in table_now["seats"]) and len(table_now["seats"]) == 4
    assert on_server(client, lambda: table.watchers) == 0


def test_old_rooms_allow_no_watchers() -> None:
    from hukum.server.tables import TableConfig

    config = TableConfig(game_named("mindi").make_rules())
    stored = config.to_dict()
    assert stored["spectators"] is False
    del stored["spectators"]  # a room stored before watchers existed
    assert TableConfig.from_dict(stored).spectators is False
    assert TableConfig.from_dict({**stored, "spectators": True}).spectators is True


def test_a_game_without_its_own_public_view_is_watched_move_by_move(client: TestClient) -> None:
    # High Card (tests/toygame.py) has no public view of its own: the spec's default shows
    # the moves as anyone may see them, and never a hand.
    from hukum.games import GAMES
    from tests.toygame import NAME, SPEC

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, NAME, SPEC)
        made = create(client, game=NAME, bots="high", start_now=True, spectators=True)
        player = Player()
        with watcher_socket(client, made["code"]) as watcher:
            first = watcher.receive_json()
            with seat_socket(client, made["code"], made["token"]) as ws:
                play(ws, player)
            log = [first, *read_until(watcher, "match_over")]
    assert player.match_over and not player.errors
    moves: list[str] = []
    for m in log:
        if m.get("kind") == "deal":
            moves = []
        if m.get("kind") == "move":
            moves.append(m["move"])
        view = m["view"]
        if view is None:
            continue
        assert view["seat"] is None and "hand" not in view and "legal" not in view
        assert [p["move"] for p in view["moves"]] == moves  # the cards played, no others
    end = next(m for m in log if m.get("kind") == "deal_over")
    assert end["view"]["outcome"]["text"] and len(end["view"]["moves"]) == 10
