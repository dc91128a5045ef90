"""A room's settings, fixed when it is created and kept in its ``rooms`` row."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from hukum.game import AnyGame
from hukum.games import game_named

__all__ = ["BOT_SPEEDS", "DEFAULT_GAME", "TableConfig"]

#: The game of a room that names none: rooms stored before there were several games.
DEFAULT_GAME = "mindi"

#: How long a room's computer players wait before a move, as a multiple of the server's
#: ``bot_delay``, by the speed its creator chose (a player's ``bot_speed`` preference).
BOT_SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.4}


@dataclass(frozen=True)
class TableConfig:
    """A room's settings: the game, its rules (made by that game's spec), the bots that
    fill seats, the turn limit, whether people without a seat may watch, whether its
    players may ask for move suggestions."""

    rules: object
    """The rules, an object of the game's engine (the server only hands it to the spec)."""
    preset: str | None = None
    bots: str = "rules"
    turn_timeout: float | None = 60.0
    game: str = DEFAULT_GAME
    spectators: bool = False
    """Whether people without a seat may watch the table (docs/protocol.md, "watchers")."""
    hints: bool = False
    """Whether every player may ask for a suggested move (docs/protocol.md, "hints"); a
    person alone with bots may ask in any room."""
    bot_speed: str = "normal"
    """How quickly the computer players move: a key of :data:`BOT_SPEEDS`."""
    chat: bool = False
    """Whether the seats may say free lines (docs/protocol.md, "Fair play"); quick phrases
    may be said in every room."""
    pool: str | None = None
    """The quick-match pool that made the table (a key of :data:`hukum.online.pools.POOLS`):
    its match is rated there (:mod:`hukum.server.play.results`). None: a casual room."""
    challenge: str | None = None
    """The daily challenge's deal the table plays (``2026-12-07/3``,
    :func:`hukum.online.challenge.deal_key`): its deal is that deal's stored seed (never in
    the settings), its computer players decide as :func:`hukum.online.challenge.bot_seed`
    says, nobody is given hints. None: any other room."""

    @property
    def spec(self) -> AnyGame:
        """The game the room plays."""
        return game_named(self.game)

    @cached_property
    def rules_dict(self) -> dict[str, Any]:
        """The rules as JSON, built once: every message about the table carries them (the
        same dict each time, so nobody may change it)."""
        return self.spec.rules_to_dict(self.rules)

    def bot_wait(self, bot_delay: float) -> float:
        """How long a computer player waits before its move, given the server's delay."""
        return bot_delay * BOT_SPEEDS.get(self.bot_speed, 1.0)

    def to_dict(self) -> dict[str, Any]:
        """JSON for the ``rooms`` row."""
        return {
            "game": self.game,
            "rules": self.rules_dict,
            "preset": self.preset,
            "bots": self.bots,
            "turn_timeout": self.turn_timeout,
            "spectators": self.spectators,
            "hints": self.hints,
            "bot_speed": self.bot_speed,
            "chat": self.chat,
            "pool": self.pool,
            "challenge": self.challenge,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """Settings from :meth:`to_dict` (rooms stored before Ganjifa existed are Mindi,
        those stored before watchers existed allow none, and those stored before hints give
        them only to a person alone with bots, and those stored before bot speeds play at
        normal speed)."""
        game = data.get("game", DEFAULT_GAME)
        rules = game_named(game).rules_from_dict(data["rules"])
        spectators = data.get("spectators") is True
        hints = data.get("hints") is True
        speed = data.get("bot_speed")
        chat = data.get("chat") is True  # rooms stored before chat existed have none
        pool = data.get("pool")  # rooms stored before the pools are casual
        challenge = data.get("challenge")
        return cls(
            rules,
            data["preset"],
            data["bots"],
            data["turn_timeout"],
            game,
            spectators,
            hints,
            speed if isinstance(speed, str) and speed in BOT_SPEEDS else "normal",
            chat,
            pool if isinstance(pool, str) else None,
            challenge if isinstance(challenge, str) else None,
        )
