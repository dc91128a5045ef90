"""The interface every Mindi computer player implements, and the random player.

A bot sees a deal only through a :class:`~hukum.mindi.View` (M-20) and answers with one of
``view.legal_moves``: a card to play, the card to lay face down (band hukum, M-12), the suit
to announce (M-15) or :data:`Move.REVEAL_TRUMP` (band hukum, ``reveal=on_request``).

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
from typing import Protocol, TypeVar

from hukum.mindi import Move, View

__all__ = ["Bot", "BotError", "RandomBot", "check_turn"]

M_co = TypeVar("M_co", covariant=True)


class BotError(RuntimeError):
    """A bot asked to move when it may not, or given options it does not know."""


class Bot(ABC):
    """A computer player: a name and one decision at a time from a seat's view."""

    name: str = "bot"

    @abstractmethod
    def choose(self, view: View) -> Move:
        """One of ``view.legal_moves``: the move this bot makes now."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class _Turn(Protocol[M_co]):
    """What :func:`check_turn` needs of a view, of either game."""

    @property
    def seat(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def legal_moves(self) -> Sequence[M_co]: ...


def check_turn(view: _Turn[M_co]) -> Sequence[M_co]:
    """The legal moves of ``view`` (Mindi or Ganjifa); raises :class:`BotError` when there
    are none."""
    moves = view.legal_moves
    if not moves:
        raise BotError(f"seat {view.seat} has no move to make (phase {view.phase})")
    return moves


class RandomBot(Bot):
    """Uniform over the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        """A legal move chosen uniformly at random."""
        moves = check_turn(view)
        return moves[self.rng.randrange(len(moves))]
