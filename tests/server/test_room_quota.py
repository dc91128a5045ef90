"""What a long-running server keeps for each room it makes (scripts/load.py --soak: a
thousand rooms a minute from one address, the quota lifted): the room quota
(``hukum serve --rooms-per-hour``, a limit of :mod:`hukum.server.throttle`) counts each room
for an hour, and its memory of an address is bounded; the end of a match leaves no garbage
in reference cycles, which a server frees only when its garbage collector goes through its
oldest objects (every ten minutes: hukum.server.garbage)."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from hukum.server.protocol import ProtocolError, http_status
from hukum.server.throttle import MOVING_MAX, Throttle
from tests.server.test_throttle import clock, run

__all__ = ["clock"]  # the fixture: the time the in-memory counts see


def take(quota: Throttle, address: str) -> None:
    """Count one room for ``address``, or refuse it (as ``POST /api/tables`` does)."""
    run(quota.take(("rooms", address)))


def test_the_quota_of_an_address_keeps_bounded_memory(clock: list[float]) -> None:
    """A thousand rooms a minute from one address, with the quota lifted: what the quota
    keeps of the address does not grow with the rooms it made in the last hour (a moving
    window keeps a time for each, 10,000 of them after ten minutes: a quota over
    MOVING_MAX counts in a sliding window of two counters)."""
    quota = Throttle(rooms_per_hour=1_000_000)
    assert quota.limits["rooms"].item.amount > MOVING_MAX
    tracemalloc.start()
    try:
        for _ in range(1_000):  # the first minute
            clock[0] += 0.06
            take(quota, "127.0.0.1")
        before = tracemalloc.take_snapshot()
        for _ in range(9_000):  # the next nine minutes
            clock[0] += 0.06
            take(quota, "127.0.0.1")
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    ours = [tracemalloc.Filter(True, "*limits*")]
    grown = sum(
        s.size_diff
        for s in after.filter_traces(ours).compare_to(before.filter_traces(ours), "filename")
    )
    assert grown < 8_000  # a time a room: over 70 KB
    memory = quota._memory
    assert not memory.events and len(memory.storage) <= 2


def test_rooms_count_for_an_hour_each(clock: list[float]) -> None:
    quota = Throttle(rooms_per_hour=3)
    take(quota, "a")  # minute 0
    clock[0] += 1200
    take(quota, "a")  # minute 20
    clock[0] += 1200
    take(quota, "a")  # minute 40
    with pytest.raises(ProtocolError) as refused:
        take(quota, "a")
    assert refused.value.code == "too_many_rooms" and http_status(refused.value.code) == 429
    assert refused.value.details["retry_after"] == 1201  # when the first is an hour old
    clock[0] += 1201
    take(quota, "a")  # the first no longer counts
    with pytest.raises(ProtocolError):
        take(quota, "a")
    clock[0] += 1200
    take(quota, "a")  # nor the second


def test_one_address_does_not_hold_another_back(clock: list[float]) -> None:
    quota = Throttle(rooms_per_hour=2)
    take(quota, "a")
    clock[0] += 50
    take(quota, "a")
    with pytest.raises(ProtocolError) as refused:
        take(quota, "a")
    assert refused.value.details["retry_after"] == 3551  # when the first is an hour old
    take(quota, "b")
    clock[0] += 3549.5
    with pytest.raises(ProtocolError):
        take(quota, "a")  # the first is not quite an hour old
    clock[0] += 0.6
    take(quota, "a")
    with pytest.raises(ProtocolError):
        take(quota, "a")  # the second still counts


#: The measurement of the test below, run in a fresh interpreter: in the test process,
#: threads other tests left (servers, pools) may make garbage while it measures.
_CYCLES = """
import gc, sys
from hukum.server.db import NewEvent, Store, make_engine, migrate
url = sys.argv[1]
migrate(url)
store = Store(make_engine(url))
for code in ("warmup00", "measured"):
    store.create_room(code, {})
store.append_many([NewEvent("warmup00", 1, "match_over", {})])  # caches filled
gc.collect()
gc.disable()
store.append_many([NewEvent("measured", 1, "match_over", {})])
found = gc.collect()
gc.enable()
print(found, len(store.active_rooms()))
store.close()
store.engine.dispose()
"""


def test_the_end_of_a_match_is_stored_without_garbage(tmp_path: Path) -> None:
    """Marking a room finished built a statement with the room's code in it, which holds
    its parameters in reference cycles: garbage at the end of every match."""
    url = f"sqlite:///{tmp_path / 'cycles.db'}"
    done = subprocess.run(
        [sys.executable, "-c", _CYCLES, url], capture_output=True, text=True, check=True
    )
    found, active = map(int, done.stdout.split())
    assert found == 0, f"{found} objects left in reference cycles"
    assert active == 0
