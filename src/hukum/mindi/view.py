"""What one seat may see of a deal (M-20): the only input of computer players and clients."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from hukum.cards import Card, CardSet, Suit
from hukum.mindi.move import Move
from hukum.mindi.outcome import Outcome
from hukum.mindi.rules import Rules
from hukum.mindi.trick import Played, Trick

__all__ = ["Reveal", "View"]


class Reveal(NamedTuple):
    """When and why the face-down trump card of band hukum was turned up (M-12)."""

    seat: int
    """The player whose turn it was: void in the led suit, or the chooser with an empty hand."""
    trick: int
    """Number (from 0) of the trick in which it happened."""
    position: int
    """How many cards of that trick had been played before it."""
    asked: bool
    """True if the player asked for it (``reveal=on_request``)."""
    card: Card
    """The face-down card, now seen by everyone."""


@dataclass(frozen=True)
class View:
    """Everything one seat may know about a deal in progress, and nothing more."""

    rules: Rules
    """The rules in force."""
    seat: int
    """The seat this view belongs to."""
    dealer: int
    """The dealer of this deal."""
    phase: str
    """``hide`` (band: choose the face-down card), ``announce``, ``play`` or ``over``."""
    turn: int | None
    """The seat to move, or None when the deal is over."""
    hand: CardSet
    """This seat's cards (under announce hukum, before the announcement: the first five)."""
    face_down: Card | None
    """Band hukum: this seat's own face-down card while it is hidden (only the chooser)."""
    chooser: int | None
    """Band hukum: the seat that laid a card face down."""
    trump: Suit | None
    """The trump suit if this seat knows it (the band chooser knows it from the start)."""
    trump_known: bool
    """Whether trump is known to everyone."""
    shown_card: Card | None
    """Open hukum: the card shown to all before the deal (M-14)."""
    reveal: Reveal | None
    """Band hukum: when the face-down card was turned up."""
    trick: tuple[Played, ...]
    """The cards of the trick in progress."""
    tricks: tuple[Trick, ...]
    """The completed tricks."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds (a face-down card not counted)."""
    tricks_won: tuple[int, int]
    """Tricks won by each team."""
    tens: tuple[CardSet, CardSet]
    """The tens each team has captured."""
    pile: CardSet
    """Dehla capture: the cards in the central pile, not yet taken (M-10)."""
    history: tuple[tuple[int, Move], ...]
    """Every move so far with its seat; another seat's face-down card shows as ``hide ??``."""
    legal_moves: tuple[Move, ...]
    """The moves this seat may make now (empty when it is not its turn)."""
    unseen: CardSet
    """Cards this seat has not seen: held by others or face down."""
    voids: tuple[frozenset[Suit], ...]
    """Suits each seat has shown it holds no more of (apart from its ``known`` cards)."""
    known: tuple[CardSet, ...]
    """Cards known to be in each seat's hand: this seat's own hand, a turned-up card."""
    outcome: Outcome | None
    """The result once the deal is over."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self.turn == self.seat
