"""Seats: who sits where, and the secret token a person holds a seat with."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Seat", "holder", "new_token", "token_hash"]


@dataclass
class Seat:
    """One seat's public state (and its token's hash)."""

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
