"""The fair-play statistic, pure: from a player's screened decisions (those that matter, and
the hits among them, :mod:`hukum.screening`) to a verdict, clear, watch or flag.

The test is Wald's sequential probability ratio test between an honest hit rate ``p0`` and
a cheat's ``p1``, run without a lower boundary: after each deal the log-likelihood ratio

    L = hits * log(p1 / p0) + misses * log((1 - p1) / (1 - p0))

is updated, and a player is flagged the first time ``L`` reaches ``log(1 / alpha)``. For a
player whose true hit rate is at most ``p0`` the likelihood ratio is a nonnegative
supermartingale, so by Ville's inequality the chance that it *ever* reaches ``1 / alpha``,
however many deals are looked at and however often, is at most ``alpha``: the false-positive
rate is stated for the player's whole history, repeated looks included. ``p0`` must
therefore be an upper figure for honest players (:data:`HONEST_RATES`, measured by
``scripts/screening.py``); the verdict is ``watch`` once ``L`` reaches ``log(1 / WATCH)``
(a player the same test would flag at a 5 % false-positive rate) and ``flag`` once it has
reached ``log(1 / alpha)``; a flag stays (a moderator decides).

>>> tally = Tally()
>>> for _ in range(16):
...     tally = tally.add(matters=1, hits=1)
>>> tally.verdict()
'flag'
>>> Tally().add(matters=10, hits=3).verdict()
'clear'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ALPHA",
    "CHEAT_RATE",
    "HONEST_RATE",
    "HONEST_RATES",
    "WATCH",
    "Tally",
    "Verdict",
    "honest_rate",
    "log_ratio",
    "threshold",
    "verdict",
]

Verdict = Literal["clear", "watch", "flag"]

#: The false-positive rate of a flag: the chance that an honest player (hit rate at most the
#: ``p0`` used) is ever flagged, over all their deals.
ALPHA = 0.001

#: The false-positive rate of ``watch``.
WATCH = 0.05

#: The honest hit rate per level of play, measured (``scripts/screening.py``, 280 honest
#: player-deals, docs/fairplay.md): the share of the decisions that matter where the card
#: played was best only with the hidden hands (random 11/20, rules 7/17, search 13/32,
#: expert 6/17, the noisy expert 8/19). Few decisions: the 95 % intervals reach 0.59-0.74.
HONEST_RATES: dict[str, float] = {
    "random": 0.55,
    "rules": 0.41,
    "search": 0.41,
    "expert": 0.35,
    "noisy": 0.42,
}

#: The honest rate every player is judged against (see :func:`honest_rate`).
HONEST_RATE = 0.6

#: The cheat's hit rate the test is tuned to detect fastest.
CHEAT_RATE = 0.95


def honest_rate(level: str | None = None) -> float:
    """The honest hit rate a player is judged against: the highest measured of any level."""
    del level  # one rate for every strength: see docs/fairplay.md
    return HONEST_RATE


def threshold(alpha: float) -> float:
    """The log-likelihood ratio at which the test rejects honesty at false-positive rate
    ``alpha``."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} must be between 0 and 1")
    return math.log(1.0 / alpha)


def log_ratio(matters: int, hits: int, p0: float = HONEST_RATE, p1: float = CHEAT_RATE) -> float:
    """The log-likelihood ratio of ``hits`` in ``matters`` decisions, cheat rate ``p1``
    against honest rate ``p0``."""
    if not 0 <= hits <= matters:
        raise ValueError(f"hits={hits} must be from 0 to matters={matters}")
    if not 0.0 < p0 < p1 < 1.0:
        raise ValueError(f"need 0 < p0 < p1 < 1, got p0={p0!r}, p1={p1!r}")
    return hits * math.log(p1 / p0) + (matters - hits) * math.log((1 - p1) / (1 - p0))


@dataclass(frozen=True)
class Tally:
    """A player's running screening record: decisions that matter, hits, the current
    log-likelihood ratio and the highest it has reached."""

    matters: int = 0
    hits: int = 0
    llr: float = 0.0
    peak: float = 0.0
    deals: int = 0
    p0: float = HONEST_RATE
    p1: float = CHEAT_RATE

    def add(self, matters: int, hits: int) -> Tally:
        """The tally after one more screened deal with these counts."""
        llr = self.llr + log_ratio(matters, hits, self.p0, self.p1)
        return Tally(
            self.matters + matters,
            self.hits + hits,
            llr,
            max(self.peak, llr),
            self.deals + 1,
            self.p0,
            self.p1,
        )

    def verdict(self, alpha: float = ALPHA, watch: float = WATCH) -> Verdict:
        """This tally's :func:`verdict`."""
        return verdict(self, alpha, watch)


def verdict(tally: Tally, alpha: float = ALPHA, watch: float = WATCH) -> Verdict:
    """``flag`` once the tally's ratio has reached ``log(1/alpha)`` (it stays), ``watch``
    while it is at ``log(1/watch)`` or above, else ``clear``."""
    if tally.peak >= threshold(alpha) - 1e-12:
        return "flag"
    if tally.llr >= threshold(watch) - 1e-12:
        return "watch"
    return "clear"
