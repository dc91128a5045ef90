"""The server's worker processes (the computer players' decisions, fair-play screening):
each starts at a lower priority than the server's own process, and none outlives it.

A :class:`~concurrent.futures.ProcessPoolExecutor`'s worker waits for work on a queue whose
writing end every worker holds too, so a worker whose server was killed (``kill -9``, a
crash) would wait for ever; :func:`start_worker`, each worker's initializer, has it watch
its parent and end once the parent is gone. :func:`stop_pool` stops a pool's workers at
once, a task under way included (the server's shutdown does not wait for a long one).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["PARENT_CHECK", "start_worker", "stop_pool"]

#: Seconds between a worker's looks at whether its server is still there.
PARENT_CHECK = 1.0


def start_worker(nice: int) -> None:
    """A worker process's initializer: ``nice`` lower priority (POSIX), and end when the
    process that started it is gone."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    parent = os.getppid()
    threading.Thread(
        target=_end_with, args=(parent,), daemon=True, name="hukum-parent-watch"
    ).start()


def _end_with(parent: int) -> None:
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != parent:  # the parent died: this process was handed to another
            os._exit(0)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool``'s workers now: waiting tasks are cancelled and one under way is not
    waited for (its future fails with ``BrokenProcessPool``)."""
    workers = list((pool._processes or {}).values())  # no public way to stop them in 3.11
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=10)
