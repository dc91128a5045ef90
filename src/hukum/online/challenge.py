"""The daily challenge (README, "Daily challenge"): every account plays the same
:data:`DEALS` Mindi deals of the day from seat :data:`SEAT`, the expert at the three other
seats, and each deal is matchpointed against everyone who played it.

Pure: no database, no clock. The server (:mod:`hukum.server.play.challenge`) stores the
days, their deals and the entries, and gives this module the results.

>>> import datetime as dt
>>> day = dt.date(2026, 12, 9)  # a Wednesday
>>> preset_of(day), preset_of(day + dt.timedelta(days=1))
('hidden', 'classic')
>>> [dealer_of(n) for n in range(1, DEALS + 1)]
[0, 1, 2, 3, 0, 1, 2, 3]
>>> week_of(day), days_of_week("2026-W50")[0]
('2026-W50', datetime.date(2026, 12, 7))
>>> closes_at(day).isoformat()
'2026-12-10T00:00:00+00:00'
>>> percentages([Result("a", 3, 8, True), Result("b", 1, 5, False), Result("c", 3, 8, True)])
{'a': 75.0, 'b': 0.0, 'c': 75.0}
>>> percentages([Result("alone", 0, 0, False)])
{'alone': 50.0}
>>> day_score([100.0, 50.0, None, None, None, None, None, None])
18.75
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hukum.games import game_named

__all__ = [
    "BAND_DAYS",
    "DEALS",
    "GAME",
    "OPTIONS",
    "SEAT",
    "Result",
    "bot_seed",
    "closes_at",
    "day_score",
    "days_of_week",
    "deal_key",
    "dealer_of",
    "match_seed_for",
    "parse_deal_key",
    "percentages",
    "preset_of",
    "rules_of",
    "week_of",
    "week_score",
]

#: Deals a day.
DEALS = 8
#: The person's seat (the expert plays the others: partner at 2, opponents at 1 and 3).
SEAT = 0
#: The game of every challenge deal.
GAME = "mindi"
#: The match of a challenge table: one deal (the rules' ``deals`` and ``target``).
OPTIONS: Mapping[str, Any] = {"deals": 1, "target": None}
#: The weekdays (Monday 0) whose deals are band hukum (the hidden trump, preset
#: ``hidden``): Wednesday and Sunday. The other days play ``classic`` (cut hukum).
BAND_DAYS = frozenset({2, 6})
#: The computer player at the other seats.
BOT = "expert"

_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_KEY = re.compile(r"(\d{4}-\d{2}-\d{2})/([1-9]\d*)")


def preset_of(day: dt.date) -> str:
    """The Mindi preset of a day's deals: ``hidden`` (band hukum) on Wednesdays and
    Sundays, else ``classic``."""
    return "hidden" if day.weekday() in BAND_DAYS else "classic"


def rules_of(day: dt.date) -> object:
    """The rules of a day's deals: its preset, one deal a match."""
    return game_named(GAME).make_rules(preset_of(day), dict(OPTIONS))


def dealer_of(number: int) -> int:
    """The dealer of deal ``number`` (1 to :data:`DEALS`): ``(number - 1) % 4``."""
    if not 1 <= number <= DEALS:
        raise ValueError(f"a challenge deal is numbered 1 to {DEALS}, not {number}")
    return (number - 1) % 4


def deal_key(day: dt.date, number: int) -> str:
    """A challenge deal's name in a table's settings, e.g. ``2026-12-07/3``."""
    dealer_of(number)
    return f"{day.isoformat()}/{number}"


def parse_deal_key(key: str) -> tuple[dt.date, int]:
    """The day and number of :func:`deal_key`'s text (ValueError if it is not one)."""
    m = _KEY.fullmatch(key)
    if m is None:
        raise ValueError(f"not a challenge deal: {key!r}")
    day, number = dt.date.fromisoformat(m[1]), int(m[2])
    dealer_of(number)
    return day, number


def _hash64(*parts: object) -> int:
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def bot_seed(deal_seed: int, seat: int, moves: int) -> int:
    """The seed of the expert that decides at ``seat`` after ``moves`` moves of the deal
    dealt from ``deal_seed``: the same moves get the same reply, on any process.

    >>> bot_seed(7, 1, 0) == bot_seed(7, 1, 0) != bot_seed(7, 1, 1)
    True
    """
    return _hash64("hukum-challenge-bot", deal_seed, seat, moves) >> 32


def match_seed_for(rules: object, dealer: int, deal_seed: int) -> int:
    """A match seed whose first-dealer draw gives ``dealer`` (the table's ``start`` event
    holds it, so a table read back from its log deals from the same dealer); derived from
    the deal's seed, so it is the same for everyone.

    >>> spec = game_named("mindi")
    >>> rules = spec.make_rules("classic", dict(OPTIONS))
    >>> [spec.new_match(rules, match_seed_for(rules, d, 99)).dealer for d in range(4)]
    [0, 1, 2, 3]
    """
    spec = game_named(GAME)
    for attempt in range(10_000):
        seed = _hash64("hukum-challenge-match", deal_seed, attempt)
        if spec.new_match(rules, seed).dealer == dealer:
            return seed
    raise ValueError(f"no match seed draws dealer {dealer}")  # pragma: no cover


@dataclass(frozen=True)
class Result:
    """One player's result on one deal, for their team (seats 0 and 2)."""

    key: str
    """Who played it (the server's player id; never shown)."""
    tens: int
    tricks: int
    won: bool
    finished: bool = True
    """False: started and not finished (it scores 0, below everyone who finished)."""

    @property
    def order(self) -> tuple[int, int, int]:
        """What is compared: tens, then tricks, then whether the deal was won."""
        return (self.tens, self.tricks, int(self.won))


def percentages(results: Sequence[Result]) -> dict[str, float]:
    """Each player's matchpoints on one deal as a percentage: against each other player, 1
    for a better result, 1/2 for an equal one, over the number of others, times 100; alone
    on the deal, 50. An unfinished deal scores 0 (and every finished one beats it)."""
    n = len(results)
    out: dict[str, float] = {}
    for r in results:
        if not r.finished:
            out[r.key] = 0.0
            continue
        if n == 1:
            out[r.key] = 50.0
            continue
        points = 0.0
        for other in results:
            if other is r:
                continue
            if not other.finished or r.order > other.order:
                points += 1.0
            elif r.order == other.order:
                points += 0.5
        out[r.key] = points / (n - 1) * 100.0
    return out


def day_score(percentages_of_8: Sequence[float | None]) -> float:
    """A day's score: the mean over its :data:`DEALS` deals (a deal not played, None or
    missing, counts 0)."""
    if len(percentages_of_8) > DEALS:
        raise ValueError(f"a day has {DEALS} deals, not {len(percentages_of_8)}")
    return sum(p or 0.0 for p in percentages_of_8) / DEALS


def week_score(day_scores: Sequence[float | None]) -> float:
    """A week's score: the mean of its 7 days' scores (a day not played counts 0)."""
    if len(day_scores) > 7:
        raise ValueError(f"a week has 7 days, not {len(day_scores)}")
    return sum(s or 0.0 for s in day_scores) / 7


def week_of(day: dt.date) -> str:
    """The ISO week of a day, e.g. ``2026-W49``."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def days_of_week(week: str) -> list[dt.date]:
    """The 7 days (Monday to Sunday) of an ISO week named as :func:`week_of` names it
    (ValueError if it is not one)."""
    m = _WEEK.fullmatch(week)
    if m is None:
        raise ValueError(f"not an ISO week (e.g. 2026-W49): {week!r}")
    year, number = int(m[1]), int(m[2])
    return [dt.date.fromisocalendar(year, number, d) for d in range(1, 8)]


def closes_at(day: dt.date) -> dt.datetime:
    """When a day's challenge closes: 00:00 UTC the next day."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=dt.UTC)
