"""The daily challenge on PostgreSQL (``HUKUM_TEST_POSTGRES_URL``; skipped without): two
server processes asked for the same day at once make one challenge, and a deal is played
and scored through the real app."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from hukum.server.db import Store, make_engine, migrate
from hukum.server.play.models import Challenge, ChallengeDeal
from tests.server import test_challenge_api
from tests.server.test_ratings import make_app

#: One process: it connects, says so, waits for the word, then makes the day.
MAKER = """
import json, sys, datetime as dt
from hukum.server.db import Store, make_engine
from hukum.server.play.challenge import make_day
store = Store(make_engine(sys.argv[1]))
store.session().close()
print("ready", flush=True)
sys.stdin.readline()
deals = make_day(store, dt.date.fromisoformat(sys.argv[2]))
print(json.dumps([d.commitment for d in deals]), flush=True)
"""


def test_two_processes_make_one_challenge(postgres_url: str) -> None:
    migrate(postgres_url)
    day = dt.date(2026, 12, 9)
    makers = [
        subprocess.Popen(
            [sys.executable, "-c", MAKER, postgres_url, day.isoformat()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for p in makers:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready", p.stderr.read() if p.stderr else ""
    for p in makers:  # all at once, as near as the operating system lets them
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    answers = []
    for p in makers:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        answers.append(json.loads(out.strip().splitlines()[-1]))
    assert all(a == answers[0] for a in answers) and len(answers[0]) == 8
    engine = make_engine(postgres_url)
    store = Store(engine)
    try:
        with store.session() as s:
            assert s.scalar(select(func.count()).select_from(Challenge)) == 1
            assert s.scalar(select(func.count()).select_from(ChallengeDeal)) == 8
    finally:
        store.close()
        engine.dispose()


def test_a_maker_that_loses_the_race_reads_the_winner_back(postgres_url: str) -> None:
    migrate(postgres_url)
    engine = make_engine(postgres_url)
    store = Store(engine)
    try:
        test_challenge_api.lost_race(store)
    finally:
        store.close()
        engine.dispose()


def test_a_deal_is_played_and_scored_on_postgres(postgres_url: str) -> None:
    with TestClient(make_app(postgres_url)) as client:
        test_challenge_api.test_a_deal_played_to_the_end_is_scored_once(client)
