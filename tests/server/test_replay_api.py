"""A finished deal move by move for the analysis board (``GET /api/tables/<code>/deals/<n>``,
issue 19 item 12): the engine's replay of the recorded deal, every hand face up; never a
deal in progress; and the board's page at ``/t/<code>/deals/<n>``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum import records
from hukum.games import GAMES
from hukum.mindi import Deal
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket
from tests.server.test_ganjifa import choose as ganjifa_choose
from tests.toygame import NAME, SPEC


def _replay(client: TestClient, code: str, n: int) -> dict[str, Any]:
    r = client.get(f"/api/tables/{code}/deals/{n}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _error(client: TestClient, path: str) -> tuple[int, str]:
    r = client.get(path)
    return r.status_code, r.json()["error"]["code"]


@pytest.mark.parametrize("preset", ["classic", "hidden"])
def test_a_finished_mindi_deal_is_replayed_as_the_engine_played_it(
    client: TestClient, preset: str
) -> None:
    made = create(
        client, preset=preset, start_now=True, bots="random", options={"deals": 2, "target": None}
    )
    code = made["code"]
    # Nothing of deal 1 while it is played: it would show every hand.
    assert _error(client, f"/api/tables/{code}/deals/1") == (409, "deal_not_over")
    with seat_socket(client, code, made["token"]) as ws:
        play(ws, Player(), deals=1)
    data = _replay(client, code, 1)
    record = client.get(f"/api/tables/{code}/record").json()
    dealt = record["deals"][0]
    assert data["deal"] == 1 and data["deals"] == 1 and data["game"] == "mindi"
    assert data["dealer"] == dealt["dealer"]
    assert [m["move"] for m in data["moves"]] == dealt["moves"]
    assert [m["number"] for m in data["moves"]] == list(range(1, len(dealt["moves"]) + 1))
    positions = data["positions"]
    assert len(positions) == len(data["moves"]) + 1
    assert [sorted(h) for h in positions[0]["hands"]] == [sorted(h) for h in dealt["hands"]]
    # Each move as the engine saw it: its seat and trick; the card leaves that hand only.
    deal: Deal = records.from_dict(record).deals[0]
    assert [(m["seat"], m["move"]) for m in data["moves"]] == [(s, str(m)) for s, m in deal.history]
    for m, before, after in zip(data["moves"], positions, positions[1:], strict=False):
        card = m["move"].split()[-1]
        changed = [s for s in range(4) if before["hands"][s] != after["hands"][s]]
        if m["move"].startswith("hide "):
            assert after["face_down"] == card and after["chooser"] == m["seat"]
            assert after["trump"] == card[-1] and not after["trump_known"]
        if m["move"] != "reveal" and not m["move"].startswith("announce"):
            assert changed == [m["seat"]] or (after["reveal"] and not before["reveal"])
            assert card not in after["hands"][m["seat"]]
        assert m["trick"] == before["tricks_played"] + 1
    # Trick winners, tricks and tens as the engine counts them; the outcome at the end.
    tricks = deal.tricks
    for n, trick in enumerate(tricks, start=1):
        at = next(p for p in positions if p["tricks_played"] == n)
        assert at["last_trick"]["winner"] == trick.winner
        assert [p["card"] for p in at["last_trick"]["plays"]] == [p.card.code for p in trick.plays]
    end = positions[-1]
    assert end["hands"] == [[], [], [], []] and end["turn"] is None
    assert end["tricks_won"] == dealt["outcome"]["tricks"]
    assert [len(t) for t in end["tens"]] == dealt["outcome"]["tens"]
    assert data["outcome"]["winner"] == dealt["outcome"]["winner"]
    if preset == "hidden":
        assert positions[0]["trump"] is None and positions[1]["face_down"] is not None
        assert end["face_down"] is None and end["reveal"] is not None
    # Deal 2 is in progress (the player said ready: it starts soon), deal 3 does not exist.
    for _ in range(200):
        if client.get(f"/api/tables/{code}").json()["deal_number"] == 2:
            break
        time.sleep(0.02)
    assert _error(client, f"/api/tables/{code}/deals/2") == (409, "deal_not_over")
    assert _error(client, f"/api/tables/{code}/deals/3") == (404, "unknown_deal")
    assert _error(client, f"/api/tables/{code}/deals/0") == (404, "unknown_deal")
    assert _error(client, "/api/tables/nosuchroom/deals/1") == (404, "unknown_table")


def test_a_finished_ganjifa_deal_is_replayed(client: TestClient) -> None:
    made = create(client, game="ganjifa", bots="random", start_now=True)
    code = made["code"]
    with seat_socket(client, code, made["token"]) as ws:
        play(ws, Player(choose=ganjifa_choose))
    data = _replay(client, code, 1)
    dealt = client.get(f"/api/tables/{code}/record").json()["deals"][0]
    assert data["game"] == "ganjifa" and [m["move"] for m in data["moves"]] == dealt["moves"]
    positions = data["positions"]
    assert [sorted(h) for h in positions[0]["hands"]] == [sorted(h) for h in dealt["hands"]]
    for m, after in zip(data["moves"], positions[1:], strict=True):
        assert not set(m["cards"]) & set(after["hands"][m["seat"]])
    assert positions[-1]["captured"] == dealt["outcome"]["scores"]
    assert data["outcome"]["winners"] == dealt["outcome"]["winners"]


@pytest.fixture
def toy_game() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(GAMES, NAME, SPEC)
        yield


def test_a_game_without_a_replay_says_so(client: TestClient, toy_game: None) -> None:
    made = create(client, game=NAME, bots="high", options={"deals": 1}, start_now=True)
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, Player())
    assert _error(client, f"/api/tables/{made['code']}/deals/1") == (409, "no_replay")


def test_the_board_has_its_own_address(client: TestClient) -> None:
    page = client.get("/t/abcd2345/deals/3?move=17")
    assert page.status_code == 200 and page.text == client.get("/t/abcd2345").text
    assert '<script type="module" src="/static/app.js">' in page.text
    board = client.get("/static/board.js")
    assert board.status_code == 200 and "export function renderBoard" in board.text
