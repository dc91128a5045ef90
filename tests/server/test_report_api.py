"""The match report through the app (``GET /api/tables/<code>/report``): a real server on a
real database, a table played to its end (the scripted player at seat 0, random computer
players at the others); the same figures as the library's report of the same analyses,
each deal analysed once in the server's pool (more deals than the pool queues: admitted in
turn), its progress while it runs, names and never ids, and refused before the end and for
a game without the analysis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum import records
from hukum.analysis import analyse
from hukum.match_report import match_report
from hukum.server.analyses import RETRY_AFTER, Analyses
from hukum.server.app import create_app
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket

#: A budget that stops most deals of random play after a few tricks (the test stays short).
BUDGET = 300_000


@pytest.fixture
def pool() -> Analyses:
    """One analysis at a time on two worker processes, none waiting: a match of three deals
    is more than the pool takes at once."""
    return Analyses(workers=2, running=1, waiting=0, max_nodes=BUDGET)


@pytest.fixture
def app_client(tmp_path: Path, pool: Analyses) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, analyses=pool)
    with TestClient(app) as c:
        yield c


def _table(client: TestClient, deals: int) -> dict[str, Any]:
    made = create(
        client, name="Asha", start_now=True, bots="random", options={"deals": deals, "target": None}
    )
    return made


def test_the_report_of_a_finished_match(app_client: TestClient, pool: Analyses) -> None:
    client = app_client
    made = _table(client, deals=3)
    code = made["code"]
    early = client.get(f"/api/tables/{code}/report")
    assert early.status_code == 409 and early.json()["error"]["code"] == "match_not_over"
    with seat_socket(client, code, made["token"]) as ws:
        play(ws, Player(), deals=1)
        # One deal over, the match not: still no report, and no analysis started for it.
        again = client.get(f"/api/tables/{code}/report?wait=false")
        assert again.status_code == 409 and again.json()["error"]["code"] == "match_not_over"
        assert pool.started == 0
        play(ws, Player(), deals=2)
    table = client.get(f"/api/tables/{code}").json()
    assert table["status"] == "over"

    data = client.get(f"/api/tables/{code}/report").json()
    assert data["status"] == "done" and data["deals"] == 3
    assert pool.started == 3  # each deal once, admitted in turn (the pool queues none)
    # The same figures as the library's report of the same analyses (the same tricks).
    analyses = [client.get(f"/api/tables/{code}/deals/{n}/analysis").json() for n in (1, 2, 3)]
    assert pool.started == 3  # the deals' analyses are the report's, not solved again
    assert data["not_analysed"] == [a["not_analysed"] for a in analyses]
    match = records.from_dict(client.get(f"/api/tables/{code}/record").json())
    expected = match_report(
        [analyse(d, tricks=a["tricks"]) for d, a in zip(match.deals, analyses, strict=True)],
        seats=4,
    )
    assert data["complete"] == expected.complete
    names = [s["name"] for s in table["seats"]]
    assert names[0] == "Asha"
    for sent, seat in zip(data["seats"], expected.seats, strict=True):
        public = table["seats"][seat.seat]
        assert sent["name"] == names[seat.seat] and sent["kind"] == public["kind"]
        assert (sent["seat"], sent["team"], sent["tens"], sent["points"]) == (
            seat.seat,
            seat.team,
            seat.tens,
            seat.points,
        )
        assert (sent["mistakes"], sent["analysed"]) == (seat.mistakes, seat.analysed)
        assert [(c["deal"], c["number"], c["move"], c["tens"]) for c in sent["costliest"]] == [
            (c.deal, c.number, str(c.move), c.tens) for c in seat.costliest
        ]
        # Each costly move is the deal's analysed move of that number, a mistake.
        for c in sent["costliest"]:
            [move] = [m for m in analyses[c["deal"] - 1]["moves"] if m["number"] == c["number"]]
            assert move["mistake"] and move["seat"] == seat.seat and move["move"] == c["move"]
            assert (c["best"], c["before"], c["after"]) == (
                move["best"],
                move["before"],
                move["after"],
            )
    # Random computer players give tens away: the report has something to say.
    assert sum(s["mistakes"] for s in data["seats"]) > 0
    # Names only: no key of a player's id or a seat's token anywhere in the report.
    assert set(data["seats"][0]) == {
        *("seat", "name", "kind", "team", "tens", "points"),
        *("mistakes", "analysed", "costliest"),
    }
    assert made["token"] not in str(data)
    assert client.get(f"/api/tables/{code}/report?wait=false").json() == data


def test_progress_while_the_deals_are_analysed(app_client: TestClient, pool: Analyses) -> None:
    """With ``?wait=false`` the report answers at once: the deal the pool has taken, the
    deals not yet admitted (``queued``); then each deal done in turn until the report."""
    client = app_client
    made = _table(client, deals=2)
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, Player(), deals=2)
    url = f"/api/tables/{made['code']}/report?wait=false"
    [analyser] = pool.analysers()
    with analyser.busy:  # the first deal's analysis has its turn and cannot start yet
        first = client.get(url)
        assert first.status_code == 202
        assert first.json() == {
            "status": "running",
            "deals": 2,
            "done": 0,
            "analyses": [
                {"deal": 1, "status": "starting", "tricks": 0, "of": 13},
                {"deal": 2, "status": "queued", "tricks": 0, "of": 13},
            ],
        }
        assert client.get(url).status_code == 202 and pool.started == 1
    seen = []
    while (answer := client.get(url)).status_code == 202:
        seen.append(answer.json())
    assert answer.status_code == 200 and answer.json()["status"] == "done"
    assert pool.started == 2
    done = [s["done"] for s in seen]
    assert done == sorted(done) and all(0 <= d <= 1 for d in done)


def test_a_pool_full_of_other_deals_says_busy(app_client: TestClient, pool: Analyses) -> None:
    """The pool takes one analysis and queues none: while another table's deal holds it, the
    report of a match none of whose deals is admitted is refused with ``busy``."""
    client = app_client
    tables = [_table(client, deals=1) for _ in range(2)]
    for made in tables:
        with seat_socket(client, made["code"], made["token"]) as ws:
            play(ws, Player(), deals=1)
    other, mine = (made["code"] for made in tables)
    [analyser] = pool.analysers()
    with analyser.busy:
        taken = client.get(f"/api/tables/{other}/deals/1/analysis?wait=false")
        assert taken.status_code == 202
        busy = client.get(f"/api/tables/{mine}/report?wait=false")
        assert busy.status_code == 503
        assert busy.json()["error"]["code"] == "busy"
        assert busy.json()["error"]["retry_after"] == RETRY_AFTER
        assert pool.started == 1
    # Once the other deal is done, the report is made.
    assert client.get(f"/api/tables/{other}/deals/1/analysis").json()["status"] == "done"
    assert client.get(f"/api/tables/{mine}/report").json()["status"] == "done"


def test_a_game_without_the_analysis_has_no_report(app_client: TestClient) -> None:
    made = create(app_client, game="ganjifa", bots="random", start_now=True)
    r = app_client.get(f"/api/tables/{made['code']}/report")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_analysis"
    missing = app_client.get("/api/tables/ZZZZZZ/report")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_table"


def test_a_report_leaves_room_in_the_pool_for_other_boards(tmp_path: Path) -> None:
    """A report keeps at most two of its deals in the pool's line (one running, one next):
    the other places stay open to another table's board meanwhile."""
    pool = Analyses(workers=2, running=1, waiting=2, max_nodes=BUDGET)
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, analyses=pool)
    with TestClient(app) as client:
        mine, other = _table(client, deals=3), _table(client, deals=1)
        for made, deals in ((mine, 3), (other, 1)):
            with seat_socket(client, made["code"], made["token"]) as ws:
                play(ws, Player(), deals=deals)
        [analyser] = pool.analysers()
        with analyser.busy:
            first = client.get(f"/api/tables/{mine['code']}/report?wait=false").json()
            assert [(a["deal"], a["status"]) for a in first["analyses"]] == [
                (1, "starting"),
                (2, "waiting"),
                (3, "queued"),
            ]
            board = client.get(f"/api/tables/{other['code']}/deals/1/analysis?wait=false")
            assert board.status_code == 202 and board.json()["ahead"] == 2
            assert pool.started == 3
        assert client.get(f"/api/tables/{mine['code']}/report").json()["status"] == "done"
        assert pool.started == 4


def test_six_players_have_no_report(app_client: TestClient) -> None:
    """The solver analyses 4-player deals: a 6-player Mindi match's report is refused with
    the deal analysis's own error, once its first deal is refused."""
    made = create(
        app_client,
        name="Asha",
        start_now=True,
        bots="random",
        options={"players": 6, "deck": 48, "deals": 2, "target": None},
    )
    with seat_socket(app_client, made["code"], made["token"]) as ws:
        play(ws, Player(), deals=2)
    r = app_client.get(f"/api/tables/{made['code']}/report")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_analysis"
