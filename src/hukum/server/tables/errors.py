"""The one error of the tables: :class:`TableError`, a refusal with a stable code.

A table refuses with a code (``seat_taken``, ``not_your_turn``…), a reason in English and
further details for programs (``turn``, ``rule_ids``, ``retry_after``); it knows nothing of
HTTP or WebSocket close codes, which :mod:`hukum.server.protocol` alone gives each code.
"""

from __future__ import annotations

from hukum.game import GameError, IllegalMoveError, InvalidMoveError, RulesError

__all__ = ["GAME_ERROR_CODES", "TableError", "refused"]


class TableError(Exception):
    """A refused request: a stable ``code``, a ``message`` (English, for logs and
    programs; the page writes its own sentence from the code and ``details``) and
    ``details``: more fields of the error for programs, e.g. ``rule_ids`` or ``turn``."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


#: The error code of each kind of game error (:mod:`hukum.game`); any other is ``bad_request``.
GAME_ERROR_CODES: tuple[tuple[type[GameError], str], ...] = (
    (InvalidMoveError, "invalid_move"),
    (IllegalMoveError, "illegal_move"),
    (RulesError, "bad_rules"),
)


def refused(error: GameError) -> TableError:
    """A game's error (any game's) as the error the client is sent: its message, and the
    ids of the rules it breaks (``rule_ids``, the engine's :attr:`GameError.rule_ids`;
    none: no such field)."""
    code = next((c for kind, c in GAME_ERROR_CODES if isinstance(error, kind)), "bad_request")
    refusal = TableError(code, str(error))
    if error.rule_ids:
        refusal.details["rule_ids"] = list(error.rule_ids)
    return refusal
