"""A closed challenge deal compared with the field (``GET /api/challenge/<day>/deals/<n>/field``):
at each decision of seat 0 at one table of the deal, the share of the field who stood at the
same position and played each legal card, and the exact solver's value of each card.

The experts are deterministic (:func:`hukum.online.challenge.bot_seed`), so two tables whose
moves are equal so far stand at the same position: the field at a decision is every table
of the deal whose first moves are the same. The solver sees all four hands (the deal is
closed, its seed revealed); a position it cannot solve within :data:`FIELD_NODES` gets no
values. Each position's values are kept (:data:`_solved`), and a closed day's moves too,
since neither ever changes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
from collections import OrderedDict
from typing import Any

from hukum.bots.solver import Solver, SolverError
from hukum.games import game_named
from hukum.online.challenge import GAME, SEAT, rules_of
from hukum.server.db import Store
from hukum.server.identity.sessions import Me
from hukum.server.play.challenge import DayDeal, entries_of_day
from hukum.server.protocol import ProtocolError

__all__ = ["FIELD_NODES", "compare", "decisions"]

#: The most positions the solver searches for one decision's cards.
FIELD_NODES = 3_000_000
#: The most positions whose values are kept.
KEPT = 4096

_lock = threading.Lock()
_solved: OrderedDict[tuple[str, int, tuple[str, ...]], dict[str, int] | None] = OrderedDict()
_solvers: dict[str, Solver] = {}


def _moves(store: Store, room: str) -> list[str]:
    """A table's moves, as their stored text, in order."""
    return [str(ev.data["move"]) for ev in store.events(room) if ev.kind == "move"]


def _values(day: dt.date, deal: DayDeal, moves: tuple[str, ...]) -> dict[str, int] | None:
    """The solver's value (team 0's forecast, 0 to 7) of each legal card after ``moves``
    (None: beyond :data:`FIELD_NODES`, or a position it does not handle)."""
    key = (str(deal.seed), deal.number, moves)
    with _lock:
        if key in _solved:
            _solved.move_to_end(key)
            return _solved[key]
        rules: Any = rules_of(day)
        solver = _solvers.get(deal.preset)
        if solver is None:
            solver = _solvers[deal.preset] = Solver(rules)
    spec = game_named(GAME)
    position: Any = spec.new_deal(rules, deal.dealer, deal.seed)
    for text in moves:
        position.push(spec.parse_move(text))
    try:
        solution = solver.solve(position, FIELD_NODES)
        values: dict[str, int] | None = {str(m): f.value for m, f in solution.moves.items()}
    except SolverError:  # its budget too
        values = None
    with _lock:
        _solved[key] = values
        while len(_solved) > KEPT:
            _solved.popitem(last=False)
    return values


def decisions(
    day: dt.date, deal: DayDeal, mine: list[str], field: list[list[str]]
) -> list[dict[str, Any]]:
    """Each decision of seat 0 with more than nothing to compare: its move number, the legal
    cards, what the table played, how many of the field stood there, the share of them who
    played each card, and the solver's value of each card (for team 0, 0 to 7)."""
    spec = game_named(GAME)
    rules: Any = rules_of(day)
    position: Any = spec.new_deal(rules, deal.dealer, deal.seed)
    out: list[dict[str, Any]] = []
    for i, text in enumerate(mine):
        if position.turn == SEAT:
            legal = [str(m) for m in position.legal_moves()]
            here = [m for m in field if m[:i] == mine[:i] and len(m) > i]
            counts = {card: sum(1 for m in here if m[i] == card) for card in legal}
            out.append(
                {
                    "move": i,
                    "legal": legal,
                    "played": text,
                    "field": len(here),
                    "share": {c: (n / len(here) if here else 0.0) for c, n in counts.items()},
                    "solver": _values(day, deal, tuple(mine[:i])) if len(legal) > 1 else None,
                }
            )
        position.push(spec.parse_move(text))
    return out


def _compare(
    store: Store, day: dt.date, deal: DayDeal, room: str | None, me: Me | None
) -> dict[str, Any]:
    entries = [e for e in entries_of_day(store, day) if e.number == deal.number]
    if room is None:
        own = next((e for e in entries if me is not None and e.player == me.id), None)
        if own is None:
            raise ProtocolError(
                "unknown_table", "you did not play this deal: name one of its tables (?room=)"
            )
        room = own.room
    elif not any(e.room == room for e in entries):
        raise ProtocolError("unknown_table", f"table {room!r} did not play this deal")
    moves = {e.room: _moves(store, e.room) for e in entries}
    return {
        "day": day.isoformat(),
        "number": deal.number,
        "room": room,
        "players": len(entries),
        "decisions": decisions(day, deal, moves[room], list(moves.values())),
    }


async def compare(
    store: Store, day: dt.date, deal: DayDeal, room: str | None, me: Me | None
) -> dict[str, Any]:
    """:func:`decisions` for table ``room`` of a closed deal (default: the caller's), off
    the event loop."""
    return await asyncio.to_thread(_compare, store, day, deal, room, me)
