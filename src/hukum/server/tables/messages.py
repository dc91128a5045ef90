"""Every message a seat is told, built in one place from the table's state and that seat's
engine view (M-20, G-11), never from the engine state itself.

A view on the wire is the game's own (:meth:`hukum.game.GameSpec.view_to_dict`) with the
table's facts of the deal added: the game, the deal number, the match scores, the
commitment of the deal's seed, and the seed itself once the deal is over. The same code
builds the messages told live and those replayed to a reconnecting seat, so both say the
same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hukum.server.protocol import view_message
from hukum.server.tables.state import TableState

__all__ = ["event_message", "event_messages", "public", "seat_view", "state_message"]


def public(state: TableState) -> dict[str, Any]:
    """The public table (no tokens, no cards)."""
    spec, config, match = state.spec, state.config, state.match
    return {
        "code": state.code,
        "game": spec.name,
        "rules": config.rules_dict,
        "preset": config.preset,
        "bots": config.bots,
        "turn_timeout": config.turn_timeout,
        "status": state.status,
        "seats": [
            {
                "seat": i,
                "kind": s.kind,
                "name": s.name,
                "connected": s.connections > 0,
                "absent": s.absent,
                "ready": s.ready,
            }
            for i, s in enumerate(state.seats)
        ],
        "scores": list(match.scores) if match is not None else spec.no_scores(config.rules),
        "deal_number": len(match.deals) if match is not None else 0,
        "event": state.event,
    }


def seat_view(state: TableState, seat: int) -> dict[str, Any] | None:
    """One seat's view of the latest deal as JSON (None before the first deal): the only
    description of a deal any client ever gets. The seed is shown once the deal is over."""
    match, deal = state.match, state.deal
    if match is None or deal is None:
        return None
    over = deal.is_over()
    return {
        "game": state.spec.name,
        **state.spec.view_to_dict(deal.view(seat)),
        "deal_number": len(match.deals),
        "scores": list(match.scores),
        "commitment": state.commitments[-1],
        "seed": str(deal.seed) if over and deal.seed is not None else None,
    }


def state_message(state: TableState, seat: int) -> dict[str, Any]:
    """A ``state`` message: the whole table as ``seat`` may see it (a resync)."""
    return view_message("state", seat_view(state, seat), event=state.event, table=public(state))


def _facts(
    state: TableState, seat: int, kind: str, data: dict[str, Any], move: object | None
) -> dict[str, Any]:
    """The public facts an event message carries besides the view (after the event)."""
    if kind == "move":
        return {"move": state.spec.move_text(move, data["seat"], seat)}
    if kind == "deal":
        return {"commitment": data["commitment"], "dealer": data["dealer"]}
    if kind == "deal_over":
        return {"seed": str(data["seed"]), "commitment": state.commitments[-1]}
    if kind == "match_over":
        return dict(data)  # the scores and the winner(s)
    return {}


def event_message(
    state: TableState,
    seat: int,
    kind: str,
    data: dict[str, Any],
    move: object | None = None,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The message that tells ``seat`` about the event just applied (``move``: a ``move``
    event's move, as :meth:`TableState.apply` read it; ``table``: the public table, if
    already built)."""
    return view_message(
        kind,
        seat_view(state, seat),
        event=state.event,
        table=public(state) if table is None else table,
        seat=data.get("seat"),
        extra=_facts(state, seat, kind, data, move),
    )


def event_messages(
    state: TableState, seats: Iterable[int], kind: str, data: dict[str, Any], move: object | None
) -> dict[int, dict[str, Any]]:
    """The message about the event just applied for each of ``seats``: the public table
    built once, each seat's message once however many connections it has."""
    table = public(state)
    return {seat: event_message(state, seat, kind, data, move, table) for seat in set(seats)}
