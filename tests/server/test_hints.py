"""Move suggestions (docs/protocol.md, "hints"): ``{"type": "hint"}`` is answered with the
game's strongest bot's move for the seat's turn and why in one line, worked out from that
seat's view alone; only where the room allows hints or the asking person is alone with
bots; never for a watcher, out of turn or between deals; a few at once per process and one
at a time per seat (``busy``); and the table is left exactly as it was."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hukum.games import game_named
from hukum.server.cluster import Cluster as ClusterProcess
from hukum.server.db import Store, make_engine, migrate
from hukum.server.tables import Registry, Replica, Table, TableConfig
from hukum.server.tables.hints import allowed
from tests.server.conftest import create
from tests.server.helpers import CARD, GANJIFA_CARD, seat_socket
from tests.server.test_pause import on_server, snapshot, table_of
from tests.server.test_restart import run

ONE_DEAL = {"deals": 1, "target": None}
SYMBOL_CARD = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def named(text: str) -> set[str]:
    """The cards a hint's text names: engine codes (``10D``, ``RaM``) and Mindi's symbols
    (``10♦``)."""
    cards = {rank + LETTER[suit] for rank, suit in SYMBOL_CARD.findall(text)}
    for word in re.split(r"[\s,:;()]+", text):
        if CARD.match(word) or GANJIFA_CARD.match(word):
            cards.add(word)
    return cards


class Seen:
    """The cards one seat has seen in the deal so far, from the messages it was sent: its
    hand, every card played or given up, its own face-down card, a card shown to all."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.view: dict[str, Any] | None = None
        self.latest: dict[str, Any] | None = None
        """The last ``state`` or ``event`` message with a view."""

    def feed(self, message: dict[str, Any]) -> None:
        if message.get("type") not in ("state", "event"):
            return
        if message.get("kind") == "deal":
            self.public = set()
        view = message.get("view")
        if view is not None:
            self.view, self.latest = view, message
            for p in [*view.get("trick", []), *((view.get("last_trick") or {}).get("plays", []))]:
                self.public.update(p.get("cards") or [p["card"]])
            for key in ("shown_card", "face_down"):
                if view.get(key):
                    self.public.add(view[key])
            if view.get("reveal"):
                self.public.add(view["reveal"]["card"])
        if message.get("kind") == "move":
            self.public.update(w for w in message["move"].split() if named(w))

    def cards(self) -> set[str]:
        assert self.view is not None
        return self.public | set(self.view["hand"])

    def check(self, hint: dict[str, Any]) -> None:
        """The hint names no card this seat has not seen."""
        shown = named(hint["move"]) | named(hint["why"])
        assert shown <= self.cards(), (hint, shown - self.cards())


def test_the_leak_check_catches_a_card_not_seen() -> None:
    seen = Seen()
    seen.feed({"type": "state", "view": {"hand": ["10D", "4D"], "trick": [{"card": "AD"}]}})
    seen.check({"move": "4D", "why": "keeps the 10♦ safe: the A♦ wins"})
    with pytest.raises(AssertionError):
        seen.check({"move": "4D", "why": "the K♠ is with the opponents"})
    with pytest.raises(AssertionError):
        seen.check({"move": "give RaR Ra9", "why": ""})


def answer(ws: WebSocketTestSession, seen: Seen | None = None) -> dict[str, Any]:
    """The next message that answers a request (a hint, an ack or an error), the events
    before it fed to ``seen``."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("hint", "ack", "error", "pong"):
            return message
        if seen is not None:
            seen.feed(message)


def until_turn(
    ws: WebSocketTestSession, seen: Seen, seats: tuple[int, ...] = (0,), after: int = -1
) -> dict[str, Any]:
    """Read messages until, after event ``after``, one of ``seats`` is to move or the deal
    is over; that message (it may have come already, before an ack)."""
    while True:
        latest = seen.latest
        if latest is not None and latest["event"] > after:
            view = latest["view"]
            if view["outcome"] is not None or view["turn"] in seats:
                return latest
        seen.feed(ws.receive_json())


def hint(ws: WebSocketTestSession, seen: Seen | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hint", "ref": "h"})
    return answer(ws, seen)


def played(table: Table) -> tuple[Any, ...]:
    """Where the table stands: its event, deal, trick, and every move of the deal."""
    assert table.deal is not None
    return (*snapshot(table), *table.deal.history)


def test_a_lone_player_is_given_a_hint_and_the_table_does_not_change(client: TestClient) -> None:
    made = create(client, start_now=True, bots="random", turn_timeout=None, options=ONE_DEAL)
    table = table_of(client, made)
    seen = Seen()
    with seat_socket(client, made["code"], made["token"]) as ws:
        latest = until_turn(ws, seen)
        before = client.get(f"/api/tables/{made['code']}").json()
        state = on_server(client, lambda: played(table))
        stored = len(table.store.events(made["code"]))
        got = hint(ws)
        assert got["type"] == "hint", got
        assert got["ref"] == "h" and got["event"] == latest["event"]
        assert got["move"] in latest["view"]["legal"]
        assert got["why"] and "\n" not in got["why"]
        seen.check(got)
        # Nothing happened: no event, nothing stored, the deal as it was.
        assert client.get(f"/api/tables/{made['code']}").json() == before
        assert on_server(client, lambda: played(table)) == state
        assert len(table.store.events(made["code"])) == stored
        # Asked again in the same position: the same suggestion.
        assert hint(ws) == got
        # The player still plays the move, as any other.
        ws.send_json({"type": "move", "move": got["move"], "event": got["event"], "ref": 1})
        assert answer(ws, seen)["type"] == "ack"


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        ("mindi", "classic", {}),
        ("mindi", "hidden", {}),
        ("mindi", "hidden", {"reveal": "on_request"}),
        ("mindi", "dehla-pakad", {}),
        ("ganjifa", None, {}),
    ],
)
def test_hints_through_a_deal_are_legal_and_show_only_what_the_seat_has_seen(
    client: TestClient, game: str, preset: str | None, options: dict[str, Any]
) -> None:
    """A whole deal (Ganjifa: a dozen turns) played by taking every suggestion."""
    body: dict[str, Any] = {"game": game, "options": {**options, "deals": 1}}
    if preset is not None:
        body.update(preset=preset, options={**options, **ONE_DEAL})
    made = create(client, start_now=True, bots="random", turn_timeout=None, **body)
    seen = Seen()
    taken = 0
    with seat_socket(client, made["code"], made["token"]) as ws:
        latest: dict[str, Any] = {"event": -1}
        while taken < 14:
            latest = until_turn(ws, seen, after=latest["event"])
            view = latest["view"]
            if view["outcome"] is not None:
                break
            got = hint(ws, seen)
            assert got["type"] == "hint" and got["event"] == latest["event"], got
            if view["legal"]:
                assert got["move"] in view["legal"]
            else:  # Ganjifa, answering a Dukal: any ``need`` cards of ``allowed``
                cards = got["move"].split()[1:]
                assert got["move"].startswith("give ") and len(cards) == view["need"]
                assert set(cards) <= set(view["allowed"])
            seen.check(got)
            ws.send_json({"type": "move", "move": got["move"], "event": got["event"], "ref": 1})
            assert answer(ws, seen)["type"] == "ack"
            taken += 1
    assert taken >= 13 if game == "mindi" else taken == 14


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    """A started room of Asha (seat 0) and Ravi (seat 1), bots at the others, no time limit."""
    made = create(client, name="Asha", turn_timeout=None, options=ONE_DEAL, **body)
    code = made["code"]
    ravi = client.post(f"/api/tables/{code}/seats/1", json={"name": "Ravi"}).json()["token"]
    for path in ("bots", "start"):
        assert client.post(f"/api/tables/{code}/{path}", json={"token": made["token"]}).is_success
    return code, [made["token"], ravi]


def test_no_hints_in_a_room_of_people_that_does_not_allow_them(client: TestClient) -> None:
    code, tokens = two_people(client)
    assert client.get(f"/api/tables/{code}").json()["hints"] is False
    with (
        seat_socket(client, code, tokens[0]) as asha,
        seat_socket(client, code, tokens[1]) as ravi,
    ):
        until_turn(asha, Seen(), (0, 1))
        for ws in (asha, ravi):  # the seat to move as well: the room decides
            got = hint(ws)
            assert got["type"] == "error" and got["error"]["code"] == "no_hints", got


def test_a_room_that_allows_hints_gives_them_to_the_seat_to_move(client: TestClient) -> None:
    code, tokens = two_people(client, hints=True)
    assert client.get(f"/api/tables/{code}").json()["hints"] is True
    with (
        seat_socket(client, code, tokens[0]) as asha,
        seat_socket(client, code, tokens[1]) as ravi,
    ):
        latest = until_turn(asha, Seen(), (0, 1))
        turn = latest["view"]["turn"]
        sockets = {0: asha, 1: ravi}
        got = hint(sockets[turn])
        assert got["type"] == "hint" and got["event"] == latest["event"], got
        other = hint(sockets[1 - turn])
        assert other["type"] == "error", other
        assert other["error"]["code"] == "not_your_turn" and other["error"]["turn"] == turn


def test_a_watcher_is_refused(client: TestClient) -> None:
    made = create(client, start_now=True, bots="random", spectators=True, hints=True)
    with seat_socket(client, made["code"], None, watch=True) as ws:
        got = hint(ws)
    assert got["type"] == "error" and got["error"]["code"] == "watcher", got


def test_no_hint_between_deals_nor_once_the_match_is_over(client: TestClient) -> None:
    for deals, code, turn in ((2, "not_your_turn", True), (1, "match_over", False)):
        made = create(
            client,
            start_now=True,
            bots="random",
            turn_timeout=None,
            options={"deals": deals, "target": None},
        )
        seen = Seen()
        with seat_socket(client, made["code"], made["token"]) as ws:
            latest: dict[str, Any] = {"event": -1}
            while (latest := until_turn(ws, seen, after=latest["event"]))["view"][
                "outcome"
            ] is None:
                move = latest["view"]["legal"][0]
                ws.send_json({"type": "move", "move": move, "event": latest["event"], "ref": 1})
                assert answer(ws, seen)["type"] == "ack"
            got = hint(ws)
        assert got["type"] == "error" and got["error"]["code"] == code, got
        assert ("turn" in got["error"]) is turn
        if turn:
            assert got["error"]["turn"] is None


def test_busy_one_hint_at_a_time_for_a_seat_and_a_few_in_a_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a hint is being worked out, the same seat (from another connection) and, beyond
    the process's limit, any other seat are told ``busy`` with ``retry_after``; once it is
    given, asking again works."""
    web = game_named("mindi").web
    assert web is not None
    started, release = threading.Event(), threading.Event()
    real: Callable[..., Any] = web.suggest

    def held(view: Any, seed: int = 0) -> Any:
        started.set()
        release.wait(60)
        return real(view, seed)

    monkeypatch.setattr(web, "suggest", held)
    app: Any = client.app
    app.state.registry.hints.at_once = 1
    first = create(client, start_now=True, bots="random", turn_timeout=None, options=ONE_DEAL)
    second = create(client, start_now=True, bots="random", turn_timeout=None, options=ONE_DEAL)
    with (
        seat_socket(client, first["code"], first["token"]) as a,
        seat_socket(client, first["code"], first["token"]) as again,
        seat_socket(client, second["code"], second["token"]) as other,
    ):
        until_turn(a, Seen())
        until_turn(again, Seen())
        until_turn(other, Seen())
        a.send_json({"type": "hint", "ref": "a"})
        assert started.wait(60)
        for ws, why in ((again, "this seat"), (other, "suggestions")):
            got = hint(ws)
            assert got["type"] == "error" and got["error"]["code"] == "busy", got
            assert got["error"]["retry_after"] == 1 and why in got["error"]["message"]
        release.set()
        assert answer(a)["type"] == "hint"
        assert hint(other)["type"] == "hint"


def test_allowed_where_the_room_says_or_to_a_person_alone_with_bots(tmp_path: Path) -> None:
    """The rule (docs/protocol.md, "hints"), and rooms stored before hints give them only to
    a person alone with bots."""
    spec = game_named("mindi")
    old = {"rules": spec.rules_to_dict(spec.make_rules()), "preset": "classic"}
    config = TableConfig.from_dict({**old, "bots": "rules", "turn_timeout": None})
    assert config.hints is False
    assert TableConfig.from_dict(config.to_dict() | {"hints": True}).hints is True

    async def scenario() -> None:
        url = f"sqlite:///{tmp_path / 'hukum.db'}"
        migrate(url)
        registry = Registry(Store(make_engine(url)), bot_delay=0)
        alone, token = await registry.create(config, "Asha")
        await alone.start(token, fill=True)
        assert allowed(alone, 0)
        people, _ = await registry.create(config, "Asha")
        await people.take_seat(2, "Ravi")
        assert not allowed(people, 0) and not allowed(people, 2)
        roomy = TableConfig(config.rules, "classic", "rules", None, "mindi", hints=True)
        open_room, _ = await registry.create(roomy, "Asha")
        await open_room.take_seat(1, "Ravi")
        assert allowed(open_room, 0) and allowed(open_room, 1)
        registry.close()

    run(scenario())


def test_a_replica_gives_the_same_hint_as_the_owner(tmp_path: Path) -> None:
    """At another process's table (a replica, followed from the owner) the hint is worked out
    there, from the replica's state: the same seat's view, so the same suggestion."""

    async def scenario() -> None:
        url = f"sqlite:///{tmp_path / 'hukum.db'}"
        migrate(url)
        registry = Registry(Store(make_engine(url)), bot_delay=0)
        spec = game_named("mindi")
        config = TableConfig(spec.make_rules("classic", ONE_DEAL), "classic", "random", None)
        table, token = await registry.create(config, "Asha")
        told: list[dict[str, Any]] = []
        await table.subscribe(0, told.append)  # Asha is there: the bots play up to her turn
        await table.start(token, fill=True)
        for _ in range(1000):
            if table.deal is not None and table.deal.turn == 0:
                break
            await asyncio.sleep(0.01)
        assert isinstance(table, Table) and table.deal is not None and table.deal.turn == 0
        nobody = cast(ClusterProcess, None)  # the owner is not asked: no cluster is needed
        replica = Replica(table.code, config, registry.store, nobody, "owner", lambda *_: None)
        for ev in registry.store.events(table.code):
            replica.apply(ev.number, ev.kind, ev.data)
        assert replica.event == table.event
        here = await registry.hints.ask(replica, 0)
        there = await registry.hints.ask(table, 0)
        assert here == there and here.event == table.event
        assert here.move in [str(m) for m in table.deal.legal_moves()]
        registry.close()

    run(scenario())
