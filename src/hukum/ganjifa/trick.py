"""Tricks: what a player may play to one (G-7), who wins it (G-8), and the record of it.

>>> from hukum.ganjifa.cards import CardSet, Suit
>>> hand = CardSet.parse("Ma3 Ku5 RaM")             # void in Kalki, which is led
>>> CardSet(allowed(hand.mask, Suit.KALKI, Suit.RAMA, "choice"))   # S wraps to Matsya
CardSet.parse('Ma3 RaM')
>>> CardSet(allowed(hand.mask, Suit.KALKI, Suit.RAMA, "trump_first"))
CardSet.parse('RaM')
"""

from __future__ import annotations

from typing import NamedTuple

from hukum.ganjifa.cards import SUIT_MASKS, CardSet
from hukum.ganjifa.move import Move

__all__ = ["Played", "Trick", "allowed", "next_held_suit", "winner"]


class Played(NamedTuple):
    """One move made to a trick: a card, a Dukal led, or the cards given up to it."""

    seat: int
    """Who made it."""
    move: Move
    """The move (its cards: ``move.cards``; a single card: ``move.card``)."""


class Trick(NamedTuple):
    """A completed trick, or a Dukal with its two answers."""

    leader: int
    """The seat that led it."""
    plays: tuple[Played, ...]
    """The moves in the order made."""
    winner: int
    """The seat that took the cards (G-8; the leader of a Dukal, G-9)."""

    @property
    def cards(self) -> CardSet:
        """Every card of the trick."""
        mask = 0
        for p in self.plays:
            mask |= p.move.mask
        return CardSet(mask)

    @property
    def dukal(self) -> int:
        """The size k of the Dukal led, or 0 for an ordinary trick."""
        first = self.plays[0].move
        return first.size if first.size > 1 else 0


def next_held_suit(hand: int, led: int) -> int:
    """S of G-7: the first suit after ``led`` in avatar order, wrapping round, of which
    ``hand`` holds a card (-1 for an empty hand)."""
    for i in range(1, 11):
        s = (led + i) % 10
        if hand & SUIT_MASKS[s]:
            return s
    return -1


def allowed(hand: int, led: int, trump: int, void_rule: str) -> int:
    """The mask of the cards of ``hand`` that may be played to a trick led in ``led`` (G-7)."""
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow
    trumps = hand & SUIT_MASKS[trump]
    if trumps and void_rule == "trump_first":
        return trumps
    s = next_held_suit(hand, led)
    return trumps | (hand & SUIT_MASKS[s]) if s >= 0 else 0


def winner(plays: tuple[tuple[int, int], ...], trump: int) -> int:
    """The seat that wins a trick of single cards ``(seat, card)``: the highest trump, else
    the highest card of the led suit; other cards never win (G-8)."""
    led = plays[0][1] // 12
    best = -1
    seat = plays[0][0]
    for s, c in plays:
        suit = c // 12
        if suit == trump:
            key = 12 + c % 12
        elif suit == led:
            key = c % 12
        else:
            continue
        if key > best:
            best, seat = key, s
    return seat
