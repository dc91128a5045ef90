"""The interface every computer player implements, in every game, and the random player.

A bot sees a deal only through a seat's view (M-20, G-11) and answers with one of
``view.legal_moves``: in Mindi a card to play, the card to lay face down (band hukum, M-12),
the suit to announce (M-15) or :data:`~hukum.mindi.Move.REVEAL_TRUMP`; in Ganjifa a card,
a Dukal to lead or the cards given up to a Dukal (G-9).

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules.preset("hidden"), dealer=3, seed=1)
>>> bot = RandomBot(seed=5)
>>> bot.choose(deal.view(0)) in deal.legal_moves()
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from hukum.game import View

__all__ = ["Bot", "BotError", "RandomBot", "check_turn"]

M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)
V_contra = TypeVar("V_contra", bound=View[Any], contravariant=True)


class BotError(RuntimeError):
    """A bot asked to move when it may not, or given options it does not know."""


class Bot(ABC, Generic[V_contra, M_co]):
    """A computer player of one game: a name and one decision at a time from a seat's view
    ``V``, answered with a move ``M`` (``Bot[hukum.mindi.View, hukum.mindi.Move]``)."""

    name: str = "bot"

    @abstractmethod
    def choose(self, view: V_contra) -> M_co:
        """One of ``view.legal_moves``: the move this bot makes now."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def check_turn(view: View[M]) -> Sequence[M]:
    """The legal moves of ``view`` (of any game); raises :class:`BotError` when there are
    none."""
    moves = view.legal_moves
    if not moves:
        raise BotError(f"seat {view.seat} has no move to make (phase {view.phase})")
    return moves


class RandomBot(Bot[View[M], M]):
    """Uniform over the legal moves, from its own seeded generator (any game; an answer to
    a Ganjifa Dukal: uniform over every k cards)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View[M]) -> M:
        """A legal move chosen uniformly at random."""
        moves = check_turn(view)
        return moves[self.rng.randrange(len(moves))]
