"""A match: the first-dealer draw (M-5), a series of deals, dealer rotation (M-19), points (M-18).

>>> from hukum.mindi import Match, Rules
>>> match = Match(Rules.preset("classic", target=3), seed=42)
>>> match.draw.dealer, [str(c) for c in match.draw.rounds[0]]
(2, ['J♣', 'Q♦', 'A♦', '5♣'])
>>> while not match.is_over():
...     deal = match.start_deal()
...     while not deal.is_over():
...         deal.push(deal.legal_moves()[0])
>>> match.scores, match.winner(), [d.dealer for d in match.deals]
((3, 1), 0, [2, 3, 0])
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hukum.cards import Card, bits, deck
from hukum.mindi.deal import Deal
from hukum.mindi.outcome import Outcome
from hukum.mindi.rules import Rules

__all__ = ["Draw", "Match", "MatchError", "deal_seed", "draw_first_dealer", "next_dealer"]


class MatchError(ValueError):
    """A match operation out of order, e.g. a new deal before the current one ends."""


@dataclass(frozen=True)
class Draw:
    """The draw for the first dealer (M-5), which may also set the partnerships."""

    rounds: tuple[tuple[Card, ...], ...]
    """Each round of drawing: the card drawn by each player still in the draw, by player
    number; players out of a round (not tied) are absent, in order."""
    order: tuple[int, ...]
    """Players from the highest draw to the lowest."""
    seating: tuple[int, ...]
    """The player in each seat (``seating[seat]``); identity unless the draw sets teams."""
    dealer: int
    """The seat of the first dealer."""


def _rank_players(
    players: Sequence[int], rng: random.Random, size: int, rounds: list[tuple[Card, ...]]
) -> list[int]:
    """Players ordered by a draw, highest first; equal ranks redraw among themselves (M-5)."""
    pack = list(bits(deck(size)))
    rng.shuffle(pack)
    drawn = dict(zip(players, pack, strict=False))
    rounds.append(tuple(drawn[p] for p in players))
    by_rank: dict[int, list[int]] = {}
    for p in players:
        by_rank.setdefault(drawn[p].rank, []).append(p)
    order: list[int] = []
    for rank in sorted(by_rank, reverse=True):
        tied = by_rank[rank]
        order += tied if len(tied) == 1 else _rank_players(tied, rng, size, rounds)
    return order


def draw_first_dealer(rules: Rules, rng: random.Random) -> Draw:
    """Draw cards for the first dealer (M-5); with ``draw_partnerships`` also for the teams.

    House decision: when the draw sets the teams, the higher half sits in the even seats
    and the lower half in the odd seats, each in draw order, so partners sit opposite.
    """
    n = rules.players
    rounds: list[tuple[Card, ...]] = []
    order = _rank_players(range(n), rng, rules.deck, rounds)
    seating = list(range(n))
    if rules.draw_partnerships:
        high, low = order[: n // 2], order[n // 2 :]
        seating = [high[s // 2] if s % 2 == 0 else low[s // 2] for s in range(n)]
    seat_of = {player: seat for seat, player in enumerate(seating)}
    if rules.first_dealer == "random":
        dealer = rng.randrange(n)
    else:
        dealer = seat_of[order[0] if rules.first_dealer == "highest" else order[-1]]
    return Draw(tuple(rounds), tuple(order), tuple(seating), dealer)


def next_dealer(rules: Rules, dealer: int, outcome: Outcome) -> int:
    """Who deals after a deal with this dealer and outcome (M-19)."""
    if rules.dealer_rotation == "rotate" or outcome.winner == dealer % 2:
        return rules.next_seat(dealer)
    if outcome.kind == "whitewash":
        # The dealer's next team-mate in play order (their partner with 4 players).
        seat = rules.next_seat(dealer)
        while seat % 2 != dealer % 2:
            seat = rules.next_seat(seat)
        return seat
    return dealer


def deal_seed(match_seed: int, number: int) -> int:
    """The seed of deal ``number`` (from 0) of a match, derived from the match's seed."""
    digest = hashlib.sha256(f"hukum-mindi:{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Match:
    """A series of deals under one set of rules, to a target of points or a number of deals."""

    def __init__(self, rules: Rules, seed: int) -> None:
        """A new match; ``seed`` decides the first-dealer draw and every deal."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a seed is an int, not {type(seed).__name__}")
        self.rules = rules
        self.seed = seed
        self.draw = draw_first_dealer(rules, random.Random(seed))
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
        outcome = last.outcome()
        if outcome is None:
            return last.dealer
        return next_dealer(self.rules, last.dealer, outcome)

    def start_deal(
        self,
        seed: int | None = None,
        hands: Sequence[Sequence[Card | int | str]] | None = None,
        shown_card: Card | int | str | None = None,
    ) -> Deal:
        """Deal the next deal: from the match's own seed, from ``seed``, or from given hands."""
        if self.is_over():
            raise MatchError("the match is over")
        if self.current is not None:
            raise MatchError("the deal in progress must end before the next one starts")
        dealer = self.dealer
        if hands is not None:
            deal = Deal(self.rules, dealer, hands, shown_card=shown_card, seed=seed)
        else:
            if seed is None:
                seed = deal_seed(self.seed, len(self.deals))
            deal = Deal.new(self.rules, dealer, seed)
        self.deals.append(deal)
        return deal

    @property
    def outcomes(self) -> list[Outcome]:
        """The outcomes of the finished deals."""
        return [o for o in (d.outcome() for d in self.deals) if o is not None]

    @property
    def scores(self) -> tuple[int, int]:
        """Match points of team 0 and team 1 (M-18)."""
        outcomes = self.outcomes
        a = sum(o.points for o in outcomes if o.winner == 0)
        b = sum(o.points for o in outcomes if o.winner == 1)
        return a, b

    def is_over(self) -> bool:
        """Whether a team reached the target, or the number of deals was played."""
        if self.current is not None:
            return False
        target, limit = self.rules.target, self.rules.deals
        if target is not None and max(self.scores) >= target:
            return True
        return limit is not None and len(self.outcomes) >= limit

    def winner(self) -> int | None:
        """The team that won the match (None while it runs, or if it ended level)."""
        if not self.is_over():
            return None
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)
