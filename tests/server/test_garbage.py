"""The server's garbage collector, run by the clock (hukum.server.garbage): each generation
in turn, garbage in reference cycles freed, by the app that is asked to; and a finished
table that leaves memory is no such garbage (the full collection that would free it comes
only every ten minutes)."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hukum.server import garbage
from hukum.server.app import create_app
from tests.server.test_restart import run


class Node:
    """An object that can be put in a reference cycle."""

    other: Node | None = None


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The generations collected from now on (in any thread), with the clock's intervals
    short and the automatic collections as :func:`garbage.pace` sets them."""
    monkeypatch.setattr(garbage, "YOUNG_EVERY", 0.01)
    monkeypatch.setattr(garbage, "MIDDLE_EVERY", 3)
    monkeypatch.setattr(garbage, "FULL_EVERY", 6)
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.collect()
    gc.set_threshold(*garbage.THRESHOLDS)
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)


def test_each_generation_is_collected_in_turn_and_cycles_are_freed(
    collections: list[int],
) -> None:
    async def main() -> weakref.ref[Node]:
        node = Node()
        node.other = Node()
        node.other.other = node  # garbage only the collector frees
        freed = weakref.ref(node)
        del node
        task = asyncio.create_task(garbage.collecting())
        # A full collection of a test worker's heap is slow: wait for a dozen (a minute at most).
        until = time.monotonic() + 60
        while len(collections) < 12 and time.monotonic() < until:
            await asyncio.sleep(0.01)
        task.cancel()
        return freed

    freed = run(main())
    assert freed() is None
    # Young, young, middle, young, young, everything (FULL_EVERY 6), and so on.
    assert collections[:12] == [0, 0, 1, 0, 0, 2] * 2


def test_pace_leaves_what_the_start_made_out_of_collections() -> None:
    thresholds = gc.get_threshold()
    try:
        garbage.pace()
        assert gc.get_threshold() == garbage.THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_the_app_collects_while_it_runs(collections: list[int], tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'gc.db'}", bot_delay=0, collect_garbage=True)
    with TestClient(app):
        until = time.monotonic() + 60
        while 1 not in collections and time.monotonic() < until:
            time.sleep(0.01)
    assert collections.count(0) >= 2
    assert 1 in collections


def test_an_app_left_alone_does_not_collect(collections: list[int], tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gc.db'}", bot_delay=0)):
        time.sleep(0.2)
    assert collections == []


#: Run in a fresh interpreter (argument: a database URL): a one-deal match with bots played
#: to its end and left, then the garbage in reference cycles counted by type; threads other
#: tests left may make garbage meanwhile in a test worker.
_TABLE_LEFT = """
import collections, gc, sys, time
from fastapi.testclient import TestClient
from hukum.server.app import create_app
from tests.server.conftest import create, play
from tests.server.helpers import Player, seat_socket

app = create_app(sys.argv[1], bot_delay=0)
with TestClient(app) as client:
    def one():
        made = create(client, options={"deals": 1, "target": None}, start_now=True)
        with seat_socket(client, made["code"], made["token"]) as ws:
            play(ws, Player())
        until = time.monotonic() + 30
        while made["code"] in app.state.registry.tables and time.monotonic() < until:
            time.sleep(0.01)
        assert made["code"] not in app.state.registry.tables, "the table stayed in memory"
    one()  # caches filled
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    one()
    gc.collect()
    found = collections.Counter(type(o).__module__ for o in gc.garbage)
    print(sum(n for module, n in found.items() if module.startswith("hukum.")))
"""


def test_a_finished_table_that_leaves_memory_is_freed_at_once(tmp_path: Path) -> None:
    """A table's scheduler held the table, which holds the scheduler: each table a server
    forgot waited, with its match and every move, for a full collection."""
    url = f"sqlite:///{tmp_path / 'left.db'}"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _TABLE_LEFT, url],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        timeout=120,
    )
    assert done.stdout.split()[-1] == "0", done.stdout + done.stderr
