"""The interface of Ganjifa computer players: :class:`hukum.bots.base.Bot` over Ganjifa's
view and moves. The random player is the one of every game.

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=7)
>>> RandomBot(seed=5).choose(deal.view(0))
Move.parse('RaR')
"""

from __future__ import annotations

from hukum.bots.base import Bot, RandomBot, check_turn
from hukum.ganjifa import Move, View

__all__ = ["GanjifaBot", "RandomBot", "check_turn"]

#: A Ganjifa computer player.
GanjifaBot = Bot[View, Move]
