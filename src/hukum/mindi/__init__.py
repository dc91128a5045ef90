"""The Mindi rules engine (Mendikot, Mendicot, Dehla Pakad): RULES.md Part 1.

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules.preset("hidden"), dealer=3, seed=1)
>>> deal.phase, deal.turn                   # seat 0 lays a card face down first (M-12)
('hide', 0)
>>> deal.push(deal.legal_moves()[-1])
>>> deal.view(0).face_down, deal.view(1).face_down
(Card.parse('KS'), None)
"""

from hukum.mindi.deal import Deal, deal_hands
from hukum.mindi.match import Draw, Match, MatchError, deal_seed, draw_first_dealer, next_dealer
from hukum.mindi.move import IllegalMoveError, InvalidMoveError, Move, MoveKind
from hukum.mindi.outcome import Outcome
from hukum.mindi.rules import PRESETS, Rules, RulesError
from hukum.mindi.trick import Played, Trick
from hukum.mindi.view import Reveal, View

__all__ = [
    "PRESETS",
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
    "Reveal",
    "Rules",
    "RulesError",
    "Trick",
    "View",
    "deal_hands",
    "deal_seed",
    "draw_first_dealer",
    "next_dealer",
]
