"""The same server on PostgreSQL: migrations, the event log's ordering constraint, the API
and game flow, and a restart that resumes from the log.

Run when ``HUKUM_TEST_POSTGRES_URL`` names a PostgreSQL database (``.ci/postgres.sh``
starts one and prints its URL; CI does that); otherwise skipped, with the reason. Each
test works in a fresh schema of that database (the ``postgres_url`` fixture).
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy import inspect as sql_inspect
from sqlalchemy.exc import IntegrityError

from hukum.server.db import NewEvent, Store, make_engine, migrate
from tests.server import test_api, test_fairness, test_leak, test_ws
from tests.server.test_restart import restart_in_the_middle_of_a_deal


def client_tests(*modules: ModuleType) -> list[Any]:
    """Every test of these modules that needs only the ``client`` fixture (and its params)."""
    found: list[Any] = []
    for module in modules:
        for name, test in vars(module).items():
            if not name.startswith("test_") or not callable(test):
                continue
            params = list(inspect.signature(test).parameters)
            if params[:1] != ["client"]:
                continue
            marks = getattr(test, "pytestmark", [])
            cases = [m.args for m in marks if m.name == "parametrize"]
            if not cases:
                found.append(pytest.param(test, (), id=name))
            else:
                for i, args in enumerate(cases[0][1]):
                    found.append(pytest.param(test, tuple(args), id=f"{name}[{i}]"))
    return found


@pytest.mark.parametrize(("test", "args"), client_tests(test_api, test_ws, test_leak))
def test_api_and_game_on_postgres(
    postgres_client: TestClient, test: Callable[..., None], args: tuple[Any, ...]
) -> None:
    """The lobby API and WebSocket tests, run unchanged against PostgreSQL."""
    test(postgres_client, *args)


def test_fair_shuffle_on_postgres(
    postgres_client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """128-bit seeds survive the JSON column: commitments still match the hands."""
    test_fairness.test_commitments_match_seeds_and_hands(postgres_client, capsys)


def test_migrations_and_the_event_log(postgres_url: str) -> None:
    migrate(postgres_url)
    migrate(postgres_url)  # at head already: nothing to do
    engine = make_engine(postgres_url)
    try:
        inspector = sql_inspect(engine)
        assert {"rooms", "events", "alembic_version"} <= set(inspector.get_table_names())
        uniques = {u["name"] for u in inspector.get_unique_constraints("events")}
        assert "uq_events_room_number" in uniques
        store = Store(engine)
        assert store.create_room("abcdefgh", {"rules": {}})
        assert not store.create_room("abcdefgh", {"rules": {}})
        seed = 2**127 + 12345  # a 128-bit deal seed, beyond any SQL integer type
        for number in (1, 3, 2):
            store.append("abcdefgh", number, "deal", {"seed": seed, "n": number})
        # One number per room, once: a second writer of event 2 fails instead of forking.
        with pytest.raises(IntegrityError):
            store.append("abcdefgh", 2, "move", {"seat": 0})
        events = store.events("abcdefgh")
        assert [e.number for e in events] == [1, 2, 3]
        assert all(e.data["seed"] == seed for e in events)
        assert [e.number for e in store.events("abcdefgh", upto=2)] == [1, 2]
        assert store.active_rooms() == ["abcdefgh"]
        store.append("abcdefgh", 4, "match_over", {"scores": [1, 0]})
        assert store.active_rooms() == []
    finally:
        engine.dispose()


def test_a_batch_of_events_is_written_whole_or_not_at_all(postgres_url: str) -> None:
    """On PostgreSQL a batch is one statement (the events and the rooms finished): every
    room's events and the end of a match land together, and a row another writer took
    first keeps the whole batch out."""
    migrate(postgres_url)
    engine = make_engine(postgres_url)
    try:
        store = Store(engine)
        for code in ("room0000", "room0001", "room0002"):
            assert store.create_room(code, {"rules": {}})
        store.append_many(
            [
                NewEvent("room0000", 1, "deal", {"n": [1, {"a": None}]}),
                NewEvent("room0001", 1, "deal", {"n": 2}),
                NewEvent("room0000", 2, "match_over", {"scores": [1, 0]}),
            ]
        )
        assert [(e.number, e.kind, e.data) for e in store.events("room0000")] == [
            (1, "deal", {"n": [1, {"a": None}]}),
            (2, "match_over", {"scores": [1, 0]}),
        ]
        assert store.active_rooms() == ["room0001", "room0002"]
        with pytest.raises(IntegrityError):
            store.append_many(
                [
                    NewEvent("room0002", 1, "deal", {}),
                    NewEvent("room0001", 1, "deal", {}),  # taken
                    NewEvent("room0002", 2, "match_over", {}),
                ]
            )
        assert store.events("room0002") == []
        assert store.active_rooms() == ["room0001", "room0002"]
        store.append("room0002", 1, "deal", {})  # the held connection still writes
        assert [e.number for e in store.events("room0002")] == [1]
        store.close()
    finally:
        engine.dispose()


def test_servers_starting_together_migrate_once(postgres_url: str) -> None:
    """Three processes migrating one new database at the same moment: the advisory lock
    lets one create the tables and the others find them made."""
    code = "import sys; from hukum.server.db import migrate; migrate(sys.argv[1])"
    processes = [
        subprocess.Popen([sys.executable, "-c", code, postgres_url], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    for process in processes:
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 0, stderr.decode()
    engine = create_engine(postgres_url)
    try:
        assert "events" in sql_inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_restart_on_postgres(postgres_url: str) -> None:
    """A real ``hukum serve`` on PostgreSQL, killed mid-deal and started again."""
    restart_in_the_middle_of_a_deal(postgres_url)
