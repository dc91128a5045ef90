"""Moves of a Mindi deal: every decision a player makes, and its notation.

>>> Move.parse("10S")
Move.parse('10S')
>>> str(Move.parse("hide qh")), str(Move.parse("reveal")), str(Move.parse("announce ♠"))
('hide QH', 'reveal', 'announce S')
>>> Move.parse("ace")
Traceback (most recent call last):
...
hukum.mindi.move.InvalidMoveError: not a move: 'ace' (e.g. 10S, hide 10S, reveal, announce S)
"""

from __future__ import annotations

import enum

from hukum import game
from hukum.cards import CARDS, Card, CardParseError, Suit, deck

__all__ = ["IllegalMoveError", "InvalidMoveError", "Move", "MoveKind"]


class InvalidMoveError(game.InvalidMoveError):
    """Text that is not a move at all."""


class IllegalMoveError(game.IllegalMoveError):
    """A move the rules do not allow now; the message names the rule."""


class MoveKind(enum.Enum):
    """What a move does."""

    PLAY = "play"
    """Play a card to the trick."""
    HIDE = "hide"
    """Band hukum: lay a card face down as the hidden trump (M-12)."""
    REVEAL = "reveal"
    """Band hukum, ``on_request``: ask for the face-down card to be turned up (M-12)."""
    ANNOUNCE = "announce"
    """Announce hukum: name the trump suit (M-15)."""


class Move:
    """One decision of one player. Moves are interned: build them with :meth:`play`,
    :meth:`hide`, :meth:`announce`, :data:`Move.REVEAL_TRUMP` or :meth:`parse`."""

    __slots__ = ("card", "kind", "suit")

    kind: MoveKind
    card: Card | None
    suit: Suit | None

    REVEAL_TRUMP: Move
    HIDDEN: Move
    """What other players see of a ``hide`` move: a card was laid face down."""

    def __init__(self, kind: MoveKind, card: Card | None = None, suit: Suit | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    @staticmethod
    def play(card: Card | int | str) -> Move:
        """The move that plays ``card``."""
        return _PLAY[_card(card)]

    @staticmethod
    def hide(card: Card | int | str) -> Move:
        """The band-hukum move that lays ``card`` face down as trump."""
        return _HIDE[_card(card)]

    @staticmethod
    def announce(suit: Suit | int | str) -> Move:
        """The move that announces ``suit`` as trump."""
        if isinstance(suit, str):
            try:
                suit = Suit.parse(suit)
            except CardParseError as e:
                raise InvalidMoveError(str(e)) from None
        if isinstance(suit, bool) or not isinstance(suit, int) or suit not in _ANNOUNCE:
            raise InvalidMoveError(f"not a suit: {suit!r}")
        return _ANNOUNCE[suit]

    @staticmethod
    def parse(text: str) -> Move:
        """Parse ``10S``, ``play 10S``, ``hide 10S``, ``reveal`` or ``announce S``."""
        words = text.strip().split() if isinstance(text, str) else []
        try:
            if len(words) == 1 and words[0].lower() == "reveal":
                return Move.REVEAL_TRUMP
            if len(words) == 1:
                return _PLAY[Card.parse(words[0])]
            if len(words) == 2:
                verb = words[0].lower()
                if verb == "play":
                    return _PLAY[Card.parse(words[1])]
                if verb == "hide":
                    return _HIDE[Card.parse(words[1])]
                if verb == "announce":
                    return _ANNOUNCE[Suit.parse(words[1])]
        except CardParseError:
            pass
        raise InvalidMoveError(f"not a move: {text!r} (e.g. 10S, hide 10S, reveal, announce S)")

    def __str__(self) -> str:
        kind = self.kind
        if kind is MoveKind.PLAY:
            assert self.card is not None
            return self.card.code
        if kind is MoveKind.HIDE:
            return "hide " + (self.card.code if self.card is not None else "??")
        if kind is MoveKind.ANNOUNCE:
            assert self.suit is not None
            return "announce " + self.suit.letter
        return "reveal"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Move)
            and self.kind is other.kind
            and self.card == other.card
            and self.suit == other.suit
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.card, self.suit))

    def __reduce__(self) -> tuple[object, tuple[str, int | None, int | None]]:
        # Pickle and copy as the interned move: __setattr__ refuses the default way.
        card = None if self.card is None else int(self.card)
        suit = None if self.suit is None else int(self.suit)
        return (_interned, (self.kind.value, card, suit))


def _interned(kind: str, card: int | None, suit: int | None) -> Move:
    """The interned move of a pickled one."""
    if kind == "play" and card is not None:
        return _PLAY[card]
    if kind == "hide":
        return Move.HIDDEN if card is None else _HIDE[card]
    if kind == "announce" and suit is not None:
        return _ANNOUNCE[suit]
    return Move.REVEAL_TRUMP


def _card(card: Card | int | str) -> int:
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except CardParseError as e:
            raise InvalidMoveError(str(e)) from None
    if isinstance(card, bool) or not isinstance(card, int) or card not in _PLAY:
        raise InvalidMoveError(f"not a card: {card!r}")
    return card


_PLAY: dict[int, Move] = {c: Move(MoveKind.PLAY, CARDS[c]) for c in range(64) if deck(52) >> c & 1}
_HIDE: dict[int, Move] = {c: Move(MoveKind.HIDE, CARDS[c]) for c in range(64) if deck(52) >> c & 1}
_ANNOUNCE: dict[int, Move] = {s: Move(MoveKind.ANNOUNCE, suit=s) for s in Suit}
Move.REVEAL_TRUMP = Move(MoveKind.REVEAL)
Move.HIDDEN = Move(MoveKind.HIDE)

#: PLAY_MOVES[c] is the interned move playing card c (fast path for the engine).
PLAY_MOVES: tuple[Move | None, ...] = tuple(_PLAY.get(c) for c in range(64))
#: HIDE_MOVES[c] is the interned move laying card c face down.
HIDE_MOVES: tuple[Move | None, ...] = tuple(_HIDE.get(c) for c in range(64))
