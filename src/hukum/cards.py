"""Playing cards of the French-suited pack: suits, ranks, cards, notation and card sets.

A card is an ``int`` (``suit * 16 + rank - 2``), so a set of cards is an ``int`` bitmask
with bit ``card`` set, as python-chess does with squares. Every notation in use parses:

>>> Card.parse("10S") == Card.parse("TS") == Card.parse("10♠") == Card.parse("♠10")
True
>>> c = Card.parse("qh")
>>> c.suit, c.rank, str(c), c.code
(<Suit.HEARTS: 2>, 12, 'Q♥', 'QH')
>>> hand = CardSet.parse("AS 10S 3D")
>>> len(hand), Card.parse("10♠") in hand, str(hand)
(3, True, '3♦ 10♠ A♠')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

__all__ = [
    "CARDS",
    "RANKS",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "Suit",
    "bits",
    "deck",
]


class CardParseError(ValueError):
    """Text that is not a card, a suit or a list of cards."""


class Suit(enum.IntEnum):
    """The four suits, in bridge order (lowest first)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The suit's letter, e.g. ``S``."""
        return _SUIT_LETTERS[self]

    def __str__(self) -> str:
        return self.symbol

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``, ``s``, ``♠``, ``♤`` or ``spades``."""
        key = _clean(text).lower() if isinstance(text, str) else ""
        if key in _SUIT_BY_TEXT:
            return _SUIT_BY_TEXT[key]
        raise CardParseError(f"not a suit: {text!r} (expected one of C D H S or ♣ ♦ ♥ ♠)")


_SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
_SUIT_LETTERS = ("C", "D", "H", "S")
_SUIT_BY_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_SUIT_LETTERS[_s].lower()] = _s
    _SUIT_BY_TEXT[_SUIT_SYMBOLS[_s]] = _s
    _SUIT_BY_TEXT[_s.name.lower()] = _s
for _sym, _s in (("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS), ("♡", Suit.HEARTS), ("♤", Suit.SPADES)):
    _SUIT_BY_TEXT[_sym] = _s


def _clean(text: str) -> str:
    """Text without surrounding blanks and without the emoji / text presentation selectors
    that phone keyboards add after suit symbols (``♠️`` is ``♠`` + U+FE0F)."""
    return text.replace("\ufe0f", "").replace("\ufe0e", "").strip()


#: Ranks from low to high: 2 … 10, J = 11, Q = 12, K = 13, A = 14.
RANKS = tuple(range(2, 15))
_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_TEXT = {str(r): r for r in range(2, 11)}
_RANK_BY_TEXT.update({"t": 10, "j": 11, "q": 12, "k": 13, "a": 14})

#: Bitmask of all 13 cards of each suit, indexed by suit.
SUIT_MASKS = tuple(0x1FFF << (16 * s) for s in range(4))


class Card(int):
    """One playing card; an ``int`` so it can index tables and bitmasks directly."""

    __slots__ = ()

    @staticmethod
    def of(suit: Suit | int, rank: int) -> Card:
        """The card of this suit and rank (2 … 14, ace high)."""
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise CardParseError(f"no card of suit {suit} and rank {rank}")
        return CARDS[suit * 16 + rank - 2]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``10S``, ``TS``, ``10♠``, ``♠10``, ``S10`` (any case)."""
        low = _clean(text).lower() if isinstance(text, str) else ""
        for cut in (1, -1):
            suit_text, rank_text = (low[:cut], low[cut:]) if cut == 1 else (low[cut:], low[:cut])
            suit = _SUIT_BY_TEXT.get(suit_text)
            rank = _RANK_BY_TEXT.get(rank_text)
            if suit is not None and rank is not None and len(suit_text) == 1:
                return CARDS[suit * 16 + rank - 2]
        raise CardParseError(
            f"not a card: {text!r} (write a rank and a suit, e.g. 10S, TS, 10♠, ♠10 or QH)"
        )

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self >> 4)

    @property
    def rank(self) -> int:
        """The card's rank: 2 … 10, J = 11, Q = 12, K = 13, A = 14."""
        return (self & 15) + 2

    @property
    def bit(self) -> int:
        """The card's bit in a card-set mask."""
        return 1 << self

    @property
    def code(self) -> str:
        """ASCII notation as used in records, e.g. ``10S``."""
        return _rank_name(self.rank) + _SUIT_LETTERS[self >> 4]

    def __str__(self) -> str:
        return _rank_name(self.rank) + _SUIT_SYMBOLS[self >> 4]

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


#: Card objects by integer value, for fast lookup; only values in ``deck(52)`` are real cards.
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(64))


def bits(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def deck(size: int = 52) -> int:
    """The mask of a 52-card pack, or of the 48-card pack without the 2s."""
    if size == 52:
        return SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
    if size == 48:
        return deck(52) & ~sum(1 << (s * 16) for s in range(4))
    raise ValueError(f"no pack of {size} cards (52 or 48)")


class CardSet:
    """An immutable set of cards, backed by an ``int`` bitmask.

    >>> s = CardSet.parse("AS KS 10H")
    >>> s | CardSet.parse("2C")
    CardSet.parse('2C 10H KS AS')
    >>> [str(c) for c in s.of_suit(Suit.SPADES)]
    ['K♠', 'A♠']
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card | int] | int = 0) -> None:
        if isinstance(cards, int):
            mask = cards
        else:
            mask = 0
            for c in cards:
                mask |= 1 << c
        if mask < 0 or mask & ~deck(52):
            raise ValueError(f"not a card-set mask: {mask:#x}")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        # Pickle and copy through the constructor: __setattr__ refuses the default way.
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas, e.g. ``"AS 10S, 3♦"``."""
        return cls(Card.parse(t) for t in text.replace(",", " ").split())

    def __iter__(self) -> Iterator[Card]:
        return bits(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 64 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        """Subset: every card of this set is in ``other``."""
        return not self.mask & ~other.mask

    def __ge__(self, other: CardSet) -> bool:
        """Superset: every card of ``other`` is in this set."""
        return not other.mask & ~self.mask

    def isdisjoint(self, other: CardSet) -> bool:
        """Whether the two sets have no card in common."""
        return not self.mask & other.mask

    def of_suit(self, suit: Suit | int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def codes(self) -> list[str]:
        """ASCII codes of the cards, lowest first, e.g. ``['2C', '10H']``."""
        return [c.code for c in self]

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({' '.join(self.codes())!r})"
