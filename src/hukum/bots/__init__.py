"""Computer players for Mindi: ``random``, ``rules``, ``search`` and ``expert``, made by name
(:func:`hukum.games.make_bot` makes the bots of every game).

>>> from hukum.mindi import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=3)
>>> bot = make_bot("rules")
>>> bot.name, bot.choose(deal.view(1)) in deal.legal_moves()
('rules', True)
"""

from __future__ import annotations

from typing import Any

from hukum.bots.base import Bot, BotError, RandomBot
from hukum.mindi import Move, View

__all__ = ["BOT_NAMES", "Bot", "BotError", "RandomBot", "make_bot"]

#: The names :func:`make_bot` knows.
BOT_NAMES = ("random", "rules", "search", "expert")


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot[View, Move]:
    """A new bot by name (``random``, ``rules``, ``search`` or ``expert``) with its options
    (the rules bot's are its weights, :class:`hukum.bots.rules.RulesWeights`)."""
    if name == "random":
        if options:
            raise BotError(f"the random bot takes no options, got {sorted(options)}")
        return RandomBot(seed=seed)
    if name == "rules":
        from dataclasses import fields

        from hukum.bots.rules import RulesBot, RulesWeights

        names = [f.name for f in fields(RulesWeights)]
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise BotError(
                f"no option {', '.join(unknown)} for the rules bot; its options are its "
                f"weights: {', '.join(names)}"
            )
        try:
            return RulesBot(RulesWeights(**options))
        except ValueError as e:
            raise BotError(f"bad option for the rules bot: {e}") from None
    if name == "search":
        from hukum.bots.search import SearchBot

        try:
            return SearchBot(seed=seed, **options)
        except TypeError as e:
            raise BotError(f"bad option for the search bot: {e}") from None
    if name == "expert":
        from hukum.bots.expert import ExpertBot

        try:
            return ExpertBot(seed=seed, **options)
        except TypeError as e:
            raise BotError(f"bad option for the expert bot: {e}") from None
    raise BotError(f"no bot {name!r}; choose one of " + ", ".join(BOT_NAMES))
