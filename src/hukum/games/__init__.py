"""The registry of games: the one place a game is registered. Everything that works for
every game (the referee loop, the arena, records, the terminal, the server) finds a game
here by name, or by the class of its match, and uses its :class:`~hukum.game.GameSpec`.

>>> sorted(GAMES)
['ganjifa', 'mindi']
>>> spec = game_named("mindi")
>>> bot = make_bot("mindi", "rules")
>>> deal = spec.new_match(spec.make_rules("classic"), seed=3).start_deal()
>>> bot.choose(deal.view(deal.turn)) in deal.legal_moves()
True
>>> game_named("chess")
Traceback (most recent call last):
...
hukum.games.UnknownGameError: no game 'chess'; choose one of mindi, ganjifa
"""

from __future__ import annotations

from typing import Any

from hukum.game import AnyGame, GameError, Player
from hukum.games.ganjifa import GanjifaSpec
from hukum.games.mindi import MindiSpec

__all__ = ["GAMES", "UnknownGameError", "game_named", "make_bot", "register", "spec_of"]


class UnknownGameError(GameError):
    """A game name no spec is registered under."""


#: Every game hukum plays, by name.
GAMES: dict[str, AnyGame] = {}


def register(spec: AnyGame) -> AnyGame:
    """Add a game (its name must be new); returns the spec."""
    if spec.name in GAMES:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    GAMES[spec.name] = spec
    return spec


def game_named(name: str) -> AnyGame:
    """The game of this name; UnknownGameError lists the games there are."""
    spec = GAMES.get(name)
    if spec is None:
        raise UnknownGameError(f"no game {name!r}; choose one of " + ", ".join(GAMES))
    return spec


def spec_of(match: object) -> AnyGame:
    """The game a match (or a deal's match class) belongs to."""
    for spec in GAMES.values():
        if isinstance(match, spec.match_type):
            return spec
    raise UnknownGameError(f"{type(match).__name__} is not a match of any registered game")


def make_bot(game: str, name: str, seed: int = 0, **options: Any) -> Player[Any, Any]:
    """A computer player of a game by name (``make_bot("ganjifa", "search")``)."""
    return game_named(game).make_bot(name, seed=seed, **options)


register(MindiSpec())
register(GanjifaSpec())
