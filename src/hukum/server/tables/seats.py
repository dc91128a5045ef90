"""Seats: who sits where, the secret token a person holds a seat with, and the player
(identity, :mod:`hukum.server.identity`) whose seat it is, when a session took it."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BOT_NAMES", "Seat", "bot_name", "held_by", "holder", "new_token", "token_hash"]


@dataclass
class Seat:
    """One seat's public state (and its token's hash, and its player's id: never told)."""

    kind: str = "empty"
    """``empty``, ``human`` or ``bot``."""
    name: str = ""
    token_hash: str | None = None
    absent: bool = False
    """A bot plays for the person (their turn timed out)."""
    ready: bool = False
    """Ready for the next deal."""
    connections: int = 0
    """Open connections of the seat (not stored: the connections of now)."""
    player: str | None = None
    """The id of the player whose session took the seat (None: taken without one, or a
    bot). Kept in the seat's event, so that the seat follows the player to another device;
    never sent to a client."""


#: The names computer players are given: short, so that a seat's label fits on a phone, and
#: each its own, so that the players at a table are told apart as people are. The computer's
#: level is said beside the name (the table's ``bots``), never in it.
BOT_NAMES = (
    "Anil", "Bina", "Chetan", "Deepa", "Gita", "Hari", "Indu", "Jaya", "Kamal", "Lata",
    "Mohan", "Nisha", "Om", "Pooja", "Raju", "Sita", "Tara", "Uma", "Vijay", "Yash",
)  # fmt: skip


def bot_name(code: str, seat: int, taken: Sequence[str]) -> str:
    """The name of the computer player seated at ``seat`` of room ``code``: one of
    :data:`BOT_NAMES` picked from the code and the seat (the same on every server; stored in
    the seat's event, so every viewer and a reload see it), the next one along if a player
    at the table already has it (``taken``, in any case)."""
    used = {name.casefold() for name in taken}
    digest = hashlib.sha256(f"{code}/{seat}".encode()).digest()
    start = int.from_bytes(digest[:4], "big") % len(BOT_NAMES)
    names = BOT_NAMES[start:] + BOT_NAMES[:start]
    # A table has at most 8 seats: a name is always free.
    return next(name for name in names if name.casefold() not in used)


def new_token() -> str:
    """A seat token: 32 hex characters."""
    return secrets.token_hex(16)


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def holder(seats: Sequence[Seat], token: str | None) -> int | None:
    """The seat a person's token holds, or None."""
    if not token:
        return None
    h = token_hash(token)
    for i, s in enumerate(seats):
        if (
            s.kind == "human"
            and s.token_hash is not None
            and secrets.compare_digest(s.token_hash, h)
        ):
            return i
    return None


def held_by(seats: Sequence[Seat], player: str | None) -> int | None:
    """The seat player ``player`` (an identity's id) holds, or None."""
    if not player:
        return None
    for i, s in enumerate(seats):
        if s.kind == "human" and s.player is not None and secrets.compare_digest(s.player, player):
            return i
    return None
