"""Tables: each room is a small actor owning its engine state, typed against
:mod:`hukum.game` (the game is known only at run time, from the room's settings).

- :mod:`~hukum.server.tables.config`: a room's settings (:class:`TableConfig`);
- :mod:`~hukum.server.tables.seats`: seats and the tokens that hold them;
- :mod:`~hukum.server.tables.state`: the state at one event and how a stored event
  changes it, the same code live and on replay;
- :mod:`~hukum.server.tables.messages`: every message a seat is told, built in one place;
- :mod:`~hukum.server.tables.audience`: the connections of a table's seats, each told its
  own message about every event, and brought up to date when it (re)connects;
- :mod:`~hukum.server.tables.commands`: every command a table takes, declared once (its
  payload, who may send it, its handler), read by the socket, the lobby, the replica's
  relay and the cluster's handler;
- :mod:`~hukum.server.tables.errors`: :class:`TableError`, a refusal by code (no HTTP:
  :mod:`hukum.server.protocol` gives each code its status);
- :mod:`~hukum.server.tables.actor`: the :class:`Table` itself: one change at a time,
  stored before anyone is told, and its narrow interface (run a command, subscribe);
- :mod:`~hukum.server.tables.replica`: a table owned by another process of a cluster
  (:class:`Replica`), followed from its owner, with the same interface;
- :mod:`~hukum.server.tables.scheduler`: bots, turn timers, the next deal, the pause;
- :mod:`~hukum.server.tables.registry`: every table of the process (:class:`Registry`).
"""

from __future__ import annotations

from hukum.server.tables.actor import Table
from hukum.server.tables.audience import RESUME_LIMIT, Send
from hukum.server.tables.config import TableConfig
from hukum.server.tables.errors import TableError
from hukum.server.tables.registry import (
    CODE_ALPHABET,
    CODE_LENGTH,
    IDLE_SECONDS,
    MAX_TABLES,
    Registry,
    Room,
    new_code,
)
from hukum.server.tables.replica import Replica
from hukum.server.tables.scheduler import Stale
from hukum.server.tables.seats import Seat, new_token, token_hash

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "IDLE_SECONDS",
    "MAX_TABLES",
    "RESUME_LIMIT",
    "Registry",
    "Replica",
    "Room",
    "Seat",
    "Send",
    "Stale",
    "Table",
    "TableConfig",
    "TableError",
    "new_code",
    "new_token",
    "token_hash",
]
