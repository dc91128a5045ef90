"""Tricks: who played what, which cards counted as trumps, who won (M-9, M-13)."""

from __future__ import annotations

from typing import NamedTuple

from hukum.cards import Card, CardSet

__all__ = ["Played", "Trick"]


class Played(NamedTuple):
    """One card played to a trick."""

    seat: int
    """Who played it."""
    card: Card
    """The card."""
    trump: bool
    """Whether it counted as a trump (M-13)."""


class Trick(NamedTuple):
    """A completed trick."""

    leader: int
    """The seat that led it."""
    plays: tuple[Played, ...]
    """The cards in the order played."""
    winner: int
    """The seat that won it (M-9)."""

    @property
    def cards(self) -> CardSet:
        """The cards of the trick."""
        return CardSet(p.card for p in self.plays)

    @property
    def winning_card(self) -> Played:
        """The card that won the trick."""
        return next(p for p in self.plays if p.seat == self.winner)

    @property
    def key(self) -> tuple[bool, int]:
        """How high the trick is for the ``highest_trick`` tie-break: (won by a trump, rank)."""
        win = self.winning_card
        return (win.trump, win.card.rank)
