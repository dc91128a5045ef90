"""Quick match: the pools a player may queue in, and how a wave pairs the people waiting
(as lichess's pools do, ``modules/pool``): nearest ratings first, the allowed rating gap
widening the longer a ticket waits, players who blocked each other never together, a party
of two opposite each other, players who keep leaving matches with one another and after a
longer wait, and a seat nobody takes by the end of the countdown given to a computer player.

Pure: the server (:mod:`hukum.server.play.pool`) keeps the tickets, runs a wave every few
seconds and makes the tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["POOLS", "Pool", "Seating", "Ticket"]


@dataclass(frozen=True)
class Pool:
    """A quick-match format: the game and rules its tables play, and how its waves pair."""

    name: str
    """Its key in :data:`POOLS` (also the ``pool`` of its tables' settings and ratings)."""
    game: str
    """The game (:func:`hukum.games.game_named`)."""
    preset: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 4
    partners: bool = True
    """Two teams, partners opposite (Mindi: seats 0, 2 and 1, 3); else each for themselves."""
    countdown: float = 20.0
    """Seconds a ticket waits before the seats still empty at its table go to computer
    players (the countdown the player sees)."""


#: The pools, by name: one deal each, so that a rated match is a few minutes and every
#: match weighs the same in a rating.
POOLS: dict[str, Pool] = {
    "mindi": Pool("mindi", "mindi", "classic", {"deals": 1, "target": None}),
    "band": Pool("band", "mindi", "hidden", {"deals": 1, "target": None}),
    "ganjifa": Pool("ganjifa", "ganjifa", "cardavia", {"deals": 1}, seats=3, partners=False),
}


@dataclass(frozen=True)
class Ticket:
    """Who waits in a pool together: one player, or a party of two (who sit opposite)."""

    id: str
    players: tuple[str, ...]
    """Player ids: one, or two for a party."""
    rating: float
    """The players' mean rating in the pool, on the shown scale
    (:func:`hukum.online.ratings.shown`)."""
    since: float
    """When the ticket joined, in seconds (the same clock as a wave's ``now``)."""
    blocked: frozenset[str] = frozenset()
    """Every player any of :attr:`players` blocked or was blocked by."""
    leaver: bool = False
    """One of the players keeps leaving rated matches: waits longer, and is paired with
    others who do."""


@dataclass(frozen=True)
class Seating:
    """A table a wave made: the player id at each seat, None for a computer player."""

    seats: tuple[str | None, ...]
    tickets: tuple[str, ...]
    """The ids of the tickets seated (each leaves the pool)."""
