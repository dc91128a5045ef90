"""Dashavatara Ganjifa cards: ten avatar suits of twelve cards (G-2, G-3) and their notation.

A card is written as its suit code and its rank: ``Ma1`` is the 1 of Matsya, ``Ka10`` the
10 of Kalki, ``RaR`` the Raja of Rama, ``KrM`` the Mantri of Krishna. The suit codes, in
avatar order, are ``Ma Ku Vr Na Vm Pa Ra Kr Bu Ka``; the ranks are ``1`` … ``10``, ``M``
and ``R``. Parsing is strict: a suit code, then a rank, nothing else (letters in any case).

Inside, a card is an ``int``: ``suit * 12 + power``, where *power* 0 … 11 orders the suit's
cards by strength (G-3): Raja 11, Mantri 10, then the numerals, 1 highest in suits 1–5
and 10 highest in suits 6–10. So a Dukal run (G-9) is a run of consecutive bits, and a set
of cards is a 120-bit ``int`` mask.

>>> Card.parse("Ma1").power > Card.parse("Ma10").power     # in Matsya a 1 beats a 10
True
>>> Card.parse("Ka10").power > Card.parse("Ka1").power     # in Kalki a 10 beats a 1
True
>>> Card.parse("rar"), Card.parse("RaR").name
(Card.parse('RaR'), 'Raja of Rama')
>>> Card.parse("Ra11")
Traceback (most recent call last):
...
hukum.ganjifa.cards.CardParseError: not a Ganjifa card: 'Ra11' (e.g. Ma1, Ka10, KrM, RaR)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

__all__ = [
    "CARDS",
    "DECK",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "Suit",
    "bits",
]


class CardParseError(ValueError):
    """Text that is not a Ganjifa card or suit."""


class Suit(enum.IntEnum):
    """The ten avatar suits, in avatar order (G-2)."""

    MATSYA = 0
    KURMA = 1
    VARAHA = 2
    NARASIMHA = 3
    VAMANA = 4
    PARASHURAMA = 5
    RAMA = 6
    KRISHNA = 7
    BUDDHA = 8
    KALKI = 9

    @property
    def code(self) -> str:
        """The two-letter code, e.g. ``Ma``."""
        return _SUIT_CODES[self]

    @property
    def avatar(self) -> str:
        """The avatar's name, e.g. ``Matsya``."""
        return self.name.capitalize()

    @property
    def emblem(self) -> str:
        """What the suit shows, e.g. ``fish``."""
        return _EMBLEMS[self]

    @property
    def reversed(self) -> bool:
        """Whether the numerals rank 1 high (suits 1–5, G-3)."""
        return self < 5

    def next(self) -> Suit:
        """The next suit in avatar order, Kalki wrapping round to Matsya (G-7)."""
        return Suit((self + 1) % 10)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its code (``Ma``) or avatar name (``Matsya``), in any case."""
        key = text.strip().lower() if isinstance(text, str) else ""
        for suit in Suit:
            if key in (suit.code.lower(), suit.name.lower()):
                return suit
        raise CardParseError(f"not a suit: {text!r} (the suits are {' '.join(_SUIT_CODES)})")

    def __str__(self) -> str:
        return self.avatar


_SUIT_CODES = ("Ma", "Ku", "Vr", "Na", "Vm", "Pa", "Ra", "Kr", "Bu", "Ka")
_EMBLEMS = ("fish", "tortoise", "boar", "lion", "water pot", "axe", "bow", "discus", "conch",
            "horse")  # fmt: skip
_SUIT_OF_CODE = {code.lower(): Suit(i) for i, code in enumerate(_SUIT_CODES)}

#: SUIT_MASKS[s] is the mask of the twelve cards of suit s.
SUIT_MASKS: tuple[int, ...] = tuple(0xFFF << (12 * s) for s in range(10))
#: The mask of the whole 120-card pack.
DECK: int = (1 << 120) - 1


def _rank_label(suit: int, power: int) -> str:
    if power == 11:
        return "R"
    if power == 10:
        return "M"
    return str(10 - power if suit < 5 else power + 1)


class Card(int):
    """One card, an ``int`` from 0 to 119: ``suit * 12 + power`` (see the module doc)."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // 12)

    @property
    def power(self) -> int:
        """Strength within its suit, 0 (weakest numeral) to 11 (Raja) (G-3)."""
        return self % 12

    @property
    def rank(self) -> str:
        """``1`` … ``10``, ``M`` (Mantri) or ``R`` (Raja)."""
        return _rank_label(self // 12, self % 12)

    @property
    def is_court(self) -> bool:
        """Whether the card is the Raja or the Mantri."""
        return self % 12 >= 10

    @property
    def code(self) -> str:
        """The card's notation, e.g. ``Ma1`` or ``RaR``."""
        return _CODES[self]

    @property
    def name(self) -> str:
        """The card's name for people, e.g. ``Raja of Rama`` or ``3 of Matsya``."""
        label = {"R": "Raja", "M": "Mantri"}.get(self.rank, self.rank)
        return f"{label} of {self.suit.avatar}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its notation (suit code, then rank; letters in any case)."""
        card = _BY_CODE.get(text.lower()) if isinstance(text, str) else None
        if card is None:
            raise CardParseError(f"not a Ganjifa card: {text!r} (e.g. Ma1, Ka10, KrM, RaR)")
        return card

    @classmethod
    def of(cls, suit: Suit | int, rank: str | int) -> Card:
        """The card of ``suit`` with ``rank`` (``1`` … ``10``, ``M`` or ``R``)."""
        return cls.parse(_SUIT_CODES[int(suit)] + str(rank))

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CODES[self]!r})"


_CODES = tuple(_SUIT_CODES[c // 12] + _rank_label(c // 12, c % 12) for c in range(120))
#: CARDS[i] is the card with number i.
CARDS: tuple[Card, ...] = tuple(Card(c) for c in range(120))
_BY_CODE = {code.lower(): CARDS[c] for c, code in enumerate(_CODES)}


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards held as a 120-bit mask; iterates in card order."""

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: int | Iterable[Card | int | str] = 0) -> None:
        if isinstance(cards, int):
            mask = cards
        else:
            mask = 0
            for c in cards:
                mask |= 1 << (Card.parse(c) if isinstance(c, str) else int(c))
        if mask < 0 or mask > DECK:
            raise ValueError(f"not a set of Ganjifa cards: {cards!r}")
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Cards separated by spaces or commas, e.g. ``"Ma1 Ma2 RaR"``."""
        return cls(Card.parse(w) for w in text.replace(",", " ").split())

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[c] for c in bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 120 and bool(self.mask >> card & 1)

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

    def suit(self, suit: Suit | int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    @property
    def codes(self) -> list[str]:
        """The cards' notation, in card order."""
        return [_CODES[c] for c in bits(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.codes)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
