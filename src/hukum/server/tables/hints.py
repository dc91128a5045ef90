"""Move suggestions for practice (docs/protocol.md, "hints"): a person whose turn it is asks,
and is told the move the game's strongest computer player would make, and why in one line.

Where a hint is allowed (:func:`allowed`): in a room made with ``"hints": true``, any
seated person; in any room, a person who is the only one at the table (every other seat a
bot, as at a *Play now* table), since nobody else's game is changed by it. Nowhere else:
the server refuses, ``no_hints``.

A hint is worked out from the asking seat's own view, the same view a bot of that seat is
given (M-20, G-11): the suggestion and its reason (:meth:`hukum.game.WebFacet.suggest`)
cannot name a card the seat has not seen. The view is taken under the table's lock, so it
never holds a move not yet stored; the bot then thinks in a worker thread, off the event
loop, while the table plays on. At most :data:`HINTS_AT_ONCE` hints are worked out at once
in a process, and one at a time for a seat; beyond that the answer is ``busy``, with
``retry_after``. The bot is seeded from the table, the event and the seat, so asking again
in the same position gives the same move.

A hint changes nothing at the table: no event, nothing stored. Who may ask is fixed by the
room's settings, which the public table shows every player (``"hints"``), and a lone
player's opponents are all bots; so the log keeps what was played, as at any table. It
works the same at a :class:`~hukum.server.tables.Replica` (another process's table, as
this process follows it): the replica holds the table's state, so the seat's view is taken
there, and the owner is not asked.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from dataclasses import dataclass
from typing import Any

from hukum.game import Reason, WebFacet
from hukum.server.tables.audience import Audience
from hukum.server.tables.errors import TableError
from hukum.server.tables.state import TableState

__all__ = ["HINTS_AT_ONCE", "RETRY_AFTER", "Hint", "Hints", "allowed"]

log = logging.getLogger("hukum.server")

#: How many hints one process works out at once by default (the machine's cores, roughly:
#: each takes one for up to about a second).
HINTS_AT_ONCE = 2
#: Seconds a client refused ``busy`` is told to wait before asking again.
RETRY_AFTER = 1


@dataclass(frozen=True)
class Hint:
    """A suggested move for one seat at one event."""

    event: int
    """The event the seat's view was taken at: the hint answers the turn after it."""
    move: str
    """The move, in the game's notation (as the seat would send it)."""
    why: str
    """Why, in one line of English, from the seat's view alone."""
    reason: list[dict[str, Any]]
    """The same as data (:meth:`hukum.game.Reason.to_dict`): each clause's message key and
    its arguments (cards and suits by their codes), for a client to write in its words."""


def allowed(state: TableState, seat: int) -> bool:
    """Whether the person at ``seat`` may ask for hints: the room allows them, or every
    other seat is a bot; never at a daily challenge's table."""
    if state.config.challenge is not None:
        return False
    if state.config.hints:
        return True
    return all(s.kind == "bot" for i, s in enumerate(state.seats) if i != seat)


class Hints:
    """The hints a process works out: at most :attr:`at_once` at a time, one per seat."""

    def __init__(self, at_once: int = HINTS_AT_ONCE) -> None:
        if at_once < 1:
            raise ValueError(f"at_once={at_once!r}: at least one hint at a time")
        self.at_once = at_once
        self._working: set[tuple[str, int]] = set()
        """(table code, seat) of each hint being worked out."""

    @property
    def working(self) -> int:
        """How many hints are being worked out now."""
        return len(self._working)

    async def ask(self, table: Audience, seat: int) -> Hint:
        """A hint for ``seat`` (held by the person asking) at ``table``, or TableError:
        ``no_hints`` where it is not allowed, ``not_started``, ``match_over``,
        ``not_your_turn`` (with ``turn``; ``null`` between deals), ``busy`` (with
        ``retry_after``), ``hint_failed`` (the bot failed; logged)."""
        async with table.lock:
            view, event = _position(table, seat)
        key = (table.code, seat)
        if key in self._working:
            raise TableError(
                "busy",
                "a suggestion for this seat is being worked out; wait for it",
                retry_after=RETRY_AFTER,
            )
        if len(self._working) >= self.at_once:
            raise TableError(
                "busy",
                f"this server is working out {self.at_once} suggestions, the most at once; "
                "ask again in a moment",
                retry_after=RETRY_AFTER,
            )
        seed = zlib.crc32(f"{table.code} {event} {seat}".encode())
        self._working.add(key)
        web = table.spec.web
        assert web is not None  # _position refused a game that offers no hints
        future = asyncio.get_running_loop().run_in_executor(None, _suggest, web, view, seed)
        # The seat's slot is given back when the thread ends, not when the caller stops
        # waiting: a thread cannot be stopped, and it counts until it ends.
        future.add_done_callback(lambda _: self._working.discard(key))
        try:
            move, reason = await asyncio.shield(future)
        except Exception:
            log.exception("working out a hint failed at table %s seat %d", table.code, seat)
            raise TableError("hint_failed", "the suggestion could not be worked out") from None
        return Hint(event, table.spec.move_text(move, seat, seat), reason.text, reason.to_dict())


def _suggest(web: WebFacet[Any, Any, Any, Any], view: Any, seed: int) -> tuple[Any, Reason]:
    """The hint bot's move from ``view`` and its reason (in a worker thread)."""
    move, _ = web.suggest(view, seed)
    return move, web.reason(view, move)


def _position(state: TableState, seat: int) -> tuple[Any, int]:
    """The view of ``seat`` to move and the event it is at, or the refusal."""
    if not allowed(state, seat):
        raise TableError(
            "no_hints",
            "this room does not allow move suggestions (only to a person alone with bots, "
            'or in a room made with "hints": true)',
        )
    spec = state.spec
    if spec.web is None:
        raise TableError("no_hints", f"{spec.title} gives no move suggestions")
    if state.status == "waiting" or state.match is None:
        raise TableError("not_started", "the match has not started")
    if state.status == "over":
        raise TableError("match_over", "the match is over")
    deal = state.match.current
    if deal is None:
        raise TableError("not_your_turn", "the deal is over; the next one has not begun", turn=None)
    if deal.turn != seat:
        raise TableError("not_your_turn", f"seat {deal.turn} is to move", turn=deal.turn)
    return deal.view(seat), state.event
