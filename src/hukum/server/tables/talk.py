"""What is said at a table: a seat's quick phrase or (where the room's creator turned chat
on) a free line, kept in the table's event log as a ``said`` event, so that it survives a
reload and is the evidence of a report (docs/protocol.md, "Fair play").

A ``said`` event changes nothing of the play: the table's state only notes its number
(:attr:`~hukum.server.tables.state.TableState.event`), not its play step, so a bot's move
or a turn timer planned before it still happens at its time.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hukum.online.fairplay import SAY_EVERY, BadSaying, saying
from hukum.server.db import StoredEvent
from hukum.server.tables.errors import TableError

if TYPE_CHECKING:
    from hukum.server.tables.actor import Table

__all__ = ["SaidLine", "said_lines", "say"]

#: When each seat of each table (in this process, its owner) last said something.
_LAST: weakref.WeakKeyDictionary[Table, dict[int, float]] = weakref.WeakKeyDictionary()


async def say(
    table: Table,
    seat: int,
    phrase: str | None,
    text: str | None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Say a seat's line at the table (a ``said`` event); its event number. Refused:
    ``chat_off`` (free text where chat is off), ``text_too_long``, ``bad_message``, and
    ``rate_limited`` (more than one line per :data:`SAY_EVERY` seconds), changing nothing."""
    try:
        data: dict[str, Any] = {"seat": seat, **saying(phrase, text, chat=table.config.chat)}
    except BadSaying as e:
        raise TableError(e.code, str(e)) from None
    async with table.lock:
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise TableError("unknown_seat", f"no person at seat {seat}")
        last = _LAST.setdefault(table, {})
        now = clock()
        wait = last.get(seat, -SAY_EVERY) + SAY_EVERY - now
        if wait > 0:
            raise TableError(
                "rate_limited",
                f"one line every {SAY_EVERY:g} s: wait a moment",
                retry_after=max(1, round(wait)),
            )
        last[seat] = now
        return await table.commit("said", data)


class SaidLine(dict[str, Any]):
    """One line said at a table as a page is told it: ``event``, ``seat``, ``name`` (the
    seat's player's display name then), and ``phrase`` or ``text``."""


def said_lines(
    events: list[StoredEvent], hidden: Callable[[int, str | None], bool] | None = None
) -> list[SaidLine]:
    """The lines said at a table, in order, from its event log, with the name each seat's
    player had; ``hidden(seat, player)`` leaves out a line (a blocked speaker's)."""
    names: dict[int, str] = {}
    players: dict[int, str | None] = {}
    lines: list[SaidLine] = []
    for ev in events:
        seat = ev.data.get("seat")
        if not isinstance(seat, int):
            continue
        if ev.kind == "seat":
            names[seat] = str(ev.data.get("name", ""))
            player = ev.data.get("player")
            players[seat] = player if isinstance(player, str) else None
        elif ev.kind == "said":
            if hidden is not None and hidden(seat, players.get(seat)):
                continue
            line = SaidLine(event=ev.number, seat=seat, name=names.get(seat, ""))
            for key in ("phrase", "text"):
                if key in ev.data:
                    line[key] = ev.data[key]
            lines.append(line)
    return lines
