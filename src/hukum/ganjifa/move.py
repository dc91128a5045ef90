"""Moves of a Ganjifa deal and their notation.

A move is one card played (``Ma1``), a Dukal led (``dukal Ra3 Ra4 Ra5``, G-9) or the k cards
a player gives up to a Dukal (``give Ma10 Ku9 Ka1``). The cards of a Dukal or an answer are
written in card order; parsing takes them in any order, but each card once.

>>> Move.parse("dukal ra5 ra3 ra4")
Move.parse('dukal Ra3 Ra4 Ra5')
>>> str(Move.parse("give Ma10 Ka1 Ku9")), Move.parse("KrM").card
('give Ma10 Ku9 Ka1', Card.parse('KrM'))
>>> Move.parse("dukal Ra3")
Traceback (most recent call last):
...
hukum.ganjifa.move.InvalidMoveError: not a move: 'dukal Ra3' (2 cards or more)
"""

from __future__ import annotations

import enum

from hukum import game
from hukum.ganjifa.cards import CARDS, Card, CardParseError, CardSet, bits

__all__ = ["PLAY_MOVES", "IllegalMoveError", "InvalidMoveError", "Move", "MoveKind"]


class InvalidMoveError(game.InvalidMoveError):
    """Text or data that is not a move at all."""


class IllegalMoveError(game.IllegalMoveError):
    """A move the rules do not allow now; the message names the rule."""


class MoveKind(enum.Enum):
    """What a move does."""

    PLAY = "play"
    """Play one card: a lead, or a card to the trick (G-7)."""
    DUKAL = "dukal"
    """Lead a Dukal of k cards (G-9)."""
    GIVE = "give"
    """Give up k cards to another player's Dukal (G-9)."""


class Move:
    """One decision of one player: a kind and a set of cards. Single plays are interned."""

    __slots__ = ("_low", "kind", "mask")

    kind: MoveKind
    mask: int
    _low: int

    def __init__(self, kind: MoveKind, mask: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "_low", (mask & -mask).bit_length() - 1)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    @staticmethod
    def play(card: Card | int | str) -> Move:
        """The move that plays ``card``."""
        return PLAY_MOVES[_card(card)]

    @staticmethod
    def dukal(cards: CardSet | list[Card] | list[str] | str) -> Move:
        """The move that leads ``cards`` as a Dukal."""
        return _many(MoveKind.DUKAL, cards)

    @staticmethod
    def give(cards: CardSet | list[Card] | list[str] | str) -> Move:
        """The move that gives up ``cards`` to a Dukal."""
        return _many(MoveKind.GIVE, cards)

    @staticmethod
    def parse(text: str) -> Move:
        """Parse ``Ma1``, ``play Ma1``, ``dukal Ra3 Ra4 Ra5`` or ``give Ma10 Ku9 Ka1``."""
        words = text.replace(",", " ").split() if isinstance(text, str) else []
        try:
            if len(words) == 1:
                return PLAY_MOVES[Card.parse(words[0])]
            if words:
                verb = words[0].lower()
                if verb == "play" and len(words) == 2:
                    return PLAY_MOVES[Card.parse(words[1])]
                if verb in ("dukal", "give"):
                    if len(words) < 3:
                        raise InvalidMoveError(f"not a move: {text!r} (2 cards or more)")
                    mask = 0
                    for w in words[1:]:
                        c = Card.parse(w)
                        if mask >> c & 1:
                            raise InvalidMoveError(f"not a move: {text!r} ({c} twice)")
                        mask |= 1 << c
                    return Move(MoveKind(verb), mask)
        except CardParseError as e:
            raise InvalidMoveError(f"not a move: {text!r} ({e})") from None
        raise InvalidMoveError(
            f"not a move: {text!r} (e.g. Ma1, dukal Ra3 Ra4 Ra5, give Ma10 Ku9 Ka1)"
        )

    @property
    def cards(self) -> CardSet:
        """The cards of the move."""
        return CardSet(self.mask)

    @property
    def size(self) -> int:
        """How many cards the move puts down."""
        return self.mask.bit_count()

    @property
    def card(self) -> Card:
        """The card of a single play (the lowest card of a Dukal or an answer)."""
        return CARDS[self._low]

    def __str__(self) -> str:
        if self.kind is MoveKind.PLAY:
            return self.card.code
        return str(self.kind.value) + " " + " ".join(CARDS[c].code for c in bits(self.mask))

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.kind is other.kind and self.mask == other.mask

    def __hash__(self) -> int:
        return hash((self.kind, self.mask))

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (str(self),))


def _card(card: Card | int | str) -> int:
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except CardParseError as e:
            raise InvalidMoveError(str(e)) from None
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 120:
        raise InvalidMoveError(f"not a card: {card!r}")
    return card


def _many(kind: MoveKind, cards: CardSet | list[Card] | list[str] | str) -> Move:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    mask = 0
    if isinstance(cards, CardSet):
        mask = cards.mask
    else:
        for c in cards:
            i = _card(c)
            if mask >> i & 1:
                raise InvalidMoveError(f"{CARDS[i]} twice in one move")
            mask |= 1 << i
    if mask.bit_count() < 2:
        raise InvalidMoveError(f"a {kind.value} move has 2 cards or more")
    return Move(kind, mask)


#: PLAY_MOVES[c] is the interned move playing card c.
PLAY_MOVES: tuple[Move, ...] = tuple(Move(MoveKind.PLAY, 1 << c) for c in range(120))
