"""Computer players for Dashavatara Ganjifa: ``random``, ``rules`` and ``search``.

>>> from hukum.ganjifa import Deal, Rules
>>> deal = Deal.new(Rules(), dealer=0, seed=3)
>>> bot = make_bot("rules")
>>> bot.name, bot.choose(deal.view(deal.turn)) in deal.legal_moves()
('rules', True)
"""

from __future__ import annotations

from typing import Any

from hukum.bots.base import BotError
from hukum.bots.ganjifa.base import GanjifaBot, RandomBot

__all__ = ["BOT_NAMES", "GanjifaBot", "RandomBot", "make_bot"]

#: The names :func:`make_bot` knows.
BOT_NAMES = ("random", "rules", "search")


def make_bot(name: str, seed: int = 0, **options: Any) -> GanjifaBot:
    """A new Ganjifa bot by name (``random``, ``rules`` or ``search``) with its options."""
    if name in ("random", "rules") and options:
        raise BotError(f"the {name} bot takes no options, got {sorted(options)}")
    if name == "random":
        return RandomBot(seed=seed)
    if name == "rules":
        from hukum.bots.ganjifa.rules import RulesBot

        return RulesBot()
    if name == "search":
        from hukum.bots.ganjifa.search import SearchBot

        try:
            return SearchBot(seed=seed, **options)
        except (TypeError, ValueError) as e:
            raise BotError(f"bad option for the search bot: {e}") from None
    raise BotError(f"no Ganjifa bot {name!r}; choose one of " + ", ".join(BOT_NAMES))
