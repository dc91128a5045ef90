"""The analysis of a finished deal through the app: every move from the last trick back as
far as the node budget goes, in the server's pool of worker processes (the same values as
the library's serial analysis), its progress while it runs, a bounded queue (``busy``
beyond it), refused for a deal in progress or a Ganjifa table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum import records
from hukum.analysis import analyse
from hukum.server.analyses import RETRY_AFTER, Analyses
from hukum.server.app import create_app
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket

#: A budget that stops most deals of random play after a few tricks (the test stays short).
BUDGET = 300_000


@pytest.fixture
def pool() -> Analyses:
    """One analysis at a time on two worker processes, none waiting, a small budget."""
    return Analyses(workers=2, running=1, waiting=0, max_nodes=BUDGET)


@pytest.fixture
def app_client(tmp_path: Path, pool: Analyses) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, analyses=pool)
    with TestClient(app) as c:
        yield c


def _finished_table(client: TestClient, deals: int) -> str:
    """A table (seat 0 played by the test, random bots) with ``deals`` deals over."""
    made = create(client, start_now=True, bots="random", options={"deals": deals, "target": None})
    with seat_socket(client, made["code"], made["token"]) as ws:
        play(ws, Player(), deals=deals)
    code: str = made["code"]
    return code


def test_a_finished_deal_is_analysed_move_by_move(app_client: TestClient, pool: Analyses) -> None:
    client = app_client
    made = create(client, start_now=True, bots="random", options={"deals": 2, "target": None})
    code = made["code"]
    before = client.get(f"/api/tables/{code}/deals/1/analysis")
    assert before.json()["error"]["code"] == "deal_not_over"
    with seat_socket(client, code, made["token"]) as ws:
        play(ws, Player(), deals=1)
    data = client.get(f"/api/tables/{code}/deals/1/analysis").json()
    tricks = data["tricks"]
    assert data["deal"] == 1 and data["status"] == "done" and data["of"] == 13
    assert 1 <= tricks <= 13
    assert data["not_analysed"] == list(range(1, 14 - tricks))
    assert len(data["moves"]) == 4 * tricks and data["skipped"] == 52 - 4 * tricks
    assert [m["number"] for m in data["moves"]] == list(range(53 - 4 * tricks, 53))
    # The same values as the library's serial analysis of those tricks, in one process.
    match = records.from_dict(client.get(f"/api/tables/{code}/record").json())
    expected = analyse(match.deals[0], tricks=tricks)
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
        assert sent["best"] == [str(b) for b in move.best]
    # A finished deal is solved once; asking again gets the same answer.
    assert client.get(f"/api/tables/{code}/deals/1/analysis").json() == data
    assert client.get(f"/api/tables/{code}/deals/1/analysis?wait=false").json() == data
    assert pool.started == 1
    missing = client.get(f"/api/tables/{code}/deals/3/analysis")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_deal"


def test_progress_and_a_bounded_queue(app_client: TestClient, pool: Analyses) -> None:
    """While an analysis runs, ``?wait=false`` answers at once with its progress; beyond the
    pool's bound (here one running, none waiting) another deal is refused with ``busy`` and
    a time to ask again; once the first is done, the second is taken."""
    client = app_client
    code = _finished_table(client, deals=2)
    [analyser] = pool.analysers()
    with analyser.busy:  # the analysis has its turn but cannot start yet
        running = client.get(f"/api/tables/{code}/deals/1/analysis?wait=false")
        assert running.status_code == 202
        # Just asked: the pool is free, so its turn has come; its workers are starting
        # (not "waiting", which would say other deals are before it: issue 40 item 3).
        assert running.json() == {"deal": 1, "status": "starting", "tricks": 0, "of": 13}
        busy = client.get(f"/api/tables/{code}/deals/2/analysis?wait=false")
        assert busy.status_code == 503
        error: dict[str, Any] = busy.json()["error"]
        assert error["code"] == "busy" and error["retry_after"] == RETRY_AFTER
        assert busy.headers["retry-after"] == str(RETRY_AFTER)
        # Asking again for the deal in progress is no new analysis, and no refusal.
        again = client.get(f"/api/tables/{code}/deals/1/analysis?wait=false")
        assert again.status_code == 202 and pool.started == 1
        assert again.json() == {"deal": 1, "status": "running", "tricks": 0, "of": 13}
        # Meanwhile the server serves the tables as ever (the work is not in its event loop).
        assert client.get(f"/api/tables/{code}").status_code == 200
    seen = []
    while True:
        answer = client.get(f"/api/tables/{code}/deals/1/analysis?wait=false")
        seen.append(answer.json())
        if answer.status_code == 200:
            break
        assert answer.status_code == 202 and answer.json()["status"] == "running"
    done = seen.pop()
    assert done["status"] == "done"
    progress = [s["tricks"] for s in seen]
    assert progress == sorted(progress) and all(0 <= k <= done["tricks"] for k in progress)
    second = client.get(f"/api/tables/{code}/deals/2/analysis")
    assert second.status_code == 200 and second.json()["deal"] == 2 and pool.started == 2


def test_a_deal_behind_others_says_how_many(tmp_path: Path) -> None:
    """With one analysis at a time, a deal asked for while others run or wait says how many
    are before it, and starts once they are done."""
    pool = Analyses(workers=2, running=1, waiting=2, max_nodes=BUDGET)
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0, analyses=pool)
    with TestClient(app) as client:
        code = _finished_table(client, deals=3)
        [analyser] = pool.analysers()
        with analyser.busy:  # the first analysis has its turn and holds it
            first = client.get(f"/api/tables/{code}/deals/1/analysis?wait=false")
            assert first.json()["status"] in {"starting", "running"}
            second = client.get(f"/api/tables/{code}/deals/2/analysis?wait=false")
            assert second.json() == {
                "deal": 2,
                "status": "waiting",
                "ahead": 1,
                "tricks": 0,
                "of": 13,
            }
            third = client.get(f"/api/tables/{code}/deals/3/analysis?wait=false")
            assert third.json() == {
                "deal": 3,
                "status": "waiting",
                "ahead": 2,
                "tricks": 0,
                "of": 13,
            }
        # The first done, the second runs and the third is behind one deal only, until
        # each is done in turn.
        assert client.get(f"/api/tables/{code}/deals/1/analysis").json()["status"] == "done"
        third = client.get(f"/api/tables/{code}/deals/3/analysis?wait=false").json()
        assert third["status"] in {"waiting", "starting", "running", "done"}
        assert third.get("ahead", 1) == 1
        for n in (2, 3):
            assert client.get(f"/api/tables/{code}/deals/{n}/analysis").json()["status"] == "done"
        assert pool.started == 3


def test_ganjifa_deals_are_not_analysed(client: TestClient) -> None:
    made = create(client, game="ganjifa", bots="random", start_now=True)
    r = client.get(f"/api/tables/{made['code']}/deals/1/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_analysis"
