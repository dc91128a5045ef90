"""The Dashavatara Ganjifa rules engine: RULES.md Part 2 (G-1 … G-11), as on Cardavia.

Three players, each for themselves; 120 round cards in ten avatar suits; Rama (day) or
Krishna (night) is trump; a Dukal run led wins automatically.

>>> from hukum.ganjifa import Deal, Move, Rules
>>> deal = Deal.new(Rules(time="night"), dealer=1, seed=3)
>>> deal.trump, deal.legal_moves()
(<Suit.KRISHNA: 7>, (Move.parse('KrR'),))
>>> deal.push(Move.parse("Ma1"))
Traceback (most recent call last):
...
hukum.ganjifa.move.IllegalMoveError: the opening trick is led with the Raja of Krishna alone (G-6)
"""

from hukum.ganjifa.cards import CARDS, DECK, SUIT_MASKS, Card, CardParseError, CardSet, Suit, bits
from hukum.ganjifa.deal import HAND_SIZE, Answers, Deal, deal_hands
from hukum.ganjifa.match import Draw, Match, MatchError, deal_seed, draw_first_dealer
from hukum.ganjifa.move import IllegalMoveError, InvalidMoveError, Move, MoveKind
from hukum.ganjifa.outcome import Outcome
from hukum.ganjifa.rules import PLAYERS, Rules, RulesError
from hukum.ganjifa.trick import Played, Trick
from hukum.ganjifa.view import View

__all__ = [
    "CARDS",
    "DECK",
    "HAND_SIZE",
    "PLAYERS",
    "SUIT_MASKS",
    "Answers",
    "Card",
    "CardParseError",
    "CardSet",
    "Deal",
    "Draw",
    "IllegalMoveError",
    "InvalidMoveError",
    "Match",
    "MatchError",
    "Move",
    "MoveKind",
    "Outcome",
    "Played",
    "Rules",
    "RulesError",
    "Suit",
    "Trick",
    "View",
    "bits",
    "deal_hands",
    "deal_seed",
    "draw_first_dealer",
]
