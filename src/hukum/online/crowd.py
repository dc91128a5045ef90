"""A crowd waiting in a quick-match pool, made up, and how long a wave takes to pair it
(``hukum bench --wave``): the wave runs in the event loop of a server process, so it must
stay well under :data:`WAVE_TARGET` to never stall the tables of that process.

The crowd is like a busy pool's: shown ratings around the start (1500) with the spread of
an established player base, about 5% parties of two, 2% of the tickets with a block against
someone else waiting, 3% leavers, and wait times from 0 to 40 s (so the countdown of some
is over and they get computer players).

>>> from hukum.online.pools import POOLS
>>> tickets = waiting_crowd(100, now=40.0, seed=1)
>>> len(tickets), len({p for t in tickets for p in t.players}) >= 100
(100, True)
>>> result = run_waves(POOLS["mindi"], tickets=200, waves=2)
>>> result.waves, result.tickets
(2, 200)
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from hukum.online.pools import Pool, Ticket, countdown_left, wave

__all__ = ["WAVE_TARGET", "WaveResult", "run_waves", "waiting_crowd"]

#: The time one wave of 10,000 waiting tickets should take at most, in seconds (issue 43).
WAVE_TARGET = 0.050

#: The crowd's make-up (shares of the tickets) and ratings (shown scale).
PARTIES = 0.05
BLOCKS = 0.02
LEAVERS = 0.03
MAX_WAIT = 40.0
RATING_MEAN = 1500.0
RATING_SPREAD = 300.0


def waiting_crowd(count: int, now: float, seed: int = 0) -> list[Ticket]:
    """``count`` tickets waiting at ``now``, made up from ``seed`` (see the module)."""
    rng = random.Random(seed)
    players: list[tuple[str, ...]] = [
        (f"p{i}a", f"p{i}b") if rng.random() < PARTIES else (f"p{i}",) for i in range(count)
    ]
    blocked: dict[int, set[str]] = {}
    for i in range(count):
        if count > 1 and rng.random() < BLOCKS:
            # A block between a player of this ticket and one of another's, known to both.
            j = rng.randrange(count - 1)
            j += j >= i
            blocked.setdefault(i, set()).add(rng.choice(players[j]))
            blocked.setdefault(j, set()).add(rng.choice(players[i]))
    return [
        Ticket(
            id=f"t{i}",
            players=players[i],
            rating=round(rng.gauss(RATING_MEAN, RATING_SPREAD), 1),
            since=now - rng.uniform(0.0, MAX_WAIT),
            blocked=frozenset(blocked.get(i, ())),
            leaver=rng.random() < LEAVERS,
        )
        for i in range(count)
    ]


@dataclass(frozen=True)
class WaveResult:
    """The figures of waves over made-up crowds of one pool."""

    pool: str
    tickets: int
    """Tickets waiting at each wave."""
    times: tuple[float, ...]
    """Seconds each wave took."""
    tables: int
    """Tables made, over all the waves."""
    people: int
    """People seated, over all the waves."""
    bots: int
    """Seats given to computer players, over all the waves."""
    overdue: int
    """Tickets whose countdown was over, over all the waves (each got a table)."""

    @property
    def waves(self) -> int:
        """How many waves ran."""
        return len(self.times)

    @property
    def median(self) -> float:
        """The median seconds of a wave."""
        return statistics.median(self.times)

    @property
    def bot_share(self) -> float:
        """The share of the seats given to computer players."""
        seats = self.people + self.bots
        return self.bots / seats if seats else 0.0


def run_waves(pool: Pool, tickets: int = 10_000, waves: int = 20, seed: int = 0) -> WaveResult:
    """Time ``waves`` waves of ``pool``, each over a fresh crowd of ``tickets`` (seeds from
    ``seed`` on); making the crowd is not timed."""
    times: list[float] = []
    tables = people = bots = overdue = 0
    now = 1_000.0
    for k in range(waves):
        crowd = waiting_crowd(tickets, now, seed + k)
        start = time.perf_counter()
        seatings = wave(pool, crowd, now)
        times.append(time.perf_counter() - start)
        tables += len(seatings)
        for seating in seatings:
            bots += seating.seats.count(None)
            people += len(seating.seats) - seating.seats.count(None)
        overdue += sum(1 for t in crowd if countdown_left(pool, t, now) == 0.0)
    return WaveResult(pool.name, tickets, tuple(times), tables, people, bots, overdue)
