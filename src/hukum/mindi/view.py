"""What one seat may see of a deal (M-20): the only input of computer players and clients."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hukum.cards import Card, CardSet, Suit
from hukum.mindi.move import Move
from hukum.mindi.outcome import Outcome
from hukum.mindi.rules import Rules
from hukum.mindi.trick import Played, Trick
from hukum.mindi.trump import METHODS, Reveal

__all__ = ["Reveal", "View", "shown_voids"]


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


def shown_voids(
    rules: Rules,
    tricks: Sequence[Trick],
    trick: Sequence[Played],
    trump: Suit | None,
    reveal: Reveal | None,
) -> tuple[frozenset[Suit], ...]:
    """The suits each seat has shown it is out of, from the public play alone (M-8, M-12),
    e.g. ``shown_voids(v.rules, v.tricks, v.trick, v.trump, v.reveal)`` for a view ``v``."""
    voids = [0] * rules.players  # a bit per suit
    plays = [t.plays for t in tricks]
    if trick:
        plays.append(tuple(trick))
    at = (reveal.trick, reveal.position) if reveal is not None else None
    public = METHODS[rules.trump].public_from(plays, reveal)  # from here on trump is known
    trump_bit = 0 if trump is None else 1 << trump
    for number, cards in enumerate(plays):
        led = cards[0].card >> 4
        for position, p in enumerate(cards[1:], start=1):
            at_reveal = at == (number, position)
            if at_reveal:
                voids[p.seat] |= 1 << led  # turned up at this player's void (or empty hand)
            suit = p.card >> 4
            if suit == led:
                continue
            voids[p.seat] |= 1 << led
            obliged = (at_reveal and reveal is not None and reveal.asked) or (
                rules.must_trump and public is not None and (number, position) >= public
            )
            if obliged and suit != trump:
                voids[p.seat] |= trump_bit
    if reveal is not None and trick and at == (len(tricks), len(trick)):
        # Turned up at the turn of the player to move: they have shown a void already.
        voids[reveal.seat] |= 1 << (trick[0].card >> 4)
    return tuple(_SUIT_SETS[v] for v in voids)


#: Every set of suits, by its bits: one object each, shared by all the positions that show
#: it (a server keeps a position's voids for each of its tables).
_SUIT_SETS = tuple(frozenset(s for s in Suit if v >> s & 1) for v in range(16))
