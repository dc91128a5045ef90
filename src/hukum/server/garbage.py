"""A server's garbage collector, run by the clock.

CPython starts a collection of its youngest objects once allocations outnumber
deallocations by a threshold. A server in a steady state frees about as many objects as it
makes, so that count grows slowly while the young generation fills with every object made
since the last collection and still alive (each table's newest positions, messages on
their way, waiting tasks). With thresholds (50000, 20, 100), 1,000 clients alone with bots
(``scripts/load.py --mode bots --clients 1000``): every 5-6 s a young collection went
through 100,000 objects and stopped the event loop for 55-120 ms, and every two minutes a
collection of the middle generation through all that had survived since, for 680-720 ms
(timed by a gc callback in the server).

Run by the clock, each collection goes only through what its interval made: the young
generation every :data:`YOUNG_EVERY` seconds (up to 22 ms under that load), the middle one
every :data:`MIDDLE_EVERY` young collections (30-90 ms), everything every
:data:`FULL_EVERY` (344 ms: the oldest generation holds what lived longer than the
middle one's interval, e.g. the deals of every match in play, so its collections stay
rare). An object in a reference cycle is freed by the first collection of its generation
after it became garbage. The automatic collections stay, with thresholds
(:data:`THRESHOLDS`) a steady load never reaches: a net for a burst of allocation while the
event loop is held up.
"""

from __future__ import annotations

import asyncio
import gc

__all__ = ["FULL_EVERY", "MIDDLE_EVERY", "THRESHOLDS", "YOUNG_EVERY", "collecting", "pace"]

YOUNG_EVERY = 0.25
"""Seconds between collections of the young generation."""
MIDDLE_EVERY = 16
"""Young collections from one collection of the middle generation to the next (4 s)."""
FULL_EVERY = 2_400
"""Young collections from one full collection to the next (ten minutes)."""
THRESHOLDS = (200_000, 1_000, 1_000_000)
"""The automatic collections' thresholds while :func:`collecting` runs."""


def pace() -> None:
    """Leave the collections to :func:`collecting`, and what the process made so far (the
    server's start: code, the app) out of them for good."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


async def collecting() -> None:
    """Collect garbage by the clock, for ever (a task of the event loop, after :func:`pace`)."""
    count = 0
    while True:
        await asyncio.sleep(YOUNG_EVERY)
        count += 1
        if count % FULL_EVERY == 0:
            gc.collect(2)
        elif count % MIDDLE_EVERY == 0:
            gc.collect(1)
        else:
            gc.collect(0)
