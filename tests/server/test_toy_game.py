"""High Card (tests/toygame.py), a game registered only through its GameSpec (the core and
records), at a server table: created, played against a bot over the WebSocket, recorded and
checked for fairness with no server code knowing it; what it does not offer is refused.
And what a move costs at a table: read once, pushed once, each seat's message built once; a
move that cannot be stored is taken back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum import records
from hukum.games import GAMES
from hukum.server.db import NewEvent, Store, make_engine, migrate
from hukum.server.fairness import commitment
from hukum.server.tables import Registry, Table, TableConfig
from hukum.server.tables.errors import TableError
from tests import toygame
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket
from tests.server.test_restart import run
from tests.toygame import NAME, SPEC, Rules


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, NAME, SPEC)
        yield


def test_a_match_against_a_bot_through_the_app(client: TestClient) -> None:
    made = create(client, game=NAME, bots="high", options={"deals": 2}, start_now=True)
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
    assert player.match_over and not player.errors and player.deals_over == 2
    end = next(m for m in player.log if m.get("kind") == "deal_over")
    view = end["view"]
    assert view["game"] == NAME and view["deal_number"] == 1 and view["seed"] == end["seed"]
    assert sum(view["tricks"]) == 5 and view["commitment"] == commitment(int(end["seed"]))
    over = next(m for m in player.log if m.get("kind") == "match_over")
    assert sum(over["scores"]) == 2 and over["scores"] == over["view"]["scores"]
    # The record replays through the game's spec; the fair-shuffle check deals its hands.
    record = client.get(f"/api/tables/{made['code']}/record").json()
    match = records.from_dict_any(record)
    assert isinstance(match, toygame.Match) and list(match.scores) == over["scores"]
    seed = end["seed"]
    params = {"commitment": commitment(int(seed)), "seed": seed, "dealer": view["dealer"]}
    checked = client.get("/api/verify", params={**params, "game": NAME}).json()
    assert checked["commitment_ok"]
    assert checked["hands"] == [[str(c) for c in h] for h in match.deals[0].dealt]
    # What its spec does not offer is refused as such; its rules come from its schema.
    analysis = client.get(f"/api/tables/{made['code']}/deals/1/analysis").json()["error"]
    assert analysis == {"code": "no_analysis", "message": "High Card offers no deal analysis"}
    info = client.get("/api/rules").json()["games"][NAME]
    assert [o["name"] for o in info["options"]] == ["deals"] and info["players"] == [2]
    assert info["presets"] == {"standard": {"deals": 1}} and info["bots"] == ["random", "high"]


def test_a_game_of_the_core_alone_gets_a_room_and_is_refused_the_rest(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SPEC, "records", None)  # no facet left: the core alone
    made = create(client, game=NAME, bots="random", options={"deals": 1}, start_now=True)
    player = Player()
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, player)
    assert player.match_over and not player.errors and player.deals_over == 1
    table = f"/api/tables/{made['code']}"
    for path, code, message in (
        ("/record", "no_record", "High Card keeps no records"),
        ("/deals/1", "no_replay", "High Card offers no replay of its deals"),
        ("/deals/1/analysis", "no_analysis", "High Card offers no deal analysis"),
    ):
        r = client.get(table + path)
        assert r.status_code == 409 and r.json()["error"] == {"code": code, "message": message}


def test_its_own_bots_and_rules_are_checked(client: TestClient) -> None:
    def error(body: dict[str, Any]) -> str:
        r = client.post("/api/tables", json={"game": NAME, **body})
        code: str = r.json()["error"]["code"]
        return code

    assert error({"bots": "rules"}) == "bad_request"
    assert error({"options": {"deals": 0}}) == "bad_rules"
    assert error({"preset": "classic"}) == "bad_rules"


def _counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, calls: list[str]) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)


async def _table_of_two(tmp_path: Path) -> tuple[Table, Callable[[], None]]:
    """A started High Card table with a person at each seat (no bots, no timers)."""
    url = f"sqlite:///{tmp_path / 'toy.db'}"
    migrate(url)
    registry = Registry(Store(make_engine(url)), bot_delay=0)
    config = TableConfig(Rules(), "standard", "high", None, NAME)

    table, token = await registry.create(config, "A")
    await table.take_seat(1, "B")
    await table.start(token)
    return table, registry.close


def test_a_move_is_read_once_pushed_once_and_each_seat_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    told: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    async def scenario() -> None:
        table, close = await _table_of_two(tmp_path)
        for seat in (0, 0, 1):  # seat 0 twice: two tabs, one message built
            await table.subscribe(seat, told[seat].append)
        _counted(monkeypatch, SPEC, "parse_move", calls)
        _counted(monkeypatch, toygame.Deal, "push", calls)
        _counted(monkeypatch, toygame.Deal, "check", calls)  # push checks
        _counted(monkeypatch, toygame.Deal, "view", calls)
        deal = table.deal
        assert isinstance(deal, toygame.Deal)
        for n in range(10):
            calls.clear()
            event = table.event
            turn = deal.turn
            assert turn is not None
            await table.submit_move(turn, str(deal.legal_moves()[0]))
            events = table.event - event  # the last move also ends the deal and the match
            assert events == (1 if n < 9 else 3)
            assert sorted(calls) == ["check", "parse_move", "push"] + ["view"] * 2 * events
        close()

    run(scenario())  # in a thread: a browser test's event loop may be running here
    # Seat 1's connection is told to both of seat 0's, once (a presence message, between
    # events); the rest are the state and the events.
    presence = {seat: [m for m in told[seat] if m["type"] == "presence"] for seat in told}
    assert [m["connected"] for m in presence[0]] == [[True, True]] * 2 and not presence[1]
    told = {seat: [m for m in told[seat] if m["type"] != "presence"] for seat in told}
    assert len(told[0]) == 2 * (1 + 12) and len(told[1]) == 1 + 12
    assert told[0][-1]["kind"] == "match_over" and told[0][-1]["view"]["outcome"] is not None


def test_an_illegal_move_or_one_not_stored_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[dict[str, Any]] = []

    async def scenario() -> None:
        table, close = await _table_of_two(tmp_path)
        await table.subscribe(0, told.append)
        deal = table.deal
        assert isinstance(deal, toygame.Deal)
        seat = deal.turn
        assert seat is not None
        event, stored = table.event, len(table.store.events(table.code))
        other = next(c for c in deal.dealt[1 - seat])
        with pytest.raises(TableError) as refused:
            await table.submit_move(seat, str(other))
        assert refused.value.code == "illegal_move" and "does not hold" in refused.value.message
        append = table.store.append_many

        def failing(events: list[NewEvent]) -> None:
            raise RuntimeError("the disk is full")

        monkeypatch.setattr(table.store, "append_many", failing)
        card = deal.legal_moves()[0]
        with pytest.raises(RuntimeError, match="disk is full"):
            await table.submit_move(seat, str(card))
        assert deal.moves == [] and deal.turn == seat and card in deal.legal_moves()
        assert table.event == event and len(told) == 1  # the state only
        monkeypatch.setattr(table.store, "append_many", append)
        assert await table.submit_move(seat, str(card)) == event + 1
        assert len(table.store.events(table.code)) == stored + 1 and deal.moves == [card]
        assert told[-1]["move"] == str(card)
        close()

    run(scenario())  # in a thread: a browser test's event loop may be running here
