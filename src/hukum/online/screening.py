"""The fair-play statistic, pure: from a player's screened decisions that matter
(:mod:`hukum.screening`) to a verdict, clear, watch or flag.

Each decision that matters is judged against chance. Its ``chance`` ``q`` is the share of
the legal cards that are best for the solver (``|best| / |legal|``): the chance of a hit by
picking a legal card at random. The null hypothesis is that an honest player hits with
probability at most ``q``: no better than a random legal card (where the view-based choice
and the solver's best differ, an honest player's preference for the view's cards makes hits
rarer than chance; the honest runs of ``scripts/screening.py`` check it, docs/fairplay.md).
The alternative is a cheat who plays a best card by chance or, in :data:`CHEAT_SHARE` of
the other cases, on purpose. A decision's log-likelihood ratio is :func:`step`:

    hit:  log((q + (1 - q) * share) / q)        miss:  log(1 - share)

A deal's steps, summed per seat, are ``SeatTotals.llr``; :meth:`Tally.add` adds them to
the player's ratio ``L``, run as Wald's sequential probability ratio test without a lower
boundary. Under the null the likelihood ratio is a nonnegative supermartingale, so by
Ville's inequality the chance that it *ever* reaches ``1 / alpha``, however many deals are
looked at and however often, is at most ``alpha``: the false-positive rate is stated for
the player's whole history, repeated looks included, and for every strength of play (no
honest hit rate to measure per level). The verdict is ``watch`` while ``L`` is at
``log(1 / WATCH)`` or above (a player the same test would flag at a 5 % false-positive
rate) and ``flag`` once it has reached ``log(1 / alpha)``; a flag stays (a moderator
decides).

>>> tally = Tally()
>>> for _ in range(7):  # seven hits where a quarter of the legal cards were best
...     tally = tally.add(matters=1, hits=1, llr=step(0.25, hit=True))
>>> tally.verdict()
'flag'
>>> Tally().add(matters=3, hits=1, llr=step(0.5, True) + 2 * step(0.5, False)).verdict()
'clear'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from hukum.screening import CHEAT_SHARE, step

__all__ = [
    "ALPHA",
    "CHEAT_SHARE",
    "WATCH",
    "Tally",
    "Verdict",
    "step",
    "threshold",
    "verdict",
]

Verdict = Literal["clear", "watch", "flag"]

#: The false-positive rate of a flag: the chance that an honest player (a hit no likelier
#: than a random legal card at each decision that matters) is ever flagged, over all their
#: deals.
ALPHA = 0.001

#: The false-positive rate of ``watch``.
WATCH = 0.05


def threshold(alpha: float) -> float:
    """The log-likelihood ratio at which the test rejects honesty at false-positive rate
    ``alpha``."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} must be between 0 and 1")
    return math.log(1.0 / alpha)


@dataclass(frozen=True)
class Tally:
    """A player's running screening record: decisions that matter, hits, the current
    log-likelihood ratio and the highest it has reached."""

    matters: int = 0
    hits: int = 0
    llr: float = 0.0
    peak: float = 0.0
    deals: int = 0

    def add(self, matters: int, hits: int, llr: float) -> Tally:
        """The tally after one more screened deal: its decisions that matter, the hits
        among them and its log-likelihood ratio (:func:`step` summed over those decisions,
        ``SeatTotals.llr``)."""
        if not 0 <= hits <= matters:
            raise ValueError(f"hits={hits} must be from 0 to matters={matters}")
        if not math.isfinite(llr) or (matters == 0 and llr != 0.0):
            raise ValueError(f"llr={llr!r} must be finite, and 0 with no decision that matters")
        total = self.llr + llr
        return Tally(
            self.matters + matters,
            self.hits + hits,
            total,
            max(self.peak, total),
            self.deals + 1,
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
