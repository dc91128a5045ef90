"""The server's worker processes (:mod:`hukum.server.workers`) end with their server: a
worker whose server was killed does not wait for work for ever (a pool stopped with a task
under way: tests/server/test_screening_server.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

#: A server stand-in: a pool of workers as the server makes them, their ids printed,
#: then killed as by ``kill -9``.
KILLED = """
import os, signal, sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from hukum.server.workers import start_worker

if __name__ == "__main__":
    pool = ProcessPoolExecutor(2, mp_context=get_context("spawn"), initializer=start_worker,
                               initargs=(0,))
    ids = {pool.submit(os.getpid).result() for _ in range(8)}
    ids |= {pid for pid in pool._processes}
    print(" ".join(map(str, sorted(ids))), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone but for its parent's wait: not alive either.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_workers_end_when_their_server_is_killed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED], capture_output=True, text=True, timeout=120
    )
    workers = [int(pid) for pid in done.stdout.split()]
    assert workers, (done.stdout, done.stderr)
    give_up = time.monotonic() + 60
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < give_up, "a worker outlived its killed server"
        time.sleep(0.2)
