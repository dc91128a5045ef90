"""The journal (group commit, issue 18): the events many tables append at once are written
in one transaction; a bad event fails alone; a stopping server leaves nobody waiting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hukum.server.db import NewEvent, Store, make_engine, migrate
from hukum.server.tables.journal import Journal
from tests.server.test_restart import run  # in a thread: a browser test's loop may be running


def _store(tmp_path: Path, rooms: int) -> Store:
    url = f"sqlite:///{tmp_path / 'journal.sqlite'}"
    migrate(url)
    store = Store(make_engine(url))
    for i in range(rooms):
        assert store.create_room(f"room{i:04d}", {})
    return store


def _counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each transaction the store writes."""
    sizes: list[int] = []
    append_many = store.append_many

    def counted(events: list[NewEvent]) -> None:
        sizes.append(len(events))
        append_many(events)

    monkeypatch.setattr(store, "append_many", counted)
    return sizes


def test_the_events_of_many_tables_go_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path, 50)
    sizes = _counting(store, monkeypatch)

    async def scenario() -> None:
        journal = Journal(store)
        writes = [journal.append(NewEvent(f"room{i:04d}", 1, "deal", {"n": i})) for i in range(50)]
        await asyncio.gather(*writes)
        # and the next event of each, once the first is stored
        await asyncio.gather(
            *(journal.append(NewEvent(f"room{i:04d}", 2, "move", {"n": i})) for i in range(50))
        )

    run(scenario())
    assert sizes == [50, 50]
    for i in range(50):
        events = store.events(f"room{i:04d}")
        assert [(e.number, e.kind, e.data) for e in events] == [
            (1, "deal", {"n": i}),
            (2, "move", {"n": i}),
        ]


def test_an_event_that_cannot_be_written_fails_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path, 3)
    store.append("room0001", 1, "deal", {})  # as if another process had written it
    sizes = _counting(store, monkeypatch)

    async def scenario() -> list[BaseException | None]:
        journal = Journal(store)
        writes = [journal.append(NewEvent(f"room{i:04d}", 1, "deal", {"n": i})) for i in range(3)]
        return await asyncio.gather(*writes, return_exceptions=True)

    outcomes = run(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert "UNIQUE" in str(outcomes[1])
    assert sizes == [3, 1, 1, 1]  # the batch, then one by one
    assert [e.data for e in store.events("room0000")] == [{"n": 0}]
    assert [e.data for e in store.events("room0001")] == [{}]
    assert [e.data for e in store.events("room0002")] == [{"n": 2}]


def test_a_writer_cancelled_before_it_began_leaves_nobody_waiting(tmp_path: Path) -> None:
    store = _store(tmp_path, 1)

    async def scenario() -> None:
        journal = Journal(store)
        write = journal.append(NewEvent("room0000", 1, "deal", {}))
        writer = journal._writer
        assert writer is not None
        writer.cancel()  # as asyncio.run does to every task left when the server stops
        with pytest.raises(RuntimeError, match="server stopped"):
            await asyncio.wait_for(write, timeout=5)
        # and the journal writes again afterwards
        await journal.append(NewEvent("room0000", 1, "deal", {"again": True}))

    run(scenario())
    assert [e.data for e in store.events("room0000")] == [{"again": True}]


def test_a_table_appends_again_as_soon_as_its_event_is_written(tmp_path: Path) -> None:
    """The next event comes the moment the writer has written the last one, before the
    writer's task has ended (this failed it: "the server stopped")."""
    store = _store(tmp_path, 1)

    async def scenario() -> None:
        journal = Journal(store)
        for number in range(1, 6):
            await journal.append(NewEvent("room0000", number, "move", {}))

    run(scenario())
    assert [e.number for e in store.events("room0000")] == [1, 2, 3, 4, 5]
