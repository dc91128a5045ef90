"""The analysis of a finished deal through the app: every move from the last trick back as
far as the node budget goes, refused for a deal in progress or a Ganjifa table."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import hukum.analysis
from hukum import records
from hukum.analysis import ANALYSIS_NODES, DealAnalysis, analyse
from hukum.mindi import Deal
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket


def test_a_finished_deal_is_analysed_move_by_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    solved: list[int] = []

    def counted(deal: Deal, tricks: int, max_nodes: int) -> DealAnalysis:
        solved.append(len(deal.tricks))
        return analyse(deal, tricks, max_nodes=max_nodes)

    monkeypatch.setattr(hukum.analysis, "analyse", counted)
    made = create(client, start_now=True, bots="random", options={"deals": 2, "target": None})
    code = made["code"]
    before = client.get(f"/api/tables/{code}/deals/1/analysis")
    assert before.json()["error"]["code"] == "deal_not_over"
    player = Player()
    with seat_socket(client, code, made["token"]) as ws:
        play(ws, player, deals=1)
    data = client.get(f"/api/tables/{code}/deals/1/analysis").json()
    tricks = data["tricks"]
    assert data["deal"] == 1 and 1 <= tricks <= 13
    assert len(data["moves"]) == 4 * tricks and data["skipped"] == 52 - 4 * tricks
    assert [m["number"] for m in data["moves"]] == list(range(53 - 4 * tricks, 53))
    # The same as the library's analysis of the recorded deal, with the same budget.
    match = records.from_dict(client.get(f"/api/tables/{code}/record").json())
    expected = analyse(match.deals[0], tricks=13, max_nodes=ANALYSIS_NODES)
    assert expected.tricks == tricks
    assert [m["text"] for m in data["moves"]] == [m.describe() for m in expected.moves]
    assert [m["mistake"] for m in data["moves"]] == [m.mistake for m in expected.moves]
    # The results before and after each move as data (the page words them in its language).
    for sent, move in zip(data["moves"], expected.moves, strict=True):
        for key, forecast in (("before", move.before), ("after", move.after)):
            assert sent[key] == {
                "tens": list(forecast.tens),
                "winner": forecast.winner,
                "kind": forecast.kind,
            }
    # A finished deal is solved once; asking again gets the same answer.
    assert client.get(f"/api/tables/{code}/deals/1/analysis").json() == data
    assert solved == [13]
    missing = client.get(f"/api/tables/{code}/deals/3/analysis")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_deal"


def test_ganjifa_deals_are_not_analysed(client: TestClient) -> None:
    made = create(client, game="ganjifa", bots="random", start_now=True)
    r = client.get(f"/api/tables/{made['code']}/deals/1/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_analysis"
