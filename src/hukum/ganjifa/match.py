"""A Ganjifa match: the draw for the first dealer (G-4) and ``rules.deals`` deals.

**House decisions.** The first dealer is drawn: each player draws a card, the highest by
its suit's own ranking deals (Raja highest, G-3), players drawing equal powers draw again
among themselves. The deal then passes anticlockwise. A match's score is each seat's
captured cards over all its deals; the highest total wins, equal totals share.

>>> from hukum.ganjifa import Match, Rules
>>> match = Match(Rules(), seed=42)
>>> match.draw.dealer, [str(c) for c in match.draw.rounds[0]]
(2, ['Ma1', 'Kr1', 'KrR'])
>>> deal = match.start_deal()
>>> while not deal.is_over():
...     deal.push(deal.legal_moves()[-1])
>>> match.is_over(), match.scores, match.winners()
(True, (39, 30, 51), (2,))
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hukum.ganjifa.cards import CARDS, Card
from hukum.ganjifa.deal import Deal
from hukum.ganjifa.outcome import Outcome
from hukum.ganjifa.rules import PLAYERS, Rules

__all__ = ["Draw", "Match", "MatchError", "deal_seed", "draw_first_dealer"]


class MatchError(ValueError):
    """A match operation out of order, e.g. a new deal before the current one ends."""


@dataclass(frozen=True)
class Draw:
    """The draw for the first dealer (house decision, G-4)."""

    rounds: tuple[tuple[Card, ...], ...]
    """Each round of drawing: the card drawn by each player still in the draw, by seat."""
    dealer: int
    """The seat of the first dealer."""


def draw_first_dealer(rng: random.Random) -> Draw:
    """Draw cards for the first dealer: the highest power deals; ties draw again."""
    rounds: list[tuple[Card, ...]] = []
    players = list(range(PLAYERS))
    while True:
        pack = list(CARDS)
        rng.shuffle(pack)
        drawn = pack[: len(players)]
        rounds.append(tuple(drawn))
        top = max(c.power for c in drawn)
        players = [p for p, c in zip(players, drawn, strict=True) if c.power == top]
        if len(players) == 1:
            return Draw(tuple(rounds), players[0])


def deal_seed(match_seed: int, number: int) -> int:
    """The seed of deal ``number`` (from 0) of a match, derived from the match's seed."""
    digest = hashlib.sha256(f"hukum-ganjifa:{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Match:
    """A series of ``rules.deals`` deals (one by default, as on Cardavia)."""

    def __init__(self, rules: Rules, seed: int) -> None:
        """A new match; ``seed`` decides the first-dealer draw and every deal."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a seed is an int, not {type(seed).__name__}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__}")
        self.rules = rules
        self.seed = seed
        self.draw = draw_first_dealer(random.Random(seed))
        self.deals: list[Deal] = []

    @property
    def current(self) -> Deal | None:
        """The deal in progress, if any."""
        if self.deals and not self.deals[-1].is_over():
            return self.deals[-1]
        return None

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress, or of the next deal."""
        if not self.deals:
            return self.draw.dealer
        last = self.deals[-1]
        return last.dealer if not last.is_over() else Rules.next_seat(last.dealer)

    def start_deal(
        self, seed: int | None = None, hands: Sequence[Sequence[Card | int | str]] | None = None
    ) -> Deal:
        """Deal the next deal: from the match's own seed, from ``seed``, or from given hands."""
        if self.is_over():
            raise MatchError("the match is over")
        if self.current is not None:
            raise MatchError("the deal in progress must end before the next one starts")
        if hands is not None:
            deal = Deal(self.rules, self.dealer, hands, seed=seed)
        else:
            if seed is None:
                seed = deal_seed(self.seed, len(self.deals))
            deal = Deal.new(self.rules, self.dealer, seed)
        self.deals.append(deal)
        return deal

    @property
    def outcomes(self) -> list[Outcome]:
        """The outcomes of the finished deals."""
        return [o for o in (d.outcome() for d in self.deals) if o is not None]

    @property
    def scores(self) -> tuple[int, int, int]:
        """Cards captured by each seat over the finished deals."""
        a, b, c = (sum(o.scores[s] for o in self.outcomes) for s in range(PLAYERS))
        return a, b, c

    def is_over(self) -> bool:
        """Whether every deal of the match has been played."""
        return self.current is None and len(self.outcomes) >= self.rules.deals

    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total (several share it), or () while it runs."""
        if not self.is_over():
            return ()
        return Outcome.of(self.scores).winners
