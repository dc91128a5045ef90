"""What a long-running server keeps for each room it makes (scripts/load.py --soak: a
thousand rooms a minute from one address, the quota lifted): the room quota
(``hukum serve --rooms-per-hour``) counts rooms by the minute, so its memory of an address
is bounded; the end of a match leaves no garbage in reference cycles, which a server frees
only when its garbage collector goes through its oldest objects (every ten minutes:
hukum.server.garbage)."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from hukum.server.protocol import ProtocolError, http_status
from hukum.server.routes import lobby
from hukum.server.routes.lobby import RoomQuota


def kept(quota: RoomQuota, take: int, at: list[float], step: float) -> int:
    """Bytes allocated in lobby.py, still held, after ``take`` more rooms ``step`` s apart."""
    tracemalloc.start()
    try:
        for _ in range(take):
            at[0] += step
            quota.take("127.0.0.1")
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    ours = snapshot.filter_traces([tracemalloc.Filter(True, lobby.__file__)])
    return sum(stat.size for stat in ours.statistics("filename"))


def test_the_quota_of_an_address_keeps_bounded_memory() -> None:
    """A thousand rooms a minute from one address, with the quota lifted: what the quota
    keeps of the address does not grow with the rooms it made in the last hour (it kept a
    time for each room, 30,000 of them after half an hour)."""
    now = [0.0]
    quota = RoomQuota(1_000_000, clock=lambda: now[0])
    kept(quota, 3_000, now, 0.06)  # the first three minutes
    grown = kept(quota, 27_000, now, 0.06)  # the next 27 minutes
    assert grown < 8_000  # a count a minute (a time a room: over 200 KB)


def test_rooms_count_for_an_hour_each() -> None:
    now = [10_000.0]
    quota = RoomQuota(3, clock=lambda: now[0])
    quota.take("a")  # minute 0
    now[0] += 1200
    quota.take("a")  # minute 20
    now[0] += 1200
    quota.take("a")  # minute 40
    with pytest.raises(ProtocolError) as refused:
        quota.take("a")
    assert refused.value.code == "too_many_rooms" and http_status(refused.value.code) == 429
    assert refused.value.details["retry_after"] == 1201  # when the first is an hour old
    now[0] += 1201
    quota.take("a")  # the first no longer counts
    with pytest.raises(ProtocolError):
        quota.take("a")
    now[0] += 1200
    quota.take("a")  # nor the second


def test_rooms_of_one_minute_count_until_its_last_is_an_hour_old() -> None:
    """Counted by the minute: a room counts at most a minute more than an hour."""
    now = [60_000.0]  # the start of a minute
    quota = RoomQuota(2, clock=lambda: now[0])
    quota.take("a")
    now[0] += 50
    quota.take("a")  # the same minute
    with pytest.raises(ProtocolError) as refused:
        quota.take("a")
    assert refused.value.details["retry_after"] == 3601  # when the later is an hour old
    now[0] += 3550.5  # the first is an hour old, not the second: both count still
    with pytest.raises(ProtocolError):
        quota.take("a")
    now[0] += 49.5
    quota.take("a")
    quota.take("a")


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
