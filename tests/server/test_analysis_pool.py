"""A real ``hukum serve`` process analyses a finished deal in its pool of worker processes,
and stops them all when it stops: no worker outlives the server."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.server.helpers import Player
from tests.server.test_restart import drive, free_port, run, start_server


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                children.add(int(entry.name))
    return children


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_the_analysis_workers_stop_with_the_server(tmp_path: Path) -> None:
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'hukum.db'}", port)
    try:
        base = f"http://127.0.0.1:{port}/api/tables"
        made = httpx.post(
            base, json={"start_now": True, "bots": "random", "options": {"deals": 2}}
        ).json()
        code = made["code"]
        run(drive(f"ws://127.0.0.1:{port}/ws/{code}", made["token"], Player(), moves=13))
        before = _children(server.pid)
        answer = httpx.get(f"{base}/{code}/deals/1/analysis", timeout=120).json()
        assert answer["status"] == "done" and answer["moves"]
        # The workers, one a core (and multiprocessing's resource tracker, if it started).
        workers = _children(server.pid) - before
        assert len(workers) >= (os.cpu_count() or 1)
        assert all(_alive(pid) for pid in workers)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    # The workers are joined before the server exits; the resource tracker ends on its own
    # once the server's end of its pipe closes: a moment to see it go.
    for _ in range(200):
        left = [pid for pid in workers if _alive(pid)]
        if not left:
            break
        time.sleep(0.05)
    assert not left, [_command(pid) for pid in left]


def _command(pid: int) -> str:
    """A process's command line, to say which one is left."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return f"{pid} (gone)"
