"""The interface of Ganjifa computer players, and the random player.

A bot sees a deal only through a :class:`~hukum.ganjifa.View` (G-11) and answers with one of
``view.legal_moves``: a card, a Dukal to lead, or the k cards to give up to a Dukal (G-9).

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> RandomBot(seed=5).choose(deal.view(0))
Move.parse('RaR')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from hukum.bots.base import check_turn
from hukum.ganjifa import Move, View

__all__ = ["GanjifaBot", "RandomBot", "check_turn"]


class GanjifaBot(ABC):
    """A Ganjifa computer player: a name and one decision at a time from a seat's view."""

    name: str = "bot"

    @abstractmethod
    def choose(self, view: View) -> Move:
        """One of ``view.legal_moves``: the move this bot makes now."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomBot(GanjifaBot):
    """Uniform over the legal moves (an answer to a Dukal: uniform over every k cards)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        """A legal move chosen uniformly at random."""
        moves = check_turn(view)
        return moves[self.rng.randrange(len(moves))]
